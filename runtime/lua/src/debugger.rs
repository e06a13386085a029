//! Line breakpoints and stepping: what a debug adapter (`nefia dap`) sets, on the one hook
//! slot each Lua thread has (shared with the limits, see [`super::watchdog`]).
//!
//! With no breakpoint set and no step under way no hook is installed, so Lua runs at full
//! speed. Otherwise the hook takes calls and returns, and line events only while a function
//! of a file with breakpoints runs (or a step is under way): a call into, or a return to, such
//! a function turns line events on, into any other turns them off. Whether a file has
//! breakpoints is asked of its chunk name by the address of its Lua string
//! ([`NameCache`]), so most calls cost one comparison.
//!
//! A breakpoint that stops pauses like `pause()` (`pause.lua`'s `breaks.pause`), through the
//! frontend's nested wait. The hook runs with hooks off for its Lua thread (a probe's stop is
//! not in a hook, but the debugger ignores its own events while it waits), so code evaluated
//! while it waits (REPL input, conditions, log messages) runs in a coroutine of its own, where
//! the limits' count hook still reaches it; breakpoints do not stop inside it.
//!
//! Breakpoints are kept by file on disk, made absolute, so they bind to whatever chunk names
//! that file: set before the file loads, they bind when it loads; a hotload keeps them.
//!
//! Steps count from the depth of the stopped function: over stops at the next line at that
//! depth or less, out below it, in anywhere. A debug adapter's pause (`HostClient::pause`)
//! raises the Pause flag besides sending its command, so code busy in a loop is reached by the
//! limits' check, which starts a step in, reported as a pause; with nothing running, the
//! command starts it. `nefia dap` starts a launched game at `configurationDone` with the
//! breakpoints set by then given before the mods load (`HostConfig::breakpoints`), so the
//! launch's files get probes; `DebugCommand::Probes(false)` (a launch's `"probes": false`)
//! turns probes off, to compare.
//!
//! Errors pause where they are raised: event handlers (`event.rs`) and scripts run through
//! [`Debugger::call`], which while uncaught errors are to pause is `pause.lua`'s `breaks.call`
//! (an `xpcall` whose message handler pauses the raising line, once per error); while caught
//! errors are to pause, mods' `pcall` and `xpcall` take the same handler
//! ([`Debugger::break_on_errors`]).

use nefia_protocol::repl::{BreakCause, LineBreakpoint, StepKind};
use std::cell::{Cell, OnceCell, RefCell};
use std::collections::BTreeMap;
use std::ffi::c_int;
use std::path::{Path, PathBuf};

use mlua::{Function, Lua, Table, ffi};

use super::name_cache::NameCache;

mod breakpoints;
mod hook;
mod lines;
mod probes;

use super::{engine, watchdog};
use hook::depth;
pub(super) use hook::probe;
use nefia_protocol::output::Output;

pub(super) use probes::{PROBE, with_probes};

thread_local! {
    /// Whether a chunk (by its name's Lua string) is a file with breakpoints, as answered in
    /// generation `.1`: the hook asks it at every call, before anything else.
    static KNOWN: NameCache<(bool, u64)> = NameCache::default();
    /// Bumped whenever the answers may change (breakpoints set, files loaded).
    static GENERATION: Cell<u64> = const { Cell::new(0) };
    /// How many debuggers of this thread's engines have breakpoints set or a step under way
    /// (see [`Debugger::is_active`]): a coroutine resumes with line events on while any has.
    static ACTIVE: Cell<u32> = const { Cell::new(0) };
}

/// Whether a debugger on this thread has breakpoints set or a step under way, as
/// `coroutine.resume` asks it.
fn watching() -> bool {
    ACTIVE.with(Cell::get) > 0
}

/// What [`KNOWN`] says of the chunk named `source` now, if it was asked this generation.
fn known(source: &[u8]) -> Option<bool> {
    let generation = GENERATION.with(Cell::get);
    KNOWN.with(|known| known.get(source)).filter(|(_, asked)| *asked == generation).map(|(known, _)| known)
}

