//! Recording play sessions on the runtime thread, and stepping back through them.
//!
//! Every play session in a host that records (the editor, the player window) writes a
//! [`Recording`] to `<project>/recordings/` when it ends. While it runs, the host appends
//! each command that reaches the game to the engine's session log as an [`Input`] (before
//! running it, so the inputs a menu waits for come after the key that opened it), and after
//! every top-level command that passed a turn it marks the turn with the state hash.
//!
//! Stepping back does not copy the world every turn: a copy is kept once the turns since the
//! last one took [`STEP_BACK_BUDGET`] to play (or [`MAX_TURNS_BETWEEN_KEPT`] turns went by,
//! see [`kept_state_due`]), and at the first turn after a hotload or REPL code (which change
//! code a replay from an older copy would run); the state at the start of any turn is that copy with
//! the recorded inputs replayed up to it — the engine is deterministic, and the turn's hash
//! says whether the replay came to the same state. Stepping forward replays the next turn's
//! inputs; a new input after stepping back drops the old future (the recording notes the
//! branch).

use std::collections::{BTreeMap, VecDeque};
use std::path::PathBuf;

use super::{PlayEffects, PlayHost, PlaySession};
use crate::cx::Cx;
use crate::workbench::Workbench;
use nefia_game::display::{self, LogLevel};
use nefia_game::recording::{self, Branch, Input, Recording, TurnMark};
use nefia_game::value::Value;
use nefia_game::world::WorldState;
use nefia_lua::gui;
use nefia_protocol::debugging::{DebugCommand, ReplCommand};
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::message::{Command, RefusalKind, Refused};
use nefia_protocol::mods::ModCommand;
use nefia_protocol::play::PlayCommand;

mod position;
mod replaying;
mod report;
mod scratch;
pub use scratch::ScratchSavesError;
pub(crate) use scratch::scratch_saves;

/// A copy of the state is kept once the turns since the last one took this long to play:
/// stepping back replays at most about this much. Copies of a large world cost more than
/// its turns' hashes, so they are kept as rarely as stepping back allows.
pub const STEP_BACK_BUDGET: std::time::Duration = std::time::Duration::from_millis(30);

/// A copy of the state is kept at least every this many turns, however fast they were.
pub const MAX_TURNS_BETWEEN_KEPT: usize = 64;

/// While replaying (scrubbing a long recording), a copy is kept every this many turns on
/// the way.
const KEEP_WHILE_REPLAYING: usize = 16;

/// The most copies kept; older turns cannot be stepped back to.
const MAX_CHECKPOINTS: usize = 512;

/// True if a copy of the state is due at a turn's start, `turns` turns after the last one,
/// those turns having taken `played` to play. Only when a copy is kept depends on the time
/// taken, never the game.
pub fn kept_state_due(played: std::time::Duration, turns: usize) -> bool {
    played >= STEP_BACK_BUDGET || turns >= MAX_TURNS_BETWEEN_KEPT
}

/// The recording so far is written every this many turns, so a crash loses little of a long
/// session (the file then ends without `Stop`, and a replay says so).
const WRITE_EVERY: usize = 250;

/// A state kept to step back to: the world, every mod's `save` table and the messages at the
/// start of one turn.
struct Checkpoint {
    /// The index of the turn mark it was taken at.
    mark: usize,
    world: WorldState,
    save: BTreeMap<String, Value>,
    messages: VecDeque<String>,
}

