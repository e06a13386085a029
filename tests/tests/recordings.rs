//! Recordings of play sessions: every session in the editor's host is recorded, replays
//! headless to the same state every turn, names the first field that differs when a rule
//! changed, and can be stepped back through turn by turn.

use std::path::{Path, PathBuf};

use nefia_game::display::Input;
use nefia_game::recording::{self, Recording};
use nefia_host::HostHandle;
use nefia_host::play::replay::{ReplayOptions, replay};
use nefia_protocol::message::{Command, HostEvent};
use nefia_protocol::play::PlayCommand;
use nefia_protocol::repl::Evaluation;
use nefia_protocol::view::RuntimeState;
use nefia_tests::DemoCopy;
use nefia_tests::host::{eval, spawn, wait_for};

fn value(host: &HostHandle, code: &str) -> String {
    match eval(host, code) {
        Evaluation::Values(mut values) => values.remove(0),
        other => panic!("{code}: {other:?}"),
    }
}

/// Presses `key` and waits until it has been handled (and a menu it opened has shown).
fn press(host: &HostHandle, key: &str) {
    host.send(Command::Input(Input::Key(key.into())));
    eval(host, "true");
}

/// Presses `key` as [`press`] does; a prompt it opened (walking into someone who is not
/// hostile asks first) is answered with Escape.
fn press_past_prompts(host: &HostHandle, key: &str) {
    let before = host.snapshot().serial;
    press(host, key);
    if !wait_for(host, |s| s.serial >= before + 2).layers.is_empty() {
        press(host, "escape");
    }
}

fn hash(host: &HostHandle) -> String {
    value(host, "World.state_hash()").trim_matches('"').to_owned()
}

fn turn(host: &HostHandle) -> u64 {
    value(host, "World.turn()").parse().expect("a number")
}

/// Answers the open menu with entry `index`.
fn choose(host: &HostHandle, index: usize) {
    let snapshot = wait_for(host, |s| s.state == RuntimeState::InQuery);
    let layer = snapshot.layers.last().expect("a menu is open").id;
    host.send(Command::Input(Input::Choose { layer, index }));
    eval(host, "true");
}

/// Stops play and returns the recording it wrote.
fn stop(host: &HostHandle, project: &Path) -> (PathBuf, Recording) {
    host.send(Command::Play(PlayCommand::Stop));
    wait_for(host, |s| !s.play.playing);
    eval(host, "true");
    let files = nefia_game::files::ron_files(&project.join("recordings"));
    assert_eq!(files.len(), 1, "one session, one recording: {files:?}");
    let recording = Recording::read(&files[0]).expect("the recording reads back");
    (files[0].clone(), recording)
}

/// A session with walking, a fight to the death, a menu (the potion of sight) and REPL code.
fn play_a_session(host: &HostHandle) {
    // A new game has a seed of its own: the player is made to outlast any run of misses.
    eval(host, "victim = Chara.create('elona.putit', 17, 10) victim.hp = 40");
    eval(host, "local p = Chara.player() p.max_hp = 400 p.hp = 400");
    for _ in 0..200 {
        if value(host, "victim.location == nil") == "true" {
            break;
        }
        press(host, "right");
    }
    assert_eq!(value(host, "victim.location == nil"), "true", "the putit died");
    eval(host, "Chara.player():set_pos(14, 11) World.refresh_sight()");
    press(host, "g");
    press(host, "q");
    choose(host, 0);
    for key in ["down", "down", "left", "up"] {
        press(host, key);
    }
}