/// A breakpoint and how often it was hit.
struct Armed {
    spec: LineBreakpoint,
    hits: u32,
}

/// A step under way: its kind, the depth of the stack on the Lua thread it began on, and the
/// cause its stop reports (a step, or a pause asked while code ran).
#[derive(Clone, Copy)]
struct Step {
    kind: StepKind,
    state: usize,
    depth: usize,
    cause: BreakCause,
}

/// The debugger's state in the engine.
#[derive(Default)]
pub struct Debugger {
    /// Breakpoints by absolute file path.
    files: RefCell<BTreeMap<PathBuf, Vec<Armed>>>,
    /// The text of each file with breakpoints as its lines were counted.
    texts: RefCell<BTreeMap<PathBuf, String>>,
    step: Cell<Option<Step>>,
    /// Breaks the hook is in (its events are ignored meanwhile).
    hooked: Cell<u32>,
    /// `pause.lua`'s `breaks` table: `pause`, `evaluate`.
    breaks: OnceCell<Table>,
    /// The Lua main state, once known.
    main: Cell<usize>,
    /// Where the last break stopped: its Lua thread and the depth of its function.
    last_break: Cell<(usize, usize)>,
    /// Each Lua thread (the main state, coroutines) running a function of a file with
    /// breakpoints: the thread and the depth of its outermost such function. A coroutine
    /// keeps its own while it is suspended, so the thread that resumed it keeps its too.
    inside: RefCell<Vec<(usize, usize)>>,
    /// Lines of files with breakpoints run since the top-level command began.
    lines: Cell<u64>,
    /// The stop being made is on such a line.
    stopping_on_counted: Cell<bool>,
    /// Where the innermost break stopped (see [`Debugger::break_position`]).
    break_position: Cell<Option<(u64, bool)>>,
    /// A replay stops at this counted line, for this cause.
    target: Cell<Option<(u64, BreakCause)>>,
    /// While scanning a replay: where breakpoints would have stopped.
    scan: RefCell<Option<Vec<u64>>>,
    /// Log messages are not printed again while a command is replayed.
    quiet: Cell<bool>,
    /// The registry reference of the entry function the hook calls (see [`Request`]).
    entry: OnceCell<c_int>,
    /// What the hook asks of the entry function.
    request: RefCell<Option<Request>>,
    /// The entry's last evaluation.
    evaluated: RefCell<Option<Result<mlua::Value, EvaluationError>>>,
    /// Errors that reach the engine pause where they were raised.
    uncaught: Cell<bool>,
    /// The files (absolute paths) some code of which was compiled without probes: functions
    /// of theirs may run without them for as long as anything holds one (a handler another
    /// file registered, a copy in a local), whatever was loaded since.
    compiled_unprobed: RefCell<std::collections::BTreeSet<PathBuf>>,
    /// One of those files has breakpoints: the hook takes calls while it rests, to see its
    /// functions begin.
    unprobed: Cell<bool>,
    /// By chunk name, the probes on lines their function has no first code on: (the line the
    /// function is defined on, the probe's line).
    probe_lines: RefCell<rustc_hash::FxHashMap<String, Vec<(u32, u32)>>>,
    /// This debugger is counted in [`ACTIVE`].
    counted_active: Cell<bool>,
    /// Files loaded with breakpoints do not get probes (see [`Debugger::set_probes`]).
    no_probes: Cell<bool>,
    /// The error last paused for (an error passes several handlers on its way up).
    paused_error: RefCell<Option<String>>,
}

/// The hook's events while breakpoints are set, no function of a file with them runs, and a
/// file with them was loaded without probes: only calls, to see one begin. (With probes
/// everywhere, none: the probes say when.)
const CALLS: c_int = ffi::LUA_MASKCALL;
/// While such a function is on the stack but another runs (it called one): calls and returns,
/// to see it run again and return.
const INSIDE: c_int = ffi::LUA_MASKCALL | ffi::LUA_MASKRET;
/// While such a function runs, or a step is under way: lines too.
const LINES: c_int = INSIDE | ffi::LUA_MASKLINE;

