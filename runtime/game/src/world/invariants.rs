//! The bookkeeping checks of the world (used by tests, property tests, the host after a
//! panic and the engine's `base.bookkeeping` invariant): the whole world, or within a check
//! of the invariants only what the change log says changed.

use rustc_hash::FxHashMap;

use super::World;
use super::changes::{CellVisit, Changed, Changes};
use crate::location::Location;
use crate::map::MapId;
use crate::object::{Object, ObjectKind, Uid};
use crate::symbol::Symbol;

/// The first inconsistency a bookkeeping check found between objects and where they are.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum BookkeepingError {
    /// A cell lists an object as many times as it is not there.
    #[error("cell ({x}, {y}) of map {map} lists uid {uid} {listed} times, but it is there {there}")]
    CellListing {
        /// The map.
        map: MapId,
        /// The cell.
        x: i32,
        /// The cell.
        y: i32,
        /// The object.
        uid: Uid,
        /// How often the cell lists it.
        listed: usize,
        /// How often it is there (0 or 1).
        there: usize,
    },
    /// A cell counts its feats wrong.
    #[error("cell ({x}, {y}) of map {map} counts its feats wrong")]
    FeatCount {
        /// The map.
        map: MapId,
        /// The cell.
        x: i32,
        /// The cell.
        y: i32,
    },
    /// An inventory lists an object that is not in it.
    #[error("the inventory of uid {holder} lists uid {uid}, which is not in it")]
    InventoryListing {
        /// The inventory's holder.
        holder: Uid,
        /// The object listed.
        uid: Uid,
    },
    /// An equipment slot holds an object that is not worn there.
    #[error("slot {slot} of uid {holder} holds uid {uid}, which is not worn there")]
    EquipmentListing {
        /// The wearer.
        holder: Uid,
        /// The slot.
        slot: Symbol,
        /// The object held.
        uid: Uid,
    },
    /// A freed object is still in the ownerless set.
    #[error("uid {0} was freed but is still in the ownerless set")]
    FreedButOwnerless(Uid),
    /// An object is stored under another uid than its own.
    #[error("object {object} is stored under uid {uid}")]
    StoredUnder {
        /// The object's own uid.
        object: Uid,
        /// The uid it is stored under.
        uid: Uid,
    },
    /// An object's uid is not below the next uid to give.
    #[error("uid {uid} is not below the next uid {next}")]
    NotBelowNext {
        /// The object.
        uid: Uid,
        /// The next uid.
        next: u64,
    },
    /// The ownerless set lists an object with a location, or misses one without.
    #[error("uid {0}: the ownerless set disagrees with its location")]
    OwnerlessDisagrees(Uid),
    /// An object is not listed where it says it is.
    #[error("uid {uid} says it is in {location:?} but is not listed there")]
    NotListed {
        /// The object.
        uid: Uid,
        /// Where it says it is.
        location: Option<Location>,
    },
    /// Two locations list one object.
    #[error("uid {uid} is listed by both {first} and {second}")]
    ListedTwice {
        /// The object.
        uid: Uid,
        /// The first location found listing it.
        first: Location,
        /// The second.
        second: Location,
    },
    /// A map's position index disagrees with its objects' positions.
    #[error("the position index of map {0} disagrees with its objects")]
    PositionIndex(MapId),
    /// An object says it is somewhere else than where it is listed.
    #[error("uid {uid} says it is in {location:?} but is listed by {listed:?}")]
    ListedElsewhere {
        /// The object.
        uid: Uid,
        /// Where it says it is.
        location: Option<Location>,
        /// What lists it.
        listed: Option<Location>,
    },
    /// A location lists an object that does not exist.
    #[error("uid {0} is listed by a location but does not exist")]
    ListedButMissing(Uid),
}

impl World {
    /// [`World::check_invariants`] of what the check of the invariants under way looks at
    /// (see [`World::begin_check`]): within one, only the objects, cells and holders that
    /// changed since the last; outside, the whole world.
    pub fn check_bookkeeping(&self) -> Result<(), BookkeepingError> {
        match self.checking() {
            None => self.check_invariants(),
            Some(changes) => self.check_changed(changes),
        }
    }

