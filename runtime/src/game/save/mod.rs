//! How the world is written down: save games and map files, both RON.
//!
//! A [`SaveGame`] holds everything a game needs to continue: maps with tiles and memory,
//! objects nested by location with their base and temp values, the uid counters, the current
//! map, the player, the clock and every mod's `save` table. A [`MapRecord`] is also the
//! format of project map files (without uids, temp values or memory). The writer is
//! deterministic — maps by id, objects in location order, fields by name — so save → load →
//! save gives identical bytes.

use std::collections::BTreeMap;
use std::fmt;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::game::autotile::{AutotileLayer, Intent};
use crate::game::files::{FileError, read_ron, write_ron_lines};
use crate::game::location::Location;
use crate::game::map::{CellMemory, Generated, InstancedMap, MapId};
use crate::game::moddable::{FieldMap, Moddable, TempValue};
use crate::game::object::{Object, ObjectKind, Uid};
use crate::game::object_key::{fill_record, positional_key};
use crate::game::symbol::Symbol;
use crate::game::value::Value;
use crate::game::world::{Clock, World, WorldError};

mod build;

/// The version written into save files.
pub const SAVE_FORMAT: u32 = 1;

/// One object and what it holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectRecord {
    /// Its uid (save games only; map files give new objects new uids).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uid: Option<Uid>,
    /// Its identity in a map file, unique within the file (see [`crate::game::object_key`]):
    /// always written in map files; in save games only when it came from a map file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// Character, item or feat.
    pub kind: ObjectKind,
    /// Prototype id.
    pub id: Symbol,
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
    /// Base values that differ from the prototype.
    #[serde(default, skip_serializing_if = "FieldMap::is_empty")]
    pub fields: FieldMap,
    /// Temp values with their provenance (save games only).
    #[serde(default, skip_serializing_if = "FieldMap::is_empty")]
    pub temp: FieldMap<TempValue>,
    /// Items held, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "exact_vec")]
    pub inventory: Vec<ObjectRecord>,
    /// Items worn, by slot.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub equipment: BTreeMap<Symbol, ObjectRecord>,
}

impl ObjectRecord {
    /// Calls `f` on this record and on every record it holds, parents first.
    pub fn visit_mut(&mut self, f: &mut impl FnMut(&mut ObjectRecord)) {
        f(self);
        for held in self.inventory.iter_mut().chain(self.equipment.values_mut()) {
            held.visit_mut(f);
        }
    }
}

/// A list read with no room to spare. RON gives no length ahead, so a list grows as it is
/// read, and an inventory of one item would keep room for four (704 bytes, not 176): a save of
/// 100,000 characters held 50 MiB of such room while it was loaded.
fn exact_vec<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(deserializer: D) -> Result<Vec<T>, D::Error> {
    let mut list = Vec::<T>::deserialize(deserializer)?;
    list.shrink_to_fit();
    Ok(list)
}

/// An object of a map file that could not be made (its prototype, or one of what it holds,
/// is unknown to the loaded mods). The map keeps it and writes it back where it was.
#[derive(Clone, Debug, PartialEq)]
pub struct UnresolvedObject {
    /// Its position in the file's object list.
    pub index: usize,
    /// The object as written.
    pub record: ObjectRecord,
    /// What is unknown, such as `unknown base.chara id 'elona.nope' at (3, 4)`.
    pub problem: String,
}

/// One map: its tiles as rows of palette codes, its objects, and (in saves) its memory.
/// `Objects` is how its objects are held: records read from a file, or [`LiveObjects`] while
/// a save is written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapRecord<Objects = Vec<ObjectRecord>> {
    /// Its id (save games only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uid: Option<MapId>,
    /// Its name.
    pub name: String,
    /// Width in cells.
    pub width: i32,
    /// Height in cells.
    pub height: i32,
    /// Code → tile id. Every code has the same length.
    pub palette: BTreeMap<String, Symbol>,
    /// One string per row, each `width` codes long.
    pub tiles: Vec<String>,
    /// Where the player arrives, if the map says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entrance: Option<(i32, i32)>,
    /// Objects on the map in insertion order.
    #[serde(default, skip_serializing_if = "ObjectRecords::is_empty")]
    #[serde(bound(serialize = "Objects: Serialize + ObjectRecords"))]
    pub objects: Objects,
    /// Remembered cells (save games only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub memory: Vec<(i32, i32, CellMemory)>,
    /// How it was generated, if a generator made it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub generated: Option<Generated>,
    /// The map's own base values (`map.is_temporary = true`).
    #[serde(default, skip_serializing_if = "FieldMap::is_empty")]
    pub fields: FieldMap,
    /// The map's temp values with their provenance (save games only).
    #[serde(default, skip_serializing_if = "FieldMap::is_empty")]
    pub temp: FieldMap<TempValue>,
    /// What a merge left for someone to pick (see [`crate::game::map_merge`]): the map holds ours'
    /// side of each until it is resolved.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conflicts: Vec<crate::game::map_merge::Conflict>,
    /// The auto-tiling laid on the map, if any: its rules, seed and intent grid (the tiles
    /// above are what the rules painted, so a map file reads without the rules).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub autotile: Option<AutotileRecord>,
}