impl Debugger {
    /// Hands its events to the watchdog's hook, keeps `pause.lua`'s `breaks` table and the main
    /// state, and makes the hook's entry.
    pub(crate) fn install(&self, lua: &Lua, breaks: Table) -> mlua::Result<()> {
        watchdog::hand_debug_events(watchdog::DebugEvents { on_event: hook::on_event, watching });
        let _ = self.breaks.set(breaks);
        self.main.set(super::limits::main_state(lua) as usize);
        let entry = lua.create_function(|lua, ()| engine(lua).debugger.serve(lua))?;
        let key = lua.create_registry_value(entry)?;
        let _ = self.entry.set(key.id());
        // The function stays in the registry for the engine's life.
        std::mem::forget(key);
        Ok(())
    }

    /// Sets which errors pause where they are raised: those that reach the engine from game
    /// logic or a script (`uncaught`), and those a mod catches with `pcall` (`caught`).
    pub fn break_on_errors(&self, uncaught: bool, caught: bool) -> mlua::Result<()> {
        self.uncaught.set(uncaught);
        match self.breaks.get() {
            Some(breaks) => breaks.get::<Function>("set_catching")?.call(caught),
            None => Ok(()),
        }
    }

    /// Calls `function` with `args` so that an error it raises pauses where it was raised
    /// first, when errors are to pause (see [`Debugger::break_on_errors`]); otherwise plainly.
    pub fn call<A: mlua::IntoLuaMulti, R: mlua::FromLuaMulti>(&self, function: &Function, args: A) -> mlua::Result<R> {
        match self.breaks.get().filter(|_| self.uncaught.get()) {
            Some(breaks) => breaks.get::<Function>("call")?.call((function, args)),
            None => function.call(args),
        }
    }

    /// Whether an error with this value pauses now (`pause.lua`'s `pauses_for_error`): once per
    /// error, never inside a break the hook made. Notes the message as the break's reason.
    pub(crate) fn pauses_for_error(&self, lua: &Lua, error: &mlua::Value) -> bool {
        if self.hooked.get() > 0 {
            return false;
        }
        let message = match error {
            mlua::Value::Error(error) => super::error::root_message(error),
            mlua::Value::String(text) => text.to_string_lossy(),
            other => super::inspect::inspect(other, 1),
        };
        // An error that crossed an engine call carries the traceback of where it crossed.
        let message = message.split("\nstack traceback:").next().unwrap_or_default().to_owned();
        // An interruption (the time limit, Stop, stepping back unwinding the code) is not the
        // code's error.
        if message.contains("interrupted: ") {
            return false;
        }
        if self.paused_error.borrow().as_deref() == Some(message.as_str()) {
            return false;
        }
        engine(lua).repl.borrow_mut().next_reason = Some(format!("error: {message}"));
        *self.paused_error.borrow_mut() = Some(message);
        true
    }

    /// True while any breakpoint is set or a step is under way: the hook is installed.
    pub fn is_active(&self) -> bool {
        self.step.get().is_some()
            || self.target.get().is_some()
            || self.files.borrow().values().any(|list| !list.is_empty())
    }

    /// A file was loaded or reloaded, or breakpoints were set: chunk names are asked about
    /// again, and whether the hook must take calls.
    pub fn sources_changed(&self) {
        GENERATION.with(|generation| generation.set(generation.get() + 1));
        let files = self.files.borrow();
        let unprobed =
            self.compiled_unprobed.borrow().iter().any(|path| files.get(path).is_some_and(|l| !l.is_empty()));
        drop(files);
        if !self.unprobed.replace(unprobed) && unprobed {
            // The hook now takes calls while it rests.
            self.rest();
        }
    }

    /// The chunk `chunk` was compiled with probes, `probe_lines` of which are on lines Lua
    /// gives their function no first code on (see [`probes::Probed`]).
    pub(crate) fn compiled_with_probes(&self, chunk: &str, probe_lines: Vec<(u32, u32)>) {
        let mut lines = self.probe_lines.borrow_mut();
        match probe_lines.is_empty() {
            true => lines.remove(chunk),
            false => lines.insert(chunk.to_owned(), probe_lines),
        };
    }

