//! The map view: the seed's map draw layers — tiles, feats, items, characters, the shadow
//! layer, then the mods' layers — painted with egui from a [`MapView`].
//!
//! Zoomed in (a cell of [`GLYPH_MIN_ZOOM`] pixels or more), each chunk is a cached mesh of
//! coloured cells and glyphs per layer, rebuilt only when that chunk's data (an `Arc` in the
//! view) or the zoom changes; a frame copies the visible chunks' meshes into place. Zoomed
//! out, glyphs would be unreadable anyway: each layer is a texture with one pixel per cell,
//! updated chunk by chunk, so a frame is a few quads whatever the map's size.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

use egui::epaint::{Mesh, Tessellator, TextShape, Vertex};
use egui::{Color32, ColorImage, FontId, Painter, Pos2, Rect, Shape, TextureHandle, TextureOptions, Vec2};
use nefia_game::display::{DrawCmd, DrawList};
use nefia_game::map::CHUNK_SIZE;
use nefia_game::{ObjectKind, Symbol, Uid};
use nefia_protocol::view::{ChunkView, MapView, ObjectView, ShadowCell, TileStyle};

use super::camera::{Camera, GLYPH_MIN_ZOOM, LayerToggles};
use super::color;
use super::images::ImageCache;

/// An object the last frame drew.
#[derive(Clone, Debug, PartialEq)]
pub struct DrawnObject {
    /// Its uid.
    pub uid: Uid,
    /// Its cell.
    pub cell: (i32, i32),
    /// Its glyph.
    pub glyph: String,
}

/// What the last frame drew: for tests and the status bar.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DrawReport {
    /// True if the map was drawn as pixels (zoomed out).
    pub overview: bool,
    /// Chunks drawn.
    pub chunks: usize,
    /// Visible objects drawn (glyph mode), in drawing order.
    pub objects: Vec<DrawnObject>,
    /// Draw commands of mod layers drawn.
    pub mod_commands: usize,
    /// Ids of the HUD widgets drawn over the map.
    pub widgets: Vec<String>,
    /// Images drawn (tiles and objects whose prototype names one).
    pub images: usize,
}

/// The data a cached mesh was built from; holding it keeps its address from being reused.
#[derive(Clone)]
enum Source {
    Tiles(Arc<Vec<u16>>, Arc<Vec<TileStyle>>),
    /// Objects are drawn over their cell's background, so they depend on the tiles too.
    Objects(Arc<Vec<ObjectView>>, Arc<Vec<u16>>, Arc<Vec<TileStyle>>),
    Shadow(Arc<Vec<ShadowCell>>, Arc<Vec<TileStyle>>),
}

impl Source {
    fn same(&self, other: &Source) -> bool {
        match (self, other) {
            (Source::Tiles(a, s), Source::Tiles(b, t)) => Arc::ptr_eq(a, b) && Arc::ptr_eq(s, t),
            (Source::Shadow(a, s), Source::Shadow(b, t)) => Arc::ptr_eq(a, b) && Arc::ptr_eq(s, t),
            (Source::Objects(a, c, s), Source::Objects(b, d, t)) => {
                Arc::ptr_eq(a, b) && Arc::ptr_eq(c, d) && Arc::ptr_eq(s, t)
            }
            _ => false,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Hash)]
enum DrawLayer {
    Tiles,
    Objects(ObjectKind),
    Shadow,
}

struct Cached {
    source: Source,
    zoom: f32,
    atlas: AtlasKey,
    mesh: Mesh,
}

/// Identifies the state of egui's font atlas: cached glyph meshes hold texture coordinates
/// into it, so they are rebuilt when it grows or is recreated.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct AtlasKey {
    size: [usize; 2],
    generation: u64,
}

/// The zoomed-out textures of one map: one pixel per cell per layer.
struct Overview {
    map: (nefia_game::MapId, i32, i32),
    tiles: TextureHandle,
    objects: TextureHandle,
    shadow: TextureHandle,
    /// What each chunk's pixels were made from.
    chunks: Vec<Option<OverviewChunk>>,
}

/// What one chunk of the overview textures was drawn from.
struct OverviewChunk {
    tiles: Source,
    objects: Source,
    shadow: Option<Source>,
    toggles: LayerToggles,
}

impl OverviewChunk {
    fn same(&self, other: &OverviewChunk) -> bool {
        self.tiles.same(&other.tiles)
            && self.objects.same(&other.objects)
            && self.toggles == other.toggles
            && match (&self.shadow, &other.shadow) {
                (Some(a), Some(b)) => a.same(b),
                (None, None) => true,
                _ => false,
            }
    }
}

