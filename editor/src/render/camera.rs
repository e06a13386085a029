//! Where the viewport looks: the camera (zoom and the cell at the centre) and which draw
//! layers are shown.

use egui::{Pos2, Rect, Vec2};
use nefia_game::ObjectKind;
use serde::{Deserialize, Serialize};

/// The smallest zoom (a cell's size in pixels) at which the map is drawn as glyphs; below it,
/// as coloured pixels.
pub const GLYPH_MIN_ZOOM: f32 = 8.0;

/// Where the view looks and how close.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Camera {
    /// The cell coordinate at the centre of the view (fractions allowed).
    pub center: Vec2,
    /// Pixels per cell.
    pub zoom: f32,
}

impl Default for Camera {
    fn default() -> Camera {
        Camera { center: Vec2::ZERO, zoom: 24.0 }
    }
}

impl Camera {
    /// Smallest and largest zoom.
    pub const ZOOM_RANGE: (f32, f32) = (1.0, 96.0);
    /// The zoom play starts at, at least: glyphs drawn large enough to read (twice the
    /// smallest zoom they are drawn at).
    pub const PLAY_ZOOM: f32 = 2.0 * GLYPH_MIN_ZOOM;

    /// Where the top-left corner of cell position `cell` is on screen.
    pub fn to_screen(&self, rect: Rect, cell: Vec2) -> Pos2 {
        rect.center() + (cell - self.center) * self.zoom
    }

    /// The cell position under screen point `pos`.
    pub fn to_cell(&self, rect: Rect, pos: Pos2) -> Vec2 {
        self.center + (pos - rect.center()) / self.zoom
    }

    /// The cell under screen point `pos`.
    pub fn cell_at(&self, rect: Rect, pos: Pos2) -> (i32, i32) {
        let cell = self.to_cell(rect, pos);
        (cell.x.floor() as i32, cell.y.floor() as i32)
    }

    /// A camera showing a whole `width`×`height` map in `rect`.
    pub fn fit(rect: Rect, width: i32, height: i32) -> Camera {
        let zoom = (rect.width() / width as f32)
            .min(rect.height() / height as f32)
            .clamp(Self::ZOOM_RANGE.0, Self::ZOOM_RANGE.1);
        Camera { center: Vec2::new(width as f32, height as f32) / 2.0, zoom }
    }

    /// Centres the view on cell (x, y) unless it is already in view with a cell to spare
    /// around it (so picking what is on screen does not move the map).
    pub fn reveal(&mut self, rect: Rect, x: i32, y: i32) {
        let (min, max) = (self.to_cell(rect, rect.min), self.to_cell(rect, rect.max));
        let (x, y) = (x as f32, y as f32);
        let inside = x - 1.0 >= min.x && x + 2.0 <= max.x && y - 1.0 >= min.y && y + 2.0 <= max.y;
        if !inside {
            self.center = Vec2::new(x + 0.5, y + 0.5);
        }
    }

    /// Zooms by `factor`, keeping the cell under `pos` in place.
    pub fn zoom_at(&mut self, rect: Rect, pos: Pos2, factor: f32) {
        let before = self.to_cell(rect, pos);
        self.zoom = (self.zoom * factor).clamp(Self::ZOOM_RANGE.0, Self::ZOOM_RANGE.1);
        let after = self.to_cell(rect, pos);
        self.center += before - after;
    }

    /// The camera the map is drawn with: glyphs are drawn at whole-pixel zooms (crisp
    /// glyphs), so everything laid over the cells (hover, selection, markers, problem frames)
    /// and every hit test uses this one too, and lines up with its cell at every zoom.
    pub fn as_drawn(&self) -> Camera {
        match self.zoom >= GLYPH_MIN_ZOOM {
            true => Camera { zoom: self.zoom.round(), ..*self },
            false => *self,
        }
    }
}

/// Which draw layers are shown. A layer a saved layout does not name (one added since) shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct LayerToggles {
    /// Tiles.
    pub tiles: bool,
    /// Feats (doors, stairs).
    pub feats: bool,
    /// Mefs (fire, webs).
    pub mefs: bool,
    /// Items.
    pub items: bool,
    /// Characters.
    pub charas: bool,
    /// The shadow layer: sight and map memory.
    pub shadow: bool,
    /// The mods' map draw layers.
    pub mods: bool,
    /// A grid between cells.
    pub grid: bool,
    /// On a map with auto-tiling rules, its intent (what each cell is meant to be) in place of
    /// the tiles the rules painted.
    pub intent: bool,
    /// The ASCII view: every tile and object as its glyph, the art layers hidden (what the
    /// map looks like with no images).
    pub ascii: bool,
}

impl Default for LayerToggles {
    fn default() -> LayerToggles {
        LayerToggles {
            tiles: true,
            feats: true,
            mefs: true,
            items: true,
            charas: true,
            shadow: true,
            mods: true,
            grid: false,
            intent: false,
            ascii: false,
        }
    }
}

impl LayerToggles {
    pub(super) fn shows(&self, kind: ObjectKind) -> bool {
        match kind {
            ObjectKind::Feat => self.feats,
            ObjectKind::Mef => self.mefs,
            ObjectKind::Item => self.items,
            ObjectKind::Chara => self.charas,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reveal_centres_a_cell_out_of_view_and_leaves_one_in_view() {
        let rect = Rect::from_min_size(Pos2::ZERO, Vec2::new(200.0, 100.0));
        let mut camera = Camera { center: Vec2::new(5.0, 5.0), zoom: 20.0 };
        camera.reveal(rect, 6, 5);
        assert_eq!(camera.center, Vec2::new(5.0, 5.0), "in view: the map stays put");
        camera.reveal(rect, 40, 30);
        assert_eq!(camera.center, Vec2::new(40.5, 30.5));
        let (x, y) = camera.cell_at(rect, rect.center());
        assert_eq!((x, y), (40, 30), "the cell is now in the middle");
    }

    #[test]
    fn what_is_laid_over_a_cell_uses_the_zoom_its_glyph_is_drawn_at() {
        let rect = Rect::from_min_size(Pos2::ZERO, Vec2::new(1000.0, 600.0));
        let camera = Camera { center: Vec2::new(25.0, 15.0), zoom: 20.4 };
        let drawn = camera.as_drawn();
        assert_eq!(drawn.zoom, 20.0, "glyphs at whole pixels");
        // A cell 24 cells from the centre: with the unrounded zoom a marker would sit ~10 px
        // off the glyph; with the drawn camera the cell under its drawn corner is itself.
        let corner = drawn.to_screen(rect, Vec2::new(1.0, 1.0));
        assert_eq!(drawn.cell_at(rect, corner + Vec2::splat(1.0)), (1, 1));
        assert!((camera.to_screen(rect, Vec2::new(1.0, 1.0)) - corner).length() > 5.0, "the mismatch it fixes");
        let far = Camera { zoom: 3.3, ..camera };
        assert_eq!(far.as_drawn().zoom, 3.3, "zoomed out, the map is pixels at any zoom");
    }
}
