//! The undo history as a value: [`Change`]s record the state of what an edit touched, a
//! [`Transaction`] is one undoable step (its state before and after), and [`History`] keeps
//! them with undo, redo and stroke merging (helix's `Transaction` and `History` are the
//! model). Nothing here runs Lua: applying a change puts recorded state back into the
//! [`World`] and touches what it changed, so the same values can serve the editor's undo, a
//! play session's step back and a recording's replay. The host layer above makes
//! transactions from the editor's edits (`runtime/host/src/editing/edit.rs`); nothing here knows of it.
//!
//! Undo applies a transaction's "before" states and redo its "after" states, so undoing is
//! exact — a removed object comes back with the same uid at the same place — and needs no
//! inverse operation per kind of edit. Objects a transaction refers to are pinned while the
//! history holds it, so they stay alive while it can be undone or redone.

use std::collections::{HashSet, VecDeque};
use std::sync::Arc;

use crate::location::Location;
use crate::map::MapId;
use crate::moddable::{FieldMap, TempValue};
use crate::object::Uid;
use crate::source_patch::{PatchSide, SourcePatch};
use crate::symbol::Symbol;
use crate::value::Value;
use crate::world::{World, WorldState};

/// The most characters of a value a history label shows.
pub const LABEL_VALUE_CHARS: usize = 60;

/// How a history label shows `value`: whole, or its first [`LABEL_VALUE_CHARS`] characters
/// and "…" — a label is one line of the History pane, and every answer of the remote
/// protocol that edits carries them all.
pub fn label_value(value: &Value) -> String {
    let text = value.to_string();
    match text.char_indices().nth(LABEL_VALUE_CHARS) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text,
    }
}

/// Most transactions the history keeps.
pub const MAX_HISTORY: usize = 200;

/// The state of one thing an edit touched, as it was at one moment.
#[derive(Clone, Debug, PartialEq)]
pub enum Change {
    /// A field's own base entry (None: the prototype's shows) and temp value.
    Field {
        /// The object.
        uid: Uid,
        /// The field.
        field: Symbol,
        /// Its own base value.
        own: Option<Value>,
        /// Its temp value.
        temp: Option<TempValue>,
    },
    /// An object's prototype (`obj:change_prototype(id)`).
    Prototype {
        /// The object.
        uid: Uid,
        /// The prototype.
        proto: crate::data::ProtoIdx,
    },
    /// Every temp value of an object.
    Temps {
        /// The object.
        uid: Uid,
        /// Its temp values.
        temps: FieldMap<TempValue>,
    },
    /// Where an object is (None: ownerless).
    Place {
        /// The object.
        uid: Uid,
        /// Its location.
        location: Option<Location>,
        /// Column.
        x: i32,
        /// Row.
        y: i32,
    },
    /// The tile of a cell.
    Tile {
        /// The map.
        map: MapId,
        /// Column.
        x: i32,
        /// Row.
        y: i32,
        /// The tile.
        tile: Symbol,
    },
    /// A map's whole grid. Applying it takes the map's objects off; the `Place` changes
    /// recorded with it put them back.
    Grid {
        /// The map.
        map: MapId,
        /// Width in cells.
        width: i32,
        /// Height in cells.
        height: i32,
        /// Every cell's tile, row by row.
        tiles: Arc<Vec<Symbol>>,
        /// The entrance.
        entrance: Option<(i32, i32)>,
    },
    /// The lines of a Lua file a form's edit changed (a prototype edited, copied, made or
    /// deleted), as one side of its patch: the lines it replaced in "before", the lines it
    /// wrote in "after". Not world state: when undo or redo puts one back, the host turns those
    /// lines of the file as it is now to this side, if they still hold the other, and
    /// hotloads it (see [`Transaction::sources`] and [`crate::source_patch`]).
    Source {
        /// The edit's patch of the file.
        patch: Arc<SourcePatch>,
        /// The side of it the file holds in this state.
        side: PatchSide,
    },
    /// The auto-tiling laid on a map (None: none): its rules, seed and intent grid.
    Autotile {
        /// The map.
        map: MapId,
        /// The layer.
        layer: Option<Arc<crate::autotile::AutotileLayer>>,
    },
    /// A map's art layers, bottom first (see [`crate::map::ArtLayer`]).
    ArtLayers {
        /// The map.
        map: MapId,
        /// Its layers.
        layers: crate::map::ArtLayers,
    },
    /// A map's own values a merge can clash on, and the conflicts it left.
    MapValues {
        /// The map.
        map: MapId,
        /// Its name.
        name: String,
        /// Its entrance.
        entrance: Option<(i32, i32)>,
        /// How it was generated.
        generated: Option<Arc<crate::map::Generated>>,
        /// Its own base values.
        fields: FieldMap,
        /// The conflicts left to pick.
        conflicts: Arc<Vec<crate::conflict::Conflict>>,
    },
}

