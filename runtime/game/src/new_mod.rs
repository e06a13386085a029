//! A new mod written into a project (`nefia new-mod`, the Mods pane's New, an import's
//! `--new-tiles` into a mod that does not exist yet): its folder, `mod.ron` and a starting
//! `init.lua`, listed in `project.ron`.

use std::path::PathBuf;

use crate::files::FileError;
use crate::project::Project;

/// The `init.lua` of a new mod `id`: a prototype and an event handler to start from.
fn skeleton_init(id: &str) -> String {
    format!(
        r#"-- {id}: a new mod. Everything it adds is named {id}.<name>; it loads after the mods
-- listed in mod.ron's dependencies. Saving this file reloads it into the running game.

-- A character prototype: Chara.create("{id}.slime", x, y) makes one (the Palette lists it).
data:add {{
   _type = "base.chara",
   _id = "slime",
   name = "slime",
   glyph = "s",
   color = {{ 120, 220, 120 }},
   max_hp = 5,
   hp = 5,
   strength = 1,
   relation = "hostile",
}}

-- A handler: refresh() clears temp values, then this puts the slime's speed bonus back.
Event.register("base.on_chara_refreshed", "{id}.quick_slimes", function(chara)
   if chara._id == "{id}.slime" then
      chara:mod("speed", 20, "add")
   end
end)
"#
    )
}

/// Whether `id` can be a mod's id: lower-case letters, digits and '_', starting with a
/// letter, at most 64 bytes.
pub fn is_mod_id(id: &str) -> bool {
    id.len() <= 64
        && id.starts_with(|c: char| c.is_ascii_lowercase())
        && id.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// Writes a new mod `id` into the project's own `mods/` folder — `mod.ron` (needing `base`)
/// and an `init.lua` with a prototype and a handler — and lists it in `project.ron`.
/// Returns the mod's folder. Refuses a bad id or a mod folder that already exists.
pub fn create_mod(project: &mut Project, id: &str) -> Result<PathBuf, FileError> {
    let dir = project.dir.join("mods").join(id);
    if !is_mod_id(id) {
        let why = format!("'{id}' is not a mod id: use lower-case letters, digits and '_', starting with a letter");
        return Err(FileError::new(&dir, why));
    }
    if dir.exists() || crate::mods::discover_all(&project.mod_dirs()).0.contains_key(id) {
        return Err(FileError::new(&dir, format!("a mod '{id}' already exists; pick another id")));
    }
    let manifest = crate::mods::ModManifest {
        id: id.to_owned(),
        version: "0.1.0".into(),
        dependencies: vec!["base".into()],
        description: format!("{id}: describe what it adds here."),
    };
    std::fs::create_dir_all(&dir).map_err(|e| FileError::new(&dir, e.to_string()))?;
    let manifest_path = dir.join("mod.ron");
    crate::files::write_atomic(&manifest_path, crate::files::to_ron(&manifest_path, &manifest)?.as_bytes())?;
    crate::files::write_atomic(&dir.join("init.lua"), skeleton_init(id).as_bytes())?;
    if !project.manifest.mods.iter().any(|m| m == id) {
        project.manifest.mods.push(id.to_owned());
    }
    project.save()?;
    Ok(dir)
}
