//! Where the world's objects live: densely, in a vector of slots in the order they were
//! made, with an index from uid to slot.
//!
//! Game code walks objects in the order it made them (every character of a map, every item
//! of an inventory), so keeping them side by side in that order lets the processor's
//! prefetcher bring the next one in while this one is used; a hash map keyed by uid would
//! scatter them. A Lua handle remembers its object's slot ([`Slot`]), so the hottest calls
//! (`calc`, `mod`, field reads) go from the handle to the object without the index; the uid
//! in the slot is checked, so a slot that has been reused since is noticed and the index
//! answers instead.
//!
//! The slots are kept in chunks of [`CHUNK`] that never move ([`Slots`]): a single vector
//! doubling its capacity held up to twice the objects' memory while it moved them (a world of
//! 400,000 objects asked 170 MB for 86 MB of objects) and kept up to half of it unused.
//!
//! The index from uid to slot ([`UidIndex`]) is paged: uids are handed out one after another,
//! so the uids of the objects alive come in runs, and a page of [`PAGE`] slots for each run
//! costs 4 bytes an object where a hash map of uids cost 19 to 38 (a million characters with an
//! item and a clone each: 136 MiB against 16). Looking a uid up reads the small map of pages,
//! which stays in the cache, and then the page; a save or a load going through objects in uid
//! order reads each page once, where a hash map of uids missed the cache on every object.

use rustc_hash::FxHashMap;

use crate::object::{Object, Uid};

/// The position of an object in the store, stable while it lives.
pub type Slot = u32;

/// A slot no object is ever at: where to look when a handle has not seen its object yet.
pub const NO_SLOT: Slot = Slot::MAX;

/// The world's objects by uid, stored densely (see the module documentation).
#[derive(Clone, Default)]
pub struct ObjectStore {
    slots: Slots,
    free: Vec<Slot>,
    index: UidIndex,
}

impl ObjectStore {
    /// The object `uid`, if it lives.
    pub fn get(&self, uid: &Uid) -> Option<&Object> {
        self.slots.get(self.index.get(*uid)?)
    }

    /// The object `uid`, mutably.
    pub fn get_mut(&mut self, uid: &Uid) -> Option<&mut Object> {
        self.slots.get_mut(self.index.get(*uid)?)
    }

    /// The object `uid`, looked for first at `slot` (where a handle saw it), then by uid.
    pub fn get_near(&self, slot: Slot, uid: Uid) -> Option<&Object> {
        match self.slots.get(slot) {
            Some(object) if object.uid == uid => Some(object),
            _ => self.get(&uid),
        }
    }

    /// [`ObjectStore::get_near`], mutably.
    pub fn get_near_mut(&mut self, slot: Slot, uid: Uid) -> Option<&mut Object> {
        if self.is_at(slot, uid) { self.slots.get_mut(slot) } else { self.get_mut(&uid) }
    }

    /// True if object `uid` is at `slot`.
    pub fn is_at(&self, slot: Slot, uid: Uid) -> bool {
        matches!(self.slots.get(slot), Some(object) if object.uid == uid)
    }

    /// The slot of object `uid`, if it lives.
    pub fn slot(&self, uid: Uid) -> Option<Slot> {
        self.index.get(uid)
    }

    /// True if `uid` lives.
    pub fn contains_key(&self, uid: &Uid) -> bool {
        self.index.get(*uid).is_some()
    }

    /// Stores `object` under its uid, replacing (and returning) one stored with the same.
    pub fn insert(&mut self, uid: Uid, object: Object) -> Option<Object> {
        if let Some(slot) = self.index.get(uid) {
            return self.slots.put(slot, object);
        }
        let slot = match self.free.pop() {
            Some(slot) => {
                self.slots.put(slot, object);
                slot
            }
            None => self.slots.push(object),
        };
        self.index.insert(uid, slot);
        None
    }

    /// Takes object `uid` out, freeing its slot.
    pub fn remove(&mut self, uid: &Uid) -> Option<Object> {
        let slot = self.index.remove(*uid)?;
        let object = self.slots.take(slot);
        self.free.push(slot);
        object
    }

    /// How many objects live.
    pub fn len(&self) -> usize {
        self.index.len
    }

    /// True when no object lives.
    pub fn is_empty(&self) -> bool {
        self.index.len == 0
    }

    /// Every object, in slot order (the order they were made, holes filled by newer ones).
    pub fn values(&self) -> impl Iterator<Item = &Object> {
        self.slots.chunks.iter().flatten().flatten()
    }

    /// Every object, mutably, in slot order.
    pub fn values_mut(&mut self) -> impl Iterator<Item = &mut Object> {
        self.slots.chunks.iter_mut().flatten().flatten()
    }

    /// Every object with its uid, in slot order.
    pub fn iter(&self) -> impl Iterator<Item = (&Uid, &Object)> {
        self.values().map(|object| (&object.uid, object))
    }
}

