//! OpenNefia's instantiation (`IObject:instantiate`): the moments an object comes into play
//! with what a save does not keep — made, cloned, loaded from a save or with its map
//! (`Map.load`), given another prototype with `{ instantiate = true }`, or its prototype
//! hotloaded — each emits `base.on_object_instantiated`, then the kind's own event
//! (`base.on_chara_instantiated`, `base.on_item_instantiated`, `base.on_feat_instantiated`,
//! `base.on_mef_instantiated`), with the object as receiver. A hotload then emits
//! `base.on_hotload_object` to each object of a reloaded prototype, with `hotloaded_data`
//! (the reloaded prototypes, each `{ _type = ..., _id = ... }`).
//!
//! Mods use these to set up again what is not saved, chiefly handlers connected with
//! `connect_self`. A prototype's own `events` need nothing: they are looked up from the
//! prototype whenever an event fires, so a loaded, hotloaded or re-prototyped object has its
//! prototype's handlers as they are now. Where OpenNefia instantiates the objects of the
//! current map after a hotload (the only map it holds in memory), Nefia holds every map and
//! instantiates the reloaded prototypes' objects on all of them.

use mlua::Lua;

use super::handle::push_object;
use super::{Engine, engine, rt_error};
use nefia_game::display::LogLevel;
use nefia_game::object::{KindEvent, ObjectKind, Uid};
use nefia_game::symbol::Symbol;

/// True if `event` has a handler for object `uid` of prototype `proto`: a global one, or one
/// of the object's own (connected, or its prototype's). A few lookups, so an event nothing
/// handles makes no handle.
pub fn may_be_handled(engine: &Engine, event: Symbol, uid: Uid, proto: Symbol) -> bool {
    engine.events.borrow().has_handlers(event) || engine.object_events.borrow().has_handlers(uid, proto, event)
}

/// `base.on_object_instantiated`, interned once.
fn object_instantiated() -> Symbol {
    static SYMBOL: std::sync::OnceLock<Symbol> = std::sync::OnceLock::new();
    *SYMBOL.get_or_init(|| Symbol::intern("base.on_object_instantiated"))
}

/// Emits the instantiation events of object `uid` (see the module's text).
pub fn instantiate(lua: &Lua, uid: Uid) -> mlua::Result<()> {
    let engine = engine(lua);
    let (kind, proto) = engine.world.borrow().object(uid).map(|o| (o.kind, o.id)).map_err(|e| rt_error(lua, e))?;
    instantiate_as(lua, &engine, uid, kind, proto)
}

/// [`instantiate`] of object `uid`, of `kind` and prototype `proto`. Its handle is made only
/// if one of the events has a handler for it: a load instantiates every object, and most
/// have none.
fn instantiate_as(lua: &Lua, engine: &Engine, uid: Uid, kind: ObjectKind, proto: Symbol) -> mlua::Result<()> {
    let events = [object_instantiated(), kind.event(KindEvent::Instantiated)];
    if !events.into_iter().any(|event| may_be_handled(engine, event, uid, proto)) {
        return Ok(());
    }
    let receiver = mlua::Value::Table(push_object(lua, uid)?);
    for event in events {
        super::event::trigger_without_params(lua, event, receiver.clone())?;
    }
    Ok(())
}

/// Instantiates every object of `uids` that still exists, after the world or a map was
/// loaded: a handler that fails is logged naming the object, and the others still run (the
/// load itself is done).
pub fn instantiate_loaded(lua: &Lua, uids: impl IntoIterator<Item = Uid>) {
    let engine = engine(lua);
    for uid in uids {
        let Ok((kind, proto)) = engine.world.borrow().object(uid).map(|o| (o.kind, o.id)) else { continue };
        if let Err(error) = instantiate_as(lua, &engine, uid, kind, proto) {
            let object = engine.world.borrow().describe(uid);
            super::gui::log(lua, LogLevel::Error, format!("instantiating {object} after loading: {error}"));
        }
    }
}

/// After a hotload that added again the object prototypes `reloaded` (data type and id):
/// instantiates each object of them and emits `base.on_hotload_object` to it. A handler that
/// fails is logged; the reload stays.
pub fn after_hotload(lua: &Lua, reloaded: &[(Symbol, Symbol)]) {
    if reloaded.is_empty() {
        return;
    }
    let engine = engine(lua);
    let event = Symbol::intern("base.on_hotload_object");
    let objects: Vec<(Uid, Symbol)> = {
        let world = engine.world.borrow();
        world
            .all_objects()
            .filter(|o| reloaded.iter().any(|&(data_type, id)| id == o.id && data_type.as_str() == o.kind.data_type()))
            .map(|o| (o.uid, o.id))
            .collect()
    };
    let result = (|| -> mlua::Result<()> {
        let hotloaded = lua.create_table()?;
        for &(data_type, id) in reloaded {
            let entry = lua.create_table()?;
            entry.set("_type", data_type.as_str())?;
            entry.set("_id", id.as_str())?;
            hotloaded.push(entry)?;
        }
        for (uid, proto) in objects {
            instantiate(lua, uid)?;
            if may_be_handled(&engine, event, uid, proto) {
                let params = lua.create_table()?;
                params.set("hotloaded_data", &hotloaded)?;
                super::event::trigger(lua, event, mlua::Value::Table(push_object(lua, uid)?), params)?;
            }
        }
        Ok(())
    })();
    if let Err(error) = result {
        super::gui::log(lua, LogLevel::Error, format!("instantiating the hotloaded prototypes' objects: {error}"));
    }
}
