//! Handles: how Lua holds map objects and maps.
//!
//! A handle is a small Lua table `{ uid, epoch }` whose metatable gives it the object's
//! methods and fields (OpenNefia's objects are tables too, so `type(obj) == "table"`). Each
//! object has at most one live handle, kept in a weak-valued cache, so two handles to the same
//! object are the same Lua value: `==` works and objects can key tables. An ownerless object
//! stays alive while its handle is in the cache; once Lua collects the handle, the next sweep
//! frees the object. Handles are plain tables with no finalizer, so the collector frees them
//! promptly. Loading a game starts a new epoch: handles from before it raise a clear error
//! instead of reaching a different object.

use mlua::{Lua, Table};

use super::{Engine, engine, rt_error};
use crate::location::Holder;
use crate::map::MapId;
use crate::object::Uid;

/// The handle caches and the metatables that make tables into handles.
pub(crate) struct Handles {
    objects: Table,
    maps: Table,
    /// The metatable of object handles.
    pub(crate) object_meta: Table,
    /// The metatable of map handles.
    pub(crate) map_meta: Table,
}

impl Handles {
    pub(crate) fn new(lua: &Lua, object_meta: Table, map_meta: Table) -> mlua::Result<Handles> {
        let (objects, maps) = (weak_table(lua)?, weak_table(lua)?);
        Ok(Handles {
            objects,
            maps,
            object_meta,
            map_meta,
        })
    }

    /// Forgets every handle (after a load): old handles stay in scripts but no longer resolve.
    pub(crate) fn reset(&mut self, lua: &Lua) -> mlua::Result<()> {
        self.objects = weak_table(lua)?;
        self.maps = weak_table(lua)?;
        Ok(())
    }
}

fn weak_table(lua: &Lua) -> mlua::Result<Table> {
    let table = lua.create_table()?;
    table.set_metatable(Some(lua.create_table_from([("__mode", "v")])?))?;
    Ok(table)
}

fn stale(what: &str, lookup: &str) -> mlua::Error {
    mlua::Error::runtime(format!(
        "this handle refers to {what} from before the game was loaded; look it up again with {lookup}"
    ))
}

/// The id stored in a handle if `value` is a handle with metatable `meta`.
fn handle_id(value: &Table, meta: &Table) -> Option<u64> {
    let own = value.metatable()?;
    (own.to_pointer() == meta.to_pointer())
        .then(|| value.raw_get::<u64>(1).ok())
        .flatten()
}

fn epoch_of(handle: &Table) -> u64 {
    handle.raw_get::<u64>(2).unwrap_or(u64::MAX)
}

/// The uid of an object handle, if `value` is one (live or not).
pub fn object_uid(engine: &Engine, value: &mlua::Value) -> Option<Uid> {
    match value {
        mlua::Value::Table(table) => {
            handle_id(table, &engine.handles.borrow().object_meta).map(Uid)
        }
        _ => None,
    }
}

/// The map id of a map handle, if `value` is one (live or not).
pub fn map_id(engine: &Engine, value: &mlua::Value) -> Option<MapId> {
    match value {
        mlua::Value::Table(table) => handle_id(table, &engine.handles.borrow().map_meta).map(MapId),
        _ => None,
    }
}

/// The uid of the object handle `this`, after checking it is from the current game and the
/// object lives.
pub fn live_object(lua: &Lua, engine: &Engine, this: &Table) -> mlua::Result<Uid> {
    let uid = handle_id(this, &engine.handles.borrow().object_meta)
        .map(Uid)
        .ok_or_else(|| {
            rt_error(
                lua,
                "expected a map object; call methods with ':' (obj:method()), not '.'",
            )
        })?;
    if epoch_of(this) != engine.epoch.get() {
        return Err(stale("an object", "World.object(obj.uid)"));
    }
    if !engine.world.borrow().exists(uid) {
        return Err(rt_error(lua, format!("object uid {uid} no longer exists")));
    }
    Ok(uid)
}

