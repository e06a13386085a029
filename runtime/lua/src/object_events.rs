//! Per-object events (OpenNefia's IEventEmitter): handlers an object has of its own, beside
//! the global ones of `Event.register`.
//!
//! - `obj:connect_self(event_id, name, fn[, opts])` binds a handler to this object only
//!   (`opts` is a priority, or `{ priority = n }`); `obj:disconnect_self(event_id, name)`
//!   unbinds it (true if there was one); `obj:has_event_handler(event_id[, name])` asks;
//!   `obj:compare_events(other)` says whether two objects have the same handlers (as
//!   OpenNefia's stacking asks), or names the first that differs.
//! - A prototype's `events = { { id = ..., name = ..., callback = fn, priority = n }, ... }`
//!   gives every object of it those handlers; one connected with the same name takes its
//!   place. Changing an object's prototype changes these, and keeps the connected ones. A
//!   hotload that drops some leaves them to the objects it had, as OpenNefia does.
//! - Whenever an event is triggered with an object as its receiver — `obj:emit(event_id,
//!   params, result)`, or the engine's own events such as a refresh — the object's handlers
//!   run with the global ones, by priority: its own below the default priority (100000)
//!   first, then the global handlers, then its own at or above it. `result` is the starting
//!   result; each non-nil return replaces it.
//! - As in OpenNefia, connected handlers are not saved (they are functions): a loaded game
//!   has only its prototypes' handlers. A clone starts with none of its own.

use mlua::{Function, Lua, Table};

use super::handlers::{DEFAULT_PRIORITY, DuplicateHandler, EventRegistry, Handler};
use super::{Engine, caller_origin, engine, rt_error};
use nefia_game::data::OnDuplicate;
use nefia_game::object::Uid;
use nefia_game::symbol::Symbol;

/// Takes the handlers prototype `id` (of data type `data_type`) gives its objects from its
/// `data:add` entry: its `events` list and its callback fields (see [`prototype_callbacks`]).
/// A hotload that drops some of them leaves them to the prototype's objects (see
/// [`keep_dropped_handlers`]).
pub fn prototype_added(lua: &Lua, engine: &Engine, data_type: Symbol, id: Symbol, entry: &Table) -> mlua::Result<()> {
    let mut registry = EventRegistry::default();
    if let Some(list) = entry.get::<Option<Table>>("events")? {
        prototype_events(lua, engine, id, list, &mut registry)?;
    }
    prototype_callbacks(lua, engine, data_type, entry, &mut registry)?;
    let has_none = registry.all().all(|(_, handlers)| handlers.is_empty());
    let old = match has_none {
        true => engine.object_events.borrow_mut().prototypes.remove(&id),
        false => engine.object_events.borrow_mut().prototypes.insert(id, registry),
    };
    if let Some(old) = old
        && engine.on_duplicate.get() == OnDuplicate::Replace
    {
        keep_dropped_handlers(engine, id, &old).map_err(|e| rt_error(lua, e))?;
    }
    Ok(())
}

/// Adds the handlers a prototype of data type `data_type` gives by its callback fields, as
/// OpenNefia's elona_sys connects them: a `base.event` declared with `prototype_callback = {
/// type = "base.item", field = "on_use" }` makes a function in that field of a prototype of
/// that type (`on_use = function(item, params, result) ... end`) a handler of the event for
/// each of its objects, named "base.item prototype on_use handler". Being the prototype's,
/// it follows `change_prototype`, saves and map loads as `events` do. The event is declared
/// first: a mod whose prototypes give such callbacks depends on the mod declaring it.
fn prototype_callbacks(
    lua: &Lua,
    engine: &Engine,
    data_type: Symbol,
    entry: &Table,
    registry: &mut EventRegistry,
) -> mlua::Result<()> {
    let Some(events) = engine.data_tables.raw_get::<Option<Table>>("base.event")? else { return Ok(()) };
    let origin = caller_origin(lua, engine);
    for pair in events.pairs::<String, Table>() {
        let (event, declaration) = pair?;
        let callback = match declaration.raw_get::<mlua::Value>("prototype_callback")? {
            mlua::Value::Nil => continue,
            mlua::Value::Table(callback) => callback,
            _ => return Err(bad_callback_declaration(lua, &event)),
        };
        let (Ok(Some(kind)), Ok(Some(field))) =
            (callback.get::<Option<String>>("type"), callback.get::<Option<String>>("field"))
        else {
            return Err(bad_callback_declaration(lua, &event));
        };
        if kind != data_type.as_str() {
            continue;
        }
        if let mlua::Value::Function(func) = entry.raw_get::<mlua::Value>(field.as_str())? {
            let handler =
                Handler::new(format!("{kind} prototype {field} handler"), DEFAULT_PRIORITY, func, origin.clone());
            registry.register(Symbol::intern(&event), handler, OnDuplicate::Error).map_err(|e| rt_error(lua, e))?;
        }
    }
    Ok(())
}

