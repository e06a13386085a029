//! Save files from Rust: byte-identical round trips and atomic writes, also when the writing
//! process is killed.

use nefia_tests::TestGame;

fn build_a_game(game: &TestGame) {
    game.exec(
        r#"
        local hero = Chara.create("elona.player", 3, 4)
        Chara.set_player(hero)
        hero:mod("fov", 30)
        hero:mod("dv", 2.5, "add")
        hero:equip_item(Item.create("elona.dagger", nil, nil, {}, hero))
        local bag = Item.create("elona.bag", 6, 6)
        Item.create("elona.gold_piece", nil, nil, {}, bag)
        local cave = InstancedMap:new(30, 12, "elona.floor_stone")
        for i = 0, 29 do cave:set_tile(i, 0, "elona.wall_stone") end
        Chara.create("elona.putit", 2, 2, {}, cave).hp = 3
        World.refresh_sight()
        save.test.data = { 1, 2.5, "three", { nested = true }, [10] = "sparse" }
        "#,
    );
}

/// Saves the game as `slot`, renames every putit's prototype to one no mod defines and loads
/// it again, as a save of a removed mod's content would; returns the file's text.
fn load_with_putits_of_a_removed_mod(game: &TestGame) -> String {
    let path = game.runtime.save_game("slot").unwrap();
    let text = std::fs::read_to_string(&path).unwrap().replace("elona.putit", "elona.gone");
    std::fs::write(&path, &text).unwrap();
    game.runtime.load_game("slot").unwrap();
    text
}

#[test]
fn save_load_save_gives_identical_bytes() {
    let game = TestGame::new();
    build_a_game(&game);
    let first = game.runtime.save_game("a").unwrap();
    let first_bytes = std::fs::read(&first).unwrap();
    game.runtime.load_game("a").unwrap();
    let second = game.runtime.save_game("b").unwrap();
    assert_eq!(String::from_utf8(first_bytes).unwrap(), std::fs::read_to_string(second).unwrap());
}

#[test]
fn a_save_file_gives_each_object_one_line() {
    let game = TestGame::new();
    build_a_game(&game);
    let text = std::fs::read_to_string(game.runtime.save_game("a").unwrap()).unwrap();
    let putit = text.lines().find(|line| line.contains("\"elona.putit\"")).expect("the putit's line");
    assert!(putit.contains("kind: chara") && putit.contains("x: 2") && putit.contains("y: 2"), "{putit}");
    let hero = text.lines().find(|line| line.contains("\"elona.player\"")).expect("the hero's line");
    assert!(hero.contains("\"elona.dagger\"") && hero.contains("\"dv\""), "what it holds and its temps too: {hero}");
}

#[test]
fn a_failed_save_leaves_the_previous_file_untouched() {
    let game = TestGame::new();
    build_a_game(&game);
    let path = game.runtime.save_game("slot").unwrap();
    let before = std::fs::read(&path).unwrap();
    game.exec("save.test.cb = print");
    let error = game.runtime.save_game("slot").unwrap_err().to_string();
    assert!(error.contains("save.test.cb"), "{error}");
    assert_eq!(std::fs::read(&path).unwrap(), before);
    let leftovers: Vec<_> = std::fs::read_dir(game.save_dir.path()).unwrap().collect();
    assert_eq!(leftovers.len(), 1, "no temp files are left behind");
}

#[test]
fn a_malformed_save_names_the_file_and_line_and_keeps_the_world() {
    let game = TestGame::new();
    build_a_game(&game);
    std::fs::write(game.save_dir.path().join("broken.ron"), "(\n  format: 1,\n  next_uid: \"x\",\n)").unwrap();
    let error = game.runtime.load_game("broken").unwrap_err().to_string();
    assert!(error.contains("broken.ron:3"), "{error}");
    assert_eq!(game.eval::<String>("Chara.player().name"), "you", "the world is as it was");
}

#[test]
fn a_save_with_an_unknown_prototype_loads_keeps_it_aside_and_saves_it_back() {
    let game = TestGame::new();
    build_a_game(&game);
    let text = load_with_putits_of_a_removed_mod(&game);
    let warned = game.output.borrow().iter().any(|l| l.contains("'elona.gone'") && l.contains("slot.ron"));
    assert!(warned, "the unknown prototype is named: {:?}", game.output.borrow());
    assert_eq!(game.eval::<i64>("Chara.player().x"), 3, "the rest of the game is in play");
    let world = game.runtime.world();
    assert_eq!(world.all_objects().filter(|o| o.id.as_str() == "elona.gone").count(), 0, "it is not in play");
    assert_eq!(world.maps().map(|m| m.unresolved.len()).sum::<usize>(), 1, "it is kept aside");
    drop(world);
    let again = game.runtime.save_game("slot").unwrap();
    assert_eq!(std::fs::read_to_string(again).unwrap(), text, "the unknown object is written back where it was");
}