/// How many slots a chunk of [`Slots`] holds.
const CHUNK: usize = 1024;

/// The slots, in chunks of [`CHUNK`] made with all their room, so an object never moves once
/// stored and at most one chunk is partly unused. Slot `s` is at `s / CHUNK`, `s % CHUNK`.
#[derive(Clone, Default)]
struct Slots {
    chunks: Vec<Vec<Option<Object>>>,
}

impl Slots {
    fn place(slot: Slot) -> (usize, usize) {
        let slot = slot as usize;
        (slot / CHUNK, slot % CHUNK)
    }

    fn get(&self, slot: Slot) -> Option<&Object> {
        let (chunk, at) = Slots::place(slot);
        self.chunks.get(chunk)?.get(at)?.as_ref()
    }

    fn get_mut(&mut self, slot: Slot) -> Option<&mut Object> {
        let (chunk, at) = Slots::place(slot);
        self.chunks.get_mut(chunk)?.get_mut(at)?.as_mut()
    }

    /// Puts `object` at `slot`, a slot already made, returning what was there.
    fn put(&mut self, slot: Slot, object: Object) -> Option<Object> {
        let (chunk, at) = Slots::place(slot);
        self.chunks[chunk][at].replace(object)
    }

    /// Empties `slot`, returning what was there.
    fn take(&mut self, slot: Slot) -> Option<Object> {
        let (chunk, at) = Slots::place(slot);
        self.chunks.get_mut(chunk)?.get_mut(at)?.take()
    }

    /// Stores `object` in a new slot after the last, and returns it.
    fn push(&mut self, object: Object) -> Slot {
        if self.chunks.last().is_none_or(|last| last.len() == CHUNK) {
            self.chunks.push(Vec::with_capacity(CHUNK));
        }
        let before = self.chunks.len() - 1;
        let chunk = self.chunks.last_mut().expect("a chunk with room");
        let slot = before * CHUNK + chunk.len();
        chunk.push(Some(object));
        // More than four billion objects cannot be held in memory anyway.
        Slot::try_from(slot).expect("fewer than 2^32 objects")
    }
}

/// How many uids a page of the [`UidIndex`] holds the slots of (a power of two). Small, so
/// that uids far apart (objects made and freed over a long game, or a save's own choice of
/// uids) cost at most a page each: 260 bytes, less than an object's own size.
const PAGE: u64 = 64;

/// The slots of one run of [`PAGE`] uids: [`NO_SLOT`] where no object has the uid.
#[derive(Clone)]
struct Page {
    slots: [Slot; PAGE as usize],
    /// How many of the slots are objects' (the page goes when none is).
    used: u32,
}

/// The index from uid to slot, by pages of [`PAGE`] uids (see the module documentation).
#[derive(Clone, Default)]
struct UidIndex {
    pages: FxHashMap<u64, Box<Page>>,
    /// How many uids have a slot.
    len: usize,
}

impl UidIndex {
    /// The page of `uid` and the uid's place in it.
    fn place(uid: Uid) -> (u64, usize) {
        // The remainder is below PAGE, which fits a usize.
        (uid.0 / PAGE, (uid.0 % PAGE) as usize)
    }

    /// The slot of `uid`, if it has one.
    fn get(&self, uid: Uid) -> Option<Slot> {
        let (page, at) = UidIndex::place(uid);
        let slot = self.pages.get(&page)?.slots[at];
        (slot != NO_SLOT).then_some(slot)
    }

    /// Gives `uid` (which has none) `slot`.
    fn insert(&mut self, uid: Uid, slot: Slot) {
        let (page, at) = UidIndex::place(uid);
        let page =
            self.pages.entry(page).or_insert_with(|| Box::new(Page { slots: [NO_SLOT; PAGE as usize], used: 0 }));
        debug_assert_eq!(page.slots[at], NO_SLOT, "uid {uid} already has a slot");
        page.slots[at] = slot;
        page.used += 1;
        self.len += 1;
    }

    /// Takes `uid`'s slot away, returning it.
    fn remove(&mut self, uid: Uid) -> Option<Slot> {
        let (number, at) = UidIndex::place(uid);
        let page = self.pages.get_mut(&number)?;
        let slot = std::mem::replace(&mut page.slots[at], NO_SLOT);
        if slot == NO_SLOT {
            return None;
        }
        page.used -= 1;
        if page.used == 0 {
            self.pages.remove(&number);
        }
        self.len -= 1;
        Some(slot)
    }
}

impl std::ops::Index<&Uid> for ObjectStore {
    type Output = Object;

    fn index(&self, uid: &Uid) -> &Object {
        self.get(uid).unwrap_or_else(|| panic!("object uid {uid} is not in the store"))
    }
}

