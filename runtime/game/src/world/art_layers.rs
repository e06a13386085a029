//! The world's side of art layers: their edits (add, remove, rename, move, paint and erase
//! cells) made as undoable steps. Each step records the map's whole list of layers before and
//! after ([`Change::ArtLayers`]): the list holds its layers as `Arc`s, so a step copies only
//! the layer it changed.

use std::sync::Arc;

use super::{World, WorldError};
use crate::history::{Change, Transaction, apply_changes};
use crate::map::{ArtLayer, ArtLayerEdit, ArtLayers, MapId, art_paint_label};
use crate::symbol::Symbol;

/// Why an art layer edit was refused; nothing changed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ArtLayerError {
    /// The world refused (the map is gone, the tile is unknown, …).
    #[error(transparent)]
    World(#[from] WorldError),
    /// The map has no layer of that name.
    #[error("map '{map}' has no art layer '{name}': add it in the Layers pane first")]
    NoSuchLayer {
        /// The map's name.
        map: String,
        /// The name asked for.
        name: String,
    },
    /// Another layer of the map has the name.
    #[error("map '{map}' already has an art layer '{name}': give the layer another name")]
    NameTaken {
        /// The map's name.
        map: String,
        /// The name asked for.
        name: String,
    },
    /// A layer needs a name.
    #[error("an art layer needs a name, such as 'roofs'")]
    EmptyName,
}

impl World {
    /// Makes `edit` of map `map`'s art layers, returning the undoable step.
    pub fn edit_art_layers(&mut self, map: MapId, edit: &ArtLayerEdit) -> Result<Transaction, ArtLayerError> {
        let instance = self.map(map)?;
        let map_name = instance.name.clone();
        let mut layers: ArtLayers = instance.art_layers().clone();
        let missing = |name: &str| ArtLayerError::NoSuchLayer { map: map_name.clone(), name: name.to_owned() };
        let free = |layers: &ArtLayers, name: &str| match name.trim() {
            "" => Err(ArtLayerError::EmptyName),
            _ if layers.iter().any(|l| l.name == name) => {
                Err(ArtLayerError::NameTaken { map: map_name.clone(), name: name.to_owned() })
            }
            _ => Ok(()),
        };
        let index_of = |layers: &ArtLayers, name: &str| layers.iter().position(|l| l.name == name);
        let label = match edit {
            ArtLayerEdit::Add { name, place } => {
                free(&layers, name)?;
                layers.push(Arc::new(ArtLayer::new(name, *place, instance.width(), instance.height())));
                format!("Add art layer '{name}' to map '{map_name}'")
            }
            ArtLayerEdit::Remove { name } => {
                let index = index_of(&layers, name).ok_or_else(|| missing(name))?;
                let cells = layers.remove(index).painted_cells();
                format!("Remove art layer '{name}' ({cells} painted cells) of map '{map_name}'")
            }
            ArtLayerEdit::Rename { name, to } => {
                let index = index_of(&layers, name).ok_or_else(|| missing(name))?;
                if name != to {
                    free(&layers, to)?;
                }
                Arc::make_mut(&mut layers[index]).name = to.clone();
                format!("Rename art layer '{name}' of map '{map_name}' to '{to}'")
            }
            ArtLayerEdit::Move { name, index, place } => {
                let from = index_of(&layers, name).ok_or_else(|| missing(name))?;
                let mut layer = layers.remove(from);
                Arc::make_mut(&mut layer).place = *place;
                layers.insert((*index).min(layers.len()), layer);
                let place = match place {
                    crate::save::LayerPlace::Below => "below the objects",
                    crate::save::LayerPlace::Above => "above the objects",
                };
                format!("Move art layer '{name}' of map '{map_name}' {place}")
            }
        };
        Ok(self.replace_art_layers(map, layers, label))
    }

    /// Paints `cells` of art layer `layer` of map `map` with `tile` (a `base.map_tile` id), or
    /// erases them (none). Cells off the map are skipped.
    pub fn paint_art(
        &mut self,
        map: MapId,
        layer: &str,
        cells: &[(i32, i32)],
        tile: Option<&str>,
    ) -> Result<Transaction, ArtLayerError> {
        let tile = tile.map(|id| self.tile_id(id)).transpose()?;
        let instance = self.map(map)?;
        let Some((index, painted)) = instance.art_layer(layer) else {
            return Err(ArtLayerError::NoSuchLayer { map: instance.name.clone(), name: layer.to_owned() });
        };
        let mut painted = ArtLayer::clone(painted);
        let changed = cells.iter().filter(|&&(x, y)| painted.cells.set(x, y, tile)).count();
        let mut layers = instance.art_layers().clone();
        if changed > 0 {
            layers[index] = Arc::new(painted);
        }
        let label = art_paint_label(instance.art_layers(), &layers).unwrap_or_else(|| {
            let what = tile.map_or_else(|| "Erase".to_owned(), |tile: Symbol| format!("Paint {tile} on"));
            format!("{what} 0 cells of art layer '{layer}'")
        });
        Ok(self.replace_art_layers(map, layers, label))
    }