#[test]
fn a_game_played_on_a_map_with_an_unknown_object_saves_and_loads() {
    let copy = nefia_tests::DemoCopy::new();
    let town = copy.project().join("maps/town.ron");
    let text = std::fs::read_to_string(&town).unwrap();
    let with_unknown = text.replacen("objects: [\n", "objects: [\n        (kind: chara, id: \"gone.ghost\", x: 3, y: 3, inventory: [(kind: item, id: \"gone.coin\", x: 0, y: 0)]),\n", 1);
    assert_ne!(with_unknown, text, "the object was added");
    std::fs::write(&town, &with_unknown).unwrap();
    let mut runtime = nefia_lua::Runtime::open_project(&copy.project(), Box::new(|_| {})).unwrap();
    runtime.start_game().unwrap();
    runtime.save_game("slot").unwrap();
    runtime.load_game("slot").unwrap();
    runtime.save_game("again").unwrap();
    let saves = copy.project().join("saves");
    let (first, second) = (
        std::fs::read_to_string(saves.join("slot.ron")).unwrap(),
        std::fs::read_to_string(saves.join("again.ron")).unwrap(),
    );
    assert_eq!(first, second, "the unknown object is carried through the save and the load");
    assert!(first.contains("gone.ghost") && first.contains("gone.coin"));
    // The map file written from this world still gives it no uid.
    let record =
        runtime.world().map_record(runtime.world().current_map().unwrap(), nefia_game::save::RecordKind::MapFile);
    let written = nefia_game::map_files::map_text(&town, &record.unwrap()).unwrap();
    assert!(
        written.contains(
            "(key: \"#0+\", kind: chara, id: \"gone.ghost\", x: 3, y: 3, inventory: [(key: \"#0+/0\", kind: item, id: \"gone.coin\""
        ),
        "the keyless ghost is keyed by its place, past the door's #0: {written}"
    );
    let reread: nefia_game::save::MapRecord = nefia_game::files::ron_options().from_str(&written).unwrap();
    assert_eq!(nefia_game::object_key::first_repeat(&reread.objects), None, "no key is written twice");
}

#[test]
fn a_save_keeps_the_random_number_generator_where_it_was() {
    let game = TestGame::new();
    build_a_game(&game);
    game.exec("math.randomseed(7) for _ = 1, 5 do math.random() end");
    game.runtime.save_game("dice").unwrap();
    let draw = "local t = {} for i = 1, 6 do t[i] = math.random(1000) end return table.concat(t, ',')";
    let after_save = game.runtime.eval(draw);
    game.runtime.load_game("dice").unwrap();
    assert_eq!(game.runtime.eval(draw), after_save, "the same numbers follow the load");
}

#[test]
fn the_state_hash_is_the_same_for_the_same_game_and_moves_with_any_change() {
    let hash = |game: &TestGame| game.runtime.state_hash().expect("a hash");
    let (a, b) = (TestGame::new(), TestGame::new());
    build_a_game(&a);
    build_a_game(&b);
    let start = hash(&a);
    assert_eq!(start, hash(&b), "two runs of the same game hash the same");
    // Each change is compared with the state just before it: compared with the start, every
    // change after the first would pass by the first one's difference alone.
    let mut previous = start;
    for change in [
        "Chara.player():mod('dv', 1, 'add')",
        "Chara.player().hp = 1",
        "Map.current():set_tile(0, 0, 'elona.water')",
        "save.elona.kills = 3",
        "math.random()",
        "World.pass_turn()",
    ] {
        b.exec(change);
        let changed = hash(&b);
        assert_ne!(changed, previous, "{change} moved the hash");
        previous = changed;
    }
    a.runtime.save_game("hashed").unwrap();
    let before = hash(&a);
    a.runtime.load_game("hashed").unwrap();
    assert_eq!(hash(&a), before, "a load gives back the state it saved");
}