/// A map's auto-tiling as its file keeps it: the intent grid written as the tiles are, rows
/// of palette codes, with a code of spaces for a cell left empty.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AutotileRecord {
    /// The `base.autotile_rule_set` id (none: the map's own `rules` below).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule_set: Option<Symbol>,
    /// The map's own rules, written as a rule set's `rules` are (none: `rule_set`'s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rules: Option<Value>,
    /// The seed of its chances and weighted picks.
    pub seed: i64,
    /// Code → intent tile id. Every code has the same length.
    pub palette: BTreeMap<String, Symbol>,
    /// One string per row, each `width` codes long.
    pub intent: Vec<String>,
}

impl AutotileRecord {
    /// The record of `layer`, preferring the codes `wish` gives a tile (the map's own).
    fn of(layer: &AutotileLayer, wish: &dyn Fn(Symbol) -> Option<String>) -> AutotileRecord {
        let intent = &layer.intent;
        let codes = choose_codes(intent.palette(), &[wish]);
        let empty = " ".repeat(codes.first().map_or(1, |c| c.chars().count()));
        let rows = (0..intent.height())
            .map(|y| (0..intent.width()).map(|x| intent.index(x, y).map_or(empty.as_str(), |i| &codes[i])).collect())
            .collect();
        AutotileRecord {
            rule_set: layer.own_rules.is_none().then_some(layer.rule_set),
            rules: layer.own_rules.as_deref().cloned(),
            seed: layer.seed,
            palette: codes.into_iter().zip(intent.palette().iter().copied()).collect(),
            intent: rows,
        }
    }

    /// How many characters each code of the intent rows has.
    pub fn code_width(&self) -> usize {
        self.palette.keys().next().map_or(1, |c| c.chars().count())
    }

    /// The layer this record keeps; the record must have been checked
    /// ([`crate::game::validate`]): an unknown code reads as an empty cell.
    pub fn layer(&self, width: i32, height: i32) -> AutotileLayer {
        let code_width = self.code_width();
        let mut intent = Intent::new(width, height);
        for (y, row) in (0..).zip(&self.intent) {
            let chars: Vec<char> = row.chars().collect();
            for (x, code) in (0..).zip(chars.chunks(code_width)) {
                let code: String = code.iter().collect();
                intent.set(x, y, self.palette.get(&code).copied());
            }
        }
        AutotileLayer {
            rule_set: self.rule_set.unwrap_or_else(|| Symbol::intern(crate::game::autotile::OWN_RULES)),
            own_rules: self.rules.clone().map(std::sync::Arc::new),
            seed: self.seed,
            intent,
        }
    }
}

/// What a map record's objects can be held as.
pub trait ObjectRecords {
    /// Whether there are none (a record without objects writes no `objects` field).
    fn is_empty(&self) -> bool;
}

impl ObjectRecords for Vec<ObjectRecord> {
    fn is_empty(&self) -> bool {
        Vec::is_empty(self)
    }
}

/// The objects of a live map as a save writes them: each object's record is made as it is
/// written and dropped after, so a save never holds a record of the whole world (for 100,000
/// characters with an item each, 70 MiB).
pub struct LiveObjects<'a> {
    world: &'a World,
    /// The map's objects in order (see [`World::listed_objects`]).
    entries: Vec<ListedObject<'a>>,
}

/// One object of a map as its record lists it.
enum ListedObject<'a> {
    /// An object of the world.
    Made(Uid),
    /// An object the loaded mods could not make, kept aside by the map.
    KeptAside(&'a ObjectRecord),
}

