//! Painting the game with egui: the map's draw layers (`map`) seen through a `camera`, its
//! sprites packed in an `atlas` (reloaded when a sheet changes on disk: `sheet_watch`), the UI
//! layers and HUD widgets over it (`overlay`), and the error screen (`error_screen`); and the
//! pictures the command line writes (`tileset_image`, `diff_image`, a map drawn in software
//! by `map_image`, saved by `png_file`); the sheets sprites are cut from (`sheets`).

pub mod atlas;
pub mod camera;
pub mod diff_image;
pub mod error_screen;
pub mod map;
pub mod map_image;
pub mod overlay;
pub mod png_file;
pub mod sheet_watch;
pub mod sheets;
pub mod tileset_image;

use egui::Color32;
use nefia_game::display::Color;

/// An engine colour as egui's.
pub fn color(rgba: Color) -> Color32 {
    Color32::from_rgba_unmultiplied(rgba[0], rgba[1], rgba[2], rgba[3])
}

/// Gives the text the game draws (messages, the HUD, menus) the signs its own font lacks: the
/// proportional font falls back to the monospace one, which has arrows and box drawing
/// (`hp 6 → 5`). Both windows call it once.
pub fn install_fonts(ctx: &egui::Context) {
    let mut fonts = egui::FontDefinitions::default();
    let monospace = fonts.families.get(&egui::FontFamily::Monospace).and_then(|f| f.first()).cloned();
    if let (Some(monospace), Some(proportional)) = (monospace, fonts.families.get_mut(&egui::FontFamily::Proportional))
    {
        proportional.push(monospace);
    }
    ctx.set_fonts(fonts);
}
