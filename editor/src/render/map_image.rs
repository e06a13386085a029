//! A map drawn in software into a picture, one output pixel per sprite pixel (`nefia
//! render`): every layer in the viewport's order ([`DrawLayer::order`]) with everything in
//! sight, each animation at a given time. A tile or object without art (or whose sheet is
//! missing) is its glyph's colours: the cell filled with its background and a square of its
//! glyph's colour in the middle, so nothing is invisible.

use std::collections::HashMap;
use std::path::PathBuf;
use std::rc::Rc;

use image::{Pixel, Rgba, RgbaImage};
use nefia_game::art::Sprite;
use nefia_game::display::Color;
use nefia_protocol::view::MapView;

use super::camera::LayerToggles;
use super::map::layers::{DrawLayer, Piece, pieces};
use super::sheets::{self, FrameKey};

/// The largest picture drawn, in pixels: 16384 a side and 2²⁸ in all (1 GiB of pixels).
pub const MAX_SIDE: u64 = 16_384;
const MAX_PIXELS: u64 = 1 << 28;

/// Why a map could not be drawn.
#[derive(Debug, thiserror::Error)]
pub enum MapImageError {
    /// The picture would be larger than [`MAX_SIDE`] or 2²⁸ pixels.
    #[error(
        "map '{name}' would be a picture of {width}×{height} pixels ({cells_x}×{cells_y} cells of {cell_px}); the most is {MAX_SIDE} a side and 268,435,456 pixels"
    )]
    TooLarge {
        /// The map's name.
        name: String,
        /// Its width in pixels.
        width: u64,
        /// Its height in pixels.
        height: u64,
        /// Its width in cells.
        cells_x: i32,
        /// Its height in cells.
        cells_y: i32,
        /// Its cells' size in pixels.
        cell_px: u32,
    },
}

/// A drawn map and what could not be drawn as it should.
pub struct MapImage {
    /// The picture.
    pub image: RgbaImage,
    /// Sheets that were missing or broken (their sprites drawn as glyph colours), each once.
    pub problems: Vec<String>,
}

/// Draws `map` with its sheets from `dirs`, its animations `time_ms` in.
pub fn draw(map: &MapView, dirs: &[PathBuf], time_ms: u64) -> Result<MapImage, MapImageError> {
    let cell = u64::from(map.cell_px.max(1));
    let (width, height) = (u64::try_from(map.width).unwrap_or(0) * cell, u64::try_from(map.height).unwrap_or(0) * cell);
    if width > MAX_SIDE || height > MAX_SIDE || width * height > MAX_PIXELS {
        return Err(MapImageError::TooLarge {
            name: map.name.clone(),
            width,
            height,
            cells_x: map.width,
            cells_y: map.height,
            cell_px: map.cell_px,
        });
    }
    // Both are at most MAX_SIDE: they fit.
    let mut canvas = Painter {
        image: RgbaImage::from_pixel(width as u32, height as u32, Rgba([0, 0, 0, 255])),
        cell: cell as i64,
        dirs,
        sheets: sheets::Decoded::default(),
        frames: HashMap::new(),
    };
    let everything = LayerToggles { shadow: false, ..LayerToggles::default() };
    for layer in DrawLayer::order(map, &everything, true) {
        for chunk in &map.chunks {
            for piece in pieces(map, chunk, layer) {
                canvas.piece(&piece, time_ms);
            }
        }
    }
    Ok(MapImage { image: canvas.image, problems: canvas.sheets.into_problems() })
}

/// The picture being drawn and the sheets read for it.
struct Painter<'a> {
    image: RgbaImage,
    cell: i64,
    dirs: &'a [PathBuf],
    sheets: sheets::Decoded,
    frames: HashMap<FrameKey, Rc<RgbaImage>>,
}

