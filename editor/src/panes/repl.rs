//! The REPL pane: evaluates Lua in the running game. Enter runs the input (Shift+Enter adds a
//! line); expressions print their values.

use egui::{Key, RichText, Ui};
use nefia_runtime::host::Command;
use nefia_runtime::lua::repl::Evaluation;

use crate::app::EditorState;

/// One evaluated input and what came of it.
pub struct Entry {
    /// What was typed.
    pub input: String,
    /// The answer, once it arrived.
    pub result: Option<Evaluation>,
    id: u64,
}

/// The REPL's state.
#[derive(Default)]
pub struct ReplState {
    /// What is being typed.
    pub input: String,
    /// Past inputs and their results, oldest first.
    pub entries: Vec<Entry>,
    next_id: u64,
}

impl ReplState {
    /// Sends `code` for evaluation; returns the command to send.
    pub fn submit(&mut self, code: String) -> Command {
        self.next_id += 1;
        self.entries.push(Entry { input: code.clone(), result: None, id: self.next_id });
        Command::Eval { id: self.next_id, code }
    }

    /// Records the answer to evaluation `id`.
    pub fn answer(&mut self, id: u64, result: Evaluation) {
        if let Some(entry) = self.entries.iter_mut().find(|e| e.id == id) {
            entry.result = Some(result);
        }
    }
}

/// Shows the REPL.
pub fn ui(ui: &mut Ui, state: &mut EditorState) {
    let repl = &mut state.repl;
    let input_height = 60.0;
    egui::ScrollArea::vertical()
        .stick_to_bottom(true)
        .auto_shrink([false; 2])
        .max_height(ui.available_height() - input_height)
        .show(ui, |ui| {
            for entry in &repl.entries {
                ui.label(RichText::new(format!("> {}", entry.input)).monospace().strong());
                match &entry.result {
                    None => ui.weak("…"),
                    Some(Evaluation::Values(values)) if values.is_empty() => ui.weak("ok"),
                    Some(Evaluation::Values(values)) => ui.label(RichText::new(values.join("\t")).monospace()),
                    Some(Evaluation::Incomplete) => ui.weak("(incomplete)"),
                    Some(Evaluation::Continued) => ui.weak("continued"),
                    Some(Evaluation::Error(failure)) => {
                        ui.label(RichText::new(failure.to_string()).monospace().color(egui::Color32::LIGHT_RED))
                    }
                };
            }
        });
    let response = ui.add(
        egui::TextEdit::multiline(&mut repl.input)
            .code_editor()
            .desired_rows(2)
            .desired_width(f32::INFINITY)
            .hint_text("Lua — Enter to run"),
    );
    let submit = response.has_focus() && ui.input(|i| i.key_pressed(Key::Enter) && !i.modifiers.shift);
    if submit {
        let code = repl.input.trim_end_matches('\n').trim().to_owned();
        repl.input.clear();
        if !code.is_empty() {
            let command = repl.submit(code);
            state.outbox.push(command);
        }
    }
}
