//! IMapObject, IModdable and ILocation as the methods of object handles.
//!
//! `obj.field` reads the base value and `obj.field = v` writes it; a few names are managed
//! by the engine (`uid`, `_id`, `_type`, `x`, `y`, `location`, …) and assigning them raises
//! an error naming the method to use instead.

use std::rc::Rc;

use mlua::{Function, Lua, MetaMethod, Table, UserData, UserDataMethods};

use super::convert::{from_lua, to_lua};
use super::handle::{ID_ENTRY, live_object, object_arg, object_list, push_holder, push_map, push_object};
use super::{Engine, engine, ipairs, rt_error};
use nefia_game::location::{EquipFrom, Holder};
use nefia_game::moddable::ModMethod;
use nefia_game::object::{Uid, reserved_field};
use nefia_game::symbol::Symbol;
use nefia_game::value::Value;
use nefia_game::world::WorldError;

/// The engine and the live uid behind method receiver `this`.
fn receiver(lua: &Lua, this: &Table) -> mlua::Result<(Rc<Engine>, Uid)> {
    let engine = engine(lua);
    let uid = live_object(lua, &engine, this)?;
    Ok((engine, uid))
}

/// The `method` argument of `mod` and `mod_base` ("set" when none is given).
pub(super) fn mod_method(lua: &Lua, method: Option<mlua::String>) -> mlua::Result<ModMethod> {
    match method {
        None => Ok(ModMethod::Set),
        Some(name) => ModMethod::parse(&name.as_bytes()).map_err(|e| rt_error(lua, e)),
    }
}

/// Runs `refresh()` on `uid`: clears temp values and emits the kind's refresh event so
/// handlers re-apply theirs.
pub fn refresh(lua: &Lua, uid: Uid) -> mlua::Result<()> {
    refresh_handle(lua, uid, None)
}

/// [`refresh`] of the object whose handle is `handle`, if the caller has it at hand.
fn refresh_handle(lua: &Lua, uid: Uid, handle: Option<Table>) -> mlua::Result<()> {
    let engine = engine(lua);
    let (kind, proto) = {
        let mut world = engine.world.borrow_mut();
        world.clear_temp(uid).map_err(|e| rt_error(lua, e))?;
        world.object(uid).map(|o| (o.kind, o.id)).map_err(|e| rt_error(lua, e))?
    };
    let event = kind.event(nefia_game::object::KindEvent::Refreshed);
    if super::instantiate::may_be_handled(&engine, event, uid, proto) {
        let receiver = match handle {
            Some(handle) => handle,
            None => push_object(lua, uid)?,
        };
        super::event::trigger_without_params(lua, event, mlua::Value::Table(receiver))?;
    }
    // What the refresh changed in all, besides what its handlers' `mod`s already reported.
    if !engine.world.borrow().watches().is_empty() {
        engine.world.borrow_mut().compare_watched(uid);
    }
    super::watch::deliver(lua, super::watch::Writer::Lua)
}

/// What `getmetatable(obj)` (and `obj.__mt`) gives for an object: the metatable is hidden.
const METATABLE_SHOWN: &str = "object";

/// `obj.location`, `obj.equip`, `obj.temp` and `obj.proto`: the fields that make handles or
/// tables; and OpenNefia's reserved `obj.__mt` (what `getmetatable(obj)` gives) and
/// `obj.__iface` (the kind's interface table: `IItem` for items, else `IMapObject`). The fast
/// `__index` (see `object_access.rs`) reads every other field and delegates these.
fn get_field(lua: &Lua, (this, key): (Table, String)) -> mlua::Result<mlua::Value> {
    let (engine, uid) = receiver(lua, &this)?;
    let world = engine.world.borrow();
    let object = world.object(uid).map_err(|e| rt_error(lua, e))?;
    Ok(match key.as_str() {
        "location" => match object.location() {
            Some(location) => {
                drop(world);
                mlua::Value::Table(push_holder(lua, location.holder())?)
            }
            None => mlua::Value::Nil,
        },
        "equip" if object.equipment().is_some() => {
            drop(world);
            let slots_of: Function = lua.named_registry_value(super::items::EQUIP_SLOTS_OF)?;
            let equip: Table = slots_of.call(this.clone())?;
            this.raw_set(super::handle::EQUIP_ENTRY, &equip)?;
            mlua::Value::Table(equip)
        }
        "temp" => mlua::Value::UserData(lua.create_userdata(TempRef { owner: TempOwner::Object(uid) })?),
        "proto" => {
            let (kind, id) = (object.kind, object.id);
            drop(world);
            super::data::prototype_table(lua, kind.data_type(), id.as_str())?
        }
        "__mt" => mlua::Value::String(lua.create_string(METATABLE_SHOWN)?),
        "__iface" => {
            let interface = if object.kind == nefia_game::object::ObjectKind::Item { "IItem" } else { "IMapObject" };
            engine.api.raw_get(interface)?
        }
        _ => mlua::Value::Nil,
    })
}

