//! Converting between Lua values and [`Value`], working on the Lua stack directly.
//!
//! Lua → Value refuses what cannot be plain data (functions, objects, coroutines, tables that
//! contain themselves) with an error naming the path of the bad value, such as
//! `save.my_mod.cb`, so the author knows exactly what to change. The conversions read and
//! write the Lua stack with the C API so the hot C functions of `object_access.rs` can use them;
//! [`from_lua`] and [`to_lua`] offer the same to mlua code.

use std::collections::BTreeMap;
use std::ffi::{c_int, c_void};
use std::sync::Arc;

use mlua::{Lua, ffi};

use nefia_game::value::{Key, MAX_TABLE_DEPTH, Value};

/// A Lua value that is not plain data, with the path where it was found.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("cannot store {what} at {path}: {advice}")]
pub struct ConvertError {
    /// The path, such as `save.my_mod.cb`.
    pub path: String,
    /// What was found there ("a function", …).
    pub what: String,
    /// What to do instead.
    pub advice: &'static str,
}

/// Converts a Lua value to plain data. `root` names the value in errors (`save.my_mod`, a
/// field name).
pub fn from_lua(lua: &Lua, value: &mlua::Value, root: &str) -> Result<Value, ConvertError> {
    let mut result = None;
    // SAFETY: the closure reads the value exec_raw pushed at index 1, then pops it.
    let outcome = unsafe {
        lua.exec_raw::<()>(value.clone(), |state| {
            result = Some(read_value(state, 1, &root));
            ffi::lua_settop(state, 0);
        })
    };
    match (outcome, result) {
        (Ok(()), Some(result)) => result,
        (Err(error), _) => Err(fail(
            &Path { root: &root, keys: Vec::new() },
            format!("a value that could not be read ({error})"),
            "use plain data",
        )),
        (Ok(()), None) => {
            Err(fail(&Path { root: &root, keys: Vec::new() }, "a value that could not be read", "use plain data"))
        }
    }
}

/// Reads a whole number argument named `name` within `range`: an integer, or a float with no
/// fraction. Anything else is an error naming the argument and the value, never truncated.
pub fn whole_number(
    lua: &Lua,
    value: &mlua::Value,
    name: &str,
    range: std::ops::RangeInclusive<i64>,
) -> mlua::Result<i64> {
    let number = match value {
        mlua::Value::Integer(i) => Some(*i),
        // Floats that are whole and within i64 convert exactly.
        mlua::Value::Number(n) if n.fract() == 0.0 && n.abs() < 9.2e18 => Some(*n as i64),
        _ => None,
    };
    match number {
        Some(n) if range.contains(&n) => Ok(n),
        Some(n) => Err(super::rt_error(
            lua,
            format!("{name} = {n} is out of range: it must be from {} to {}", range.start(), range.end()),
        )),
        None => Err(super::rt_error(lua, format!("{name} must be a whole number, not {}", describe_number(value)))),
    }
}

/// A position argument (x or y): a whole number that fits a map coordinate.
pub fn coordinate(lua: &Lua, value: &mlua::Value, name: &str) -> mlua::Result<i32> {
    let n = whole_number(lua, value, name, i64::from(i32::MIN)..=i64::from(i32::MAX))?;
    Ok(i32::try_from(n).unwrap_or_default())
}

fn describe_number(value: &mlua::Value) -> String {
    match value {
        mlua::Value::Number(n) => format!("{n}"),
        other => format!("a {}", other.type_name()),
    }
}

/// Converts plain data to a fresh Lua value (tables are new tables). An object reference is
/// the object's handle, or nil once the object is gone.
pub fn to_lua(lua: &Lua, value: &Value) -> mlua::Result<mlua::Value> {
    if let Value::Object(uid) = value {
        let exists = super::engine(lua).world.borrow().exists(*uid);
        return if exists {
            super::handle::push_object(lua, *uid).map(mlua::Value::Table)
        } else {
            Ok(mlua::Value::Nil)
        };
    }
    // SAFETY: push_value leaves exactly one value on the stack, which exec_raw returns.
    unsafe { lua.exec_raw((), |state| push_value(state, value)) }
}

/// Reads the Lua value at `index` of `state` as plain data.
///
/// # Safety
/// `state` must be a live Lua state and `index` a valid stack index.
pub unsafe fn read_value(
    state: *mut ffi::lua_State,
    index: c_int,
    root: &dyn std::fmt::Display,
) -> Result<Value, ConvertError> {
    // The path is only spelled out for an error, so plain values cost no allocation (and the
    // root, a field's name, is not even looked up).
    let mut path = Path { root, keys: Vec::new() };
    // An argument's index is already absolute: `mod` reads one on every call.
    // SAFETY: forwarded from the caller.
    let index = if index > 0 { index } else { unsafe { ffi::lua_absindex(state, index) } };
    // SAFETY: forwarded from the caller.
    unsafe { read(state, index, &mut path, &mut Vec::new()) }
}

