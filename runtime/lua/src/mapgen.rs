//! Procedural maps: `Map.generate(id, params, seed)` runs a `base.map_generator` prototype
//! on a fresh map, and `Map.validate(map)` runs every `base.map_validator` on a map.
//!
//! A generator is `data:add { _type = "base.map_generator", _id = "cave", width = 80,
//! height = 40, tile = "base.wall", params = { fill = { type = "float", default = 0.45,
//! min = 0, max = 1 } }, generate = function(map, params, rng) ... end }`. The params given
//! are checked against the schema (unknown names, types, bounds) and completed with its
//! defaults; `width` and `height` params, if the schema has them, size the map. While
//! `generate` runs, the world's random numbers come from a generator seeded with `seed` —
//! `rng:random(...)` and `math.random(...)` alike, and whatever the API draws — and the
//! game's own sequence is put back after, so the same seed gives the same map whatever the
//! game did before, and generating a preview does not change the game.

use mlua::{Function, Lua, Table};
use nefia_protocol::checks::MapProblem;

use super::convert::whole_number;
use super::handle::{live_map, push_map};
use super::{engine, rt_error};
use nefia_game::map::MapId;

/// The generator table `id` names, or an error saying what generators are.
fn generator(lua: &Lua, id: &str) -> mlua::Result<Table> {
    match super::data::prototype_table(lua, "base.map_generator", id)? {
        mlua::Value::Table(table) => Ok(table),
        _ => Err(rt_error(
            lua,
            format!(
                "Map.generate: there is no map generator '{id}'; generators are added with \
                 data:add {{ _type = \"base.map_generator\", _id = ..., generate = function(map, params, rng) ... end }}"
            ),
        )),
    }
}

/// A size of the map: the param of that name if the schema has one, else the generator's
/// own field, else `default`.
fn size(lua: &Lua, params: &Table, generator: &Table, name: &str, default: i64) -> mlua::Result<i32> {
    let value = match params.get::<mlua::Value>(name)? {
        mlua::Value::Nil => generator.get::<mlua::Value>(name)?,
        value => value,
    };
    if value.is_nil() {
        return Ok(i32::try_from(default).unwrap_or(1));
    }
    let size = whole_number(lua, &value, &format!("the generated map's {name}"), 1..=i64::from(i32::MAX))?;
    Ok(i32::try_from(size).unwrap_or(i32::MAX))
}

/// `Map.generate(id, params, seed)`: the generated map (not made current).
fn generate(lua: &Lua, (id, given, seed): (String, Option<Table>, mlua::Value)) -> mlua::Result<Table> {
    let seed = whole_number(lua, &seed, "Map.generate's seed", i64::MIN..=i64::MAX)?;
    let map = generate_map(lua, &id, given, seed)?;
    push_map(lua, map)
}

