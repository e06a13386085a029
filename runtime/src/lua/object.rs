//! IMapObject, IModdable and ILocation as methods of object handles.
//!
//! `obj.field` reads the base value and `obj.field = v` writes it; a few names are managed
//! by the engine (`uid`, `_id`, `_type`, `x`, `y`, `location`, …) and assigning them raises
//! an error naming the method to use instead.

use mlua::{Lua, MetaMethod, UserData, UserDataMethods};

use super::convert::{from_lua, to_lua};
use super::handle::{ObjectRef, holder_arg, object_arg, object_list, push_holder, push_map, push_object};
use super::{Engine, caller_origin, engine, ipairs, rt_error};
use crate::location::Holder;
use crate::moddable::ModMethod;
use crate::object::Uid;
use crate::symbol::Symbol;
use crate::value::Value;

/// Names read from the object itself rather than its fields, with the advice given when a
/// script assigns one.
const MANAGED: [(&str, &str); 8] = [
    ("uid", "uids are given by the engine when an object is made; use obj:clone() for a copy with a new uid"),
    ("_id", "an object keeps its prototype; create a new one with Chara.create/Item.create/Feat.create"),
    ("_type", "an object keeps its data type; create a new object instead"),
    ("x", "use obj:set_pos(x, y), which keeps the map's position index right"),
    ("y", "use obj:set_pos(x, y), which keeps the map's position index right"),
    ("location", "use location:take_object(obj, x, y) to move it, or obj:remove_ownership() to take it out"),
    ("temp", "use obj:mod(field, value[, method]) to set a temporary value"),
    ("equip", "use chara:equip_item(item[, slot]) and chara:unequip_item(slot)"),
];

fn field_name(name: &mlua::String) -> mlua::Result<String> {
    Ok(name.to_str()?.to_owned())
}

fn mod_method(lua: &Lua, method: Option<mlua::String>) -> mlua::Result<ModMethod> {
    match method {
        None => Ok(ModMethod::Set),
        Some(name) => ModMethod::parse(&name.to_str()?).map_err(|e| rt_error(lua, e)),
    }
}

fn world_error(lua: &Lua, error: crate::world::WorldError) -> mlua::Error {
    rt_error(lua, error)
}

/// `nil, reason` for a refused location operation, or `obj` on success (seed: take_object).
fn object_or_reason(lua: &Lua, result: Result<(), crate::world::WorldError>, uid: Uid) -> mlua::Result<mlua::MultiValue> {
    match result {
        Ok(()) => Ok(mlua::MultiValue::from_vec(vec![mlua::Value::UserData(push_object(lua, uid)?)])),
        Err(crate::world::WorldError::Refused(refusal)) => Ok(mlua::MultiValue::from_vec(vec![
            mlua::Value::Nil,
            mlua::Value::String(lua.create_string(refusal.to_string())?),
        ])),
        Err(other) => Err(world_error(lua, other)),
    }
}

fn position_args(engine: &Engine, holder: Holder, uid: Uid, x: Option<i32>, y: Option<i32>) -> Result<(i32, i32), crate::world::WorldError> {
    match (holder, x, y) {
        (Holder::Map(map), None, None) => {
            let kind = engine.world.borrow().object(uid)?.kind;
            engine.world.borrow_mut().random_open_position(map, kind)
        }
        (_, x, y) => Ok((x.unwrap_or(0), y.unwrap_or(0))),
    }
}

/// Runs `refresh()` on `uid`: clears temp values and emits the kind's refresh event so
/// handlers re-apply theirs.
pub fn refresh(lua: &Lua, uid: Uid) -> mlua::Result<()> {
    let engine = engine(lua);
    let kind = {
        let mut world = engine.world.borrow_mut();
        world.clear_temp(uid).map_err(|e| world_error(lua, e))?;
        world.object(uid).map_err(|e| world_error(lua, e))?.kind
    };
    let event = Symbol::intern(kind.refreshed_event());
    if engine.events.borrow().has_handlers(event) {
        let receiver = mlua::Value::UserData(push_object(lua, uid)?);
        super::event::trigger(lua, event, receiver, lua.create_table()?)?;
    }
    Ok(())
}

