//! A mod's environment: the read-only API seen through its own globals, and its `require` —
//! a module of its own mod, of another loaded mod, or OpenNefia's `api.<Name>` — kept inside
//! the mod's folder.

use std::path::Path;

use mlua::{Function, Lua, Table};

use super::{engine, load_mod_code, load_mod_file, rt_error};
use nefia_game::symbol::Symbol;

/// A new environment reading through the read-only API, with `_MOD_NAME` set to `mod_id`
/// and `_G` itself: globals it defines, and a metatable set on it, are its own. Plain
/// `require("a.b")` resolves in the mod `home` (if any); `require("mod.other.a.b")` in any
/// loaded mod. With `trusted` (the REPL, scripts from the command line), the `debug`
/// library is visible too.
pub fn environment(lua: &Lua, mod_id: &str, home: Option<Symbol>, trusted: bool) -> mlua::Result<Table> {
    let engine = engine(lua);
    let (read_only_api, load_in) =
        engine.sandbox.get().ok_or_else(|| mlua::Error::runtime("environments are made once the API is installed"))?;
    let env = lua.create_table()?;
    env.raw_set("_MOD_NAME", mod_id)?;
    env.raw_set("_G", &env)?;
    env.raw_set("load", load_in.call::<Function>(&env)?)?;
    if trusted {
        env.raw_set("debug", lua.globals().raw_get::<mlua::Value>("debug")?)?;
    }
    env.raw_set("require", lua.create_function(move |lua, name: String| require(lua, home, &name))?)?;
    let meta = lua.create_table()?;
    meta.raw_set("__index", read_only_api)?;
    env.set_metatable(Some(meta))?;
    Ok(env)
}

/// OpenNefia's module names whose engine global is called differently here.
const API_ALIASES: [(&str, &str); 1] = [("IUiLayer", "UiLayer")];

/// OpenNefia's modules outside `api.` that are engine globals here: its type checkers
/// (`util.types`, a global there as here) and `config` (`config.base._save_id`).
const MODULE_GLOBALS: [(&str, &str); 2] = [("util.types", "types"), ("internal.config", "config")];

/// The engine's global table an OpenNefia-style `require("api.<...>.<Name>")` means (the
/// last part of the name), or one of [`MODULE_GLOBALS`], if there is one.
fn api_global(lua: &Lua, name: &str) -> mlua::Result<Option<Table>> {
    let module = MODULE_GLOBALS.iter().find(|(module, _)| *module == name).map(|(_, global)| *global);
    let Some(path) = name.strip_prefix("api.").or(module) else {
        return Ok(None);
    };
    let last = path.rsplit('.').next().unwrap_or(path);
    let global = API_ALIASES.iter().find(|(alias, _)| *alias == last).map_or(last, |(_, global)| global);
    let engine = engine(lua);
    let (read_only_api, _) =
        engine.sandbox.get().ok_or_else(|| mlua::Error::runtime("require runs once the API is installed"))?;
    Ok(match read_only_api.get::<mlua::Value>(global)? {
        mlua::Value::Table(table) => Some(table),
        _ => None,
    })
}

/// The engine's global tables (the capitalised ones), for messages.
fn api_globals(lua: &Lua) -> String {
    let engine = engine(lua);
    let Some((read_only_api, _)) = engine.sandbox.get() else { return String::new() };
    // `pairs` sees through the read-only view (its __pairs); a raw walk would not.
    let list = "local names = {} for k, v in pairs(...) do if type(v) == 'table' and k:match('^%u') then \
                names[#names + 1] = k end end table.sort(names) return table.concat(names, ', ')";
    lua.load(list).set_name("=nefia").call(read_only_api).unwrap_or_default()
}

