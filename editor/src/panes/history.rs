//! The History pane: the editor's edits, oldest first. Undone ones are greyed; clicking an
//! entry undoes or redoes up to it. Ctrl+Z undoes, Ctrl+Shift+Z (or Ctrl+Y) redoes.

use egui::{RichText, Ui};
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::message::Command;

use crate::context::EditorContext;

/// Shows the history.
pub fn ui(ui: &mut Ui, state: &mut EditorContext) {
    let history = state.snapshot.editing.history.clone();
    ui.horizontal(|ui| {
        if ui.add_enabled(history.done > 0, egui::Button::new("Undo")).clicked() {
            state.outbox.push(Command::Editing(EditingCommand::Undo));
        }
        if ui.add_enabled(history.done < history.labels.len(), egui::Button::new("Redo")).clicked() {
            state.outbox.push(Command::Editing(EditingCommand::Redo));
        }
    });
    if history.labels.is_empty() {
        ui.weak("No edits yet.");
        return;
    }
    egui::ScrollArea::vertical().stick_to_bottom(true).auto_shrink([false; 2]).show(ui, |ui| {
        for (index, label) in history.labels.iter().enumerate() {
            let done = index < history.done;
            let text = if done { RichText::new(label) } else { RichText::new(label).weak().italics() };
            if ui.selectable_label(index + 1 == history.done, text).clicked() {
                let target = index + 1;
                if target < history.done {
                    state
                        .outbox
                        .extend(std::iter::repeat_n(Command::Editing(EditingCommand::Undo), history.done - target));
                } else {
                    state
                        .outbox
                        .extend(std::iter::repeat_n(Command::Editing(EditingCommand::Redo), target - history.done));
                }
            }
        }
    });
}