/// What a change is about: two changes with the same key record the same thing.
#[derive(Clone, PartialEq, Eq, Hash)]
enum ChangeKey {
    Field(Uid, Symbol),
    Temps(Uid),
    Prototype(Uid),
    Place(Uid),
    Tile(MapId, i32, i32),
    Grid(MapId),
    MapValues(MapId),
    Autotile(MapId),
    ArtLayers(MapId),
    Source(Arc<SourcePatch>),
}

impl Change {
    /// The object it is about, if it is about one (such objects stay pinned).
    pub fn uid(&self) -> Option<Uid> {
        match self {
            Change::Field { uid, .. }
            | Change::Temps { uid, .. }
            | Change::Prototype { uid, .. }
            | Change::Place { uid, .. } => Some(*uid),
            Change::Tile { .. }
            | Change::Grid { .. }
            | Change::MapValues { .. }
            | Change::Autotile { .. }
            | Change::ArtLayers { .. }
            | Change::Source { .. } => None,
        }
    }

    fn key(&self) -> ChangeKey {
        match self {
            Change::Field { uid, field, .. } => ChangeKey::Field(*uid, *field),
            Change::Temps { uid, .. } => ChangeKey::Temps(*uid),
            Change::Prototype { uid, .. } => ChangeKey::Prototype(*uid),
            Change::Place { uid, .. } => ChangeKey::Place(*uid),
            Change::Tile { map, x, y, .. } => ChangeKey::Tile(*map, *x, *y),
            Change::Grid { map, .. } => ChangeKey::Grid(*map),
            Change::MapValues { map, .. } => ChangeKey::MapValues(*map),
            Change::Autotile { map, .. } => ChangeKey::Autotile(*map),
            Change::ArtLayers { map, .. } => ChangeKey::ArtLayers(*map),
            Change::Source { patch, .. } => ChangeKey::Source(patch.clone()),
        }
    }
}

/// One undoable step: the state of what it touched before and after, and its name.
#[derive(Clone, Debug, PartialEq)]
pub struct Transaction {
    /// Its name in the History pane and the Edit menu ("Paint 12 cells with elona.grass").
    pub label: String,
    /// The state before, put back by undo.
    pub before: Vec<Change>,
    /// The state after, put back by redo.
    pub after: Vec<Change>,
    /// The stroke it belongs to, if it is part of one: parts of a stroke merge.
    pub stroke: Option<u64>,
}

impl Transaction {
    /// The patches of files among `changes` (a transaction's before or after), each with the
    /// side the file is to hold: what the host writes and hotloads when it puts them back.
    pub fn sources(changes: &[Change]) -> Vec<(Arc<SourcePatch>, PatchSide)> {
        changes
            .iter()
            .filter_map(|change| match change {
                Change::Source { patch, side } => Some((patch.clone(), *side)),
                _ => None,
            })
            .collect()
    }

    /// A form's edit of files as one step: each patch's old lines before, its new lines after.
    pub fn of_patches(label: String, patches: impl IntoIterator<Item = SourcePatch>) -> Transaction {
        let (before, after) = patches
            .into_iter()
            .map(|patch| {
                let patch = Arc::new(patch);
                let side = |side| Change::Source { patch: patch.clone(), side };
                (side(PatchSide::Old), side(PatchSide::New))
            })
            .unzip();
        Transaction::new(label, before, after)
    }

    /// The patches of files this step makes (those its "after" holds the new lines of).
    pub fn patches(&self) -> Vec<SourcePatch> {
        Transaction::sources(&self.after)
            .into_iter()
            .filter(|(_, side)| *side == PatchSide::New)
            .map(|(patch, _)| SourcePatch::clone(&patch))
            .collect()
    }

