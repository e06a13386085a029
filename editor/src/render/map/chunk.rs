//! The geometry of one draw layer of one chunk, in pixels from the chunk's top-left corner:
//! what is under the sprites (cell colours, glyphs), the sprites (textured quads, one mesh
//! per atlas page) and what is over them (the shadow's dimming). Without an atlas (the ASCII
//! view) every piece is its glyph.
//!
//! Sprites are anchored at their cell's bottom edge, centred, scaled so a cell of the map's
//! `cell_px` pixels fills the zoom, and shifted by their offset (and their art layer's).

use std::path::PathBuf;

use egui::epaint::{Mesh, Tessellator, TextShape, Vertex};
use egui::{Color32, FontId, Painter, Pos2, Rect, TextureId, Vec2};
use nefia_game::art::Sprite;
use nefia_game::map::CHUNK_SIZE;
use nefia_protocol::view::{ChunkView, MapView, ShadowCell};

use super::layers::{DrawLayer, Piece, pieces};
use crate::render::atlas::{Atlas, Placed};
use crate::render::color;

/// One layer of one chunk, ready to copy into a frame.
#[derive(Default)]
pub(super) struct Built {
    /// Cell colours and glyphs, under the sprites.
    pub under: Mesh,
    /// The sprites, one mesh per texture.
    pub sprites: Vec<Mesh>,
    /// Drawn over the sprites: remembered objects and the dimming of remembered cells.
    pub over: Mesh,
    /// Sprites drawn.
    pub sprite_count: usize,
    /// Glyphs drawn.
    pub glyph_count: usize,
    /// When one of its animated sprites next shows another frame (ms on the animation clock).
    pub next_frame_ms: Option<u64>,
}

/// What the meshes of a frame are built with.
pub(super) struct MeshBuilder<'a> {
    /// Lays glyphs out.
    pub painter: &'a Painter,
    /// Tessellates glyphs.
    pub tessellator: Tessellator,
    /// The sprites' atlas and the asset folders their sheets are in; none in the ASCII view.
    pub atlas: Option<(&'a mut Atlas, &'a [PathBuf])>,
    /// Pixels per cell.
    pub zoom: f32,
    /// Screen pixels per sprite pixel.
    pub scale: f32,
}

