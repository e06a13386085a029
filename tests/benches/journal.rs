//! The edit journal's cost to a brush frame (≤ 1 ms): what the runtime thread adds to each
//! stroke part — the entry written as a line and appended to the log — and a stroke part's
//! round trip through the runtime thread with the journal on and off, measured in turns so
//! the machine's drift falls on both alike.
//! Run with `cargo bench -p nefia_tests --bench journal`.

use std::time::{Duration, Instant};

use criterion::{Criterion, criterion_group, criterion_main};
use nefia_game::edit::Edit;
use nefia_game::journal::{JournalEntry, Journaled, entry_line};
use nefia_host::{HostConfig, HostHandle};
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::message::Command;
use nefia_tests::DemoCopy;

fn stroke_part(map: nefia_game::MapId, i: i32) -> Edit {
    let cells = vec![(1 + i % 30, 1 + (i / 30) % 18)];
    let tile = if i % 2 == 0 { "elona.wall_stone" } else { "elona.floor_stone" };
    Edit::Stroke { id: 7, edit: Box::new(Edit::PaintTiles { map, cells, tile: tile.into() }) }
}

fn append(c: &mut Criterion) {
    let dir = tempfile::tempdir().unwrap();
    let mut file = std::fs::OpenOptions::new().create(true).append(true).open(dir.path().join("log.ron")).unwrap();
    let mut i = 0;
    c.bench_function("journal: a stroke part written as a line and appended to the log", |b| {
        b.iter(|| {
            use std::io::Write;
            i += 1;
            let what = Journaled::Edit(stroke_part(nefia_game::MapId(1), i));
            let entry = JournalEntry { at: 1, map: Some("town".into()), next_uid: 100, what };
            file.write_all(entry_line(&entry).unwrap().as_bytes()).unwrap();
        })
    });
}

fn spawn(copy: &DemoCopy, journal: bool) -> HostHandle {
    let mut config = HostConfig::recorded(copy.project(), std::sync::Arc::new(|| {}));
    if !journal {
        config.journal = None;
    }
    let host = HostHandle::spawn(config);
    nefia_tests::host::wait_for(&host, |s| s.map.is_some());
    host
}

fn round_trips(c: &mut Criterion) {
    let (on, off) = (DemoCopy::new(), DemoCopy::new());
    let hosts = [spawn(&on, true), spawn(&off, false)];
    let map = hosts[0].snapshot().map.as_ref().unwrap().id;
    let mut group = c.benchmark_group("journal");
    for (index, name) in [(0, "on"), (1, "off")] {
        let mut i = 0;
        group.bench_function(format!("a stroke part's round trip through the runtime thread, journal {name}"), |b| {
            b.iter_custom(|iters| {
                let mut total = Duration::ZERO;
                for _ in 0..iters {
                    i += 1;
                    let started = Instant::now();
                    hosts[index].send(Command::Editing(EditingCommand::Edit(stroke_part(map, i))));
                    nefia_tests::host::eval(&hosts[index], "return 1");
                    total += started.elapsed();
                }
                total
            })
        });
    }
    group.finish();
}

criterion_group!(benches, append, round_trips);
criterion_main!(benches);
