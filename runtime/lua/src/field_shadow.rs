//! Field reads and writes at the Lua VM's floor: the shadow of an object handle.
//!
//! `obj.hp` is a plain table read once the handle has been read from: the first read of a
//! field gives the handle a metatable of its own whose `__index` is a table, its *shadow*,
//! which keeps each base value read (booleans, numbers and strings: a table, a list or an
//! object is made afresh on every read, as before). The next read of that field finds it
//! there without leaving the VM; a field not in the shadow, a method, and the names the
//! engine keeps (`x`, `location`, …) go on to the shadow's metatable, whose `__index` is the
//! object `__index` of `object_access.rs`, handed the handle (the shadow's entry
//! [`SHADOW_OF`]). The handle keeps its shadow as an entry of its own too ([`SHADOW_ENTRY`]),
//! where a write finds it beside the uid it reads first. A handle no field was read from has
//! no shadow and costs nothing more.
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
//! (reserved, a method's name, or a field the shadow shows) and remembered in a table with
//! its symbol ([`WritePlan`]), so the next write of it looks nothing else up; and a
//! boolean, number or UTF-8 string the field's declared type surely takes (its
//! [`WriteCheck`](nefia_game::field_type::WriteCheck), made from the checker once when the data
//! type was declared) is set straight into the world (which keeps the change log and notes
//! watched changes), written into the shadow, and any watched change delivered while the
//! writing line is on the stack, as `mod` does. Anything else — another value, one only the
//! checker can judge, a reserved name, a stale handle, an object that is gone — goes to the
//! mlua function that writes every field (`object.rs`), which runs the checker and refuses
//! what it refuses.

use std::ffi::c_int;
use std::panic::{AssertUnwindSafe, catch_unwind};

use mlua::ffi;

use super::c_closure::{OBJECT_META, engine, raise};
use super::convert::{read_value, string_at};
use super::handle::{SHADOW_ENTRY, SHARED_META_ENTRY, SLOT_ENTRY, live_object_and_slot_at};
use nefia_game::Symbol;
use nefia_game::object::reserved_field;
use nefia_game::world::WorldError;

/// The entry of a shadow that holds its handle (an integer key: a field name never reaches
/// it, and the handle's own entry 1, its uid, hides it from `obj[1]`).
pub(crate) const SHADOW_OF: i64 = 1;

/// `__index` and `__newindex` closures: the object methods table.
pub(crate) const METHODS: c_int = ffi::lua_upvalueindex(5);
/// `__index` closures: the metatable of shadows.
pub(crate) const SHADOW_META: c_int = ffi::lua_upvalueindex(7);
/// `__index` closures: [`Shadows::shadowed`].
const SHADOWED: c_int = ffi::lua_upvalueindex(8);
/// `__newindex`: the mlua function that writes what the fast path does not.
const SLOW_SET: c_int = ffi::lua_upvalueindex(6);
/// `__newindex`: the function delivering watched changes (`watch.rs`).
const DELIVER: c_int = ffi::lua_upvalueindex(7);
/// `__newindex`: field name → its [`WritePlan`], each looked at once.
const WRITE_PLANS: c_int = ffi::lua_upvalueindex(8);

/// How `obj.name = v` is written, worked out on the first write of `name` and kept in
/// [`WRITE_PLANS`] as one integer: the field's symbol number times four, plus whether the
/// shadow shows the field.
#[derive(Clone, Copy)]
struct WritePlan {
    field: Symbol,
    /// False for a field a method hides (`obj.refresh` reads the method): written to the
    /// world only.
    shown: bool,
}

impl WritePlan {
    fn to_integer(self) -> ffi::lua_Integer {
        ffi::lua_Integer::from(self.field.number()) * 4 + ffi::lua_Integer::from(self.shown)
    }

    fn from_integer(plan: ffi::lua_Integer) -> Option<WritePlan> {
        let field = Symbol::from_number(u32::try_from(plan / 4).ok()?)?;
        Some(WritePlan { field, shown: plan % 4 == 1 })
    }
}

/// Pushes the shadow of the object handle at index 1 and returns true, if it has one.
///
/// # Safety
/// Needs 1 free stack slot.
unsafe fn push_shadow(state: *mut ffi::lua_State) -> bool {
    unsafe {
        let found = ffi::lua_rawgeti(state, 1, SHADOW_ENTRY) == ffi::LUA_TTABLE;
        if !found {
            ffi::lua_settop(state, -2);
        }
        found
    }
}