    /// Gives map `map` art layers `layers`, returning the step that did (the map exists).
    fn replace_art_layers(&mut self, map: MapId, layers: ArtLayers, label: String) -> Transaction {
        let before = self.maps[&map].art_layers().clone();
        let after = Change::ArtLayers { map, layers };
        apply_changes(self, std::slice::from_ref(&after));
        Transaction::new(label, vec![Change::ArtLayers { map, layers: before }], vec![after])
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{DataRegistry, OnDuplicate};
    use crate::history::History;
    use crate::map::InstancedMap;
    use crate::moddable::{FieldMap, Origin};
    use crate::save::LayerPlace;

    /// A world of two tiles with a 4×4 map "m".
    fn world() -> (World, MapId) {
        let mut data = DataRegistry::default();
        let (tile, origin) = ("base.map_tile", || Origin::tool("t"));
        data.add_type(tile.into(), Vec::new(), origin(), OnDuplicate::Error).unwrap();
        for id in ["t.floor", "t.wall"] {
            data.add(tile.into(), id.into(), FieldMap::new(), origin(), OnDuplicate::Error).unwrap();
        }
        let mut world = World::new(data);
        let mut map = InstancedMap::new(MapId(0), 4, 4, Symbol::intern("t.floor"));
        map.name = "m".into();
        let map = world.insert_map(map);
        (world, map)
    }

    fn add(world: &mut World, history: &mut History, map: MapId, name: &str, place: LayerPlace) {
        let step = world.edit_art_layers(map, &ArtLayerEdit::Add { name: name.into(), place }).unwrap();
        history.record(world, step);
    }

    fn names(world: &World, map: MapId) -> Vec<(String, LayerPlace)> {
        world.map(map).unwrap().art_layers().iter().map(|l| (l.name.clone(), l.place)).collect()
    }

    #[test]
    fn layers_are_added_renamed_moved_and_removed_with_undo() {
        let (mut world, map) = world();
        let mut history = History::default();
        add(&mut world, &mut history, map, "rugs", LayerPlace::Below);
        add(&mut world, &mut history, map, "roofs", LayerPlace::Above);
        let taken = world.edit_art_layers(map, &ArtLayerEdit::Add { name: "rugs".into(), place: LayerPlace::Above });
        assert!(matches!(taken, Err(ArtLayerError::NameTaken { .. })), "{taken:?}");
        let rename = ArtLayerEdit::Rename { name: "rugs".into(), to: "carpets".into() };
        let step = world.edit_art_layers(map, &rename).unwrap();
        history.record(&mut world, step);
        let moved = ArtLayerEdit::Move { name: "carpets".into(), index: 9, place: LayerPlace::Above };
        let step = world.edit_art_layers(map, &moved).unwrap();
        assert_eq!(step.label, "Move art layer 'carpets' of map 'm' above the objects");
        history.record(&mut world, step);
        assert_eq!(names(&world, map), [("roofs".into(), LayerPlace::Above), ("carpets".into(), LayerPlace::Above)]);
        let step = world.edit_art_layers(map, &ArtLayerEdit::Remove { name: "roofs".into() }).unwrap();
        history.record(&mut world, step);
        assert_eq!(names(&world, map), [("carpets".into(), LayerPlace::Above)]);
        for _ in 0..4 {
            history.undo(&mut world);
        }
        assert_eq!(names(&world, map), [("rugs".into(), LayerPlace::Below)], "undone back to the first layer");
        let missing = world.edit_art_layers(map, &ArtLayerEdit::Remove { name: "nope".into() });
        assert!(matches!(missing, Err(ArtLayerError::NoSuchLayer { .. })), "{missing:?}");
    }

    #[test]
    fn a_painted_stroke_is_one_step_labelled_by_its_layer_and_leaves_the_tiles() {
        let (mut world, map) = world();
        let mut history = History::default();
        add(&mut world, &mut history, map, "roofs", LayerPlace::Above);
        let tiles = world.map(map).unwrap().tile_ids();
        for cell in [(1, 1), (2, 1), (2, 1), (3, 1)] {
            let mut step = world.paint_art(map, "roofs", &[cell], Some("t.wall")).unwrap();
            step.stroke = Some(4);
            history.record(&mut world, step);
        }
        assert_eq!(history.view().labels[1], "Paint 3 cells of art layer 'roofs' with t.wall");
        let instance = world.map(map).unwrap();
        assert_eq!(instance.art_layers()[0].cells.get(2, 1), Some(Symbol::intern("t.wall")));
        assert_eq!(instance.tile_ids(), tiles, "the game's tiles are untouched");
        let erased = world.paint_art(map, "roofs", &[(1, 1)], None).unwrap();
        assert_eq!(erased.label, "Erase 1 cell of art layer 'roofs'");
        history.record(&mut world, erased);
        history.undo(&mut world);
        history.undo(&mut world);
        assert_eq!(world.map(map).unwrap().art_layers()[0].painted_cells(), 0, "the stroke undone");
        assert!(world.paint_art(map, "roofs", &[(0, 0)], Some("t.nothing")).is_err(), "an unknown tile is refused");
    }
}
