//! One fuzzed game: a headless host on a fresh runtime, a new game seeded with the seed, and
//! a player that answers every command the host asks for — top-level or a menu's — drawing
//! it at random (the seed's own draw) or taking it from a list (a shrink's candidate). After
//! every command at the top it looks for a failure: a panic the host caught, the error
//! screen, an error the game logged, and, when a turn passed, an invariant that does not
//! hold. The session is recorded, as the editor records one, so its steps back work and a
//! failure comes back as a recording.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use super::FuzzError;
use super::actions::{Action, Weights};
use crate::Host;
use crate::play::headless::{HeadlessError, HeadlessPlay};
use nefia_game::display;
use nefia_lua::gui;
use nefia_protocol::debugging::{DebugCommand, ReplCommand};
use nefia_protocol::message::{Command, HostEvent};
use nefia_protocol::play::PlayCommand;
use nefia_protocol::play::PlayFrom;
use nefia_protocol::repl::Evaluation;

/// The most commands given, after the actions ran out, to close the menus and breakpoints
/// still waiting.
const MAX_UNWIND: usize = 64;

/// How many actions a random game may play for each turn asked, at most (a player stuck in
/// menus still ends).
const ACTIONS_PER_TURN: usize = 8;

/// What failed in a fuzzed game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// An invariant (`base.invariant`) did not hold after a turn: its id.
    Invariant(String),
    /// The game's code raised an error (the error screen): where, as `file:line`, or the
    /// message's first line when it names no place.
    LuaError(String),
    /// The game logged an error: the message's first line.
    LoggedError(String),
    /// The host caught a panic.
    Panic,
    /// A replay of the game's recording did not come to the state recorded at a turn.
    ReplayDiffers,
}

impl FailureKind {
    /// The failure in a few words: `invariant elona.hp_within_max`.
    pub fn describe(&self) -> String {
        match self {
            FailureKind::Invariant(id) => format!("invariant {id}"),
            FailureKind::LuaError(at) => format!("Lua error at {at}"),
            FailureKind::LoggedError(line) => format!("logged error \"{line}\""),
            FailureKind::Panic => "panic".into(),
            FailureKind::ReplayDiffers => "replay differs".into(),
        }
    }

    /// Its part of a regression recording's file name: the invariant's id, or the kind.
    pub fn file_part(&self) -> String {
        let part = match self {
            FailureKind::Invariant(id) => id.as_str(),
            FailureKind::LuaError(_) => "lua-error",
            FailureKind::LoggedError(_) => "logged-error",
            FailureKind::Panic => "panic",
            FailureKind::ReplayDiffers => "replay-differs",
        };
        part.chars().map(|c| if c.is_ascii_alphanumeric() || c == '.' || c == '_' { c } else { '-' }).collect()
    }
}

/// A failure, with when it was seen and what it said.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// What failed; a shrink keeps the inputs that fail the same way.
    pub kind: FailureKind,
    /// The game's turn when it was seen.
    pub turn: u64,
    /// The whole message.
    pub message: String,
}

impl Failure {
    /// The objects the message names (`uid 12`), in order, once each.
    pub fn objects(&self) -> Vec<u64> {
        let mut uids = Vec::new();
        for (at, _) in self.message.match_indices("uid ") {
            let digits: String = self.message[at + 4..].chars().take_while(char::is_ascii_digit).collect();
            if let Ok(uid) = digits.parse::<u64>()
                && !uids.contains(&uid)
            {
                uids.push(uid);
            }
        }
        uids
    }
}

/// `file.lua:12` at the start of a Lua error's message (after a context such as `key d: `),
/// or its first line.
fn place_of(message: &str) -> String {
    let first = message.lines().next().unwrap_or_default();
    first
        .split(": ")
        .find(|part| {
            part.rsplit_once(':').is_some_and(|(file, line)| {
                file.ends_with(".lua") && !line.is_empty() && line.bytes().all(|b| b.is_ascii_digit())
            })
        })
        .unwrap_or(first)
        .to_owned()
}

/// Where a game's actions come from.
pub(super) enum Source {
    /// Drawn at random with `rng`, until `turns` turns passed.
    Random {
        /// The seed's own draw.
        rng: fastrand::Rng,
        /// What to draw.
        weights: Weights,
        /// How many turns to play.
        turns: usize,
    },
    /// These, in order.
    Fixed(std::vec::IntoIter<Action>),
}

/// How a game went.
pub(super) struct Played {
    /// Every action played, in order, up to the failure if there was one.
    pub actions: Vec<Action>,
    /// How many turns passed (going forward).
    pub turns: usize,
    /// The first failure seen.
    pub failure: Option<Failure>,
    /// Where the session's recording was written.
    pub recording: Option<PathBuf>,
}

impl Played {
    /// Removes the session's recording (a game judged and done with).
    pub fn discard(&self) {
        if let Some(path) = &self.recording {
            let _gone = std::fs::remove_file(path);
        }
    }
}

