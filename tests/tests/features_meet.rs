//! Nothing is lost where features meet: a scripted user goes through every feature that
//! changes the game — painting, REPL edits, Inspector edits with undo and redo, the
//! workbench's preview, Play this and bake, play with step back, a hotload, saving and opening
//! maps — in an order that puts every feature after every other one. The process is killed
//! with SIGKILL at random moments; what the edit journal brings back, saved, is compared byte
//! for byte with the maps of a run that was not killed, after the same steps. Every play
//! session any run recorded replays with `--check`.
//!
//! The order is a de Bruijn sequence over the features (each ordered pair once), and each
//! step's details (cells, tiles, seeds) come from its number alone, so a run that is not
//! killed makes the same edits. (proptest's shrinking does not fit a test whose cases are
//! processes killed at random times; the seeds and the step printed on failure reproduce one.)

use std::path::Path;
use std::time::Duration;

use nefia_game::edit::Edit;
use nefia_game::recording::Recording;
use nefia_game::{Holder, ObjectKind, Uid, Value};
use nefia_host::HostHandle;
use nefia_host::play::replay::{ReplayOptions, replay};
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::maps::MapCommand;
use nefia_protocol::message::Command;
use nefia_protocol::mods::ModCommand;
use nefia_protocol::play::PlayCommand;
use nefia_protocol::play::PlayFrom;
use nefia_protocol::repl::Evaluation;
use nefia_protocol::workbench::WorkbenchCommand;
use nefia_tests::DemoCopy;
use nefia_tests::host::{eval, spawn_editing, wait_for};

/// A feature that changes the game, as a user reaches it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Feature {
    /// A brush stroke of three parts on the current map.
    Paint,
    /// REPL code that makes a character (one History entry).
    ReplEdit,
    /// An Inspector edit of a character's hp, then undo and maybe redo.
    InspectorEdit,
    /// The workbench previews a seed, then closes the preview.
    Preview,
    /// The workbench's Play this: play its preview a turn, Stop, close it.
    PlayThis,
    /// The workbench bakes its preview into a new map (written to its file).
    Bake,
    /// Play from the start map, four turns, step back two, Stop.
    PlayStepBack,
    /// A mod file saved: the hotload reloads it.
    Hotload,
    /// Save every map, open the other map of the project, and come back.
    SaveAndOpen,
}

const FEATURES: [Feature; 9] = [
    Feature::Paint,
    Feature::ReplEdit,
    Feature::InspectorEdit,
    Feature::Preview,
    Feature::PlayThis,
    Feature::Bake,
    Feature::PlayStepBack,
    Feature::Hotload,
    Feature::SaveAndOpen,
];

/// The de Bruijn sequence B(k, 2) over `0..k`, closed: every ordered pair `(a, b)` appears
/// once as consecutive entries.
fn every_pair(k: usize) -> Vec<usize> {
    // The Lyndon-word construction (Fredricksen, Kessler and Maiorana).
    fn visit(t: usize, p: usize, k: usize, a: &mut [usize; 3], out: &mut Vec<usize>) {
        if t > 2 {
            if 2 % p == 0 {
                out.extend_from_slice(&a[1..=p]);
            }
            return;
        }
        a[t] = a[t - p];
        visit(t + 1, p, k, a, out);
        for symbol in a[t - p] + 1..k {
            a[t] = symbol;
            visit(t + 1, t, k, a, out);
        }
    }
    let mut out = Vec::new();
    visit(1, 1, k, &mut [0; 3], &mut out);
    // Closed: the last pair wraps round to the first symbol.
    out.push(out[0]);
    out
}

/// The script: every feature after every other one.
fn script() -> Vec<Feature> {
    every_pair(FEATURES.len()).into_iter().map(|i| FEATURES[i]).collect()
}

/// Waits until every command sent before has been done (commands are done in order).
fn settle(host: &HostHandle) {
    eval(host, "return 1");
}