impl ObjectRecords for LiveObjects<'_> {
    fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl Serialize for LiveObjects<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut list = serializer.serialize_seq(Some(self.entries.len()))?;
        for entry in &self.entries {
            match entry {
                ListedObject::Made(uid) => {
                    list.serialize_element(&self.world.object_record(*uid, RecordKind::SaveGame))?
                }
                ListedObject::KeptAside(record) => list.serialize_element(record)?,
            }
        }
        list.end()
    }
}

/// What a list of saves shows of one, written at the top of the file.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveSummary {
    /// The name of the map the player was on.
    pub map: String,
    /// The player's `name` (its prototype id if it has none).
    pub player: String,
    /// The player's `level`, if it has one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub level: Option<i64>,
}

/// The top of a save file: what a list of saves reads (the rest of the file is skipped).
#[derive(serde::Serialize, Clone, Debug, PartialEq, Deserialize)]
pub struct SaveHead {
    /// In-game time.
    pub clock: Clock,
    /// Turns played.
    pub turn: u64,
    /// Map and player, for saves written since summaries were.
    #[serde(default)]
    pub summary: Option<SaveSummary>,
}

/// A whole game. `Map` is how its maps are held: records read from a file, or maps with
/// [`LiveObjects`] while the world is written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SaveGame<Map = MapRecord> {
    /// [`SAVE_FORMAT`] of the writer.
    pub format: u32,
    /// What a list of saves shows.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub summary: Option<SaveSummary>,
    /// The uid the next object gets.
    pub next_uid: u64,
    /// The id the next map gets.
    pub next_map_uid: u64,
    /// In-game time.
    pub clock: Clock,
    /// Turns played.
    pub turn: u64,
    /// Random number generator state.
    pub rng_seed: u64,
    /// The current map.
    pub current_map: Option<MapId>,
    /// The player.
    pub player: Option<Uid>,
    /// The player, when it is on no map.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ownerless_player: Option<ObjectRecord>,
    /// Every map.
    pub maps: Vec<Map>,
    /// Each mod's `save` table.
    pub mods: BTreeMap<String, Value>,
}

/// Codes tried first for tiles, in order, after the tile's own glyph.
const CODES: &str = ".#~,:;=+-*%&$@!?^<>/|abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

/// Whether a record is for a save game (uids, temp values, memory) or a project map file.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordKind {
    /// Everything, for continuing a game.
    SaveGame,
    /// The designed content only: tiles and objects with their own base values.
    MapFile,
}

/// Picks a map file code for each of `tiles` (distinct): each tile takes the code the first
/// of `wishes` that offers a usable one gives it (all tiles are offered a pass's wish before
/// the next pass), else the first free code. Codes are one character, or two when there are
/// more tiles than one-character codes.
pub(crate) fn choose_codes(tiles: &[Symbol], wishes: &[&dyn Fn(Symbol) -> Option<String>]) -> Vec<String> {
    let width = if tiles.len() <= CODES.chars().count() { 1 } else { 2 };
    let usable = |code: &String, taken: &[String]| {
        code.chars().count() == width && !taken.contains(code) && !code.contains(['"', '\\'])
    };
    let mut taken: Vec<String> = Vec::new();
    let mut codes = vec![String::new(); tiles.len()];
    for wish in wishes {
        for (code, &tile) in codes.iter_mut().zip(tiles) {
            if code.is_empty()
                && let Some(wanted) = wish(tile).filter(|c| usable(c, &taken))
            {
                taken.push(wanted.clone());
                *code = wanted;
            }
        }
    }
    let mut candidates: Box<dyn Iterator<Item = String>> = if width == 1 {
        Box::new(CODES.chars().map(String::from))
    } else {
        Box::new(CODES.chars().flat_map(|a| CODES.chars().map(move |b| format!("{a}{b}"))))
    };
    for code in codes.iter_mut().filter(|c| c.is_empty()) {
        *code = candidates.by_ref().find(|c| !taken.contains(c)).expect("enough codes");
        taken.push(code.clone());
    }
    codes
}

