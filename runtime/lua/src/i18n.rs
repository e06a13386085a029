//! OpenNefia's `I18N` (its modules `api.I18N` and `internal.i18n`): every name and
//! message of the game in the current language.
//!
//! A mod ships `locale/<code>/*.lua` files, each returning nested tables of keys; the files at
//! the top of the language's folder fill the `base` namespace (`I18N.get("damage.weapon...")`),
//! a subfolder fills the namespace of its name (`I18N.get("ns:key")`). The mods' files are
//! loaded in load order, a later file's keys over an earlier's, each in a fresh sandboxed
//! environment of its mod with the language's helpers (`name`, `he`, `his`, `s`, … from
//! `i18n/en.lua` and `i18n/jp.lua`, OpenNefia's `internal.i18n.env` modules) as globals. The
//! `_` tables localize prototypes (`chara._.elona.putit.name` is
//! `I18N.localize("base.chara", "elona.putit", "name")`), and a localized field the prototype's
//! type declares (a `name`) is what its objects show (see
//! [`nefia_game::data::DataRegistry::set_localized`]). The API itself is `i18n/api.lua`;
//! here are what it needs of Rust: finding and running the locale files, and the prototypes.
//! A locale file saved is reloaded with the rest of its language (see [`reload_locale_file`]).

use std::path::Path;
use std::time::Instant;

use mlua::{Function, Lua, Table};
use nefia_game::display::LogLevel;
use nefia_game::symbol::Symbol;
use nefia_game::value::Value;
use nefia_protocol::failure::LuaFailure;
use nefia_protocol::reload::Reload;

use crate::{engine, gui, rt_error};

/// The registry key of the internal table `i18n/api.lua` returns (its `reload`).
const INTERNAL: &str = "nefia.i18n";
/// The registry key of the loaded mods' ids in load order.
const MOD_ORDER: &str = "nefia.i18n.mods";
/// The registry key of the text a hotload gives one locale file (a recording's), by path.
const OVERRIDE: &str = "nefia.i18n.override";

/// Installs the global `I18N` (also `require("api.I18N")`).
pub fn install(lua: &Lua, api: &Table) -> mlua::Result<()> {
    let native = lua.create_table()?;
    native.raw_set(
        "load",
        lua.create_function(|lua, (code, helpers): (String, Table)| load_locale(lua, &code, &helpers))?,
    )?;
    native.raw_set("language", lua.create_function(|lua, id: String| language(lua, &id))?)?;
    native.raw_set(
        "is_prototype",
        lua.create_function(|lua, (data_type, id): (String, String)| is_prototype(lua, &data_type, &id))?,
    )?;
    native.raw_set(
        "localize_prototype",
        lua.create_function(|lua, (data_type, id, field, value): (String, String, String, Option<String>)| {
            Ok(localize_prototype(lua, &data_type, &id, &field, value.as_deref().map(Value::str)))
        })?,
    )?;
    native.raw_set(
        "clear_localized",
        lua.create_function(|lua, ()| {
            engine(lua).world.borrow_mut().data.clear_localized();
            Ok(())
        })?,
    )?;
    let envs = lua.create_table()?;
    envs.raw_set("en", lua.load(include_str!("i18n/en.lua")).set_name("=nefia I18N en").into_function()?)?;
    envs.raw_set("jp", lua.load(include_str!("i18n/jp.lua")).set_name("=nefia I18N jp").into_function()?)?;
    let internal: Table =
        lua.load(include_str!("i18n/api.lua")).set_name("=nefia I18N").call((api.clone(), native, envs))?;
    lua.set_named_registry_value(INTERNAL, internal)
}

/// Loads the translations of the current language from `mods` (ids, in load order): what a
/// project's opening does once its mods are loaded. A locale file that fails is an error
/// naming it.
pub fn load_after_mods(lua: &Lua, mods: &[&str]) -> Result<(), LuaFailure> {
    let load = || -> mlua::Result<()> {
        lua.set_named_registry_value(MOD_ORDER, mods.to_vec())?;
        reload_function(lua)?.call::<()>(())
    };
    engine(lua).limits.run(load).map_err(crate::error::failure)
}

