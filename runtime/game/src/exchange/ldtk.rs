//! LDtk projects, read by the `ldtk2` crate: each level of the project (and of each of its
//! worlds) becomes a [`SourceMap`], its neighbours noted. An IntGrid layer gives its values
//! (`<layer>#<value>`) and, as a layer of its own (`<layer> (auto tiles)`), the tiles its
//! auto-layer rules laid; tile and auto layers give their tiles (`<tileset>/<tile id>`);
//! entity layers give objects named by their identifier, their fields as properties. Levels
//! saved in separate files (`.ldtkl`) are read from beside the project.

use std::collections::BTreeMap;
use std::path::{Component, Path};

use super::{ImportError, SourceMap, SourceObject, cell_index, read_error};
use crate::value::Value;

/// LDtk's neighbour directions in words.
fn direction(dir: &str) -> &str {
    match dir {
        "n" => "north",
        "s" => "south",
        "e" => "east",
        "w" => "west",
        "ne" => "north-east",
        "nw" => "north-west",
        "se" => "south-east",
        "sw" => "south-west",
        "<" => "below",
        ">" => "above",
        "o" => "overlapping",
        other => other,
    }
}

/// Reads every level of the LDtk project at `path`.
pub(super) fn read(path: &Path) -> Result<Vec<SourceMap>, ImportError> {
    let text = std::fs::read_to_string(path).map_err(|e| read_error(path, e))?;
    let project =
        ldtk2::Ldtk::from_str(&text).map_err(|e| read_error(path, format!("not an LDtk 1.5 project: {e}")))?;
    let mut levels: Vec<ldtk2::Level> = project.levels.clone();
    for world in &project.worlds {
        levels.extend(world.levels.iter().cloned());
    }
    if levels.is_empty() {
        return Err(read_error(path, "the project has no levels"));
    }
    let names: BTreeMap<&str, &str> = levels.iter().map(|l| (l.iid.as_str(), l.identifier.as_str())).collect();
    let tilesets = Tilesets {
        defs: project.defs.tilesets.iter().map(|t| (t.uid, t)).collect(),
        folder: path.parent().unwrap_or(Path::new(".")),
    };
    // The IntGrid values' names, as the template shows them.
    let labels: BTreeMap<String, String> = project
        .defs
        .layers
        .iter()
        .flat_map(|layer| {
            layer.int_grid_values.iter().filter_map(move |value| {
                Some((format!("{}#{}", layer.identifier, value.value), value.identifier.clone()?))
            })
        })
        .collect();
    let mut maps = Vec::new();
    for level in &levels {
        let layers = match (&level.layer_instances, &level.external_rel_path) {
            (Some(layers), _) => layers.clone(),
            (None, Some(relative)) => external_level(path, relative)?.layer_instances.unwrap_or_default(),
            (None, None) => Vec::new(),
        };
        let mut map = level_map(path, level, &layers, &tilesets)?;
        map.labels = labels.clone();
        for neighbour in &level.neighbours {
            if let Some(name) = names.get(neighbour.level_iid.as_str()) {
                map.neighbours.insert(direction(&neighbour.dir).to_owned(), (*name).to_owned());
            }
        }
        maps.push(map);
    }
    Ok(maps)
}

/// A level kept in its own file beside the project (`external_rel_path`): only a plain
/// relative path inside the project's folder is read.
fn external_level(project: &Path, relative: &str) -> Result<ldtk2::Level, ImportError> {
    let inside = Path::new(relative).components().all(|c| matches!(c, Component::Normal(_)));
    if !inside {
        return Err(ImportError::Unsupported {
            path: project.display().to_string(),
            message: format!("a level's file '{relative}' is outside the project's folder"),
        });
    }
    let file = project.parent().unwrap_or(Path::new(".")).join(relative);
    let size = std::fs::metadata(&file).map_err(|e| read_error(&file, e))?.len();
    if size > super::MAX_SOURCE_BYTES {
        return Err(ImportError::Unsupported {
            path: file.display().to_string(),
            message: format!("the level's file has {size} bytes, more than Nefia imports"),
        });
    }
    let text = std::fs::read_to_string(&file).map_err(|e| read_error(&file, e))?;
    serde_json::from_str(&text).map_err(|e| read_error(&file, format!("not an LDtk level: {e}")))
}

/// The grid size of a level: its finest layer's.
fn grid_size(layers: &[ldtk2::LayerInstance]) -> i64 {
    layers.iter().map(|l| l.grid_size).filter(|&g| g > 0).min().unwrap_or(16)
}

