//! Merge conflicts in the editor (see [`nefia_game::map_merge`]): a map file that
//! `nefia merge` could not merge cleanly opens with ours' side in place and its conflicts
//! listed. The Maps pane marks such a map, the viewport marks each conflicting cell, the
//! Problems pane lists the conflicts with Ours / Theirs for each and for all (the resolve
//! tool), and saving a map that still has some asks first: they stay in the file.

use egui::{Color32, Ui};
use nefia_game::conflict::{Conflict, Side};
use nefia_game::edit::Edit;
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::maps::MapCommand;
use nefia_protocol::message::Command;

use crate::context::EditorContext;

/// The colour conflicts are shown in, in the list, the Maps pane and the viewport.
pub const CONFLICT_COLOUR: Color32 = Color32::from_rgb(255, 150, 40);

/// The resolve tool: the current map's conflicts, each with Ours and Theirs, and both for
/// all. Clicking a conflict brings its cell into view. Nothing shows without conflicts.
pub fn list(ui: &mut Ui, state: &mut EditorContext) {
    let Some(map) = state.snapshot.map.clone() else { return };
    if map.conflicts.is_empty() {
        return;
    }
    let resolve =
        |conflict, side| Command::Editing(EditingCommand::Edit(Edit::Resolve { map: map.id, conflict, side }));
    ui.horizontal_wrapped(|ui| {
        ui.colored_label(CONFLICT_COLOUR, format!("{} merge conflict(s): the map holds ours", map.conflicts.len()));
        if ui.button("All ours").clicked() {
            state.outbox.push(resolve(None, Side::Ours));
        }
        if ui.button("All theirs").clicked() {
            state.outbox.push(resolve(None, Side::Theirs));
        }
    });
    for (index, conflict) in map.conflicts.iter().enumerate() {
        ui.horizontal(|ui| {
            if ui.small_button("Ours").on_hover_text("keep what the map holds").clicked() {
                state.outbox.push(resolve(Some(index), Side::Ours));
            }
            if ui.small_button("Theirs").on_hover_text("put theirs in its place").clicked() {
                state.outbox.push(resolve(Some(index), Side::Theirs));
            }
            let text = egui::RichText::new(conflict.to_string()).color(CONFLICT_COLOUR);
            let row = ui.add(egui::Button::new(text).frame(false));
            if let Some(cell) = conflict.cell()
                && row.on_hover_text("show the cell").clicked()
            {
                state.viewport.reveal_cell = Some(cell);
            }
        });
    }
    ui.separator();
}

/// The cells of `conflicts` the viewport marks.
pub fn cells(conflicts: &[Conflict]) -> Vec<(i32, i32)> {
    conflicts.iter().filter_map(Conflict::cell).collect()
}

/// Saves as `command` says, unless a map it would save still has conflicts: then it asks
/// first (see [`save_dialog`]).
pub fn save(state: &mut EditorContext, command: MapCommand) {
    let files = &state.snapshot.maps.files;
    let conflicted: Vec<String> = files
        .iter()
        .filter(|f| f.conflicts > 0)
        .filter(|f| match &command {
            MapCommand::Save(Some(name)) => &f.name == name,
            MapCommand::Save(None) => f.current,
            _ => f.dirty,
        })
        .map(|f| format!("{} ({} conflict(s))", f.name, f.conflicts))
        .collect();
    if conflicted.is_empty() {
        state.outbox.push(Command::Maps(command));
    } else {
        state.pending_save = Some((command, conflicted));
    }
}

/// The question a save of maps with conflicts asks, as a modal window.
pub fn save_dialog(ctx: &egui::Context, state: &mut EditorContext) {
    let Some((command, maps)) = state.pending_save.clone() else { return };
    let mut answered = false;
    let modal = egui::Modal::new(egui::Id::new("nefia-save-conflicts")).show(ctx, |ui| {
        ui.heading("Unresolved conflicts");
        ui.label(format!("These maps still have merge conflicts: {}.", maps.join(", ")));
        ui.label("Saved now, the conflicts stay in the file (ours is what the map holds), to resolve later.");
        ui.horizontal(|ui| {
            if ui.button("Save anyway").clicked() {
                state.outbox.push(Command::Maps(command.clone()));
                answered = true;
            }
            answered |= ui.button("Cancel").clicked();
        });
    });
    if answered || modal.should_close() {
        state.pending_save = None;
    }
}

/// A line for the unsaved-changes questions: which dirty maps still have conflicts (saving
/// keeps them in the file). Nothing shows when none has.
pub fn note_unresolved(ui: &mut Ui, state: &EditorContext) {
    let conflicted: Vec<&str> =
        state.snapshot.maps.files.iter().filter(|f| f.dirty && f.conflicts > 0).map(|f| f.name.as_str()).collect();
    if !conflicted.is_empty() {
        let text = format!("{} still have merge conflicts: saved, they stay in the file.", conflicted.join(", "));
        ui.colored_label(CONFLICT_COLOUR, text);
    }
}
