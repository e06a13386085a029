//! Play mode in the editor: F5 plays and the viewport takes the keyboard, Shift+F5 puts the
//! edit state back, Pause and Step, Ctrl+F5 plays from the cell under the cursor, and the
//! inspector works on the live game.

mod common;

use common::{cell_center, editor, eval_values, step_until};
use egui_kittest::kittest::{NodeT, Queryable};

/// True once the game is being played with a player on the map.
fn in_game(harness: &mut egui_kittest::Harness<'static, nefia_editor::app::EditorApp>) -> bool {
    let snapshot = &harness.state().state().snapshot;
    snapshot.play.playing && snapshot.player.is_some()
}

#[test]
fn f5_plays_with_the_keyboard_in_the_viewport_and_shift_f5_puts_the_edit_state_back() {
    let mut harness = editor();
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    assert!(harness.query_by_label("▶ Play").is_some() && harness.query_by_label("editing").is_some());
    harness.key_press(egui::Key::F5);
    step_until(&mut harness, "the game", in_game);
    assert!(harness.query_by_label("⏹ Stop").is_some(), "Stop replaces Play");
    assert!(harness.query_by_label("Brush").is_none(), "the tools are put away");
    // The timeline of the session's turns is there instead (this editor, on the repository's
    // demo, records nothing: editor/tests/recordings.rs plays a recorded one).
    assert!(harness.query_by_label("this session is not recorded").is_some());
    assert!(harness.state().state().viewport.has_focus, "the viewport has the keyboard");

    // Walk with the arrow keys until the turn passes; change the map from the REPL too.
    let turn = harness.state().state().snapshot.turn;
    for key in [egui::Key::ArrowRight, egui::Key::ArrowLeft, egui::Key::ArrowDown, egui::Key::ArrowUp] {
        harness.key_press(key);
        harness.step();
        if harness.state().state().snapshot.turn > turn {
            break;
        }
    }
    step_until(&mut harness, "a turn", |h| h.state().state().snapshot.turn > turn);
    eval_values(&mut harness, "Map.current():set_tile(1, 1, 'elona.water')");
    step_until(&mut harness, "the water", |h| {
        h.state()
            .state()
            .snapshot
            .map
            .as_ref()
            .and_then(|m| m.tile_at(1, 1))
            .is_some_and(|t| t.id.as_str() == "elona.water")
    });

    harness.key_press_modifiers(egui::Modifiers::SHIFT, egui::Key::F5);
    step_until(&mut harness, "the edit state", |h| !h.state().state().snapshot.play.playing);
    let snapshot = harness.state().state().snapshot.clone();
    assert_eq!(snapshot.player, None, "no player while editing");
    assert_eq!(snapshot.turn, turn, "the clock is the edit state's");
    let tile = snapshot.map.as_ref().and_then(|m| m.tile_at(1, 1)).expect("a tile");
    assert_ne!(tile.id.as_str(), "elona.water", "the tile painted while playing is gone");
    assert!(snapshot.maps.files.iter().all(|m| !m.dirty), "no map was changed by playing");
    assert!(harness.query_by_label("editing").is_some(), "the status bar says so");
    harness.step();
    assert!(!harness.get_by_label("Brush").accesskit_node().is_disabled(), "the tools are back");
}

#[test]
fn pause_takes_no_keys_and_step_passes_one_turn() {
    let mut harness = editor();
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    harness.get_by_label("▶ Play").click();
    step_until(&mut harness, "the game", in_game);
    harness.get_by_label("⏸ Pause").click();
    step_until(&mut harness, "the pause", |h| h.state().state().snapshot.play.paused);
    assert!(harness.query_by_label("playing (paused)").is_some());
    let turn = harness.state().state().snapshot.turn;
    for key in [egui::Key::ArrowRight, egui::Key::ArrowLeft, egui::Key::Period] {
        harness.key_press(key);
    }
    // A round trip through the runtime, so the keys had their chance.
    eval_values(&mut harness, "1");
    harness.step();
    assert_eq!(harness.state().state().snapshot.turn, turn, "paused, keys pass no turn");
    harness.get_by_label("⏭ Step").click();
    step_until(&mut harness, "one turn", |h| h.state().state().snapshot.turn == turn + 1);
    harness.get_by_label("▶ Resume").click();
    step_until(&mut harness, "playing again", |h| !h.state().state().snapshot.play.paused);
    // The same keys, unpaused, pass turns.
    for key in [egui::Key::ArrowRight, egui::Key::ArrowLeft, egui::Key::Period] {
        harness.key_press(key);
    }
    step_until(&mut harness, "the keys' turns", |h| h.state().state().snapshot.turn > turn + 1);
}

