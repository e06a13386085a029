//! The error screen (seed: Error Handling): drawn over the game when game logic failed with an
//! uncaught error — what failed, its message and traceback (file:line places are links), and
//! two ways on: Enter resumes (the failed step is abandoned), Escape leaves the screen. The
//! editor's viewport and the player window both show this one widget; they differ only in
//! where Escape leads (the REPL, or the title menu).

use egui::{Color32, Rect, RichText, Ui};
use nefia_protocol::failure::GameError;

use crate::links::{self, LinkAction};

/// What was chosen on the error screen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorChoice {
    /// Resume the game (Enter).
    Resume,
    /// Leave the screen (Escape).
    Leave,
}

/// Shows the error screen over `rect` (dimming the game). `leave` labels the Escape button;
/// `hint` is a line beside the buttons. Enter and Escape answer only with `keys`; clicked links
/// are added to `actions`.
pub fn error_screen_ui(
    ui: &mut Ui,
    rect: Rect,
    error: &GameError,
    (leave, hint): (&str, Option<&str>),
    keys: bool,
    actions: &mut Vec<LinkAction>,
) -> Option<ErrorChoice> {
    let (enter, escape) = match keys {
        true => ui.input_mut(|i| {
            (
                i.consume_key(egui::Modifiers::NONE, egui::Key::Enter),
                i.consume_key(egui::Modifiers::NONE, egui::Key::Escape),
            )
        }),
        false => (false, false),
    };
    let mut choice = match (enter, escape) {
        (true, _) => Some(ErrorChoice::Resume),
        (false, true) => Some(ErrorChoice::Leave),
        _ => None,
    };
    // The game is stopped: dim it.
    ui.painter().rect_filled(rect, 0.0, Color32::from_black_alpha(150));
    let area = rect.shrink(24.0);
    ui.scope_builder(egui::UiBuilder::new().max_rect(area), |ui| {
        egui::Frame::popup(ui.style()).fill(Color32::from_rgba_unmultiplied(40, 8, 8, 240)).show(ui, |ui| {
            ui.set_width(area.width() - 16.0);
            let heading = format!("The game stopped: error in {}", error.context);
            ui.heading(RichText::new(heading).color(Color32::LIGHT_RED));
            links::show(ui, &error.failure.message, Color32::WHITE, actions);
            ui.separator();
            egui::ScrollArea::vertical().max_height((area.height() - 140.0).max(60.0)).show(ui, |ui| {
                links::show(ui, &error.failure.traceback, Color32::from_gray(190), actions);
            });
            ui.separator();
            ui.horizontal(|ui| {
                let resume = ui.button("Resume (Enter)").on_hover_text("Abandon the failed step; the game goes on");
                if resume.clicked() {
                    choice = Some(ErrorChoice::Resume);
                }
                if ui.button(format!("{leave} (Escape)")).clicked() {
                    choice = Some(ErrorChoice::Leave);
                }
                if let Some(hint) = hint {
                    ui.weak(hint);
                }
            });
        });
    });
    choice
}
