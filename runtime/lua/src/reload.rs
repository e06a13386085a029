//! Hotload: reloading a changed Lua file (the host watches the mods' folders,
//! `runtime/host/src/folders.rs`) into the running game without losing its state.
//!
//! A reload is one transaction. The file is compiled first (a syntax error changes nothing).
//! Then the handlers, widgets and map draw layers the file registered are taken away, and it
//! runs again with re-adding allowed ([`OnDuplicate::Replace`]): prototypes it adds are
//! replaced in place (objects keep their prototype and see the new data for fields they did
//! not override), handlers it registers come back, and those it no longer registers stay
//! gone. A module's table is updated in place, so code that `require`d it sees the new
//! functions. If the file fails while running, or leaves a prototype's `data_id` field naming
//! no prototype of its type where it named one before (`file:line: elona.cave.tile: no
//! base.map_tile is called …`, see [`crate::content_checks`]), everything it touched —
//! handlers, registrations, prototypes, its mod's globals — goes back to how it was, and the
//! previous code keeps running. Objects, maps, the `save` table and the player are never touched.

use nefia_protocol::reload::Reload;
use std::path::{Path, PathBuf};
use std::time::Instant;

use mlua::{Lua, Table};

use crate::{engine, gui};
use nefia_game::data::OnDuplicate;
use nefia_game::display::LogLevel;
use nefia_game::files;
use nefia_game::symbol::Symbol;
use nefia_protocol::failure::LuaFailure;

/// The loaded file at `path` (however it is spelled): its display name, its mod, and the
/// path it was loaded from.
fn loaded_file(lua: &Lua, path: &Path) -> Option<(String, Symbol, PathBuf)> {
    let wanted = path.canonicalize().ok()?;
    let engine = engine(lua);
    let sources = engine.sources.borrow();
    sources.values().find_map(|source| {
        let mod_id = source.mod_id?;
        let loaded = source.path.as_ref()?;
        (loaded.canonicalize().ok()? == wanted).then(|| (source.name.as_str().to_owned(), mod_id, loaded.clone()))
    })
}

/// The `require` name of a mod's file: `init.lua` → `init`, `game/rules.lua` → `game.rules`,
/// a folder's `init.lua` → the folder's name.
fn module_name(relative: &Path) -> String {
    let name = relative.with_extension("").to_string_lossy().replace(['/', '\\'], ".");
    match name.strip_suffix(".init") {
        Some(package) => package.to_owned(),
        None => name,
    }
}

/// What a reload does with a file whose text is the one it last compiled and ran.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Unchanged {
    /// Nothing: a save that changed nothing (or the watcher seeing a file the editor wrote
    /// and reloaded itself) has nothing to reload.
    Skip,
    /// Reload it all the same (asked for by name; a retry).
    Reload,
}

/// Reloads the Lua file at `path` into the running game (see the module documentation) and
/// logs the outcome. Returns `None` if no loaded mod ran that file, or if it runs the text
/// read and `unchanged` skips it (nothing to reload).
pub fn reload_file(lua: &Lua, path: &Path, unchanged: Unchanged) -> Option<Reload> {
    let (file, mod_id, path) = loaded_file(lua, path)?;
    let code = std::fs::read(&path)
        .map_err(|e| LuaFailure { message: format!("{}: cannot read: {e}", path.display()), traceback: String::new() });
    reload_code(lua, file, mod_id, &path, code, unchanged)
}

/// Reloads the loaded file at `path` with `code`, the text just read from it (what a
/// recording keeps). None as for [`reload_file`].
pub fn reload_file_with(lua: &Lua, path: &Path, code: String, unchanged: Unchanged) -> Option<Reload> {
    let Some((file, mod_id, path)) = loaded_file(lua, path) else {
        // A locale file of a language not loaded now is loaded with it.
        return crate::i18n::reload_unloaded_locale_file(lua, path, code.into_bytes());
    };
    reload_code(lua, file, mod_id, &path, Ok(code.into_bytes()), unchanged)
}

/// Reloads the loaded file named `file` (`mods/elona/game/rules.lua`) with `code` instead of
/// what is on disk: a hotload as a recording replays it. None if no loaded mod ran it.
pub fn reload_recorded(lua: &Lua, file: &str, code: &str) -> Option<Reload> {
    let engine = engine(lua);
    let (mod_id, path) = {
        let sources = engine.sources.borrow();
        let source = sources.values().find(|source| source.name.as_str() == file)?;
        (source.mod_id?, source.path.clone()?)
    };
    reload_code(lua, file.to_owned(), mod_id, &path, Ok(code.as_bytes().to_vec()), Unchanged::Reload)
}

