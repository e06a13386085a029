//! Hotloading from Lua, as OpenNefia's code and tests do it:
//!
//! - `hotload.hotload(name)` reloads module `name` (named as `require` names it:
//!   `mod.<mod id>.<module>`, or a module of the calling mod) in the running game, with the
//!   guarantees of a file saved in the editor (`runtime/host/src/mods.rs`: the whole reload or
//!   nothing, the previous code kept on an error, which is raised here naming the file and
//!   line). It returns OpenNefia's `{ module = <its new value>, require_path =
//!   "mod.<mod id>.<module>" }`. A module not loaded yet is loaded.
//! - `env.load_transient_path(name, mod_id, code)` gives module `name` of mod `mod_id` source
//!   text that lives in no file: `require` and `hotload.hotload` use it instead of the file
//!   (OpenNefia's tests hotload code this way). `env.unload_transient_paths()` forgets them.
//!
//! A reload from Lua is part of the command that runs it: a recording replays the command,
//! and with it the reload of the text the module has then.

use mlua::{Lua, Table};

use super::environment::{module_of, require};
use super::{caller_origin, engine, rt_error};
use nefia_game::symbol::Symbol;

/// `hotload.hotload(name)`: `{ module, require_path }`.
fn hotload(lua: &Lua, name: &str) -> mlua::Result<Table> {
    let (require_path, module) = reload(lua, name)?;
    let result = lua.create_table()?;
    result.set("module", module)?;
    result.set("require_path", require_path)?;
    Ok(result)
}

/// Reloads (or first loads) module `name`: its full require path and its new value.
fn reload(lua: &Lua, name: &str) -> mlua::Result<(String, mlua::Value)> {
    let engine = engine(lua);
    let home = caller_origin(lua, &engine).mod_id;
    let Some((target, module)) = module_of(lua, "hotload.hotload", home, name)? else {
        return Err(rt_error(
            lua,
            format!("hotload.hotload('{name}'): outside a mod, name the mod as require does: 'mod.<mod id>.{name}'"),
        ));
    };
    let key = format!("{target}:{module}");
    let require_path = format!("mod.{target}.{module}");
    if engine.modules.raw_get::<Option<mlua::Value>>(key.as_str())?.is_none() {
        // Never loaded: loading it is all a hotload would do.
        return Ok((require_path, require(lua, Some(target), module)?));
    }
    let relative = module.replace('.', "/");
    let transient = engine.transient.borrow().get(&key).cloned();
    let dir = engine.mods.borrow().get(&target).map(|loaded| loaded.dir.clone());
    let dir = dir.ok_or_else(|| rt_error(lua, format!("hotload.hotload('{name}'): mod '{target}' is not loaded")))?;
    let file = [format!("{relative}.lua"), format!("{relative}/init.lua")]
        .into_iter()
        .find(|file| transient.is_some() || dir.join(file).is_file())
        .ok_or_else(|| rt_error(lua, format!("hotload.hotload('{name}'): mod '{target}' has no file for it")))?;
    let code = match transient {
        Some(code) => code,
        None => std::fs::read_to_string(dir.join(&file))
            .map_err(|e| rt_error(lua, format!("hotload.hotload('{name}'): cannot read {file}: {e}")))?,
    };
    let shown = format!("mods/{target}/{file}");
    let reload = super::reload::reload_recorded(lua, &shown, &code).ok_or_else(|| {
        rt_error(lua, format!("hotload.hotload('{name}'): {shown} was not loaded from a file (nothing to reload)"))
    })?;
    match reload.outcome {
        Ok(_) => Ok((require_path, engine.modules.raw_get(key.as_str())?)),
        Err(failure) => Err(rt_error(lua, format!("hotload.hotload('{name}'): {}", failure.message))),
    }
}

/// `env.load_transient_path(name, mod_id, code)`.
fn load_transient_path(lua: &Lua, name: &str, mod_id: &str, code: String) -> mlua::Result<()> {
    let home = Symbol::lookup(mod_id)
        .ok_or_else(|| rt_error(lua, format!("env.load_transient_path: mod '{mod_id}' is not loaded")))?;
    let (target, module) = module_of(lua, "env.load_transient_path", Some(home), name)?
        .ok_or_else(|| rt_error(lua, format!("env.load_transient_path('{name}'): not a module name")))?;
    engine(lua).transient.borrow_mut().insert(format!("{target}:{module}"), code);
    Ok(())
}

/// Installs `hotload` and `env` into `api`.
pub fn install(lua: &Lua, api: &Table) -> mlua::Result<()> {
    let hotload_table = lua.create_table()?;
    hotload_table.set("hotload", lua.create_function(|lua, name: String| hotload(lua, &name))?)?;
    api.set("hotload", hotload_table)?;
    let env = lua.create_table()?;
    env.set(
        "load_transient_path",
        lua.create_function(|lua, (name, mod_id, code): (String, String, String)| {
            load_transient_path(lua, &name, &mod_id, code)
        })?,
    )?;
    env.set(
        "unload_transient_paths",
        lua.create_function(|lua, ()| {
            engine(lua).transient.borrow_mut().clear();
            Ok(())
        })?,
    )?;
    api.set("env", env)?;
    Ok(())
}
