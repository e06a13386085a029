//! `nefia package`: a folder a player runs, moved away from the repository and run with a
//! clean environment — its self-test passes, its saves land in the player's own folders (or
//! beside it with `--portable`), it ships no recordings or tests and names nowhere the
//! repository — and a Lua error in the packaged game leaves a bug report that `nefia replay`
//! plays to the same error.

#[path = "common/cli.rs"]
mod cli;
mod common;

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use cli::{nefia, repo, said};
use common::step_until;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use nefia_editor::package::{MANIFEST, Package};
use nefia_editor::player::{PlayerApp, PlayerConfig};

/// Packages the demo into `out`; returns the run.
fn package_demo(out: &Path, extra: &[&str]) -> Output {
    let mut args = vec!["package", "--project", "projects/demo", "--out", out.to_str().expect("a UTF-8 path")];
    args.extend_from_slice(extra);
    nefia(&args)
}

/// The packaged program in `dir`.
fn program(dir: &Path) -> PathBuf {
    let package = Package::open(dir).expect("the package's manifest reads");
    dir.join(package.manifest.program)
}

/// Runs the packaged program in `dir` with `args`, from `dir`, with nothing of this
/// environment: HOME and the XDG folders are `home`'s.
fn run_packaged(dir: &Path, home: &Path, args: &[&str]) -> Output {
    Command::new(program(dir))
        .args(args)
        .current_dir(dir)
        .env_clear()
        .env("HOME", home)
        .env("XDG_DATA_HOME", home.join("data"))
        .env("XDG_CONFIG_HOME", home.join("config"))
        .output()
        .expect("the packaged program runs")
}

/// Every file under `dir`.
fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).expect("the folder reads").flatten() {
        match entry.path() {
            path if path.is_dir() => files.extend(files_under(&path)),
            path => files.push(path),
        }
    }
    files
}

#[test]
fn a_packaged_game_moved_elsewhere_passes_its_self_test_and_saves_in_the_players_folders() {
    let scratch = tempfile::tempdir().unwrap();
    let built = scratch.path().join("built");
    let out = package_demo(&built, &["--zip"]);
    let text = said(&out);
    assert!(out.status.success(), "{text}");
    assert!(text.contains("running the packaged game's self-test") && text.contains("passed"), "{text}");
    let archive = scratch.path().join("built.zip");
    assert!(std::fs::read(&archive).expect("the archive is written").starts_with(b"PK"), "a zip archive");

    // Moved to another place: it needs nothing where it was made.
    let moved = scratch.path().join("elsewhere/Demo game");
    std::fs::create_dir_all(moved.parent().unwrap()).unwrap();
    std::fs::rename(&built, &moved).unwrap();
    let home = scratch.path().join("home");
    let test = run_packaged(&moved, &home, &["--self-test"]);
    let test_text = said(&test);
    assert!(test.status.success(), "{test_text}");
    assert!(test_text.contains("saved the game as 'self-test'") && test_text.contains("passed"), "{test_text}");
    let saved = home.join("data/demo/saves/self-test/self-test.ron");
    assert!(saved.is_file(), "the save is in XDG_DATA_HOME under the game's name: {test_text}");
    assert!(!moved.join("saves").exists(), "nothing is saved beside the program");

    let portable = run_packaged(&moved, &home, &["--self-test", "--portable"]);
    let portable_text = said(&portable);
    assert!(portable.status.success(), "{portable_text}");
    assert!(moved.join("saves/self-test/self-test.ron").is_file(), "--portable saves beside the program");

    // Only what the game loads, with a README and the licences.
    let files = files_under(&moved);
    let inside: Vec<String> = files
        .iter()
        .map(|f| f.strip_prefix(&moved).unwrap().to_string_lossy().replace('\\', "/"))
        .filter(|f| !f.starts_with("saves/"))
        .collect();
    for wanted in [MANIFEST, "README.txt", "LICENCES.md", "game/project.ron", "game/maps/town.ron"] {
        assert!(inside.iter().any(|f| f == wanted), "{wanted} is shipped: {inside:?}");
    }
    assert!(inside.iter().any(|f| f == "game/mods/elona/init.lua"), "the mods are shipped");
    assert!(inside.iter().any(|f| f.starts_with("game/assets/") && f.ends_with(".png")), "the images are shipped");
    for file in &inside {
        let left_out = ["recordings/", "tests/", ".nefia", "Cargo", ".py", ".rs", "README.md"];
        assert!(!left_out.iter().any(|part| file.contains(part)), "{file} is not for players");
    }
    let licences = std::fs::read_to_string(moved.join("LICENCES.md")).unwrap();
    assert!(licences.contains("Noa") && licences.contains("MIT"), "the shipped licences: {licences}");

    // Nothing written or printed names where it was built.
    let repo = repo();
    let built_in = [repo.to_string_lossy().into_owned(), repo.canonicalize().unwrap().to_string_lossy().into_owned()];
    let program = program(&moved);
    let written = files_under(&home).into_iter().chain(files.into_iter().filter(|f| *f != program));
    for file in written {
        let bytes = String::from_utf8_lossy(&std::fs::read(&file).unwrap()).into_owned();
        for path in &built_in {
            assert!(!bytes.contains(path.as_str()), "{} names the repository {path}", file.display());
        }
    }
    for path in &built_in {
        assert!(!test_text.contains(path.as_str()) && !portable_text.contains(path.as_str()), "{test_text}");
    }
}