impl World {
    pub(crate) fn object_record(&self, uid: Uid, kind: RecordKind) -> ObjectRecord {
        let object: &Object = &self.objects[&uid];
        ObjectRecord {
            uid: (kind == RecordKind::SaveGame).then_some(uid),
            key: match kind {
                RecordKind::SaveGame => object.key.as_deref().map(str::to_owned),
                RecordKind::MapFile => Some(
                    object
                        .key
                        .as_deref()
                        .map_or_else(|| crate::game::object_key::session_key(&self.key_prefix, uid), str::to_owned),
                ),
            },
            kind: object.kind,
            id: object.id,
            x: object.x,
            y: object.y,
            fields: object.fields.base.clone(),
            temp: match kind {
                RecordKind::SaveGame => object.fields.temp.clone(),
                RecordKind::MapFile => FieldMap::new(),
            },
            inventory: object
                .inventory()
                .map(|items| items.map(|i| self.object_record(i, kind)).collect())
                .unwrap_or_default(),
            equipment: object
                .equipment()
                .map(|e| e.iter().map(|(slot, &item)| (slot, self.object_record(item, kind))).collect())
                .unwrap_or_default(),
        }
    }

    /// Writes map `id` as a record. A map file leaves out the player (it is placed when play
    /// starts) and puts back the objects it could not make, where they were.
    pub fn map_record(&self, id: MapId, kind: RecordKind) -> Result<MapRecord, WorldError> {
        let map = self.map(id)?;
        let objects = self.listed_objects(map, kind).into_iter().map(|listed| match listed {
            ListedObject::Made(uid) => self.object_record(uid, kind),
            ListedObject::KeptAside(record) => {
                let mut record = record.clone();
                if kind == RecordKind::MapFile {
                    // Map files give objects no uids (those kept aside hold one for saves).
                    record.visit_mut(&mut |r| r.uid = None);
                }
                record
            }
        });
        Ok(self.map_record_with(id, map, kind, objects.collect()))
    }