/// The session being recorded.
pub(crate) struct Recorder {
    /// The recording so far; its inputs are in the engine's session log until it ends.
    recording: Recording,
    /// Where it is written.
    path: PathBuf,
    checkpoints: Vec<Checkpoint>,
    /// After stepping back: the turn mark the game is at (the inputs after it are the old
    /// future, replayed by stepping forward). None: at the newest input.
    at: Option<usize>,
    /// A step back's replay left the game inside the turn after mark `at` (or unwound one
    /// there): `at` says where the replay began, and going to any mark puts a kept state back.
    past_mark: bool,
    /// The game's turn at the last mark.
    last_turn: u64,
    /// The next mark keeps a copy whatever its number (code or an edit changed things a
    /// replay from an older copy would not do the same way).
    checkpoint_next: bool,
    /// The world's revision at the last mark (or at the turn stepped to): whether anything
    /// changed since.
    mark_revision: u64,
    /// How long the commands since the last kept state took to run (those that did not wait
    /// for the player in a menu): about what stepping back to it replays.
    played_since_kept: std::time::Duration,
    /// Opened from a file (the timeline) rather than played: it is written again only if
    /// the session went another way. Holds the scratch folder its saves are read from and
    /// written to, and the save folder to put back.
    opened: Option<Opened>,
    /// How many of the recorded inputs [`PlaySession::kept_bytes`] has counted, and the bytes of
    /// their text: it counts only the new ones at each look (from the start again after a
    /// branch cut the inputs short).
    counted_inputs: std::cell::Cell<(usize, usize)>,
}

/// What an opened recording keeps aside while it is looked through.
struct Opened {
    /// Its saves, and those its replayed inputs write (never the project's); removed when
    /// dropped.
    _saves: tempfile::TempDir,
    /// The save folder before it was opened.
    save_dir: PathBuf,
}

impl PlaySession {
    /// Starts recording the session that just began (`began` says how: "start map town").
    pub(crate) fn start_recording(&self, cx: &Cx, began: String) {
        let Some(dir) = self.recordings.clone() else { return };
        let Some(project) = cx.runtime.project() else { return };
        let mods: Vec<(String, PathBuf)> =
            cx.runtime.mods().iter().map(|m| (m.id().to_owned(), m.dir.clone())).collect();
        let files =
            recording::hash_and_keep(&recording::project_files(&project.dir, &mods), &recording::files_dir(&dir));
        let Ok(save) = nefia_lua::save::save_tables(cx.runtime.lua()) else { return };
        let (start, seed, turn, map) = {
            let world = cx.runtime.world();
            let map = world.current_map().and_then(|m| world.map(m).ok()).map(|m| m.name.clone()).unwrap_or_default();
            (world.save_game(save.clone()), world.rng.get_seed(), world.turn, map)
        };
        let mut start = start;
        start.language = nefia_lua::i18n::current_language(cx.runtime.lua()).ok().map(|(id, _)| id);
        let made =
            recording::utc_date(std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default());
        let path = dir.join(recording::file_name(&made, &map));
        let hash = cx.runtime.world().state_hash(&save);
        let recording = Recording {
            format: recording::RECORDING_FORMAT,
            project: project.manifest.name.clone(),
            made,
            files,
            began,
            seed,
            start,
            saves: BTreeMap::new(),
            inputs: Vec::new(),
            turns: vec![TurnMark { input: 0, turn, hash }],
            branches: Vec::new(),
            stopped_back_at: None,
            fuzz: None,
            error: None,
        };
        cx.runtime.engine().session_mut().start_recording();
        let mut recorder = Recorder {
            recording,
            path,
            checkpoints: Vec::new(),
            at: None,
            past_mark: false,
            last_turn: turn,
            checkpoint_next: false,
            mark_revision: cx.runtime.world().revision(),
            played_since_kept: std::time::Duration::ZERO,
            opened: None,
            counted_inputs: Default::default(),
        };
        recorder.checkpoints.push(self.checkpoint_at(cx, 0, save));
        *self.recorder.borrow_mut() = Some(recorder);
    }

    fn checkpoint_at(&self, cx: &Cx, mark: usize, save: BTreeMap<String, Value>) -> Checkpoint {
        Checkpoint {
            mark,
            world: cx.runtime.world().copy_state(),
            save,
            messages: cx.runtime.engine().gui().message_log(),
        }
    }