/// Where a value is: the root's name and the keys down to it.
struct Path<'a> {
    root: &'a dyn std::fmt::Display,
    keys: Vec<String>,
}

fn fail(path: &Path, what: impl Into<String>, advice: &'static str) -> ConvertError {
    ConvertError { path: format!("{}{}", path.root, path.keys.concat()), what: what.into(), advice }
}

/// # Safety
/// `index` must be an absolute index of a value on the stack of `state`.
unsafe fn read(
    state: *mut ffi::lua_State,
    index: c_int,
    path: &mut Path,
    visiting: &mut Vec<*const c_void>,
) -> Result<Value, ConvertError> {
    unsafe {
        Ok(match ffi::lua_type(state, index) {
            ffi::LUA_TNIL | ffi::LUA_TNONE => Value::Nil,
            ffi::LUA_TBOOLEAN => Value::Bool(ffi::lua_toboolean(state, index) != 0),
            ffi::LUA_TNUMBER if ffi::lua_isinteger(state, index) != 0 => {
                Value::Int(ffi::lua_tointegerx(state, index, std::ptr::null_mut()))
            }
            ffi::LUA_TNUMBER => Value::Float(ffi::lua_tonumberx(state, index, std::ptr::null_mut())),
            ffi::LUA_TSTRING => match std::str::from_utf8(string_at(state, index)) {
                Ok(text) => Value::Str(Arc::from(text)),
                Err(_) => return Err(fail(path, "a string that is not UTF-8", "use UTF-8 text")),
            },
            ffi::LUA_TTABLE if handle_kind(state, index).is_some() => {
                return Err(fail(
                    path,
                    "a map object or map",
                    "an object's field may hold an object itself; elsewhere store its uid (obj.uid) and find it again \
                     with World.object(uid) or Map.get(uid)",
                ));
            }
            ffi::LUA_TTABLE => {
                let pointer = ffi::lua_topointer(state, index);
                if visiting.contains(&pointer) {
                    return Err(fail(
                        path,
                        "a table that contains itself",
                        "break the cycle; store ids instead of references",
                    ));
                }
                if visiting.len() >= MAX_TABLE_DEPTH {
                    return Err(fail(
                        path,
                        format!("tables nested over {MAX_TABLE_DEPTH} deep, the most a save or map file holds"),
                        "flatten the data",
                    ));
                }
                if ffi::lua_checkstack(state, 4) == 0 {
                    return Err(fail(path, "a table too deep for the Lua stack", "flatten the data"));
                }
                visiting.push(pointer);
                let result = read_table(state, index, path, visiting);
                visiting.pop();
                result?
            }
            ffi::LUA_TFUNCTION => {
                return Err(fail(
                    path,
                    "a function",
                    "fields and save data hold plain data only; keep functions in prototypes or mod code",
                ));
            }
            other => {
                let name = std::ffi::CStr::from_ptr(ffi::lua_typename(state, other)).to_string_lossy();
                return Err(fail(path, format!("a {name}"), "use nil, booleans, numbers, strings and tables"));
            }
        })
    }
}

