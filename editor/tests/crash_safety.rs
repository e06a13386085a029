//! Crash safety: a process saving a game over and over is killed with SIGKILL 20 times (or
//! more, until at least three kills landed in the middle of a write, leaving a temp file): in
//! turn at a random moment, and the moment a write's temp file appears; each time the save
//! file left behind loads (the old one or the new one, whole), and the temp files of killed
//! writes are cleared by the next save. And the editor opened on
//! a project whose last session died with edits unsaved offers them back.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::Duration;

use nefia_lua::Runtime;
use nefia_protocol::editing::EditingCommand;
use nefia_tests::DemoCopy;

mod common;

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

#[test]
fn a_save_killed_at_any_moment_leaves_a_loadable_file() {
    let copy = DemoCopy::new();
    let project = copy.project();
    let script = project.join("saver.lua");
    std::fs::write(&script, SAVER).unwrap();
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
        let mut child = Command::new(env!("CARGO_BIN_EXE_nefia"))
            .args(["run", &script.display().to_string(), "--project", &project.display().to_string()])
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("nefia starts");
        let mut ready = String::new();
        BufReader::new(child.stdout.take().unwrap()).read_line(&mut ready).unwrap();
        assert_eq!(ready.trim(), "ready", "round {round}: the saver started");
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        if round % 2 == 0 {
            std::thread::sleep(Duration::from_millis(seed >> 33 & 0x1ff));
        } else {
            // The moment the next write begins.
            while writes.try_recv().is_ok() {}
            writes.recv_timeout(Duration::from_secs(30)).expect("the saver writes again");
        }
        // SIGKILL: no destructor, no flush, nothing runs.
        child.kill().unwrap();
        child.wait().unwrap();
        if temps() > 0 {
            mid_write += 1;
        }

        let mut runtime = Runtime::open_project(&project, Box::new(|_| {})).unwrap();
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
    let runtime = Runtime::open_project(&project, Box::new(|_| {})).unwrap();
    runtime.save_game("slot").unwrap();
    let leftovers: Vec<_> = std::fs::read_dir(project.join("saves"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temp files left: {leftovers:?}");
}

#[test]
fn the_editor_offers_the_edits_a_crashed_session_left_and_brings_them_back() {
    use egui_kittest::kittest::Queryable;
    use nefia_game::edit::Edit;
    use nefia_protocol::message::Command;
    let copy = DemoCopy::new();
    {
        // A session paints and dies: its runtime is left as it is, told nothing.
        let host = nefia_tests::host::spawn_editing(&copy.project());
        let map = host.snapshot().map.as_ref().map(|m| m.id).unwrap();
        let paint = Edit::PaintTiles { map, cells: vec![(10, 2), (11, 2)], tile: "elona.water".into() };
        host.send(Command::Editing(EditingCommand::Edit(Edit::Stroke { id: 1, edit: Box::new(paint) })));
        nefia_tests::host::eval(&host, "return 1");
        std::mem::forget(host);
    }
    let mut harness = common::editor_on(&copy.project(), nefia_editor::panes::repl::ReplState::default());
    common::step_until(&mut harness, "the offer", |h| h.query_by_label("Recover unsaved edits?").is_some());
    assert!(harness.query_by_label("1 edit(s)").is_some(), "the town's one stroke is listed");
    // Through accesskit: a pointer click can land before the modal has settled on a slow run.
    harness.get_by_label("Recover").click_accesskit();
    common::step_until(&mut harness, "recovered", |h| {
        let snapshot = &h.state().state().snapshot;
        snapshot.editing.recovery.is_none() && snapshot.maps.files.iter().any(|m| m.name == "town" && m.dirty)
    });
    assert_eq!(harness.state().state().snapshot.editing.history.labels, ["Paint 2 cells with elona.water"]);
    harness.run_steps(2);
    assert!(harness.query_by_label("Recover unsaved edits?").is_none(), "the question is gone");
    // What came back is said, in the unit the question counted, until it is read.
    common::step_until(&mut harness, "the report", |h| h.query_by_label("Edits recovered").is_some());
    assert!(harness.query_by_label_contains("1 edit(s) came back").is_some(), "the stroke is counted as one edit");
    harness.get_by_label("OK").click_accesskit();
    common::step_until(&mut harness, "the report read", |h| h.query_by_label("Edits recovered").is_none());
}
