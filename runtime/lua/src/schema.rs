//! Data types' field schemas: OpenNefia's `{ name, type, default, template, doc }` declarations
//! read from `data:add_type`, and the one place a field's value is checked against its type —
//! a prototype given to `data:add`, and every edit of an object's field (the Inspector, the
//! remote protocol, the debug adapter, the Data pane).
//!
//! The checkers are `types`' (`types.lua`) and stay in Lua, kept in the registry by data
//! type and field; [`FieldType`] is their shape for what must know a type without Lua. A
//! refusal is OpenNefia's message (`Value is not of type "uint": "max_hp" (-1)`). An edit's
//! value is also held to the prototypes loaded: an id must name one of its field's type.

use mlua::{Lua, Table};

use super::convert::to_lua;
use super::rt_error;
use nefia_game::data::FieldDecl;
use nefia_game::field_type::{FieldType, WriteCheck};
use nefia_game::references::FieldValueError;
use nefia_game::symbol::Symbol;
use nefia_game::value::Value;

/// The registry key of the checkers: data type id → `{ decls = { {name, checker, nil_ok} ... },
/// by_name = { name → decl }, strict = bool }`, the shape `types.lua`'s `check_declared` reads.
const CHECKERS: &str = "nefia.field_checkers";

/// The registry key of `types.lua`'s `check_declared`, which checks a prototype's declared
/// fields in one call.
const CHECK_DECLARED: &str = "nefia.check_declared";

/// The table of checkers `types.lua` is given, made on first use.
pub(super) fn checkers(lua: &Lua) -> mlua::Result<Table> {
    if let Ok(table) = lua.named_registry_value::<Table>(CHECKERS) {
        return Ok(table);
    }
    let table = lua.create_table()?;
    lua.set_named_registry_value(CHECKERS, &table)?;
    Ok(table)
}

/// Keeps `types.lua`'s `check_declared` for [`check_entry`] and [`check_value`].
pub fn install(lua: &Lua, check_declared: mlua::Function) -> mlua::Result<()> {
    lua.set_named_registry_value(CHECK_DECLARED, check_declared)
}

/// Runs `check_declared` on `entry` as data type `data_type` (only field `only`, if given):
/// `Some(problem)` for the first field refused.
fn check_declared(lua: &Lua, entry: &Table, data_type: &str, only: Option<&str>) -> mlua::Result<Option<String>> {
    lua.named_registry_value::<mlua::Function>(CHECK_DECLARED)?.call((entry, data_type, only))
}

/// The engine's `types` library.
fn types_library(lua: &Lua) -> mlua::Result<Table> {
    let api = &super::engine(lua).api;
    api.raw_get("types")
}