/// The error for event `event`'s malformed `prototype_callback`.
fn bad_callback_declaration(lua: &Lua, event: &str) -> mlua::Error {
    rt_error(
        lua,
        format!(
            "base.event '{event}': prototype_callback must be {{ type = \"base.item\", field = \"on_use\" }}, \
             naming the data type and the field of its prototypes that holds the callback"
        ),
    )
}

/// As in OpenNefia, whose hotload connects a prototype's events to each of its objects and
/// never disconnects them: the handlers a hotload drops from prototype `id`'s events (`old`
/// were its events before) stay with each of its existing objects, as handlers of their own
/// (not saved, like any connected one); a handler an object connected itself stays as it is.
fn keep_dropped_handlers(engine: &Engine, id: Symbol, old: &EventRegistry) -> Result<(), DuplicateHandler> {
    let mut own = engine.object_events.borrow_mut();
    let kept = |event: Symbol, name: &str| {
        own.prototypes.get(&id).is_some_and(|new| new.handlers(event).iter().any(|h| h.name == name))
    };
    let dropped: Vec<(Symbol, Handler)> = old
        .all()
        .flat_map(|(event, handlers)| handlers.iter().map(move |h| (event, h)))
        .filter(|(event, handler)| !kept(*event, &handler.name))
        .map(|(event, handler)| (event, handler.clone()))
        .collect();
    if dropped.is_empty() {
        return Ok(());
    }
    let objects: Vec<Uid> = engine.world.borrow().all_objects().filter(|o| o.id == id).map(|o| o.uid).collect();
    for uid in objects {
        let registry = own.connected.entry(uid).or_default();
        for (event, handler) in &dropped {
            if !registry.handlers(*event).iter().any(|h| h.name == handler.name) {
                registry.register(*event, handler.clone(), OnDuplicate::Error)?;
            }
        }
    }
    Ok(())
}

/// Adds prototype `id`'s `events` list, checked, to `registry`.
fn prototype_events(
    lua: &Lua,
    engine: &Engine,
    id: Symbol,
    list: Table,
    registry: &mut EventRegistry,
) -> mlua::Result<()> {
    let origin = caller_origin(lua, engine);
    for (index, item) in list.sequence_values::<mlua::Value>().enumerate() {
        let bad = || {
            rt_error(
                lua,
                format!(
                    "events[{}] of '{id}' must be {{ id = \"an event id\", name = \"...\", callback = function(obj, params, result) ... end[, priority = n] }}",
                    index + 1
                ),
            )
        };
        let mlua::Value::Table(item) = item? else { return Err(bad()) };
        let (Ok(Some(event)), Ok(Some(name)), Ok(Some(func))) = (
            item.get::<Option<String>>("id"),
            item.get::<Option<String>>("name"),
            item.get::<Option<Function>>("callback"),
        ) else {
            return Err(bad());
        };
        let priority = item.get::<Option<i64>>("priority").map_err(|_| bad())?.unwrap_or(DEFAULT_PRIORITY);
        let handler = Handler::new(name, priority, func, origin.clone());
        registry.register(Symbol::intern(&event), handler, OnDuplicate::Error).map_err(|e| rt_error(lua, e))?;
    }
    Ok(())
}

