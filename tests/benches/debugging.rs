//! The debugging loop's latencies through the runtime protocol, as the editor sees them:
//! a REPL round trip (send `Eval`, receive its answer) and hotload (write a handler file,
//! receive the `Reloaded` event). Run with `cargo bench -p nefia_tests --bench debugging`;
//! criterion's median is in `target/criterion/<group>/<name>/new/estimates.json`.

use std::time::{Duration, Instant};

use criterion::{Criterion, SamplingMode, criterion_group, criterion_main};
use nefia_runtime::host::{Command, HostEvent};
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
            host.send(Command::Eval { id, code: "1 + 1".into() });
            answer(&host, id, &mut Vec::new())
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

criterion_group!(benches, repl, hotload);
criterion_main!(benches);
