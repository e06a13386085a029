//! Checks of what a file says, made before anything is built from it.
//!
//! Map files, saves, `project.ron` and `mod.ron` are hand-edited text and shared between
//! people, so every loader first parses into a record, then runs the checks here over the
//! whole record, and only then allocates maps and objects. A check never stops at the first
//! problem: it returns all of them, each with a [`Place`] that [`RecordError::locate`] turns
//! into the file's line, so `nefia check` can list everything and a refusal names
//! `file:line`, the field and the value. Nothing in the world changes on a refusal.
//!
//! The records are read with `deny_unknown_fields`, so a misspelled key is refused naming the
//! nearest known one (`files.rs`). An object whose prototype no loaded mod defines is not a
//! problem: map files and saves alike keep it aside on its map (`InstancedMap::unresolved`) and
//! write it back where it was.

use std::collections::BTreeSet;
use std::fmt;
use std::path::Path;

use rustc_hash::FxHashMap;

use crate::files::FileError;
use crate::map::MapId;
use crate::map::{MAX_MAP_SIDE, check_map_size};
use crate::object::{ObjectKind, Uid};
use crate::object_record::ObjectRecord;
use crate::record_error::{Place, RecordError, RecordProblem};
use crate::save::{MapRecord, RecordKind, SAVE_FORMAT, SaveGame};
use crate::symbol::Symbol;
use crate::value::{MAX_TABLE_DEPTH, Value};
use crate::world::World;

mod grid;
use grid::{check_art_layers, check_autotile, check_palette, check_rows};

/// The most distinct tiles one map may use.
pub const MAX_PALETTE: usize = 4096;

/// The most cells all the maps of one save may have together (four maps of the largest
/// size): a save cannot make the engine allocate more than this.
pub const MAX_SAVE_CELLS: u64 = 4 * (MAX_MAP_SIDE as u64) * (MAX_MAP_SIDE as u64);

/// A refusal of a world operation on a record read from `path` (with contents `text`) as a
/// [`FileError`]: a [`RecordError`] names the line of its first problem.
pub fn refusal_in_file(error: crate::world::WorldError, path: &Path, text: &str) -> FileError {
    match error {
        crate::world::WorldError::Record(record) => record.first_located(path, text),
        other => FileError::new(path, other.to_string()),
    }
}

/// Collects problems; a check adds to it and never stops early.
#[derive(Default)]
struct Problems(Vec<RecordProblem>);

impl Problems {
    fn add(&mut self, place: Place, message: impl Into<String>) {
        self.0.push(RecordProblem { place, message: message.into() });
    }

    fn finish(self) -> Result<(), RecordError> {
        if self.0.is_empty() { Ok(()) } else { Err(RecordError { problems: self.0 }) }
    }
}

/// The uids a save's records give out. Only the player's place is kept (a save of a million
/// characters has four million objects: a map of every uid to its place asked 390 MB).
#[derive(Default)]
struct Uids {
    objects: UidBits,
    /// The highest object uid given out.
    highest: Option<u64>,
    /// The save's player uid, and where its record was first seen.
    player: Option<u64>,
    player_place: Option<Place>,
    maps: BTreeSet<u64>,
}

/// A set of uids as bits, 128 to an entry: a save's uids come in runs, so four million of them
/// take about a megabyte (a hash set of them, 72).
#[derive(Default)]
struct UidBits(FxHashMap<u64, u128>);

impl UidBits {
    /// Adds `uid`, returning false if it was in already.
    fn insert(&mut self, uid: u64) -> bool {
        let bit = 1u128 << (uid % 128);
        let bits = self.0.entry(uid / 128).or_default();
        let fresh = *bits & bit == 0;
        *bits |= bit;
        fresh
    }
}

/// Counts object records by prototype id in file order, so a problem can name the `nth`.
#[derive(Default)]
struct Seen(FxHashMap<Symbol, usize>);

impl Seen {
    fn next(&mut self, map: Option<usize>, id: Symbol) -> Place {
        let nth = self.0.entry(id).or_default();
        let place = Place::Object { map, id, nth: *nth };
        *nth += 1;
        place
    }
}