    /// Opens the recording at `path` in the timeline (see [`PlayCommand::OpenRecording`]); play
    /// begins from its start, so the `workbench`'s preview closes.
    pub(crate) fn open_recording(&self, cx: &Cx, workbench: &Workbench, path: &std::path::Path) -> PlayEffects {
        if self.playing() {
            cx.refuse(
                Refused::new(RefusalKind::Play, "cannot open a recording while playing: stop first")
                    .hinting(nefia_protocol::message::Hint::StopPlay),
            );
            return PlayEffects::default();
        }
        let mut recording = match Recording::read(path) {
            Ok(recording) => recording,
            Err(error) => {
                cx.refuse(Refused::new(RefusalKind::Play, format!("cannot open the recording: {error}")));
                return PlayEffects::default();
            }
        };
        let saves = match scratch_saves(&recording) {
            Ok(saves) => saves,
            Err(error) => {
                cx.refuse(Refused::new(RefusalKind::Play, format!("cannot open the recording: {error}")));
                return PlayEffects::default();
            }
        };
        let save_dir = cx.runtime.engine().save_dir();
        cx.runtime.engine().set_save_dir(saves.path().to_owned());
        let began =
            self.begin_play(cx, workbench, nefia_protocol::play::PlayFrom::Recorded(Box::new(recording.start.clone())));
        let Some(mut recorder) = self.recorder.borrow_mut().take() else {
            // Play did not begin (the refusal says why).
            cx.runtime.engine().set_save_dir(save_dir);
            return began;
        };
        // Its inputs, without the Stop that ended it, are the future to step through.
        let mut inputs = std::mem::take(&mut recording.inputs);
        if matches!(inputs.last(), Some((_, Input::Stop))) {
            inputs.pop();
        }
        cx.runtime.engine().session_mut().recorded = inputs;
        recording.branches.clear();
        recording.stopped_back_at = None;
        recorder.recording = recording;
        recorder.at = Some(0);
        recorder.opened = Some(Opened { _saves: saves, save_dir });
        *self.recorder.borrow_mut() = Some(recorder);
        self.paused.set(true);
        self.check_mark(cx, 0);
        gui::log(
            cx.runtime.lua(),
            LogLevel::Info,
            format!("opened {} in the timeline: step or scrub through its turns, or play from any", path.display()),
        );
        began
    }

    /// The input a command gives the game, if it gives one a replay must re-run. Pausing
    /// is not one: a key the paused game (or one stopped at a breakpoint) drops is not
    /// recorded instead.
    fn input_of(&self, cx: &Cx, command: &Command) -> Option<Input> {
        let depth_of = |layer| cx.runtime.engine().gui().depth_of_layer(layer);
        let dropped = (self.paused.get() && !cx.runtime.engine().gui().has_layers()) || cx.at_breakpoint();
        match command {
            Command::Input(_) if dropped => None,
            Command::Input(display::Input::Key(key)) => Some(Input::Key(key.clone())),
            Command::Input(display::Input::Text(text)) => Some(Input::Text(text.clone())),
            Command::Input(display::Input::Choose { layer, index }) => Some(Input::Choose(depth_of(*layer)?, *index)),
            Command::Input(display::Input::Cancel { layer }) => Some(Input::Cancel(depth_of(*layer)?)),
            // Each subsystem says what its commands are to a recording.
            Command::Play(command) => command.recorded_input(),
            Command::Repl(command) => command.recorded_input(),
            Command::Debug(command) => command.recorded_input(),
            Command::Editing(command) => command.recorded_input(),
            Command::Mods(command) => command.recorded_input(),
            Command::Maps(_) | Command::Workbench(_) | Command::Stop | Command::Sync { .. } | Command::Shutdown => None,
        }
    }