    /// A transaction of no stroke.
    pub fn new(label: String, before: Vec<Change>, after: Vec<Change>) -> Transaction {
        Transaction { label, before, after, stroke: None }
    }

    /// Puts its "after" state into `world` (doing it again).
    pub fn apply(&self, world: &mut World) {
        apply_changes(world, &self.after);
    }

    /// The transaction that undoes this one: before and after swapped.
    pub fn invert(&self) -> Transaction {
        Transaction {
            label: self.label.clone(),
            before: self.after.clone(),
            after: self.before.clone(),
            stroke: self.stroke,
        }
    }

    /// Adds a later part of the same stroke: the earliest "before" and the latest "after"
    /// of each thing touched are kept.
    pub fn merge(&mut self, later: Transaction) {
        let known: HashSet<ChangeKey> = self.before.iter().map(Change::key).collect();
        self.before.extend(later.before.into_iter().filter(|c| !known.contains(&c.key())));
        let newer: HashSet<ChangeKey> = later.after.iter().map(Change::key).collect();
        self.after.retain(|c| !newer.contains(&c.key()));
        self.after.extend(later.after);
        self.label = self.painted_label().unwrap_or(later.label);
    }

    /// "Paint 12 cells with elona.grass" if every change is a cell painted with one tile;
    /// "Paint 12 cells of art layer 'roofs' with elona.roof" if it painted one art layer.
    fn painted_label(&self) -> Option<String> {
        if let ([Change::ArtLayers { layers: before, .. }], [Change::ArtLayers { layers: after, .. }]) =
            (self.before.as_slice(), self.after.as_slice())
        {
            return crate::map::art_paint_label(before, after);
        }
        let mut tiles = self.after.iter().map(|change| match change {
            Change::Tile { tile, .. } => Some(*tile),
            _ => None,
        });
        let first = tiles.next()??;
        tiles.all(|tile| tile == Some(first)).then(|| paint_label(self.after.len(), first))
    }
}

/// The History label of painting `cells` cells with `tile`.
pub fn paint_label(cells: usize, tile: Symbol) -> String {
    let noun = if cells == 1 { "cell" } else { "cells" };
    format!("Paint {cells} {noun} with {tile}")
}

/// The editor's undo history.
#[derive(Default)]
pub struct History {
    entries: VecDeque<Transaction>,
    /// How many entries are done (the rest were undone and can be redone).
    done: usize,
    /// How many transactions were ever recorded (merged parts of a stroke too).
    recorded: u64,
}

/// The history as the History pane shows it.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, Default, PartialEq, Eq)]
pub struct HistoryView {
    /// Each entry's label, oldest first.
    pub labels: Vec<String>,
    /// How many of them are done; the rest can be redone.
    pub done: usize,
}

impl History {
    /// What the History pane shows.
    pub fn view(&self) -> HistoryView {
        HistoryView { labels: self.entries.iter().map(|e| e.label.clone()).collect(), done: self.done }
    }

    /// Records a transaction already applied to `world`: the undone ones after it are
    /// dropped (a new branch), a part of the stroke of the last one merges into it, and the
    /// oldest is dropped past [`MAX_HISTORY`].
    pub fn record(&mut self, world: &mut World, entry: Transaction) {
        self.recorded += 1;
        while self.entries.len() > self.done {
            let dropped = self.entries.pop_back().expect("longer than done");
            unpin(world, &dropped);
        }
        if let Some(last) = self.entries.back_mut()
            && entry.stroke.is_some()
            && last.stroke == entry.stroke
        {
            // Pins are counted: the merged entry holds each of its objects once.
            unpin(world, last);
            last.merge(entry);
            pin(world, last);
            return;
        }
        pin(world, &entry);
        self.entries.push_back(entry);
        self.done += 1;
        if self.entries.len() > MAX_HISTORY {
            let dropped = self.entries.pop_front().expect("not empty");
            unpin(world, &dropped);
            self.done -= 1;
        }
    }

    /// How many transactions were ever recorded: a command that changed it recorded one
    /// (the newest, [`History::next_undo`]).
    pub fn recorded(&self) -> u64 {
        self.recorded
    }

    /// The edit [`History::undo`] would undo next.
    pub fn next_undo(&self) -> Option<&Transaction> {
        self.entries.get(self.done.checked_sub(1)?)
    }

    /// The edit [`History::redo`] would redo next.
    pub fn next_redo(&self) -> Option<&Transaction> {
        self.entries.get(self.done)
    }

