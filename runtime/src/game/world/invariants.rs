//! The bookkeeping checks of the world (used by tests, property tests and the host after a
//! panic).

use rustc_hash::FxHashMap;

use super::World;
use crate::game::location::Location;
use crate::game::object::Uid;

impl World {
    /// Checks the bookkeeping that ties objects to locations: every map's position index
    /// matches its objects' positions (and counts its feats right), every object listed by a location points back to it,
    /// no object is listed twice, and the ownerless set is exactly the objects with no
    /// location. Returns the first inconsistency found. Used by tests and debug tools.
    pub fn check_invariants(&self) -> Result<(), String> {
        let mut listed: FxHashMap<Uid, Location> = FxHashMap::default();
        let mut list = |uid: Uid, location: Location| match listed.insert(uid, location) {
            Some(other) => Err(format!("uid {uid} is listed by both {other} and {location}")),
            None => Ok(()),
        };
        for map in self.maps.values() {
            if !map.index_is_consistent(|uid| self.objects.get(&uid).map(|o| (o.x, o.y, o.kind))) {
                return Err(format!("the position index of map {} disagrees with its objects", map.uid));
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
            if object.uid != *uid {
                return Err(format!("object {} is stored under uid {uid}", object.uid));
            }
            if object.location != listed.get(uid).copied() {
                return Err(format!(
                    "uid {uid} says it is in {:?} but is listed by {:?}",
                    object.location,
                    listed.get(uid)
                ));
            }
            if object.location.is_none() != self.ownerless.contains(uid) {
                return Err(format!("uid {uid}: the ownerless set disagrees with its location"));
            }
            if uid.0 >= self.next_uid {
                return Err(format!("uid {uid} is not below the next uid {}", self.next_uid));
            }
        }
        if let Some(uid) = listed.keys().find(|uid| !self.objects.contains_key(uid)) {
            return Err(format!("uid {uid} is listed by a location but does not exist"));
        }
        Ok(())
    }
}
