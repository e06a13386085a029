//! The world: every map object and map, the uid counter, the current map, the player and the
//! clock. It is plain Rust state with no Lua inside, so the inspector, the saver, property
//! tests and Lua all read one truth. This file is the storage (objects, sweeps, the state set
//! aside while playing); `world/` holds the calendar, the fields (IModdable), the maps and
//! sight, and the bookkeeping checks.

use std::collections::{BTreeMap, BTreeSet};

use crate::clock::{Clock, TURN_SECONDS};
use crate::data::{DataError, DataRegistry, ProtoIdx};
use crate::location::{Location, ObjectList, Refusal};
use crate::map::{InstancedMap, KeptMap, MapId};
use crate::moddable::{FieldMap, ModError};
use crate::object::{Object, ObjectKind, Uid};
use crate::symbol::Symbol;

mod art;
mod autotiling;
mod changes;
mod fields;
mod invariants;
mod locations;
mod maps;
mod object_store;
mod state_diff;
mod state_hash;
mod watches;

pub use autotiling::RuleObject;
pub use changes::{Changed, Changes};
pub use fields::parse_color;
pub use invariants::BookkeepingError;
pub use maps::{CELL_BYTES, MAX_SIGHT, OBJECT_BYTES};
pub use object_store::{NO_SLOT, ObjectStore, Slot};
pub use watches::{Watch, WatchAction, WatchHit, WatchId, WatchWhen, Watches};