    /// Undoes the last done edit. Returns its label, or None if there is nothing to undo.
    pub fn undo(&mut self, world: &mut World) -> Option<String> {
        let entry = self.entries.get(self.done.checked_sub(1)?)?;
        apply_changes(world, &entry.before);
        self.done -= 1;
        Some(entry.label.clone())
    }

    /// Redoes the next undone edit. Returns its label, or None if there is nothing to redo.
    pub fn redo(&mut self, world: &mut World) -> Option<String> {
        let entry = self.entries.get(self.done)?;
        apply_changes(world, &entry.after);
        self.done += 1;
        Some(entry.label.clone())
    }
}

fn uids_of(entry: &Transaction) -> Vec<Uid> {
    let mut uids: Vec<Uid> = entry.before.iter().chain(&entry.after).filter_map(Change::uid).collect();
    uids.sort();
    uids.dedup();
    uids
}

fn pin(world: &mut World, entry: &Transaction) {
    for uid in uids_of(entry) {
        // An object already gone (it fails with NoSuchObject) has nothing to keep alive.
        world.pin(uid).ok();
    }
}

fn unpin(world: &mut World, entry: &Transaction) {
    for uid in uids_of(entry) {
        world.unpin(uid);
    }
}

/// What changed from `before` to `world`, as the "before" and "after" of a transaction:
/// objects made, moved or taken off (their places), their own base and temp values (field by
/// field), and the tiles of maps both have (cell by cell, or the whole grid if its size
/// changed). This is how code run in the REPL becomes an undoable edit. Maps made or dropped
/// are not in it.
pub fn changes_since(before: &WorldState, world: &World) -> (Vec<Change>, Vec<Change>) {
    let (mut undo, mut redo) = (Vec::new(), Vec::new());
    let place = |object: Option<&crate::object::Object>, uid: Uid| match object {
        Some(o) => Change::Place { uid, location: o.location(), x: o.x, y: o.y },
        None => Change::Place { uid, location: None, x: 0, y: 0 },
    };
    for (&uid, now) in world.objects.iter() {
        let was = before.objects().get(&uid);
        if was.is_none_or(|o| (o.location(), o.x, o.y) != (now.location(), now.x, now.y)) {
            undo.push(place(was, uid));
            redo.push(place(Some(now), uid));
        }
        let Some(was) = was else { continue };
        if was.proto != now.proto {
            undo.push(Change::Prototype { uid, proto: was.proto });
            redo.push(Change::Prototype { uid, proto: now.proto });
        }
        let (old, new) = (&was.fields, &now.fields);
        let fields: HashSet<Symbol> = [&old.base, &new.base]
            .into_iter()
            .flat_map(|m| m.iter().map(|(f, _)| f))
            .chain([&old.temp, &new.temp].into_iter().flat_map(|m| m.iter().map(|(f, _)| f)))
            .collect();
        for field in fields {
            let (own, temp) = (old.base.get(field), old.temp.get(field));
            let (own_now, temp_now) = (new.base.get(field), new.temp.get(field));
            if own != own_now || temp != temp_now {
                undo.push(Change::Field { uid, field, own: own.cloned(), temp: temp.cloned() });
                redo.push(Change::Field { uid, field, own: own_now.cloned(), temp: temp_now.cloned() });
            }
        }
    }
    for (&map, was) in before.maps() {
        let Ok(now) = world.map(map) else { continue };
        if was.autotile() != now.autotile.as_ref() {
            undo.push(Change::Autotile { map, layer: was.autotile().cloned() });
            redo.push(Change::Autotile { map, layer: now.autotile.clone() });
        }
        if was.art_layers() != now.art_layers() {
            undo.push(Change::ArtLayers { map, layers: was.art_layers().clone() });
            redo.push(Change::ArtLayers { map, layers: now.art_layers().clone() });
        }
        let (old_tiles, new_tiles) = (was.tile_ids(), now.tile_ids());
        if (was.width(), was.height()) != (now.width(), now.height()) {
            let grid = |(width, height), entrance, tiles: Vec<Symbol>| Change::Grid {
                map,
                width,
                height,
                tiles: Arc::new(tiles),
                entrance,
            };
            // Applying a grid takes the map's objects off: their places follow it.
            let on_map: HashSet<Uid> = was.objects().iter().chain(now.objects().iter()).collect();
            undo.insert(0, grid((was.width(), was.height()), was.entrance(), old_tiles));
            redo.insert(0, grid((now.width(), now.height()), now.entrance, new_tiles));
            for uid in on_map {
                undo.push(place(before.objects().get(&uid), uid));
                redo.push(place(world.objects.get(&uid), uid));
            }
            continue;
        }
        let width = usize::try_from(now.width()).unwrap_or(0).max(1);
        for (index, (&old, &tile)) in old_tiles.iter().zip(&new_tiles).enumerate() {
            if old != tile {
                let (x, y) = ((index % width) as i32, (index / width) as i32);
                undo.push(Change::Tile { map, x, y, tile: old });
                redo.push(Change::Tile { map, x, y, tile });
            }
        }
    }
    (undo, redo)
}