fn eval_int(host: &HostHandle, code: &str) -> i64 {
    match eval(host, code) {
        Evaluation::Values(values) => values[0].parse().unwrap_or_else(|_| panic!("{code}: {values:?}")),
        other => panic!("{code}: {other:?}"),
    }
}

/// The preview map of a workbench preview just asked for.
fn preview_map(host: &HostHandle, seed: i64) -> nefia_game::MapId {
    host.send(Command::Workbench(WorkbenchCommand::Preview {
        generator: "elona.cave".into(),
        params: Value::Nil,
        seed,
    }));
    settle(host);
    let shown = wait_for(host, |s| s.preview.as_ref().is_some_and(|p| p.map.is_some()));
    shown.preview.as_ref().and_then(|p| p.map).expect("a preview map")
}

/// Does step `step`, feature `feature`, on `project`: its details come from the step's number.
/// `journaled` is called after each journaled command of a step made of several (a kill can
/// land between them, and the recovered maps are then those of that prefix of the step).
fn do_step(host: &HostHandle, project: &Path, step: usize, feature: Feature, journaled: &mut dyn FnMut()) {
    let mut rng = fastrand::Rng::with_seed(u64::try_from(step).expect("a small step"));
    let (x, y) = (rng.i32(1..30), rng.i32(1..18));
    let current = || host.snapshot().map.as_ref().map(|m| m.id).expect("a current map");
    match feature {
        Feature::Paint => {
            let map = current();
            let tile = if rng.bool() { "elona.wall_stone" } else { "elona.floor_stone" };
            for part in 0..3 {
                let paint = Edit::PaintTiles { map, cells: vec![(x + part, y)], tile: tile.into() };
                let id = 1000 + u64::try_from(step).expect("a small step");
                host.send(Command::Editing(EditingCommand::Edit(Edit::Stroke { id, edit: Box::new(paint) })));
                journaled();
            }
        }
        Feature::ReplEdit => {
            eval(host, &format!("Chara.create('elona.putit', {x}, {y})"));
        }
        Feature::InspectorEdit => {
            let code = "local n = 0 for _, c in Chara.iter() do n = math.max(n, c.uid) end return n";
            let uid = eval_int(host, code);
            if uid > 0 {
                let uid = Uid(u64::try_from(uid).expect("a uid"));
                let value = Value::Int(rng.i64(1..50));
                host.send(Command::Editing(EditingCommand::Edit(Edit::SetBase {
                    uids: vec![uid],
                    field: "hp".into(),
                    value,
                })));
                journaled();
                host.send(Command::Editing(EditingCommand::Undo));
                journaled();
                if rng.bool() {
                    host.send(Command::Editing(EditingCommand::Redo));
                }
            } else {
                let map = current();
                let to = Holder::Map(map);
                host.send(Command::Editing(EditingCommand::Edit(Edit::Create {
                    kind: ObjectKind::Chara,
                    id: "elona.putit".into(),
                    to,
                    x,
                    y,
                })));
            }
        }
        Feature::Preview => {
            preview_map(host, rng.i64(0..1000));
            host.send(Command::Workbench(WorkbenchCommand::Close));
        }
        Feature::PlayThis => {
            let map = preview_map(host, rng.i64(0..1000));
            host.send(Command::Play(PlayCommand::Start(PlayFrom::Map(map))));
            host.send(Command::Input(nefia_game::display::Input::Key("5".into())));
            host.send(Command::Play(PlayCommand::Stop));
            host.send(Command::Workbench(WorkbenchCommand::Close));
        }
        Feature::Bake => {
            preview_map(host, rng.i64(0..1000));
            host.send(Command::Workbench(WorkbenchCommand::Bake(format!("baked_{step}"))));
        }
        Feature::PlayStepBack => {
            host.send(Command::Play(PlayCommand::Start(PlayFrom::Start)));
            for _ in 0..4 {
                host.send(Command::Input(nefia_game::display::Input::Key("5".into())));
            }
            host.send(Command::Play(PlayCommand::StepBack));
            host.send(Command::Play(PlayCommand::StepBack));
            host.send(Command::Play(PlayCommand::Stop));
        }
        Feature::Hotload => {
            let mods = project.parent().and_then(Path::parent).expect("the copy's root").join("mods");
            let file = mods.join("elona/game/rules.lua");
            let text = std::fs::read_to_string(&file).expect("the rules");
            nefia_tests::write(&file, format!("{text}\n-- saved at step {step}\n")).expect("the rules are written");
            host.send(Command::Mods(ModCommand::Reload(file)));
        }
        Feature::SaveAndOpen => {
            let back = host.snapshot().maps.files.iter().find(|m| m.current).map(|m| m.name.clone());
            host.send(Command::Maps(MapCommand::SaveAll));
            host.send(Command::Maps(MapCommand::Open("dungeon".into())));
            if let Some(back) = back {
                host.send(Command::Maps(MapCommand::Open(back)));
            }
        }
    }
    settle(host);
}

