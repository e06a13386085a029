//! The REPL pane: Lua in the running game.
//!
//! Enter evaluates when the chunk is complete and otherwise adds a line (Shift+Enter always
//! adds one); Up and Down walk the history, which is kept in `<project>/.nefia/repl_history.ron`; Tab
//! completes globals, table keys and object fields and methods. Results are pretty-printed
//! by the runtime; objects and file:line places in them are links. While `pause()` holds
//! the game, the pane is in breakpoint mode: it shows where, the Locals, and Continue (F8).

use std::path::{Path, PathBuf};

use egui::{Color32, Key, Modifiers, RichText, Ui};
use nefia_protocol::debugging::ReplCommand;
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::message::Command;
use nefia_protocol::output::Output;
use nefia_protocol::repl::{Evaluation, PauseView, SourceExcerpt};
use nefia_protocol::view::Snapshot;

mod limits;

use limits::{LimitError, MIN_MEMORY_MIB, MIN_TIME_LIMIT_MS, parse_memory_limit, parse_time_limit};

use crate::commands::{Action, Scope, with_binding};
use crate::context::EditorContext;
use crate::links::{self, LinkAction};

/// How many inputs the history keeps.
const HISTORY: usize = 500;

/// One evaluated input and what came of it.
pub struct ReplEntry {
    /// What was typed.
    pub input: String,
    /// The answer, once it arrived.
    pub result: Option<Evaluation>,
    id: u64,
}

impl ReplEntry {
    /// The id of its evaluation (what [`TranscriptLine`]s refer to).
    pub fn id(&self) -> u64 {
        self.id
    }
}

/// A line of the transcript, in the order things happened.
#[derive(Clone, Debug, PartialEq)]
pub enum TranscriptLine {
    /// The input of the entry with this id.
    Input(u64),
    /// Something printed (or, while code of the REPL runs, logged).
    Output(Output),
    /// The answer to the entry with this id.
    Result(u64),
}

/// The REPL's state.
#[derive(Default)]
pub struct ReplState {
    /// What is being typed.
    pub input: String,
    /// Past inputs and their results, oldest first.
    pub entries: Vec<ReplEntry>,
    /// What the pane shows, in order: inputs, output and answers as they came. Output printed
    /// by code that resumed after a breakpoint comes after what was evaluated there.
    pub transcript: Vec<TranscriptLine>,
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
    /// The limits being typed in the Limits popup.
    limits_edit: Option<LimitsEdit>,
    /// The Locals panel of breakpoint mode is folded away (the toolbar's Locals button).
    pub locals_hidden: bool,
    /// Put the cursor at the end of the input on the next frame.
    cursor_to_end: bool,
    /// Keys the game was given that were still held when a break gave the input the
    /// keyboard: until they are let go, their repeats are not typed.
    held_for_game: Vec<Key>,
    next_id: u64,
}

/// The id of the input box (tests type into it).
pub fn input_id() -> egui::Id {
    egui::Id::new("nefia-repl-input")
}

impl ReplState {
    /// A REPL whose history is kept in `file` (read now if it exists).
    pub fn with_history_file(file: PathBuf) -> ReplState {
        let history = nefia_game::files::read_ron::<Vec<String>>(&file).unwrap_or_default();
        ReplState { history, history_file: Some(file), ..ReplState::default() }
    }

    /// Where a project's REPL history is kept.
    pub fn history_file_of(project: &Path) -> PathBuf {
        project.join(".nefia").join("repl_history.ron")
    }

    /// Gives the input the keyboard when it is next drawn.
    pub fn take_keyboard(&mut self) {
        self.cursor_to_end = true;
    }

    /// Gives the input the keyboard for a break that brought the REPL forward: the keys in
    /// `held` were pressed for the game, and what they type is dropped until they are let go.
    pub fn take_keyboard_at_break(&mut self, held: impl IntoIterator<Item = Key>) {
        self.take_keyboard();
        self.held_for_game = held.into_iter().collect();
    }

    /// Drops from `input` what the keys held for the game since the break type (text and
    /// their presses), until every one of them has been let go.
    fn drop_keys_held_for_game(&mut self, input: &mut egui::InputState) {
        self.held_for_game.retain(|key| input.keys_down.contains(key));
        if self.held_for_game.is_empty() {
            return;
        }
        let held = &self.held_for_game;
        input.events.retain(|event| match event {
            egui::Event::Text(_) => false,
            egui::Event::Key { key, pressed: true, .. } => !held.contains(key),
            _ => true,
        });
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
        self.entries.push(ReplEntry { input: code.clone(), result: None, id: self.next_id });
        self.transcript.push(TranscriptLine::Input(self.next_id));
        Command::Repl(ReplCommand::Eval { id: self.next_id, code })
    }

