//! The current map as the renderer draws it: 16×16 chunks whose tiles, objects and shadow
//! are shared (`Arc`) while they do not change, so a frame rebuilds only what changed.

use std::sync::Arc;

use nefia_game::art::{Art, pick};
use nefia_game::autotile::{AutotileLayer, Intent};
use nefia_game::display::Color;
use nefia_game::map::{CHUNK_SIZE, InstancedMap, MapId};
use nefia_game::object::{ObjectKind, Uid};
use nefia_game::save::LayerPlace;
use nefia_game::symbol::Symbol;
use nefia_game::value::Value;
use nefia_game::world::{World, parse_color};

use super::map_picks::PaletteArt;

mod art_layers;

/// How a tile looks.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct TileStyle {
    /// The tile id.
    pub id: Symbol,
    /// The glyph drawn on it.
    pub glyph: String,
    /// The glyph's colour.
    pub fg: Color,
    /// The cell's colour.
    pub bg: Color,
    /// The art drawn instead of the glyph, if its prototype has an `image`.
    pub art: Option<Arc<Art>>,
    /// False if no loaded mod defines the tile.
    pub known: bool,
}

/// An object as the map shows it (from `produce_memory()`; hidden objects are left out).
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct ObjectView {
    /// Its uid.
    pub uid: Uid,
    /// Its kind: the draw layer it belongs to.
    pub kind: ObjectKind,
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
    /// Its glyph.
    pub glyph: Symbol,
    /// Its colour.
    pub color: Color,
    /// The art drawn instead of the glyph, if its prototype (or itself) has an `image`.
    pub art: Option<Arc<Art>>,
    /// Which of the art's sprites it draws (see [`Art::sprite`]).
    pub pick: u16,
}

/// What the shadow layer does to a cell.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub enum ShadowCell {
    /// In sight: drawn as it is.
    Visible,
    /// Out of sight but remembered: drawn dimmed as remembered.
    Remembered {
        /// The remembered tile (an index into [`MapView::tile_styles`]).
        tile: u16,
        /// The remembered objects, bottom first: kind, glyph and colour.
        objects: Vec<(ObjectKind, Symbol, Color)>,
    },
    /// Never seen: black.
    Unknown,
}

/// One of a map's art layers as the renderer draws it (its cells are in each chunk's
/// [`ChunkView::art`]).
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct ArtLayerView {
    /// Its name.
    pub name: String,
    /// Drawn below the objects or above everything.
    pub place: LayerPlace,
    /// Pixels it is drawn shifted by.
    pub offset_px: (i32, i32),
}

/// One art layer's cells in one chunk.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct ArtChunk {
    /// Tile style index per cell (into [`MapView::tile_styles`]), [`NO_TILE`] where empty.
    pub tiles: Arc<Vec<u16>>,
    /// Which of its tile's art's sprites each cell draws; none when each draws the first.
    pub picks: Option<Arc<Vec<u16>>>,
}

/// An art layer's cell with no tile.
pub const NO_TILE: u16 = u16::MAX;

/// One chunk of a map view. Cells are row-major over the chunk's part of the map.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug)]
pub struct ChunkView {
    /// Chunk column.
    pub cx: i32,
    /// Chunk row.
    pub cy: i32,
    /// Tile style index per cell.
    pub tiles: Arc<Vec<u16>>,
    /// Visible objects in the chunk, in drawing order (feats, items, characters).
    pub objects: Arc<Vec<ObjectView>>,
    /// The shadow per cell, when the player's sight applies to this map.
    pub shadow: Option<Arc<Vec<ShadowCell>>>,
    /// Which of its tile's art's sprites each cell draws (see [`Art::sprite`]); none when
    /// every cell draws its art's first.
    #[serde(default)]
    pub picks: Option<Arc<Vec<u16>>>,
    /// Its cells of each art layer, in [`MapView::art_layers`]' order.
    #[serde(default)]
    pub art: Vec<ArtChunk>,
    /// What each cell is meant to be, on a map with auto-tiling rules (an index into
    /// [`MapView::intent_styles`]).
    #[serde(default)]
    pub intent: Option<Arc<Vec<u16>>>,
}