/// `obj.key = value`: sets a base value, refusing managed names.
fn set_field(lua: &Lua, (this, key, value): (Table, mlua::String, mlua::Value)) -> mlua::Result<()> {
    let (engine, uid) = receiver(lua, &this)?;
    let key = key.to_str()?;
    writable(lua, &key)?;
    let value = field_value(lua, &engine, &value, &key)?;
    let kind = engine.world.borrow().object(uid).map_err(|e| rt_error(lua, e))?.kind;
    if let Err(problem) = super::schema::check_value(lua, kind.data_type(), &key, &value) {
        let object = engine.world.borrow().describe(uid);
        return Err(rt_error(
            lua,
            format!(
                "cannot set {key} of {object}: {problem}; give it a value of the type {} declares for it",
                kind.data_type()
            ),
        ));
    }
    let result = engine.world.borrow_mut().set_base(uid, Symbol::intern(&key), value).map_err(|e| rt_error(lua, e));
    super::watch::after_write(lua, result)
}

/// Refuses a name the engine keeps itself (`obj.uid = 5`, `obj:mod_base("x", 1)`), in the words
/// every edit of a field refuses one with (`game::field_edit`).
fn writable(lua: &Lua, key: &str) -> mlua::Result<()> {
    reserved_field(key).map_or(Ok(()), |reserved| Err(rt_error(lua, reserved)))
}

/// `value` as what field `key` of an object holds: a field may hold an object itself (a
/// shopkeeper's stock), as a reference by uid.
pub fn field_value(lua: &Lua, engine: &Engine, value: &mlua::Value, key: &str) -> mlua::Result<Value> {
    match value {
        mlua::Value::Table(table) if super::handle::object_uid(engine, value).is_some() => {
            Ok(Value::Object(live_object(lua, engine, table)?))
        }
        value => from_lua(lua, value, key).map_err(|e| rt_error(lua, e)),
    }
}

/// Fills `meta`, the metatable of object handles, except its `__index` (a fast C function,
/// see `object_access.rs`): field writes (the fast C `__newindex` of `field_shadow.rs` then
/// takes this one's place and hands it what it does not write itself), `tostring` and `==`. Returns the methods table and the
/// function reading the fields `__index` delegates (`location`, `equip`, `temp`, `proto`).
pub fn fill_metatable(lua: &Lua, meta: &Table) -> mlua::Result<(Table, Function)> {
    let methods = methods(lua)?;
    meta.raw_set("__newindex", lua.create_function(set_field)?)?;
    meta.raw_set(
        "__tostring",
        lua.create_function(|lua, this: Table| {
            let id: i64 = this.raw_get(ID_ENTRY)?;
            if id < 0 {
                return Ok(format!("<object (uid {}, from before the game was loaded)>", -id));
            }
            Ok(engine(lua).world.borrow().describe(Uid(id as u64)))
        })?,
    )?;
    meta.raw_set(
        "__eq",
        lua.create_function(
            |_, (a, b): (Table, Table)| Ok(a.raw_get::<i64>(ID_ENTRY)? == b.raw_get::<i64>(ID_ENTRY)?),
        )?,
    )?;
    meta.raw_set("__name", "object")?;
    meta.raw_set("__metatable", METATABLE_SHOWN)?;
    Ok((methods, lua.create_function(get_field)?))
}

