//! The per-mod `save` table and `Save.save_game` / `Save.load_game` (seed: Save Data).
//!
//! `save` is a plain Lua table with a subtable per mod, made on first use, so
//! `save[_MOD_NAME].x = 1` always works. Saving converts every subtable to plain data; a
//! value that cannot be saved (a function, a cycle) is an error naming its path, such as
//! `save.my_mod.cb`, and the previous save file stays as it was.
//!
//! As in OpenNefia, the game remembers the id (the cleaned name) of the save it last wrote or
//! read: `Save.save_game()` and `Save.load_game()` without a name use it, and mods read it as
//! `config.base._save_id` (`require("internal.config")`).

use nefia_protocol::saves::SaveListing;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use mlua::{Lua, Table};

use super::convert::{from_lua, to_lua};
use super::{engine, rt_error};
use nefia_game::files::FileError;
use nefia_game::save::{SaveGame, SaveHead, read_save, write_save};
use nefia_game::value::Value;

/// Why a game could not be saved or loaded.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SaveError {
    /// A value in `save` is not plain data.
    #[error(transparent)]
    Convert(#[from] super::convert::ConvertError),
    /// The file could not be read or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// A bad save name.
    #[error("{0}")]
    Name(String),
    /// Lua failed while reading or restoring the save table.
    #[error("{0}")]
    Lua(String),
}

/// The named registry value holding the current save's id.
const SAVE_ID: &str = "nefia.save_id";

/// The id of the save last written or read, if any.
fn current_save_id(lua: &Lua) -> mlua::Result<Option<String>> {
    lua.named_registry_value(SAVE_ID)
}

/// Remembers save `name`, cleaned, as the current save.
fn remember_save_id(lua: &Lua, name: &str) -> Result<(), SaveError> {
    lua.set_named_registry_value(SAVE_ID, clean_save_name(name)?).map_err(lua_error)
}

/// `name`, or the current save's id when none is given (OpenNefia's quicksave and quickload).
fn name_or_current(lua: &Lua, name: Option<String>, function: &str) -> mlua::Result<String> {
    match name {
        Some(name) => Ok(name),
        None => current_save_id(lua)?.ok_or_else(|| {
            rt_error(
                lua,
                format!(
                    "{function}(): no game was saved or loaded yet, so there is no current save: give a name, such as {function}(\"my game\")"
                ),
            )
        }),
    }
}

fn lua_error(error: mlua::Error) -> SaveError {
    SaveError::Lua(super::error::root_message(&error))
}

/// Save `name` cleaned into a file name, as OpenNefia cleans it: `/ ? < > \ : * | "` (and
/// control characters) become `_`, a name of dots becomes `_`, and trailing dots and spaces
/// become one `_` — so `<Gwen> the innocent` is saved as `_Gwen_ the innocent`. Nefia adds:
/// leading dots become `_` (no hidden files), the name is cut to 251 bytes (255 with `.ron`),
/// and a name Windows keeps for a device (`con`, `com1`, …) is refused — OpenNefia blanks such
/// names wherever they appear, even inside words, which no mod would want.
pub fn clean_save_name(name: &str) -> Result<String, SaveError> {
    let refused = |why: &str| SaveError::Name(format!("'{name}' is not a save name: {why}"));
    let mut cleaned: String =
        name.chars().map(|c| if "/?<>\\:*|\"".contains(c) || c.is_control() { '_' } else { c }).collect();
    if !cleaned.is_empty() && cleaned.chars().all(|c| c == '.') {
        cleaned = "_".into();
    }
    let kept = cleaned.trim_end_matches(['.', ' ']).len();
    if kept != cleaned.len() {
        cleaned.truncate(kept);
        cleaned.push('_');
    }
    let dots = cleaned.len() - cleaned.trim_start_matches('.').len();
    cleaned.replace_range(..dots, &"_".repeat(dots));
    while cleaned.len() > 251 {
        cleaned.pop();
    }
    let stem = cleaned.split('.').next().unwrap_or_default().to_ascii_lowercase();
    let numbered = |prefix: &str| {
        stem.len() == 4 && stem.starts_with(prefix) && stem.as_bytes().get(3).is_some_and(u8::is_ascii_digit)
    };
    if cleaned.is_empty() {
        return Err(refused("give a name of at least one letter"));
    }
    if matches!(stem.as_str(), "con" | "prn" | "aux" | "nul") || numbered("com") || numbered("lpt") {
        return Err(refused(&format!("Windows keeps '{stem}' for a device; choose another name")));
    }
    Ok(cleaned)
}

