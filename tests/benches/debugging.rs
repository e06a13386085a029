//! The debugging loop's latencies through the runtime protocol, as the editor sees them:
//! a REPL round trip (send `Eval`, receive its answer), hotload (write a handler file,
//! receive the `Reloaded` event), and the workbench's hotload (write a generator's file until
//! the snapshot holds the regenerated preview with its diff; ≤ 150 ms), and a step back from a
//! breakpoint in the demo's rules to the line before (the turn replayed from its kept state;
//! ≤ 50 ms), and reverse continue back 11 turns to a breakpoint's earlier hit (≤ 100 ms). Run with
//! `cargo bench -p nefia_tests --bench debugging`; criterion's median is in
//! `target/criterion/<group>/<name>/new/estimates.json`.

use std::time::{Duration, Instant};

use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use nefia_protocol::debugging::ReplCommand;
use nefia_protocol::message::{Command, HostEvent};
use nefia_protocol::workbench::WorkbenchCommand;
use nefia_tests::DemoCopy;
use nefia_tests::host::{answer, event, spawn};

fn repl(c: &mut Criterion) {
    let copy = DemoCopy::new();
    let host = spawn(&copy.project());
    let mut group = c.benchmark_group("repl");
    let mut id = 0;
    group.bench_function("round trip of `1 + 1`", |b| {
        b.iter(|| {
            id += 1;
            host.send(Command::Repl(ReplCommand::Eval { id, code: "1 + 1".into() }));
            answer(&host, id, &mut Vec::new())
        })
    });
    group.finish();
}

fn step_back(c: &mut Criterion) {
    use nefia_game::display::Input;
    use nefia_protocol::debugging::DebugCommand;
    use nefia_protocol::debugging::query::DebugQuery;
    use nefia_protocol::play::{PlayCommand, ReverseKind};
    use nefia_protocol::repl::LineBreakpoint;
    use nefia_protocol::repl::StepKind;
    let copy = DemoCopy::new();
    let host = spawn(&copy.project());
    // A breakpoint on Rules.step's first line (92), a key that runs it, a step to line 93.
    let breakpoints = vec![LineBreakpoint { line: 92, ..LineBreakpoint::default() }];
    let path = copy.mod_file("elona/game/rules.lua");
    host.send(Command::Debug(DebugCommand::Query { id: 1, query: DebugQuery::SetBreakpoints { path, breakpoints } }));
    host.send(Command::Input(Input::Key("right".into())));
    let paused_at = |line: u32, after: u64| {
        nefia_tests::host::wait_for(&host, |s| s.debug.pause.as_ref().is_some_and(|p| p.line == line && p.id > after))
            .debug
            .pause
            .as_ref()
            .map_or(0, |p| p.id)
    };
    let mut id = paused_at(92, 0);
    host.send(Command::Debug(DebugCommand::Step(StepKind::Over)));
    id = paused_at(93, id);
    let mut group = c.benchmark_group("step back");
    group.sample_size(20).sampling_mode(SamplingMode::Flat).measurement_time(Duration::from_secs(3));
    group.bench_function("from line 93 of Rules.step to line 92, the demo's turn replayed", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let started = Instant::now();
                host.send(Command::Play(PlayCommand::StepBackInCode(ReverseKind::Line)));
                id = paused_at(92, id);
                total += started.elapsed();
                // Back to line 93 for the next step back.
                host.send(Command::Debug(DebugCommand::Step(StepKind::Over)));
                id = paused_at(93, id);
            }
            total
        })
    });
    group.finish();
}