/// The current map, ready to draw.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug)]
pub struct MapView {
    /// Its id.
    pub id: MapId,
    /// Its name.
    pub name: String,
    /// Width in cells.
    pub width: i32,
    /// Height in cells.
    pub height: i32,
    /// Chunks across and down.
    pub chunk_grid: (i32, i32),
    /// Styles of the tiles used (the map's palette, then tiles only remembered).
    pub tile_styles: Arc<Vec<TileStyle>>,
    /// The chunks, row-major.
    pub chunks: Vec<ChunkView>,
    /// Its art layers, bottom first.
    #[serde(default)]
    pub art_layers: Vec<ArtLayerView>,
    /// The size in pixels of a cell's art: the map's `cell_px` field, else [`DEFAULT_CELL_PX`].
    #[serde(default = "default_cell_px")]
    pub cell_px: u32,
    /// Number of objects on the map (hidden ones included).
    pub object_count: usize,
    /// Objects of the map file with unknown ids: where, and what is unknown.
    pub unresolved: Vec<(i32, i32, String)>,
    /// What the merge its file came from left to pick (see [`nefia_game::map_merge`]).
    pub conflicts: Arc<Vec<nefia_game::conflict::Conflict>>,
    /// On a map with auto-tiling rules, the styles of its intent tiles: the intent's palette,
    /// then [`EMPTY_INTENT`] for a cell meant to be nothing.
    #[serde(default)]
    pub intent_styles: Option<Arc<Vec<TileStyle>>>,
}

/// The size in pixels a map's cells are drawn at when it does not say (its `cell_px` field).
pub const DEFAULT_CELL_PX: u32 = 32;

fn default_cell_px() -> u32 {
    DEFAULT_CELL_PX
}

/// The tile id an empty intent cell is drawn as.
pub const EMPTY_INTENT: &str = "(empty)";

impl ChunkView {
    /// The chunk at (0, 0) of cells with tile styles `tiles` and nothing else (no objects,
    /// shadow, picks, art or intent): what a reader of views is tested with, the rest set
    /// with `..ChunkView::of_tiles(..)`.
    pub fn of_tiles(tiles: Vec<u16>) -> ChunkView {
        ChunkView {
            cx: 0,
            cy: 0,
            tiles: Arc::new(tiles),
            objects: Arc::default(),
            shadow: None,
            picks: None,
            art: Vec::new(),
            intent: None,
        }
    }
}

impl MapView {
    /// A 1×1 map of one chunk with rules laid on it (an empty intent palette): the smallest
    /// map a reader of views is tested with (here and in the host's remote mirror).
    pub fn one_cell(chunk: ChunkView) -> MapView {
        MapView {
            id: MapId(1),
            name: "m".into(),
            width: 1,
            height: 1,
            chunk_grid: (1, 1),
            tile_styles: Arc::default(),
            chunks: vec![chunk],
            art_layers: Vec::new(),
            cell_px: DEFAULT_CELL_PX,
            object_count: 0,
            unresolved: Vec::new(),
            conflicts: Arc::default(),
            intent_styles: Some(Arc::default()),
        }
    }

    /// The map as its intent layer draws it (its intent tiles in place of the tiles the rules
    /// painted, its objects as they are): what the viewport's Intent toggle shows. None on a
    /// map without auto-tiling rules.
    pub fn as_intent(&self) -> Option<MapView> {
        let styles = self.intent_styles.clone()?;
        let chunks = self
            .chunks
            .iter()
            // Remembered cells name the map's own styles: the intent is drawn without shadow.
            .map(|chunk| Some(ChunkView { tiles: chunk.intent.clone()?, shadow: None, picks: None, ..chunk.clone() }))
            .collect::<Option<Vec<ChunkView>>>()?;
        Some(MapView { tile_styles: styles, chunks, ..self.clone() })
    }