#[test]
fn a_session_is_recorded_and_replays_headless_to_the_same_state_every_turn() {
    let copy = DemoCopy::new();
    let host = spawn(&copy.project());
    play_a_session(&host);
    let final_hash = hash(&host);
    let (path, recording) = stop(&host, &copy.project());
    assert!(path.file_name().unwrap().to_string_lossy().ends_with("-town.ron"), "{path:?}");
    assert!(recording.turns.len() > 5, "a mark at every turn: {}", recording.turns.len());
    assert!(recording.inputs.iter().any(|(_, i)| matches!(i, recording::Input::Choose(0, 0))), "the menu answer");
    assert_eq!(recording.inputs.last().map(|(_, i)| i), Some(&recording::Input::Stop));
    assert!(recording.files.contains_key("mods/elona/game/rules.lua"), "the files by hash");
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("Key(\"right\")"), "readable RON");

    let options = ReplayOptions { check: true, ..ReplayOptions::default() };
    let report = replay(&copy.project(), &recording, &options).expect("the replay runs");
    assert_eq!(report.divergence, None, "every turn's hash as recorded");
    assert_eq!(report.ended, "play stopped as recorded");
    assert_eq!(report.turns, recording.turns.len() - 1);
    assert_eq!(format!("{:016x}", report.final_hash), final_hash, "the state play ended in");
    assert!(report.files.is_empty(), "{:?}", report.files);

    // Twice gives the same bytes.
    let saves: Vec<Vec<u8>> = (0..2)
        .map(|n| {
            let out = copy.root.path().join(format!("final-{n}.ron"));
            let options = ReplayOptions { save_to: Some(out.clone()), ..ReplayOptions::default() };
            replay(&copy.project(), &recording, &options).expect("the replay runs");
            std::fs::read(out).unwrap()
        })
        .collect();
    assert_eq!(saves[0], saves[1]);
    // No replay wrote the project's saves or another recording.
    assert_eq!(nefia_game::files::ron_files(&copy.project().join("recordings")).len(), 1);
}

#[test]
fn a_changed_rule_fails_the_replay_at_the_first_differing_turn_and_names_the_field() {
    let copy = DemoCopy::new();
    let host = spawn(&copy.project());
    play_a_session(&host);
    let (_, recording) = stop(&host, &copy.project());
    drop(host);
    // Blows hit harder (the same random numbers are drawn).
    let rules = copy.mod_file("elona/game/rules.lua");
    let text = std::fs::read_to_string(&rules).unwrap();
    let changed = text.replace("math.random(0, 2) - target", "math.random(0, 2) + 5 - target");
    assert_ne!(text, changed, "the damage formula is where the test expects it");
    std::fs::write(&rules, changed).unwrap();

    let options = ReplayOptions { check: true, ..ReplayOptions::default() };
    let report = replay(&copy.project(), &recording, &options).expect("the replay runs");
    assert_eq!(report.files.changed, vec!["mods/elona/game/rules.lua".to_owned()]);
    let divergence = report.divergence.expect("the replay differs");
    let said = divergence.to_string();
    assert!(said.contains(&format!("turn {}: uid", divergence.turn)), "{said}");
    // "uid 12 (elona.putit) hp 33 → 28" (or the player's, if the putit struck first): the
    // recorded value, then the replayed one.
    let blow = divergence.differences.iter().find(|d| d.contains(") hp ")).unwrap_or_else(|| panic!("{said}"));
    let values: Vec<i64> = blow.rsplit(" hp ").next().unwrap().split(" → ").map(|v| v.parse().unwrap()).collect();
    assert_eq!(values[0] - values[1], 5, "the replayed blow took 5 more: {blow}");
}

#[test]
fn the_clock_a_rule_reads_is_recorded_and_served_back_on_replay() {
    let copy = DemoCopy::new();
    let host = spawn(&copy.project());
    eval(&host, "save.elona.started_at = os.clock() save.elona.day = os.date('%Y', os.time())");
    press(&host, "right");
    std::thread::sleep(std::time::Duration::from_millis(20));
    let (_, recording) = stop(&host, &copy.project());
    assert!(recording.inputs.iter().any(|(_, i)| matches!(i, recording::Input::Clock(_))));
    assert!(recording.inputs.iter().any(|(_, i)| matches!(i, recording::Input::Time(_))));
    let options = ReplayOptions { check: true, ..ReplayOptions::default() };
    let report = replay(&copy.project(), &recording, &options).expect("the replay runs");
    assert_eq!(report.divergence, None, "os.clock() gave the recorded value");

    // A recording without the reads: the replay says where game code read the clock.
    let mut unread = recording.clone();
    unread.inputs.retain(|(_, i)| !matches!(i, recording::Input::Clock(_) | recording::Input::Time(_)));
    let report = replay(&copy.project(), &unread, &ReplayOptions::default()).expect("the replay runs");
    assert!(
        report.errors.iter().any(|e| e.starts_with("game code read the clock at turn 0 where the recording has")),
        "{:?}",
        report.errors
    );
}

