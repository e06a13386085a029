//! An import that keeps the source's art (`nefia import --new-tiles MOD`, and maps whose
//! tiles name themselves): every tile layer stays a layer — the bottom one the map's game
//! tiles, the others its art layers with their pixel offsets, drawn over the objects if the
//! source draws them so — and, given a mod, every tile the mapping leaves out (or maps to "")
//! becomes a new `base.map_tile` of that mod ([`NewTile`]) whose `image` is its region of the
//! tileset's image: animation frames with their durations, flips and rotation kept (a turned
//! use of a tile is a tile of its own, `<tile>_fx`). Layers of values (LDtk's IntGrid) have
//! no pictures and are left out. The map's `cell_px` is the source's tile width.
//!
//! A mapping that maps tiles to prototypes the mods have already still wins over a new tile;
//! the flattening [`super::convert`] is what an import without `--new-tiles` does.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;

use super::{
    Catalog, EMPTY_CELL, FLIP_DIAGONAL, FLIP_X, FLIP_Y, ImportError, Mapping, SKIP, SourceLayer, SourceMap,
    TilePicture, Turns, check_mapped, check_tile, convert_objects, record_of,
};
use crate::map_diff::TileGrid;
use crate::save::{ArtLayerRecord, LayerPlace, MapRecord};
use crate::symbol::Symbol;
use crate::value::{Key, Value};

/// The short id of the tile made for cells no layer covers, when the mapping gives none.
pub const EMPTY_TILE: &str = "empty";

/// A `base.map_tile` an import makes for a source tile.
#[derive(Clone, Debug, PartialEq)]
pub struct NewTile {
    /// Its id inside its mod (`beach_tileset_148_fx`).
    pub short_id: String,
    /// The source tile it is made for (`beach_tileset/148`), or `(empty)`.
    pub source_name: String,
    /// The tileset image its picture is cut from (none for the empty tile).
    pub sheet: Option<PathBuf>,
    /// The name that image goes by among the mod's assets (`<mod>/<file>`).
    pub asset: String,
    /// Its `image` field as the Lua table to write (nil for the empty tile).
    pub image: Value,
    /// The source tile's properties, to set where the tile type declares a field of the name.
    pub properties: Vec<(String, Value)>,
    /// The source tile's class or enum tags, for its `tags`.
    pub tags: Vec<String>,
}

/// A map imported with its art: its record and the tiles it needs made.
#[derive(Clone, Debug, PartialEq)]
pub struct KeptArt {
    /// The map record (game tiles, art layers, objects).
    pub record: MapRecord,
    /// The new tiles its cells use, each once, by short id.
    pub new_tiles: Vec<NewTile>,
    /// What the user should know (a bottom layer's offset that the game tiles cannot keep).
    pub notes: Vec<String>,
}

/// The short id of source tile `name` used turned by `turns`: its name in lower case with
/// `_` for what is not a letter or digit, then `_fx`, `_fy`, `_fd` for each flip.
pub fn short_id(name: &str, turns: Turns) -> String {
    let mut id = String::new();
    for c in name.chars() {
        let c = if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '_' };
        if !(c == '_' && (id.is_empty() || id.ends_with('_'))) {
            id.push(c);
        }
    }
    let mut id = id.trim_end_matches('_').to_owned();
    if !id.starts_with(|c: char| c.is_ascii_lowercase()) {
        id.insert_str(0, "tile_");
    }
    for (bit, suffix) in [(FLIP_X, "_fx"), (FLIP_Y, "_fy"), (FLIP_DIAGONAL, "_fd")] {
        if turns & bit != 0 {
            id.push_str(suffix);
        }
    }
    id
}

/// The asset name a tileset image goes by in mod `mod_id`'s assets: `<mod>/<file name>`.
pub fn asset_name(mod_id: &str, sheet: &std::path::Path) -> String {
    let file = sheet.file_name().map_or_else(|| "tileset.png".to_owned(), |f| f.to_string_lossy().into_owned());
    format!("{mod_id}/{file}")
}

/// How a sprite is mirrored and turned to show a tile placed with `turns`: `(flip_x, flip_y,
/// quarter turns clockwise)`, mirrored first. Tiled swaps the axes first, then mirrors; an
/// axis swap is a quarter turn after a vertical mirror, and mirroring after a quarter turn is
/// the other mirror before it.
pub fn sprite_turns(turns: Turns) -> (bool, bool, u32) {
    let (x, y) = (turns & FLIP_X != 0, turns & FLIP_Y != 0);
    if turns & FLIP_DIAGONAL == 0 { (x, y, 0) } else { (y, !x, 1) }
}