impl MeshBuilder<'_> {
    /// Where frame `frame` of `sprite` is in the atlas, if there is an atlas and it could be
    /// packed.
    fn place(&mut self, sprite: Option<&Sprite>, frame: usize) -> Option<Placed> {
        let (atlas, dirs) = self.atlas.as_mut()?;
        atlas.frame(self.painter.ctx(), dirs, sprite?, frame)
    }

    /// The cell `cell`'s rectangle, in pixels from the top-left corner of its chunk.
    fn cell_rect(&self, chunk: &ChunkView, cell: (i32, i32)) -> Rect {
        let (x, y) = (cell.0 - chunk.cx * CHUNK_SIZE, cell.1 - chunk.cy * CHUNK_SIZE);
        Rect::from_min_size(Pos2::new(x as f32, y as f32) * self.zoom, Vec2::splat(self.zoom))
    }

    /// Builds `layer` of `chunk` at animation time `time_ms`.
    pub fn build(&mut self, map: &MapView, chunk: &ChunkView, layer: DrawLayer, time_ms: u64) -> Built {
        let mut built = Built::default();
        match layer {
            DrawLayer::Shadow => self.shadow(map, chunk, &mut built),
            _ => {
                for piece in pieces(map, chunk, layer) {
                    if self.place(piece.sprite, 0).is_some() {
                        continue;
                    }
                    let rect = self.cell_rect(chunk, piece.cell);
                    if let Some(bg) = piece.bg {
                        built.under.add_colored_rect(rect, color(bg));
                    }
                    built.glyph_count += self.glyph(&mut built.under, rect.min, piece.glyph, color(piece.fg));
                }
            }
        }
        self.sprites(map, chunk, layer, time_ms, &mut built);
        built
    }

    /// Builds the sprites of `layer` of `chunk` anew for animation time `time_ms` (what is
    /// under and over them stays).
    pub fn sprites(&mut self, map: &MapView, chunk: &ChunkView, layer: DrawLayer, time_ms: u64, built: &mut Built) {
        built.sprites.clear();
        built.sprite_count = 0;
        built.next_frame_ms = None;
        if self.atlas.is_none() {
            return;
        }
        let drawn: Vec<(Piece, usize)> = match layer {
            DrawLayer::Shadow => remembered_tiles(map, chunk).into_iter().map(|piece| (piece, 0)).collect(),
            _ => pieces(map, chunk, layer)
                .into_iter()
                .map(|piece| {
                    let frame = piece.sprite.map_or(0, |s| s.frame_index_at(time_ms));
                    if let Some(next) = piece.sprite.and_then(|s| next_frame_ms(s, time_ms)) {
                        built.next_frame_ms = Some(built.next_frame_ms.map_or(next, |n| n.min(next)));
                    }
                    (piece, frame)
                })
                .collect(),
        };
        for (piece, frame) in drawn {
            let Some(sprite) = piece.sprite else { continue };
            let Some(placed) = self.place(Some(sprite), frame) else { continue };
            let rect = self.sprite_rect(chunk, &piece, sprite, placed.size);
            mesh_for(&mut built.sprites, placed.texture).add_rect_with_uv(rect, placed.uv, Color32::WHITE);
            built.sprite_count += 1;
        }
    }

    /// Where a sprite of `size` pixels is drawn for `piece`: at the bottom of its cell,
    /// centred, shifted by its offsets.
    fn sprite_rect(&self, chunk: &ChunkView, piece: &Piece, sprite: &Sprite, size: [u32; 2]) -> Rect {
        let cell = self.cell_rect(chunk, piece.cell);
        let (w, h) = (size[0] as f32 * self.scale, size[1] as f32 * self.scale);
        let offset = Vec2::new(
            (sprite.offset.0 + piece.offset.0) as f32 * self.scale,
            (sprite.offset.1 + piece.offset.1) as f32 * self.scale,
        );
        let min = Pos2::new(cell.min.x + (self.zoom - w) / 2.0, cell.max.y - h) + offset;
        Rect::from_min_size(min, Vec2::new(w, h))
    }

    /// The shadow layer's cells: black where never seen; where remembered, the remembered
    /// tile (its sprite if it has one, still) and top object's glyph, dimmed.
    fn shadow(&mut self, map: &MapView, chunk: &ChunkView, built: &mut Built) {
        let Some(shadow) = &chunk.shadow else { return };
        let (w, _) = map.chunk_size(chunk.cx, chunk.cy);
        for (i, cell) in shadow.iter().enumerate() {
            let at = (chunk.cx * CHUNK_SIZE + i as i32 % w, chunk.cy * CHUNK_SIZE + i as i32 / w);
            let rect = self.cell_rect(chunk, at);
            match cell {
                ShadowCell::Visible => {}
                ShadowCell::Unknown => built.under.add_colored_rect(rect, Color32::BLACK),
                ShadowCell::Remembered { tile, objects } => {
                    if let Some(style) = map.tile_styles.get(usize::from(*tile)) {
                        built.under.add_colored_rect(rect, color(style.bg));
                        let sprite = style.art.as_ref().map(|art| &art.sprites[0]);
                        if objects.is_empty() && self.place(sprite, 0).is_none() {
                            built.glyph_count += self.glyph(&mut built.under, rect.min, &style.glyph, color(style.fg));
                        }
                    }
                    // Only the top remembered object shows, as in the live layers.
                    if let Some((_, glyph, object_color)) = objects.last() {
                        built.glyph_count +=
                            self.glyph(&mut built.over, rect.min, glyph.as_str(), color(*object_color));
                    }
                    built.over.add_colored_rect(rect, Color32::from_black_alpha(150));
                }
            }
        }
    }

    /// A glyph centred in the cell whose top-left corner is `at`; 1 if one was drawn.
    fn glyph(&mut self, mesh: &mut Mesh, at: Pos2, glyph: &str, color: Color32) -> usize {
        if glyph.trim().is_empty() {
            return 0;
        }
        let font = FontId::monospace((self.zoom * 0.8).round().max(4.0));
        let galley = self.painter.layout_no_wrap(glyph.to_owned(), font, color);
        let pos = at + (Vec2::splat(self.zoom) - galley.size()) / 2.0;
        self.tessellator.tessellate_text(&TextShape::new(pos.round(), galley, color), mesh);
        1
    }
}