    /// The bookkeeping of what changed: each cell an object arrived at or left lists it once
    /// if it is there now and not at all if it is not (and counts its feats right if it is a
    /// feat); every object a changed holder lists is in it; each object that arrived somewhere
    /// or left is stored under its uid, below the next uid, listed where it says it is and
    /// ownerless exactly when it has no location; a freed object is in no ownerless set. What
    /// a field write changes is no bookkeeping's. Only these are read: right after a turn the
    /// memory is cold, and a turn moves hundreds of objects.
    fn check_changed(&self, changes: &Changes) -> Result<(), BookkeepingError> {
        for &CellVisit { map: map_id, x, y, uid } in &changes.cells {
            let Some(map) = self.maps.get(&map_id).filter(|m| m.in_bounds(x, y)) else { continue };
            // It may have moved on since: it is listed there once if it is there now, else not.
            let object = self.objects.get(&uid);
            let there = object.is_some_and(|o| o.location == Some(Location::Map(map_id)) && (o.x, o.y) == (x, y));
            let listed = map.objects_at(x, y).iter().filter(|&&u| u == uid).count();
            if listed != usize::from(there) {
                let there = usize::from(there);
                return Err(BookkeepingError::CellListing { map: map_id, x, y, uid, listed, there });
            }
            if object.is_some_and(|o| o.kind == ObjectKind::Feat) {
                let is_feat = |u: &&Uid| self.objects.get(u).is_some_and(|o| o.kind == ObjectKind::Feat);
                if map.objects_at(x, y).iter().filter(is_feat).count() != map.feats_at(x, y) {
                    return Err(BookkeepingError::FeatCount { map: map_id, x, y });
                }
            }
        }
        for &holder in &changes.holders {
            let Some(object) = self.objects.get(&holder) else { continue };
            for uid in object.inventory().into_iter().flatten() {
                if self.objects.get(&uid).and_then(|o| o.location) != Some(Location::Inventory(holder)) {
                    return Err(BookkeepingError::InventoryListing { holder, uid });
                }
            }
            for (slot, &uid) in object.equipment().into_iter().flat_map(|e| e.iter()) {
                if self.objects.get(&uid).and_then(|o| o.location) != Some(Location::Equipment(holder, slot)) {
                    return Err(BookkeepingError::EquipmentListing { holder, slot, uid });
                }
            }
        }
        for (&uid, &changed) in &changes.objects {
            let Some(object) = self.objects.get(&uid) else {
                if self.ownerless.contains(&uid) {
                    return Err(BookkeepingError::FreedButOwnerless(uid));
                }
                continue;
            };
            match changed {
                Changed::Whole => self.check_placed(uid, object)?,
                // A move on its map is checked by its visits to cells above; a field write
                // is no bookkeeping's.
                Changed::Fields(_) => {}
            }
        }
        Ok(())
    }

    /// The bookkeeping of one live object: where it is stored, its uid, and where it is.
    fn check_placed(&self, uid: Uid, object: &Object) -> Result<(), BookkeepingError> {
        if object.uid != uid {
            return Err(BookkeepingError::StoredUnder { object: object.uid, uid });
        }
        if uid.0 >= self.next_uid {
            return Err(BookkeepingError::NotBelowNext { uid, next: self.next_uid });
        }
        if object.location.is_none() != self.ownerless.contains(&uid) {
            return Err(BookkeepingError::OwnerlessDisagrees(uid));
        }
        let listed = match object.location {
            None => true,
            Some(Location::Map(map)) => self.maps.get(&map).is_some_and(|m| {
                m.objects().at(object.seq) == Some(uid)
                    && m.objects_at(object.x, object.y).iter().filter(|&&u| u == uid).count() == 1
            }),
            Some(Location::Inventory(owner)) => {
                self.objects.get(&owner).and_then(|o| o.inventory.as_ref()).and_then(|l| l.at(object.seq)) == Some(uid)
            }
            Some(Location::Equipment(owner, slot)) => {
                self.objects.get(&owner).and_then(|o| o.equipment.as_ref()).and_then(|e| e.get(slot)) == Some(&uid)
            }
        };
        match listed {
            true => Ok(()),
            false => Err(BookkeepingError::NotListed { uid, location: object.location }),
        }
    }