/// A Lua table of string keys.
fn table(entries: Vec<(&str, Value)>) -> Value {
    Value::Map(Arc::new(entries.into_iter().map(|(k, v)| (Key::Str(k.into()), v)).collect()))
}

/// The `image` table of `picture` as asset `asset`, turned by `turns` (LAYOUT's shape:
/// `source`, `x`, `y`, `width`, `height`, explicit `frames` with `ms`, flips and `rotation`).
pub fn image_table(picture: &TilePicture, asset: &str, turns: Turns) -> Value {
    let first = picture.frames.first().copied().unwrap_or(crate::art::Frame { x: 0, y: 0, duration_ms: 0 });
    let mut entries = vec![
        ("source", Value::from(asset)),
        ("x", Value::Int(first.x.into())),
        ("y", Value::Int(first.y.into())),
        ("width", Value::Int(picture.width.into())),
        ("height", Value::Int(picture.height.into())),
    ];
    if picture.frames.len() > 1 {
        let frames = picture.frames.iter().map(|f| {
            table(vec![
                ("x", Value::Int(f.x.into())),
                ("y", Value::Int(f.y.into())),
                ("ms", Value::Int(f.duration_ms.into())),
            ])
        });
        entries.push(("frames", Value::List(Arc::new(frames.collect()))));
    }
    let (flip_x, flip_y, quarters) = sprite_turns(turns);
    if flip_x {
        entries.push(("flip_x", Value::Bool(true)));
    }
    if flip_y {
        entries.push(("flip_y", Value::Bool(true)));
    }
    if quarters > 0 {
        entries.push(("rotation", Value::Int(i64::from(quarters) * 90)));
    }
    table(entries)
}

/// What one cell of a layer becomes.
enum Resolved {
    /// This tile.
    Tile(Symbol),
    /// Nothing: the cell is empty in this layer.
    Empty,
    /// The mapping gives nothing and no tile can be made.
    Unmapped,
}

/// Turns source cells into tiles, collecting what is unmapped, wrong or to be made.
struct Resolver<'a> {
    source: &'a SourceMap,
    mapping: &'a Mapping,
    catalog: &'a Catalog<'a>,
    new_tiles_mod: Option<&'a str>,
    new_tiles: BTreeMap<String, NewTile>,
    unmapped: BTreeMap<String, usize>,
    problems: Vec<String>,
}

impl Resolver<'_> {
    /// The tile of a cell showing `name` turned by `turns`.
    fn cell(&mut self, name: &str, turns: Turns) -> Resolved {
        match self.mapping.tiles.get(name).map(String::as_str) {
            Some(SKIP) => return Resolved::Empty,
            Some(id) if !id.is_empty() => return self.existing(name, id),
            _ => {}
        }
        if let Some(id) = self.source.self_mapped.get(name) {
            return self.existing(name, id);
        }
        let (Some(mod_id), Some(picture)) = (self.new_tiles_mod, self.source.pictures.get(name)) else {
            return Resolved::Unmapped;
        };
        let short = short_id(name, turns);
        let id = Symbol::intern(&format!("{mod_id}.{short}"));
        if !self.new_tiles.contains_key(&short) {
            let asset = asset_name(mod_id, &picture.image);
            self.new_tiles.insert(
                short.clone(),
                NewTile {
                    short_id: short,
                    source_name: name.to_owned(),
                    sheet: Some(picture.image.clone()),
                    image: image_table(picture, &asset, turns),
                    asset,
                    properties: picture.properties.clone(),
                    tags: picture.tags.clone(),
                },
            );
        }
        Resolved::Tile(id)
    }

    /// A tile the mapping or the tileset names, checked against the loaded mods.
    fn existing(&mut self, name: &str, id: &str) -> Resolved {
        check_tile(self.catalog, name, id, &mut self.problems);
        Resolved::Tile(Symbol::intern(id))
    }

    /// The game tile of a cell no layer covers: the mapping's `(empty)`, else a made tile.
    fn empty_cell(&mut self) -> Option<Symbol> {
        match self.cell(EMPTY_CELL, 0) {
            Resolved::Tile(tile) => return Some(tile),
            Resolved::Empty | Resolved::Unmapped => {}
        }
        let mod_id = self.new_tiles_mod?;
        self.new_tiles.entry(EMPTY_TILE.to_owned()).or_insert_with(|| NewTile {
            short_id: EMPTY_TILE.to_owned(),
            source_name: EMPTY_CELL.to_owned(),
            sheet: None,
            asset: String::new(),
            image: Value::Nil,
            properties: Vec::new(),
            tags: Vec::new(),
        });
        Some(Symbol::intern(&format!("{mod_id}.{EMPTY_TILE}")))
    }

    /// Each cell of `layer`: its tile, or none where the layer leaves it empty.
    fn layer(&mut self, layer: &SourceLayer) -> Vec<Option<Symbol>> {
        let turns = |cell: usize| layer.turns.get(cell).copied().unwrap_or(0);
        (0..layer.cells.len())
            .map(|cell| {
                let name = layer.cells[cell].as_deref()?;
                match self.cell(name, turns(cell)) {
                    Resolved::Tile(tile) => Some(tile),
                    Resolved::Empty => None,
                    Resolved::Unmapped => {
                        *self.unmapped.entry(name.to_owned()).or_insert(0) += 1;
                        None
                    }
                }
            })
            .collect()
    }
}

