//! Finding map objects the way OpenNefia's modders do: `Chara.at(x, y, map)`, the living
//! character standing on a cell, and `Chara.find(id, where, map)` / `Item.find(id, where, map)`,
//! the first living object with a uid or prototype id in a part of a map; and the
//! `IMapObject` table of OpenNefia's interface functions.
//!
//! "Living" is OpenNefia's test: a character whose `state` field is unset or `"Alive"` (mods
//! that kill without removing set it). OpenNefia documents `Item.find`'s "inventory" and
//! "equipment" but implements only "ground" and "all"; here all four work. Nefia has no party
//! yet, so `Chara.find`'s "allies" is refused with what to use instead.

use mlua::{Lua, Table};

use super::handle::{holder_arg, push_object};
use super::{Engine, engine, rt_error};
use nefia_game::location::Holder;
use nefia_game::map::MapId;
use nefia_game::object::{ObjectKind, Uid};
use nefia_game::symbol::Symbol;
use nefia_game::world::{World, WorldError};

/// The map argument, or the current map.
fn map_or_current(lua: &Lua, engine: &Engine, map: Option<mlua::Value>, function: &str) -> mlua::Result<MapId> {
    match map {
        Some(mlua::Value::Nil) | None => {
            engine.world.borrow().current_map().ok_or_else(|| rt_error(lua, WorldError::NoCurrentMap))
        }
        Some(value) => match holder_arg(lua, engine, &value, &format!("{function}'s map"))? {
            Holder::Map(map) => Ok(map),
            Holder::Object(_) => {
                Err(rt_error(lua, format!("{function}: the third argument must be a map, not an object")))
            }
        },
    }
}

/// True if `uid` is alive: its `state` is unset or "Alive".
fn is_alive(world: &World, uid: Uid) -> bool {
    match world.calc(uid, Symbol::intern("state")) {
        None => true,
        Some(state) => state.as_str() == Some("Alive"),
    }
}

/// `Chara.at(x, y, map)`.
fn chara_at(lua: &Lua, (x, y, map): (i32, i32, Option<mlua::Value>)) -> mlua::Result<Option<Table>> {
    let engine = engine(lua);
    let map = map_or_current(lua, &engine, map, "Chara.at")?;
    let found = {
        let world = engine.world.borrow();
        let here = world.objects_at_pos(Holder::Map(map), x, y).map_err(|e| rt_error(lua, e))?;
        here.into_iter()
            .find(|&uid| world.object(uid).is_ok_and(|o| o.kind == ObjectKind::Chara) && is_alive(&world, uid))
    };
    found.map(|uid| push_object(lua, uid)).transpose()
}

/// Why `Chara.find` or `Item.find` could not look: the map, or a part it does not know.
#[derive(Debug, thiserror::Error)]
enum FindError {
    /// The map cannot be looked through.
    #[error("{0}")]
    Map(#[from] WorldError),
    /// `Item.find` was given a part that is no place items are.
    #[error(
        "Item.find: '{0}' is not where items are looked for: use \"ground\", \"inventory\", \"equipment\" or \"all\""
    )]
    ItemPart(String),
    /// `Chara.find` was asked for allies.
    #[error("Chara.find: Nefia has no party yet, so there are no allies: use \"all\" or \"others\"")]
    NoAllies,
    /// `Chara.find` was given a part that is no kind of character.
    #[error("Chara.find: '{0}' is not a kind of character: use \"all\" or \"others\"")]
    CharaPart(String),
}

