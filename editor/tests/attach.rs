//! File → Attach to game…: the editor leaves its project and works on a game running in
//! another process (`nefia play --listen`): the viewport draws its map, the REPL evaluates in
//! it, the Inspector edits it, and the title says where it is attached.

mod common;

use common::{editor_on, eval_values, fill, step_until};
use nefia_editor::panes::repl::ReplState;
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::message::Command;
use nefia_protocol::repl::Evaluation;
use nefia_tests::DemoCopy;
use nefia_tests::remote::serving;

#[test]
fn the_editor_attaches_to_a_game_in_another_process_and_works_on_it() {
    use egui_kittest::kittest::Queryable;
    let served_copy = DemoCopy::new();
    let game = serving(nefia_tests::host::spawn(&served_copy.project()));
    let own = DemoCopy::new();
    let mut harness = editor_on(&own.project(), ReplState::default());
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());

    harness.get_by_label("File").click();
    harness.run_steps(2);
    harness.get_by_label("Attach to game…").click();
    harness.run_steps(3);
    fill(&mut harness, "game address", &game.address.to_string());
    fill(&mut harness, "game token", "not the token");
    harness.get_by_label("Attach").click();
    step_until(&mut harness, "the refusal", |h| h.query_by_label_contains("refused to attach").is_some());
    assert!(harness.state().attached().is_none(), "a wrong token leaves the editor on its project");

    fill(&mut harness, "game token", &game.token);
    harness.get_by_label("Attach").click();
    step_until(&mut harness, "attached", |h| h.state().attached().is_some());
    step_until(&mut harness, "the game's map", |h| {
        let snapshot = &h.state().state().snapshot;
        snapshot.play.playing && snapshot.map.is_some() && snapshot.player.is_some()
    });
    assert_eq!(harness.state().project_dir(), served_copy.project().as_path(), "the game's project folder");
    assert!(harness.query_by_label("Attach").is_none(), "the dialog closed");
    let status = format!("attached to {}", game.address);
    assert!(harness.query_by_label(&status).is_some(), "the status bar says where");

    // The REPL evaluates in the game, and an edit made here is the game's.
    assert_eq!(eval_values(&mut harness, "return Chara.player() ~= nil"), ["true"]);
    eval_values(&mut harness, "Chara.player().name = 'attached'");
    match nefia_tests::host::eval(&game.host, "return Chara.player().name") {
        Evaluation::Values(values) => assert!(values[0].contains("attached"), "the game's own player: {values:?}"),
        other => panic!("{other:?}"),
    }
    let player = harness.state().state().snapshot.player.expect("a player");
    harness.state_mut().state_mut().outbox.push(Command::Editing(EditingCommand::Select(vec![player])));
    step_until(&mut harness, "the selection mirrored", |h| h.state().state().snapshot.editing.selection == [player]);
}

#[test]
fn the_attach_dialog_masks_the_token_until_shown() {
    use egui_kittest::kittest::{NodeT, Queryable};
    let own = DemoCopy::new();
    let mut harness = editor_on(&own.project(), ReplState::default());
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    harness.get_by_label("File").click();
    harness.run_steps(2);
    harness.get_by_label("Attach to game…").click();
    harness.run_steps(3);
    let token = "3f9a0c1d2e4b5a6978695a4b3c2d1e0f";
    fill(&mut harness, "game token", token);
    let field = harness.get_by_label("game token");
    assert_eq!(field.accesskit_node().role(), egui::accesskit::Role::PasswordInput, "the token is masked");
    assert!(!field.value().unwrap_or_default().contains(token), "its text is not on screen");

    harness.get_by_label("Show").click();
    harness.run_steps(2);
    let field = harness.get_by_label("game token");
    assert_eq!(field.value().as_deref(), Some(token), "shown as typed");
}