fn reload_code(
    lua: &Lua,
    file: String,
    mod_id: Symbol,
    path: &Path,
    code: Result<Vec<u8>, LuaFailure>,
    unchanged: Unchanged,
) -> Option<Reload> {
    let runs = |code: &[u8]| {
        let digest = Some(files::content_digest(code));
        engine(lua).sources.borrow().values().any(|s| s.path.as_deref() == Some(path) && s.text_digest == digest)
    };
    if unchanged == Unchanged::Skip && code.as_deref().is_ok_and(runs) {
        return None;
    }
    if let Some(reload) = crate::i18n::reload_locale_file(lua, &file, mod_id, path, code.clone()) {
        return Some(reload);
    }
    let started = Instant::now();
    let text = code.as_ref().ok().map(|code| String::from_utf8_lossy(code).into_owned());
    let outcome =
        code.and_then(|code| transaction(lua, path, mod_id, Symbol::intern(&file), code)).map(|()| started.elapsed());
    // The file's breakpoints move with their lines.
    let breakpoints_moved = match (&outcome, text) {
        (Ok(_), Some(text)) => engine(lua).debugger.file_reloaded(path, &text),
        _ => Vec::new(),
    };
    if outcome.is_err() {
        // The text is forgotten: saved again, even as the text that still runs (a fix undone
        // back to it), the file is reloaded and the reload told.
        for source in engine(lua).sources.borrow_mut().values_mut().filter(|s| s.path.as_deref() == Some(path)) {
            source.text_digest = None;
        }
    }
    match &outcome {
        Ok(took) => gui::log(lua, LogLevel::Info, format!("reloaded {file} in {:.1} ms", took.as_secs_f64() * 1e3)),
        Err(failure) => gui::log(
            lua,
            LogLevel::Error,
            format!("reload of {file} rejected; the previous code keeps running: {failure}"),
        ),
    }
    Some(Reload { file, path: path.to_owned(), outcome, breakpoints_moved })
}

/// The files of mod `id` that have been loaded, in the order "Reload mod" reloads them: its
/// modules, then `init.lua`.
pub fn loaded_files_of(lua: &Lua, id: &str) -> Vec<PathBuf> {
    let engine = engine(lua);
    let mod_id = Symbol::intern(id);
    let mut paths: Vec<PathBuf> = engine
        .sources
        .borrow()
        .values()
        .filter(|source| source.mod_id == Some(mod_id))
        .filter_map(|source| source.path.clone())
        .collect();
    paths.sort_by_key(|path| (path.file_name().is_some_and(|n| n == "init.lua"), path.clone()));
    paths
}

/// What a failed reload puts back.
struct Backup {
    events: crate::handlers::EventRegistry,
    registrations: gui::Registrations,
    data: nefia_game::data::DataRegistry,
    data_tables: Vec<(mlua::Value, Table)>,
    /// The data types' checkers (`schema.rs`), which must judge as the registry's declared
    /// fields (and their write checks) do once restored.
    checkers: Vec<(mlua::Value, mlua::Value)>,
    env: Vec<(mlua::Value, mlua::Value)>,
}

fn shallow_copy(lua: &Lua, table: &Table) -> mlua::Result<Table> {
    let copy = lua.create_table()?;
    for pair in table.pairs::<mlua::Value, mlua::Value>() {
        let (key, value) = pair?;
        copy.raw_set(key, value)?;
    }
    Ok(copy)
}

