//! Rules read, painted and explained: tags, forms, order, `stop`, chance, weights, the
//! repaint of a stroke's neighbourhood, and explanations checked against single-rule runs.

use proptest::prelude::*;

use super::*;
use crate::value::Value;

fn sym(s: &str) -> Symbol {
    Symbol::intern(s)
}

const TILES: [&str; 5] = ["t.floor", "t.wall", "t.water", "t.wall_face", "t.wall_top"];

fn tags() -> Vec<(Symbol, Vec<Symbol>)> {
    vec![(sym("t.wall"), vec![sym("wall")]), (sym("t.wall_face"), vec![sym("wall")])]
}

/// A rule as Lua would give it: `(key, value)` pairs.
fn rule(entries: &[(&str, Value)]) -> Value {
    Value::map(entries.iter().map(|(k, v)| (*k, v.clone())))
}

fn rows(rows: &[&str]) -> Value {
    Value::list(rows.iter().map(|r| Value::str(r)).collect())
}

/// The ids the tests' rules may name: [`TILES`], a feat `t.torch` and a character `t.rat`.
struct TestIds;

impl KnownIds for TestIds {
    fn is_tile(&self, id: &str) -> bool {
        TILES.contains(&id)
    }

    fn is_object(&self, kind: ObjectKind, id: &str) -> bool {
        matches!((kind, id), (ObjectKind::Feat, "t.torch") | (ObjectKind::Chara, "t.rat"))
    }
}

fn set(rules: Vec<Value>) -> Result<RuleSet, RuleError> {
    parse_rule_set(sym("test.rules"), &Value::list(rules), &TestIds)
}

/// An intent grid from rows of characters: `#` wall, `.` floor, `~` water, space empty.
fn intent(rows: &[&str]) -> Intent {
    let height = i32::try_from(rows.len()).unwrap();
    let width = i32::try_from(rows[0].len()).unwrap();
    Intent::from_fn(width, height, |x, y| {
        match rows[usize::try_from(y).unwrap()].as_bytes()[usize::try_from(x).unwrap()] {
            b'#' => Some(sym("t.wall")),
            b'.' => Some(sym("t.floor")),
            b'~' => Some(sym("t.water")),
            _ => None,
        }
    })
}

fn painted_at(tiler: &Autotiler, grid: &Intent, x: i32, y: i32) -> Option<String> {
    tiler.paint(grid)[usize::try_from(y * grid.width() + x).unwrap()].tile.map(|t| t.to_string())
}

/// What one layer of a cell holds once painted: [`painted_at`] or [`object_at`].
type PaintsAt = fn(&Autotiler, &Intent, i32, i32) -> Option<String>;

fn object_at(tiler: &Autotiler, grid: &Intent, x: i32, y: i32) -> Option<String> {
    tiler.paint(grid)[usize::try_from(y * grid.width() + x).unwrap()].object.map(|o| o.to_string())
}

fn wall_face() -> Value {
    rule(&[
        ("name", Value::str("face")),
        ("pattern", rows(&["* * *", "* # *", "* . *"])),
        ("legend", Value::map([("#", Value::str("tag:wall")), (".", Value::str("!tag:wall"))])),
        ("place", Value::str("t.wall_face")),
    ])
}

#[test]
fn a_tagged_pattern_paints_where_it_matches_and_the_intent_shows_elsewhere() {
    let rules = set(vec![wall_face()]).unwrap();
    let tiler = Autotiler::new(&rules, 0, tags());
    let grid = intent(&["###", "#.#", "..."]);
    assert_eq!(painted_at(&tiler, &grid, 1, 0), Some("t.wall_face".into()), "a wall above floor");
    assert_eq!(painted_at(&tiler, &grid, 0, 1), Some("t.wall_face".into()));
    assert_eq!(painted_at(&tiler, &grid, 0, 0), None, "a wall with a wall below");
    assert_eq!(painted_at(&tiler, &grid, 1, 1), None, "floor is no wall");
}