/// Reverse continue across 11 turns of a played session: a breakpoint on Rules.step's first
/// line, hit in the first move and the twelfth (its condition names their turns); from the
/// twelfth back to the first (≤ 100 ms: the inputs since the kept state replayed once to find
/// the hit, then again to it).
fn reverse_continue_across_turns(c: &mut Criterion) {
    use nefia_game::display::Input;
    use nefia_protocol::debugging::DebugCommand;
    use nefia_protocol::debugging::query::DebugQuery;
    use nefia_protocol::play::{PlayCommand, ReverseKind};
    use nefia_protocol::repl::LineBreakpoint;
    const MOVES: u64 = 11;
    let copy = DemoCopy::new();
    let host = spawn(&copy.project());
    let first = host.snapshot().turn;
    for step in 0..MOVES {
        let key = if step % 2 == 0 { "right" } else { "left" };
        host.send(Command::Input(Input::Key(key.into())));
        nefia_tests::host::wait_for(&host, |s| s.turn > first + step);
    }
    let last = host.snapshot().turn;
    let condition = format!("World.turn() == {first} or World.turn() == {last}");
    let breakpoints = vec![LineBreakpoint { line: 92, condition: Some(condition), ..LineBreakpoint::default() }];
    let path = copy.mod_file("elona/game/rules.lua");
    host.send(Command::Debug(DebugCommand::Query { id: 1, query: DebugQuery::SetBreakpoints { path, breakpoints } }));
    host.send(Command::Input(Input::Key("right".into())));
    let paused_in = |turn: u64, after: u64| {
        let snapshot = nefia_tests::host::wait_for(&host, |s| {
            s.turn == turn && s.debug.pause.as_ref().is_some_and(|p| p.line == 92 && p.id > after)
        });
        snapshot.debug.pause.as_ref().map_or(0, |p| p.id)
    };
    let mut id = paused_in(last, 0);
    let mut group = c.benchmark_group("step back");
    group.sample_size(10).sampling_mode(SamplingMode::Flat).measurement_time(Duration::from_secs(5));
    group.bench_function("reverse continue across 11 turns of a played session", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                let started = Instant::now();
                host.send(Command::Play(PlayCommand::StepBackInCode(ReverseKind::Breakpoint)));
                id = paused_in(first, id);
                total += started.elapsed();
                // Forward again to the twelfth move's hit.
                host.send(Command::Debug(DebugCommand::Continue));
                id = paused_in(last, id);
            }
            total
        })
    });
    group.finish();
}

fn hotload(c: &mut Criterion) {
    let copy = DemoCopy::new();
    let file = copy.mod_file("tools/exec/hot.lua");
    std::fs::write(&file, "return 0").unwrap();
    let init = copy.mod_file("tools/init.lua");
    let text = std::fs::read_to_string(&init).unwrap();
    std::fs::write(&init, format!("{text}\nrequire(\"exec.hot\")\n")).unwrap();
    let host = spawn(&copy.project());
    let mut group = c.benchmark_group("hotload");
    // One write per sample, 20 samples: criterion's median is the median of 20 writes.
    group.sample_size(20).sampling_mode(SamplingMode::Flat).warm_up_time(Duration::from_millis(200));
    group.measurement_time(Duration::from_secs(2));
    let mut version = 0;
    group.bench_function("write a handler file until reloaded", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                version += 1;
                let code = format!(
                    "Event.register('base.on_key_pressed', 'tools.hot', function() print({version}) end)\nreturn {version}"
                );
                // Let the watcher settle so each write is its own burst.
                std::thread::sleep(Duration::from_millis(60));
                let written = Instant::now();
                std::fs::write(&file, code).unwrap();
                let reload = event(&host, &mut Vec::new(), |e| match e {
                    HostEvent::Reloaded(reload) => Some(reload.clone()),
                    _ => None,
                });
                total += written.elapsed();
                assert!(reload.outcome.is_ok(), "{reload:?}");
            }
            total
        })
    });
    group.finish();
}

fn workbench_hotload(c: &mut Criterion) {
    let copy = DemoCopy::new();
    let file = copy.mod_file("elona/content/generators.lua");
    let text = std::fs::read_to_string(&file).unwrap();
    let host = nefia_tests::host::spawn_editing(&copy.project());
    host.send(Command::Workbench(WorkbenchCommand::Preview {
        generator: "elona.cave".into(),
        params: nefia_game::Value::Nil,
        seed: 4,
    }));
    nefia_tests::host::wait_for(&host, |s| s.preview.is_some());
    let mut group = c.benchmark_group("hotload");
    group.sample_size(20).sampling_mode(SamplingMode::Flat).warm_up_time(Duration::from_millis(200));
    group.measurement_time(Duration::from_secs(3));
    let mut version = 0;
    group.bench_function("write a generator file until the regenerated preview and its diff are on screen", |b| {
        b.iter_custom(|iters| {
            let mut total = Duration::ZERO;
            for _ in 0..iters {
                version += 1;
                // Another number of monsters each time: the same seed, another map.
                let monsters = format!("monsters = {{ type = \"int\", default = {},", 6 + version % 40);
                let changed = text.replacen("monsters = { type = \"int\", default = 6,", &monsters, 1);
                let before = host.snapshot().preview.as_ref().map_or(0, |p| p.generation);
                std::thread::sleep(Duration::from_millis(60));
                let written = Instant::now();
                std::fs::write(&file, changed).unwrap();
                nefia_tests::host::wait_for(&host, |s| {
                    s.preview.as_ref().is_some_and(|p| p.generation > before && p.diff.is_some())
                });
                total += written.elapsed();
            }
            total
        })
    });
    group.finish();
}

criterion_group!(benches, repl, hotload, workbench_hotload, step_back, reverse_continue_across_turns);
criterion_main!(benches);
