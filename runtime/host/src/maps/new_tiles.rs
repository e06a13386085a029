//! The tiles an import makes (`nefia import --new-tiles MOD`, see
//! [`nefia_game::exchange::keep_art`]) written into mod MOD: the mod made and enabled if the
//! project has none of that id (as `nefia new-mod` does), each tileset image copied into a
//! folder named after the mod inside the mod's `assets` (searched for images once the mod is
//! enabled, see
//! [`nefia_game::project::Project::asset_dirs`]), and each tile appended to its `init.lua` as
//! a `data:add` block by the source writer ([`nefia_game::source_edit`]), the file written
//! once, atomically.

use std::path::{Path, PathBuf};

use nefia_game::exchange::keep_art::NewTile;
use nefia_game::files::write_atomic;
use nefia_game::project::Project;
use nefia_game::save::MapRecord;
use nefia_game::symbol::Symbol;
use nefia_game::value::Value;
use nefia_game::world::World;

/// The data type the tiles are.
const MAP_TILE: &str = "base.map_tile";

/// Refuses what cannot be a mod's id (the rule `nefia new-mod` applies), before anything is
/// read.
pub fn check_mod_id(id: &str) -> Result<(), String> {
    if nefia_game::new_mod::is_mod_id(id) {
        Ok(())
    } else {
        Err(format!(
            "--new-tiles '{id}' is not a mod id: use lower-case letters, digits and '_', starting with a letter"
        ))
    }
}

/// `record` with the tiles in `made` (not loaded yet) read as `base.floor`, so the rest of
/// it can be checked against the loaded mods; the made tiles are checked when their mod loads.
pub fn as_known(record: &MapRecord, made: &[String]) -> MapRecord {
    let mut known = record.clone();
    let floor = Symbol::intern("base.floor");
    let palettes = std::iter::once(&mut known.palette).chain(known.art_layers.iter_mut().map(|l| &mut l.palette));
    for tile in palettes.flat_map(|palette| palette.values_mut()) {
        if made.iter().any(|m| m == tile.as_str()) {
            *tile = floor;
        }
    }
    known
}

/// Each tile's fields as its `data:add` writes them: its name, image, the source's properties
/// the tile type declares (checked against their declared types) and its tags. A property the
/// type does not declare, or of the wrong type, is left out with a note.
pub fn prototypes(
    lua: &mlua::Lua,
    world: &World,
    tiles: &[NewTile],
    notes: &mut Vec<String>,
) -> Vec<Vec<(String, Value)>> {
    let declared: Vec<String> = world
        .data
        .data_type(MAP_TILE)
        .map(|t| t.fields.iter().map(|f| f.name.as_str().to_owned()).collect())
        .unwrap_or_default();
    tiles
        .iter()
        .map(|tile| {
            let mut fields = vec![("name".to_owned(), Value::from(tile.source_name.as_str()))];
            if tile.image != Value::Nil {
                fields.push(("image".to_owned(), tile.image.clone()));
            } else {
                // Cells no layer covers: drawn as nothing, black on black (a space is no code).
                let black = Value::List(std::sync::Arc::new(vec![Value::Int(0); 3]));
                fields.push(("color".to_owned(), black.clone()));
                fields.push(("background".to_owned(), black));
            }
            for (name, value) in &tile.properties {
                let fits = declared.contains(name) && !matches!(name.as_str(), "name" | "image");
                match fits.then(|| nefia_lua::schema::check_value(lua, MAP_TILE, name, value)) {
                    Some(Ok(())) => fields.push((name.clone(), value.clone())),
                    Some(Err(why)) => {
                        notes.push(format!("tile '{}': property {name} left out: {why}", tile.source_name))
                    }
                    None => notes.push(format!(
                        "tile '{}': property {name} left out: base.map_tile declares no field of that name",
                        tile.source_name
                    )),
                }
            }
            if !tile.tags.is_empty() && declared.iter().any(|d| d == "tags") {
                let tags = tile.tags.iter().map(|t| Value::from(t.to_lowercase().as_str())).collect();
                fields.push(("tags".to_owned(), Value::List(std::sync::Arc::new(tags))));
            }
            fields
        })
        .collect()
}

/// The folder of mod `id`, made (as `nefia new-mod` makes one) if the project has no such mod,
/// and enabled in `project.ron` if it is not.
fn mod_folder(project: &Project, id: &str, made: &mut Vec<PathBuf>) -> Result<PathBuf, String> {
    let (found, _) = nefia_game::mods::discover_all(&project.mod_dirs());
    let mut project = project.clone();
    match found.get(id) {
        Some(info) => {
            if !project.manifest.mods.iter().any(|m| m == id) {
                project.manifest.mods.push(id.to_owned());
                project.save().map_err(|e| e.to_string())?;
                made.push(project.dir.join("project.ron"));
            }
            Ok(info.dir.clone())
        }
        None => {
            let dir = nefia_game::new_mod::create_mod(&mut project, id).map_err(|e| e.to_string())?;
            made.extend([dir.join("mod.ron"), project.dir.join("project.ron")]);
            Ok(dir)
        }
    }
}

/// Copies `sheet` into the mod's assets as `asset`, unless the same bytes are there.
fn copy_sheet(sheet: &Path, mod_dir: &Path, asset: &str) -> Result<Option<PathBuf>, String> {
    let bytes = std::fs::read(sheet).map_err(|e| format!("{}: {e}", sheet.display()))?;
    let to = mod_dir.join("assets").join(asset);
    if std::fs::read(&to).is_ok_and(|there| there == bytes) {
        return Ok(None);
    }
    if let Some(parent) = to.parent() {
        std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    write_atomic(&to, &bytes).map_err(|e| e.to_string())?;
    Ok(Some(to))
}

/// Writes `tiles` (with their `fields`, see [`prototypes`]) into mod `mod_id` of `project`:
/// the mod made or enabled if need be, the tileset images copied, the tiles appended to its
/// `init.lua`. Returns the files written.
pub fn write(
    project: &Project,
    mod_id: &str,
    tiles: &[NewTile],
    fields: &[Vec<(String, Value)>],
) -> Result<Vec<PathBuf>, String> {
    let mut written = Vec::new();
    let dir = mod_folder(project, mod_id, &mut written)?;
    let mut copied: Vec<&Path> = Vec::new();
    for tile in tiles {
        let Some(sheet) = tile.sheet.as_deref().filter(|s| !copied.contains(s)) else { continue };
        copied.push(sheet);
        written.extend(copy_sheet(sheet, &dir, &tile.asset)?);
    }
    if tiles.is_empty() {
        return Ok(written);
    }
    let init = dir.join("init.lua");
    let mut text = match std::fs::read_to_string(&init) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("{}: {e}", init.display())),
    };
    let failed = |e: nefia_game::source_edit::SourceEditError| format!("{}: {e}", init.display());
    for (tile, fields) in tiles.iter().zip(fields) {
        let fields: Vec<(&str, &Value)> = fields.iter().map(|(k, v)| (k.as_str(), v)).collect();
        let statement =
            nefia_game::source_edit::new_statement(&text, MAP_TILE, &tile.short_id, &fields).map_err(failed)?;
        text = nefia_game::source_edit::append(&text, MAP_TILE, &tile.short_id, &statement).map_err(failed)?.0;
    }
    write_atomic(&init, text.as_bytes()).map_err(|e| e.to_string())?;
    written.push(init);
    Ok(written)
}