/// `require(name)` from code whose home mod is `home`. `require("api.<Name>")` (OpenNefia's
/// way to reach the engine) gives the mod's own `api/<Name>.lua` if it has one, else the
/// engine's global `<Name>`.
pub(super) fn require(lua: &Lua, home: Option<Symbol>, name: &str) -> mlua::Result<mlua::Value> {
    let engine = engine(lua);
    let Some((target, module)) = module_of(lua, "require", home, name)? else {
        if let Some(global) = api_global(lua, name)? {
            return Ok(mlua::Value::Table(global));
        }
        let hint = match name.starts_with("api.") {
            true => format!("the engine has no global table of that name (it has {})", api_globals(lua)),
            false => format!("outside a mod, name the mod: require('mod.<mod id>.{name}')"),
        };
        return Err(rt_error(lua, format!("require('{name}'): {hint}")));
    };
    let key = format!("{target}:{module}");
    if let Some(loaded) = engine.modules.raw_get::<Option<mlua::Value>>(key.as_str())? {
        return Ok(loaded);
    }
    let loaded = engine.mods.borrow().get(&target).cloned();
    let loaded = loaded.ok_or_else(|| rt_error(lua, format!("require('{name}'): mod '{target}' is not loaded")))?;
    let relative = module.replace('.', "/");
    let transient = engine.transient.borrow().get(&key).cloned();
    if let Some(code) = transient {
        let path = loaded.dir.join(format!("{relative}.lua"));
        let result: mlua::Value =
            load_mod_code(lua, target, &loaded.dir, &path, code.into_bytes(), loaded.env)?.call(())?;
        let result = if result.is_nil() { mlua::Value::Boolean(true) } else { result };
        engine.modules.raw_set(key.as_str(), &result)?;
        return Ok(result);
    }
    let candidates = [loaded.dir.join(format!("{relative}.lua")), loaded.dir.join(&relative).join("init.lua")];
    let Some(path) = candidates.iter().find(|p| p.is_file() && stays_inside(&loaded.dir, p)) else {
        if let Some(global) = api_global(lua, module)? {
            return Ok(mlua::Value::Table(global));
        }
        let engine_hint = match module.starts_with("api.") {
            true => format!("; nor has the engine a global table of that name (it has {})", api_globals(lua)),
            false => String::new(),
        };
        return Err(rt_error(
            lua,
            format!(
                "require('{name}'): mod '{target}' has no module '{module}' (looked for {} and {}){engine_hint}",
                candidates[0].display(),
                candidates[1].display()
            ),
        ));
    };
    let result: mlua::Value = load_mod_file(lua, target, &loaded.dir, path, loaded.env)?.call(())?;
    let result = if result.is_nil() { mlua::Value::Boolean(true) } else { result };
    engine.modules.raw_set(key.as_str(), &result)?;
    Ok(result)
}

/// The mod and module a `require`-style `name` means from code whose home mod is `home`:
/// `mod.<mod id>.<module>`, or a module of `home`; None for a name that is neither (outside a
/// mod, not `mod.`-prefixed). `what` names the caller in errors.
pub(super) fn module_of<'a>(
    lua: &Lua,
    what: &str,
    home: Option<Symbol>,
    name: &'a str,
) -> mlua::Result<Option<(Symbol, &'a str)>> {
    let (target, module) = match name.strip_prefix("mod.") {
        Some(rest) => {
            let (other, module) = rest.split_once('.').unwrap_or((rest, "init"));
            let target = Symbol::lookup(other)
                .ok_or_else(|| rt_error(lua, format!("{what}('{name}'): mod '{other}' is not loaded")))?;
            (target, module)
        }
        None => match home {
            Some(home) => (home, name),
            None => return Ok(None),
        },
    };
    if let Err(problem) = check_module_name(module) {
        return Err(rt_error(lua, format!("{what}('{name}'): {problem}")));
    }
    Ok(Some((target, module)))
}

/// Checks a module name of `require`: dot-separated plain names (letters, digits, `_`, `-`),
/// so it names a file inside the mod's folder and never an absolute or `..` path.
fn check_module_name(module: &str) -> Result<(), InvalidModuleName> {
    let plain =
        |part: &str| !part.is_empty() && part.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if module.len() <= 256 && module.split('.').all(plain) { Ok(()) } else { Err(InvalidModuleName(module.to_owned())) }
}

/// A module name [`check_module_name`] refused: it could name a file outside the mod.
#[derive(Debug, thiserror::Error)]
#[error(
    "'{0}' is not a module name: use dot-separated names inside the mod, such as 'api.gui.LogWidget', or \
     'mod.<mod id>.<module>' for another mod's"
)]
struct InvalidModuleName(String);

/// True if `path`, with links followed, is inside `dir`: a link in a mod cannot lead
/// `require` out of it.
fn stays_inside(dir: &Path, path: &Path) -> bool {
    match (dir.canonicalize(), path.canonicalize()) {
        (Ok(dir), Ok(path)) => path.starts_with(dir),
        _ => false,
    }
}