    /// Whether `line`, reported as the first line event of a function defined on `defined` in
    /// the chunk named `source`, is only its probe's (Lua reports it for the probe's own
    /// instructions when line events are on as the function begins; it has no code there).
    fn is_probe_line(&self, source: &[u8], defined: u32, line: u32) -> bool {
        let lines = self.probe_lines.borrow();
        !lines.is_empty()
            && std::str::from_utf8(source)
                .ok()
                .and_then(|chunk| lines.get(chunk))
                .is_some_and(|list| list.contains(&(defined, line)))
    }

    /// The file at `path` was compiled as written, without probes: from now on its
    /// breakpoints are followed by the call hook (see [`Debugger::sources_changed`]).
    pub(crate) fn compiled_without_probes(&self, path: &Path) {
        if self.compiled_unprobed.borrow_mut().insert(absolute(path)) {
            self.sources_changed();
        }
    }

    /// Whether the file at `path`, about to be compiled, is to get probes: it has breakpoints.
    pub(crate) fn wants_probes(&self, path: &Path) -> bool {
        let files = self.files.borrow();
        !self.no_probes.get() && !files.is_empty() && files.get(&absolute(path)).is_some_and(|list| !list.is_empty())
    }

    /// Whether files loaded from now on while they have breakpoints get probes (they do at
    /// first). Off, they are followed by the call hook as files loaded before their
    /// breakpoints are: slower, kept to compare the two ways (the play bench, the
    /// differential test).
    pub fn set_probes(&self, on: bool) {
        self.no_probes.set(!on);
    }

    /// The hook's events while no function of a file with breakpoints runs and no step is
    /// under way: calls while a file with breakpoints has no probes, else none.
    fn resting(&self) -> c_int {
        if self.unprobed.get() { CALLS } else { 0 }
    }

    /// Starts a step from the innermost break (the caller lets it continue), counting from
    /// where that break stopped.
    pub fn step(&self, kind: StepKind) {
        let (state, depth) = self.last_break.get();
        self.step.set(Some(Step { kind, state, depth, cause: BreakCause::Step }));
        self.rest();
    }

    /// Stops at the next line of a file any Lua code runs, as a pause: a debug adapter's
    /// pause, acted on between commands or, through the Pause flag, from the limits' check in
    /// the middle of running code.
    pub fn pause_at_next_line(&self) {
        self.step.set(Some(Step { kind: StepKind::In, state: 0, depth: 0, cause: BreakCause::Pause }));
        self.rest();
    }

    /// Notes where a break stopped, for a step from it: the Lua thread running now (the
    /// break's callback runs on it) and the depth of the paused function, `levels` above the
    /// callback.
    pub(crate) fn note_break(&self, lua: &Lua, levels: usize) {
        let mut noted = (0, 0);
        // SAFETY: reads the running thread's stack; pushes nothing.
        let read = unsafe {
            lua.exec_raw::<()>((), |state| {
                noted = (state as usize, depth(state).saturating_sub(levels));
            })
        };
        if read.is_ok() {
            self.last_break.set(noted);
        }
        let counted = self.stopping_on_counted.replace(false);
        self.break_position.set(Some((self.lines.get(), counted)));
    }

    /// A top-level command begins: lines are counted from here, and its errors pause even if
    /// they say what an earlier one's did.
    pub fn command_begins(&self) {
        self.lines.set(0);
        // Nothing runs on the main state between commands: what it ran is over, however it
        // ended (an error unwinds past returns the hook does not see).
        let main = self.main.get();
        self.inside.borrow_mut().retain(|(thread, _)| *thread != main);
        self.paused_error.borrow_mut().take();
    }

    /// How many lines of files with breakpoints have run since the top-level command began.
    pub fn lines_run(&self) -> u64 {
        self.lines.get()
    }

    /// Where the innermost break stopped in its command: how many lines of files with
    /// breakpoints had run, and whether its own line is one of them.
    pub fn break_position(&self) -> Option<(u64, bool)> {
        self.break_position.get()
    }