    /// Checks the bookkeeping that ties objects to locations: every map's position index
    /// matches its objects' positions (and counts its feats right), every object listed by a location points back to it,
    /// no object is listed twice, and the ownerless set is exactly the objects with no
    /// location. Returns the first inconsistency found. Used by tests and debug tools.
    pub fn check_invariants(&self) -> Result<(), BookkeepingError> {
        let mut listed: FxHashMap<Uid, Location> = FxHashMap::default();
        let mut list = |uid: Uid, location: Location| match listed.insert(uid, location) {
            Some(first) => Err(BookkeepingError::ListedTwice { uid, first, second: location }),
            None => Ok(()),
        };
        for map in self.maps.values() {
            if !map.index_is_consistent(|uid| self.objects.get(&uid).map(|o| (o.x, o.y, o.kind))) {
                return Err(BookkeepingError::PositionIndex(map.uid));
            }
            for uid in map.objects().iter() {
                list(uid, Location::Map(map.uid))?;
            }
        }
        for object in self.objects.values() {
            for uid in object.inventory().into_iter().flatten() {
                list(uid, Location::Inventory(object.uid))?;
            }
            for (slot, &uid) in object.equipment().into_iter().flat_map(|e| e.iter()) {
                list(uid, Location::Equipment(object.uid, slot))?;
            }
        }
        for (uid, object) in self.objects.iter() {
            let uid = *uid;
            if object.uid != uid {
                return Err(BookkeepingError::StoredUnder { object: object.uid, uid });
            }
            if object.location != listed.get(&uid).copied() {
                let listed = listed.get(&uid).copied();
                return Err(BookkeepingError::ListedElsewhere { uid, location: object.location, listed });
            }
            if object.location.is_none() != self.ownerless.contains(&uid) {
                return Err(BookkeepingError::OwnerlessDisagrees(uid));
            }
            if uid.0 >= self.next_uid {
                return Err(BookkeepingError::NotBelowNext { uid, next: self.next_uid });
            }
        }
        if let Some(&uid) = listed.keys().find(|uid| !self.objects.contains_key(uid)) {
            return Err(BookkeepingError::ListedButMissing(uid));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::BookkeepingError;
    use crate::location::Holder;
    use crate::map::MapId;
    use crate::object::{ObjectKind, Uid};
    use crate::world::World;

    /// A world with a putit at (1, 1) of its map and the change log on, taken once: from
    /// here it knows what changes.
    fn logging_with_putit() -> (World, MapId, Uid) {
        let (mut world, map) = crate::world::tests::world_with_map();
        let uid = world.create(ObjectKind::Chara, "t.putit").unwrap();
        world.take_object(Holder::Map(map), uid, 1, 1).unwrap();
        world.log_changes(true);
        world.take_changes();
        (world, map, uid)
    }

    /// The bookkeeping check of what changed since the last check.
    fn check_changed(world: &mut World) -> Result<(), BookkeepingError> {
        world.begin_check();
        let found = world.check_bookkeeping();
        world.end_check();
        found
    }

    /// Within a check, a cell an object left that still lists it is found, though only what
    /// changed is looked at.
    #[test]
    fn a_stale_entry_in_a_cell_left_is_found_by_the_check_of_what_changed() {
        let (mut world, map, uid) = logging_with_putit();
        world.set_pos(uid, 3, 3).unwrap();
        assert_eq!(check_changed(&mut world), Ok(()));
        world.set_pos(uid, 2, 2).unwrap();
        // A move that forgot to take it out of its old cell.
        world.maps.get_mut(&map).unwrap().add_to_index(uid, ObjectKind::Chara, 3, 3);
        let found = check_changed(&mut world).unwrap_err().to_string();
        assert!(found.contains("cell (3, 3)") && found.contains(&format!("uid {uid}")), "{found}");
        assert!(world.check_invariants().is_err(), "the whole check agrees");
    }

    /// Within a check, a cell an object moved to that does not list it is found.
    #[test]
    fn a_cell_that_lost_an_object_moved_to_it_is_found_by_the_check_of_what_changed() {
        let (mut world, map, uid) = logging_with_putit();
        world.set_pos(uid, 2, 2).unwrap();
        // A move that forgot to put it in its new cell.
        let seq = world.objects.get(&uid).unwrap().seq;
        world.maps.get_mut(&map).unwrap().remove_from_index(uid, ObjectKind::Chara, 2, 2, seq);
        let found = check_changed(&mut world).unwrap_err().to_string();
        assert!(found.contains("cell (2, 2)") && found.contains("0 times, but it is there 1"), "{found}");
    }
}
