//! The level tools' targets: applying a 50-rule auto-tiling set to a 200×200 map (≤ 50 ms);
//! one part of a brush stroke (a 3×3 brush) on such a map through the editor's edit path —
//! intent set, the rules run again around it, both layers recorded for undo (≤ 2 ms); and
//! reading and mapping the largest sample map kept (LDtk's top-down example, 304 KB).
//! Run with `cargo bench -p nefia_tests --bench levels`.

use criterion::{Criterion, criterion_group, criterion_main};
use nefia_game::edit::Edit;
use nefia_game::history::History;
use nefia_lua::Runtime;
use nefia_protocol::output::Output;

/// Fifty rules over walls and open ground: five shapes, three tiles placed, a third left to
/// chance, some turned or mirrored.
const FIFTY_RULES: &str = r##"
local shapes = {
   { "* # *", "* . *", "* * *" },
   { "* * *", "# . *", "* * *" },
   { ". . .", ". . .", ". . ." },
   { "# # #", "# . #", "* * *" },
   { "* . *", ". # .", "* . *" },
}
local places = { "elona.moss", "elona.rubble", "elona.wall_face" }
local rules = {}
for i = 1, 50 do
   rules[i] = {
      name = "bench " .. i,
      pattern = shapes[i % #shapes + 1],
      legend = { ["#"] = "tag:wall", ["."] = "tag:floor" },
      place = places[i % #places + 1],
      chance = (i % 3 == 0) and 0.5 or nil,
      rotate = (i % 4 == 0) or nil,
      mirror_x = (i % 5 == 0) or nil,
   }
end
data:add { _type = "base.autotile_rule_set", _id = "bench_fifty", rules = rules }
"##;

fn autotile(c: &mut Criterion) {
    let copy = nefia_tests::DemoCopy::new();
    let init = copy.mod_file("elona/init.lua");
    let mut text = std::fs::read_to_string(&init).expect("the mod's init");
    text.push_str(FIFTY_RULES);
    std::fs::write(&init, text).expect("written");
    let runtime = Runtime::open_project(&copy.project(), Box::new(|_: Output| {})).expect("the copy opens");
    let code = "local map = Map.generate('elona.cave', { width = 200, height = 200, monsters = 0 }, 1)
        map:apply_autotile('elona.bench_fifty', 1)
        return map.uid";
    let uid: u64 = runtime.lua().unpack_multi(runtime.exec(code, "bench").expect("a cave")).expect("its uid");
    let map = nefia_game::MapId(uid);
    assert_eq!(runtime.world().rule_set("elona.bench_fifty").expect("the set reads").rules.len(), 50);

    let mut group = c.benchmark_group("levels");
    let mut seed = 0;
    group.bench_function("apply 50 rules to a 200x200 map", |b| {
        b.iter(|| {
            seed += 1;
            runtime.world_mut().apply_autotile(map, "elona.bench_fifty", seed).expect("applied")
        })
    });
    let mut history = History::default();
    let mut part: i32 = 0;
    group.bench_function("one 3x3 brush part of a stroke on a 200x200 map with 50 rules", |b| {
        b.iter(|| {
            part = part.wrapping_add(1) % 1_000_000;
            // Along a row, walls then floor again, so every part changes cells.
            let (x, y) = (2 + (part * 3) % 195, 2 + (part / 65) % 195);
            let tile = if (part / (65 * 65)) % 2 == 0 { "elona.wall_stone" } else { "elona.floor_stone" };
            let cells = (0..9).map(|i| (x + i % 3, y + i / 3)).collect();
            // A stroke of fifty parts, as a long drag makes.
            let edit = Edit::Stroke {
                id: u64::from(part.unsigned_abs() / 50),
                edit: Box::new(Edit::PaintTiles { map, cells, tile: tile.into() }),
            };
            nefia_host::editing::edit::apply(runtime.lua(), &mut history, &edit).expect("painted")
        })
    });
    group.finish();
}

fn importing(c: &mut Criterion) {
    use nefia_game::exchange::{self, Catalog, Mapping};
    use nefia_game::object::ObjectKind;
    let path = nefia_tests::repo_root().join("tests/fixtures/ldtk/Typical_TopDown_example.ldtk");
    let sources = exchange::read(&path).expect("the sample reads");
    let mut mapping: Mapping = Mapping::default();
    for source in &sources {
        let template: Mapping = ron::from_str(&exchange::template(std::slice::from_ref(source), &mapping))
            .expect("the template reads back");
        mapping.tiles.extend(template.tiles.into_keys().map(|k| (k, "elona.floor_stone".to_owned())));
        mapping.objects.extend(
            template
                .objects
                .into_keys()
                .map(|k| (k, exchange::ObjectTarget { kind: ObjectKind::Chara, id: "elona.putit".to_owned() })),
        );
    }
    let (tile, object) = (|_: &str| true, |_: ObjectKind, _: &str| true);
    let field = |_: ObjectKind, _: &str, _: &nefia_game::value::Value| Ok(());
    let glyph = |_| None;
    let catalog = Catalog { tile: &tile, object: &object, field: &field, glyph: &glyph };
    c.bench_function("levels/read and map LDtk's top-down example (every level)", |b| {
        b.iter(|| {
            let sources = exchange::read(&path).expect("reads");
            sources.iter().map(|s| exchange::convert(s, &mapping, &catalog).expect("maps").width).sum::<i32>()
        })
    });
}

criterion_group!(benches, autotile, importing);
criterion_main!(benches);
