//! Recordings in the editor: while playing, Ctrl+Z steps back a turn and Ctrl+Y forward, the
//! timeline's ⏮ Back and ⏩ Forward do the same; the Recordings pane lists the session once
//! it stops, checks it by a headless replay, keeps it as a test, and opens it in the timeline,
//! where "Play from here" and a key go another way; a recording dropped on the window opens
//! there too.

mod common;

use common::{editor_on, step_until, turn, walk};
use egui_kittest::kittest::Queryable;
use nefia_editor::context::Tab;
use nefia_editor::panes::repl::ReplState;
use nefia_tests::DemoCopy;

/// A file dropped on the window from outside.
#[derive(Debug)]
struct Dropped(std::path::PathBuf);

impl egui::DroppedFile for Dropped {
    fn path(&self) -> &std::path::Path {
        &self.0
    }

    // A String error: egui's DroppedFile trait asks for one.
    fn bytes(&self) -> Result<Vec<u8>, String> {
        std::fs::read(&self.0).map_err(|e| e.to_string())
    }
}

#[test]
fn while_playing_turns_are_stepped_back_and_forward_and_the_session_is_kept_as_a_test() {
    let copy = DemoCopy::new();
    // The demo's own regression recordings aside, the list holds only this session.
    std::fs::remove_dir_all(copy.project().join("recordings")).unwrap();
    let mut harness = editor_on(&copy.project(), ReplState::default());
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    harness.key_press(egui::Key::F5);
    step_until(&mut harness, "the game", |h| h.state().state().snapshot.player.is_some());
    assert!(harness.query_by_label("turn").is_some(), "the timeline replaces the tools");
    for _ in 0..3 {
        walk(&mut harness);
    }
    let played = turn(&harness);
    assert_eq!(played, 3);

    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    step_until(&mut harness, "a turn back", |h| turn(h) == 2);
    harness.get_by_label("⏮ Back").click();
    step_until(&mut harness, "another turn back", |h| turn(h) == 1);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Y);
    step_until(&mut harness, "a turn forward", |h| turn(h) == 2);
    harness.get_by_label("⏩ Forward").click();
    step_until(&mut harness, "back at the newest turn", |h| {
        h.state().state().snapshot.play.recording.is_some_and(|r| r.forward == 0)
    });
    assert_eq!(turn(&harness), played);
    let position = harness.state().state().snapshot.play.recording.expect("recorded");
    assert_eq!(position.turns, 3, "the shortcuts reached the game as no key: nothing went another way");

    harness.key_press_modifiers(egui::Modifiers::SHIFT, egui::Key::F5);
    step_until(&mut harness, "editing", |h| !h.state().state().snapshot.play.playing);
    harness.state_mut().open_tab(Tab::Recordings);
    step_until(&mut harness, "the session listed", |h| h.query_by_label("Keep as test").is_some());
    assert!(harness.query_by_label_contains("3 turns").is_some(), "the list says how long it is");

    harness.get_by_label("Check").click();
    step_until(&mut harness, "the replay's verdict", |h| h.query_by_label_contains("every turn as recorded").is_some());

    harness.get_by_label("Keep as test").click();
    step_until(&mut harness, "kept as a test", |h| h.query_by_label("Keep as test").is_none());
    let tests = nefia_game::files::ron_files(&copy.project().join("recordings/tests"));
    assert_eq!(tests.len(), 1, "moved into recordings/tests/");
    let outcome = nefia_host::play::replay::run_regression_tests(&copy.project(), false);
    assert!(outcome.iter().all(|t| t.passed()), "and it passes as one");

    // Open it in the timeline: at its first turn, paused, with its turns ahead.
    harness.get_by_label("Open").click();
    step_until(&mut harness, "the timeline", |h| {
        h.state().state().snapshot.play.recording.is_some_and(|r| r.opened && r.forward == 3)
    });
    assert!(harness.state().state().snapshot.play.paused, "looking, not playing");
    harness.get_by_label("⏩ Forward").click();
    step_until(&mut harness, "a turn forward", |h| turn(h) == 1);
    harness.get_by_label("▶ Play from here").click();
    step_until(&mut harness, "playing", |h| !h.state().state().snapshot.play.paused);
    walk(&mut harness);
    step_until(&mut harness, "a new way", |h| h.state().state().snapshot.play.recording.is_some_and(|r| !r.opened));
    assert_eq!(
        harness.state().state().snapshot.play.recording.map(|r| r.forward),
        Some(0),
        "the old future is dropped"
    );

    // A recording dropped on the window opens in the timeline too.
    harness.key_press_modifiers(egui::Modifiers::SHIFT, egui::Key::F5);
    step_until(&mut harness, "editing again", |h| !h.state().state().snapshot.play.playing);
    harness.input_mut().dropped_files.push(std::sync::Arc::new(Dropped(tests[0].clone())));
    step_until(&mut harness, "the dropped recording in the timeline", |h| {
        h.state().state().snapshot.play.recording.is_some_and(|r| r.opened && r.forward == 3)
    });
}
