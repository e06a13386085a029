//! The world's location operations (OpenNefia's ILocation): which holder takes an object
//! where, and moving it there; the types they speak of are [`crate::location`]'s.

use crate::location::{DEFAULT_INVENTORY_CAPACITY, EquipFrom, Holder, Location, ObjectList, Refusal};
use crate::object::{ObjectKind, Uid};
use crate::symbol::Symbol;
use crate::world::{World, WorldError};

impl World {
    /// Checks whether `holder` would accept `uid` at (x, y) (seed: `can_take_object`).
    pub fn can_take_object(&self, holder: Holder, uid: Uid, x: i32, y: i32) -> Result<(), WorldError> {
        let object = self.object(uid)?;
        let describe = || self.describe(uid);
        if object.location.map(Location::holder) == Some(holder)
            && !matches!(object.location, Some(Location::Equipment(..)))
        {
            return Err(Refusal::AlreadyThere { object: describe() }.into());
        }
        match holder {
            Holder::Map(map) => {
                let map = self.map(map)?;
                if !map.in_bounds(x, y) {
                    return Err(Refusal::OutOfBounds { x, y, width: map.width(), height: map.height() }.into());
                }
                if object.kind == ObjectKind::Mef && self.mef_at(map, x, y, uid).is_some() {
                    return Err(Refusal::MefThere { x, y }.into());
                }
            }
            Holder::Object(owner) => {
                if self.is_inside(owner, uid) {
                    return Err(Refusal::InsideItself { object: describe() }.into());
                }
                let holder_object = self.object(owner)?;
                let Some(inventory) = holder_object.inventory.as_ref() else {
                    return Err(WorldError::NotALocation(self.describe(owner)));
                };
                if object.kind != ObjectKind::Item {
                    return Err(Refusal::WrongType {
                        location: format!("the inventory of {}", self.describe(owner)),
                        accepts: "items",
                        kind: object.kind.noun(),
                    }
                    .into());
                }
                let capacity = self.inventory_capacity(owner);
                if inventory.len() >= capacity {
                    return Err(Refusal::Full { count: inventory.len(), capacity }.into());
                }
            }
        }
        Ok(())
    }

    /// Moves `uid` into `holder` at (x, y), removing it from its current location first
    /// (seed: `take_object`). Inside an inventory the position is (0, 0).
    pub fn take_object(&mut self, holder: Holder, uid: Uid, x: i32, y: i32) -> Result<(), WorldError> {
        self.can_take_object(holder, uid, x, y)?;
        self.detach(uid);
        match holder {
            Holder::Map(map) => self.attach(uid, Location::Map(map), x, y),
            Holder::Object(owner) => self.attach(uid, Location::Inventory(owner), 0, 0),
        }
        Ok(())
    }

    /// Moves an object already in `holder` to (x, y) (seed: `move_object`).
    pub fn move_object(&mut self, holder: Holder, uid: Uid, x: i32, y: i32) -> Result<(), WorldError> {
        let object = self.object(uid)?;
        if object.location.map(Location::holder) != Some(holder) {
            return Err(Refusal::NotHere { object: self.describe(uid) }.into());
        }
        self.set_pos(uid, x, y)
    }

    /// Removes an object from `holder`, leaving it ownerless (seed: `remove_object`).
    pub fn remove_object(&mut self, holder: Holder, uid: Uid) -> Result<(), WorldError> {
        let object = self.object(uid)?;
        if object.location.map(Location::holder) != Some(holder) {
            return Err(Refusal::NotHere { object: self.describe(uid) }.into());
        }
        self.detach(uid);
        Ok(())
    }

    /// Removes an object from whatever location holds it (seed: `remove_ownership`). It
    /// stays alive while a script holds it and is freed once nothing does.
    pub fn remove_ownership(&mut self, uid: Uid) -> Result<(), WorldError> {
        self.object(uid)?;
        self.detach(uid);
        Ok(())
    }

    /// Sets an object's position, keeping the map's position index right (seed: `set_pos`).
    pub fn set_pos(&mut self, uid: Uid, x: i32, y: i32) -> Result<(), WorldError> {
        let object = self.object(uid)?;
        let (old_x, old_y, kind) = (object.x, object.y, object.kind);
        match object.location {
            Some(Location::Map(map_id)) => {
                if kind == ObjectKind::Mef && self.mef_at(self.map(map_id)?, x, y, uid).is_some() {
                    return Err(Refusal::MefThere { x, y }.into());
                }
                let map = self.map_mut(map_id)?;
                if !map.in_bounds(x, y) {
                    let (width, height) = (map.width(), map.height());
                    return Err(Refusal::OutOfBounds { x, y, width, height }.into());
                }
                map.move_in_index(uid, kind, (old_x, old_y), x, y);
            }
            Some(Location::Inventory(_) | Location::Equipment(..)) => {
                return Err(WorldError::NoPosition(self.describe(uid)));
            }
            None => {}
        }
        let object = self.objects.get_mut(&uid).expect("checked above");
        object.x = x;
        object.y = y;
        let map = match object.location {
            Some(Location::Map(map)) => Some(map),
            _ => None,
        };
        self.changed_position(uid, map, (old_x, old_y), (x, y));
        Ok(())
    }