/// An error from a world operation, worded for the Lua programmer who caused it.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum WorldError {
    /// The uid names no live object.
    #[error("object uid {0} no longer exists (it was freed, or the game was loaded since)")]
    NoSuchObject(Uid),
    /// The id names no map.
    #[error("map {0} no longer exists")]
    NoSuchMap(MapId),
    /// A data registry problem (unknown id, …).
    #[error(transparent)]
    Data(#[from] DataError),
    /// A location refused an object.
    #[error(transparent)]
    Refused(#[from] Refusal),
    /// A temp/base modification failed.
    #[error(transparent)]
    Mod(#[from] ModError),
    /// The object is not a location.
    #[error("{0} is not a location: only maps, characters and container items hold objects")]
    NotALocation(String),
    /// No current map was set and none was given.
    #[error("there is no current map; pass a location, or make one current with Map.set_map(map)")]
    NoCurrentMap,
    /// Nowhere to put an object.
    #[error("no open position for a {kind} on {map}")]
    NoOpenPosition {
        /// The map.
        map: String,
        /// The kind of object.
        kind: &'static str,
    },
    /// A record read from a file (a map file, a save) was refused: every problem found.
    #[error(transparent)]
    Record(#[from] crate::record_error::RecordError),
    /// A map size outside the cap (the text names the size and the cap).
    #[error("{0}")]
    MapSize(crate::map::MapSizeError),
    /// The clock would pass its last second.
    #[error("passing {seconds} seconds would run the clock past its end (it is at {now} seconds)")]
    ClockOverflow {
        /// The seconds asked for.
        seconds: u64,
        /// The clock now.
        now: u64,
    },
    /// Auto-tiling could not run: a rule set that cannot be read (naming its rule and where it
    /// was declared), or a map with no rules laid on it.
    #[error("{0}")]
    Autotile(String),
    /// No tile of the loaded mods can be walked on, so no map can be filled.
    #[error("no walkable base.map_tile is defined by the loaded mods")]
    NoWalkableTile,
    /// Only a character can be the player.
    #[error("only a character can be the player, not {0}")]
    NotACharacter(String),
    /// The object is in an inventory or worn, where objects have no position.
    #[error("{0} is in an inventory, where objects have no position; move it to a map with map:take_object(obj, x, y)")]
    NoPosition(String),
    /// The object is not on a map.
    #[error("{0} is not on a map")]
    NotOnMap(String),
    /// An edit named a field the engine keeps itself (see
    /// [`crate::object::RESERVED_FIELDS`]).
    #[error(transparent)]
    Reserved(#[from] crate::object::ReservedField),
    /// An edit of `x` or `y` (a move) gave what is no column or row.
    #[error("'{field}' is the object's {axis} on its map and takes a whole number, not {value}")]
    NotACoordinate {
        /// `x` or `y`.
        field: &'static str,
        /// `column` or `row`.
        axis: &'static str,
        /// The value given, printed.
        value: String,
    },
    /// A region lies outside its map.
    #[error("the region ({x}, {y}) {width}x{height} is off the map")]
    OffMap {
        /// Column of the top-left corner.
        x: i32,
        /// Row of the top-left corner.
        y: i32,
        /// Width in cells.
        width: i32,
        /// Height in cells.
        height: i32,
    },
    /// Something an object record holds names a prototype no loaded mod defines.
    #[error("unknown prototype '{id}' in what {holder} holds")]
    UnknownHeld {
        /// The unknown id.
        id: Symbol,
        /// The holder's prototype id.
        holder: Symbol,
    },
    /// The project names no player prototype.
    #[error("project '{0}' names no player prototype: add `player: \"<id>\"` to project.ron")]
    NoPlayerPrototype(String),
    /// The project has no start map to play on.
    #[error("the project has no start map: set one in the Maps pane")]
    NoStartMap,
}

/// Whether tiles block movement and sight, read from `base.map_tile` prototypes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TileFlags {
    /// The tile blocks movement (`is_solid`).
    pub solid: bool,
    /// The tile blocks sight (`is_opaque`).
    pub opaque: bool,
    /// The loaded mods define the tile.
    pub known: bool,
}

/// Every object and map of a game, with the counters that make uids unique.
pub struct World {
    /// Data types and prototypes of the loaded mods.
    pub data: DataRegistry,
    pub(crate) objects: ObjectStore,
    pub(crate) maps: BTreeMap<MapId, InstancedMap>,
    pub(crate) next_uid: u64,
    pub(crate) next_map_uid: u64,
    pub(crate) current_map: Option<MapId>,
    pub(crate) player: Option<Uid>,
    pub(crate) ownerless: BTreeSet<Uid>,
    pub(crate) sweep_at: usize,
    /// The in-game time.
    pub clock: Clock,
    /// Turns played.
    pub turn: u64,
    /// Random numbers for placement and game rules.
    pub rng: fastrand::Rng,
    /// Grows on every change, so observers can tell when to look again.
    pub(crate) revision: u64,
    /// Watchpoints on object fields: debugging, not game state (never saved, kept
    /// across loads and stepping back).
    pub(crate) watches: Watches,
    /// What changed since the invariants were last checked: debugging, not game state (kept
    /// across loads and stepping back, as the watches are).
    pub(crate) changes: changes::ChangeLog,
    /// The prefix of the keys this session gives the objects it makes (see
    /// [`crate::object_key`]): not game state, kept across loads.
    pub(crate) key_prefix: String,
    /// The active themes, first first (see `world/art.rs`): a viewing choice, not game
    /// state (never saved, kept across loads).
    pub(crate) themes: Vec<Symbol>,
}

const FIRST_SWEEP: usize = 1024;

/// Everything of a world but its data registry, set aside to be put back exactly: the edit
/// state while the game is played (see [`World::copy_state`]).
#[derive(Clone)]
pub struct WorldState {
    objects: ObjectStore,
    maps: BTreeMap<MapId, KeptMap>,
    next_uid: u64,
    next_map_uid: u64,
    current_map: Option<MapId>,
    player: Option<Uid>,
    ownerless: BTreeSet<Uid>,
    clock: Clock,
    turn: u64,
    rng: fastrand::Rng,
}

impl WorldState {
    /// The objects as they were.
    pub(crate) fn objects(&self) -> &ObjectStore {
        &self.objects
    }

    /// The maps as they were.
    pub(crate) fn maps(&self) -> &BTreeMap<MapId, KeptMap> {
        &self.maps
    }

    /// About how many bytes the copy holds (objects as [`World::heap_estimate`] counts them).
    pub fn heap_estimate(&self) -> usize {
        self.maps.values().map(KeptMap::heap_estimate).sum::<usize>() + self.objects.len() * OBJECT_BYTES
    }
}

impl World {
    /// The live objects, for a reader that already holds where a handle saw one (the Lua
    /// layer's field reads look them up by slot without a second borrow of the world).
    pub fn objects(&self) -> &ObjectStore {
        &self.objects
    }

    /// Moves object `uid` one cell right without telling its map's position index: the fault a
    /// test injects to show the invariants and the panic checkpoint catch a broken world.
    #[cfg(feature = "fault-injection")]
    pub fn displace_unindexed(&mut self, uid: Uid) {
        if let Some(object) = self.objects.get_mut(&uid) {
            object.x += 1;
        }
    }

    /// The uids the next object and the next map will get: an edit's journal entry keeps them,
    /// so a replayed entry can be checked to have made the same objects.
    pub fn next_uids(&self) -> (u64, u64) {
        (self.next_uid, self.next_map_uid)
    }

    /// An empty world over `data`.
    pub fn new(data: DataRegistry) -> World {
        World {
            data,
            objects: ObjectStore::default(),
            maps: BTreeMap::new(),
            next_uid: 1,
            next_map_uid: 1,
            current_map: None,
            player: None,
            ownerless: BTreeSet::new(),
            sweep_at: FIRST_SWEEP,
            clock: Clock::default(),
            turn: 0,
            rng: fastrand::Rng::with_seed(0x006e_6566_6961),
            revision: 1,
            watches: Watches::default(),
            changes: changes::ChangeLog::default(),
            key_prefix: crate::object_key::FIXED_PREFIX.to_owned(),
            themes: Vec::new(),
        }
    }

    /// The prefix of the keys this session gives the objects it makes.
    pub fn key_prefix(&self) -> &str {
        &self.key_prefix
    }

    /// Sets the prefix of the keys this session gives the objects it makes: a fresh random
    /// one for an editor session, the crashed session's on recovery.
    pub fn set_key_prefix(&mut self, prefix: String) {
        self.key_prefix = prefix;
    }

    /// Gives every object of map `map` (and what each holds) the key of its place in the
    /// map's list (see [`crate::object_key::positional_key`]): a generated map's objects.
    pub fn key_objects_by_place(&mut self, map: MapId) -> Result<(), WorldError> {
        fn give(world: &mut World, uid: Uid, key: String) {
            let (inventory, equipment): (Vec<Uid>, Vec<(Symbol, Uid)>) = match world.objects.get(&uid) {
                Some(object) => (
                    object.inventory().map(|items| items.collect()).unwrap_or_default(),
                    object.equipment().map(|e| e.iter().map(|(s, u)| (s, *u)).collect()).unwrap_or_default(),
                ),
                None => return,
            };
            for (n, item) in inventory.into_iter().enumerate() {
                give(world, item, crate::object_key::positional_key(Some(&key), &n.to_string()));
            }
            for (slot, item) in equipment {
                give(world, item, crate::object_key::positional_key(Some(&key), slot.as_str()));
            }
            if let Some(object) = world.objects.get_mut(&uid) {
                object.key = Some(key.into());
            }
        }
        let on_map: Vec<Uid> = self.map(map)?.objects().iter().collect();
        for (n, uid) in on_map.into_iter().enumerate() {
            give(self, uid, crate::object_key::positional_key(None, &n.to_string()));
        }
        Ok(())
    }

    /// The key `uid` carries in a map file: the one it was read with, or its session key.
    pub fn object_key(&self, uid: Uid) -> Result<String, WorldError> {
        let object = self.object(uid)?;
        Ok(match &object.key {
            Some(key) => key.to_string(),
            None => crate::object_key::session_key(&self.key_prefix, uid),
        })
    }

    /// A copy of the game state (objects, maps, clock, turn, random numbers), to be put back
    /// with [`World::restore_state`].
    pub fn copy_state(&self) -> WorldState {
        WorldState {
            objects: self.objects.clone(),
            maps: self.maps.iter().map(|(&id, map)| (id, map.kept())).collect(),
            next_uid: self.next_uid,
            next_map_uid: self.next_map_uid,
            current_map: self.current_map,
            player: self.player,
            ownerless: self.ownerless.clone(),
            clock: self.clock,
            turn: self.turn,
            rng: self.rng.clone(),
        }
    }

    /// What a [`World::copy_state`] costs to take, in objects plus map cells: the host takes
    /// one before a command only when this is small (see `runtime/host/src/lib.rs`).
    pub fn snapshot_size(&self) -> usize {
        self.objects.len() + self.cell_count()
    }

    /// How many cells all the maps have together.
    fn cell_count(&self) -> usize {
        self.maps.values().map(|m| m.width() as usize * m.height() as usize).sum()
    }

    /// Puts back a [`World::copy_state`]. The data registry stays (prototypes reloaded since
    /// are kept), and uids and map ids keep counting up, so nothing made in between is ever
    /// confused with something put back.
    pub fn restore_state(&mut self, state: WorldState) {
        let (next_uid, next_map_uid) = (self.next_uid.max(state.next_uid), self.next_map_uid.max(state.next_map_uid));
        self.put_back(state, next_uid, next_map_uid);
    }

    /// Puts back a [`World::copy_state`] exactly, counters included, as if what happened
    /// since had not: stepping back a turn, after which the same inputs make the same
    /// objects with the same uids.
    pub fn rewind_to(&mut self, state: WorldState) {
        let (next_uid, next_map_uid) = (state.next_uid, state.next_map_uid);
        self.put_back(state, next_uid, next_map_uid);
    }

    fn put_back(&mut self, state: WorldState, next_uid: u64, next_map_uid: u64) {
        self.objects = state.objects;
        self.maps = state.maps.into_values().map(|kept| (kept.uid(), kept.unpacked())).collect();
        self.next_uid = next_uid;
        self.next_map_uid = next_map_uid;
        self.current_map = state.current_map;
        self.player = state.player;
        self.ownerless = state.ownerless;
        self.clock = state.clock;
        self.turn = state.turn;
        self.rng = state.rng;
        self.sweep_at = FIRST_SWEEP.max(self.objects.len() * 2);
        self.revision += 1;
        self.data.base_changes.notify(crate::base_changes::BaseChange::Every);
        // Every map view is rebuilt: the restored maps' counters may equal the played ones'.
        for map in self.maps.values_mut() {
            map.touch_all();
        }
        self.watches_see_now();
        self.changed_everything();
    }

    /// A counter that grows whenever anything in the world changes.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Records a change made from outside (for example a clock tick).
    pub fn touch(&mut self) {
        self.revision += 1;
    }

    /// Marks the map holding `uid` (directly or through inventories) as changed, so views of
    /// its objects are rebuilt.
    pub(crate) fn touch_object(&mut self, uid: Uid) {
        let Some(object) = self.objects.get(&uid) else { return };
        let (location, x, y) = (object.location, object.x, object.y);
        self.touch_location(location, (x, y), true);
    }

    /// [`World::touch_object`] of an object in `location` at `position`; its cell is marked
    /// too when `shown` (what the player remembers of the cell may have changed).
    pub(crate) fn touch_location(&mut self, mut location: Option<Location>, mut position: (i32, i32), shown: bool) {
        loop {
            match location {
                Some(Location::Map(map)) => {
                    if let Some(map) = self.maps.get_mut(&map) {
                        map.touch_objects();
                        if shown {
                            map.touch_cell(position.0, position.1);
                        }
                    }
                    return;
                }
                Some(Location::Inventory(owner) | Location::Equipment(owner, _)) => {
                    let owner = self.objects.get(&owner);
                    location = owner.and_then(|o| o.location);
                    position = owner.map_or(position, |o| (o.x, o.y));
                }
                None => return,
            }
        }
    }

    /// The uid the next object will get.
    pub fn next_uid(&self) -> Uid {
        Uid(self.next_uid)
    }

    // ---- objects -------------------------------------------------------------------------

    /// The live object `uid`.
    pub fn object(&self, uid: Uid) -> Result<&Object, WorldError> {
        self.objects.get(&uid).ok_or(WorldError::NoSuchObject(uid))
    }

    /// The live object `uid`, mutably. Prefer the field and location operations, which keep
    /// indices and revisions right (and log which field changed).
    pub fn object_mut(&mut self, uid: Uid) -> Result<&mut Object, WorldError> {
        self.revision += 1;
        self.changed_field(uid, None);
        self.objects.get_mut(&uid).ok_or(WorldError::NoSuchObject(uid))
    }

    /// True if `uid` is a live object.
    pub fn exists(&self, uid: Uid) -> bool {
        self.objects.contains_key(&uid)
    }

    /// Number of live objects (placed or ownerless).
    pub fn object_count(&self) -> usize {
        self.objects.len()
    }

    /// Every live object, in no particular order.
    pub fn all_objects(&self) -> impl Iterator<Item = &Object> {
        self.objects.values()
    }

    /// Objects in no location that are still alive (held by a script, the editor, or the
    /// player), in uid order.
    pub fn ownerless(&self) -> impl Iterator<Item = Uid> + '_ {
        self.ownerless.iter().copied()
    }

    /// Makes a new ownerless object of prototype `id` of the data type of `kind`.
    pub fn create(&mut self, kind: ObjectKind, id: &str) -> Result<Uid, WorldError> {
        let proto = self.data.find(kind.data_type_symbol(), id)?;
        Ok(self.create_from(proto))
    }

    /// Makes a new ownerless object of prototype `proto`.
    pub fn create_from(&mut self, proto: ProtoIdx) -> Uid {
        let uid = Uid(self.next_uid);
        self.next_uid += 1;
        self.spawn(uid, proto);
        uid
    }

    /// Inserts a fresh ownerless object with the given uid: prototype values only, with an
    /// inventory if it is a character or a container, and equipment slots if a character or
    /// an item that `holds_equipment` (what `EquipSlots:new` makes).
    pub(crate) fn spawn(&mut self, uid: Uid, proto: ProtoIdx) {
        let prototype = self.data.proto(proto);
        let kind = ObjectKind::from_data_type_symbol(prototype.data_type)
            .expect("object prototypes belong to an object data type");
        let is_container = prototype.is_container();
        let holds_equipment = kind == ObjectKind::Chara || prototype.holds_equipment();
        let object = Object {
            uid,
            kind,
            proto,
            id: prototype.id,
            x: 0,
            y: 0,
            fields: Default::default(),
            location: None,
            seq: 0,
            inventory: (kind == ObjectKind::Chara || is_container).then(ObjectList::default),
            equipment: holds_equipment.then(FieldMap::new),
            pins: 0,
            key: None,
        };
        self.objects.insert(uid, object);
        self.ownerless.insert(uid);
        self.revision += 1;
        self.changed_field(uid, None);
        if !self.watches.is_empty() {
            self.see_made(uid);
        }
    }

    /// Copies `uid` with a new uid and no location: same base and temp values; the items it
    /// holds and wears are copied too, each with a new uid (seed: `clone`).
    pub fn clone_object(&mut self, uid: Uid) -> Result<Uid, WorldError> {
        let source = self.object(uid)?;
        let (proto, x, y, fields) = (source.proto, source.x, source.y, source.fields.clone());
        let inventory: Vec<Uid> = source.inventory().map(|items| items.collect()).unwrap_or_default();
        let equipment: Vec<(Symbol, Uid)> =
            source.equipment().map(|e| e.iter().map(|(s, u)| (s, *u)).collect()).unwrap_or_default();
        let copy = self.create_from(proto);
        let object = self.objects.get_mut(&copy).expect("just made");
        object.fields = fields;
        object.x = x;
        object.y = y;
        for item in inventory {
            let item_copy = self.clone_object(item)?;
            self.attach(item_copy, Location::Inventory(copy), 0, 0);
        }
        for (slot, item) in equipment {
            let item_copy = self.clone_object(item)?;
            self.attach(item_copy, Location::Equipment(copy, slot), 0, 0);
        }
        Ok(copy)
    }

    /// True when enough ownerless objects have piled up since the last sweep that one is
    /// worth its cost.
    pub fn wants_sweep(&self) -> bool {
        self.ownerless.len() >= self.sweep_at
    }

    /// Frees the ownerless objects nothing holds: not the player, not pinned by the editor,
    /// and not held by a script (`held_by_script(uid)`, answered by the Lua handle cache).
    pub fn sweep(&mut self, held_by_script: impl Fn(Uid) -> bool) {
        let garbage: Vec<Uid> =
            self.ownerless.iter().copied().filter(|&uid| !self.is_pinned(uid) && !held_by_script(uid)).collect();
        for uid in garbage {
            self.free(uid, &held_by_script);
        }
        self.sweep_at = self.ownerless.len() + self.ownerless.len().max(FIRST_SWEEP);
    }

    fn is_pinned(&self, uid: Uid) -> bool {
        self.player == Some(uid) || self.objects.get(&uid).is_some_and(|o| o.pins > 0)
    }

    /// Frees an object; the things it holds go with it unless something else holds them,
    /// in which case they become ownerless.
    fn free(&mut self, uid: Uid, held_by_script: &impl Fn(Uid) -> bool) {
        if self.objects.get(&uid).is_some_and(|o| o.location.is_some()) {
            self.detach(uid);
        }
        self.ownerless.remove(&uid);
        let Some(object) = self.objects.remove(&uid) else {
            return;
        };
        // A handle may outlive its object (the editor frees what a script holds).
        self.base_changed(uid);
        let held_items = object
            .inventory
            .iter()
            .flat_map(|l| l.iter())
            .chain(object.equipment.iter().flat_map(|e| e.iter().map(|(_, u)| *u)));
        for item in held_items.collect::<Vec<_>>() {
            if let Some(child) = self.objects.get_mut(&item) {
                child.location = None;
                self.ownerless.insert(item);
                self.changed_field(item, None);
                if !self.is_pinned(item) && !held_by_script(item) {
                    self.free(item, held_by_script);
                }
            }
        }
        self.revision += 1;
    }

    /// Keeps an ownerless object alive for a Rust holder (editor undo history, clipboard).
    pub fn pin(&mut self, uid: Uid) -> Result<(), WorldError> {
        self.object_mut(uid)?.pins += 1;
        Ok(())
    }

    /// Releases a [`World::pin`].
    pub fn unpin(&mut self, uid: Uid) {
        if let Some(object) = self.objects.get_mut(&uid) {
            object.pins = object.pins.saturating_sub(1);
        }
    }

    /// How scripts see the object: `<object ('base.chara', uid 12) elona.putit>`.
    pub fn describe(&self, uid: Uid) -> String {
        match self.objects.get(&uid) {
            Some(o) => format!("<object ('{}', uid {}) {}>", o.kind.data_type(), uid, o.id),
            None => format!("<object (uid {uid}, freed)>"),
        }
    }

    /// Advances the clock by `seconds`; refused (and the clock unchanged) if the calendar
    /// would pass its last second.
    pub fn pass_time(&mut self, seconds: u64) -> Result<(), WorldError> {
        self.clock.seconds = self
            .clock
            .seconds
            .checked_add(seconds)
            .ok_or(WorldError::ClockOverflow { seconds, now: self.clock.seconds })?;
        self.revision += 1;
        Ok(())
    }

    /// What the world holds in Rust memory for its maps and objects, estimated from
    /// [`CELL_BYTES`] and [`OBJECT_BYTES`] (field values not included): what the memory
    /// limit counts besides the Lua heap.
    pub fn heap_estimate(&self) -> usize {
        self.cell_count() * CELL_BYTES + self.objects.len() * OBJECT_BYTES
    }

    /// Ends a game turn: counts it and advances the clock by [`TURN_SECONDS`]. Returns the
    /// number of turns played.
    pub fn end_turn(&mut self) -> u64 {
        self.turn = self.turn.saturating_add(1);
        // At the calendar's end the clock stays there.
        self.clock.seconds = self.clock.seconds.saturating_add(TURN_SECONDS);
        self.revision += 1;
        self.turn
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::data::OnDuplicate;
    use crate::moddable::Origin;

    /// A world with one 4×4 map of floor and a character prototype `t.putit`; no Lua.
    pub(crate) fn world_with_map() -> (World, MapId) {
        let mut data = DataRegistry::default();
        data.add_type("base.chara".into(), Vec::new(), Origin::tool("t"), OnDuplicate::Error).unwrap();
        data.add("base.chara".into(), "t.putit".into(), FieldMap::new(), Origin::tool("t"), OnDuplicate::Error)
            .unwrap();
        let mut world = World::new(data);
        let map = world.insert_map(InstancedMap::new(MapId(0), 4, 4, Symbol::intern("t.floor")));
        (world, map)
    }
}