/// What a level's tile layers need of the project: each tileset's name, image and tags.
struct Tilesets<'a> {
    /// By uid.
    defs: BTreeMap<i64, &'a ldtk2::TilesetDefinition>,
    /// The project's folder, which tilesets' images are relative to.
    folder: &'a Path,
}

/// One level as a source map.
fn level_map(
    path: &Path,
    level: &ldtk2::Level,
    layers: &[ldtk2::LayerInstance],
    tilesets: &Tilesets,
) -> Result<SourceMap, ImportError> {
    let grid = grid_size(layers);
    let (width, height) = ((level.px_wid + grid - 1) / grid, (level.px_hei + grid - 1) / grid);
    let mut map = SourceMap::sized(path, level.identifier.clone(), width, height)?;
    map.cell_px = u32::try_from(grid).ok();
    let mut turned = 0;
    let mut see_through = 0;
    let mut entities_seen = false;
    // LDtk lists the topmost layer first.
    for layer in layers.iter().rev() {
        let scale = layer.grid_size.max(1);
        let at = |px: i64, py: i64| cell_index(map.width, map.height, px / grid, py / grid);
        let offset_px = (clamp_i32(layer.px_total_offset_x), clamp_i32(layer.px_total_offset_y));
        let mut placed_layers = Vec::new();
        match layer.layer_instance_type.as_str() {
            "IntGrid" => {
                let mut values = map.layer(&layer.identifier);
                values.values = true;
                let columns = layer.c_wid.max(1);
                for (index, &value) in (0_i64..).zip(&layer.int_grid_csv) {
                    let (cx, cy) = (index % columns, index / columns);
                    if value != 0
                        && let Some(cell) = at(cx * scale, cy * scale)
                    {
                        values.cells[cell] = Some(format!("{}#{value}", layer.identifier));
                    }
                }
                map.layers.push(values);
                if !layer.auto_layer_tiles.is_empty() {
                    let name = format!("{} (auto tiles)", layer.identifier);
                    placed_layers = tile_layers(
                        &mut map,
                        &name,
                        &layer.auto_layer_tiles,
                        layer,
                        tilesets,
                        (&mut turned, &mut see_through),
                    );
                }
            }
            "Tiles" | "AutoLayer" => {
                let placed = if layer.grid_tiles.is_empty() { &layer.auto_layer_tiles } else { &layer.grid_tiles };
                placed_layers =
                    tile_layers(&mut map, &layer.identifier, placed, layer, tilesets, (&mut turned, &mut see_through));
            }
            "Entities" => {
                entities_seen = true;
                for entity in &layer.entity_instances {
                    let (gx, gy) =
                        (entity.grid.first().copied().unwrap_or(0), entity.grid.get(1).copied().unwrap_or(0));
                    let (x, y) = (gx * scale / grid, gy * scale / grid);
                    let properties = entity
                        .field_instances
                        .iter()
                        .filter_map(|f| Some((f.identifier.clone(), json_value(f.value.as_ref()?)?)))
                        .collect();
                    map.objects.push(SourceObject {
                        key: entity.identifier.clone(),
                        x: i32::try_from(x).unwrap_or(i32::MAX),
                        y: i32::try_from(y).unwrap_or(i32::MAX),
                        properties,
                    });
                }
            }
            _ => {}
        }
        for mut placed in placed_layers {
            placed.offset_px =
                (placed.offset_px.0.saturating_add(offset_px.0), placed.offset_px.1.saturating_add(offset_px.1));
            placed.above_objects = entities_seen;
            map.layers.push(placed);
        }
    }
    map.note_turned(turned);
    if see_through > 0 {
        map.notes.push(format!(
            "{see_through} tiles drawn see-through (LDtk's opacity, such as shadows) were left out: art layers have no opacity"
        ));
    }
    Ok(map)
}

/// A pixel count as an `i32`, clamped.
fn clamp_i32(value: i64) -> i32 {
    i32::try_from(value).unwrap_or(if value < 0 { i32::MIN } else { i32::MAX })
}

