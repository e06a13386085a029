//! Painting the game with egui: the map's draw layers (`map`) seen through a `camera`, the UI
//! layers and HUD widgets over it (`overlay`), and the error screen (`error_screen`).

pub mod camera;
pub mod error_screen;
pub mod images;
pub mod map;
pub mod overlay;

use egui::Color32;
use nefia_runtime::display::Color;

/// An engine colour as egui's.
pub fn color(rgba: Color) -> Color32 {
    Color32::from_rgba_unmultiplied(rgba[0], rgba[1], rgba[2], rgba[3])
}