/// The id of the map handle `this`, after checking it is current and the map exists.
pub fn live_map(lua: &Lua, engine: &Engine, this: &Table) -> mlua::Result<MapId> {
    let id = handle_id(this, &engine.handles.borrow().map_meta)
        .map(MapId)
        .ok_or_else(|| {
            rt_error(
                lua,
                "expected a map; call methods with ':' (map:method()), not '.'",
            )
        })?;
    if epoch_of(this) != engine.epoch.get() {
        return Err(stale("a map", "Map.get(map.uid)"));
    }
    engine
        .world
        .borrow()
        .map(id)
        .map_err(|e| rt_error(lua, e))?;
    Ok(id)
}

fn push(lua: &Lua, engine: &Engine, cache: &Table, meta: &Table, id: u64) -> mlua::Result<Table> {
    if let Some(handle) = cache.raw_get::<Option<Table>>(id)? {
        return Ok(handle);
    }
    let handle = lua.create_sequence_from([id, engine.epoch.get()])?;
    handle.set_metatable(Some(meta.clone()))?;
    cache.raw_set(id, &handle)?;
    Ok(handle)
}

/// The handle of object `uid` (the same table every time while it is alive).
pub fn push_object(lua: &Lua, uid: Uid) -> mlua::Result<Table> {
    let engine = engine(lua);
    let (cache, meta) = {
        let handles = engine.handles.borrow();
        (handles.objects.clone(), handles.object_meta.clone())
    };
    push(lua, &engine, &cache, &meta, uid.0)
}

/// The handle of map `id`.
pub fn push_map(lua: &Lua, id: MapId) -> mlua::Result<Table> {
    let engine = engine(lua);
    let (cache, meta) = {
        let handles = engine.handles.borrow();
        (handles.maps.clone(), handles.map_meta.clone())
    };
    push(lua, &engine, &cache, &meta, id.0)
}

/// True while a script holds a handle to `uid` (the handle has not been collected).
pub fn is_held_by_script(engine: &Engine, uid: Uid) -> bool {
    let cache = engine.handles.borrow().objects.clone();
    cache
        .raw_get::<Option<Table>>(uid.0)
        .ok()
        .flatten()
        .is_some()
}

/// Frees ownerless objects no handle holds, when enough have piled up.
pub fn maybe_sweep(engine: &Engine) {
    if engine.world.borrow().wants_sweep() {
        let cache = engine.handles.borrow().objects.clone();
        engine.world.borrow_mut().sweep(|uid| {
            cache
                .raw_get::<Option<Table>>(uid.0)
                .ok()
                .flatten()
                .is_some()
        });
    }
}

/// Reads an object argument.
pub fn object_arg(
    lua: &Lua,
    engine: &Engine,
    value: &mlua::Value,
    what: &str,
) -> mlua::Result<Uid> {
    match value {
        mlua::Value::Table(table) if object_uid(engine, value).is_some() => {
            live_object(lua, engine, table)
        }
        other => Err(rt_error(
            lua,
            format!("{what} must be a map object, not a {}", other.type_name()),
        )),
    }
}

/// Reads a location argument: a map, or an object that holds items.
pub fn holder_arg(
    lua: &Lua,
    engine: &Engine,
    value: &mlua::Value,
    what: &str,
) -> mlua::Result<Holder> {
    if let mlua::Value::Table(table) = value {
        if map_id(engine, value).is_some() {
            return Ok(Holder::Map(live_map(lua, engine, table)?));
        }
        if object_uid(engine, value).is_some() {
            return Ok(Holder::Object(live_object(lua, engine, table)?));
        }
    }
    Err(rt_error(
        lua,
        format!(
            "{what} must be a location (a map, a character or a container item), not a {}",
            value.type_name()
        ),
    ))
}

/// Pushes a location as Lua sees it: the map, or the character or container holding it.
pub fn push_holder(lua: &Lua, holder: Holder) -> mlua::Result<Table> {
    match holder {
        Holder::Map(map) => push_map(lua, map),
        Holder::Object(uid) => push_object(lua, uid),
    }
}

/// A Lua sequence of object handles, for the seed's `for _, obj in ... do` iterators.
pub fn object_list(lua: &Lua, uids: &[Uid]) -> mlua::Result<Table> {
    let table = lua.create_table_with_capacity(uids.len(), 0)?;
    for (i, &uid) in uids.iter().enumerate() {
        table.raw_set(i + 1, push_object(lua, uid)?)?;
    }
    Ok(table)
}
