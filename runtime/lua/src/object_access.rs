//! The hottest parts of the object API as raw Lua C functions: the `__index` of object and
//! map handles (method lookup and plain field reads), `calc`, `mod` and `objects_at_pos`;
//! `field_shadow.rs` has the shadow of an object handle, which the object `__index` fills,
//! and `obj.field = v`.
//!
//! An mlua callback costs about 90 ns before it does anything, and about 75 ns more for every
//! table or string argument (each becomes a registry reference); a Lua `__index` function
//! adds a whole Lua call to every method call. Game code runs these in its tightest loops, so
//! they read their arguments straight off the Lua stack. They call the same world operations
//! as the rest of the API; only the marshalling differs.
//!
//! Each function is a C closure of `c_closure.rs`; the `__index` closures also hold the
//! methods table and the mlua function for the fields that need it.

use std::cell::Cell;
use std::ffi::{CStr, c_int};
use std::mem::ManuallyDrop;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::rc::Rc;

use mlua::{Function, Lua, Table, ffi};

use super::c_closure::{CALLER, LOCATED, OBJECT_CACHE, OBJECT_META, closure, engine, raise};
use super::convert::{push_value, read_value, string_at};
use super::field_shadow::{METHODS, SHADOW_OF, keep_shown, object_newindex};
use super::handle::{
    EQUIP_ENTRY, HandleOf, ID_ENTRY, OWN_METHODS, OWN_METHODS_ENTRY, SLOT_ENTRY, live_object_and_slot_at, push_handle,
    stale_message,
};
use super::{Engine, caller};
use nefia_game::map::MapId;
use nefia_game::moddable::ModMethod;
use nefia_game::object::Uid;
use nefia_game::symbol::Symbol;
use nefia_game::value::Value;
use nefia_game::world::{NO_SLOT, Slot, WorldError};

/// `__index` closures: the mlua function reading the fields they delegate.
const FIELDS: c_int = ffi::lua_upvalueindex(6);
/// `objects_at_pos`: the `ipairs` iterator.
const ITERATOR: c_int = ffi::lua_upvalueindex(5);
/// `mod`: the function delivering watched changes (`watch.rs`).
const DELIVER: c_int = ffi::lua_upvalueindex(5);
/// `mod`: the table keeping the calling functions it remembers alive (`caller.rs`).
const CALLERS: c_int = ffi::lua_upvalueindex(6);

/// Fields of objects read by the mlua function (they make handles, userdata or tables, or are
/// OpenNefia's object machinery).
const SLOW_FIELDS: [&[u8]; 6] = [b"location", b"equip", b"temp", b"proto", b"__mt", b"__iface"];

/// Fills the `__index` and the fast methods of the object and map metatables.
/// `object_slow_get` and `map_get` are the mlua functions for the remaining fields.
pub(crate) fn install(
    lua: &Lua,
    engine: &Rc<Engine>,
    (object_meta, object_methods, object_slow_get): (&Table, &Table, Function),
    (map_meta, map_methods, map_get): (&Table, &Table, Function),
) -> mlua::Result<()> {
    let ipairs_iter = mlua::Value::Function(engine.ipairs_iter.clone());
    object_methods.raw_set("calc", closure(lua, engine, calc, &[])?)?;
    let deliver =
        mlua::Value::Function(lua.create_function(|lua, ()| super::watch::deliver(lua, super::watch::Writer::Lua))?);
    let callers = mlua::Value::Table(lua.create_table()?);
    object_methods.raw_set("mod", closure(lua, engine, modify, &[deliver.clone(), callers])?)?;
    let own = lua.create_table()?;
    for name in OWN_METHODS {
        own.raw_set(name, object_methods.raw_get::<Function>(name)?)?;
    }
    object_meta.raw_set(OWN_METHODS_ENTRY, own)?;
    map_methods.raw_set("objects_at_pos", closure(lua, engine, objects_at_pos, &[ipairs_iter])?)?;
    let methods = |t: &Table| mlua::Value::Table(t.clone());
    // Object handles' field reads and writes, and their shadows' (see `field_shadow.rs`).
    let shadow_meta = lua.create_table()?;
    let shadowed = engine.handles.borrow().shadows().shadowed;
    let index_upvalues = [
        methods(object_methods),
        mlua::Value::Function(object_slow_get),
        mlua::Value::Table(shadow_meta.clone()),
        mlua::Value::Table(shadowed),
    ];
    object_meta.raw_set("__index", closure(lua, engine, object_index, &index_upvalues)?)?;
    shadow_meta.raw_set("__index", closure(lua, engine, shadow_index, &index_upvalues)?)?;
    let slow_set = object_meta.raw_get::<mlua::Value>("__newindex")?;
    let write_plans = mlua::Value::Table(lua.create_table()?);
    let newindex_upvalues = [methods(object_methods), slow_set, deliver, write_plans];
    object_meta.raw_set("__newindex", closure(lua, engine, object_newindex, &newindex_upvalues)?)?;
    map_meta.raw_set(
        "__index",
        closure(lua, engine, map_index, &[methods(map_methods), mlua::Value::Function(map_get)])?,
    )?;
    Ok(())
}

