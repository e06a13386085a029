//! `Debug.watch`, `Debug.unwatch`, `Debug.watches`: watchpoints on object fields, and what
//! happens when one fires.
//!
//! The world notices changes of watched fields and queues them (`runtime/game/src/world/watches.rs`).
//! Each engine function that writes fields for Lua (`obj.hp = v`, `mod`, `mod_base`,
//! `reset`, `refresh`) hands the queue to [`deliver`] before it returns, while the line that
//! called it is still on the stack; the host does the same after each command for the
//! writes Rust made itself (an inspector edit, a hotload, undo), naming the operation.
//! [`deliver`] tests each watch's condition, counts the hit and then, for a breaking watch,
//! pauses exactly as `pause()` does, at that line, with a header saying what changed:
//! `watch: uid 12 (elona.putit) hp 6 → 5 at mods/elona/game/rules.lua:88`. With no editor
//! and no terminal break (`nefia run` without `--break`) it prints that line and goes on.
//! A collecting watch ("When did this change?") only notes the change.

use nefia_protocol::watch::FieldChange;
use std::cell::{OnceCell, RefCell};

use mlua::{Function, Lua, Table};
use rustc_hash::FxHashMap;

use super::convert::to_lua;
use super::handle::object_arg;
use super::{engine, rt_error};
use nefia_game::display::LogLevel;
use nefia_game::object::Uid;
use nefia_game::symbol::Symbol;
use nefia_game::value::Value;
use nefia_game::world::{WatchAction, WatchHit, WatchId, WatchWhen, World, WorldError};
use nefia_protocol::output::Output;

/// The Lua side of the watches: their conditions, the function that pauses at the writing
/// line, and the changes collecting watches noted.
#[derive(Default)]
pub struct WatchLink {
    conditions: RefCell<FxHashMap<WatchId, Function>>,
    pause_writer: OnceCell<Function>,
    /// What collecting watches noted, oldest first.
    pub changes: RefCell<Vec<FieldChange>>,
}

impl WatchLink {
    /// Keeps the function from `pause.lua` that pauses the nearest Lua function up the stack.
    pub(crate) fn set_pause_writer(&self, function: Function) {
        // Set once, when the REPL is installed.
        let _ = self.pause_writer.set(function);
    }
}

/// Who made the changes being delivered.
#[derive(Clone, Copy, Debug)]
pub enum Writer<'a> {
    /// The Lua code that called the engine function now running.
    Lua,
    /// An operation of the engine or the editor, by name ("inspector edit").
    Rust(&'a str),
}

/// The object and field of a hit, as watch lines name them: `uid 12 (elona.putit) hp`.
fn describe(world: &World, uid: Uid, field: Symbol) -> String {
    match world.object(uid) {
        Ok(object) => format!("uid {uid} ({}) {field}", object.id),
        Err(_) => format!("uid {uid} {field}"),
    }
}

/// `file:line` of the nearest Lua function up the stack (past the engine's C functions).
fn writing_line(lua: &Lua) -> Option<String> {
    (0..64).find_map(|level| {
        lua.inspect_stack(level, |debug| {
            let source = debug.source();
            (source.what != "C").then(|| {
                let file = source.short_src.as_deref().unwrap_or("?").to_owned();
                format!("{file}:{}", debug.current_line().unwrap_or(0))
            })
        })
        .flatten()
    })
}

/// What an engine function that wrote fields for Lua returns: its `result`, once the
/// watched changes it made are delivered (see [`deliver`]).
pub fn after_write<T>(lua: &Lua, result: mlua::Result<T>) -> mlua::Result<T> {
    let value = result?;
    deliver(lua, Writer::Lua)?;
    Ok(value)
}

/// Reports the watched changes made since the last delivery (see the module's text).
/// Errors are those of pausing (the editor closing, Stop pressed while paused).
pub fn deliver(lua: &Lua, writer: Writer) -> mlua::Result<()> {
    let engine = engine(lua);
    let hits = engine.world.borrow_mut().take_watch_hits();
    if hits.is_empty() {
        return Ok(());
    }
    let at = match writer {
        Writer::Lua => writing_line(lua).unwrap_or_else(|| "the engine".into()),
        Writer::Rust(operation) => operation.to_owned(),
    };
    for hit in hits {
        let Some(action) = fires(lua, &hit)? else { continue };
        let (turn, what) = {
            let mut world = engine.world.borrow_mut();
            world.count_watch_hit(hit.watch);
            (world.turn, describe(&world, hit.uid, hit.field))
        };
        match action {
            WatchAction::Collect => engine.watch.changes.borrow_mut().push(FieldChange {
                turn,
                uid: hit.uid,
                field: hit.field,
                old: hit.old,
                new: hit.new,
                at: at.clone(),
            }),
            WatchAction::Break => stop_for(lua, format!("watch: {what} {} → {} at {at}", hit.old, hit.new), writer)?,
        }
    }
    Ok(())
}

/// The action of the hit's watch if it fires: it is still set and its condition, if any,
/// holds. A condition that fails is reported and taken as false — unless it was interrupted
/// (the time limit, Stop): that ends the script as it does everywhere else.
fn fires(lua: &Lua, hit: &WatchHit) -> mlua::Result<Option<WatchAction>> {
    let engine = engine(lua);
    let Some(action) = engine.world.borrow().watches().get(hit.watch).map(|w| w.action) else { return Ok(None) };
    let condition = engine.watch.conditions.borrow().get(&hit.watch).cloned();
    let Some(condition) = condition else { return Ok(Some(action)) };
    let (old, new) = (to_lua(lua, &hit.old)?, to_lua(lua, &hit.new)?);
    match condition.call::<mlua::Value>((old, new)) {
        Ok(answer) => Ok(answer.as_boolean().unwrap_or(!answer.is_nil()).then_some(action)),
        Err(error) => {
            if let Some(reason) = engine.limits.interrupted() {
                return Err(mlua::Error::runtime(reason));
            }
            super::gui::log(lua, LogLevel::Error, format!("the condition of watch {} failed: {error}", hit.watch));
            Ok(None)
        }
    }
}