/// `obj:containing_map()` (OpenNefia's): the map the object is on, directly or through what
/// holds it, with the object standing on the map (the object itself, or its holder, or its
/// holder's holder…) and that one's cell; nothing if no map holds it.
fn containing_map(lua: &Lua, this: Table) -> mlua::Result<mlua::MultiValue> {
    let (engine, uid) = receiver(lua, &this)?;
    let found = {
        let world = engine.world.borrow();
        let mut containing = uid;
        loop {
            let object = world.object(containing).map_err(|e| rt_error(lua, e))?;
            match object.location() {
                Some(nefia_game::location::Location::Map(map)) => break Some((map, containing, object.x, object.y)),
                Some(location) => match location.holder() {
                    Holder::Object(owner) => containing = owner,
                    Holder::Map(map) => break Some((map, containing, object.x, object.y)),
                },
                None => break None,
            }
        }
    };
    let Some((map, containing, x, y)) = found else { return Ok(mlua::MultiValue::new()) };
    let values = [
        mlua::Value::Table(push_map(lua, map)?),
        mlua::Value::Table(push_object(lua, containing)?),
        mlua::Value::Integer(x.into()),
        mlua::Value::Integer(y.into()),
    ];
    Ok(values.into_iter().collect())
}

fn methods(lua: &Lua) -> mlua::Result<Table> {
    let methods = lua.create_table()?;
    super::object_events::add_methods(lua, &methods)?;
    let add = |name: &str, function: Function| methods.raw_set(name, function);

    // ---- IMapObject ----

    // True once moved; false, with the position left as it was, for an object in no location
    // (OpenNefia's: there is nowhere to move it in).
    // Swaps the positions of two objects in the same location: true once swapped, false (and
    // nothing moved) when they are not in one location (OpenNefia's `swap_places`).
    add(
        "swap_places",
        lua.create_function(|lua, (this, other): (Table, mlua::Value)| {
            let (engine, uid) = receiver(lua, &this)?;
            let other = super::handle::object_uid(&engine, &other).ok_or_else(|| {
                rt_error(
                    lua,
                    "swap_places takes another map object, such as Chara.at(x, y); call it as a:swap_places(b)",
                )
            })?;
            let mut world = engine.world.borrow_mut();
            let (a, b) =
                (world.object(uid).map_err(|e| rt_error(lua, e))?, world.object(other).map_err(|e| rt_error(lua, e))?);
            if a.location().is_none() || a.location() != b.location() {
                return Ok(false);
            }
            let ((ax, ay), (bx, by)) = ((a.x, a.y), (b.x, b.y));
            world.set_pos(uid, bx, by).map_err(|e| rt_error(lua, e))?;
            world.set_pos(other, ax, ay).map_err(|e| rt_error(lua, e))?;
            Ok(true)
        })?,
    )?;

    add(
        "set_pos",
        lua.create_function(|lua, (this, x, y): (Table, i32, i32)| {
            let (engine, uid) = receiver(lua, &this)?;
            let mut world = engine.world.borrow_mut();
            if world.object(uid).map_err(|e| rt_error(lua, e))?.location().is_none() {
                return Ok(false);
            }
            world.set_pos(uid, x, y).map_err(|e| rt_error(lua, e))?;
            Ok(true)
        })?,
    )?;

    add(
        "remove_ownership",
        lua.create_function(|lua, this: Table| {
            let (engine, uid) = receiver(lua, &this)?;
            engine.world.borrow_mut().remove_ownership(uid).map_err(|e| rt_error(lua, e))
        })?,
    )?;

    add(
        "current_map",
        lua.create_function(|lua, this: Table| {
            let (engine, uid) = receiver(lua, &this)?;
            let map = engine.world.borrow().map_of(uid);
            map.map(|m| push_map(lua, m)).transpose()
        })?,
    )?;

    add(
        "get_location",
        lua.create_function(|lua, this: Table| {
            let (engine, uid) = receiver(lua, &this)?;
            let location = engine.world.borrow().object(uid).map_err(|e| rt_error(lua, e))?.location();
            location.map(|l| push_holder(lua, l.holder())).transpose()
        })?,
    )?;

    add("containing_map", lua.create_function(containing_map)?)?;

    // A mef's origin (`Mef.create`'s `origin`), while it exists.
    add(
        "get_origin",
        lua.create_function(|lua, this: Table| {
            let (engine, uid) = receiver(lua, &this)?;
            let origin = {
                let world = engine.world.borrow();
                let object = world.object(uid).map_err(|e| rt_error(lua, e))?;
                if object.kind != nefia_game::object::ObjectKind::Mef {
                    return Err(rt_error(lua, format!("get_origin is for mefs, not a {}", object.kind.noun())));
                }
                let proto = &world.data.proto(object.proto).fields;
                let origin = object.fields.base(Symbol::intern("origin_uid"), proto).and_then(Value::as_i64);
                origin.and_then(|o| u64::try_from(o).ok()).map(Uid).filter(|&o| world.exists(o))
            };
            origin.map(|o| push_object(lua, o)).transpose()
        })?,
    )?;

    add(
        "change_prototype",
        lua.create_function(|lua, (this, id, options): (Table, String, Option<Table>)| {
            let instantiate = match &options {
                Some(options) => options.get::<Option<bool>>("instantiate")?.unwrap_or(false),
                None => false,
            };
            let (engine, uid) = receiver(lua, &this)?;
            let changed = engine.world.borrow_mut().change_prototype(uid, &id);
            let old = changed.map_err(|e| rt_error(lua, format!("change_prototype: {e}")))?;
            super::watch::after_write(lua, Ok(()))?;
            let params = lua.create_table()?;
            params.set("old_id", old.as_str())?;
            let event = Symbol::intern("base.on_object_prototype_changed");
            super::event::trigger(lua, event, mlua::Value::Table(this), params)?;
            if instantiate {
                super::instantiate::instantiate(lua, uid)?;
            }
            Ok(())
        })?,
    )?;

    add(
        "produce_memory",
        lua.create_function(|lua, this: Table| {
            let (engine, uid) = receiver(lua, &this)?;
            let memory = engine.world.borrow().produce_memory(uid).map_err(|e| rt_error(lua, e))?;
            let table = lua.create_table()?;
            table.set("show", memory.show)?;
            table.set("glyph", memory.glyph.as_str())?;
            table.set("color", lua.create_sequence_from(memory.color)?)?;
            let image = memory.image.as_ref().map(|image| to_lua(lua, image)).transpose()?;
            table.set("image", image)?;
            table.set("uid", memory.uid.0)?;
            table.set("_id", memory.id.as_str())?;
            table.set("_type", memory.kind.data_type())?;
            Ok(table)
        })?,
    )?;

    add(
        "refresh",
        lua.create_function(|lua, this: Table| {
            let (_, uid) = receiver(lua, &this)?;
            refresh_handle(lua, uid, Some(this))
        })?,
    )?;

    // A copy with a new uid, ownerless; `owned` puts it where the original is (its map cell,
    // or its holder's inventory), or gives nothing if it cannot go there (OpenNefia's).
    add(
        "clone",
        lua.create_function(|lua, (this, owned): (Table, Option<bool>)| {
            let (engine, uid) = receiver(lua, &this)?;
            super::handle::maybe_sweep(&engine);
            let mut world = engine.world.borrow_mut();
            let copy = world.clone_object(uid).map_err(|e| rt_error(lua, e))?;
            if owned == Some(true)
                && let Some(location) = world.object(uid).map_err(|e| rt_error(lua, e))?.location()
            {
                let (x, y) = (
                    world.object(copy).map_err(|e| rt_error(lua, e))?.x,
                    world.object(copy).map_err(|e| rt_error(lua, e))?.y,
                );
                if world.take_object(location.holder(), copy, x, y).is_err() {
                    return Ok(None);
                }
            }
            drop(world);
            let handle = push_object(lua, copy)?;
            super::instantiate::instantiate(lua, copy)?;
            Ok(Some(handle))
        })?,
    )?;

    // ---- IModdable ----

    // `mod` and `calc` are the fast C functions (see `object_access.rs`).

    add(
        "mod_base",
        lua.create_function(
            |lua, (this, field, value, method): (Table, mlua::String, mlua::Value, Option<mlua::String>)| {
                let (engine, uid) = receiver(lua, &this)?;
                let method = mod_method(lua, method)?;
                let field = field.to_str()?;
                writable(lua, &field)?;
                let value = from_lua(lua, &value, &field).map_err(|e| rt_error(lua, e))?;
                let result = engine.world.borrow_mut().mod_base(uid, Symbol::intern(&field), value, method);
                super::watch::after_write(lua, result.map_err(|e| rt_error(lua, e)))
            },
        )?,
    )?;

    add(
        "reset",
        lua.create_function(|lua, (this, field, value): (Table, mlua::String, mlua::Value)| {
            let (engine, uid) = receiver(lua, &this)?;
            let field = field.to_str()?;
            writable(lua, &field)?;
            let value = from_lua(lua, &value, &field).map_err(|e| rt_error(lua, e))?;
            let result = engine.world.borrow_mut().reset(uid, Symbol::intern(&field), value);
            super::watch::after_write(lua, result.map_err(|e| rt_error(lua, e)))
        })?,
    )?;

    add(
        "mod_sources",
        lua.create_function(|lua, (this, field): (Table, mlua::String)| {
            let (engine, uid) = receiver(lua, &this)?;
            let list = lua.create_table()?;
            let Some(field) = Symbol::lookup(&field.to_str()?) else {
                return Ok(list);
            };
            let world = engine.world.borrow();
            let object = world.object(uid).map_err(|e| rt_error(lua, e))?;
            if let Some(temp) = object.fields.temp.get(field) {
                for (i, source) in temp.sources.iter().enumerate() {
                    let entry = lua.create_table()?;
                    entry.set("method", source.method.name())?;
                    entry.set("value", to_lua(lua, &source.value)?)?;
                    entry.set("mod", source.origin.mod_id.map(|m| m.as_str()))?;
                    entry.set("file", source.origin.file.as_str())?;
                    entry.set("line", source.origin.line)?;
                    entry.set("times", source.times)?;
                    list.raw_set(i + 1, entry)?;
                }
            }
            Ok(list)
        })?,
    )?;

    // ---- ILocation (characters and containers) ----

    super::location::add_methods(lua, &methods, |lua, this| {
        let (engine, holder) = receiver(lua, this)?;
        Ok((engine, Holder::Object(holder)))
    })?;

    add(
        "objects_at_pos",
        lua.create_function(|lua, (this, x, y): (Table, i32, i32)| {
            let (engine, holder) = receiver(lua, &this)?;
            let uids =
                engine.world.borrow().objects_at_pos(Holder::Object(holder), x, y).map_err(|e| rt_error(lua, e))?;
            ipairs(lua, object_list(lua, &uids)?)
        })?,
    )?;

    // ---- equipment (characters) ----

    add(
        "equip_item",
        lua.create_function(
            |lua, (this, item, force_or_slot, slot): (Table, mlua::Value, mlua::Value, mlua::Value)| {
                let (engine, chara) = receiver(lua, &this)?;
                let item = object_arg(lua, &engine, &item, "the item to equip")?;
                // Nefia's `equip_item(item[, slot])` and OpenNefia's `equip_item(item, force[, slot])`,
                // where `force` takes the item from wherever it is.
                let (from, slot) = match force_or_slot {
                    mlua::Value::Boolean(true) => (EquipFrom::Anywhere, slot),
                    mlua::Value::Boolean(false) => (EquipFrom::Inventory, slot),
                    slot => (EquipFrom::Inventory, slot),
                };
                let slot = match slot {
                    mlua::Value::Nil => None,
                    mlua::Value::String(name) => Some(Symbol::intern(&name.to_str()?)),
                    other => {
                        let given = other.type_name();
                        return Err(rt_error(
                            lua,
                            format!("equip_item: the slot is a name such as \"head\", not a {given}"),
                        ));
                    }
                };
                let result = engine.world.borrow_mut().equip(chara, item, slot, from);
                match result {
                    Ok(slot) => Ok((Some(slot.as_str()), None)),
                    Err(WorldError::Refused(refusal)) => Ok((None, Some(refusal.to_string()))),
                    Err(other) => Err(rt_error(lua, other)),
                }
            },
        )?,
    )?;

    add(
        "unequip_item",
        lua.create_function(|lua, (this, slot): (Table, mlua::Value)| {
            let (engine, chara) = receiver(lua, &this)?;
            let slot = match &slot {
                mlua::Value::String(s) => Symbol::intern(&s.to_str()?),
                other => {
                    let item = object_arg(lua, &engine, other, "the slot or item to unequip")?;
                    let location = engine.world.borrow().object(item).map_err(|e| rt_error(lua, e))?.location();
                    match location {
                        Some(nefia_game::Location::Equipment(owner, slot)) if owner == chara => slot,
                        // OpenNefia's answer: nothing to take off, no error.
                        _ => {
                            let reason =
                                format!("{} is not worn by this character", engine.world.borrow().describe(item));
                            return Ok((None, Some(reason)));
                        }
                    }
                }
            };
            let result = engine.world.borrow_mut().unequip(chara, slot);
            match result {
                Ok(item) => Ok((Some(push_object(lua, item)?), None)),
                Err(WorldError::Refused(refusal)) => Ok((None, Some(refusal.to_string()))),
                Err(other) => Err(rt_error(lua, other)),
            }
        })?,
    )?;

    Ok(methods)
}

