//! A data type's validators: rules across a prototype's fields that no one field's type can
//! say (a character's `hp` at most its `max_hp`), declared with the type:
//!
//! ```lua
//! data:add_type {
//!    name = "chara",
//!    fields = { ... },
//!    validators = {
//!       {
//!          fields = { "hp", "max_hp" },
//!          doc = "A character starts with at most its max_hp.",
//!          validate = function(chara)
//!             return chara.hp <= chara.max_hp, ("hp (%d) is more than max_hp (%d)"):format(chara.hp, chara.max_hp)
//!          end,
//!       },
//!    },
//! }
//! ```
//!
//! `validate` is given the prototype as objects read it (its type's defaults filled in, its
//! functions and other keys through `__index`) and returns `ok, message`; `fields` names the
//! fields the rule is about (where the Data pane shows its message), `doc` what it asks.
//!
//! A validator reads; it does not change the game (the random numbers it draws are put back).
//! A prototype that breaks a rule still loads, and a form edit that breaks one is written: the
//! problem is reported — the Problems pane, beside the Data pane's form, `nefia check` — as a
//! warning is. A rule across fields is often broken on the way between two edits (lower `hp`,
//! then `max_hp`), so refusing the first would make the user edit in the one order the rule
//! allows, or in the file by hand.

use mlua::{Lua, Table};
use nefia_protocol::checks::PrototypeProblem;

use super::rt_error;
use nefia_game::data::FieldDecl;
use nefia_game::symbol::Symbol;

/// The registry key of the validators: data type id → list of `{ fields = {...}, doc = "...",
/// validate = function }`.
const VALIDATORS: &str = "nefia.data_validators";

/// The table of validators by data type, made on first use.
fn validators(lua: &Lua) -> mlua::Result<Table> {
    if let Ok(table) = lua.named_registry_value::<Table>(VALIDATORS) {
        return Ok(table);
    }
    let table = lua.create_table()?;
    lua.set_named_registry_value(VALIDATORS, &table)?;
    Ok(table)
}

/// Reads the `validators` of data type `id`'s declaration `spec` (whose declared fields are
/// `fields`) and keeps them: each a table with a `validate` function, an optional `doc` and
/// an optional list of the declared `fields` it is about. A type declared again without any
/// has none.
pub fn declare(lua: &Lua, id: Symbol, spec: &Table, fields: &[FieldDecl]) -> mlua::Result<()> {
    let kept = lua.create_table()?;
    let list = match spec.get::<mlua::Value>("validators")? {
        mlua::Value::Nil => None,
        mlua::Value::Table(list) => Some(list),
        other => {
            return Err(rt_error(
                lua,
                format!(
                    "Data type {id}: validators is a list of {{ validate = function(proto) ... end }}, not the {} given",
                    other.type_name()
                ),
            ));
        }
    };
    for (index, rule) in list.iter().flat_map(|l| l.sequence_values::<mlua::Value>()).enumerate() {
        let place = format!("Data type {id}: validator {}", index + 1);
        let mlua::Value::Table(rule) = rule? else {
            return Err(rt_error(
                lua,
                format!("{place} is not a table: give {{ validate = function(proto) ... end }}"),
            ));
        };
        let Some(validate) = rule.get::<Option<mlua::Function>>("validate")? else {
            return Err(rt_error(
                lua,
                format!("{place} has no validate function: give validate = function(proto) return ok, message end"),
            ));
        };
        let named = lua.create_table()?;
        for name in rule.get::<Option<Vec<String>>>("fields")?.unwrap_or_default() {
            if !fields.iter().any(|f| f.name.as_str() == name) {
                return Err(rt_error(
                    lua,
                    format!("{place} names field '{name}', which {id} does not declare: name one of its fields"),
                ));
            }
            named.raw_push(name)?;
        }
        let checked = lua.create_table()?;
        checked.raw_set("validate", validate)?;
        checked.raw_set("fields", named)?;
        checked.raw_set("doc", rule.get::<Option<String>>("doc")?)?;
        kept.raw_push(checked)?;
    }
    let table = validators(lua)?;
    match kept.raw_len() {
        0 => table.raw_set(id.as_str(), mlua::Value::Nil),
        _ => table.raw_set(id.as_str(), kept),
    }
}

