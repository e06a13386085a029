//! `nefia fuzz`: a bug planted in a copy of the demo is found within a few seeds, shrunk to a
//! handful of inputs and written as a regression recording that fails `nefia test` until the
//! plant is removed; the unchanged demo fuzzes clean; and what the fuzzer found in the engine
//! (a step back replaying a load saw the save as the session left it, not as it was then)
//! stays fixed.

use std::time::Duration;

use nefia_game::display::Input;
use nefia_game::recording::Recording;
use nefia_host::fuzz::{self, FailureKind, FuzzOptions, FuzzProgress, ShrinkBudget, Weights};
use nefia_host::play::replay::{ReplayOptions, replay, run_regression_tests};
use nefia_host::seeds::Seeds;
use nefia_protocol::message::Command;
use nefia_protocol::play::PlayCommand;
use nefia_protocol::play::PlayFrom;
use nefia_tests::DemoCopy;
use nefia_tests::host::{eval, spawn_editing, wait_for};

/// A run over `seeds` of `turns` turns, stopping at the first failure.
fn options(seeds: Seeds, turns: usize, weights: Weights) -> FuzzOptions {
    FuzzOptions {
        seeds,
        turns,
        jobs: 2,
        time: None,
        weights,
        // Bounded by runs alone: a time budget would shrink less on a loaded machine, and the
        // test asserts how small the shrunk game is.
        shrink: ShrinkBudget { runs: 400, time: Duration::MAX },
        write_tests: true,
        max_failures: Some(1),
    }
}

/// The planted bug: a potion of sight drunk before a save heals 20 past max_hp when the
/// game is loaded.
const PLANTS: [(&str, &str); 2] = [
    (
        "      Effects.start(player, \"sight\", \"fov\", item.sight_bonus, item.sight_turns)\n",
        "      Effects.start(player, \"sight\", \"fov\", item.sight_bonus, item.sight_turns)\n      save.elona.drank_sight = true\n",
    ),
    (
        "   local ok, problem = pcall(Save.load_game, \"quicksave\")\n",
        "   local ok, problem = pcall(Save.load_game, \"quicksave\")\n   if ok and save.elona.drank_sight then\n      Chara.player().hp = Chara.player().hp + 20\n   end\n",
    ),
];

#[test]
fn a_planted_bug_is_found_shrunk_and_kept_as_a_regression_test_until_it_is_fixed() {
    let copy = DemoCopy::new();
    let commands = copy.mod_file("elona/game/commands.lua");
    let original = std::fs::read_to_string(&commands).unwrap();
    let mut planted = original.clone();
    for (from, to) in PLANTS {
        assert_eq!(planted.matches(from).count(), 1, "the plant's place is in commands.lua: {from}");
        planted = planted.replace(from, to);
    }
    std::fs::write(&commands, &planted).unwrap();
    // A player who picks up, drinks, saves and loads more than most.
    let weights = Weights::parse("move=12,pickup=6,menu=6,save=3,load=3,back=0,forward=0,drop=1").unwrap();
    let project = copy.project();
    let mut seen = Vec::new();
    let report =
        fuzz::fuzz(&project, &options(Seeds::range(1, 40), 200, weights), &FuzzProgress::default(), &mut |r| {
            seen.push(r.seed)
        })
        .expect("the fuzz runs");
    let (result, found) = report.failures().next().expect("the plant is found within 40 seeds");
    assert_eq!(found.shrunk.failure.kind, FailureKind::Invariant("elona.hp_within_max".into()), "{found:?}");
    assert!(found.shrunk.failure.message.contains("above its max_hp"), "{}", found.shrunk.failure.message);
    assert!(found.shrunk.failure.objects().contains(&11), "the player (uid 11) is named: {:?}", found.shrunk.failure);
    let shrunk: Vec<String> = found.shrunk.actions.iter().map(ToString::to_string).collect();
    assert!(found.shrunk.actions.len() <= 10, "shrunk to at most 10 inputs from {}: {shrunk:?}", found.played);
    assert!(found.played > found.shrunk.actions.len());
    for needed in ["ctrl+s", "ctrl+l", "q"] {
        assert!(shrunk.iter().any(|a| a == needed), "the shrunk inputs drink, save and load: {shrunk:?}");
    }
    // The regression recording and its end test.
    let path = found.test.as_ref().expect("written").as_ref().expect("written without error").clone();
    assert_eq!(path, fuzz::regression_path(&project, &found.shrunk.failure.kind, result.seed));
    let recording = Recording::read(&path).unwrap();
    let origin = recording.fuzz.clone().expect("it says where it came from");
    assert_eq!((origin.seed, origin.shrunk, origin.compares_states), (result.seed, found.shrunk.actions.len(), false));
    let end_test = std::fs::read_to_string(path.with_extension("lua")).unwrap();
    assert!(end_test.contains("failure.id ~= \"elona.hp_within_max\""), "{end_test}");
    assert!(end_test.contains("nefia edit") && end_test.contains("--recording"), "{end_test}");
    let fuzz_test = |project: &std::path::Path| {
        run_regression_tests(project, false).into_iter().find(|t| t.path == path).expect("nefia test runs it")
    };
    let failing = fuzz_test(&project);
    assert!(!failing.passed(), "it fails while the bug is there");
    assert!(failing.describe().contains("elona.hp_within_max"), "{}", failing.describe());
    // The bug fixed: the same recording passes.
    std::fs::write(&commands, &original).unwrap();
    let passing = fuzz_test(&project);
    assert!(passing.passed(), "it passes once the plant is removed: {}", passing.describe());
}