/// Reads the field declarations of data type `id` from `data:add_type`'s `fields`, checking
/// each default against its type, with their checkers (put in use by [`Checkers::keep`]); `strict`
/// types refuse fields they do not declare (OpenNefia's default; Nefia's is permissive).
pub fn declare(lua: &Lua, id: Symbol, spec: &Table) -> mlua::Result<(Vec<FieldDecl>, Checkers)> {
    let types = types_library(lua)?;
    let check: mlua::Function = types.raw_get("check")?;
    let decl_list = lua.create_table()?;
    let by_name = lua.create_table()?;
    let mut fields = Vec::new();
    let decls = spec.get::<Option<Table>>("fields")?.map_or_else(|| lua.create_table(), Ok)?;
    for (index, decl) in decls.sequence_values::<Table>().enumerate() {
        let decl = decl?;
        let name: String = decl.get::<Option<String>>("name")?.ok_or_else(|| {
            rt_error(lua, format!("Data type {id}: missing field name (index {}): give it a 'name'", index + 1))
        })?;
        if fields.iter().any(|f: &FieldDecl| f.name.as_str() == name) {
            return Err(rt_error(lua, format!("Data type {id}: duplicate field name '{name}' (index {})", index + 1)));
        }
        let checker = match decl.get::<mlua::Value>("type")? {
            mlua::Value::Nil => types.raw_get::<Table>("any")?,
            mlua::Value::Table(checker) if is_checker(lua, &checker)? => checker,
            _ => {
                return Err(rt_error(
                    lua,
                    format!(
                        "Data type {id}: invalid type specified for field named '{name}': use one of types' checkers, \
                         such as types.uint or types.optional(types.string)"
                    ),
                ));
            }
        };
        let default_lua = decl.get::<mlua::Value>("default")?;
        if !default_lua.is_nil() {
            let (ok, problem): (bool, Option<String>) = check.call((&default_lua, &checker))?;
            if !ok {
                let problem = problem.unwrap_or_default();
                return Err(rt_error(
                    lua,
                    format!("Data type {id}: invalid default value for field '{name}': '{problem}'"),
                ));
            }
        }
        let default = super::convert::from_lua(lua, &default_lua, &format!("{id}.{name}.default"))
            .map_err(|e| rt_error(lua, e))?;
        let checked = lua.create_table()?;
        checked.raw_set("name", name.as_str())?;
        checked.raw_set("checker", &checker)?;
        // Nil is fine for a field with a default or of a type that takes nil: a prototype
        // leaving it unset is not checked.
        let takes_nil = check.call::<bool>((mlua::Value::Nil, &checker))?;
        checked.raw_set("nil_ok", !default_lua.is_nil() || takes_nil)?;
        decl_list.raw_push(&checked)?;
        by_name.raw_set(name.as_str(), checked)?;
        fields.push(FieldDecl {
            name: Symbol::intern(&name),
            default,
            doc: decl.get::<Option<String>>("doc")?.unwrap_or_default(),
            ty: shape(lua, &checker)?,
            write: write_check(&checker)?,
            type_name: lua.globals().get::<mlua::Function>("tostring")?.call(&checker)?,
            template: decl.get::<Option<bool>>("template")?.unwrap_or(false),
        });
    }
    let strict = match spec.get::<Option<String>>("validation")?.as_deref() {
        None | Some("permissive") => false,
        Some("strict") => true,
        Some(other) => {
            return Err(rt_error(
                lua,
                format!("Data type {id}: validation is \"strict\" or \"permissive\", not \"{other}\""),
            ));
        }
    };
    let checked = lua.create_table()?;
    checked.raw_set("decls", decl_list)?;
    checked.raw_set("by_name", by_name)?;
    checked.raw_set("strict", strict)?;
    Ok((fields, Checkers(checked)))
}

/// A data type's checkers as [`declare`] read them, for `types.lua`, put in use by
/// [`Checkers::keep`] once the type is added: a type refused after [`declare`] leaves the
/// checkers in use as they were, matching the registry's declarations.
pub struct Checkers(Table);

impl Checkers {
    /// Puts these checkers of data type `id` in use.
    pub fn keep(self, lua: &Lua, id: Symbol) -> mlua::Result<()> {
        checkers(lua)?.raw_set(id.as_str(), self.0)
    }
}

/// Whether `table` is one of `types`' checkers.
pub(super) fn is_checker(lua: &Lua, table: &Table) -> mlua::Result<bool> {
    let is: mlua::Function = types_library(lua)?.raw_get("is_type_checker")?;
    is.call::<bool>(table)
}

/// `value` checked with `checker` (`types.check`): nil, or OpenNefia's message
/// (`Value is not of type "int": "x"`).
pub(super) fn check(lua: &Lua, value: mlua::Value, checker: &Table) -> mlua::Result<Option<String>> {
    let check: mlua::Function = types_library(lua)?.raw_get("check")?;
    let (ok, message): (bool, Option<String>) = check.call((value, checker))?;
    Ok(if ok { None } else { Some(message.unwrap_or_default()) })
}

/// What a value written to a field of type `checker` must surely be to skip the checker: the
/// checkers whose test Rust makes exactly (`types.lua`'s `simple` and `bounded` kinds over
/// numbers), and anything else [`WriteCheck::Judge`]. `optional` adds nil, which the fast
/// write never sees.
fn write_check(checker: &Table) -> mlua::Result<WriteCheck> {
    let number = |integers, floats| WriteCheck::Number { integers, floats, low: None, high: None };
    let kind: String = checker.get("kind")?;
    Ok(match kind.as_str() {
        "any" => WriteCheck::Any,
        "boolean" => WriteCheck::Boolean,
        "string" | "path" | "locale_id" | "require_path" => WriteCheck::String,
        "number" => number(true, true),
        "int" => number(true, false),
        "float" => number(false, true),
        "optional" => write_check(&checker.get("checker")?)?,
        "gt" | "gteq" | "lt" | "lteq" | "range" => bounded(checker, &kind)?.unwrap_or(WriteCheck::Judge),
        _ => WriteCheck::Judge,
    })
}