/// The data types that declare validators.
pub fn validated_types(lua: &Lua) -> mlua::Result<Vec<Symbol>> {
    let mut types = Vec::new();
    for pair in validators(lua)?.pairs::<String, mlua::Value>() {
        types.push(Symbol::intern(&pair?.0));
    }
    Ok(types)
}

/// Runs the validators of `data_type` on its prototype `id`: the rules it breaks. A validator
/// that raises an error is reported as a problem of the prototype, with the error.
pub fn check(lua: &Lua, data_type: Symbol, id: Symbol) -> mlua::Result<Vec<PrototypeProblem>> {
    let Some(rules) = validators(lua)?.raw_get::<Option<Table>>(data_type.as_str())? else {
        return Ok(Vec::new());
    };
    let proto = as_read(lua, data_type, id)?;
    // A validator runs when the data changes, between the game's turns too: the numbers it
    // draws are not the game's.
    let engine = super::engine(lua);
    let game_rng = engine.world.borrow().rng.clone();
    let problems = run(&rules, data_type, &proto);
    engine.world.borrow_mut().rng = game_rng;
    problems
}

/// Runs each rule of `rules` (a type's validators, as [`declare`] kept them) on `proto`, a
/// prototype of `data_type` as [`as_read`] gives it.
fn run(rules: &Table, data_type: Symbol, proto: &Table) -> mlua::Result<Vec<PrototypeProblem>> {
    let mut problems = Vec::new();
    for rule in rules.sequence_values::<Table>() {
        let rule = rule?;
        let validate: mlua::Function = rule.raw_get("validate")?;
        let fields: Vec<Symbol> = rule.raw_get::<Vec<String>>("fields")?.iter().map(|f| Symbol::intern(f)).collect();
        let doc: Option<String> = rule.raw_get("doc")?;
        let message = match validate.call::<(mlua::Value, Option<String>)>(proto) {
            Ok((ok, _)) if !matches!(ok, mlua::Value::Nil | mlua::Value::Boolean(false)) => continue,
            Ok((_, message)) => message.or(doc).unwrap_or_else(|| format!("it breaks a rule of {data_type}")),
            Err(error) => {
                let error = crate::error::failure(error).message;
                format!("the validator \"{}\" failed: {error}", doc.as_deref().unwrap_or("(no doc)"))
            }
        };
        problems.push(PrototypeProblem { fields, message });
    }
    Ok(problems)
}

/// Prototype `id` of `data_type` as objects read it: a fresh table of its fields with the
/// type's defaults filled in, `_id` and `_type`, and the table given to `data:add` (functions,
/// keys the type does not declare) behind it as `__index`.
fn as_read(lua: &Lua, data_type: Symbol, id: Symbol) -> mlua::Result<Table> {
    let table = lua.create_table()?;
    let engine = super::engine(lua);
    {
        let world = engine.world.borrow();
        let index = world.data.find_symbol(data_type, id).map_err(|e| rt_error(lua, e))?;
        for (name, value) in world.data.proto(index).fields.iter() {
            table.raw_set(name.as_str(), super::convert::to_lua(lua, value)?)?;
        }
    }
    table.raw_set("_id", id.as_str())?;
    table.raw_set("_type", data_type.as_str())?;
    let given =
        engine.data_tables_of(data_type.as_str())?.map(|t| t.raw_get::<mlua::Value>(id.as_str())).transpose()?;
    if let Some(mlua::Value::Table(given)) = given {
        let meta = lua.create_table()?;
        meta.raw_set("__index", given)?;
        table.set_metatable(Some(meta))?;
    }
    Ok(table)
}
