//! `Event`: named events with prioritized handlers.
//!
//! `Event.register(event_id, name, fn, { priority = n })` binds a handler; handlers run by
//! ascending priority (default 100000), ties by name, and are called as
//! `fn(receiver, params, result)`. A handler's non-nil return becomes the next `result`; the
//! last one is what `Event.trigger(id, params, result)` returns (`result` the one it starts
//! from, as OpenNefia's). Event ids are entries of `base.event`.
//! Handlers remember the file that registered them, so hotload can replace or drop exactly
//! the handlers of a reloaded file.

use mlua::{Function, Lua, Table};

use super::handlers::{DEFAULT_PRIORITY, Handler};
use super::{caller_origin, engine, rt_error};
use nefia_game::symbol::Symbol;

/// `event` as a symbol, if it is a declared `base.event`; else an error saying how to
/// declare it.
pub(super) fn check_event(lua: &Lua, event: &str) -> mlua::Result<Symbol> {
    let engine = engine(lua);
    let world = engine.world.borrow();
    match world.data.find(Symbol::intern("base.event"), event) {
        Ok(_) => Ok(Symbol::intern(event)),
        Err(_) => Err(rt_error(
            lua,
            format!(
                "Unknown event type \"{event}\"\ndeclare it with data:add{{ _type = \"base.event\", _id = ... }} or check the spelling"
            ),
        )),
    }
}

/// Calls the handlers of `event` in order with `receiver` and `params` (the receiver's own
/// too, if it is an object: see [`super::object_events`]); returns the final result.
pub fn trigger(lua: &Lua, event: Symbol, receiver: mlua::Value, params: Table) -> mlua::Result<mlua::Value> {
    trigger_from(lua, event, receiver, params, mlua::Value::Nil)
}

/// [`trigger`] starting from result `result` (what it returns if no handler returns one).
pub fn trigger_from(
    lua: &Lua,
    event: Symbol,
    receiver: mlua::Value,
    params: Table,
    result: mlua::Value,
) -> mlua::Result<mlua::Value> {
    run_handlers(lua, event, receiver, Some(params), result)
}

/// [`trigger`] with empty params, made only if a handler can see them (see
/// [`Handler::sees_params`]): the events every object sends when it is made or refreshed
/// leave no garbage for handlers that take the receiver only.
pub fn trigger_without_params(lua: &Lua, event: Symbol, receiver: mlua::Value) -> mlua::Result<mlua::Value> {
    run_handlers(lua, event, receiver, None, mlua::Value::Nil)
}

/// Calls the handlers of `event` in order; `params` none: an empty table, made when the first
/// handler that can see it runs.
fn run_handlers(
    lua: &Lua,
    event: Symbol,
    receiver: mlua::Value,
    mut params: Option<Table>,
    mut result: mlua::Value,
) -> mlua::Result<mlua::Value> {
    let engine = engine(lua);
    let handlers = super::handlers::handlers_for(&engine, event, &receiver);
    for handler in handlers.iter() {
        let params = match &params {
            _ if !handler.sees_params => mlua::Value::Nil,
            Some(params) => mlua::Value::Table(params.clone()),
            None => mlua::Value::Table(params.insert(lua.create_table()?).clone()),
        };
        let key = || nefia_protocol::profile::ProfileKey {
            kind: nefia_protocol::profile::ProfileKind::Handler,
            name: format!("{event} · {}", handler.name),
            at: handler.origin.to_string(),
        };
        let returned: mlua::Value = engine
            .profiler
            .scope(key, || engine.debugger.call(&handler.func, (receiver.clone(), params, result.clone())))?;
        if !returned.is_nil() {
            result = returned;
        }
    }
    Ok(result)
}

/// Installs `Event` into `api`.
pub fn install(lua: &Lua, api: &Table) -> mlua::Result<()> {
    let event = lua.create_table()?;
    event.set(
        "register",
        lua.create_function(|lua, (event, name, func, options): (String, String, Function, Option<Table>)| {
            let engine = engine(lua);
            let event = check_event(lua, &event)?;
            let priority = match &options {
                Some(options) => options.get::<Option<i64>>("priority")?.unwrap_or(DEFAULT_PRIORITY),
                None => DEFAULT_PRIORITY,
            };
            let handler = Handler::new(name, priority, func, caller_origin(lua, &engine));
            let on_duplicate = engine.on_duplicate.get();
            engine.events.borrow_mut().register(event, handler, on_duplicate).map_err(|e| rt_error(lua, e))
        })?,
    )?;
    event.set(
        "unregister",
        lua.create_function(|lua, (event, name): (String, String)| {
            let event = check_event(lua, &event)?;
            Ok(engine(lua).events.borrow_mut().unregister(event, &name))
        })?,
    )?;
    event.set(
        "trigger",
        lua.create_function(|lua, (event, params, result): (String, Option<Table>, mlua::Value)| {
            let event = check_event(lua, &event)?;
            let params = match params {
                Some(params) => params,
                None => lua.create_table()?,
            };
            trigger_from(lua, event, mlua::Value::Nil, params, result)
        })?,
    )?;
    event.set(
        "list",
        lua.create_function(|lua, event: String| {
            let event = check_event(lua, &event)?;
            let handlers = engine(lua).events.borrow().handlers(event);
            let list = lua.create_table()?;
            for (i, handler) in handlers.iter().enumerate() {
                let entry = lua.create_table()?;
                entry.set("name", handler.name.as_str())?;
                entry.set("priority", handler.priority)?;
                entry.set("source", handler.origin.to_string())?;
                list.raw_set(i + 1, entry)?;
            }
            Ok(list)
        })?,
    )?;
    api.set("Event", event)?;
    Ok(())
}