#[test]
fn stepping_back_a_hundred_turns_one_by_one_gives_each_turn_as_it_was_going_forward() {
    let copy = DemoCopy::new();
    let host = spawn(&copy.project());
    let mut seen = vec![(turn(&host), hash(&host))];
    // A death would end the walk.
    eval(&host, "Chara.player().max_hp = 100000 Chara.player().hp = 100000");
    let mut rng = fastrand::Rng::with_seed(7);
    let keys = ["up", "down", "left", "right", "5"];
    for pressed in 0.. {
        if seen.len() > 100 {
            break;
        }
        assert!(pressed < 2000, "100 turns in 2,000 keys");
        press_past_prompts(&host, keys[rng.usize(..keys.len())]);
        let now = turn(&host);
        if now != seen.last().unwrap().0 {
            seen.push((now, hash(&host)));
        }
    }
    for expected in seen.iter().rev().skip(1) {
        host.send(Command::Play(PlayCommand::StepBack));
        assert_eq!((turn(&host), hash(&host)), *expected, "stepped back to turn {}", expected.0);
    }
    let position = host.snapshot().play.recording.expect("recording");
    assert_eq!(position.back, 0, "at the start of the session");
    assert!(position.forward >= 100, "{position:?}");
    // Forward again re-applies the recorded inputs.
    for expected in seen.iter().skip(1).take(10) {
        host.send(Command::Play(PlayCommand::StepForward));
        assert_eq!((turn(&host), hash(&host)), *expected, "stepped forward to turn {}", expected.0);
    }
    // A new input branches: the old future is dropped.
    press(&host, "5");
    let (_, recording) = stop(&host, &copy.project());
    assert_eq!(recording.branches.len(), 1);
    assert_eq!(recording.branches[0].dropped_turns, 90);
    assert_eq!(recording.turns.len(), 12, "the start, ten turns stepped forward and the branch's turn");
    let options = ReplayOptions { check: true, ..ReplayOptions::default() };
    let report = replay(&copy.project(), &recording, &options).expect("the replay runs");
    assert_eq!(report.divergence, None, "the branched recording replays");
}

#[test]
fn stop_after_stepping_back_keeps_the_turns_ahead_and_the_recording_replays_to_its_end() {
    let copy = DemoCopy::new();
    let host = spawn(&copy.project());
    let start = turn(&host);
    // Fifteen turns of waiting (a turn each, whatever stands around).
    while turn(&host) < start + 15 {
        press_past_prompts(&host, "5");
    }
    let end_hash = hash(&host);
    while turn(&host) > start + 6 {
        host.send(Command::Play(PlayCommand::StepBack));
    }
    let (_, recording) = stop(&host, &copy.project());
    assert_eq!(recording.turns.last().map(|m| m.turn), Some(start + 15), "turns 7–15 are kept");
    let at = recording.stopped_back_at.expect("where play was stopped is noted");
    assert_eq!(recording.turns[at].turn, start + 6, "stopped at turn 6 of the session");
    assert!(recording.branches.is_empty(), "nothing was dropped");
    let options = ReplayOptions { check: true, ..ReplayOptions::default() };
    let report = replay(&copy.project(), &recording, &options).expect("the replay runs");
    assert_eq!(report.divergence, None, "every turn as recorded");
    assert_eq!(report.ended, "play stopped as recorded");
    assert_eq!(format!("{:016x}", report.final_hash), end_hash, "to the end of what was played");
}

/// Where the objects of prototype `id` stand on the current map (from the Locations tree).
fn positions_of(snapshot: &nefia_protocol::view::Snapshot, id: &str) -> Vec<(i32, i32)> {
    let current = snapshot.locations.maps.iter().find(|m| m.current);
    current.map_or(Vec::new(), |map| map.objects.iter().filter(|o| o.id.as_str() == id).map(|o| (o.x, o.y)).collect())
}

/// The vi key that steps from `from` towards `to`.
fn key_towards(from: (i32, i32), to: (i32, i32)) -> &'static str {
    match ((to.0 - from.0).signum(), (to.1 - from.1).signum()) {
        (-1, -1) => "y",
        (0, -1) => "k",
        (1, -1) => "u",
        (-1, 0) => "h",
        (1, 0) => "l",
        (-1, 1) => "b",
        (0, 1) => "j",
        (1, 1) => "n",
        _ => "5",
    }
}

