//! The Data pane, driven headless: a prototype's field edited in its form is written back to
//! the one line of its Lua file, every instance shows it, and undo restores the file's bytes.

mod common;

use common::{editor_on, eval_values, step_until};
use egui_kittest::kittest::Queryable;
use nefia_editor::context::Tab;
use nefia_editor::panes::repl::ReplState;
use nefia_tests::DemoCopy;

#[test]
fn a_field_edited_in_the_form_changes_one_line_of_the_file_and_undo_restores_it() {
    let copy = DemoCopy::new();
    let file = copy.mod_file("elona/content/charas.lua");
    let original = std::fs::read_to_string(&file).unwrap();
    let mut harness = editor_on(&copy.project(), ReplState::default());
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    eval_values(&mut harness, "p = Chara.create('elona.putit', 1, 1)");
    harness.state_mut().open_tab(Tab::Prototypes);
    harness.step();
    step_until(&mut harness, "the putit listed", |h| h.query_by_label_contains("base.chara").is_some());
    harness.get_by_label_contains("base.chara (").click();
    step_until(&mut harness, "the entries", |h| h.query_by_label("elona.putit").is_some());
    harness.get_by_label("elona.putit").click();
    step_until(&mut harness, "the form", |h| h.query_by_label("max_hp of elona.putit").is_some());
    assert!(harness.query_by_label_contains("charas.lua").is_some(), "the form says where the prototype is added");

    harness.get_by_label("max_hp of elona.putit").click();
    harness.step();
    harness.key_combination(&[egui::Key::A]);
    harness.get_by_label("max_hp of elona.putit").type_text("50");
    harness.step();
    harness.key_press(egui::Key::Enter);
    step_until(&mut harness, "the file written", |_| std::fs::read_to_string(&file).unwrap() != original);
    let edited = std::fs::read_to_string(&file).unwrap();
    let changed: Vec<_> = original.lines().zip(edited.lines()).filter(|(a, b)| a != b).collect();
    assert_eq!(changed.len(), 1, "one line changed: {changed:?}");
    assert_eq!(changed[0].1.trim(), "max_hp = 50,");
    assert_eq!(eval_values(&mut harness, "p.max_hp"), ["50"], "a putit on the map reads the new base value");

    // Edit → Undo (the REPL's input has the keyboard after the evaluation).
    harness.get_by_label("Edit").click();
    step_until(&mut harness, "the Edit menu", |h| h.query_by_label_contains("Undo").is_some());
    harness.query_all_by_label_contains("Undo").next().expect("Undo in the menu").click();
    step_until(&mut harness, "the undo", |_| std::fs::read_to_string(&file).unwrap() == original);
    assert_eq!(eval_values(&mut harness, "p.max_hp"), ["6"]);
}
