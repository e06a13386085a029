//! The REPL pane: Lua in the running game.
//!
//! Enter evaluates when the chunk is complete and otherwise adds a line (Shift+Enter always
//! adds one); Up and Down walk the history, which is kept in the project's editor state; Tab
//! completes globals, table keys and object fields and methods. Results are pretty-printed
//! by the runtime; objects and file:line places in them are links. While `pause()` holds
//! the game, the pane is in breakpoint mode: it shows where, the Locals, and Continue (F8).

use std::path::{Path, PathBuf};

use egui::{Color32, Key, Modifiers, RichText, Ui};
use nefia_runtime::host::Command;
use nefia_runtime::lua::Output;
use nefia_runtime::lua::repl::{Evaluation, PauseView, SourceExcerpt};
use nefia_runtime::view::Snapshot;

use crate::context::EditorContext;
use crate::links::{self, LinkAction};

/// How many inputs the history keeps.
const HISTORY: usize = 500;

/// One evaluated input and what came of it.
pub struct ReplEntry {
    /// What was typed.
    pub input: String,
    /// What it printed and logged while it ran, in order.
    pub output: Vec<Output>,
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
    pub entries: Vec<ReplEntry>,
    /// Past inputs, oldest first (Up and Down walk them).
    pub history: Vec<String>,
    /// Where in the history Up and Down are (None: at the input being typed).
    history_cursor: Option<usize>,
    /// Where the history is kept; none keeps it in memory only.
    history_file: Option<PathBuf>,
    /// The candidates of the last completion with more than one.
    pub completions: Vec<String>,
    /// The completion asked for and not yet answered.
    completing: Option<u64>,
    /// The source lines a file:line link asked for.
    pub source: Option<SourceExcerpt>,
    /// The limits being edited: seconds and MiB (0: unlimited).
    limits_edit: Option<(f64, usize)>,
    /// Put the cursor at the end of the input on the next frame.
    cursor_to_end: bool,
    next_id: u64,
}

/// The id of the input box (tests type into it).
pub fn input_id() -> egui::Id {
    egui::Id::new("nefia-repl-input")
}

impl ReplState {
    /// A REPL whose history is kept in `file` (read now if it exists).
    pub fn with_history_file(file: PathBuf) -> ReplState {
        let history = nefia_runtime::files::read_ron::<Vec<String>>(&file).unwrap_or_default();
        ReplState { history, history_file: Some(file), ..ReplState::default() }
    }

    /// Where a project's REPL history is kept.
    pub fn history_file_of(project: &Path) -> PathBuf {
        project.join(".nefia").join("repl_history.ron")
    }

    /// Sends `code` for evaluation, remembering it in the history; returns the command.
    pub fn submit(&mut self, code: String) -> Command {
        self.next_id += 1;
        if self.history.last() != Some(&code) {
            self.history.push(code.clone());
            let excess = self.history.len().saturating_sub(HISTORY);
            self.history.drain(..excess);
            self.save_history();
        }
        self.history_cursor = None;
        self.completions.clear();
        self.entries.push(ReplEntry { input: code.clone(), output: Vec::new(), result: None, id: self.next_id });
        Command::Eval { id: self.next_id, code }
    }

    fn save_history(&self) {
        let Some(file) = &self.history_file else { return };
        let written = nefia_runtime::files::to_ron(file, &self.history)
            .and_then(|text| nefia_runtime::files::write_atomic(file, text.as_bytes()));
        if let Err(error) = written {
            tracing::warn!("the REPL history could not be saved to {}: {error}", file.display());
        }
    }

    /// Records the answer to evaluation `id`. An incomplete chunk goes back into the input
    /// with a new line, to be continued.
    pub fn answer(&mut self, id: u64, result: Evaluation) {
        let Some(index) = self.entries.iter().position(|e| e.id == id) else { return };
        if result == Evaluation::Incomplete && self.input.is_empty() {
            let entry = self.entries.remove(index);
            self.input = format!("{}\n", entry.input);
            self.cursor_to_end = true;
            return;
        }
        self.entries[index].result = Some(result);
    }

