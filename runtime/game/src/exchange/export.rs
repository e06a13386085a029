//! A map record as a Tiled map (`.tmj`, Tiled's JSON): its game tiles as one tile layer, each
//! art layer as a tile layer of its own (with its offset; an art layer drawn over the objects
//! after the object layer), one object layer, and one embedded tileset whose image the caller
//! draws from the prototypes' images (or glyphs) ([`TiledExport::tiles`] in the tileset's
//! order). Each tile of the tileset carries its `nefia_id`, each object its `nefia_kind` and
//! `nefia_key` with its prototype id as its class and its own plain fields as properties, so
//! the map imports back with no mapping, the same map.

use serde_json::{Value as Json, json};

use super::{ENTRANCE_PROPERTY, KIND_PROPERTY, OBJECT_KEY_PROPERTY, TILE_ID_PROPERTY};
use crate::map_diff::{TileGrid, TileGridError};
use crate::save::{ArtLayerRecord, LayerPlace, MapRecord};
use crate::symbol::Symbol;
use crate::value::Value;

/// The side of one tile of the exported tileset, in pixels, when the map's tiles have no
/// images and it gives no `cell_px`.
pub const TILE_PIXELS: u32 = 16;

/// The most tiles in a row of the exported tileset's image.
pub const TILESET_COLUMNS: u32 = 16;

/// A Tiled map made of a map record.
pub struct TiledExport {
    /// The `.tmj` document.
    pub map: Json,
    /// The tiles of its tileset, in order: tile `i` of the image is drawn for `tiles[i]`.
    pub tiles: Vec<Symbol>,
    /// What could not be carried over (fields that are tables or objects).
    pub notes: Vec<String>,
}

/// A field value as a Tiled property, if it is a plain one.
fn property(name: &str, value: &Value) -> Option<Json> {
    let (kind, value) = match value {
        Value::Bool(b) => ("bool", json!(b)),
        Value::Int(i) => ("int", json!(i)),
        Value::Float(f) => ("float", json!(f)),
        Value::Str(s) => ("string", json!(s.as_ref())),
        _ => return None,
    };
    Some(json!({ "name": name, "type": kind, "value": value }))
}

/// The map's own properties: its name, and its entrance if it has one.
fn map_properties(record: &MapRecord) -> Vec<Json> {
    let mut properties = vec![json!({ "name": "nefia_name", "type": "string", "value": record.name })];
    if let Some((x, y)) = record.entrance {
        properties.push(json!({ "name": ENTRANCE_PROPERTY, "type": "string", "value": format!("{x},{y}") }));
    }
    properties
}

/// Why a map cannot be written as a Tiled map.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum UnexportableMap {
    /// Its tiles do not make a grid.
    #[error("{0}")]
    Tiles(#[from] TileGridError),
    /// It uses more tiles than a tileset can number.
    #[error("too many tiles")]
    TooManyTiles,
    /// An art layer's rows do not make the map's grid.
    #[error("art layer '{name}': {error}")]
    ArtLayer {
        /// The layer's name.
        name: String,
        /// What is wrong with its rows.
        error: TileGridError,
    },
}

/// The global tile id of each cell of `cells` (0 where empty), numbering tiles not yet in
/// `tiles` after the others.
fn gids(cells: impl Iterator<Item = Option<Symbol>>, tiles: &mut Vec<Symbol>) -> Vec<u32> {
    cells
        .map(|tile| {
            let Some(tile) = tile else { return 0 };
            let index = tiles.iter().position(|&t| t == tile).unwrap_or_else(|| {
                tiles.push(tile);
                tiles.len() - 1
            });
            u32::try_from(index).map_or(0, |i| i + 1)
        })
        .collect()
}

/// The cells of an art layer, row by row: its tile, or none where it has none (its rows
/// read as a merge or a diff reads them).
fn art_cells(record: &MapRecord, layer: &ArtLayerRecord) -> Result<Vec<Option<Symbol>>, UnexportableMap> {
    let (width, height) = (record.width, record.height);
    let cells =
        layer.cells(width, height).map_err(|error| UnexportableMap::ArtLayer { name: layer.name.clone(), error })?;
    Ok((0..height).flat_map(|y| (0..width).map(move |x| (x, y))).map(|(x, y)| cells.get(x, y)).collect())
}

