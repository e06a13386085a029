//! The turn profiler: a turn's entries add up to the time the turn took (the 500-AI world),
//! each handler is named with its mod and file:line, waiting in a menu is nobody's time, and
//! profiling off keeps nothing.

use std::time::{Duration, Instant};

use nefia_lua::Runtime;
use nefia_protocol::output::Output;
use nefia_protocol::play::PlayFrom;
use nefia_protocol::profile::ProfileKind;
use nefia_protocol::view::RuntimeState;
use nefia_tests::host::{eval, spawn, wait_for};
use nefia_tests::{CROWDED_MAP, DemoCopy};

fn run(runtime: &Runtime, code: &str) {
    if let Err(failure) = runtime.exec(code, "test") {
        panic!("{failure}");
    }
}

#[test]
fn a_turns_entries_add_up_to_its_measured_time_on_the_500_ai_world() {
    let copy = DemoCopy::new();
    let runtime = Runtime::open_project(&copy.project(), Box::new(|_: Output| {})).expect("the demo opens");
    runtime.open_start_map().expect("the start map");
    run(&runtime, CROWDED_MAP);
    let map = runtime.world().current_map().expect("the crowded map");
    let _edit =
        nefia_host::play::EditState::begin(&runtime, PlayFrom::Here { map, x: 100, y: 100 }).expect("play starts");
    run(&runtime, "local p = Chara.player() p:mod_base('max_hp', 1000000000) p.hp = 1000000000");
    run(&runtime, "Event.trigger('base.on_wait_turn')");
    let profiler = runtime.engine().profiler();
    run(&runtime, "Debug.profile(true)");
    let turns = 10;
    let started = Instant::now();
    for _ in 0..turns {
        run(&runtime, "Event.trigger('base.on_wait_turn')");
    }
    let measured = started.elapsed();
    run(&runtime, "Debug.profile(false)");
    let profiled = profiler.turns();
    // The first turn kept began when profiling did, inside the first call.
    assert_eq!(profiled.len(), turns, "a profile a turn");
    let total: Duration = profiled.iter().map(|t| t.total).sum();
    let ratio = total.as_secs_f64() / measured.as_secs_f64();
    // Nearly all of it: what is not in a turn is the test's own loop between the calls.
    assert!((0.8..=1.0).contains(&ratio), "the entries add up to {total:?} of {measured:?} ({ratio:.3})");
    let turn = &profiled[3];
    assert_eq!(turn.total, turn.entries.iter().map(|(_, s)| s.time).sum::<Duration>());
    let (slowest, _) = &turn.entries[0];
    assert_eq!(slowest.name, "AI", "the slowest: the characters' turns");
    let wait = turn.entries.iter().find(|(k, _)| k.name == "base.on_wait_turn · elona.wait").expect("the handler");
    assert_eq!(wait.0.kind, ProfileKind::Handler);
    assert!(wait.0.at.starts_with("[elona] mods/elona/game/commands.lua:"), "{}", wait.0.at);
    assert!(turn.entries.iter().any(|(k, s)| k.name == "sight" && s.calls >= 1), "the engine's sight is its own entry");
    let ai = turn.entries.iter().find(|(k, _)| k.name == "AI").expect("the AI's turns are an entry");
    assert_eq!(ai.0.kind, ProfileKind::Script);
    assert!(ai.0.at.starts_with("mods/elona/game/rules.lua:"), "{}", ai.0.at);
    assert!(ai.1.time > turn.total / 2, "the 500 characters' turns are most of it");

    // Off, nothing is kept.
    run(&runtime, "Event.trigger('base.on_wait_turn')");
    assert_eq!(profiler.turns().len(), turns);
}

#[test]
fn in_the_editor_waiting_in_a_menu_is_nobodys_time_and_handlers_are_named() {
    let copy = DemoCopy::new();
    let host = spawn(&copy.project());
    host.send(nefia_protocol::message::Command::Debug(nefia_protocol::debugging::DebugCommand::SetProfiling(true)));
    wait_for(&host, |s| s.debug.profile.on);
    for _ in 0..3 {
        host.send(nefia_protocol::message::Command::Input(nefia_game::display::Input::Key("period".into())));
    }
    // The game menu (escape) waits for the player: two seconds pass there, far more than a
    // turn takes even on a loaded machine.
    host.send(nefia_protocol::message::Command::Input(nefia_game::display::Input::Key("escape".into())));
    let menu = wait_for(&host, |s| s.state == RuntimeState::InQuery);
    std::thread::sleep(Duration::from_secs(2));
    let layer = menu.layers.last().expect("a menu").id;
    host.send(nefia_protocol::message::Command::Input(nefia_game::display::Input::Cancel { layer }));
    host.send(nefia_protocol::message::Command::Input(nefia_game::display::Input::Key("period".into())));
    eval(&host, "true");
    let snapshot = wait_for(&host, |s| s.debug.profile.turns.len() >= 4);
    let turns = &snapshot.debug.profile.turns;
    let handler = turns[0]
        .entries
        .iter()
        .find(|(k, _)| k.name == "base.on_key_pressed · elona.play")
        .expect("the key handler is an entry");
    assert!(handler.0.at.starts_with("[elona] mods/elona/game/commands.lua:"), "{}", handler.0.at);
    assert!(turns.iter().any(|t| t.entries.iter().any(|(k, _)| k.name == "snapshot for the editor")));
    for turn in turns.iter() {
        assert!(turn.total < Duration::from_secs(1), "turn {}: {:?} counts the wait", turn.turn, turn.total);
    }
}