/// The remembered tiles of `chunk`'s shadow that have art, as pieces (their first sprite).
fn remembered_tiles<'a>(map: &'a MapView, chunk: &'a ChunkView) -> Vec<Piece<'a>> {
    let Some(shadow) = &chunk.shadow else { return Vec::new() };
    let (w, _) = map.chunk_size(chunk.cx, chunk.cy);
    shadow
        .iter()
        .enumerate()
        .filter_map(|(i, cell)| {
            let ShadowCell::Remembered { tile, .. } = cell else { return None };
            let style = map.tile_styles.get(usize::from(*tile))?;
            Some(Piece {
                cell: (chunk.cx * CHUNK_SIZE + i as i32 % w, chunk.cy * CHUNK_SIZE + i as i32 / w),
                sprite: Some(&style.art.as_ref()?.sprites[0]),
                glyph: &style.glyph,
                fg: style.fg,
                bg: None,
                offset: (0, 0),
                uid: None,
            })
        })
        .collect()
}

/// Asks `ctx` to paint again when an animation in view next shows another frame (`next`,
/// from [`next_frame_ms`], on the clock that is now at `time_ms`).
pub(crate) fn repaint_at_frame(ctx: &egui::Context, next: u64, time_ms: u64) {
    ctx.request_repaint_after(std::time::Duration::from_millis(next.saturating_sub(time_ms).max(1)));
}

/// When `sprite`, animated, next shows another frame after `time_ms`; None if it is still.
pub(crate) fn next_frame_ms(sprite: &Sprite, time_ms: u64) -> Option<u64> {
    let cycle = sprite.cycle_ms();
    if cycle == 0 {
        return None;
    }
    let mut at = time_ms - time_ms % cycle;
    for frame in &sprite.frames {
        at += u64::from(frame.duration_ms);
        if at > time_ms {
            return Some(at);
        }
    }
    Some(time_ms - time_ms % cycle + cycle)
}

/// The mesh of `meshes` drawing from `texture`, added if there is none.
fn mesh_for(meshes: &mut Vec<Mesh>, texture: TextureId) -> &mut Mesh {
    match meshes.iter().position(|m| m.texture_id == texture) {
        Some(index) => &mut meshes[index],
        None => {
            meshes.push(Mesh::with_texture(texture));
            meshes.last_mut().expect("just pushed")
        }
    }
}

/// A tessellator for glyphs with egui's current options and font atlas.
pub(super) fn new_tessellator(ctx: &egui::Context) -> Tessellator {
    let options = ctx.tessellation_options(|o| *o);
    let size = ctx.fonts(|f| f.font_image_size());
    Tessellator::new(ctx.pixels_per_point(), options, size, Vec::new())
}

/// Appends `mesh` moved by `offset` to `frame`.
pub(super) fn append_translated(frame: &mut Mesh, mesh: &Mesh, offset: Vec2) {
    let base = frame.vertices.len() as u32;
    frame.vertices.extend(mesh.vertices.iter().map(|v| Vertex { pos: v.pos + offset, ..*v }));
    frame.indices.extend(mesh.indices.iter().map(|i| i + base));
}

#[cfg(test)]
mod tests {
    use super::*;
    use nefia_game::Symbol;
    use nefia_game::art::Frame;

    #[test]
    fn an_animation_next_changes_at_the_end_of_the_frame_showing() {
        let mut sprite = Sprite::whole(Symbol::intern("w.png"), 4, 4);
        sprite.frames = vec![Frame { x: 0, y: 0, duration_ms: 100 }, Frame { x: 4, y: 0, duration_ms: 300 }];
        assert_eq!(next_frame_ms(&sprite, 0), Some(100));
        assert_eq!(next_frame_ms(&sprite, 150), Some(400));
        assert_eq!(next_frame_ms(&sprite, 400), Some(500), "the next cycle");
        assert_eq!(next_frame_ms(&Sprite::whole(Symbol::intern("s.png"), 4, 4), 7), None, "still");
    }
}