#[test]
fn a_save_refused_by_its_check_names_the_line_of_the_problem() {
    let game = TestGame::new();
    build_a_game(&game);
    // Well-formed RON, refused only once read: its text is read again to find the line.
    let save = include_str!("../bad_inputs/saves/duplicate_object_uid/save.ron");
    std::fs::write(game.save_dir.path().join("twice.ron"), save).unwrap();
    let error = game.runtime.load_game("twice").unwrap_err().to_string();
    assert!(error.contains("twice.ron:28: uid 2 is given to two objects"), "{error}");
    assert_eq!(game.eval::<String>("Chara.player().name"), "you", "the world is as it was");
}

#[test]
fn a_save_written_from_the_live_world_is_its_record_written() {
    use nefia_game::save::{read_save, write_save};
    let game = TestGame::new();
    build_a_game(&game);
    // An object kept aside before another, as a save with a removed mod's putit gives.
    game.exec(
        "local den = InstancedMap:new(8, 8, 'elona.floor_stone') Chara.create('elona.putit', 1, 1, {}, den) \
         Item.create('elona.gold_piece', 2, 2, {}, den)",
    );
    load_with_putits_of_a_removed_mod(&game);
    let tables = nefia_lua::save::save_tables(game.runtime.lua()).unwrap();
    let (record, live) = (game.save_dir.path().join("record.ron"), game.save_dir.path().join("live.ron"));
    let world = game.runtime.world();
    assert_eq!(world.maps().map(|m| m.unresolved.len()).sum::<usize>(), 2, "two putits are kept aside");
    write_save(&record, &world.save_game(tables.clone())).unwrap();
    write_save(&live, &world.live_save_game(tables)).unwrap();
    assert_eq!(std::fs::read_to_string(&live).unwrap(), std::fs::read_to_string(&record).unwrap());
    // Read back, an inventory holds no room to spare (a list grown while read kept room for
    // four records).
    let save = read_save(&live).unwrap();
    let held = save.maps.iter().flat_map(|m| &m.objects).map(|o| &o.inventory).filter(|i| !i.is_empty());
    let held: Vec<_> = held.map(|i| (i.len(), i.capacity())).collect();
    assert!(!held.is_empty() && held.iter().all(|(len, capacity)| len == capacity), "{held:?}");
}

/// Lua that defines `nest(n)`: a table whose tables nest `n` deep, and `depth(t)` measuring one.
const NESTING: &str = r#"
    function nest(n) local t = { leaf = "here" } for _ = 2, n do t = { t } end return t end
    function depth(t) if type(t) ~= "table" then return 0 end local d = 0
        for _, v in pairs(t) do d = math.max(d, depth(v)) end return d + 1 end
"#;

#[test]
fn values_nested_to_the_limit_are_saved_and_loaded_again_in_every_kind_of_file() {
    let game = TestGame::new();
    build_a_game(&game);
    game.exec(NESTING);
    // `save.test` is a table itself: its `deep` entry 63 deep makes the mod's table 64 deep.
    game.exec(
        r#"
        save.test.deep = nest(63)
        local hero = Chara.player()
        hero.deep = nest(64)
        local cave = InstancedMap:new(5, 5, "elona.floor_stone")
        Chara.create("elona.putit", 1, 1, {}, cave).deep = nest(64)
        Map.save(cave)
        saved_cave = cave.uid
        "#,
    );
    game.runtime.save_game("deep").expect("the save is written");
    game.exec("save.test.deep = nil; Chara.player().deep = nil");
    game.runtime.load_game("deep").expect("a save the writer wrote is read again");
    assert_eq!(game.eval::<i64>("depth(save.test)"), 64);
    assert_eq!(game.eval::<i64>("depth(Chara.player().deep)"), 64);
    game.exec("local ok, map = Map.load(saved_cave) assert(ok, map) loaded_cave = map");
    assert_eq!(game.eval::<i64>("depth(Chara.iter(loaded_cave):nth(1).deep)"), 64, "Map.save's file too");
}

#[test]
fn a_value_one_table_deeper_than_the_limit_is_refused_by_name_and_the_save_kept() {
    let game = TestGame::new();
    build_a_game(&game);
    game.exec(NESTING);
    let path = game.runtime.save_game("slot").unwrap();
    let before = std::fs::read(&path).unwrap();
    game.exec("save.test.deep = nest(64)");
    let error = game.runtime.save_game("slot").unwrap_err().to_string();
    assert!(
        error.contains("save.test.deep") && error.contains("over 64 deep"),
        "names the path and the limit: {error}"
    );
    assert_eq!(std::fs::read(&path).unwrap(), before, "the previous save is untouched");
    let field = game.runtime.exec("Chara.player().deep = nest(65)", "test").unwrap_err().to_string();
    assert!(field.contains("over 64 deep"), "an object's field is refused as it is set: {field}");
}

