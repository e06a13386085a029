//! The level editor's runtime side: map files (open, save byte for byte, unknown ids, the
//! Maps pane's operations) and the painting and arranging edits with their undo.

use std::sync::Arc;

use nefia_game::edit::{Clip, Edit};
use nefia_game::history::History;
use nefia_game::map::MapId;
use nefia_game::{Symbol, Uid};
use nefia_host::editing::edit;
use nefia_lua::Runtime;
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::output::Output;
use nefia_tests::DemoCopy;

/// The demo copy's project opened headless (maps not opened yet).
fn open(copy: &DemoCopy) -> Runtime {
    Runtime::open_project(&copy.project(), Box::new(|_: Output| {})).expect("the demo opens")
}

fn open_map(runtime: &Runtime, name: &str) -> MapId {
    let (mut files, mut world, project) = runtime.maps_mut();
    let (map, problems) = files.open(&mut world, project.as_ref().unwrap(), name).expect("the map opens");
    assert!(problems.is_empty(), "{problems:?}");
    world.set_current_map(map).unwrap();
    map
}

fn save_map(runtime: &Runtime, name: &str) {
    let (mut files, world, project) = runtime.maps_mut();
    files.save(&world, project.as_ref().unwrap(), name).expect("the map saves");
}

fn tile(runtime: &Runtime, map: MapId, x: i32, y: i32) -> String {
    runtime.world().map(map).unwrap().tile(x, y).unwrap().to_string()
}

fn apply(runtime: &Runtime, history: &mut History, edit: Edit) -> String {
    edit::apply(runtime.lua(), history, &edit).unwrap_or_else(|e| panic!("{edit:?} failed: {e}"))
}

#[test]
fn every_demo_map_saves_byte_for_byte_as_it_was_loaded() {
    let copy = DemoCopy::new();
    let runtime = open(&copy);
    let names: Vec<String> = runtime.maps().names().map(str::to_owned).collect();
    assert!(names.len() >= 2, "the demo ships a town and a dungeon: {names:?}");
    for name in &names {
        let path = copy.project().join(format!("maps/{name}.ron"));
        let before = std::fs::read(&path).unwrap();
        open_map(&runtime, name);
        save_map(&runtime, name);
        let after = std::fs::read(&path).unwrap();
        assert!(before == after, "{name}.ron changed on save:\n{}", String::from_utf8_lossy(&after));
        assert_eq!(std::fs::read(path.with_extension("ron.bak")).unwrap(), before, "the previous file is kept");
    }
}

#[test]
fn a_map_with_unknown_ids_opens_marked_and_saves_them_back() {
    let copy = DemoCopy::new();
    let path = copy.project().join("maps/odd.ron");
    let text = r##"(
    name: "odd",
    width: 3,
    height: 2,
    palette: {
        ".": "elona.floor_stone",
        "?": "elona.lava_of_mystery",
    },
    tiles: [
        ".?.",
        "...",
    ],
    objects: [
        (key: "#0", kind: chara, id: "elona.putit", x: 0, y: 0),
        (key: "#1", kind: chara, id: "elona.nope", x: 1, y: 1, fields: {"hp": 3}),
        (key: "#2", kind: item, id: "elona.putitoro", x: 2, y: 1),
    ],
)
"##;
    nefia_tests::write(&path, text).unwrap();
    let runtime = open(&copy);
    let (map, problems) = {
        let (mut files, mut world, project) = runtime.maps_mut();
        files.open(&mut world, project.as_ref().unwrap(), "odd").expect("it still opens")
    };
    assert_eq!(
        problems,
        [
            "maps/odd.ron:7: unknown base.map_tile id 'elona.lava_of_mystery'",
            "maps/odd.ron:15: unknown base.chara id 'elona.nope' at (1, 1)",
        ]
    );
    let views = runtime.maps().views(&runtime.world(), &runtime.project().unwrap());
    let odd = views.iter().find(|v| v.name == "odd").unwrap();
    assert_eq!(odd.problems.len(), 2, "the Maps pane marks it");
    assert_eq!(runtime.world().map(map).unwrap().objects().len(), 2, "the known objects are made");
    save_map(&runtime, "odd");
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "nothing is dropped, nothing moves");
}

