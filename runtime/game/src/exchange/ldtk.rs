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
    let tilesets: BTreeMap<i64, &str> = project.defs.tilesets.iter().map(|t| (t.uid, t.identifier.as_str())).collect();
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

/// One level as a source map.
fn level_map(
    path: &Path,
    level: &ldtk2::Level,
    layers: &[ldtk2::LayerInstance],
    tilesets: &BTreeMap<i64, &str>,
) -> Result<SourceMap, ImportError> {
    let grid = grid_size(layers);
    let (width, height) = ((level.px_wid + grid - 1) / grid, (level.px_hei + grid - 1) / grid);
    let mut map = SourceMap::sized(path, level.identifier.clone(), width, height)?;
    let mut turned = 0;
    // LDtk lists the topmost layer first.
    for layer in layers.iter().rev() {
        let scale = layer.grid_size.max(1);
        let at = |px: i64, py: i64| cell_index(map.width, map.height, px / grid, py / grid);
        match layer.layer_instance_type.as_str() {
            "IntGrid" => {
                let mut values = map.layer(&layer.identifier);
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
                    let tiles = tile_layer(&map, &name, &layer.auto_layer_tiles, layer, tilesets, &mut turned, &at);
                    map.layers.push(tiles);
                }
            }
            "Tiles" | "AutoLayer" => {
                let placed = if layer.grid_tiles.is_empty() { &layer.auto_layer_tiles } else { &layer.grid_tiles };
                let tiles = tile_layer(&map, &layer.identifier, placed, layer, tilesets, &mut turned, &at);
                map.layers.push(tiles);
            }
            "Entities" => {
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
    }
    map.note_turned(turned);
    Ok(map)
}

/// The tiles a layer placed, as a source layer (the last placed in a cell shows).
fn tile_layer(
    map: &SourceMap,
    name: &str,
    placed: &[ldtk2::TileInstance],
    layer: &ldtk2::LayerInstance,
    tilesets: &BTreeMap<i64, &str>,
    turned: &mut usize,
    at: &dyn Fn(i64, i64) -> Option<usize>,
) -> super::SourceLayer {
    let mut cells = map.layer(name);
    let tileset = layer.override_tileset_uid.or(layer.tileset_def_uid).and_then(|uid| tilesets.get(&uid)).copied();
    let tileset = tileset.unwrap_or("tileset");
    for tile in placed {
        if tile.f != 0 {
            *turned += 1;
        }
        let (px, py) = (tile.px.first().copied().unwrap_or(0), tile.px.get(1).copied().unwrap_or(0));
        if let Some(cell) = at(px, py) {
            cells.cells[cell] = Some(format!("{tileset}/{}", tile.t));
        }
    }
    cells
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
