//! InstancedMap: a grid of tiles holding map objects, with sight and map memory.
//!
//! Cells are 0-based: x runs from 0 to width − 1, y from 0 to height − 1. Tiles are stored as
//! indices into a per-map palette of tile ids, so a map can hold tile ids the loaded mods do
//! not know (they are kept and shown as unknown). Objects are indexed by cell, so a query
//! costs the objects at that cell, not the map.

mod art_layers;
mod kept;
mod memory;
mod sight;

use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

pub use art_layers::{ArtLayer, ArtLayerEdit, ArtLayers, paint_label as art_paint_label};
pub use kept::KeptMap;
pub use memory::{CellMemory, MapMemory, ObjectMemory};
pub use sight::{Sight, compute_sight};

pub use crate::ids::MapId;
use crate::location::ObjectList;
use crate::object::{ObjectKind, Uid};
use crate::symbol::Symbol;

/// How a generated map was made. A map file keeps it, so the Maps pane can make the map again
/// after the generator's code changed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Generated {
    /// The `base.map_generator` prototype, such as `elona.cave`.
    pub generator: String,
    /// Its params, completed with the schema's defaults.
    pub params: crate::value::Value,
    /// The seed.
    pub seed: i64,
}

/// The largest width or height of a map, wherever it comes from (`InstancedMap:new`, a map
/// file, a save, the Maps pane).
pub const MAX_MAP_SIDE: i32 = 4096;

/// Checks a map size against [`MAX_MAP_SIDE`]; the message names the size.
pub fn check_map_size(width: i64, height: i64) -> Result<(), MapSizeError> {
    let side = 1..=i64::from(MAX_MAP_SIDE);
    if side.contains(&width) && side.contains(&height) { Ok(()) } else { Err(MapSizeError { width, height }) }
}

/// A map size [`check_map_size`] refused: a side below 1 or above [`MAX_MAP_SIDE`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("a map must be between 1x1 and {max}x{max} cells, not {width}x{height}", max = MAX_MAP_SIDE)]
pub struct MapSizeError {
    /// The width asked for.
    pub width: i64,
    /// The height asked for.
    pub height: i64,
}

/// Side of the square chunks the renderer caches; a tile change dirties one chunk.
pub const CHUNK_SIZE: i32 = 16;

/// A map: tiles, the objects on it, what the player sees and remembers.
#[derive(Clone, Debug)]
pub struct InstancedMap {
    /// Its id.
    pub uid: MapId,
    /// A name for people (the file stem for project maps).
    pub name: String,
    width: i32,
    height: i32,
    palette: Vec<Symbol>,
    tiles: Vec<u16>,
    objects: ObjectList,
    cells: Vec<SmallVec<[Uid; 1]>>,
    /// Where the player arrives when entering the map, if set.
    pub entrance: Option<(i32, i32)>,
    /// Cells the player sees now.
    pub sight: Sight,
    /// What the player remembers of each cell.
    pub memory: MapMemory,
    chunk_revisions: Vec<u64>,
    /// Per cell: grows whenever what is there changes (its tile, the objects on it, their
    /// fields), so map memory is rebuilt only for the cells that changed. Never 0.
    cell_revisions: Vec<u32>,
    /// Per cell: how many feats stand there (only feats can block sight besides tiles).
    feats: Vec<u16>,
    objects_revision: u64,
    tiles_revision: u64,
    /// The state hash's part for the tiles, with the tiles revision it was taken at (see
    /// [`InstancedMap::tiles_hash`]).
    tiles_hash: std::cell::Cell<(u64, u64)>,
    /// Objects of the map file whose prototype the loaded mods do not know: kept as written
    /// (with their place in the file's object list) so saving the map loses nothing.
    pub unresolved: Vec<crate::object_record::UnresolvedObject>,
    /// The palette codes of the map file it was read from, by tile: saving keeps them.
    pub codes: std::collections::BTreeMap<Symbol, String>,
    /// How it was generated, if a generator made it.
    pub generated: Option<std::sync::Arc<Generated>>,
    /// What the merge its file came from left for someone to pick (the map holds ours' side
    /// of each); written back until resolved.
    pub conflicts: std::sync::Arc<Vec<crate::conflict::Conflict>>,
    /// The map's own fields, with base and temp values as objects have (OpenNefia's
    /// `map.is_temporary`, `map.temp.x`); maps have no prototype.
    pub fields: crate::moddable::Moddable,
    /// The rules laid on it and the intent they paint from, if it is auto-tiled.
    pub autotile: Option<std::sync::Arc<crate::autotile::AutotileLayer>>,
    /// Its art layers, bottom first (see [`ArtLayer`]).
    art_layers: ArtLayers,
    art_revision: u64,
}

