//! Maps from the editors people already have: Tiled (`.tmx` read by the `tiled` crate, `.tmj`
//! by serde) and LDtk (`.ldtk`, by `ldtk2`) read into [`SourceMap`]s, then made map records
//! through a [`Mapping`] from the source's tiles and object types to prototype ids; and a map
//! record written as a Tiled map ([`export`]).
//!
//! A source map is cells of layers (bottom first) and objects. Its cells become tiles as a
//! painter would see them: each cell takes the topmost layer's tile there, a layer the mapping
//! skips or a tile it maps to `-` leaving the cell to the layers below, and a cell no layer
//! covers takes the mapping of `(empty)`. Tiles are named `<tileset>/<tile id>` (Tiled, LDtk
//! tiles) or `<layer>#<value>` (LDtk IntGrid values); a tile whose tileset gives it a
//! `nefia_id` property (as [`export`] writes) maps itself. Objects and entities are named by
//! their type (class) or else their name; their custom properties become the object's fields.
//!
//! An import that keeps the art ([`keep_art`], `nefia import --new-tiles MOD`) keeps every
//! layer instead, and makes the tiles the mapping leaves out from their pictures in the
//! source's tilesets ([`SourceMap::pictures`]).
//!
//! The first import of a file has no mapping: [`template`] lists every tile and object name the
//! file uses with how many cells or objects use it, for the user to fill. An import with
//! anything unmapped writes nothing and names what is missing.

use std::collections::BTreeMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::map::MAX_MAP_SIDE;
use crate::map_diff::TileGrid;
use crate::moddable::FieldMap;
use crate::object::ObjectKind;
use crate::object_record::ObjectRecord;
use crate::save::MapRecord;
use crate::symbol::Symbol;
use crate::value::Value;

pub mod export;
pub mod keep_art;
mod ldtk;
mod tiled;

/// The largest source file read, in bytes.
pub const MAX_SOURCE_BYTES: u64 = 64 * 1024 * 1024;

/// The name of cells no layer covers, in a mapping's `tiles`.
pub const EMPTY_CELL: &str = "(empty)";

/// What a mapping gives a tile that leaves its cell to the layers below.
pub const SKIP: &str = "-";

/// The tile property naming the `base.map_tile` a source tile is (written by [`export`]).
pub const TILE_ID_PROPERTY: &str = "nefia_id";

/// The map property holding the entrance as `x,y` (written by [`export`]).
pub const ENTRANCE_PROPERTY: &str = "nefia_entrance";

/// The object property holding an object's key (see [`crate::object_key`]; written by
/// [`export`]), so a map exported and imported back keeps its objects' identities.
pub const OBJECT_KEY_PROPERTY: &str = "nefia_key";

/// The object property naming an object's kind (written by [`export`], with its type the
/// prototype id): such an object maps itself.
pub const KIND_PROPERTY: &str = "nefia_kind";

/// One map read from a source file, before mapping.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SourceMap {
    /// Its name (the file's stem, or the LDtk level's identifier).
    pub name: String,
    /// Width in cells.
    pub width: i32,
    /// Height in cells.
    pub height: i32,
    /// Its tile layers, bottom first.
    pub layers: Vec<SourceLayer>,
    /// Its objects and entities.
    pub objects: Vec<SourceObject>,
    /// The tile ids its tilesets name themselves (`nefia_id` properties), by tile name.
    pub self_mapped: BTreeMap<String, String>,
    /// What the source calls some of its tiles (LDtk's IntGrid value names), by tile name:
    /// shown beside them in the mapping's template.
    pub labels: BTreeMap<String, String>,
    /// What the reader noticed and the user should know (flipped tiles, a non-square grid).
    pub notes: Vec<String>,
    /// The levels beside it (LDtk), by direction: kept in the map's `neighbours` field.
    pub neighbours: BTreeMap<String, String>,
    /// Where the player arrives, if the source says (`nefia_entrance`).
    pub entrance: Option<(i32, i32)>,
    /// The picture of each tile its layers use that has one (tileset tiles), by tile name.
    pub pictures: BTreeMap<String, TilePicture>,
    /// The width of its tiles in pixels (the map's `cell_px` when it keeps its art).
    pub cell_px: Option<u32>,
}

/// How a placed tile is turned: [`FLIP_X`], [`FLIP_Y`] and [`FLIP_DIAGONAL`] bits (Tiled's
/// diagonal flip mirrors across the top-left to bottom-right diagonal, before the others).
pub type Turns = u8;