    /// Appends the input `command` gives the game to the recording (a hotload is appended
    /// once it has read its file: the mods subsystem returns it as an effect, `ModsEffects`).
    /// After stepping back, a new input drops the old future first.
    pub(crate) fn record_command(&self, cx: &Cx, command: &Command) {
        // Stopped at a change in a replayed turn: looking (and continuing) is not an input.
        if self.replaying.get() || self.reverse.stopping_at_change.get() || self.recorder.borrow().is_none() {
            return;
        }
        let Some(input) = self.input_of(cx, command) else { return };
        self.branch_if_stepped_back(cx);
        // Code changed: a replay from an older copy would run the new code where the old ran.
        if matches!(input, Input::Eval(_) | Input::Script(_) | Input::Hotload { .. })
            && let Some(recorder) = self.recorder.borrow_mut().as_mut()
        {
            recorder.checkpoint_next = true;
        }
        let turn = cx.runtime.world().turn;
        let mut session = cx.runtime.engine().session_mut();
        session.record(turn, input);
        if !cx.waiting() {
            self.reverse.command_input.set(session.recorded.len().checked_sub(1));
        }
    }

    /// REPL code run after stepping back is a look, not a new future, unless it changes the
    /// game: returns the code and the world's revision before it, for
    /// [`PlaySession::record_look`] to judge once it ran.
    pub(crate) fn look_after_stepping_back(&self, cx: &Cx, command: &Command) -> Option<(String, u64)> {
        let Command::Repl(ReplCommand::Eval { code, .. }) = command else { return None };
        let stepped_back = self.recorder.borrow().as_ref().is_some_and(|r| r.at.is_some());
        (stepped_back && !self.replaying.get()).then(|| (code.clone(), cx.runtime.world().revision()))
    }

    /// REPL code run after stepping back changed the game: the session goes another way from
    /// here, and the code is its first input.
    pub(crate) fn record_look(&self, cx: &Cx, code: String, revision: u64) {
        if cx.runtime.world().revision() == revision {
            return;
        }
        self.record_command(cx, &Command::Repl(ReplCommand::Eval { id: 0, code }));
    }

    /// After stepping back, the old future is dropped: the session goes another way from here.
    fn branch_if_stepped_back(&self, cx: &Cx) {
        let mut recorder = self.recorder.borrow_mut();
        let Some(recorder) = recorder.as_mut() else { return };
        let Some(at) = recorder.at.take() else { return };
        let keep_inputs = recorder.recording.turns[at].input;
        let mut session = cx.runtime.engine().session_mut();
        let dropped_inputs = session.recorded.len().saturating_sub(keep_inputs);
        session.recorded.truncate(keep_inputs);
        // The saves the dropped future wrote are as they were at the branch again.
        let saves = session.branch_saves(keep_inputs);
        drop(session);
        nefia_lua::save::put_back_saves(cx.runtime.lua(), saves);
        recorder.counted_inputs.set((0, 0));
        let dropped_turns = recorder.recording.turns.len() - (at + 1);
        recorder.recording.turns.truncate(at + 1);
        recorder.checkpoints.retain(|c| c.mark <= at);
        recorder.recording.branches.push(Branch { at, dropped_inputs, dropped_turns });
        recorder.last_turn = recorder.recording.turns[at].turn;
        if let Some(opened) = recorder.opened.take() {
            // Played on from an opened recording: a new session, saving where games save.
            cx.runtime.engine().set_save_dir(opened.save_dir);
        }
    }

    /// Counts `took` (a top-level command that did not wait for the player) towards the
    /// next kept state.
    pub(crate) fn played(&self, took: std::time::Duration) {
        if self.replaying.get() {
            return;
        }
        if let Some(recorder) = self.recorder.borrow_mut().as_mut() {
            recorder.played_since_kept += took;
        }
    }

