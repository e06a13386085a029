//! `nefia fuzz`: the game played with random inputs, one game a seed on every core, the
//! invariants checked after every turn, and each failure shrunk to the fewest inputs that
//! still fail the same way and written as a regression recording.
//!
//! A seed is one game: the world's random numbers start from it, and so do the player's
//! draws (`actions.rs`: movement, waiting, stairs, picking up, dropping, menus answered at
//! random, saving and loading, stepping back and forward, weighted by `--inputs`). A game
//! runs on a headless host of its own (`runtime/game/src/lib.rs`), whose player answers every command the
//! host asks for, so a menu the game opens waits for the player's next draw exactly as it
//! waits for a key in the editor. A failure is an invariant that does not hold after a
//! turn, the error screen (a Lua error in game logic), an error the game logged, a panic the
//! host caught, or — for a game that went without one — a replay of its recording that does
//! not come to the state recorded at some turn. Each is shrunk (`shrink.rs`) and, with
//! [`FuzzOptions::write_tests`], written as `recordings/tests/fuzz-<what>-<seed>.ron` with
//! a `.lua` whose `test_end` asserts the failure is gone: a regression test `nefia test`
//! runs (the recording's [`FuzzOrigin`] says how: see
//! [`crate::play::replay::run_regression_tests`]).
//!
//! Workers take seeds one at a time from the range (its `--shard`, see
//! [`crate::seeds`]); the calling thread writes the regression recordings one at a
//! time as results come, so the project's folder sees one writer.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::play::replay::ReplayError;
use crate::seeds::Seeds;
use nefia_game::files::FileError;
use nefia_game::recording::{self, FuzzOrigin, Recording, RecordingError};
use nefia_lua::runtime::RuntimeError;

mod actions;
mod game;
mod self_test;
mod shrink;

pub use actions::{Action, Weights};
pub use game::{Failure, FailureKind};
pub use self_test::{SELF_TEST_SAVE, SelfTestOptions, SelfTestReport, self_test};
pub use shrink::{ShrinkBudget, Shrunk};

/// Mixed into a seed for the player's draws, so they are not the world's numbers again.
const DRAW_SALT: u64 = 0x9e37_79b9_7f4a_7c15;

/// The most workers a run starts: each plays in a Lua state of its own.
pub const MAX_JOBS: usize = 64;

