//! Invariants: what must hold after every turn, as data. A mod declares one with
//! `data:add { _type = "base.invariant", _id = "hp_within_max", doc = "...", check =
//! function(world) ... end }`; `check` returns true, or false and a message naming the object.
//! The engine's own (`mods/base`) check the world's bookkeeping (every object where its holder
//! lists it, no uid twice, every uid below the next) and the player; the demo's content adds its
//! rules' (hp never above max_hp, amounts of at least 1).
//!
//! One declared for `each` object of a data type (`each = "base.chara", fields = { "hp",
//! "max_hp" }, check = function(chara) ... end`) runs on the objects the world's change log
//! (`runtime/game/src/world/changes.rs`) names — made, moved elsewhere, or one of its `fields` written
//! since the last check — so checking after every turn costs what the turn changed; with
//! the log off (a check now and then), on every object of the type.
//!
//! `World.check_invariants()` runs them all and returns the failures; `nefia replay
//! --invariants` and `nefia test --invariants` run them after every turn and stop at the first
//! failure, naming the invariant, the turn and the message; with the editor's toggle
//! (`DebugCommand::CheckInvariants`) every turn of play runs them, and the first failure stops
//! the game like a watch.

use mlua::{Lua, Table};
use nefia_protocol::checks::{InvariantStatus, LastCheck};

use nefia_game::object::{ObjectKind, Uid};
use nefia_game::symbol::Symbol;
use nefia_game::world::World;

use super::engine;

/// An invariant that did not hold.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct InvariantFailure {
    /// The invariant's id (`elona.hp_within_max`).
    pub id: String,
    /// What its check said (or the error it raised).
    pub message: String,
}

impl std::fmt::Display for InvariantFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "invariant {} failed: {}", self.id, self.message)
    }
}

/// Every declared invariant with what its last check found, in id order.
pub fn statuses(lua: &Lua) -> mlua::Result<Vec<InvariantStatus>> {
    let Some(entries) = super::data::prototype_tables(lua, "base.invariant")? else { return Ok(Vec::new()) };
    let checks = engine(lua).play.invariant_checks.borrow().clone();
    let mut statuses = Vec::new();
    for pair in entries.pairs::<String, Table>() {
        let (id, entry) = pair?;
        let doc = entry.raw_get::<Option<String>>("doc").ok().flatten().unwrap_or_default();
        let each = entry.raw_get::<Option<String>>("each").ok().flatten();
        let last = checks.get(&id).cloned();
        statuses.push(InvariantStatus { id, doc, each, last });
    }
    statuses.sort_by(|a, b| a.id.cmp(&b.id));
    Ok(statuses)
}

/// Runs every `base.invariant`'s check, in id order, under the time limit; returns those that
/// failed (a check that raises an error fails with it). One declared `each` object of a data
/// type runs on the objects of that type the world's change log names (every one of them
/// when the log is off or the world was replaced), in uid order, and fails at the first
/// object that breaks it.
pub fn check_all(lua: &Lua) -> mlua::Result<Vec<InvariantFailure>> {
    let Some(entries) = super::data::prototype_tables(lua, "base.invariant")? else { return Ok(Vec::new()) };
    let mut invariants: Vec<(String, Table)> = Vec::new();
    for pair in entries.pairs::<String, Table>() {
        invariants.push(pair?);
    }
    invariants.sort_by(|a, b| a.0.cmp(&b.0));
    let engine = engine(lua);
    engine.world.borrow_mut().begin_check();
    let ids: Vec<String> = invariants.iter().map(|(id, _)| id.clone()).collect();
    let failures = check_each(lua, invariants);
    engine.world.borrow_mut().end_check();
    if let Ok(failures) = &failures {
        let turn = engine.world.borrow().turn;
        let mut checks = engine.play.invariant_checks.borrow_mut();
        for id in ids {
            let failure = failures.iter().find(|f| f.id == id).map(|f| f.message.clone());
            checks.insert(id, LastCheck { turn, failure });
        }
    }
    failures
}

/// Runs `invariants` within a check the world began (see [`check_all`]).
fn check_each(lua: &Lua, invariants: Vec<(String, Table)>) -> mlua::Result<Vec<InvariantFailure>> {
    let engine = engine(lua);
    let world: mlua::Value = engine.api.raw_get("World")?;
    let mut failures = Vec::new();
    for (id, entry) in invariants {
        let Some(check) = entry.raw_get::<Option<mlua::Function>>("check")? else {
            failures.push(InvariantFailure { id, message: "it has no check function".into() });
            continue;
        };
        let outcome = match per_object(&entry) {
            Ok(None) => verdict(engine.limits.run(|| check.call(world.clone()))),
            Ok(Some((kind, fields))) => {
                let uids = to_check(&engine.world.borrow(), kind, &fields);
                uids.into_iter().find_map(|uid| {
                    let object = match super::handle::push_object(lua, uid) {
                        Ok(object) => object,
                        Err(error) => return Some(crate::error::failure(error).message),
                    };
                    let message = verdict(engine.limits.run(|| check.call(&object)))?;
                    let name = engine.world.borrow().object(uid).map(|o| format!("uid {uid} ({})", o.id));
                    Some(format!("{}: {message}", name.unwrap_or_else(|_| format!("uid {uid}"))))
                })
            }
            Err(declaration) => Some(declaration.to_string()),
        };
        if let Some(message) = outcome {
            failures.push(InvariantFailure { id, message });
        }
    }
    Ok(failures)
}

