//! Map generators' targets: one 80×40 floor from each demo generator (≤ 10 ms), and a scan
//! of the demo dungeon's seeds with a predicate and two metrics, in seeds a second with one
//! and with two workers (it must scale with the cores).
//! Run with `cargo bench -p nefia_tests --bench mapgen`.

use criterion::{Criterion, criterion_group, criterion_main};
use nefia_game::value::Value;
use nefia_host::generate::{Scan, scan};
use nefia_lua::Runtime;
use nefia_protocol::output::Output;

fn floors(c: &mut Criterion) {
    let demo = nefia_tests::repo_root().join("projects/demo");
    let runtime = Runtime::open_project(&demo, Box::new(|_: Output| {})).expect("the demo opens");
    let mut group = c.benchmark_group("mapgen");
    for generator in ["elona.dungeon", "elona.cave"] {
        let mut seed = 0;
        group.bench_function(format!("one 80x40 floor of {generator}"), |b| {
            b.iter(|| {
                seed += 1;
                // The map goes once made, so the world does not grow with the samples.
                let code = format!("local m = Map.generate('{generator}', nil, {seed}) return m.uid");
                let uid: u64 = runtime.lua().unpack_multi(runtime.exec(&code, "bench").expect("it generates")).unwrap();
                runtime.world_mut().remove_map(nefia_game::MapId(uid)).expect("the map is there");
            })
        });
    }
    group.finish();
}

fn scanning(c: &mut Criterion) {
    let demo = nefia_tests::repo_root().join("projects/demo");
    let mut group = c.benchmark_group("mapgen");
    group.sample_size(10);
    for jobs in [1, 2] {
        let asked = Scan {
            generator: "elona.dungeon".into(),
            params: Value::Nil,
            seeds: nefia_host::seeds::Seeds::range(1, 500),
            predicate: Some("#Map.validate(map) == 0".into()),
            metrics: vec![("x".into(), "map.entrance[1]".into()), ("y".into(), "map.entrance[2]".into())],
            jobs,
        };
        group.bench_function(format!("scan 500 dungeon seeds, a predicate and two metrics, {jobs} job(s)"), |b| {
            b.iter(|| {
                let report = scan(&demo, &asked, &Default::default()).expect("the scan runs");
                assert_eq!(report.scanned, 500);
            })
        });
    }
    group.finish();
}

criterion_group!(benches, floors, scanning);
criterion_main!(benches);
