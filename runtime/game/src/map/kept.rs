//! A map as a kept state holds it (stepping back, the edit state while playing, recovery
//! from a panic): everything the game can observe, with the per-cell arrays that follow from
//! the rest packed down to the cells that hold something.
//!
//! A dense copy of a 200×200 map is about 2 MB, most of it the per-cell object lists,
//! revisions and sight, though a few hundred cells hold anything; stepping back keeps a copy
//! every few turns, so those megabytes were most of what recording a session cost. Packed,
//! a copy costs what is on the map and what the player remembers, and remembered cells are
//! shared with the live map rather than copied.

use super::memory::MapMemory;
use super::memory::PackedMemory;
use super::{InstancedMap, Symbol, Uid};
use crate::ids::MapId;
use crate::location::ObjectList;

/// A map packed for a kept state; [`KeptMap::unpacked`] gives the map back.
#[derive(Clone, Debug)]
pub struct KeptMap {
    /// The map with its per-cell object lists, feat counts, content revisions, sight grid and
    /// memory left empty: never handed out, since its cell queries would find nothing.
    map: InstancedMap,
    /// The objects of every cell that has any, as (cell, uid), cell by cell in arrival order.
    occupants: Vec<(u32, Uid)>,
    /// The feat count of every cell that has a feat.
    feats: Vec<(u32, u16)>,
    memory: PackedMemory,
}

impl InstancedMap {
    /// This map packed for a kept state.
    pub(crate) fn kept(&self) -> KeptMap {
        let index = |i: usize| u32::try_from(i).unwrap_or(u32::MAX);
        let occupants = self
            .cells
            .iter()
            .enumerate()
            .filter(|(_, cell)| !cell.is_empty())
            .flat_map(|(i, cell)| cell.iter().map(move |&uid| (index(i), uid)))
            .collect();
        let feats = self.feats.iter().enumerate().filter(|(_, n)| **n > 0).map(|(i, &n)| (index(i), n)).collect();
        let map = InstancedMap {
            name: self.name.clone(),
            palette: self.palette.clone(),
            tiles: self.tiles.clone(),
            objects: self.objects.clone(),
            cells: Vec::new(),
            sight: self.sight.packed(),
            memory: MapMemory::new(1, 1),
            chunk_revisions: self.chunk_revisions.clone(),
            cell_revisions: Vec::new(),
            feats: Vec::new(),
            tiles_hash: self.tiles_hash.clone(),
            unresolved: self.unresolved.clone(),
            codes: self.codes.clone(),
            generated: self.generated.clone(),
            conflicts: self.conflicts.clone(),
            fields: self.fields.clone(),
            autotile: self.autotile.clone(),
            art_layers: self.art_layers.clone(),
            ..*self
        };
        KeptMap { map, occupants, feats, memory: self.memory.packed() }
    }
}

impl KeptMap {
    /// The map again, whole. Every cell's content revision starts over and its memory is
    /// taken as changed since it was remembered, so sight takes it again.
    pub(crate) fn unpacked(self) -> InstancedMap {
        let cells = self.map.tiles.len();
        let mut map = InstancedMap {
            cells: vec![smallvec::SmallVec::new(); cells],
            cell_revisions: vec![1; cells],
            feats: vec![0; cells],
            sight: self.map.sight.unpacked(),
            memory: MapMemory::unpacked(&self.memory),
            ..self.map
        };
        for &(i, uid) in &self.occupants {
            map.cells[i as usize].push(uid);
        }
        for &(i, n) in &self.feats {
            map.feats[i as usize] = n;
        }
        map
    }

    /// The map's id.
    pub fn uid(&self) -> MapId {
        self.map.uid
    }

    /// Width in cells.
    pub fn width(&self) -> i32 {
        self.map.width
    }

    /// Height in cells.
    pub fn height(&self) -> i32 {
        self.map.height
    }

    /// Where the player arrives, if set.
    pub fn entrance(&self) -> Option<(i32, i32)> {
        self.map.entrance
    }

    /// The auto-tiling laid on it, if any.
    pub fn autotile(&self) -> Option<&std::sync::Arc<crate::autotile::AutotileLayer>> {
        self.map.autotile.as_ref()
    }

    /// Its art layers, bottom first.
    pub fn art_layers(&self) -> &super::ArtLayers {
        &self.map.art_layers
    }

    /// The tile ids of every cell, row by row.
    pub fn tile_ids(&self) -> Vec<Symbol> {
        self.map.tile_ids()
    }

    /// The objects on the map in insertion order.
    pub fn objects(&self) -> &ObjectList {
        &self.map.objects
    }

    /// About how many bytes the kept map holds.
    pub fn heap_estimate(&self) -> usize {
        self.map.tiles.len() * size_of::<u16>()
            + self.occupants.len() * size_of::<(u32, Uid)>()
            + self.memory.remembered() * (size_of::<(u32, usize)>() + size_of::<super::memory::CellMemory>())
            + self.map.sight.visible_cells().count() * size_of::<u32>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::map::{CellMemory, compute_sight};
    use crate::object::ObjectKind;

    #[test]
    fn a_kept_map_comes_back_with_its_cells_in_order_its_feats_sight_and_memory() {
        let floor = Symbol::intern("kept_test_floor");
        let mut map = InstancedMap::new(MapId(1), 30, 20, floor);
        map.set_tile(4, 4, Symbol::intern("kept_test_wall"));
        for (uid, kind, x, y) in [
            (7, ObjectKind::Chara, 3, 3),
            (5, ObjectKind::Item, 3, 3),
            (9, ObjectKind::Feat, 3, 3),
            (2, ObjectKind::Feat, 10, 12),
        ] {
            map.add_to_index(Uid(uid), kind, x, y);
        }
        compute_sight(&mut map.sight, 5, 5, 6, |x, y| (x, y) == (4, 4));
        map.memory.set(1, 1, CellMemory { tile: floor, objects: Vec::new() });
        let kept = map.kept();
        assert!(kept.heap_estimate() < 30 * 20 * 8, "packed, it costs less than its cells: {}", kept.heap_estimate());
        let back = kept.unpacked();
        assert_eq!(back.objects_at(3, 3), &[Uid(7), Uid(5), Uid(9)], "arrival order stays");
        assert_eq!(back.objects_at(10, 12), &[Uid(2)]);
        assert!(back.objects_at(0, 0).is_empty());
        assert!(back.has_feat(3, 3) && back.has_feat(10, 12) && !back.has_feat(5, 5));
        assert_eq!(back.tile(4, 4), map.tile(4, 4));
        let seen = |m: &InstancedMap| {
            let mut cells: Vec<_> = m.sight.visible_cells().collect();
            cells.sort();
            cells
        };
        assert_eq!(seen(&back), seen(&map));
        assert!(back.sight.is_visible(5, 5) && !back.sight.is_visible(29, 19));
        assert_eq!(back.memory.get(1, 1), map.memory.get(1, 1));
        assert_eq!(back.memory.hash(), map.memory.hash());
        assert!(back.index_is_consistent(|uid| match uid.0 {
            7 => Some((3, 3, ObjectKind::Chara)),
            5 => Some((3, 3, ObjectKind::Item)),
            9 => Some((3, 3, ObjectKind::Feat)),
            2 => Some((10, 12, ObjectKind::Feat)),
            _ => None,
        }));
    }
}