    /// Replaying a command: stop when the `target`th line of files with breakpoints runs, for
    /// `cause`; until then log messages are quiet (they were printed the first time).
    pub fn stop_at_line(&self, target: u64, cause: BreakCause) {
        self.target.set(Some((target, cause)));
        self.quiet.set(true);
        self.rest();
    }

    /// Replaying a command to find breakpoint hits: where each breakpoint would stop is
    /// noted instead (see [`Debugger::scanned`]); log messages are quiet.
    pub fn scan_hits(&self) {
        *self.scan.borrow_mut() = Some(Vec::new());
        self.quiet.set(true);
    }

    /// True while a replay notes breakpoint hits instead of stopping (see [`Debugger::scan_hits`]).
    pub fn scanning(&self) -> bool {
        self.scan.borrow().is_some()
    }

    /// Ends a scan: the positions where breakpoints would have stopped, in order.
    pub fn scanned(&self) -> Vec<u64> {
        self.quiet.set(false);
        self.scan.borrow_mut().take().unwrap_or_default()
    }

    /// Drops a stop asked for by [`Debugger::stop_at_line`] that was not reached.
    pub fn clear_target(&self) {
        self.target.set(None);
        self.quiet.set(false);
        self.count_active();
    }

    /// Drops the step under way (the adapter continues instead).
    pub fn clear_step(&self) {
        self.step.set(None);
        self.rest();
    }

    /// Puts the hook's events on the main state, and the coroutine running if one is, as the
    /// breakpoints and step ask: lines on (the first line event turns them off where no
    /// breakpoint is), or none at all.
    fn rest(&self) {
        let main = self.main.get() as *mut ffi::lua_State;
        if main.is_null() {
            return;
        }
        let events = if self.count_active() { LINES } else { 0 };
        for state in [main, watchdog::running_coroutine()] {
            if !state.is_null() {
                // SAFETY: the main state is live (the engine owns it), and so is the coroutine
                // the watch says runs (it is on the stack); both run on this thread.
                unsafe { watchdog::set_resting(state, events) };
            }
        }
    }

    /// Whether breakpoints are set or a step is under way, counted in [`ACTIVE`] as it is.
    fn count_active(&self) -> bool {
        let active = self.is_active();
        if self.counted_active.replace(active) != active {
            ACTIVE.with(|count| count.set(if active { count.get() + 1 } else { count.get().saturating_sub(1) }));
        }
        active
    }
}

impl Drop for Debugger {
    fn drop(&mut self) {
        if self.counted_active.get() {
            ACTIVE.with(|count| count.set(count.get().saturating_sub(1)));
        }
    }
}

/// Why code a breakpoint's condition or log message gives did not yield a value.
#[derive(Debug, thiserror::Error)]
pub(crate) enum EvaluationError {
    /// The code raised an error (its message, or the value raised written out).
    #[error("{0}")]
    Raised(String),
    /// The entry function that evaluates could not run.
    #[error("the evaluation could not run")]
    CouldNotRun,
    /// The entry function ran but left no result.
    #[error("nothing was evaluated")]
    NothingEvaluated,
}

/// What the hook asks of its entry function ([`Debugger::entry`]), which runs as an mlua
/// callback on the hooked Lua thread.
enum Request {
    /// Evaluate an expression among the stopped line's variables.
    Evaluate(String),
    /// Pause the line, for a cause, with a note.
    Pause(BreakCause, Option<String>),
}

impl Debugger {
    /// Runs `request` through the entry function on `state`, from the hook: the callback
    /// makes mlua's calls run on the hooked thread. Returns false if the entry failed (its
    /// error is on the stack).
    fn enter(&self, state: *mut ffi::lua_State, request: Request) -> bool {
        let Some(entry) = self.entry.get() else { return true };
        *self.request.borrow_mut() = Some(request);
        self.hooked.set(self.hooked.get() + 1);
        // SAFETY: the entry is a function in the registry; calling Lua from a hook is allowed.
        let status = unsafe {
            ffi::lua_rawgeti(state, ffi::LUA_REGISTRYINDEX, ffi::lua_Integer::from(*entry));
            ffi::lua_pcall(state, 0, 0, 0)
        };
        self.hooked.set(self.hooked.get() - 1);
        status == ffi::LUA_OK
    }