    /// Map `id` as a save writes it: its objects' records made one at a time.
    fn live_map_record(&self, id: MapId) -> MapRecord<LiveObjects<'_>> {
        let map = &self.maps[&id];
        let entries = self.listed_objects(map, RecordKind::SaveGame);
        self.map_record_with(id, map, RecordKind::SaveGame, LiveObjects { world: self, entries })
    }

    /// The objects of `map` in the order a record of `kind` lists them: a map file leaves out
    /// the player (it is placed when play starts); the objects the map could not make go back
    /// where they were.
    fn listed_objects<'a>(&self, map: &'a InstancedMap, kind: RecordKind) -> Vec<ListedObject<'a>> {
        let mut listed: Vec<ListedObject> = map
            .objects()
            .iter()
            .filter(|&uid| kind == RecordKind::SaveGame || Some(uid) != self.player)
            .map(ListedObject::Made)
            .collect();
        for unresolved in &map.unresolved {
            listed.insert(unresolved.index.min(listed.len()), ListedObject::KeptAside(&unresolved.record));
        }
        listed
    }

    /// Map `map` (the world's map `id`) as a record of `kind` holding `objects`.
    fn map_record_with<Objects>(
        &self,
        id: MapId,
        map: &InstancedMap,
        kind: RecordKind,
        objects: Objects,
    ) -> MapRecord<Objects> {
        let (palette, tiles) = self.encode_tiles(map);
        MapRecord {
            uid: (kind == RecordKind::SaveGame).then_some(id),
            name: map.name.clone(),
            width: map.width(),
            height: map.height(),
            palette,
            tiles,
            entrance: map.entrance,
            objects,
            memory: match kind {
                RecordKind::SaveGame => map.memory.known_cells().map(|(x, y, m)| (x, y, m.clone())).collect(),
                RecordKind::MapFile => Vec::new(),
            },
            generated: map.generated.as_deref().cloned(),
            fields: map.fields.base.clone(),
            temp: match kind {
                RecordKind::SaveGame => map.fields.temp.clone(),
                RecordKind::MapFile => FieldMap::new(),
            },
            conflicts: map.conflicts.to_vec(),
            autotile: map.autotile.as_deref().map(|layer| {
                AutotileRecord::of(layer, &|tile| map.codes.get(&tile).cloned().or_else(|| self.tile_glyph(tile)))
            }),
        }
    }

    fn encode_tiles(&self, map: &InstancedMap) -> (BTreeMap<String, Symbol>, Vec<String>) {
        let mut used = vec![false; map.palette().len()];
        for y in 0..map.height() {
            for x in 0..map.width() {
                used[map.tile_index(x, y) as usize] = true;
            }
        }
        let used_tiles: Vec<usize> = (0..used.len()).filter(|&i| used[i]).collect();
        let tiles: Vec<Symbol> = used_tiles.iter().map(|&i| map.palette()[i]).collect();
        // The code the file had first (so saving does not rewrite the grid), then the tile's
        // glyph, then the first free code.
        let chosen = choose_codes(&tiles, &[&|tile| map.codes.get(&tile).cloned(), &|tile| self.tile_glyph(tile)]);
        let mut codes = vec![String::new(); map.palette().len()];
        for (&index, code) in used_tiles.iter().zip(chosen) {
            codes[index] = code;
        }
        let palette = used_tiles.iter().map(|&i| (codes[i].clone(), map.palette()[i])).collect();
        let rows = (0..map.height())
            .map(|y| (0..map.width()).map(|x| codes[map.tile_index(x, y) as usize].as_str()).collect())
            .collect();
        (palette, rows)
    }

    /// The glyph of tile `tile` (the code map files write its cells with), if it has one.
    pub fn tile_glyph(&self, tile: Symbol) -> Option<String> {
        self.tile_fields(tile)?.get(Symbol::intern("glyph"))?.as_str().map(str::to_owned)
    }

    /// Writes the whole game as a record. `mods` is every mod's `save` table.
    pub fn save_game(&self, mods: BTreeMap<String, Value>) -> SaveGame {
        self.save_game_with(mods, |id| self.map_record(id, RecordKind::SaveGame).expect("live map"))
    }

    /// The whole game as [`write_save`] writes it without a record of it: the same text as
    /// [`World::save_game`]'s, each object's record made as it is written.
    pub fn live_save_game(&self, mods: BTreeMap<String, Value>) -> SaveGame<MapRecord<LiveObjects<'_>>> {
        self.save_game_with(mods, |id| self.live_map_record(id))
    }

    /// The whole game with each map as `map_record` makes it.
    fn save_game_with<Map>(&self, mods: BTreeMap<String, Value>, map_record: impl Fn(MapId) -> Map) -> SaveGame<Map> {
        let player = self.player();
        let ownerless_player = player
            .filter(|&p| self.objects[&p].location.is_none())
            .map(|p| self.object_record(p, RecordKind::SaveGame));
        SaveGame {
            format: SAVE_FORMAT,
            summary: self.save_summary(),
            next_uid: self.next_uid,
            next_map_uid: self.next_map_uid,
            clock: self.clock,
            turn: self.turn,
            rng_seed: self.rng.get_seed(),
            current_map: self.current_map,
            player,
            ownerless_player,
            maps: self.maps.keys().map(|&id| map_record(id)).collect(),
            mods,
        }
    }

    /// The map the player is on and who the player is, for the list of saves.
    fn save_summary(&self) -> Option<SaveSummary> {
        let player = self.player()?;
        let object = self.object(player).ok()?;
        let map = self.current_map.and_then(|m| self.map(m).ok()).map(|m| m.name.clone()).unwrap_or_default();
        let name = match self.calc(player, Symbol::intern("name")) {
            Some(Value::Str(name)) => name.to_string(),
            _ => object.id.to_string(),
        };
        let level = match self.calc(player, Symbol::intern("level")) {
            Some(Value::Int(level)) => Some(*level),
            _ => None,
        };
        Some(SaveSummary { map, player: name, level })
    }
}

/// Reads a save file. Its text is not kept (a save of 100,000 objects is 24 MiB of it): a
/// problem found later reads it again to name its line.
pub fn read_save(path: &Path) -> Result<SaveGame, FileError> {
    read_ron(path)
}

/// How deep a save file's RON nests before the rest of a value stays on one line: the save,
/// its maps, a map, its objects — each object (with what it holds) and each remembered cell is
/// one line, as in map files. Indenting every field of 100,000 objects made the file three
/// times longer, and reading it mostly skipped whitespace.
const SAVE_LINE_DEPTH: usize = 4;

/// Writes a save file atomically: a record read or made ([`World::save_game`]), or the live
/// world ([`World::live_save_game`]).
pub fn write_save<Map: Serialize>(path: &Path, save: &SaveGame<Map>) -> Result<(), FileError> {
    write_ron_lines(path, save, SAVE_LINE_DEPTH)
}
