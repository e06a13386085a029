//! Invariants: what must hold after every turn, as data. A mod declares one with
//! `data:add { _type = "base.invariant", _id = "hp_within_max", doc = "...", check =
//! function(world) ... end }`; `check` returns true, or false and a message naming the object.
//! The engine's own (`mods/base`) check the world's bookkeeping (every object where its holder
//! lists it, no uid twice, every uid below the next) and the player; the demo's content adds its
//! rules' (hp never above max_hp, amounts of at least 1).
//!
//! `World.check_invariants()` runs them all and returns the failures; `nefia replay
//! --invariants` and `nefia test --invariants` run them after every turn and stop at the first
//! failure, naming the invariant, the turn and the message; with the editor's toggle
//! (`DebugCommand::CheckInvariants`) every turn of play runs them, and the first failure stops
//! the game like a watch.

use mlua::{Lua, Table};

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

/// Runs every `base.invariant`'s check, in id order, under the time limit; returns those that
/// failed (a check that raises an error fails with it).
pub fn check_all(lua: &Lua) -> mlua::Result<Vec<InvariantFailure>> {
    let Some(entries) = super::data::prototype_tables(lua, "base.invariant")? else { return Ok(Vec::new()) };
    let mut invariants: Vec<(String, Table)> = Vec::new();
    for pair in entries.pairs::<String, Table>() {
        invariants.push(pair?);
    }
    invariants.sort_by(|a, b| a.0.cmp(&b.0));
    let world: mlua::Value = engine(lua).api.raw_get("World")?;
    let mut failures = Vec::new();
    for (id, entry) in invariants {
        let Some(check) = entry.raw_get::<Option<mlua::Function>>("check")? else {
            failures.push(InvariantFailure { id, message: "it has no check function".into() });
            continue;
        };
        let outcome = engine(lua).limits.run(|| check.call::<(mlua::Value, Option<String>)>(world.clone()));
        match outcome {
            Ok((mlua::Value::Boolean(true), _)) => {}
            Ok((_, message)) => {
                failures.push(InvariantFailure { id, message: message.unwrap_or_else(|| "it does not hold".into()) })
            }
            Err(error) => failures.push(InvariantFailure { id, message: super::LuaFailure::from(error).message }),
        }
    }
    Ok(failures)
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
        lua.create_function(|lua, ()| match engine(lua).world.borrow().check_invariants() {
            Ok(()) => Ok((true, None)),
            Err(wrong) => Ok((false, Some(wrong))),
        })?,
    )?;
    Ok(())
}
