//! The Profiler pane: Record turns the turn profiler on, the turns played show as bars and
//! the newest turn's entries in a table (the key handler named with its file), a click on a
//! bar shows that turn's, and the table sorts by a column when its header is clicked.

mod common;

use common::{started, step_until};
use egui_kittest::kittest::Queryable;
use nefia_editor::context::Tab;
use nefia_editor::panes::profiler::SortBy;

#[test]
fn record_shows_each_turns_entries_and_the_table_sorts_by_a_column() {
    let mut harness = started();
    harness.state_mut().open_tab(Tab::Profiler);
    step_until(&mut harness, "the Profiler", |h| h.query_by_label("⏺ Record").is_some());
    assert!(harness.query_by_label_contains("No turns profiled yet").is_some());
    harness.get_by_label("⏺ Record").click();
    step_until(&mut harness, "recording", |h| h.state().state().snapshot.debug.profile.on);
    // Three turns (the keyboard is on the Record button: the keys go to the game directly).
    for _ in 0..3 {
        let key = nefia_game::display::Input::Key("period".into());
        harness.state().host().send(nefia_protocol::message::Command::Input(key));
    }
    step_until(&mut harness, "the turns", |h| h.state().state().snapshot.debug.profile.turns.len() >= 2);
    step_until(&mut harness, "the key handler's row", |h| {
        h.query_by_label_contains("handler: base.on_key_pressed · elona.play  [elona] mods/elona/game/commands.lua:")
            .is_some()
    });
    assert!(
        harness.query_by_label_contains("2 turns kept").is_some()
            || harness.query_by_label_contains("3 turns kept").is_some()
    );
    // A click on the first turn's bar picks it: the table shows that turn.
    let first = harness.state().state().snapshot.debug.profile.turns[0].turn;
    let memory = egui_plot::PlotMemory::load(&harness.ctx, nefia_editor::panes::profiler::plot_id()).expect("drawn");
    let at = memory.transform().position_from_point(&egui_plot::PlotPoint::new(first as f64, 0.0001));
    common::click_at(&mut harness, at, egui::Modifiers::NONE);
    step_until(&mut harness, "the first turn picked", |h| h.state_mut().panes_mut().profiler.picked == Some(first));
    assert!(harness.query_by_label_contains(&format!("turn {first}")).is_some(), "the table heads the picked turn");
    harness.get_by_label("calls").click();
    step_until(&mut harness, "sorted by calls", |h| h.query_by_label("calls ⏷").is_some());
    assert_eq!(harness.state_mut().panes_mut().profiler.sort, SortBy::Calls);
    harness.get_by_label("calls ⏷").click();
    step_until(&mut harness, "reversed", |h| h.query_by_label("calls ⏶").is_some());
    harness.get_by_label("⏺ Recording").click();
    step_until(&mut harness, "stopped", |h| !h.state().state().snapshot.debug.profile.on);
}

#[test]
fn the_chart_stays_while_the_table_scrolls_and_the_table_has_room() {
    let mut harness = started();
    harness.state_mut().open_tab(Tab::Profiler);
    step_until(&mut harness, "the Profiler", |h| h.query_by_label("⏺ Record").is_some());
    harness.get_by_label("⏺ Record").click();
    step_until(&mut harness, "recording", |h| h.state().state().snapshot.debug.profile.on);
    for _ in 0..6 {
        let key = nefia_game::display::Input::Key("period".into());
        harness.state().host().send(nefia_protocol::message::Command::Input(key));
    }
    step_until(&mut harness, "the turns", |h| h.state().state().snapshot.debug.profile.turns.len() >= 5);
    harness.run_steps(2);
    let leaf = harness
        .state_mut()
        .dock_mut()
        .iter_leaves()
        .find(|(_, leaf)| leaf.tabs.contains(&Tab::Profiler))
        .map(|(_, leaf)| leaf.rect)
        .expect("the Profiler's leaf");
    let header = harness.get_by_label("calls").rect();
    let rows = (leaf.max.y - header.max.y) / 20.0;
    assert!(rows >= 5.0, "room for {rows:.1} rows under the chart at 1280×800");

    let chart = |h: &egui_kittest::Harness<'static, nefia_editor::app::EditorApp>| {
        *egui_plot::PlotMemory::load(&h.ctx, nefia_editor::panes::profiler::plot_id())
            .expect("drawn")
            .transform()
            .frame()
    };
    let before = chart(&harness);
    let over_table = egui::pos2(header.center().x, (header.max.y + leaf.max.y) / 2.0);
    harness.event(egui::Event::PointerMoved(over_table));
    harness.event(egui::Event::MouseWheel {
        unit: egui::MouseWheelUnit::Point,
        delta: egui::vec2(0.0, -400.0),
        modifiers: egui::Modifiers::NONE,
        phase: egui::TouchPhase::Move,
    });
    harness.run_steps(3);
    assert_eq!(chart(&harness), before, "the chart did not scroll away with the table");
}