/// Mirrored left to right.
pub const FLIP_X: Turns = 1;
/// Mirrored top to bottom.
pub const FLIP_Y: Turns = 2;
/// Mirrored across the top-left to bottom-right diagonal (first).
pub const FLIP_DIAGONAL: Turns = 4;

/// A source tile's picture: a region of its tileset's image, animated if it has frames.
#[derive(Clone, Debug, PartialEq)]
pub struct TilePicture {
    /// The tileset's image file.
    pub image: std::path::PathBuf,
    /// Width of the region in pixels.
    pub width: u32,
    /// Height of the region in pixels.
    pub height: u32,
    /// Where each frame is on the image, with how long it shows (one frame: a still tile).
    pub frames: Vec<crate::art::Frame>,
    /// The tile's custom properties (Tiled), which become fields the tile type declares.
    pub properties: Vec<(String, Value)>,
    /// The tile's class (Tiled) or enum tags (LDtk), which become its `tags`.
    pub tags: Vec<String>,
}

/// One tile layer: a tile name or nothing for each cell, row by row.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SourceLayer {
    /// Its name in the source.
    pub name: String,
    /// Each cell's tile name, row by row (`width * height` of them).
    pub cells: Vec<Option<String>>,
    /// How each cell's tile is turned, row by row (as many as `cells`).
    pub turns: Vec<Turns>,
    /// Pixels the source draws it shifted by (LDtk's layer offsets).
    pub offset_px: (i32, i32),
    /// Whether the source draws it over its objects (a tile layer above an object layer).
    pub above_objects: bool,
    /// Whether it holds values rather than pictures (LDtk's IntGrid values).
    pub values: bool,
}

/// One object or entity of a source map.
#[derive(Clone, Debug, PartialEq)]
pub struct SourceObject {
    /// What the mapping knows it by: its type (class), or else its name.
    pub key: String,
    /// The cell it stands in.
    pub x: i32,
    /// The cell it stands in.
    pub y: i32,
    /// Its custom properties, which become fields.
    pub properties: Vec<(String, Value)>,
}

/// What a source file's tiles and objects become.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Mapping {
    /// Tile name → `base.map_tile` id (`-`: leave the cell to the layers below; empty: not
    /// given yet).
    #[serde(default)]
    pub tiles: BTreeMap<String, String>,
    /// Object type or name → what it becomes (an empty id: not given yet).
    #[serde(default)]
    pub objects: BTreeMap<String, ObjectTarget>,
    /// Layers not imported, by name.
    #[serde(default)]
    pub skip_layers: Vec<String>,
}

/// The prototype an object of the source becomes (an id of `-`: the object is left out).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectTarget {
    /// Character, item, feat or mef.
    pub kind: ObjectKind,
    /// The prototype id (empty: not given yet; `-`: left out).
    pub id: String,
}

/// What an import needs to know of the loaded mods.
pub struct Catalog<'a> {
    /// Whether a `base.map_tile` id is known.
    pub tile: &'a dyn Fn(&str) -> bool,
    /// Whether a prototype of the kind is known.
    pub object: &'a dyn Fn(ObjectKind, &str) -> bool,
    /// Checks a field's value against the type the prototype's data type declares.
    pub field: &'a dyn Fn(ObjectKind, &str, &Value) -> Result<(), crate::references::FieldValueError>,
    /// A tile's glyph: the code its cells are written with, as the editor writes them.
    pub glyph: &'a dyn Fn(Symbol) -> Option<String>,
}

/// Why a map could not be imported.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ImportError {
    /// The file could not be read or is not a map of its kind.
    #[error("{path}: {message}")]
    Read {
        /// The file.
        path: String,
        /// What went wrong.
        message: String,
    },
    /// The file holds what Nefia does not import; the message names it.
    #[error("{path}: {message}")]
    Unsupported {
        /// The file.
        path: String,
        /// What it holds.
        message: String,
    },
    /// Tiles or objects the mapping does not give, with how many cells or objects use each.
    #[error("{}", unmapped_message(.tiles, .objects))]
    Unmapped {
        /// Tile names and their cell counts.
        tiles: Vec<(String, usize)>,
        /// Object names and their counts.
        objects: Vec<(String, usize)>,
    },
    /// The mapping names what the mods do not define, or a property does not fit its field.
    #[error("{0}")]
    Mapping(String),
}