/// The failure of a game that went without one when its recording is replayed: the first
/// turn the replay did not come to the recorded state. None if it replays alike (or was not
/// recorded).
pub(super) fn replay_differs(project: &Path, played: &Played) -> Result<Option<Failure>, FuzzError> {
    let Some(path) = &played.recording else { return Ok(None) };
    let recording = nefia_game::recording::Recording::read(path)?;
    let options = crate::play::replay::ReplayOptions { check: true, ..Default::default() };
    let report = crate::play::replay::replay(project, &recording, &options)?;
    Ok(report.divergence.map(|divergence| Failure {
        kind: FailureKind::ReplayDiffers,
        turn: divergence.turn,
        message: divergence.to_string(),
    }))
}

/// The player of one game: the host asks it for every command.
struct Player {
    source: Source,
    played: Vec<Action>,
    turns: usize,
    last_turn: u64,
    failure: Option<Failure>,
    /// Commands given after the actions ran out, to close what still waits.
    unwinding: usize,
    /// Errors the game logged, as the runtime's output reported them.
    logged: Rc<RefCell<Vec<String>>>,
    /// REPL code given at the top once this many turns passed, in order (the self-test's
    /// save and load); not among the actions, which a shrink cuts down.
    planned: std::collections::VecDeque<(usize, String)>,
}

impl Player {
    /// The next command for `host`: after looking for a failure (at the top, between
    /// commands), the next action, or Shutdown once the game is over.
    fn next(&mut self, host: &Host) -> Command {
        let top = host.waits.depth() == 0;
        if top {
            // Play ended from the game (its Quit): the world is the edit state again, which
            // no invariant of play is about.
            let playing = host.play.playing();
            if self.failure.is_none() {
                self.failure = self.look_for_failure(host, playing);
            }
            if self.failure.is_some() || !playing {
                return Command::Shutdown;
            }
            if let Some((_, code)) = self.planned.pop_front_if(|(at, _)| *at <= self.turns) {
                return Command::Repl(ReplCommand::Eval { id: 0, code });
            }
        }
        match self.next_action(host, top) {
            Some(action) => {
                // An action with nothing to act on (a choice with no menu open) does nothing.
                let command = command_of(host, &action).unwrap_or(Command::Sync { id: 0 });
                self.played.push(action);
                command
            }
            None if top => Command::Shutdown,
            None => {
                // Out of actions inside a menu or a breakpoint: close it, then stop.
                self.unwinding += 1;
                let layer = host.runtime.engine().gui().top_layer().map(|top| top.id);
                match layer {
                    _ if self.unwinding > MAX_UNWIND => Command::Shutdown,
                    _ if host.cx().at_breakpoint() => Command::Debug(DebugCommand::Continue),
                    Some(layer) => Command::Input(display::Input::Cancel { layer }),
                    None => Command::Shutdown,
                }
            }
        }
    }

    /// The next action from the source; None once it ran out (or the random game played its
    /// turns, or a failure was found).
    fn next_action(&mut self, host: &Host, top: bool) -> Option<Action> {
        if self.failure.is_some() {
            return None;
        }
        match &mut self.source {
            Source::Fixed(actions) => actions.next(),
            Source::Random { rng, weights, turns } => {
                let budget = turns.saturating_mul(ACTIONS_PER_TURN);
                if (top && self.turns >= *turns) || self.played.len() >= budget {
                    return None;
                }
                if host.cx().at_breakpoint() {
                    return Some(Action::Continue);
                }
                let layer = host.runtime.engine().gui().top_layer();
                Some(match layer {
                    Some(layer) => weights.answer(&layer, rng),
                    None => weights.draw(rng),
                })
            }
        }
    }

    /// A failure of the last command, if there is one; counts a turn that passed and, if
    /// `playing`, checks the invariants after it.
    fn look_for_failure(&mut self, host: &Host, playing: bool) -> Option<Failure> {
        let turn = host.runtime.world().turn;
        let failure = |kind, message: String| Some(Failure { kind, turn, message });
        if let Some(message) = host.recovery.failure().or_else(|| host.recovery.fault()) {
            return failure(FailureKind::Panic, message);
        }
        if let Some(error) = host.debug.stops.error() {
            let message = error.to_string();
            return failure(FailureKind::LuaError(place_of(&message)), message);
        }
        if let Some(message) = self.logged.borrow().first().cloned() {
            let line = message.lines().next().unwrap_or_default().to_owned();
            return failure(FailureKind::LoggedError(line), message);
        }
        if turn == self.last_turn || !playing {
            return None;
        }
        if turn > self.last_turn {
            self.turns += 1;
        }
        self.last_turn = turn;
        let lua = host.runtime.lua();
        match nefia_lua::invariants::check_all(lua) {
            Ok(failures) => failures
                .into_iter()
                .next()
                .and_then(|f| failure(FailureKind::Invariant(f.id.clone()), format!("{}: {}", f.id, f.message))),
            Err(error) => {
                failure(FailureKind::Invariant("(the invariants)".into()), nefia_lua::error::failure(error).message)
            }
        }
    }
}

