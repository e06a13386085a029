//! The headless command line: `nefia run`, `nefia repl`, `nefia check`, `nefia replay` and
//! `nefia test`.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("editor/ is in the repository").to_owned()
}

fn nefia(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_nefia"))
        .args(args)
        .current_dir(repo())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nefia starts");
    child.stdin.take().expect("stdin").write_all(stdin.as_bytes()).expect("input written");
    child.wait_with_output().expect("nefia finishes")
}

fn script(dir: &Path, name: &str, code: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, code).expect("script written");
    path.display().to_string()
}

#[test]
fn run_prints_to_stdout_and_exits_zero() {
    let dir = tempfile::tempdir().unwrap();
    let file = script(
        dir.path(),
        "ok.lua",
        "print('player', Chara.player().name)\nprint(Map.current().name)\nGui.mes('Welcome!')",
    );
    let out = nefia(&["run", &file], "");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "player\tyou\ntown\nWelcome!\n");
}

/// The OpenNefia side of the floor bench's field rows uses only the API OpenNefia and Nefia
/// share, so it runs here unchanged: a broken script would show only when someone took it to
/// OpenNefia.
#[test]
fn the_opennefia_side_of_the_field_bench_runs_unchanged_on_nefia() {
    let out = nefia(&["run", "runtime/lua/benches/opennefia_fields.lua"], "");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let printed = String::from_utf8_lossy(&out.stdout);
    for row in
        ["field read ", "field read plain table ", "field write ", "field write plain table ", "the plain table's"]
    {
        assert!(printed.contains(row), "{row:?} printed: {printed}");
    }
}

#[test]
fn run_reports_an_uncaught_error_with_traceback_and_exits_one() {
    let dir = tempfile::tempdir().unwrap();
    let file =
        script(dir.path(), "bad.lua", "local function deep()\n  Chara.create('elona.nope', 1, 1)\nend\ndeep()\n");
    let out = nefia(&["run", &file], "");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("bad.lua:2: unknown base.chara id 'elona.nope'"), "{stderr}");
    assert!(stderr.contains("stack traceback:"), "{stderr}");
    assert!(stderr.contains("bad.lua:4"), "the traceback reaches the caller: {stderr}");
}

#[test]
fn run_with_a_missing_project_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let file = script(dir.path(), "ok.lua", "print(1)");
    let out = nefia(&["run", &file, "--project", "projects/nowhere"], "");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("projects/nowhere"), "{out:?}");
}

#[test]
fn repl_evaluates_expressions_and_statements() {
    let out = nefia(
        &["repl"],
        "1 + 1\nlocal_var = 20\nlocal_var * 2\nfunction f()\n  return 'multi'\nend\nf()\nChara.player():calc('fov')\nerror('boom')\n",
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    for expected in ["2\n", "40\n", "\"multi\"\n", "15\n"] {
        assert!(stdout.contains(expected), "{expected:?} missing from {stdout}");
    }
    assert!(String::from_utf8_lossy(&out.stderr).contains("boom"));
    assert!(out.status.success());
}

#[test]
fn check_passes_on_the_demo_and_reports_a_broken_map_with_file_and_line() {
    let out = nefia(&["check"], "");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));

    let project = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(project.path().join("maps")).unwrap();
    std::fs::write(
        project.path().join("project.ron"),
        format!(
            "(name: \"Broken\", mods: [\"elona\"], mod_dirs: [{:?}], asset_dirs: [{:?}])",
            repo().join("mods"),
            repo().join("assets")
        ),
    )
    .unwrap();
    std::fs::write(
        project.path().join("maps/cave.ron"),
        "(\n  name: \"cave\",\n  width: 2,\n  height: 1,\n  palette: {\".\": \"elona.lava\"},\n  tiles: [\"..\"],\n)\n",
    )
    .unwrap();
    std::fs::write(project.path().join("maps/bad.ron"), "(\n  name: \"bad\",\n  width: 2\n  height: 1,\n)\n").unwrap();
    let out = nefia(&["check", "--project", &project.path().display().to_string()], "");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("cave.ron:5:") && stderr.contains("elona.lava"), "{stderr}");
    assert!(stderr.contains("bad.ron:4:"), "{stderr}");
}