/// Paints map views, caching per-chunk meshes and textures between frames.
#[derive(Default)]
pub struct MapRenderer {
    meshes: HashMap<(usize, DrawLayer), Cached>,
    images: ImageCache,
    overview: Option<Overview>,
    atlas: AtlasKey,
    atlas_fill: f32,
}

impl MapRenderer {
    /// Paints `map` into `rect` as `camera` sees it, with the layers `toggles` allows, then
    /// the mods' layers; images named by prototypes are looked up in `assets`. Returns what
    /// was drawn.
    #[allow(clippy::too_many_arguments)]
    pub fn paint(
        &mut self,
        painter: &Painter,
        rect: Rect,
        camera: &Camera,
        map: &MapView,
        toggles: &LayerToggles,
        mod_layers: &[(String, DrawList)],
        assets: &[PathBuf],
    ) -> DrawReport {
        let painter = painter.with_clip_rect(rect);
        painter.rect_filled(rect, 0.0, Color32::from_gray(8));
        let mut report = if camera.zoom < GLYPH_MIN_ZOOM {
            self.paint_overview(&painter, rect, camera, map, toggles)
        } else {
            self.paint_glyphs(&painter, rect, camera, map, toggles, assets)
        };
        if toggles.grid && camera.zoom >= GLYPH_MIN_ZOOM {
            paint_grid(&painter, rect, camera, map);
        }
        if toggles.mods {
            for (_, commands) in mod_layers {
                report.mod_commands += commands.len();
                paint_draw_list(&painter, commands, |x, y| camera.to_screen(rect, Vec2::new(x, y)), camera.zoom);
            }
        }
        report
    }

    fn paint_glyphs(
        &mut self,
        painter: &Painter,
        rect: Rect,
        camera: &Camera,
        map: &MapView,
        toggles: &LayerToggles,
        assets: &[PathBuf],
    ) -> DrawReport {
        self.update_atlas_key(painter.ctx());
        let camera = camera.as_drawn();
        let zoom = camera.zoom;
        let mut report = DrawReport::default();
        let (first, last) = visible_chunks(rect, &camera, map);
        let chunks: Vec<(usize, Vec2)> = (first.1..=last.1)
            .flat_map(|cy| (first.0..=last.0).map(move |cx| (cx, cy)))
            .filter_map(|(cx, cy)| {
                let index = (cy * map.chunk_grid.0 + cx) as usize;
                let origin =
                    camera.to_screen(rect, Vec2::new((cx * CHUNK_SIZE) as f32, (cy * CHUNK_SIZE) as f32)).round();
                (index < map.chunks.len()).then_some((index, origin.to_vec2()))
            })
            .collect();
        report.chunks = chunks.len();
        let mut layers = Vec::new();
        if toggles.tiles {
            layers.push(DrawLayer::Tiles);
        }
        layers.extend(ObjectKind::ALL.into_iter().filter(|&k| toggles.shows(k)).map(DrawLayer::Objects));
        if toggles.shadow {
            layers.push(DrawLayer::Shadow);
        }
        let ctx = painter.ctx().clone();
        let mut tessellator = None;
        // Layer by layer, so images (drawn between the meshes) keep the layers' order.
        for layer in layers {
            let mut frame = Mesh::default();
            for &(index, origin) in &chunks {
                let chunk = &map.chunks[index];
                let Some(source) = source_of(chunk, layer, map) else { continue };
                let cached = self.meshes.get(&(index, layer));
                if !cached.is_some_and(|c| c.zoom == zoom && c.atlas == self.atlas && c.source.same(&source)) {
                    let tessellator = tessellator.get_or_insert_with(|| new_tessellator(&ctx));
                    let images = &mut self.images;
                    let mut has_image = |name: Symbol| images.has(&ctx, assets, name);
                    let mesh = build_mesh(painter, tessellator, &mut has_image, map, chunk, layer, zoom);
                    self.meshes.insert((index, layer), Cached { source, zoom, atlas: self.atlas, mesh });
                }
                append_translated(&mut frame, &self.meshes[&(index, layer)].mesh, origin);
            }
            if !frame.is_empty() {
                painter.add(Shape::mesh(frame));
            }
            for &(index, origin) in &chunks {
                report.images += self.paint_images(painter, map, &map.chunks[index], layer, origin, zoom, assets);
            }
            if let DrawLayer::Objects(kind) = layer {
                for &(index, _) in &chunks {
                    report.objects.extend(
                        map.chunks[index].objects.iter().filter(|o| o.kind == kind).map(|o| DrawnObject {
                            uid: o.uid,
                            cell: (o.x, o.y),
                            glyph: o.glyph.as_str().to_owned(),
                        }),
                    );
                }
            }
        }
        report
    }

