//! The world: every map object and map, the uid counter, the current map, the player and the
//! clock. It is plain Rust state with no Lua inside, so the inspector, the saver, property
//! tests and Lua all read one truth.

use std::collections::{BTreeMap, BTreeSet};

use rustc_hash::FxHashMap;

use crate::data::{DataError, DataRegistry, ProtoIdx};
use crate::location::{Location, ObjectList, Refusal};
use crate::map::{CellMemory, InstancedMap, MapId, ObjectMemory, Sight, compute_sight};
use crate::moddable::{FieldMap, ModError, ModMethod, Origin};
use crate::object::{Object, ObjectKind, Uid};
use crate::symbol::Symbol;
use crate::value::Value;

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
    Record(#[from] crate::validate::RecordError),
    /// Any other misuse, fully worded.
    #[error("{0}")]
    Invalid(String),
}

/// The in-game calendar: seconds since the start of year 0, twelve months of thirty days.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct Clock {
    /// Seconds since the epoch.
    pub seconds: u64,
}

/// A calendar date read from the [`Clock`] (`World.date()`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Date {
    /// Year.
    pub year: u64,
    /// Month, 1–12.
    pub month: u64,
    /// Day, 1–30.
    pub day: u64,
    /// Hour, 0–23.
    pub hour: u64,
    /// Minute, 0–59.
    pub minute: u64,
    /// Second, 0–59.
    pub second: u64,
}

impl Clock {
    const DAY: u64 = 24 * 3600;
    const MONTH: u64 = 30 * Clock::DAY;
    const YEAR: u64 = 12 * Clock::MONTH;

    /// The clock at a calendar date.
    pub fn at(year: u64, month: u64, day: u64, hour: u64) -> Clock {
        Clock { seconds: year * Self::YEAR + (month - 1) * Self::MONTH + (day - 1) * Self::DAY + hour * 3600 }
    }

    /// The calendar date.
    pub fn date(self) -> Date {
        let s = self.seconds;
        Date {
            year: s / Self::YEAR,
            month: s % Self::YEAR / Self::MONTH + 1,
            day: s % Self::MONTH / Self::DAY + 1,
            hour: s % Self::DAY / 3600,
            minute: s % 3600 / 60,
            second: s % 60,
        }
    }

    /// Whole hours since the epoch (the seed's `World.date():hours()`).
    pub fn hours(self) -> u64 {
        self.seconds / 3600
    }
}

impl Default for Clock {
    /// The 12th of the 8th month of 517, 16:00: where Elona's story begins.
    fn default() -> Clock {
        Clock::at(517, 8, 12, 16)
    }
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
    pub(crate) objects: FxHashMap<Uid, Object>,
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
}

const FIRST_SWEEP: usize = 1024;

/// Everything of a world but its data registry, set aside to be put back exactly: the edit
/// state while the game is played (see [`World::copy_state`]).
#[derive(Clone)]
pub struct WorldState {
    objects: FxHashMap<Uid, Object>,
    maps: BTreeMap<MapId, InstancedMap>,
    next_uid: u64,
    next_map_uid: u64,
    current_map: Option<MapId>,
    player: Option<Uid>,
    ownerless: BTreeSet<Uid>,
    clock: Clock,
    turn: u64,
    rng: fastrand::Rng,
}

impl World {
    /// An empty world over `data`.
    pub fn new(data: DataRegistry) -> World {
        World {
            data,
            objects: FxHashMap::default(),
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
        }
    }