/// `obj.temp`: the object's temp values, live. Reading `obj.temp.fov` is the temp value (not
/// the base); `obj.temp.fov = 100` is `obj:mod("fov", 100)` and `obj.temp.fov = nil` removes
/// it, as the seed says; `pairs(obj.temp)` lists them.
/// Whose temp values a `temp` table shows: an object's or a map's.
#[derive(Clone, Copy)]
pub(super) enum TempOwner {
    /// An object.
    Object(Uid),
    /// A map (its own fields).
    Map(nefia_game::map::MapId),
}

/// `obj.temp` and `map.temp`: reading gives the temp value, writing sets one (`mod` with
/// "set"), `pairs` lists them.
pub(super) struct TempRef {
    pub(super) owner: TempOwner,
}

impl TempRef {
    /// `read` of the owner's temp values.
    fn with_temps<R>(
        &self,
        lua: &Lua,
        read: impl FnOnce(&nefia_game::moddable::FieldMap<nefia_game::moddable::TempValue>) -> mlua::Result<R>,
    ) -> mlua::Result<R> {
        let engine = engine(lua);
        let world = engine.world.borrow();
        match self.owner {
            TempOwner::Object(uid) => read(&world.object(uid).map_err(|e| rt_error(lua, e))?.fields.temp),
            TempOwner::Map(map) => read(&world.map(map).map_err(|e| rt_error(lua, e))?.fields.temp),
        }
    }
}

