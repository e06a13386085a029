//! The world's maps: making and removing them, tiles, the current map and the player, open
//! cells, and what the player sees (sight and map memory).

use super::fields::MemoryFields;
use super::{TileFlags, World, WorldError};
use crate::location::{Location, Refusal};
use crate::map::{CellMemory, InstancedMap, MapId, ObjectMemory, Sight, compute_sight};
use crate::moddable::FieldMap;
use crate::object::{Object, ObjectKind, Uid};
use crate::symbol::Symbol;
use crate::value::Value;

/// The largest sight radius: the diagonal of the largest map, so a larger `fov` sees no
/// more and the sight computation cannot overflow.
pub const MAX_SIGHT: i32 = 2 * crate::map::MAX_MAP_SIDE;

/// How many bytes of Rust memory one map cell costs (tile, object index, memory, sight):
/// what the memory limit counts for maps made for Lua.
pub const CELL_BYTES: usize = size_of::<u16>()
    + size_of::<Vec<Uid>>()
    + size_of::<Option<Box<CellMemory>>>()
    + size_of::<bool>()
    + size_of::<u32>();

/// What one object costs in Rust memory besides its fields' values, for the memory limit.
pub const OBJECT_BYTES: usize = size_of::<Object>() + 64;

/// The data type of map tiles.
pub const MAP_TILE: &str = "base.map_tile";

impl World {
    /// Makes a `width`×`height` map filled with `tile` (or the default floor).
    pub fn create_map(&mut self, width: i32, height: i32, tile: Option<&str>) -> Result<MapId, WorldError> {
        crate::map::check_map_size(width.into(), height.into()).map_err(WorldError::MapSize)?;
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
        let proto = self.data.find(Symbol::intern(MAP_TILE), id)?;
        Ok(self.data.proto(proto).id)
    }

    /// The fields of `tile`'s `base.map_tile` prototype; none if no loaded mod defines it.
    pub fn tile_fields(&self, tile: Symbol) -> Option<&FieldMap> {
        let proto = self.data.find_symbol(Symbol::intern(MAP_TILE), tile).ok()?;
        Some(&self.data.proto(proto).fields)
    }

    /// The first tile that does not block movement: what new maps are filled with.
    pub fn default_floor(&self) -> Result<Symbol, WorldError> {
        self.data
            .entries(MAP_TILE)
            .find(|t| t.fields.get(Symbol::intern("is_solid")).is_none_or(Value::is_falsy))
            .map(|t| t.id)
            .ok_or(WorldError::NoWalkableTile)
    }

