//! The session log: the inputs of a play session as they come (see
//! [`nefia_game::recording`]), and what reaches game logic from outside the game — the wall
//! clock (`os.time`, `os.clock`, `os.date`) and saves written before the session — recorded
//! while recording and served back from the recording while replaying, so a replay sees
//! exactly what the session saw.
//!
//! The host records the inputs it handles; the clocks and loads record themselves here, in
//! the same list, so a replay meets each in the order it happened.

use std::collections::{BTreeMap, VecDeque};
use std::rc::Rc;

use mlua::{Function, Lua, MultiValue, Table, Value};

use super::engine;
use nefia_game::recording::Input;
use nefia_game::save::SaveGame;

/// What the session log does.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum SessionMode {
    /// Not playing, or not recording: the clocks are read live.
    #[default]
    Off,
    /// Inputs and clock reads are appended.
    Recording,
    /// Inputs and clock reads come from the queue.
    Replaying,
}

/// The inputs of the session being recorded or replayed.
#[derive(Default)]
pub struct SessionLog {
    /// What the log does now.
    pub mode: SessionMode,
    /// The inputs recorded so far, each with the game's turn when it came.
    pub recorded: Vec<(u64, Input)>,
    /// The inputs still to replay, in order.
    pub queue: VecDeque<Input>,
    /// Saves the session loaded that it had not written, as they were read.
    pub saves_read: BTreeMap<String, SaveGame>,
    /// Every save the session wrote, in input order: a replay of a stretch of the session
    /// (a step back) loads a save as it was at that point, not as the session left it.
    written: Vec<WrittenSave>,
    /// What each save the session wrote held before its first write (None: there was
    /// none), so a branch that drops the writes can put it back.
    before_writes: BTreeMap<String, Option<Rc<SaveGame>>>,
    /// While a stretch of the recorded inputs is replayed (a step back or forward): the
    /// index of its first input, and how many it has.
    stretch: Option<(usize, usize)>,
    /// The first place a replay met something other than the recording had (a clock read
    /// where the recording has none, or the other way round).
    pub diverged: Option<String>,
    /// What is running that may not read the wall clock ("a map generator"), if anything:
    /// its result must depend on its seed alone (see [`without_clock`]).
    clock_refused_to: Option<&'static str>,
}

/// A save the session wrote.
struct WrittenSave {
    /// How many inputs were recorded when it was written (the input writing it included).
    at: usize,
    /// Its name.
    name: String,
    /// What was written.
    save: Rc<SaveGame>,
}

/// Runs `f` with the wall clock refused to Lua code: `what` ("a map generator") must give
/// the same result from the same seed, so `os.time()`, `os.clock()` and `os.date()` without
/// a time raise an error naming the line that called them.
pub fn without_clock<R>(lua: &Lua, what: &'static str, f: impl FnOnce() -> R) -> R {
    /// Puts the refusal back as it was, even if `f` unwinds.
    struct Restore<'a>(&'a std::cell::RefCell<SessionLog>, Option<&'static str>);
    impl Drop for Restore<'_> {
        fn drop(&mut self) {
            self.0.borrow_mut().clock_refused_to = self.1;
        }
    }
    let engine = engine(lua);
    let before = engine.session.borrow_mut().clock_refused_to.replace(what);
    let _restore = Restore(&engine.session, before);
    f()
}

/// The error for `function` reading the clock where it is refused, if it is.
fn refused_clock(lua: &Lua, function: &str) -> mlua::Result<()> {
    match engine(lua).session.borrow().clock_refused_to {
        Some(what) => Err(super::rt_error(
            lua,
            format!(
                "{function} reads the wall clock, which {what} may not: the same seed must make the same map. \
                 Draw from the rng it is given (rng:random) or pass a time ({function}(t)) instead"
            ),
        )),
        None => Ok(()),
    }
}

impl SessionLog {
    /// Starts recording from nothing.
    pub fn start_recording(&mut self) {
        *self = SessionLog { mode: SessionMode::Recording, ..SessionLog::default() };
    }

