//! Map memory: what the player remembers of cells it has seen (drawn dimmed when out of
//! sight). Each remembered object is the data its `produce_memory()` gave when last seen.

use std::hash::{Hash, Hasher};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::object::{ObjectKind, Uid};
use crate::symbol::Symbol;

/// What `produce_memory()` gives the renderer for one object.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectMemory {
    /// The object remembered.
    pub uid: Uid,
    /// Its kind (the draw layer it belongs to).
    pub kind: ObjectKind,
    /// Its prototype id.
    pub id: Symbol,
    /// False hides the object from the map.
    pub show: bool,
    /// The character drawn for it.
    pub glyph: Symbol,
    /// Its colour, RGBA.
    pub color: [u8; 4],
    /// Its `image` (a file name, or a table the engine reads as art: see
    /// [`crate::art::parse`]) drawn instead of the glyph, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub image: Option<crate::value::Value>,
}

/// What the player remembers of one cell.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CellMemory {
    /// The tile seen there.
    pub tile: Symbol,
    /// The objects seen there, bottom first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub objects: Vec<ObjectMemory>,
}

/// Remembered cells of one map. A remembered cell is shared (not copied) by the kept
/// states that hold it, until it is remembered anew.
#[derive(Clone, Debug)]
pub struct MapMemory {
    width: i32,
    cells: Vec<Option<Arc<CellMemory>>>,
    /// Per cell: the map's content revision of the cell when it was remembered (0: not
    /// taken from sight since the map was last put back or loaded).
    revisions: Vec<u32>,
    /// The sum of the remembered cells' hashes, kept as cells change: the state hash reads
    /// it instead of walking every cell each turn.
    hash_sum: u64,
}

/// A remembered cell's part of [`MapMemory::hash`]: its place and what is remembered there,
/// with names hashed as text (the same on every run).
fn cell_hash(index: usize, cell: &CellMemory) -> u64 {
    let mut h = rustc_hash::FxHasher::default();
    (index, cell.tile.as_str()).hash(&mut h);
    for seen in &cell.objects {
        (seen.uid.0, seen.id.as_str(), seen.show, seen.glyph.as_str(), seen.color).hash(&mut h);
    }
    h.finish()
}

impl MapMemory {
    /// Nothing remembered on a `width`×`height` map.
    pub fn new(width: i32, height: i32) -> MapMemory {
        let cells = (width * height) as usize;
        MapMemory { width, cells: vec![None; cells], revisions: vec![0; cells], hash_sum: 0 }
    }

    fn index(&self, x: i32, y: i32) -> Option<usize> {
        let height = self.cells.len() as i32 / self.width;
        (x >= 0 && y >= 0 && x < self.width && y < height).then(|| (y * self.width + x) as usize)
    }

    /// What is remembered of (x, y).
    pub fn get(&self, x: i32, y: i32) -> Option<&CellMemory> {
        self.index(x, y).and_then(|i| self.cells[i].as_deref())
    }

    /// Remembers (x, y) as `memory`.
    pub fn set(&mut self, x: i32, y: i32, memory: CellMemory) {
        if let Some(i) = self.index(x, y) {
            self.remember(i, memory);
            self.revisions[i] = 0;
        }
    }

    /// Remembers (x, y) as `memory`, taken when the cell's content revision was `revision`.
    pub(crate) fn set_seen(&mut self, x: i32, y: i32, memory: CellMemory, revision: u32) {
        if let Some(i) = self.index(x, y) {
            self.remember(i, memory);
            self.revisions[i] = revision;
        }
    }

    fn remember(&mut self, i: usize, memory: CellMemory) {
        let added = cell_hash(i, &memory);
        match &mut self.cells[i] {
            Some(cell) => {
                self.hash_sum = self.hash_sum.wrapping_sub(cell_hash(i, cell));
                match Arc::get_mut(cell) {
                    Some(own) => *own = memory,
                    None => *cell = Arc::new(memory),
                }
            }
            empty => *empty = Some(Arc::new(memory)),
        }
        self.hash_sum = self.hash_sum.wrapping_add(added);
    }

    /// A hash of everything remembered, the same whatever order the cells were seen in.
    pub fn hash(&self) -> u64 {
        self.hash_sum
    }