#[test]
fn later_rules_paint_over_earlier_ones_unless_one_stops() {
    let top =
        rule(&[("name", Value::str("top")), ("pattern", Value::str("t.wall")), ("place", Value::str("t.wall_top"))]);
    let grid = intent(&["#", "."]);
    let rules = set(vec![top.clone(), wall_face()]).unwrap();
    let tiler = Autotiler::new(&rules, 0, tags());
    assert_eq!(painted_at(&tiler, &grid, 0, 0).as_deref(), Some("t.wall_face"));
    let why = tiler.explain(&grid, 0, 0);
    assert_eq!(why.winner.as_ref().map(|w| w.name.as_str()), Some("face"));
    assert_eq!(
        why.lost,
        vec![Lost { rule: 0, name: "top".into(), line: None, reason: LostReason::PaintedOver { by: "face".into() } }]
    );

    let Value::Map(mut stop) = top else { unreachable!() };
    std::sync::Arc::make_mut(&mut stop).insert(Key::Str("stop".into()), Value::Bool(true));
    let rules = set(vec![Value::Map(stop), wall_face()]).unwrap();
    let tiler = Autotiler::new(&rules, 0, tags());
    assert_eq!(painted_at(&tiler, &grid, 0, 0).as_deref(), Some("t.wall_top"));
    let why = tiler.explain(&grid, 0, 0);
    assert_eq!(
        why.lost,
        vec![Lost { rule: 1, name: "face".into(), line: None, reason: LostReason::Stopped { by: "top".into() } }]
    );
}

use crate::object::ObjectKind;
use crate::value::Key;

#[test]
fn a_rule_places_an_object_as_a_second_layer_and_the_explanation_names_it() {
    let torch = rule(&[
        ("name", Value::str("torch")),
        ("pattern", rows(&["* * *", "* # *", "* . *"])),
        ("legend", Value::map([("#", Value::str("tag:wall")), (".", Value::str("t.floor"))])),
        ("object", Value::map([("feat", Value::str("t.torch"))])),
    ]);
    let rat = rule(&[
        ("name", Value::str("rat")),
        ("pattern", Value::str("t.floor")),
        ("object", Value::map([("chara", Value::str("t.rat"))])),
    ]);
    let grid = intent(&["#", ".", "."]);
    // The torch rule places an object and no tile: the face rule before it keeps the tile.
    let rules = set(vec![wall_face(), torch.clone()]).unwrap();
    let tiler = Autotiler::new(&rules, 0, tags());
    assert_eq!(painted_at(&tiler, &grid, 0, 0).as_deref(), Some("t.wall_face"));
    assert_eq!(object_at(&tiler, &grid, 0, 0).as_deref(), Some("feat t.torch"));
    assert_eq!(object_at(&tiler, &grid, 0, 1), None);
    let why = tiler.explain(&grid, 0, 0);
    assert_eq!(why.winner.as_ref().map(|w| w.name.as_str()), Some("face"));
    assert_eq!(why.object.as_deref(), Some("feat t.torch"));
    assert_eq!(why.object_winner.as_ref().map(|w| w.name.as_str()), Some("torch"));
    assert!(why.lost.is_empty(), "each rule gave the cell something: {:?}", why.lost);
    // A later object rule takes the object from an earlier one, which is then lost.
    let rules = set(vec![rat.clone(), rat_too()]).unwrap();
    let why = Autotiler::new(&rules, 0, tags()).explain(&grid, 0, 1);
    assert_eq!(why.object_winner.as_ref().map(|w| w.name.as_str()), Some("rat too"));
    assert_eq!(
        why.lost,
        vec![Lost {
            rule: 0,
            name: "rat".into(),
            line: None,
            reason: LostReason::PaintedOver { by: "rat too".into() }
        }]
    );
    assert_eq!(why.tile, None, "no rule placed a tile: the intent shows");
}

fn rat_too() -> Value {
    rule(&[
        ("name", Value::str("rat too")),
        ("pattern", Value::str("t.floor")),
        ("object", Value::map([("chara", Value::str("t.rat"))])),
    ])
}

#[test]
fn an_object_rule_names_a_known_kind_and_prototype() {
    let with = |object: Value| rule(&[("pattern", Value::str("t.wall")), ("object", object)]);
    let cases: [(Value, &str); 4] = [
        (with(Value::map([("thing", Value::str("t.torch"))])), "kind 'thing'"),
        (with(Value::map([("feat", Value::str("t.torhc"))])), "'t.torhc', which is no base.feat id"),
        (with(Value::str("t.torch")), "object = { feat = \"elona.torch\" }"),
        (rule(&[("pattern", Value::str("t.wall"))]), "no `place` or `object`"),
    ];
    for (bad, says) in cases {
        let error = set(vec![bad]).unwrap_err().to_string();
        assert!(error.contains(says), "{error} should say {says}");
    }
}

