//! `Map`, `InstancedMap` and map handles: tiles, sight, and the ILocation operations of maps.

use mlua::{Lua, MetaMethod, Table, UserData, UserDataMethods};

use super::handle::{MapRef, object_arg, object_list, push_map, push_object};
use super::object::can_take;
use super::{engine, ipairs, rt_error};
use crate::location::Holder;
use crate::object::ObjectKind;

impl UserData for MapRef {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_meta_method(MetaMethod::Index, |lua, this, key: String| {
            let engine = engine(lua);
            let id = this.live_id(&engine)?;
            let world = engine.world.borrow();
            let map = world.map(id).map_err(mlua::Error::runtime)?;
            Ok(match key.as_str() {
                "uid" => mlua::Value::Integer(id.0 as i64),
                "width" => mlua::Value::Integer(map.width().into()),
                "height" => mlua::Value::Integer(map.height().into()),
                "name" => mlua::Value::String(lua.create_string(&map.name)?),
                _ => mlua::Value::Nil,
            })
        });

        methods.add_meta_method(MetaMethod::NewIndex, |lua, this, (key, value): (String, mlua::Value)| {
            let engine = engine(lua);
            let id = this.live_id(&engine)?;
            match (key.as_str(), value) {
                ("name", mlua::Value::String(name)) => {
                    engine.world.borrow_mut().map_mut(id).map_err(mlua::Error::runtime)?.name = name.to_str()?.to_owned();
                    Ok(())
                }
                (other, _) => Err(rt_error(
                    lua,
                    format!("cannot assign '{other}' of a map: only 'name' (a string) can be set; tiles change with map:set_tile(x, y, id)"),
                )),
            }
        });

        methods.add_meta_method(MetaMethod::ToString, |lua, this, ()| {
            let engine = engine(lua);
            let world = engine.world.borrow();
            Ok(match world.map(this.id) {
                Ok(map) => format!("<map {} '{}' {}x{}>", this.id, map.name, map.width(), map.height()),
                Err(_) => format!("<map {} (removed)>", this.id),
            })
        });

        methods.add_meta_function(MetaMethod::Eq, |_, (a, b): (mlua::AnyUserData, mlua::AnyUserData)| {
            Ok(match (a.borrow::<MapRef>(), b.borrow::<MapRef>()) {
                (Ok(a), Ok(b)) => a.id == b.id,
                _ => false,
            })
        });

        methods.add_method("tile", |lua, this, (x, y): (i32, i32)| {
            let engine = engine(lua);
            let id = this.live_id(&engine)?;
            let tile = engine.world.borrow().map(id).map_err(mlua::Error::runtime)?.tile(x, y);
            Ok(tile.map(|t| t.as_str()))
        });

        methods.add_method("set_tile", |lua, this, (x, y, tile): (i32, i32, String)| {
            let engine = engine(lua);
            let id = this.live_id(&engine)?;
            engine.world.borrow_mut().set_tile(id, x, y, &tile).map_err(|e| rt_error(lua, e))
        });

        methods.add_method("is_in_bounds", |lua, this, (x, y): (i32, i32)| {
            let engine = engine(lua);
            let id = this.live_id(&engine)?;
            Ok(engine.world.borrow().map(id).map_err(mlua::Error::runtime)?.in_bounds(x, y))
        });

        methods.add_method("can_access", |lua, this, (x, y): (i32, i32)| {
            let engine = engine(lua);
            let id = this.live_id(&engine)?;
            Ok(engine.world.borrow().is_open(id, x, y, ObjectKind::Chara))
        });

        methods.add_method("calc_screen_sight", |lua, this, (x, y, fov): (i32, i32, Option<i32>)| {
            let engine = engine(lua);
            let id = this.live_id(&engine)?;
            engine.world.borrow_mut().calc_screen_sight(id, x, y, fov.unwrap_or(15)).map_err(|e| rt_error(lua, e))
        });

        methods.add_method("is_in_fov", |lua, this, (x, y): (i32, i32)| {
            let engine = engine(lua);
            let id = this.live_id(&engine)?;
            Ok(engine.world.borrow().map(id).map_err(mlua::Error::runtime)?.sight.is_visible(x, y))
        });

        methods.add_method("is_memorized", |lua, this, (x, y): (i32, i32)| {
            let engine = engine(lua);
            let id = this.live_id(&engine)?;
            Ok(engine.world.borrow().map(id).map_err(mlua::Error::runtime)?.memory.get(x, y).is_some())
        });