impl UserData for ObjectRef {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_meta_method(MetaMethod::Index, |lua, this, key: mlua::Value| {
            let engine = engine(lua);
            let uid = this.live_uid(&engine)?;
            let mlua::Value::String(key) = key else { return Ok(mlua::Value::Nil) };
            let key = key.to_str()?;
            let world = engine.world.borrow();
            let object = world.object(uid).map_err(mlua::Error::runtime)?;
            Ok(match &*key {
                "uid" => mlua::Value::Integer(uid.0 as i64),
                "_id" => mlua::Value::String(lua.create_string(object.id.as_str())?),
                "_type" => mlua::Value::String(lua.create_string(object.kind.data_type())?),
                "x" => mlua::Value::Integer(object.x.into()),
                "y" => mlua::Value::Integer(object.y.into()),
                "location" => match object.location() {
                    Some(location) => {
                        drop(world);
                        push_holder(lua, location.holder())?
                    }
                    None => mlua::Value::Nil,
                },
                "equip" if object.equipment().is_some() => {
                    mlua::Value::UserData(lua.create_userdata(EquipRef { uid })?)
                }
                "temp" => {
                    let table = lua.create_table()?;
                    for (field, temp) in object.fields.temp.iter() {
                        table.raw_set(field.as_str(), to_lua(lua, &temp.value)?)?;
                    }
                    mlua::Value::Table(table)
                }
                "proto" => super::data::prototype_table(lua, object.kind.data_type(), object.id.as_str())?,
                name => match Symbol::lookup(name) {
                    Some(field) => match world.base(uid, field) {
                        Some(value) => to_lua(lua, value)?,
                        None => mlua::Value::Nil,
                    },
                    None => mlua::Value::Nil,
                },
            })
        });

        methods.add_meta_method(MetaMethod::NewIndex, |lua, this, (key, value): (mlua::String, mlua::Value)| {
            let engine = engine(lua);
            let uid = this.live_uid(&engine)?;
            let key = field_name(&key)?;
            if let Some((_, advice)) = MANAGED.iter().find(|(name, _)| *name == key) {
                return Err(rt_error(lua, format!("cannot assign '{key}' of an object: {advice}")));
            }
            if matches!(key.as_str(), "proto") {
                return Err(rt_error(lua, "cannot assign 'proto' of an object: prototypes are changed with data:add"));
            }
            let value = from_lua(&value, &key).map_err(|e| rt_error(lua, e))?;
            engine.world.borrow_mut().set_base(uid, Symbol::intern(&key), value).map_err(|e| world_error(lua, e))
        });

        methods.add_meta_method(MetaMethod::ToString, |lua, this, ()| {
            let engine = engine(lua);
            Ok(engine.world.borrow().describe(this.uid))
        });

        methods.add_meta_function(MetaMethod::Eq, |_, (a, b): (mlua::AnyUserData, mlua::AnyUserData)| {
            Ok(match (a.borrow::<ObjectRef>(), b.borrow::<ObjectRef>()) {
                (Ok(a), Ok(b)) => a.uid == b.uid,
                _ => false,
            })
        });

        // ---- IMapObject ----

        methods.add_method("set_pos", |lua, this, (x, y): (i32, i32)| {
            let engine = engine(lua);
            let uid = this.live_uid(&engine)?;
            engine.world.borrow_mut().set_pos(uid, x, y).map_err(|e| world_error(lua, e))
        });

        methods.add_method("remove_ownership", |lua, this, ()| {
            let engine = engine(lua);
            let uid = this.live_uid(&engine)?;
            engine.world.borrow_mut().remove_ownership(uid).map_err(|e| world_error(lua, e))
        });

        methods.add_method("current_map", |lua, this, ()| {
            let engine = engine(lua);
            let uid = this.live_uid(&engine)?;
            let map = engine.world.borrow().map_of(uid);
            map.map(|m| push_map(lua, m)).transpose()
        });

        methods.add_method("produce_memory", |lua, this, ()| {
            let engine = engine(lua);
            let uid = this.live_uid(&engine)?;
            let memory = engine.world.borrow().produce_memory(uid).map_err(|e| world_error(lua, e))?;
            let table = lua.create_table()?;
            table.set("show", memory.show)?;
            table.set("glyph", memory.glyph.as_str())?;
            table.set("color", lua.create_sequence_from(memory.color)?)?;
            table.set("image", memory.image.map(|i| i.as_str()))?;
            table.set("uid", memory.uid.0)?;
            table.set("_id", memory.id.as_str())?;
            table.set("_type", memory.kind.data_type())?;
            Ok(table)
        });

        methods.add_method("refresh", |lua, this, ()| {
            let engine = engine(lua);
            refresh(lua, this.live_uid(&engine)?)
        });

        methods.add_method("clone", |lua, this, ()| {
            let engine = engine(lua);
            let uid = this.live_uid(&engine)?;
            let copy = engine.world.borrow_mut().clone_object(uid).map_err(|e| world_error(lua, e))?;
            push_object(lua, copy)
        });

        // ---- IModdable ----