#[test]
fn check_reports_a_missing_reference_and_a_misspelled_field_at_their_lines() {
    let project = tempfile::tempdir().unwrap();
    let mod_dir = project.path().join("mods/mine");
    std::fs::create_dir_all(&mod_dir).unwrap();
    std::fs::write(mod_dir.join("mod.ron"), "(id: \"mine\", version: \"1.0.0\", dependencies: [\"elona\"])").unwrap();
    std::fs::write(
        mod_dir.join("init.lua"),
        "data:add {\n   _type = \"base.map_generator\",\n   _id = \"pit\",\n   tile = \"elona.putit\", generate = function() end,\n}\n\
         data:add {\n   _type = \"base.map_generator\",\n   _id = \"hole\",\n   tile = \"elona.no_such_tile\", generate = function() end,\n}\n\
         data:add { _type = \"base.chara\", _id = \"brute\",\n   max_hpp = 30, favourite_food = \"putitoro\" }\n",
    )
    .unwrap();
    std::fs::write(
        project.path().join("project.ron"),
        format!(
            "(name: \"Mine\", mods: [\"elona\", \"mine\"], mod_dirs: [{:?}], asset_dirs: [{:?}])",
            repo().join("mods"),
            repo().join("assets")
        ),
    )
    .unwrap();
    let out = nefia(&["check", "--project", &project.path().display().to_string()], "");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("mods/mine/init.lua:4: mine.pit.tile: elona.putit is a base.chara, not a base.map_tile"),
        "{stderr}"
    );
    assert!(
        stderr.contains("mods/mine/init.lua:9: mine.hole.tile: no base.map_tile is called elona.no_such_tile"),
        "{stderr}"
    );
    assert!(
        stderr
            .contains("mods/mine/init.lua:12: mine.brute: max_hpp is not a field of base.chara: did you mean max_hp?"),
        "{stderr}"
    );
    assert!(!stderr.contains("favourite_food"), "a field of the mod's own is no problem: {stderr}");
}

#[test]
fn pause_is_a_no_op_without_break_and_a_terminal_repl_with_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = script(dir.path(), "pause.lua", "local hp = 10\nlocal label = 'before'\npause()\nprint(hp, label)\n");
    let out = nefia(&["run", &file], "");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout), "10\tbefore\n", "no --break: pause() does nothing");

    let out = nefia(&["run", &file, "--break"], "hp * 2\nhp = nil\nlabel = false\ncontinue\n");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("paused in main chunk at"), "{stdout}");
    assert!(stdout.contains("local hp = 10"), "the locals are listed: {stdout}");
    assert!(stdout.contains("20\n"), "expressions see the locals: {stdout}");
    assert!(stdout.ends_with("nil\tfalse\n"), "assignments reach the script: {stdout}");
}

#[test]
fn run_break_stops_at_a_watched_write_and_without_it_the_watch_prints_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let code = "local c = Chara.create('elona.putit', 2, 2)\nc.hp = 6\nDebug.watch(c, 'hp')\nlocal damage = 2\nc.hp = c.hp - damage\nprint(c.hp)\n";
    let file = script(dir.path(), "watch.lua", code);
    let out = nefia(&["run", &file], "");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("(elona.putit) hp 6 → 4 at "), "the watch's line: {stdout}");
    assert!(stdout.ends_with("watch.lua:5\n4\n"), "and the script went on: {stdout}");

    let out = nefia(&["run", &file, "--break"], "damage\ncontinue\n");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("(elona.putit) hp 6 → 4 at ") && stdout.contains("paused in main chunk at"), "{stdout}");
    assert!(stdout.contains("local damage = 2"), "the writer's locals: {stdout}");
}