        methods.add_method(
            "take_object",
            |lua, this, (object, x, y): (mlua::Value, Option<i32>, Option<i32>)| {
                let engine = engine(lua);
                let holder = Holder::Map(this.live_id(&engine)?);
                let uid = object_arg(&engine, &object, "the object to take")?;
                let (x, y) = match (x, y) {
                    (Some(x), Some(y)) => (x, y),
                    _ => {
                        let kind = engine.world.borrow().object(uid).map_err(mlua::Error::runtime)?.kind;
                        let Holder::Map(map) = holder else { unreachable!() };
                        engine.world.borrow_mut().random_open_position(map, kind).map_err(|e| rt_error(lua, e))?
                    }
                };
                let result = engine.world.borrow_mut().take_object(holder, uid, x, y);
                match result {
                    Ok(()) => Ok((Some(push_object(lua, uid)?), None)),
                    Err(crate::world::WorldError::Refused(refusal)) => Ok((None, Some(refusal.to_string()))),
                    Err(other) => Err(rt_error(lua, other)),
                }
            },
        );

        methods.add_method("can_take_object", |lua, this, (object, x, y): (mlua::Value, i32, i32)| {
            let engine = engine(lua);
            let holder = Holder::Map(this.live_id(&engine)?);
            let uid = object_arg(&engine, &object, "the object")?;
            can_take(lua, &engine, holder, uid, x, y)
        });

        methods.add_method("move_object", |lua, this, (object, x, y): (mlua::Value, i32, i32)| {
            let engine = engine(lua);
            let holder = Holder::Map(this.live_id(&engine)?);
            let uid = object_arg(&engine, &object, "the object to move")?;
            engine.world.borrow_mut().move_object(holder, uid, x, y).map_err(|e| rt_error(lua, e))
        });

        methods.add_method("remove_object", |lua, this, object: mlua::Value| {
            let engine = engine(lua);
            let holder = Holder::Map(this.live_id(&engine)?);
            let uid = object_arg(&engine, &object, "the object to remove")?;
            engine.world.borrow_mut().remove_object(holder, uid).map_err(|e| rt_error(lua, e))
        });

        methods.add_method("objects_at_pos", |lua, this, (x, y): (i32, i32)| {
            let engine = engine(lua);
            let holder = Holder::Map(this.live_id(&engine)?);
            let list = {
                let world = engine.world.borrow();
                let map = world.map(this.id).map_err(mlua::Error::runtime)?;
                let _ = holder;
                object_list(lua, map.objects_at(x, y))?
            };
            ipairs(lua, list)
        });

        methods.add_method("iter", |lua, this, ()| {
            let engine = engine(lua);
            let holder = Holder::Map(this.live_id(&engine)?);
            let uids = engine.world.borrow().iter_location(holder).map_err(|e| rt_error(lua, e))?;
            ipairs(lua, object_list(lua, &uids)?)
        });
    }
}

/// Installs `Map` and `InstancedMap` into `api`.
pub fn install(lua: &Lua, api: &Table) -> mlua::Result<()> {
    let map = lua.create_table()?;
    map.set(
        "current",
        lua.create_function(|lua, ()| {
            let current = engine(lua).world.borrow().current_map();
            current.map(|id| push_map(lua, id)).transpose()
        })?,
    )?;
    map.set(
        "set_map",
        lua.create_function(|lua, map: mlua::UserDataRef<MapRef>| {
            let engine = engine(lua);
            let id = map.live_id(&engine)?;
            engine.world.borrow_mut().set_current_map(id).map_err(|e| rt_error(lua, e))
        })?,
    )?;
    map.set(
        "iter",
        lua.create_function(|lua, ()| {
            let ids: Vec<_> = engine(lua).world.borrow().maps().map(|m| m.uid).collect();
            let list = lua.create_table()?;
            for (i, id) in ids.into_iter().enumerate() {
                list.raw_set(i + 1, push_map(lua, id)?)?;
            }
            ipairs(lua, list)
        })?,
    )?;
    map.set(
        "get",
        lua.create_function(|lua, uid: u64| {
            let id = crate::map::MapId(uid);
            let exists = engine(lua).world.borrow().map(id).is_ok();
            if exists { push_map(lua, id).map(Some) } else { Ok(None) }
        })?,
    )?;
    api.set("Map", map)?;

    let instanced = lua.create_table()?;
    instanced.set(
        "new",
        lua.create_function(|lua, (_class, width, height, tile): (mlua::Value, i32, i32, Option<String>)| {
            let engine = engine(lua);
            let id = engine.world.borrow_mut().create_map(width, height, tile.as_deref()).map_err(|e| rt_error(lua, e))?;
            push_map(lua, id)
        })?,
    )?;
    api.set("InstancedMap", instanced)?;
    Ok(())
}
