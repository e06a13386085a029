//! Map generators: the same seed gives the same map file on every run and with any number
//! of scan workers; params are checked against the generator's schema; generating leaves the
//! game's random numbers as they were; the validators find a stair planted out of reach and an
//! object left on a wall.

use nefia_game::value::Value;
use nefia_host::generate::{Scan, generate_file, scan};
use nefia_lua::Runtime;
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::mods::ModCommand;
use nefia_protocol::output::Output;
use nefia_protocol::play::PlayCommand;
use nefia_protocol::workbench::WorkbenchCommand;
use nefia_tests::repo_root;

fn demo() -> std::path::PathBuf {
    repo_root().join("projects/demo")
}

fn runtime() -> Runtime {
    Runtime::open_project(&demo(), Box::new(|_: Output| {})).expect("the demo opens")
}

fn strings(runtime: &Runtime, code: &str) -> Vec<String> {
    let values = runtime.exec(code, "test").unwrap_or_else(|f| panic!("{f}"));
    values.into_iter().map(|v| v.to_string().unwrap_or_default()).collect()
}

#[test]
fn the_same_seed_gives_the_same_map_file_and_another_seed_another() {
    for generator in ["elona.dungeon", "elona.cave"] {
        let first = generate_file(&demo(), generator, &Value::Nil, 12).expect("it generates");
        let again = generate_file(&demo(), generator, &Value::Nil, 12).expect("it generates");
        assert_eq!(first, again, "{generator}: byte-identical");
        assert!(first.contains("elona.stairs_down"), "{generator}: it has stairs down");
        let other = generate_file(&demo(), generator, &Value::Nil, 13).expect("it generates");
        assert_ne!(first, other, "{generator}: another seed, another map");
    }
    let small: Value = ron::from_str("{\"width\": 30, \"height\": 16, \"monsters\": 0}").unwrap();
    let text = generate_file(&demo(), "elona.cave", &small, 1).expect("params given");
    assert!(text.contains("width: 30,") && text.contains("height: 16,"), "the params size the map");
    assert!(!text.contains("elona.putit"), "no monsters asked for");
}

#[test]
fn a_generator_validator_or_scan_predicate_that_reads_the_clock_is_refused_naming_the_line() {
    let copy = nefia_tests::DemoCopy::new();
    let init = copy.mod_file("elona/init.lua");
    let mut text = std::fs::read_to_string(&init).expect("the mod's init");
    text.push_str(
        "\ndata:add { _type = 'base.map_generator', _id = 'timed',
            generate = function(map, params, rng)
                map:set_tile(0, 0, 'elona.water')
                local noon = os.time({ year = 2000, month = 1, day = 1, hour = 12 })
                if os.date('%H', noon) ~= '12' then error('a given time is no clock') end
                local now = os.time()
            end }
        data:add { _type = 'base.map_validator', _id = 'timed_check',
            validate = function(map) return true, { { x = 0, y = 0, message = os.clock() } } end }\n",
    );
    nefia_tests::write(&init, text).expect("written");
    let runtime = Runtime::open_project(&copy.project(), Box::new(|_: Output| {})).expect("the copy opens");
    let failure = runtime.exec("Map.generate('elona.timed', nil, 1)", "test").expect_err("the clock is refused");
    assert!(failure.message.contains("init.lua:"), "the line is named: {failure}");
    assert!(failure.message.contains(": os.time() reads the wall clock, which a map generator may not"), "{failure}");
    assert!(failure.message.contains("rng:random"), "it says what to do instead: {failure}");
    // One seed, one file: a generator that took the clock would have made two.
    let first = generate_file(&demo(), "elona.cave", &Value::Nil, 5).expect("it generates");
    std::thread::sleep(std::time::Duration::from_millis(1100));
    assert_eq!(first, generate_file(&demo(), "elona.cave", &Value::Nil, 5).expect("it generates"));
    // A validator is refused the clock too; the refusal is a problem it reports.
    let said = strings(
        &runtime,
        "local map = Map.generate('elona.cave', nil, 1) local out = {}
         for _, p in ipairs(Map.validate(map)) do out[#out + 1] = p.message end return table.concat(out, '|')",
    );
    assert!(said[0].contains("os.clock() reads the wall clock, which a map validator may not"), "{said:?}");
    // Outside generation the clock is the game's as before.
    assert_eq!(strings(&runtime, "return type(os.time())"), ["number"]);
    // And a scan's --where expression.
    let asked = Scan {
        generator: "elona.cave".into(),
        seeds: nefia_host::seeds::Seeds::range(1, 2),
        predicate: Some("os.time() > 0".into()),
        jobs: 1,
        ..Default::default()
    };
    let refused = scan(&demo(), &asked, &Default::default()).expect_err("the clock is refused");
    assert!(refused.to_string().contains("which a --where predicate may not"), "{refused}");
}