#[test]
fn replay_profile_prints_where_the_time_went() {
    let recording = repo().join("projects/demo/recordings/tests/walk-and-kill.ron");
    let out = nefia(&["replay", &recording.display().to_string(), "--profile"], "");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}{}", String::from_utf8_lossy(&out.stderr));
    assert!(said.contains("where ") && said.contains(" turns' "), "{said}");
    assert!(
        said.contains("handler    base.on_key_pressed · elona.play ([elona] mods/elona/game/commands.lua:"),
        "{said}"
    );
    assert!(said.contains("engine     sight"), "{said}");
}

#[test]
fn run_limits_interrupt_a_runaway_script_and_exit_one() {
    let dir = tempfile::tempdir().unwrap();
    let file = script(dir.path(), "loop.lua", "while true do end\n");
    let out = nefia(&["run", &file, "--time-limit", "0.3"], "");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("time limit of 0.3 s"), "{stderr}");

    let file = script(dir.path(), "hog.lua", "local t = {}\nfor i = 1, 1e9 do t[i] = { i } end\n");
    let out = nefia(&["run", &file, "--memory-limit", "64"], "");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("out of memory"), "{stderr}");

    // A watch's condition that runs away is interrupted like any code: the script ends with
    // exit 1 there, and neither the watch nor a pcall around the write swallows it.
    let file = script(
        dir.path(),
        "watched.lua",
        "local c = Chara.create('elona.putit', 1, 1)\n\
         Debug.watch(c, 'hp', function() while true do end end)\n\
         pcall(function() c.hp = 3 end)\n\
         print('went on')\n",
    );
    let out = nefia(&["run", &file, "--time-limit", "0.3"], "");
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(stderr.contains("time limit of 0.3 s") && !stdout.contains("went on"), "{stdout}{stderr}");
}

/// A project in a temporary folder loading the repository's mods and one more, `runaway`,
/// whose `init.lua` never ends.
fn project_with_a_runaway_mod() -> tempfile::TempDir {
    let project = tempfile::tempdir().unwrap();
    let mod_dir = project.path().join("mods/runaway");
    std::fs::create_dir_all(&mod_dir).unwrap();
    std::fs::write(mod_dir.join("mod.ron"), "(id: \"runaway\", version: \"1.0.0\", dependencies: [\"base\"])").unwrap();
    std::fs::write(mod_dir.join("init.lua"), "local n = 0\nwhile true do n = n + 1 end\n").unwrap();
    std::fs::write(
        project.path().join("project.ron"),
        format!(
            "(name: \"Runaway\", mods: [\"elona\", \"runaway\"], mod_dirs: [{:?}], asset_dirs: [{:?}])",
            repo().join("mods"),
            repo().join("assets")
        ),
    )
    .unwrap();
    project
}

#[test]
fn the_time_limit_covers_a_mods_init_lua_in_run_and_check() {
    let project = project_with_a_runaway_mod();
    let dir = project.path().display().to_string();
    let file = script(project.path(), "ok.lua", "print('never reached')");
    let started = std::time::Instant::now();
    let out = nefia(&["run", &file, "--project", &dir, "--time-limit", "1"], "");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("mods/runaway/init.lua:2") && stderr.contains("time limit of 1 s"), "{stderr}");
    let out = nefia(&["check", "--project", &dir, "--time-limit", "1"], "");
    assert_eq!(out.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("mods/runaway/init.lua:2") && stderr.contains("time limit"), "{stderr}");
    assert!(started.elapsed() < std::time::Duration::from_secs(20), "neither hung: {:?}", started.elapsed());
}

#[test]
fn command_line_limits_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let file = script(dir.path(), "ok.lua", "print(1)");
    for (args, expected) in [
        (vec!["--time-limit", "inf"], "is not a time limit"),
        (vec!["--time-limit", "nan"], "is not a time limit"),
        (vec!["--time-limit=-1"], "is not a time limit"),
        (vec!["--time-limit", "0"], "is not a time limit"),
        (vec!["--time-limit", "soon"], "is not a number of seconds"),
        (vec!["--memory-limit", "18446744073709551615"], "is not a memory limit"),
        (vec!["--memory-limit", "0"], "is not a memory limit"),
        (vec!["--memory-limit=-5"], "is not a whole number of MiB"),
    ] {
        let mut all = vec!["run", file.as_str()];
        all.extend(args.iter().copied());
        let out = nefia(&all, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}: a usage error, not a panic");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(stderr.contains(expected), "{args:?}: {stderr}");
    }
}

