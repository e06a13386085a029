//! Quitting while a game is played (Quit to title in the Options, or closing the window) asks
//! whether to save first: Save and quit, Quit without saving, or Cancel (Escape). Saving is
//! `PlayCommand::SaveAndStop`: play stops only once the game is saved, and a save
//! refused is shown in the question, the game going on.

use egui::{Color32, Rect, RichText, Ui, Vec2};
use nefia_protocol::message::Command;
use nefia_protocol::play::PlayCommand;

/// Where quitting goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuitTo {
    /// The title menu.
    Title,
    /// Out: the window closes.
    Closed,
}

/// The question asked before quitting a game, and the answer being carried out.
#[derive(Debug, Default)]
pub struct QuitQuestion {
    /// Asked, quitting to here.
    asking: Option<QuitTo>,
    /// Answered: play is stopping, and goes here once it has.
    leaving: Option<QuitTo>,
    /// Why the save asked for was refused.
    refused: Option<String>,
}

impl QuitQuestion {
    /// Asks whether to save before quitting to `to` (unless already quitting).
    pub fn ask(&mut self, to: QuitTo) {
        if self.leaving.is_none() {
            self.asking = Some(to);
        }
    }

    /// True while asked or quitting: the keys are the question's, not the game's.
    pub fn is_open(&self) -> bool {
        self.asking.is_some() || self.leaving.is_some()
    }

    /// A refusal came while quitting: the save was refused, so the question is asked again
    /// with why. False (nothing done) if not quitting.
    pub fn refused(&mut self, message: &str) -> bool {
        let Some(to) = self.leaving.take() else { return false };
        self.asking = Some(to);
        self.refused = Some(message.to_owned());
        true
    }

    /// Play stopped: where quitting goes, if it was quitting.
    pub fn stopped(&mut self) -> Option<QuitTo> {
        self.asking = None;
        self.refused = None;
        self.leaving.take()
    }

    /// The question over `rect`, while asked: the command the answer sends.
    pub fn ui(&mut self, ui: &mut Ui, rect: Rect) -> Option<Command> {
        if self.leaving.is_some() {
            let painter = ui.painter();
            painter.rect_filled(rect, 0.0, Color32::from_black_alpha(170));
            let font = egui::FontId::proportional(18.0);
            painter.text(rect.center(), egui::Align2::CENTER_CENTER, "Quitting…", font, Color32::WHITE);
            return None;
        }
        let to = self.asking?;
        let cancel = ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Escape));
        let mut answer = None;
        ui.painter().rect_filled(rect, 0.0, Color32::from_black_alpha(170));
        let area = Rect::from_center_size(rect.center(), Vec2::new(420.0, 200.0).min(rect.size()));
        ui.scope_builder(egui::UiBuilder::new().max_rect(area), |ui| {
            egui::Frame::window(ui.style()).show(ui, |ui| {
                ui.set_width(area.width() - 16.0);
                ui.vertical_centered(|ui| {
                    ui.heading(RichText::new("Save before quitting?").size(20.0));
                    if let Some(refused) = &self.refused {
                        ui.colored_label(Color32::LIGHT_RED, refused);
                    }
                    ui.add_space(8.0);
                    ui.horizontal(|ui| {
                        if ui.button("Save and quit").clicked() {
                            answer = Some(Command::Play(PlayCommand::SaveAndStop));
                        }
                        if ui.button("Quit without saving").clicked() {
                            answer = Some(Command::Play(PlayCommand::Stop));
                        }
                        if ui.button("Cancel").clicked() {
                            self.asking = None;
                        }
                    });
                });
            });
        });
        if cancel {
            self.asking = None;
        }
        if answer.is_some() {
            (self.asking, self.leaving, self.refused) = (None, Some(to), None);
        }
        answer
    }
}
