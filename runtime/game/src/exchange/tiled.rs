//! Tiled maps: `.tmx` read by the `tiled` crate (Tiled's own organisation's reader), `.tmj`
//! (Tiled's JSON, which that crate does not read) by serde into the structs below. Both give
//! a [`SourceMap`]: tile layers (groups flattened, in drawing order), objects, and the tiles
//! whose tileset names their Nefia tile. Flipped and rotated tiles take their tile's mapping
//! (Nefia tiles have no orientation: the notes count them); infinite maps are cut to the
//! chunks that hold tiles.

use std::path::Path;

use quick_xml::events::Event;

use super::{
    ENTRANCE_PROPERTY, ImportError, SourceMap, SourceObject, TILE_ID_PROPERTY, cell_index, object_key, parse_entrance,
    read_error,
};
use crate::value::Value;

/// The flag bits of a global tile id (flipped across, down, diagonally; rotated hexagon).
const FLAGS: u32 = 0xF000_0000;

/// How a tile flipped across, down and diagonally is turned.
fn turns(flip_x: bool, flip_y: bool, flip_diagonal: bool) -> super::Turns {
    let bit = |set: bool, turn: super::Turns| if set { turn } else { 0 };
    bit(flip_x, super::FLIP_X) | bit(flip_y, super::FLIP_Y) | bit(flip_diagonal, super::FLIP_DIAGONAL)
}

/// How a global tile id's flag bits turn its tile.
fn gid_turns(gid: u32) -> super::Turns {
    turns(gid & 0x8000_0000 != 0, gid & 0x4000_0000 != 0, gid & 0x2000_0000 != 0)
}

/// Checks every size a `.tmx` states (the map's, each layer's and chunk's) before the reader
/// allocates for them, with a streaming XML read of its start tags.
fn check_tmx_sizes(path: &Path) -> Result<(), ImportError> {
    let mut reader = quick_xml::Reader::from_file(path).map_err(|e| read_error(path, e))?;
    let mut buffer = Vec::new();
    loop {
        match reader.read_event_into(&mut buffer).map_err(|e| read_error(path, e))? {
            Event::Start(tag) | Event::Empty(tag) => {
                let name = tag.name();
                if matches!(name.as_ref(), b"map" | b"layer" | b"chunk") {
                    let mut size = (1_i64, 1_i64);
                    for attribute in tag.attributes().flatten() {
                        let value = || std::str::from_utf8(&attribute.value).ok()?.parse::<i64>().ok();
                        match attribute.key.as_ref() {
                            b"width" => size.0 = value().unwrap_or(i64::MAX),
                            b"height" => size.1 = value().unwrap_or(i64::MAX),
                            _ => {}
                        }
                    }
                    super::check_size(path, size.0, size.1)?;
                }
            }
            Event::Eof => return Ok(()),
            _ => {}
        }
        buffer.clear();
    }
}

/// A Tiled property as a field value (a colour as `#aarrggbb`, a file as its path, an
/// object reference as its id).
fn property_value(value: &tiled::PropertyValue) -> Value {
    use tiled::PropertyValue as P;
    match value {
        P::BoolValue(b) => Value::Bool(*b),
        P::FloatValue(f) => Value::Float(f64::from(*f)),
        P::IntValue(i) => Value::Int(i64::from(*i)),
        P::ColorValue(c) => Value::from(format!("#{:02x}{:02x}{:02x}{:02x}", c.alpha, c.red, c.green, c.blue).as_str()),
        P::StringValue(s) | P::FileValue(s) => Value::from(s.as_str()),
        P::ObjectValue(id) => Value::Int(i64::from(*id)),
        P::ListValue(items) => Value::List(std::sync::Arc::new(items.iter().map(property_value).collect())),
        P::ClassValue { properties, .. } => Value::Map(std::sync::Arc::new(
            properties.iter().map(|(k, v)| (crate::value::Key::Str(k.as_str().into()), property_value(v))).collect(),
        )),
    }
}

/// Properties sorted by name, as field values.
fn properties(properties: &tiled::Properties) -> Vec<(String, Value)> {
    let mut sorted: Vec<(String, Value)> = properties.iter().map(|(k, v)| (k.clone(), property_value(v))).collect();
    sorted.sort_by(|a, b| a.0.cmp(&b.0));
    sorted
}