    /// Starts replaying `inputs`.
    pub fn start_replaying(&mut self, inputs: impl IntoIterator<Item = Input>) {
        *self =
            SessionLog { mode: SessionMode::Replaying, queue: inputs.into_iter().collect(), ..SessionLog::default() };
    }

    /// Replays `inputs`, the recorded ones from index `from`, in the middle of a recording
    /// (stepping back or forward): what is recorded stays, and nothing is added until
    /// [`SessionLog::resume`].
    pub fn replay(&mut self, from: usize, inputs: Vec<Input>) {
        self.mode = SessionMode::Replaying;
        self.stretch = Some((from, inputs.len()));
        self.queue = inputs.into();
    }

    /// Goes back to `mode` after [`SessionLog::replay`]; inputs not replayed are dropped.
    pub fn resume(&mut self, mode: SessionMode) {
        self.mode = mode;
        self.stretch = None;
        self.queue.clear();
    }

    /// Where the session is in its recorded inputs: how many come before the one being
    /// handled, that one included. None outside a recorded session or a replayed stretch.
    pub fn position(&self) -> Option<usize> {
        match (self.mode, self.stretch) {
            (SessionMode::Recording, _) => Some(self.recorded.len()),
            (SessionMode::Replaying, Some((from, len))) => Some(from + len.saturating_sub(self.queue.len())),
            _ => None,
        }
    }

    /// While a stretch of the session is replayed: the index of the recorded input taken last
    /// (the one being handled).
    pub fn replayed_index(&self) -> Option<usize> {
        self.stretch?;
        self.position()?.checked_sub(1)
    }

    /// While a stretch of the session is replayed: save `name` as it was at that point —
    /// `Some(None)` if there was none then. None when the file is as it was (the session
    /// never wrote it) or no stretch is replayed.
    pub fn save_as_then(&self, name: &str) -> Option<Option<Rc<SaveGame>>> {
        self.stretch?;
        let at = self.position()?;
        let written = self.written.iter().rev().find(|w| w.name == name && w.at <= at);
        match written {
            Some(written) => Some(Some(written.save.clone())),
            None => self.before_writes.get(name).cloned(),
        }
    }

    /// Whether saves written now are kept by the session ([`SessionLog::writes_save`]): while
    /// it records or replays a stretch of itself.
    pub fn keeps_saves(&self) -> bool {
        self.position().is_some()
    }

    /// Save `name` is about to be written with `save`; `before` reads what the file holds
    /// now. Returns false when the file must not be written: a replayed stretch writing again
    /// what the session wrote there (the file holds the session's newest).
    pub fn writes_save(&mut self, name: &str, save: &SaveGame, before: impl FnOnce() -> Option<SaveGame>) -> bool {
        let Some(at) = self.position() else { return true };
        if self.stretch.is_some() && self.written.iter().any(|w| w.at == at && w.name == name) {
            return false;
        }
        self.before_writes.entry(name.to_owned()).or_insert_with(|| before().map(Rc::new));
        let index = self.written.partition_point(|w| w.at <= at);
        self.written.insert(index, WrittenSave { at, name: name.to_owned(), save: Rc::new(save.clone()) });
        true
    }

    /// The session goes another way after its first `keep` inputs: the writes after them are
    /// forgotten. Returns each save they wrote with what its file must hold again (None:
    /// no file).
    pub fn branch_saves(&mut self, keep: usize) -> Vec<(String, Option<Rc<SaveGame>>)> {
        let dropped: Vec<String> = self.written.iter().filter(|w| w.at > keep).map(|w| w.name.clone()).collect();
        self.written.retain(|w| w.at <= keep);
        let mut names = dropped;
        names.sort();
        names.dedup();
        names
            .into_iter()
            .map(|name| {
                let then = self.written.iter().rev().find(|w| w.name == name).map(|w| w.save.clone());
                let then = then.or_else(|| self.before_writes.get(&name).cloned().flatten());
                (name, then)
            })
            .collect()
    }

    /// Stops recording or replaying; returns the log as it was.
    pub fn stop(&mut self) -> SessionLog {
        std::mem::take(self)
    }