/// # Safety
/// `index` must be an absolute index of a table with 4 free stack slots above the top.
unsafe fn read_table(
    state: *mut ffi::lua_State,
    index: c_int,
    path: &mut Path,
    visiting: &mut Vec<*const c_void>,
) -> Result<Value, ConvertError> {
    unsafe {
        let len = ffi::lua_rawlen(state, index);
        let mut entries: Vec<(Key, Value)> = Vec::new();
        let mut is_sequence = len > 0;
        ffi::lua_pushnil(state);
        while ffi::lua_next(state, index) != 0 {
            // Key at -2, value at -1.
            let key = match ffi::lua_type(state, -2) {
                ffi::LUA_TNUMBER if ffi::lua_isinteger(state, -2) != 0 => {
                    Key::Int(ffi::lua_tointegerx(state, -2, std::ptr::null_mut()))
                }
                ffi::LUA_TNUMBER => {
                    let x = ffi::lua_tonumberx(state, -2, std::ptr::null_mut());
                    if x.fract() != 0.0 || x.abs() >= 9.0e15 {
                        ffi::lua_settop(state, -3);
                        return Err(fail(path, format!("a table key {x}"), "use integer or string keys"));
                    }
                    Key::Int(x as i64)
                }
                // lua_next needs the key as it is, so strings are read without converting it.
                ffi::LUA_TSTRING => match std::str::from_utf8(string_at(state, -2)) {
                    Ok(nefia_game::value::OBJECT_KEY) => {
                        ffi::lua_settop(state, -3);
                        return Err(fail(
                            path,
                            format!("the key \"{}\"", nefia_game::value::OBJECT_KEY),
                            "it is how saves write an object reference; name the key otherwise",
                        ));
                    }
                    Ok(text) => Key::Str(Arc::from(text)),
                    Err(_) => {
                        ffi::lua_settop(state, -3);
                        return Err(fail(path, "a key that is not UTF-8", "use UTF-8 keys"));
                    }
                },
                other => {
                    let name = std::ffi::CStr::from_ptr(ffi::lua_typename(state, other)).to_string_lossy().into_owned();
                    ffi::lua_settop(state, -3);
                    return Err(fail(path, format!("a table key of type {name}"), "use integer or string keys"));
                }
            };
            if !matches!(key, Key::Int(i) if i >= 1 && i as usize <= len) {
                is_sequence = false;
            }
            path.keys.push(match &key {
                Key::Int(i) => format!("[{i}]"),
                Key::Str(s) if nefia_game::value::is_identifier(s) => format!(".{s}"),
                Key::Str(s) => format!("[{s:?}]"),
            });
            let item = read(state, ffi::lua_gettop(state), path, visiting);
            path.keys.pop();
            ffi::lua_settop(state, -2);
            match item {
                Ok(item) => entries.push((key, item)),
                Err(error) => {
                    ffi::lua_settop(state, -2);
                    return Err(error);
                }
            }
        }
        if is_sequence && entries.len() == len {
            entries.sort_by(|a, b| a.0.cmp(&b.0));
            return Ok(Value::list(entries.into_iter().map(|(_, v)| v).collect()));
        }
        Ok(Value::Map(Arc::new(entries.into_iter().collect::<BTreeMap<_, _>>())))
    }
}

/// The bytes of the string at `index` (valid while it stays on the stack).
///
/// # Safety
/// The value at `index` must be a string.
pub unsafe fn string_at<'a>(state: *mut ffi::lua_State, index: c_int) -> &'a [u8] {
    unsafe {
        let mut len = 0usize;
        let data = ffi::lua_tolstring(state, index, &mut len);
        std::slice::from_raw_parts(data.cast(), len)
    }
}

/// "object" or "map" if the table at `index` is a handle (its metatable is named so).
///
/// # Safety
/// `index` must be an absolute index of a table, with 2 free stack slots.
pub unsafe fn handle_kind(state: *mut ffi::lua_State, index: c_int) -> Option<&'static str> {
    unsafe {
        if ffi::lua_getmetatable(state, index) == 0 {
            return None;
        }
        ffi::lua_pushlstring(state, c"__name".as_ptr(), 6);
        ffi::lua_rawget(state, -2);
        let kind = match ffi::lua_type(state, -1) {
            ffi::LUA_TSTRING => match string_at(state, -1) {
                b"object" => Some("object"),
                b"map" => Some("map"),
                _ => None,
            },
            _ => None,
        };
        ffi::lua_settop(state, -3);
        kind
    }
}

/// Pushes `value` as a fresh Lua value.
///
/// # Safety
/// `state` must be a live Lua state; this needs up to 3 free stack slots per level of
/// nesting, which it checks for.
pub unsafe fn push_value(state: *mut ffi::lua_State, value: &Value) {
    unsafe {
        match value {
            Value::Nil => ffi::lua_pushnil(state),
            Value::Bool(b) => ffi::lua_pushboolean(state, c_int::from(*b)),
            Value::Int(i) => ffi::lua_pushinteger(state, *i),
            Value::Float(x) => ffi::lua_pushnumber(state, *x),
            Value::Str(s) => {
                ffi::lua_pushlstring(state, s.as_ptr().cast(), s.len());
            }
            Value::List(items) => {
                ffi::luaL_checkstack(state, 3, c"nested too deep".as_ptr());
                ffi::lua_createtable(state, items.len().min(c_int::MAX as usize) as c_int, 0);
                for (i, item) in items.iter().enumerate() {
                    push_value(state, item);
                    ffi::lua_rawseti(state, -2, i as ffi::lua_Integer + 1);
                }
            }
            Value::Map(map) => {
                ffi::luaL_checkstack(state, 3, c"nested too deep".as_ptr());
                ffi::lua_createtable(state, 0, map.len().min(c_int::MAX as usize) as c_int);
                for (key, item) in map.iter() {
                    match key {
                        Key::Int(i) => ffi::lua_pushinteger(state, *i),
                        Key::Str(s) => {
                            ffi::lua_pushlstring(state, s.as_ptr().cast(), s.len());
                        }
                    }
                    push_value(state, item);
                    ffi::lua_rawset(state, -3);
                }
            }
            // Only a field itself holds an object reference (the loaders refuse one inside a
            // table), and the callers that read fields push its handle themselves.
            Value::Object(_) => ffi::lua_pushnil(state),
        }
    }
}
