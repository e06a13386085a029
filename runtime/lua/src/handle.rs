//! Handles: how Lua holds map objects and maps.
//!
//! A handle is a Lua table `{ uid, slot, equip, shadow, calc = …, mod = … }` whose metatable gives it
//! the object's other methods and its fields (OpenNefia's objects are tables too, so
//! `type(obj) == "table"`). The slot the object is stored at is learned on first use (see
//! `object_access.rs`); `obj.equip` is kept once asked for ([`EQUIP_ENTRY`]), so a refresh
//! handler reading it does not make one every time; [`OWN_METHODS`] are the handle's own
//! entries from the start. The table is made with room for all of them. Once a field is read,
//! the handle gets a metatable of its own whose `__index` is a table of the base values read
//! (its shadow, also kept as [`SHADOW_ENTRY`]: see `field_shadow.rs`); until then it has the
//! shared one. Each object has
//! at most one live handle, kept in a weak-valued cache, so two handles to the same object
//! are the same Lua value: `==` works and objects can key tables. An ownerless object stays
//! alive while its handle is in the cache; once Lua collects the handle, the next sweep frees
//! the object. Handles are plain tables with no finalizer, so the collector frees them
//! promptly.
//!
//! The handles that queries and iterators hand out for objects in a location are also kept
//! in a strong table, so a map queried every turn does not make new handles every turn. A
//! sweep first drops the ownerless objects from that table, so their handles can be
//! collected; a later sweep frees them once Lua has. Map handles are kept for good (maps
//! are few and live until removed).
//!
//! Loading a game forgets every handle: each live one (all are in the cache) has its id
//! negated, so using it raises a clear error instead of reaching whatever object now has
//! that uid, and `obj.uid` still tells which uid to look up again.

use std::ffi::c_int;

use mlua::{Lua, Table, ffi};

use super::{Engine, engine, rt_error};
use nefia_game::base_changes::BaseChange;
use nefia_game::location::Holder;
use nefia_game::map::MapId;
use nefia_game::object::Uid;
use nefia_game::world::{NO_SLOT, Slot};

/// The entry of a handle that holds its uid or map id (negated once a load forgot it).
pub(crate) const ID_ENTRY: i64 = 1;
/// The entry of an object handle that holds the slot its object was last seen at.
pub(crate) const SLOT_ENTRY: i64 = 2;
/// The entry of an object handle that keeps its `obj.equip` view once made.
pub(crate) const EQUIP_ENTRY: i64 = 3;
/// The entry of an object handle that holds its shadow, once it has one (see
/// `field_shadow.rs`): beside its uid and slot, which a field write reads first, rather than
/// in its own metatable, which the write would read only for this. Like the uid and slot,
/// Lua code can read it raw (`obj[4]`), and writing any of them is unsupported.
pub(crate) const SHADOW_ENTRY: i64 = 4;
/// How many entries an object handle's table is made with: all of them, so learning the
/// slot, keeping `equip` or a shadow never moves its array away from the table (reading a
/// handle is then one or two neighbouring cache lines).
const OBJECT_ENTRIES: c_int = SHADOW_ENTRY as c_int;

/// The entry of a handle's own metatable (one with a shadow: see `field_shadow.rs`) that holds
/// the shared object metatable: what tells it is an object handle's.
pub(crate) const SHARED_META_ENTRY: i64 = 2;

/// The methods every object handle holds as its own entries, so calling one is a plain table
/// read instead of a call of the metatable's `__index` (which costs about as much again as
/// the method does): the two that game rules call in their tightest loops. As on an
/// OpenNefia object, assigning `obj.calc` would then shadow the method on that one handle.
pub(crate) const OWN_METHODS: [&str; 2] = ["calc", "mod"];

/// The entry of the object metatable that holds the table of [`OWN_METHODS`] (an integer
/// key, so no Lua code can name it: the metatable itself is hidden by `__metatable`).
pub(crate) const OWN_METHODS_ENTRY: i64 = 1;

/// The handle caches and the metatables that make tables into handles.
pub(crate) struct Handles {
    objects: Table,
    located: Table,
    maps: Table,
    /// The handles given a shadow since every shadow was last forgotten (see
    /// `field_shadow.rs`).
    shadowed: Table,
    /// The metatable of object handles.
    pub(crate) object_meta: Table,
    /// The metatable of map handles.
    pub(crate) map_meta: Table,
    /// The methods of object handles (for completion and type definitions).
    pub(crate) object_methods: Option<Table>,
    /// The methods of map handles (for type definitions).
    pub(crate) map_methods: Option<Table>,
}

impl Handles {
    pub(crate) fn new(lua: &Lua, object_meta: Table, map_meta: Table) -> mlua::Result<Handles> {
        let (objects, located, maps) = (weak_table(lua, "v")?, lua.create_table()?, lua.create_table()?);
        let shadowed = weak_table(lua, "k")?;
        Ok(Handles { objects, located, maps, shadowed, object_meta, map_meta, object_methods: None, map_methods: None })
    }

