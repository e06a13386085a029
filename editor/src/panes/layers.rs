//! The Layers pane: the draw order of the running game, live — the current map's art layers
//! (shown or hidden, the one painted, added, renamed, moved and deleted: `layers/art.rs`), the
//! map renderer and its draw layers, the HUD widgets, and the UI layer stack (the top one gets
//! the keyboard).

use egui::Ui;

use crate::context::EditorContext;

mod art;
pub use art::ArtLayersState;

/// Shows the layer stack.
pub fn ui(ui: &mut Ui, state: &mut EditorContext) {
    let snapshot = state.snapshot.clone();
    art::ui(ui, state);
    ui.strong("Map renderer");
    ui.indent("map-layers", |ui| {
        for name in ["tiles", "feats", "items", "characters", "shadow"] {
            ui.label(name);
        }
        for (id, commands) in &snapshot.map_layers {
            ui.label(format!("{id} (mod layer, {} commands)", commands.len()));
        }
    });
    ui.strong("HUD");
    ui.indent("widgets", |ui| {
        for widget in &snapshot.widgets {
            ui.label(format!("{} ({:?})", widget.id, widget.anchor));
        }
    });
    ui.strong("UI layers");
    ui.indent("ui-layers", |ui| {
        if snapshot.layers.is_empty() {
            ui.weak("none open");
        }
        for (i, layer) in snapshot.layers.iter().enumerate() {
            let top = if i + 1 == snapshot.layers.len() { " ← has the keyboard" } else { "" };
            ui.label(format!("{}{top}", layer.kind.describe()));
        }
    });
    ui.strong("REPL overlay");
    ui.indent("repl-overlay", |ui| {
        ui.label(if state.viewport.repl_overlay {
            "shown (` in the viewport hides it)"
        } else {
            "hidden (` in the viewport shows it)"
        });
    });
}
