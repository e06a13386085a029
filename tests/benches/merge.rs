//! `nefia merge` on a large map (≤ 300 ms): three 512×512 map files with 20,000 objects —
//! ours painted 2,000 cells in the north and changed 2,000 objects' hp, theirs painted 2,000
//! in the south and moved 2,000 other objects — read, merged and written, as git's merge
//! driver does. Run with `cargo bench -p nefia_tests --bench merge`.

use criterion::{Criterion, criterion_group, criterion_main};
use nefia_game::map_merge::merge_files;
use nefia_game::object::ObjectKind;
use nefia_game::object_record::ObjectRecord;
use nefia_game::save::MapRecord;
use nefia_game::{Symbol, Value};

const SIDE: usize = 512;
const OBJECTS: usize = 20_000;

fn base_map(rng: &mut fastrand::Rng) -> MapRecord {
    let palette = [(".", "elona.floor_stone"), ("#", "elona.wall_stone"), ("~", "elona.water")]
        .into_iter()
        .map(|(code, tile)| (code.to_owned(), Symbol::intern(tile)))
        .collect();
    let tiles = (0..SIDE).map(|_| (0..SIDE).map(|_| if rng.u8(..10) == 0 { '#' } else { '.' }).collect()).collect();
    let objects = (0..OBJECTS)
        .map(|i| ObjectRecord {
            uid: None,
            key: Some(format!("#{i}")),
            kind: if i % 2 == 0 { ObjectKind::Chara } else { ObjectKind::Item },
            id: Symbol::intern(if i % 2 == 0 { "elona.putit" } else { "elona.gold_piece" }),
            x: rng.i32(0..SIDE as i32),
            y: rng.i32(0..SIDE as i32),
            fields: Default::default(),
            temp: Default::default(),
            inventory: Vec::new(),
            equipment: Default::default(),
        })
        .collect();
    MapRecord {
        uid: None,
        name: "big".into(),
        width: SIDE as i32,
        height: SIDE as i32,
        palette,
        tiles,
        entrance: Some((1, 1)),
        objects,
        memory: Vec::new(),
        generated: None,
        fields: Default::default(),
        temp: Default::default(),
        conflicts: Vec::new(),
        autotile: None,
        art_layers: Vec::new(),
    }
}

fn paint(record: &mut MapRecord, rows: std::ops::Range<usize>, code: char, rng: &mut fastrand::Rng) {
    for _ in 0..2000 {
        let (x, y) = (rng.usize(..SIDE), rng.usize(rows.clone()));
        let mut row: Vec<char> = record.tiles[y].chars().collect();
        row[x] = code;
        record.tiles[y] = row.into_iter().collect();
    }
}

fn merge(c: &mut Criterion) {
    let mut rng = fastrand::Rng::with_seed(512);
    let base = base_map(&mut rng);
    let mut ours = base.clone();
    paint(&mut ours, 0..SIDE / 2, '~', &mut rng);
    for object in &mut ours.objects[..2000] {
        object.fields.insert(Symbol::intern("hp"), Value::Int(9));
    }
    let mut theirs = base.clone();
    paint(&mut theirs, SIDE / 2..SIDE, '#', &mut rng);
    for object in &mut theirs.objects[10_000..12_000] {
        object.x = (object.x + 1) % SIDE as i32;
    }
    let dir = tempfile::tempdir().unwrap();
    let write = |name: &str, record: &MapRecord| {
        let path = dir.path().join(name);
        std::fs::write(&path, nefia_game::map_files::map_text(&path, record).unwrap()).unwrap();
        path
    };
    let (b, o, t) = (write("base.ron", &base), write("ours.ron", &ours), write("theirs.ron", &theirs));
    let out = dir.path().join("out.ron");
    let merged = merge_files(&b, &o, &t, &out).unwrap();
    assert!(merged.conflicts.is_empty(), "{:?}", &merged.conflicts[..merged.conflicts.len().min(3)]);
    c.bench_function("nefia merge: 512x512 map files with 20,000 objects, read, merged and written", |bench| {
        bench.iter(|| merge_files(&b, &o, &t, &out).unwrap())
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = merge
}
criterion_main!(benches);