        methods.add_method(
            "mod",
            |lua, this, (field, value, method): (mlua::String, mlua::Value, Option<mlua::String>)| {
                let engine = engine(lua);
                let uid = this.live_uid(&engine)?;
                let method = mod_method(lua, method)?;
                let field = field.to_str()?;
                let value = from_lua(&value, &field).map_err(|e| rt_error(lua, e))?;
                let origin = caller_origin(lua, &engine);
                engine
                    .world
                    .borrow_mut()
                    .mod_temp(uid, Symbol::intern(&field), value, method, origin)
                    .map_err(|e| world_error(lua, e))
            },
        );

        methods.add_method(
            "mod_base",
            |lua, this, (field, value, method): (mlua::String, mlua::Value, Option<mlua::String>)| {
                let engine = engine(lua);
                let uid = this.live_uid(&engine)?;
                let method = mod_method(lua, method)?;
                let field = field.to_str()?;
                let value = from_lua(&value, &field).map_err(|e| rt_error(lua, e))?;
                engine
                    .world
                    .borrow_mut()
                    .mod_base(uid, Symbol::intern(&field), value, method)
                    .map_err(|e| world_error(lua, e))
            },
        );

        methods.add_method("reset", |lua, this, (field, value): (mlua::String, mlua::Value)| {
            let engine = engine(lua);
            let uid = this.live_uid(&engine)?;
            let field = field.to_str()?;
            let value = from_lua(&value, &field).map_err(|e| rt_error(lua, e))?;
            engine.world.borrow_mut().reset(uid, Symbol::intern(&field), value).map_err(|e| world_error(lua, e))
        });

        methods.add_method("calc", |lua, this, field: mlua::String| {
            let engine = engine(lua);
            let uid = this.live_uid(&engine)?;
            let Some(field) = Symbol::lookup(&field.to_str()?) else { return Ok(mlua::Value::Nil) };
            match engine.world.borrow().calc(uid, field) {
                Some(value) => to_lua(lua, value),
                None => Ok(mlua::Value::Nil),
            }
        });

        methods.add_method("mod_sources", |lua, this, field: mlua::String| {
            let engine = engine(lua);
            let uid = this.live_uid(&engine)?;
            let list = lua.create_table()?;
            let Some(field) = Symbol::lookup(&field.to_str()?) else { return Ok(list) };
            let world = engine.world.borrow();
            let object = world.object(uid).map_err(mlua::Error::runtime)?;
            if let Some(temp) = object.fields.temp.get(field) {
                for (i, source) in temp.sources.iter().enumerate() {
                    let entry = lua.create_table()?;
                    entry.set("method", source.method.name())?;
                    entry.set("value", to_lua(lua, &source.value)?)?;
                    entry.set("mod", source.origin.mod_id.map(|m| m.as_str()))?;
                    entry.set("file", source.origin.file.as_str())?;
                    entry.set("line", source.origin.line)?;
                    list.raw_set(i + 1, entry)?;
                }
            }
            Ok(list)
        });

        // ---- ILocation (characters and containers) ----

        methods.add_method(
            "take_object",
            |lua, this, (object, x, y): (mlua::Value, Option<i32>, Option<i32>)| {
                let engine = engine(lua);
                let holder = Holder::Object(this.live_uid(&engine)?);
                let uid = object_arg(&engine, &object, "the object to take")?;
                let (x, y) = position_args(&engine, holder, uid, x, y).map_err(|e| world_error(lua, e))?;
                let result = engine.world.borrow_mut().take_object(holder, uid, x, y);
                object_or_reason(lua, result, uid)
            },
        );

        methods.add_method(
            "can_take_object",
            |lua, this, (object, x, y): (mlua::Value, Option<i32>, Option<i32>)| {
                let engine = engine(lua);
                let holder = Holder::Object(this.live_uid(&engine)?);
                let uid = object_arg(&engine, &object, "the object")?;
                can_take(lua, &engine, holder, uid, x.unwrap_or(0), y.unwrap_or(0))
            },
        );

        methods.add_method("remove_object", |lua, this, object: mlua::Value| {
            let engine = engine(lua);
            let holder = Holder::Object(this.live_uid(&engine)?);
            let uid = object_arg(&engine, &object, "the object to remove")?;
            engine.world.borrow_mut().remove_object(holder, uid).map_err(|e| world_error(lua, e))
        });

        methods.add_method("move_object", |lua, this, (object, x, y): (mlua::Value, i32, i32)| {
            let engine = engine(lua);
            let holder = Holder::Object(this.live_uid(&engine)?);
            let uid = object_arg(&engine, &object, "the object to move")?;
            engine.world.borrow_mut().move_object(holder, uid, x, y).map_err(|e| world_error(lua, e))
        });

        methods.add_method("objects_at_pos", |lua, this, (x, y): (i32, i32)| {
            let engine = engine(lua);
            let holder = Holder::Object(this.live_uid(&engine)?);
            let uids = engine.world.borrow().objects_at_pos(holder, x, y).map_err(|e| world_error(lua, e))?;
            ipairs(lua, object_list(lua, &uids)?)
        });