#[test]
fn the_default_project_is_found_from_another_folder_and_inside_a_project() {
    let elsewhere = tempfile::tempdir().unwrap();
    let run_in = |dir: &Path, args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_nefia")).args(args).current_dir(dir).output().expect("nefia runs")
    };
    // From a folder with no project: the demo of the repository the binary was built in.
    let script_path = script(elsewhere.path(), "where.lua", "print(World.date().year)");
    let out = run_in(elsewhere.path(), &["run", &script_path]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "517", "the demo's game ran");
    // Inside a project's folder: that project.
    let project = elsewhere.path().join("mine");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::write(
        project.join("project.ron"),
        format!("(name: \"Mine\", mods: [\"base\"], mod_dirs: [{:?}])", repo().join("mods")),
    )
    .unwrap();
    let out = run_in(&project, &["check"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout.contains("Mine") || stdout.contains("mine"), "checked the project it stands in: {stdout}");
}

#[test]
fn new_mod_writes_a_working_skeleton_and_enables_it() {
    let copy = nefia_tests::DemoCopy::new();
    let project = copy.project().display().to_string();
    let out = nefia(&["new-mod", "my_mod", "--project", &project], "");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let dir = copy.project().join("mods/my_mod");
    assert!(dir.join("mod.ron").is_file() && dir.join("init.lua").is_file());
    let manifest: nefia_game::project::ProjectManifest =
        nefia_game::files::read_ron(&copy.project().join("project.ron")).expect("readable RON");
    assert!(manifest.mods.contains(&"my_mod".to_owned()), "enabled: {:?}", manifest.mods);
    // The skeleton loads and works: its prototype exists and its handler runs on refresh.
    let file = script(
        copy.root.path(),
        "try.lua",
        "local s = Chara.create('my_mod.slime', 1, 1) s:refresh() print(s:calc('speed'))",
    );
    let out = nefia(&["run", &file, "--project", &project], "");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "120");
    // A second time, or a bad id, is refused with a reason.
    let again = nefia(&["new-mod", "my_mod", "--project", &project], "");
    assert_eq!(again.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&again.stderr).contains("already exists"));
    let bad = nefia(&["new-mod", "../escape", "--project", &project], "");
    assert!(String::from_utf8_lossy(&bad.stderr).contains("is not a mod id"), "{bad:?}");
}

#[test]
fn replay_checks_a_recording_stops_at_a_turn_saves_the_state_and_test_runs_the_demos() {
    let recording = repo().join("projects/demo/recordings/tests/stairs-down-and-back.ron");
    let file = recording.display().to_string();
    let out = nefia(&["replay", &file, "--check"], "");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}{}", String::from_utf8_lossy(&out.stderr));
    assert!(said.starts_with("replayed ") && said.contains(" turns ("), "{said}");
    assert!(said.contains("play stopped as recorded"), "{said}");

    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("turn5.ron");
    let out = nefia(&["replay", &file, "--to-turn", "5", "--save-to", &save.display().to_string()], "");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stdout).contains("at the start of turn 5"));
    let written = std::fs::read_to_string(&save).expect("the save was written");
    assert!(written.contains("turn: 5,"), "the state at turn 5");

    let out = nefia(&["test"], "");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}");
    assert!(said.contains("3 passed, 0 failed"), "{said}");
}

