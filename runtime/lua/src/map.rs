//! `Map`, `InstancedMap` and map handles: tiles, sight, the ILocation operations of maps, and
//! the map's own fields with base and temp values (`map.is_temporary = true`, `map.temp.x`,
//! `map:mod`, `map:calc`, `map:reset`, `map:refresh`), saved with the map.

use std::rc::Rc;

use mlua::{Function, Lua, Table};

use super::convert::{from_lua, to_lua};
use super::handle::{ID_ENTRY, live_map, push_map};
use super::{Engine, engine, ipairs, rt_error};
use nefia_game::location::Holder;
use nefia_game::map::MapId;
use nefia_game::moddable::ModMethod;
use nefia_game::object::ObjectKind;
use nefia_game::symbol::Symbol;

/// The engine and the live map id behind method receiver `this`.
fn receiver(lua: &Lua, this: &Table) -> mlua::Result<(Rc<Engine>, MapId)> {
    let engine = engine(lua);
    let id = live_map(lua, &engine, this)?;
    Ok((engine, id))
}

fn get_field(lua: &Lua, (this, key): (Table, String)) -> mlua::Result<mlua::Value> {
    if key == "uid" {
        return Ok(mlua::Value::Integer(this.raw_get::<i64>(ID_ENTRY)?.abs()));
    }
    let (engine, id) = receiver(lua, &this)?;
    let world = engine.world.borrow();
    let map = world.map(id).map_err(|e| rt_error(lua, e))?;
    Ok(match key.as_str() {
        "width" => mlua::Value::Integer(map.width().into()),
        "height" => mlua::Value::Integer(map.height().into()),
        "name" => mlua::Value::String(lua.create_string(&map.name)?),
        "entrance" => match map.entrance {
            Some((x, y)) => mlua::Value::Table(lua.create_sequence_from([x, y])?),
            None => mlua::Value::Nil,
        },
        "temp" => {
            let owner = super::object::TempOwner::Map(id);
            mlua::Value::UserData(lua.create_userdata(super::object::TempRef { owner })?)
        }
        // The map's own fields: their base values, as `obj.field` reads an object's.
        other => match Symbol::lookup(other).and_then(|f| map.fields.base.get(f)) {
            Some(value) => to_lua(lua, value)?,
            None => mlua::Value::Nil,
        },
    })
}

/// Names of a map handle scripts cannot assign, with what to do instead.
const MANAGED: [(&str, &str); 4] = [
    ("uid", "maps get their uid when they are made"),
    ("width", "resize the map in the editor (Map ▸ Resize), or make a new one with InstancedMap:new(width, height)"),
    ("height", "resize the map in the editor (Map ▸ Resize), or make a new one with InstancedMap:new(width, height)"),
    ("temp", "use map:mod(field, value[, method]) to set a temporary value"),
];

fn set_field(lua: &Lua, (this, key, value): (Table, String, mlua::Value)) -> mlua::Result<()> {
    let (engine, id) = receiver(lua, &this)?;
    match (key.as_str(), value) {
        ("name", mlua::Value::String(name)) => {
            engine.world.borrow_mut().map_mut(id).map_err(|e| rt_error(lua, e))?.name = name.to_str()?.to_owned();
            Ok(())
        }
        ("entrance", value) => {
            let entrance = match &value {
                mlua::Value::Nil => None,
                mlua::Value::Table(at) => Some((at.get::<i32>(1)?, at.get::<i32>(2)?)),
                other => {
                    return Err(rt_error(
                        lua,
                        format!("a map's entrance is {{x, y}} or nil, not a {}", other.type_name()),
                    ));
                }
            };
            let mut world = engine.world.borrow_mut();
            let map = world.map_mut(id).map_err(|e| rt_error(lua, e))?;
            if let Some((x, y)) = entrance.filter(|&(x, y)| !map.in_bounds(x, y)) {
                return Err(rt_error(lua, format!("the entrance ({x}, {y}) is outside the map")));
            }
            map.entrance = entrance;
            Ok(())
        }
        (managed, _) if MANAGED.iter().any(|(name, _)| *name == managed) => {
            let advice = MANAGED.iter().find(|(name, _)| *name == managed).map_or("", |(_, advice)| advice);
            Err(rt_error(lua, format!("cannot assign '{managed}' of a map: {advice}")))
        }
        // Any other name is one of the map's own fields (its base value).
        (field, value) => {
            let value = from_lua(lua, &value, field).map_err(|e| rt_error(lua, e))?;
            let field = Symbol::intern(field);
            let set = engine.world.borrow_mut().change_map_fields(id, |fields, none| {
                fields.set_base(field, value, none);
                Ok(())
            });
            set.map_err(|e| rt_error(lua, e))
        }
    }
}