impl UserData for TempRef {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_meta_method(MetaMethod::Index, |lua, this, field: String| {
            let Some(field) = Symbol::lookup(&field) else { return Ok(None) };
            this.with_temps(lua, |temps| temps.get(field).map(|t| to_lua(lua, &t.value)).transpose())
        });
        methods.add_meta_method(MetaMethod::NewIndex, |lua, this, (field, value): (String, mlua::Value)| {
            let engine = engine(lua);
            let value = from_lua(lua, &value, &format!("temp.{field}")).map_err(|e| rt_error(lua, e))?;
            let origin = super::caller_origin(lua, &engine);
            let field = Symbol::intern(&field);
            let result = match this.owner {
                TempOwner::Object(uid) => engine.world.borrow_mut().mod_temp(uid, field, value, ModMethod::Set, origin),
                TempOwner::Map(map) => engine
                    .world
                    .borrow_mut()
                    .change_map_fields(map, |fields, none| fields.mod_temp(field, value, ModMethod::Set, origin, none)),
            };
            super::watch::after_write(lua, result.map_err(|e| rt_error(lua, e)))
        });
        methods.add_meta_method(MetaMethod::Pairs, |lua, this, ()| {
            let table = lua.create_table()?;
            this.with_temps(lua, |temps| {
                for (field, temp) in temps.iter() {
                    table.raw_set(field.as_str(), to_lua(lua, &temp.value)?)?;
                }
                Ok(())
            })?;
            let next: Function = lua.globals().raw_get("next")?;
            Ok((next, table, mlua::Value::Nil))
        });
    }
}