/// Pushes the shadow of the object handle at index 1, making it (and the handle's own
/// metatable) if the handle has the shared one. Pushes nothing and returns false if the
/// table at 1 is not an object handle.
///
/// # Safety
/// Only for the `__index` closures, which hold [`OBJECT_META`], [`SHADOW_META`] and
/// [`SHADOWED`]; needs 6 free stack slots.
unsafe fn push_or_make_shadow(state: *mut ffi::lua_State) -> bool {
    unsafe {
        if push_shadow(state) {
            return true;
        }
        if ffi::lua_getmetatable(state, 1) == 0 {
            return false;
        }
        let shared = ffi::lua_rawequal(state, -1, OBJECT_META) != 0;
        ffi::lua_settop(state, -2);
        if !shared {
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
        ffi::lua_setmetatable(state, 1);
        ffi::lua_pushvalue(state, shadow);
        ffi::lua_rawseti(state, 1, SHADOW_ENTRY);
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
/// As [`push_or_make_shadow`]'s.
pub(crate) unsafe fn keep_shown(state: *mut ffi::lua_State) {
    unsafe {
        if push_or_make_shadow(state) {
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
        let pending = match write_fast(state) {
            Some(pending) => pending,
            None => {
                ffi::lua_pushvalue(state, SLOW_SET);
                ffi::lua_pushvalue(state, 1);
                ffi::lua_pushvalue(state, 2);
                ffi::lua_pushvalue(state, 3);
                ffi::lua_call(state, 3, 0);
                engine(state).world.borrow().watches().has_pending()
            }
        };
        if pending {
            // Nothing of this frame needs dropping if the delivery raises.
            ffi::lua_pushvalue(state, DELIVER);
            ffi::lua_call(state, 0, 0);
        }
        0
    }
}

/// The [`WritePlan`] of the field named by the string at index 2, or `None` for a reserved
/// name or one that is not UTF-8 (the slow path refuses it).
unsafe fn write_plan(state: *mut ffi::lua_State) -> Option<WritePlan> {
    unsafe {
        ffi::lua_pushvalue(state, 2);
        if ffi::lua_rawget(state, WRITE_PLANS) == ffi::LUA_TNUMBER {
            let plan = ffi::lua_tointegerx(state, -1, std::ptr::null_mut());
            ffi::lua_settop(state, -2);
            return WritePlan::from_integer(plan);
        }
        ffi::lua_settop(state, -2);
        let name = std::str::from_utf8(string_at(state, 2)).ok()?;
        if reserved_field(name).is_some() {
            return None;
        }
        ffi::lua_pushvalue(state, 2);
        let shown = ffi::lua_rawget(state, METHODS) == ffi::LUA_TNIL;
        ffi::lua_settop(state, -2);
        let plan = WritePlan { field: Symbol::intern(name), shown };
        ffi::lua_pushvalue(state, 2);
        ffi::lua_pushinteger(state, plan.to_integer());
        ffi::lua_rawset(state, WRITE_PLANS);
        Some(plan)
    }
}

/// The fast write, if it applies: whether a watched change waits to be delivered, or `None`
/// (having changed nothing) for the slow path.
unsafe fn write_fast(state: *mut ffi::lua_State) -> Option<bool> {
    unsafe {
        if ffi::lua_type(state, 2) != ffi::LUA_TSTRING
            || !matches!(ffi::lua_type(state, 3), ffi::LUA_TBOOLEAN | ffi::LUA_TNUMBER | ffi::LUA_TSTRING)
        {
            return None;
        }
        let plan = write_plan(state)?;
        // A string that is not UTF-8: the slow path says so.
        let value = read_value(state, 3, &"").ok()?;
        let (uid, seen) = live_object_and_slot_at(state, 1)?;
        let engine = engine(state);
        let written = catch_unwind(AssertUnwindSafe(|| {
            let mut world = engine.world.borrow_mut();
            if !world.set_base_shown(seen, uid, plan.field, value)? {
                return Ok(None);
            }
            let objects = world.objects();
            let learned = (!objects.is_at(seen, uid)).then(|| objects.slot(uid)).flatten();
            Ok::<_, WorldError>(Some((learned, world.watches().has_pending())))
        }));
        let (learned, pending) = match written {
            Ok(Ok(Some(written))) => written,
            // The field's checker must judge the value, or the object is gone: the slow path
            // says so.
            Ok(Ok(None) | Err(_)) => return None,
            Err(_) => raise(state, "internal error: a field write panicked".into()),
        };
        if plan.shown && push_shadow(state) {
            ffi::lua_pushvalue(state, 2);
            ffi::lua_pushvalue(state, 3);
            ffi::lua_rawset(state, -3);
            ffi::lua_settop(state, -2);
        }
        if let Some(slot) = learned {
            ffi::lua_pushinteger(state, slot.into());
            ffi::lua_rawseti(state, 1, SLOT_ENTRY);
        }
        Some(pending)
    }
}