/// Reloads `path`, loaded as `file` of mod `mod_id` (see the module documentation).
fn transaction(lua: &Lua, path: &Path, mod_id: Symbol, file: Symbol, code: Vec<u8>) -> Result<(), LuaFailure> {
    let engine = engine(lua);
    let loaded = engine.mods.borrow().get(&mod_id).cloned().ok_or_else(|| LuaFailure {
        message: format!("{}: mod '{mod_id}' is not loaded", path.display()),
        traceback: String::new(),
    })?;
    let text = String::from_utf8_lossy(&code).into_owned();
    let chunk = crate::load_mod_code(lua, mod_id, &loaded.dir, path, code, loaded.env.clone())
        .map_err(crate::error::failure)?;
    let module_key = path.strip_prefix(&loaded.dir).ok().map(|r| format!("{mod_id}:{}", module_name(r)));

    let backup = Backup {
        events: engine.events.borrow().clone(),
        registrations: engine.gui.borrow_mut().forget_file(file),
        data: engine.world.borrow().data.clone(),
        data_tables: engine
            .data_tables
            .pairs::<mlua::Value, Table>()
            .map(|pair| pair.and_then(|(key, entries)| Ok((key, shallow_copy(lua, &entries)?))))
            .collect::<mlua::Result<_>>()
            .map_err(crate::error::failure)?,
        checkers: crate::schema::checkers(lua)
            .and_then(|checkers| checkers.pairs().collect::<mlua::Result<_>>())
            .map_err(crate::error::failure)?,
        env: loaded.env.pairs().collect::<mlua::Result<_>>().map_err(crate::error::failure)?,
    };
    engine.events.borrow_mut().retain(|_, handler| handler.origin.file != file);

    let dangling_before = nefia_game::references::dangling(&engine.world.borrow().data);
    engine.hotloaded_prototypes.borrow_mut().clear();
    engine.on_duplicate.set(OnDuplicate::Replace);
    engine.forget_sheet_sizes();
    let result = engine.limits.run(|| chunk.call::<mlua::Value>(()));
    engine.on_duplicate.set(OnDuplicate::Error);
    engine.world.borrow_mut().prototypes_changed();

    match result {
        Ok(module) => {
            let dangling = crate::content_checks::dangling_added(lua, &dangling_before, file, &text);
            if !dangling.is_empty() {
                restore(lua, &loaded.env, backup).map_err(crate::error::failure)?;
                let each: Vec<String> = dangling.iter().map(ToString::to_string).collect();
                return Err(LuaFailure { message: each.join("; "), traceback: String::new() });
            }
            if let Some(key) = module_key {
                update_module(&engine.modules, &key, module).map_err(crate::error::failure)?;
            }
            let reloaded = std::mem::take(&mut *engine.hotloaded_prototypes.borrow_mut());
            // The objects of the reloaded prototypes are instantiated under the time limit; a
            // handler that fails is logged and the reload stays.
            let instantiated = engine.limits.run(|| {
                crate::instantiate::after_hotload(lua, &reloaded);
                Ok::<(), mlua::Error>(())
            });
            if let Err(error) = instantiated {
                gui::log(lua, LogLevel::Error, format!("after reloading {}: {error}", path.display()));
            }
            Ok(())
        }
        Err(error) => {
            restore(lua, &loaded.env, backup).map_err(crate::error::failure)?;
            Err(crate::error::failure(error))
        }
    }
}

/// Puts a reloaded module's new contents into its cached table (if it was `require`d), so
/// every holder of the table sees them.
fn update_module(modules: &Table, key: &str, module: mlua::Value) -> mlua::Result<()> {
    let Some(cached) = modules.raw_get::<Option<mlua::Value>>(key)? else { return Ok(()) };
    match (cached, module) {
        (mlua::Value::Table(cached), mlua::Value::Table(fresh)) => {
            clear(&cached)?;
            for pair in fresh.pairs::<mlua::Value, mlua::Value>() {
                let (key, value) = pair?;
                cached.raw_set(key, value)?;
            }
            cached.set_metatable(fresh.metatable())
        }
        (_, mlua::Value::Nil) => modules.raw_set(key, true),
        (_, fresh) => modules.raw_set(key, fresh),
    }
}

/// Removes every key of `table`.
fn clear(table: &Table) -> mlua::Result<()> {
    let keys: Vec<mlua::Value> =
        table.pairs::<mlua::Value, mlua::Value>().map(|p| p.map(|(k, _)| k)).collect::<mlua::Result<_>>()?;
    keys.into_iter().try_for_each(|key| table.raw_set(key, mlua::Value::Nil))
}

fn restore(lua: &Lua, env: &Table, backup: Backup) -> mlua::Result<()> {
    let engine = engine(lua);
    *engine.events.borrow_mut() = backup.events;
    engine.gui.borrow_mut().restore(backup.registrations);
    engine.world.borrow_mut().data.restore(backup.data);
    refill(&engine.data_tables, backup.data_tables)?;
    refill(&crate::schema::checkers(lua)?, backup.checkers)?;
    refill(env, backup.env)
}

/// Makes `table` hold exactly `entries`.
fn refill(table: &Table, entries: Vec<(mlua::Value, impl mlua::IntoLua)>) -> mlua::Result<()> {
    clear(table)?;
    entries.into_iter().try_for_each(|(key, value)| table.raw_set(key, value))
}