    /// The mef at (x, y) of `map` other than `except`, if any.
    pub fn mef_at(&self, map: &crate::map::InstancedMap, x: i32, y: i32, except: Uid) -> Option<Uid> {
        map.objects_at(x, y)
            .iter()
            .copied()
            .find(|&other| other != except && self.objects.get(&other).is_some_and(|o| o.kind == ObjectKind::Mef))
    }

    /// The objects at (x, y) of `holder`, in the order they arrived there (seed:
    /// `objects_at_pos`). Out of bounds gives none. An inventory has the one cell (0, 0).
    pub fn objects_at_pos(&self, holder: Holder, x: i32, y: i32) -> Result<Vec<Uid>, WorldError> {
        match holder {
            Holder::Map(map) => Ok(self.map(map)?.objects_at(x, y).to_vec()),
            Holder::Object(_) if (x, y) != (0, 0) => Ok(Vec::new()),
            Holder::Object(_) => self.iter_location(holder),
        }
    }

    /// Every object of `holder` in insertion order (seed: `iter`).
    pub fn iter_location(&self, holder: Holder) -> Result<Vec<Uid>, WorldError> {
        match holder {
            Holder::Map(map) => Ok(self.map(map)?.objects().iter().collect()),
            Holder::Object(owner) => match &self.object(owner)?.inventory {
                Some(list) => Ok(list.iter().collect()),
                None => Err(WorldError::NotALocation(self.describe(owner))),
            },
        }
    }

    /// How many items the inventory of `owner` can hold (`calc("inventory_capacity")`).
    pub fn inventory_capacity(&self, owner: Uid) -> usize {
        self.calc(owner, Symbol::intern("inventory_capacity"))
            .and_then(|v| v.as_i64())
            .map_or(DEFAULT_INVENTORY_CAPACITY, |n| n.max(0) as usize)
    }

    /// True if `inner` is `outer` or is held, directly or not, by `outer`.
    pub fn is_inside(&self, inner: Uid, outer: Uid) -> bool {
        let mut current = Some(inner);
        while let Some(uid) = current {
            if uid == outer {
                return true;
            }
            current = match self.objects.get(&uid).and_then(|o| o.location) {
                Some(Location::Inventory(owner) | Location::Equipment(owner, _)) => Some(owner),
                _ => None,
            };
        }
        false
    }

    /// Puts `item` in an equipment slot of `chara` (a character, or an item with slots of its
    /// own). With no slot, the first free slot the item fits (its `equip_slots` field) that is
    /// not blocked (the holder's `blocked_body_parts`) is used. With [`EquipFrom::Inventory`]
    /// the holder must hold the item, as a character equips what it carries.
    pub fn equip(
        &mut self,
        chara: Uid,
        item: Uid,
        slot: Option<Symbol>,
        from: EquipFrom,
    ) -> Result<Symbol, WorldError> {
        let equip_error = |msg: String| WorldError::Refused(Refusal::Equipment(msg));
        let holder = self.object(chara)?;
        let Some(equipment) = holder.equipment.as_ref() else {
            return Err(equip_error(format!("{} has no equipment slots", self.describe(chara))));
        };
        let object = self.object(item)?;
        if object.kind != ObjectKind::Item {
            return Err(equip_error(format!("only items can be equipped, not {}", self.describe(item))));
        }
        if self.is_inside(chara, item) {
            return Err(Refusal::InsideItself { object: self.describe(item) }.into());
        }
        // As in OpenNefia, a character equips what it holds.
        if from == EquipFrom::Inventory && object.location != Some(Location::Inventory(chara)) {
            return Err(equip_error(format!(
                "{} does not hold {}: put it in the inventory first (chara:take_object(item))",
                self.describe(chara),
                self.describe(item)
            )));
        }
        let fits = self.symbol_list(item, "equip_slots");
        let slots = self.symbol_list(chara, "equip_slots");
        let blocked = self.symbol_list(chara, "blocked_body_parts");
        let slot = match slot {
            Some(slot) => slot,
            None => {
                match fits.iter().find(|s| slots.contains(s) && !blocked.contains(s) && equipment.get(**s).is_none()) {
                    Some(&slot) => slot,
                    None => {
                        return Err(equip_error(format!(
                            "{} has no free slot for {} (it fits: {})",
                            self.describe(chara),
                            self.describe(item),
                            join(&fits)
                        )));
                    }
                }
            }
        };
        if !slots.contains(&slot) {
            return Err(equip_error(format!(
                "{} has no slot '{slot}' (its slots: {})",
                self.describe(chara),
                join(&slots)
            )));
        }
        if blocked.contains(&slot) {
            return Err(equip_error(format!("slot '{slot}' of {} is blocked", self.describe(chara))));
        }
        if !fits.contains(&slot) {
            return Err(equip_error(format!(
                "{} does not fit slot '{slot}' (it fits: {})",
                self.describe(item),
                join(&fits)
            )));
        }
        if let Some(&worn) = equipment.get(slot) {
            return Err(equip_error(format!("slot '{slot}' is occupied by {}; unequip it first", self.describe(worn))));
        }
        self.detach(item);
        self.attach(item, Location::Equipment(chara, slot), 0, 0);
        Ok(slot)
    }

