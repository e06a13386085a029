//! ILocation as methods of handles (seed: Object Ownership and Locations): `take_object`,
//! `can_take_object`, `move_object`, `remove_object` and `iter`, the same for map handles
//! and for characters and containers. (`objects_at_pos` is each one's own: a fast C
//! function on maps, see `object_access.rs`.)

use std::rc::Rc;

use mlua::{Lua, Table};

use super::handle::{object_arg, object_list, push_object};
use super::{Engine, ipairs, rt_error};
use crate::location::Holder;
use crate::object::Uid;
use crate::world::WorldError;

/// Finds the engine and the live location behind a method's receiver `this`.
pub type Receiver = fn(&Lua, &Table) -> mlua::Result<(Rc<Engine>, Holder)>;

/// Adds the ILocation methods to `methods`, each finding its location with `receiver`.
pub fn add_methods(lua: &Lua, methods: &Table, receiver: Receiver) -> mlua::Result<()> {
    methods.raw_set(
        "take_object",
        lua.create_function(move |lua, (this, object, x, y): (Table, mlua::Value, Option<i32>, Option<i32>)| {
            let (engine, holder) = receiver(lua, &this)?;
            let uid = object_arg(lua, &engine, &object, "the object to take")?;
            let (x, y) = position(lua, &engine, holder, uid, x, y)?;
            let result = engine.world.borrow_mut().take_object(holder, uid, x, y);
            answer(lua, result, || Ok(Some(push_object(lua, uid)?)), None)
        })?,
    )?;
    methods.raw_set(
        "can_take_object",
        lua.create_function(move |lua, (this, object, x, y): (Table, mlua::Value, Option<i32>, Option<i32>)| {
            let (engine, holder) = receiver(lua, &this)?;
            let uid = object_arg(lua, &engine, &object, "the object")?;
            let (x, y) = position(lua, &engine, holder, uid, x, y)?;
            let result = engine.world.borrow().can_take_object(holder, uid, x, y);
            answer(lua, result, || Ok(true), false)
        })?,
    )?;
    methods.raw_set(
        "move_object",
        lua.create_function(move |lua, (this, object, x, y): (Table, mlua::Value, i32, i32)| {
            let (engine, holder) = receiver(lua, &this)?;
            let uid = object_arg(lua, &engine, &object, "the object to move")?;
            engine.world.borrow_mut().move_object(holder, uid, x, y).map_err(|e| rt_error(lua, e))
        })?,
    )?;
    methods.raw_set(
        "remove_object",
        lua.create_function(move |lua, (this, object): (Table, mlua::Value)| {
            let (engine, holder) = receiver(lua, &this)?;
            let uid = object_arg(lua, &engine, &object, "the object to remove")?;
            engine.world.borrow_mut().remove_object(holder, uid).map_err(|e| rt_error(lua, e))
        })?,
    )?;
    methods.raw_set(
        "iter",
        lua.create_function(move |lua, this: Table| {
            let (engine, holder) = receiver(lua, &this)?;
            let uids = engine.world.borrow().iter_location(holder).map_err(|e| rt_error(lua, e))?;
            ipairs(lua, object_list(lua, &uids)?)
        })?,
    )?;
    Ok(())
}

/// The seed's answer to a location operation: `yes()`, or `no, reason` when the location
/// refused; other failures (a removed object, say) are raised.
fn answer<T>(
    lua: &Lua,
    result: Result<(), WorldError>,
    yes: impl FnOnce() -> mlua::Result<T>,
    no: T,
) -> mlua::Result<(T, Option<String>)> {
    match result {
        Ok(()) => Ok((yes()?, None)),
        Err(WorldError::Refused(refusal)) => Ok((no, Some(refusal.to_string()))),
        Err(other) => Err(rt_error(lua, other)),
    }
}

/// Where in `holder` object `uid` goes: (0, 0) in an inventory (where position means
/// nothing); on a map (x, y) if given, else a random open cell.
fn position(
    lua: &Lua,
    engine: &Engine,
    holder: Holder,
    uid: Uid,
    x: Option<i32>,
    y: Option<i32>,
) -> mlua::Result<(i32, i32)> {
    match (holder, x, y) {
        (Holder::Object(_), _, _) => Ok((0, 0)),
        (_, Some(x), Some(y)) => Ok((x, y)),
        (Holder::Map(map), _, _) => {
            let kind = engine.world.borrow().object(uid).map_err(|e| rt_error(lua, e))?.kind;
            engine.world.borrow_mut().random_open_position(map, kind).map_err(|e| rt_error(lua, e))
        }
    }
}
