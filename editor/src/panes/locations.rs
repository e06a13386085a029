//! The Locations pane: the world's maps, the current one marked.

use egui::Ui;

use crate::app::EditorState;

/// Shows the locations.
pub fn ui(ui: &mut Ui, state: &mut EditorState) {
    let snapshot = state.snapshot.clone();
    ui.strong("World");
    for map in &snapshot.maps {
        let marker = if map.current { "▶ " } else { "  " };
        ui.monospace(format!(
            "{marker}map {} '{}' {}×{} — {} objects",
            map.id, map.name, map.size.0, map.size.1, map.objects
        ));
    }
}
