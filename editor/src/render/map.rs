//! The map view: its draw layers ([`layers`]: tiles, art layers below, feats, mefs, items,
//! characters, art layers above, the shadow) then the mods' layers, painted with egui from a
//! [`MapView`].
//!
//! Zoomed in (a cell of [`GLYPH_MIN_ZOOM`] pixels or more), each chunk's layer is a cached
//! batch of meshes ([`chunk`]): cell colours and glyphs, then its sprites as textured quads
//! from the [`Atlas`] (one mesh per atlas page). A chunk's meshes are rebuilt only when its
//! data (an `Arc` in the view), the zoom, the map's cell size or the atlas change, and its
//! sprites alone when one of its animations shows its next frame; a frame copies the visible
//! chunks' meshes into place, one mesh per layer and texture. The ASCII view
//! ([`LayerToggles::ascii`]) draws glyphs only and never reads an image. Zoomed out, glyphs
//! would be unreadable anyway: each layer is a texture with one pixel per cell
//! ([`overview`]).

pub mod chunk;
pub mod layers;
mod overview;

use std::collections::HashMap;
use std::path::PathBuf;

use egui::epaint::Mesh;
use egui::{Color32, FontId, Painter, Pos2, Rect, Shape, Vec2};
use nefia_game::Uid;
use nefia_game::art::{Art, Sprite, pick};
use nefia_game::display::{DrawCmd, DrawList};
use nefia_game::map::CHUNK_SIZE;
use nefia_protocol::view::MapView;

use self::chunk::{Built, MeshBuilder, append_translated, new_tessellator};
use self::layers::{DrawLayer, Source};
use self::overview::Overview;
use super::atlas::Atlas;
use super::camera::{Camera, GLYPH_MIN_ZOOM, LayerToggles};
use super::color;
use super::sheet_watch::SheetWatch;

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

/// What the last frame drew of one draw layer.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LayerDrawn {
    /// The layer: `tiles`, `art:NAME`, `feats`, `mefs`, `items`, `charas` or `shadow`.
    pub name: String,
    /// Sprites drawn.
    pub sprites: usize,
    /// Glyphs drawn.
    pub glyphs: usize,
}

/// What the last frame drew: for tests and the status bar.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DrawReport {
    /// True if the map was drawn as pixels (zoomed out).
    pub overview: bool,
    /// Chunks drawn.
    pub chunks: usize,
    /// Visible objects drawn (zoomed in), in drawing order.
    pub objects: Vec<DrawnObject>,
    /// Draw commands of mod layers drawn.
    pub mod_commands: usize,
    /// Ids of the HUD widgets drawn over the map.
    pub widgets: Vec<String>,
    /// Sprites drawn (tiles, art layers' cells and objects with art).
    pub sprites: usize,
    /// Glyphs drawn.
    pub glyphs: usize,
    /// The layers drawn, in order (zoomed in).
    pub layers: Vec<LayerDrawn>,
}

/// What a cached chunk layer was built under, besides its data.
#[derive(Clone, Copy, Debug, PartialEq)]
struct BuiltUnder {
    zoom: f32,
    cell_px: u32,
    /// The ASCII view (no sprites).
    ascii: bool,
    font: FontKey,
    atlas: u64,
}

struct Cached {
    source: Source,
    under: BuiltUnder,
    built: Built,
}

/// Identifies the state of egui's font atlas: cached glyph meshes hold texture coordinates
/// into it, so they are rebuilt when it grows or is recreated.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct FontKey {
    size: [usize; 2],
    generation: u64,
}

/// Paints map views, caching per-chunk meshes and textures between frames.
#[derive(Default)]
pub struct MapRenderer {
    meshes: HashMap<(usize, DrawLayer), Cached>,
    atlas: Atlas,
    watch: SheetWatch,
    overview: Option<Overview>,
    font: FontKey,
    font_fill: f32,
    clock: Option<u64>,
}

