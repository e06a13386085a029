//! The status bar's word on saving: a save sent, answered by the line the runtime logs.

use std::time::{Duration, Instant};

use nefia_game::display::LogLevel;
use nefia_protocol::maps::MapCommand;
use nefia_protocol::message::{Command, HostEvent};
use nefia_protocol::output::Output;

/// How long the status bar says a save was done.
const SAVE_NOTE_SHOWN: Duration = Duration::from_secs(6);

/// The status bar's word on saving (Ctrl+S, File → Save): a save sent waits for the line the
/// runtime logs when it is done ("saved maps/town.ron"), which the status bar then shows for
/// a while; a refused save shows nothing there (the refusal is a notice of its own).
#[derive(Default)]
pub(super) struct SaveNote {
    /// A save was sent and not yet answered.
    waiting: bool,
    /// What the last save said, and when.
    said: Option<(String, Instant)>,
}

impl SaveNote {
    /// Notes a command sent: a save waits for its answer.
    pub(super) fn sent(&mut self, command: &Command) {
        if matches!(command, Command::Maps(MapCommand::Save(_) | MapCommand::SaveAll)) {
            self.waiting = true;
        }
    }

    /// Notes an event: the log line that answers a save waited for, or its refusal.
    pub(super) fn heard(&mut self, event: &HostEvent) {
        if !self.waiting {
            return;
        }
        match event {
            HostEvent::Output(Output::Log(line)) if line.level == LogLevel::Info => {
                self.said = Some((line.text.clone(), Instant::now()));
                self.waiting = false;
            }
            HostEvent::Refused(_) => self.waiting = false,
            _ => {}
        }
    }

    /// Shows what the last save said, while it is recent.
    pub(super) fn ui(&self, ui: &mut egui::Ui) {
        let Some((text, when)) = &self.said else { return };
        let Some(left) = SAVE_NOTE_SHOWN.checked_sub(when.elapsed()) else { return };
        ui.ctx().request_repaint_after(left);
        ui.separator();
        ui.colored_label(egui::Color32::LIGHT_GREEN, format!("✔ {text}"));
    }
}