#[test]
fn a_save_with_a_table_nested_deeper_than_nefia_writes_is_refused_naming_its_line() {
    let game = TestGame::new();
    build_a_game(&game);
    let path = game.runtime.save_game("slot").unwrap();
    let text = std::fs::read_to_string(&path).unwrap();
    let deep = format!("{}1{}", "[".repeat(65), "]".repeat(65));
    let edited = text.replacen("\"sparse\"", &format!("\"sparse\", 11: {deep}"), 1);
    assert_ne!(edited, text, "the save names the test's sparse entry");
    std::fs::write(&path, edited).unwrap();
    let error = game.runtime.load_game("slot").unwrap_err().to_string();
    assert!(error.contains("mods.test nests tables 67 deep, more than the 64"), "{error}");
}

#[test]
fn opening_a_project_removes_the_temp_files_of_a_killed_save_and_nothing_else() {
    let demo = nefia_tests::DemoCopy::new();
    let saves = demo.project().join("saves");
    std::fs::create_dir_all(&saves).unwrap();
    let leftover = saves.join(".slot.ron.999999999.tmp");
    let ours_not = saves.join("notes.tmp");
    std::fs::write(&leftover, "(format: 1, half a sa").unwrap();
    std::fs::write(&ours_not, "a player's own file").unwrap();
    let runtime = nefia_lua::Runtime::open_project(&demo.project(), Box::new(|_| {})).expect("the demo opens");
    assert!(!leftover.exists(), "the killed write's temp file is gone");
    assert!(ours_not.exists(), "a file that is not Nefia's stays");
    drop(runtime);
}

#[test]
fn a_project_map_file_and_a_recording_hold_values_at_the_depth_limit() {
    use nefia_game::recording::Recording;
    use nefia_game::save::{MapRecord, RecordKind};
    let demo = nefia_tests::DemoCopy::new();
    let mut runtime = nefia_lua::Runtime::open_project(&demo.project(), Box::new(|_| {})).expect("the demo opens");
    runtime.start_game().expect("the game starts");
    runtime.exec(NESTING, "test").unwrap();
    runtime.exec("Chara.create('elona.putit', 1, 1).deep = nest(64) save.elona.deep = nest(63)", "test").unwrap();
    let path = {
        let (mut files, world, project) = runtime.maps_mut();
        files.save(&world, project.as_ref().expect("a project"), "town").expect("the map file is written")
    };
    let record: MapRecord = nefia_game::files::read_ron(&path).expect("the map file is read again");
    nefia_game::validate::check_map_record(&runtime.world(), &record, RecordKind::MapFile).expect("and checks");
    let deepest = record.objects.iter().filter_map(|o| o.fields.iter().map(|(_, v)| v.table_depth()).max()).max();
    assert_eq!(deepest, Some(64));

    // A recording's start holds the game as a save does, one level further in.
    let mods = nefia_lua::save::save_tables(runtime.lua()).expect("the save tables");
    let start = runtime.world().save_game(mods);
    let recording = Recording {
        format: nefia_game::recording::RECORDING_FORMAT,
        project: "demo".into(),
        made: "2026-12-04 19:00:00".into(),
        files: Default::default(),
        began: "start map town".into(),
        seed: 1,
        saves: [("deep".to_owned(), start.clone())].into(),
        start,
        inputs: Vec::new(),
        turns: Vec::new(),
        branches: Vec::new(),
        stopped_back_at: None,
        fuzz: None,
        error: None,
    };
    let file = demo.project().join("recordings/deep.ron");
    recording.write(&file).expect("the recording is written");
    assert_eq!(Recording::read(&file).expect("and read again"), recording);
}

/// Where the saver child process saves: the project, in this variable.
const SAVER_PROJECT: &str = "NEFIA_SAVER_PROJECT";