    /// The chunk holding cell (x, y).
    pub fn chunk_at(&self, x: i32, y: i32) -> Option<&ChunkView> {
        if x < 0 || y < 0 || x >= self.width || y >= self.height {
            return None;
        }
        self.chunks.get(((y / CHUNK_SIZE) * self.chunk_grid.0 + x / CHUNK_SIZE) as usize)
    }

    /// The size in cells of chunk (cx, cy) (edge chunks can be smaller).
    pub fn chunk_size(&self, cx: i32, cy: i32) -> (i32, i32) {
        ((self.width - cx * CHUNK_SIZE).min(CHUNK_SIZE), (self.height - cy * CHUNK_SIZE).min(CHUNK_SIZE))
    }

    /// The index in [`MapView::tile_styles`] of the tile at (x, y).
    pub fn tile_index_at(&self, x: i32, y: i32) -> Option<u16> {
        let chunk = self.chunk_at(x, y)?;
        let (w, _) = self.chunk_size(chunk.cx, chunk.cy);
        chunk.tiles.get(((y % CHUNK_SIZE) * w + x % CHUNK_SIZE) as usize).copied()
    }

    /// The tile style at (x, y).
    pub fn tile_at(&self, x: i32, y: i32) -> Option<&TileStyle> {
        self.tile_styles.get(usize::from(self.tile_index_at(x, y)?))
    }

    /// The visible objects at (x, y), bottom first.
    pub fn objects_at(&self, x: i32, y: i32) -> impl Iterator<Item = &ObjectView> {
        self.chunk_at(x, y).into_iter().flat_map(move |c| c.objects.iter().filter(move |o| o.x == x && o.y == y))
    }
}

/// Builds map views, reusing what did not change since the previous one.
#[derive(Default)]
pub struct MapViewBuilder {
    previous: Option<Arc<MapView>>,
    tile_revisions: Vec<u64>,
    /// Per chunk: the key its picks were computed for (see [`PaletteArt::chunk_key`]).
    pick_keys: Vec<u64>,
    /// The auto-tiling layer the previous view's intent was drawn from.
    intent_layer: Option<Arc<AutotileLayer>>,
    /// What the previous view's art layers were built from.
    art: art_layers::ArtCache,
}

