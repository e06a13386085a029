//! `Event`: named events with prioritized handlers.
//!
//! `Event.register(event_id, name, fn, { priority = n })` binds a handler; handlers run by
//! ascending priority (default 100000), ties by name, and are called as
//! `fn(receiver, params, result)`. A handler's non-nil return becomes the next `result`; the
//! last one is what `Event.trigger` returns. Event ids are entries of `base.event`.
//! Handlers remember the file that registered them, so hotload can replace or drop exactly
//! the handlers of a reloaded file.

use std::rc::Rc;

use mlua::{Function, Lua, Table};
use rustc_hash::FxHashMap;

use super::{caller_origin, engine, rt_error};
use crate::game::data::OnDuplicate;
use crate::game::moddable::Origin;
use crate::game::symbol::Symbol;

/// The priority of a handler registered without one.
pub const DEFAULT_PRIORITY: i64 = 100_000;

/// One bound handler.
#[derive(Clone)]
pub struct Handler {
    /// Its name, unique per event.
    pub name: String,
    /// Lower runs first.
    pub priority: i64,
    /// The Lua function.
    pub func: Function,
    /// Where it was registered.
    pub origin: Origin,
    /// Whether the function can see an event's params (it takes two parameters or more, or
    /// any number): a `function(chara)` handler cannot, and is passed nil in their place.
    pub sees_params: bool,
}

impl Handler {
    /// A handler of `func`.
    pub fn new(name: String, priority: i64, func: Function, origin: Origin) -> Handler {
        let info = func.info();
        let sees_params = info.is_vararg || info.num_params >= 2;
        Handler { name, priority, func, origin, sees_params }
    }
}

/// Every event's handlers, kept sorted. Cloning is cheap (the lists are shared).
#[derive(Clone, Default)]
pub struct EventRegistry {
    handlers: FxHashMap<Symbol, Rc<[Handler]>>,
}

impl EventRegistry {
    /// True if `event` has any handler.
    pub fn has_handlers(&self, event: Symbol) -> bool {
        self.handlers.get(&event).is_some_and(|h| !h.is_empty())
    }

    /// The handlers of `event` in calling order.
    pub fn handlers(&self, event: Symbol) -> Rc<[Handler]> {
        self.handlers.get(&event).cloned().unwrap_or_else(|| Rc::from([]))
    }

    /// Every event with handlers, and its handlers.
    pub fn all(&self) -> impl Iterator<Item = (Symbol, &[Handler])> {
        self.handlers.iter().map(|(e, h)| (*e, &**h))
    }

    /// Binds a handler. A name already bound is an error unless `on_duplicate` replaces it.
    pub fn register(&mut self, event: Symbol, handler: Handler, on_duplicate: OnDuplicate) -> Result<(), String> {
        let mut list: Vec<Handler> = self.handlers(event).to_vec();
        if let Some(existing) = list.iter().position(|h| h.name == handler.name) {
            if on_duplicate == OnDuplicate::Error {
                return Err(format!(
                    "a handler named '{}' is already registered for '{event}' (at {}); pick another name or Event.unregister it first",
                    handler.name, list[existing].origin
                ));
            }
            list.remove(existing);
        }
        list.push(handler);
        list.sort_by(|a, b| a.priority.cmp(&b.priority).then_with(|| a.name.cmp(&b.name)));
        self.handlers.insert(event, Rc::from(list));
        Ok(())
    }

    /// Unbinds the handler `name` of `event`. Returns false if there was none.
    pub fn unregister(&mut self, event: Symbol, name: &str) -> bool {
        let list: Vec<Handler> = self.handlers(event).iter().filter(|h| h.name != name).cloned().collect();
        let removed = list.len() != self.handlers(event).len();
        self.handlers.insert(event, Rc::from(list));
        removed
    }

    /// Unbinds every handler registered from `file` for which `keep` is false.
    pub fn retain(&mut self, mut keep: impl FnMut(Symbol, &Handler) -> bool) {
        for (event, list) in self.handlers.iter_mut() {
            let kept: Vec<Handler> = list.iter().filter(|h| keep(*event, h)).cloned().collect();
            if kept.len() != list.len() {
                *list = Rc::from(kept);
            }
        }
    }
}

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
    let handlers = super::object_events::handlers_for(&engine, event, &receiver);
    for handler in handlers.iter() {
        let params = match &params {
            _ if !handler.sees_params => mlua::Value::Nil,
            Some(params) => mlua::Value::Table(params.clone()),
            None => mlua::Value::Table(params.insert(lua.create_table()?).clone()),
        };
        let key = || super::profile::ProfileKey {
            kind: super::profile::ProfileKind::Handler,
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
        lua.create_function(|lua, (event, params): (String, Option<Table>)| {
            let event = check_event(lua, &event)?;
            let params = match params {
                Some(params) => params,
                None => lua.create_table()?,
            };
            trigger(lua, event, mlua::Value::Nil, params)
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