impl MapRenderer {
    /// Paints `map` into `rect` as `camera` sees it, with the layers `toggles` allows, then
    /// the mods' layers; the sheets of sprites are looked up in `assets`. Returns what was
    /// drawn.
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
            overview::paint_overview(&mut self.overview, &painter, rect, camera, map, toggles)
        } else {
            self.paint_chunks(&painter, rect, camera, map, toggles, assets)
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

    /// Fixes the animation clock at `time_ms` (None: egui's clock), for tests and benches.
    pub fn set_clock(&mut self, time_ms: Option<u64>) {
        self.clock = time_ms;
    }

    /// The sprite atlas.
    pub fn atlas(&self) -> &Atlas {
        &self.atlas
    }

    /// Paints what `art` draws on a cell with no neighbours like it (a sprite set's piece
    /// alone, a variant of seed 0), its first frame fitted into `rect`, from this renderer's
    /// atlas (the sheets looked up in `assets`): the palette's preview of a prototype.
    /// False, painting nothing, if its sheet is missing or broken (draw the glyph instead).
    pub fn paint_art_preview(&mut self, painter: &Painter, rect: Rect, art: &Art, assets: &[PathBuf]) -> bool {
        self.paint_sprite(painter, rect, art.sprite(pick::pick(art, 0, 0, 0, 0)), 0, assets)
    }

    /// Paints frame `frame` of `sprite` fitted into `rect` (its proportions kept), from this
    /// renderer's atlas; false, painting nothing, if its sheet is missing or broken.
    pub fn paint_sprite(
        &mut self,
        painter: &Painter,
        rect: Rect,
        sprite: &Sprite,
        frame: usize,
        assets: &[PathBuf],
    ) -> bool {
        let Some(placed) = self.atlas.frame(painter.ctx(), assets, sprite, frame) else { return false };
        let [width, height] = placed.size.map(|side| side.max(1) as f32);
        let scale = (rect.width() / width).min(rect.height() / height);
        let drawn = Rect::from_center_size(rect.center(), Vec2::new(width, height) * scale);
        painter.image(placed.texture, drawn, placed.uv, Color32::WHITE);
        true
    }

    /// The animations' clock, in milliseconds: egui's, unless fixed by [`MapRenderer::set_clock`].
    pub fn time_ms(&self, ctx: &egui::Context) -> u64 {
        self.clock.unwrap_or_else(|| (ctx.input(|i| i.time) * 1000.0) as u64)
    }

    fn paint_chunks(
        &mut self,
        painter: &Painter,
        rect: Rect,
        camera: &Camera,
        map: &MapView,
        toggles: &LayerToggles,
        assets: &[PathBuf],
    ) -> DrawReport {
        let ctx = painter.ctx().clone();
        self.update_font_key(&ctx);
        if !toggles.ascii {
            self.watch.follow(&ctx, assets);
            for path in self.watch.changed() {
                self.atlas.reload_path(&path);
            }
        }
        let camera = camera.as_drawn();
        let time_ms = self.time_ms(&ctx);
        let under = BuiltUnder {
            zoom: camera.zoom,
            cell_px: map.cell_px.max(1),
            ascii: toggles.ascii,
            font: self.font,
            atlas: self.atlas.generation(),
        };
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
        let MapRenderer { meshes, atlas, .. } = self;
        let mut builder = MeshBuilder {
            painter,
            tessellator: new_tessellator(&ctx),
            atlas: (!toggles.ascii).then_some((atlas, assets)),
            zoom: under.zoom,
            scale: under.zoom / under.cell_px as f32,
        };
        let mut next_frame: Option<u64> = None;
        for layer in DrawLayer::order(map, toggles, !toggles.ascii) {
            let mut drawn = LayerDrawn { name: layer.name(map), ..LayerDrawn::default() };
            let (mut below, mut sprites, mut above) = (Mesh::default(), Vec::<Mesh>::new(), Mesh::default());
            for &(index, origin) in &chunks {
                let chunk = &map.chunks[index];
                let Some(source) = Source::of(chunk, layer, map) else { continue };
                let cached = meshes.get_mut(&(index, layer)).filter(|c| c.under == under && c.source.same(&source));
                let built = match cached {
                    Some(cached) => {
                        if cached.built.next_frame_ms.is_some_and(|next| next <= time_ms) {
                            builder.sprites(map, chunk, layer, time_ms, &mut cached.built);
                        }
                        &cached.built
                    }
                    None => {
                        let built = builder.build(map, chunk, layer, time_ms);
                        &meshes.entry((index, layer)).insert_entry(Cached { source, under, built }).into_mut().built
                    }
                };
                append_translated(&mut below, &built.under, origin);
                for mesh in &built.sprites {
                    match sprites.iter_mut().find(|m| m.texture_id == mesh.texture_id) {
                        Some(frame) => append_translated(frame, mesh, origin),
                        None => {
                            let mut frame = Mesh::with_texture(mesh.texture_id);
                            append_translated(&mut frame, mesh, origin);
                            sprites.push(frame);
                        }
                    }
                }
                append_translated(&mut above, &built.over, origin);
                drawn.sprites += built.sprite_count;
                drawn.glyphs += built.glyph_count;
                if let Some(next) = built.next_frame_ms {
                    next_frame = Some(next_frame.map_or(next, |n| n.min(next)));
                }
            }
            for mesh in std::iter::once(below).chain(sprites).chain([above]) {
                if !mesh.is_empty() {
                    painter.add(Shape::mesh(mesh));
                }
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
            report.sprites += drawn.sprites;
            report.glyphs += drawn.glyphs;
            report.layers.push(drawn);
        }
        if let Some(next) = next_frame {
            // The next frame of an animation in view.
            chunk::repaint_at_frame(&ctx, next, time_ms);
        }
        self.atlas.release_sheets();
        report
    }

    /// Problems reading images since the last call (missing or broken sheets).
    pub fn take_image_problems(&mut self) -> Vec<String> {
        self.atlas.take_problems()
    }

    fn update_font_key(&mut self, ctx: &egui::Context) {
        let (size, fill) = ctx.fonts(|f| (f.font_image_size(), f.font_atlas_fill_ratio()));
        // egui recreates a nearly full atlas; the fill ratio dropping shows it happened.
        if fill < self.font_fill {
            self.font.generation += 1;
        }
        self.font_fill = fill;
        self.font.size = size;
    }
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