#[test]
fn malformed_ron_names_the_file_and_line() {
    let copy = DemoCopy::new();
    nefia_tests::write(copy.project().join("maps/broken.ron"), "(\n    name: \"broken\",\n    width: ,\n)").unwrap();
    let runtime = open(&copy);
    let (mut files, mut world, project) = runtime.maps_mut();
    let error = files.open(&mut world, project.as_ref().unwrap(), "broken").unwrap_err().to_string();
    assert!(error.contains("maps/broken.ron:3"), "{error}");
}

#[test]
fn a_brush_stroke_is_one_undo_step() {
    let copy = DemoCopy::new();
    let runtime = open(&copy);
    let map = open_map(&runtime, "town");
    let mut history = History::default();
    let before: Vec<String> = (1..6).map(|x| tile(&runtime, map, x, 1)).collect();
    for x in 1..6 {
        let part = Edit::PaintTiles { map, cells: vec![(x, 1)], tile: "elona.water".into() };
        apply(&runtime, &mut history, Edit::Stroke { id: 7, edit: Box::new(part) });
    }
    assert_eq!(history.view().labels.len(), 1, "{:?}", history.view().labels);
    assert!((1..6).all(|x| tile(&runtime, map, x, 1) == "elona.water"));
    history.undo(&mut runtime.world_mut());
    assert_eq!((1..6).map(|x| tile(&runtime, map, x, 1)).collect::<Vec<_>>(), before);
    history.redo(&mut runtime.world_mut());
    assert!((1..6).all(|x| tile(&runtime, map, x, 1) == "elona.water"));
    // A new stroke is a new step.
    let part = Edit::PaintTiles { map, cells: vec![(1, 2)], tile: "elona.water".into() };
    apply(&runtime, &mut history, Edit::Stroke { id: 8, edit: Box::new(part) });
    assert_eq!(history.view().labels.len(), 2);
    let refused = edit::apply(
        runtime.lua(),
        &mut history,
        &Edit::PaintTiles { map, cells: vec![(0, 0)], tile: "elona.nothing".into() },
    );
    assert!(refused.unwrap_err().to_string().contains("elona.nothing"));
}

#[test]
fn fill_spreads_over_the_same_tile_only_and_undoes() {
    let copy = DemoCopy::new();
    let runtime = open(&copy);
    let map = open_map(&runtime, "town");
    let mut history = History::default();
    // The house's wooden floor is walled in: filling it stays inside.
    let inside = tile(&runtime, map, 6, 5);
    assert_eq!(inside, "elona.floor_wood");
    let label = apply(&runtime, &mut history, Edit::Fill { map, x: 6, y: 5, tile: "elona.grass".into() });
    assert!(label.starts_with("Paint 29 cells"), "{label}"); // 7×4 inside and the doorway
    assert_eq!(tile(&runtime, map, 10, 7), "elona.grass");
    assert_eq!(tile(&runtime, map, 4, 4), "elona.wall_stone", "walls stop it");
    history.undo(&mut runtime.world_mut());
    assert_eq!(tile(&runtime, map, 10, 7), "elona.floor_wood");
}

fn putit_at(runtime: &Runtime, map: MapId, x: i32, y: i32) -> Uid {
    let world = runtime.world();
    let here = world.map(map).unwrap().objects_at(x, y).to_vec();
    *here.iter().find(|&&u| world.object(u).unwrap().id == Symbol::intern("elona.putit")).expect("a putit")
}