fn unmapped_message(tiles: &[(String, usize)], objects: &[(String, usize)]) -> String {
    let list = |items: &[(String, usize)], unit: &str| {
        items.iter().map(|(name, count)| format!("'{name}' ({count} {unit})")).collect::<Vec<_>>().join(", ")
    };
    let mut parts = Vec::new();
    if !tiles.is_empty() {
        parts.push(format!("{} tile(s) are not mapped: {}", tiles.len(), list(tiles, "cells")));
    }
    if !objects.is_empty() {
        parts.push(format!("{} object name(s) are not mapped: {}", objects.len(), list(objects, "objects")));
    }
    format!("{}; give each a prototype id in the mapping and import again", parts.join("; "))
}

/// Reads the maps of `path` (one for a Tiled map, one per level for LDtk), by its extension.
pub fn read(path: &Path) -> Result<Vec<SourceMap>, ImportError> {
    let shown = path.display().to_string();
    let size =
        std::fs::metadata(path).map_err(|e| ImportError::Read { path: shown.clone(), message: e.to_string() })?;
    if size.len() > MAX_SOURCE_BYTES {
        let message = format!("the file has {} bytes, more than the {MAX_SOURCE_BYTES} Nefia imports", size.len());
        return Err(ImportError::Unsupported { path: shown, message });
    }
    match path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref() {
        Some("tmx") => tiled::read_tmx(path).map(|map| vec![map]),
        Some("tmj" | "json") => tiled::read_tmj(path).map(|map| vec![map]),
        Some("ldtk") => ldtk::read(path),
        _ => Err(ImportError::Unsupported {
            path: shown,
            message: "not a map Nefia imports: give a Tiled map (.tmx, .tmj) or an LDtk project (.ldtk)".into(),
        }),
    }
}

/// Reads an entrance written `x,y`.
fn parse_entrance(text: &str) -> Option<(i32, i32)> {
    let (x, y) = text.split_once(',')?;
    Some((x.trim().parse().ok()?, y.trim().parse().ok()?))
}

/// A read failure naming the file.
fn read_error(path: &Path, message: impl std::fmt::Display) -> ImportError {
    ImportError::Read { path: path.display().to_string(), message: message.to_string() }
}

/// What a mapping knows an object by: its class (type), else its name.
fn object_key(class: &str, name: &str) -> String {
    match (class, name) {
        ("", "") => "(unnamed)".to_owned(),
        ("", name) => name.to_owned(),
        (class, _) => class.to_owned(),
    }
}

/// Checks a source's size before anything is allocated for it.
fn check_size(path: &Path, width: i64, height: i64) -> Result<(), ImportError> {
    crate::map::check_map_size(width, height)
        .map_err(|refused| ImportError::Unsupported { path: path.display().to_string(), message: refused.to_string() })
}

/// The cell index of (x, y) in a `width`-wide grid, if the cell is on it.
fn cell_index(width: i32, height: i32, x: i64, y: i64) -> Option<usize> {
    let inside = x >= 0 && y >= 0 && x < i64::from(width) && y < i64::from(height);
    inside.then(|| usize::try_from(y * i64::from(width) + x).ok()).flatten()
}

impl SourceMap {
    /// An empty map of one layer-less grid, its size checked first.
    fn sized(path: &Path, name: String, width: i64, height: i64) -> Result<SourceMap, ImportError> {
        check_size(path, width, height)?;
        let side = |v: i64| i32::try_from(v).unwrap_or(MAX_MAP_SIDE);
        Ok(SourceMap { name, width: side(width), height: side(height), ..SourceMap::default() })
    }

    /// Notes that `turned` cells hold a flipped or rotated tile, if any do.
    fn note_turned(&mut self, turned: usize) {
        if turned > 0 {
            self.notes.push(format!(
                "{turned} cells hold a flipped or rotated tile: mapped to an existing tile they take its mapping; with --new-tiles each orientation is a tile of its own"
            ));
        }
    }

    /// A new empty layer of this map's size.
    fn layer(&self, name: &str) -> SourceLayer {
        let cells = usize::try_from(self.width).unwrap_or(0) * usize::try_from(self.height).unwrap_or(0);
        SourceLayer { name: name.to_owned(), cells: vec![None; cells], turns: vec![0; cells], ..SourceLayer::default() }
    }