/// The key prefix of the session journaling on `project` now, if any.
fn key_prefix(project: &Path) -> Option<String> {
    let journal = nefia_game::journal::journal_dir(project);
    std::fs::read_to_string(nefia_game::journal::key_prefix_path(&journal)).ok()
}

/// Saves every map and returns every map file of the project, by name, with the keys of
/// objects the sessions made written `<session>-<uid>`: each session has its own prefix (a
/// recovered one goes on with the crashed one's; one that found nothing to recover, all
/// saved, picks a new one while the files keep the killed session's keys), named in `also`.
fn saved_maps(project: &Path, host: &HostHandle, also: Option<&str>) -> String {
    host.send(Command::Maps(MapCommand::SaveAll));
    wait_for(host, |s| s.maps.files.iter().all(|m| !m.dirty));
    let mut out = String::new();
    for file in nefia_game::files::ron_files(&project.join("maps")) {
        let text = std::fs::read_to_string(&file).expect("a map file");
        out += &format!("== {}\n{}", file.display().to_string().rsplit('/').next().unwrap_or_default(), text);
    }
    for prefix in key_prefix(project).iter().map(String::as_str).chain(also) {
        out = out.replace(&format!("\"{prefix}-"), "\"<session>-");
    }
    out
}

/// Tells the test binary, run again as a child process, to be the scripted user on the
/// project at this path.
const CHILD: &str = "NEFIA_FEATURES_CHILD";

/// The child process: goes through the script, telling each step done on stdout, then waits
/// to be killed.
#[test]
#[ignore = "the scripted user the features test runs as a child process"]
fn features_child() {
    use std::io::Write;
    let Ok(project) = std::env::var(CHILD) else { return };
    let project = std::path::PathBuf::from(project);
    let host = spawn_editing(&project);
    println!("ready");
    for (step, feature) in script().into_iter().enumerate() {
        do_step(&host, &project, step, feature, &mut || {});
        println!("done {}", step + 1);
        std::io::stdout().flush().expect("stdout");
    }
    println!("finished");
    std::io::stdout().flush().expect("stdout");
    std::thread::sleep(Duration::from_secs(600));
}

/// Runs the child on a copy of the demo, kills it `delay` after it is ready (or once it has
/// finished, with None), recovers, and returns the copy, the steps it told done and its maps.
fn killed_run(delay: Option<Duration>) -> (DemoCopy, usize, String) {
    let copy = DemoCopy::new();
    let patience = Duration::from_secs(120);
    let child = nefia_tests::ScriptedChild::start("features_child", CHILD, &copy.project(), patience);
    let done = match delay {
        Some(delay) => {
            std::thread::sleep(delay);
            usize::try_from(child.kill()).expect("a step count")
        }
        None => {
            child.wait_for_line("finished", patience);
            child.kill();
            script().len()
        }
    };
    let killed_prefix = key_prefix(&copy.project());
    let host = spawn_editing(&copy.project());
    settle(&host);
    if host.snapshot().editing.recovery.is_some() {
        host.send(Command::Editing(EditingCommand::Recover(true)));
        wait_for(&host, |s| s.editing.recovery.is_none());
    }
    let maps = saved_maps(&copy.project(), &host, killed_prefix.as_deref());
    drop(host);
    (copy, done, maps)
}