impl MapViewBuilder {
    /// The view of the current map of `world` (None without one).
    pub fn build(&mut self, world: &World) -> Option<Arc<MapView>> {
        let map = world.map(world.current_map()?).ok()?;
        let previous =
            self.previous.take().filter(|p| p.id == map.uid && p.width == map.width() && p.height == map.height());
        if previous.is_none() {
            self.tile_revisions.clear();
            self.pick_keys.clear();
        }
        let palette_art = PaletteArt::new(world, map);
        let mut styles: Vec<TileStyle> = map.palette().iter().map(|&tile| tile_style(world, tile)).collect();
        // The intent is drawn again only when the layer is another (painting makes a new one).
        let same_layer = previous.is_some()
            && match (&self.intent_layer, &map.autotile) {
                (Some(had), Some(now)) => Arc::ptr_eq(had, now),
                _ => false,
            };
        let sight = map.sight.origin.is_some();
        let (gx, gy) = map.chunk_grid();
        let mut chunks = Vec::with_capacity((gx * gy) as usize);
        self.tile_revisions.resize((gx * gy) as usize, 0);
        self.pick_keys.resize((gx * gy) as usize, 0);
        for cy in 0..gy {
            for cx in 0..gx {
                let index = (cy * gx + cx) as usize;
                let old = previous.as_ref().map(|p| &p.chunks[index]);
                let revision = map.chunk_revision(cx, cy);
                let tiles = match old {
                    Some(old) if self.tile_revisions[index] == revision => old.tiles.clone(),
                    _ => Arc::new(chunk_tiles(map, cx, cy)),
                };
                self.tile_revisions[index] = revision;
                let pick_key = palette_art.chunk_key(map, cx, cy);
                let picks = match old {
                    Some(old) if self.pick_keys[index] == pick_key => old.picks.clone(),
                    _ => palette_art
                        .chunk_picks(map, cx, cy)
                        .map(|picks| reuse(old.and_then(|o| o.picks.as_ref()), picks)),
                };
                self.pick_keys[index] = pick_key;
                let objects = reuse(old.map(|o| &o.objects), chunk_objects(world, map, cx, cy, palette_art.seed()));
                let shadow = sight.then(|| {
                    let cells = chunk_shadow(world, map, cx, cy, &mut styles);
                    reuse(old.and_then(|o| o.shadow.as_ref()), cells)
                });
                let intent = map.autotile.as_ref().map(|layer| match old.and_then(|o| o.intent.as_ref()) {
                    Some(kept) if same_layer => kept.clone(),
                    had => reuse(had, chunk_intent(map, &layer.intent, cx, cy)),
                });
                chunks.push(ChunkView { cx, cy, tiles, objects, shadow, picks, art: Vec::new(), intent });
            }
        }
        let intent_styles = map.autotile.as_ref().map(|layer| {
            let mut styles: Vec<TileStyle> = layer.intent.palette().iter().map(|&t| tile_style(world, t)).collect();
            styles.push(empty_intent_style());
            reuse(previous.as_ref().and_then(|p| p.intent_styles.as_ref()), styles)
        });
        self.intent_layer = map.autotile.clone();
        let art = &mut self.art;
        let art_layers =
            art_layers::fill_art(world, map, palette_art.seed(), previous.as_deref(), art, &mut styles, &mut chunks);
        let tile_styles = reuse(previous.as_ref().map(|p| &p.tile_styles), styles);
        let view = Arc::new(MapView {
            id: map.uid,
            name: map.name.clone(),
            width: map.width(),
            height: map.height(),
            chunk_grid: (gx, gy),
            tile_styles,
            chunks,
            art_layers,
            cell_px: cell_px(map),
            object_count: map.objects().len(),
            unresolved: map.unresolved.iter().map(|u| (u.record.x, u.record.y, u.problem.clone())).collect(),
            conflicts: map.conflicts.clone(),
            intent_styles,
        });
        self.previous = Some(view.clone());
        Some(view)
    }
}

/// The map's `cell_px` field if it is a size from 1 to 4096, else [`DEFAULT_CELL_PX`].
fn cell_px(map: &InstancedMap) -> u32 {
    let field = map.fields.base.get(Symbol::intern("cell_px")).and_then(Value::as_i64);
    field.and_then(|px| u32::try_from(px).ok()).filter(|px| (1..=4096).contains(px)).unwrap_or(DEFAULT_CELL_PX)
}

/// The previous `Arc` if its content equals `new`, else a new one.
fn reuse<T: PartialEq>(previous: Option<&Arc<T>>, new: T) -> Arc<T> {
    match previous {
        Some(previous) if **previous == new => previous.clone(),
        _ => Arc::new(new),
    }
}

fn chunk_cells(map: &InstancedMap, cx: i32, cy: i32) -> impl Iterator<Item = (i32, i32)> {
    let (x0, y0) = (cx * CHUNK_SIZE, cy * CHUNK_SIZE);
    let (x1, y1) = ((x0 + CHUNK_SIZE).min(map.width()), (y0 + CHUNK_SIZE).min(map.height()));
    (y0..y1).flat_map(move |y| (x0..x1).map(move |x| (x, y)))
}

fn chunk_tiles(map: &InstancedMap, cx: i32, cy: i32) -> Vec<u16> {
    chunk_cells(map, cx, cy).map(|(x, y)| map.tile_index(x, y)).collect()
}

/// Each cell's intent in chunk (cx, cy): its index in the intent's palette, or one past the
/// palette's end (the empty style) for a cell meant to be nothing.
fn chunk_intent(map: &InstancedMap, intent: &Intent, cx: i32, cy: i32) -> Vec<u16> {
    let empty = u16::try_from(intent.palette().len()).unwrap_or(u16::MAX);
    chunk_cells(map, cx, cy)
        .map(|(x, y)| intent.index(x, y).and_then(|i| u16::try_from(i).ok()).unwrap_or(empty))
        .collect()
}