/// A map method that changes field `field` with `value` by a method: `mod` (a temp value,
/// from the calling line) or `mod_base`.
fn field_changer(
    lua: &Lua,
    change: fn(
        &mut nefia_game::moddable::Moddable,
        Symbol,
        nefia_game::value::Value,
        ModMethod,
        nefia_game::moddable::Origin,
    ) -> Result<(), nefia_game::moddable::ModError>,
) -> mlua::Result<Function> {
    lua.create_function(move |lua, (this, field, value, method): (Table, String, mlua::Value, Option<mlua::String>)| {
        let (engine, id) = receiver(lua, &this)?;
        let method = super::object::mod_method(lua, method)?;
        let value = from_lua(lua, &value, &field).map_err(|e| rt_error(lua, e))?;
        let origin = super::caller_origin(lua, &engine);
        let field = Symbol::intern(&field);
        let changed =
            engine.world.borrow_mut().change_map_fields(id, |fields, _| change(fields, field, value, method, origin));
        changed.map_err(|e| rt_error(lua, e))
    })
}

/// Adds IModdable's methods for the map's own fields: `mod`, `mod_base`, `calc`, `reset`
/// and `refresh` (which clears the temp values). A map has no prototype behind its fields.
fn add_moddable(lua: &Lua, methods: &Table) -> mlua::Result<()> {
    methods.raw_set(
        "mod",
        field_changer(lua, |fields, field, value, method, origin| {
            fields.mod_temp(field, value, method, origin, &Default::default())
        })?,
    )?;
    methods.raw_set(
        "mod_base",
        field_changer(lua, |fields, field, value, method, _| {
            fields.mod_base(field, value, method, &Default::default())
        })?,
    )?;
    methods.raw_set(
        "calc",
        lua.create_function(|lua, (this, field): (Table, String)| {
            let (engine, id) = receiver(lua, &this)?;
            let world = engine.world.borrow();
            let map = world.map(id).map_err(|e| rt_error(lua, e))?;
            let none = nefia_game::moddable::FieldMap::new();
            let value = Symbol::lookup(&field).and_then(|f| map.fields.calc(f, &none)).cloned();
            value.map(|v| to_lua(lua, &v)).transpose()
        })?,
    )?;
    methods.raw_set(
        "reset",
        lua.create_function(|lua, (this, field, value): (Table, String, mlua::Value)| {
            let (engine, id) = receiver(lua, &this)?;
            let value = from_lua(lua, &value, &field).map_err(|e| rt_error(lua, e))?;
            let field = Symbol::intern(&field);
            let changed = engine.world.borrow_mut().change_map_fields(id, |fields, none| {
                fields.reset(field, value, none);
                Ok(())
            });
            changed.map_err(|e| rt_error(lua, e))
        })?,
    )?;
    methods.raw_set(
        "refresh",
        lua.create_function(|lua, this: Table| {
            let (engine, id) = receiver(lua, &this)?;
            let changed = engine.world.borrow_mut().change_map_fields(id, |fields, _| {
                fields.clear_temp();
                Ok(())
            });
            changed.map_err(|e| rt_error(lua, e))
        })?,
    )?;
    Ok(())
}

/// Fills `meta`, the metatable of map handles, except its `__index` (a fast C function, see
/// `object_access.rs`). Returns the methods table and the function reading fields.
pub fn fill_metatable(lua: &Lua, meta: &Table) -> mlua::Result<(Table, Function)> {
    let methods = methods(lua)?;
    meta.raw_set("__newindex", lua.create_function(set_field)?)?;
    meta.raw_set(
        "__tostring",
        lua.create_function(|lua, this: Table| {
            let engine = engine(lua);
            let id: i64 = this.raw_get(ID_ENTRY)?;
            if id < 0 {
                return Ok(format!("<map {} (from before the game was loaded)>", -id));
            }
            let id = MapId(id as u64);
            let world = engine.world.borrow();
            Ok(match world.map(id) {
                Ok(map) => format!("<map {id} '{}' {}x{}>", map.name, map.width(), map.height()),
                Err(_) => format!("<map {id} (removed)>"),
            })
        })?,
    )?;
    meta.raw_set("__name", "map")?;
    meta.raw_set("__metatable", "map")?;
    Ok((methods, lua.create_function(get_field)?))
}