impl Painter<'_> {
    /// Draws one piece: its sprite's frame at `time_ms`, else its glyph's colours.
    fn piece(&mut self, piece: &Piece, time_ms: u64) {
        let cell = self.cell;
        let (x, y) = (i64::from(piece.cell.0) * cell, i64::from(piece.cell.1) * cell);
        if let Some(sprite) = piece.sprite
            && let Some(frame) = self.frame(sprite, sprite.frame_index_at(time_ms))
        {
            let (w, h) = (i64::from(frame.width()), i64::from(frame.height()));
            // At the bottom of its cell, centred, shifted by its offsets.
            let left = x + (cell - w) / 2 + i64::from(sprite.offset.0) + i64::from(piece.offset.0);
            let top = y + cell - h + i64::from(sprite.offset.1) + i64::from(piece.offset.1);
            image::imageops::overlay(&mut self.image, &*frame, left, top);
            return;
        }
        if let Some(bg) = piece.bg {
            self.fill(x, y, self.cell, bg);
        }
        if !piece.glyph.trim().is_empty() {
            let side = (self.cell / 2).max(1);
            self.fill(x + (self.cell - side) / 2, y + (self.cell - side) / 2, side, piece.fg);
        }
    }

    /// Fills the square of `side` pixels at (`x`, `y`) with `color`, blended by its alpha
    /// (what falls outside the picture is left out).
    fn fill(&mut self, x: i64, y: i64, side: i64, color: Color) {
        let (width, height) = (i64::from(self.image.width()), i64::from(self.image.height()));
        for py in y.max(0)..(y + side).min(height) {
            for px in x.max(0)..(x + side).min(width) {
                // Both are inside the picture, whose sides are u32.
                self.image.get_pixel_mut(px as u32, py as u32).blend(&Rgba(color));
            }
        }
    }

    /// Frame `index` of `sprite`, cut once; None if its sheet is missing or broken.
    fn frame(&mut self, sprite: &Sprite, index: usize) -> Option<Rc<RgbaImage>> {
        let key = FrameKey::of(sprite, index)?;
        if let Some(frame) = self.frames.get(&key) {
            return Some(frame.clone());
        }
        let sheet = self.sheets.get(self.dirs, sprite.sheet).ok()?;
        let cut = Rc::new(sheets::cut(sheet, sprite, index));
        self.frames.insert(key, cut.clone());
        Some(cut)
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use nefia_game::Symbol;
    use nefia_game::art::{Art, Frame};
    use nefia_protocol::view::{ChunkView, TileStyle};

    use super::*;

    /// A 2×1 map of 4-pixel cells: water animated red then blue (100 ms each) from
    /// `water.png`, and a tile whose sheet is missing.
    fn map(dir: &std::path::Path) -> MapView {
        let sheet = RgbaImage::from_fn(8, 4, |x, _| match x < 4 {
            true => Rgba([255, 0, 0, 255]),
            false => Rgba([0, 0, 255, 255]),
        });
        sheet.save(dir.join("water.png")).expect("the sheet");
        let mut water = Sprite::whole(Symbol::intern("water.png"), 4, 4);
        water.frames = (0..2).map(|i| Frame { x: 4 * i, y: 0, duration_ms: 100 }).collect();
        let style = |glyph: &str, art| TileStyle {
            id: Symbol::intern(glyph),
            glyph: glyph.into(),
            fg: [0, 255, 0, 255],
            bg: [9, 9, 9, 255],
            art: Some(art),
            known: true,
        };
        let styles = vec![
            style("~", Art::single(water)),
            style("?", Art::single(Sprite::whole(Symbol::intern("gone.png"), 0, 0))),
        ];
        let chunk = ChunkView::of_tiles(vec![0, 1]);
        MapView { width: 2, tile_styles: Arc::new(styles), cell_px: 4, ..MapView::one_cell(chunk) }
    }

    #[test]
    fn animations_show_the_frame_of_the_time_and_a_missing_sheet_is_its_glyphs_colours() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let map = map(dir.path());
        let dirs = [dir.path().to_owned()];
        let first = draw(&map, &dirs, 0).expect("drawn");
        assert_eq!(first.image.dimensions(), (8, 4));
        assert_eq!(first.image.get_pixel(0, 0).0, [255, 0, 0, 255], "the first frame at 0 ms");
        assert_eq!(draw(&map, &dirs, 150).expect("drawn").image.get_pixel(0, 0).0, [0, 0, 255, 255], "the second");
        assert_eq!(first.image.get_pixel(4, 0).0, [9, 9, 9, 255], "the missing sheet's tile: its background");
        assert_eq!(first.image.get_pixel(6, 2).0, [0, 255, 0, 255], "and its glyph's colour");
        assert_eq!(first.problems.len(), 1, "{:?}", first.problems);
        assert!(first.problems[0].contains("gone.png"));
    }

    #[test]
    fn a_map_too_large_to_draw_is_refused_before_anything_is_allocated() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let huge = MapView { width: 100_000, cell_px: 32, ..map(dir.path()) };
        assert!(matches!(draw(&huge, &[], 0), Err(MapImageError::TooLarge { .. })));
    }
}
