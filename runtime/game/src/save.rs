//! How the world is written down: save games and map files, both RON.
//!
//! A [`SaveGame`] holds everything a game needs to continue: maps with tiles and memory,
//! objects nested by location with their base and temp values, the uid counters, the current
//! map, the player, the clock and every mod's `save` table. A [`MapRecord`] is also the
//! format of project map files (without uids, temp values or memory). The writer is
//! deterministic — maps by id, objects in location order, fields by name — so save → load →
//! save gives identical bytes.
//!
//! A save is written straight from the world (`World::live_save_game`: each object's record
//! made as it is written, the same text as a record's), unless a recorded session keeps the
//! record to put the file back later (`SessionLog::writes_save` in the Lua crate). A load checks
//! the whole record, then drops the old world before it builds the new one (`save/build.rs`), so
//! it never holds two worlds.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::autotile::{AutotileLayer, Intent};
use crate::clock::Clock;
use crate::code_rows::{TileGridError, code_width, read_sparse_rows};
use crate::files::{FileError, read_ron, write_ron_lines};
use crate::ids::Uid;
pub use crate::map::LayerPlace;
use crate::map::{ArtLayer, CellMemory, Generated, MapId};
use crate::moddable::{FieldMap, TempValue};
use crate::object_record::{ObjectRecord, ObjectRecords};
use crate::symbol::Symbol;
use crate::value::Value;

mod build;
mod write;

pub use write::LiveObjects;

/// The version written into save files.
pub const SAVE_FORMAT: u32 = 1;

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
    /// What a merge left for someone to pick (see [`crate::map_merge`]): the map holds ours'
    /// side of each until it is resolved.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conflicts: Vec<crate::conflict::Conflict>,
    /// The auto-tiling laid on the map, if any: its rules, seed and intent grid (the tiles
    /// above are what the rules painted, so a map file reads without the rules).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub autotile: Option<AutotileRecord>,
    /// Its art layers, bottom first: tiles drawn below or above the game's tiles that carry
    /// no rules (decoration, overhead).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub art_layers: Vec<ArtLayerRecord>,
}

/// A map's art layer as its file keeps it: rows of palette codes as the tiles are, a code of
/// spaces for a cell left empty.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArtLayerRecord {
    /// Its name, unique on the map (an imported layer keeps its source's name).
    pub name: String,
    /// Where it is drawn.
    #[serde(default)]
    pub place: LayerPlace,
    /// Pixels it is drawn shifted by (LDtk's layer offsets).
    #[serde(default, skip_serializing_if = "is_origin")]
    pub offset_px: (i32, i32),
    /// Code → tile id. Every code has the same length.
    pub palette: BTreeMap<String, Symbol>,
    /// One string per row, each `width` codes long.
    pub tiles: Vec<String>,
}

fn is_origin(offset: &(i32, i32)) -> bool {
    *offset == (0, 0)
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
        let (palette, intent) = sparse_rows(&layer.intent, wish);
        AutotileRecord {
            rule_set: layer.own_rules.is_none().then_some(layer.rule_set),
            rules: layer.own_rules.as_deref().cloned(),
            seed: layer.seed,
            palette,
            intent,
        }
    }

    /// How many characters each code of the intent rows has.
    pub fn code_width(&self) -> usize {
        code_width(&self.palette)
    }

    /// The layer this record keeps; the record must have been checked
    /// ([`crate::validate`]): an intent that does not read is empty.
    pub fn layer(&self, width: i32, height: i32) -> AutotileLayer {
        AutotileLayer {
            rule_set: self.rule_set.unwrap_or_else(|| Symbol::intern(crate::autotile::OWN_RULES)),
            own_rules: self.rules.clone().map(std::sync::Arc::new),
            seed: self.seed,
            intent: read_sparse_rows(&self.palette, &self.intent, width, height)
                .unwrap_or_else(|_| Intent::new(width, height)),
        }
    }
}

impl ArtLayerRecord {
    /// The record of `layer`, preferring the codes `wish` gives a tile (the map's own).
    pub(crate) fn of(layer: &ArtLayer, wish: &dyn Fn(Symbol) -> Option<String>) -> ArtLayerRecord {
        let (palette, tiles) = sparse_rows(&layer.cells, wish);
        ArtLayerRecord { name: layer.name.clone(), place: layer.place, offset_px: layer.offset_px, palette, tiles }
    }

    /// How many characters each code of its rows has.
    pub fn code_width(&self) -> usize {
        code_width(&self.palette)
    }

    /// The layer this record keeps on a `width`×`height` map; the record must have been
    /// checked ([`crate::validate`]): one that does not read is an empty layer.
    pub fn layer(&self, width: i32, height: i32) -> ArtLayer {
        let cells = self.cells(width, height).unwrap_or_else(|_| Intent::new(width, height));
        ArtLayer { name: self.name.clone(), place: self.place, offset_px: self.offset_px, cells }
    }

    /// Its cells on a `width`×`height` map (the size checked first), or which row is wrong:
    /// how a merge or a diff reads a file no one checked.
    pub fn cells(&self, width: i32, height: i32) -> Result<Intent, TileGridError> {
        read_sparse_rows(&self.palette, &self.tiles, width, height)
    }
}

/// A sparse grid written as a file keeps it: its palette of codes (those `wish` gives a tile
/// first) and its rows, a code of spaces for an empty cell.
fn sparse_rows(grid: &Intent, wish: &dyn Fn(Symbol) -> Option<String>) -> (BTreeMap<String, Symbol>, Vec<String>) {
    let codes = choose_codes(grid.palette(), &[wish]);
    let empty = " ".repeat(codes.first().map_or(1, |c| c.chars().count()));
    let rows = (0..grid.height())
        .map(|y| (0..grid.width()).map(|x| grid.index(x, y).map_or(empty.as_str(), |i| &codes[i])).collect())
        .collect();
    (codes.into_iter().zip(grid.palette().iter().copied()).collect(), rows)
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
    /// The language the game was in (a `base.language` id), for the start of a recording: a
    /// replay is in the language the session was (its list picks and names are the same).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
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

/// Writes a save file atomically: a record read or made
/// ([`World::save_game`](crate::world::World::save_game)), or the live world
/// ([`World::live_save_game`](crate::world::World::live_save_game)).
pub fn write_save<Map: Serialize>(path: &Path, save: &SaveGame<Map>) -> Result<(), FileError> {
    write_ron_lines(path, save, SAVE_LINE_DEPTH)
}
