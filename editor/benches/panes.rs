//! Frames of the Inspector and Locations panes without a GPU (egui's pass plus
//! tessellation): an object with 500 fields, and a map of 100,000 objects with its groups
//! expanded. Run with `cargo bench -p nefia_editor --bench panes`.

use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use egui::{Pos2, RawInput, Rect, Vec2};
use nefia_editor::context::EditorContext;
use nefia_editor::panes::{inspector, locations};
use nefia_game::moddable::{Contribution, ModMethod, Origin, TempValue};
use nefia_game::{MapId, ObjectKind, Symbol, Uid, Value};
use nefia_protocol::view::{FieldRow, LocationTree, MapNode, ObjectDetails, ObjectRow, Snapshot};

fn frame(ctx: &egui::Context, size: Vec2, mut pane: impl FnMut(&mut egui::Ui)) -> usize {
    let input = RawInput { screen_rect: Some(Rect::from_min_size(Pos2::ZERO, size)), ..RawInput::default() };
    let output = ctx.run_ui(input, |ui| pane(ui));
    ctx.tessellate(output.shapes, output.pixels_per_point).len()
}

fn object_with_500_fields() -> ObjectDetails {
    let fields = (0..500)
        .map(|i| {
            let value = match i % 4 {
                0 => Value::Int(i),
                1 => Value::Float(i as f64 / 3.0),
                2 => Value::Bool(i % 3 == 0),
                _ => Value::str(&format!("text {i}")),
            };
            let temp = (i % 10 == 0).then(|| TempValue {
                value: value.clone(),
                sources: [Contribution {
                    method: ModMethod::Set,
                    value: value.clone(),
                    origin: Origin::tool("bench"),
                    times: 1,
                }]
                .into(),
                dropped: 0,
            });
            FieldRow {
                name: format!("field_{i:03}"),
                base: Some(value.clone()),
                own: i % 7 == 0,
                temp,
                calc: Some(value),
            }
        })
        .collect();
    ObjectDetails {
        uid: Uid(1),
        title: "<object ('base.chara', uid 1) bench.many>".into(),
        kind: ObjectKind::Chara,
        id: Symbol::intern("bench.many"),
        location: "map 1 'bench'".into(),
        map: Some(MapId(1)),
        x: 0,
        y: 0,
        fields,
        own_handlers: Vec::new(),
    }
}

fn tree_of(objects: usize) -> LocationTree {
    let kinds = [ObjectKind::Feat, ObjectKind::Item, ObjectKind::Chara];
    let mut rows: Vec<ObjectRow> = (0..objects)
        .map(|i| ObjectRow {
            uid: Uid(i as u64 + 1),
            kind: kinds[i % 3],
            id: Symbol::intern("elona.putit"),
            name: Some(Arc::from("putit")),
            x: (i % 512) as i32,
            y: (i / 512) as i32,
            is_location: i % 3 == 2,
            contents: None,
        })
        .collect();
    rows.sort_by_key(|r| ObjectKind::ALL.iter().position(|&k| k == r.kind));
    LocationTree {
        maps: vec![MapNode {
            id: MapId(1),
            name: "huge".into(),
            size: (512, 512),
            current: true,
            objects: Arc::new(rows),
        }],
        ownerless: Vec::new(),
    }
}

fn panes(c: &mut Criterion) {
    let mut snapshot = Snapshot::empty("bench");
    snapshot.editing.inspected = vec![object_with_500_fields()];
    let mut state = EditorContext::new(std::path::PathBuf::from("projects/demo"), Arc::new(snapshot));
    state.selection = vec![Uid(1)];
    let mut own = inspector::InspectorState::default();
    let ctx = egui::Context::default();
    let size = Vec2::new(420.0, 800.0);
    frame(&ctx, size, |ui| inspector::ui(ui, &mut state, &mut own, None));
    c.bench_function("inspector frame: an object with 500 fields", |b| {
        b.iter(|| frame(&ctx, size, |ui| inspector::ui(ui, &mut state, &mut own, None)))
    });

    let tree = tree_of(100_000);
    let mut snapshot = Snapshot::empty("bench");
    snapshot.locations = Arc::new(tree);
    let mut state = EditorContext::new(std::path::PathBuf::from("projects/demo"), Arc::new(snapshot));
    let mut own = locations::LocationsState::default();
    for uid in [1, 50_000, 99_999] {
        own.reveal(&state.snapshot.locations, Uid(uid));
    }
    let ctx = egui::Context::default();
    frame(&ctx, size, |ui| locations::ui(ui, &mut state, &mut own));
    c.bench_function("locations frame: a map of 100,000 objects, all groups expanded", |b| {
        b.iter(|| frame(&ctx, size, |ui| locations::ui(ui, &mut state, &mut own)))
    });
}

criterion_group!(benches, panes);
criterion_main!(benches);