/// What a check's call came to: `None` if it held, else why not.
fn verdict(outcome: mlua::Result<(mlua::Value, Option<String>)>) -> Option<String> {
    match outcome {
        Ok((mlua::Value::Boolean(true), _)) => None,
        Ok((_, message)) => Some(message.unwrap_or_else(|| "it does not hold".into())),
        Err(error) => Some(crate::error::failure(error).message),
    }
}

/// What is wrong with the `each` or `fields` of an invariant's declaration.
#[derive(Debug, thiserror::Error)]
enum InvariantDeclarationError {
    /// Its table could not be read.
    #[error("{0}")]
    Unreadable(#[from] mlua::Error),
    /// `each` is not a string.
    #[error("its `each` is a {0}; give a data type such as \"base.chara\"")]
    EachNotAString(&'static str),
    /// `each` names no data type of map objects.
    #[error(
        "its `each` names {0:?}, not a data type of map objects ({kinds})",
        kinds = ObjectKind::ALL.map(|k| k.data_type()).join(", ")
    )]
    EachNotAKind(String),
    /// `fields` lists something other than names.
    #[error("its `fields` must list field names (strings), such as {{ \"hp\", \"max_hp\" }}")]
    FieldNotAName,
    /// `fields` is not a list.
    #[error("its `fields` is a {0}; give a list of field names")]
    FieldsNotAList(&'static str),
}

/// The kind of object and the fields of an invariant declared `each` object (`None` for one
/// of the whole world), or what is wrong with its declaration.
fn per_object(entry: &Table) -> Result<Option<(ObjectKind, Vec<Symbol>)>, InvariantDeclarationError> {
    let each = match entry.raw_get::<mlua::Value>("each")? {
        mlua::Value::Nil => return Ok(None),
        mlua::Value::String(each) => each.to_string_lossy(),
        other => return Err(InvariantDeclarationError::EachNotAString(other.type_name())),
    };
    let Some(kind) = ObjectKind::from_data_type(&each) else {
        return Err(InvariantDeclarationError::EachNotAKind(each));
    };
    let fields = match entry.raw_get::<mlua::Value>("fields")? {
        mlua::Value::Nil => Vec::new(),
        mlua::Value::Table(list) => {
            let mut fields = Vec::new();
            for name in list.sequence_values::<mlua::Value>() {
                match name {
                    Ok(mlua::Value::String(name)) => fields.push(Symbol::intern(&name.to_string_lossy())),
                    _ => return Err(InvariantDeclarationError::FieldNotAName),
                }
            }
            fields
        }
        other => return Err(InvariantDeclarationError::FieldsNotAList(other.type_name())),
    };
    Ok(Some((kind, fields)))
}

/// The live objects of `kind` an invariant reading `fields` must look at in the check under
/// way, in uid order.
fn to_check(world: &World, kind: ObjectKind, fields: &[Symbol]) -> Vec<Uid> {
    let mut uids: Vec<Uid> = match world.checking() {
        None => world.all_objects().filter(|o| o.kind == kind).map(|o| o.uid).collect(),
        Some(changes) => changes
            .objects
            .iter()
            .filter(|(uid, change)| change.touches(fields) && world.object(**uid).is_ok_and(|o| o.kind == kind))
            .map(|(uid, _)| *uid)
            .collect(),
    };
    uids.sort_unstable();
    uids
}

/// Has every turn of play check the invariants (the editor's toggle), or not; on, the world
/// logs what changes so the invariants of each object look only at that.
pub fn check_every_turn(lua: &Lua, on: bool) {
    let engine = engine(lua);
    engine.play.check_invariants.set(on);
    engine.world.borrow_mut().log_changes(on);
}

/// After turn `turn` of play, if the invariants are to be checked (the editor's toggle): the
/// first that fails stops the game like a watch, at the line that ended the turn, naming the
/// invariant and its message.
pub fn after_turn(lua: &Lua, turn: u64) -> mlua::Result<()> {
    let engine = engine(lua);
    if !engine.play.check_invariants.get() || !engine.play.playing.get() {
        return Ok(());
    }
    match check_all(lua)?.into_iter().next() {
        Some(failure) => {
            super::watch::stop_for(lua, format!("after turn {turn}, {failure}"), super::watch::Writer::Lua)
        }
        None => Ok(()),
    }
}

/// Adds `World.check_invariants()` (the failures, each `{ id = ..., message = ... }`) and
/// `World.check_bookkeeping()` (the engine's own: true, or false and what is wrong) to `world`.
pub fn install(lua: &Lua, world: &Table) -> mlua::Result<()> {
    world.set(
        "check_invariants",
        lua.create_function(|lua, ()| {
            let failures = check_all(lua)?;
            let list = lua.create_table()?;
            for failure in failures {
                let entry = lua.create_table()?;
                entry.set("id", failure.id)?;
                entry.set("message", failure.message)?;
                list.push(entry)?;
            }
            Ok(list)
        })?,
    )?;
    world.set(
        "check_bookkeeping",
        lua.create_function(|lua, ()| match engine(lua).world.borrow().check_bookkeeping() {
            Ok(()) => Ok((true, None)),
            Err(wrong) => Ok((false, Some(wrong.to_string()))),
        })?,
    )?;
    Ok(())
}