    /// Whether a tile blocks movement and sight.
    pub fn tile_flags(&self, tile: Symbol) -> TileFlags {
        let Some(fields) = self.tile_fields(tile) else {
            return TileFlags { solid: true, opaque: false, known: false };
        };
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

    /// Changes the own fields of map `map` (base and temp values, as an object's, with no
    /// prototype behind them), marking the map changed.
    pub fn change_map_fields(
        &mut self,
        map: MapId,
        change: impl FnOnce(&mut crate::moddable::Moddable, &FieldMap) -> Result<(), crate::moddable::ModError>,
    ) -> Result<(), WorldError> {
        let instance = self.map_mut(map)?;
        change(&mut instance.fields, &FieldMap::new())?;
        // A map file writes its fields: the map has unsaved changes.
        instance.touch_objects();
        self.revision += 1;
        Ok(())
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

    /// Sets every cell of `map` to `tile`; the objects stay (OpenNefia's `map:clear`).
    pub fn clear_map(&mut self, map: MapId, tile: &str) -> Result<(), WorldError> {
        let tile = self.tile_id(tile)?;
        let map = self.map_mut(map)?;
        for y in 0..map.height() {
            for x in 0..map.width() {
                map.set_tile(x, y, tile);
            }
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
            return Err(WorldError::NotACharacter(self.describe(uid)));
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
                ObjectKind::Mef => kind != ObjectKind::Mef,
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

    /// The open cell for an object of `kind` nearest to (x, y) (see [`World::is_open`]):
    /// (x, y) itself if it is open, else the first open cell of the smallest square ring
    /// around it (its top and bottom rows, then its sides).
    pub fn nearest_open_position(
        &self,
        map: MapId,
        x: i32,
        y: i32,
        kind: ObjectKind,
    ) -> Result<(i32, i32), WorldError> {
        let m = self.map(map)?;
        let open = |(cx, cy): (i32, i32)| m.in_bounds(cx, cy) && self.is_open(map, cx, cy, kind);
        for radius in 0..=m.width().max(m.height()) {
            let (top, bottom) = (y.saturating_sub(radius), y.saturating_add(radius));
            let (left, right) = (x.saturating_sub(radius), x.saturating_add(radius));
            let rows = (left..=right).flat_map(|cx| [(cx, top), (cx, bottom)]);
            let sides = (top.saturating_add(1)..bottom).flat_map(|cy| [(left, cy), (right, cy)]);
            if let Some(cell) = rows.chain(sides).find(|&cell| open(cell)) {
                return Ok(cell);
            }
        }
        Err(WorldError::NoOpenPosition { map: m.name.clone(), kind: kind.noun() })
    }

    /// Recomputes what the player sees on its map from `calc("fov")` (15 when unset) and
    /// updates the map memory of the cells in sight. Does nothing without a player on a map.
    pub fn refresh_sight(&mut self) {
        if let Some(map) = self.look_from_player() {
            self.remember_sight(map);
        }
    }

    /// Recomputes what the player sees, leaving map memory as it is: a loaded game shows
    /// its sight and shadow at once, and what it remembers stays as it was saved until the
    /// next turn looks.
    pub fn refresh_sight_only(&mut self) {
        self.look_from_player();
    }

    /// Computes the player's sight on its map; returns the map.
    fn look_from_player(&mut self) -> Option<MapId> {
        let player = self.player()?;
        let map = self.map_of(player)?;
        let radius = match self.calc(player, Symbol::intern("fov")).cloned() {
            Some(Value::Int(fov)) => i32::try_from(fov.clamp(0, MAX_SIGHT.into())).unwrap_or(MAX_SIGHT),
            // A float rounds down; `as` saturates, and the clamp keeps it in range.
            Some(Value::Float(fov)) if !fov.is_nan() => (fov.floor() as i32).clamp(0, MAX_SIGHT),
            _ => 15,
        };
        let (x, y) = (self.objects[&player].x, self.objects[&player].y);
        self.compute_sight(map, x, y, radius).expect("the player's map exists");
        Some(map)
    }

    /// Computes what is seen from (x, y) of `map` within `radius` (clamped to 0 ..=
    /// [`MAX_SIGHT`]: a larger one sees no more of any map), and remembers the cells in sight
    /// with the tile and the objects' `produce_memory()`. Only tiles and feats block sight,
    /// so a cell without a feat costs one look at its tile; a cell seen before is remembered
    /// again only if what is there changed since.
    pub fn calc_screen_sight(&mut self, map_id: MapId, x: i32, y: i32, radius: i32) -> Result<(), WorldError> {
        self.compute_sight(map_id, x, y, radius)?;
        self.remember_sight(map_id);
        Ok(())
    }

    /// Computes what is seen from (x, y) of `map` into its [`Sight`].
    fn compute_sight(&mut self, map_id: MapId, x: i32, y: i32, radius: i32) -> Result<(), WorldError> {
        let radius = radius.clamp(0, MAX_SIGHT);
        let map = self.map(map_id)?;
        let opaque_tiles: Vec<bool> = map.palette().iter().map(|&t| self.tile_flags(t).opaque).collect();
        let is_opaque = Symbol::intern("is_opaque");
        let mut sight = std::mem::replace(&mut self.map_mut(map_id)?.sight, Sight::new(0, 0));
        let map = &self.maps[&map_id];
        compute_sight(&mut sight, x, y, radius, |cx, cy| {
            opaque_tiles[map.tile_index(cx, cy) as usize]
                || map.has_feat(cx, cy)
                    && map.objects_at(cx, cy).iter().any(|&uid| {
                        self.objects[&uid].kind == ObjectKind::Feat
                            && self.calc(uid, is_opaque).is_some_and(|v| !v.is_falsy())
                    })
        });
        self.maps.get_mut(&map_id).expect("checked above").sight = sight;
        Ok(())
    }

    /// Remembers the cells of `map` in sight whose content changed since they were last
    /// remembered.
    fn remember_sight(&mut self, map_id: MapId) {
        let Some(map) = self.maps.get(&map_id) else { return };
        let names = MemoryFields::get();
        let seen: Vec<(i32, i32, u32, CellMemory)> = map
            .sight
            .visible_cells()
            .filter_map(|(cx, cy)| {
                let revision = map.cell_revision(cx, cy);
                if map.memory.is_current(cx, cy, revision) {
                    return None;
                }
                let mut objects: Vec<ObjectMemory> =
                    map.objects_at(cx, cy).iter().filter_map(|&uid| self.memory_of(uid, &names)).collect();
                objects.sort_by_key(|m| m.kind.draw_order());
                Some((cx, cy, revision, CellMemory { tile: map.tile(cx, cy).expect("in bounds"), objects }))
            })
            .collect();
        let map = self.maps.get_mut(&map_id).expect("checked above");
        for (cx, cy, revision, memory) in seen {
            map.memory.set_seen(cx, cy, memory, revision);
        }
    }

    /// Forgets that remembered cells are up to date: the prototypes behind what they show
    /// were reloaded, so the next sight remembers them again.
    pub fn prototypes_changed(&mut self) {
        self.revision += 1;
        for map in self.maps.values_mut() {
            map.memory.forget_revisions();
        }
    }
}
