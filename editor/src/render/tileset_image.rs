//! The tileset image `nefia export --tmj` writes beside the map: one 16×16 tile per
//! `base.map_tile`, its background colour with its glyph drawn in its colour (or a mod's
//! image, when the tile names one, is left to Tiled: the glyph is drawn), laid out in rows as
//! the exported tileset describes.

use std::path::Path;

use egui::epaint::text::{Fonts, TextOptions};
use egui::{Color32, FontDefinitions, FontId};
use nefia_game::exchange::export::{TILE_PIXELS, TILESET_COLUMNS};
use nefia_protocol::view::TileStyle;

use super::png_file;

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

/// Draws `tiles` (in the tileset's order) into a PNG at `path`.
pub fn write(path: &Path, tiles: &[TileStyle]) -> Result<(), TilesetImageError> {
    let count = u32::try_from(tiles.len()).map_err(|_| TilesetImageError::TooManyTiles)?;
    let columns = count.clamp(1, TILESET_COLUMNS);
    let rows = count.div_ceil(columns).max(1);
    let mut image = image::RgbaImage::new(columns * TILE_PIXELS, rows * TILE_PIXELS);
    let mut fonts = Fonts::new(TextOptions::default(), FontDefinitions::default());
    let font = FontId::monospace(13.0);
    for (index, style) in (0_u32..).zip(tiles) {
        let (left, top) = ((index % columns) * TILE_PIXELS, (index / columns) * TILE_PIXELS);
        for y in 0..TILE_PIXELS {
            for x in 0..TILE_PIXELS {
                image.put_pixel(left + x, top + y, image::Rgba(style.bg));
            }
        }
        let galley = fonts.with_pixels_per_point(1.0).layout_no_wrap(style.glyph.clone(), font.clone(), Color32::WHITE);
        let atlas = fonts.image();
        let centre = egui::vec2(
            (TILE_PIXELS as f32 - galley.rect.width()) / 2.0,
            (TILE_PIXELS as f32 - galley.rect.height()) / 2.0,
        );
        for placed in &galley.rows {
            for glyph in &placed.row.glyphs {
                let uv = glyph.uv_rect;
                let origin = placed.pos + glyph.pos.to_vec2() + uv.offset + centre;
                for v in uv.min[1]..uv.max[1] {
                    for u in uv.min[0]..uv.max[0] {
                        let coverage = atlas.pixels[usize::from(v) * atlas.size[0] + usize::from(u)].a();
                        let px = (origin.x + f32::from(u - uv.min[0])).round() as i64;
                        let py = (origin.y + f32::from(v - uv.min[1])).round() as i64;
                        let inside =
                            (0..i64::from(TILE_PIXELS)).contains(&px) && (0..i64::from(TILE_PIXELS)).contains(&py);
                        if !inside || coverage == 0 {
                            continue;
                        }
                        let (px, py) = (left + px as u32, top + py as u32);
                        let under = image.get_pixel(px, py).0;
                        let a = f32::from(coverage) / 255.0;
                        let mix = |fg: u8, bg: u8| (f32::from(fg) * a + f32::from(bg) * (1.0 - a)).round() as u8;
                        let fg = style.fg;
                        image.put_pixel(
                            px,
                            py,
                            image::Rgba([mix(fg[0], under[0]), mix(fg[1], under[1]), mix(fg[2], under[2]), 255]),
                        );
                    }
                }
            }
        }
    }
    Ok(png_file::save(&image, path)?)
}