/// The file of save `name` (cleaned, see [`clean_save_name`]) under `dir`.
pub fn save_path(dir: &Path, name: &str) -> Result<PathBuf, SaveError> {
    Ok(dir.join(format!("{}.ron", clean_save_name(name)?)))
}

/// The saves in `dir`, newest first (none if the folder does not exist), each with what its
/// top says.
pub fn list_saves(dir: &Path) -> Vec<SaveListing> {
    let mut saves: Vec<SaveListing> = nefia_game::files::ron_files(dir)
        .iter()
        .filter_map(|path| {
            let name = path.file_stem()?.to_str()?.to_owned();
            let saved = path.metadata().ok()?.modified().ok()?;
            // Only files a save name cleans to are saves.
            (clean_save_name(&name).ok()? == name).then_some(())?;
            let head = nefia_game::files::read_ron::<SaveHead>(path).ok();
            Some(SaveListing { name, saved, head })
        })
        .collect();
    saves.sort_by(|a, b| b.saved.cmp(&a.saved).then_with(|| a.name.cmp(&b.name)));
    saves
}

/// Every mod's `save` table as plain data.
pub fn save_tables(lua: &Lua) -> Result<BTreeMap<String, Value>, SaveError> {
    let save: Table = engine(lua).api.raw_get("save").map_err(lua_error)?;
    let mut mods = BTreeMap::new();
    for pair in save.pairs::<String, mlua::Value>() {
        let (name, table) = pair.map_err(lua_error)?;
        mods.insert(name.clone(), from_lua(lua, &table, &format!("save.{name}"))?);
    }
    Ok(mods)
}

/// Replaces the contents of `save` with `mods`.
pub fn restore_save_tables(lua: &Lua, mods: &BTreeMap<String, Value>) -> mlua::Result<()> {
    let save: Table = engine(lua).api.raw_get("save")?;
    save.clear()?;
    for (name, value) in mods {
        save.raw_set(name.as_str(), to_lua(lua, value)?)?;
    }
    Ok(())
}

/// Saves the game as `name` in the save folder; returns the file written.
pub fn save_game(lua: &Lua, name: &str) -> Result<PathBuf, SaveError> {
    let engine = engine(lua);
    let path = save_path(&engine.save_dir.borrow(), name)?;
    let mods = save_tables(lua)?;
    let world = engine.world.borrow();
    let written = if !engine.session.borrow().keeps_saves() {
        // Written straight from the world, with no record of it held.
        write_save(&path, &world.live_save_game(mods.clone()))
    } else {
        let save = world.save_game(mods.clone());
        match engine.session.borrow_mut().writes_save(name, &save, || read_save(&path).ok()) {
            true => write_save(&path, &save),
            false => Ok(()),
        }
    };
    written.map_err(|error| name_the_largest_save_table(error, &mods))?;
    remember_save_id(lua, name)?;
    Ok(path)
}

/// The save name a game with no current save is saved under by [`save_current`].
pub const QUICKSAVE: &str = "quicksave";

/// Saves the game under the current save's id (the one last written or read), or
/// [`QUICKSAVE`] if there is none yet; returns the file written.
pub fn save_current(lua: &Lua) -> Result<PathBuf, SaveError> {
    let name = current_save_id(lua).map_err(lua_error)?.unwrap_or_else(|| QUICKSAVE.to_owned());
    save_game(lua, &name)
}

