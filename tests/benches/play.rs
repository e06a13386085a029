//! Play mode's targets: one turn of the demo game's rules with 500 AI characters on a
//! 200×200 map (≤ 10 ms), that turn with a watch set and with the turn profiler on (≤ 5%
//! more), with a debug adapter attached (≤ 2% more), with a breakpoint set in a file that
//! does not run (≤ 5% more: the file loaded before the breakpoint was set, which the call
//! hook follows, and loaded with it set, which has the debugger's probes) and with the
//! invariants checked after it (the engine's and the demo's, over what the turn changed, as
//! `nefia fuzz` runs them every turn: ≤ 5% more) —
//! each against the turn just before without, beside the same turn against itself (how far
//! apart two runs come out on this machine) — and stopping play to put that map's edit state
//! back (≤ 50 ms).
//! Recordings' targets on the same world: what recording adds to a turn (≤ 2%: the state
//! hash, and a kept state as often as the step-back budget asks), the state hash (≤ 1 ms),
//! stepping back at its worst (a kept state put back and the turns since replayed, ≤ 50 ms);
//! and a headless replay of
//! 1,000 turns of the demo game (≥ 1,000 turns a second).
//! Run with `cargo bench -p nefia_tests --bench play`.

use std::time::Duration;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use nefia_game::Holder;
use nefia_game::map::MapId;
use nefia_host::play::recorder;
use nefia_lua::Runtime;
use nefia_protocol::output::Output;
use nefia_protocol::play::PlayCommand;
use nefia_protocol::play::PlayFrom;
use nefia_protocol::repl::LineBreakpoint;
use nefia_tests::{CROWDED_MAP, DemoCopy};

/// The demo project's runtime in its edit state, with the crowded map current.
fn editing(copy: &DemoCopy) -> (Runtime, MapId) {
    let runtime = Runtime::open_project(&copy.project(), Box::new(|_: Output| {})).expect("the demo opens");
    runtime.open_start_map().expect("the start map opens");
    run(&runtime, CROWDED_MAP);
    let map = runtime.world().current_map().expect("the crowded map is current");
    (runtime, map)
}

fn run(runtime: &Runtime, code: &str) {
    if let Err(failure) = runtime.exec(code, "bench") {
        panic!("{failure}");
    }
}

fn eval_string(runtime: &Runtime, code: &str) -> String {
    let values = runtime.exec(code, "bench").unwrap_or_else(|f| panic!("{f}"));
    runtime.lua().unpack_multi(values).expect("a string")
}

/// Turns something on or off between the compared turns.
type Switch<'a> = Box<dyn Fn() + 'a>;

