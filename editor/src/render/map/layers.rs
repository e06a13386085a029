//! The map's draw layers in the order they are painted, and what each draws in a chunk —
//! shared by the viewport's meshes and `nefia render`'s picture.
//!
//! The order, bottom first: the tiles, the art layers placed `Below` (in the map's order),
//! feats, mefs, items and characters, the art layers placed `Above`, then the shadow layer.
//! The shadow comes last so that sight hides an overhead layer too (a roof over a room never
//! seen is not drawn).

use std::any::Any;
use std::sync::Arc;

use nefia_game::art::Sprite;
use nefia_game::display::Color;
use nefia_game::map::CHUNK_SIZE;
use nefia_game::save::LayerPlace;
use nefia_game::{ObjectKind, Uid};
use nefia_protocol::view::{ChunkView, MapView, NO_TILE};

use crate::render::camera::LayerToggles;

/// One draw layer of a map.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawLayer {
    /// The game layer's tiles.
    Tiles,
    /// Art layer `n` of [`MapView::art_layers`].
    Art(usize),
    /// The objects of one kind.
    Objects(ObjectKind),
    /// Sight and map memory.
    Shadow,
}

impl DrawLayer {
    /// The layers of `map` that `toggles` shows, bottom first; `sprites` false (the ASCII
    /// view) leaves the art layers out, `shadow` false the shadow.
    pub fn order(map: &MapView, toggles: &LayerToggles, sprites: bool) -> Vec<DrawLayer> {
        let art = |place: LayerPlace| {
            map.art_layers
                .iter()
                .enumerate()
                .filter(move |(_, layer)| sprites && layer.place == place)
                .map(|(index, _)| DrawLayer::Art(index))
        };
        let mut layers = Vec::new();
        if toggles.tiles {
            layers.push(DrawLayer::Tiles);
        }
        layers.extend(art(LayerPlace::Below));
        layers.extend(ObjectKind::ALL.into_iter().filter(|&k| toggles.shows(k)).map(DrawLayer::Objects));
        layers.extend(art(LayerPlace::Above));
        if toggles.shadow {
            layers.push(DrawLayer::Shadow);
        }
        layers
    }

    /// Its name in a [`super::DrawReport`]: `tiles`, `art:NAME`, `feats`, …, `shadow`.
    pub fn name(self, map: &MapView) -> String {
        match self {
            DrawLayer::Tiles => "tiles".into(),
            DrawLayer::Art(index) => format!("art:{}", map.art_layers.get(index).map_or("?", |l| l.name.as_str())),
            DrawLayer::Objects(kind) => format!("{kind:?}s").to_lowercase(),
            DrawLayer::Shadow => "shadow".into(),
        }
    }
}

/// One thing a layer draws on a cell: a tile or an object, with its sprite if it has art.
pub struct Piece<'a> {
    /// Its cell.
    pub cell: (i32, i32),
    /// The sprite it draws, if it has art.
    pub sprite: Option<&'a Sprite>,
    /// Its glyph (drawn when it has no sprite, or its sprite cannot be).
    pub glyph: &'a str,
    /// The glyph's colour.
    pub fg: Color,
    /// The cell's colour under it: a tile's background; for an object, the background of
    /// the tile under it (drawn only with its glyph, to hide the tile's); none on an art layer.
    pub bg: Option<Color>,
    /// Pixels its sprite is shifted by (its art layer's offset).
    pub offset: (i32, i32),
    /// The object's uid, for an object.
    pub uid: Option<Uid>,
}

/// What `layer` draws in `chunk` (nothing for the shadow layer, which has its own cells),
/// in drawing order.
pub fn pieces<'a>(map: &'a MapView, chunk: &'a ChunkView, layer: DrawLayer) -> Vec<Piece<'a>> {
    let (w, _) = map.chunk_size(chunk.cx, chunk.cy);
    let (x0, y0) = (chunk.cx * CHUNK_SIZE, chunk.cy * CHUNK_SIZE);
    let cell = |i: usize| (x0 + i as i32 % w, y0 + i as i32 / w);
    let tile_cells = |tiles: &'a [u16], picks: Option<&'a Arc<Vec<u16>>>, below: bool, offset: (i32, i32)| {
        tiles.iter().enumerate().filter_map(move |(i, &tile)| {
            let style = map.tile_styles.get(usize::from(tile)).filter(|_| tile != NO_TILE)?;
            let pick = picks.and_then(|p| p.get(i)).copied().unwrap_or(0);
            Some(Piece {
                cell: cell(i),
                sprite: style.art.as_ref().map(|art| art.sprite(pick)),
                glyph: &style.glyph,
                fg: style.fg,
                bg: below.then_some(style.bg),
                offset,
                uid: None,
            })
        })
    };
    match layer {
        DrawLayer::Tiles => tile_cells(&chunk.tiles, chunk.picks.as_ref(), true, (0, 0)).collect(),
        DrawLayer::Art(index) => match (chunk.art.get(index), map.art_layers.get(index)) {
            (Some(art), Some(view)) => tile_cells(&art.tiles, art.picks.as_ref(), false, view.offset_px).collect(),
            _ => Vec::new(),
        },
        DrawLayer::Objects(kind) => chunk
            .objects
            .iter()
            .filter(|o| o.kind == kind)
            .map(|o| Piece {
                cell: (o.x, o.y),
                sprite: o.art.as_ref().map(|art| art.sprite(o.pick)),
                glyph: o.glyph.as_str(),
                fg: o.color,
                bg: Some(map.tile_at(o.x, o.y).map_or([0, 0, 0, 255], |s| s.bg)),
                offset: (0, 0),
                uid: Some(o.uid),
            })
            .collect(),
        DrawLayer::Shadow => Vec::new(),
    }
}

