//! Handles: how Lua holds map objects and maps.
//!
//! A handle is a userdata carrying a uid. Each object has at most one live handle, kept in a
//! weak-valued cache, so two handles to the same object are the same Lua value: `==` works
//! and objects can key tables. While a handle is alive it keeps an ownerless object from being
//! freed; once Lua collects it, the world may free the object. Loading a game starts a new
//! epoch: handles from before it raise a clear error instead of reaching a different object.

use std::rc::Rc;

use mlua::{AnyUserData, Lua, Table};

use super::{Engine, engine};
use crate::location::Holder;
use crate::map::MapId;
use crate::object::Uid;

/// A Lua handle to a map object.
pub struct ObjectRef {
    /// The object's uid.
    pub uid: Uid,
    epoch: u64,
    _token: Rc<()>,
}

/// A Lua handle to a map.
pub struct MapRef {
    /// The map's id.
    pub id: MapId,
    epoch: u64,
}

/// The weak caches that make handles unique per object and map.
pub(crate) struct HandleCaches {
    objects: Table,
    maps: Table,
}

impl HandleCaches {
    pub(crate) fn new(lua: &Lua) -> mlua::Result<HandleCaches> {
        let weak_values = lua.create_table_from([("__mode", "v")])?;
        let objects = lua.create_table()?;
        objects.set_metatable(Some(weak_values.clone()))?;
        let maps = lua.create_table()?;
        maps.set_metatable(Some(weak_values))?;
        Ok(HandleCaches { objects, maps })
    }
}

fn stale(what: &str) -> mlua::Error {
    mlua::Error::runtime(format!(
        "this handle refers to a {what} from before the game was loaded; look it up again (for example with World.object(uid))"
    ))
}

impl ObjectRef {
    /// The uid, after checking the handle is from the current game and the object lives.
    pub fn live_uid(&self, engine: &Engine) -> mlua::Result<Uid> {
        if self.epoch != engine.epoch.get() {
            return Err(stale("object"));
        }
        if !engine.world.borrow().exists(self.uid) {
            return Err(mlua::Error::runtime(format!("object uid {} no longer exists", self.uid)));
        }
        Ok(self.uid)
    }
}

impl MapRef {
    /// The map id, after checking the handle is from the current game and the map exists.
    pub fn live_id(&self, engine: &Engine) -> mlua::Result<MapId> {
        if self.epoch != engine.epoch.get() {
            return Err(stale("map"));
        }
        engine.world.borrow().map(self.id).map_err(mlua::Error::runtime)?;
        Ok(self.id)
    }
}

/// The handle of object `uid` (the same userdata every time while it is alive).
pub fn push_object(lua: &Lua, uid: Uid) -> mlua::Result<AnyUserData> {
    let engine = engine(lua);
    let cache = engine.handles.borrow().objects.clone();
    if let Some(handle) = cache.raw_get::<Option<AnyUserData>>(uid.0)? {
        return Ok(handle);
    }
    let token = {
        let mut world = engine.world.borrow_mut();
        let object = world.object_mut(uid).map_err(mlua::Error::runtime)?;
        object.handle_token()
    };
    let handle = lua.create_userdata(ObjectRef { uid, epoch: engine.epoch.get(), _token: token })?;
    cache.raw_set(uid.0, &handle)?;
    Ok(handle)
}

/// The handle of map `id`.
pub fn push_map(lua: &Lua, id: MapId) -> mlua::Result<AnyUserData> {
    let engine = engine(lua);
    let cache = engine.handles.borrow().maps.clone();
    if let Some(handle) = cache.raw_get::<Option<AnyUserData>>(id.0)? {
        return Ok(handle);
    }
    let handle = lua.create_userdata(MapRef { id, epoch: engine.epoch.get() })?;
    cache.raw_set(id.0, &handle)?;
    Ok(handle)
}

/// Reads a location argument: a map or an object that holds items.
pub fn holder_arg(engine: &Engine, value: &mlua::Value, what: &str) -> mlua::Result<Holder> {
    if let mlua::Value::UserData(ud) = value {
        if let Ok(map) = ud.borrow::<MapRef>() {
            return Ok(Holder::Map(map.live_id(engine)?));
        }
        if let Ok(object) = ud.borrow::<ObjectRef>() {
            return Ok(Holder::Object(object.live_uid(engine)?));
        }
    }
    Err(mlua::Error::runtime(format!(
        "{what} must be a location (a map, a character or a container item), not a {}",
        value.type_name()
    )))
}

/// Reads an object argument.
pub fn object_arg(engine: &Engine, value: &mlua::Value, what: &str) -> mlua::Result<Uid> {
    if let mlua::Value::UserData(ud) = value
        && let Ok(object) = ud.borrow::<ObjectRef>()
    {
        return object.live_uid(engine);
    }
    Err(mlua::Error::runtime(format!("{what} must be a map object, not a {}", value.type_name())))
}

/// Pushes a location as Lua sees it: the map, or the character or container holding it.
pub fn push_holder(lua: &Lua, holder: Holder) -> mlua::Result<mlua::Value> {
    Ok(mlua::Value::UserData(match holder {
        Holder::Map(map) => push_map(lua, map)?,
        Holder::Object(uid) => push_object(lua, uid)?,
    }))
}

/// A Lua sequence of object handles, for the seed's `for _, obj in ... do` iterators.
pub fn object_list(lua: &Lua, uids: &[Uid]) -> mlua::Result<Table> {
    let table = lua.create_table_with_capacity(uids.len(), 0)?;
    for (i, &uid) in uids.iter().enumerate() {
        table.raw_set(i + 1, push_object(lua, uid)?)?;
    }
    Ok(table)
}
