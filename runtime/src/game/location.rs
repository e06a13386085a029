//! ILocation: where objects live (seed: Object Ownership and Locations).
//!
//! Maps, characters (their inventory) and container items are locations. Every operation of
//! the seed's interface is here as a method of [`World`]: `take_object`, `can_take_object`,
//! `move_object`, `remove_object`, `objects_at_pos`, `iter`. Equipment is a location too: an
//! equipped item's location is its character.

use std::fmt;

use smallvec::SmallVec;

use crate::game::map::MapId;
use crate::game::object::{ObjectKind, Uid};
use crate::game::symbol::Symbol;
use crate::game::world::{World, WorldError};

/// Where an item to equip may come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EquipFrom {
    /// The holder's inventory only (`chara:equip_item(item)`).
    Inventory,
    /// Anywhere, the item moved straight into the slot (OpenNefia's `EquipSlots:equip` and
    /// `chara:equip_item(item, true)`).
    Anywhere,
}

/// Where an object is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Location {
    /// On a map cell.
    Map(MapId),
    /// In the inventory of a character or container item.
    Inventory(Uid),
    /// Worn by a character in a slot.
    Equipment(Uid, Symbol),
}

/// A location as a target of the ILocation operations: a map or an object that holds items.
/// (Equipment has its own operations: [`World::equip`] and [`World::unequip`].)
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Holder {
    /// A map.
    Map(MapId),
    /// A character or container item.
    Object(Uid),
}

impl Location {
    /// The map or object that holds something at this location.
    pub fn holder(self) -> Holder {
        match self {
            Location::Map(map) => Holder::Map(map),
            Location::Inventory(owner) | Location::Equipment(owner, _) => Holder::Object(owner),
        }
    }
}

/// Why a location refused an object.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    /// The object is already in this location.
    #[error("already there: {object} is already in this location (use move_object to change its position)")]
    AlreadyThere {
        /// The object.
        object: String,
    },
    /// The location is full.
    #[error("full: holds {count} of {capacity} items")]
    Full {
        /// Items held.
        count: usize,
        /// Capacity.
        capacity: usize,
    },
    /// The location does not hold this kind of object.
    #[error("wrong type: {location} holds {accepts} only, not a {kind}")]
    WrongType {
        /// The location, for the message.
        location: String,
        /// What it accepts.
        accepts: &'static str,
        /// The kind offered.
        kind: &'static str,
    },
    /// The position is outside the map.
    #[error("out of bounds: ({x}, {y}) is outside the {width}x{height} map (x runs 0..{width}, y runs 0..{height})")]
    OutOfBounds {
        /// Column asked for.
        x: i32,
        /// Row asked for.
        y: i32,
        /// Map width.
        width: i32,
        /// Map height.
        height: i32,
    },
    /// The object would end up inside itself.
    #[error("cannot put {object} inside itself")]
    InsideItself {
        /// The object.
        object: String,
    },
    /// The object is not in this location.
    #[error("{object} is not in this location")]
    NotHere {
        /// The object.
        object: String,
    },
    /// A mef is already at the cell (a cell holds one at most).
    #[error("a mef is already at ({x}, {y}): a cell holds one mef at most (Mef.create replaces it)")]
    MefThere {
        /// Column.
        x: i32,
        /// Row.
        y: i32,
    },
    /// An equipment slot problem.
    #[error("{0}")]
    Equipment(String),
}

/// Objects of a location in insertion order, with removal in O(log n) (amortised).
///
/// The entries are kept in the order of their keys, which only grow: a push appends, a
/// removal finds its entry by binary search and marks it [`REMOVED`], and once more than half
/// the entries are marked they are dropped in one pass. One entry is held inline, so the
/// inventory of a character carrying one item allocates nothing (a tree's first node took
/// about 200 bytes).
#[derive(Clone, Debug, Default)]
pub struct ObjectList {
    /// `(key, uid)` by key; a key with [`REMOVED`] set is an entry taken out.
    entries: SmallVec<[(u64, Uid); 1]>,
    live: usize,
    next_seq: u64,
}

/// The bit that marks an entry of an [`ObjectList`] as removed (keys never reach it).
const REMOVED: u64 = 1 << 63;