/// Checks one map record: its size, palette, rows, entrance, memory and objects. `map` is
/// its index among the file's maps; `uids` collects a save's uids to find repeats.
fn check_map(world: &World, record: &MapRecord, kind: RecordKind, map: usize, uids: &mut Uids, out: &mut Problems) {
    let field = |field| Place::MapField { map, field };
    let (width, height) = (record.width, record.height);
    let size_ok = match check_map_size(width.into(), height.into()) {
        Ok(()) => true,
        Err(message) => {
            out.add(field("width"), format!("map '{}': {message} (width: {width}, height: {height})", record.name));
            false
        }
    };
    if kind == RecordKind::SaveGame {
        match record.uid {
            None => out.add(field("name"), format!("map '{}' has no uid (every map of a save has one)", record.name)),
            Some(MapId(uid)) if !uids.maps.insert(uid) => {
                out.add(field("uid"), format!("map uid {uid} is given to two maps (uid: {uid})"))
            }
            Some(_) => {}
        }
    }
    let code_width = check_palette(record, map, out);
    if size_ok {
        if record.tiles.len() != height as usize {
            out.add(field("tiles"), format!("tiles has {} rows, but height is {height}", record.tiles.len()));
        }
        if let Some(code_width) = code_width {
            check_rows(record, map, code_width, out);
        }
    }
    let inside = |x: i32, y: i32| size_ok && x >= 0 && y >= 0 && x < width && y < height;
    if let Some((x, y)) = record.entrance
        && !inside(x, y)
    {
        out.add(field("entrance"), format!("entrance ({x}, {y}) is outside the {width}x{height} map"));
    }
    if kind == RecordKind::SaveGame {
        if size_ok && record.memory.len() as u64 > (width as u64) * (height as u64) {
            out.add(field("memory"), format!("memory has {} cells, more than the map has", record.memory.len()));
        }
        if let Some((x, y, _)) = record.memory.iter().find(|(x, y, _)| !inside(*x, *y)) {
            out.add(field("memory"), format!("a remembered cell ({x}, {y}) is outside the {width}x{height} map"));
        }
    }
    if let Some(generated) = &record.generated
        && !matches!(generated.params, Value::Map(_) | Value::Nil)
    {
        out.add(
            field("generated"),
            "generated.params must be a map of param names to values, such as {\"fill\": 0.45}",
        );
    }
    let mut seen = Seen::default();
    let mut mef_cells = std::collections::HashSet::new();
    for object in &record.objects {
        let place = seen.next(Some(map), object.id);
        if object.kind == ObjectKind::Mef && !mef_cells.insert((object.x, object.y)) {
            out.add(
                place.clone(),
                format!("two mefs are at ({}, {}): a cell holds one mef at most", object.x, object.y),
            );
        }
        if size_ok && !inside(object.x, object.y) {
            out.add(
                place.clone(),
                format!(
                    "{} '{}' at ({}, {}) is outside the {width}x{height} map",
                    object.kind.noun(),
                    object.id,
                    object.x,
                    object.y
                ),
            );
        }
        check_object(world, object, kind, place, &mut seen, Some(map), uids, out);
    }
    check_keys(record, map, out);
    if size_ok {
        check_autotile(world, record, map, out);
        check_art_layers(record, map, out);
    }
    let outside = record.conflicts.iter().filter_map(|c| c.cell()).find(|&(x, y)| !inside(x, y));
    if let Some((x, y)) = outside {
        out.add(field("conflicts"), format!("a conflict at ({x}, {y}) is outside the {width}x{height} map"));
    }
}

/// The longest object key a map file may give (session keys are 21 characters at most).
pub const MAX_KEY_LEN: usize = 64;

/// Checks the objects' keys: each non-empty, not too long, and given to one object only.
fn check_keys(record: &MapRecord, map: usize, out: &mut Problems) {
    let place = || Place::MapField { map, field: "objects" };
    let mut bad = None;
    crate::object_key::for_each_key(&record.objects, |_, key| {
        if bad.is_none() && (key.is_empty() || key.chars().count() > MAX_KEY_LEN) {
            bad = Some(key);
        }
    });
    if let Some(key) = bad {
        let shown: String = key.chars().take(24).collect();
        let cut = if shown.len() < key.len() { "…" } else { "" };
        out.add(place(), format!("object key '{shown}{cut}' must be 1 to {MAX_KEY_LEN} characters long"));
    }
    if let Some((key, first, second)) = crate::object_key::first_repeat(&record.objects) {
        out.add(
            place(),
            format!(
                "object key '{key}' is given to two objects (objects {first} and {second} of the list): \
                 a key names one object; remove the key of the copy and it gets a new one"
            ),
        );
    }
}

