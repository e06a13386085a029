//! ILocation: where objects live (seed: Object Ownership and Locations).
//!
//! Maps, characters (their inventory) and container items are locations. Every operation of
//! the seed's interface is here as a method of [`World`](crate::world::World):
//! `take_object`, `can_take_object`, `move_object`, `remove_object`, `objects_at_pos`, `iter`.
//! Equipment is a location too: an equipped item's location is its character.

use std::fmt;

use smallvec::SmallVec;

use crate::ids::{MapId, Uid};
use crate::symbol::Symbol;

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
/// (Equipment has its own operations: [`World::equip`](crate::world::World::equip) and
/// [`World::unequip`](crate::world::World::unequip).)
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