/// Where each object of `uids` is, as changes that put it back there.
pub fn places(world: &World, uids: &[Uid]) -> Vec<Change> {
    uids.iter()
        .filter_map(|&uid| {
            let object = world.object(uid).ok()?;
            Some(Change::Place { uid, location: object.location(), x: object.x, y: object.y })
        })
        .collect()
}

/// Puts recorded states back into `world`, in order.
pub fn apply_changes(world: &mut World, changes: &[Change]) {
    if !changes.is_empty() {
        // Views of the world are rebuilt (a place put back touches no field).
        world.touch();
    }
    for change in changes {
        match change {
            Change::Field { uid, field, own, temp } => {
                if let Ok(object) = world.object_mut(*uid) {
                    match own {
                        Some(value) => object.fields.base.insert(*field, value.clone()),
                        None => object.fields.base.remove(*field),
                    };
                    match temp {
                        Some(temp) => object.fields.temp.insert(*field, temp.clone()),
                        None => object.fields.temp.remove(*field),
                    };
                    world.touch_object(*uid);
                    world.base_changed(*uid);
                }
            }
            Change::Temps { uid, temps } => {
                if let Ok(object) = world.object_mut(*uid) {
                    object.fields.temp = temps.clone();
                    world.touch_object(*uid);
                }
            }
            Change::Prototype { uid, proto } => {
                let _ = world.set_prototype(*uid, *proto);
            }
            Change::Tile { map, x, y, tile } => {
                if let Ok(instance) = world.map_mut(*map) {
                    instance.set_tile(*x, *y, *tile);
                }
            }
            Change::Grid { map, width, height, tiles, entrance } => {
                let Ok(instance) = world.map(*map) else { continue };
                let on_it: Vec<Uid> = instance.objects().iter().collect();
                for uid in on_it {
                    world.detach(uid);
                }
                let instance = world.map_mut(*map).expect("checked above");
                instance.reshape(*width, *height, tiles);
                instance.entrance = *entrance;
            }
            Change::MapValues { map, name, entrance, generated, fields, conflicts } => {
                if let Ok(instance) = world.map_mut(*map) {
                    instance.fields.base = fields.clone();
                    instance.name = name.clone();
                    instance.entrance = *entrance;
                    instance.generated = generated.clone();
                    instance.conflicts = conflicts.clone();
                    // What the map file writes changed: it has unsaved changes.
                    instance.touch_objects();
                }
            }
            Change::Autotile { map, layer } => {
                if let Ok(instance) = world.map_mut(*map) {
                    instance.autotile = layer.clone();
                    // What the map file writes changed: it has unsaved changes.
                    instance.touch_objects();
                }
            }
            Change::ArtLayers { map, layers } => {
                if let Ok(instance) = world.map_mut(*map) {
                    instance.set_art_layers(layers.clone());
                }
            }
            // The host's to put back (a file and its hotload).
            Change::Source { .. } => {}
            Change::Place { uid, location, x, y } => {
                if !world.exists(*uid) {
                    continue;
                }
                world.detach(*uid);
                match location {
                    Some(location) => world.attach(*uid, *location, *x, *y),
                    None => {
                        if let Ok(object) = world.object_mut(*uid) {
                            object.x = *x;
                            object.y = *y;
                        }
                    }
                }
            }
        }
    }
    // Fields put back directly: watches see them as changed here (undo, redo).
    if !world.watches().is_empty() {
        world.compare_all_watched();
    }
}

#[cfg(test)]
mod tests;
