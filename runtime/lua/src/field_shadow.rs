//! Field reads at the Lua VM's floor: the shadow of an object handle.
//!
//! `obj.hp` is a plain table read once the handle has been read from: the first read of a
//! field gives the handle a metatable of its own whose `__index` is a table, its *shadow*,
//! which keeps each base value read (booleans, numbers and strings: a table, a list or an
//! object is made afresh on every read, as before). The next read of that field finds it
//! there without leaving the VM; a field not in the shadow, a method, and the names the
//! engine keeps (`x`, `location`, …) go on to the shadow's metatable, whose `__index` is the
//! object `__index` of `object_access.rs`, handed the handle (the shadow's entry
//! [`SHADOW_OF`]). A handle no field was read from has no shadow and costs nothing more.
//!
//! The shadow is kept current by every path that changes what `obj.field` gives —
//! `obj.field = v`, `mod_base`, `reset`, an inspector edit, undo, a prototype changed by
//! `change_prototype`, a hotload or an edit of a prototype, stepping back, a load: each tells
//! the world's
//! [`BaseChangeListener`], which [`forget`]s the shadows it may have made wrong (the
//! handle gets the shared metatable back, and the next read makes a new shadow). `mod` and
//! `refresh` change temp values only, which `obj.field` does not show.

use std::ffi::c_int;

use mlua::{Table, ffi};

use super::object_access::{OBJECT_META, object_index};
use nefia_game::base_changes::BaseChange;

/// The entry of a shadow that holds its handle (an integer key: a field name never reaches
/// it, and the handle's own entry 1, its uid, hides it from `obj[1]`).
pub(crate) const SHADOW_OF: i64 = 1;

/// The entry of a handle's own metatable that holds the shared object metatable: what tells
/// it is an object handle's (see `handle.rs`).
pub(crate) const SHARED_META_ENTRY: i64 = 2;

/// The entry of a handle's own metatable that holds its shadow (also its `__index`, which a
/// write would have to look up by a string).
const SHADOW_ENTRY: i64 = 3;

/// `__index` and `__newindex` closures: the object methods table.
pub(crate) const METHODS: c_int = ffi::lua_upvalueindex(5);
/// `__index` and `__newindex` closures: the metatable of shadows.
pub(crate) const SHADOW_META: c_int = ffi::lua_upvalueindex(7);
/// Pushes the shadow of the object handle at index 1, making it (and the handle's own
/// metatable) if the handle has the shared one. Pushes nothing and returns false if the
/// table at 1 is not an object handle.
///
/// # Safety
/// Only for the `__index` and `__newindex` closures, which hold [`OBJECT_META`] and
/// [`SHADOW_META`]; needs 6 free stack slots.
pub(crate) unsafe fn push_shadow(state: *mut ffi::lua_State, make: bool) -> bool {
    unsafe {
        if ffi::lua_getmetatable(state, 1) == 0 {
            return false;
        }
        // Only a handle's own metatable holds a shadow.
        if ffi::lua_rawgeti(state, -1, SHADOW_ENTRY) == ffi::LUA_TTABLE {
            ffi::lua_rotate(state, -2, 1);
            ffi::lua_settop(state, -2);
            return true;
        }
        ffi::lua_settop(state, -2);
        if ffi::lua_rawequal(state, -1, OBJECT_META) == 0 {
            ffi::lua_settop(state, -2);
            return false;
        }
        ffi::lua_settop(state, -2);
        if !make {
            return false;
        }
        let shadow = ffi::lua_gettop(state) + 1;
        ffi::lua_createtable(state, 1, 2);
        ffi::lua_pushvalue(state, 1);
        ffi::lua_rawseti(state, shadow, SHADOW_OF);
        ffi::lua_pushvalue(state, SHADOW_META);
        ffi::lua_setmetatable(state, shadow);
        // The handle's own metatable: the shared one's entries, its `__index` the shadow.
        let meta = shadow + 1;
        ffi::lua_createtable(state, 0, 8);
        ffi::lua_pushnil(state);
        while ffi::lua_next(state, OBJECT_META) != 0 {
            if ffi::lua_type(state, -2) == ffi::LUA_TSTRING {
                ffi::lua_pushvalue(state, -2);
                ffi::lua_rotate(state, -2, 1);
                ffi::lua_rawset(state, meta);
            } else {
                ffi::lua_settop(state, -2);
            }
        }
        ffi::lua_pushlstring(state, c"__index".as_ptr(), 7);
        ffi::lua_pushvalue(state, shadow);
        ffi::lua_rawset(state, meta);
        ffi::lua_pushvalue(state, OBJECT_META);
        ffi::lua_rawseti(state, meta, SHARED_META_ENTRY);
        ffi::lua_pushvalue(state, shadow);
        ffi::lua_rawseti(state, meta, SHADOW_ENTRY);
        ffi::lua_setmetatable(state, 1);
        true
    }
}

/// Keeps the value on top of the stack in the shadow of the handle at index 1 as the field
/// named by the key at index 2, making the shadow if need be. The value stays on top.
///
/// # Safety
/// As [`push_shadow`]'s.
pub(crate) unsafe fn keep_shown(state: *mut ffi::lua_State) {
    unsafe {
        if push_shadow(state, true) {
            ffi::lua_pushvalue(state, 2);
            ffi::lua_pushvalue(state, -3);
            ffi::lua_rawset(state, -3);
            ffi::lua_settop(state, -2);
        }
    }
}

/// `__index` of shadows: a field the shadow does not hold, read as the handle's (the
/// object `__index`, given the handle in the shadow's place).
pub(crate) unsafe extern "C-unwind" fn shadow_index(state: *mut ffi::lua_State) -> c_int {
    unsafe {
        ffi::lua_rawgeti(state, 1, SHADOW_OF);
        ffi::lua_copy(state, -1, 1);
        ffi::lua_settop(state, 2);
        object_index(state)
    }
}

/// Forgets the shadows `change` may have made wrong: the handles in `cache` (the weak cache
/// of object handles) get the shared metatable `meta` back. Nothing is allocated, so no
/// collection (and no finalizer) runs while the world is borrowed.
pub(crate) fn forget(cache: &Table, meta: &Table, change: BaseChange) -> mlua::Result<()> {
    let reset = |handle: Table| -> mlua::Result<()> {
        if handle.metatable().is_some_and(|own| own.to_pointer() != meta.to_pointer()) {
            handle.set_metatable(Some(meta.clone()))?;
        }
        Ok(())
    };
    match change {
        BaseChange::Object(uid) => match cache.raw_get::<Option<Table>>(uid.0)? {
            Some(handle) => reset(handle),
            None => Ok(()),
        },
        BaseChange::Every => {
            for pair in cache.pairs::<mlua::Value, Table>() {
                reset(pair?.1)?;
            }
            Ok(())
        }
    }
}
