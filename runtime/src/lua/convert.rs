//! Converting between Lua values and [`Value`].
//!
//! Lua → Value refuses what cannot be plain data (functions, objects, coroutines, tables that
//! contain themselves) with an error naming the path of the bad value, such as
//! `save.my_mod.cb`, so the author knows exactly what to change.

use std::collections::BTreeMap;
use std::sync::Arc;

use mlua::{Lua, Table};

use crate::value::{Key, Value};

/// Deepest table nesting accepted, so a runaway structure cannot overflow the stack.
const MAX_DEPTH: usize = 64;

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

/// Converts a Lua value to plain data. `root` names the value in errors (`save.my_mod`,
/// `field 'hp'`).
pub fn from_lua(value: &mlua::Value, root: &str) -> Result<Value, ConvertError> {
    let mut path = vec![root.to_owned()];
    let mut visiting = Vec::new();
    convert(value, &mut path, &mut visiting)
}

fn convert(
    value: &mlua::Value,
    path: &mut Vec<String>,
    visiting: &mut Vec<*const std::ffi::c_void>,
) -> Result<Value, ConvertError> {
    let fail = |path: &[String], what: String, advice| ConvertError {
        path: path.concat(),
        what,
        advice,
    };
    Ok(match value {
        mlua::Value::Nil => Value::Nil,
        mlua::Value::Boolean(b) => Value::Bool(*b),
        mlua::Value::Integer(i) => Value::Int(*i),
        mlua::Value::Number(x) => Value::Float(*x),
        mlua::Value::String(s) => match s.to_str() {
            Ok(s) => Value::Str(Arc::from(&*s)),
            Err(_) => {
                return Err(fail(
                    path,
                    "a string that is not UTF-8".into(),
                    "use UTF-8 text",
                ));
            }
        },
        mlua::Value::Table(table) if is_handle(table) => {
            return Err(fail(
                path,
                "a map object or map".into(),
                "store its uid (obj.uid) and find it again with World.object(uid) or Map.get(uid)",
            ));
        }
        mlua::Value::Table(table) => {
            let pointer = table.to_pointer();
            if visiting.contains(&pointer) {
                return Err(fail(
                    path,
                    "a table that contains itself".into(),
                    "break the cycle; store ids instead of references",
                ));
            }
            if visiting.len() >= MAX_DEPTH {
                return Err(fail(
                    path,
                    format!("tables nested over {MAX_DEPTH} deep"),
                    "flatten the data",
                ));
            }
            visiting.push(pointer);
            let result = convert_table(table, path, visiting);
            visiting.pop();
            result?
        }
        mlua::Value::Function(_) => {
            return Err(fail(
                path,
                "a function".into(),
                "fields and save data hold plain data only; keep functions in prototypes or mod code",
            ));
        }
        other => {
            return Err(fail(
                path,
                format!("a {}", other.type_name()),
                "use nil, booleans, numbers, strings and tables",
            ));
        }
    })
}

/// True for object and map handles, whose metatables are named "object" and "map".
fn is_handle(table: &Table) -> bool {
    table
        .metatable()
        .and_then(|meta| meta.raw_get::<Option<String>>("__name").ok().flatten())
        .is_some_and(|name| name == "object" || name == "map")
}

fn convert_table(
    table: &Table,
    path: &mut Vec<String>,
    visiting: &mut Vec<*const std::ffi::c_void>,
) -> Result<Value, ConvertError> {
    let len = table.raw_len();
    let mut entries: Vec<(Key, Value)> = Vec::new();
    let mut is_sequence = len > 0;
    for pair in table.pairs::<mlua::Value, mlua::Value>() {
        let (key, item) = pair.map_err(|e| ConvertError {
            path: path.concat(),
            what: format!("a table that could not be read ({e})"),
            advice: "use a plain table",
        })?;
        let key = match key {
            mlua::Value::Integer(i) => Key::Int(i),
            mlua::Value::Number(x) if x.fract() == 0.0 && x.abs() < 9.0e15 => Key::Int(x as i64),
            mlua::Value::String(s) => match s.to_str() {
                Ok(s) => Key::Str(Arc::from(&*s)),
                Err(_) => {
                    return Err(ConvertError {
                        path: path.concat(),
                        what: "a key that is not UTF-8".into(),
                        advice: "use UTF-8 keys",
                    });
                }
            },
            other => {
                return Err(ConvertError {
                    path: path.concat(),
                    what: format!("a table key of type {}", other.type_name()),
                    advice: "use integer or string keys",
                });
            }
        };
        if !matches!(key, Key::Int(i) if i >= 1 && i as usize <= len) {
            is_sequence = false;
        }
        path.push(match &key {
            Key::Int(i) => format!("[{i}]"),
            Key::Str(s) if crate::value::is_identifier(s) => format!(".{s}"),
            Key::Str(s) => format!("[{s:?}]"),
        });
        let item = convert(&item, path, visiting);
        path.pop();
        entries.push((key, item?));
    }
    if is_sequence && entries.len() == len {
        entries.sort_by(|a, b| a.0.cmp(&b.0));
        return Ok(Value::list(entries.into_iter().map(|(_, v)| v).collect()));
    }
    Ok(Value::Map(Arc::new(
        entries.into_iter().collect::<BTreeMap<_, _>>(),
    )))
}

/// Converts plain data to a fresh Lua value (tables are new tables).
pub fn to_lua(lua: &Lua, value: &Value) -> mlua::Result<mlua::Value> {
    Ok(match value {
        Value::Nil => mlua::Value::Nil,
        Value::Bool(b) => mlua::Value::Boolean(*b),
        Value::Int(i) => mlua::Value::Integer(*i),
        Value::Float(x) => mlua::Value::Number(*x),
        Value::Str(s) => mlua::Value::String(lua.create_string(&**s)?),
        Value::List(items) => {
            let table = lua.create_table_with_capacity(items.len(), 0)?;
            for (i, item) in items.iter().enumerate() {
                table.raw_set(i + 1, to_lua(lua, item)?)?;
            }
            mlua::Value::Table(table)
        }
        Value::Map(map) => {
            let table = lua.create_table_with_capacity(0, map.len())?;
            for (key, item) in map.iter() {
                match key {
                    Key::Int(i) => table.raw_set(*i, to_lua(lua, item)?)?,
                    Key::Str(s) => table.raw_set(&**s, to_lua(lua, item)?)?,
                }
            }
            mlua::Value::Table(table)
        }
    })
}
