//! A map's art layers in its view: [`MapView::art_layers`] and each chunk's
//! [`ChunkView::art`], filled by [`MapViewBuilder`](super::MapViewBuilder) after the chunks'
//! tiles. A layer's cells in a chunk are shared (`Arc`) while the layer and the styles its
//! tiles have are the ones the previous view was built from, and compared otherwise, so
//! painting one layer draws again only the chunks it touched. A layer's picks (its variants
//! and sprite sets' pieces, see [`super::super::map_picks`]) are kept while the layer, the art,
//! the themes and the seed are. The styles of art tiles are in [`MapView::tile_styles`] with
//! the map's own.

use std::sync::Arc;

use nefia_game::map::{ArtLayer, ArtLayers, InstancedMap};
use nefia_game::world::World;

use super::super::map_picks::PaletteArt;
use super::{ArtChunk, ArtLayerView, ChunkView, MapView, NO_TILE, TileStyle, chunk_cells, reuse, tile_style};

/// What the previous view's art layers were built from.
#[derive(Default)]
pub(super) struct ArtCache {
    /// The map's layers then.
    layers: ArtLayers,
    /// For each layer, the style index of each tile of its palette then.
    styles: Vec<Vec<u16>>,
    /// For each layer, the key of its palette's art then (see [`PaletteArt::key`]).
    art_keys: Vec<u64>,
}

/// Fills `chunks`' art from `map`'s art layers, adding their tiles' styles to `styles`, and
/// returns the layers as the view lists them. `previous` is the view of the same map built
/// last (its chunks are `chunks`' old selves), `cache` what it was built from; variants are
/// picked from `seed`, the map's.
pub(super) fn fill_art(
    world: &World,
    map: &InstancedMap,
    seed: u64,
    previous: Option<&MapView>,
    cache: &mut ArtCache,
    styles: &mut Vec<TileStyle>,
    chunks: &mut [ChunkView],
) -> Vec<ArtLayerView> {
    let layers = map.art_layers();
    let style_maps: Vec<Vec<u16>> = layers.iter().map(|layer| style_indices(world, layer, styles)).collect();
    let arts: Vec<PaletteArt> = layers.iter().map(|layer| PaletteArt::of(world, layer.cells.palette(), seed)).collect();
    for (index, ((layer, style_map), art)) in layers.iter().zip(&style_maps).zip(&arts).enumerate() {
        let same_layer = cache.layers.get(index).is_some_and(|had| Arc::ptr_eq(had, layer));
        let unchanged = same_layer && cache.styles.get(index) == Some(style_map);
        let same_picks = same_layer && cache.art_keys.get(index) == Some(&art.key());
        for (i, chunk) in chunks.iter_mut().enumerate() {
            let old = previous.and_then(|p| p.chunks.get(i)).and_then(|c| c.art.get(index));
            let tiles = match old {
                Some(old) if unchanged => old.tiles.clone(),
                _ => reuse(old.map(|o| &o.tiles), chunk_art(map, layer, style_map, chunk.cx, chunk.cy)),
            };
            let picks = match old {
                Some(old) if same_picks => old.picks.clone(),
                _ => art
                    .cells_picks(map, chunk.cx, chunk.cy, |x, y| layer.cells.index(x, y))
                    .map(|picks| reuse(old.and_then(|o| o.picks.as_ref()), picks)),
            };
            chunk.art.push(ArtChunk { tiles, picks });
        }
    }
    let art_keys = arts.iter().map(PaletteArt::key).collect();
    *cache = ArtCache { layers: layers.clone(), styles: style_maps, art_keys };
    layers
        .iter()
        .map(|layer| ArtLayerView { name: layer.name.clone(), place: layer.place, offset_px: layer.offset_px })
        .collect()
}

/// The index in `styles` of each tile of `layer`'s palette, adding the styles not there yet.
fn style_indices(world: &World, layer: &ArtLayer, styles: &mut Vec<TileStyle>) -> Vec<u16> {
    let index_of = |styles: &mut Vec<TileStyle>, tile| match styles.iter().position(|s| s.id == tile) {
        Some(index) => index,
        None => {
            styles.push(tile_style(world, tile));
            styles.len() - 1
        }
    };
    layer.cells.palette().iter().map(|&tile| u16::try_from(index_of(styles, tile)).unwrap_or(NO_TILE)).collect()
}

/// Each cell's style index in chunk (cx, cy) of `layer`, [`NO_TILE`] where it is empty.
fn chunk_art(map: &InstancedMap, layer: &ArtLayer, style_map: &[u16], cx: i32, cy: i32) -> Vec<u16> {
    chunk_cells(map, cx, cy)
        .map(|(x, y)| layer.cells.index(x, y).and_then(|i| style_map.get(i).copied()).unwrap_or(NO_TILE))
        .collect()
}

impl MapView {
    /// The view without the art layers `hidden` names (the Layers pane's visibility toggles):
    /// what the viewport draws. The view itself when it hides none of them.
    pub fn without_art_layers(&self, hidden: &[String]) -> Option<MapView> {
        let shown: Vec<bool> = self.art_layers.iter().map(|layer| !hidden.contains(&layer.name)).collect();
        if shown.iter().all(|&shown| shown) {
            return None;
        }
        let keep = |list: &[ArtChunk]| list.iter().zip(&shown).filter(|(_, s)| **s).map(|(a, _)| a.clone()).collect();
        let chunks = self.chunks.iter().map(|chunk| ChunkView { art: keep(&chunk.art), ..chunk.clone() }).collect();
        let art_layers =
            self.art_layers.iter().zip(&shown).filter(|(_, shown)| **shown).map(|(layer, _)| layer.clone()).collect();
        Some(MapView { chunks, art_layers, ..self.clone() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nefia_game::map::LayerPlace;

    #[test]
    fn a_hidden_layer_is_left_out_of_the_view_and_its_chunks() {
        let art = |tile| ArtChunk { tiles: Arc::new(vec![tile]), picks: None };
        let chunk = ChunkView { art: vec![art(1), art(2)], ..ChunkView::of_tiles(vec![0]) };
        let layer = |name: &str| ArtLayerView { name: name.into(), place: LayerPlace::Below, offset_px: (0, 0) };
        let map = MapView { art_layers: vec![layer("rugs"), layer("roofs")], ..MapView::one_cell(chunk) };
        assert!(map.without_art_layers(&["trees".into()]).is_none(), "nothing hidden: the view as it is");
        let shown = map.without_art_layers(&["rugs".into()]).expect("one hidden");
        assert_eq!(shown.art_layers, [layer("roofs")]);
        assert_eq!(shown.chunks[0].art, [art(2)], "the chunk keeps the shown layer's cells");
    }
}
