//! `World`: the clock (`World.date()`), turns, and finding objects by uid.

use mlua::{Lua, MetaMethod, Table, UserData, UserDataFields, UserDataMethods};

use super::engine;
use super::handle::push_object;
use nefia_game::clock::Clock;
use nefia_game::object::Uid;

/// `World.date()`: a calendar date with `year`, `month`, `day`, `hour`, `minute`, `second`
/// and `hours()` (whole hours since the epoch, the seed's example).
struct DateRef(Clock);

impl UserData for DateRef {
    fn add_fields<F: UserDataFields<Self>>(fields: &mut F) {
        fields.add_field_method_get("year", |_, this| Ok(this.0.date().year));
        fields.add_field_method_get("month", |_, this| Ok(this.0.date().month));
        fields.add_field_method_get("day", |_, this| Ok(this.0.date().day));
        fields.add_field_method_get("hour", |_, this| Ok(this.0.date().hour));
        fields.add_field_method_get("minute", |_, this| Ok(this.0.date().minute));
        fields.add_field_method_get("second", |_, this| Ok(this.0.date().second));
    }

    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method("hours", |_, this, ()| Ok(this.0.hours()));
        methods.add_meta_method(MetaMethod::ToString, |_, this, ()| {
            let d = this.0.date();
            Ok(format!("{}/{:02}/{:02} {:02}:{:02}:{:02}", d.year, d.month, d.day, d.hour, d.minute, d.second))
        });
    }
}

/// Installs `World` and `Play` into `api`. `Play.is_playing()` tells game code whether the
/// game is being played (not edited); `Play.quit()` asks the frontend to stop playing once
/// the running code returns (the editor puts the edit state back; the player window goes to
/// its title menu).
pub fn install(lua: &Lua, api: &Table) -> mlua::Result<()> {
    let world = lua.create_table()?;
    world.set("date", lua.create_function(|lua, ()| Ok(DateRef(engine(lua).world.borrow().clock)))?)?;
    world.set(
        "pass_time",
        lua.create_function(|lua, seconds: mlua::Value| {
            let seconds = super::convert::whole_number(lua, &seconds, "seconds", 0..=i64::MAX)?;
            let seconds = u64::try_from(seconds).unwrap_or(0);
            engine(lua).world.borrow_mut().pass_time(seconds).map_err(|e| super::rt_error(lua, e))
        })?,
    )?;
    world.set("turn", lua.create_function(|lua, ()| Ok(engine(lua).world.borrow().turn))?)?;
    // The state hash replays compare (16 hex digits): equal for equal game states.
    world.set(
        "state_hash",
        lua.create_function(|lua, ()| {
            let tables = super::save::save_tables(lua).map_err(|e| super::rt_error(lua, e))?;
            Ok(format!("{:016x}", engine(lua).world.borrow().state_hash(&tables)))
        })?,
    )?;
    world.set(
        "pass_turn",
        lua.create_function(|lua, ()| {
            let turn = engine(lua).world.borrow_mut().end_turn();
            engine(lua).profiler.turn_passed(turn);
            let params = lua.create_table()?;
            params.set("turn", turn)?;
            super::event::trigger(lua, nefia_game::Symbol::intern("base.on_turn_passed"), mlua::Value::Nil, params)?;
            super::invariants::after_turn(lua, turn)?;
            Ok(turn)
        })?,
    )?;
    world.set(
        "object",
        lua.create_function(|lua, uid: u64| {
            let exists = engine(lua).world.borrow().exists(Uid(uid));
            if exists { push_object(lua, Uid(uid)).map(Some) } else { Ok(None) }
        })?,
    )?;
    world.set(
        "refresh_sight",
        lua.create_function(|lua, ()| {
            let engine = engine(lua);
            engine
                .profiler
                .scope(|| super::profile::engine_work("sight"), || engine.world.borrow_mut().refresh_sight());
            Ok(())
        })?,
    )?;
    world.set(
        "stats",
        lua.create_function(|lua, ()| {
            let engine = engine(lua);
            let world = engine.world.borrow();
            let stats = lua.create_table()?;
            stats.set("objects", world.object_count())?;
            stats.set("ownerless", world.ownerless().count())?;
            stats.set("maps", world.maps().count())?;
            stats.set("next_uid", world.next_uid().0)?;
            Ok(stats)
        })?,
    )?;
    super::invariants::install(lua, &world)?;
    api.set("World", world)?;
    let play = lua.create_table()?;
    play.set("is_playing", lua.create_function(|lua, ()| Ok(engine(lua).play.playing.get()))?)?;
    play.set(
        "quit",
        lua.create_function(|lua, ()| {
            engine(lua).play.quit_requested.set(true);
            Ok(())
        })?,
    )?;
    api.set("Play", play)?;
    Ok(())
}
