//! ILocation as methods of handles (seed: Object Ownership and Locations): `take_object`,
//! `can_take_object`, `move_object`, `remove_object`, `iter`, `has_object` and
//! `is_positional` (true for maps), the same for map handles and for characters and
//! containers. (`objects_at_pos` is each one's own: a fast C
//! function on maps, see `object_access.rs`.)

use std::rc::Rc;

use mlua::{IntoLuaMulti, Lua, Table};

use super::handle::{object_arg, object_list, push_object};
use super::{Engine, ipairs, rt_error};
use nefia_game::location::Holder;
use nefia_game::object::Uid;
use nefia_game::world::WorldError;

/// Finds the engine and the live location behind a method's receiver `this`.
pub type Receiver = fn(&Lua, &Table) -> mlua::Result<(Rc<Engine>, Holder)>;

/// The engine's `take_object`: the object moved into `holder`, or `nil, reason`.
fn take(
    lua: &Lua,
    engine: &Engine,
    holder: Holder,
    object: &mlua::Value,
    x: Option<i32>,
    y: Option<i32>,
) -> mlua::Result<Answer<Option<Table>>> {
    let uid = object_arg(lua, engine, object, "the object to take")?;
    let (x, y) = position(lua, engine, holder, uid, x, y)?;
    let result = engine.world.borrow_mut().take_object(holder, uid, x, y);
    answer(lua, result, || Ok(Some(push_object(lua, uid)?)), None)
}

/// The engine's `can_take_object`: true, or `false, reason`.
fn can_take(
    lua: &Lua,
    engine: &Engine,
    holder: Holder,
    object: &mlua::Value,
    x: Option<i32>,
    y: Option<i32>,
) -> mlua::Result<Answer<bool>> {
    let uid = object_arg(lua, engine, object, "the object")?;
    let (x, y) = position(lua, engine, holder, uid, x, y)?;
    let result = engine.world.borrow().can_take_object(holder, uid, x, y);
    answer(lua, result, || Ok(true), false)
}

/// The function prototype of object location `holder` gives for `name` (one of
/// [`super::data::LOCATION_RULES`]), if it overrides the engine's: the seed's "usually
/// overridden by the object implementing ILocation".
fn overriding(lua: &Lua, engine: &Engine, holder: Holder, name: &str) -> mlua::Result<Option<mlua::Function>> {
    let Holder::Object(uid) = holder else { return Ok(None) };
    let (kind, id) = {
        let world = engine.world.borrow();
        let object = world.object(uid).map_err(|e| rt_error(lua, e))?;
        (object.kind, object.id)
    };
    if !engine.location_overrides.borrow().contains(&id) {
        return Ok(None);
    }
    match super::data::prototype_table(lua, kind.data_type(), id.as_str())? {
        mlua::Value::Table(proto) => match proto.raw_get::<mlua::Value>(name)? {
            mlua::Value::Function(function) => Ok(Some(function)),
            _ => Ok(None),
        },
        _ => Ok(None),
    }
}

/// A location rule as the engine has it (`take` or `can_take`).
type EngineRule<T> = fn(&Lua, &Engine, Holder, &mlua::Value, Option<i32>, Option<i32>) -> mlua::Result<T>;

/// The method `name` (`obj:take_object(other, x, y)` or its question): the prototype's own
/// rule if it gives one, else the engine's.
fn overridable<T: IntoLuaMulti + 'static>(
    lua: &Lua,
    name: &'static str,
    receiver: Receiver,
    engine_rule: EngineRule<T>,
) -> mlua::Result<mlua::Function> {
    lua.create_function(move |lua, (this, object, x, y): (Table, mlua::Value, Option<i32>, Option<i32>)| {
        let (engine, holder) = receiver(lua, &this)?;
        if let Some(own) = overriding(lua, &engine, holder, name)? {
            return own.call::<mlua::MultiValue>((this, object, x, y));
        }
        engine_rule(lua, &engine, holder, &object, x, y)?.into_lua_multi(lua)
    })
}

/// Adds the ILocation methods to `methods`, each finding its location with `receiver`.
/// `take_object` and `can_take_object` call the prototype's own if it has one; that one
/// reaches the engine's rules with `ILocation.take_object(self, obj, x, y)`.
pub fn add_methods(lua: &Lua, methods: &Table, receiver: Receiver) -> mlua::Result<()> {
    methods.raw_set("take_object", overridable(lua, "take_object", receiver, take)?)?;
    methods.raw_set("can_take_object", overridable(lua, "can_take_object", receiver, can_take)?)?;
    methods.raw_set(
        "is_positional",
        lua.create_function(move |lua, this: Table| Ok(matches!(receiver(lua, &this)?.1, Holder::Map(_))))?,
    )?;
    methods.raw_set(
        "has_object",
        lua.create_function(move |lua, (this, object): (Table, mlua::Value)| {
            let (engine, holder) = receiver(lua, &this)?;
            let Some(uid) = super::handle::object_uid(&engine, &object) else { return Ok(false) };
            let world = engine.world.borrow();
            Ok(world.object(uid).is_ok_and(|o| o.location().map(|l| l.holder()) == Some(holder)))
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

/// Installs `ILocation` into `api`: the engine's own `take_object` and `can_take_object`,
/// for a prototype that overrides them to call (`ILocation.take_object(self, obj, x, y)`).
pub fn install(lua: &Lua, api: &Table) -> mlua::Result<()> {
    let table = lua.create_table()?;
    table.set("take_object", engine_rule(lua, "ILocation.take_object", take)?)?;
    table.set("can_take_object", engine_rule(lua, "ILocation.can_take_object", can_take)?)?;
    api.set("ILocation", table)
}

/// `ILocation.<name>(location, obj, x, y)`: the engine's rule for any location, whatever
/// its prototype says.
fn engine_rule<T: IntoLuaMulti + 'static>(
    lua: &Lua,
    name: &'static str,
    rule: EngineRule<T>,
) -> mlua::Result<mlua::Function> {
    lua.create_function(move |lua, (this, object, x, y): (mlua::Value, mlua::Value, Option<i32>, Option<i32>)| {
        let engine = super::engine(lua);
        let holder = super::handle::holder_arg(lua, &engine, &this, &format!("{name}'s location"))?;
        rule(lua, &engine, holder, &object, x, y)?.into_lua_multi(lua)
    })
}

/// The seed's answer to an operation a location may refuse: its result alone, or `no, reason`
/// when the location refused — one value when it went through, so a REPL shows
/// `Chara.create(...)`'s object and no stray `nil` after it.
pub(super) enum Answer<T> {
    /// It went through: this is the result.
    Yes(T),
    /// The location refused: the answer for no, and why.
    No(T, String),
}

impl<T: mlua::IntoLua> IntoLuaMulti for Answer<T> {
    fn into_lua_multi(self, lua: &Lua) -> mlua::Result<mlua::MultiValue> {
        match self {
            Answer::Yes(value) => value.into_lua_multi(lua),
            Answer::No(value, reason) => (value, reason).into_lua_multi(lua),
        }
    }
}

/// The seed's answer to a location operation: `yes()`, or `no, reason` when the location
/// refused; other failures (a removed object, say) are raised.
fn answer<T>(
    lua: &Lua,
    result: Result<(), WorldError>,
    yes: impl FnOnce() -> mlua::Result<T>,
    no: T,
) -> mlua::Result<Answer<T>> {
    match result {
        Ok(()) => Ok(Answer::Yes(yes()?)),
        Err(WorldError::Refused(refusal)) => Ok(Answer::No(no, refusal.to_string())),
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
