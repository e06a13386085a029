//! Typed params that prototypes declare and callers give: a map generator's
//! (`Map.generate(id, params, seed)`) and a feat's (`Feat.create(id, x, y, { params = ... })`,
//! kept as `feat.params`). A schema names each param with `{ type = "int" | "float" | "bool"
//! | "string", default = ..., min = ..., max = ... }`; a param without a default must be given.
//! As in OpenNefia, a param may instead be one of `types`' checkers (`dest_x = types.uint`), or
//! give one as its type (`{ type = types.data_id("elona.material_spot_feat_info"), default = ...
//! }`): the value is checked with it and refused in its words.

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
        if let Some(value) = checked_by_checker(lua, owner, &name, &spec, value.clone())? {
            params.set(name, value)?;
            continue;
        }
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

/// A param declared by one of `types`' checkers (the spec itself, or its `type`): its value
/// (the spec's `default` when not given and the checker is its `type`), checked with OpenNefia's
/// `Object.copy_params` words. None for a param declared by a type name.
fn checked_by_checker(
    lua: &Lua,
    owner: &str,
    name: &str,
    spec: &Table,
    value: mlua::Value,
) -> mlua::Result<Option<mlua::Value>> {
    let (checker, value, wrong) = if super::schema::is_checker(lua, spec)? {
        (spec.clone(), value, "received invalid value for")
    } else {
        match spec.get::<mlua::Value>("type")? {
            mlua::Value::Table(checker) if super::schema::is_checker(lua, &checker)? => match value {
                mlua::Value::Nil => (checker, spec.get("default")?, "is missing required"),
                given => (checker, given, "received invalid value for"),
            },
            _ => return Ok(None),
        }
    };
    match super::schema::check(lua, value.clone(), &checker)? {
        None => Ok(Some(value)),
        Some(problem) => Err(rt_error(
            lua,
            format!("{owner} {wrong} parameter '{name}': {problem}\ngive params.{name} a value its checker takes"),
        )),
    }
}
