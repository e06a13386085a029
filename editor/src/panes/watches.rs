//! The Watches pane: the watchpoints set (from the Inspector's right-click menu or with
//! `Debug.watch`), each with the object and field it watches, when it stops, how many times
//! it fired, a switch to turn it off and a button to remove it.

use egui::{RichText, Ui};
use egui_extras::{Column, TableBuilder};
use nefia_runtime::host::Command;

use crate::context::EditorContext;

/// Shows the pane.
pub fn ui(ui: &mut Ui, state: &mut EditorContext) {
    let watches = state.snapshot.watches.clone();
    if watches.is_empty() {
        ui.weak("No watches. Right-click a field in the Inspector → Break when it changes, or call Debug.watch(obj, field) in Lua.");
        return;
    }
    TableBuilder::new(ui)
        .id_salt("watches-table")
        .striped(true)
        .cell_layout(egui::Layout::left_to_right(egui::Align::Center))
        .column(Column::auto())
        .column(Column::remainder().at_least(160.0).clip(true))
        .column(Column::auto().at_least(120.0))
        .column(Column::auto())
        .column(Column::auto())
        .header(20.0, |mut header| {
            for title in ["on", "watching", "stops when", "hits", ""] {
                header.col(|ui| {
                    ui.strong(title);
                });
            }
        })
        .body(|mut body| {
            for watch in &watches {
                body.row(22.0, |mut row| {
                    row.col(|ui| {
                        let mut enabled = watch.enabled;
                        let response = ui.checkbox(&mut enabled, "").on_hover_text("Turn the watch on or off");
                        crate::panes::accessible_name(ui, &response, format!("watch {} on", watch.id));
                        if response.changed() {
                            state.outbox.push(Command::EnableWatch { id: watch.id, enabled });
                        }
                    });
                    row.col(|ui| {
                        let text = format!("uid {} ({}) {}", watch.uid, watch.object, watch.field);
                        if ui.link(RichText::new(&text).monospace()).on_hover_text("Select the object").clicked() {
                            state.select_and_show(watch.uid);
                        }
                    });
                    row.col(|ui| {
                        ui.label(&watch.when);
                    });
                    row.col(|ui| {
                        ui.label(watch.hits.to_string());
                    });
                    row.col(|ui| {
                        let response = ui.small_button("×").on_hover_text("Remove the watch");
                        crate::panes::accessible_name(ui, &response, format!("remove watch {}", watch.id));
                        if response.clicked() {
                            state.outbox.push(Command::Unwatch(watch.id));
                        }
                    });
                });
            }
        });
}