/// What a fast function gives back, pushed after all Rust work is done.
enum Answer {
    /// Nothing.
    Nothing,
    /// A plain value.
    Value(Value),
    /// A base value of the object, which its handle's shadow keeps if it can (see
    /// `field_shadow.rs`).
    Shown(Value),
    /// A list of object handles, returned as `ipairs(list)` with the iterator at `ITERATOR`.
    Objects(Vec<Uid>),
    /// Call the function at upvalue `FIELDS` with the two arguments and return its result.
    Delegate,
    /// The handle's kept `obj.equip` (see [`EQUIP_ENTRY`]), or [`Answer::Delegate`] to make it.
    Equip,
}

/// Why a handle's method raises a Lua error (raised as its text at the caller's line).
#[derive(Debug, thiserror::Error)]
pub(crate) enum HandleError {
    /// The handle is of a game loaded before the one now.
    #[error("{}", stale_message(what, lookup, *id))]
    Stale {
        /// What it refers to ("an object", "a map").
        what: &'static str,
        /// The function that looks it up again.
        lookup: &'static str,
        /// Its stored id (negative: stale).
        id: i64,
    },
    /// The method was called on something that is not a handle (called with `.`, not `:`).
    #[error("expected {expected}, got {got}; call methods with ':' ({example}:method()), not '.'")]
    NotAHandle {
        /// The handle expected ("a map object", "a map").
        expected: &'static str,
        /// What was given instead.
        got: String,
        /// The variable in the example ("obj", "map").
        example: &'static str,
    },
    /// An argument of the wrong type.
    #[error("bad argument #{position} to '{function}' ({expected} expected, got {got})")]
    BadArgument {
        /// Its position (the receiver not counted).
        position: u8,
        /// The method.
        function: String,
        /// What it must be.
        expected: &'static str,
        /// What was given instead.
        got: String,
    },
    /// A field name that is not UTF-8.
    #[error("field names must be UTF-8")]
    FieldNameNotUtf8,
    /// `objects_at_pos` was not given integers.
    #[error("objects_at_pos needs integer x and y, got {x} and {y}")]
    PositionNotIntegers {
        /// The type of x.
        x: String,
        /// The type of y.
        y: String,
    },
    /// A value that cannot be stored.
    #[error("{0}")]
    Value(#[from] super::convert::ConvertError),
    /// A modifier method that does not exist.
    #[error("{0}")]
    Method(#[from] nefia_game::moddable::ModError),
    /// The world refused (the object is gone, the map does not exist).
    #[error("{0}")]
    World(#[from] WorldError),
    /// The method panicked (an engine bug).
    #[error("internal error: {0}")]
    Panic(String),
}

/// Runs `body` and pushes its answer; an error (or a panic) becomes a Lua error at the
/// caller's line.
///
/// Lua reports errors, including running out of memory while pushing, with `longjmp`, which
/// must not skip a Rust destructor: `body` finishes (and drops its temporaries) before
/// anything is pushed, and the answer is held in a `ManuallyDrop` while it is pushed (if Lua
/// runs out of memory there, the answer leaks instead of being dropped).
///
/// # Safety
/// Only for the closures made by [`closure`].
unsafe fn guarded(state: *mut ffi::lua_State, body: impl FnOnce() -> Result<Answer, HandleError>) -> c_int {
    let outcome = catch_unwind(AssertUnwindSafe(body)).unwrap_or_else(|panic| {
        let message =
            panic.downcast_ref::<String>().cloned().or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()));
        Err(HandleError::Panic(message.unwrap_or_else(|| "panic".into())))
    });
    let answer = match outcome {
        Ok(answer) => ManuallyDrop::new(answer),
        // SAFETY: nothing is left to drop in this frame.
        Err(error) => unsafe { raise(state, error.to_string()) },
    };
    // SAFETY: the upvalues are the ones `closure` set up.
    let results = unsafe {
        match &*answer {
            Answer::Nothing => 0,
            // A field holding an object: its handle, or nil once the object is gone.
            Answer::Value(Value::Object(uid)) | Answer::Shown(Value::Object(uid)) => {
                if engine(state).world.borrow().exists(*uid) {
                    push_handle(state, (OBJECT_CACHE, OBJECT_META, Some(LOCATED)), HandleOf::Object, uid.0);
                } else {
                    ffi::lua_pushnil(state);
                }
                1
            }
            Answer::Value(value) | Answer::Shown(value @ (Value::List(_) | Value::Map(_))) => {
                push_value(state, value);
                1
            }
            // A boolean, number or string: the same value every read until a change.
            Answer::Shown(value) => {
                push_value(state, value);
                if !matches!(value, Value::Nil) {
                    keep_shown(state);
                }
                1
            }
            // Most cells hold no object or one: those need no list.
            Answer::Objects(uids) if uids.is_empty() => {
                ffi::lua_pushcfunction(state, iterate_nothing);
                ffi::lua_pushnil(state);
                ffi::lua_pushinteger(state, 0);
                3
            }
            Answer::Objects(uids) if uids.len() == 1 => {
                ffi::lua_pushcfunction(state, iterate_one);
                push_handle(state, (OBJECT_CACHE, OBJECT_META, Some(LOCATED)), HandleOf::Object, uids[0].0);
                ffi::lua_pushinteger(state, 0);
                3
            }
            Answer::Objects(uids) => {
                ffi::lua_pushvalue(state, ITERATOR);
                ffi::lua_createtable(state, uids.len().min(c_int::MAX as usize) as c_int, 0);
                for (i, uid) in uids.iter().enumerate() {
                    push_handle(state, (OBJECT_CACHE, OBJECT_META, Some(LOCATED)), HandleOf::Object, uid.0);
                    ffi::lua_rawseti(state, -2, i as ffi::lua_Integer + 1);
                }
                ffi::lua_pushinteger(state, 0);
                3
            }
            Answer::Delegate => delegate(state),
            Answer::Equip => {
                if ffi::lua_rawgeti(state, 1, EQUIP_ENTRY) == ffi::LUA_TTABLE {
                    1
                } else {
                    ffi::lua_settop(state, -2);
                    delegate(state)
                }
            }
        }
    };
    drop(ManuallyDrop::into_inner(answer));
    results
}

/// Calls the function at upvalue `FIELDS` with the key's two arguments (the handle and the
/// key) and leaves its one result.
///
/// # Safety
/// Only for the `__index` closures made by [`closure`].
unsafe fn delegate(state: *mut ffi::lua_State) -> c_int {
    unsafe {
        ffi::lua_pushvalue(state, FIELDS);
        ffi::lua_pushvalue(state, 1);
        ffi::lua_pushvalue(state, 2);
        ffi::lua_call(state, 2, 1);
    }
    1
}

/// The iterator over no object: `for` stops at once.
unsafe extern "C-unwind" fn iterate_nothing(_state: *mut ffi::lua_State) -> c_int {
    0
}

/// The iterator over one object (the state): yields `1, object` once.
unsafe extern "C-unwind" fn iterate_one(state: *mut ffi::lua_State) -> c_int {
    unsafe {
        if ffi::lua_tointegerx(state, 2, std::ptr::null_mut()) != 0 {
            return 0;
        }
        ffi::lua_pushinteger(state, 1);
        ffi::lua_pushvalue(state, 1);
        2
    }
}

unsafe fn type_name(state: *mut ffi::lua_State, index: c_int) -> String {
    unsafe { CStr::from_ptr(ffi::lua_typename(state, ffi::lua_type(state, index))).to_string_lossy().into_owned() }
}

/// The id stored in the handle at `index` (negative for a handle forgotten by a load), if
/// it is a table holding one.
unsafe fn handle_at(state: *mut ffi::lua_State, index: c_int) -> Option<i64> {
    unsafe {
        if ffi::lua_type(state, index) != ffi::LUA_TTABLE {
            return None;
        }
        let mut ok = 0;
        ffi::lua_rawgeti(state, index, ID_ENTRY);
        let id = ffi::lua_tointegerx(state, -1, &mut ok);
        ffi::lua_settop(state, -2);
        (ok != 0).then_some(id)
    }
}

/// The uid of the object handle at `index`, checked against loads but not for being alive.
/// Any table with an id passes: a forged one can only name an object by uid, as
/// `World.object(uid)` can.
unsafe fn object_at(state: *mut ffi::lua_State, index: c_int) -> Result<Uid, HandleError> {
    match unsafe { handle_at(state, index) } {
        Some(id) if id > 0 => Ok(Uid(id as u64)),
        Some(id) => Err(HandleError::Stale { what: "an object", lookup: "World.object", id }),
        None => Err(HandleError::NotAHandle {
            expected: "a map object",
            got: unsafe { type_name(state, index) },
            example: "obj",
        }),
    }
}

/// The uid of the object handle at `index` and the slot its object was last seen at, or
/// [`NO_SLOT`]; for anything but a live handle, [`object_at`]'s error.
pub(crate) unsafe fn object_and_slot_at(state: *mut ffi::lua_State, index: c_int) -> Result<(Uid, Slot), HandleError> {
    // SAFETY: as the caller's.
    match unsafe { live_object_and_slot_at(state, index) } {
        Some(live) => Ok(live),
        // Stale or not a handle: the one reader says which.
        None => unsafe { object_at(state, index) }.map(|uid| (uid, NO_SLOT)),
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

/// Runs `body` (as [`guarded`] does) on the object handle at index 1, given its uid and the
/// slot it last saw its object at; then, if the object is elsewhere, the handle learns its
/// slot (after the results are pushed: growing the table may raise).
///
/// # Safety
/// Only for the closures made by [`closure`], called on a handle.
unsafe fn on_handle(
    state: *mut ffi::lua_State,
    body: impl FnOnce(&Engine, Uid, Slot) -> Result<Answer, HandleError>,
) -> c_int {
    let learned = Cell::new(None);
    // SAFETY: as the caller's.
    unsafe {
        let results = guarded(state, || {
            let engine = engine(state);
            let (uid, seen) = object_and_slot_at(state, 1)?;
            let answer = body(engine, uid, seen)?;
            let world = engine.world.borrow();
            let objects = world.objects();
            if !objects.is_at(seen, uid) {
                learned.set(objects.slot(uid));
            }
            Ok(answer)
        });
        if let Some(slot) = learned.get() {
            ffi::lua_pushinteger(state, slot.into());
            ffi::lua_rawseti(state, 1, SLOT_ENTRY);
        }
        results
    }
}

/// Pushes the method named by the key at index 2, if there is one (the `__index` closures'
/// first look); otherwise leaves the stack as it was.
unsafe fn push_method(state: *mut ffi::lua_State) -> bool {
    unsafe {
        ffi::lua_pushvalue(state, 2);
        if ffi::lua_rawget(state, METHODS) != ffi::LUA_TNIL {
            return true;
        }
        ffi::lua_settop(state, -2);
        false
    }
}

/// `__index` of object handles: a method; else `location`, `equip`, `temp` or `proto`
/// through the mlua function; else the managed names (`uid`, `_id`, `_type`, `x`, `y`) and
/// base values.
pub(crate) unsafe extern "C-unwind" fn object_index(state: *mut ffi::lua_State) -> c_int {
    unsafe {
        if push_method(state) {
            return 1;
        }
        let key = (ffi::lua_type(state, 2) == ffi::LUA_TSTRING).then(|| string_at(state, 2));
        match key {
            None => guarded(state, || Ok(Answer::Value(Value::Nil))),
            // Readable even on a stale handle, so the object can be looked up again.
            Some(b"uid") => {
                guarded(state, || Ok(Answer::Value(Value::Int(handle_at(state, 1).unwrap_or_default().abs()))))
            }
            // Kept by the handle once made, for a live object.
            Some(b"equip") => {
                on_handle(state, |engine, uid, seen| match engine.world.borrow().objects().get_near(seen, uid) {
                    Some(_) => Ok(Answer::Equip),
                    None => Err(WorldError::NoSuchObject(uid).into()),
                })
            }
            Some(key) if SLOW_FIELDS.contains(&key) => guarded(state, || Ok(Answer::Delegate)),
            Some(key) => on_handle(state, |engine, uid, seen| {
                let world = engine.world.borrow();
                let object = world.objects().get_near(seen, uid).ok_or(WorldError::NoSuchObject(uid))?;
                Ok(match key {
                    b"_id" => Answer::Value(Value::str(object.id.as_str())),
                    b"_type" => Answer::Value(Value::str(object.kind.data_type())),
                    b"x" => Answer::Value(Value::Int(object.x.into())),
                    b"y" => Answer::Value(Value::Int(object.y.into())),
                    _ => Answer::Shown(
                        engine
                            .lookup_symbol(key)
                            .and_then(|field| {
                                object.fields.base(field, &world.data.proto(object.proto).fields).cloned()
                            })
                            .unwrap_or_default(),
                    ),
                })
            }),
        }
    }
}

/// `__index` of map handles: a method, else the mlua function for the fields.
unsafe extern "C-unwind" fn map_index(state: *mut ffi::lua_State) -> c_int {
    unsafe { if push_method(state) { 1 } else { guarded(state, || Ok(Answer::Delegate)) } }
}

/// The field name at `index` as an existing symbol (`None` if no object ever had such a
/// field), or an error if it is not a string.
unsafe fn field_at(
    state: *mut ffi::lua_State,
    engine: &Engine,
    index: c_int,
    function: &str,
) -> Result<Option<Symbol>, HandleError> {
    if unsafe { ffi::lua_type(state, index) } != ffi::LUA_TSTRING {
        return Err(HandleError::BadArgument {
            position: 1,
            function: function.to_owned(),
            expected: "a field name string",
            got: unsafe { type_name(state, index) },
        });
    }
    Ok(engine.lookup_symbol(unsafe { string_at(state, index) }))
}

/// `obj:calc(field)`: temp if set, else base, else nil.
unsafe extern "C-unwind" fn calc(state: *mut ffi::lua_State) -> c_int {
    unsafe {
        on_handle(state, |engine, uid, seen| {
            let field = field_at(state, engine, 2, "calc")?;
            let world = engine.world.borrow();
            let value = match field {
                Some(field) => world.calc_near(seen, uid, field)?.cloned(),
                // No object ever had the field; it only has to be alive.
                None if world.objects().get_near(seen, uid).is_some() => None,
                None => return Err(WorldError::NoSuchObject(uid).into()),
            };
            Ok(Answer::Value(value.unwrap_or_default()))
        })
    }
}

/// `obj:mod(field, value[, method])`; then, if it changed a watched field, the change is
/// delivered while the calling line is still on the stack.
unsafe extern "C-unwind" fn modify(state: *mut ffi::lua_State) -> c_int {
    unsafe {
        let new_caller = Cell::new(None);
        let results = modify_field(state, &new_caller);
        if let Some(new) = new_caller.get() {
            caller::remember(state, engine(state), CALLER, CALLERS, new);
        }
        if engine(state).world.borrow().watches().has_pending() {
            // Nothing of this frame needs dropping if the delivery raises.
            ffi::lua_pushvalue(state, DELIVER);
            ffi::lua_call(state, 0, 0);
        }
        results
    }
}

/// The work of [`modify`]; a calling function seen for the first time is put in `new_caller`.
unsafe fn modify_field(state: *mut ffi::lua_State, new_caller: &Cell<Option<caller::NewCaller>>) -> c_int {
    unsafe {
        on_handle(state, |engine, uid, seen| {
            if ffi::lua_type(state, 2) != ffi::LUA_TSTRING {
                return Err(HandleError::BadArgument {
                    position: 1,
                    function: "mod".into(),
                    expected: "a field name string",
                    got: type_name(state, 2),
                });
            }
            let name = string_at(state, 2);
            let field = match engine.lookup_symbol(name) {
                Some(known) => known,
                None => Symbol::intern(std::str::from_utf8(name).map_err(|_| HandleError::FieldNameNotUtf8)?),
            };
            let value = read_value(state, 3, &field)?;
            let method = match ffi::lua_type(state, 4) {
                ffi::LUA_TNIL | ffi::LUA_TNONE => ModMethod::Set,
                ffi::LUA_TSTRING => ModMethod::parse(string_at(state, 4))?,
                _ => {
                    return Err(HandleError::BadArgument {
                        position: 3,
                        function: "mod".into(),
                        expected: "a method name",
                        got: type_name(state, 4),
                    });
                }
            };
            let origin = caller::origin(state, engine, CALLER, new_caller);
            let mut world = engine.world.borrow_mut();
            world.mod_temp_near(seen, uid, field, value, method, origin)?;
            Ok(Answer::Nothing)
        })
    }
}

/// `map:objects_at_pos(x, y)`: `ipairs` over a list of the handles at (x, y).
unsafe extern "C-unwind" fn objects_at_pos(state: *mut ffi::lua_State) -> c_int {
    unsafe {
        guarded(state, || {
            let engine = engine(state);
            let id = match handle_at(state, 1) {
                Some(id) if id > 0 => id as u64,
                Some(id) => return Err(HandleError::Stale { what: "a map", lookup: "Map.get", id }),
                None => {
                    let got = type_name(state, 1);
                    return Err(HandleError::NotAHandle { expected: "a map", got, example: "map" });
                }
            };
            let mut ok = (0, 0);
            let (x, y) = (ffi::lua_tointegerx(state, 2, &mut ok.0), ffi::lua_tointegerx(state, 3, &mut ok.1));
            if ok.0 == 0 || ok.1 == 0 {
                return Err(HandleError::PositionNotIntegers { x: type_name(state, 2), y: type_name(state, 3) });
            }
            let world = engine.world.borrow();
            let map = world.map(MapId(id))?;
            // A position past i32 is outside every map: nothing is there.
            let objects = match (i32::try_from(x), i32::try_from(y)) {
                (Ok(x), Ok(y)) => map.objects_at(x, y).to_vec(),
                _ => Vec::new(),
            };
            Ok(Answer::Objects(objects))
        })
    }
}