/// The cell an object of the `.tmx` stands in (see [`shape_cell`]).
fn object_cell(object: &tiled::Object, tile: (f32, f32), offset: (i64, i64)) -> (i32, i32) {
    let (width, height) = match &object.shape {
        tiled::ObjectShape::Rect { width, height }
        | tiled::ObjectShape::Ellipse { width, height }
        | tiled::ObjectShape::Capsule { width, height }
        | tiled::ObjectShape::Text { width, height, .. } => (*width, *height),
        _ => (0.0, 0.0),
    };
    shape_cell((object.x, object.y, width, height), object.tile_data().is_some(), tile, offset)
}

/// The cell the centre of a shape at (x, y) of `width`×`height` pixels stands in, on a grid of
/// `tile`-sized cells whose (0, 0) is cell `offset` of the source (a tile object's y is its
/// bottom, as Tiled places them).
fn shape_cell(
    (x, y, width, height): (f32, f32, f32, f32),
    tile_object: bool,
    tile: (f32, f32),
    offset: (i64, i64),
) -> (i32, i32) {
    let top = if tile_object { y - height } else { y };
    let cell = |at: f32, size: f32, offset: i64| {
        let cell = ((at / size.max(1.0)).floor() as i64).saturating_sub(offset);
        i32::try_from(cell).unwrap_or(i32::MAX)
    };
    (cell(x + width / 2.0, tile.0, offset.0), cell(top + height / 2.0, tile.1, offset.1))
}

/// A tile layer of a `.tmx` with where it is drawn.
struct TmxTileLayer<'map> {
    name: String,
    tiles: tiled::TileLayer<'map>,
    /// Its pixel offset, its groups' added.
    offset_px: (i32, i32),
    /// Whether an object layer is drawn before it (so it covers the objects).
    above_objects: bool,
}

/// The tile layers of `layers`, groups flattened, in drawing order (bottom first), each
/// shifted by `offset` (its groups') besides its own; `objects_seen` tells whether an object
/// layer came before.
fn tile_layers<'map>(
    layers: impl Iterator<Item = tiled::Layer<'map>>,
    offset: (f32, f32),
    objects_seen: &mut bool,
    out: &mut Vec<TmxTileLayer<'map>>,
) {
    for layer in layers {
        let name = layer.name.clone();
        let offset = (offset.0 + layer.offset_x, offset.1 + layer.offset_y);
        match layer.layer_type() {
            tiled::LayerType::Tiles(tiles) => {
                let offset_px = (offset.0.round() as i32, offset.1.round() as i32);
                out.push(TmxTileLayer { name, tiles, offset_px, above_objects: *objects_seen });
            }
            tiled::LayerType::Group(group) => tile_layers(group.layers(), offset, objects_seen, out),
            tiled::LayerType::Objects(_) => *objects_seen = true,
            tiled::LayerType::Image(_) => {}
        }
    }
}

/// The picture of tile `id` of `tileset`: its region of the tileset's image (or its own image
/// in an image collection), its animation's frames, properties and class.
fn tile_picture(tileset: &tiled::Tileset, id: u32) -> Option<super::TilePicture> {
    let tile = tileset.get_tile(id);
    let (image, width, height) = match (&tileset.image, tile.as_ref().and_then(|t| t.image.as_ref())) {
        (_, Some(own)) => (own, u32::try_from(own.width).ok()?, u32::try_from(own.height).ok()?),
        (Some(sheet), None) => (sheet, tileset.tile_width, tileset.tile_height),
        (None, None) => return None,
    };
    let place = |id: u32| -> crate::art::Frame {
        if tile.as_ref().is_some_and(|t| t.image.is_some()) {
            return crate::art::Frame { x: 0, y: 0, duration_ms: 0 };
        }
        let columns = tileset.columns.max(1);
        let (column, row) = (id % columns, id / columns);
        let step =
            |size: u32, at: u32| tileset.margin.saturating_add(at.saturating_mul(size.saturating_add(tileset.spacing)));
        crate::art::Frame { x: step(tileset.tile_width, column), y: step(tileset.tile_height, row), duration_ms: 0 }
    };
    let frames = match tile.as_ref().and_then(|t| t.animation.as_ref()).filter(|frames| !frames.is_empty()) {
        Some(animation) => animation
            .iter()
            .map(|frame| crate::art::Frame { duration_ms: frame.duration, ..place(frame.tile_id) })
            .collect(),
        None => vec![place(id)],
    };
    let (properties, tags) = match &tile {
        Some(tile) => {
            let class = (!tile.user_type.is_empty()).then(|| tile.user_type.clone());
            (properties(&tile.properties), class.into_iter().collect())
        }
        None => (Vec::new(), Vec::new()),
    };
    Some(super::TilePicture { image: image.source.clone(), width, height, frames, properties, tags })
}