/// A Lua expression over `map`: a checksum of every tile and object, so two workers' maps of a
/// seed can be compared cell for cell.
const FINGERPRINT: &str = "(function()
    local h = 0
    local function add(s) for i = 1, #s do h = (h * 31 + s:byte(i)) % 2147483647 end end
    for y = 0, map.height - 1 do for x = 0, map.width - 1 do add(map:tile(x, y)) end end
    for _, o in map:iter() do add(o._id .. o.x .. ',' .. o.y) end
    return h
end)()";

#[test]
fn a_scan_finds_what_a_sequential_loop_finds_with_one_or_two_workers() {
    let predicate = "map.entrance[1] < 40";
    let runtime = runtime();
    let sequential: Vec<(i64, String)> = (1..=40)
        .filter_map(|seed| {
            let found = strings(
                &runtime,
                &format!(
                    "local map = Map.generate('elona.dungeon', nil, {seed}) return tostring({predicate}), {FINGERPRINT}"
                ),
            );
            (found[0] == "true").then(|| (seed, found[1].clone()))
        })
        .collect();
    assert!(!sequential.is_empty() && sequential.len() < 40, "the predicate keeps some: {sequential:?}");
    for jobs in [1, 2] {
        let asked = Scan {
            generator: "elona.dungeon".into(),
            params: Value::Nil,
            seeds: nefia_host::seeds::Seeds::range(1, 40),
            predicate: Some(predicate.into()),
            metrics: vec![("x".into(), "map.entrance[1]".into()), ("fingerprint".into(), FINGERPRINT.into())],
            jobs,
        };
        let report = scan(&demo(), &asked, &Default::default()).expect("the scan runs");
        assert_eq!(report.scanned, 40);
        let found: Vec<(i64, String)> = report.matches.iter().map(|m| (m.seed, m.metrics[1].clone())).collect();
        assert_eq!(found, sequential, "{jobs} jobs: the same seeds, each the same map cell for cell");
        assert!(report.matches.iter().all(|m| m.metrics[0].parse::<i64>().is_ok_and(|x| x < 40)));
    }
}

#[test]
fn params_are_checked_and_generating_leaves_the_games_random_numbers_as_they_were() {
    let runtime = runtime();
    let error = |code: &str| runtime.exec(code, "test").expect_err("refused").message;
    assert!(
        error("Map.generate('elona.cave', { fil = 0.5 }, 1)")
            .contains("does not accept parameter 'fil'\nits params: fill, height")
    );
    assert!(
        error("Map.generate('elona.cave', { fill = 3 }, 1)")
            .contains("received invalid value for parameter 'fill': 3 is outside 0.2..0.7")
    );
    assert!(
        error("Map.generate('elona.cave', { steps = 'many' }, 1)")
            .contains("received invalid value for parameter 'steps': Value is not of type \"int\": \"many\"")
    );
    assert!(error("Map.generate('elona.nowhere', nil, 1)").contains("there is no map generator 'elona.nowhere'"));
    let maps = strings(&runtime, "local n = 0 for _ in Map.iter() do n = n + 1 end return n");
    let after = strings(&runtime, "math.randomseed(5) Map.generate('elona.cave', nil, 9) return math.random(1000000)");
    let without = strings(&runtime, "math.randomseed(5) return math.random(1000000)");
    assert_eq!(after, without, "the game's sequence went on as if nothing had been generated");
    let count = strings(&runtime, "local n = 0 for _ in Map.iter() do n = n + 1 end return n");
    assert_eq!(count[0].parse::<i64>().unwrap(), maps[0].parse::<i64>().unwrap() + 1, "one map made, not current");
}