    /// True if (x, y) was remembered from sight when its content revision was `revision`:
    /// seeing it again would remember the same.
    pub(crate) fn is_current(&self, x: i32, y: i32, revision: u32) -> bool {
        self.index(x, y).is_some_and(|i| self.revisions[i] == revision)
    }

    /// Takes every cell as changed since it was remembered (prototypes were reloaded, the map
    /// put back from a snapshot).
    pub(crate) fn forget_revisions(&mut self) {
        self.revisions.fill(0);
    }

    /// Every remembered cell as (x, y, memory), row by row.
    pub fn known_cells(&self) -> impl Iterator<Item = (i32, i32, &CellMemory)> {
        self.cells
            .iter()
            .enumerate()
            .filter_map(|(i, cell)| cell.as_deref().map(|m| (i as i32 % self.width, i as i32 / self.width, m)))
    }

    /// Forgets everything.
    pub fn clear(&mut self) {
        self.cells.iter_mut().for_each(|c| *c = None);
        self.hash_sum = 0;
    }

    /// The remembered cells alone, sharing them with this memory (for a kept state).
    pub(super) fn packed(&self) -> PackedMemory {
        let cells = self
            .cells
            .iter()
            .enumerate()
            .filter_map(|(i, cell)| Some((u32::try_from(i).ok()?, Arc::clone(cell.as_ref()?))))
            .collect();
        PackedMemory { width: self.width, len: self.cells.len(), cells, hash_sum: self.hash_sum }
    }

    /// The memory a [`MapMemory::packed`] was taken from, every cell taken as changed since
    /// it was remembered (see [`MapMemory::forget_revisions`]).
    pub(super) fn unpacked(packed: &PackedMemory) -> MapMemory {
        let mut cells = vec![None; packed.len];
        for (i, cell) in &packed.cells {
            cells[*i as usize] = Some(Arc::clone(cell));
        }
        MapMemory { width: packed.width, cells, revisions: vec![0; packed.len], hash_sum: packed.hash_sum }
    }
}

/// A [`MapMemory`] as a kept state holds it: only the remembered cells, by index.
#[derive(Clone, Debug)]
pub(super) struct PackedMemory {
    width: i32,
    len: usize,
    cells: Vec<(u32, Arc<CellMemory>)>,
    hash_sum: u64,
}

impl PackedMemory {
    /// How many cells are remembered.
    pub(super) fn remembered(&self) -> usize {
        self.cells.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(tile: &str) -> CellMemory {
        CellMemory { tile: Symbol::intern(tile), objects: Vec::new() }
    }

    #[test]
    fn the_hash_follows_what_is_remembered_whatever_the_order() {
        let (mut a, mut b) = (MapMemory::new(4, 4), MapMemory::new(4, 4));
        a.set(1, 1, cell("floor"));
        a.set(2, 3, cell("wall"));
        b.set(2, 3, cell("wall"));
        b.set(1, 1, cell("grass"));
        assert_ne!(a.hash(), b.hash());
        b.set(1, 1, cell("floor"));
        assert_eq!(a.hash(), b.hash(), "seen in another order, remembered the same");
        a.clear();
        assert_eq!(a.hash(), MapMemory::new(4, 4).hash());
    }

    #[test]
    fn packing_keeps_what_is_remembered_and_shares_it() {
        let mut memory = MapMemory::new(4, 4);
        memory.set(1, 2, cell("floor"));
        memory.set(3, 3, cell("wall"));
        let packed = memory.packed();
        assert_eq!(packed.remembered(), 2);
        memory.set(1, 2, cell("grass"));
        let back = MapMemory::unpacked(&packed);
        assert_eq!(back.get(1, 2), Some(&cell("floor")), "the kept cell did not follow the change");
        assert_eq!(back.get(3, 3), Some(&cell("wall")));
        assert_eq!(back.get(0, 0), None);
        assert!(!back.is_current(1, 2, 1), "a cell put back is taken as changed");
        let mut again = MapMemory::new(4, 4);
        again.set(1, 2, cell("floor"));
        again.set(3, 3, cell("wall"));
        assert_eq!(back.hash(), again.hash());
    }
}
