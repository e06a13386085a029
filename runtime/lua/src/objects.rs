//! `Chara`, `Item`, `Feat` and `Mef`: creating map objects and iterating them (seed: Map
//! Objects). The four tables share one implementation, parameterized by [`ObjectKind`];
//! `Chara` adds `player` and `set_player`, `Mef` adds `at`.
//!
//! Mefs (map effects, OpenNefia's IMef) stand on maps only, one a cell: `Mef.create(id, x, y,
//! { duration = turns (10; -1 lasts), power = n (0), origin = obj }, map)` replaces the mef
//! at the cell, and keeps `turns`, `power` and `origin_uid` as the mef's fields;
//! `mef:get_origin()` gives the origin while it exists. `mods/base` counts the turns down.

use mlua::{Lua, Table};

use super::handle::{holder_arg, live_object, maybe_sweep, object_list, push_object};
use super::location::Answer;
use super::{engine, ipairs, rt_error};
use nefia_game::location::Holder;
use nefia_game::object::ObjectKind;
use nefia_game::world::WorldError;

/// Installs `Chara`, `Item` and `Feat` into `api`.
pub fn install(lua: &Lua, api: &Table) -> mlua::Result<()> {
    for kind in [ObjectKind::Chara, ObjectKind::Item, ObjectKind::Feat, ObjectKind::Mef] {
        let name = api_name(kind);
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
    let mef: Table = api.get("Mef")?;
    mef.set(
        "at",
        lua.create_function(|lua, (x, y, map): (i32, i32, Option<Table>)| {
            let engine = engine(lua);
            let id = match map {
                Some(map) => super::handle::live_map(lua, &engine, &map)?,
                None => engine.world.borrow().current_map().ok_or_else(|| rt_error(lua, WorldError::NoCurrentMap))?,
            };
            let found = {
                let world = engine.world.borrow();
                let map = world.map(id).map_err(|e| rt_error(lua, e))?;
                world.mef_at(map, x, y, nefia_game::object::Uid(0))
            };
            found.map(|uid| push_object(lua, uid)).transpose()
        })?,
    )?;
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

/// What `Mef.create`'s options say of a mef.
#[derive(Default)]
struct MefOptions {
    /// `duration`: turns it lasts (-1: for ever).
    turns: Option<i64>,
    /// `power`.
    power: Option<i64>,
    /// `origin`: the uid of the object that made it.
    origin: Option<nefia_game::object::Uid>,
}

impl MefOptions {
    fn read(lua: &Lua, engine: &super::Engine, options: &Table) -> mlua::Result<MefOptions> {
        let origin = match options.get::<mlua::Value>("origin")? {
            mlua::Value::Nil => None,
            value => Some(super::handle::object_arg(lua, engine, &value, "the mef's origin")?),
        };
        Ok(MefOptions { turns: options.get("duration")?, power: options.get("power")?, origin })
    }

    /// Sets the mef's `turns`, `power` and `origin_uid`.
    fn set_on(&self, engine: &super::Engine, uid: nefia_game::object::Uid) -> Result<(), WorldError> {
        let mut world = engine.world.borrow_mut();
        world.set_base(uid, nefia_game::Symbol::intern("turns"), nefia_game::Value::Int(self.turns.unwrap_or(10)))?;
        world.set_base(uid, nefia_game::Symbol::intern("power"), nefia_game::Value::Int(self.power.unwrap_or(0)))?;
        if let Some(origin) = self.origin {
            let origin = i64::try_from(origin.0).unwrap_or(i64::MAX);
            world.set_base(uid, nefia_game::Symbol::intern("origin_uid"), nefia_game::Value::Int(origin))?;
        }
        Ok(())
    }
}

/// OpenNefia's creation params every `*.create` takes, as `Chara.create(id, x, y, options)`
/// reads them.
#[derive(Default)]
struct Creation {
    /// `ownerless`: the object is placed nowhere.
    ownerless: bool,
    /// `amount` (items): how many the stack holds (at least 1).
    amount: Option<i64>,
    /// `no_stack` (items): not stacked onto a like item where it is made.
    no_stack: bool,
    /// `no_build`: no instantiation events.
    no_build: bool,
    /// `approximate_pos`: the nearest open cell when the one asked for is taken.
    approximate_pos: bool,
    /// `params` (feats): checked against the prototype's schema.
    params: Option<Table>,
    /// A mef's `duration`, `power` and `origin`.
    mef: MefOptions,
}

/// The API table of the objects of `kind` (`Chara`).
fn api_name(kind: ObjectKind) -> &'static str {
    match kind {
        ObjectKind::Chara => "Chara",
        ObjectKind::Item => "Item",
        ObjectKind::Feat => "Feat",
        ObjectKind::Mef => "Mef",
    }
}

/// The options each kind takes. `no_build` leaves out the instantiation events (see
/// `instantiate.rs`); there is nothing else to build, since an object's prototype fields are
/// read live, never copied into it.
fn known_options(kind: ObjectKind) -> &'static [&'static str] {
    match kind {
        ObjectKind::Item => &["ownerless", "no_build", "approximate_pos", "amount", "no_stack"],
        ObjectKind::Feat => &["ownerless", "no_build", "approximate_pos", "params"],
        ObjectKind::Mef => &["ownerless", "no_build", "approximate_pos", "duration", "power", "origin"],
        ObjectKind::Chara => &["ownerless", "no_build", "approximate_pos"],
    }
}

