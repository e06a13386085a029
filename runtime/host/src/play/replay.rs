//! Replaying a recording headless: `nefia replay`, `nefia test` and the project's regression
//! tests.
//!
//! A replay is a [`Host`] with no frontend: the recording's inputs are its commands, in
//! order, and a menu the inputs open waits for the next recorded input exactly as the
//! editor's waits for the player. It starts from the state the session began in, sees the
//! recorded clock reads, loads the saves the session loaded (kept in the recording; saves it
//! writes go to a scratch folder, never the project's), and compares the state hash at the
//! start of every turn with the recorded one. When they differ and the project's files
//! changed since the recording, the recorded files (kept by hash in `recordings/files/`) are
//! replayed beside it to the same turn, so the report names the fields that differ.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Sender};

use crate::Host;
use crate::play::headless::{HeadlessError, HeadlessPlay};
use nefia_game::files::FileError;
use nefia_game::recording::{self, FileChanges, Recording, RecordingError};
use nefia_lua::gui;
use nefia_lua::invariants::InvariantFailure;
use nefia_lua::runtime::{Runtime, RuntimeError};
use nefia_protocol::failure::LuaFailure;
use nefia_protocol::message::{Command, HostEvent};
use nefia_protocol::play::ChangeEntry;
use nefia_protocol::play::PlayCommand;
use nefia_protocol::play::PlayFrom;

/// How far a replay goes and what it does at the end.
#[derive(Clone, Debug, Default)]
pub struct ReplayOptions {
    /// Stop at the first turn whose state differs from the recorded one.
    pub check: bool,
    /// Stop at the start of this game turn.
    pub to_turn: Option<u64>,
    /// Write the final state here as a save.
    pub save_to: Option<PathBuf>,
    /// A Lua file whose `test_end(world)` runs at the end, with `Assert` (a regression
    /// recording's checks).
    pub end_test: Option<PathBuf>,
    /// Note every change of this object's field ("When did this change?", `--changes`).
    pub changes: Option<(nefia_game::object::Uid, nefia_game::symbol::Symbol)>,
    /// Profile every turn (`--profile`).
    pub profile: bool,
    /// Run the invariants (`base.invariant` prototypes) after every turn and stop at the
    /// first that fails (`--invariants`).
    pub invariants: bool,
    /// An error the game logs (the error screen's included) or a panic fails the replay (a
    /// fuzz regression recording's).
    pub errors_fail: bool,
}

/// The first turn a replay did not come to the recorded state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Divergence {
    /// The game turn.
    pub turn: u64,
    /// Its index among the recording's turn marks.
    pub mark: usize,
    /// The first differences as field paths, recorded value first (empty when they could
    /// not be named: see `why`).
    pub differences: Vec<String>,
    /// What the report can say about the cause.
    pub why: String,
}

impl std::fmt::Display for Divergence {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "turn {}: the state differs from the recorded one", self.turn)?;
        for difference in &self.differences {
            write!(f, "\n  turn {}: {difference}", self.turn)?;
        }
        if !self.why.is_empty() {
            write!(f, "\n  {}", self.why)?;
        }
        Ok(())
    }
}

