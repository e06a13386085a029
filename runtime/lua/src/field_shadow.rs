//! Field reads and writes at the Lua VM's floor: the shadow of an object handle.
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
//! The shadow is kept current by every path that changes what `obj.field` gives: the fast
//! `obj.field = v` below writes the value into it, and everything else — `mod_base`,
//! `reset`, an inspector edit, undo, a prototype changed by `change_prototype`, a hotload
//! or an edit of a prototype, stepping back, a load — tells the world's
//! [`BaseChangeListener`], which [`forget`](Shadows::forget)s the shadows it may have made wrong (the
//! handle gets the shared metatable back, and the next read makes a new shadow). `mod` and
//! `refresh` change temp values only, which `obj.field` does not show.
//!
//! `obj.field = v` is a C function too ([`object_newindex`]): a field name is looked at once
//! (reserved, a method's name, or a field the shadow shows) and remembered in a table, and a
//! boolean, number or UTF-8 string is set straight into the world (which keeps the change
//! log and notes watched changes), written into the shadow, and any watched change delivered
//! while the writing line is on the stack, as `mod` does. Anything else — another value, a
//! reserved or new name, a stale handle, an object that is gone — goes to the mlua function
//! that wrote every field before, which refuses it with the same words.

use std::ffi::c_int;
use std::panic::{AssertUnwindSafe, catch_unwind};

use mlua::ffi;

use super::c_closure::{OBJECT_META, engine, raise};
use super::convert::{read_value, string_at};
use super::handle::{SHARED_META_ENTRY, SLOT_ENTRY, live_object_and_slot_at};
use nefia_game::object::reserved_field;
use nefia_game::world::WorldError;

/// The entry of a shadow that holds its handle (an integer key: a field name never reaches
/// it, and the handle's own entry 1, its uid, hides it from `obj[1]`).
pub(crate) const SHADOW_OF: i64 = 1;

/// The entry of a handle's own metatable that holds its shadow (also its `__index`, which a
/// write would have to look up by a string).
const SHADOW_ENTRY: i64 = 3;

/// `__index` and `__newindex` closures: the object methods table.
pub(crate) const METHODS: c_int = ffi::lua_upvalueindex(5);
/// `__index` and `__newindex` closures: the metatable of shadows.
pub(crate) const SHADOW_META: c_int = ffi::lua_upvalueindex(7);
/// `__index` closures: [`Shadows::shadowed`].
const SHADOWED: c_int = ffi::lua_upvalueindex(8);
/// `__newindex`: the mlua function that writes what the fast path does not.
const SLOW_SET: c_int = ffi::lua_upvalueindex(6);
/// `__newindex`: the function delivering watched changes (`watch.rs`).
const DELIVER: c_int = ffi::lua_upvalueindex(8);
/// `__newindex`: field name → [`WRITE_SHOWN`] or [`WRITE_HIDDEN`], each looked at once.
const WRITE_PLANS: c_int = ffi::lua_upvalueindex(9);

/// A field name the shadow shows: written into it.
const WRITE_SHOWN: ffi::lua_Integer = 1;
/// A field name a method hides (`obj.refresh` reads the method): written to the world only.
const WRITE_HIDDEN: ffi::lua_Integer = 2;

/// Pushes the shadow of the object handle at index 1, making it (and the handle's own
/// metatable) if the handle has the shared one. Pushes nothing and returns false if the
/// table at 1 is not an object handle.
///
/// # Safety
/// Only for the `__index` and `__newindex` closures, which hold [`OBJECT_META`] and
/// [`SHADOW_META`], and to `make` one only for the `__index` closures, which hold
/// [`SHADOWED`]; needs 6 free stack slots.
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
        ffi::lua_pushvalue(state, 1);
        ffi::lua_pushboolean(state, 1);
        ffi::lua_rawset(state, SHADOWED);
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

/// `obj.key = value` (see the module doc).
pub(crate) unsafe extern "C-unwind" fn object_newindex(state: *mut ffi::lua_State) -> c_int {
    unsafe {
        if !write_fast(state) {
            ffi::lua_pushvalue(state, SLOW_SET);
            ffi::lua_pushvalue(state, 1);
            ffi::lua_pushvalue(state, 2);
            ffi::lua_pushvalue(state, 3);
            ffi::lua_call(state, 3, 0);
        }
        if engine(state).world.borrow().watches().has_pending() {
            // Nothing of this frame needs dropping if the delivery raises.
            ffi::lua_pushvalue(state, DELIVER);
            ffi::lua_call(state, 0, 0);
        }
        0
    }
}

/// How the field named by the string at index 2 is written: [`WRITE_SHOWN`],
/// [`WRITE_HIDDEN`], or `None` for a reserved name (the slow path refuses it).
unsafe fn write_plan(state: *mut ffi::lua_State) -> Option<ffi::lua_Integer> {
    unsafe {
        ffi::lua_pushvalue(state, 2);
        if ffi::lua_rawget(state, WRITE_PLANS) == ffi::LUA_TNUMBER {
            let plan = ffi::lua_tointegerx(state, -1, std::ptr::null_mut());
            ffi::lua_settop(state, -2);
            return Some(plan);
        }
        ffi::lua_settop(state, -2);
        let name = std::str::from_utf8(string_at(state, 2)).ok()?;
        if reserved_field(name).is_some() {
            return None;
        }
        ffi::lua_pushvalue(state, 2);
        let plan = if ffi::lua_rawget(state, METHODS) == ffi::LUA_TNIL { WRITE_SHOWN } else { WRITE_HIDDEN };
        ffi::lua_settop(state, -2);
        ffi::lua_pushvalue(state, 2);
        ffi::lua_pushinteger(state, plan);
        ffi::lua_rawset(state, WRITE_PLANS);
        Some(plan)
    }
}

/// The fast write, if it applies: false (having changed nothing) for the slow path.
unsafe fn write_fast(state: *mut ffi::lua_State) -> bool {
    unsafe {
        if ffi::lua_type(state, 2) != ffi::LUA_TSTRING
            || !matches!(ffi::lua_type(state, 3), ffi::LUA_TBOOLEAN | ffi::LUA_TNUMBER | ffi::LUA_TSTRING)
        {
            return false;
        }
        let Some(plan) = write_plan(state) else { return false };
        let engine = engine(state);
        let Some(field) = engine.lookup_symbol(string_at(state, 2)) else { return false };
        // A string that is not UTF-8: the slow path says so.
        let Ok(value) = read_value(state, 3, &"") else { return false };
        let Some((uid, seen)) = live_object_and_slot_at(state, 1) else { return false };
        let written = catch_unwind(AssertUnwindSafe(|| {
            let mut world = engine.world.borrow_mut();
            world.set_base_shown(seen, uid, field, value)?;
            let objects = world.objects();
            Ok::<_, WorldError>((!objects.is_at(seen, uid)).then(|| objects.slot(uid)).flatten())
        }));
        let learned = match written {
            Ok(Ok(learned)) => learned,
            // The object is gone: the slow path says so.
            Ok(Err(_)) => return false,
            Err(_) => raise(state, "internal error: a field write panicked".into()),
        };
        if plan == WRITE_SHOWN && push_shadow(state, false) {
            ffi::lua_pushvalue(state, 2);
            ffi::lua_pushvalue(state, 3);
            ffi::lua_rawset(state, -3);
            ffi::lua_settop(state, -2);
        }
        if let Some(slot) = learned {
            ffi::lua_pushinteger(state, slot.into());
            ffi::lua_rawseti(state, 1, SLOT_ENTRY);
        }
        true
    }
}
