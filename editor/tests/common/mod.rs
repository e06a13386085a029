//! Helpers shared by the editor's tests: an editor on the demo project, stepping until the
//! runtime thread has answered, and evaluating Lua through the REPL.

#![allow(dead_code)]

use std::time::{Duration, Instant};

use egui_kittest::Harness;
use nefia_editor::app::EditorApp;
use nefia_editor::panes::repl::ReplState;
use nefia_runtime::lua::repl::Evaluation;
use nefia_tests::repo_root;

/// An editor on the demo project, 1280×800. Its REPL history stays in memory (the
/// repository's project is not written to).
pub fn editor() -> Harness<'static, EditorApp> {
    editor_on(&repo_root().join("projects/demo"), ReplState::default())
}

/// An editor on `project` with `repl` as its REPL.
pub fn editor_on(project: &std::path::Path, repl: ReplState) -> Harness<'static, EditorApp> {
    let mut app = EditorApp::new(&egui::Context::default(), project.to_owned(), None);
    app.state_mut().repl = repl;
    Harness::builder().with_size([1280.0, 800.0]).build_ui_state(|ui, app: &mut EditorApp| app.ui(ui), app)
}

/// An editor whose game has started (its map is in the snapshot).
pub fn started() -> Harness<'static, EditorApp> {
    let mut harness = editor();
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    harness
}

/// Steps the editor until `condition` holds (the runtime answers from its own thread).
pub fn step_until(
    harness: &mut Harness<'static, EditorApp>,
    what: &str,
    condition: impl Fn(&mut Harness<'static, EditorApp>) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        harness.step();
        if condition(harness) {
            return;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Sends Lua to the runtime as the REPL does; returns the REPL entry's index.
pub fn eval(harness: &mut Harness<'static, EditorApp>, code: &str) -> usize {
    let state = harness.state_mut().state_mut();
    let command = state.repl.submit(code.to_owned());
    harness.state().host().send(command);
    harness.state().state().repl.entries.len() - 1
}

/// The answer to REPL entry `entry`, if it came.
pub fn result(harness: &Harness<'static, EditorApp>, entry: usize) -> Option<Evaluation> {
    harness.state().state().repl.entries[entry].result.clone()
}

/// Evaluates `code` and waits for its values.
pub fn eval_values(harness: &mut Harness<'static, EditorApp>, code: &str) -> Vec<String> {
    let entry = eval(harness, code);
    step_until(harness, code, |h| result(h, entry).is_some());
    match result(harness, entry) {
        Some(Evaluation::Values(values)) => values,
        other => panic!("{code} gave {other:?}"),
    }
}
