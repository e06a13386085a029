//! The map zoomed out: glyphs would be unreadable anyway, so each layer is a texture with one
//! pixel per cell, updated chunk by chunk, and a frame is a few quads whatever the map's size.

use egui::{Color32, ColorImage, Painter, Pos2, Rect, TextureHandle, TextureOptions, Vec2};
use nefia_game::map::CHUNK_SIZE;
use nefia_protocol::view::{ChunkView, MapView, ShadowCell};

use super::DrawReport;
use super::layers::{DrawLayer, Source};
use crate::render::camera::{Camera, LayerToggles};
use crate::render::color;

/// The zoomed-out textures of one map: one pixel per cell per layer.
pub(super) struct Overview {
    map: (nefia_game::MapId, i32, i32),
    tiles: TextureHandle,
    objects: TextureHandle,
    shadow: TextureHandle,
    /// What each chunk's pixels were made from.
    chunks: Vec<Option<OverviewChunk>>,
}

/// What one chunk of the overview textures was drawn from.
struct OverviewChunk {
    tiles: Option<Source>,
    objects: Option<Source>,
    shadow: Option<Source>,
    toggles: LayerToggles,
}

impl OverviewChunk {
    fn same(&self, other: &OverviewChunk) -> bool {
        let same = |a: &Option<Source>, b: &Option<Source>| match (a, b) {
            (Some(a), Some(b)) => a.same(b),
            (None, None) => true,
            _ => false,
        };
        same(&self.tiles, &other.tiles)
            && same(&self.objects, &other.objects)
            && same(&self.shadow, &other.shadow)
            && self.toggles == other.toggles
    }
}

/// Paints `map` zoomed out into `rect`, updating the textures of the chunks that changed.
pub(super) fn paint_overview(
    kept: &mut Option<Overview>,
    painter: &Painter,
    rect: Rect,
    camera: &Camera,
    map: &MapView,
    toggles: &LayerToggles,
) -> DrawReport {
    let key = (map.id, map.width, map.height);
    if kept.as_ref().is_none_or(|o| o.map != key) {
        let blank = || ColorImage::filled([map.width as usize, map.height as usize], Color32::TRANSPARENT);
        let ctx = painter.ctx();
        *kept = Some(Overview {
            map: key,
            tiles: ctx.load_texture("nefia-map-tiles", blank(), TextureOptions::NEAREST),
            objects: ctx.load_texture("nefia-map-objects", blank(), TextureOptions::NEAREST),
            shadow: ctx.load_texture("nefia-map-shadow", blank(), TextureOptions::NEAREST),
            chunks: map.chunks.iter().map(|_| None).collect(),
        });
    }
    let overview = kept.as_mut().expect("made above");
    for (index, chunk) in map.chunks.iter().enumerate() {
        let drawn = OverviewChunk {
            tiles: Source::of(chunk, DrawLayer::Tiles, map),
            objects: Source::of(chunk, DrawLayer::Objects(nefia_game::ObjectKind::Chara), map),
            shadow: Source::of(chunk, DrawLayer::Shadow, map),
            toggles: *toggles,
        };
        if !overview.chunks[index].as_ref().is_some_and(|old| old.same(&drawn)) {
            update_overview_chunk(overview, map, chunk, toggles);
            overview.chunks[index] = Some(drawn);
        }
    }
    let map_rect = Rect::from_min_max(
        camera.to_screen(rect, Vec2::ZERO),
        camera.to_screen(rect, Vec2::new(map.width as f32, map.height as f32)),
    );
    let uv = Rect::from_min_max(Pos2::ZERO, Pos2::new(1.0, 1.0));
    if toggles.tiles {
        painter.image(overview.tiles.id(), map_rect, uv, Color32::WHITE);
    }
    if toggles.feats || toggles.mefs || toggles.items || toggles.charas {
        painter.image(overview.objects.id(), map_rect, uv, Color32::WHITE);
    }
    if toggles.shadow && map.chunks.first().is_some_and(|c| c.shadow.is_some()) {
        painter.image(overview.shadow.id(), map_rect, uv, Color32::WHITE);
    }
    DrawReport { overview: true, chunks: map.chunks.len(), ..DrawReport::default() }
}

/// Redraws one chunk's pixels of the overview textures.
fn update_overview_chunk(overview: &mut Overview, map: &MapView, chunk: &ChunkView, toggles: &LayerToggles) {
    let (w, h) = map.chunk_size(chunk.cx, chunk.cy);
    let at = [(chunk.cx * CHUNK_SIZE) as usize, (chunk.cy * CHUNK_SIZE) as usize];
    let size = [w as usize, h as usize];
    let tiles: Vec<Color32> = chunk
        .tiles
        .iter()
        .map(|&t| {
            map.tile_styles
                .get(t as usize)
                .map_or(Color32::BLACK, |s| blend(color(s.bg), color(s.fg), s.glyph.trim().is_empty()))
        })
        .collect();
    let mut objects = vec![Color32::TRANSPARENT; (w * h) as usize];
    for object in chunk.objects.iter().filter(|o| toggles.shows(o.kind)) {
        objects[((object.y - at[1] as i32) * w + object.x - at[0] as i32) as usize] = color(object.color);
    }
    let shadow: Vec<Color32> = match &chunk.shadow {
        Some(cells) => cells
            .iter()
            .map(|cell| match cell {
                ShadowCell::Visible => Color32::TRANSPARENT,
                ShadowCell::Remembered { .. } => Color32::from_black_alpha(150),
                ShadowCell::Unknown => Color32::BLACK,
            })
            .collect(),
        None => vec![Color32::TRANSPARENT; (w * h) as usize],
    };
    let image = |pixels: Vec<Color32>| ColorImage::new(size, pixels);
    overview.tiles.set_partial(at, image(tiles), TextureOptions::NEAREST);
    overview.objects.set_partial(at, image(objects), TextureOptions::NEAREST);
    overview.shadow.set_partial(at, image(shadow), TextureOptions::NEAREST);
}

/// A cell's colour seen from afar: its background, tinted by its glyph.
fn blend(bg: Color32, fg: Color32, blank: bool) -> Color32 {
    if blank {
        return bg;
    }
    let mix = |a: u8, b: u8| ((a as u16 * 2 + b as u16) / 3) as u8;
    Color32::from_rgb(mix(bg.r(), fg.r()), mix(bg.g(), fg.g()), mix(bg.b(), fg.b()))
}
