//! The theme picker the viewport's toolbar and the player window's title menu show: the
//! loaded `base.theme`s (see `runtime/game/src/world/art.rs`), one chosen at a time or none.

use egui::Ui;
use nefia_protocol::message::Command;
use nefia_protocol::mods::{ModCommand, ModsView};

/// What the picker shows when no theme is active.
const NO_THEME: &str = "Default art";

/// A combo box of the loaded themes (nothing when none is loaded); the command that makes
/// the chosen one active, when the user chose another.
pub fn theme_picker(ui: &mut Ui, mods: &ModsView) -> Option<Command> {
    let themes = mods.themes();
    if themes.is_empty() {
        return None;
    }
    let active = mods.active_themes.first();
    let shown = active
        .and_then(|id| themes.iter().find(|(theme, _)| theme == id))
        .map_or(NO_THEME, |(_, name)| name.as_str())
        .to_owned();
    let mut chosen = None;
    let combo = egui::ComboBox::from_id_salt("theme").selected_text(shown).show_ui(ui, |ui| {
        if ui.selectable_label(active.is_none(), NO_THEME).clicked() && active.is_some() {
            chosen = Some(Vec::new());
        }
        for (id, name) in &themes {
            if ui.selectable_label(active == Some(id), name).clicked() && active != Some(id) {
                chosen = Some(vec![id.clone()]);
            }
        }
    });
    crate::accessibility::accessible_name(ui, &combo.response, "Theme");
    combo.response.on_hover_text("Draw the map with a theme's images (base.theme) instead of the prototypes' own");
    chosen.map(|themes| Command::Mods(ModCommand::SetThemes(themes)))
}