#[test]
fn objects_move_by_an_offset_and_regions_copy_between_maps() {
    let copy = DemoCopy::new();
    let runtime = open(&copy);
    let town = open_map(&runtime, "town");
    let mut history = History::default();
    apply(
        &runtime,
        &mut history,
        Edit::Create {
            kind: nefia_game::ObjectKind::Chara,
            id: "elona.putit".into(),
            to: nefia_game::location::Holder::Map(town),
            x: 2,
            y: 2,
        },
    );
    let putit = putit_at(&runtime, town, 2, 2);
    apply(&runtime, &mut history, Edit::Offset { uids: vec![putit], dx: 3, dy: 1 });
    assert_eq!((runtime.world().object(putit).unwrap().x, runtime.world().object(putit).unwrap().y), (5, 3));
    history.undo(&mut runtime.world_mut());
    assert_eq!(runtime.world().object(putit).unwrap().x, 2);
    history.redo(&mut runtime.world_mut());
    let off_map = edit::apply(runtime.lua(), &mut history, &Edit::Offset { uids: vec![putit], dx: 100, dy: 0 });
    assert!(off_map.is_err(), "moving off the map is refused");

    let clip = nefia_game::edit::copy_region(&runtime.world(), town, 4, 2, 3, 3).unwrap();
    assert_eq!((clip.width, clip.height, clip.tiles.len()), (3, 3, 9));
    assert_eq!(clip.objects.len(), 1, "the putit at (5, 3)");
    assert_eq!((clip.objects[0].x, clip.objects[0].y), (1, 1), "relative to the region");
    let dungeon = open_map(&runtime, "dungeon");
    let objects_before = runtime.world().map(dungeon).unwrap().objects().len();
    let tile_before = tile(&runtime, dungeon, 3, 3);
    apply(&runtime, &mut history, Edit::Paste { map: dungeon, x: 2, y: 2, clip: Arc::new(clip.clone()) });
    assert_eq!(runtime.world().map(dungeon).unwrap().objects().len(), objects_before + 1);
    assert_eq!(tile(&runtime, dungeon, 3, 3), clip.tiles[4].to_string());
    let pasted = putit_at(&runtime, dungeon, 3, 3);
    assert_ne!(pasted, putit, "a new object");
    history.undo(&mut runtime.world_mut());
    assert_eq!(runtime.world().map(dungeon).unwrap().objects().len(), objects_before);
    assert_eq!(tile(&runtime, dungeon, 3, 3), tile_before);
    let _: Clip = clip;
}

#[test]
fn resize_keeps_the_anchor_drops_what_falls_off_and_undoes_exactly() {
    let copy = DemoCopy::new();
    let runtime = open(&copy);
    let town = open_map(&runtime, "town");
    let mut history = History::default();
    let (width, height) = (32, 20);
    let corner = tile(&runtime, town, width - 1, height - 1);
    let putit = putit_at(&runtime, town, 25, 4);
    // Anchored bottom-right, shrunk by 10 columns: the right part stays.
    apply(
        &runtime,
        &mut history,
        Edit::Resize { map: town, width: width - 10, height, anchor: (2, 0), tile: "elona.grass".into() },
    );
    let world = runtime.world();
    let map = world.map(town).unwrap();
    assert_eq!((map.width(), map.height()), (22, 20));
    assert_eq!(map.tile(21, 19).unwrap().to_string(), corner);
    assert_eq!(
        (world.object(putit).unwrap().x, world.object(putit).unwrap().y),
        (15, 4),
        "objects shift with the grid"
    );
    let shopkeeper_gone =
        world.all_objects().any(|o| o.id == Symbol::intern("elona.shopkeeper") && o.location().is_none());
    assert!(shopkeeper_gone, "the shopkeeper at (8, 5) fell off");
    drop(world);
    // Grown anchored top-left: new cells get the tile.
    apply(
        &runtime,
        &mut history,
        Edit::Resize { map: town, width: 30, height: 25, anchor: (0, 0), tile: "elona.water".into() },
    );
    assert_eq!(tile(&runtime, town, 29, 24), "elona.water");
    history.undo(&mut runtime.world_mut());
    history.undo(&mut runtime.world_mut());
    let world = runtime.world();
    let map = world.map(town).unwrap();
    assert_eq!((map.width(), map.height()), (32, 20));
    assert_eq!(world.object(putit).unwrap().x, 25);
    assert!(
        world.all_objects().any(|o| o.id == Symbol::intern("elona.shopkeeper") && o.x == 8 && o.location().is_some())
    );
    world.check_invariants().unwrap();
}