#[test]
fn mirrored_and_rotated_patterns_match_in_each_form_and_say_which() {
    // Water to the east of a floor cell: as written only; mirrored, also to the west;
    // rotated, on every side.
    let shore = |extra: &[(&str, Value)]| {
        let mut entries = vec![
            ("name", Value::str("shore")),
            ("pattern", rows(&["* * *", "* . ~", "* * *"])),
            ("legend", Value::map([(".", Value::str("t.floor")), ("~", Value::str("t.water"))])),
            ("place", Value::str("t.wall_top")),
        ];
        entries.extend(extra.iter().cloned());
        set(vec![rule(&entries)]).unwrap()
    };
    let grid = intent(&["...", "~.~", "..."]);
    let west_only = intent(&["...", "~..", "..."]);
    let north_only = intent(&[".~.", "...", "..."]);
    let plain = shore(&[]);
    let tiler = Autotiler::new(&plain, 0, tags());
    assert!(painted_at(&tiler, &grid, 1, 1).is_some());
    assert!(painted_at(&tiler, &west_only, 1, 1).is_none());
    let mirrored = shore(&[("mirror_x", Value::Bool(true))]);
    let tiler = Autotiler::new(&mirrored, 0, tags());
    assert!(painted_at(&tiler, &west_only, 1, 1).is_some());
    assert_eq!(tiler.explain(&west_only, 1, 1).winner.unwrap().form, "mirrored left to right");
    assert!(painted_at(&tiler, &north_only, 1, 1).is_none());
    let turned = shore(&[("rotate", Value::Bool(true))]);
    let tiler = Autotiler::new(&turned, 0, tags());
    let why = tiler.explain(&north_only, 1, 1);
    assert_eq!(why.winner.as_ref().map(|w| w.form.as_str()), Some("turned three quarters"));
    assert!(why.winner.unwrap().cells.iter().any(|c| (c.dx, c.dy, c.wants.as_str()) == (0, -1, "t.water")));
}

#[test]
fn chance_and_weights_follow_the_seed_alone() {
    let scatter = rule(&[
        ("name", Value::str("scatter")),
        ("pattern", Value::str("t.floor")),
        ("place", Value::list(vec![Value::list(vec![Value::str("t.water"), Value::Int(3)]), Value::str("t.wall")])),
        ("chance", Value::Float(0.5)),
    ]);
    let rules = set(vec![scatter]).unwrap();
    let grid = Intent::from_fn(40, 40, |_, _| Some(sym("t.floor")));
    let once = Autotiler::new(&rules, 7, tags()).paint(&grid);
    assert_eq!(once, Autotiler::new(&rules, 7, tags()).paint(&grid), "the same seed paints the same");
    assert_ne!(once, Autotiler::new(&rules, 8, tags()).paint(&grid), "another seed paints otherwise");
    let count = |tile: &str| once.iter().filter(|p| p.tile.is_some_and(|t| t.as_str() == tile)).count();
    let (painted, water) = (once.iter().filter(|p| p.tile.is_some()).count(), count("t.water"));
    assert!((650..950).contains(&painted), "half of 1600 cells: {painted}");
    assert!(water * 100 / painted > 65 && water * 100 / painted < 85, "three in four: {water} of {painted}");
    let unlucky = (0..40).find(|&x| once[usize::try_from(x).unwrap()].tile.is_none()).unwrap();
    let why = Autotiler::new(&rules, 7, tags()).explain(&grid, unlucky, 0);
    assert_eq!(
        why.lost,
        vec![Lost { rule: 0, name: "scatter".into(), line: None, reason: LostReason::Chance { chance: 0.5 } }]
    );
}