    /// Marks the start of a turn if the top-level command just handled passed one: the
    /// state hash, and a copy of the state every few turns.
    pub(crate) fn mark_turn(&self, cx: &Cx) {
        // A command unwound to be replayed (stepping back) is marked once it was.
        if self.replaying.get() || cx.waiting() || self.reverse.rewinding() {
            return;
        }
        let mut recorder = self.recorder.borrow_mut();
        let Some(recorder) = recorder.as_mut() else { return };
        let turn = cx.runtime.world().turn;
        if turn == recorder.last_turn || recorder.at.is_some() {
            return;
        }
        let Ok(save) = nefia_lua::save::save_tables(cx.runtime.lua()) else { return };
        let hash = cx.runtime.world().state_hash(&save);
        let input = cx.runtime.engine().session().recorded.len();
        recorder.recording.turns.push(TurnMark { input, turn, hash });
        recorder.last_turn = turn;
        recorder.mark_revision = cx.runtime.world().revision();
        let mark = recorder.recording.turns.len() - 1;
        let since = recorder.checkpoints.last().map_or(usize::MAX, |c| mark - c.mark);
        if mark.is_multiple_of(WRITE_EVERY) && recorder.opened.is_none() {
            // The inputs and saves are lent to the recording for the write, not copied.
            let mut session = cx.runtime.engine().session_mut();
            let so_far = &mut recorder.recording;
            so_far.inputs = std::mem::take(&mut session.recorded);
            so_far.saves = std::mem::take(&mut session.saves_read);
            if let Err(error) = so_far.write(&recorder.path) {
                tracing::warn!("the session's recording so far could not be written: {error}");
            }
            session.recorded = std::mem::take(&mut so_far.inputs);
            session.saves_read = std::mem::take(&mut so_far.saves);
        }
        if kept_state_due(recorder.played_since_kept, since) || recorder.checkpoint_next {
            recorder.checkpoint_next = false;
            recorder.played_since_kept = std::time::Duration::ZERO;
            recorder.checkpoints.push(self.checkpoint_at(cx, mark, save));
            if recorder.checkpoints.len() > MAX_CHECKPOINTS {
                recorder.checkpoints.remove(0);
            }
        }
    }

    /// Ends the recording and writes it; returns where it went. A recording opened in the
    /// timeline and only looked through is not written again.
    pub(crate) fn finish_recording(&self, cx: &Cx) -> Option<PathBuf> {
        let recorder = self.recorder.borrow_mut().take()?;
        let mut session = cx.runtime.engine().session_mut().stop();
        if let Some(opened) = recorder.opened {
            cx.runtime.engine().set_save_dir(opened.save_dir);
            return None;
        }
        let mut recording = recorder.recording;
        // Stopped after stepping back: the turns ahead were played and stay in the recording
        // (a replay goes to its end); where the game was when stopped is noted.
        recording.stopped_back_at = recorder.at;
        let turn = match recorder.at {
            // The game stands at an older turn; the recording ends where play had gone.
            Some(_) => recording.turns.last().map_or(cx.runtime.world().turn, |mark| mark.turn),
            None => cx.runtime.world().turn,
        };
        session.recorded.push((turn, Input::Stop));
        recording.inputs = session.recorded;
        recording.saves = session.saves_read;
        let lua = cx.runtime.lua();
        match recording.write(&recorder.path) {
            Ok(()) => {
                let mut text = format!(
                    "recorded {} turns and {} inputs to {}",
                    recording.turns.len() - 1,
                    recording.inputs.len(),
                    recorder.path.display()
                );
                if let Some(at) = recording.stopped_back_at {
                    let ahead = recording.turns.len() - 1 - at;
                    text += &format!(" (stopped while stepped back {ahead} turn(s): the turns ahead are kept)");
                }
                gui::log(lua, LogLevel::Info, text);
                Some(recorder.path)
            }
            Err(error) => {
                gui::log(lua, LogLevel::Error, format!("the session's recording could not be written: {error}"));
                None
            }
        }
    }