impl InstancedMap {
    /// A `width`×`height` map filled with `tile`.
    pub fn new(uid: MapId, width: i32, height: i32, tile: Symbol) -> InstancedMap {
        assert!(width > 0 && height > 0, "map size must be positive");
        let cells = (width * height) as usize;
        let chunks = (chunks_along(width) * chunks_along(height)) as usize;
        InstancedMap {
            uid,
            name: format!("map {uid}"),
            width,
            height,
            palette: vec![tile],
            tiles: vec![0; cells],
            objects: ObjectList::default(),
            cells: vec![SmallVec::new(); cells],
            entrance: None,
            sight: Sight::new(width, height),
            memory: MapMemory::new(width, height),
            chunk_revisions: vec![1; chunks],
            cell_revisions: vec![1; cells],
            feats: vec![0; cells],
            objects_revision: 1,
            tiles_revision: 1,
            tiles_hash: std::cell::Cell::new((0, 0)),
            unresolved: Vec::new(),
            codes: Default::default(),
            generated: None,
            conflicts: Default::default(),
            fields: Default::default(),
            autotile: None,
            art_layers: Vec::new(),
            art_revision: 1,
        }
    }

    /// Width in cells.
    pub fn width(&self) -> i32 {
        self.width
    }

    /// Height in cells.
    pub fn height(&self) -> i32 {
        self.height
    }

    /// True if (x, y) is a cell of this map.
    pub fn in_bounds(&self, x: i32, y: i32) -> bool {
        x >= 0 && y >= 0 && x < self.width && y < self.height
    }

    fn index(&self, x: i32, y: i32) -> usize {
        (y * self.width + x) as usize
    }

    /// The tile id at (x, y), or `None` out of bounds.
    pub fn tile(&self, x: i32, y: i32) -> Option<Symbol> {
        self.in_bounds(x, y).then(|| self.palette[self.tiles[self.index(x, y)] as usize])
    }

    /// The palette index of the tile at (x, y); see [`InstancedMap::palette`].
    pub fn tile_index(&self, x: i32, y: i32) -> u16 {
        self.tiles[self.index(x, y)]
    }

    /// The distinct tile ids this map uses, indexed by [`InstancedMap::tile_index`].
    pub fn palette(&self) -> &[Symbol] {
        &self.palette
    }

    /// Sets the tile at (x, y). Returns false out of bounds. The caller checks the id.
    pub fn set_tile(&mut self, x: i32, y: i32, tile: Symbol) -> bool {
        if !self.in_bounds(x, y) {
            return false;
        }
        let index = match self.palette.iter().position(|&t| t == tile) {
            Some(i) => i,
            None => {
                self.palette.push(tile);
                self.palette.len() - 1
            }
        };
        let cell = self.index(x, y);
        if self.tiles[cell] as usize != index {
            self.tiles[cell] = u16::try_from(index).expect("more than 65536 tile kinds on one map");
            let chunk = self.chunk_of(x, y);
            self.chunk_revisions[chunk] += 1;
            self.tiles_revision += 1;
            self.touch_cell(x, y);
        }
        true
    }