/// The command an action is for `host` as it is now; None when it has nothing to act on.
fn command_of(host: &Host, action: &Action) -> Option<Command> {
    let top = || host.runtime.engine().gui().top_layer().map(|top| top.id);
    Some(match action {
        Action::Key(key) => Command::Input(display::Input::Key(key.clone())),
        Action::Text(text) => Command::Input(display::Input::Text(text.clone())),
        Action::Choose(index) => Command::Input(display::Input::Choose { layer: top()?, index: *index }),
        Action::Cancel => Command::Input(display::Input::Cancel { layer: top()? }),
        Action::Wait => Command::Play(PlayCommand::StepTurn),
        Action::StepBack => Command::Play(PlayCommand::StepBack),
        Action::StepForward => Command::Play(PlayCommand::StepForward),
        Action::Continue => Command::Debug(DebugCommand::Continue),
    })
}

/// Plays one game of `project` with seed `seed`, its actions from `source`, recording the
/// session in `recordings` (and keeping the project's files there by hash); saves go to a
/// scratch folder. An error is the project not opening or play not beginning.
pub(super) fn play(project: &Path, seed: i64, source: Source, recordings: &Path) -> Result<Played, FuzzError> {
    let saves = tempfile::tempdir().map_err(FuzzError::Scratch)?;
    play_in(project, (seed, source, Default::default()), recordings, saves.path())
}

/// [`play`] with saves in `saves`, running each `planned` piece of REPL code at the top once
/// its number of turns passed; REPL code that fails is the game's failure.
pub(super) fn play_in(
    project: &Path,
    (seed, source, planned): (i64, Source, std::collections::VecDeque<(usize, String)>),
    recordings: &Path,
    saves: &Path,
) -> Result<Played, FuzzError> {
    let from = (PlayFrom::Start, Some(seed.cast_unsigned()));
    let HeadlessPlay { host, events, errors: logged, .. } =
        HeadlessPlay::start(project, saves, Some(recordings.to_owned()), from).map_err(|error| match error {
            HeadlessError::Open(error) => FuzzError::Open(error),
            HeadlessError::Start(why) => FuzzError::Start(why),
        })?;
    // Checked after every turn: the invariants of each object look at what changed.
    host.runtime.engine().world_mut().log_changes(true);
    let lua = host.runtime.lua();
    let player = Rc::new(RefCell::new(Player {
        source,
        played: Vec::new(),
        turns: 0,
        last_turn: host.runtime.world().turn,
        failure: None,
        unwinding: 0,
        logged,
        planned,
    }));
    let asked = player.clone();
    *host.play.player.borrow_mut() = Some(Box::new(move |host: &Host| asked.borrow_mut().next(host)));
    let mut recording = None;
    while !host.shutting_down.get() && !host.recovery.failed() {
        // Play ended from the game (its Quit): the recording is written then.
        recording = host.serve_next().or(recording);
        // What the game printed is for no one; planned code that failed is a failure.
        for event in events.try_iter() {
            if let HostEvent::Evaluated { result: Evaluation::Error(error), .. } = event {
                let turn = host.runtime.world().turn;
                let message = format!("REPL code: {error}");
                let kind = FailureKind::LuaError(place_of(&message));
                player.borrow_mut().failure.get_or_insert(Failure { kind, turn, message });
            }
        }
    }
    // A fatal failure ends the loop before the player could see it.
    if player.borrow().failure.is_none() && host.recovery.failed() {
        let failure = player.borrow_mut().look_for_failure(&host, false);
        player.borrow_mut().failure = failure;
    }
    host.play.player.borrow_mut().take();
    recording = host.end_play().or(recording);
    gui::set_frontend(lua, None);
    let mut player = player.borrow_mut();
    let (actions, failure) = (std::mem::take(&mut player.played), player.failure.take());
    Ok(Played { actions, turns: player.turns, failure, recording })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lua_errors_place_is_its_file_and_line_after_any_context() {
        assert_eq!(
            place_of("key d: mods/elona/game/commands.lua:61: attempt to index a nil value"),
            "mods/elona/game/commands.lua:61"
        );
        assert_eq!(place_of("mods/a.lua:3: boom\nstack traceback:"), "mods/a.lua:3");
        assert_eq!(place_of("something went wrong: badly"), "something went wrong: badly");
    }

    #[test]
    fn a_failures_objects_are_the_uids_its_message_names() {
        let failure = Failure {
            kind: FailureKind::Invariant("elona.hp_within_max".into()),
            turn: 3,
            message: "<object ('base.chara', uid 12) elona.player> hits uid 7, then uid 12 again".into(),
        };
        assert_eq!(failure.objects(), [12, 7]);
        assert_eq!(failure.kind.file_part(), "elona.hp_within_max");
        assert_eq!(FailureKind::LuaError("mods/a.lua:3".into()).file_part(), "lua-error");
    }
}
