//! The history's tests: undo, redo, strokes, pins and its cap.

use super::*;
use crate::object::ObjectKind;

use crate::world::tests::world_with_map as world;

fn tile(world: &World, map: MapId, x: i32, y: i32) -> &'static str {
    world.map(map).unwrap().tile(x, y).unwrap().as_str()
}

/// Paints (x, y) with `to` as the editor does: applied, then recorded.
fn paint(world: &mut World, history: &mut History, map: MapId, x: i32, y: i32, to: &str, stroke: Option<u64>) {
    let before = Change::Tile { map, x, y, tile: world.map(map).unwrap().tile(x, y).unwrap() };
    let after = Change::Tile { map, x, y, tile: Symbol::intern(to) };
    let mut tx = Transaction::new(format!("Paint {to}"), vec![before], vec![after]);
    tx.stroke = stroke;
    tx.apply(world);
    history.record(world, tx);
}

#[test]
fn apply_and_invert_are_each_others_undo() {
    let (mut world, map) = world();
    let tx = Transaction::new(
        "Paint".into(),
        vec![Change::Tile { map, x: 1, y: 1, tile: "t.floor".into() }],
        vec![Change::Tile { map, x: 1, y: 1, tile: "t.wall".into() }],
    );
    tx.apply(&mut world);
    assert_eq!(tile(&world, map, 1, 1), "t.wall");
    tx.invert().apply(&mut world);
    assert_eq!(tile(&world, map, 1, 1), "t.floor");
    assert_eq!(tx.invert().invert(), tx);
}

#[test]
fn undo_and_redo_walk_the_history() {
    let (mut world, map) = world();
    let mut history = History::default();
    paint(&mut world, &mut history, map, 0, 0, "t.wall", None);
    paint(&mut world, &mut history, map, 1, 0, "t.water", None);
    assert_eq!(history.view().labels, ["Paint t.wall", "Paint t.water"]);
    assert_eq!(history.undo(&mut world).as_deref(), Some("Paint t.water"));
    assert_eq!((tile(&world, map, 0, 0), tile(&world, map, 1, 0)), ("t.wall", "t.floor"));
    assert_eq!(history.undo(&mut world).as_deref(), Some("Paint t.wall"));
    assert_eq!(history.undo(&mut world), None, "nothing left to undo");
    assert_eq!(tile(&world, map, 0, 0), "t.floor");
    assert_eq!(history.redo(&mut world).as_deref(), Some("Paint t.wall"));
    assert_eq!(history.redo(&mut world).as_deref(), Some("Paint t.water"));
    assert_eq!(history.redo(&mut world), None, "nothing left to redo");
    assert_eq!(tile(&world, map, 1, 0), "t.water");
}

#[test]
fn a_new_edit_after_undo_drops_the_redo_branch() {
    let (mut world, map) = world();
    let mut history = History::default();
    paint(&mut world, &mut history, map, 0, 0, "t.wall", None);
    paint(&mut world, &mut history, map, 1, 0, "t.water", None);
    history.undo(&mut world);
    paint(&mut world, &mut history, map, 2, 0, "t.lava", None);
    assert_eq!(history.view(), HistoryView { labels: vec!["Paint t.wall".into(), "Paint t.lava".into()], done: 2 });
    assert_eq!(history.redo(&mut world), None, "the undone branch is gone");
    assert_eq!(tile(&world, map, 1, 0), "t.floor");
}

#[test]
fn parts_of_a_stroke_merge_into_one_step_keeping_the_first_before_and_last_after() {
    let (mut world, map) = world();
    let mut history = History::default();
    paint(&mut world, &mut history, map, 0, 0, "t.wall", Some(7));
    paint(&mut world, &mut history, map, 0, 0, "t.water", Some(7));
    paint(&mut world, &mut history, map, 1, 0, "t.water", Some(7));
    paint(&mut world, &mut history, map, 3, 3, "t.lava", Some(8));
    let labels = history.view().labels;
    assert_eq!(labels.len(), 2, "stroke 7 is one step, stroke 8 another");
    assert_eq!(labels[0], "Paint 2 cells with t.water", "the merged stroke counts its cells");
    assert_eq!(labels[1], "Paint t.lava", "a single part keeps its own label");
    assert_eq!(paint_label(1, Symbol::intern("t.lava")), "Paint 1 cell with t.lava");
    history.undo(&mut world);
    history.undo(&mut world);
    assert_eq!((tile(&world, map, 0, 0), tile(&world, map, 1, 0)), ("t.floor", "t.floor"), "back before the stroke");
    history.redo(&mut world);
    assert_eq!((tile(&world, map, 0, 0), tile(&world, map, 1, 0)), ("t.water", "t.water"), "the stroke's end");
    assert_eq!(tile(&world, map, 3, 3), "t.floor");
}

#[test]
fn objects_of_a_transaction_stay_pinned_while_it_can_be_undone() {
    let (mut world, map) = world();
    let mut history = History::default();
    let putit = world.create(ObjectKind::Chara, "t.putit").unwrap();
    world.take_object(crate::location::Holder::Map(map), putit, 1, 1).unwrap();
    let placed = Change::Place { uid: putit, location: Some(Location::Map(map)), x: 1, y: 1 };
    let removed = Change::Place { uid: putit, location: None, x: 1, y: 1 };
    let tx = Transaction::new("Remove".into(), vec![placed], vec![removed]);
    tx.apply(&mut world);
    history.record(&mut world, tx);
    world.sweep(|_| false);
    assert!(world.exists(putit), "the history keeps the removed object alive");
    history.undo(&mut world);
    assert_eq!(world.map_of(putit), Some(map));
    assert_eq!(world.check_invariants(), Ok(()));
}

#[test]
fn the_history_keeps_at_most_its_cap() {
    let (mut world, map) = world();
    let mut history = History::default();
    for i in 0..MAX_HISTORY + 5 {
        let to = if i % 2 == 0 { "t.wall" } else { "t.floor" };
        paint(&mut world, &mut history, map, 0, 0, to, None);
    }
    assert_eq!(history.view().labels.len(), MAX_HISTORY);
    assert_eq!(history.view().done, MAX_HISTORY);
}