#[test]
fn replay_changes_lists_each_change_of_a_field_with_its_turn_and_line() {
    let recording = repo().join("projects/demo/recordings/tests/walk-and-kill.ron");
    // uid 6 is the putit the player strikes down.
    let out = nefia(&["replay", &recording.display().to_string(), "--changes", "6", "hp"], "");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{said}{}", String::from_utf8_lossy(&out.stderr));
    assert!(said.contains("1 change(s) of uid 6's hp:\nturn "), "{said}");
    let blow = said.lines().find(|l| l.contains(": hp 6 → ")).unwrap_or_default();
    assert!(blow.ends_with(" at mods/elona/game/rules.lua:37"), "the blow that killed it: {said}");
    let bad = nefia(&["replay", &recording.display().to_string(), "--changes", "six", "hp"], "");
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("'six' is not a uid"), "{bad:?}");
    let never = nefia(&["replay", &recording.display().to_string(), "--changes", "9999", "hp"], "");
    assert_eq!(never.status.code(), Some(2), "{never:?}");
    let said = String::from_utf8_lossy(&never.stderr);
    assert!(said.contains("uid 9999 never exists in this recording (its objects have uids below "), "{said}");
}

#[test]
fn replay_check_exits_one_naming_the_first_differing_turn_after_a_rule_changed() {
    let copy = tempfile::tempdir().unwrap();
    for folder in ["projects/demo", "mods", "assets"] {
        copy_tree(&repo().join(folder), &copy.path().join(folder));
    }
    let rules = copy.path().join("mods/elona/game/rules.lua");
    let text = std::fs::read_to_string(&rules).unwrap();
    // Every blow takes 1 (the same random numbers are drawn): the putit lives longer.
    let weaker = text
        .replace("attacker:calc(\"strength\") + math.random(0, 2) - target:calc(\"pv\")", "1 + 0 * math.random(0, 2)");
    assert_ne!(weaker, text);
    std::fs::write(&rules, weaker).unwrap();
    let recording = copy.path().join("projects/demo/recordings/tests/walk-and-kill.ron");
    let out = nefia(&["replay", &recording.display().to_string(), "--check"], "");
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{said}");
    assert!(said.contains("note: files changed since the recording was made: changed: mods/elona/game/rules.lua"));
    assert!(said.contains(": the state differs from the recorded one"), "{said}");
    assert!(said.lines().any(|l| l.trim_start().starts_with("turn ") && l.contains(": uid ")), "{said}");
}

fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

