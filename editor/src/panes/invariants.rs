//! The invariants, at the top of the Watches pane (they stop the game as a watch does): every
//! declared invariant (`base.invariant` prototypes: the engine's, the demo's, the mods') with
//! what it checks and what its last check found — held, or the message it failed with, and at
//! which turn; Check now runs them all, and the switch has every turn of play run them (the
//! first failure stops the game like a watch).

use egui::{Color32, RichText, Ui};
use egui_extras::{Column, TableBuilder};
use nefia_protocol::debugging::DebugCommand;
use nefia_protocol::message::Command;

use crate::context::EditorContext;

/// The colour of a failed invariant's message.
const FAILED: Color32 = Color32::from_rgb(255, 90, 90);
/// The colour of one that held.
const HELD: Color32 = Color32::from_rgb(120, 200, 120);

/// The height of the invariants' table at most: the watches come below it.
const TABLE_HEIGHT: f32 = 140.0;

/// Shows the invariants' section.
pub fn section(ui: &mut Ui, state: &mut EditorContext) {
    ui.horizontal(|ui| {
        ui.strong("Invariants");
        if ui.button("Check now").on_hover_text("Run every invariant on the game as it is").clicked() {
            state.outbox.push(Command::Debug(DebugCommand::RunInvariants));
        }
    });
    let mut every_turn = state.snapshot.debug.check_invariants;
    let toggle = ui.checkbox(&mut every_turn, "Stop when an invariant fails").on_hover_text(
        "After every turn of play, run the invariants (base.invariant prototypes: the engine's, the demo's, your \
         mods'); the first that fails stops the game like a watch, naming it",
    );
    if toggle.changed() {
        state.outbox.push(Command::Debug(DebugCommand::CheckInvariants(every_turn)));
    }
    let invariants = state.snapshot.debug.invariants.clone();
    if invariants.is_empty() {
        ui.weak("No invariant is declared (data:add { _type = \"base.invariant\", ... }).");
        return;
    }
    TableBuilder::new(ui)
        .id_salt("invariants")
        .max_scroll_height(TABLE_HEIGHT)
        .striped(true)
        .resizable(true)
        .column(Column::initial(180.0).clip(true))
        .column(Column::initial(90.0).clip(true))
        .column(Column::remainder().clip(true))
        .header(20.0, |mut header| {
            header.col(|ui| {
                ui.strong("Invariant");
            });
            header.col(|ui| {
                ui.strong("Checks");
            });
            header.col(|ui| {
                ui.strong("Last check");
            });
        })
        .body(|mut body| {
            for invariant in &invariants {
                body.row(20.0, |mut row| {
                    row.col(|ui| {
                        ui.label(&invariant.id).on_hover_text(&invariant.doc);
                    });
                    row.col(|ui| {
                        ui.label(invariant.each.as_deref().unwrap_or("the world"));
                    });
                    row.col(|ui| {
                        let (text, colour) = match &invariant.last {
                            None => ("not checked yet".to_owned(), ui.visuals().weak_text_color()),
                            Some(last) => match &last.failure {
                                None => (format!("held at turn {}", last.turn), HELD),
                                Some(message) => (format!("failed at turn {}: {message}", last.turn), FAILED),
                            },
                        };
                        ui.label(RichText::new(&text).color(colour)).on_hover_text(text);
                    });
                });
            }
        });
}
