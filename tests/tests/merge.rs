//! Three-way merges of real edits to the demo's town, made in editing sessions as a user
//! would make them on two branches: disjoint edits merge with no conflict and equal one
//! session making both; same-cell and same-field edits give exactly those conflicts; a
//! resize merges with a paint; objects made on both sides stay two; and object keys keep an
//! object's identity through saves, pastes and loads.

use nefia_game::conflict::{Conflict, Side};
use nefia_game::edit::Edit;
use nefia_game::map_diff::TileGrid;
use nefia_game::map_merge::merge_maps;
use nefia_game::object_record::ObjectRecord;
use nefia_game::save::MapRecord;
use nefia_game::{Holder, MapId, ObjectKind, Uid, Value};
use nefia_host::HostHandle;
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::maps::MapCommand;
use nefia_protocol::message::Command;
use nefia_tests::DemoCopy;
use nefia_tests::host::{eval, spawn_editing, wait_for};

/// The town map's id.
fn town(host: &HostHandle) -> MapId {
    host.snapshot().map.as_ref().map(|m| m.id).expect("the start map")
}

/// The uid of the object standing at (x, y) of the current map.
fn at(host: &HostHandle, x: i32, y: i32) -> Uid {
    let code = format!("for _, o in Map.current():iter() do if o.x == {x} and o.y == {y} then return o.uid end end");
    match eval(host, &code) {
        nefia_protocol::repl::Evaluation::Values(values) => Uid(values[0].parse().expect("a uid")),
        other => panic!("no object at ({x}, {y}): {other:?}"),
    }
}

/// One branch's edits, as commands of the editor.
type Edits = fn(&HostHandle);

/// The town as a session on a fresh copy of the demo saves it after `edits` (each in turn).
fn branch(edits: &[Edits]) -> MapRecord {
    let copy = DemoCopy::new();
    let host = spawn_editing(&copy.project());
    for edit in edits {
        edit(&host);
    }
    eval(&host, "return 1");
    host.send(Command::Maps(MapCommand::SaveAll));
    wait_for(&host, |s| s.maps.files.iter().all(|m| !m.dirty));
    nefia_game::files::read_ron(&copy.project().join("maps/town.ron")).expect("the saved town")
}

/// The demo's town as the repository has it.
fn base() -> MapRecord {
    nefia_game::files::read_ron(&nefia_tests::repo_root().join("projects/demo/maps/town.ron")).expect("the town")
}

fn paint(host: &HostHandle, cells: Vec<(i32, i32)>, tile: &str) {
    host.send(Command::Editing(EditingCommand::Edit(Edit::PaintTiles { map: town(host), cells, tile: tile.into() })));
}

fn set(host: &HostHandle, x: i32, y: i32, field: &str, value: i64) {
    let uids = vec![at(host, x, y)];
    host.send(Command::Editing(EditingCommand::Edit(Edit::SetBase {
        uids,
        field: field.into(),
        value: Value::Int(value),
    })));
}

fn move_to(host: &HostHandle, from: (i32, i32), to: (i32, i32)) {
    let uids = vec![at(host, from.0, from.1)];
    host.send(Command::Editing(EditingCommand::Edit(Edit::Offset { uids, dx: to.0 - from.0, dy: to.1 - from.1 })));
}

fn create(host: &HostHandle, id: &str, x: i32, y: i32) {
    let to = Holder::Map(town(host));
    host.send(Command::Editing(EditingCommand::Edit(Edit::Create {
        kind: ObjectKind::Chara,
        id: id.into(),
        to,
        x,
        y,
    })));
}

/// Ours: a wall painted in the north, the shopkeeper moved, a putit's hp set.
fn ours_edits(host: &HostHandle) {
    paint(host, vec![(2, 2), (3, 2), (4, 2)], "elona.wall_stone");
    move_to(host, (8, 5), (7, 5));
    set(host, 25, 4, "hp", 3);
    create(host, "elona.yeek", 14, 14);
}

/// Theirs: water in the south, the guard's hp set, a putit made, the dagger removed.
fn theirs_edits(host: &HostHandle) {
    paint(host, vec![(20, 17), (21, 17), (22, 17)], "elona.water");
    set(host, 20, 9, "hp", 40);
    create(host, "elona.putit", 10, 16);
    let uids = vec![at(host, 15, 12)];
    host.send(Command::Editing(EditingCommand::Edit(Edit::Remove { uids })));
}