/// What a replay did.
#[derive(Clone, Debug)]
pub struct ReplayReport {
    /// Turns replayed (turn marks passed after the start).
    pub turns: usize,
    /// Inputs replayed.
    pub inputs: usize,
    /// The game turn it ended on.
    pub last_turn: u64,
    /// The state hash it ended with.
    pub final_hash: u64,
    /// How the files differ from the recorded ones.
    pub files: FileChanges,
    /// The first turn that differed, with `--check`.
    pub divergence: Option<Divergence>,
    /// An error logged or a panic fails it ([`ReplayOptions::errors_fail`]).
    pub errors_fail: bool,
    /// The invariant that failed, and the turn after which it did (with `invariants`).
    pub invariant: Option<(u64, InvariantFailure)>,
    /// How it ended: "play stopped as recorded", "at turn 12 (--to-turn)".
    pub ended: String,
    /// Errors the game code logged while replaying, and the first clock read the recording
    /// did not have.
    pub errors: Vec<String>,
    /// What the end test said, if there was one: passed, or its failure.
    pub end_test: Option<Result<(), EndTestError>>,
    /// How long the replay took.
    pub took: Duration,
    /// The changes of the field asked about ([`ReplayOptions::changes`]), in order.
    pub changes: Vec<ChangeEntry>,
    /// The next uid the world would give at the end: every uid below it existed at some
    /// point of the replay, none from it on did.
    pub next_uid: nefia_game::object::Uid,
    /// Each turn's profile, with [`ReplayOptions::profile`].
    pub profile: Vec<Arc<nefia_protocol::profile::TurnProfile>>,
    /// The first error the game stopped on (the error screen), with the turn it came at: what
    /// a bug report's [`Recording::error`] is compared with.
    pub error_screen: Option<recording::ReportedError>,
}

impl ReplayReport {
    /// True if every turn was as recorded, play ended as recorded and the end test passed.
    pub fn passed(&self) -> bool {
        self.divergence.is_none()
            && self.invariant.is_none()
            && (!self.errors_fail || self.errors.is_empty())
            && self.ended == PLAY_STOPPED
            && self.end_test.as_ref().is_none_or(Result::is_ok)
    }
}

/// How a replay that ran to the recorded end of play says it ended.
pub const PLAY_STOPPED: &str = "play stopped as recorded";