/// Checks an object and what it holds: uids in saves, items only inside inventories and
/// equipment, inventories only on characters and containers.
#[allow(clippy::too_many_arguments)]
fn check_object(
    world: &World,
    object: &ObjectRecord,
    kind: RecordKind,
    place: Place,
    seen: &mut Seen,
    map: Option<usize>,
    uids: &mut Uids,
    out: &mut Problems,
) {
    let what = Described(object);
    if kind == RecordKind::SaveGame {
        match object.uid {
            None => out.add(place.clone(), format!("{what} has no uid (every object of a save has one)")),
            Some(Uid(uid)) => {
                if !uids.objects.insert(uid) {
                    out.add(place.clone(), format!("uid {uid} is given to two objects (uid: {uid}, {what})"));
                }
                uids.highest = uids.highest.max(Some(uid));
                if uids.player == Some(uid) && uids.player_place.is_none() {
                    uids.player_place = Some(place.clone());
                }
            }
        }
    }
    let temps = object.temp.iter().map(|(name, temp)| (name, &temp.value, "temp value"));
    for (name, value, noun) in object.fields.iter().map(|(name, value)| (name, value, "field")).chain(temps) {
        if let Some(problem) = too_deep(value) {
            out.add(place.clone(), format!("{noun} '{name}' of {what} {problem}"));
        }
    }
    for (name, value) in object.fields.iter() {
        if value.holds_object_inside() {
            out.add(
                place.clone(),
                format!(
                    "field '{name}' of {what} has an object reference inside a table: only a field itself holds one"
                ),
            );
        }
        if matches!(value, Value::Object(_)) && kind != RecordKind::SaveGame {
            out.add(
                place.clone(),
                format!(
                    "field '{name}' of {what} refers to an object by uid, but a map file's objects are made again \
                     with new uids: keep such references in saves, or set them when the map is loaded"
                ),
            );
        }
        if crate::object::reserved_field(name.as_str()).is_some() {
            out.add(
                place.clone(),
                format!(
                    "{what} gives '{name}' among its fields, which the engine keeps itself (a position, uid or \
                     prototype is the record's own x, y, uid or id); '{name}' is a reserved field name on map objects."
                ),
            );
        }
    }
    let proto = world.data.find_symbol(object.kind.data_type_symbol(), object.id).ok();
    if !object.inventory.is_empty() {
        let holds = match object.kind {
            ObjectKind::Chara => true,
            ObjectKind::Feat | ObjectKind::Mef => false,
            // An unknown prototype is kept aside as written: whether it is a container is
            // not known, so what it holds is kept too.
            ObjectKind::Item => proto.is_none_or(|p| world.data.proto(p).is_container()),
        };
        if !holds {
            out.add(place.clone(), format!("{what} holds items, but only characters and containers have an inventory"));
        }
    }
    let holds_equipment =
        || object.kind == ObjectKind::Chara || proto.is_some_and(|p| world.data.proto(p).holds_equipment());
    if !object.equipment.is_empty() && !holds_equipment() {
        out.add(
            place.clone(),
            format!("{what} wears items, but only characters and equipment slots (holds_equipment) have equipment"),
        );
    }
    let held = object.inventory.iter().map(|i| (None, i)).chain(object.equipment.iter().map(|(s, i)| (Some(*s), i)));
    for (slot, item) in held {
        let item_place = seen.next(map, item.id);
        if item.kind != ObjectKind::Item {
            let inside = match slot {
                Some(slot) => format!("slot '{slot}' of {what}"),
                None => format!("the inventory of {what}"),
            };
            out.add(
                item_place.clone(),
                format!("{} '{}' is in {inside}, which holds items only", item.kind.noun(), item.id),
            );
        }
        check_object(world, item, kind, item_place, seen, map, uids, out);
    }
}

/// An object record as problems name it (`character 'elona.putit'`), written out only when a
/// problem is.
struct Described<'a>(&'a ObjectRecord);

impl fmt::Display for Described<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} '{}'", self.0.kind.noun(), self.0.id)
    }
}

/// Checks a map record before [`World::map_from_record`] builds it.
pub fn check_map_record(world: &World, record: &MapRecord, kind: RecordKind) -> Result<(), RecordError> {
    let mut out = Problems::default();
    check_map(world, record, kind, 0, &mut Uids::default(), &mut out);
    out.finish()
}