/// The object layers of `layers`, groups flattened.
fn object_layers<'map>(layers: impl Iterator<Item = tiled::Layer<'map>>, out: &mut Vec<tiled::ObjectLayer<'map>>) {
    for layer in layers {
        match layer.layer_type() {
            tiled::LayerType::Objects(objects) => out.push(objects),
            tiled::LayerType::Group(group) => object_layers(group.layers(), out),
            tiled::LayerType::Tiles(_) | tiled::LayerType::Image(_) => {}
        }
    }
}

/// Reads a `.tmx` map (its external tilesets beside it).
pub(super) fn read_tmx(path: &Path) -> Result<SourceMap, ImportError> {
    check_tmx_sizes(path)?;
    let map = tiled::Loader::new().load_tmx_map(path).map_err(|e| read_error(path, describe_tiled_error(&e)))?;
    let mut layers = Vec::new();
    tile_layers(map.layers(), (0.0, 0.0), &mut false, &mut layers);
    // An infinite map is cut to the chunks holding tiles; (0, 0) moves to their corner.
    let (offset, width, height) = if map.infinite() {
        let mut bounds: Option<(i64, i64, i64, i64)> = None;
        for layer in &layers {
            if let tiled::TileLayer::Infinite(infinite) = &layer.tiles {
                for ((cx, cy), _) in infinite.chunks() {
                    let (w, h) = (i64::from(tiled::ChunkData::WIDTH), i64::from(tiled::ChunkData::HEIGHT));
                    let (x0, y0) = (i64::from(cx) * w, i64::from(cy) * h);
                    bounds = Some(match bounds {
                        None => (x0, y0, x0 + w, y0 + h),
                        Some((a, b, c, d)) => (a.min(x0), b.min(y0), c.max(x0 + w), d.max(y0 + h)),
                    });
                }
            }
        }
        let (x0, y0, x1, y1) = bounds.unwrap_or((0, 0, 1, 1));
        ((x0, y0), x1 - x0, y1 - y0)
    } else {
        ((0, 0), i64::from(map.width), i64::from(map.height))
    };
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("imported").to_owned();
    let mut source = SourceMap::sized(path, stem, width, height)?;
    if let Some(tiled::PropertyValue::StringValue(entrance)) = map.properties.get(ENTRANCE_PROPERTY) {
        source.entrance = parse_entrance(entrance);
    }
    if map.orientation != tiled::Orientation::Orthogonal {
        source.notes.push(format!("the map is {:?}: its cells are imported as a square grid", map.orientation));
    }
    source.cell_px = Some(map.tile_width);
    let mut turned = 0;
    for layer in &layers {
        let mut cells = source.layer(&layer.name);
        cells.offset_px = layer.offset_px;
        cells.above_objects = layer.above_objects;
        for y in 0..source.height {
            for x in 0..source.width {
                let (sx, sy) = (i64::from(x) + offset.0, i64::from(y) + offset.1);
                let (Ok(sx), Ok(sy)) = (i32::try_from(sx), i32::try_from(sy)) else { continue };
                let Some(tile) = layer.tiles.get_tile(sx, sy) else { continue };
                let turns = turns(tile.flip_h, tile.flip_v, tile.flip_d);
                if turns != 0 {
                    turned += 1;
                }
                let Some(cell) = cell_index(source.width, source.height, x.into(), y.into()) else { continue };
                let tileset = tile.get_tileset();
                let name = format!("{}/{}", tileset.name, tile.id());
                if !source.pictures.contains_key(&name)
                    && let Some(picture) = tile_picture(tileset, tile.id())
                {
                    source.pictures.insert(name.clone(), picture);
                }
                cells.cells[cell] = Some(name);
                cells.turns[cell] = turns;
            }
        }
        source.layers.push(cells);
    }
    source.note_turned(turned);
    for tileset in map.tilesets() {
        for (id, tile) in tileset.tiles() {
            if let Some(tiled::PropertyValue::StringValue(nefia)) = tile.properties.get(TILE_ID_PROPERTY) {
                source.self_mapped.insert(format!("{}/{id}", tileset.name), nefia.clone());
            }
        }
    }
    let mut groups = Vec::new();
    object_layers(map.layers(), &mut groups);
    let tile_size = (map.tile_width as f32, map.tile_height as f32);
    for group in groups {
        for object in group.objects() {
            let key = object_key(&object.user_type, &object.name);
            let (x, y) = object_cell(&object, tile_size, offset);
            source.objects.push(SourceObject { key, x, y, properties: properties(&object.properties) });
        }
    }
    Ok(source)
}