/// Every recording in `project` replays to its end with every turn's state as recorded.
fn recordings_replay(project: &Path) -> usize {
    let files = nefia_game::files::ron_files(&project.join("recordings"));
    for file in &files {
        let recording = Recording::read(file).expect("the recording reads back");
        let options = ReplayOptions { check: true, ..ReplayOptions::default() };
        let report = replay(project, &recording, &options).expect("the replay runs");
        assert_eq!(report.divergence, None, "{} replays as recorded", file.display());
    }
    files.len()
}

#[test]
fn killed_anywhere_in_a_session_that_uses_every_feature_after_every_other_nothing_is_lost() {
    let script = script();
    assert_eq!(script.len(), FEATURES.len() * FEATURES.len() + 1);
    for a in FEATURES {
        for b in FEATURES {
            assert!(script.windows(2).any(|w| w == [a, b]), "{a:?} then {b:?} is tried");
        }
    }
    // Kills spread over the session, and one after its end (every pair then lies before it).
    let mut rng = fastrand::Rng::with_seed(28);
    let mut delays: Vec<Option<Duration>> = (0..5).map(|_| Some(Duration::from_millis(rng.u64(200..20_000)))).collect();
    delays.push(None);
    let runs: Vec<(DemoCopy, usize, String)> = delays.into_iter().map(killed_run).collect();

    // A run that is not killed: the maps after each step, and after each journaled command
    // inside a step (a kill may land between two of them).
    let reference = DemoCopy::new();
    let host = spawn_editing(&reference.project());
    let last = runs.iter().map(|r| r.1).max().expect("runs") + 1;
    let initial = Reached { steps_done: 0, step_ended: true, maps: saved_maps(&reference.project(), &host, None) };
    let mut reached = vec![initial];
    for (step, feature) in script.iter().copied().enumerate().take(last) {
        let mut inside = Vec::new();
        do_step(&host, &reference.project(), step, feature, &mut || {
            settle(&host);
            inside.push(saved_maps(&reference.project(), &host, None));
        });
        reached.extend(inside.into_iter().map(|maps| Reached { steps_done: step, step_ended: false, maps }));
        reached.push(Reached {
            steps_done: step + 1,
            step_ended: true,
            maps: saved_maps(&reference.project(), &host, None),
        });
    }
    drop(host);
    for (_, done, maps) in &runs {
        // Killed after `done` steps were told: anywhere in the next step, or after it, done
        // but not yet told.
        let explained = reached.iter().any(|r| {
            let could_be = r.steps_done == *done || (r.steps_done == done + 1 && r.step_ended);
            could_be && r.maps == *maps
        });
        let told = reached.iter().find(|r| r.steps_done == *done && r.step_ended).map_or("", |r| r.maps.as_str());
        assert!(
            explained,
            "killed after {done} steps (the next was {:?}): the recovered maps are not those of any prefix of the \
             journal then\n{}",
            script.get(*done),
            first_difference(told, maps)
        );
    }
    let recorded: usize = runs.iter().map(|(copy, ..)| recordings_replay(&copy.project())).sum::<usize>()
        + recordings_replay(&reference.project());
    assert!(recorded > 10, "play sessions were recorded: {recorded}");
}

/// A state the run that is not killed reached: the maps after a journaled command.
struct Reached {
    /// The steps done then (those before the step the command is part of).
    steps_done: usize,
    /// The command was its step's last.
    step_ended: bool,
    /// The maps.
    maps: String,
}

/// The first line where `expected` and `got` differ, for the failure message.
fn first_difference(expected: &str, got: &str) -> String {
    let (expected, got): (Vec<&str>, Vec<&str>) = (expected.lines().collect(), got.lines().collect());
    (0..expected.len().max(got.len())).find(|&i| expected.get(i) != got.get(i)).map_or_else(
        || "no difference".into(),
        |i| format!("line {}: expected {:?}, got {:?}", i + 1, expected.get(i), got.get(i)),
    )
}