    fn save_history(&self) {
        let Some(file) = &self.history_file else { return };
        let written = nefia_game::files::to_ron(file, &self.history)
            .and_then(|text| nefia_game::files::write_atomic(file, text.as_bytes()));
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
            self.transcript.retain(|line| *line != TranscriptLine::Input(id));
            self.input = format!("{}\n", entry.input);
            self.cursor_to_end = true;
            return;
        }
        self.entries[index].result = Some(result);
        self.transcript.push(TranscriptLine::Result(id));
    }

    /// Output that arrived, after what came before it. Printed lines always show; log lines
    /// and messages only while the REPL's code runs (the Log has them all).
    pub fn output(&mut self, output: &Output) {
        let running = self.entries.iter().any(|e| e.result.is_none());
        if running || matches!(output, Output::Print(_)) {
            self.transcript.push(TranscriptLine::Output(output.clone()));
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
        Command::Repl(ReplCommand::Complete { id: self.next_id, text: self.input.clone() })
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
    // While paused, the Locals take the pane's whole height on the right, beside the
    // transcript and the input.
    if let Some(pause) = &snapshot.debug.pause
        && !repl.locals_hidden
    {
        // A side panel that leaves the transcript most of the width.
        let width = ui.available_width();
        egui::Panel::right(id.with("repl-locals"))
            .resizable(true)
            .default_size((width * 0.38).clamp(180.0, 380.0))
            .size_range(140.0..=(width * 0.7).max(140.0))
            .frame(egui::Frame::new().fill(Color32::from_rgb(50, 42, 10)).inner_margin(6.0))
            .show(ui, |ui| pause_ui(ui, pause, &mut actions));
    }
    let input_panel = egui::Panel::bottom(id.with("repl-input")).show(ui, |ui| {
        completions_ui(ui, repl);
        input_ui(ui, state, repl, &snapshot);
    });
    // The rest: the entries.
    let mut rest = ui.available_rect_before_wrap();
    rest.max.y = rest.max.y.min(input_panel.response.rect.top());
    ui.scope_builder(egui::UiBuilder::new().max_rect(rest), |ui| {
        ui.shrink_clip_rect(rest);
        egui::Frame::new().inner_margin(egui::Margin { left: 6, right: 2, top: 2, bottom: 0 }).show(ui, |ui| {
            egui::ScrollArea::vertical()
                .stick_to_bottom(true)
                .auto_shrink([false; 2])
                .show(ui, |ui| entries_ui(ui, repl, &mut actions));
        });
    });
    source_window(ui.ctx(), &mut repl.source);
    for action in actions {
        state.follow(action);
    }
}

/// How many lines of text where and why the game paused may take in the paused panel
/// (scrolled if longer, the stack folded): the Locals get the rest.
const PAUSE_HEADER_LINES: f32 = 2.5;

/// Breakpoint mode (the toolbar says "⏸ Paused"): where and why the game is paused, then the
/// Locals view, which gets most of the panel.
fn pause_ui(ui: &mut Ui, pause: &PauseView, actions: &mut Vec<LinkAction>) {
    let line = ui.text_style_height(&egui::TextStyle::Monospace) + ui.spacing().item_spacing.y;
    egui::ScrollArea::vertical()
        .id_salt("pause-header")
        .max_height(line * PAUSE_HEADER_LINES)
        .auto_shrink([false, true])
        .show(ui, |ui| pause_place_ui(ui, pause, actions));
    ui.separator();
    ui.strong("Locals and upvalues");
    egui::ScrollArea::vertical().id_salt("pause-locals").auto_shrink([false; 2]).show(ui, |ui| {
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

/// Why the game paused (the watch that fired), where, and the stack (folded).
fn pause_place_ui(ui: &mut Ui, pause: &PauseView, actions: &mut Vec<LinkAction>) {
    if let Some(reason) = &pause.reason {
        // The watch that fired: what changed, and the line (a link) that changed it.
        links::show(ui, reason, Color32::from_rgb(255, 210, 90), actions);
    }
    ui.horizontal_wrapped(|ui| {
        ui.label(format!("in {} at", pause.function));
        links::show(ui, &format!("{}:{}", pause.file, pause.line), Color32::WHITE, actions);
    });
    if pause.stack.len() > 1 {
        egui::CollapsingHeader::new(format!("Stack ({} frames)", pause.stack.len())).id_salt("pause-stack").show(
            ui,
            |ui| {
                for frame in &pause.stack {
                    links::show(ui, frame, Color32::LIGHT_GRAY, actions);
                }
            },
        );
    }
}

/// The transcript in order. An answer that comes after other lines (the evaluation paused,
/// and more ran meanwhile) says which input it answers.
fn entries_ui(ui: &mut Ui, repl: &ReplState, actions: &mut Vec<LinkAction>) {
    let entry = |id: u64| repl.entries.iter().find(|e| e.id == id);
    let mut last = None;
    for line in &repl.transcript {
        match line {
            TranscriptLine::Input(id) => {
                let Some(entry) = entry(*id) else { continue };
                for (index, line) in entry.input.lines().enumerate() {
                    let prompt = if index == 0 { "> " } else { ". " };
                    ui.label(RichText::new(format!("{prompt}{line}")).monospace().strong());
                }
                last = Some(*id);
            }
            TranscriptLine::Output(output) => {
                let (text, color) = crate::panes::log::line(output);
                links::show(ui, &text, color, actions);
            }
            TranscriptLine::Result(id) => {
                let Some(entry) = entry(*id) else { continue };
                if last != Some(*id) {
                    let first = entry.input.lines().next().unwrap_or_default();
                    ui.weak(RichText::new(format!("↳ {first}")).monospace());
                }
                if let Some(result) = &entry.result {
                    result_ui(ui, entry.id, result, actions);
                }
                last = Some(*id);
            }
        }
    }
    if repl.entries.last().is_some_and(|e| e.result.is_none()) {
        ui.weak("…");
    }
}

/// An evaluation's answer: its values, "ok", or its error with a traceback to unfold.
fn result_ui(ui: &mut Ui, id: u64, result: &Evaluation, actions: &mut Vec<LinkAction>) {
    match result {
        Evaluation::Values(values) if values.is_empty() => {
            ui.weak("ok");
        }
        Evaluation::Values(values) => links::show(ui, &values.join("\t"), Color32::LIGHT_GRAY, actions),
        Evaluation::Incomplete => {
            ui.weak("(incomplete)");
        }
        Evaluation::Continued => {
            ui.weak("continued");
        }
        Evaluation::Error(failure) => {
            links::show(ui, &failure.message, Color32::LIGHT_RED, actions);
            if !failure.traceback.is_empty() {
                egui::CollapsingHeader::new(RichText::new("traceback").small())
                    .id_salt(("traceback", id))
                    .show(ui, |ui| links::show(ui, &failure.traceback, Color32::from_gray(170), actions));
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
    ui.input_mut(|i| repl.drop_keys_held_for_game(i));
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
    // In an empty input, Ctrl+Z and its redo keys are the editor's (an edit made from the
    // REPL is undone right where it was typed), not the text box's.
    if focused && repl.input.is_empty() {
        let history = &snapshot.editing.history;
        let wanted = |action| match action {
            Action::Undo => history.done > 0,
            Action::Redo => history.done < history.labels.len(),
            _ => false,
        };
        for action in crate::commands::pressed(ui.ctx(), Scope::NotTyping, wanted) {
            state.outbox.push(if action == Action::Undo {
                Command::Editing(EditingCommand::Undo)
            } else {
                Command::Editing(EditingCommand::Redo)
            });
        }
    }
    if tab && !repl.input.trim().is_empty() {
        let command = repl.complete();
        state.outbox.push(command);
    }
    let hint = match snapshot.debug.pause {
        Some(_) => {
            with_binding("Lua among the paused function's locals — `continue` to go on", Action::Continue, ui.ctx())
        }
        None => "Lua — Enter to run, Shift+Enter for a new line, Tab to complete".to_owned(),
    };
    let output = egui::TextEdit::multiline(&mut repl.input)
        .id(id)
        .code_editor()
        .desired_rows(2)
        .desired_width(f32::INFINITY)
        .lock_focus(true)
        .hint_text(hint)
        .show(ui);
    crate::accessibility::accessible_name(ui, &output.response, "REPL input");
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
    let paused = snapshot.debug.pause.is_some();
    let busy = state.busy;
    ui.horizontal(|ui| {
        if paused {
            ui.label(RichText::new("⏸ Paused").strong().color(Color32::YELLOW));
            if ui
                .button("▶ Continue")
                .on_hover_text(with_binding("Let the paused code go on", Action::Continue, ui.ctx()))
                .clicked()
            {
                state.outbox.push(Command::Debug(nefia_protocol::debugging::DebugCommand::Continue));
            }
            let mut shown = !repl.locals_hidden;
            ui.toggle_value(&mut shown, "Locals")
                .on_hover_text("Show the paused function's locals beside the transcript");
            repl.locals_hidden = !shown;
        } else {
            let label = if snapshot.debug.break_requested { "⏸ Break (at the next turn)" } else { "⏸ Break" };
            let button = ui.add_enabled(!snapshot.debug.break_requested, egui::Button::new(label));
            if button.on_hover_text("Pause the game at the next turn boundary").clicked() {
                state.outbox.push(Command::Debug(nefia_protocol::debugging::DebugCommand::Break));
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
            repl.transcript.clear();
        }
    });
}

fn limits_ui(ui: &mut Ui, state: &mut EditorContext, repl: &mut ReplState, snapshot: &Snapshot) {
    let limits = &snapshot.debug.limits;
    let describe = |value: Option<String>| value.unwrap_or_else(|| "none".into());
    let summary = format!(
        "Limits: {} · {} (Lua heap {:.1} MiB)",
        describe(limits.time.map(|t| format!("{} s", t.as_secs_f32()))),
        describe(limits.memory.map(|m| format!("{} MiB", m >> 20))),
        limits.used as f64 / (1 << 20) as f64
    );
    let button = ui.button(summary).on_hover_text("The time and memory the REPL's code (and mods' code) may take");
    if button.clicked() {
        repl.limits_edit = match repl.limits_edit {
            Some(_) => None,
            None => Some(LimitsEdit {
                time: limits.time.map_or_else(|| "none".into(), |t| format!("{} s", t.as_secs_f64())),
                memory: limits.memory.map_or_else(|| "none".into(), |m| format!("{} MiB", m >> 20)),
            }),
        };
    }
    let Some(edit) = repl.limits_edit.as_mut() else { return };
    // A panel of its own under the button (not a menu, which closes on any click inside):
    // Apply, Escape or a click outside close it.
    let mut open = true;
    let panel = egui::Area::new(ui.id().with("repl-limits-panel"))
        .order(egui::Order::Foreground)
        .fixed_pos(button.rect.left_bottom() + egui::vec2(0.0, 4.0))
        .show(ui.ctx(), |ui| egui::Frame::popup(ui.style()).show(ui, |ui| {
        let time = parse_time_limit(&edit.time);
        let memory = parse_memory_limit(&edit.memory, limits.used);
        egui::Grid::new("repl-limits").num_columns(3).show(ui, |ui| {
            ui.label("Time limit");
            let field = ui.add_sized([110.0, 20.0], egui::TextEdit::singleline(&mut edit.time));
            crate::accessibility::accessible_name(ui, &field, "time limit");
            problem_ui(ui, &time);
            ui.end_row();
            ui.label("Memory limit");
            let field = ui.add_sized([110.0, 20.0], egui::TextEdit::singleline(&mut edit.memory));
            crate::accessibility::accessible_name(ui, &field, "memory limit");
            problem_ui(ui, &memory);
            ui.end_row();
        });
        ui.weak(format!(
            "Seconds (\"5\", \"500 ms\", \"2 min\", {MIN_TIME_LIMIT_MS} ms to 1 h) and MiB (\"512\", \"2 GiB\", {MIN_MEMORY_MIB} MiB to \
             64 GiB); \"none\" for no limit."
        ));
        let valid = time.is_ok() && memory.is_ok();
        if ui.add_enabled(valid, egui::Button::new("Apply")).clicked()
            && let (Ok(time), Ok(memory)) = (time, memory)
        {
            state.outbox.push(Command::Repl(ReplCommand::SetLimits { time, memory }));
            open = false;
        }
    }));
    let clicked_outside = ui.input(|i| {
        i.pointer.any_click()
            && i.pointer.interact_pos().is_some_and(|p| !panel.response.rect.contains(p) && !button.rect.contains(p))
    });
    if !open || clicked_outside || ui.input(|i| i.key_pressed(Key::Escape)) {
        repl.limits_edit = None;
    }
}

/// The limits being typed in the Limits popup.
struct LimitsEdit {
    time: String,
    memory: String,
}

/// A short note after a limit's text box when what it holds is not a limit.
fn problem_ui<T>(ui: &mut Ui, parsed: &Result<T, LimitError>) {
    match parsed {
        Ok(_) => ui.label(""),
        Err(problem) => ui.colored_label(Color32::LIGHT_RED, problem.to_string()),
    };
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