/// Why fuzzing could not go on.
#[derive(Debug, thiserror::Error)]
pub enum FuzzError {
    /// The project could not be opened.
    #[error("the project could not be opened: {0}")]
    Open(#[from] RuntimeError),
    /// Play did not begin on the project's start.
    #[error("play did not begin: {0}")]
    Start(String),
    /// A scratch folder for a game's saves and recording could not be made.
    #[error("a scratch folder could not be made: {0}")]
    Scratch(std::io::Error),
    /// A game's recording could not be read back.
    #[error(transparent)]
    Recording(#[from] RecordingError),
    /// A game's recording could not be replayed.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// A regression recording could not be written.
    #[error(transparent)]
    File(#[from] FileError),
    /// A worker panicked outside any game's host.
    #[error("a fuzz worker panicked: {0}")]
    Worker(String),
}

/// What to fuzz.
#[derive(Clone, Debug)]
pub struct FuzzOptions {
    /// The seeds, one game each.
    pub seeds: Seeds,
    /// Turns a game plays.
    pub turns: usize,
    /// Worker threads (at least 1).
    pub jobs: usize,
    /// No seed is begun after this long.
    pub time: Option<Duration>,
    /// What the player draws.
    pub weights: Weights,
    /// What a shrink may spend on a failure.
    pub shrink: ShrinkBudget,
    /// Write each failure as a regression recording in `recordings/tests/`.
    pub write_tests: bool,
    /// Begin no seed once this many failed.
    pub max_failures: Option<u64>,
}

impl FuzzOptions {
    /// How many workers the run starts: the jobs asked for, but no more than there are
    /// seeds, nor than [`MAX_JOBS`]; at least one.
    pub fn workers(&self) -> usize {
        let seeds = usize::try_from(self.seeds.len()).unwrap_or(usize::MAX);
        self.jobs.min(seeds).clamp(1, MAX_JOBS)
    }
}

/// One seed's game.
#[derive(Debug)]
pub struct SeedResult {
    /// The seed.
    pub seed: i64,
    /// Turns it played.
    pub turns: usize,
    /// Inputs it played (keys, menu answers, steps).
    pub inputs: usize,
    /// What failed, if anything did.
    pub found: Option<Found>,
}

/// A failure found, shrunk, and where its regression recording went.
#[derive(Debug)]
pub struct Found {
    /// The failure as the fuzzed game met it.
    pub failure: Failure,
    /// Inputs the game had played when it failed.
    pub played: usize,
    /// The shrunk inputs, and the failure they come to.
    pub shrunk: Shrunk,
    /// The regression recording written, or why it could not be.
    pub test: Option<Result<PathBuf, FuzzError>>,
}

/// A run's counts so far, read from another thread (progress), and its stop button.
#[derive(Debug, Default)]
pub struct FuzzProgress {
    /// Seeds finished.
    pub seeds: AtomicU64,
    /// Turns played by the seeds finished.
    pub turns: AtomicU64,
    /// Failures found.
    pub failures: AtomicU64,
    /// Raised to begin no more seeds.
    pub cancel: AtomicBool,
}

/// What a run did.
#[derive(Debug)]
pub struct FuzzReport {
    /// Every seed played, by seed.
    pub results: Vec<SeedResult>,
    /// How long it took.
    pub took: Duration,
    /// True if `--time`, `--max-failures` (or a cancel) ended it before every seed was
    /// played.
    pub cut_short: bool,
}

impl FuzzReport {
    /// The seeds that failed.
    pub fn failures(&self) -> impl Iterator<Item = (&SeedResult, &Found)> {
        self.results.iter().filter_map(|r| r.found.as_ref().map(|found| (r, found)))
    }
}

/// Plays one seed's game; shrinks its failure, if it has one (counted in `progress` as soon
/// as it is found, so `max_failures` stops the other workers during the shrink). Games are
/// recorded in `scratch`.
fn run_seed(
    project: &Path,
    seed: i64,
    (options, progress): (&FuzzOptions, &FuzzProgress),
    scratch: &Path,
) -> Result<SeedResult, FuzzError> {
    let rng = fastrand::Rng::with_seed(seed.cast_unsigned() ^ DRAW_SALT);
    let source = game::Source::Random { rng, weights: options.weights.clone(), turns: options.turns };
    let played = game::play(project, seed, source, scratch)?;
    let failure = match played.failure.clone() {
        Some(failure) => Some(failure),
        None => game::replay_differs(project, &played)?,
    };
    played.discard();
    let found = match failure {
        Some(failure) => {
            progress.failures.fetch_add(1, Ordering::Relaxed);
            let shrunk = shrink::shrink(project, seed, (played.actions.clone(), &failure), scratch, options.shrink)?;
            Some(Found { failure, played: played.actions.len(), shrunk, test: None })
        }
        None => None,
    };
    Ok(SeedResult { seed, turns: played.turns, inputs: played.actions.len(), found })
}

/// One worker: plays seeds (by their place in the shard) from `next` until past the last,
/// the time is up or the run is cancelled; sends each result.
fn worker(
    project: &Path,
    options: &FuzzOptions,
    (next, started): (&AtomicU64, Instant),
    progress: &FuzzProgress,
    results: &crossbeam_channel::Sender<Result<SeedResult, FuzzError>>,
) {
    let scratch = match tempfile::tempdir() {
        Ok(dir) => dir,
        Err(error) => {
            let _ = results.send(Err(FuzzError::Scratch(error)));
            return;
        }
    };
    loop {
        let timed_out = options.time.is_some_and(|time| started.elapsed() >= time);
        let enough = options.max_failures.is_some_and(|most| progress.failures.load(Ordering::Relaxed) >= most);
        if timed_out || enough || progress.cancel.load(Ordering::Relaxed) {
            return;
        }
        let Some(seed) = options.seeds.nth(next.fetch_add(1, Ordering::Relaxed)) else { return };
        let result = run_seed(project, seed, (options, progress), scratch.path());
        if let Ok(result) = &result {
            progress.seeds.fetch_add(1, Ordering::Relaxed);
            progress.turns.fetch_add(u64::try_from(result.turns).unwrap_or(u64::MAX), Ordering::Relaxed);
        }
        let failed = result.is_err();
        if results.send(result).is_err() || failed {
            return;
        }
    }
}

/// Fuzzes `project` (see the module's text), counting in `progress`; `on_result` sees each
/// seed's result as it comes (its regression recording written first). The first error
/// that stops a game from being played at all (the project does not open) ends the run.
pub fn fuzz(
    project: &Path,
    options: &FuzzOptions,
    progress: &FuzzProgress,
    on_result: &mut dyn FnMut(&SeedResult),
) -> Result<FuzzReport, FuzzError> {
    let started = Instant::now();
    let next = AtomicU64::new(0);
    let (sender, receiver) = crossbeam_channel::unbounded();
    let mut results = Vec::new();
    let mut error = None;
    std::thread::scope(|threads| {
        let workers: Vec<_> = (0..options.workers())
            .map(|_| {
                let sender = sender.clone();
                let next = &next;
                threads.spawn(move || worker(project, options, (next, started), progress, &sender))
            })
            .collect();
        drop(sender);
        for result in &receiver {
            match result {
                Ok(mut result) => {
                    if let Some(found) = result.found.as_mut().filter(|_| options.write_tests) {
                        found.test = Some(write_regression(project, result.seed, found));
                    }
                    on_result(&result);
                    results.push(result);
                }
                Err(failed) => {
                    progress.cancel.store(true, Ordering::Relaxed);
                    error.get_or_insert(failed);
                }
            }
        }
        for handle in workers {
            if let Err(payload) = handle.join() {
                let message = payload
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| payload.downcast_ref::<&str>().map(|s| (*s).to_owned()))
                    .unwrap_or_default();
                error.get_or_insert(FuzzError::Worker(message));
            }
        }
    });
    if let Some(error) = error {
        return Err(error);
    }
    results.sort_by_key(|r| r.seed);
    let cut_short = u64::try_from(results.len()).unwrap_or(u64::MAX) < options.seeds.len();
    Ok(FuzzReport { results, took: started.elapsed(), cut_short })
}

/// Where a failure's regression recording goes: `recordings/tests/fuzz-<what>-<seed>.ron`.
pub fn regression_path(project: &Path, kind: &FailureKind, seed: i64) -> PathBuf {
    project.join("recordings").join("tests").join(format!("fuzz-{}-{seed}.ron", kind.file_part()))
}

/// Plays `found`'s shrunk inputs once more, recording, and writes the recording as a
/// regression test with its `test_end` beside it (see the module's text); the files it names
/// are kept in the project's `recordings/files/`. Returns the recording's path.
fn write_regression(project: &Path, seed: i64, found: &Found) -> Result<PathBuf, FuzzError> {
    let scratch = tempfile::tempdir().map_err(FuzzError::Scratch)?;
    let actions = found.shrunk.actions.clone().into_iter();
    let played = game::play(project, seed, game::Source::Fixed(actions), scratch.path())?;
    let Some(session) = &played.recording else {
        return Err(FuzzError::Start("the shrunk game was not recorded".into()));
    };
    let mut recording = Recording::read(session)?;
    let kind = &found.shrunk.failure.kind;
    recording.fuzz = Some(FuzzOrigin {
        seed,
        failure: kind.describe(),
        compares_states: *kind == FailureKind::ReplayDiffers,
        played: found.played,
        shrunk: found.shrunk.actions.len(),
    });
    let store = recording::files_dir(&project.join("recordings"));
    let scratch_store = recording::files_dir(scratch.path());
    for hash in recording.files.values() {
        let kept = store.join(hash);
        if !kept.exists() {
            let from = scratch_store.join(hash);
            let bytes = std::fs::read(&from).map_err(|e| FileError::new(&from, e.to_string()))?;
            nefia_game::files::write_atomic(&kept, &bytes)?;
        }
    }
    let path = regression_path(project, kind, seed);
    recording.write(&path)?;
    let replay = replay_command(project, &path);
    nefia_game::files::write_atomic(&path.with_extension("lua"), end_test(seed, found, &replay).as_bytes())?;
    Ok(path)
}

/// The command that opens a recording in the editor's timeline.
pub fn replay_command(project: &Path, recording: &Path) -> String {
    format!("nefia edit {} --recording {}", project.display(), recording.display())
}

/// The `.lua` beside a fuzz regression recording: what was found, and a `test_end` that
/// fails while an invariant that failed still does. (A Lua error, a logged error or a panic
/// fails the replay itself: see `run_regression_tests`.)
fn end_test(seed: i64, found: &Found, replay: &str) -> String {
    let failure = &found.shrunk.failure;
    let mut text = format!(
        "-- Written by `nefia fuzz`: seed {seed} failed, {} after turn {}:\n",
        failure.kind.describe(),
        failure.turn
    );
    for line in failure.message.lines().take(8) {
        text.push_str(&format!("--   {line}\n"));
    }
    text.push_str(&format!(
        "-- Shrunk from {} inputs to {}. While the bug is there, `nefia test` fails on this\n\
         -- recording; once it is fixed, this keeps it fixed. Step through it in the editor:\n\
         --   {replay}\n",
        found.played,
        found.shrunk.actions.len()
    ));
    match &failure.kind {
        FailureKind::Invariant(id) => text.push_str(&format!(
            "function test_end(world)\n   for _, failure in ipairs(World.check_invariants()) do\n      \
             Assert.is_true(failure.id ~= {}, failure.message)\n   end\nend\n",
            lua_string(id)
        )),
        _ => text.push_str("function test_end(world)\n   -- The replay itself fails while the error happens.\nend\n"),
    }
    text
}

/// `text` as a Lua string literal.
fn lua_string(text: &str) -> String {
    let mut quoted = String::from("\"");
    for c in text.chars() {
        match c {
            '"' | '\\' => {
                quoted.push('\\');
                quoted.push(c);
            }
            c if c.is_control() => {
                for byte in c.to_string().bytes() {
                    quoted.push_str(&format!("\\{byte:03}"));
                }
            }
            c => quoted.push(c),
        }
    }
    quoted.push('"');
    quoted
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lua_strings_escape_quotes_and_control_characters() {
        assert_eq!(lua_string("elona.hp_within_max"), "\"elona.hp_within_max\"");
        assert_eq!(lua_string("a\"b\\c\nd"), "\"a\\\"b\\\\c\\010d\"");
    }
}