    /// Steps back to the start of the previous turn (or of this one, if the game changed
    /// since it began).
    pub(crate) fn step_back(&self, cx: &Cx, host: &PlayHost) {
        let target = {
            let recorder = self.recorder.borrow();
            let Some(recorder) = recorder.as_ref() else {
                cx.refuse(Refused::new(RefusalKind::Play, "Step back works while playing"));
                return;
            };
            let current = recorder.at.unwrap_or(recorder.recording.turns.len() - 1);
            // A change to a `save` table leaves the world's revision as it was: the hash
            // sees it.
            let changed = self.changed_since_mark(cx, recorder)
                || (recorder.at.is_none()
                    && nefia_lua::save::save_tables(cx.runtime.lua())
                        .is_ok_and(|t| cx.runtime.world().state_hash(&t) != recorder.recording.turns[current].hash));
            match changed {
                true => Some(current),
                false => current.checked_sub(1),
            }
        };
        match target {
            Some(target) => self.go_to_mark(cx, host, target),
            None => cx.refuse(Refused::new(RefusalKind::NothingToDo, "this is the first turn of the session")),
        }
    }

    /// Steps forward one recorded turn after stepping back, replaying its inputs; from the
    /// last turn mark, replays the inputs after it and the session is live again.
    pub(crate) fn step_forward(&self, cx: &Cx, host: &PlayHost) {
        let plan = {
            let recorder = self.recorder.borrow();
            let Some(recorder) = recorder.as_ref() else {
                cx.refuse(Refused::new(RefusalKind::Play, "Step forward works while playing"));
                return;
            };
            recorder.at.map(|at| (at, recorder.recording.turns.len() - 1, recorder.recording.turns[at].input))
        };
        match plan {
            None => {
                cx.refuse(Refused::new(RefusalKind::NothingToDo, "this is the newest turn: nothing recorded is ahead"))
            }
            Some((at, last, _)) if at < last => self.go_to_mark(cx, host, at + 1),
            Some((_, _, from)) => {
                if self.refuse_while_waiting(cx) {
                    return;
                }
                self.replay_within(cx, host, from, usize::MAX);
                if let Some(recorder) = self.recorder.borrow_mut().as_mut() {
                    recorder.at = None;
                    recorder.last_turn = cx.runtime.world().turn;
                    recorder.mark_revision = cx.runtime.world().revision();
                }
            }
        }
    }

    /// Refuses stepping while Lua waits in a menu or a breakpoint (a turn is stepped from its
    /// start, with nothing waiting); true if refused.
    fn refuse_while_waiting(&self, cx: &Cx) -> bool {
        let waiting = cx.waiting();
        if waiting {
            cx.refuse(Refused::new(
                RefusalKind::Play,
                "close the menu or continue the breakpoint first: turns are stepped from their start",
            ));
        }
        waiting
    }

    /// Goes to the start of the turn of mark `target`: forward by replaying the recorded
    /// inputs from where the game is, back by putting back the nearest kept state before it
    /// and replaying from there. Passing marks keeps states on the way (every
    /// [`KEEP_WHILE_REPLAYING`] marks), so going back and forth through a long recording
    /// gets cheap.
    pub(crate) fn go_to_mark(&self, cx: &Cx, host: &PlayHost, target: usize) {
        if self.refuse_while_waiting(cx) {
            return;
        }
        let plan = {
            let recorder = self.recorder.borrow();
            let Some(recorder) = recorder.as_ref() else {
                cx.refuse(Refused::new(RefusalKind::Play, "the turns of a session are stepped through while playing"));
                return;
            };
            if target >= recorder.recording.turns.len() {
                cx.refuse(Refused::new(RefusalKind::NothingToDo, format!("the session has no turn mark {target}")));
                return;
            }
            let forward = recorder.at.filter(|&at| at <= target && !recorder.past_mark);
            match forward {
                Some(at) => Ok(at),
                None => match recorder.checkpoints.iter().rposition(|c| c.mark <= target) {
                    Some(index) => Err((index, recorder.checkpoints[index].mark)),
                    None => {
                        cx.refuse(Refused::new(RefusalKind::NothingToDo, "no older turn is kept to step back to"));
                        return;
                    }
                },
            }
        };
        let mut mark = match plan {
            Ok(at) => at,
            Err((checkpoint, mark)) => {
                self.restore_checkpoint(cx, host, checkpoint);
                mark
            }
        };
        while mark < target {
            let inputs = {
                let recorder = self.recorder.borrow();
                let turns = recorder.as_ref().map(|r| &r.recording.turns);
                turns.and_then(|t| Some((t.get(mark)?.input, t.get(mark + 1)?.input)))
            };
            // The future was dropped on the way (an input recorded at a break): stop here.
            let Some((from, to)) = inputs else { break };
            self.replay_within(cx, host, from, to);
            if self.reverse.rewinding() {
                // A step back was asked at a break on the way: the turn's code unwound inside
                // the turn after `mark`; the step back goes on from there.
                if let Some(recorder) = self.recorder.borrow_mut().as_mut() {
                    recorder.at = Some(mark);
                    recorder.past_mark = true;
                }
                return;
            }
            mark += 1;
            self.keep_on_the_way(cx, mark);
        }
        if let Some(recorder) = self.recorder.borrow_mut().as_mut() {
            recorder.at = Some(target);
            recorder.past_mark = false;
            recorder.mark_revision = cx.runtime.world().revision();
        }
        self.check_mark(cx, target);
    }