    /// Each tile name its kept layers use with how many cells show it (the topmost tile of a
    /// cell counts), and `(empty)` for cells none covers.
    fn tile_counts(&self, mapping: &Mapping) -> BTreeMap<String, usize> {
        let mut counts = BTreeMap::new();
        for name in self.shown_tiles(mapping) {
            *counts.entry(name.unwrap_or(EMPTY_CELL).to_owned()).or_insert(0) += 1;
        }
        counts
    }

    /// The tile name each cell shows, row by row: the topmost kept layer's whose mapping is
    /// not `-`.
    fn shown_tiles<'a>(&'a self, mapping: &'a Mapping) -> impl Iterator<Item = Option<&'a str>> + 'a {
        let layers: Vec<&SourceLayer> =
            self.layers.iter().filter(|l| !mapping.skip_layers.contains(&l.name)).rev().collect();
        let cells = usize::try_from(self.width).unwrap_or(0) * usize::try_from(self.height).unwrap_or(0);
        (0..cells).map(move |cell| {
            layers.iter().find_map(|layer| {
                let name = layer.cells.get(cell)?.as_deref()?;
                let skipped = mapping.tiles.get(name).is_some_and(|t| t == SKIP);
                (!skipped).then_some(name)
            })
        })
    }

    /// Whether every tile and object names its own prototype (a map [`export`] wrote), so
    /// no mapping is needed.
    pub fn maps_itself(&self) -> bool {
        let none = Mapping::default();
        let tiles = self.tile_counts(&none).keys().all(|name| self.self_mapped.contains_key(name));
        tiles && self.objects.iter().all(self_mapped_object)
    }

    /// The tile id `name` becomes: the mapping's, else the tileset's own `nefia_id`.
    fn tile_for<'a>(&'a self, mapping: &'a Mapping, name: &str) -> Option<&'a str> {
        match mapping.tiles.get(name).map(String::as_str) {
            Some("") | None => self.self_mapped.get(name).map(String::as_str),
            Some(id) => Some(id),
        }
    }
}

/// The tiles a template lists for `sources`, in its order (natural, `outdoor/9` before
/// `outdoor/10`), with how many cells show each: those `existing` gives (so they can be
/// changed) or that nothing maps.
fn template_tiles(sources: &[SourceMap], existing: &Mapping) -> Vec<(String, usize)> {
    let mut tiles: BTreeMap<String, usize> = BTreeMap::new();
    for source in sources {
        for (name, count) in source.tile_counts(existing) {
            if source.tile_for(existing, &name).is_none() || existing.tiles.contains_key(&name) {
                *tiles.entry(name).or_insert(0) += count;
            }
        }
    }
    let mut tiles: Vec<(String, usize)> = tiles.into_iter().collect();
    tiles.sort_by(|a, b| natural_key(&a.0).cmp(&natural_key(&b.0)));
    tiles
}

/// The picture of each tile the template for `sources` lists, in its order: picture `n` of
/// the template's `<stem>.tiles.png` is entry `n - 1` (none where a tile has no picture).
pub fn template_pictures(sources: &[SourceMap], existing: &Mapping) -> Vec<(String, Option<TilePicture>)> {
    template_tiles(sources, existing)
        .into_iter()
        .map(|(name, _)| {
            let picture = sources.iter().find_map(|s| s.pictures.get(&name)).cloned();
            (name, picture)
        })
        .collect()
}