fn turn(c: &mut Criterion) {
    let copy = DemoCopy::new();
    let (runtime, map) = editing(&copy);
    let _edit =
        nefia_host::play::EditState::begin(&runtime, PlayFrom::Here { map, x: 100, y: 100 }).expect("play starts");
    // The player outlives the bench (a death would ask Load or Quit).
    run(&runtime, "local p = Chara.player() p:mod_base('max_hp', 1000000000) p.hp = 1000000000");
    let on_map = runtime.world().iter_location(Holder::Map(map)).expect("the map").len();
    assert_eq!(on_map, 501, "500 characters and the player");
    // The characters do act: the crowd moves.
    let positions = "local s = {} for _, c in Chara.iter(Map.current()) do s[#s + 1] = c.x * 1000 + c.y end return table.concat(s, ',')";
    let before = eval_string(&runtime, positions);
    run(&runtime, "Event.trigger('base.on_wait_turn')");
    assert_ne!(eval_string(&runtime, positions), before, "a turn moved the characters");
    let mut group = c.benchmark_group("play");
    group.bench_function("one turn, 500 AI characters, 200x200 map", |b| {
        b.iter(|| run(&runtime, "Event.trigger('base.on_wait_turn')"))
    });
    group.finish();
    // What debugging costs that turn: a watch set on a field nothing writes (every write
    // of a field then checks the watches), and the turn profiler on. The crowd closes in on
    // the player as turns pass, so later turns cost more: turns with and without alternate,
    // and the medians of each are compared.
    // A debug adapter attached with its default configuration asks for errors to pause
    // where they are raised; with a breakpoint set, the hook takes calls and returns.
    let debugger = || runtime.engine().debugger();

    let adapter = |on: bool| debugger().break_on_errors(on, false).expect("errors pause");
    let breakpoint_in = |file: &std::path::Path, on: bool| {
        adapter(on);
        let list = if on { vec![LineBreakpoint { line: 1, ..LineBreakpoint::default() }] } else { Vec::new() };
        debugger().set_breakpoints(runtime.lua(), file, list);
    };
    // Loaded before the breakpoint was set: the call hook follows it.
    let not_run = copy.project().join("../../mods/elona/init.lua");
    let breakpoint = |on: bool| breakpoint_in(&not_run, on);
    // Loaded (required here) while it has one: it has the debugger's probes, and no hook is
    // installed while it does not run.
    let probed = copy.mod_file("elona/game/not_run.lua");
    std::fs::write(&probed, "local M = {}\nfunction M.f(x)\n  return x + 1\nend\nreturn M\n").expect("written");
    breakpoint_in(&probed, true);
    run(&runtime, "NOT_RUN = require('mod.elona.game.not_run')");
    breakpoint_in(&probed, false);
    let probed_breakpoint = |on: bool| breakpoint_in(&probed, on);
    let runtime = &runtime;
    let lua = |code: &'static str| move || run(runtime, code);
    // As nefia fuzz runs them: the change log on since the turn before, so the invariants
    // of each object look at what this turn changed.
    let invariants = |on: bool| {
        let engine = runtime.engine();
        engine.start_playing();
        engine.set_check_invariants(on);
        let mut world = engine.world_mut();
        world.log_changes(on);
        // Taken once: from here the log knows what changes.
        world.begin_check();
        world.end_check();
    };
    let comparisons: [(&str, Switch, Switch); 7] = [
        ("nothing switched (how far apart two runs of the same turn come out here)", Box::new(|| ()), Box::new(|| ())),
        (
            "a watch on a field nothing writes",
            Box::new(lua("w = Debug.watch(Chara.player(), 'strength')")),
            Box::new(lua("if w then Debug.unwatch(w) w = nil end")),
        ),
        ("the turn profiler on", Box::new(lua("Debug.profile(true)")), Box::new(lua("Debug.profile(false)"))),
        ("a debug adapter attached, no breakpoint", Box::new(|| adapter(true)), Box::new(|| adapter(false))),
        (
            "a debug adapter with a breakpoint in a file that does not run, loaded before it was set (the call hook)",
            Box::new(|| breakpoint(true)),
            Box::new(|| breakpoint(false)),
        ),
        (
            "a debug adapter with a breakpoint in a file that does not run, loaded with it set (probes)",
            Box::new(|| probed_breakpoint(true)),
            Box::new(|| probed_breakpoint(false)),
        ),
        (
            "the invariants checked after it (the engine's and the demo's)",
            Box::new(|| invariants(true)),
            Box::new(|| invariants(false)),
        ),
    ];
    // Each turn with is compared with the turn without just before it: the median of those
    // ratios follows this machine's speed, which drifts from second to second, better than
    // two medians apart.
    for (what, on, off) in &comparisons {
        let (mut with, mut without, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..300 {
            let turn = |set: &Switch| {
                set();
                let started = std::time::Instant::now();
                run(runtime, "Event.trigger('base.on_wait_turn')");
                started.elapsed()
            };
            let (before, after) = (turn(off), turn(on));
            ratios.push(after.as_secs_f64() / before.as_secs_f64());
            with.push(after);
            without.push(before);
        }
        off();
        fn median<T: PartialOrd + Copy>(values: &mut [T]) -> T {
            values.sort_by(|a, b| a.partial_cmp(b).unwrap_or(std::cmp::Ordering::Equal));
            values[values.len() / 2]
        }
        let change = (median(&mut ratios) - 1.0) * 100.0;
        let (with, without) = (median(&mut with), median(&mut without));
        println!(
            "play/one turn, 500 AI, {what}: {change:+.1}% (median of 300 turns each against the one just before without; medians {with:?} against {without:?})"
        );
    }
}

fn stop(c: &mut Criterion) {
    let copy = DemoCopy::new();
    let (runtime, map) = editing(&copy);
    let mut group = c.benchmark_group("play");
    group.sample_size(30).measurement_time(Duration::from_secs(8));
    group.bench_function("stop play and restore the 200x200 map's edit state", |b| {
        b.iter_batched(
            || {
                let edit = nefia_host::play::EditState::begin(&runtime, PlayFrom::Here { map, x: 100, y: 100 })
                    .expect("play starts");
                run(&runtime, "Chara.player():mod_base('max_hp', 1000000000) Chara.player().hp = 1000000000");
                run(&runtime, "for _ = 1, 3 do Event.trigger('base.on_wait_turn') end");
                edit
            },
            |edit| edit.restore(&runtime).expect("the edit state comes back"),
            BatchSize::PerIteration,
        )
    });
    // For comparison: what Play costs (the edit state is copied aside here).
    group.bench_function("play from here on the 200x200 map", |b| {
        b.iter_custom(|iterations| {
            let mut spent = Duration::ZERO;
            for _ in 0..iterations {
                let started = std::time::Instant::now();
                let edit = nefia_host::play::EditState::begin(&runtime, PlayFrom::Here { map, x: 100, y: 100 })
                    .expect("play starts");
                spent += started.elapsed();
                edit.restore(&runtime).expect("the edit state comes back");
            }
            spent
        })
    });
    group.finish();
    assert!(runtime.world().player().is_none(), "the edit state has no player");
    let on_map = runtime.world().iter_location(Holder::Map(map)).expect("the map").len();
    assert_eq!(on_map, 500, "the crowd as it was placed");
}

fn recording(c: &mut Criterion) {
    let copy = DemoCopy::new();
    let (runtime, map) = editing(&copy);
    let _edit =
        nefia_host::play::EditState::begin(&runtime, PlayFrom::Here { map, x: 100, y: 100 }).expect("play starts");
    run(&runtime, "local p = Chara.player() p:mod_base('max_hp', 1000000000) p.hp = 1000000000");
    let mut group = c.benchmark_group("recording");
    group.bench_function("state hash of the 500-AI world", |b| b.iter(|| runtime.state_hash().expect("a hash")));
    // What the recorder does at the start of every turn: the hash, and a copy of the state
    // once the turns since the last took the step-back budget to play (kept_state_due, with
    // this world's turn as measured here).
    let turn_time = {
        for _ in 0..20 {
            run(&runtime, "Event.trigger('base.on_wait_turn')");
        }
        let started = std::time::Instant::now();
        for _ in 0..50 {
            run(&runtime, "Event.trigger('base.on_wait_turn')");
        }
        started.elapsed() / 50
    };
    let mut between = 1;
    while !recorder::kept_state_due(turn_time * between as u32, between) {
        between += 1;
    }
    eprintln!("a turn takes {turn_time:?} here: a state is kept every {between} turns");
    let mut turn = 0usize;
    group.bench_function("recording's work per turn on the 500-AI world", |b| {
        b.iter_custom(|iterations| {
            // Kept states live on: dropping them is not the turn's work, so they are dropped
            // after the clock stops.
            let mut kept = Vec::new();
            let started = std::time::Instant::now();
            for _ in 0..iterations {
                turn += 1;
                std::hint::black_box(runtime.state_hash().expect("a hash"));
                if turn.is_multiple_of(between) {
                    let tables = nefia_lua::save::save_tables(runtime.lua()).expect("the save tables");
                    kept.push((runtime.world().copy_state(), tables));
                }
            }
            let took = started.elapsed();
            drop(kept);
            took
        })
    });
    // Stepping back at its worst: the kept state `between - 1` turns before is put back and
    // those turns are replayed.
    let kept = runtime.world().copy_state();
    group.sample_size(20);
    group.bench_function("step back on the 500-AI world, worst case (the turns since a kept state replayed)", |b| {
        b.iter(|| {
            runtime.world_mut().rewind_to(kept.clone());
            for _ in 1..between {
                run(&runtime, "Event.trigger('base.on_wait_turn')");
            }
        })
    });
    group.finish();
}

/// Plays `turns` turns of the demo game in a host (walking at random, waiting), stops, and
/// returns the recording it wrote.
fn record_demo(copy: &DemoCopy, turns: u64) -> nefia_game::recording::Recording {
    use nefia_game::display::Input;
    use nefia_protocol::message::Command;
    let host = nefia_tests::host::spawn(&copy.project());
    nefia_tests::host::eval(&host, "Chara.player().max_hp = 100000 Chara.player().hp = 100000");
    let mut rng = fastrand::Rng::with_seed(1);
    let keys = ["up", "down", "left", "right", "5"];
    let mut snapshot = host.snapshot();
    while snapshot.turn < turns {
        let before = snapshot.serial;
        let key = if snapshot.layers.is_empty() { keys[rng.usize(..keys.len())] } else { "escape" };
        host.send(Command::Input(Input::Key(key.into())));
        snapshot = nefia_tests::host::wait_for(&host, |s| s.serial > before);
    }
    host.send(Command::Play(PlayCommand::Stop));
    nefia_tests::host::wait_for(&host, |s| !s.play.playing);
    drop(host);
    let made = nefia_game::files::ron_files(&copy.project().join("recordings"));
    nefia_game::recording::Recording::read(&made[0]).expect("the recording reads")
}

fn replaying(c: &mut Criterion) {
    let copy = DemoCopy::new();
    let recording = record_demo(&copy, 1000);
    let mut group = c.benchmark_group("recording");
    group.sample_size(10).measurement_time(Duration::from_secs(10));
    let options = nefia_host::play::replay::ReplayOptions { check: true, ..Default::default() };
    group.bench_function("headless replay of 1,000 turns of the demo, checked (opening the project included)", |b| {
        b.iter(|| {
            let report = nefia_host::play::replay::replay(&copy.project(), &recording, &options).expect("it replays");
            assert_eq!(report.divergence, None);
            report
        })
    });
    group.finish();
}

criterion_group!(benches, turn, stop, recording, replaying);
criterion_main!(benches);