/// A breaking watch fired, or an invariant failed: pause at the writing line (or in a chunk
/// named after the Rust operation), or, with nothing to pause into, print `message`.
pub(crate) fn stop_for(lua: &Lua, message: String, writer: Writer) -> mlua::Result<()> {
    let engine = engine(lua);
    let can_break = engine.frontend.borrow().is_some() || engine.repl.borrow().terminal_breaks;
    if !can_break {
        engine.emit(Output::Print(message));
        return Ok(());
    }
    super::gui::log(lua, LogLevel::Info, message.clone());
    engine.repl.borrow_mut().next_reason = Some(message);
    let paused = match writer {
        Writer::Lua => match engine.watch.pause_writer.get() {
            Some(pause_writer) => pause_writer.call::<()>(()),
            None => Ok(()),
        },
        Writer::Rust(operation) => {
            let env = engine.repl.borrow().env.clone();
            lua.load("pause()").set_name(format!("={operation}")).set_environment(env).call::<()>(())
        }
    };
    engine.repl.borrow_mut().next_reason = None;
    paused
}

/// Sets a watch from the editor ("Break when it changes", "… when it becomes").
pub fn watch_from_editor(lua: &Lua, uid: Uid, field: Symbol, becomes: Option<Value>) -> Result<WatchId, WorldError> {
    let when = becomes.map_or(WatchWhen::Changes, WatchWhen::Becomes);
    let engine = engine(lua);
    let mut world = engine.world.borrow_mut();
    world.object(uid)?;
    Ok(world.watch(uid, field, when, WatchAction::Break))
}

/// Removes watch `id` and its condition; false if there is none.
pub fn unwatch(lua: &Lua, id: WatchId) -> bool {
    let engine = engine(lua);
    engine.watch.conditions.borrow_mut().remove(&id);
    engine.world.borrow_mut().unwatch(id)
}

/// Installs `Debug`: the watches, `Debug.profile(on)` to turn the turn profiler on or off,
/// and `Debug.profile_scope(name, fn, ...)`, which calls `fn(...)` as a profiler entry of its
/// own (the demo's AI turn is one).
pub fn install(lua: &Lua, api: &Table) -> mlua::Result<()> {
    let debug = lua.create_table()?;
    debug.set(
        "watch",
        lua.create_function(|lua, (object, field, condition): (mlua::Value, mlua::Value, mlua::Value)| {
            let engine = engine(lua);
            let uid = object_arg(lua, &engine, &object, "Debug.watch's first argument")?;
            let mlua::Value::String(field) = field else {
                return Err(rt_error(
                    lua,
                    format!("Debug.watch needs a field name as its second argument, not a {}", field.type_name()),
                ));
            };
            let condition = match condition {
                mlua::Value::Nil => None,
                mlua::Value::Function(f) => Some(f),
                other => {
                    return Err(rt_error(
                        lua,
                        format!(
                            "Debug.watch's condition must be a function(old, new) returning true to stop, not a {}",
                            other.type_name()
                        ),
                    ));
                }
            };
            let field = Symbol::intern(&field.to_str()?);
            let id = engine.world.borrow_mut().watch(uid, field, WatchWhen::Changes, WatchAction::Break);
            if let Some(condition) = condition {
                engine.world.borrow_mut().set_watch_condition(id);
                engine.watch.conditions.borrow_mut().insert(id, condition);
            }
            Ok(id)
        })?,
    )?;
    debug.set(
        "unwatch",
        lua.create_function(|lua, id: mlua::Value| {
            let id = super::convert::whole_number(lua, &id, "the watch id", 1..=i64::from(WatchId::MAX))?;
            Ok(WatchId::try_from(id).is_ok_and(|id| unwatch(lua, id)))
        })?,
    )?;
    debug.set(
        "watches",
        lua.create_function(|lua, ()| {
            let engine = engine(lua);
            let list = lua.create_table()?;
            let world = engine.world.borrow();
            for watch in world.watches().list() {
                let entry = lua.create_table()?;
                entry.set("id", watch.id)?;
                entry.set("uid", watch.uid.0)?;
                entry.set("field", watch.field.as_str())?;
                entry.set("hits", watch.hits)?;
                entry.set("enabled", watch.enabled)?;
                if let WatchWhen::Becomes(value) = &watch.when {
                    entry.set("becomes", to_lua(lua, value)?)?;
                }
                if let Some(condition) = engine.watch.conditions.borrow().get(&watch.id) {
                    entry.set("condition", condition)?;
                }
                list.push(entry)?;
            }
            Ok(list)
        })?,
    )?;
    debug.set(
        "profile",
        lua.create_function(|lua, on: bool| {
            let engine = engine(lua);
            let turn = engine.world.borrow().turn;
            engine.profiler.set_on(on, turn);
            Ok(())
        })?,
    )?;
    debug.set(
        "profile_scope",
        lua.create_function(|lua, (name, work, args): (String, Function, mlua::MultiValue)| {
            let engine = engine(lua);
            let key = || nefia_protocol::profile::ProfileKey {
                kind: nefia_protocol::profile::ProfileKind::Script,
                name,
                at: writing_line(lua).unwrap_or_default(),
            };
            engine.profiler.scope(key, || work.call::<mlua::MultiValue>(args))
        })?,
    )?;
    api.set("Debug", debug)?;
    Ok(())
}