#[test]
fn a_folder_that_is_not_a_package_is_not_written_over() {
    let scratch = tempfile::tempdir().unwrap();
    let out = scratch.path().join("mine");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("notes.txt"), "mine").unwrap();
    let run = package_demo(&out, &[]);
    let text = said(&run);
    assert_eq!(run.status.code(), Some(2), "{text}");
    assert!(text.contains(&out.display().to_string()) && text.contains("not empty"), "names the folder: {text}");
    assert_eq!(std::fs::read_dir(&out).unwrap().count(), 1, "nothing was written");
    assert_eq!(std::fs::read_to_string(out.join("notes.txt")).unwrap(), "mine");

    // Nor a project that is not there.
    let run = nefia(&["package", "--project", "projects/nowhere", "--out", out.to_str().unwrap()]);
    assert_eq!(run.status.code(), Some(2), "{}", said(&run));
    assert!(said(&run).contains("projects/nowhere"), "names the project: {}", said(&run));

    // Nor a folder the package is made from.
    let run = package_demo(&repo().join("projects/demo/maps/out"), &[]);
    assert_eq!(run.status.code(), Some(2), "{}", said(&run));
    assert!(!repo().join("projects/demo/maps/out").exists());
}

#[test]
fn a_game_that_fails_its_self_test_is_not_called_fit_to_ship() {
    let demo = nefia_tests::DemoCopy::new();
    let rules = demo.mod_file("damage_popups/init.lua");
    let mut code = std::fs::read_to_string(&rules).unwrap();
    code.push_str(
        "\nEvent.register(\"base.on_turn_passed\", \"damage_popups.planted\", function(_, params)\n   \
         if params.turn >= 5 then error(\"a planted bug\") end\nend)\n",
    );
    std::fs::write(&rules, code).unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let out = scratch.path().join("game");
    let run = nefia(&["package", "--project", demo.project().to_str().unwrap(), "--out", out.to_str().unwrap()]);
    let text = said(&run);
    assert_eq!(run.status.code(), Some(1), "{text}");
    assert!(text.contains("FAILED") && text.contains("a planted bug"), "the self-test says what failed: {text}");
    assert!(text.contains("not fit to ship"), "{text}");
}

#[test]
fn a_lua_error_in_a_packaged_game_leaves_a_bug_report_that_replays_to_the_same_error() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().join("game");
    let out = package_demo(&dir, &[]);
    assert!(out.status.success(), "{}", said(&out));
    // A bug planted in the shipped game: the third turn raises an error.
    let mod_file = dir.join("game/mods/damage_popups/init.lua");
    let mut code = std::fs::read_to_string(&mod_file).unwrap();
    code.push_str(
        "\nEvent.register(\"base.on_turn_passed\", \"damage_popups.planted\", function(_, params)\n   \
         if params.turn >= 3 then error(\"a planted bug\") end\nend)\n",
    );
    std::fs::write(&mod_file, code).unwrap();

    let package = Package::open(&dir).unwrap();
    let dirs = package.player_dirs(true).unwrap();
    let config = PlayerConfig { project: package.game(), dirs: dirs.clone(), title: package.manifest.name.clone() };
    let app = PlayerApp::with_config(&egui::Context::default(), config);
    let mut harness =
        Harness::builder().with_size([1024.0, 768.0]).build_ui_state(|ui, app: &mut PlayerApp| app.ui(ui), app);
    step_until(&mut harness, "the title menu", |h| h.query_by_label("New game").is_some());
    harness.get_by_label("New game").click();
    step_until(&mut harness, "a new game", |h| h.state().snapshot().play.playing);
    for _ in 0..6 {
        if harness.state().snapshot().debug.error.is_some() {
            break;
        }
        let turn = harness.state().snapshot().turn;
        harness.key_press(egui::Key::Period);
        step_until(&mut harness, "a turn or the error", |h| {
            h.state().snapshot().turn > turn || h.state().snapshot().debug.error.is_some()
        });
    }
    step_until(&mut harness, "the bug report", |h| h.state().snapshot().debug.report.is_some());
    let error = harness.state().snapshot().debug.error.clone().expect("the error screen");
    assert!(error.to_string().contains("a planted bug"), "{error}");
    let report = harness.state().snapshot().debug.report.clone().unwrap().expect("the report is written");
    assert!(report.starts_with(&dirs.reports) && report.is_file(), "{} beside the saves", report.display());
    assert!(harness.query_by_label_contains("Send this file").is_some(), "the error screen says where it went");
    assert!(harness.query_by_label(&report.display().to_string()).is_some(), "and names the file");
    drop(harness);

    let replay = nefia(&["replay", report.to_str().unwrap(), "--project", package.game().to_str().unwrap()]);
    let text = said(&replay);
    assert!(replay.status.success(), "{text}");
    assert!(text.contains("the reported error came back at turn 3") && text.contains("a planted bug"), "{text}");

    // Fixed, the report says so.
    std::fs::write(&mod_file, std::fs::read_to_string(repo().join("mods/damage_popups/init.lua")).unwrap()).unwrap();
    let replay = nefia(&["replay", report.to_str().unwrap(), "--project", package.game().to_str().unwrap()]);
    assert_eq!(replay.status.code(), Some(1), "{}", said(&replay));
    assert!(said(&replay).contains("did not come back"), "{}", said(&replay));
}
