//! Watchpoints in the editor: the Inspector's right-click "Break when it changes" sets one
//! (the field is marked), an edit of that field pauses the game with the watch's line in the
//! REPL, the Watches pane counts the hit, and "×" removes the watch.

mod common;

use common::{started, step_until};
use egui_kittest::kittest::Queryable;
use nefia_editor::context::Tab;
use nefia_protocol::view::RuntimeState;

#[test]
fn break_when_it_changes_pauses_at_the_edit_and_the_watches_pane_counts_and_removes_it() {
    let mut harness = started();
    let player = harness.state().state().snapshot.player.expect("the demo has a player");
    harness.state_mut().state_mut().select(vec![player]);
    step_until(&mut harness, "the inspector", |h| h.query_by_label("base strength").is_some());

    harness.get_by_label("strength").click_secondary();
    step_until(&mut harness, "the field's menu", |h| h.query_by_label("Break when it changes").is_some());
    // Through accesskit: a pointer click in the same frame as the hover does not reach a
    // menu opened at the pointer in kittest (a real click does).
    harness.get_by_label("Break when it changes").click_accesskit();
    step_until(&mut harness, "the watch", |h| !h.state().state().snapshot.debug.watches.is_empty());
    step_until(&mut harness, "the field marked", |h| h.query_by_label("◉ strength").is_some());
    harness.state_mut().open_tab(Tab::Watches);
    step_until(&mut harness, "the Watches pane", |h| h.query_by_label("watch 1 on").is_some());
    assert!(harness.query_by_label_contains("(elona.player) strength").is_some(), "it names the object and field");

    // An edit of the field in the inspector stops the game, named as the editor's edit.
    harness.get_by_label("base strength").click();
    harness.step();
    harness.key_combination(&[egui::Key::A]);
    harness.get_by_label("base strength").type_text("9");
    harness.step();
    harness.key_press(egui::Key::Enter);
    step_until(&mut harness, "the pause", |h| h.state().state().snapshot.state == RuntimeState::Paused);
    let reason =
        harness.state().state().snapshot.debug.pause.as_ref().and_then(|p| p.reason.clone()).unwrap_or_default();
    assert!(reason.ends_with("strength 6 → 9 at an edit in the editor"), "{reason}");
    harness.state_mut().open_tab(Tab::Repl);
    step_until(&mut harness, "the REPL's header", |h| h.query_by_label_contains("strength 6 → 9").is_some());
    harness.key_press(egui::Key::F8);
    step_until(&mut harness, "going on", |h| h.state().state().snapshot.state == RuntimeState::Running);
    assert_eq!(harness.state().state().snapshot.debug.watches[0].hits, 1);

    harness.state_mut().open_tab(Tab::Watches);
    step_until(&mut harness, "the remove button", |h| h.query_by_label("remove watch 1").is_some());
    harness.get_by_label("remove watch 1").click();
    step_until(&mut harness, "no watch", |h| h.state().state().snapshot.debug.watches.is_empty());
    step_until(&mut harness, "the mark gone", |h| h.query_by_label("◉ strength").is_none());
}

#[test]
fn with_the_invariants_on_a_turn_that_breaks_one_stops_the_game_naming_it() {
    let mut harness = started();
    harness.state_mut().open_tab(Tab::Watches);
    step_until(&mut harness, "the toggle", |h| h.query_by_label("Stop when an invariant fails").is_some());
    harness.get_by_label("Stop when an invariant fails").click();
    step_until(&mut harness, "checking", |h| h.state().state().snapshot.debug.check_invariants);
    // A rule gone wrong: the player above its max_hp. The next turn's check stops the game.
    common::eval_values(&mut harness, "Chara.player().hp = Chara.player():calc('max_hp') + 10");
    harness.state_mut().state_mut().viewport.focus_requested = true;
    common::walk(&mut harness);
    step_until(&mut harness, "the stop", |h| h.state().state().snapshot.state == RuntimeState::Paused);
    let reason =
        harness.state().state().snapshot.debug.pause.as_ref().and_then(|p| p.reason.clone()).unwrap_or_default();
    assert!(reason.contains("invariant elona.hp_within_max failed") && reason.contains("above its max_hp"), "{reason}");
    step_until(&mut harness, "the REPL forward, naming it", |h| {
        h.query_by_label_contains("invariant elona.hp_within_max failed").is_some()
    });
    harness.key_press(egui::Key::F8);
    step_until(&mut harness, "going on", |h| h.state().state().snapshot.state == RuntimeState::Running);
}

/// The Watches pane lists every declared invariant, not checked yet; Check now runs them:
/// all hold on the demo, and once the player's hp is above its max_hp, hp_within_max shows
/// failed with its message.
#[test]
fn the_watches_pane_lists_the_invariants_and_check_now_shows_which_hold_and_which_fail() {
    let mut harness = started();
    harness.state_mut().open_tab(Tab::Watches);
    step_until(&mut harness, "the list", |h| h.query_by_label("elona.hp_within_max").is_some());
    assert!(harness.query_all_by_label("not checked yet").count() > 0, "nothing is checked at first");
    harness.get_by_label("Check now").click();
    step_until(&mut harness, "every invariant checked", |h| {
        let invariants = &h.state().state().snapshot.debug.invariants;
        !invariants.is_empty() && invariants.iter().all(|i| i.last.is_some())
    });
    step_until(&mut harness, "shown held", |h| h.query_all_by_label_contains("held at turn").count() > 0);
    assert!(harness.query_by_label_contains("failed at turn").is_none(), "the demo's invariants hold");

    common::eval_values(&mut harness, "Chara.player().hp = Chara.player():calc('max_hp') + 10");
    harness.get_by_label("Check now").click();
    step_until(&mut harness, "the failure shown", |h| h.query_by_label_contains("above its max_hp").is_some());
    let invariants = harness.state().state().snapshot.debug.invariants.clone();
    let hp = invariants.iter().find(|i| i.id == "elona.hp_within_max").expect("declared");
    assert!(hp.last.as_ref().and_then(|l| l.failure.as_deref()).is_some_and(|f| f.contains("above its max_hp")));
    assert!(
        invariants
            .iter()
            .filter(|i| i.id != "elona.hp_within_max")
            .all(|i| i.last.as_ref().is_some_and(|l| l.failure.is_none()))
    );
}