/// The current language's id (`base.english`) and code (`en`).
pub fn current_language(lua: &Lua) -> mlua::Result<(String, String)> {
    let internal: Table = lua.named_registry_value(INTERNAL)?;
    let state: Table = internal.get("state")?;
    Ok((state.get("language_id")?, state.get("language")?))
}

/// Switches to the language `id` (a `base.language`), as `I18N.switch_language` does.
pub fn switch_language(lua: &Lua, id: &str) -> Result<(), LuaFailure> {
    let switch = || -> mlua::Result<()> {
        let internal: Table = lua.named_registry_value(INTERNAL)?;
        internal.get::<Function>("switch_language")?.call::<()>(id)
    };
    engine(lua).limits.run(switch).map_err(crate::error::failure)
}

fn reload_function(lua: &Lua) -> mlua::Result<Function> {
    lua.named_registry_value::<Table>(INTERNAL)?.get("reload")
}

/// Whether `path` is a locale file of the mod in `mod_dir` (under its `locale/` folder).
fn is_locale_file(mod_dir: &Path, path: &Path) -> bool {
    let (Ok(mod_dir), Ok(path)) = (mod_dir.canonicalize(), path.canonicalize()) else { return false };
    path.strip_prefix(mod_dir).is_ok_and(|relative| relative.starts_with("locale"))
}

/// A hotload of the locale file `file` of mod `mod_id` with the text `code`: the current
/// language is loaded again, that file read as `code`. If the load fails, the translations
/// loaded before stay. None if the file is not a locale file.
pub fn reload_locale_file(
    lua: &Lua,
    file: &str,
    mod_id: Symbol,
    path: &Path,
    code: Result<Vec<u8>, LuaFailure>,
) -> Option<Reload> {
    let mod_dir = engine(lua).loaded_mods().get(&mod_id)?.dir.clone();
    if !is_locale_file(&mod_dir, path) {
        return None;
    }
    let started = Instant::now();
    let outcome = code.and_then(|code| {
        let run = || -> mlua::Result<()> {
            let overrides = lua.create_table()?;
            overrides.raw_set(path.display().to_string(), lua.create_string(&code)?)?;
            lua.set_named_registry_value(OVERRIDE, overrides)?;
            let result = reload_function(lua)?.call::<()>(());
            lua.unset_named_registry_value(OVERRIDE)?;
            result
        };
        engine(lua).limits.run(run).map_err(crate::error::failure)
    });
    let outcome = outcome.map(|()| started.elapsed());
    match &outcome {
        Ok(took) => gui::log(lua, LogLevel::Info, format!("reloaded {file} in {:.1} ms", took.as_secs_f64() * 1e3)),
        Err(failure) => gui::log(
            lua,
            LogLevel::Error,
            format!("reload of {file} rejected; the translations loaded before stay: {failure}"),
        ),
    }
    Some(Reload { file: file.to_owned(), path: path.to_owned(), outcome, breakpoints_moved: Vec::new() })
}

/// A hotload of a locale file of a loaded mod that the game has not run (another language's):
/// the current language is loaded again (the file joins when its language is switched to).
/// None if `path` is no loaded mod's locale file.
pub fn reload_unloaded_locale_file(lua: &Lua, path: &Path, code: Vec<u8>) -> Option<Reload> {
    let wanted = path.canonicalize().ok()?;
    let (mod_id, relative) = engine(lua).loaded_mods().iter().find_map(|(id, loaded)| {
        let relative = wanted.strip_prefix(loaded.dir.canonicalize().ok()?).ok()?.to_owned();
        Some((*id, relative))
    })?;
    let file = format!("mods/{mod_id}/{}", relative.display());
    reload_locale_file(lua, &file, mod_id, &wanted, Ok(code))
}

