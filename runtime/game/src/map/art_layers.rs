//! A map's art layers: tiles drawn below or above its game layer that carry no rules
//! (decoration, overhead: roofs, treetops, an import's extra tile layers). Nothing in play
//! reads them — sight, walking and the rules see only the game's tiles — but they are saved in
//! the map file ([`crate::save::ArtLayerRecord`]), edited with undo, diffed and merged like tiles.
//!
//! A layer's cells are a sparse palette grid, the same [`Intent`] grid the auto-tiling's intent
//! is: a tile id or nothing per cell. The map holds its layers as `Arc`s, bottom first, so an
//! undo step keeps a layer without copying it and painting copies only the layer painted.

use std::sync::Arc;

use super::InstancedMap;
use crate::autotile::Intent;
use crate::symbol::Symbol;

/// Where an art layer is drawn: under the map's tiles' objects or over everything.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum LayerPlace {
    /// Over the game's tiles, under its objects (decoration).
    #[default]
    Below,
    /// Over the objects (overhead: roofs, treetops).
    Above,
}

/// One art layer of a map.
#[derive(Clone, Debug, PartialEq)]
pub struct ArtLayer {
    /// Its name, unique on its map.
    pub name: String,
    /// Drawn under the objects or over everything.
    pub place: LayerPlace,
    /// Pixels it is drawn shifted by (LDtk's layer offsets).
    pub offset_px: (i32, i32),
    /// The tile of each cell, or nothing; the map's size.
    pub cells: Intent,
}

impl ArtLayer {
    /// An empty layer `name` of a `width`×`height` map.
    pub fn new(name: &str, place: LayerPlace, width: i32, height: i32) -> ArtLayer {
        ArtLayer { name: name.to_owned(), place, offset_px: (0, 0), cells: Intent::new(width, height) }
    }

    /// How many cells hold a tile.
    pub fn painted_cells(&self) -> usize {
        self.cells.filled()
    }

    /// The cells whose tile differs between `self` and `other` (same size), row by row.
    pub fn changed_cells(&self, other: &ArtLayer) -> Vec<(i32, i32)> {
        let (a, b) = (&self.cells, &other.cells);
        (0..a.height())
            .flat_map(|y| (0..a.width()).map(move |x| (x, y)))
            .filter(|&(x, y)| a.get(x, y) != b.get(x, y))
            .collect()
    }
}

/// A map's art layers, bottom first.
pub type ArtLayers = Vec<Arc<ArtLayer>>;

/// What an edit does to a map's art layers (see [`crate::edit::Edit::ArtLayer`]).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum ArtLayerEdit {
    /// Add an empty layer `name`, drawn over the others of its place.
    Add {
        /// Its name (not one the map's layers have).
        name: String,
        /// Where it is drawn.
        place: LayerPlace,
    },
    /// Remove layer `name` and its cells.
    Remove {
        /// The layer.
        name: String,
    },
    /// Call layer `name` `to`.
    Rename {
        /// The layer.
        name: String,
        /// Its new name (not one the map's other layers have).
        to: String,
    },
    /// Put layer `name` at `index` of the map's layers (bottom first), drawn at `place`.
    Move {
        /// The layer.
        name: String,
        /// Its new index, counted in the list without it (past the end: the top).
        index: usize,
        /// Where it is drawn from now on.
        place: LayerPlace,
    },
}

impl InstancedMap {
    /// Its art layers, bottom first (draw order within each [`LayerPlace`]).
    pub fn art_layers(&self) -> &ArtLayers {
        &self.art_layers
    }

    /// The art layer named `name` and its index.
    pub fn art_layer(&self, name: &str) -> Option<(usize, &Arc<ArtLayer>)> {
        self.art_layers.iter().enumerate().find(|(_, layer)| layer.name == name)
    }

    /// Replaces its art layers (an edit, its undo, a map built from a record): what its file
    /// writes changes, so it has unsaved changes.
    pub fn set_art_layers(&mut self, layers: ArtLayers) {
        if self.art_layers != layers {
            self.art_layers = layers;
            self.art_revision += 1;
        }
    }

    /// A counter that grows whenever its art layers change.
    pub fn art_revision(&self) -> u64 {
        self.art_revision
    }
}

/// The History label of a step that took `before`'s layers to `after`'s, when all it did is
/// paint or erase cells of one layer: "Paint 12 cells of art layer 'roofs' with elona.roof",
/// "Erase 3 cells of art layer 'roofs'", "Paint 5 cells of art layer 'roofs'" (several tiles).
pub fn paint_label(before: &[Arc<ArtLayer>], after: &[Arc<ArtLayer>]) -> Option<String> {
    if before.len() != after.len() {
        return None;
    }
    let mut changed = before.iter().zip(after).filter(|(was, now)| was != now);
    let (was, now) = changed.next()?;
    if changed.next().is_some() || (&was.name, was.place, was.offset_px) != (&now.name, now.place, now.offset_px) {
        return None;
    }
    let cells = was.changed_cells(now);
    let mut tiles: Vec<Option<Symbol>> = cells.iter().map(|&(x, y)| now.cells.get(x, y)).collect();
    tiles.dedup();
    let noun = if cells.len() == 1 { "cell" } else { "cells" };
    let (count, name) = (cells.len(), &now.name);
    Some(match tiles.as_slice() {
        [None] => format!("Erase {count} {noun} of art layer '{name}'"),
        [Some(tile)] => format!("Paint {count} {noun} of art layer '{name}' with {tile}"),
        _ => format!("Paint {count} {noun} of art layer '{name}'"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layer(cells: &[((i32, i32), &str)]) -> Arc<ArtLayer> {
        let mut layer = ArtLayer::new("roofs", LayerPlace::Above, 4, 3);
        for &((x, y), tile) in cells {
            layer.cells.set(x, y, Some(Symbol::intern(tile)));
        }
        Arc::new(layer)
    }

    #[test]
    fn a_step_that_paints_one_layer_is_labelled_by_its_cells() {
        let empty = vec![layer(&[])];
        let painted = vec![layer(&[((0, 0), "t.roof"), ((1, 2), "t.roof")])];
        assert_eq!(paint_label(&empty, &painted).as_deref(), Some("Paint 2 cells of art layer 'roofs' with t.roof"));
        assert_eq!(paint_label(&painted, &empty).as_deref(), Some("Erase 2 cells of art layer 'roofs'"));
        let mixed = vec![layer(&[((0, 0), "t.roof"), ((1, 2), "t.tree")])];
        assert_eq!(paint_label(&empty, &mixed).as_deref(), Some("Paint 2 cells of art layer 'roofs'"));
        assert_eq!(paint_label(&empty, &[]), None, "a layer removed is no painting");
        assert_eq!(painted[0].painted_cells(), 2);
    }

    #[test]
    fn setting_other_layers_makes_the_map_changed() {
        let mut map = InstancedMap::new(crate::map::MapId(1), 4, 3, Symbol::intern("t.floor"));
        let revision = map.content_revision();
        map.set_art_layers(vec![layer(&[])]);
        assert!(map.content_revision() > revision, "an art layer added is an unsaved change");
        let revision = map.content_revision();
        map.set_art_layers(vec![layer(&[])]);
        assert_eq!(map.content_revision(), revision, "the same layers change nothing");
        assert_eq!(map.art_layer("roofs").map(|(i, _)| i), Some(0));
    }
}