    /// A copy of the game state (objects, maps, clock, turn, random numbers), to be put back
    /// with [`World::restore_state`].
    pub fn copy_state(&self) -> WorldState {
        WorldState {
            objects: self.objects.clone(),
            maps: self.maps.clone(),
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
    /// one before a command only when this is small (see `host.rs`).
    pub fn snapshot_size(&self) -> usize {
        self.objects.len() + self.maps.values().map(|m| m.width() as usize * m.height() as usize).sum::<usize>()
    }

    /// Puts back a [`World::copy_state`]. The data registry stays (prototypes reloaded since
    /// are kept), and uids and map ids keep counting up, so nothing made in between is ever
    /// confused with something put back.
    pub fn restore_state(&mut self, state: WorldState) {
        let (next_uid, next_map_uid) = (self.next_uid.max(state.next_uid), self.next_map_uid.max(state.next_map_uid));
        self.objects = state.objects;
        self.maps = state.maps;
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
        // Every map view is rebuilt: the restored maps' counters may equal the played ones'.
        for map in self.maps.values_mut() {
            map.touch_all();
        }
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
        let mut current = uid;
        loop {
            match self.objects.get(&current).and_then(|o| o.location) {
                Some(Location::Map(map)) => {
                    if let Some(map) = self.maps.get_mut(&map) {
                        map.touch_objects();
                    }
                    return;
                }
                Some(Location::Inventory(owner) | Location::Equipment(owner, _)) => current = owner,
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
    /// indices and revisions right.
    pub fn object_mut(&mut self, uid: Uid) -> Result<&mut Object, WorldError> {
        self.revision += 1;
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
        let proto = self.data.find(Symbol::intern(kind.data_type()), id)?;
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
    /// inventory if it is a character or a container, and equipment slots if a character.
    pub(crate) fn spawn(&mut self, uid: Uid, proto: ProtoIdx) {
        let prototype = self.data.proto(proto);
        let kind = ObjectKind::from_data_type(prototype.data_type.as_str())
            .expect("object prototypes belong to an object data type");
        let is_container = prototype.fields.get(Symbol::intern("is_container")).is_some_and(|v| !v.is_falsy());
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
            equipment: (kind == ObjectKind::Chara).then(FieldMap::new),
            pins: 0,
        };
        self.objects.insert(uid, object);
        self.ownerless.insert(uid);
        self.revision += 1;
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
        let held_items = object
            .inventory
            .iter()
            .flat_map(|l| l.iter())
            .chain(object.equipment.iter().flat_map(|e| e.iter().map(|(_, u)| *u)));
        for item in held_items.collect::<Vec<_>>() {
            if let Some(child) = self.objects.get_mut(&item) {
                child.location = None;
                self.ownerless.insert(item);
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

    // ---- fields (IModdable) --------------------------------------------------------------

    /// The prototype fields behind object `uid`.
    pub fn proto_fields(&self, uid: Uid) -> Result<&FieldMap, WorldError> {
        Ok(&self.data.proto(self.object(uid)?.proto).fields)
    }

    /// Temp if set, else base, else nil (seed: `calc`).
    pub fn calc(&self, uid: Uid, field: Symbol) -> Option<&Value> {
        let object = self.objects.get(&uid)?;
        object.fields.calc(field, &self.data.proto(object.proto).fields)
    }

    /// The base value: the object's own, else its prototype's (seed: `obj.field`).
    pub fn base(&self, uid: Uid, field: Symbol) -> Option<&Value> {
        let object = self.objects.get(&uid)?;
        object.fields.base(field, &self.data.proto(object.proto).fields)
    }

    /// Sets a base value (seed: `obj.field = v`).
    pub fn set_base(&mut self, uid: Uid, field: Symbol, value: Value) -> Result<(), WorldError> {
        let object = self.objects.get_mut(&uid).ok_or(WorldError::NoSuchObject(uid))?;
        object.fields.set_base(field, value, &self.data.proto(object.proto).fields);
        self.touch_object(uid);
        self.revision += 1;
        Ok(())
    }

    /// Modifies a temp value (seed: `mod`).
    pub fn mod_temp(
        &mut self,
        uid: Uid,
        field: Symbol,
        value: Value,
        method: ModMethod,
        origin: Origin,
    ) -> Result<(), WorldError> {
        let object = self.objects.get_mut(&uid).ok_or(WorldError::NoSuchObject(uid))?;
        object.fields.mod_temp(field, value, method, origin, &self.data.proto(object.proto).fields)?;
        self.touch_object(uid);
        self.revision += 1;
        Ok(())
    }

    /// Modifies a base value (seed: `mod_base`).
    pub fn mod_base(&mut self, uid: Uid, field: Symbol, value: Value, method: ModMethod) -> Result<(), WorldError> {
        let object = self.objects.get_mut(&uid).ok_or(WorldError::NoSuchObject(uid))?;
        object.fields.mod_base(field, value, method, &self.data.proto(object.proto).fields)?;
        self.touch_object(uid);
        self.revision += 1;
        Ok(())
    }

    /// Clears a temp value and sets the base value (seed: `reset`).
    pub fn reset(&mut self, uid: Uid, field: Symbol, value: Value) -> Result<(), WorldError> {
        let object = self.objects.get_mut(&uid).ok_or(WorldError::NoSuchObject(uid))?;
        object.fields.reset(field, value, &self.data.proto(object.proto).fields);
        self.touch_object(uid);
        self.revision += 1;
        Ok(())
    }

    /// Forgets the object's own base value so the prototype's shows again.
    pub fn reset_to_prototype(&mut self, uid: Uid, field: Symbol) -> Result<(), WorldError> {
        self.object_mut(uid)?.fields.reset_to_prototype(field);
        self.touch_object(uid);
        Ok(())
    }

    /// Clears every temp value (the first half of `refresh`; the Lua API then emits the
    /// refresh event so handlers re-apply theirs).
    pub fn clear_temp(&mut self, uid: Uid) -> Result<(), WorldError> {
        self.object_mut(uid)?.fields.clear_temp();
        self.touch_object(uid);
        Ok(())
    }

    /// What the renderer needs to draw the object (seed: `produce_memory`).
    pub fn produce_memory(&self, uid: Uid) -> Result<ObjectMemory, WorldError> {
        let object = self.object(uid)?;
        let calc = |name: &str| self.calc(uid, Symbol::intern(name));
        Ok(ObjectMemory {
            uid,
            kind: object.kind,
            id: object.id,
            show: !matches!(calc("show"), Some(Value::Bool(false))),
            glyph: calc("glyph").and_then(Value::as_str).map_or(Symbol::intern("?"), Symbol::intern),
            color: calc("color").and_then(parse_color).unwrap_or([255, 255, 255, 255]),
            image: calc("image").and_then(Value::as_str).map(Symbol::intern),
        })
    }

    // ---- maps ------------------------------------------------------------------------------

    /// Makes a `width`×`height` map filled with `tile` (or the default floor).
    pub fn create_map(&mut self, width: i32, height: i32, tile: Option<&str>) -> Result<MapId, WorldError> {
        crate::validate::check_map_size(width.into(), height.into()).map_err(WorldError::Invalid)?;
        let tile = match tile {
            Some(id) => self.tile_id(id)?,
            None => self.default_floor()?,
        };
        let uid = MapId(self.next_map_uid);
        self.next_map_uid += 1;
        self.maps.insert(uid, InstancedMap::new(uid, width, height, tile));
        self.revision += 1;
        Ok(uid)
    }

    /// Adds a map built elsewhere (a map file), giving it a fresh id.
    pub fn insert_map(&mut self, mut map: InstancedMap) -> MapId {
        let uid = MapId(self.next_map_uid);
        self.next_map_uid += 1;
        map.uid = uid;
        self.maps.insert(uid, map);
        self.revision += 1;
        uid
    }

    /// Removes a map; its objects become ownerless (and are freed by the next sweep unless
    /// something holds them).
    pub fn remove_map(&mut self, id: MapId) -> Result<(), WorldError> {
        let objects = self.iter_location(crate::location::Holder::Map(id))?;
        for uid in objects {
            self.detach(uid);
        }
        self.maps.remove(&id);
        if self.current_map == Some(id) {
            self.current_map = None;
        }
        Ok(())
    }

    /// Checks a tile id against `base.map_tile`.
    pub fn tile_id(&self, id: &str) -> Result<Symbol, WorldError> {
        let proto = self.data.find(Symbol::intern("base.map_tile"), id)?;
        Ok(self.data.proto(proto).id)
    }

    /// The first tile that does not block movement: what new maps are filled with.
    pub fn default_floor(&self) -> Result<Symbol, WorldError> {
        self.data
            .entries("base.map_tile")
            .find(|t| t.fields.get(Symbol::intern("is_solid")).is_none_or(Value::is_falsy))
            .map(|t| t.id)
            .ok_or_else(|| WorldError::Invalid("no walkable base.map_tile is defined by the loaded mods".into()))
    }

    /// Whether a tile blocks movement and sight.
    pub fn tile_flags(&self, tile: Symbol) -> TileFlags {
        let Ok(proto) = self.data.find(Symbol::intern("base.map_tile"), tile.as_str()) else {
            return TileFlags { solid: true, opaque: false, known: false };
        };
        let fields = &self.data.proto(proto).fields;
        let flag = |name: &str| fields.get(Symbol::intern(name)).is_some_and(|v| !v.is_falsy());
        TileFlags { solid: flag("is_solid"), opaque: flag("is_opaque"), known: true }
    }

    /// The map `id`.
    pub fn map(&self, id: MapId) -> Result<&InstancedMap, WorldError> {
        self.maps.get(&id).ok_or(WorldError::NoSuchMap(id))
    }

    /// The map `id`, mutably.
    pub fn map_mut(&mut self, id: MapId) -> Result<&mut InstancedMap, WorldError> {
        self.revision += 1;
        self.maps.get_mut(&id).ok_or(WorldError::NoSuchMap(id))
    }

    /// Every map, by id.
    pub fn maps(&self) -> impl Iterator<Item = &InstancedMap> {
        self.maps.values()
    }

    /// Sets the tile at (x, y) of `map`, checking the tile id.
    pub fn set_tile(&mut self, map: MapId, x: i32, y: i32, tile: &str) -> Result<(), WorldError> {
        let tile = self.tile_id(tile)?;
        let map = self.map_mut(map)?;
        if !map.set_tile(x, y, tile) {
            let (width, height) = (map.width(), map.height());
            return Err(Refusal::OutOfBounds { x, y, width, height }.into());
        }
        Ok(())
    }

    /// The current map (seed: `Map.current()`).
    pub fn current_map(&self) -> Option<MapId> {
        self.current_map
    }

    /// Makes `map` current (seed: `Map.set_map`).
    pub fn set_current_map(&mut self, map: MapId) -> Result<(), WorldError> {
        self.map(map)?;
        self.current_map = Some(map);
        self.revision += 1;
        Ok(())
    }

    /// The player character, if one is set.
    pub fn player(&self) -> Option<Uid> {
        self.player.filter(|uid| self.objects.contains_key(uid))
    }

    /// Makes `uid` the player (seed: `Chara.set_player`).
    pub fn set_player(&mut self, uid: Uid) -> Result<(), WorldError> {
        if self.object(uid)?.kind != ObjectKind::Chara {
            return Err(WorldError::Invalid(format!("only a character can be the player, not {}", self.describe(uid))));
        }
        self.player = Some(uid);
        self.revision += 1;
        Ok(())
    }

    /// The map `uid` is on, directly (seed: `current_map()`).
    pub fn map_of(&self, uid: Uid) -> Option<MapId> {
        match self.objects.get(&uid)?.location? {
            Location::Map(map) => Some(map),
            _ => None,
        }
    }

    /// True if an object of `kind` may stand on (x, y): in bounds, not a solid tile, no solid
    /// feat, and for characters no other character.
    pub fn is_open(&self, map: MapId, x: i32, y: i32, kind: ObjectKind) -> bool {
        let Ok(m) = self.map(map) else { return false };
        let Some(tile) = m.tile(x, y) else {
            return false;
        };
        if self.tile_flags(tile).solid {
            return false;
        }
        m.objects_at(x, y).iter().all(|&uid| {
            let Some(other) = self.objects.get(&uid) else {
                return true;
            };
            match other.kind {
                ObjectKind::Chara => kind != ObjectKind::Chara,
                ObjectKind::Feat => self.calc(uid, Symbol::intern("is_solid")).is_none_or(Value::is_falsy),
                ObjectKind::Item => true,
            }
        })
    }

    /// A random open cell for an object of `kind` (see [`World::is_open`]).
    pub fn random_open_position(&mut self, map: MapId, kind: ObjectKind) -> Result<(i32, i32), WorldError> {
        let (width, height) = {
            let m = self.map(map)?;
            (m.width(), m.height())
        };
        for _ in 0..64 {
            let (x, y) = (self.rng.i32(0..width), self.rng.i32(0..height));
            if self.is_open(map, x, y, kind) {
                return Ok((x, y));
            }
        }
        let open: Vec<(i32, i32)> = (0..height)
            .flat_map(|y| (0..width).map(move |x| (x, y)))
            .filter(|&(x, y)| self.is_open(map, x, y, kind))
            .collect();
        if open.is_empty() {
            return Err(WorldError::NoOpenPosition { map: self.map(map)?.name.clone(), kind: kind.noun() });
        }
        Ok(open[self.rng.usize(0..open.len())])
    }

    /// Recomputes what the player sees on its map from `calc("fov")` (15 when unset) and
    /// updates the map memory of the cells in sight. Does nothing without a player on a map.
    pub fn refresh_sight(&mut self) {
        let Some(player) = self.player() else { return };
        let Some(map) = self.map_of(player) else {
            return;
        };
        let radius = match self.calc(player, Symbol::intern("fov")).cloned() {
            Some(Value::Int(fov)) => i32::try_from(fov.clamp(0, MAX_SIGHT.into())).unwrap_or(MAX_SIGHT),
            // A float rounds down; `as` saturates, and the clamp keeps it in range.
            Some(Value::Float(fov)) if !fov.is_nan() => (fov.floor() as i32).clamp(0, MAX_SIGHT),
            _ => 15,
        };
        let (x, y) = (self.objects[&player].x, self.objects[&player].y);
        self.calc_screen_sight(map, x, y, radius).expect("the player's map exists");
    }

    /// Computes what is seen from (x, y) of `map` within `radius` (clamped to 0 ..=
    /// [`MAX_SIGHT`]: a larger one sees no more of any map), and remembers the cells in sight
    /// with the tile and the objects' `produce_memory()`.
    pub fn calc_screen_sight(&mut self, map_id: MapId, x: i32, y: i32, radius: i32) -> Result<(), WorldError> {
        let radius = radius.clamp(0, MAX_SIGHT);
        let map = self.map(map_id)?;
        let opaque_tiles: Vec<bool> = map.palette().iter().map(|&t| self.tile_flags(t).opaque).collect();
        let is_opaque = Symbol::intern("is_opaque");
        let mut sight = std::mem::replace(&mut self.map_mut(map_id)?.sight, Sight::new(0, 0));
        let map = &self.maps[&map_id];
        compute_sight(&mut sight, x, y, radius, |cx, cy| {
            opaque_tiles[map.tile_index(cx, cy) as usize]
                || map.objects_at(cx, cy).iter().any(|&uid| {
                    self.objects[&uid].kind == ObjectKind::Feat
                        && self.calc(uid, is_opaque).is_some_and(|v| !v.is_falsy())
                })
        });
        let seen: Vec<(i32, i32, CellMemory)> = sight
            .visible_cells()
            .map(|(cx, cy)| {
                let mut objects: Vec<ObjectMemory> =
                    map.objects_at(cx, cy).iter().filter_map(|&uid| self.produce_memory(uid).ok()).collect();
                objects.sort_by_key(|m| ObjectKind::ALL.iter().position(|&k| k == m.kind));
                (cx, cy, CellMemory { tile: map.tile(cx, cy).expect("in bounds"), objects })
            })
            .collect();
        let map = self.maps.get_mut(&map_id).expect("checked above");
        map.sight = sight;
        for (cx, cy, memory) in seen {
            map.memory.set(cx, cy, memory);
        }
        Ok(())
    }

    /// Checks the bookkeeping that ties objects to locations: every map's position index
    /// matches its objects' positions, every object listed by a location points back to it,
    /// no object is listed twice, and the ownerless set is exactly the objects with no
    /// location. Returns the first inconsistency found. Used by tests and debug tools.
    pub fn check_invariants(&self) -> Result<(), String> {
        let mut listed: FxHashMap<Uid, Location> = FxHashMap::default();
        let mut list = |uid: Uid, location: Location| match listed.insert(uid, location) {
            Some(other) => Err(format!("uid {uid} is listed by both {other} and {location}")),
            None => Ok(()),
        };
        for map in self.maps.values() {
            if !map.index_is_consistent(|uid| self.objects.get(&uid).map(|o| (o.x, o.y))) {
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
        for (uid, object) in &self.objects {
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

    /// Advances the clock by `seconds`; refused (and the clock unchanged) if the calendar
    /// would pass its last second.
    pub fn pass_time(&mut self, seconds: u64) -> Result<(), WorldError> {
        self.clock.seconds = self.clock.seconds.checked_add(seconds).ok_or_else(|| {
            WorldError::Invalid(format!(
                "passing {seconds} seconds would run the clock past its end (it is at {} seconds)",
                self.clock.seconds
            ))
        })?;
        self.revision += 1;
        Ok(())
    }

    /// What the world holds in Rust memory for its maps and objects, estimated from
    /// [`CELL_BYTES`] and [`OBJECT_BYTES`] (field values not included): what the memory
    /// limit counts besides the Lua heap.
    pub fn heap_estimate(&self) -> usize {
        let cells: usize = self.maps.values().map(|m| m.width() as usize * m.height() as usize).sum();
        cells * CELL_BYTES + self.objects.len() * OBJECT_BYTES
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

/// The largest sight radius: the diagonal of the largest map, so a larger `fov` sees no
/// more and the sight computation cannot overflow.
pub const MAX_SIGHT: i32 = 2 * crate::validate::MAX_MAP_SIDE;

/// How many bytes of Rust memory one map cell costs (tile, object index, memory, sight):
/// what the memory limit counts for maps made for Lua.
pub const CELL_BYTES: usize = size_of::<u16>()
    + size_of::<Vec<Uid>>()
    + size_of::<Option<Box<CellMemory>>>()
    + size_of::<bool>()
    + size_of::<u32>();

/// What one object costs in Rust memory besides its fields' values, for the memory limit.
pub const OBJECT_BYTES: usize = size_of::<Object>() + 64;

/// In-game seconds a turn takes.
pub const TURN_SECONDS: u64 = 60;

/// Reads a colour field: `{r, g, b}`, `{r, g, b, a}` (0–255) or `"#rrggbb"` / `"#rrggbbaa"`.
pub fn parse_color(value: &Value) -> Option<[u8; 4]> {
    match value {
        Value::List(items) if items.len() == 3 || items.len() == 4 => {
            let mut rgba = [255u8; 4];
            for (slot, item) in rgba.iter_mut().zip(items.iter()) {
                *slot = item.as_i64()?.clamp(0, 255) as u8;
            }
            Some(rgba)
        }
        Value::Str(s) => {
            let hex = s.strip_prefix('#')?;
            if !(hex.len() == 6 || hex.len() == 8) || !hex.is_ascii() {
                return None;
            }
            let mut rgba = [255u8; 4];
            for (i, slot) in rgba.iter_mut().enumerate().take(hex.len() / 2) {
                *slot = u8::from_str_radix(&hex[i * 2..i * 2 + 2], 16).ok()?;
            }
            Some(rgba)
        }
        _ => None,
    }
}