/// An object as a merge compares it, without the key a session chose.
fn unkeyed(objects: &[ObjectRecord]) -> Vec<ObjectRecord> {
    objects
        .iter()
        .cloned()
        .map(|mut o| {
            o.key = None;
            o
        })
        .collect()
}

#[test]
fn disjoint_edits_merge_with_no_conflict_and_equal_one_session_making_both() {
    let (ours, theirs) = (branch(&[ours_edits]), branch(&[theirs_edits]));
    let merged = merge_maps(&base(), &ours, &theirs).expect("merged");
    assert!(merged.conflicts.is_empty(), "{:?}", merged.conflicts);
    let both = branch(&[ours_edits, theirs_edits]);
    assert_eq!(TileGrid::of(&merged).unwrap(), TileGrid::of(&both).unwrap(), "the cells of both edit sets");
    assert_eq!(unkeyed(&merged.objects), unkeyed(&both.objects), "the objects of both edit sets, in order");
    // The objects of the old file keep their keys; the made ones keep the key their side gave.
    let keys: Vec<&str> = merged.objects.iter().filter_map(|o| o.key.as_deref()).collect();
    assert!(keys.contains(&"#2") && !keys.contains(&"#9"), "the shopkeeper stays #2, the dagger #9 is gone: {keys:?}");
    let keyed = |key: &str| merged.objects.iter().find(|o| o.key.as_deref() == Some(key)).unwrap();
    assert_eq!((keyed("#2").x, keyed("#2").y), (7, 5), "ours moved the shopkeeper");
    assert_eq!(
        keyed("#4").fields.get(nefia_game::Symbol::intern("hp")),
        Some(&Value::Int(40)),
        "theirs set the guard's hp"
    );
    let made = |record: &MapRecord, id: &str| {
        record.objects.iter().find(|o| o.id.as_str() == id && !o.key.as_ref().unwrap().starts_with('#')).cloned()
    };
    assert_eq!(made(&merged, "elona.yeek").unwrap().key, made(&ours, "elona.yeek").unwrap().key);
    assert_eq!(made(&merged, "elona.putit").unwrap().key, made(&theirs, "elona.putit").unwrap().key);
}