#[test]
fn a_near_miss_marks_the_one_neighbour_that_failed() {
    let rules = set(vec![wall_face()]).unwrap();
    let grid = intent(&["#", "~", "."]);
    let tiler = Autotiler::new(&rules, 0, tags());
    let why = tiler.explain(&intent(&["#", "#"]), 0, 0);
    assert!(why.winner.is_none());
    let miss = &why.near_misses[0];
    assert_eq!(miss.name, "face");
    let failed: Vec<_> = miss.cells.iter().filter(|c| !c.matched).map(|c| (c.dx, c.dy, c.wants.as_str())).collect();
    assert_eq!(failed, [(0, 1, "not tag:wall")]);
    assert!(tiler.explain(&grid, 0, 0).near_misses.is_empty(), "it matched there");
}

#[test]
fn bad_rules_are_refused_naming_the_rule_and_what_to_write() {
    let cases: [(Value, &str); 6] = [
        (
            rule(&[("pattern", Value::str("t.wall")), ("place", Value::str("t.wall")), ("stpo", Value::Bool(true))]),
            "unknown key 'stpo'",
        ),
        (rule(&[("pattern", rows(&["* *", "* *"])), ("place", Value::str("t.wall"))]), "odd side"),
        (rule(&[("pattern", rows(&["* * *", "* # *"])), ("place", Value::str("t.wall"))]), "odd side"),
        (rule(&[("pattern", rows(&["* * *", "* wal *", "* * *"])), ("place", Value::str("t.wall"))]), "'wal'"),
        (
            rule(&[("pattern", Value::str("t.wall")), ("place", Value::str("t.wal"))]),
            "'t.wal', which is no base.map_tile id",
        ),
        (
            rule(&[("pattern", Value::str("t.wall")), ("place", Value::str("t.wall")), ("chance", Value::Int(2))]),
            "`chance`",
        ),
    ];
    for (bad, says) in cases {
        let error = set(vec![wall_face(), bad]).unwrap_err().to_string();
        assert!(error.starts_with("autotile rule set 'test.rules', rule 2"), "{error}");
        assert!(error.contains(says), "{error} should say {says}");
    }
}

#[test]
fn a_stroke_repaints_its_neighbourhood_as_a_whole_repaint_would() {
    let rules = set(vec![wall_face()]).unwrap();
    let tiler = Autotiler::new(&rules, 3, tags());
    let mut grid = Intent::from_fn(20, 20, |x, y| Some(sym(if (x + y) % 3 == 0 { "t.wall" } else { "t.floor" })));
    let mut painted = tiler.paint(&grid);
    let stroke = [(5, 5), (6, 5), (7, 5)];
    for &(x, y) in &stroke {
        grid.set(x, y, Some(sym("t.floor")));
    }
    let mut repainted = 0;
    tiler.paint_around(&grid, &stroke, |x, y, tile| {
        painted[usize::try_from(y * 20 + x).unwrap()] = tile;
        repainted += 1;
    });
    assert_eq!(painted, tiler.paint(&grid));
    assert_eq!(repainted, 5 * 3, "the stroke's cells and one around them, once each");
}

fn arb_test() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec!["*", "*", "_", "#", ".", "~", "!#", "!.", "t.wall_face"])
}

fn arb_rule(index: usize) -> impl Strategy<Value = Value> {
    (
        prop::collection::vec(arb_test(), 9),
        prop::sample::select(vec![Some("t.wall_top"), Some("t.wall_face"), Some("t.water"), None]),
        prop::sample::select(vec![None, None, Some(("feat", "t.torch")), Some(("chara", "t.rat"))]),
        prop::option::of(0.1f64..1.0),
        any::<[bool; 4]>(),
    )
        .prop_map(move |(cells, place, object, chance, [stop, mirror_x, mirror_y, rotate])| {
            let pattern: Vec<String> = cells.chunks(3).map(|row| row.join(" ")).collect();
            let legend =
                Value::map([("#", Value::str("tag:wall")), (".", Value::str("t.floor")), ("~", Value::str("t.water"))]);
            let mut entries = vec![
                ("name", Value::str(&format!("r{index}"))),
                ("pattern", Value::list(pattern.iter().map(|r| Value::str(r)).collect())),
                ("legend", legend),
                ("stop", Value::Bool(stop)),
                ("mirror_x", Value::Bool(mirror_x)),
                ("mirror_y", Value::Bool(mirror_y)),
                ("rotate", Value::Bool(rotate)),
            ];
            if let Some(chance) = chance {
                entries.push(("chance", Value::Float(chance)));
            }
            // A rule places a tile, an object or both.
            match (place, object) {
                (None, None) => entries.push(("place", Value::str("t.wall_top"))),
                (place, object) => {
                    entries.extend(place.map(|place| ("place", Value::str(place))));
                    entries.extend(object.map(|(kind, id)| ("object", Value::map([(kind, Value::str(id))]))));
                }
            }
            rule(&entries)
        })
}

