//! The Inspector pane: the selected objects' fields, base against temp against calc.

use egui::{RichText, Ui};
use nefia_runtime::Value;

use crate::app::EditorState;

fn show(value: &Option<Value>) -> String {
    value.as_ref().map_or_else(|| "—".to_owned(), Value::to_string)
}

/// Shows the inspector.
pub fn ui(ui: &mut Ui, state: &mut EditorState) {
    let snapshot = state.snapshot.clone();
    if snapshot.selection.is_empty() {
        ui.weak("Click an object in the viewport to inspect it.");
        return;
    }
    egui::ScrollArea::vertical().show(ui, |ui| {
        for object in &snapshot.selection {
            ui.label(RichText::new(&object.title).strong().monospace());
            ui.label(format!("at ({}, {}) in {}", object.x, object.y, object.location));
            egui::Grid::new(("inspector", object.uid.0)).striped(true).num_columns(4).show(ui, |ui| {
                ui.strong("field");
                ui.strong("base");
                ui.strong("temp");
                ui.strong("calc");
                ui.end_row();
                for row in &object.fields {
                    ui.monospace(&row.name);
                    let base = ui.monospace(show(&row.base));
                    if row.own {
                        base.on_hover_text("set on this object (differs from the prototype)");
                    }
                    let temp = row.temp.as_ref().map(|t| t.value.clone());
                    ui.monospace(show(&temp));
                    ui.monospace(show(&row.calc));
                    ui.end_row();
                }
            });
            ui.separator();
        }
    });
}