/// A `tiled` error in words, naming a missing external file.
fn describe_tiled_error(error: &tiled::Error) -> String {
    match error {
        tiled::Error::ResourceLoadingError { path, err } => {
            format!("cannot read {} (a tileset or template the map names): {err}", path.display())
        }
        other => other.to_string(),
    }
}

/// A Tiled map as its JSON (`.tmj`) writes it: what an import reads of it.
#[derive(serde::Deserialize)]
struct TmjMap {
    width: i64,
    height: i64,
    #[serde(default)]
    infinite: bool,
    #[serde(default)]
    orientation: String,
    tilewidth: f32,
    tileheight: f32,
    #[serde(default)]
    layers: Vec<TmjLayer>,
    #[serde(default)]
    tilesets: Vec<TmjTileset>,
    #[serde(default)]
    properties: Vec<TmjProperty>,
}

/// A layer of a `.tmj`.
#[derive(serde::Deserialize)]
struct TmjLayer {
    #[serde(rename = "type")]
    kind: String,
    #[serde(default)]
    name: String,
    /// Global tile ids, row by row (a layer written base64 holds a string: refused).
    #[serde(default)]
    data: Option<serde_json::Value>,
    #[serde(default)]
    objects: Vec<TmjObject>,
    #[serde(default)]
    layers: Vec<TmjLayer>,
    #[serde(default)]
    offsetx: f32,
    #[serde(default)]
    offsety: f32,
}

/// An object of a `.tmj`.
#[derive(serde::Deserialize)]
struct TmjObject {
    #[serde(default)]
    name: String,
    /// Its class (`class` since Tiled 1.9, `type` before).
    #[serde(default, alias = "class")]
    #[serde(rename = "type")]
    class: String,
    x: f32,
    y: f32,
    #[serde(default)]
    width: f32,
    #[serde(default)]
    height: f32,
    #[serde(default)]
    gid: Option<u32>,
    #[serde(default)]
    properties: Vec<TmjProperty>,
}

/// A custom property of a `.tmj`.
#[derive(serde::Deserialize)]
struct TmjProperty {
    name: String,
    value: serde_json::Value,
}

/// A tileset of a `.tmj`: embedded, or named by its file.
#[derive(serde::Deserialize)]
struct TmjTileset {
    firstgid: u32,
    #[serde(default)]
    name: Option<String>,
    #[serde(default)]
    source: Option<String>,
    #[serde(default)]
    tiles: Vec<TmjTile>,
}

/// A tile of an embedded tileset with its properties.
#[derive(serde::Deserialize)]
struct TmjTile {
    id: u32,
    #[serde(default)]
    properties: Vec<TmjProperty>,
}

/// A JSON property value as a field value.
fn json_value(value: &serde_json::Value) -> Value {
    match value {
        serde_json::Value::Bool(b) => Value::Bool(*b),
        serde_json::Value::Number(n) => n.as_i64().map_or_else(|| Value::Float(n.as_f64().unwrap_or(0.0)), Value::Int),
        serde_json::Value::String(s) => Value::from(s.as_str()),
        _ => Value::from(value.to_string().as_str()),
    }
}