/// How a cell meant to be nothing looks in the intent layer.
fn empty_intent_style() -> TileStyle {
    TileStyle {
        id: Symbol::intern(EMPTY_INTENT),
        glyph: " ".into(),
        fg: [90, 90, 110, 255],
        bg: [16, 16, 24, 255],
        art: None,
        known: true,
    }
}

fn chunk_objects(world: &World, map: &InstancedMap, cx: i32, cy: i32, seed: u64) -> Vec<ObjectView> {
    let mut objects = Vec::new();
    for (x, y) in chunk_cells(map, cx, cy) {
        let start = objects.len();
        for &uid in map.objects_at(x, y) {
            if let Ok(memory) = world.produce_memory(uid)
                && memory.show
            {
                let art = world.memory_art(&memory);
                let pick = art.as_ref().map_or(0, |art| pick::object_pick(art, seed, uid.0));
                objects.push(ObjectView {
                    uid,
                    kind: memory.kind,
                    x,
                    y,
                    glyph: memory.glyph,
                    color: memory.color,
                    art,
                    pick,
                });
            }
        }
        objects[start..].sort_by_key(|o| o.kind.draw_order());
    }
    objects
}

fn chunk_shadow(world: &World, map: &InstancedMap, cx: i32, cy: i32, styles: &mut Vec<TileStyle>) -> Vec<ShadowCell> {
    chunk_cells(map, cx, cy)
        .map(|(x, y)| {
            if map.sight.is_visible(x, y) {
                return ShadowCell::Visible;
            }
            let Some(memory) = map.memory.get(x, y) else { return ShadowCell::Unknown };
            let tile = match styles.iter().position(|s| s.id == memory.tile) {
                Some(index) => index,
                None => {
                    styles.push(tile_style(world, memory.tile));
                    styles.len() - 1
                }
            };
            let objects = memory.objects.iter().filter(|m| m.show).map(|m| (m.kind, m.glyph, m.color)).collect();
            ShadowCell::Remembered { tile: tile as u16, objects }
        })
        .collect()
}

/// How tile `id` looks, from its `base.map_tile` prototype.
pub fn tile_style(world: &World, id: Symbol) -> TileStyle {
    let Some(fields) = world.tile_fields(id) else {
        return TileStyle {
            id,
            glyph: "?".into(),
            fg: [255, 0, 255, 255],
            bg: [60, 0, 60, 255],
            art: None,
            known: false,
        };
    };
    let get = |name: &str| fields.get(Symbol::intern(name));
    TileStyle {
        id,
        glyph: get("glyph").and_then(Value::as_str).unwrap_or(" ").to_owned(),
        fg: get("color").and_then(parse_color).unwrap_or([160, 160, 160, 255]),
        bg: get("background").and_then(parse_color).unwrap_or([0, 0, 0, 255]),
        art: world.tile_art(id).map(|parsed| parsed.art.clone()),
        known: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_intent_is_drawn_without_the_maps_remembered_cells() {
        let chunk = ChunkView {
            // A remembered cell names a style of the map's own list, not the intent's.
            shadow: Some(Arc::new(vec![ShadowCell::Remembered { tile: 3, objects: Vec::new() }])),
            intent: Some(Arc::new(vec![1])),
            ..ChunkView::of_tiles(vec![0])
        };
        let map = MapView {
            intent_styles: Some(Arc::new(vec![empty_intent_style(), empty_intent_style()])),
            ..MapView::one_cell(chunk)
        };
        let intent = map.as_intent().expect("a map with rules");
        assert_eq!(intent.tile_index_at(0, 0), Some(1));
        assert!(intent.chunks[0].shadow.is_none());
        assert!(MapView { intent_styles: None, ..map }.as_intent().is_none(), "no rules, no intent");
    }
}