/// The priority `opts` gives: a number, or a table with `priority`.
fn priority_of(lua: &Lua, opts: Option<mlua::Value>) -> mlua::Result<i64> {
    match opts {
        None | Some(mlua::Value::Nil) => Ok(DEFAULT_PRIORITY),
        Some(mlua::Value::Integer(n)) => Ok(n),
        Some(mlua::Value::Table(t)) => Ok(t.get::<Option<i64>>("priority")?.unwrap_or(DEFAULT_PRIORITY)),
        Some(other) => Err(rt_error(
            lua,
            format!("connect_self: opts must be a priority or {{ priority = n }}, not a {}", other.type_name()),
        )),
    }
}

/// Adds `connect_self`, `disconnect_self`, `has_event_handler`, `compare_events` and `emit`
/// to the object methods table `methods`.
pub fn add_methods(lua: &Lua, methods: &Table) -> mlua::Result<()> {
    methods.raw_set(
        "connect_self",
        lua.create_function(
            |lua, (this, event, name, func, opts): (Table, String, String, Function, Option<mlua::Value>)| {
                let engine = engine(lua);
                let uid = super::handle::live_object(lua, &engine, &this)?;
                let event = super::event::check_event(lua, &event)?;
                let handler = Handler::new(name, priority_of(lua, opts)?, func, caller_origin(lua, &engine));
                let mut own = engine.object_events.borrow_mut();
                let registry = own.connected.entry(uid).or_default();
                registry.register(event, handler, engine.on_duplicate.get()).map_err(|e| rt_error(lua, e))
            },
        )?,
    )?;
    methods.raw_set(
        "disconnect_self",
        lua.create_function(|lua, (this, event, name): (Table, String, String)| {
            let engine = engine(lua);
            let uid = super::handle::live_object(lua, &engine, &this)?;
            let event = super::event::check_event(lua, &event)?;
            let mut own = engine.object_events.borrow_mut();
            let removed = own.connected.get_mut(&uid).is_some_and(|r| r.unregister(event, &name));
            if own.connected.get(&uid).is_some_and(|r| r.all().all(|(_, h)| h.is_empty())) {
                own.connected.remove(&uid);
            }
            Ok(removed)
        })?,
    )?;
    methods.raw_set(
        "has_event_handler",
        lua.create_function(|lua, (this, event, name): (Table, String, Option<String>)| {
            let engine = engine(lua);
            let uid = super::handle::live_object(lua, &engine, &this)?;
            let event = super::event::check_event(lua, &event)?;
            let proto = engine.world.borrow().object(uid).map_err(|e| rt_error(lua, e))?.id;
            let handlers = engine.object_events.borrow().handlers(uid, proto, event);
            Ok(match name {
                Some(name) => handlers.iter().any(|h| h.name == name),
                None => !handlers.is_empty(),
            })
        })?,
    )?;
    // OpenNefia's `compare_events`: true if both objects have handlers of the same names for
    // the same events (their prototypes' and their own), else false and the first event id
    // and handler name one has and the other lacks (the other's extra ones first).
    methods.raw_set(
        "compare_events",
        lua.create_function(|lua, (this, other): (Table, Table)| {
            let engine = engine(lua);
            let (a, b) =
                (super::handle::live_object(lua, &engine, &this)?, super::handle::live_object(lua, &engine, &other)?);
            let world = engine.world.borrow();
            let proto = |uid| world.object(uid).map(|o| o.id).map_err(|e| rt_error(lua, e));
            let difference = engine.object_events.borrow().first_difference((a, proto(a)?), (b, proto(b)?));
            Ok(match difference {
                None => (true, None, None),
                Some((event, name)) => (false, Some(event), Some(name)),
            })
        })?,
    )?;
    methods.raw_set(
        "emit",
        lua.create_function(|lua, (this, event, params, result): (Table, String, Option<Table>, mlua::Value)| {
            let engine = engine(lua);
            super::handle::live_object(lua, &engine, &this)?;
            let event = super::event::check_event(lua, &event)?;
            let params = match params {
                Some(params) => params,
                None => lua.create_table()?,
            };
            super::event::trigger_from(lua, event, mlua::Value::Table(this), params, result)
        })?,
    )?;
    Ok(())
}