    /// Evaluates `code` among the variables of the line the hook is on.
    fn evaluate_here(&self, state: *mut ffi::lua_State, code: &str) -> Result<mlua::Value, EvaluationError> {
        if !self.enter(state, Request::Evaluate(code.to_owned())) {
            // SAFETY: the entry's error is on the stack.
            unsafe { ffi::lua_settop(state, -2) };
            return Err(EvaluationError::CouldNotRun);
        }
        self.evaluated.borrow_mut().take().unwrap_or(Err(EvaluationError::NothingEvaluated))
    }

    /// Pauses the line the hook is on; true if an error must be raised from the hook (the
    /// wait ended with one: Stop, the editor closing).
    /// `counted`: the line is one of a file with breakpoints (counted in `lines`).
    fn stop(&self, state: *mut ffi::lua_State, note: Option<String>, cause: BreakCause, counted: bool) -> bool {
        self.step.set(None);
        self.stopping_on_counted.set(counted);
        let raise = !self.enter(state, Request::Pause(cause, note));
        if self.step.get().is_none() {
            // Continued: back to resting on this thread as on the main state.
            let events = if self.count_active() { LINES } else { 0 };
            // SAFETY: the state runs on this thread.
            unsafe { watchdog::set_resting(state, events) };
        }
        raise
    }

    /// The entry's work: what the hook asked, with mlua's calls on the hooked thread.
    fn serve(&self, lua: &Lua) -> mlua::Result<()> {
        let Some(breaks) = self.breaks.get() else { return Ok(()) };
        let request = self.request.borrow_mut().take();
        match request {
            Some(Request::Evaluate(code)) => {
                let fallback = engine(lua).repl.borrow().env.clone();
                let (ok, value): (bool, mlua::Value) = breaks.get::<Function>("evaluate")?.call((code, fallback))?;
                let result = if ok {
                    Ok(value)
                } else {
                    Err(EvaluationError::Raised(match value {
                        mlua::Value::String(text) => text.to_string_lossy(),
                        other => super::inspect::inspect(&other, 1),
                    }))
                };
                *self.evaluated.borrow_mut() = Some(result);
                Ok(())
            }
            Some(Request::Pause(cause, note)) => {
                engine(lua).repl.borrow_mut().next_reason = note;
                breaks.get::<Function>("pause")?.call::<()>(cause.name())
            }
            None => Ok(()),
        }
    }

    /// Runs `function` as the REPL does: while a break the hook made waits, in a coroutine
    /// (see the module's note), else directly.
    pub(crate) fn run_evaluation(&self, function: &Function) -> mlua::Result<mlua::MultiValue> {
        match self.breaks.get().filter(|_| self.hooked.get() > 0) {
            Some(breaks) => {
                let mut results: mlua::MultiValue = breaks.get::<Function>("run")?.call(function)?;
                match results.pop_front() {
                    Some(mlua::Value::Boolean(true)) => Ok(results),
                    _ => Err(mlua::Error::runtime(match results.pop_front() {
                        Some(mlua::Value::String(text)) => text.to_string_lossy(),
                        Some(other) => super::inspect::inspect(&other, 1),
                        None => "the evaluation failed".into(),
                    })),
                }
            }
            None => function.call(()),
        }
    }
}
/// `path` as breakpoints and debug adapters name a file: absolute from the working folder,
/// with symlinks, `.` and `..` resolved where the file exists (and `.` and `..` dropped
/// lexically where it does not), so every spelling of one file is one path.
pub fn absolute(path: &Path) -> PathBuf {
    let joined = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
    joined.canonicalize().unwrap_or_else(|_| {
        let mut normal = PathBuf::new();
        for part in joined.components() {
            match part {
                std::path::Component::CurDir => {}
                std::path::Component::ParentDir => {
                    normal.pop();
                }
                other => normal.push(other),
            }
        }
        normal
    })
}