/// A save refused as too large, with the mod's `save` table (and the part of it) that holds
/// most of it when one does: what the player or the mod's author can make smaller.
fn name_the_largest_save_table(error: FileError, mods: &BTreeMap<String, Value>) -> SaveError {
    if !nefia_game::files::is_too_large(&error) {
        return error.into();
    }
    let half_the_limit = |value: &Value| {
        u64::try_from(value.written_size()).is_ok_and(|size| size > nefia_game::files::MAX_FILE_BYTES / 2)
    };
    let largest = mods.iter().max_by_key(|(_, value)| value.written_size()).filter(|(_, value)| half_the_limit(value));
    let Some((name, value)) = largest else { return error.into() };
    let part = value.largest_part(&format!("save.{name}"));
    let mib = value.written_size() >> 20;
    let message = format!(
        "{}; the mod '{name}' keeps about {mib} MiB in its save table, most of it in {part}: keep less there",
        error.message
    );
    SaveError::File(FileError { message, ..error })
}

/// Puts saves back as a branch of the session needs them (see
/// [`super::session::SessionLog::branch_saves`]): each written again, or removed where there
/// was none. A save that cannot be put back is logged.
pub fn put_back_saves(lua: &Lua, saves: Vec<(String, Option<std::rc::Rc<SaveGame>>)>) {
    let dir = engine(lua).save_dir.borrow().clone();
    for (name, save) in saves {
        let put_back = save_path(&dir, &name).and_then(|path| match save {
            Some(save) => write_save(&path, &save).map_err(SaveError::from),
            None => match std::fs::remove_file(&path) {
                Err(error) if error.kind() != std::io::ErrorKind::NotFound => {
                    Err(FileError::new(&path, error.to_string()).into())
                }
                _ => Ok(()),
            },
        });
        if let Err(error) = put_back {
            let text = format!("save {name} could not be put back as it was before the branch: {error}");
            super::gui::log(lua, nefia_game::display::LogLevel::Error, text);
        }
    }
}

/// Loads save `name`, replacing the world and the `save` table. Handles from before the load
/// stop working. A refusal names the save's file and line, and changes nothing. Objects whose
/// prototypes no loaded mod defines are kept aside (and saved again); each is logged.
pub fn load_game(lua: &Lua, name: &str) -> Result<PathBuf, SaveError> {
    let engine = engine(lua);
    let path = save_path(&engine.save_dir.borrow(), name)?;
    engine.progress(format!("reading save {name}"), 0, 2);
    // Replaying a stretch of the session (a step back), the save is as it was then.
    let then = engine.session.borrow().save_as_then(name);
    let (save, from_file) = match then {
        Some(Some(save)) => (save, false),
        // As the read of the missing file said it then (game code may show the message):
        // "file not found" is error 2 on Unix and Windows alike.
        Some(None) => return Err(FileError::io(&path, std::io::Error::from_raw_os_error(2)).into()),
        None => (std::rc::Rc::new(read_save(&path)?), true),
    };
    engine.progress(format!("rebuilding the world of save {name}"), 1, 2);
    let kept_aside = load_record(lua, &save).map_err(|error| match error {
        LoadRefused::World(error) => {
            // The file's text, read again, names the problem's line.
            let text = if from_file { nefia_game::files::read_text(&path).unwrap_or_default() } else { String::new() };
            nefia_game::validate::refusal_in_file(error, &path, &text).into()
        }
        LoadRefused::Lua(error) => error,
    })?;
    for problem in kept_aside {
        let text = format!("{}: {problem}; it is kept and saved again, but not in play", path.display());
        super::gui::log(lua, nefia_game::display::LogLevel::Warn, text);
    }
    engine.session.borrow_mut().read_save(name, &save);
    remember_save_id(lua, name)?;
    Ok(path)
}

