//! Crash safety in the editor: opened on a project whose last session died with edits
//! unsaved, it offers them back. (A save killed mid-write is the runtime's:
//! `tests/tests/saves.rs`.)

use nefia_protocol::editing::EditingCommand;
use nefia_tests::DemoCopy;

mod common;

#[test]
fn the_editor_offers_the_edits_a_crashed_session_left_and_brings_them_back() {
    use egui_kittest::kittest::Queryable;
    use nefia_game::edit::Edit;
    use nefia_protocol::message::Command;
    let copy = DemoCopy::new();
    {
        // A session paints and dies: its runtime is left as it is, told nothing.
        let host = nefia_tests::host::spawn_editing(&copy.project());
        let map = host.snapshot().map.as_ref().map(|m| m.id).unwrap();
        let paint = Edit::PaintTiles { map, cells: vec![(10, 2), (11, 2)], tile: "elona.water".into() };
        host.send(Command::Editing(EditingCommand::Edit(Edit::Stroke { id: 1, edit: Box::new(paint) })));
        nefia_tests::host::eval(&host, "return 1");
        std::mem::forget(host);
    }
    let mut harness = common::editor_on(&copy.project(), nefia_editor::panes::repl::ReplState::default());
    common::step_until(&mut harness, "the offer", |h| h.query_by_label("Recover unsaved edits?").is_some());
    assert!(harness.query_by_label("1 edit(s)").is_some(), "the town's one stroke is listed");
    // Through accesskit: a pointer click can land before the modal has settled on a slow run.
    harness.get_by_label("Recover").click_accesskit();
    common::step_until(&mut harness, "recovered", |h| {
        let snapshot = &h.state().state().snapshot;
        snapshot.editing.recovery.is_none() && snapshot.maps.files.iter().any(|m| m.name == "town" && m.dirty)
    });
    assert_eq!(harness.state().state().snapshot.editing.history.labels, ["Paint 2 cells with elona.water"]);
    harness.run_steps(2);
    assert!(harness.query_by_label("Recover unsaved edits?").is_none(), "the question is gone");
    // What came back is said, in the unit the question counted, until it is read.
    common::step_until(&mut harness, "the report", |h| h.query_by_label("Edits recovered").is_some());
    assert!(harness.query_by_label_contains("1 edit(s) came back").is_some(), "the stroke is counted as one edit");
    harness.get_by_label("OK").click_accesskit();
    common::step_until(&mut harness, "the report read", |h| h.query_by_label("Edits recovered").is_none());
}