fn arb_rules() -> impl Strategy<Value = Vec<Value>> {
    (1usize..7).prop_flat_map(|n| (0..n).map(arb_rule).collect::<Vec<_>>())
}

proptest! {
    /// For every cell, for its tile and for its object: the explanation's is the painted one;
    /// the winning rule alone paints the same there; every rule after it alone paints none
    /// there, or was skipped by a `stop` at or after the winner.
    #[test]
    fn each_cells_explanation_matches_what_painted_it(
        rules in arb_rules(),
        cells in prop::collection::vec(prop::sample::select(vec![' ', '#', '.', '~']), 36),
        seed in any::<i64>(),
    ) {
        let rows: Vec<String> = cells.chunks(6).map(|r| r.iter().collect()).collect();
        let grid = intent(&rows.iter().map(String::as_str).collect::<Vec<_>>());
        let rules = set(rules).unwrap();
        let tiler = Autotiler::new(&rules, seed, tags());
        let painted = tiler.paint(&grid);
        let alone: Vec<RuleSet> = rules.rules.iter().map(|r| RuleSet { id: rules.id, rules: vec![r.clone()] }).collect();
        for y in 0..6 {
            for x in 0..6 {
                let why = tiler.explain(&grid, x, y);
                let cell = painted[usize::try_from(y * 6 + x).unwrap()];
                let tile = cell.tile.map(|t| t.to_string());
                let object = cell.object.map(|o| o.to_string());
                prop_assert_eq!(&why.tile, &tile);
                prop_assert_eq!(&why.object, &object);
                let layers: [(&Option<RuleMatch>, &Option<String>, PaintsAt); 2] =
                    [(&why.winner, &tile, painted_at), (&why.object_winner, &object, object_at)];
                for (winner, shown, paints) in layers {
                    let after = match winner {
                        Some(winner) => {
                            prop_assert!(winner.cells.iter().all(|c| c.matched));
                            let only = Autotiler::new(&alone[winner.rule], seed, tags());
                            prop_assert_eq!(&paints(&only, &grid, x, y), shown);
                            winner.rule + 1
                        }
                        None => 0,
                    };
                    for (rule, one) in alone.iter().enumerate().skip(after) {
                        let skipped = why.lost.iter().any(|l| l.rule == rule && matches!(l.reason, LostReason::Stopped { .. }));
                        prop_assert!(skipped || paints(&Autotiler::new(one, seed, tags()), &grid, x, y).is_none());
                    }
                }
            }
        }
    }

    /// A stroke anywhere repaints, through its window of the grid, what a whole repaint
    /// paints.
    #[test]
    fn a_strokes_window_repaints_what_a_whole_repaint_paints(
        rules in arb_rules(),
        cells in prop::collection::vec(prop::sample::select(vec![' ', '#', '.', '~']), 64),
        stroke in prop::collection::vec((0i32..8, 0i32..8, prop::sample::select(vec!["t.wall", "t.floor", "t.water"])), 1..5),
        seed in any::<i64>(),
    ) {
        let rows: Vec<String> = cells.chunks(8).map(|r| r.iter().collect()).collect();
        let mut grid = intent(&rows.iter().map(String::as_str).collect::<Vec<_>>());
        let rules = set(rules).unwrap();
        let tiler = Autotiler::new(&rules, seed, tags());
        let mut painted = tiler.paint(&grid);
        for &(x, y, tile) in &stroke {
            grid.set(x, y, Some(sym(tile)));
        }
        let changed: Vec<(i32, i32)> = stroke.iter().map(|&(x, y, _)| (x, y)).collect();
        tiler.paint_around(&grid, &changed, |x, y, tile| painted[usize::try_from(y * 8 + x).unwrap()] = tile);
        prop_assert_eq!(painted, tiler.paint(&grid));
    }
}
