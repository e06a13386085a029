//! Items: stacking, and carrying in inventories, equipment and containers.
//!
//! **Stacking** (OpenNefia's IStackableObject): `item.amount`, `item:can_stack_with(other)`,
//! `item:stack_with(other)`, `item:stack([show_message])`, `item:separate([n[, owned]])` and
//! `item:move_some(n, where[, x, y])`, and `obj:clone(owned)`, `MapObject.clone(obj, owned)`.
//!
//! Two items stack when they are different items of one prototype in one location (the same
//! map, inventory or wearer) whose own base values are equal but for `amount` — temp values
//! do not count, as in OpenNefia — and which have the same event handlers of their own. A
//! mod adds to the comparison with a `base.on_item_can_stack_with` handler: returning false
//! keeps the two apart. The comparison is Rust; the rest is `stacking.lua`, written with the
//! ordinary object API.
//!
//! **Carrying** (OpenNefia's ICharaInventory, ICharaEquip and IItem), in `carrying.lua`:
//! `item:is_item_container()`, `item:is_equipped()`, `chara:iter_inventory()`,
//! `chara:iter_equipment()`, `chara:has_item_equipped(item)`, `chara:has_item(item)`,
//! `chara:find_item(id)`, `chara:take_item(item[, amount])` and `item:get_owning_chara()`
//! (also `IItem.get_owning_chara(item)`, OpenNefia's `api.item.IItem`).
//! Containers are locations like characters: `take_object`, `iter`, `has_object`.
//! `Inventory.get_or_create(id)` is a game-wide inventory (OpenNefia's, such as a shared
//! freezer): a `base.inventory` container on the world's one-cell map of such inventories,
//! so it is saved, stepped back and listed in Locations like any object.
//!
//! **Equipment slots** (OpenNefia's EquipSlots), in `equip_slots.lua`: `chara.equip` is the
//! character's slots (`chara.equip.head`, `iter_all_body_parts([also_blocked])`,
//! `iter_equipped_body_parts`, `set_body_part_blocked`, `equip`, `unequip`,
//! `find_free_slot`, …; the character has the body-part methods too), and
//! `EquipSlots:new(body_parts[, owner])` makes slots of their own: a `base.equip_slots` item
//! kept on the same map as game-wide inventories.

use mlua::{Lua, Table};

use super::{engine, rt_error};
use nefia_game::object::{ObjectKind, Uid};
use nefia_game::symbol::Symbol;

/// The engine's part of `can_stack_with`: see the module's text (the event is asked after).
fn engine_allows(lua: &Lua, this: Uid, other: Uid) -> mlua::Result<bool> {
    let engine = engine(lua);
    let world = engine.world.borrow();
    let (a, b) =
        (world.object(this).map_err(|e| rt_error(lua, e))?, world.object(other).map_err(|e| rt_error(lua, e))?);
    if this == other || a.kind != ObjectKind::Item || b.kind != ObjectKind::Item || a.id != b.id {
        return Ok(false);
    }
    let holder = |o: &nefia_game::object::Object| o.location().map(|l| l.holder());
    if holder(a) != holder(b) {
        return Ok(false);
    }
    let amount = Symbol::intern("amount");
    fn own(o: &nefia_game::object::Object, amount: Symbol) -> Vec<(Symbol, &nefia_game::value::Value)> {
        let mut fields: Vec<_> = o.fields.base.iter().filter(|(name, _)| *name != amount).collect();
        fields.sort_by_key(|(name, _)| name.as_str());
        fields
    }
    if own(a, amount) != own(b, amount) {
        return Ok(false);
    }
    // The same handlers, as compare_events asks.
    Ok(engine.object_events.borrow().first_difference((this, a.id), (other, b.id)).is_none())
}

/// Installs the stacking and carrying methods into the object methods table `methods`, and
/// `MapObject` into `api`.
pub fn install(lua: &Lua, api: &Table, methods: &Table) -> mlua::Result<()> {
    let allows = lua.create_function(|lua, (this, other): (Table, mlua::Value)| {
        let engine = engine(lua);
        let this = super::handle::live_object(lua, &engine, &this)?;
        let Some(other) = super::handle::object_uid(&engine, &other) else { return Ok(false) };
        engine_allows(lua, this, other)
    })?;
    lua.load(include_str!("stacking.lua")).set_name("=nefia stacking").call::<()>((methods, api, allows))?;
    // True only for a map object's handle: not nil, strings, numbers, functions, plain tables
    // nor other handles (maps).
    let is_map_object =
        lua.create_function(|lua, value: mlua::Value| Ok(super::handle::object_uid(&engine(lua), &value).is_some()))?;
    api.get::<Table>("MapObject")?.set("is_map_object", is_map_object)?;
    let chain = engine(lua).chain.clone();
    let keep: mlua::Function =
        lua.load(include_str!("carrying.lua")).set_name("=nefia carrying").call((methods, &chain, api))?;
    let worn = lua.create_function(|lua, holder: Table| {
        let engine = engine(lua);
        let uid = super::handle::live_object(lua, &engine, &holder)?;
        let worn: Vec<(Symbol, Uid)> = {
            let world = engine.world.borrow();
            let object = world.object(uid).map_err(|e| rt_error(lua, e))?;
            object
                .equipment()
                .map(|e| e.sorted_by_name().into_iter().map(|(s, u)| (s, *u)).collect())
                .unwrap_or_default()
        };
        // Nothing worn, nothing made: a refresh handler looping over a bare character's
        // equipment left two tables of garbage a refresh.
        if worn.is_empty() {
            return Ok((None, None));
        }
        let slots = lua.create_sequence_from(worn.iter().map(|(s, _)| s.as_str()))?;
        let items = super::handle::object_list(lua, &worn.iter().map(|(_, u)| *u).collect::<Vec<_>>())?;
        Ok((Some(slots), Some(items)))
    })?;
    let slots_of: mlua::Function = lua
        .load(include_str!("equip_slots.lua"))
        .set_name("=nefia equip_slots")
        .call((methods, chain, api, worn, keep))?;
    lua.set_named_registry_value(EQUIP_SLOTS_OF, slots_of)?;
    // OpenNefia's `IItem` (`require("api.item.IItem")`): the item methods its code calls as
    // functions, `IItem.get_owning_chara(item)`, with IMapObject's, as IItem includes it.
    let iitem = lua.create_table()?;
    for pair in api.get::<Table>("IMapObject")?.pairs::<mlua::Value, mlua::Value>() {
        let (name, function) = pair?;
        iitem.set(name, function)?;
    }
    iitem.set("get_owning_chara", methods.raw_get::<mlua::Function>("get_owning_chara")?)?;
    api.set("IItem", iitem)
}

/// The registry name of `EquipSlots.of(holder)`, which makes `obj.equip`.
pub(super) const EQUIP_SLOTS_OF: &str = "nefia.equip_slots_of";