        methods.add_method("iter", |lua, this, ()| {
            let engine = engine(lua);
            let holder = Holder::Object(this.live_uid(&engine)?);
            let uids = engine.world.borrow().iter_location(holder).map_err(|e| world_error(lua, e))?;
            ipairs(lua, object_list(lua, &uids)?)
        });

        // ---- equipment (characters) ----

        methods.add_method("equip_item", |lua, this, (item, slot): (mlua::Value, Option<String>)| {
            let engine = engine(lua);
            let chara = this.live_uid(&engine)?;
            let item = object_arg(&engine, &item, "the item to equip")?;
            let result = engine.world.borrow_mut().equip(chara, item, slot.as_deref().map(Symbol::intern));
            match result {
                Ok(slot) => Ok((Some(slot.as_str()), None)),
                Err(crate::world::WorldError::Refused(refusal)) => Ok((None, Some(refusal.to_string()))),
                Err(other) => Err(world_error(lua, other)),
            }
        });

        methods.add_method("unequip_item", |lua, this, slot: mlua::Value| {
            let engine = engine(lua);
            let chara = this.live_uid(&engine)?;
            let slot = match &slot {
                mlua::Value::String(s) => Symbol::intern(&s.to_str()?),
                other => {
                    let item = object_arg(&engine, other, "the slot or item to unequip")?;
                    match engine.world.borrow().object(item).map_err(mlua::Error::runtime)?.location() {
                        Some(crate::Location::Equipment(owner, slot)) if owner == chara => slot,
                        _ => return Err(rt_error(lua, format!("{} is not worn by this character", engine.world.borrow().describe(item)))),
                    }
                }
            };
            let result = engine.world.borrow_mut().unequip(chara, slot);
            match result {
                Ok(item) => Ok((Some(push_object(lua, item)?), None)),
                Err(crate::world::WorldError::Refused(refusal)) => Ok((None, Some(refusal.to_string()))),
                Err(other) => Err(world_error(lua, other)),
            }
        });
    }
}

/// `true`, or `false, reason` (seed: can_take_object).
pub fn can_take(lua: &Lua, engine: &Engine, holder: Holder, uid: Uid, x: i32, y: i32) -> mlua::Result<(bool, Option<String>)> {
    match engine.world.borrow().can_take_object(holder, uid, x, y) {
        Ok(()) => Ok((true, None)),
        Err(crate::world::WorldError::Refused(refusal)) => Ok((false, Some(refusal.to_string()))),
        Err(other) => Err(world_error(lua, other)),
    }
}

/// `chara.equip`: the equipment slots of a character. `chara.equip.head` is the item worn
/// there (or nil); `chara.equip:iter()` yields slot name and item for every worn item.
pub struct EquipRef {
    uid: Uid,
}

impl UserData for EquipRef {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_meta_method(MetaMethod::Index, |lua, this, slot: String| {
            let engine = engine(lua);
            let item = {
                let world = engine.world.borrow();
                let object = world.object(this.uid).map_err(mlua::Error::runtime)?;
                object.equipment().and_then(|e| e.get(Symbol::intern(&slot)).copied())
            };
            item.map(|uid| push_object(lua, uid)).transpose()
        });
        methods.add_method("iter", |lua, this, ()| {
            let engine = engine(lua);
            let worn: Vec<(Symbol, Uid)> = {
                let world = engine.world.borrow();
                let object = world.object(this.uid).map_err(mlua::Error::runtime)?;
                object.equipment().map(|e| e.sorted_by_name().into_iter().map(|(s, u)| (s, *u)).collect()).unwrap_or_default()
            };
            let slots = lua.create_sequence_from(worn.iter().map(|(s, _)| s.as_str()))?;
            let items = object_list(lua, &worn.iter().map(|(_, u)| *u).collect::<Vec<_>>())?;
            super::pairs_of(lua, slots, items)
        });
        methods.add_method("slots", |lua, this, ()| {
            let engine = engine(lua);
            let world = engine.world.borrow();
            let slots = match world.calc(this.uid, Symbol::intern("equip_slots")) {
                Some(Value::List(list)) => list.iter().filter_map(|v| v.as_str().map(str::to_owned)).collect(),
                _ => Vec::new(),
            };
            lua.create_sequence_from(slots)
        });
    }
}

/// Makes a location handle answer `holder_arg` for the ILocation methods of maps.
pub fn location_of(lua: &Lua, engine: &Engine, value: &mlua::Value) -> mlua::Result<Holder> {
    holder_arg(engine, value, "the location").map_err(|e| rt_error(lua, super::error::root_message(&e)))
}