/// The data something was drawn from: while each part is the same `Arc` (and the plain
/// values equal), the drawing is still right. Holding the parts keeps their addresses from
/// being reused. Made for each chunk and layer every frame, it holds its few parts inline.
#[derive(Clone)]
pub struct Source {
    parts: [Option<Arc<dyn Any + Send + Sync>>; 3],
    values: (i32, i32),
}

impl Source {
    /// Whether `other` was made from the same data.
    pub fn same(&self, other: &Source) -> bool {
        self.values == other.values
            && self.parts.iter().zip(&other.parts).all(|pair| match pair {
                (Some(a), Some(b)) => std::ptr::addr_eq(Arc::as_ptr(a), Arc::as_ptr(b)),
                (a, b) => a.is_none() && b.is_none(),
            })
    }

    /// What `layer` of `chunk` is drawn from; None if the chunk has nothing on it.
    pub fn of(chunk: &ChunkView, layer: DrawLayer, map: &MapView) -> Option<Source> {
        fn part<T: Any + Send + Sync>(arc: &Arc<T>) -> Option<Arc<dyn Any + Send + Sync>> {
            Some(arc.clone())
        }
        let styles = part(&map.tile_styles);
        let (parts, values) = match layer {
            DrawLayer::Tiles => ([part(&chunk.tiles), styles, chunk.picks.as_ref().and_then(part)], (0, 0)),
            DrawLayer::Objects(_) => ([part(&chunk.objects), part(&chunk.tiles), styles], (0, 0)),
            DrawLayer::Shadow => ([part(chunk.shadow.as_ref()?), styles, None], (0, 0)),
            DrawLayer::Art(index) => {
                let art = chunk.art.get(index)?;
                let offset = map.art_layers.get(index)?.offset_px;
                ([part(&art.tiles), styles, art.picks.as_ref().and_then(part)], offset)
            }
        };
        Some(Source { parts, values })
    }
}

#[cfg(test)]
mod tests {
    use nefia_game::ObjectKind;
    use nefia_protocol::view::{ArtChunk, ArtLayerView};

    use super::*;

    #[test]
    fn a_source_is_the_same_while_its_data_is() {
        let chunk =
            ChunkView { art: vec![ArtChunk { tiles: Arc::new(vec![0]), picks: None }], ..ChunkView::of_tiles(vec![0]) };
        let layer = ArtLayerView { name: "rugs".into(), place: LayerPlace::Below, offset_px: (0, 0) };
        let map = MapView { art_layers: vec![layer], ..MapView::one_cell(chunk.clone()) };
        let of = |chunk: &ChunkView, layer| Source::of(chunk, layer, &map).expect("the chunk draws it");
        let (tiles, objects, art) = (DrawLayer::Tiles, DrawLayer::Objects(ObjectKind::Item), DrawLayer::Art(0));
        for layer in [tiles, objects, art] {
            assert!(of(&chunk, layer).same(&of(&chunk, layer)), "{layer:?} unchanged");
        }
        let retiled = ChunkView { tiles: Arc::new(vec![0]), ..chunk.clone() };
        assert!(!of(&chunk, tiles).same(&of(&retiled, tiles)), "new tiles");
        assert!(!of(&chunk, objects).same(&of(&retiled, objects)), "objects stand on the tiles' colours");
        assert!(of(&chunk, art).same(&of(&retiled, art)), "the art layer is not the tiles");
        let picked = ChunkView { picks: Some(Arc::new(vec![1])), ..chunk.clone() };
        assert!(!of(&chunk, tiles).same(&of(&picked, tiles)), "other picks");
        let moved = MapView {
            art_layers: vec![ArtLayerView { name: "rugs".into(), place: LayerPlace::Below, offset_px: (0, 4) }],
            ..map.clone()
        };
        let shifted = Source::of(&chunk, art, &moved).expect("drawn");
        assert!(!of(&chunk, art).same(&shifted), "the layer's offset changed");
        assert!(Source::of(&chunk, DrawLayer::Shadow, &map).is_none(), "no shadow");
    }
}