/// [`write_check`] of a bound (`kind`: `gt`, `gteq`, `lt`, `lteq` or `range`) on a number
/// checker; `None` (judged) for a bound that is not a number an f64 holds exactly, a second
/// bound on the same side, or a bound on anything else.
fn bounded(checker: &Table, kind: &str) -> mlua::Result<Option<WriteCheck>> {
    let WriteCheck::Number { integers, floats, mut low, mut high } = write_check(&checker.get("checker")?)? else {
        return Ok(None);
    };
    let bound = |key: &str| {
        checker.get::<mlua::Value>(key).map(|bound| match bound {
            mlua::Value::Integer(n) => i32::try_from(n).ok().map(f64::from),
            bound => bound.as_number(),
        })
    };
    let set = |side: &mut Option<(f64, bool)>, key: &str, allowed: bool| -> mlua::Result<bool> {
        let Some(value) = bound(key)? else { return Ok(false) };
        Ok(side.replace((value, allowed)).is_none())
    };
    let read = match kind {
        "gt" => set(&mut low, "comp", false)?,
        "gteq" => set(&mut low, "comp", true)?,
        "lt" => set(&mut high, "comp", false)?,
        "lteq" => set(&mut high, "comp", true)?,
        _ => set(&mut low, "min", true)? && set(&mut high, "max", true)?,
    };
    Ok(read.then_some(WriteCheck::Number { integers, floats, low, high }))
}

/// The shape of `checker` (see [`FieldType`]).
fn shape(lua: &Lua, checker: &Table) -> mlua::Result<FieldType> {
    // Read with `get`: a checker a mod names is often the sandbox's read-only view of one.
    if checker.get::<Option<bool>>("color")? == Some(true) {
        return Ok(FieldType::Color);
    }
    let inner = |key: &str| -> mlua::Result<Box<FieldType>> { Ok(Box::new(shape(lua, &checker.get(key)?)?)) };
    let each = |key: &str| -> mlua::Result<Vec<FieldType>> {
        let list: Table = checker.get(key)?;
        (1..=list.len()?).map(|i| shape(lua, &list.get(i)?)).collect()
    };
    let kind: String = checker.get("kind")?;
    Ok(match kind.as_str() {
        "any" => FieldType::Any,
        "boolean" => FieldType::Boolean,
        "number" | "float" => FieldType::Number { integer: false, min: None, max: None },
        "int" => FieldType::Number { integer: true, min: None, max: None },
        "gt" | "gteq" | "lt" | "lteq" | "range" => match *inner("checker")? {
            FieldType::Number { integer, min, max } => {
                let bound = |key: &str| checker.get::<Option<f64>>(key);
                let (min, max) = match kind.as_str() {
                    "gt" | "gteq" => (bound("comp")?.or(min), max),
                    "lt" | "lteq" => (min, bound("comp")?.or(max)),
                    _ => (bound("min")?.or(min), bound("max")?.or(max)),
                };
                FieldType::Number { integer, min, max }
            }
            other => other,
        },
        "string" | "identifier" | "data_type_id" | "path" | "locale_id" | "require_path" => FieldType::String,
        "data_id" => FieldType::DataId { data_type: checker.get("_type")? },
        "literal" => FieldType::OneOf { values: plain_values(lua, checker.get("literals")?)? },
        "enum" => {
            let enum_table: Table = checker.get("enum")?;
            let values: Table = enum_table.get::<mlua::Function>("values")?.call(&enum_table)?;
            FieldType::OneOf { values: plain_values(lua, values)? }
        }
        "optional" => FieldType::Optional { of: inner("checker")? },
        "list" => FieldType::List { of: inner("checker")? },
        "map" => FieldType::Map { key: inner("key_checker")?, value: inner("value_checker")? },
        "keys" => FieldType::Map { key: inner("checker")?, value: Box::new(FieldType::Any) },
        "values" => FieldType::Map { key: Box::new(FieldType::Any), value: inner("checker")? },
        "fields" | "fields_strict" => {
            let mut fields = Vec::new();
            for pair in checker.get::<Table>("fields")?.pairs::<String, Table>() {
                let (name, field) = pair?;
                fields.push((name, shape(lua, &field)?));
            }
            fields.sort_by(|a, b| a.0.cmp(&b.0));
            FieldType::Fields { fields }
        }
        "tuple" => FieldType::Tuple { of: each("checkers")? },
        // Choices of choices are one choice (`relation`: a literal or an `Enum.Relation` value).
        "some" => match each("checkers")? {
            of if of.iter().all(|t| matches!(t, FieldType::OneOf { .. })) => FieldType::OneOf {
                values: of
                    .into_iter()
                    .flat_map(|t| if let FieldType::OneOf { values } = t { values } else { Vec::new() })
                    .collect(),
            },
            of => FieldType::Some { of },
        },
        "all" => each("checkers")?.into_iter().next().unwrap_or_default(),
        // A file name, or a table the engine reads as art (lua/images.rs).
        "image" => FieldType::Some { of: vec![FieldType::String, FieldType::Table] },
        "function" | "callback" => FieldType::Function,
        "table" | "data_entry" => FieldType::Table,
        _ => FieldType::Opaque,
    })
}

