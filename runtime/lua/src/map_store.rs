//! `Map.save(map)` and `Map.load(uid)` (OpenNefia's): a map of the running game written to the
//! save folder and made again from it — its tiles, objects with their base and temp values,
//! memory and own fields, but not the player, who travels on. The file is
//! `<saves>/temp/map/<uid>` (RON), where OpenNefia keeps its maps, written atomically; a map
//! with no file answers OpenNefia's `false, "file does not exist: temp/map/<uid>"`.
//! `Map.travel_to` deletes the file of the temporary map it leaves (`forget`).
//!
//! Loading makes the objects again with new uids (the old ones may be in use elsewhere by
//! then; keys keep their identity in map files) and puts the map in place of the one with
//! that uid if the world still has it. Loading the current map (as OpenNefia's tests do, to
//! see it as saved) puts its saved copy in its place, current still, the player where they stood.

use mlua::{Lua, Table};

use super::handle::{live_map, push_map};
use super::{engine, rt_error};
use nefia_game::location::Holder;
use nefia_game::map::MapId;
use nefia_game::object::Uid;
use nefia_game::save::{MapRecord, RecordKind};
use nefia_game::world::World;

/// Where map `uid` is saved, in the save folder.
fn relative_path(uid: u64) -> String {
    format!("temp/map/{uid}")
}

/// Where map `uid` is saved.
fn path_of(lua: &Lua, uid: u64) -> std::path::PathBuf {
    engine(lua).save_dir.borrow().join(relative_path(uid))
}

/// Deletes the saved file of map `uid`, if there is one (the map is gone for good).
pub(super) fn forget(lua: &Lua, uid: MapId) -> mlua::Result<()> {
    let path = path_of(lua, uid.0);
    match std::fs::remove_file(&path) {
        Err(error) if error.kind() != std::io::ErrorKind::NotFound => Err(rt_error(
            lua,
            format!("could not delete {}, the saved copy of a temporary map: {error}", path.display()),
        )),
        _ => Ok(()),
    }
}

/// `Map.save(map)`: true once written.
fn save(lua: &Lua, map: Table) -> mlua::Result<bool> {
    let engine = engine(lua);
    let id = live_map(lua, &engine, &map)?;
    let mut record = engine.world.borrow().map_record(id, RecordKind::SaveGame).map_err(|e| rt_error(lua, e))?;
    let player = engine.world.borrow().player();
    record.objects.retain(|o| o.uid.is_none() || o.uid != player);
    let path = path_of(lua, id.0);
    let written = (|| {
        let dir = path.parent().unwrap_or(&path);
        std::fs::create_dir_all(dir).map_err(|e| nefia_game::files::FileError::io(dir, e))?;
        nefia_game::files::write_atomic(&path, nefia_game::files::to_ron(&path, &record)?.as_bytes())
    })();
    written.map_err(|e| rt_error(lua, format!("Map.save: {e}")))?;
    Ok(true)
}

/// `Map.load(uid)`: `true, map`, or `false, reason`.
fn load(lua: &Lua, uid: u64) -> mlua::Result<(bool, mlua::Value)> {
    let engine = engine(lua);
    let path = path_of(lua, uid);
    if !path.is_file() {
        // OpenNefia's words, which its tests compare whole (Map.save(map) writes the file).
        let reason = format!("file does not exist: {}", relative_path(uid));
        return Ok((false, mlua::Value::String(lua.create_string(reason)?)));
    }
    let mut record: MapRecord =
        nefia_game::files::read_ron(&path).map_err(|e| rt_error(lua, format!("Map.load: {e}")))?;
    if record.uid != Some(MapId(uid)) {
        return Err(rt_error(lua, format!("Map.load: {} holds another map than {uid}", path.display())));
    }
    {
        let world = engine.world.borrow();
        nefia_game::validate::check_map_record(&world, &record, RecordKind::SaveGame)
            .map_err(|e| rt_error(lua, format!("Map.load: {}: {e}", path.display())))?;
    }
    for object in &mut record.objects {
        object.visit_mut(&mut |o| o.uid = None);
    }
    let first_new = engine.world.borrow().next_uid();
    let stays = player_on_current(&engine.world.borrow(), MapId(uid));
    let id = engine.world.borrow_mut().map_from_saved(&record).map_err(|e| rt_error(lua, e))?;
    if let Some((player, x, y)) = stays {
        let mut world = engine.world.borrow_mut();
        world.take_object(Holder::Map(id), player, x, y).map_err(|e| rt_error(lua, e))?;
        world.set_current_map(id).map_err(|e| rt_error(lua, e))?;
    }
    let made: Vec<_> = engine.world.borrow().all_objects().map(|o| o.uid).filter(|&uid| uid >= first_new).collect();
    super::instantiate::instantiate_loaded(lua, made);
    Ok((true, mlua::Value::Table(push_map(lua, id)?)))
}

/// When map `uid` is the current one: the player on it and where they stand, to put back on
/// its loaded copy (a saved map leaves the player out).
fn player_on_current(world: &World, uid: MapId) -> Option<(Uid, i32, i32)> {
    if world.current_map() != Some(uid) {
        return None;
    }
    let player = world.player()?;
    let object = world.object(player).ok()?;
    (object.location().map(|l| l.holder()) == Some(Holder::Map(uid))).then_some((player, object.x, object.y))
}

/// Adds `save` and `load` to `Map`.
pub fn install(lua: &Lua, map: &Table) -> mlua::Result<()> {
    map.set("save", lua.create_function(save)?)?;
    map.set("load", lua.create_function(load)?)?;
    Ok(())
}