/// An art layer's record: rows of codes, spaces where a cell is empty.
fn art_layer(layer: &SourceLayer, width: i32, tiles: &[Option<Symbol>]) -> ArtLayerRecord {
    let mut used: Vec<Symbol> = Vec::new();
    for tile in tiles.iter().flatten() {
        if !used.contains(tile) {
            used.push(*tile);
        }
    }
    let codes = crate::save::choose_codes(&used, &[]);
    let blank = " ".repeat(codes.first().map_or(1, |c| c.chars().count()));
    let code = |tile: &Option<Symbol>| match tile {
        Some(tile) => used.iter().position(|t| t == tile).map_or(blank.as_str(), |i| codes[i].as_str()),
        None => blank.as_str(),
    };
    let width = usize::try_from(width).unwrap_or(1).max(1);
    ArtLayerRecord {
        name: layer.name.clone(),
        place: if layer.above_objects { LayerPlace::Above } else { LayerPlace::Below },
        offset_px: layer.offset_px,
        palette: used.iter().zip(&codes).map(|(&tile, code)| (code.clone(), tile)).collect(),
        tiles: tiles.chunks(width).map(|row| row.iter().map(code).collect()).collect(),
    }
}

/// Makes the map record of `source` keeping its layers (see the module's text); with
/// `new_tiles_mod`, the tiles the mapping leaves out are made in that mod. Nothing is made if
/// anything is unmapped or wrong.
pub fn convert(
    source: &SourceMap,
    mapping: &Mapping,
    catalog: &Catalog,
    new_tiles_mod: Option<&str>,
) -> Result<KeptArt, ImportError> {
    let layers: Vec<&SourceLayer> =
        source.layers.iter().filter(|l| !l.values && !mapping.skip_layers.contains(&l.name)).collect();
    let mut resolver = Resolver {
        source,
        mapping,
        catalog,
        new_tiles_mod,
        new_tiles: BTreeMap::new(),
        unmapped: BTreeMap::new(),
        problems: Vec::new(),
    };
    let mut grids: Vec<Vec<Option<Symbol>>> = layers.iter().map(|layer| resolver.layer(layer)).collect();
    let cells = usize::try_from(source.width).unwrap_or(0) * usize::try_from(source.height).unwrap_or(0);
    let bottom = if grids.is_empty() { vec![None; cells] } else { grids.remove(0) };
    let mut tiles = Vec::with_capacity(cells);
    let mut empty = 0;
    for tile in bottom {
        match tile.or_else(|| resolver.empty_cell()) {
            Some(tile) => tiles.push(tile),
            None => {
                empty += 1;
                tiles.push(Symbol::intern(""));
            }
        }
    }
    if empty > 0 {
        *resolver.unmapped.entry(EMPTY_CELL.to_owned()).or_insert(0) += empty;
    }
    check_mapped(source, mapping, std::mem::take(&mut resolver.unmapped).into_iter().collect())?;
    let objects = convert_objects(source, mapping, catalog, &mut resolver.problems);
    if !resolver.problems.is_empty() {
        return Err(ImportError::Mapping(resolver.problems.join("; ")));
    }
    let grid = TileGrid { width: source.width, height: source.height, tiles };
    let mut record = record_of(source, &grid, catalog, objects);
    record.art_layers =
        layers.iter().skip(1).zip(&grids).map(|(layer, tiles)| art_layer(layer, source.width, tiles)).collect();
    let mut notes = Vec::new();
    if let Some(bottom) = layers.first().filter(|l| l.offset_px != (0, 0)) {
        let (x, y) = bottom.offset_px;
        notes
            .push(format!("layer '{}' is shifted by ({x}, {y}) pixels, which the game tiles cannot keep", bottom.name));
    }
    if new_tiles_mod.is_some()
        && let Some(cell_px) = source.cell_px
    {
        record.fields.insert(Symbol::intern("cell_px"), Value::Int(cell_px.into()));
    }
    Ok(KeptArt { record, new_tiles: resolver.new_tiles.into_values().collect(), notes })
}