/// The mapping file to fill for `sources`: every tile name and object name they use, with
/// how many cells or objects use it (and, for a tile with a picture, its number in the
/// contact sheet beside it), keeping what `existing` already gives.
pub fn template(sources: &[SourceMap], existing: &Mapping) -> String {
    let mut objects: BTreeMap<String, usize> = BTreeMap::new();
    let mut layers: Vec<String> = Vec::new();
    let mut labels: BTreeMap<&str, &str> = BTreeMap::new();
    for source in sources {
        labels.extend(source.labels.iter().map(|(k, v)| (k.as_str(), v.as_str())));
        for object in source.objects.iter().filter(|o| !self_mapped_object(o)) {
            *objects.entry(object.key.clone()).or_insert(0) += 1;
        }
        layers.extend(source.layers.iter().map(|l| l.name.clone()).filter(|n| !layers.contains(n)).collect::<Vec<_>>());
    }
    let quoted = |s: &str| format!("{s:?}");
    let mut text = String::from(
        "// A mapping for `nefia import`: give each source tile the base.map_tile it becomes (\"-\"\n\
         // leaves the cell to the layers below; left \"\" with --new-tiles MOD, it becomes a new\n\
         // tile of MOD drawn as its picture), and each object type or name the prototype it\n\
         // becomes (kind: chara, item, feat or mef; id \"-\" leaves such objects out). The counts\n\
         // say how many cells or objects use each; \"picture N\" is tile N of <stem>.tiles.png.\n(\n    tiles: {\n",
    );
    let pictured: Vec<bool> = template_pictures(sources, existing).iter().map(|(_, p)| p.is_some()).collect();
    for (number, (name, count)) in template_tiles(sources, existing).iter().enumerate() {
        let given = existing.tiles.get(name).map_or("", String::as_str);
        let label = labels.get(name.as_str()).map_or(String::new(), |label| format!(" ({label})"));
        let picture = if pictured.get(number).copied().unwrap_or(false) {
            format!(", picture {}", number + 1)
        } else {
            String::new()
        };
        text.push_str(&format!("        {}: {}, // {count} cells{picture}{label}\n", quoted(name), quoted(given)));
    }
    text.push_str("    },\n    objects: {\n");
    for (name, count) in &objects {
        let given = existing.objects.get(name);
        let kind = given.map_or(ObjectKind::Chara, |g| g.kind);
        let id = given.map_or("", |g| g.id.as_str());
        let kind = ron::to_string(&kind).unwrap_or_default();
        text.push_str(&format!("        {}: (kind: {kind}, id: {}), // {count} objects\n", quoted(name), quoted(id)));
    }
    text.push_str("    },\n    // The layers are: ");
    text.push_str(&layers.iter().map(|l| quoted(l)).collect::<Vec<_>>().join(", "));
    text.push_str(".\n    skip_layers: [");
    text.push_str(&existing.skip_layers.iter().map(|l| quoted(l)).collect::<Vec<_>>().join(", "));
    text.push_str("],\n)\n");
    text
}

/// A tile name's sort key: `outdoor/9` before `outdoor/10`.
fn natural_key(name: &str) -> (&str, u64, &str) {
    let cut = name.rfind(['/', '#']).map_or(0, |at| at + 1);
    let (prefix, number) = name.split_at(cut);
    (prefix, number.parse().unwrap_or(u64::MAX), number)
}

/// Whether an object names its own prototype (a map [`export`] wrote).
fn self_mapped_object(object: &SourceObject) -> bool {
    object.properties.iter().any(|(name, _)| name == KIND_PROPERTY)
}

/// The prototype `object` becomes.
fn object_target(mapping: &Mapping, object: &SourceObject) -> Option<ObjectTarget> {
    let own_kind = object.properties.iter().find(|(name, _)| name == KIND_PROPERTY).and_then(|(_, kind)| {
        ObjectKind::ALL
            .iter()
            .copied()
            .find(|k| kind.as_str().is_some_and(|s| s.eq_ignore_ascii_case(&format!("{k:?}"))))
    });
    match (own_kind, mapping.objects.get(&object.key)) {
        (_, Some(target)) if !target.id.is_empty() => Some(target.clone()),
        (Some(kind), _) => Some(ObjectTarget { kind, id: object.key.clone() }),
        _ => None,
    }
}

/// Makes the map record of `source` through `mapping`, checking every id and property
/// against the loaded mods (`catalog`): each cell takes its topmost layer's tile (see the
/// module's text). Nothing is made if anything is unmapped or wrong. [`keep_art::convert`]
/// keeps the layers instead.
pub fn convert(source: &SourceMap, mapping: &Mapping, catalog: &Catalog) -> Result<MapRecord, ImportError> {
    // Every unmapped name first, with its count, so one pass tells the user all of them.
    let unmapped_tiles: Vec<(String, usize)> =
        source.tile_counts(mapping).into_iter().filter(|(name, _)| source.tile_for(mapping, name).is_none()).collect();
    check_mapped(source, mapping, unmapped_tiles)?;
    let mut problems = Vec::new();
    let mut tiles = Vec::new();
    for name in source.shown_tiles(mapping) {
        let name = name.unwrap_or(EMPTY_CELL);
        let id = source.tile_for(mapping, name).unwrap_or_default();
        check_tile(catalog, name, id, &mut problems);
        tiles.push(Symbol::intern(id));
    }
    let objects = convert_objects(source, mapping, catalog, &mut problems);
    if !problems.is_empty() {
        return Err(ImportError::Mapping(problems.join("; ")));
    }
    let grid = TileGrid { width: source.width, height: source.height, tiles };
    Ok(record_of(source, &grid, catalog, objects))
}