#[test]
fn diff_tells_tiles_by_region_and_objects_by_change_and_draws_them() {
    let dir = tempfile::tempdir().unwrap();
    let before = "(
    name: \"room\",
    width: 6,
    height: 4,
    palette: {\"#\": \"elona.wall_stone\", \".\": \"elona.floor_stone\"},
    tiles: [\"######\", \"#....#\", \"#....#\", \"######\"],
    objects: [
        (kind: chara, id: \"elona.putit\", x: 1, y: 1),
        (kind: feat, id: \"elona.door\", x: 5, y: 2),
        (kind: item, id: \"elona.putitoro\", x: 2, y: 2),
    ],
)";
    let after = "(
    name: \"room\",
    width: 6,
    height: 4,
    palette: {\"#\": \"elona.wall_stone\", \".\": \"elona.floor_stone\"},
    tiles: [\"######\", \"#.##.#\", \"#.##.#\", \"######\"],
    objects: [
        (kind: chara, id: \"elona.putit\", x: 4, y: 1, fields: {\"hp\": 9}),
        (kind: item, id: \"elona.putitoro\", x: 2, y: 2),
        (kind: chara, id: \"elona.putit\", x: 1, y: 2),
    ],
)";
    let (a, b) = (script(dir.path(), "a.ron", before), script(dir.path(), "b.ron", after));
    let png = dir.path().join("diff.png");
    let out = nefia(&["diff", &a, &b, "--png", &png.display().to_string()], "");
    assert_eq!(out.status.code(), Some(1), "{}", String::from_utf8_lossy(&out.stderr));
    let said = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        said.lines().collect::<Vec<_>>(),
        [
            "4 cells at (2..3, 1..2): elona.floor_stone → elona.wall_stone",
            "elona.putit moved (1, 1) → (1, 2)",
            "removed elona.door at (5, 2)",
            "added elona.putit at (4, 1)",
        ],
        "{said}"
    );
    let picture = image::open(&png).expect("a PNG is written").to_rgb8();
    assert_eq!((picture.height(), picture.width() % 3), (4 * 8, 0), "three panels of 6x4 cells, 8 px each");

    let same = nefia(&["diff", &a, &a], "");
    assert_eq!((same.status.code(), same.stdout.len()), (Some(0), 0), "no change, no output, exit 0");
    let broken = script(dir.path(), "broken.ron", "(name: \"x\", width: 2,");
    let out = nefia(&["diff", &a, &broken], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("broken.ron:1:"), "{}", String::from_utf8_lossy(&out.stderr));
}

/// The demo's town with `change` made to it, written where `path` is.
fn town_with(path: &Path, change: impl FnOnce(&mut nefia_game::save::MapRecord)) {
    let town = repo().join("projects/demo/maps/town.ron");
    let mut record: nefia_game::save::MapRecord = nefia_game::files::read_ron(&town).unwrap();
    change(&mut record);
    std::fs::write(path, nefia_game::map_files::map_text(path, &record).unwrap()).unwrap();
}

/// Paints cell (x, y) of `record` with the tile of palette code `code`.
fn paint_code(record: &mut nefia_game::save::MapRecord, x: usize, y: usize, code: char) {
    let mut row: Vec<char> = record.tiles[y].chars().collect();
    row[x] = code;
    record.tiles[y] = row.into_iter().collect();
}

fn git(repo: &Path, args: &[&str]) -> Output {
    Command::new("git").args(args).current_dir(repo).output().expect("git runs")
}

#[test]
fn git_merges_map_files_with_the_driver_git_setup_enables() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for args in
        [&["init", "-q", "-b", "main"][..], &["config", "user.email", "t@example.com"], &["config", "user.name", "T"]]
    {
        assert!(git(root, args).status.success());
    }
    let project = root.join("game");
    std::fs::create_dir_all(project.join("maps")).unwrap();
    let map = project.join("maps/town.ron");
    town_with(&map, |_| {});
    let setup = nefia(&["git-setup", "--project", &project.display().to_string()], "");
    assert!(setup.status.success(), "{}", String::from_utf8_lossy(&setup.stderr));
    let said = String::from_utf8_lossy(&setup.stdout);
    assert_eq!(std::fs::read_to_string(project.join(".gitattributes")).unwrap(), "maps/*.ron merge=nefia\n");
    let config = said.lines().map(str::trim).find(|l| l.starts_with("git config")).expect("the git config line");
    let enabled = Command::new("sh").args(["-c", config]).current_dir(root).output().unwrap();
    assert!(enabled.status.success(), "{config}");
    git(root, &["add", "-A"]);
    git(root, &["commit", "-qm", "base"]);

    // Their branch paints the north and moves a putit; ours paints the south and sets the
    // shopkeeper's hp. Line by line they touch the same object list; cell by cell they do not.
    git(root, &["checkout", "-qb", "theirs"]);
    town_with(&map, |r| {
        paint_code(r, 3, 2, '#');
        r.objects[5].x = 24;
    });
    git(root, &["commit", "-qam", "theirs"]);
    git(root, &["checkout", "-q", "main"]);
    town_with(&map, |r| {
        paint_code(r, 3, 17, '~');
        r.objects[5].fields.insert(nefia_game::Symbol::intern("hp"), nefia_game::Value::Int(9));
    });
    git(root, &["commit", "-qam", "ours"]);
    let merged = git(root, &["merge", "-q", "--no-edit", "theirs"]);
    assert!(merged.status.success(), "{}", String::from_utf8_lossy(&merged.stderr));
    let result: nefia_game::save::MapRecord = nefia_game::files::read_ron(&map).unwrap();
    assert_eq!((&result.tiles[2][3..4], &result.tiles[17][3..4]), ("#", "~"), "both paints");
    let putit = &result.objects[5];
    assert_eq!((putit.x, putit.fields.get(nefia_game::Symbol::intern("hp"))), (24, Some(&nefia_game::Value::Int(9))));

    // The same cell painted on both: git is told of the conflict, and the file keeps it.
    git(root, &["checkout", "-qb", "other"]);
    town_with(&map, |r| paint_code(r, 5, 5, '#'));
    git(root, &["commit", "-qam", "other wall"]);
    git(root, &["checkout", "-q", "main"]);
    town_with(&map, |r| paint_code(r, 5, 5, '~'));
    git(root, &["commit", "-qam", "our water"]);
    let clash = git(root, &["merge", "-q", "--no-edit", "other"]);
    assert!(!clash.status.success(), "git is told a conflict remains");
    let kept = std::fs::read_to_string(&map).unwrap();
    assert!(kept.contains("Tile(x: 5, y: 5, ours: \"elona.water\", theirs: \"elona.wall_stone\")"), "{kept}");
    assert!(!kept.contains("<<<<<<<"), "no text conflict markers: the file still loads");
}

#[test]
fn merge_exits_two_and_leaves_the_output_alone_when_a_side_cannot_be_read() {
    let dir = tempfile::tempdir().unwrap();
    let (base, ours) = (dir.path().join("base.ron"), dir.path().join("ours.ron"));
    town_with(&base, |_| {});
    town_with(&ours, |r| paint_code(r, 3, 2, '#'));
    let before = std::fs::read_to_string(&ours).unwrap();
    let broken = script(dir.path(), "theirs.ron", "(name: \"town\", width: 2,");
    let (b, o) = (base.display().to_string(), ours.display().to_string());
    let out = nefia(&["merge", &b, &o, &broken, "-o", &o], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("theirs.ron"), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read_to_string(&ours).unwrap(), before);
}

#[test]
fn a_scan_starts_no_more_workers_than_seeds_and_says_so() {
    let out = nefia(&["gen", "elona.dungeon", "--scan", "1..3", "--jobs", "100000"], "");
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{stdout}{stderr}");
    assert!(stderr.contains("--jobs 100000: using 3 (one per seed)"), "{stderr}");
    assert!(stdout.contains("scanned 3 seeds") && stdout.contains("3 jobs"), "{stdout}");
    let unit = nefia_host::generate::Scan {
        seeds: nefia_host::seeds::Seeds::range(1, 1_000_000),
        jobs: 100_000,
        ..Default::default()
    };
    assert_eq!(unit.workers(), nefia_host::generate::MAX_JOBS, "a sane maximum");
    let reversed =
        nefia_host::generate::Scan { seeds: nefia_host::seeds::Seeds::range(5, 1), jobs: 4, ..Default::default() };
    assert_eq!(reversed.workers(), 1, "at least one");
}

/// The seeds of `nefia fuzz --json` or `nefia gen --scan --json` lines.
fn json_seeds(out: &Output) -> Vec<i64> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|line| {
            let value: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{line}: {e}"));
            value["seed"].as_i64().unwrap_or_else(|| panic!("no seed in {line}"))
        })
        .collect()
}

#[test]
fn fuzz_shards_take_disjoint_seeds_and_write_one_json_line_each() {
    let shard = |k: &str| {
        let args = ["fuzz", "--seeds", "1..4", "--turns", "5", "--jobs", "2", "--no-write", "--json", "--shard", k];
        let out = nefia(&args, "");
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        assert!(out.status.success(), "{stderr}");
        assert!(stderr.contains("fuzzed 2 seeds") && stderr.contains("no failures"), "{stderr}");
        for line in String::from_utf8_lossy(&out.stdout).lines() {
            let value: serde_json::Value = serde_json::from_str(line).unwrap();
            assert!(value["failure"].is_null() && value["turns"].as_u64() == Some(5), "{line}");
        }
        let mut seeds = json_seeds(&out);
        seeds.sort_unstable();
        seeds
    };
    assert_eq!(shard("1/2"), [1, 3]);
    assert_eq!(shard("2/2"), [2, 4]);
    for (args, says) in [
        (["fuzz", "--shard", "3/2"], "K must be from 1 to N"),
        (["fuzz", "--inputs", "jump=1"], "'jump' is not an input"),
        (["fuzz", "--seeds", "9..1"], "the first seed is past the last"),
    ] {
        let out = nefia(&args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains(says), "{}", String::from_utf8_lossy(&out.stderr));
    }
}

#[test]
fn a_scan_shards_its_seeds_and_writes_json_lines() {
    let args = ["gen", "elona.dungeon", "--scan", "1..6", "--shard", "2/3", "--json", "--metric", "w=map.width"];
    let out = nefia(&args, "");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(json_seeds(&out), [2, 5]);
    let first: serde_json::Value =
        serde_json::from_str(String::from_utf8_lossy(&out.stdout).lines().next().unwrap()).unwrap();
    assert!(first["metrics"]["w"].is_string(), "{first}");
    assert!(String::from_utf8_lossy(&out.stderr).contains("scanned 2 seeds"), "the summary goes to stderr");
}

#[test]
fn an_exported_tiled_map_opens_as_a_tiled_map_and_imports_back_to_the_same_cells_and_objects() {
    use nefia_game::map_diff::TileGrid;
    use nefia_game::save::MapRecord;
    let copy = nefia_tests::DemoCopy::new();
    let project = copy.project();
    let out = tempfile::tempdir().unwrap();
    let tmj = out.path().join("town_again.tmj");
    let town = project.join("maps/town.ron");
    let (tmj_arg, project_arg) = (tmj.display().to_string(), project.display().to_string());
    let exported = nefia(&["export", &town.display().to_string(), "--tmj", &tmj_arg, "--project", &project_arg], "");
    assert!(exported.status.success(), "{}", String::from_utf8_lossy(&exported.stderr));
    // What Tiled reads: an orthogonal map, one embedded tileset whose image is beside it.
    let map: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&tmj).unwrap()).unwrap();
    assert_eq!(map["orientation"], "orthogonal");
    assert_eq!(map["tilesets"][0]["image"], "town_again.png");
    let image = image::open(out.path().join("town_again.png")).expect("the tileset image").to_rgba8();
    let tiles = map["tilesets"][0]["tilecount"].as_u64().unwrap();
    let side = map["tilewidth"].as_u64().unwrap();
    assert_eq!(u64::from(image.width() * image.height()), tiles * side * side, "one square tile per tile id");
    assert!(image.pixels().any(|p| p.0 != image.get_pixel(0, 0).0), "glyphs drawn on the backgrounds");

    // Back in: every tile and object names its prototype, so no mapping is needed.
    let imported = nefia(&["import", &tmj_arg, "--project", &project_arg], "");
    assert!(imported.status.success(), "{}", String::from_utf8_lossy(&imported.stderr));
    let read = |path: &Path| -> MapRecord { nefia_game::files::read_ron(path).unwrap() };
    let (before, after) = (read(&town), read(&project.join("maps/town_again.ron")));
    assert_eq!(TileGrid::of(&after).unwrap().tiles, TileGrid::of(&before).unwrap().tiles, "the same cells");
    let objects = |record: &MapRecord| -> Vec<String> {
        record.objects.iter().map(|o| format!("{:?} {} ({}, {}) {:?}", o.kind, o.id, o.x, o.y, o.fields)).collect()
    };
    assert_eq!(objects(&after), objects(&before), "the same objects");
    assert_eq!(after.entrance, before.entrance);
    assert_eq!(after.palette, before.palette, "the tiles keep their glyphs as codes");

    // A file that is no map is refused, naming it, with exit 1 and nothing written.
    let junk = out.path().join("junk.tmx");
    std::fs::write(&junk, "<map").unwrap();
    let refused = nefia(&["import", &junk.display().to_string(), "--project", &project_arg], "");
    assert_eq!(refused.status.code(), Some(1));
    let said = String::from_utf8_lossy(&refused.stderr);
    assert!(said.contains("junk.tmx") && said.contains("nothing was written"), "{said}");
}