/// The objects of `kind` in the part `part` of `map` that `find` looks through, in order.
fn candidates(world: &World, kind: ObjectKind, part: &str, map: MapId) -> Result<Vec<Uid>, FindError> {
    let on_map = world.iter_location(Holder::Map(map))?;
    let of_kind = |uids: Vec<Uid>, k: ObjectKind| -> Vec<Uid> {
        uids.into_iter().filter(|&u| world.object(u).is_ok_and(|o| o.kind == k)).collect()
    };
    // What the map's characters carry (their inventories) or wear.
    let held = |worn: bool| -> Vec<Uid> {
        of_kind(on_map.clone(), ObjectKind::Chara)
            .into_iter()
            .flat_map(|chara| match worn {
                false => world.iter_location(Holder::Object(chara)).unwrap_or_default(),
                true => world
                    .object(chara)
                    .ok()
                    .and_then(|o| o.equipment())
                    .map_or_else(Vec::new, |e| e.iter().map(|(_, &u)| u).collect()),
            })
            .collect()
    };
    Ok(match (kind, part) {
        (ObjectKind::Item, "ground") => of_kind(on_map, ObjectKind::Item),
        (ObjectKind::Item, "inventory") => held(false),
        (ObjectKind::Item, "equipment") => held(true),
        (ObjectKind::Item, "all") => [of_kind(on_map.clone(), ObjectKind::Item), held(false), held(true)].concat(),
        (ObjectKind::Item, other) => return Err(FindError::ItemPart(other.to_owned())),
        (_, "all") => of_kind(on_map, kind),
        (_, "others") => of_kind(on_map, kind).into_iter().filter(|&u| Some(u) != world.player()).collect(),
        (_, "allies") => return Err(FindError::NoAllies),
        (_, other) => return Err(FindError::CharaPart(other.to_owned())),
    })
}

/// `Chara.find(id, where, map)` and `Item.find(id, where, map)`.
fn find(
    lua: &Lua,
    kind: ObjectKind,
    (id, part, map): (mlua::Value, Option<String>, Option<mlua::Value>),
) -> mlua::Result<Option<Table>> {
    let engine = engine(lua);
    let function = if kind == ObjectKind::Item { "Item.find" } else { "Chara.find" };
    let map = map_or_current(lua, &engine, map, function)?;
    let part = part.unwrap_or_else(|| if kind == ObjectKind::Item { "ground" } else { "all" }.into());
    let found = {
        let world = engine.world.borrow();
        let matches: Box<dyn Fn(Uid) -> bool> = match &id {
            mlua::Value::Integer(uid) => {
                let uid = *uid;
                Box::new(move |u: Uid| i64::try_from(u.0).is_ok_and(|u| u == uid))
            }
            mlua::Value::String(name) => {
                let name = name.to_str()?.to_owned();
                let world = &world;
                Box::new(move |u: Uid| world.object(u).is_ok_and(|o| o.id.as_str() == name))
            }
            other => {
                return Err(rt_error(
                    lua,
                    format!("{function}: the first argument is a uid or a prototype id, not a {}", other.type_name()),
                ));
            }
        };
        let candidates = candidates(&world, kind, &part, map).map_err(|e| rt_error(lua, e))?;
        candidates.into_iter().find(|&u| matches(u) && is_alive(&world, u))
    };
    found.map(|uid| push_object(lua, uid)).transpose()
}

/// Adds `at` and `find` to `Chara`, `find` to `Item`, and the `IMapObject` table whose
/// functions are the objects' own methods (`IMapObject.containing_map(obj)` is
/// `obj:containing_map()`), as OpenNefia's code calls them.
pub fn install(lua: &Lua, api: &Table, object_methods: &Table) -> mlua::Result<()> {
    let imap_object = lua.create_table()?;
    for name in ["current_map", "containing_map", "get_location", "set_pos", "remove_ownership", "refresh"] {
        imap_object.set(name, object_methods.raw_get::<mlua::Function>(name)?)?;
    }
    api.set("IMapObject", imap_object)?;
    let chara: Table = api.get("Chara")?;
    chara.set("at", lua.create_function(chara_at)?)?;
    chara.set("find", lua.create_function(|lua, args| find(lua, ObjectKind::Chara, args))?)?;
    let item: Table = api.get("Item")?;
    item.set("find", lua.create_function(|lua, args| find(lua, ObjectKind::Item, args))?)?;
    Ok(())
}