#[test]
fn the_unchanged_demo_fuzzes_clean_and_a_seed_is_one_game() {
    let copy = DemoCopy::new();
    let project = copy.project();
    let run = || {
        let options = FuzzOptions { max_failures: None, ..options(Seeds::range(1, 4), 120, Weights::default()) };
        fuzz::fuzz(&project, &options, &FuzzProgress::default(), &mut |_| {}).expect("the fuzz runs")
    };
    let first = run();
    let failures: Vec<String> = first.failures().map(|(r, f)| format!("seed {}: {:?}", r.seed, f.shrunk)).collect();
    assert!(failures.is_empty(), "{failures:?}");
    assert_eq!(first.results.iter().map(|r| r.seed).collect::<Vec<_>>(), [1, 2, 3, 4]);
    assert!(first.results.iter().all(|r| r.inputs > 0));
    // The same seeds play the same games, whichever worker plays them.
    let again = run();
    let games =
        |report: &fuzz::FuzzReport| report.results.iter().map(|r| (r.seed, r.turns, r.inputs)).collect::<Vec<_>>();
    assert_eq!(games(&first), games(&again));
}

/// Found by `nefia fuzz` (seed 5 of the demo): load (no save yet), wait, save, wait, step
/// back, wait. Stepping back replayed the first load against the save written later, so the
/// game went another way than the recording says and the recording did not replay.
#[test]
fn stepping_back_over_a_save_replays_its_loads_as_they_were() {
    let copy = DemoCopy::new();
    let host = spawn_editing(&copy.project());
    host.send(Command::Play(PlayCommand::Start(PlayFrom::Start)));
    wait_for(&host, |s| s.play.playing && s.player.is_some());
    let key = |k: &str| host.send(Command::Input(Input::Key(k.into())));
    key("ctrl+l");
    host.send(Command::Play(PlayCommand::StepTurn));
    key("ctrl+s");
    host.send(Command::Play(PlayCommand::StepTurn));
    host.send(Command::Play(PlayCommand::StepBack));
    host.send(Command::Play(PlayCommand::StepTurn));
    host.send(Command::Play(PlayCommand::StepTurn));
    eval(&host, "1");
    let turn = host.snapshot().turn;
    assert_eq!(turn, 3, "back to turn 1, then two turns");
    host.send(Command::Play(PlayCommand::Stop));
    wait_for(&host, |s| !s.play.playing);
    let recordings = nefia_game::files::ron_files(&copy.project().join("recordings"));
    let path = recordings.last().expect("the session was recorded");
    let recording = Recording::read(path).unwrap();
    assert_eq!(recording.branches.len(), 1, "the step back went another way");
    let report =
        replay(&copy.project(), &recording, &ReplayOptions { check: true, ..ReplayOptions::default() }).unwrap();
    assert!(report.divergence.is_none(), "{:?}", report.divergence);
    assert!(report.passed(), "{}", report.ended);
}