/// Saves, counting up, forever; says when the first save is written. The world is made
/// large so each write takes a while.
const SAVER: &str = r#"
local map = InstancedMap:new(200, 200)
for i = 1, 3000 do Item.create("elona.gold_piece", i % 200, i // 200, {}, map) end
local n = 0
while true do
   n = n + 1
   save.crash.counter = n
   Save.save_game("slot")
   if n == 1 then print("ready") end
end
"#;

/// The child process: the project's game, saving over and over until it is killed (as
/// `nefia run` would run [`SAVER`]).
#[test]
#[ignore = "the saver the kill test runs as a child process"]
fn saver() {
    use std::io::Write;
    let Ok(project) = std::env::var(SAVER_PROJECT) else { return };
    let output = |line: nefia_protocol::output::Output| {
        if let nefia_protocol::output::Output::Print(text) = line {
            let mut stdout = std::io::stdout().lock();
            writeln!(stdout, "{text}").and_then(|()| stdout.flush()).expect("the parent reads");
        }
    };
    let mut runtime = nefia_lua::Runtime::open_project(std::path::Path::new(&project), Box::new(output)).unwrap();
    runtime.start_game().unwrap();
    runtime.exec(SAVER, "saver").unwrap();
}

/// A process saving a game over and over is killed with SIGKILL 20 times (or more, until at
/// least three kills landed in the middle of a write, leaving a temp file): in turn at a
/// random moment, and the moment a write's temp file appears; each time the save file left
/// behind loads (the old one or the new one, whole), and the temp files of killed writes are
/// cleared by the next save.
#[test]
fn a_save_killed_at_any_moment_leaves_a_loadable_file() {
    use std::time::Duration;
    let copy = nefia_tests::DemoCopy::new();
    let project = copy.project();
    let mut last_counter = 0;
    let mut seed: u64 = 0x5eed;
    // Kills that landed during a write: what the test is about, so some must have.
    let mut mid_write = 0;
    let temps = || {
        std::fs::read_dir(project.join("saves"))
            .map(|dir| dir.flatten().filter(|e| e.file_name().to_string_lossy().ends_with(".tmp")).count())
            .unwrap_or(0)
    };
    // Told of every temp file a write creates in the saves folder.
    let (created, writes) = std::sync::mpsc::channel();
    let mut watcher = notify::recommended_watcher(move |event: notify::Result<notify::Event>| {
        if let Ok(event) = event
            && event.kind.is_create()
            && event.paths.iter().any(|p| p.to_string_lossy().ends_with(".tmp"))
        {
            let _ = created.send(());
        }
    })
    .expect("a file watcher");
    std::fs::create_dir_all(project.join("saves")).unwrap();
    notify::Watcher::watch(&mut watcher, &project.join("saves"), notify::RecursiveMode::NonRecursive)
        .expect("the saves folder is watched");
    let mut rounds = 0;
    for round in 0..80 {
        if round >= 20 && mid_write >= 3 {
            break;
        }
        rounds += 1;
        let child = nefia_tests::ScriptedChild::start("saver", SAVER_PROJECT, &project, Duration::from_secs(60));
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        if round % 2 == 0 {
            std::thread::sleep(Duration::from_millis(seed >> 33 & 0x1ff));
        } else {
            // The moment the next write begins.
            while writes.try_recv().is_ok() {}
            writes.recv_timeout(Duration::from_secs(30)).expect("the saver writes again");
        }
        // SIGKILL: no destructor, no flush, nothing runs.
        child.kill();
        if temps() > 0 {
            mid_write += 1;
        }

        let mut runtime = nefia_lua::Runtime::open_project(&project, Box::new(|_| {})).unwrap();
        runtime.start_game().unwrap();
        runtime.load_game("slot").unwrap_or_else(|e| panic!("round {round}: the save does not load: {e}"));
        let values = runtime.exec("return save.crash.counter", "test").unwrap();
        let counter: i64 = runtime.lua().unpack_multi(values).unwrap();
        assert!(counter >= 1, "round {round}: a whole save");
        last_counter = counter.max(last_counter);
    }
    assert!(last_counter >= 1);
    println!("{mid_write} of {rounds} kills landed during a write");
    assert!(mid_write >= 3, "only {mid_write} kill(s) landed during a write: the test tried too little");
    // The next save clears what the killed writes left.
    let runtime = nefia_lua::Runtime::open_project(&project, Box::new(|_| {})).unwrap();
    runtime.save_game("slot").unwrap();
    let leftovers: Vec<_> = std::fs::read_dir(project.join("saves"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temp files left: {leftovers:?}");
}