impl Creation {
    /// Reads `options` (nil or a table) for an object of `kind`; an option the kind does not
    /// take is an error naming it.
    fn read(lua: &Lua, engine: &super::Engine, kind: ObjectKind, options: &mlua::Value) -> mlua::Result<Creation> {
        let options = match options {
            mlua::Value::Nil => return Ok(Creation::default()),
            mlua::Value::Table(options) => options,
            other => {
                return Err(rt_error(lua, format!("options must be a table or nil, not {}", other.type_name())));
            }
        };
        let known = known_options(kind);
        for pair in options.pairs::<mlua::Value, mlua::Value>() {
            let (key, _) = pair?;
            let name = key.to_string()?;
            if !known.contains(&name.as_str()) {
                return Err(rt_error(
                    lua,
                    format!(
                        "{}.create: unknown option '{name}'; a {} takes {}",
                        api_name(kind),
                        kind.noun(),
                        known.join(", ")
                    ),
                ));
            }
        }
        let amount = match options.get::<mlua::Value>("amount")? {
            mlua::Value::Nil => None,
            given => match super::convert::whole_number(lua, &given, "amount", i64::MIN..=i64::MAX)? {
                n if n >= 1 => Some(n),
                n => return Err(rt_error(lua, format!("amount must be a whole number of at least 1, not {n}"))),
            },
        };
        Ok(Creation {
            ownerless: options.get::<Option<bool>>("ownerless")?.unwrap_or(false),
            amount,
            no_stack: options.get::<Option<bool>>("no_stack")?.unwrap_or(false),
            no_build: options.get::<Option<bool>>("no_build")?.unwrap_or(false),
            approximate_pos: options.get::<Option<bool>>("approximate_pos")?.unwrap_or(false),
            params: options.get::<Option<Table>>("params")?,
            mef: match kind {
                ObjectKind::Mef => MefOptions::read(lua, engine, options)?,
                _ => MefOptions::default(),
            },
        })
    }
}