#[test]
fn same_cell_and_same_field_edits_give_exactly_those_conflicts_and_the_result_loads() {
    fn ours(host: &HostHandle) {
        paint(host, vec![(5, 2), (6, 2)], "elona.wall_stone");
        set(host, 25, 4, "hp", 3);
        move_to(host, (27, 6), (28, 7));
    }
    fn theirs(host: &HostHandle) {
        paint(host, vec![(5, 2), (7, 2)], "elona.water");
        set(host, 25, 4, "hp", 7);
        set(host, 27, 6, "hp", 9);
    }
    let merged = merge_maps(&base(), &branch(&[ours]), &branch(&[theirs])).expect("merged");
    let tile = |id: &str| nefia_game::Symbol::intern(id);
    assert_eq!(merged.conflicts.len(), 2, "{:#?}", merged.conflicts);
    assert_eq!(
        merged.conflicts[0],
        Conflict::Tile { x: 5, y: 2, ours: tile("elona.wall_stone"), theirs: tile("elona.water") }
    );
    let Conflict::Object { key, fields, ours: Some(o), theirs: Some(t) } = &merged.conflicts[1] else {
        panic!("{:?}", merged.conflicts[1]);
    };
    assert_eq!((key.as_str(), fields.as_slice()), ("#5", &["hp".to_owned()][..]));
    let hp = |r: &ObjectRecord| r.fields.get(nefia_game::Symbol::intern("hp")).cloned();
    assert_eq!((hp(o), hp(t)), (Some(Value::Int(3)), Some(Value::Int(7))));
    // Everything else merged: both paints' other cells, and the putit moved and given hp.
    let grid = TileGrid::of(&merged).unwrap();
    assert_eq!(
        (grid.get(5, 2), grid.get(6, 2), grid.get(7, 2)),
        (Some(tile("elona.wall_stone")), Some(tile("elona.wall_stone")), Some(tile("elona.water")))
    );
    let moved = merged.objects.iter().find(|o| o.key.as_deref() == Some("#6")).unwrap();
    assert_eq!(((moved.x, moved.y), hp(moved)), ((28, 7), Some(Value::Int(9))));
    // The conflicts are kept in the file, readably, and it loads in the editor.
    let copy = DemoCopy::new();
    let path = copy.project().join("maps/town.ron");
    let text = nefia_game::map_files::map_text(&path, &merged).unwrap();
    assert!(text.contains("Tile(x: 5, y: 2, ours: \"elona.wall_stone\", theirs: \"elona.water\")"), "{text}");
    std::fs::write(&path, text).unwrap();
    let host = spawn_editing(&copy.project());
    let snapshot = host.snapshot();
    let shown = snapshot.map.as_ref().unwrap();
    assert_eq!(shown.conflicts.iter().map(|c| c.cell()).collect::<Vec<_>>(), vec![Some((5, 2)), Some((25, 4))]);
    let file = snapshot.maps.files.iter().find(|f| f.name == "town").unwrap();
    assert_eq!(file.conflicts, 2, "the Maps pane counts them");

    // Theirs for the cell: the water is painted; ours for the rest: hp stays 3.
    let map = shown.id;
    let resolve = |conflict, side| Command::Editing(EditingCommand::Edit(Edit::Resolve { map, conflict, side }));
    host.send(resolve(Some(0), Side::Theirs));
    let after = wait_for(&host, |s| s.map.as_ref().is_some_and(|m| m.conflicts.len() == 1));
    assert_eq!(after.map.as_ref().unwrap().tile_at(5, 2).map(|t| t.id.as_str()), Some("elona.water"));
    assert!(after.maps.files.iter().any(|f| f.name == "town" && f.dirty), "resolving is a change to save");
    host.send(resolve(None, Side::Ours));
    wait_for(&host, |s| s.map.as_ref().is_some_and(|m| m.conflicts.is_empty()));
    assert_eq!(
        eval_text(&host, "for _, o in Map.current():iter() do if o.x == 25 and o.y == 4 then return o.hp end end"),
        "3"
    );
    // Undo brings the last conflict back; redo and save write a file with none.
    host.send(Command::Editing(EditingCommand::Undo));
    wait_for(&host, |s| s.map.as_ref().is_some_and(|m| m.conflicts.len() == 1));
    host.send(resolve(Some(0), Side::Theirs));
    wait_for(&host, |s| s.map.as_ref().is_some_and(|m| m.conflicts.is_empty()));
    assert_eq!(
        eval_text(&host, "for _, o in Map.current():iter() do if o.x == 25 and o.y == 4 then return o.hp end end"),
        "7"
    );
    host.send(Command::Maps(MapCommand::SaveAll));
    wait_for(&host, |s| s.maps.files.iter().all(|m| !m.dirty));
    let saved: MapRecord = nefia_game::files::read_ron(&path).unwrap();
    assert!(saved.conflicts.is_empty());
    assert_eq!(TileGrid::of(&saved).unwrap().get(5, 2), Some(tile("elona.water")));
}