/// Runs generator `id` with `given` params and `seed` on a fresh map (see the module's
/// text); the map records how it was made.
pub fn generate_map(lua: &Lua, id: &str, given: Option<Table>, seed: i64) -> mlua::Result<MapId> {
    let engine = engine(lua);
    let table = generator(lua, id)?;
    let params = super::params::checked_params(lua, &format!("Map.generate('{id}')"), table.get("params")?, given)?;
    let recorded = super::convert::from_lua(lua, &mlua::Value::Table(params.clone()), "params")
        .map_err(|e| rt_error(lua, format!("Map.generate('{id}'): {e}")))?;
    let function: Function = table.get::<Option<Function>>("generate")?.ok_or_else(|| {
        rt_error(
            lua,
            format!("map generator '{id}' has no generate function: add generate = function(map, params, rng) ... end"),
        )
    })?;
    let (width, height) = (size(lua, &params, &table, "width", 80)?, size(lua, &params, &table, "height", 40)?);
    nefia_game::map::check_map_size(width.into(), height.into()).map_err(|e| rt_error(lua, e))?;
    let bytes = usize::try_from(width).unwrap_or(0).saturating_mul(usize::try_from(height).unwrap_or(0));
    engine
        .limits
        .check_allocation(lua, bytes.saturating_mul(nefia_game::world::CELL_BYTES), &format!("Map.generate('{id}')"))
        .map_err(|e| rt_error(lua, e))?;
    let tile = table.get::<Option<String>>("tile")?;
    let map = engine.world.borrow_mut().create_map(width, height, tile.as_deref()).map_err(|e| rt_error(lua, e))?;
    engine.world.borrow_mut().map_mut(map).map_err(|e| rt_error(lua, e))?.name = format!("{id} #{seed}");
    let handle = push_map(lua, map)?;
    let seeded = fastrand::Rng::with_seed(u64::from_ne_bytes(seed.to_ne_bytes()));
    let game_rng = std::mem::replace(&mut engine.world.borrow_mut().rng, seeded);
    let rng: Table = lua
        .load("local random = math.random return { random = function(_, ...) return random(...) end }")
        .set_name("=map generator rng")
        .eval()?;
    let result = super::session::without_clock(lua, "a map generator", || function.call::<()>((&handle, params, rng)));
    let mut world = engine.world.borrow_mut();
    world.rng = game_rng;
    if let Err(error) = result {
        // A failed generation leaves no half-made map behind.
        let _ = world.remove_map(map);
        return Err(error);
    }
    let generated = nefia_game::map::Generated { generator: id.to_owned(), params: recorded, seed };
    world.map_mut(map).map_err(|e| rt_error(lua, e))?.generated = Some(std::sync::Arc::new(generated));
    // What a generator makes is keyed by its place, as a file's objects are: the same seed
    // gives the same keys in every session (and in `nefia gen`).
    world.key_objects_by_place(map).map_err(|e| rt_error(lua, e))?;
    Ok(map)
}

/// Runs every `base.map_validator` on map `id`; a validator that fails is a problem too.
pub fn validate(lua: &Lua, id: MapId) -> mlua::Result<Vec<MapProblem>> {
    let engine = engine(lua);
    let validators: Vec<String> =
        engine.world.borrow().data.entries("base.map_validator").map(|p| p.id.as_str().to_owned()).collect();
    let map = push_map(lua, id)?;
    let mut problems = Vec::new();
    for validator in validators {
        let mlua::Value::Table(table) = super::data::prototype_table(lua, "base.map_validator", &validator)? else {
            continue;
        };
        let Some(check) = table.get::<Option<Function>>("validate")? else { continue };
        match super::session::without_clock(lua, "a map validator", || check.call::<(mlua::Value, Option<Table>)>(&map))
        {
            Ok((_, None)) => {}
            Ok((_, Some(found))) => {
                for entry in found.sequence_values::<Table>() {
                    let entry = entry?;
                    problems.push(MapProblem {
                        validator: validator.clone(),
                        x: entry.get::<Option<i32>>("x")?.unwrap_or(0),
                        y: entry.get::<Option<i32>>("y")?.unwrap_or(0),
                        message: entry.get::<Option<String>>("message")?.unwrap_or_else(|| "a problem".into()),
                    });
                }
            }
            Err(error) => problems.push(MapProblem {
                validator: validator.clone(),
                x: 0,
                y: 0,
                message: format!("the validator failed: {}", crate::error::failure(error).message),
            }),
        }
    }
    Ok(problems)
}

/// Adds `generate` and `validate` to the `Map` table.
pub fn install(lua: &Lua, map: &Table) -> mlua::Result<()> {
    map.set("generate", lua.create_function(generate)?)?;
    map.set(
        "validate",
        lua.create_function(|lua, map: Table| {
            let engine = engine(lua);
            let id = live_map(lua, &engine, &map)?;
            let list = lua.create_table()?;
            for problem in validate(lua, id)? {
                let entry = lua.create_table()?;
                entry.set("validator", problem.validator)?;
                entry.set("x", problem.x)?;
                entry.set("y", problem.y)?;
                entry.set("message", problem.message)?;
                list.push(entry)?;
            }
            Ok(list)
        })?,
    )?;
    Ok(())
}