/// Sends `key` and waits for the snapshot after it, with no REPL code in between (the
/// recording holds keys only): a barrier, which is not recorded, follows the key, and a frame
/// published before the key was handled (an animation's) is not taken for the key's.
fn key(host: &HostHandle, key: &str) -> std::sync::Arc<nefia_protocol::view::Snapshot> {
    host.send(Command::Input(Input::Key(key.into())));
    host.send(Command::Sync { id: 0 });
    nefia_tests::host::event(host, &mut Vec::new(), |e| matches!(e, HostEvent::Synced { id: 0 }).then_some(()));
    host.snapshot()
}

/// Sends a movement key as [`key`] does; a prompt it opened (walking into someone not
/// hostile) is answered with Escape.
fn step(host: &HostHandle, k: &str) -> std::sync::Arc<nefia_protocol::view::Snapshot> {
    let after = key(host, k);
    match after.layers.is_empty() {
        true => after,
        false => key(host, "escape"),
    }
}

/// Walks towards `to` until there, trying the neighbouring directions when blocked.
fn walk_to(host: &HostHandle, to: (i32, i32)) {
    for _ in 0..120 {
        let at = host.snapshot().player_at.expect("the player is on the map");
        if at == to {
            return;
        }
        let direct = key_towards(at, to);
        let moved = step(host, direct).player_at != Some(at);
        if !moved {
            let (dx, dy) = ((to.0 - at.0).signum(), (to.1 - at.1).signum());
            let sideways = if dx != 0 && dy != 0 { [(dx, 0), (0, dy)] } else { [(dy, dx), (-dy, -dx)] };
            for (sx, sy) in sideways {
                if step(host, key_towards(at, (at.0 + sx, at.1 + sy))).player_at != Some(at) {
                    break;
                }
            }
        }
    }
    panic!("could not walk to {to:?}");
}