    /// Draws the images of one layer of one chunk whose top-left corner is at `origin`.
    #[allow(clippy::too_many_arguments)]
    fn paint_images(
        &mut self,
        painter: &Painter,
        map: &MapView,
        chunk: &ChunkView,
        layer: DrawLayer,
        origin: Vec2,
        zoom: f32,
        assets: &[PathBuf],
    ) -> usize {
        let (w, _) = map.chunk_size(chunk.cx, chunk.cy);
        let (x0, y0) = (chunk.cx * CHUNK_SIZE, chunk.cy * CHUNK_SIZE);
        let cell_rect = |x: i32, y: i32| {
            Rect::from_min_size(Pos2::new((x - x0) as f32 * zoom, (y - y0) as f32 * zoom) + origin, Vec2::splat(zoom))
        };
        let uv = Rect::from_min_max(Pos2::ZERO, Pos2::new(1.0, 1.0));
        let images: Vec<(Rect, Symbol)> = match layer {
            DrawLayer::Tiles => chunk
                .tiles
                .iter()
                .enumerate()
                .filter_map(|(i, &t)| {
                    let art = map.tile_styles.get(t as usize)?.art.as_ref()?;
                    Some((cell_rect(x0 + i as i32 % w, y0 + i as i32 / w), art.sprites[0].sheet))
                })
                .collect(),
            DrawLayer::Objects(kind) => chunk
                .objects
                .iter()
                .filter(|o| o.kind == kind)
                .filter_map(|o| Some((cell_rect(o.x, o.y), o.art.as_ref()?.sprite(o.pick).sheet)))
                .collect(),
            DrawLayer::Shadow => Vec::new(),
        };
        let mut drawn = 0;
        for (rect, name) in images {
            if let Some(texture) = self.images.get(painter.ctx(), assets, name) {
                painter.image(texture.id(), rect, uv, Color32::WHITE);
                drawn += 1;
            }
        }
        drawn
    }

    /// Problems loading images since the last call.
    pub fn take_image_problems(&mut self) -> Vec<String> {
        self.images.take_problems()
    }

    fn update_atlas_key(&mut self, ctx: &egui::Context) {
        let (size, fill) = ctx.fonts(|f| (f.font_image_size(), f.font_atlas_fill_ratio()));
        // egui recreates a nearly full atlas; the fill ratio dropping shows it happened.
        if fill < self.atlas_fill {
            self.atlas.generation += 1;
        }
        self.atlas_fill = fill;
        self.atlas.size = size;
    }

