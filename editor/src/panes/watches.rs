//! The Watches pane: the invariants and their last results (see [`super::invariants`]), the
//! watchpoints set (from the Inspector's right-click menu or with
//! `Debug.watch`), each with the object and field it watches, when it stops, how many times
//! it fired, a switch to turn it off and a button to remove it; and below them the answer to
//! the last "When did this change?": every change of the field in the session, each a button
//! that goes back to it and stops at the line that made it.

use egui::{RichText, Ui};
use egui_extras::{Column, TableBuilder};
use nefia_game::Uid;
use nefia_protocol::debugging::DebugCommand;
use nefia_protocol::message::Command;
use nefia_protocol::play::ChangeEntry;
use nefia_protocol::play::PlayCommand;

use crate::context::EditorContext;

/// The width of the "stops when" column.
const WHEN_WIDTH: f32 = 200.0;

/// The pane's own state.
#[derive(Default)]
pub struct WatchesState {
    /// The last answer to "When did this change?".
    pub changes: Option<ChangeList>,
}

/// Every change of one object's field in the session.
pub struct ChangeList {
    /// The object.
    pub uid: Uid,
    /// The field.
    pub field: String,
    /// The changes, oldest first.
    pub entries: Vec<ChangeEntry>,
}

/// Shows the pane.
pub fn ui(ui: &mut Ui, state: &mut EditorContext, pane: &mut WatchesState) {
    super::invariants::section(ui, state);
    ui.separator();
    if let Some(changes) = &pane.changes {
        changes_ui(ui, state, changes);
        ui.separator();
    }
    watches_ui(ui, state);
}

/// The answer to "When did this change?".
fn changes_ui(ui: &mut Ui, state: &mut EditorContext, list: &ChangeList) {
    ui.strong(format!(
        "When did uid {}'s {} change? {} change(s) this session",
        list.uid,
        list.field,
        list.entries.len()
    ));
    egui::ScrollArea::vertical().id_salt("changes").max_height(220.0).show(ui, |ui| {
        for entry in &list.entries {
            ui.horizontal(|ui| {
                let go = ui.button(format!("turn {}", entry.change.turn)).on_hover_text(
                    "Step back to this turn and replay it up to the change: the game stops at the line that made it",
                );
                if go.clicked() {
                    state.outbox.push(Command::Play(PlayCommand::GoToChange {
                        mark: entry.mark,
                        nth: entry.nth,
                        uid: list.uid,
                        field: list.field.clone(),
                    }));
                }
                let c = &entry.change;
                ui.label(RichText::new(format!("{} → {}", c.old, c.new)).monospace());
                ui.weak(format!("at {}", c.at));
            });
        }
    });
}

/// The watches, one row each.
fn watches_ui(ui: &mut Ui, state: &mut EditorContext) {
    let watches = state.snapshot.debug.watches.clone();
    if watches.is_empty() {
        ui.weak("No watches. Right-click a field in the Inspector → Break when it changes, or call Debug.watch(obj, field) in Lua.");
        return;
    }
    // Fixed widths from the pane's: the table keeps its shape under the list of changes.
    let spacing = ui.spacing().item_spacing.x * 5.0;
    let watching = (ui.available_width() - 24.0 * 2.0 - 40.0 - WHEN_WIDTH - spacing).max(160.0);
    TableBuilder::new(ui)
        .id_salt("watches-table")
        .striped(true)
        .cell_layout(egui::Layout::left_to_right(egui::Align::Center))
        .column(Column::exact(24.0))
        .column(Column::exact(watching).clip(true))
        .column(Column::exact(WHEN_WIDTH).clip(true))
        .column(Column::exact(40.0))
        .column(Column::exact(24.0))
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
                        crate::accessibility::accessible_name(ui, &response, format!("watch {} on", watch.id));
                        if response.changed() {
                            state.outbox.push(Command::Debug(DebugCommand::EnableWatch { id: watch.id, enabled }));
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
                        crate::accessibility::accessible_name(ui, &response, format!("remove watch {}", watch.id));
                        if response.clicked() {
                            state.outbox.push(Command::Debug(DebugCommand::Unwatch(watch.id)));
                        }
                    });
                });
            }
        });
}