impl ObjectList {
    /// Appends `uid`, returning its order key.
    pub(crate) fn push(&mut self, uid: Uid) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.entries.push((seq, uid));
        self.live += 1;
        seq
    }

    /// Where the live entry with order key `seq` is.
    fn find(&self, seq: u64) -> Option<usize> {
        let at = self.entries.binary_search_by_key(&seq, |&(key, _)| key & !REMOVED).ok()?;
        (self.entries[at].0 & REMOVED == 0).then_some(at)
    }

    /// Removes the entry with order key `seq`.
    pub(crate) fn remove(&mut self, seq: u64) {
        let Some(at) = self.find(seq) else { return };
        self.entries[at].0 |= REMOVED;
        self.live -= 1;
        if self.live * 2 < self.entries.len() {
            self.entries.retain(|&mut (key, _)| key & REMOVED == 0);
        }
    }

    /// The object with order key `seq`, if it is still listed.
    pub(crate) fn at(&self, seq: u64) -> Option<Uid> {
        self.find(seq).map(|at| self.entries[at].1)
    }

    /// The objects in insertion order (an exact-size iterator: collecting it allocates once).
    pub fn iter(&self) -> Listed<'_> {
        Listed { entries: self.entries.iter(), left: self.live }
    }

    /// Number of objects.
    pub fn len(&self) -> usize {
        self.live
    }

    /// True if empty.
    pub fn is_empty(&self) -> bool {
        self.live == 0
    }
}

/// The objects of an [`ObjectList`] in order, skipping the entries taken out.
pub struct Listed<'a> {
    entries: std::slice::Iter<'a, (u64, Uid)>,
    left: usize,
}

impl Iterator for Listed<'_> {
    type Item = Uid;

    fn next(&mut self) -> Option<Uid> {
        let &(_, uid) = self.entries.find(|&&(key, _)| key & REMOVED == 0)?;
        self.left -= 1;
        Some(uid)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.left, Some(self.left))
    }
}

impl DoubleEndedIterator for Listed<'_> {
    fn next_back(&mut self) -> Option<Uid> {
        let &(_, uid) = self.entries.rfind(|&&(key, _)| key & REMOVED == 0)?;
        self.left -= 1;
        Some(uid)
    }
}

impl ExactSizeIterator for Listed<'_> {}

/// Default inventory capacity of a character when its prototype does not set
/// `inventory_capacity`.
pub const DEFAULT_INVENTORY_CAPACITY: usize = 200;

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
    pub fn mef_at(&self, map: &crate::game::map::InstancedMap, x: i32, y: i32, except: Uid) -> Option<Uid> {
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

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Map(map) => write!(f, "map {map}"),
            Location::Inventory(owner) => write!(f, "inventory of uid {owner}"),
            Location::Equipment(owner, slot) => write!(f, "slot '{slot}' of uid {owner}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use proptest::prelude::*;

    use super::*;

    #[test]
    fn one_entry_is_held_inline() {
        let mut list = ObjectList::default();
        let seq = list.push(Uid(7));
        assert!(!list.entries.spilled(), "a list of one allocates nothing");
        assert_eq!(list.at(seq), Some(Uid(7)));
        list.remove(seq);
        assert!(list.is_empty() && list.at(seq).is_none() && list.iter().next().is_none());
    }

    proptest! {
        /// Any sequence of pushes and removals leaves the list as an ordered map of its keys
        /// would be: the same objects in the same order, each found by its key.
        #[test]
        fn an_object_list_behaves_as_an_ordered_map(ops in proptest::collection::vec((any::<bool>(), 0usize..64), 0..300)) {
            let (mut list, mut model) = (ObjectList::default(), BTreeMap::new());
            let mut uid = 0;
            for (push, pick) in ops {
                if push || model.is_empty() {
                    uid += 1;
                    model.insert(list.push(Uid(uid)), Uid(uid));
                } else {
                    let seq = *model.keys().nth(pick % model.len()).expect("a key");
                    model.remove(&seq);
                    list.remove(seq);
                    list.remove(seq);
                    prop_assert_eq!(list.at(seq), None);
                }
                prop_assert_eq!(list.len(), model.len());
                prop_assert!(list.iter().eq(model.values().copied()));
                prop_assert_eq!(list.iter().len(), model.len());
                prop_assert!(list.iter().rev().eq(model.values().rev().copied()));
                prop_assert!(model.iter().all(|(&seq, &uid)| list.at(seq) == Some(uid)));
                prop_assert!(list.entries.len() <= 2 * list.len().max(1), "removed entries are dropped in time");
            }
        }
    }
}