#[test]
#[ignore = "writes projects/demo/recordings/tests: run it to remake the demo's regression recordings"]
fn remake_the_demo_regression_recordings() {
    let repo = nefia_tests::repo_root().join("projects/demo/recordings");
    type Session = (&'static str, fn(&HostHandle));
    let sessions: [Session; 3] = [
        ("walk-and-kill", |host| {
            // Walk at the nearest putit and strike it until the player kills one.
            let count = |s: &nefia_protocol::view::Snapshot| positions_of(s, "elona.putit").len();
            let mut killed = false;
            for _ in 0..300 {
                let snapshot = host.snapshot();
                let at = snapshot.player_at.expect("on the map");
                let putits = positions_of(&snapshot, "elona.putit");
                let distance = |p: &&(i32, i32)| (p.0 - at.0).abs().max((p.1 - at.1).abs());
                let target = *putits.iter().min_by_key(distance).expect("a putit is left");
                let striking = distance(&&target) == 1;
                if count(&step(host, key_towards(at, target))) < putits.len() && striking {
                    killed = true;
                    break;
                }
            }
            assert!(killed, "the player killed a putit");
            for k in ["h", "h", "j"] {
                step(host, k);
            }
        }),
        ("stairs-down-and-back", |host| {
            // Round the pond: down first, then along the bottom row.
            walk_to(host, (16, 17));
            walk_to(host, (29, 17));
            key(host, "enter");
            wait_for(host, |s| s.map.as_ref().is_some_and(|m| m.name == "dungeon"));
            for k in ["l", "l", "h", "h"] {
                step(host, k);
            }
            key(host, "enter");
            wait_for(host, |s| s.map.as_ref().is_some_and(|m| m.name == "town"));
            step(host, "k");
        }),
        ("potion-of-sight-and-save", |host| {
            // The putits come for a player who waits twenty turns: this one outlasts them.
            eval(host, "Chara.player().max_hp = 1000 Chara.player().hp = 1000");
            walk_to(host, (14, 11));
            key(host, "g");
            key(host, "q");
            let menu = wait_for(host, |s| s.state == RuntimeState::InQuery);
            let layer = menu.layers.last().expect("the menu").id;
            host.send(Command::Input(Input::Choose { layer, index: 0 }));
            wait_for(host, |s| s.layers.is_empty());
            for _ in 0..21 {
                key(host, "5");
            }
            key(host, "ctrl+s");
            key(host, "5");
            key(host, "ctrl+l");
            key(host, "5");
        }),
    ];
    for (name, play) in sessions {
        let copy = DemoCopy::new();
        let host = spawn(&copy.project());
        play(&host);
        host.send(Command::Play(PlayCommand::Stop));
        wait_for(&host, |s| !s.play.playing);
        drop(host);
        let made = nefia_game::files::ron_files(&copy.project().join("recordings"));
        std::fs::create_dir_all(repo.join("tests")).unwrap();
        std::fs::copy(&made[0], repo.join("tests").join(format!("{name}.ron"))).unwrap();
        let store = recording::files_dir(&copy.project().join("recordings"));
        std::fs::create_dir_all(recording::files_dir(&repo)).unwrap();
        for blob in std::fs::read_dir(store).unwrap().flatten() {
            std::fs::copy(blob.path(), recording::files_dir(&repo).join(blob.file_name())).unwrap();
        }
    }
}

#[test]
fn the_demo_ships_regression_recordings_that_replay_as_recorded() {
    let tests = nefia_host::play::replay::run_regression_tests(&nefia_tests::repo_root().join("projects/demo"), true);
    let names: Vec<String> = tests.iter().map(|t| t.path.file_stem().unwrap().to_string_lossy().into_owned()).collect();
    assert_eq!(names, ["potion-of-sight-and-save", "stairs-down-and-back", "walk-and-kill"]);
    for test in &tests {
        assert!(test.passed(), "{}", test.describe());
        let report = test.outcome.as_ref().unwrap();
        assert_eq!(report.end_test, Some(Ok(())), "each has a test_end that ran");
    }
}

#[test]
fn an_invariant_that_stops_holding_fails_the_demo_tests_naming_it_and_the_turn() {
    let copy = DemoCopy::new();
    let invariants = copy.mod_file("elona/game/invariants.lua");
    let text = std::fs::read_to_string(&invariants).unwrap();
    let planted = "\ndata:add { _type = \"base.invariant\", _id = \"short_games\", check = function() \
                   return World.turn() < 3, \"the game went past turn 2\" end }\n";
    std::fs::write(&invariants, text + planted).unwrap();
    let without = nefia_host::play::replay::run_regression_tests(&copy.project(), false);
    assert!(without.iter().all(|t| t.passed()), "not asked for, the invariants do not run");
    let tests = nefia_host::play::replay::run_regression_tests(&copy.project(), true);
    let fight = tests.iter().find(|t| t.path.ends_with("walk-and-kill.ron")).unwrap();
    assert!(!fight.passed());
    let said = fight.describe();
    assert!(said.contains("after turn 3, invariant elona.short_games failed: the game went past turn 2"), "{said}");
}

#[test]
fn changing_a_rule_or_a_prototype_fails_the_demo_tests_at_the_first_differing_turn_and_field() {
    let copy = DemoCopy::new();
    let rules = copy.mod_file("elona/game/rules.lua");
    let text = std::fs::read_to_string(&rules).unwrap();
    // Every blow takes 1 (the same random numbers are drawn): the putit lives longer.
    let weaker = text
        .replace("attacker:calc(\"strength\") + math.random(0, 2) - target:calc(\"pv\")", "1 + 0 * math.random(0, 2)");
    assert_ne!(weaker, text);
    std::fs::write(&rules, weaker).unwrap();
    let tests = nefia_host::play::replay::run_regression_tests(&copy.project(), false);
    let fight = tests.iter().find(|t| t.path.ends_with("walk-and-kill.ron")).unwrap();
    assert!(!fight.passed());
    let said = fight.describe();
    assert!(said.contains("FAILED walk-and-kill"), "{said}");
    assert!(said.contains("files changed since it was recorded: changed: mods/elona/game/rules.lua"), "{said}");
    let divergence = fight.outcome.as_ref().unwrap().divergence.as_ref().expect("a turn differs");
    assert!(!divergence.differences.is_empty(), "the fields are named: {said}");
    assert!(said.contains(&format!("turn {}: uid", divergence.turn)), "{said}");

    // A prototype's max_hp: the player's, read from the first turn on.
    std::fs::write(&rules, text).unwrap();
    let charas = copy.mod_file("elona/content/charas.lua");
    let text = std::fs::read_to_string(&charas).unwrap();
    let player = text.find("_id = \"player\"").expect("the player prototype");
    let at = player + text[player..].find("max_hp = ").unwrap();
    let rest = text[at..].split_once(',').map(|(_, rest)| rest).unwrap();
    let changed = format!("{}max_hp = 99,{rest}", &text[..at]);
    std::fs::write(&charas, changed).unwrap();
    let tests = nefia_host::play::replay::run_regression_tests(&copy.project(), false);
    assert!(tests.iter().all(|t| !t.passed()), "every test starts with the player");
}

#[test]
fn three_hundred_random_turns_with_menus_and_saves_replay_to_the_same_state_every_turn() {
    let copy = DemoCopy::new();
    let host = spawn(&copy.project());
    // Nothing here may end the game early.
    eval(&host, "Chara.player().max_hp = 100000 Chara.player().hp = 100000");
    let mut rng = fastrand::Rng::with_seed(300);
    let moves = ["up", "down", "left", "right", "y", "u", "b", "n", "5", "5", "enter"];
    let actions = ["g", "d", "i", "e", "q", "ctrl+s", "ctrl+l"];
    let in_menus = ["up", "down", "down", "enter", "enter", "escape"];
    let mut snapshot = host.snapshot();
    let mut sent = 0;
    while snapshot.turn < 300 {
        sent += 1;
        assert!(sent < 5000, "300 turns in 5,000 inputs (at turn {})", snapshot.turn);
        let pick = if !snapshot.layers.is_empty() {
            in_menus[rng.usize(..in_menus.len())]
        } else if rng.u8(..8) == 0 {
            actions[rng.usize(..actions.len())]
        } else {
            moves[rng.usize(..moves.len())]
        };
        snapshot = key(&host, pick);
    }
    while !snapshot.layers.is_empty() {
        snapshot = key(&host, "escape");
    }
    let (_, recording) = stop(&host, &copy.project());
    assert!(recording.turns.len() > 300, "{} turn marks", recording.turns.len());
    let kinds = |wanted: &str| {
        recording.inputs.iter().filter(|(_, i)| matches!(i, recording::Input::Key(k) if k == wanted)).count()
    };
    assert!(kinds("ctrl+s") > 0 && kinds("ctrl+l") > 0, "saves and loads were made");
    let options = ReplayOptions { check: true, ..ReplayOptions::default() };
    let report = replay(&copy.project(), &recording, &options).expect("the replay runs");
    assert_eq!(report.divergence, None, "every turn's hash as recorded");
    assert_eq!(report.turns, recording.turns.len() - 1);
    assert_eq!(report.ended, nefia_host::play::replay::PLAY_STOPPED);
}

#[test]
fn a_thousand_turns_can_be_gone_back_through_in_little_memory() {
    let copy = DemoCopy::new();
    let host = spawn(&copy.project());
    eval(&host, "Chara.player().max_hp = 100000 Chara.player().hp = 100000");
    let mut rng = fastrand::Rng::with_seed(1000);
    let keys = ["up", "down", "left", "right", "5"];
    let mut snapshot = host.snapshot();
    while snapshot.turn < 1000 {
        snapshot = match snapshot.layers.is_empty() {
            true => key(&host, keys[rng.usize(..keys.len())]),
            false => key(&host, "escape"),
        };
    }
    let position = wait_for(&host, |s| s.play.recording.is_some_and(|r| r.turns >= 1000)).play.recording.unwrap();
    // A long session is written as it goes, so a crash loses little of it.
    let so_far = nefia_game::files::ron_files(&copy.project().join("recordings"));
    let so_far = Recording::read(&so_far[0]).expect("the recording so far reads");
    assert!(so_far.turns.len() > 750, "written every 250 turns: {} marks", so_far.turns.len());
    assert!(position.back >= 1000, "{position:?}");
    assert!(position.kept_bytes < 50 << 20, "{} bytes kept for 1,000 turns", position.kept_bytes);
    let hash_at = |mark: usize| {
        host.send(Command::Play(PlayCommand::GoToTurn(mark)));
        u64::from_str_radix(&hash(&host), 16).unwrap()
    };
    let (first, middle) = (hash_at(0), hash_at(500));
    hash_at(position.at);
    let (_, recording) = stop(&host, &copy.project());
    assert_eq!(recording.turns[0].hash, first, "the first turn, 1,000 back");
    assert_eq!(recording.turns[500].hash, middle, "a turn in the middle");
    assert!(recording.branches.is_empty(), "going back and forth is not a new way");
}

#[test]
fn stepping_back_goes_across_the_stairs_a_save_and_a_load_with_the_save_tables() {
    let copy = DemoCopy::new();
    let host = spawn(&copy.project());
    let mut seen = vec![(turn(&host), hash(&host))];
    // The start of each turn, as the recorder marks them (a load starts one too).
    let mut mark = |host: &HostHandle| {
        let now = turn(host);
        if seen.last().unwrap().0 != now {
            seen.push((now, hash(host)));
        }
    };
    // Down the stairs and back up, a save table changed on the way, a save and a load.
    eval(&host, "Chara.player():set_pos(29, 16) World.refresh_sight()");
    for key in ["j", "enter", "l", "h", "enter", "k"] {
        press(&host, key);
        mark(&host);
    }
    eval(&host, "save.elona.visits = 7");
    press(&host, "ctrl+s");
    mark(&host);
    for key in ["h", "h"] {
        press(&host, key);
        mark(&host);
    }
    eval(&host, "save.elona.visits = 9");
    press(&host, "ctrl+l");
    mark(&host);
    press(&host, "l");
    mark(&host);
    assert!(seen.len() >= 10, "{} turn starts", seen.len());
    for expected in seen.iter().rev().skip(1) {
        host.send(Command::Play(PlayCommand::StepBack));
        assert_eq!((turn(&host), hash(&host)), *expected, "stepped back to turn {}", expected.0);
    }
    assert_eq!(value(&host, "Map.current().name"), "\"town\"");
}

#[test]
fn a_broken_or_hostile_recording_is_refused_or_stopped_with_a_message_that_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let demo = nefia_tests::repo_root().join("projects/demo/recordings/tests/walk-and-kill.ron");
    let text = std::fs::read_to_string(&demo).unwrap();

    let broken = dir.path().join("broken.ron");
    std::fs::write(&broken, text.replacen("inputs: [", "inputs: [(0, Kee(\"up\")),", 1)).unwrap();
    let error = Recording::read(&broken).unwrap_err().to_string();
    assert!(error.starts_with(&format!("{}:", broken.display())) && error.contains("Kee"), "{error}");

    let escaping = dir.path().join("escaping.ron");
    let hash = Recording::read(&demo).unwrap().files["maps/town.ron"].clone();
    std::fs::write(&escaping, text.replacen(&hash, "../../../etc/pass", 1)).unwrap();
    let error = Recording::read(&escaping).unwrap_err().to_string();
    assert!(error.contains("the hash of maps/town.ron is \"../../../etc/pass\""), "{error}");

    // REPL code that never ends is stopped by the time limit; the replay goes on to its end.
    let mut runaway = Recording::read(&demo).unwrap();
    runaway.inputs.insert(0, (0, recording::Input::Eval("while true do end".into())));
    for mark in &mut runaway.turns[1..] {
        mark.input += 1;
    }
    let project = nefia_tests::repo_root().join("projects/demo");
    let report = replay(&project, &runaway, &ReplayOptions::default()).expect("the replay runs");
    assert_eq!(report.ended, nefia_host::play::replay::PLAY_STOPPED);
    assert_eq!(report.turns, runaway.turns.len() - 1, "every turn after it was played");
}

#[test]
fn an_edit_at_the_first_turn_is_not_a_turn_to_step_back_to() {
    let copy = DemoCopy::new();
    let host = spawn(&copy.project());
    let player = host.snapshot().player.expect("a player");
    let fov = value(&host, "Chara.player().fov");
    let edit =
        nefia_game::edit::Edit::SetBase { uids: vec![player], field: "fov".into(), value: nefia_game::Value::Int(3) };
    host.send(Command::Editing(nefia_protocol::editing::EditingCommand::Edit(edit)));
    eval(&host, "true");
    let position = wait_for(&host, |s| s.play.recording.is_some_and(|r| r.changed)).play.recording.expect("recorded");
    assert_eq!((turn(&host), position.back, position.forward), (0, 0, 0), "turn 0, no turn behind: {position:?}");
    assert!(position.can_step_back(), "the edit can still be stepped back over: {position:?}");
    host.send(Command::Play(PlayCommand::StepBack));
    assert_eq!(value(&host, "Chara.player().fov"), fov, "stepping back goes to the start of the turn");
    let position = wait_for(&host, |s| s.play.recording.is_some_and(|r| !r.changed)).play.recording.expect("recorded");
    assert!(!position.can_step_back(), "at the start of the session: {position:?}");
}