#[test]
fn ctrl_f5_plays_from_the_cell_under_the_cursor_and_the_inspector_shows_the_live_player() {
    let mut harness = editor();
    step_until(&mut harness, "the map drawn", |h| h.state().state().viewport.rect.is_some());
    harness.hover_at(cell_center(&harness, 20, 14));
    harness.step();
    assert_eq!(harness.state().state().viewport.hovered, Some((20, 14)));
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::F5);
    step_until(&mut harness, "the game", in_game);
    assert_eq!(eval_values(&mut harness, "Chara.player().x, Chara.player().y"), vec!["20", "14"]);

    // Clicking the player while playing selects it; the inspector shows its live hp.
    let cell = cell_center(&harness, 20, 14);
    common::click_at(&mut harness, cell, egui::Modifiers::NONE);
    let player = harness.state().state().snapshot.player.expect("a player");
    step_until(&mut harness, "the inspector", |h| {
        h.state().state().snapshot.editing.inspected.iter().any(|d| d.uid == player)
    });
    eval_values(&mut harness, "Chara.player().hp = 7");
    step_until(&mut harness, "the new hp", |h| {
        h.state()
            .state()
            .snapshot
            .editing
            .inspected
            .iter()
            .any(|d| d.fields.iter().any(|f| f.name == "hp" && f.base.as_ref().is_some_and(|v| v.to_string() == "7")))
    });
}

#[test]
fn a_refusal_names_the_editors_own_binding_for_what_to_do() {
    use nefia_editor::commands::Action;
    use nefia_game::display::LogLine;
    use nefia_protocol::output::Output;

    let mut harness = common::started();
    // Play again while playing: the runtime says "stop first", the editor adds its key.
    harness.state().host().send(nefia_protocol::message::Command::Play(nefia_protocol::play::PlayCommand::Start(
        nefia_protocol::play::PlayFrom::Start,
    )));
    step_until(&mut harness, "the refusal", |h| h.state().state().notice.is_some());
    let stop = Action::StopPlay.shortcut_text(&harness.ctx).expect("Stop has a shortcut in the command table");
    let notice = harness.state().state().notice.as_ref().expect("a notice").0.clone();
    assert_eq!(notice, format!("already playing: stop first ({stop})"));
    assert!(stop.contains("F5"), "the table's binding: {stop}");
    let logged = harness
        .state()
        .panes()
        .log
        .lines
        .iter()
        .any(|line| matches!(line, Output::Log(LogLine { text, .. }) if *text == notice));
    assert!(logged, "the Log says the same");
}

/// The name of the current map as the Maps pane lists it, and the map the pane highlights.
fn current_and_highlighted(harness: &egui_kittest::Harness<'static, nefia_editor::app::EditorApp>) -> (String, String) {
    let files = &harness.state().state().snapshot.maps.files;
    let current = files.iter().find(|m| m.current).map(|m| m.name.clone()).unwrap_or_default();
    (current, harness.state().panes().maps.selected.clone().unwrap_or_default())
}

#[test]
fn stop_returns_to_the_map_being_edited_and_the_maps_pane_follows_the_current_map() {
    use nefia_editor::context::Tab;
    let mut harness = editor();
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    harness.state_mut().open_tab(Tab::Maps);
    step_until(&mut harness, "the maps listed", |h| h.query_by_label("dungeon").is_some());
    // Editing the dungeon: picked in the Maps pane.
    harness.get_by_label("dungeon").click();
    step_until(&mut harness, "the dungeon", |h| current_and_highlighted(h).0 == "dungeon");
    assert_eq!(current_and_highlighted(&harness), ("dungeon".into(), "dungeon".into()));

    // Play starts on the start map, and the game travels to the dungeon and back to town.
    harness.key_press(egui::Key::F5);
    step_until(&mut harness, "the game", in_game);
    harness.state_mut().open_tab(Tab::Maps);
    step_until(&mut harness, "the town played", |h| current_and_highlighted(h) == ("town".into(), "town".into()));
    eval_values(&mut harness, "Map.travel_to(Map.open('dungeon'))");
    step_until(&mut harness, "the travel", |h| current_and_highlighted(h) == ("dungeon".into(), "dungeon".into()));
    eval_values(&mut harness, "Map.travel_to(Map.open('town'))");
    step_until(&mut harness, "the travel back", |h| current_and_highlighted(h) == ("town".into(), "town".into()));

    harness.key_press_modifiers(egui::Modifiers::SHIFT, egui::Key::F5);
    step_until(&mut harness, "the edit state", |h| !h.state().state().snapshot.play.playing);
    harness.step();
    assert_eq!(
        current_and_highlighted(&harness),
        ("dungeon".into(), "dungeon".into()),
        "Stop returns to the map edited when Play was pressed, and the Maps pane highlights it"
    );
    let shown = harness.state().state().snapshot.map.as_ref().map(|m| m.name.clone());
    assert_eq!(shown.as_deref(), Some("dungeon"), "the viewport shows it");
}