/// Why a replay could not run.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The project could not be opened.
    #[error("the project could not be opened: {0}")]
    Open(#[from] RuntimeError),
    /// The recording's start could not be played.
    #[error("the recording's start could not be played: {0}")]
    Start(String),
    /// A file could not be written (`--save-to`).
    #[error(transparent)]
    File(#[from] FileError),
    /// The saves the recording read could not be laid out for it.
    #[error("the recording's start could not be played: {0}")]
    Saves(#[from] crate::play::recorder::ScratchSavesError),
}

/// Why a regression recording's end test failed.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum EndTestError {
    /// Its file, or its `test_end`, raised an error (an `Assert` that failed included).
    #[error(transparent)]
    Lua(#[from] LuaFailure),
    /// Its file defines no `test_end`.
    #[error("{}: defines no function test_end(world)", .0.display())]
    NoTestEnd(PathBuf),
}

/// Why a regression recording could not be replayed.
#[derive(Debug, thiserror::Error)]
pub enum RegressionError {
    /// The recording could not be read.
    #[error(transparent)]
    Read(#[from] RecordingError),
    /// The replay could not run.
    #[error(transparent)]
    Replay(#[from] ReplayError),
}

/// Why the recorded files could not be made a scratch project.
#[derive(Debug, thiserror::Error)]
enum RecordedFilesError {
    /// The scratch folder could not be made.
    #[error(transparent)]
    Scratch(#[from] std::io::Error),
    /// A recorded file is not kept in `recordings/files/` (under its hash).
    #[error("{name} as {hash}")]
    NotKept {
        /// The file's name in the project.
        name: String,
        /// Its content hash.
        hash: String,
    },
    /// A recorded file's name is not a path inside a project.
    #[error("{0} is not a path inside a project")]
    Outside(String),
    /// `project.ron` could not be read or written back, or a file could not be written.
    #[error(transparent)]
    File(#[from] FileError),
}

/// A headless host replaying one recording.
struct Replayer {
    host: Rc<Host>,
    events: Receiver<HostEvent>,
    /// Kept open so the host's channels stay connected; a replay never sends on it.
    _commands: Sender<Command>,
    errors: Rc<RefCell<Vec<String>>>,
    /// The saves the session read, and those the replay writes.
    _saves: tempfile::TempDir,
    /// The turn marks passed so far.
    mark: usize,
    inputs_total: usize,
    /// The changes a collecting watch noted, stamped with their turn mark.
    changes: Vec<ChangeEntry>,
    /// The first error the game stopped on, and its turn.
    error_screen: Option<recording::ReportedError>,
}

/// How far [`Replayer::run`] got.
enum Stopped {
    /// The inputs ran out or play ended.
    Ended(String),
    /// Turn mark `0` differs.
    Differs(usize),
    /// It came to the turn asked for.
    AtTurn,
    /// An invariant failed after this turn.
    Invariant(u64, InvariantFailure),
}

impl Replayer {
    /// Opens `project`, sets up the saves the recording needs, and starts play from its
    /// start.
    fn start(project: &Path, recording: &Recording) -> Result<Replayer, ReplayError> {
        let saves = crate::play::recorder::scratch_saves(recording)?;
        let from = PlayFrom::Recorded(Box::new(recording.start.clone()));
        let HeadlessPlay { host, events, _commands: commands, errors } =
            HeadlessPlay::start(project, saves.path(), None, (from, None)).map_err(|error| match error {
                HeadlessError::Open(error) => ReplayError::Open(error),
                HeadlessError::Start(why) => ReplayError::Start(why),
            })?;
        host.runtime.engine().session_mut().start_replaying(recording.inputs.iter().map(|(_, i)| i.clone()));
        host.play.replaying.set(true);
        Ok(Replayer {
            host,
            events,
            _commands: commands,
            errors,
            _saves: saves,
            mark: 0,
            inputs_total: recording.inputs.len(),
            changes: Vec::new(),
            error_screen: None,
        })
    }

    fn state_hash(&self) -> u64 {
        self.host.runtime.state_hash().unwrap_or_default()
    }

    /// Inputs replayed so far.
    fn consumed(&self) -> usize {
        self.inputs_total - self.host.runtime.engine().session().queue.len()
    }

    /// Takes the changes collected during the last command, as made in the turn of the
    /// current mark.
    fn stamp_changes(&mut self, engine: &nefia_lua::Engine) {
        for change in engine.take_watch_changes() {
            let same_turn = self.changes.iter().rev().take_while(|c| c.mark == self.mark).count();
            let nth = u32::try_from(same_turn).unwrap_or(u32::MAX);
            self.changes.push(ChangeEntry { mark: self.mark, nth, change });
        }
    }

    /// Replays until the inputs run out, play ends, a turn differs (with `check`) or turn
    /// mark `until` is reached.
    fn run(&mut self, recording: &Recording, options: &ReplayOptions, until: Option<usize>) -> Stopped {
        let check = options.check;
        if check && recording.turns.first().is_some_and(|m| m.hash != self.state_hash()) {
            return Stopped::Differs(0);
        }
        let engine = self.host.runtime.engine().clone();
        if options.invariants && !engine.world().logs_changes() {
            // Checked after every turn: the invariants of each object look at what changed.
            engine.world_mut().log_changes(true);
        }
        let mut last_turn = self.host.runtime.world().turn;
        loop {
            if until.is_some_and(|until| self.mark >= until) {
                return Stopped::AtTurn;
            }
            let Some(command) = self.host.play.next_replayed(&self.host.cx()) else {
                return Stopped::Ended("the recorded inputs ran out before play stopped".into());
            };
            if command == Command::Play(PlayCommand::Stop) {
                return Stopped::Ended(PLAY_STOPPED.into());
            }
            self.host.handle(command);
            // Drop what the game printed: no one reads it.
            self.events.try_iter().for_each(drop);
            if self.error_screen.is_none()
                && let Some(error) = self.host.debug.stops.error()
            {
                let turn = self.host.runtime.world().turn;
                self.error_screen = Some(recording::ReportedError { turn, message: error.to_string() });
            }
            self.stamp_changes(&engine);
            if self.host.shutting_down.get() {
                return Stopped::Ended("the recording ends while a menu or breakpoint waited".into());
            }
            if engine.quit_requested() {
                // The session ended here: the recording's Stop is the next input.
                return Stopped::Ended(PLAY_STOPPED.into());
            }
            let turn = self.host.runtime.world().turn;
            if turn != last_turn {
                last_turn = turn;
                self.mark += 1;
                let expected = recording.turns.get(self.mark);
                let same = expected.is_some_and(|m| m.turn == turn && m.hash == self.state_hash());
                if check && !same {
                    return Stopped::Differs(self.mark);
                }
                if options.invariants {
                    let lua = self.host.runtime.lua();
                    let failed = nefia_lua::invariants::check_all(lua).map(|f| f.into_iter().next());
                    let failed = failed.unwrap_or_else(|error| {
                        let message = nefia_lua::error::failure(error).message;
                        Some(InvariantFailure { id: "(the invariants)".into(), message })
                    });
                    if let Some(failure) = failed {
                        return Stopped::Invariant(turn, failure);
                    }
                }
            }
        }
    }
}

/// Replays `recording` on the project at `project` (see the module's text).
pub fn replay(project: &Path, recording: &Recording, options: &ReplayOptions) -> Result<ReplayReport, ReplayError> {
    let started = Instant::now();
    let files = compare_files(project, recording);
    let mut replayer = Replayer::start(project, recording)?;
    if options.profile {
        let engine = replayer.host.runtime.engine();
        engine.profiler().keep_turns(usize::MAX);
        engine.profiler().set_on(true, replayer.host.runtime.world().turn);
    }
    if let Some((uid, field)) = options.changes {
        let mut world = replayer.host.runtime.world_mut();
        world.watch(uid, field, nefia_game::world::WatchWhen::Changes, nefia_game::world::WatchAction::Collect);
    }
    let until = options.to_turn.map(|turn| recording.mark_of_turn(turn).unwrap_or(recording.turns.len()));
    let stopped = replayer.run(recording, options, until);
    let mut invariant = None;
    let (ended, divergence) = match stopped {
        Stopped::Ended(how) => (how, None),
        Stopped::AtTurn => (format!("at the start of turn {}", replayer.host.runtime.world().turn), None),
        Stopped::Invariant(turn, failure) => {
            let ended = format!("after turn {turn}, {failure}");
            invariant = Some((turn, failure));
            (ended, None)
        }
        Stopped::Differs(mark) => {
            let divergence = explain(project, recording, mark, &replayer, &files);
            (format!("turn {} differs", divergence.turn), Some(divergence))
        }
    };
    let end_test = options.end_test.as_ref().map(|path| run_end_test(&replayer.host.runtime, path));
    if let Some(path) = &options.save_to {
        let runtime = &replayer.host.runtime;
        let tables = nefia_lua::save::save_tables(runtime.lua()).map_err(|e| ReplayError::Start(e.to_string()))?;
        nefia_game::save::write_save(path, &runtime.world().live_save_game(tables))?;
    }
    // Game code that read the clock where the recording has no reading went another way.
    if let Some(diverged) = replayer.host.runtime.engine().session().diverged.clone() {
        replayer.errors.borrow_mut().push(diverged);
    }
    if let Some(panic) = replayer.host.recovery.fault() {
        replayer.errors.borrow_mut().push(panic);
    }
    let report = ReplayReport {
        turns: replayer.mark,
        inputs: replayer.consumed(),
        last_turn: replayer.host.runtime.world().turn,
        final_hash: replayer.state_hash(),
        files,
        divergence,
        errors_fail: options.errors_fail,
        invariant,
        ended,
        errors: replayer.errors.borrow().clone(),
        end_test,
        took: started.elapsed(),
        changes: std::mem::take(&mut replayer.changes),
        next_uid: replayer.host.runtime.world().next_uid(),
        profile: replayer.host.runtime.engine().profiler().turns(),
        error_screen: replayer.error_screen.take(),
    };
    gui::set_frontend(replayer.host.runtime.lua(), None);
    Ok(report)
}

/// Runs `test_end(world)` of the Lua file at `path` on the replayed game.
fn run_end_test(runtime: &Runtime, path: &Path) -> Result<(), EndTestError> {
    let assert = runtime.assert_library()?;
    let env = runtime.run_file_as(path, "test", &[("Assert", assert)])?;
    let test: mlua::Function = env
        .raw_get::<Option<mlua::Function>>("test_end")
        .map_err(nefia_lua::error::failure)?
        .ok_or_else(|| EndTestError::NoTestEnd(path.to_owned()))?;
    let world: mlua::Value = runtime.engine().api_global("World").map_err(nefia_lua::error::failure)?;
    let limits = runtime.engine().limits();
    limits.run(|| test.call::<()>(world)).map_err(|e| EndTestError::Lua(nefia_lua::error::failure(e)))
}

/// One regression recording of a project and how its replay went.
pub struct RegressionTest {
    /// The recording (`recordings/tests/<name>.ron`).
    pub path: PathBuf,
    /// Its replay with `--check` and its end test, or why it could not run.
    pub outcome: Result<ReplayReport, RegressionError>,
}

impl RegressionTest {
    /// True if it replayed as recorded and its end test passed.
    pub fn passed(&self) -> bool {
        self.outcome.as_ref().is_ok_and(ReplayReport::passed)
    }

    /// "passed: walk-and-fight (42 turns)" or what failed, in lines.
    pub fn describe(&self) -> String {
        let name = self.path.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
        let report = match &self.outcome {
            Err(error) => return format!("FAILED {name}: {error}"),
            Ok(report) => report,
        };
        if report.passed() {
            return format!("passed {name} ({} turns in {:.0} ms)", report.turns, report.took.as_secs_f64() * 1e3);
        }
        let mut lines = vec![format!("FAILED {name}")];
        if let Some(divergence) = &report.divergence {
            lines.push(format!("  {}", divergence.to_string().replace('\n', "\n  ")));
        } else if report.ended != PLAY_STOPPED {
            lines.push(format!("  {}", report.ended));
        }
        if report.errors_fail {
            for error in report.errors.iter().take(3) {
                lines.push(format!("  error: {}", error.lines().next().unwrap_or_default()));
            }
        }
        if let Some(Err(failure)) = &report.end_test {
            lines.push(format!("  test_end: {failure}"));
        }
        if !report.files.is_empty() {
            lines.push(format!("  files changed since it was recorded: {}", report.files.describe()));
        }
        lines.join("\n")
    }
}

/// The regression recordings of the project at `project` (`recordings/tests/*.ron`, each
/// with the `test_end` of the `.lua` file of the same name beside it, if there is one),
/// each replayed with `--check` (and the invariants after every turn with `invariants`).
/// One `nefia fuzz` wrote is replayed as its [`recording::FuzzOrigin`] says: the invariants
/// always on, any error failing it, and the states compared only if a replay that differed
/// was the failure.
pub fn run_regression_tests(project: &Path, invariants: bool) -> Vec<RegressionTest> {
    let dir = project.join("recordings").join("tests");
    nefia_game::files::ron_files(&dir)
        .into_iter()
        .map(|path| {
            let lua = path.with_extension("lua");
            let end_test = lua.is_file().then_some(lua);
            let outcome = Recording::read(&path).map_err(RegressionError::from).and_then(|recording| {
                let options = match &recording.fuzz {
                    Some(found) => ReplayOptions {
                        check: found.compares_states,
                        end_test,
                        invariants: true,
                        errors_fail: true,
                        ..ReplayOptions::default()
                    },
                    None => ReplayOptions { check: true, end_test, invariants, ..ReplayOptions::default() },
                };
                replay(project, &recording, &options).map_err(RegressionError::from)
            });
            RegressionTest { path, outcome }
        })
        .collect()
}

/// How the project's files now differ from the recorded ones.
fn compare_files(project: &Path, recording: &Recording) -> FileChanges {
    let Ok(manifest) = nefia_game::project::Project::open(project) else { return FileChanges::default() };
    let mods = nefia_game::mods::discover_all(&manifest.mod_dirs()).0;
    // The mods the recording used, as they are now.
    let loaded: Vec<(String, PathBuf)> = mods
        .into_values()
        .filter(|m| recording.files.keys().any(|name| name.starts_with(&format!("mods/{}/", m.id()))))
        .map(|m| (m.id().to_owned(), m.dir))
        .collect();
    let now: std::collections::BTreeMap<String, String> = recording::project_files(project, &loaded)
        .into_iter()
        .filter_map(|(name, path)| Some((name, recording::content_hash(&std::fs::read(path).ok()?))))
        .collect();
    recording::compare_files(&recording.files, &now)
}

/// Names what differs at turn mark `mark`: by replaying the recorded files beside the
/// project's to the same turn, when the files changed and were kept.
fn explain(project: &Path, recording: &Recording, mark: usize, now: &Replayer, files: &FileChanges) -> Divergence {
    let turn = now.host.runtime.world().turn;
    let mut divergence = Divergence { turn, mark, differences: Vec::new(), why: String::new() };
    if files.is_empty() {
        divergence.why = "the project's files are as recorded: the engine, or something game code read that is not \
                          recorded, made the difference"
            .into();
        return divergence;
    }
    divergence.why = format!("the files changed since the recording ({})", files.describe());
    let store = recording::files_dir(&project.join("recordings"));
    // Sheets are not recorded: the recorded prototypes' images are checked against today's.
    let assets = nefia_game::project::Project::open(project).map(|p| p.asset_dirs()).unwrap_or_default();
    let recorded = match recorded_project(&store, recording, &assets) {
        Ok(dir) => dir,
        Err(missing) => {
            divergence
                .why
                .push_str(&format!("; the recorded files are not kept ({missing}), so no field can be named"));
            return divergence;
        }
    };
    let mut then = match Replayer::start(recorded.path(), recording) {
        Ok(then) => then,
        Err(error) => {
            divergence
                .why
                .push_str(&format!("; the recorded files could not be played again to name the fields: {error}"));
            return divergence;
        }
    };
    then.run(recording, &ReplayOptions::default(), Some(mark));
    let (a, b) = (&then.host.runtime, &now.host.runtime);
    let saves = |r: &Runtime| nefia_lua::save::save_tables(r.lua()).unwrap_or_default();
    divergence.differences = a.world().differences(&saves(a), &b.world(), &saves(b), 8);
    gui::set_frontend(then.host.runtime.lua(), None);
    divergence
}

/// A scratch project made of the recorded files: `project.ron` (its mods found in its own
/// `mods/` folder, its images in `asset_dirs`), the maps, and each mod's files.
fn recorded_project(
    store: &Path,
    recording: &Recording,
    asset_dirs: &[PathBuf],
) -> Result<tempfile::TempDir, RecordedFilesError> {
    let dir = tempfile::tempdir()?;
    for (name, hash) in &recording.files {
        let bytes = std::fs::read(store.join(hash))
            .map_err(|_| RecordedFilesError::NotKept { name: name.clone(), hash: hash.clone() })?;
        let bytes = match name.as_str() {
            "project.ron" => {
                let text = String::from_utf8_lossy(&bytes);
                let path = Path::new("project.ron");
                let mut manifest: nefia_game::project::ProjectManifest = nefia_game::files::parse_ron(path, &text)?;
                // The project's own `mods/` folder is always searched.
                manifest.mod_dirs.clear();
                manifest.asset_dirs = asset_dirs.to_vec();
                nefia_game::files::to_ron(path, &manifest)?.into_bytes()
            }
            _ => bytes,
        };
        // The names are the recording's own, but it is a file from elsewhere: nothing may
        // land outside the scratch folder.
        let relative = Path::new(name);
        if relative.components().any(|c| !matches!(c, std::path::Component::Normal(_))) {
            return Err(RecordedFilesError::Outside(name.clone()));
        }
        nefia_game::files::write_atomic(&dir.path().join(relative), &bytes)?;
    }
    Ok(dir)
}