/// Runs every loaded mod's locale files of language `code`, in load order, each in a fresh
/// environment of its mod with `helpers` as globals: a list of `{ namespace, result, file }`.
fn load_locale(lua: &Lua, code: &str, helpers: &Table) -> mlua::Result<Table> {
    let order: Vec<String> = lua.named_registry_value::<Option<Vec<String>>>(MOD_ORDER)?.unwrap_or_default();
    let overrides: Option<Table> = lua.named_registry_value(OVERRIDE)?;
    let loaded = lua.create_table()?;
    for mod_name in order {
        let mod_id = Symbol::intern(&mod_name);
        let Some(mod_dir) = engine(lua).loaded_mods().get(&mod_id).map(|m| m.dir.clone()) else { continue };
        let dir = mod_dir.join("locale").join(code);
        if !dir.is_dir() {
            continue;
        }
        let files = nefia_game::locale::locale_files(&dir)
            .map_err(|e| rt_error(lua, format!("{}: cannot read: {e}", dir.display())))?;
        for (path, namespace) in files {
            let env = crate::environment(lua, &mod_name, Some(mod_id), false)?;
            for pair in helpers.pairs::<mlua::Value, mlua::Value>() {
                let (name, helper) = pair?;
                env.raw_set(name, helper)?;
            }
            let text = match overrides.as_ref().map(|o| o.raw_get::<Option<mlua::String>>(path.display().to_string())) {
                Some(Ok(Some(text))) => text.as_bytes().to_vec(),
                _ => {
                    std::fs::read(&path).map_err(|e| rt_error(lua, format!("{}: cannot read: {e}", path.display())))?
                }
            };
            let chunk = crate::load_mod_code(lua, mod_id, &mod_dir, &path, text, env)?;
            let display = format!("mods/{mod_name}/{}", path.strip_prefix(&mod_dir).unwrap_or(&path).display());
            let result = match chunk.call::<mlua::Value>(()) {
                Ok(mlua::Value::Table(table)) => table,
                Ok(other) => {
                    return Err(rt_error(
                        lua,
                        format!(
                            "{display}: a locale file returns a table of keys ({{ chara = {{ ... }} }}); it returned {}",
                            other.type_name()
                        ),
                    ));
                }
                Err(error) => {
                    return Err(rt_error(lua, format!("{display}: {}", crate::error::root_message(&error))));
                }
            };
            let entry = lua.create_table()?;
            entry.raw_set("namespace", namespace)?;
            entry.raw_set("result", result)?;
            entry.raw_set("file", display)?;
            loaded.raw_push(entry)?;
        }
    }
    Ok(loaded)
}

/// The code (`jp`) and pseudo flag of the `base.language` `id`, or nil if no mod declares
/// `base.language` (a project without the base mod reads `en`). An unknown id is an error
/// naming the languages there are.
fn language(lua: &Lua, id: &str) -> mlua::Result<(Option<String>, bool)> {
    let engine = engine(lua);
    let world = engine.world.borrow();
    let Ok(data_type) = world.data.data_type("base.language") else { return Ok((None, false)) };
    let known = || data_type.entries.iter().map(|&i| world.data.proto(i).id.as_str()).collect::<Vec<_>>().join(", ");
    let Ok(index) = world.data.find(data_type.id, id) else {
        return Err(rt_error(lua, format!("unknown language '{id}': the base.language prototypes are {}", known())));
    };
    let fields = &world.data.proto(index).fields;
    let code = fields.get(Symbol::intern("language_code")).and_then(Value::as_str).unwrap_or("en").to_owned();
    let pseudo = fields.get(Symbol::intern("pseudo")).is_some_and(|v| !v.is_falsy());
    Ok((Some(code), pseudo))
}

fn is_prototype(lua: &Lua, data_type: &str, id: &str) -> mlua::Result<bool> {
    let engine = engine(lua);
    let world = engine.world.borrow();
    let Ok(data_type) = world.data.data_type(data_type) else { return Ok(false) };
    Ok(world.data.find(data_type.id, id).is_ok())
}

fn localize_prototype(lua: &Lua, data_type: &str, id: &str, field: &str, value: Option<Value>) -> bool {
    let engine = engine(lua);
    let mut world = engine.world.borrow_mut();
    let (Some(data_type), Some(id)) = (Symbol::lookup(data_type), Symbol::lookup(id)) else { return false };
    world.data.set_localized(data_type, id, Symbol::intern(field), value)
}
