//! Typed params that prototypes declare and callers give: a map generator's
//! (`Map.generate(id, params, seed)`) and a feat's (`Feat.create(id, x, y, { params = ... })`,
//! kept as `feat.params`). A schema names each param with `{ type = "int" | "float" | "bool"
//! | "string", default = ..., min = ..., max = ... }`; a param without a default must be given.

use mlua::{Lua, Table};

use super::rt_error;

/// `given` checked against `schema` and completed with its defaults; `owner` names who
/// declares them in messages (`Map.generate('elona.cave')`, `base.feat 'elona.stairs_down'`).
/// Unknown params, wrong types, values out of bounds and missing required ones are refused in
/// OpenNefia's words (its mods' tests match them), with Nefia's advice on a line of its own.
pub fn checked_params(lua: &Lua, owner: &str, schema: Option<Table>, given: Option<Table>) -> mlua::Result<Table> {
    let params = lua.create_table()?;
    let schema = match schema {
        Some(schema) => schema,
        None => lua.create_table()?,
    };
    let mut names = Vec::new();
    for pair in schema.pairs::<String, Table>() {
        let (name, spec) = pair?;
        names.push(name.clone());
        let value = match &given {
            Some(given) => given.get::<mlua::Value>(name.as_str())?,
            None => mlua::Value::Nil,
        };
        let value = if value.is_nil() { spec.get::<mlua::Value>("default")? } else { value };
        let kind: String = spec.get::<Option<String>>("type")?.unwrap_or_else(|| "float".into());
        let invalid = format!("{owner} received invalid value for parameter '{name}'");
        let ok = match (kind.as_str(), &value) {
            ("int" | "float" | "bool" | "string", mlua::Value::Nil) => {
                return Err(rt_error(
                    lua,
                    format!(
                        "{owner} is missing required parameter '{name}': Value is not of type \"{kind}\": nil\n\
                         give it in params ({name} = ...), or declare a default"
                    ),
                ));
            }
            ("int", mlua::Value::Integer(_)) | ("float", mlua::Value::Integer(_) | mlua::Value::Number(_)) => true,
            ("bool", mlua::Value::Boolean(_)) | ("string", mlua::Value::String(_)) => true,
            ("int" | "float" | "bool" | "string", _) => false,
            (other, _) => {
                return Err(rt_error(
                    lua,
                    format!("{owner}: param '{name}' has type '{other}': use int, float, bool or string"),
                ));
            }
        };
        if !ok {
            let shown = super::inspect::inspect(&value, 0);
            return Err(rt_error(
                lua,
                format!(
                    "{invalid}: Value is not of type \"{kind}\": {shown}\na {kind} is wanted, not a {}",
                    value.type_name()
                ),
            ));
        }
        let number = match value {
            mlua::Value::Integer(i) => Some(i as f64),
            mlua::Value::Number(x) => Some(x),
            _ => None,
        };
        if let Some(number) = number {
            let (min, max) = (spec.get::<Option<f64>>("min")?, spec.get::<Option<f64>>("max")?);
            if min.is_some_and(|min| number < min) || max.is_some_and(|max| number > max) {
                let bound = |b: Option<f64>| b.map_or_else(|| "…".to_owned(), |b| b.to_string());
                return Err(rt_error(lua, format!("{invalid}: {number} is outside {}..{}", bound(min), bound(max))));
            }
        }
        params.set(name, value)?;
    }
    if let Some(given) = given {
        for pair in given.pairs::<mlua::Value, mlua::Value>() {
            let (key, _) = pair?;
            let key = key.to_string()?;
            if !names.contains(&key) {
                names.sort();
                let known = if names.is_empty() {
                    "it takes none".to_owned()
                } else {
                    format!("its params: {}", names.join(", "))
                };
                return Err(rt_error(lua, format!("{owner} does not accept parameter '{key}'\n{known}")));
            }
        }
    }
    Ok(params)
}