/// The tiles a layer placed, as source layers bottom first: the first tile placed in a cell
/// in the first, a second placed in the same cell (LDtk's auto-layer rules stack them) in a
/// later one named `<name> 2`, and so on; a tile placed off the grid (a shadow shifted a few
/// pixels) in a layer of that shift. Tiles drawn see-through (LDtk's opacity) are left out,
/// counted in `see_through`: art layers have no opacity. Each tile's picture is noted in `map`.
fn tile_layers(
    map: &mut SourceMap,
    name: &str,
    placed: &[ldtk2::TileInstance],
    layer: &ldtk2::LayerInstance,
    tilesets: &Tilesets,
    counts: (&mut usize, &mut usize),
) -> Vec<super::SourceLayer> {
    let (turned, see_through) = counts;
    let grid = grid_size(std::slice::from_ref(layer));
    let tileset = layer.override_tileset_uid.or(layer.tileset_def_uid).and_then(|uid| tilesets.defs.get(&uid)).copied();
    let tileset_name = tileset.map_or("tileset", |t| t.identifier.as_str());
    let mut stack: Vec<super::SourceLayer> = Vec::new();
    // Per cell: the index in `stack` of the last tile placed there, so the next goes above it.
    let mut last: Vec<Option<usize>> = vec![None; map.layer(name).cells.len()];
    for tile in placed {
        if tile.a < 1.0 {
            *see_through += 1;
            continue;
        }
        if tile.f != 0 {
            *turned += 1;
        }
        let (px, py) = (tile.px.first().copied().unwrap_or(0), tile.px.get(1).copied().unwrap_or(0));
        let (cx, cy) = (px.div_euclid(grid), py.div_euclid(grid));
        let shift = (clamp_i32(px - cx * grid), clamp_i32(py - cy * grid));
        let Some(cell) = cell_index(map.width, map.height, cx, cy) else { continue };
        let tile_name = format!("{tileset_name}/{}", tile.t);
        if let Some(tileset) = tileset
            && !map.pictures.contains_key(&tile_name)
            && let Some(picture) = tile_picture(tileset, tile, tilesets.folder)
        {
            map.pictures.insert(tile_name.clone(), picture);
        }
        let above = last[cell].map_or(0, |i| i + 1);
        let free = |layer: &super::SourceLayer| layer.offset_px == shift && layer.cells[cell].is_none();
        let depth = (above..stack.len()).find(|&i| free(&stack[i])).unwrap_or(stack.len());
        if depth == stack.len() {
            let layer_name = if depth == 0 { name.to_owned() } else { format!("{name} {}", depth + 1) };
            let mut new_layer = map.layer(&layer_name);
            new_layer.offset_px = shift;
            stack.push(new_layer);
        }
        stack[depth].cells[cell] = Some(tile_name);
        stack[depth].turns[cell] =
            (if tile.f & 1 != 0 { super::FLIP_X } else { 0 }) | (if tile.f & 2 != 0 { super::FLIP_Y } else { 0 });
        last[cell] = Some(depth);
    }
    if stack.is_empty() {
        stack.push(map.layer(name));
    }
    stack
}

/// The picture of a placed tile: its square of its tileset's image, its enum tags as tags.
fn tile_picture(
    tileset: &ldtk2::TilesetDefinition,
    tile: &ldtk2::TileInstance,
    folder: &Path,
) -> Option<super::TilePicture> {
    let relative = tileset.rel_path.as_deref()?;
    let side = u32::try_from(tileset.tile_grid_size).ok()?;
    let (x, y) = (tile.src.first().copied().unwrap_or(0), tile.src.get(1).copied().unwrap_or(0));
    let frame = crate::art::Frame { x: u32::try_from(x).ok()?, y: u32::try_from(y).ok()?, duration_ms: 0 };
    let tags = tileset
        .enum_tags
        .iter()
        .filter(|tag| tag.tile_ids.contains(&tile.t))
        .map(|tag| tag.enum_value_id.clone())
        .collect();
    Some(super::TilePicture {
        image: folder.join(relative),
        width: side,
        height: side,
        frames: vec![frame],
        properties: Vec::new(),
        tags,
    })
}

/// An entity field's value as a field value; none for null.
fn json_value(value: &serde_json::Value) -> Option<Value> {
    Some(match value {
        serde_json::Value::Null => return None,
        serde_json::Value::Bool(b) => Value::Bool(*b),
        serde_json::Value::Number(n) => n.as_i64().map_or_else(|| Value::Float(n.as_f64().unwrap_or(0.0)), Value::Int),
        serde_json::Value::String(s) => Value::from(s.as_str()),
        serde_json::Value::Array(items) => {
            Value::List(std::sync::Arc::new(items.iter().filter_map(json_value).collect()))
        }
        serde_json::Value::Object(_) => Value::from(value.to_string().as_str()),
    })
}