/// Reads a `.tmj` map.
pub(super) fn read_tmj(path: &Path) -> Result<SourceMap, ImportError> {
    let text = std::fs::read_to_string(path).map_err(|e| read_error(path, e))?;
    let map: TmjMap =
        serde_json::from_str(&text).map_err(|e| read_error(path, format!("not a Tiled JSON map: {e}")))?;
    if map.infinite {
        return Err(ImportError::Unsupported {
            path: path.display().to_string(),
            message: "an infinite map saved as JSON: save it as .tmx (File → Save As in Tiled), which Nefia imports"
                .into(),
        });
    }
    let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("imported").to_owned();
    let mut source = SourceMap::sized(path, stem, map.width, map.height)?;
    source.cell_px = Some(map.tilewidth.max(1.0) as u32);
    let entrance = map.properties.iter().find(|p| p.name == ENTRANCE_PROPERTY).and_then(|p| p.value.as_str());
    source.entrance = entrance.and_then(parse_entrance);
    if !map.orientation.is_empty() && map.orientation != "orthogonal" {
        source.notes.push(format!("the map is {}: its cells are imported as a square grid", map.orientation));
    }
    let names: Vec<(u32, String)> = map
        .tilesets
        .iter()
        .map(|t| {
            let from_file = t.source.as_deref().and_then(|s| Path::new(s).file_stem()?.to_str().map(str::to_owned));
            (t.firstgid, t.name.clone().or(from_file).unwrap_or_else(|| format!("tileset{}", t.firstgid)))
        })
        .collect();
    let tile_name = |gid: u32| -> Option<String> {
        let gid = gid & !FLAGS;
        let (first, name) = names.iter().filter(|(first, _)| *first <= gid).max_by_key(|(first, _)| *first)?;
        (gid != 0).then(|| format!("{name}/{}", gid - first))
    };
    for tileset in &map.tilesets {
        let name =
            names.iter().find(|(first, _)| *first == tileset.firstgid).map(|(_, n)| n.clone()).unwrap_or_default();
        for tile in &tileset.tiles {
            if let Some(id) = tile.properties.iter().find(|p| p.name == TILE_ID_PROPERTY).and_then(|p| p.value.as_str())
            {
                source.self_mapped.insert(format!("{name}/{}", tile.id), id.to_owned());
            }
        }
    }
    let mut flat = Vec::new();
    flatten(&map.layers, (0.0, 0.0), &mut flat);
    let mut turned = 0;
    let mut objects_seen = false;
    for &(layer, offset) in &flat {
        objects_seen |= layer.kind == "objectgroup";
        if layer.kind != "tilelayer" {
            continue;
        }
        let Some(data) = &layer.data else { continue };
        let Some(gids) = data.as_array() else {
            return Err(ImportError::Unsupported {
                path: path.display().to_string(),
                message: format!(
                    "layer '{}' is written base64: set the map's Tile Layer Format to CSV in Tiled and save again",
                    layer.name
                ),
            });
        };
        let mut cells = source.layer(&layer.name);
        cells.offset_px = (offset.0.round() as i32, offset.1.round() as i32);
        cells.above_objects = objects_seen;
        if gids.len() != cells.cells.len() {
            return Err(read_error(
                path,
                format!("layer '{}' has {} cells, but the map has {}", layer.name, gids.len(), cells.cells.len()),
            ));
        }
        for ((cell, turns), gid) in cells.cells.iter_mut().zip(cells.turns.iter_mut()).zip(gids) {
            let gid = gid.as_u64().and_then(|g| u32::try_from(g).ok()).unwrap_or(0);
            if gid & FLAGS != 0 {
                turned += 1;
            }
            *turns = gid_turns(gid);
            *cell = tile_name(gid);
        }
        source.layers.push(cells);
    }
    source.note_turned(turned);
    for (layer, _) in flat.iter().filter(|(l, _)| l.kind == "objectgroup") {
        for object in &layer.objects {
            let key = object_key(&object.class, &object.name);
            let shape = (object.x, object.y, object.width, object.height);
            let (x, y) = shape_cell(shape, object.gid.is_some(), (map.tilewidth, map.tileheight), (0, 0));
            let mut properties: Vec<(String, Value)> =
                object.properties.iter().map(|p| (p.name.clone(), json_value(&p.value))).collect();
            properties.sort_by(|a, b| a.0.cmp(&b.0));
            source.objects.push(SourceObject { key, x, y, properties });
        }
    }
    Ok(source)
}

/// The layers of `layers`, groups flattened, in drawing order, each with its pixel offset:
/// `offset` (its groups') plus its own, as the `.tmx` reader adds them.
fn flatten<'a>(layers: &'a [TmjLayer], offset: (f32, f32), out: &mut Vec<(&'a TmjLayer, (f32, f32))>) {
    for layer in layers {
        let offset = (offset.0 + layer.offsetx, offset.1 + layer.offsety);
        if layer.kind == "group" {
            flatten(&layer.layers, offset, out);
        } else {
            out.push((layer, offset));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tmj_layer_in_a_group_is_shifted_by_the_groups_offset_too() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join("shifted.tmj");
        let layer = r#"{"type":"tilelayer","name":"roofs","data":[1],"offsetx":2,"offsety":-3}"#;
        let group = format!(r#"{{"type":"group","name":"top","offsetx":10,"offsety":4,"layers":[{layer}]}}"#);
        let map = format!(
            r#"{{"width":1,"height":1,"tilewidth":16,"tileheight":16,"layers":[{layer},{group}],"tilesets":[{{"firstgid":1,"name":"set"}}]}}"#
        );
        std::fs::write(&path, map).expect("the map is written");
        let source = read_tmj(&path).expect("the map reads");
        let offsets: Vec<(i32, i32)> = source.layers.iter().map(|l| l.offset_px).collect();
        assert_eq!(offsets, [(2, -3), (12, 1)], "its own offset, then the group's added");
    }
}