/// What a Lua expression evaluated to, as the REPL shows it.
fn eval_text(host: &HostHandle, code: &str) -> String {
    match eval(host, code) {
        nefia_protocol::repl::Evaluation::Values(values) => values.join(", "),
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_resize_merges_with_a_paint_and_a_move_inside_the_kept_area() {
    fn grown(host: &HostHandle) {
        let edit = Edit::Resize { map: town(host), width: 36, height: 24, anchor: (1, 1), tile: "elona.grass".into() };
        host.send(Command::Editing(EditingCommand::Edit(edit)));
    }
    fn painted(host: &HostHandle) {
        paint(host, vec![(10, 10)], "elona.wall_stone");
        move_to(host, (25, 4), (26, 4));
    }
    let merged = merge_maps(&base(), &branch(&[grown]), &branch(&[painted])).expect("merged");
    assert!(merged.conflicts.is_empty(), "{:?}", merged.conflicts);
    assert_eq!((merged.width, merged.height), (36, 24));
    // The resize kept the town in the middle: (2, 2) further along and down.
    assert_eq!(TileGrid::of(&merged).unwrap(), TileGrid::of(&branch(&[painted, grown])).unwrap());
    let putit = merged.objects.iter().find(|o| o.key.as_deref() == Some("#5")).unwrap();
    assert_eq!((putit.x, putit.y), (28, 6));
    assert_eq!(merged.entrance, Some((18, 12)));
}

#[test]
fn objects_made_on_both_sides_at_one_cell_stay_two() {
    fn one(host: &HostHandle) {
        create(host, "elona.putit", 15, 15);
    }
    let merged = merge_maps(&base(), &branch(&[one]), &branch(&[one])).expect("merged");
    assert!(merged.conflicts.is_empty(), "{:?}", merged.conflicts);
    let made: Vec<&ObjectRecord> = merged.objects.iter().filter(|o| (o.x, o.y) == (15, 15)).collect();
    assert_eq!(made.len(), 2, "two sessions, two putits");
    assert_ne!(made[0].key, made[1].key);
}

#[test]
fn an_object_edited_on_one_side_and_removed_on_the_other_is_a_conflict_keeping_the_edit() {
    fn edited(host: &HostHandle) {
        set(host, 25, 4, "hp", 3);
    }
    fn removed(host: &HostHandle) {
        let uids = vec![at(host, 25, 4)];
        host.send(Command::Editing(EditingCommand::Edit(Edit::Remove { uids })));
    }
    let merged = merge_maps(&base(), &branch(&[edited]), &branch(&[removed])).expect("merged");
    assert!(
        matches!(&merged.conflicts[..], [Conflict::Object { key, fields, ours: Some(_), theirs: None }] if key == "#5" && fields == &["removed"]),
        "{:?}",
        merged.conflicts
    );
    assert!(merged.objects.iter().any(|o| o.key.as_deref() == Some("#5")), "ours kept it");
}

#[test]
fn keys_survive_a_save_a_file_without_keys_is_keyed_by_place_and_a_made_object_by_its_session() {
    // A file from before keys: its objects are keyed by place, as every branch keys them.
    let copy = DemoCopy::new();
    let path = copy.project().join("maps/town.ron");
    let mut old = base();
    for object in &mut old.objects {
        object.key = None;
    }
    std::fs::write(&path, nefia_game::map_files::map_text(&path, &old).unwrap()).unwrap();
    let host = spawn_editing(&copy.project());
    set(&host, 25, 4, "hp", 5);
    create(&host, "elona.putit", 3, 3);
    let uids = vec![at(&host, 3, 3)];
    host.send(Command::Editing(EditingCommand::Edit(Edit::Clone { uids })));
    eval(&host, "return 1");
    host.send(Command::Maps(MapCommand::SaveAll));
    wait_for(&host, |s| s.maps.files.iter().all(|m| !m.dirty));
    let saved: MapRecord = nefia_game::files::read_ron(&path).unwrap();
    let keys: Vec<String> = saved.objects.iter().map(|o| o.key.clone().unwrap()).collect();
    assert_eq!(&keys[..10], &(0..10).map(|i| format!("#{i}")).collect::<Vec<_>>()[..]);
    let journal = nefia_game::journal::journal_dir(&copy.project());
    let prefix = std::fs::read_to_string(nefia_game::journal::key_prefix_path(&journal)).unwrap();
    assert_eq!(keys.len(), 12, "{keys:?}");
    for made in &keys[10..] {
        assert!(made.starts_with(&format!("{prefix}-")), "a made object has its session's key: {keys:?}");
    }
    assert_ne!(keys[10], keys[11], "a clone is another object");
    // Saved again in a later session, every key stays as it was.
    drop(host);
    let host = spawn_editing(&copy.project());
    set(&host, 25, 4, "hp", 6);
    eval(&host, "return 1");
    host.send(Command::Maps(MapCommand::SaveAll));
    wait_for(&host, |s| s.maps.files.iter().all(|m| !m.dirty));
    let again: MapRecord = nefia_game::files::read_ron(&path).unwrap();
    assert_eq!(again.objects.iter().map(|o| o.key.clone().unwrap()).collect::<Vec<_>>(), keys);
}