impl FromIterator<(Uid, Object)> for ObjectStore {
    fn from_iter<I: IntoIterator<Item = (Uid, Object)>>(objects: I) -> ObjectStore {
        let mut store = ObjectStore::default();
        for (uid, object) in objects {
            store.insert(uid, object);
        }
        store
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::ProtoIdx;
    use crate::object::ObjectKind;
    use crate::symbol::Symbol;

    fn object(uid: u64) -> Object {
        Object {
            uid: Uid(uid),
            kind: ObjectKind::Item,
            proto: ProtoIdx(0),
            id: Symbol::intern("test.thing"),
            x: 0,
            y: 0,
            fields: Default::default(),
            location: None,
            seq: 0,
            inventory: None,
            equipment: None,
            pins: 0,
            key: None,
        }
    }

    #[test]
    fn a_reused_slot_is_not_taken_for_the_object_that_left_it() {
        let mut store = ObjectStore::default();
        store.insert(Uid(1), object(1));
        let slot = store.slot(Uid(1)).expect("stored");
        store.remove(&Uid(1));
        store.insert(Uid(2), object(2));
        assert_eq!(store.slot(Uid(2)), Some(slot), "the freed slot is reused");
        assert!(store.get_near(slot, Uid(1)).is_none(), "uid 1 is gone although its slot is filled");
        assert_eq!(store.get_near(slot, Uid(2)).map(|o| o.uid), Some(Uid(2)));
        assert_eq!(store.get_near(99, Uid(2)).map(|o| o.uid), Some(Uid(2)), "a wrong slot falls back on the index");
        assert_eq!(store.len(), 1);
    }

    #[test]
    fn objects_over_many_chunks_are_found_in_order_and_never_move() {
        let count = CHUNK as u64 * 2 + 7;
        let mut store: ObjectStore = (1..=count).map(|uid| (Uid(uid), object(uid))).collect();
        let first: *const Object = &store[&Uid(1)];
        for uid in [1, CHUNK as u64, CHUNK as u64 + 1, count] {
            let slot = store.slot(Uid(uid)).expect("stored");
            assert_eq!(slot, (uid - 1) as Slot, "slots follow the order objects were made in");
            assert_eq!(store.get_near(slot, Uid(uid)).map(|o| o.uid), Some(Uid(uid)));
        }
        assert!(std::ptr::eq(first, &store[&Uid(1)]), "the first object stayed where it was");
        let slot = store.slot(Uid(CHUNK as u64 + 1)).expect("stored");
        store.remove(&Uid(CHUNK as u64 + 1));
        store.insert(Uid(count + 1), object(count + 1));
        assert_eq!(store.slot(Uid(count + 1)), Some(slot), "a freed slot in a middle chunk is reused");
        let uids: Vec<u64> = store.values().map(|o| o.uid.0).collect();
        assert_eq!(uids.len() as u64, count);
        assert_eq!(uids[CHUNK], count + 1);
        assert!(uids[..CHUNK].iter().copied().eq(1..=CHUNK as u64));
    }

    #[test]
    fn objects_are_kept_in_the_order_they_were_made() {
        let store: ObjectStore = (1..=5).map(|uid| (Uid(uid), object(uid))).collect();
        let uids: Vec<u64> = store.values().map(|o| o.uid.0).collect();
        assert_eq!(uids, [1, 2, 3, 4, 5]);
        assert_eq!(store[&Uid(3)].uid, Uid(3));
    }

    #[test]
    fn uids_far_apart_each_find_their_object_and_a_page_goes_with_its_last_object() {
        let far = [0, 1, PAGE - 1, PAGE, 5 * PAGE + 3, u64::MAX / 2, u64::MAX];
        let mut store: ObjectStore = far.iter().map(|&uid| (Uid(uid), object(uid))).collect();
        assert_eq!(store.len(), far.len());
        for uid in far {
            assert_eq!(store.get(&Uid(uid)).map(|o| o.uid), Some(Uid(uid)));
        }
        for absent in [2, PAGE + 1, 5 * PAGE + 2, u64::MAX - 1] {
            assert!(!store.contains_key(&Uid(absent)), "uid {absent} was never stored");
        }
        assert_eq!(store.index.pages.len(), 5, "uids 0, 1 and PAGE - 1 share the first page");
        assert!(store.remove(&Uid(PAGE)).is_some());
        assert!(store.remove(&Uid(PAGE)).is_none(), "removed once");
        assert_eq!(store.index.pages.len(), 4, "the page of uid PAGE held nothing else");
        assert!(store.remove(&Uid(0)).is_some());
        assert_eq!(store.index.pages.len(), 4, "uids 1 and PAGE - 1 keep the first page");
        assert_eq!(store.len(), far.len() - 2);
        assert!(store.get(&Uid(1)).is_some() && store.get(&Uid(0)).is_none());
    }
}
