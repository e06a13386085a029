//! The recovery dialog: opening a project whose last session ended with edits not saved (a
//! crash, a kill, a power cut), the editor lists the maps the edit journal would bring back
//! — how many edits, and when the last was made — and offers to recover them (they come
//! back unsaved, in History, to look over, undo or save) or to discard them. Then it says
//! what came back, counted as the question counted: a recovery that stopped early says why and
//! where the journal was kept to try again.

use std::time::{SystemTime, UNIX_EPOCH};

use nefia_protocol::editing::EditingCommand;
use nefia_protocol::message::Command;

use crate::context::EditorContext;

/// How long ago `at` (milliseconds since 1970) was, in words.
fn ago(at: u64) -> String {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    let seconds = now.saturating_sub(at / 1000);
    match seconds {
        0..=59 => format!("{seconds} s ago"),
        60..=3599 => format!("{} min ago", seconds / 60),
        3600..=86_399 => format!("{} h ago", seconds / 3600),
        _ => format!("{} days ago", seconds / 86_400),
    }
}

/// Shows the dialog while the runtime offers a recovery, then what came of it.
pub fn ui(ctx: &egui::Context, state: &mut EditorContext) {
    report_ui(ctx, state);
    let Some(offer) = state.snapshot.editing.recovery.clone() else { return };
    // "N s ago" keeps counting.
    ctx.request_repaint_after(std::time::Duration::from_secs(1));
    egui::Modal::new(egui::Id::new("nefia-recovery")).show(ctx, |ui| {
        ui.heading("Recover unsaved edits?");
        ui.label("The last session on this project ended before these maps were saved:");
        egui::Grid::new("recovery-maps").striped(true).show(ui, |ui| {
            for map in &offer.maps {
                ui.label(&map.name);
                ui.label(format!("{} edit(s)", map.edits));
                ui.weak(map.last.map_or_else(|| "unsaved before the last save".to_owned(), ago));
                ui.end_row();
            }
        });
        for problem in &offer.problems {
            ui.colored_label(egui::Color32::YELLOW, problem);
        }
        ui.horizontal(|ui| {
            if ui.button("Recover").on_hover_text("Bring the edits back, unsaved, with their History").clicked() {
                state.outbox.push(Command::Editing(EditingCommand::Recover(true)));
            }
            if ui.button("Discard").on_hover_text("Forget them: the maps stay as saved").clicked() {
                state.outbox.push(Command::Editing(EditingCommand::Recover(false)));
            }
        });
    });
}

/// Shows what the recovery brought back until it is read.
fn report_ui(ctx: &egui::Context, state: &mut EditorContext) {
    let Some(report) = &state.recovery_report else { return };
    let mut read = false;
    egui::Modal::new(egui::Id::new("nefia-recovered")).show(ctx, |ui| {
        match &report.stopped {
            None => {
                ui.heading("Edits recovered");
                ui.label(format!(
                    "{} edit(s) came back, unsaved: look them over in History, then save.",
                    report.recovered
                ));
            }
            Some(why) => {
                ui.heading("Some edits were not recovered");
                ui.label(format!(
                    "{} of {} edit(s) came back, unsaved, in History; {} did not.",
                    report.recovered,
                    report.total,
                    report.total.saturating_sub(report.recovered)
                ));
                ui.colored_label(egui::Color32::YELLOW, why);
                match &report.kept {
                    Some(kept) => ui.label(format!(
                        "The journal is kept in {} — move it back to .nefia/journal to try again.",
                        kept.display()
                    )),
                    None => ui.colored_label(egui::Color32::RED, "The journal could not be kept (see the Log)."),
                };
            }
        }
        read = ui.button("OK").clicked();
    });
    if read {
        state.recovery_report = None;
    }
}