/// Why a save's record could not be put in play.
pub enum LoadRefused {
    /// The record describes no world that can be built; nothing changed.
    World(nefia_game::world::WorldError),
    /// The `save` table could not be put back.
    Lua(SaveError),
}

/// Puts a save's record in play, replacing the world and the `save` table: what loading a
/// save does once its file is read (a replay starts from the record it holds). Returns the
/// objects kept aside because no loaded mod defines their prototypes.
pub fn load_record(lua: &Lua, save: &SaveGame) -> Result<Vec<String>, LoadRefused> {
    let engine = engine(lua);
    let kept_aside = engine.world.borrow_mut().load_game(save).map_err(LoadRefused::World)?;
    engine.forget_handles().map_err(|e| LoadRefused::Lua(lua_error(e)))?;
    // Handlers connected to objects are functions, which saves do not keep (OpenNefia's
    // rule): the loaded game has its prototypes' handlers only.
    engine.object_events.borrow_mut().forget_connected();
    restore_save_tables(lua, &save.mods).map_err(|e| LoadRefused::Lua(lua_error(e)))?;
    let loaded: Vec<_> = engine.world.borrow().all_objects().map(|o| o.uid).collect();
    super::instantiate::instantiate_loaded(lua, loaded);
    Ok(kept_aside)
}

/// Installs `save` and `Save` into `api`; `mods` get their subtables up front.
pub fn install(lua: &Lua, api: &Table) -> mlua::Result<()> {
    let save = lua.create_table()?;
    let meta = lua.create_table()?;
    meta.set(
        "__index",
        lua.create_function(|lua, (save, name): (Table, String)| {
            let table = lua.create_table()?;
            save.raw_set(name, &table)?;
            Ok(table)
        })?,
    )?;
    save.set_metatable(Some(meta))?;
    api.set("save", save)?;

    let functions = lua.create_table()?;
    functions.set(
        "save_game",
        lua.create_function(|lua, name: Option<String>| {
            let name = name_or_current(lua, name, "Save.save_game")?;
            save_game(lua, &name).map(|p| p.display().to_string()).map_err(|e| rt_error(lua, e))
        })?,
    )?;
    functions.set(
        "load_game",
        lua.create_function(|lua, name: Option<String>| {
            let name = name_or_current(lua, name, "Save.load_game")?;
            load_game(lua, &name).map(|p| p.display().to_string()).map_err(|e| rt_error(lua, e))
        })?,
    )?;
    api.set("Save", functions)?;
    // OpenNefia's `config.base._save_id`, read when asked (the sandbox's view reads through).
    let base = lua.create_table()?;
    let base_meta = lua.create_table()?;
    base_meta.set(
        "__index",
        lua.create_function(|lua, (_, key): (Table, mlua::Value)| {
            let asked = matches!(&key, mlua::Value::String(key) if key.to_str().is_ok_and(|k| &*k == "_save_id"));
            if asked { current_save_id(lua) } else { Ok(None) }
        })?,
    )?;
    base.set_metatable(Some(base_meta))?;
    let config = lua.create_table()?;
    config.set("base", base)?;
    api.set("config", config)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, SystemTime};

    use super::*;

    #[test]
    fn saves_are_listed_newest_first_and_other_files_left_out() {
        let dir = tempfile::tempdir().unwrap();
        let now = SystemTime::now();
        for (file, age) in
            [("old.ron", 300), ("new.ron", 10), ("middle.ron", 100), ("notes.txt", 0), (".hidden.ron", 0)]
        {
            let path = dir.path().join(file);
            std::fs::write(&path, "()").unwrap();
            std::fs::File::options()
                .write(true)
                .open(&path)
                .unwrap()
                .set_modified(now - Duration::from_secs(age))
                .unwrap();
        }
        let names: Vec<String> = list_saves(dir.path()).into_iter().map(|s| s.name).collect();
        assert_eq!(names, ["new", "middle", "old"]);
        assert!(list_saves(&dir.path().join("missing")).is_empty());
    }
}