/// `record` as a Tiled map whose tileset image is the file `image` (relative to the map),
/// each tile `tile_px` pixels square.
pub fn to_tmj(record: &MapRecord, image: &str, tile_px: u32) -> Result<TiledExport, UnexportableMap> {
    let grid = TileGrid::of(record)?;
    let mut tiles: Vec<Symbol> = Vec::new();
    let data = gids(grid.tiles.iter().map(|&t| Some(t)), &mut tiles);
    let mut below = Vec::new();
    let mut above = Vec::new();
    for (layer, id) in record.art_layers.iter().zip(3_u32..) {
        let data = gids(art_cells(record, layer)?.into_iter(), &mut tiles);
        let json = json!({ "type": "tilelayer", "id": id, "name": layer.name, "x": 0, "y": 0,
            "offsetx": layer.offset_px.0, "offsety": layer.offset_px.1,
            "width": grid.width, "height": grid.height, "opacity": 1, "visible": true, "data": data });
        match layer.place {
            LayerPlace::Below => below.push(json),
            LayerPlace::Above => above.push(json),
        }
    }
    let count = u32::try_from(tiles.len()).map_err(|_| UnexportableMap::TooManyTiles)?;
    let columns = count.clamp(1, TILESET_COLUMNS);
    let rows = count.div_ceil(columns).max(1);
    let mut notes = Vec::new();
    let objects: Vec<Json> = record
        .objects
        .iter()
        .zip(1_u32..)
        .map(|(object, id)| {
            let mut properties = vec![json!({ "name": KIND_PROPERTY, "type": "string", "value": format!("{:?}", object.kind) })];
            if let Some(key) = &object.key {
                properties.push(json!({ "name": OBJECT_KEY_PROPERTY, "type": "string", "value": key }));
            }
            for (field, value) in object.fields.iter() {
                match property(field.as_str(), value) {
                    Some(p) => properties.push(p),
                    None => notes.push(format!(
                        "{} '{}' at ({}, {}): field {field} is a table or an object, which a Tiled property cannot hold",
                        object.kind.noun(),
                        object.id,
                        object.x,
                        object.y
                    )),
                }
            }
            let pixels = |cell: i32| i64::from(cell) * i64::from(tile_px);
            json!({
                "id": id, "name": object.id.as_str(), "type": object.id.as_str(),
                "x": pixels(object.x), "y": pixels(object.y),
                "width": tile_px, "height": tile_px, "rotation": 0, "visible": true,
                "properties": properties,
            })
        })
        .collect();
    let next_object = objects.len() + 1;
    let tileset_tiles: Vec<Json> = tiles
        .iter()
        .zip(0_u32..)
        .map(|(tile, id)| json!({ "id": id, "properties": [{ "name": TILE_ID_PROPERTY, "type": "string", "value": tile.as_str() }] }))
        .collect();
    let next_layer = 3 + record.art_layers.len();
    let mut layers = vec![json!({ "type": "tilelayer", "id": 1, "name": "tiles", "x": 0, "y": 0,
        "width": grid.width, "height": grid.height, "opacity": 1, "visible": true, "data": data })];
    layers.extend(below);
    layers.push(json!({ "type": "objectgroup", "id": 2, "name": "objects", "x": 0, "y": 0,
        "draworder": "topdown", "opacity": 1, "visible": true, "objects": objects }));
    layers.extend(above);
    let map = json!({
        "type": "map", "version": "1.10", "tiledversion": "1.10.2",
        "orientation": "orthogonal", "renderorder": "right-down", "infinite": false,
        "width": grid.width, "height": grid.height,
        "tilewidth": tile_px, "tileheight": tile_px,
        "nextlayerid": next_layer, "nextobjectid": next_object,
        "properties": map_properties(record),
        "layers": layers,
        "tilesets": [{
            "firstgid": 1, "name": "nefia", "tilewidth": tile_px, "tileheight": tile_px,
            "tilecount": count, "columns": columns, "margin": 0, "spacing": 0,
            "image": image, "imagewidth": columns * tile_px, "imageheight": rows * tile_px,
            "tiles": tileset_tiles,
        }],
    });
    Ok(TiledExport { map, tiles, notes })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(rows: [&str; 2]) -> MapRecord {
        let mut record: MapRecord = ron::from_str(
            "(name: \"m\", width: 3, height: 2, palette: {\".\": \"t.floor\"}, tiles: [\"...\", \"...\"])",
        )
        .expect("a map record");
        record.art_layers = vec![ArtLayerRecord {
            name: "roofs".into(),
            place: LayerPlace::Above,
            offset_px: (0, -4),
            palette: [("r".to_owned(), Symbol::intern("t.roof"))].into(),
            tiles: rows.map(str::to_owned).to_vec(),
        }];
        record
    }

    #[test]
    fn an_art_layer_is_a_tile_layer_over_the_objects_and_one_that_does_not_read_is_refused() {
        let export = to_tmj(&record(["r  ", "  r"]), "m.png", 16).expect("exported");
        let layers = export.map["layers"].as_array().expect("layers");
        let names: Vec<&str> = layers.iter().map(|l| l["name"].as_str().unwrap_or("")).collect();
        assert_eq!(names, ["tiles", "objects", "roofs"]);
        assert_eq!(layers[2]["data"], json!([2, 0, 0, 0, 0, 2]), "the roof is the tileset's second tile");
        assert_eq!(layers[2]["offsety"], json!(-4));
        let unknown = to_tmj(&record(["r  ", "  x"]), "m.png", 16);
        assert!(
            matches!(unknown, Err(UnexportableMap::ArtLayer { ref name, .. }) if name == "roofs"),
            "{:?}",
            unknown.err()
        );
        let short = to_tmj(&record(["r  ", "r"]), "m.png", 16);
        assert!(matches!(short, Err(UnexportableMap::ArtLayer { .. })), "{:?}", short.err());
    }
}