    /// Appends an input while recording.
    pub fn record(&mut self, turn: u64, input: Input) {
        if self.mode == SessionMode::Recording {
            self.recorded.push((turn, input));
        }
    }

    /// A clock read: `live` while not replaying (recorded while recording), else the next
    /// recorded read of the same kind.
    fn read_clock(&mut self, turn: u64, live: impl FnOnce() -> Input) -> Input {
        match self.mode {
            SessionMode::Off => live(),
            SessionMode::Recording => {
                let value = live();
                self.recorded.push((turn, value.clone()));
                value
            }
            SessionMode::Replaying => {
                let value = live();
                match self.queue.front() {
                    Some(next) if std::mem::discriminant(next) == std::mem::discriminant(&value) => {
                        self.queue.pop_front().unwrap_or(value)
                    }
                    other => {
                        if self.diverged.is_none() {
                            self.diverged = Some(format!(
                                "game code read the clock at turn {turn} where the recording has {}",
                                other.map_or("nothing more".to_owned(), |input| format!("{input:?}"))
                            ));
                        }
                        value
                    }
                }
            }
        }
    }

    /// A save was loaded: kept while recording unless the session wrote it.
    pub fn read_save(&mut self, name: &str, save: &SaveGame) {
        let wrote = self.written.iter().any(|w| w.name == name);
        if self.mode == SessionMode::Recording && !wrote && !self.saves_read.contains_key(name) {
            self.saves_read.insert(name.to_owned(), save.clone());
        }
    }
}

/// The raw `os` functions of the standard library.
struct RawClock {
    time: Function,
    clock: Function,
    date: Function,
}

/// `os.time([table])`: with a date table, that date (no clock is read); without, the wall
/// clock as the session log serves it.
fn time(lua: &Lua, raw: &RawClock, args: MultiValue) -> mlua::Result<Value> {
    if args.front().is_some_and(|a| !a.is_nil()) {
        return raw.time.call(args);
    }
    refused_clock(lua, "os.time()")?;
    let live = raw.time.call::<i64>(())?;
    let engine = engine(lua);
    let turn = engine.world.borrow().turn;
    match engine.session.borrow_mut().read_clock(turn, || Input::Time(live)) {
        Input::Time(seconds) => Ok(Value::Integer(seconds)),
        _ => Ok(Value::Integer(live)),
    }
}

/// `os.clock()`: processor seconds as the session log serves them.
fn clock(lua: &Lua, raw: &RawClock) -> mlua::Result<Value> {
    refused_clock(lua, "os.clock()")?;
    let live = raw.clock.call::<f64>(())?;
    let engine = engine(lua);
    let turn = engine.world.borrow().turn;
    match engine.session.borrow_mut().read_clock(turn, || Input::Clock(live)) {
        Input::Clock(seconds) => Ok(Value::Number(seconds)),
        _ => Ok(Value::Number(live)),
    }
}

/// Replaces `os.time`, `os.clock` and `os.date` in the API every environment reads: the
/// clocks go through the session log; `os.date` without a time formats `os.time()`'s.
pub fn install(lua: &Lua, api: &Table) -> mlua::Result<()> {
    let os: Table = lua.globals().get("os")?;
    let raw = Rc::new(RawClock { time: os.get("time")?, clock: os.get("clock")?, date: os.get("date")? });
    let safe_os: Table = api.get("os")?;
    let r = raw.clone();
    safe_os.set("time", lua.create_function(move |lua, args: MultiValue| time(lua, &r, args))?)?;
    let r = raw.clone();
    safe_os.set("clock", lua.create_function(move |lua, ()| clock(lua, &r))?)?;
    let r = raw;
    safe_os.set(
        "date",
        lua.create_function(move |lua, (format, at, rest): (Value, Value, MultiValue)| {
            let at = match at.is_nil() {
                true => {
                    refused_clock(lua, "os.date()")?;
                    time(lua, &r, MultiValue::new())?
                }
                false => at,
            };
            let mut args = MultiValue::from_vec(vec![format, at]);
            args.extend(rest);
            r.date.call::<MultiValue>(args)
        })?,
    )?;
    Ok(())
}