    fn paint_overview(
        &mut self,
        painter: &Painter,
        rect: Rect,
        camera: &Camera,
        map: &MapView,
        toggles: &LayerToggles,
    ) -> DrawReport {
        let key = (map.id, map.width, map.height);
        if self.overview.as_ref().is_none_or(|o| o.map != key) {
            let blank = || ColorImage::filled([map.width as usize, map.height as usize], Color32::TRANSPARENT);
            let ctx = painter.ctx();
            self.overview = Some(Overview {
                map: key,
                tiles: ctx.load_texture("nefia-map-tiles", blank(), TextureOptions::NEAREST),
                objects: ctx.load_texture("nefia-map-objects", blank(), TextureOptions::NEAREST),
                shadow: ctx.load_texture("nefia-map-shadow", blank(), TextureOptions::NEAREST),
                chunks: map.chunks.iter().map(|_| None).collect(),
            });
        }
        let overview = self.overview.as_mut().expect("made above");
        for (index, chunk) in map.chunks.iter().enumerate() {
            let drawn = OverviewChunk {
                tiles: Source::Tiles(chunk.tiles.clone(), map.tile_styles.clone()),
                objects: Source::Objects(chunk.objects.clone(), chunk.tiles.clone(), map.tile_styles.clone()),
                shadow: chunk.shadow.clone().map(|s| Source::Shadow(s, map.tile_styles.clone())),
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
}

fn source_of(chunk: &ChunkView, layer: DrawLayer, map: &MapView) -> Option<Source> {
    Some(match layer {
        DrawLayer::Tiles => Source::Tiles(chunk.tiles.clone(), map.tile_styles.clone()),
        DrawLayer::Objects(_) => Source::Objects(chunk.objects.clone(), chunk.tiles.clone(), map.tile_styles.clone()),
        DrawLayer::Shadow => Source::Shadow(chunk.shadow.clone()?, map.tile_styles.clone()),
    })
}

/// The first and last chunk (column, row) touching `rect`.
fn visible_chunks(rect: Rect, camera: &Camera, map: &MapView) -> ((i32, i32), (i32, i32)) {
    let top_left = camera.to_cell(rect, rect.min);
    let bottom_right = camera.to_cell(rect, rect.max);
    let clamp = |v: f32, max: i32| ((v.floor() as i32).div_euclid(CHUNK_SIZE)).clamp(0, max - 1);
    (
        (clamp(top_left.x, map.chunk_grid.0), clamp(top_left.y, map.chunk_grid.1)),
        (clamp(bottom_right.x, map.chunk_grid.0), clamp(bottom_right.y, map.chunk_grid.1)),
    )
}

fn new_tessellator(ctx: &egui::Context) -> Tessellator {
    let options = ctx.tessellation_options(|o| *o);
    let size = ctx.fonts(|f| f.font_image_size());
    Tessellator::new(ctx.pixels_per_point(), options, size, Vec::new())
}

/// Appends `mesh` moved by `offset` to `frame`.
fn append_translated(frame: &mut Mesh, mesh: &Mesh, offset: Vec2) {
    let base = frame.vertices.len() as u32;
    frame.vertices.extend(mesh.vertices.iter().map(|v| Vertex { pos: v.pos + offset, ..*v }));
    frame.indices.extend(mesh.indices.iter().map(|i| i + base));
}

/// A glyph centred in the cell whose top-left corner is `at`, `zoom` pixels wide.
fn add_glyph(
    painter: &Painter,
    tessellator: &mut Tessellator,
    mesh: &mut Mesh,
    at: Pos2,
    zoom: f32,
    glyph: &str,
    color: Color32,
) {
    if glyph.trim().is_empty() {
        return;
    }
    let galley = painter.layout_no_wrap(glyph.to_owned(), FontId::monospace((zoom * 0.8).round().max(4.0)), color);
    let pos = at + (Vec2::splat(zoom) - galley.size()) / 2.0;
    tessellator.tessellate_text(&TextShape::new(pos.round(), galley, color), mesh);
}

/// Builds the mesh of one layer of one chunk, in pixels from the chunk's top-left corner.
/// Cells and objects with an image (`has_image`) get no glyph: the image is drawn over them.
fn build_mesh(
    painter: &Painter,
    tessellator: &mut Tessellator,
    has_image: &mut dyn FnMut(Symbol) -> bool,
    map: &MapView,
    chunk: &ChunkView,
    layer: DrawLayer,
    zoom: f32,
) -> Mesh {
    let mut mesh = Mesh::default();
    let (w, _) = map.chunk_size(chunk.cx, chunk.cy);
    let (x0, y0) = (chunk.cx * CHUNK_SIZE, chunk.cy * CHUNK_SIZE);
    let cell_rect = |x: i32, y: i32| {
        Rect::from_min_size(Pos2::new((x - x0) as f32 * zoom, (y - y0) as f32 * zoom), Vec2::splat(zoom))
    };
    let style = |index: u16| map.tile_styles.get(index as usize);
    match layer {
        DrawLayer::Tiles => {
            for (i, &tile) in chunk.tiles.iter().enumerate() {
                let (x, y) = (x0 + i as i32 % w, y0 + i as i32 / w);
                let Some(style) = style(tile) else { continue };
                mesh.add_colored_rect(cell_rect(x, y), color(style.bg));
                if !style.art.as_ref().is_some_and(|art| has_image(art.sprites[0].sheet)) {
                    add_glyph(
                        painter,
                        tessellator,
                        &mut mesh,
                        cell_rect(x, y).min,
                        zoom,
                        &style.glyph,
                        color(style.fg),
                    );
                }
            }
        }
        DrawLayer::Objects(kind) => {
            for object in chunk.objects.iter().filter(|o| o.kind == kind) {
                // The object hides what is under it: its cell's background first.
                let rect = cell_rect(object.x, object.y);
                let background = map.tile_at(object.x, object.y).map_or(Color32::BLACK, |s| color(s.bg));
                mesh.add_colored_rect(rect, background);
                if !object.art.as_ref().is_some_and(|art| has_image(art.sprite(object.pick).sheet)) {
                    add_glyph(
                        painter,
                        tessellator,
                        &mut mesh,
                        rect.min,
                        zoom,
                        object.glyph.as_str(),
                        color(object.color),
                    );
                }
            }
        }
        DrawLayer::Shadow => {
            let Some(shadow) = &chunk.shadow else { return mesh };
            for (i, cell) in shadow.iter().enumerate() {
                let (x, y) = (x0 + i as i32 % w, y0 + i as i32 / w);
                let rect = cell_rect(x, y);
                match cell {
                    ShadowCell::Visible => {}
                    ShadowCell::Unknown => mesh.add_colored_rect(rect, Color32::BLACK),
                    ShadowCell::Remembered { tile, objects } => {
                        if let Some(style) = style(*tile) {
                            mesh.add_colored_rect(rect, color(style.bg));
                            if objects.is_empty() {
                                add_glyph(
                                    painter,
                                    tessellator,
                                    &mut mesh,
                                    rect.min,
                                    zoom,
                                    &style.glyph,
                                    color(style.fg),
                                );
                            }
                        }
                        // Only the top remembered object shows, as in the live layers.
                        if let Some((_, glyph, object_color)) = objects.last() {
                            add_glyph(
                                painter,
                                tessellator,
                                &mut mesh,
                                rect.min,
                                zoom,
                                glyph.as_str(),
                                color(*object_color),
                            );
                        }
                        mesh.add_colored_rect(rect, Color32::from_black_alpha(150));
                    }
                }
            }
        }
    }
    mesh
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

fn paint_grid(painter: &Painter, rect: Rect, camera: &Camera, map: &MapView) {
    let stroke = egui::Stroke::new(1.0, Color32::from_white_alpha(24));
    let top_left = camera.to_cell(rect, rect.min).max(Vec2::ZERO);
    let bottom_right = camera.to_cell(rect, rect.max).min(Vec2::new(map.width as f32, map.height as f32));
    let (y0, y1) = (
        camera.to_screen(rect, Vec2::new(0.0, top_left.y.floor())).y,
        camera.to_screen(rect, Vec2::new(0.0, bottom_right.y.ceil())).y,
    );
    let (x0, x1) = (
        camera.to_screen(rect, Vec2::new(top_left.x.floor(), 0.0)).x,
        camera.to_screen(rect, Vec2::new(bottom_right.x.ceil(), 0.0)).x,
    );
    for x in top_left.x.floor() as i32..=bottom_right.x.ceil() as i32 {
        let sx = camera.to_screen(rect, Vec2::new(x as f32, 0.0)).x;
        painter.line_segment([Pos2::new(sx, y0), Pos2::new(sx, y1)], stroke);
    }
    for y in top_left.y.floor() as i32..=bottom_right.y.ceil() as i32 {
        let sy = camera.to_screen(rect, Vec2::new(0.0, y as f32)).y;
        painter.line_segment([Pos2::new(x0, sy), Pos2::new(x1, sy)], stroke);
    }
}

/// Paints a draw list; `place(x, y)` turns its units into a screen position and `cell` is the
/// size of a glyph's cell in pixels.
pub fn paint_draw_list(painter: &Painter, commands: &[DrawCmd], place: impl Fn(f32, f32) -> Pos2, cell: f32) {
    for command in commands {
        match command {
            DrawCmd::Rect { at, w, h, color: fill } => {
                let min = place(at.x, at.y) + Vec2::new(at.dx, at.dy);
                let max = place(at.x + w, at.y + h) + Vec2::new(at.dx, at.dy);
                painter.rect_filled(Rect::from_min_max(min, max), 0.0, color(*fill));
            }
            DrawCmd::Text { at, text, color: fill, size } => {
                let pos = place(at.x, at.y) + Vec2::new(at.dx, at.dy);
                painter.text(pos, egui::Align2::LEFT_TOP, text, FontId::proportional(*size), color(*fill));
            }
            DrawCmd::Glyph { at, glyph, color: fill } => {
                let min = place(at.x, at.y) + Vec2::new(at.dx, at.dy);
                let center = min + Vec2::splat(cell / 2.0);
                painter.text(
                    center,
                    egui::Align2::CENTER_CENTER,
                    glyph,
                    FontId::monospace((cell * 0.8).max(6.0)),
                    color(*fill),
                );
            }
        }
    }
}
