//! The Recordings pane: the project's recorded play sessions (`recordings/*.ron`) and its
//! regression tests (`recordings/tests/*.ron`), newest first. Each can be opened in the
//! timeline (the viewport's scrubber), checked by a headless replay on a thread of its own
//! (every turn's state against the recorded one), and a session kept as a test (moved into
//! `recordings/tests/`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, channel};
use std::time::{Duration, Instant, SystemTime};

use egui::{Color32, RichText, Ui};
use nefia_game::recording::{Recording, RecordingError};
use nefia_host::play::replay::{Divergence, ReplayError, ReplayOptions, replay};
use nefia_protocol::message::Command;
use nefia_protocol::play::PlayCommand;

use crate::context::EditorContext;

/// How often the folders are looked at again.
const RESCAN: Duration = Duration::from_secs(2);

/// One recording as the list shows it.
struct Listed {
    path: PathBuf,
    /// Its file's modification time, to know when to read it again.
    modified: Option<SystemTime>,
    /// Kept in `recordings/tests/`.
    test: bool,
    /// What the file says, or why it could not be read.
    summary: Result<String, RecordingError>,
}

/// Why a check did not pass.
#[derive(Debug, thiserror::Error)]
enum CheckFailed {
    /// The recording could not be read.
    #[error(transparent)]
    Unreadable(#[from] RecordingError),
    /// The replay could not run.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// The replay ran and did not come to the recorded state.
    #[error("{0}")]
    Diverged(Divergence),
}

/// A check running or done: the summary of a replay that came to every recorded state, or why not.
enum Check {
    Running(Receiver<Result<String, CheckFailed>>),
    Done(Result<String, CheckFailed>),
}

/// What a row's buttons ask for.
enum Wanted {
    Open,
    Check,
    KeepAsTest,
}

/// The Recordings pane's own state.
#[derive(Default)]
pub struct RecordingsState {
    listed: Vec<Listed>,
    scanned: Option<Instant>,
    checks: BTreeMap<PathBuf, Check>,
    /// The last thing that went wrong (a move that failed).
    problem: Option<String>,
}

/// "2026-12-01 14:23:05 · the start map · 42 turns · 57 inputs".
fn summary(recording: &Recording) -> String {
    let mut text = format!(
        "{} · {} · {} turns · {} inputs",
        recording.made,
        recording.began,
        recording.turns.len().saturating_sub(1),
        recording.inputs.len()
    );
    if !recording.branches.is_empty() {
        text.push_str(&format!(" · {} branch(es)", recording.branches.len()));
    }
    text
}

impl RecordingsState {
    /// Reads the recordings folders again (files unchanged since are not read again).
    fn rescan(&mut self, project: &Path) {
        let dir = project.join("recordings");
        let mut found: Vec<(PathBuf, bool)> =
            nefia_game::files::ron_files(&dir).into_iter().map(|p| (p, false)).collect();
        found.extend(nefia_game::files::ron_files(&dir.join("tests")).into_iter().map(|p| (p, true)));
        let mut listed = Vec::new();
        for (path, test) in found {
            let modified = std::fs::metadata(&path).and_then(|m| m.modified()).ok();
            let old = self.listed.iter().position(|l| l.path == path && l.modified == modified);
            listed.push(match old {
                Some(index) => self.listed.swap_remove(index),
                None => {
                    let summary = Recording::read(&path).map(|r| summary(&r));
                    Listed { path, modified, test, summary }
                }
            });
        }
        listed.sort_by(|a, b| a.test.cmp(&b.test).then(b.path.cmp(&a.path)));
        self.listed = listed;
        self.scanned = Some(Instant::now());
    }

    /// Starts a headless replay of `path` with `--check` on a thread of its own.
    fn check(&mut self, project: &Path, path: &Path) {
        let (tell, told) = channel();
        let (project, file) = (project.to_owned(), path.to_owned());
        std::thread::spawn(move || {
            let outcome = Recording::read(&file).map_err(CheckFailed::from).and_then(|recording| {
                let options = ReplayOptions { check: true, ..ReplayOptions::default() };
                let report = replay(&project, &recording, &options)?;
                let mut text = match report.divergence {
                    Some(divergence) => return Err(CheckFailed::Diverged(divergence)),
                    None => format!(
                        "✔ every turn as recorded: {} turns in {:.0} ms; {}",
                        report.turns,
                        report.took.as_secs_f64() * 1e3,
                        report.ended
                    ),
                };
                if !report.files.is_empty() {
                    text.push_str(&format!("\nfiles changed since: {}", report.files.describe()));
                }
                Ok(text)
            });
            // The pane may have gone; then no one waits for the answer.
            let _ = tell.send(outcome);
        });
        self.checks.insert(path.to_owned(), Check::Running(told));
    }