/// The plain values of a Lua sequence (literals, an enum's variants), read through views.
fn plain_values(lua: &Lua, list: Table) -> mlua::Result<Vec<Value>> {
    (1..=list.len()?)
        .map(|i| super::convert::from_lua(lua, &list.get(i)?, "a literal").map_err(|e| rt_error(lua, e)))
        .collect()
}

/// Checks prototype `entry` of data type `data_type` (its full id `id`) as `data:add` is
/// given it: every declared field it sets (or leaves nil without a default) against its type,
/// and for a strict type no field it does not declare. The refusal is OpenNefia's
/// `Validation for data entry 'base.chara:elona.putit' failed: ...`.
pub fn check_entry(lua: &Lua, data_type: Symbol, id: Symbol, entry: &Table) -> mlua::Result<()> {
    match check_declared(lua, entry, data_type.as_str(), None)? {
        None => Ok(()),
        Some(problem) => Err(rt_error(lua, format!("Validation for data entry '{data_type}:{id}' failed: {problem}"))),
    }
}

/// Checks `value` for field `field` of data type `data_type`: `Ok` for a field the type does
/// not declare (objects keep fields of their own), else OpenNefia's message for a value its
/// checker refuses (`Value is not of type "uint": "hp" ("lots")`), or for an id in it that
/// names no prototype of the type its `data_id` wants (`elona.putit is a base.chara, not a
/// base.map_tile`; see [`nefia_game::references`]). Every edit path asks this before anything
/// changes; nil (the object's own value removed) is always allowed.
pub fn check_value(lua: &Lua, data_type: &str, field: &str, value: &Value) -> Result<(), FieldValueError> {
    if *value == Value::Nil {
        // An object's own value removed: its prototype's shows again.
        return Ok(());
    }
    let judge = || -> mlua::Result<Option<String>> {
        let holder = lua.create_table()?;
        holder.raw_set(field, to_lua(lua, value)?)?;
        check_declared(lua, &holder, data_type, Some(field))
    };
    match judge() {
        Ok(None) => {}
        Ok(Some(problem)) => return Err(FieldValueError::Type(problem)),
        Err(error) => return Err(FieldValueError::Unchecked(error.to_string())),
    }
    check_references(lua, data_type, field, value)
}

/// Checks the prototype ids in `value` (of field `field` of `data_type`) against the loaded
/// prototypes: each must name one of the type its field's `data_id` wants.
fn check_references(lua: &Lua, data_type: &str, field: &str, value: &Value) -> Result<(), FieldValueError> {
    let engine = super::engine(lua);
    let world = engine.world.borrow();
    let Some(decl) =
        world.data.data_type(data_type).ok().and_then(|t| t.fields.iter().find(|d| d.name.as_str() == field))
    else {
        return Ok(());
    };
    nefia_game::references::check(&world.data, &decl.ty, value).map_err(|(within, error)| match within.as_str() {
        "" => FieldValueError::Reference(error),
        within => FieldValueError::ReferenceWithin { at: format!("{field}{within}"), error },
    })
}