    /// Takes the item out of `slot` of `chara` and puts it in the character's inventory.
    pub fn unequip(&mut self, chara: Uid, slot: Symbol) -> Result<Uid, WorldError> {
        let holder = self.object(chara)?;
        let item = holder.equipment.as_ref().and_then(|e| e.get(slot).copied()).ok_or_else(|| {
            WorldError::Refused(Refusal::Equipment(format!("{} wears nothing in slot '{slot}'", self.describe(chara))))
        })?;
        let inventory_len = holder.inventory.as_ref().map_or(0, ObjectList::len);
        let capacity = self.inventory_capacity(chara);
        if inventory_len >= capacity {
            return Err(Refusal::Full { count: inventory_len, capacity }.into());
        }
        self.detach(item);
        self.attach(item, Location::Inventory(chara), 0, 0);
        Ok(item)
    }

    /// A field holding a list of names (such as `equip_slots`), as symbols.
    fn symbol_list(&self, uid: Uid, field: &str) -> Vec<Symbol> {
        match self.calc(uid, Symbol::intern(field)) {
            Some(crate::Value::List(items)) => items.iter().filter_map(|v| v.as_str()).map(Symbol::intern).collect(),
            Some(crate::Value::Str(s)) => vec![Symbol::intern(s)],
            _ => Vec::new(),
        }
    }

    /// Removes `uid` from its location (if any); it becomes ownerless.
    pub(crate) fn detach(&mut self, uid: Uid) {
        let object = self.objects.get_mut(&uid).expect("detach of a live object");
        let Some(location) = object.location.take() else {
            return;
        };
        let (x, y, seq, kind) = (object.x, object.y, object.seq, object.kind);
        match location {
            Location::Map(map) => {
                if let Some(map) = self.maps.get_mut(&map) {
                    map.remove_from_index(uid, kind, x, y, seq);
                }
            }
            Location::Inventory(owner) => {
                if let Some(list) = self.objects.get_mut(&owner).and_then(|o| o.inventory.as_mut()) {
                    list.remove(seq);
                }
            }
            Location::Equipment(owner, slot) => {
                if let Some(equipment) = self.objects.get_mut(&owner).and_then(|o| o.equipment.as_mut()) {
                    equipment.remove(slot);
                }
            }
        }
        self.ownerless.insert(uid);
        self.changed_place(uid, location, (x, y));
    }

    /// Puts an ownerless `uid` into `location` at (x, y).
    pub(crate) fn attach(&mut self, uid: Uid, location: Location, x: i32, y: i32) {
        let seq = match location {
            Location::Map(map) => {
                let kind = self.objects.get(&uid).expect("attach of a live object").kind;
                self.maps.get_mut(&map).expect("live map").add_to_index(uid, kind, x, y)
            }
            Location::Inventory(owner) => {
                self.objects.get_mut(&owner).and_then(|o| o.inventory.as_mut()).expect("a location").push(uid)
            }
            Location::Equipment(owner, slot) => {
                let equipment = self.objects.get_mut(&owner).and_then(|o| o.equipment.as_mut()).expect("a character");
                equipment.insert(slot, uid);
                0
            }
        };
        let object = self.objects.get_mut(&uid).expect("attach of a live object");
        debug_assert!(object.location.is_none());
        object.location = Some(location);
        object.seq = seq;
        object.x = x;
        object.y = y;
        self.ownerless.remove(&uid);
        self.changed_place(uid, location, (x, y));
    }
}

fn join(symbols: &[Symbol]) -> String {
    if symbols.is_empty() {
        return "none".to_owned();
    }
    symbols.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
}