    /// Forgets every handle (after a load): each live handle's id is negated so it no longer
    /// resolves, an object handle's shadow is dropped (reading it raises the stale error),
    /// and the caches are emptied in place (the fast C functions hold them).
    pub(crate) fn forget_all(&self) -> mlua::Result<()> {
        self.shadows().forget(BaseChange::Every)?;
        for cache in [&self.objects, &self.maps] {
            for pair in cache.pairs::<i64, Table>() {
                let (id, handle) = pair?;
                handle.raw_set(ID_ENTRY, -id)?;
            }
            cache.clear()?;
        }
        self.located.clear()
    }

    /// The weak cache of object handles.
    pub(crate) fn object_cache(&self) -> &Table {
        &self.objects
    }

    /// The strong table of the handles of located objects.
    pub(crate) fn located(&self) -> &Table {
        &self.located
    }

    /// The tables forgetting the shadows of object handles reads (see `field_shadow.rs`).
    pub(crate) fn shadows(&self) -> Shadows {
        Shadows { cache: self.objects.clone(), shadowed: self.shadowed.clone(), shared_meta: self.object_meta.clone() }
    }
}

/// The tables forgetting shadows reads.
#[derive(Clone)]
pub(crate) struct Shadows {
    /// The weak cache of object handles, by uid.
    pub(crate) cache: Table,
    /// The handles given a shadow since every shadow was last forgotten (weak keys): a
    /// hotload forgets them once per prototype it changes, which walks only these.
    pub(crate) shadowed: Table,
    /// The shared metatable of object handles.
    pub(crate) shared_meta: Table,
}

impl Shadows {
    /// Forgets the shadows `change` may have made wrong: their handles get the shared
    /// metatable back. Nothing is allocated, so no collection (and no finalizer) runs while
    /// the world is borrowed.
    pub(crate) fn forget(&self, change: BaseChange) -> mlua::Result<()> {
        let reset = |handle: Table| -> mlua::Result<()> {
            if handle.metatable().is_some_and(|own| own.to_pointer() != self.shared_meta.to_pointer()) {
                handle.set_metatable(Some(self.shared_meta.clone()))?;
                handle.raw_set(SHADOW_ENTRY, mlua::Value::Nil)?;
            }
            Ok(())
        };
        match change {
            BaseChange::Object(uid) => match self.cache.raw_get::<Option<Table>>(uid.0)? {
                Some(handle) => reset(handle),
                None => Ok(()),
            },
            BaseChange::Every => {
                for pair in self.shadowed.pairs::<Table, mlua::Value>() {
                    reset(pair?.0)?;
                }
                self.shadowed.clear()
            }
        }
    }
}

/// The uid of the live object handle at `index` of the stack and the slot its object was
/// last seen at (or [`NO_SLOT`]); `None` for anything else (not a table, no id, or a handle a
/// load forgot). Both entries are read in one go: this runs on every method call and field
/// write.
///
/// # Safety
/// `index` must be a valid index of `state`'s stack.
pub(crate) unsafe fn live_object_and_slot_at(state: *mut ffi::lua_State, index: c_int) -> Option<(Uid, Slot)> {
    let (mut has_id, mut has_slot) = (0, 0);
    // SAFETY: as the caller's; two values are pushed and popped.
    let (id, slot) = unsafe {
        if ffi::lua_type(state, index) != ffi::LUA_TTABLE {
            return None;
        }
        ffi::lua_rawgeti(state, index, ID_ENTRY);
        ffi::lua_rawgeti(state, index, SLOT_ENTRY);
        let read = (ffi::lua_tointegerx(state, -2, &mut has_id), ffi::lua_tointegerx(state, -1, &mut has_slot));
        ffi::lua_settop(state, -3);
        read
    };
    let uid = u64::try_from(id).ok().filter(|&id| has_id != 0 && id > 0)?;
    Some((Uid(uid), if has_slot != 0 { Slot::try_from(slot).unwrap_or(NO_SLOT) } else { NO_SLOT }))
}

/// A table whose values (`mode` "v") or keys ("k") are weak.
fn weak_table(lua: &Lua, mode: &str) -> mlua::Result<Table> {
    let table = lua.create_table()?;
    table.set_metatable(Some(lua.create_table_from([("__mode", mode)])?))?;
    Ok(table)
}

/// The message for a handle whose game was replaced by a load.
pub(crate) fn stale_message(what: &str, lookup: &str, id: i64) -> String {
    format!("this handle refers to {what} from before the game was loaded; look it up again with {lookup}({})", -id)
}

