//! `Chara`, `Item` and `Feat`: creating map objects and iterating them (seed: Map Objects).
//! The three tables share one implementation, parameterized by [`ObjectKind`]; `Chara` adds
//! `player` and `set_player`.

use mlua::{Lua, Table};

use super::handle::{holder_arg, live_object, maybe_sweep, object_list, push_object};
use super::{engine, ipairs, rt_error};
use crate::location::Holder;
use crate::object::ObjectKind;
use crate::world::WorldError;

/// Installs `Chara`, `Item` and `Feat` into `api`.
pub fn install(lua: &Lua, api: &Table) -> mlua::Result<()> {
    for (name, kind) in [("Chara", ObjectKind::Chara), ("Item", ObjectKind::Item), ("Feat", ObjectKind::Feat)] {
        let table = lua.create_table()?;
        table.set("create", lua.create_function(move |lua, args: mlua::MultiValue| create(lua, kind, args))?)?;
        table.set(
            "iter",
            lua.create_function(move |lua, location: Option<mlua::Value>| {
                let engine = engine(lua);
                let holder = match location {
                    Some(location) => holder_arg(lua, &engine, &location, "the location to iterate")?,
                    None => Holder::Map(
                        engine.world.borrow().current_map().ok_or_else(|| rt_error(lua, WorldError::NoCurrentMap))?,
                    ),
                };
                let uids: Vec<_> = {
                    let world = engine.world.borrow();
                    let all = world.iter_location(holder).map_err(|e| rt_error(lua, e))?;
                    all.into_iter().filter(|&uid| world.object(uid).is_ok_and(|o| o.kind == kind)).collect()
                };
                ipairs(lua, object_list(lua, &uids)?)
            })?,
        )?;
        api.set(name, table)?;
    }
    let chara: Table = api.get("Chara")?;
    chara.set(
        "player",
        lua.create_function(|lua, ()| {
            let player = engine(lua).world.borrow().player();
            player.map(|uid| push_object(lua, uid)).transpose()
        })?,
    )?;
    chara.set(
        "set_player",
        lua.create_function(|lua, chara: Table| {
            let engine = engine(lua);
            let uid = live_object(lua, &engine, &chara)?;
            engine.world.borrow_mut().set_player(uid).map_err(|e| rt_error(lua, e))
        })?,
    )?;
    Ok(())
}

/// A feat's `params` (OpenNefia's): `given` checked against the prototype's `params` schema
/// (see [`super::params`]); none if the feat declares none and none are given.
fn feat_params(lua: &Lua, id: &str, given: Option<Table>) -> mlua::Result<Option<Table>> {
    let schema = match super::data::prototype_table(lua, "base.feat", id)? {
        mlua::Value::Table(proto) => proto.get::<Option<Table>>("params")?,
        _ => None,
    };
    if schema.is_none() && given.as_ref().is_none_or(|g| g.is_empty()) {
        return Ok(None);
    }
    super::params::checked_params(lua, &format!("base.feat '{id}'"), schema, given).map(Some)
}

/// `Chara.create(id, x, y, options, location)` and its twins: makes an object from a
/// prototype and places it. Returns the object, or `nil, reason` when the location refuses it.
fn create(lua: &Lua, kind: ObjectKind, args: mlua::MultiValue) -> mlua::Result<(Option<Table>, Option<String>)> {
    let engine = engine(lua);
    let mut args = args.into_iter();
    let mut next = || args.next().unwrap_or(mlua::Value::Nil);
    let (id, x, y, options, location) = (next(), next(), next(), next(), next());
    let mlua::Value::String(id) = id else {
        return Err(rt_error(
            lua,
            format!(
                "the first argument must be a {} id (a string such as \"elona.putit\"), not {}",
                kind.data_type(),
                id.type_name()
            ),
        ));
    };
    let id = id.to_str()?;
    let coordinate = |value: &mlua::Value, name: &str| -> mlua::Result<Option<i32>> {
        match value {
            mlua::Value::Nil => Ok(None),
            value => super::convert::coordinate(lua, value, name).map(Some),
        }
    };
    let (x, y) = (coordinate(&x, "x")?, coordinate(&y, "y")?);
    let (ownerless, given_params) = match &options {
        mlua::Value::Nil => (false, None),
        mlua::Value::Table(options) => {
            (options.get::<Option<bool>>("ownerless")?.unwrap_or(false), options.get::<Option<Table>>("params")?)
        }
        other => {
            return Err(rt_error(lua, format!("options must be a table or nil, not {}", other.type_name())));
        }
    };
    let params = match kind {
        ObjectKind::Feat => feat_params(lua, &id, given_params)?,
        _ => None,
    };
    let holder = match (&location, ownerless) {
        (_, true) => None,
        (mlua::Value::Nil, false) => Some(Holder::Map(
            engine.world.borrow().current_map().ok_or_else(|| rt_error(lua, WorldError::NoCurrentMap))?,
        )),
        (location, false) => Some(holder_arg(lua, &engine, location, "location")?),
    };
    maybe_sweep(&engine);
    let uid = engine.world.borrow_mut().create(kind, &id).map_err(|e| rt_error(lua, e))?;
    if let Some(params) = params {
        let params =
            super::convert::from_lua(lua, &mlua::Value::Table(params), "params").map_err(|e| rt_error(lua, e))?;
        let set = engine.world.borrow_mut().set_base(uid, crate::Symbol::intern("params"), params);
        set.map_err(|e| rt_error(lua, e))?;
    }
    if let Some(holder) = holder {
        let (x, y) = match (holder, x, y) {
            (Holder::Map(map), None, _) | (Holder::Map(map), _, None) => {
                engine.world.borrow_mut().random_open_position(map, kind).map_err(|e| rt_error(lua, e))?
            }
            (_, x, y) => (x.unwrap_or(0), y.unwrap_or(0)),
        };
        let placed = engine.world.borrow_mut().take_object(holder, uid, x, y);
        match placed {
            Ok(()) => {}
            Err(WorldError::Refused(refusal)) => return Ok((None, Some(refusal.to_string()))),
            Err(other) => return Err(rt_error(lua, other)),
        }
    } else if let (Some(x), Some(y)) = (x, y) {
        engine.world.borrow_mut().set_pos(uid, x, y).map_err(|e| rt_error(lua, e))?;
    }
    // The handle is made before the refresh handlers run, so the object is held meanwhile.
    let handle = push_object(lua, uid)?;
    super::object::refresh(lua, uid)?;
    Ok((Some(handle), None))
}