    /// Output that arrived: it belongs to the evaluation in progress, if any.
    pub fn output(&mut self, output: &Output) {
        if let Some(entry) = self.entries.last_mut().filter(|e| e.result.is_none()) {
            entry.output.push(output.clone());
        }
    }

    /// The answer to a completion: one candidate replaces the input, several fill in what
    /// they share and are listed.
    pub fn completed(&mut self, id: u64, candidates: Vec<String>) {
        if self.completing != Some(id) {
            return;
        }
        self.completing = None;
        let shared = candidates.iter().skip(1).fold(candidates.first().cloned().unwrap_or_default(), |common, c| {
            common.chars().zip(c.chars()).take_while(|(a, b)| a == b).map(|(a, _)| a).collect()
        });
        if shared.len() > self.input.len() {
            self.input = shared;
            self.cursor_to_end = true;
        }
        self.completions = if candidates.len() > 1 { candidates } else { Vec::new() };
    }

    /// Asks for completions of the input; returns the command.
    pub fn complete(&mut self) -> Command {
        self.next_id += 1;
        self.completing = Some(self.next_id);
        Command::Complete { id: self.next_id, text: self.input.clone() }
    }

    /// Up (`older`) or Down through the history.
    fn walk_history(&mut self, older: bool) {
        let len = self.history.len();
        let next = match (self.history_cursor, older) {
            (None, true) if len > 0 => Some(len - 1),
            (Some(i), true) => Some(i.saturating_sub(1)),
            (Some(i), false) if i + 1 < len => Some(i + 1),
            (Some(_), false) => None,
            (cursor, _) => cursor,
        };
        if next != self.history_cursor {
            self.history_cursor = next;
            self.input = next.map(|i| self.history[i].clone()).unwrap_or_default();
            self.cursor_to_end = true;
        }
    }
}

/// Shows the REPL.
pub fn ui(ui: &mut Ui, state: &mut EditorContext, repl: &mut ReplState) {
    let snapshot = state.snapshot.clone();
    let mut actions = Vec::new();
    let id = ui.id();
    egui::Panel::top(id.with("repl-toolbar")).show(ui, |ui| toolbar_ui(ui, state, repl, &snapshot));
    let input_panel = egui::Panel::bottom(id.with("repl-input")).show(ui, |ui| {
        completions_ui(ui, repl);
        input_ui(ui, state, repl, &snapshot);
    });
    // The rest: the entries, and the Locals beside them while paused.
    let mut rest = ui.available_rect_before_wrap();
    rest.max.y = rest.max.y.min(input_panel.response.rect.top());
    ui.scope_builder(egui::UiBuilder::new().max_rect(rest), |ui| {
        ui.shrink_clip_rect(rest);
        if let Some(pause) = &snapshot.pause {
            egui::Panel::right(id.with("repl-locals"))
                .resizable(true)
                .default_size(300.0)
                .frame(egui::Frame::new().fill(Color32::from_rgb(50, 42, 10)).inner_margin(6.0))
                .show(ui, |ui| pause_ui(ui, pause, &mut actions));
        }
        egui::ScrollArea::vertical()
            .stick_to_bottom(true)
            .auto_shrink([false; 2])
            .show(ui, |ui| entries_ui(ui, &repl.entries, &mut actions));
    });
    source_window(ui.ctx(), &mut repl.source);
    for action in actions {
        state.follow(action);
    }
}

/// Breakpoint mode: where the game is paused, and the Locals view.
fn pause_ui(ui: &mut Ui, pause: &PauseView, actions: &mut Vec<LinkAction>) {
    ui.label(RichText::new("⏸ Paused").strong().color(Color32::YELLOW));
    ui.horizontal_wrapped(|ui| {
        ui.label(format!("in {} at", pause.function));
        links::show(ui, &format!("{}:{}", pause.file, pause.line), Color32::WHITE, actions);
    });
    ui.separator();
    ui.strong("Locals and upvalues");
    egui::ScrollArea::vertical().auto_shrink([false; 2]).show(ui, |ui| {
        for (name, kind, value) in &pause.variables {
            // A table's lines on one line: the Locals view is a list.
            let value = value.lines().map(str::trim).collect::<Vec<_>>().join(" ");
            ui.horizontal_wrapped(|ui| {
                ui.spacing_mut().item_spacing.x = 0.0;
                ui.label(RichText::new(name).monospace().strong()).on_hover_text(kind.as_str());
                ui.label(RichText::new(" = ").monospace());
                links::show_inline(ui, &value, Color32::LIGHT_GRAY, actions);
            });
        }
    });
}