#[test]
fn the_validators_find_a_stair_out_of_reach_and_an_object_on_a_wall() {
    let runtime = runtime();
    let problems = strings(
        &runtime,
        "local map = InstancedMap:new(12, 10, 'base.floor')
         map.entrance = { 1, 1 }
         for x = 6, 8 do for y = 5, 7 do if x ~= 7 or y ~= 6 then map:set_tile(x, y, 'base.wall') end end end
         Feat.create('elona.stairs_down', 7, 6, {}, map)
         Feat.create('elona.stairs_up', 2, 2, {}, map)
         Item.create('elona.dagger', 3, 3, {}, map)
         map:set_tile(3, 3, 'base.wall')
         local lines = {}
         for _, p in ipairs(Map.validate(map)) do lines[#lines + 1] = ('%s (%d, %d): %s'):format(p.validator, p.x, p.y, p.message) end
         table.sort(lines)
         return table.concat(lines, '\\n')",
    );
    assert_eq!(
        problems[0],
        "base.nothing_on_walls (3, 3): elona.dagger stands on base.wall\n\
         base.stairs_reachable (7, 6): elona.stairs_down cannot be reached from the entrance"
    );
    let generated = strings(&runtime, "return #Map.validate(Map.generate('elona.dungeon', nil, 4))");
    assert_eq!(generated, ["0"], "a generated floor passes");
}

#[test]
fn nefia_check_runs_the_validators_on_the_projects_maps() {
    let copy = nefia_tests::DemoCopy::new();
    let walled = "(
    name: \"walled\",
    width: 7,
    height: 5,
    palette: {\"#\": \"elona.wall_stone\", \".\": \"elona.floor_stone\"},
    tiles: [
        \"#######\",
        \"#..#.##\",
        \"#..####\",
        \"#...###\",
        \"#######\",
    ],
    entrance: (1, 1),
    objects: [
        (kind: feat, id: \"elona.stairs_down\", x: 4, y: 1),
    ],
)
";
    nefia_tests::write(copy.project().join("maps/walled.ron"), walled).unwrap();
    let problems = nefia_host::check::check_project(&copy.project(), std::time::Duration::from_secs(10));
    let messages: Vec<String> = problems.iter().map(|p| format!("{}: {}", p.file.display(), p.message)).collect();
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert!(
        messages[0].ends_with(
            "walled.ron: (4, 1): elona.stairs_down cannot be reached from the entrance [base.stairs_reachable]"
        ),
        "{messages:?}"
    );
}

#[test]
fn the_workbench_previews_a_seed_and_a_hotload_regenerates_it_with_a_diff() {
    use nefia_protocol::message::Command;
    use nefia_tests::host::{spawn_editing, wait_for};
    let copy = nefia_tests::DemoCopy::new();
    let host = spawn_editing(&copy.project());
    let town = wait_for(&host, |s| s.map.is_some()).map.as_ref().map(|m| m.id).expect("the start map");
    host.send(Command::Workbench(WorkbenchCommand::Preview {
        generator: "elona.cave".into(),
        params: Value::Nil,
        seed: 5,
    }));
    let shown = wait_for(&host, |s| s.preview.is_some());
    let preview = shown.preview.clone().unwrap();
    assert_eq!((preview.generator.as_str(), preview.seed, preview.diff.clone()), ("elona.cave", 5, None));
    let problems = wait_for(&host, |s| s.maps.problems.map == preview.map).maps.problems.clone();
    assert!(problems.problems.is_empty(), "{problems:?}");
    let shown = wait_for(&host, |s| s.map.as_ref().is_some_and(|m| Some(m.id) == preview.map));
    assert_eq!(shown.map.as_ref().map(|m| m.name.as_str()), Some("elona.cave #5"), "the viewport shows it");

    // The generator changes: saving its file regenerates the same seed and tells what changed.
    let file = copy.mod_file("elona/content/generators.lua");
    let text = std::fs::read_to_string(&file).unwrap();
    let changed = text.replacen("steps = { type = \"int\", default = 4,", "steps = { type = \"int\", default = 1,", 1);
    assert_ne!(text, changed);
    nefia_tests::write(&file, changed).unwrap();
    host.send(Command::Mods(ModCommand::Reload(file.clone())));
    let after = wait_for(&host, |s| s.preview.as_ref().is_some_and(|p| p.diff.is_some()));
    let diff = after.preview.as_ref().and_then(|p| p.diff.clone()).unwrap();
    assert!(diff.tiles > 0 && !diff.cells.is_empty(), "the cells that changed: {diff:?}");
    assert_eq!(after.preview.as_ref().map(|p| p.seed), Some(5), "the same seed");
    // Reloaded again by name (as Reload mod does, or after the watcher), nothing changes,
    // and what the hotload that did change showed stays.
    let generation = after.preview.as_ref().map_or(0, |p| p.generation);
    host.send(Command::Mods(ModCommand::Reload(file.clone())));
    let again = wait_for(&host, |s| s.preview.as_ref().is_some_and(|p| p.generation > generation));
    assert_eq!(again.preview.as_ref().and_then(|p| p.diff.clone()), Some(diff), "the last change stays shown");

    host.send(Command::Workbench(WorkbenchCommand::Close));
    let closed = wait_for(&host, |s| s.preview.is_none());
    assert_eq!(closed.map.as_ref().map(|m| m.id), Some(town), "the map current before is back");

    // Baked, a preview is one of the project's maps, in its file.
    host.send(Command::Workbench(WorkbenchCommand::Preview {
        generator: "elona.dungeon".into(),
        params: Value::Nil,
        seed: 3,
    }));
    wait_for(&host, |s| s.preview.is_some());
    host.send(Command::Workbench(WorkbenchCommand::Bake("level_one".into())));
    // The bake is told with its path, and the workbench goes on with the same seed.
    let baked = wait_for(&host, |s| s.preview.as_ref().is_some_and(|p| p.baked.is_some()));
    let told = baked.preview.as_ref().and_then(|p| p.baked.clone()).unwrap_or_default();
    assert!(told.ends_with("level_one.ron"), "{told}");
    assert_eq!(baked.preview.as_ref().map(|p| (p.seed, p.diff.is_none())), Some((3, true)));
    assert!(
        baked.maps.files.iter().any(|m| m.name == "level_one" && m.map.is_some()),
        "the baked map is the project's"
    );
    let text = std::fs::read_to_string(copy.project().join("maps/level_one.ron")).expect("the file is written");
    let generated = generate_file(&demo(), "elona.dungeon", &Value::Nil, 3).unwrap();
    assert_eq!(text.replacen("name: \"level_one\"", "name: \"elona.dungeon #3\"", 1), generated, "the seed's map");
}

#[test]
fn the_dungeons_stairs_lead_into_generated_floors_kept_once_made() {
    let runtime = runtime();
    runtime.open_start_map().expect("the start map");
    // A new game's seed is random unless asked for: the floors are made from it, and on some
    // a monster stands on the stairs the player arrives at.
    runtime.engine().set_next_seed(Some(7));
    let edit =
        nefia_host::play::EditState::begin(&runtime, nefia_protocol::play::PlayFrom::Start).expect("play starts");
    let went = strings(
        &runtime,
        "local Rules = require('mod.elona.game.rules')
         local p = Chara.player()
         local dungeon = Map.open('dungeon')
         dungeon:take_object(p, 34, 20)
         Map.set_map(dungeon)
         local names = {}
         local function down()
            Rules.take_stairs(p)
            names[#names + 1] = Map.current().name
         end
         down()
         local second = Map.current()
         assert(#Map.validate(second) == 0, 'a generated floor passes the validators')
         for _, feat in Feat.iter(second) do
            if feat._id == 'elona.stairs_down' then p:set_pos(feat.x, feat.y) end
         end
         down()
         Rules.take_stairs(p) -- up: the player arrived on the stairs up
         names[#names + 1] = Map.current().name
         names[#names + 1] = tostring(Map.current() == second)
         -- Back on the second floor's stairs down: up is across the floor.
         for _, feat in Feat.iter(second) do
            if feat._id == 'elona.stairs_up' then p:set_pos(feat.x, feat.y) end
         end
         Rules.take_stairs(p)
         names[#names + 1] = Map.current().name
         return table.concat(names, ',')",
    );
    assert_eq!(went, ["dungeon 2,dungeon 3,dungeon 2,true,dungeon"], "down twice, up twice, the floors kept");
    edit.restore(&runtime).expect("the edit state comes back");
}

/// The text of the demo copy's map file `name`.
fn map_file(copy: &nefia_tests::DemoCopy, name: &str) -> String {
    std::fs::read_to_string(copy.project().join(format!("maps/{name}.ron"))).expect("the map file")
}

#[test]
fn a_baked_map_records_its_generator_and_regenerates_after_the_code_changed() {
    use nefia_game::edit::Edit;
    use nefia_protocol::maps::MapCommand;
    use nefia_protocol::message::{Command, HostEvent};
    use nefia_tests::host::{event, spawn_editing, wait_for};
    let copy = nefia_tests::DemoCopy::new();
    let host = spawn_editing(&copy.project());
    let town = host.snapshot().map.as_ref().map(|m| m.id).unwrap();
    host.send(Command::Workbench(WorkbenchCommand::Preview {
        generator: "elona.dungeon".into(),
        params: Value::Nil,
        seed: 3,
    }));
    wait_for(&host, |s| s.preview.is_some());
    host.send(Command::Workbench(WorkbenchCommand::Bake("level_one".into())));
    let baked = wait_for(&host, |s| {
        s.preview.as_ref().is_some_and(|p| p.baked.is_some()) && s.maps.files.iter().any(|m| m.name == "level_one")
    });
    let view = baked.maps.files.iter().find(|m| m.name == "level_one").unwrap();
    assert_eq!(view.generated, Some(("elona.dungeon".to_owned(), 3)), "the Maps pane knows how it was made");
    let map = view.map.unwrap();
    let first = map_file(&copy, "level_one");
    assert!(
        first.contains("generated: (\n        generator: \"elona.dungeon\",\n        params: {\"doors\": 0.6,")
            && first.contains("seed: 3,"),
        "the file records generator, params and seed:\n{first}"
    );

    // The generator's code changes; regenerating makes the map as the new code does.
    let file = copy.mod_file("elona/content/generators.lua");
    let text = std::fs::read_to_string(&file).unwrap();
    let changed = text.replacen("max_leaf = params.max_room }", "max_leaf = params.max_room + 6 }", 1);
    assert_ne!(text, changed);
    nefia_tests::write(&file, changed).unwrap();
    host.send(Command::Mods(ModCommand::Reload(file)));
    host.send(Command::Editing(EditingCommand::Edit(Edit::Regenerate { map })));
    let regenerated = wait_for(&host, |s| s.editing.history.labels.iter().any(|l| l.contains("Regenerate")));
    let label = regenerated.editing.history.labels.iter().find(|l| l.contains("Regenerate")).cloned();
    assert_eq!(label.as_deref(), Some("Regenerate map 'level_one' (elona.dungeon seed 3)"));
    wait_for(&host, |s| s.maps.files.iter().any(|m| m.name == "level_one" && m.dirty));
    host.send(Command::Maps(MapCommand::Save(Some("level_one".into()))));
    wait_for(&host, |s| s.maps.files.iter().any(|m| m.name == "level_one" && !m.dirty));
    let now = map_file(&copy, "level_one");
    let expected = generate_file(&copy.project(), "elona.dungeon", &Value::Nil, 3).unwrap();
    assert_eq!(now, expected.replacen("name: \"elona.dungeon #3\"", "name: \"level_one\"", 1), "the new code's map");
    assert_ne!(now, first, "the code change changed the map");

    // Undo brings the old map back, objects and all.
    host.send(Command::Editing(EditingCommand::Undo));
    wait_for(&host, |s| s.maps.files.iter().any(|m| m.name == "level_one" && m.dirty));
    host.send(Command::Maps(MapCommand::Save(Some("level_one".into()))));
    wait_for(&host, |s| s.maps.files.iter().any(|m| m.name == "level_one" && !m.dirty));
    assert_eq!(map_file(&copy, "level_one"), first, "undone, the map is as baked");

    // A map no generator made says so.
    host.send(Command::Editing(EditingCommand::Edit(Edit::Regenerate { map: town })));
    let refused = event(&host, &mut Vec::new(), |e| match e {
        HostEvent::Refused(refused) => Some(refused.message.clone()),
        _ => None,
    });
    assert!(refused.contains("was not made by a generator"), "{refused}");
}

#[test]
fn the_validators_check_the_map_being_painted() {
    use nefia_game::edit::Edit;
    use nefia_protocol::message::Command;
    use nefia_tests::host::{spawn_editing, wait_for};
    let copy = nefia_tests::DemoCopy::new();
    let host = spawn_editing(&copy.project());
    host.send(Command::Maps(nefia_protocol::maps::MapCommand::Open("dungeon".into())));
    let open = wait_for(&host, |s| {
        s.map.as_ref().is_some_and(|m| m.name == "dungeon") && !s.maps.problems.stale && s.maps.problems.map.is_some()
    });
    assert!(open.maps.problems.problems.is_empty(), "the demo's dungeon is fine: {:?}", open.maps.problems.problems);
    let map = open.map.as_ref().unwrap().id;
    // A wall painted under the stairs down at (34, 20) leaves them standing on a wall.
    host.send(Command::Editing(EditingCommand::Edit(Edit::PaintTiles {
        map,
        cells: vec![(34, 20)],
        tile: "elona.wall_stone".into(),
    })));
    let painted = wait_for(&host, |s| !s.maps.problems.stale && !s.maps.problems.problems.is_empty());
    let problems: Vec<String> = painted.maps.problems.problems.iter().map(|p| p.to_string()).collect();
    assert_eq!(
        problems,
        ["(34, 20): elona.stairs_down stands on elona.wall_stone [base.nothing_on_walls]"],
        "the problem is found as the map is painted"
    );
    host.send(Command::Editing(EditingCommand::Undo));
    let undone = wait_for(&host, |s| !s.maps.problems.stale && s.maps.problems.problems.is_empty());
    assert_eq!(undone.maps.problems.map, Some(map), "undone, the problem is gone");
}

/// A demo copy's host showing the workbench's preview of `elona.cave` at seed 8, with the
/// snapshot that first shows it.
fn previewing_a_cave() -> (nefia_tests::DemoCopy, nefia_host::HostHandle, std::sync::Arc<nefia_protocol::view::Snapshot>)
{
    use nefia_protocol::message::Command;
    let copy = nefia_tests::DemoCopy::new();
    let host = nefia_tests::host::spawn_editing(&copy.project());
    host.send(Command::Workbench(WorkbenchCommand::Preview {
        generator: "elona.cave".into(),
        params: Value::Nil,
        seed: 8,
    }));
    let shown = nefia_tests::host::wait_for(&host, |s| s.preview.is_some());
    (copy, host, shown)
}

#[test]
fn play_this_plays_the_preview_and_stop_comes_back_to_it() {
    use nefia_protocol::message::Command;
    use nefia_protocol::play::PlayFrom;
    use nefia_tests::host::wait_for;
    let (copy, host, shown) = previewing_a_cave();
    let preview = shown.preview.as_ref().and_then(|p| p.map).unwrap();
    host.send(Command::Play(PlayCommand::Start(PlayFrom::Map(preview))));
    let playing = wait_for(&host, |s| s.play.playing && s.player.is_some());
    assert_eq!(playing.map.as_ref().map(|m| m.id), Some(preview), "the game is played on the preview");
    let at = nefia_tests::host::eval(&host, "local p = Chara.player() return p.x, p.y");
    let nefia_protocol::repl::Evaluation::Values(at) = at else { panic!("{at:?}") };
    let expected = generate_file(&copy.project(), "elona.cave", &Value::Nil, 8).unwrap();
    let (x, y) = (&at[0], &at[1]);
    assert!(expected.contains(&format!("entrance: ({x}, {y})")), "the player is at the entrance ({x}, {y})");
    host.send(Command::Play(PlayCommand::Stop));
    let back = wait_for(&host, |s| !s.play.playing);
    assert_eq!(back.preview.as_ref().and_then(|p| p.map), Some(preview), "the preview is still shown");
    assert_eq!(back.map.as_ref().map(|m| m.id), Some(preview), "and current");
}

#[test]
fn the_cave_lays_its_detail_by_rules_and_a_bad_rule_is_named_with_its_file() {
    let runtime = runtime();
    // Every wall face has open ground below it, and the same seed lays the same detail.
    let faces = "local map = Map.generate('elona.cave', { monsters = 0 }, 3)
        local faces, wrong = 0, 0
        for y = 0, map.height - 1 do for x = 0, map.width - 1 do
            if map:tile(x, y) == 'elona.wall_face' then
                faces = faces + 1
                local below = map:tile(x, y + 1)
                if not (below and #data['base.map_tile'][below].tags > 0 and data['base.map_tile'][below].tags[1] == 'floor') then wrong = wrong + 1 end
            end
        end end
        return faces, wrong";
    let said = strings(&runtime, faces);
    assert!(said[0].parse::<i64>().unwrap() > 0, "faces laid: {said:?}");
    assert_eq!(said[1], "0", "each above floor");
    assert_eq!(strings(&runtime, faces), said, "the same seed, the same detail");

    let copy = nefia_tests::DemoCopy::new();
    let init = copy.mod_file("elona/init.lua");
    let mut text = std::fs::read_to_string(&init).expect("the mod's init");
    text.push_str(
        "\ndata:add { _type = 'base.autotile_rule_set', _id = 'bad',
            rules = { { name = 'edge', pattern = { '* # *', '* # *', '* . *' }, legend = { ['#'] = 'tag:wall' }, place = 'elona.wall_face' } } }\n",
    );
    nefia_tests::write(&init, text).expect("written");
    let runtime = Runtime::open_project(&copy.project(), Box::new(|_: Output| {})).expect("the copy opens");
    let failure = runtime
        .exec("local map = Map.generate('elona.dungeon', nil, 1) map:apply_autotile('elona.bad')", "test")
        .expect_err("the rule is refused");
    let message = failure.message;
    assert!(message.contains("autotile rule set 'elona.bad', rule 1 'edge'"), "{message}");
    assert!(message.contains("pattern token '.'"), "{message}");
    assert!(message.contains("init.lua:"), "where the set is declared: {message}");
}

#[test]
fn playing_from_the_start_closes_the_preview_and_stop_leaves_it_closed() {
    use nefia_protocol::message::Command;
    use nefia_protocol::play::PlayFrom;
    use nefia_tests::host::wait_for;
    let (_copy, host, shown) = previewing_a_cave();
    let preview = shown.preview.as_ref().and_then(|p| p.map).unwrap();
    assert!(shown.map_summaries.iter().any(|m| m.id == preview), "the preview's map is in the world");
    host.send(Command::Play(PlayCommand::Start(PlayFrom::Start)));
    let playing = wait_for(&host, |s| s.play.playing);
    assert!(playing.preview.is_none(), "the preview closed at Play");
    host.send(Command::Play(PlayCommand::Stop));
    let back = wait_for(&host, |s| !s.play.playing);
    assert!(back.preview.is_none(), "and stays closed");
    let maps: Vec<_> = back.map_summaries.iter().map(|m| m.id).collect();
    assert!(!maps.contains(&preview), "its map is gone, not kept in the edit state: {maps:?}");
}
