//! `math.random` and `math.randomseed` served by the world's random number generator, so
//! game logic is deterministic: the same seed gives the same game, and a save keeps the
//! generator's state. Lua's own generator (seeded from the clock) is never used.

use mlua::{Lua, Value};

use super::{engine, rt_error};

/// `math.random([m [, n]])` as Lua 5.4 defines it: a float in [0, 1) with no argument, an
/// integer in [1, m] with one (any integer with 0), in [m, n] with two.
fn random(lua: &Lua, (m, n): (Option<Value>, Option<Value>)) -> mlua::Result<Value> {
    let whole = |value: Option<Value>, name: &str| {
        value.map(|v| super::convert::whole_number(lua, &v, name, i64::MIN..=i64::MAX)).transpose()
    };
    let (m, n) = (whole(m, "math.random's first argument")?, whole(n, "math.random's second argument")?);
    let engine = engine(lua);
    let mut world = engine.world.borrow_mut();
    let (low, high) = match (m, n) {
        (None, _) => return Ok(Value::Number(world.rng.f64())),
        (Some(0), None) => return Ok(Value::Integer(world.rng.i64(..))),
        (Some(m), None) => (1, m),
        (Some(m), Some(n)) => (m, n),
    };
    if low > high {
        return Err(rt_error(lua, format!("bad argument to 'random' (interval [{low}, {high}] is empty)")));
    }
    Ok(Value::Integer(world.rng.i64(low..=high)))
}

/// `math.randomseed(n)`: reseeds the world's generator. Without a seed it is refused: a
/// seed from the clock would make the game differ on every run.
fn randomseed(lua: &Lua, seed: Option<Value>) -> mlua::Result<()> {
    let Some(seed) = seed else {
        return Err(rt_error(
            lua,
            "math.randomseed() needs a seed: game logic is deterministic (the world's generator is seeded per game \
             and saved with it); give one, such as math.randomseed(42)",
        ));
    };
    let seed = super::convert::whole_number(lua, &seed, "the seed", i64::MIN..=i64::MAX)?;
    engine(lua).world.borrow_mut().rng = fastrand::Rng::with_seed(u64::from_ne_bytes(seed.to_ne_bytes()));
    Ok(())
}

/// Replaces `math.random` and `math.randomseed` in the standard library every environment
/// reads.
pub fn install(lua: &Lua) -> mlua::Result<()> {
    let math: mlua::Table = lua.globals().get("math")?;
    math.set("random", lua.create_function(random)?)?;
    math.set("randomseed", lua.create_function(randomseed)?)?;
    Ok(())
}
