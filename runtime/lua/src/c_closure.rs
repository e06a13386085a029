//! The C closures of object handles (`object_access.rs`, `field_shadow.rs`): how one is made
//! and what every one holds.
//!
//! Each is a C closure whose first upvalue is the [`Engine`] (a light userdata: the engine
//! lives in the Lua state's app data, so it outlives every call), then the weak cache of
//! object handles, the object handle metatable and the strong table of located objects'
//! handles, then the upvalues its kind adds. An error is raised as a Lua error at the line
//! of the Lua code that called it.

use std::ffi::{c_int, c_void};
use std::rc::Rc;

use mlua::{Function, Lua, ffi};

use super::Engine;

/// Every closure: the engine.
const ENGINE: c_int = ffi::lua_upvalueindex(1);
/// Every closure: the weak cache of object handles, by uid.
pub(crate) const OBJECT_CACHE: c_int = ffi::lua_upvalueindex(2);
/// Every closure: the shared metatable of object handles.
pub(crate) const OBJECT_META: c_int = ffi::lua_upvalueindex(3);
/// Every closure: the strong table of located objects' handles.
pub(crate) const LOCATED: c_int = ffi::lua_upvalueindex(4);
/// Levels up the stack to the Lua code that called a method or read a field.
pub(crate) const CALLER: c_int = 1;

/// Builds a C closure over the engine, the object cache, metatable and located table, and
/// `extra` upvalues.
pub(crate) fn closure(
    lua: &Lua,
    engine: &Rc<Engine>,
    function: ffi::lua_CFunction,
    extra: &[mlua::Value],
) -> mlua::Result<Function> {
    let engine = Rc::as_ptr(engine);
    let (cache, meta, located) = {
        let handles = engine_ref(engine).handles.borrow();
        (handles.object_cache().clone(), handles.object_meta.clone(), handles.located().clone())
    };
    let count = 4 + extra.len() as c_int;
    let mut values = vec![mlua::Value::Table(cache), mlua::Value::Table(meta), mlua::Value::Table(located)];
    values.extend_from_slice(extra);
    // SAFETY: exec_raw pushed the upvalues after the first; the engine pointer goes under
    // them so they become the closure's upvalues in order.
    unsafe {
        lua.exec_raw(mlua::MultiValue::from_vec(values), |state| {
            ffi::lua_pushlightuserdata(state, engine as *mut c_void);
            ffi::lua_rotate(state, 1, 1);
            ffi::lua_pushcclosure(state, function, count);
        })
    }
}

/// The engine behind the pointer a closure is made with.
fn engine_ref<'a>(engine: *const Engine) -> &'a Engine {
    // SAFETY: called with `Rc::as_ptr` of a live engine.
    unsafe { &*engine }
}

/// Raises `message` as a Lua error prefixed with the caller's `file:line:`.
pub(crate) unsafe fn raise(state: *mut ffi::lua_State, message: String) -> ! {
    unsafe {
        ffi::luaL_where(state, CALLER);
        ffi::lua_pushlstring(state, message.as_ptr().cast(), message.len());
        drop(message);
        ffi::lua_concat(state, 2);
        ffi::lua_error(state)
    }
}

/// The engine of the running closure.
///
/// # Safety
/// Only for the closures made by [`closure`], whose first upvalue is the engine.
pub(crate) unsafe fn engine<'a>(state: *mut ffi::lua_State) -> &'a Engine {
    // SAFETY: the engine outlives the Lua state's calls (see the module doc).
    unsafe { &*(ffi::lua_touserdata(state, ENGINE) as *const Engine) }
}