fn methods(lua: &Lua) -> mlua::Result<Table> {
    let methods = lua.create_table()?;
    add_moddable(lua, &methods)?;
    let add = |name: &str, function: Function| methods.raw_set(name, function);

    add(
        "tile",
        lua.create_function(|lua, (this, x, y): (Table, i32, i32)| {
            let (engine, id) = receiver(lua, &this)?;
            let tile = engine.world.borrow().map(id).map_err(|e| rt_error(lua, e))?.tile(x, y);
            Ok(tile.map(|t| t.as_str()))
        })?,
    )?;

    add(
        "set_tile",
        lua.create_function(|lua, (this, x, y, tile): (Table, i32, i32, String)| {
            let (engine, id) = receiver(lua, &this)?;
            engine.world.borrow_mut().set_tile(id, x, y, &tile).map_err(|e| rt_error(lua, e))
        })?,
    )?;

    add(
        "apply_autotile",
        lua.create_function(|lua, (this, rules, seed): (Table, mlua::Value, Option<i64>)| {
            let (engine, id) = receiver(lua, &this)?;
            // A table is the map's own rules, written as a rule set's `rules` are.
            let own = match &rules {
                mlua::Value::String(_) => None,
                mlua::Value::Table(_) => Some(
                    from_lua(lua, &rules, "the map's own rules")
                        .map_err(|e| rt_error(lua, format!("map:apply_autotile: {e}")))?,
                ),
                other => {
                    return Err(rt_error(
                        lua,
                        format!(
                            "map:apply_autotile: give a rule set's id (\"mod.id\") or the map's own rules (a table of rules), not a {}",
                            other.type_name()
                        ),
                    ));
                }
            };
            let mut world = engine.world.borrow_mut();
            // Without a seed, one drawn from the world's numbers: a generator's seed decides it.
            let seed = seed.unwrap_or_else(|| world.rng.i64(..));
            let applied = match own {
                Some(own) => world.apply_own_autotile(id, own, seed),
                None => world.apply_autotile(id, &rules.to_string()?, seed),
            };
            applied.map_err(|e| rt_error(lua, format!("map:apply_autotile: {e}")))
        })?,
    )?;

    add(
        "clear",
        lua.create_function(|lua, (this, tile): (Table, String)| {
            let (engine, id) = receiver(lua, &this)?;
            engine.world.borrow_mut().clear_map(id, &tile).map_err(|e| rt_error(lua, format!("map:clear: {e}")))
        })?,
    )?;

    add(
        "iter_type_at_pos",
        lua.create_function(|lua, (this, data_type, x, y): (Table, String, i32, i32)| {
            let (engine, id) = receiver(lua, &this)?;
            let kind = ObjectKind::from_data_type(&data_type).ok_or_else(|| {
                rt_error(
                    lua,
                    format!(
                        "map:iter_type_at_pos: '{data_type}' is not a map object type: use \"base.chara\", \"base.item\", \"base.feat\" or \"base.mef\""
                    ),
                )
            })?;
            let uids: Vec<_> = {
                let world = engine.world.borrow();
                let here = world.objects_at_pos(Holder::Map(id), x, y).map_err(|e| rt_error(lua, e))?;
                here.into_iter().filter(|&uid| world.object(uid).is_ok_and(|o| o.kind == kind)).collect()
            };
            ipairs(lua, super::handle::object_list(lua, &uids)?)
        })?,
    )?;

    add(
        "is_in_bounds",
        lua.create_function(|lua, (this, x, y): (Table, i32, i32)| {
            let (engine, id) = receiver(lua, &this)?;
            Ok(engine.world.borrow().map(id).map_err(|e| rt_error(lua, e))?.in_bounds(x, y))
        })?,
    )?;

    add(
        "can_access",
        lua.create_function(|lua, (this, x, y): (Table, i32, i32)| {
            let (engine, id) = receiver(lua, &this)?;
            Ok(engine.world.borrow().is_open(id, x, y, ObjectKind::Chara))
        })?,
    )?;

    add(
        "calc_screen_sight",
        lua.create_function(|lua, (this, x, y, fov): (Table, i32, i32, Option<i32>)| {
            let (engine, id) = receiver(lua, &this)?;
            engine.world.borrow_mut().calc_screen_sight(id, x, y, fov.unwrap_or(15)).map_err(|e| rt_error(lua, e))
        })?,
    )?;

    add(
        "is_in_fov",
        lua.create_function(|lua, (this, x, y): (Table, i32, i32)| {
            let (engine, id) = receiver(lua, &this)?;
            Ok(engine.world.borrow().map(id).map_err(|e| rt_error(lua, e))?.sight.is_visible(x, y))
        })?,
    )?;

    add(
        "is_memorized",
        lua.create_function(|lua, (this, x, y): (Table, i32, i32)| {
            let (engine, id) = receiver(lua, &this)?;
            Ok(engine.world.borrow().map(id).map_err(|e| rt_error(lua, e))?.memory.get(x, y).is_some())
        })?,
    )?;

    // `objects_at_pos` is a fast C function (see `object_access.rs`).
    super::location::add_methods(lua, &methods, |lua, this| {
        let (engine, map) = receiver(lua, this)?;
        Ok((engine, Holder::Map(map)))
    })?;

    Ok(methods)
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
        lua.create_function(|lua, map: Table| {
            let engine = engine(lua);
            let id = live_map(lua, &engine, &map)?;
            engine.world.borrow_mut().set_current_map(id).map_err(|e| rt_error(lua, e))
        })?,
    )?;
    map.set(
        "iter",
        lua.create_function(|lua, ()| {
            let ids: Vec<MapId> = engine(lua).world.borrow().maps().map(|m| m.uid).collect();
            let list = lua.create_table()?;
            for (i, id) in ids.into_iter().enumerate() {
                list.raw_set(i + 1, push_map(lua, id)?)?;
            }
            ipairs(lua, list)
        })?,
    )?;
    map.set(
        "open",
        lua.create_function(|lua, name: String| {
            let engine = engine(lua);
            let project = engine.project.borrow().clone();
            let project =
                project.ok_or_else(|| rt_error(lua, "Map.open: no project is open, so there are no map files"))?;
            let (id, problems) = engine
                .maps
                .borrow_mut()
                .open(&mut engine.world.borrow_mut(), &project, &name)
                .map_err(|e| rt_error(lua, format!("Map.open('{name}'): {e}")))?;
            for problem in problems {
                super::gui::log(lua, nefia_game::display::LogLevel::Warn, problem);
            }
            push_map(lua, id)
        })?,
    )?;
    map.set(
        "get",
        lua.create_function(|lua, uid: u64| {
            let exists = engine(lua).world.borrow().map(MapId(uid)).is_ok();
            if exists { push_map(lua, MapId(uid)).map(Some) } else { Ok(None) }
        })?,
    )?;
    super::mapgen::install(lua, &map)?;
    super::map_store::install(lua, &map)?;
    super::travel::install(lua, &map)?;
    api.set("Map", map)?;

    let instanced = lua.create_table()?;
    instanced.set(
        "new",
        lua.create_function(|lua, (_class, width, height, tile): (mlua::Value, i32, i32, Option<String>)| {
            let engine = engine(lua);
            nefia_game::map::check_map_size(width.into(), height.into()).map_err(|e| rt_error(lua, e))?;
            let cells = usize::try_from(width.max(0)).unwrap_or(0) * usize::try_from(height.max(0)).unwrap_or(0);
            let bytes = cells.saturating_mul(nefia_game::world::CELL_BYTES);
            let what = format!("InstancedMap:new({width}, {height})");
            engine.limits.check_allocation(lua, bytes, &what).map_err(|e| rt_error(lua, e))?;
            let id =
                engine.world.borrow_mut().create_map(width, height, tile.as_deref()).map_err(|e| rt_error(lua, e))?;
            push_map(lua, id)
        })?,
    )?;
    api.set("InstancedMap", instanced)?;
    Ok(())
}