    /// `compute`'s hash of the tiles, computed again only when they changed: the state hash
    /// takes it every turn, and a map's tiles rarely change in play.
    pub(crate) fn tiles_hash(&self, compute: impl FnOnce(&InstancedMap) -> u64) -> u64 {
        let (revision, hash) = self.tiles_hash.get();
        if revision == self.tiles_revision {
            return hash;
        }
        let hash = compute(self);
        self.tiles_hash.set((self.tiles_revision, hash));
        hash
    }

    /// The tile ids of every cell, row by row.
    pub fn tile_ids(&self) -> Vec<Symbol> {
        self.tiles.iter().map(|&t| self.palette[t as usize]).collect()
    }

    /// Replaces the grid with `width`×`height` cells of `tiles` (row by row). Sight and
    /// memory start over, and the object index is emptied: the caller takes the objects off
    /// first and places them again.
    pub(crate) fn reshape(&mut self, width: i32, height: i32, tiles: &[Symbol]) {
        assert!(width > 0 && height > 0 && tiles.len() == (width * height) as usize, "a whole grid");
        let revision = self.chunk_revisions.iter().copied().max().unwrap_or(0) + 1;
        let mut palette: Vec<Symbol> = Vec::new();
        self.tiles = tiles
            .iter()
            .map(|tile| {
                let index = palette.iter().position(|t| t == tile).unwrap_or_else(|| {
                    palette.push(*tile);
                    palette.len() - 1
                });
                u16::try_from(index).expect("more than 65536 tile kinds on one map")
            })
            .collect();
        self.palette = palette;
        self.width = width;
        self.height = height;
        self.cells = vec![SmallVec::new(); (width * height) as usize];
        self.cell_revisions = vec![1; (width * height) as usize];
        self.feats = vec![0; (width * height) as usize];
        self.objects = ObjectList::default();
        self.sight = Sight::new(width, height);
        self.memory = MapMemory::new(width, height);
        self.chunk_revisions = vec![revision; (chunks_along(width) * chunks_along(height)) as usize];
        self.tiles_revision += 1;
        self.objects_revision += 1;
    }

    /// A counter that grows whenever the map's tiles, art layers, objects or the fields of its
    /// objects change: what "unsaved changes" compares against.
    pub fn content_revision(&self) -> u64 {
        self.tiles_revision + self.objects_revision + self.art_revision
    }

    /// The objects on this map in insertion order.
    pub fn objects(&self) -> &ObjectList {
        &self.objects
    }

    /// The objects at (x, y) in the order they arrived; empty out of bounds.
    pub fn objects_at(&self, x: i32, y: i32) -> &[Uid] {
        if self.in_bounds(x, y) { &self.cells[self.index(x, y)] } else { &[] }
    }

    pub(crate) fn add_to_index(&mut self, uid: Uid, kind: ObjectKind, x: i32, y: i32) -> u64 {
        let cell = self.index(x, y);
        self.cells[cell].push(uid);
        self.count_feat(cell, kind, true);
        self.touch_cell(x, y);
        self.objects_revision += 1;
        self.objects.push(uid)
    }

    pub(crate) fn remove_from_index(&mut self, uid: Uid, kind: ObjectKind, x: i32, y: i32, seq: u64) {
        let cell = self.index(x, y);
        self.cells[cell].retain(|u| *u != uid);
        self.count_feat(cell, kind, false);
        self.touch_cell(x, y);
        self.objects.remove(seq);
        self.objects_revision += 1;
    }

    pub(crate) fn move_in_index(&mut self, uid: Uid, kind: ObjectKind, (old_x, old_y): (i32, i32), x: i32, y: i32) {
        let old = self.index(old_x, old_y);
        self.cells[old].retain(|u| *u != uid);
        self.count_feat(old, kind, false);
        self.touch_cell(old_x, old_y);
        let new = self.index(x, y);
        self.cells[new].push(uid);
        self.count_feat(new, kind, true);
        self.touch_cell(x, y);
        self.objects_revision += 1;
    }