/// The id stored in `value` if it is a handle with metatable `meta`, or with a metatable of
/// its own made from `meta` (an object handle with a shadow: see `field_shadow.rs`);
/// negative if stale.
fn handle_id(value: &Table, meta: &Table) -> Option<i64> {
    let own = value.metatable()?;
    let made_from = || own.raw_get::<Option<Table>>(SHARED_META_ENTRY).ok().flatten();
    let is_handle = own.to_pointer() == meta.to_pointer()
        || made_from().is_some_and(|shared| shared.to_pointer() == meta.to_pointer());
    is_handle.then(|| value.raw_get::<i64>(ID_ENTRY).ok()).flatten()
}

/// The uid of an object handle, if `value` is one (live or not).
pub fn object_uid(engine: &Engine, value: &mlua::Value) -> Option<Uid> {
    match value {
        mlua::Value::Table(table) => {
            handle_id(table, &engine.handles.borrow().object_meta).map(|id| Uid(id.unsigned_abs()))
        }
        _ => None,
    }
}

fn is_map(engine: &Engine, value: &mlua::Value) -> bool {
    matches!(value, mlua::Value::Table(table) if handle_id(table, &engine.handles.borrow().map_meta).is_some())
}

/// The uid of the object handle `this`, after checking it is from the current game and the
/// object lives.
pub fn live_object(lua: &Lua, engine: &Engine, this: &Table) -> mlua::Result<Uid> {
    let id = handle_id(this, &engine.handles.borrow().object_meta)
        .ok_or_else(|| rt_error(lua, "expected a map object; call methods with ':' (obj:method()), not '.'"))?;
    if id < 0 {
        return Err(rt_error(lua, stale_message("an object", "World.object", id)));
    }
    let uid = Uid(id as u64);
    if !engine.world.borrow().exists(uid) {
        return Err(rt_error(lua, format!("object uid {uid} no longer exists")));
    }
    Ok(uid)
}

/// The id of the map handle `this`, after checking it is current and the map exists.
pub fn live_map(lua: &Lua, engine: &Engine, this: &Table) -> mlua::Result<MapId> {
    let id = handle_id(this, &engine.handles.borrow().map_meta)
        .ok_or_else(|| rt_error(lua, "expected a map; call methods with ':' (map:method()), not '.'"))?;
    if id < 0 {
        return Err(rt_error(lua, stale_message("a map", "Map.get", id)));
    }
    let id = MapId(id as u64);
    engine.world.borrow().map(id).map_err(|e| rt_error(lua, e))?;
    Ok(id)
}

/// What a handle stands for, which decides the entries its table is made with.
#[derive(Clone, Copy)]
pub(crate) enum HandleOf {
    /// A map object: its uid, its slot (not yet known) and room for `equip`.
    Object,
    /// A map: its id.
    Map,
}

/// Pushes the handle of `id`: the one in the table at `cache` if it is still alive, or a new
/// one with metatable `meta`, remembered in `cache` and, if `keep` is given, in the table at
/// `keep` too.
///
/// # Safety
/// `cache`, `meta` and `keep` must be absolute or upvalue indices of tables, with 5 free
/// stack slots (every C function is given 20).
pub(crate) unsafe fn push_handle(
    state: *mut ffi::lua_State,
    (cache, meta, keep): (c_int, c_int, Option<c_int>),
    of: HandleOf,
    id: u64,
) {
    unsafe {
        if ffi::lua_rawgeti(state, cache, id as ffi::lua_Integer) == ffi::LUA_TTABLE {
            return;
        }
        ffi::lua_settop(state, -2);
        match of {
            HandleOf::Object => {
                ffi::lua_createtable(state, OBJECT_ENTRIES, OWN_METHODS.len() as c_int);
                ffi::lua_pushinteger(state, NO_SLOT.into());
                ffi::lua_rawseti(state, -2, SLOT_ENTRY);
                if ffi::lua_rawgeti(state, meta, OWN_METHODS_ENTRY) == ffi::LUA_TTABLE {
                    ffi::lua_pushnil(state);
                    while ffi::lua_next(state, -2) != 0 {
                        ffi::lua_pushvalue(state, -2);
                        ffi::lua_rotate(state, -2, 1);
                        ffi::lua_rawset(state, -5);
                    }
                }
                ffi::lua_settop(state, -2);
            }
            HandleOf::Map => ffi::lua_createtable(state, 1, 0),
        }
        ffi::lua_pushinteger(state, id as ffi::lua_Integer);
        ffi::lua_rawseti(state, -2, ID_ENTRY);
        ffi::lua_pushvalue(state, meta);
        ffi::lua_setmetatable(state, -2);
        ffi::lua_pushvalue(state, -1);
        ffi::lua_rawseti(state, cache, id as ffi::lua_Integer);
        if let Some(keep) = keep {
            ffi::lua_pushvalue(state, -1);
            ffi::lua_rawseti(state, keep, id as ffi::lua_Integer);
        }
    }
}