/// True if another item of `uid`'s prototype shares its place (its cell, or its inventory).
fn like_item_here(world: &nefia_game::world::World, uid: nefia_game::object::Uid) -> bool {
    let Ok(item) = world.object(uid) else { return false };
    let Some(location) = item.location() else { return false };
    let (id, x, y) = (item.id, item.x, item.y);
    let here = world.objects_at_pos(location.holder(), x, y).unwrap_or_default();
    here.into_iter()
        .any(|other| other != uid && world.object(other).is_ok_and(|o| o.kind == ObjectKind::Item && o.id == id))
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
fn create(lua: &Lua, kind: ObjectKind, args: mlua::MultiValue) -> mlua::Result<Answer<Option<Table>>> {
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
    let creation = Creation::read(lua, &engine, kind, &options)?;
    let params = match kind {
        ObjectKind::Feat => feat_params(lua, &id, creation.params.clone())?,
        _ => None,
    };
    let holder = match (&location, creation.ownerless) {
        (_, true) => None,
        (mlua::Value::Nil, false) => Some(Holder::Map(
            engine.world.borrow().current_map().ok_or_else(|| rt_error(lua, WorldError::NoCurrentMap))?,
        )),
        (location, false) => Some(holder_arg(lua, &engine, location, "location")?),
    };
    if kind == ObjectKind::Mef && matches!(holder, Some(Holder::Object(_))) {
        return Err(rt_error(lua, "a mef stands on a map: give a map as the location, or { ownerless = true }"));
    }
    maybe_sweep(&engine);
    let uid = engine.world.borrow_mut().create(kind, &id).map_err(|e| rt_error(lua, e))?;
    if kind == ObjectKind::Mef {
        creation.mef.set_on(&engine, uid).map_err(|e| rt_error(lua, e))?;
    }
    if let Some(amount) = creation.amount {
        let set = engine.world.borrow_mut().set_base(
            uid,
            nefia_game::Symbol::intern("amount"),
            nefia_game::Value::Int(amount),
        );
        set.map_err(|e| rt_error(lua, e))?;
    }
    if let Some(params) = params {
        let params =
            super::convert::from_lua(lua, &mlua::Value::Table(params), "params").map_err(|e| rt_error(lua, e))?;
        let set = engine.world.borrow_mut().set_base(uid, nefia_game::Symbol::intern("params"), params);
        set.map_err(|e| rt_error(lua, e))?;
    }
    if let Some(holder) = holder {
        let (x, y) = match (holder, x, y) {
            (Holder::Map(map), None, _) | (Holder::Map(map), _, None) => {
                engine.world.borrow_mut().random_open_position(map, kind).map_err(|e| rt_error(lua, e))?
            }
            (Holder::Map(map), Some(x), Some(y)) if creation.approximate_pos => {
                let world = engine.world.borrow_mut();
                world.nearest_open_position(map, x, y, kind).map_err(|e| rt_error(lua, e))?
            }
            (_, x, y) => (x.unwrap_or(0), y.unwrap_or(0)),
        };
        // A new mef takes the place of the one at the cell (put back if it cannot go there).
        let replaced = match (kind, holder) {
            (ObjectKind::Mef, Holder::Map(map)) => {
                let mut world = engine.world.borrow_mut();
                let old = world.map(map).ok().and_then(|m| world.mef_at(m, x, y, uid));
                if let Some(old) = old {
                    world.remove_ownership(old).map_err(|e| rt_error(lua, e))?;
                }
                old
            }
            _ => None,
        };
        let placed = engine.world.borrow_mut().take_object(holder, uid, x, y);
        if placed.is_err()
            && let Some(old) = replaced
        {
            engine.world.borrow_mut().take_object(holder, old, x, y).map_err(|e| rt_error(lua, e))?;
        }
        match placed {
            Ok(()) => {}
            Err(WorldError::Refused(refusal)) => return Ok(Answer::No(None, refusal.to_string())),
            Err(other) => return Err(rt_error(lua, other)),
        }
    } else if let (Some(x), Some(y)) = (x, y) {
        engine.world.borrow_mut().set_pos(uid, x, y).map_err(|e| rt_error(lua, e))?;
    }
    // The handle is made before the refresh handlers run, so the object is held meanwhile.
    let handle = push_object(lua, uid)?;
    // A new item joins a like stack where it is made, as OpenNefia's do, unless told not to.
    // The stacking rules (Lua, with their event) run only when an item of its prototype is
    // there at all: making items stays cheap, in a full inventory too.
    if kind == ObjectKind::Item && !creation.no_stack && like_item_here(&engine.world.borrow(), uid) {
        mlua::ObjectLike::call_method::<()>(&handle, "stack", ())?;
    }
    super::object::refresh(lua, uid)?;
    if !creation.no_build {
        super::instantiate::instantiate(lua, uid)?;
    }
    Ok(Answer::Yes(Some(handle)))
}
