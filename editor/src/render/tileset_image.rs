//! The tileset image `nefia export --tmj` writes beside the map: one square tile per
//! `base.map_tile`, laid out in rows as the exported tileset describes. A tile with an image
//! is its sprite's first frame cut from its sheet ([`super::sheets::cut`]), anchored at the
//! tile's bottom edge and centred as the map draws it; a tile without one (or whose sheet
//! cannot be read, which is noted) is its background colour with its glyph drawn in its
//! colour. [`TextPainter`] draws text into images (the glyphs here, the numbers of the
//! import's contact sheet).

use std::path::{Path, PathBuf};

use egui::epaint::text::{Fonts, TextOptions};
use egui::{Color32, FontDefinitions, FontId};
use image::RgbaImage;
use nefia_game::exchange::export::TILESET_COLUMNS;
use nefia_protocol::view::TileStyle;

use super::{png_file, sheets};

/// Why the tileset image could not be made.
#[derive(Debug, thiserror::Error)]
pub enum TilesetImageError {
    /// More tiles than an image's rows can hold.
    #[error("too many tiles")]
    TooManyTiles,
    /// The file could not be written.
    #[error(transparent)]
    Write(#[from] png_file::WriteError),
}

/// Draws text into images with egui's own fonts (no window needed).
pub struct TextPainter {
    fonts: Fonts,
}

impl Default for TextPainter {
    fn default() -> Self {
        TextPainter { fonts: Fonts::new(TextOptions::default(), FontDefinitions::default()) }
    }
}

impl TextPainter {
    /// Draws `text` in `colour` at `size` points, centred in the `width` × `height` box at
    /// (`left`, `top`) of `image`, blended over what is there; what falls outside the box is
    /// cut off.
    pub fn draw(
        &mut self,
        image: &mut RgbaImage,
        (left, top, width, height): (u32, u32, u32, u32),
        text: &str,
        size: f32,
        colour: [u8; 4],
    ) {
        let galley = self.fonts.with_pixels_per_point(1.0).layout_no_wrap(
            text.to_owned(),
            FontId::monospace(size),
            Color32::WHITE,
        );
        let atlas = self.fonts.image();
        let centre =
            egui::vec2((width as f32 - galley.rect.width()) / 2.0, (height as f32 - galley.rect.height()) / 2.0);
        for placed in &galley.rows {
            for glyph in &placed.row.glyphs {
                let uv = glyph.uv_rect;
                let origin = placed.pos + glyph.pos.to_vec2() + uv.offset + centre;
                for v in uv.min[1]..uv.max[1] {
                    for u in uv.min[0]..uv.max[0] {
                        let coverage = atlas.pixels[usize::from(v) * atlas.size[0] + usize::from(u)].a();
                        let px = (origin.x + f32::from(u - uv.min[0])).round() as i64;
                        let py = (origin.y + f32::from(v - uv.min[1])).round() as i64;
                        let inside = (0..i64::from(width)).contains(&px) && (0..i64::from(height)).contains(&py);
                        if !inside || coverage == 0 {
                            continue;
                        }
                        let (px, py) = (left + px as u32, top + py as u32);
                        let Some(under) = image.get_pixel_checked(px, py).map(|p| p.0) else { continue };
                        let a = f32::from(coverage) / 255.0;
                        let mix = |fg: u8, bg: u8| (f32::from(fg) * a + f32::from(bg) * (1.0 - a)).round() as u8;
                        let alpha = under[3].max(colour[3]);
                        let mixed =
                            [mix(colour[0], under[0]), mix(colour[1], under[1]), mix(colour[2], under[2]), alpha];
                        image.put_pixel(px, py, image::Rgba(mixed));
                    }
                }
            }
        }
    }
}

/// Copies `sprite` into `image`'s `side`-pixel cell at (`left`, `top`), anchored at its bottom
/// edge and centred (a larger sprite is cut at the cell's edges).
fn place(image: &mut RgbaImage, sprite: &RgbaImage, (left, top): (u32, u32), side: u32) {
    let dx = (i64::from(side) - i64::from(sprite.width())) / 2;
    let dy = i64::from(side) - i64::from(sprite.height());
    for (x, y, pixel) in sprite.enumerate_pixels() {
        let (cx, cy) = (i64::from(x) + dx, i64::from(y) + dy);
        if (0..i64::from(side)).contains(&cx) && (0..i64::from(side)).contains(&cy) {
            image.put_pixel(left + cx as u32, top + cy as u32, *pixel);
        }
    }
}

/// Draws `tiles` (in the tileset's order), each `side` pixels square, into a PNG at `path`,
/// their images found in `asset_dirs`. Returns what could not be drawn as its image.
pub fn write(
    path: &Path,
    tiles: &[TileStyle],
    side: u32,
    asset_dirs: &[PathBuf],
) -> Result<Vec<String>, TilesetImageError> {
    let count = u32::try_from(tiles.len()).map_err(|_| TilesetImageError::TooManyTiles)?;
    let columns = count.clamp(1, TILESET_COLUMNS);
    let rows = count.div_ceil(columns).max(1);
    let mut image = RgbaImage::new(columns * side, rows * side);
    let mut painter = TextPainter::default();
    let mut decoded = sheets::Decoded::default();
    let mut notes = Vec::new();
    for (index, style) in (0_u32..).zip(tiles) {
        let (left, top) = ((index % columns) * side, (index / columns) * side);
        let sprite = style.art.as_ref().and_then(|art| art.sprites.first());
        if let Some(sprite) = sprite {
            match decoded.get(asset_dirs, sprite.sheet) {
                Ok(sheet) => {
                    place(&mut image, &sheets::cut(sheet, sprite, 0), (left, top), side);
                    continue;
                }
                Err(why) => notes.push(format!("tile {} is drawn as its glyph: {why}", style.id)),
            }
        }
        for y in 0..side {
            for x in 0..side {
                image.put_pixel(left + x, top + y, image::Rgba(style.bg));
            }
        }
        let size = 13.0 * side as f32 / 16.0;
        painter.draw(&mut image, (left, top, side, side), &style.glyph, size, style.fg);
    }
    png_file::save(&image, path)?;
    Ok(notes)
}