/// Checks a whole save before [`World::load_game`] builds anything from it: the format,
/// every map, unique uids, counters above every uid, the current map and player, and every
/// mod's `save` entry.
pub fn check_save(world: &World, save: &SaveGame) -> Result<(), RecordError> {
    let mut out = Problems::default();
    if save.format != SAVE_FORMAT {
        out.add(
            Place::Top("format"),
            format!("save format {} is not supported (this engine reads format {SAVE_FORMAT})", save.format),
        );
        return out.finish();
    }
    // Maps of a bad size are reported one by one below; the rest must fit together.
    let sized = save.maps.iter().filter(|m| check_map_size(m.width.into(), m.height.into()).is_ok());
    let cells: u64 = sized.map(|m| m.width as u64 * m.height as u64).sum();
    if cells > MAX_SAVE_CELLS {
        out.add(Place::Top("maps"), format!("the maps have {cells} cells together, more than {MAX_SAVE_CELLS}"));
        return out.finish();
    }
    let mut uids = Uids { player: save.player.map(|Uid(uid)| uid), ..Uids::default() };
    for (index, map) in save.maps.iter().enumerate() {
        check_map(world, map, RecordKind::SaveGame, index, &mut uids, &mut out);
    }
    if let Some(player) = &save.ownerless_player {
        let place = Place::Object { map: None, id: player.id, nth: 0 };
        check_object(world, player, RecordKind::SaveGame, place, &mut Seen::default(), None, &mut uids, &mut out);
        if player.uid != save.player {
            out.add(Place::Top("ownerless_player"), "ownerless_player is not the save's player: it must have its uid");
        }
    }
    if let Some(max) = uids.highest
        && save.next_uid <= max
    {
        out.add(
            Place::Top("next_uid"),
            format!("next_uid is {}, but uid {max} is in use: it must be above", save.next_uid),
        );
    }
    if let Some(&max) = uids.maps.iter().max()
        && save.next_map_uid <= max
    {
        out.add(
            Place::Top("next_map_uid"),
            format!("next_map_uid is {}, but map uid {max} is in use: it must be above", save.next_map_uid),
        );
    }
    if let Some(MapId(current)) = save.current_map
        && !uids.maps.contains(&current)
    {
        out.add(Place::Top("current_map"), format!("current_map is {current}, but no map of the save has that uid"));
    }
    if let Some(Uid(player)) = save.player {
        check_player(world, save, player, &uids, &mut out);
    }
    for (name, value) in &save.mods {
        if let Some(problem) = too_deep(value) {
            out.add(Place::ModSave(name.clone()), format!("mods.{name} {problem}"));
        }
        if !matches!(value, Value::Map(_) | Value::List(_)) {
            out.add(
                Place::ModSave(name.clone()),
                format!("mods.{name} is a {}, but each mod's save entry is a table", value.type_name()),
            );
        } else if value.holds_object_inside() {
            out.add(
                Place::ModSave(name.clone()),
                format!("mods.{name} holds an object reference: a mod's save table keeps uids, not objects"),
            );
        }
    }
    out.finish()
}

/// What is wrong with a stored value whose tables nest deeper than [`MAX_TABLE_DEPTH`] (which
/// Nefia never writes, so the file was edited by hand), ending the sentence that names it.
fn too_deep(value: &Value) -> Option<String> {
    let depth = value.table_depth();
    (depth > MAX_TABLE_DEPTH).then(|| {
        format!("nests tables {depth} deep, more than the {MAX_TABLE_DEPTH} a stored value may (flatten the data)")
    })
}

/// The save's player must be a character the loaded mods define, on a map or ownerless.
fn check_player(world: &World, save: &SaveGame, player: u64, uids: &Uids, out: &mut Problems) {
    let Some(place) = uids.player_place.clone() else {
        out.add(Place::Top("player"), format!("player is uid {player}, but no object of the save has that uid"));
        return;
    };
    let record =
        save.maps.iter().flat_map(|m| &m.objects).chain(&save.ownerless_player).find(|o| o.uid == Some(Uid(player)));
    match record {
        None => out.add(place, format!("the player (uid {player}) is held by another object: it must stand on a map")),
        Some(record) if record.kind != ObjectKind::Chara => {
            out.add(place, format!("the player (uid {player}) is a {}, not a character", record.kind.noun()))
        }
        Some(record) if world.data.find_symbol(ObjectKind::Chara.data_type_symbol(), record.id).is_err() => out.add(
            place,
            format!("the player (uid {player}) is a '{}', which none of the loaded mods defines", record.id),
        ),
        Some(_) => {}
    }
}