fn entries_ui(ui: &mut Ui, entries: &[ReplEntry], actions: &mut Vec<LinkAction>) {
    for entry in entries {
        for (index, line) in entry.input.lines().enumerate() {
            let prompt = if index == 0 { "> " } else { ". " };
            ui.label(RichText::new(format!("{prompt}{line}")).monospace().strong());
        }
        for output in &entry.output {
            let (text, color) = crate::panes::log::line(output);
            links::show(ui, &text, color, actions);
        }
        match &entry.result {
            None => {
                ui.weak("…");
            }
            Some(Evaluation::Values(values)) if values.is_empty() => {
                ui.weak("ok");
            }
            Some(Evaluation::Values(values)) => links::show(ui, &values.join("\t"), Color32::LIGHT_GRAY, actions),
            Some(Evaluation::Incomplete) => {
                ui.weak("(incomplete)");
            }
            Some(Evaluation::Continued) => {
                ui.weak("continued");
            }
            Some(Evaluation::Error(failure)) => {
                links::show(ui, &failure.message, Color32::LIGHT_RED, actions);
                if !failure.traceback.is_empty() {
                    egui::CollapsingHeader::new(RichText::new("traceback").small())
                        .id_salt(("traceback", entry.id))
                        .show(ui, |ui| links::show(ui, &failure.traceback, Color32::from_gray(170), actions));
                }
            }
        }
    }
}

fn completions_ui(ui: &mut Ui, repl: &mut ReplState) {
    if repl.completions.is_empty() {
        return;
    }
    let mut chosen = None;
    egui::ScrollArea::horizontal().id_salt("repl-completions").show(ui, |ui| {
        ui.horizontal(|ui| {
            for candidate in &repl.completions {
                let shown = candidate.rsplit(['.', ':', ' ', '(']).next().unwrap_or(candidate);
                if ui.small_button(RichText::new(shown).monospace()).clicked() {
                    chosen = Some(candidate.clone());
                }
            }
        });
    });
    if let Some(candidate) = chosen {
        repl.input = candidate;
        repl.completions.clear();
        repl.cursor_to_end = true;
    }
}

fn input_ui(ui: &mut Ui, state: &mut EditorContext, repl: &mut ReplState, snapshot: &Snapshot) {
    let id = input_id();
    let focused = ui.memory(|m| m.has_focus(id));
    // Enter, Up, Down and Tab are the REPL's, not the text box's.
    let (enter, up, down, tab) = if focused {
        ui.input_mut(|i| {
            let single_line = !repl.input.contains('\n');
            (
                !i.modifiers.shift && i.consume_key(Modifiers::NONE, Key::Enter),
                single_line && i.consume_key(Modifiers::NONE, Key::ArrowUp),
                single_line && i.consume_key(Modifiers::NONE, Key::ArrowDown),
                i.consume_key(Modifiers::NONE, Key::Tab),
            )
        })
    } else {
        (false, false, false, false)
    };
    if up || down {
        repl.walk_history(up);
    }
    if tab && !repl.input.trim().is_empty() {
        let command = repl.complete();
        state.outbox.push(command);
    }
    let hint = match snapshot.pause {
        Some(_) => "Lua among the paused function's locals — `continue` or F8 to go on",
        None => "Lua — Enter to run, Shift+Enter for a new line, Tab to complete",
    };
    let output = egui::TextEdit::multiline(&mut repl.input)
        .id(id)
        .code_editor()
        .desired_rows(2)
        .desired_width(f32::INFINITY)
        .lock_focus(true)
        .hint_text(hint)
        .show(ui);
    super::accessible_name(ui, &output.response, "REPL input");
    if std::mem::take(&mut repl.cursor_to_end) {
        let mut text_state = output.state;
        let end = egui::text::CCursor::new(repl.input.chars().count());
        text_state.cursor.set_char_range(Some(egui::text::CCursorRange::one(end)));
        text_state.store(ui.ctx(), id);
        output.response.request_focus();
    }
    if output.response.changed() {
        repl.completions.clear();
        repl.history_cursor = None;
    }
    if enter {
        let code = repl.input.trim().to_owned();
        if !code.is_empty() {
            repl.input.clear();
            let command = repl.submit(code);
            state.outbox.push(command);
        }
    }
}