    /// Moves a session into `recordings/tests/`.
    fn keep_as_test(&mut self, path: &Path) {
        let Some(name) = path.file_name() else { return };
        let Some(tests) = path.parent().map(|p| p.join("tests")) else { return };
        let moved = std::fs::create_dir_all(&tests).and_then(|()| std::fs::rename(path, tests.join(name)));
        self.problem =
            moved.err().map(|e| format!("{} could not be moved to {}: {e}", path.display(), tests.display()));
        self.scanned = None;
    }
}

/// Shows the Recordings pane.
pub fn ui(ui: &mut Ui, state: &mut EditorContext, recordings: &mut RecordingsState) {
    if recordings.scanned.is_none_or(|at| at.elapsed() > RESCAN) {
        recordings.rescan(&state.project);
    }
    ui.ctx().request_repaint_after(RESCAN);
    for check in recordings.checks.values_mut() {
        if let Check::Running(told) = check
            && let Ok(outcome) = told.try_recv()
        {
            *check = Check::Done(outcome);
        }
    }
    ui.horizontal(|ui| {
        let tests = recordings.listed.iter().filter(|l| l.test).count();
        ui.label(format!("{} sessions, {tests} tests", recordings.listed.len() - tests));
        if ui.button("Rescan").on_hover_text("Look at recordings/ and recordings/tests/ again").clicked() {
            recordings.scanned = None;
        }
    });
    if let Some(problem) = &recordings.problem {
        ui.colored_label(Color32::LIGHT_RED, problem);
    }
    ui.separator();
    let playing = state.snapshot.play.playing;
    let mut todo: Vec<(PathBuf, Wanted)> = Vec::new();
    egui::ScrollArea::vertical().auto_shrink([false; 2]).show(ui, |ui| {
        if recordings.listed.is_empty() {
            ui.weak("Every play session is recorded here when it stops.");
        }
        for listed in &recordings.listed {
            let name = listed.path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
            ui.horizontal(|ui| {
                let title = if listed.test { format!("☑ {name}") } else { name.clone() };
                ui.label(RichText::new(title).strong());
                let open = ui.add_enabled(!playing, egui::Button::new("Open"));
                if open
                    .on_hover_text("Open it in the timeline: scrub, step, and play from any turn")
                    .on_disabled_hover_text("Stop playing first")
                    .clicked()
                {
                    todo.push((listed.path.clone(), Wanted::Open));
                }
                let running = matches!(recordings.checks.get(&listed.path), Some(Check::Running(_)));
                let check = ui.add_enabled(!running, egui::Button::new("Check"));
                if check.on_hover_text("Replay it headless and compare every turn with the recording").clicked() {
                    todo.push((listed.path.clone(), Wanted::Check));
                }
                if !listed.test
                    && ui
                        .button("Keep as test")
                        .on_hover_text("Move it into recordings/tests/: nefia test and cargo test replay it")
                        .clicked()
                {
                    todo.push((listed.path.clone(), Wanted::KeepAsTest));
                }
            });
            match &listed.summary {
                Ok(text) => ui.weak(text),
                Err(error) => ui.colored_label(Color32::LIGHT_RED, error.to_string()),
            };
            match recordings.checks.get(&listed.path) {
                Some(Check::Running(_)) => {
                    ui.horizontal(|ui| {
                        ui.spinner();
                        ui.label("replaying…");
                    });
                }
                Some(Check::Done(Ok(text))) => {
                    ui.colored_label(Color32::LIGHT_GREEN, text);
                }
                Some(Check::Done(Err(text))) => {
                    ui.colored_label(Color32::LIGHT_RED, format!("✖ {text}"));
                }
                None => {}
            }
            ui.separator();
        }
    });
    if recordings.checks.values().any(|c| matches!(c, Check::Running(_))) {
        ui.ctx().request_repaint_after(Duration::from_millis(100));
    }
    for (path, what) in todo {
        match what {
            Wanted::Open => state.outbox.push(Command::Play(PlayCommand::OpenRecording(path))),
            Wanted::Check => recordings.check(&state.project, &path),
            Wanted::KeepAsTest => recordings.keep_as_test(&path),
        }
    }
}