/// Pushes the handle of `id` through mlua (see [`push_handle`]).
fn push(
    lua: &Lua,
    (cache, meta, keep): (&Table, &Table, Option<&Table>),
    of: HandleOf,
    id: u64,
) -> mlua::Result<Table> {
    // SAFETY: exec_raw pushed the cache, the metatable and (if any) the keep table at 1, 2
    // and 3; the handle is moved to 1 and returned.
    unsafe {
        lua.exec_raw((cache, meta, keep), |state| {
            push_handle(state, (1, 2, keep.map(|_| 3)), of, id);
            ffi::lua_copy(state, -1, 1);
            ffi::lua_settop(state, 1);
        })
    }
}

/// The handle of object `uid` (the same table every time while it is alive).
pub fn push_object(lua: &Lua, uid: Uid) -> mlua::Result<Table> {
    let engine = engine(lua);
    let (cache, meta) = {
        let handles = engine.handles.borrow();
        (handles.objects.clone(), handles.object_meta.clone())
    };
    push(lua, (&cache, &meta, None), HandleOf::Object, uid.0)
}

/// The handle of map `id`.
pub fn push_map(lua: &Lua, id: MapId) -> mlua::Result<Table> {
    let engine = engine(lua);
    let (cache, meta) = {
        let handles = engine.handles.borrow();
        (handles.maps.clone(), handles.map_meta.clone())
    };
    push(lua, (&cache, &meta, None), HandleOf::Map, id.0)
}

/// True while a script holds a handle to `uid` (the handle has not been collected).
pub fn is_held_by_script(engine: &Engine, uid: Uid) -> bool {
    let cache = engine.handles.borrow().objects.clone();
    cache.raw_get::<Option<Table>>(uid.0).ok().flatten().is_some()
}

/// Frees ownerless objects no handle holds, when enough have piled up. Ownerless objects'
/// handles leave the strong table first, so Lua can collect them before a later sweep.
pub fn maybe_sweep(engine: &Engine) {
    if !engine.world.borrow().wants_sweep() {
        return;
    }
    let (cache, located) = {
        let handles = engine.handles.borrow();
        (handles.objects.clone(), handles.located.clone())
    };
    let ownerless: Vec<Uid> = engine.world.borrow().ownerless().collect();
    for uid in ownerless {
        // Clearing a slot of a plain table fails only when Lua is out of memory; the object
        // then stays until the next sweep.
        if let Err(error) = located.raw_set(uid.0, mlua::Value::Nil) {
            tracing::debug!("uid {uid} stays located until the next sweep: {error}");
        }
    }
    engine.world.borrow_mut().sweep(|uid| cache.raw_get::<Option<Table>>(uid.0).ok().flatten().is_some());
}

/// Reads an object argument.
pub fn object_arg(lua: &Lua, engine: &Engine, value: &mlua::Value, what: &str) -> mlua::Result<Uid> {
    match value {
        mlua::Value::Table(table) if object_uid(engine, value).is_some() => live_object(lua, engine, table),
        other => Err(rt_error(lua, format!("{what} must be a map object, not a {}", other.type_name()))),
    }
}

/// Reads a location argument: a map, or an object that holds items.
pub fn holder_arg(lua: &Lua, engine: &Engine, value: &mlua::Value, what: &str) -> mlua::Result<Holder> {
    if let mlua::Value::Table(table) = value {
        if is_map(engine, value) {
            return Ok(Holder::Map(live_map(lua, engine, table)?));
        }
        if object_uid(engine, value).is_some() {
            return Ok(Holder::Object(live_object(lua, engine, table)?));
        }
    }
    Err(rt_error(
        lua,
        format!("{what} must be a location (a map, a character or a container item), not a {}", value.type_name()),
    ))
}

/// Pushes a location as Lua sees it: the map, or the character or container holding it.
pub fn push_holder(lua: &Lua, holder: Holder) -> mlua::Result<Table> {
    match holder {
        Holder::Map(map) => push_map(lua, map),
        Holder::Object(uid) => push_object(lua, uid),
    }
}

/// A Lua sequence of the handles of located objects, for the seed's
/// `for _, obj in ... do` iterators; the handles are kept for the next query.
pub fn object_list(lua: &Lua, uids: &[Uid]) -> mlua::Result<Table> {
    let engine = engine(lua);
    let (cache, meta, located) = {
        let handles = engine.handles.borrow();
        (handles.objects.clone(), handles.object_meta.clone(), handles.located.clone())
    };
    let table = lua.create_table_with_capacity(uids.len(), 0)?;
    for (i, &uid) in uids.iter().enumerate() {
        table.raw_set(i + 1, push(lua, (&cache, &meta, Some(&located)), HandleOf::Object, uid.0)?)?;
    }
    Ok(table)
}
