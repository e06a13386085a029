//! The Log pane: printed output, messages to the player and log lines, in order.

use egui::{Color32, RichText, Ui};
use nefia_game::display::LogLevel;
use nefia_protocol::output::Output;

/// Lines kept in the pane.
const KEEP: usize = 5000;

/// The log's lines.
#[derive(Default)]
pub struct LogState {
    /// Every line, oldest first.
    pub lines: Vec<Output>,
    /// Only lines containing this are shown.
    pub filter: String,
}

impl LogState {
    /// Adds a line.
    pub fn push(&mut self, output: Output) {
        if self.lines.len() == KEEP {
            self.lines.remove(0);
        }
        self.lines.push(output);
    }
}

/// The text and colour of a line.
pub fn line(output: &Output) -> (String, Color32) {
    match output {
        Output::Print(text) => (text.clone(), Color32::LIGHT_GRAY),
        Output::Message(text) => (format!("» {text}"), Color32::from_rgb(200, 220, 255)),
        Output::Log(line) => {
            let color = match line.level {
                LogLevel::Debug => Color32::GRAY,
                LogLevel::Info => Color32::LIGHT_GREEN,
                LogLevel::Warn => Color32::YELLOW,
                LogLevel::Error => Color32::LIGHT_RED,
            };
            (format!("[{}] {}", line.level.name(), line.text), color)
        }
    }
}

/// Shows the log.
pub fn ui(ui: &mut Ui, log: &mut LogState) {
    ui.horizontal(|ui| {
        ui.label("Filter:");
        ui.text_edit_singleline(&mut log.filter);
        if ui.button("Clear").clicked() {
            log.lines.clear();
        }
    });
    egui::ScrollArea::vertical().stick_to_bottom(true).auto_shrink([false; 2]).show(ui, |ui| {
        for output in &log.lines {
            let (text, color) = line(output);
            if log.filter.is_empty() || text.contains(&log.filter) {
                ui.label(RichText::new(text).monospace().color(color));
            }
        }
    });
}