fn toolbar_ui(ui: &mut Ui, state: &mut EditorContext, repl: &mut ReplState, snapshot: &Snapshot) {
    let paused = snapshot.pause.is_some();
    let busy = state.busy;
    ui.horizontal(|ui| {
        if paused {
            if ui.button("▶ Continue").on_hover_text("Let the paused code go on (F8)").clicked() {
                state.outbox.push(Command::Continue);
            }
        } else {
            let label = if snapshot.break_requested { "⏸ Break (at the next turn)" } else { "⏸ Break" };
            let button = ui.add_enabled(!snapshot.break_requested, egui::Button::new(label));
            if button.on_hover_text("Pause the game at the next turn boundary").clicked() {
                state.outbox.push(Command::Break);
            }
        }
        if ui
            .add_enabled(busy || paused, egui::Button::new("⏹ Stop script"))
            .on_hover_text("Interrupt the running script")
            .clicked()
        {
            state.requests.push(crate::context::AppRequest::StopScript);
        }
        ui.separator();
        limits_ui(ui, state, repl, snapshot);
        ui.separator();
        if ui.button("Clear").clicked() {
            repl.entries.clear();
        }
    });
}

fn limits_ui(ui: &mut Ui, state: &mut EditorContext, repl: &mut ReplState, snapshot: &Snapshot) {
    let limits = &snapshot.limits;
    let describe = |value: Option<String>| value.unwrap_or_else(|| "none".into());
    let summary = format!(
        "Limits: {} · {} (Lua heap {:.1} MiB)",
        describe(limits.time.map(|t| format!("{} s", t.as_secs_f32()))),
        describe(limits.memory.map(|m| format!("{} MiB", m >> 20))),
        limits.used as f64 / (1 << 20) as f64
    );
    let popup = ui.menu_button(summary, |ui| {
        let (seconds, mib) = repl.limits_edit.get_or_insert_with(|| {
            (limits.time.map_or(0.0, |t| t.as_secs_f64()), limits.memory.map_or(0, |m| m >> 20))
        });
        egui::Grid::new("repl-limits").show(ui, |ui| {
            ui.label("Time limit (s, 0: none)");
            ui.add(egui::DragValue::new(seconds).range(0.0..=3600.0).speed(0.1));
            ui.end_row();
            ui.label("Memory limit (MiB, 0: none)");
            ui.add(egui::DragValue::new(mib).range(0..=65536).speed(16));
            ui.end_row();
        });
        if ui.button("Apply").clicked() {
            let time = (*seconds > 0.0).then(|| std::time::Duration::from_secs_f64(*seconds));
            let memory = (*mib > 0).then_some(*mib << 20);
            state.outbox.push(Command::SetLimits { time, memory });
            ui.close();
        }
    });
    if popup.inner.is_none() {
        repl.limits_edit = None;
    }
}

/// The lines a file:line link asked for, read-only, the line itself highlighted.
fn source_window(ctx: &egui::Context, source: &mut Option<SourceExcerpt>) {
    let Some(excerpt) = source else { return };
    let mut open = true;
    egui::Window::new(format!("{}:{}", excerpt.file, excerpt.line))
        .id(egui::Id::new("nefia-source"))
        .open(&mut open)
        .resizable(true)
        .show(ctx, |ui| {
            if excerpt.lines.is_empty() {
                ui.weak("This is not a loaded file on disk; there is nothing to show.");
            }
            for (number, text) in (excerpt.first..).zip(&excerpt.lines) {
                let line = RichText::new(format!("{number:>5}  {text}")).monospace();
                if number == excerpt.line {
                    ui.label(line.background_color(Color32::from_rgb(80, 60, 10)).color(Color32::WHITE));
                } else {
                    ui.label(line);
                }
            }
        });
    if !open {
        *source = None;
    }
}
