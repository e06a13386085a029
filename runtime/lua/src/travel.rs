//! `Map.travel_to(map[, params])`, OpenNefia's way to take the player to another map: the
//! player arrives at `params.start_x`/`start_y` if given, else at the map's entrance, else
//! at its centre (the nearest open cell to that); the allies on the map left (characters
//! whose `relation` is "ally") follow to open cells near the player. `base.on_map_leave` is
//! emitted on the map left (params: `next_map`) before anyone moves, `base.on_map_enter` on
//! the new one (params: `previous_map`) once it is current. The map left is kept, unless it
//! is temporary (`map.is_temporary`): then it is deleted, with what is still on it, and goes
//! from the save with it, its file from `Map.save` too (as OpenNefia deletes it); a map that
//! is not temporary keeps its file. Travelling to the current map does nothing.

use mlua::{Lua, Table};

use super::convert::coordinate;
use super::handle::{live_map, push_map};
use super::{engine, rt_error};
use nefia_game::location::Holder;
use nefia_game::object::{ObjectKind, Uid};
use nefia_game::symbol::Symbol;

/// `Map.travel_to(map[, params])`; true once the player is there.
fn travel_to(lua: &Lua, (target, params): (Table, Option<Table>)) -> mlua::Result<bool> {
    let engine = engine(lua);
    let to = live_map(lua, &engine, &target)?;
    let (from, player) = {
        let world = engine.world.borrow();
        (world.current_map(), world.player())
    };
    let player = player.ok_or_else(|| rt_error(lua, "Map.travel_to: there is no player to take there"))?;
    let from = from.ok_or_else(|| rt_error(lua, "Map.travel_to: there is no current map to leave"))?;
    let start = match &params {
        Some(params) => match (params.get::<mlua::Value>("start_x")?, params.get::<mlua::Value>("start_y")?) {
            (mlua::Value::Nil, mlua::Value::Nil) => None,
            (x, y) => Some((coordinate(lua, &x, "params.start_x")?, coordinate(lua, &y, "params.start_y")?)),
        },
        None => None,
    };
    if from == to {
        return Ok(true);
    }
    let (x, y) = match start {
        Some(start) => start,
        None => {
            let world = engine.world.borrow();
            let map = world.map(to).map_err(|e| rt_error(lua, e))?;
            map.entrance.unwrap_or((map.width() / 2, map.height() / 2))
        }
    };

    let leaving = lua.create_table()?;
    leaving.set("next_map", &target)?;
    super::event::trigger(lua, Symbol::intern("base.on_map_leave"), mlua::Value::Table(push_map(lua, from)?), leaving)?;

    let allies = allies_on(&engine.world.borrow(), from, player);
    let (px, py) = place(lua, &engine, to, player, x, y)?;
    for ally in allies {
        place(lua, &engine, to, ally, px, py)?;
    }
    let temporary = {
        let mut world = engine.world.borrow_mut();
        world.set_current_map(to).map_err(|e| rt_error(lua, e))?;
        let left = world.map(from).map_err(|e| rt_error(lua, e))?;
        left.fields.base.get(Symbol::intern("is_temporary")).is_some_and(|v| !v.is_falsy())
    };
    let entering = lua.create_table()?;
    entering.set("previous_map", push_map(lua, from)?)?;
    super::event::trigger(lua, Symbol::intern("base.on_map_enter"), mlua::Value::Table(target), entering)?;
    if temporary {
        engine.world.borrow_mut().remove_map(from).map_err(|e| rt_error(lua, e))?;
        super::map_store::forget(lua, from)?;
    }
    Ok(true)
}

/// Whether a relation is an ally's: "ally", or OpenNefia's `Enum.Relation.Ally` (10) or above.
fn is_ally(relation: Option<&nefia_game::value::Value>) -> bool {
    use nefia_game::value::Value;
    match relation {
        Some(Value::Str(s)) => &**s == "ally",
        Some(Value::Int(i)) => *i >= 10,
        _ => false,
    }
}

/// The characters on map `map` whose relation is an ally's (see [`is_ally`]), the player aside.
fn allies_on(world: &nefia_game::world::World, map: nefia_game::map::MapId, player: Uid) -> Vec<Uid> {
    let relation = Symbol::intern("relation");
    world
        .iter_location(Holder::Map(map))
        .unwrap_or_default()
        .into_iter()
        .filter(|&uid| uid != player)
        .filter(|&uid| world.object(uid).is_ok_and(|o| o.kind == ObjectKind::Chara))
        .filter(|&uid| is_ally(world.base(uid, relation)))
        .collect()
}

/// Puts character `uid` on map `map` at the open cell nearest (x, y); where it went.
fn place(
    lua: &Lua,
    engine: &super::Engine,
    map: nefia_game::map::MapId,
    uid: Uid,
    x: i32,
    y: i32,
) -> mlua::Result<(i32, i32)> {
    let mut world = engine.world.borrow_mut();
    let (x, y) = world.nearest_open_position(map, x, y, ObjectKind::Chara).map_err(|e| rt_error(lua, e))?;
    world.take_object(Holder::Map(map), uid, x, y).map_err(|e| rt_error(lua, e))?;
    Ok((x, y))
}

/// Adds `travel_to` to the `Map` table `map`.
pub fn install(lua: &Lua, map: &Table) -> mlua::Result<()> {
    map.set("travel_to", lua.create_function(travel_to)?)
}