#[test]
fn maps_are_made_saved_renamed_duplicated_and_deleted_as_files() {
    let copy = DemoCopy::new();
    let runtime = open(&copy);
    let maps = copy.project().join("maps");
    {
        let (mut files, mut world, mut project) = runtime.maps_mut();
        let project = project.as_mut().unwrap();
        files.create(&mut world, project, "cave", 10, 8, "elona.floor_stone").unwrap();
        assert!(files.create(&mut world, project, "cave", 4, 4, "elona.floor_stone").is_err(), "names are unique");
        assert!(files.create(&mut world, project, "../x", 4, 4, "elona.floor_stone").is_err());
        assert_eq!(files.dirty(&world), ["cave"], "a new map is unsaved");
        files.save(&world, project, "cave").unwrap();
        assert!(files.dirty(&world).is_empty());
        assert!(maps.join("cave.ron").is_file());
        files.rename(&mut world, project, "cave", "grotto").unwrap();
        assert!(!maps.join("cave.ron").exists() && maps.join("grotto.ron").is_file());
        files.duplicate(&world, project, "grotto", "grotto_2").unwrap();
        assert!(std::fs::read_to_string(maps.join("grotto_2.ron")).unwrap().contains("name: \"grotto_2\""));
        files.delete(&mut world, project, "grotto").unwrap();
        assert!(!maps.join("grotto.ron").exists() && maps.join("grotto.ron.bak").is_file());
        assert!(files.delete(&mut world, project, "town").is_err(), "the start map stays");
        files.rename(&mut world, project, "town", "village").unwrap();
        assert_eq!(project.manifest.start_map.as_deref(), Some("village"));
    }
    let reopened = nefia_game::project::Project::open(&copy.project()).unwrap();
    assert_eq!(reopened.manifest.start_map.as_deref(), Some("village"), "project.ron follows the rename");
}

#[test]
fn a_prototype_changed_in_the_repl_is_undone_with_the_edit() {
    use nefia_protocol::message::Command;
    use nefia_protocol::repl::Evaluation;
    use nefia_tests::host::{eval, spawn_editing, wait_for};
    let copy = DemoCopy::new();
    let host = spawn_editing(&copy.project());
    let changed = "for _, c in Chara.iter() do if c._id == 'elona.town_guard' then c:change_prototype('elona.yeek') return c.uid end end";
    let Evaluation::Values(uid) = eval(&host, changed) else { panic!("the REPL ran it") };
    wait_for(&host, |s| s.editing.history.labels.iter().any(|l| l.starts_with("REPL: ")));
    let read = format!("for _, c in Chara.iter() do if c.uid == {} then return c._id end end", uid[0]);
    assert_eq!(eval(&host, &read), Evaluation::Values(vec!["\"elona.yeek\"".into()]));
    host.send(Command::Editing(EditingCommand::Undo));
    assert_eq!(
        eval(&host, &read),
        Evaluation::Values(vec!["\"elona.town_guard\"".into()]),
        "undo puts the prototype back"
    );
    host.send(Command::Editing(EditingCommand::Redo));
    assert_eq!(eval(&host, &read), Evaluation::Values(vec!["\"elona.yeek\"".into()]));
}

#[test]
fn a_pasted_mef_on_a_cell_the_rules_gave_one_is_left_out_and_the_paste_is_one_step() {
    let copy = DemoCopy::new();
    let runtime = open(&copy);
    let town = open_map(&runtime, "town");
    // Rules that lay a puddle on every open cell: each such cell has its one mef.
    let rules = "Map.current():apply_autotile({ { name = 'puddles', pattern = { 'tag:floor' },
        object = { mef = 'elona.puddle' } } }, 1)";
    runtime.exec(rules, "test").expect("the rules are laid");
    let mefs = |runtime: &Runtime| {
        let world = runtime.world();
        let map = world.map(town).unwrap();
        map.objects()
            .iter()
            .filter(|&uid| world.object(uid).is_ok_and(|o| o.kind == nefia_game::ObjectKind::Mef))
            .count()
    };
    let laid = mefs(&runtime);
    assert!(laid > 0, "puddles laid");
    let (x, y) = {
        let world = runtime.world();
        let map = world.map(town).unwrap();
        let puddle =
            map.objects().iter().find(|&uid| world.object(uid).is_ok_and(|o| o.kind == nefia_game::ObjectKind::Mef));
        let object = world.object(puddle.unwrap()).unwrap();
        (object.x, object.y)
    };
    let clip = nefia_game::edit::copy_region(&runtime.world(), town, x, y, 1, 1).unwrap();
    assert_eq!(clip.objects.len(), 1, "the puddle is copied");
    let mut history = History::default();
    // Pasted on itself: the cell has its puddle, so the pasted one is left out.
    let label = apply(&runtime, &mut history, Edit::Paste { map: town, x, y, clip: Arc::new(clip) });
    assert!(label.contains("0 objects"), "{label}");
    assert_eq!(mefs(&runtime), laid, "one mef a cell still");
    assert_eq!(history.view().labels.len(), 1, "one step");
}