    /// The session's recording as it is now (its inputs and saves so far), if one is
    /// recorded.
    pub(crate) fn recording_so_far(&self, cx: &Cx) -> Option<Recording> {
        let recorder = self.recorder.borrow();
        let session = cx.runtime.engine().session();
        let mut recording = recorder.as_ref()?.recording.clone();
        recording.inputs = session.recorded.clone();
        recording.saves = session.saves_read.clone();
        Some(recording)
    }

    /// Keeps a state at mark `mark` reached by replaying, if its number calls for one and
    /// none is kept there.
    fn keep_on_the_way(&self, cx: &Cx, mark: usize) {
        if !mark.is_multiple_of(KEEP_WHILE_REPLAYING) {
            return;
        }
        let kept = self.recorder.borrow().as_ref().is_none_or(|r| r.checkpoints.iter().any(|c| c.mark == mark));
        if kept {
            return;
        }
        let Ok(save) = nefia_lua::save::save_tables(cx.runtime.lua()) else { return };
        let checkpoint = self.checkpoint_at(cx, mark, save);
        if let Some(recorder) = self.recorder.borrow_mut().as_mut() {
            let index = recorder.checkpoints.partition_point(|c| c.mark < mark);
            recorder.checkpoints.insert(index, checkpoint);
        }
    }

    /// Puts back checkpoint `index`: the world exactly, the `save` tables and the messages,
    /// with no error screen or break request of the state it replaces.
    fn restore_checkpoint(&self, cx: &Cx, host: &PlayHost, index: usize) {
        let recorder = self.recorder.borrow();
        let Some(checkpoint) = recorder.as_ref().and_then(|r| r.checkpoints.get(index)) else { return };
        let engine = cx.runtime.engine();
        engine.world_mut().rewind_to(checkpoint.world.clone());
        let lua = cx.runtime.lua();
        let restored =
            engine.forget_handles().and_then(|()| nefia_lua::save::restore_save_tables(lua, &checkpoint.save));
        if let Err(error) = restored {
            gui::log(lua, LogLevel::Error, format!("the save tables could not be put back: {error}"));
        }
        engine.set_messages(checkpoint.messages.clone());
        host.stops.clear();
    }

    /// Logs a warning if the state is not the one recorded at turn mark `mark`.
    fn check_mark(&self, cx: &Cx, mark: usize) {
        let Some(expected) = self.recorder.borrow().as_ref().map(|r| r.recording.turns[mark]) else { return };
        let Ok(save) = nefia_lua::save::save_tables(cx.runtime.lua()) else { return };
        if cx.runtime.world().state_hash(&save) != expected.hash {
            let text = format!(
                "turn {} is not as it was recorded going forward: code changed since (a hotload), or a rule reads \
                 something that is not recorded",
                expected.turn
            );
            gui::log(cx.runtime.lua(), LogLevel::Warn, text);
        }
    }
}