/// Refuses the import, naming every unmapped tile (given) and object with its count.
fn check_mapped(source: &SourceMap, mapping: &Mapping, tiles: Vec<(String, usize)>) -> Result<(), ImportError> {
    let mut objects: BTreeMap<String, usize> = BTreeMap::new();
    for object in source.objects.iter().filter(|o| object_target(mapping, o).is_none()) {
        *objects.entry(object.key.clone()).or_insert(0) += 1;
    }
    if tiles.is_empty() && objects.is_empty() {
        return Ok(());
    }
    Err(ImportError::Unmapped { tiles, objects: objects.into_iter().collect() })
}

/// Notes (once) that tile `name` is mapped to `id`, which no loaded mod defines.
fn check_tile(catalog: &Catalog, name: &str, id: &str, problems: &mut Vec<String>) {
    if !(catalog.tile)(id) {
        let problem = format!("tile '{name}' is mapped to '{id}', which no loaded mod defines as a base.map_tile");
        if !problems.contains(&problem) {
            problems.push(problem);
        }
    }
}

/// The objects of `source` through `mapping`, each checked against the loaded mods; what is
/// wrong goes to `problems`. An object's `nefia_key` property (as [`export`] writes) is its
/// key.
fn convert_objects(
    source: &SourceMap,
    mapping: &Mapping,
    catalog: &Catalog,
    problems: &mut Vec<String>,
) -> Vec<ObjectRecord> {
    let mut objects = Vec::new();
    for object in &source.objects {
        let Some(target) = object_target(mapping, object).filter(|t| t.id != SKIP) else { continue };
        if !(catalog.object)(target.kind, &target.id) {
            problems.push(format!(
                "'{}' is mapped to {} '{}', which no loaded mod defines",
                object.key,
                target.kind.noun(),
                target.id
            ));
            continue;
        }
        if cell_index(source.width, source.height, object.x.into(), object.y.into()).is_none() {
            let (x, y, name) = (object.x, object.y, &source.name);
            problems.push(format!("'{}' at ({x}, {y}) is outside map '{name}'", object.key));
            continue;
        }
        let mut fields = FieldMap::new();
        let mut key = None;
        for (field, value) in object.properties.iter().filter(|(name, _)| name != KIND_PROPERTY) {
            if field == OBJECT_KEY_PROPERTY {
                key = value.as_str().map(str::to_owned);
                continue;
            }
            match (catalog.field)(target.kind, field, value) {
                Ok(()) => {
                    fields.insert(Symbol::intern(field), value.clone());
                }
                Err(message) => problems.push(format!("'{}' at ({}, {}): {message}", object.key, object.x, object.y)),
            }
        }
        objects.push(ObjectRecord {
            uid: None,
            key,
            kind: target.kind,
            id: Symbol::intern(&target.id),
            x: object.x,
            y: object.y,
            fields,
            temp: FieldMap::new(),
            inventory: Vec::new(),
            equipment: BTreeMap::new(),
        });
    }
    objects
}

/// The map record of `source` with game tiles `grid` (written with the tiles' glyphs as
/// codes where they are free) and `objects`; its neighbours kept in its `neighbours` field.
fn record_of(source: &SourceMap, grid: &TileGrid, catalog: &Catalog, objects: Vec<ObjectRecord>) -> MapRecord {
    let mut glyphs: BTreeMap<String, Symbol> = BTreeMap::new();
    for &tile in &grid.tiles {
        if let Some(glyph) = (catalog.glyph)(tile) {
            glyphs.entry(glyph).or_insert(tile);
        }
    }
    let (palette, rows) = grid.encode(&[&glyphs]);
    let mut fields = FieldMap::new();
    if !source.neighbours.is_empty() {
        let neighbours = source
            .neighbours
            .iter()
            .map(|(direction, level)| (crate::value::Key::Str(direction.as_str().into()), Value::from(level.as_str())));
        fields.insert(Symbol::intern("neighbours"), Value::Map(std::sync::Arc::new(neighbours.collect())));
    }
    MapRecord {
        uid: None,
        name: source.name.clone(),
        width: source.width,
        height: source.height,
        palette,
        tiles: rows,
        entrance: source
            .entrance
            .filter(|&(x, y)| cell_index(source.width, source.height, x.into(), y.into()).is_some()),
        objects,
        memory: Vec::new(),
        generated: None,
        fields,
        temp: FieldMap::new(),
        conflicts: Vec::new(),
        autotile: None,
        art_layers: Vec::new(),
    }
}
