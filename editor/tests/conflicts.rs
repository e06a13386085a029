//! A map a merge left conflicts in, as a user meets it in the editor: the Maps pane marks
//! it, the Problems pane lists the conflicts with Ours / Theirs, a pick changes the map and
//! undoes, and saving while some are left asks first — and keeps them in the file.

mod common;

use common::{editor_on, eval_values, step_until};
use egui_kittest::kittest::{NodeT, Queryable};
use nefia_editor::context::Tab;
use nefia_editor::panes::repl::ReplState;
use nefia_tests::DemoCopy;

/// The demo's town as a merge that clashed on two cells would leave it.
fn conflicted_town(copy: &DemoCopy) -> std::path::PathBuf {
    let path = copy.project().join("maps/town.ron");
    let text = std::fs::read_to_string(&path).unwrap();
    let conflicts = "    conflicts: [\n        Tile(x: 5, y: 2, ours: \"elona.grass\", theirs: \"elona.water\"),\n        Tile(x: 6, y: 2, ours: \"elona.grass\", theirs: \"elona.wall_stone\"),\n    ],\n)\n";
    let text = text.trim_end().strip_suffix(')').unwrap().to_owned() + conflicts;
    nefia_tests::write(&path, text).unwrap();
    path
}

#[test]
fn conflicts_are_marked_picked_one_by_one_and_a_save_with_some_left_asks_first() {
    let copy = DemoCopy::new();
    let path = conflicted_town(&copy);
    let mut harness = editor_on(&copy.project(), ReplState::default());
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    assert_eq!(harness.state().state().snapshot.map.as_ref().unwrap().conflicts.len(), 2);
    harness.state_mut().open_tab(Tab::Maps);
    step_until(&mut harness, "the Maps pane's mark", |h| h.query_by_label("town (start) ⇄ 2 conflict(s)").is_some());

    harness.state_mut().open_tab(Tab::Problems);
    step_until(&mut harness, "the list", |h| {
        h.query_by_label("cell (6, 2): ours elona.grass, theirs elona.wall_stone").is_some()
    });
    // The first conflict's Theirs (each row has its own pair).
    harness.get_all_by_label("Theirs").next().expect("a Theirs button").click();
    step_until(&mut harness, "one left", |h| h.state().state().snapshot.map.as_ref().unwrap().conflicts.len() == 1);
    assert_eq!(eval_values(&mut harness, "Map.current():tile(5, 2)"), ["\"elona.water\""]);

    // Saving with one left: asked, and Cancel saves nothing.
    harness.state_mut().open_tab(Tab::Maps);
    harness.step();
    harness.get_by_label("Save all").click();
    step_until(&mut harness, "the question", |h| h.query_by_label("Unresolved conflicts").is_some());
    harness.get_by_label("Cancel").click();
    harness.run_steps(3);
    assert!(std::fs::read_to_string(&path).unwrap().contains("Tile(x: 5, y: 2"), "not saved");
    harness.get_by_label("Save all").click();
    step_until(&mut harness, "the question again", |h| h.query_by_label("Save anyway").is_some());
    harness.get_by_label("Save anyway").click();
    step_until(&mut harness, "saved", |h| h.state().state().snapshot.maps.files.iter().all(|f| !f.dirty));
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(!saved.contains("Tile(x: 5, y: 2") && saved.contains("Tile(x: 6, y: 2"), "the one left stays: {saved}");

    // All ours, then undo: the conflict comes back.
    harness.state_mut().open_tab(Tab::Problems);
    harness.step();
    harness.get_by_label("All ours").click();
    step_until(&mut harness, "none left", |h| h.state().state().snapshot.map.as_ref().unwrap().conflicts.is_empty());
    assert_eq!(eval_values(&mut harness, "Map.current():tile(6, 2)"), ["\"elona.grass\""]);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    step_until(&mut harness, "it is back", |h| h.state().state().snapshot.map.as_ref().unwrap().conflicts.len() == 1);
}

#[test]
fn opening_a_map_with_conflicts_brings_problems_forward_once_with_a_count_on_its_tab() {
    let copy = DemoCopy::new();
    conflicted_town(&copy);
    let mut harness = editor_on(&copy.project(), ReplState::default());
    step_until(&mut harness, "the Problems pane forward", |h| {
        h.query_by_label("cell (6, 2): ours elona.grass, theirs elona.wall_stone").is_some()
    });
    let tabs: Vec<String> =
        harness.query_all_by_role(egui::accesskit::Role::Tab).filter_map(|t| t.accesskit_node().label()).collect();
    assert!(tabs.iter().any(|t| t == "Problems (2)"), "the tab counts the conflicts: {tabs:?}");
    // Once per map: the user goes elsewhere and it stays there.
    harness.state_mut().open_tab(Tab::Log);
    harness.run_steps(3);
    assert!(harness.query_by_label("cell (6, 2): ours elona.grass, theirs elona.wall_stone").is_none());
}