    fn count_feat(&mut self, cell: usize, kind: ObjectKind, arrived: bool) {
        if kind == ObjectKind::Feat {
            let count = &mut self.feats[cell];
            *count = if arrived { count.saturating_add(1) } else { count.saturating_sub(1) };
        }
    }

    /// How many feats the index counts at (x, y) (in bounds).
    pub(crate) fn feats_at(&self, x: i32, y: i32) -> usize {
        usize::from(self.feats[self.index(x, y)])
    }

    /// True if a feat stands at (x, y) (in bounds).
    pub fn has_feat(&self, x: i32, y: i32) -> bool {
        self.feats[self.index(x, y)] > 0
    }

    /// Marks what is at (x, y) as changed (an object arrived or left, or one there changed a
    /// field its memory shows), so its memory is taken again when it is next seen.
    pub fn touch_cell(&mut self, x: i32, y: i32) {
        if self.in_bounds(x, y) {
            let i = self.index(x, y);
            let revision = &mut self.cell_revisions[i];
            *revision = revision.checked_add(1).unwrap_or(1);
        }
    }

    /// The content revision of (x, y) (in bounds): see [`MapMemory::is_current`].
    pub fn cell_revision(&self, x: i32, y: i32) -> u32 {
        self.cell_revisions[self.index(x, y)]
    }

    /// Marks every chunk and the objects as changed, so views of the map are rebuilt (after
    /// the map was put back from a snapshot). The counters jump past any value they had.
    pub(crate) fn touch_all(&mut self) {
        let jump = 1 << 32;
        for revision in &mut self.chunk_revisions {
            *revision += jump;
        }
        self.memory.forget_revisions();
        self.objects_revision += jump;
        self.tiles_revision += jump;
        self.art_revision += jump;
    }

    /// Marks the objects as changed (a field the renderer reads changed).
    pub fn touch_objects(&mut self) {
        self.objects_revision += 1;
    }

    /// Number of chunks across and down.
    pub fn chunk_grid(&self) -> (i32, i32) {
        (chunks_along(self.width), chunks_along(self.height))
    }

    fn chunk_of(&self, x: i32, y: i32) -> usize {
        ((y / CHUNK_SIZE) * chunks_along(self.width) + x / CHUNK_SIZE) as usize
    }

    /// A counter that grows whenever a tile in chunk (cx, cy) changes.
    pub fn chunk_revision(&self, cx: i32, cy: i32) -> u64 {
        self.chunk_revisions[(cy * chunks_along(self.width) + cx) as usize]
    }

    /// A counter that grows whenever an object arrives, leaves or moves.
    pub fn objects_revision(&self) -> u64 {
        self.objects_revision
    }

    /// Checks the position index against the object list (for tests and debug checks):
    /// every listed object appears in exactly one cell, and nothing else does.
    /// `place_of` gives an object's position and kind; the feat counts are checked too.
    pub fn index_is_consistent(&self, place_of: impl Fn(Uid) -> Option<(i32, i32, ObjectKind)>) -> bool {
        let indexed: usize = self.cells.iter().map(|cell| cell.len()).sum();
        let feats_right = self.cells.iter().zip(&self.feats).all(|(cell, &count)| {
            let feats = cell.iter().filter(|&&uid| place_of(uid).is_some_and(|(.., kind)| kind == ObjectKind::Feat));
            feats.count() == usize::from(count)
        });
        indexed == self.objects.len()
            && feats_right
            && self.objects.iter().all(|uid| {
                place_of(uid).is_some_and(|(x, y, _)| self.objects_at(x, y).iter().filter(|&&u| u == uid).count() == 1)
            })
    }
}

fn chunks_along(cells: i32) -> i32 {
    (cells + CHUNK_SIZE - 1) / CHUNK_SIZE
}
