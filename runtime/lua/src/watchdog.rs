//! The watchdog: the limits' hook armed only when it is needed, so Lua runs at full speed
//! under the editor's limits.
//!
//! In Lua 5.4 an installed count hook makes the interpreter trace every instruction (about
//! 2.5× slower on a tight loop), however rarely the hook fires. So no hook is installed while
//! code runs. One watchdog thread serves every runtime of the process: every [`POLL`] it looks
//! at the evaluations running, and when one is past its deadline, its Stop or Pause flag is
//! raised, or its memory limit is due a check, it sends a signal to that runtime's thread. The signal's
//! handler, on that thread, arms a hook that fires at the next instruction (`lua_sethook` is
//! safe in a signal handler: the standard `lua` interpreter handles Ctrl+C this way). The hook
//! disarms itself, asks [`super::limits::Limits`] whether the code must stop, and raises the
//! error if so.
//!
//! Hooks are per Lua thread, so the handler arms both the main state and the coroutine
//! running, which [`resume`] (the sandbox's `coroutine.resume`) keeps track of.
//!
//! A Lua thread has one hook slot, shared with the debugger (`super::debugger`): while line
//! breakpoints are set or a step is under way, the state's hook is [`hook`] with the
//! debugger's events (calls, returns, lines) as its *resting* mask. Arming adds the count
//! event to what rests there and disarming takes it away again, so neither use undoes the
//! other; [`hook`] sends each event to its owner.
//!
//! Where there are no POSIX signals, the hook stays armed as before: every
//! `FALLBACK_EVERY` instructions.

use std::cell::Cell;
use std::ffi::{CStr, c_int};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::ptr::null_mut;
use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock, Weak};
use std::time::{Duration, Instant};

use mlua::{Lua, ffi};

/// How often the watchdog looks at the running evaluations: the most by which a time limit
/// is overrun or Stop is late, and how often the memory limit is checked.
pub const POLL: Duration = Duration::from_millis(10);

/// Without signals, how many instructions run between two checks.
#[cfg(not(unix))]
pub const FALLBACK_EVERY: c_int = 1000;

thread_local! {
    /// The Lua states this thread is running under a watch: the main state, and the
    /// coroutine running (null when it is the main state). Read by the signal handler.
    static RUNNING: [AtomicPtr<ffi::lua_State>; 2] = const { [AtomicPtr::new(null_mut()), AtomicPtr::new(null_mut())] };
    /// The check the armed hook makes, for this thread's runtime.
    static CHECK: Cell<Option<Check>> = const { Cell::new(None) };
    /// How many times the hook has fired on this thread.
    static FIRED: Cell<u64> = const { Cell::new(0) };
}

/// How many times the limits' hook has fired on this thread: once for each deadline, Stop
/// or memory check the watchdog asked for, and never for Lua code that runs within its
/// limits between two of them.
pub fn hook_calls() -> u64 {
    FIRED.with(Cell::get)
}

/// Why the running Lua code must stop, if it must: asked by the armed hook, with the hooked
/// state. It must call no function on that state: the call would return into the hooked
/// function and make Lua report its line again (see [`super::heap::held_in_hook`]).
pub type Check = fn(&Lua, *mut ffi::lua_State) -> Option<String>;

/// What the watchdog knows of one runtime's evaluation.
#[derive(Default)]
struct Terms {
    /// The runtime's thread while an evaluation runs under the watch.
    thread: Option<Target>,
    /// When the evaluation must stop.
    deadline: Option<Instant>,
    /// The flags the evaluation listens to (Stop, Pause): raised, the hook makes its check.
    flags: Vec<Arc<AtomicBool>>,
    /// The memory limit is checked every [`POLL`].
    sample_memory: bool,
}

/// A thread the watchdog can signal.
#[derive(Clone, Copy)]
struct Target {
    #[cfg(unix)]
    thread: libc::pthread_t,
}

impl Terms {
    /// The runtime's thread, if it is due a check now.
    fn due(&self, now: Instant) -> Option<Target> {
        let thread = self.thread?;
        let late = self.deadline.is_some_and(|deadline| now >= deadline);
        let raised = self.flags.iter().any(|flag| flag.load(Ordering::Relaxed));
        (late || raised || self.sample_memory).then_some(thread)
    }
}

/// One runtime's entry with the watchdog: what it is running under, for the watchdog thread.
/// It joins the watchdog (which starts the thread) the first time code runs under a limit,
/// so a runtime with no limits costs nothing.
#[derive(Default)]
pub struct Watch {
    terms: std::cell::OnceCell<Arc<Mutex<Terms>>>,
}

/// Locks `terms`; they are plain values, whole after any panic.
fn lock(terms: &Mutex<Terms>) -> MutexGuard<'_, Terms> {
    terms.lock().unwrap_or_else(|e| e.into_inner())
}

impl Watch {
    /// Watches Lua code running from now on this thread, in `main` (the Lua main state),
    /// until [`Watch::idle`]: it is stopped past `deadline`, checked when one of `flags` is
    /// raised, and checked every [`POLL`] when `sample_memory`. `check` says why it must stop.
    pub fn running(
        &self,
        main: *mut ffi::lua_State,
        check: Check,
        deadline: Option<Instant>,
        flags: Vec<Arc<AtomicBool>>,
        sample_memory: bool,
    ) {
        RUNNING.with(|running| running[0].store(main, Ordering::Relaxed));
        CHECK.with(|c| c.set(Some(check)));
        #[cfg(not(unix))]
        arm(main, FALLBACK_EVERY);
        let terms = self.terms.get_or_init(|| {
            let terms = Arc::new(Mutex::new(Terms::default()));
            lock_entries().push(Arc::downgrade(&terms));
            terms
        });
        let mut terms = lock(terms);
        terms.thread = Some(this_thread());
        terms.deadline = deadline;
        terms.flags = flags;
        terms.sample_memory = sample_memory;
        drop(terms);
        watchdog().thread.unpark();
    }

    /// No Lua code runs under the watch: the watchdog leaves this runtime alone, and no hook
    /// is left armed. After this returns no new signal is sent for it (one already sent may
    /// still arrive, and arms a hook that finds nothing to stop).
    pub fn idle(&self) {
        if !self.stop_watching() {
            return;
        }
        disarm_running();
        RUNNING.with(|running| running.iter().for_each(|state| state.store(null_mut(), Ordering::Relaxed)));
    }

    /// Tells the watchdog no code runs; false if this runtime never ran any under it.
    fn stop_watching(&self) -> bool {
        let Some(terms) = self.terms.get() else { return false };
        let mut terms = lock(terms);
        terms.thread = None;
        terms.flags.clear();
        true
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        // Only the watchdog's side: the thread's Lua states may be closed already (the last
        // evaluation's end disarmed and forgot them).
        self.stop_watching();
    }
}

/// The process's watchdog thread and the runtimes it watches.
struct Watchdog {
    entries: Mutex<Vec<Weak<Mutex<Terms>>>>,
    thread: std::thread::Thread,
}

fn lock_entries() -> MutexGuard<'static, Vec<Weak<Mutex<Terms>>>> {
    watchdog().entries.lock().unwrap_or_else(|e| e.into_inner())
}

fn watchdog() -> &'static Watchdog {
    static WATCHDOG: OnceLock<Watchdog> = OnceLock::new();
    WATCHDOG.get_or_init(|| {
        install_handler();
        let thread = std::thread::Builder::new()
            .name("nefia-watchdog".into())
            .spawn(|| {
                loop {
                    if watch_once() {
                        std::thread::sleep(POLL);
                    } else {
                        std::thread::park();
                    }
                }
            })
            .unwrap_or_else(|error| panic!("the watchdog thread could not start: {error}"));
        Watchdog { entries: Mutex::new(Vec::new()), thread: thread.thread().clone() }
    })
}

/// One look at every runtime: signals those due a check. True while any runs under a watch.
fn watch_once() -> bool {
    let now = Instant::now();
    let mut entries = lock_entries();
    entries.retain(|entry| entry.strong_count() > 0);
    let mut any = false;
    for entry in entries.iter().filter_map(Weak::upgrade) {
        // Signalled under the lock, so the thread cannot go idle (and end) meanwhile.
        let terms = lock(&entry);
        any |= terms.thread.is_some();
        if let Some(target) = terms.due(now) {
            signal(target);
        }
    }
    any
}

#[cfg(unix)]
const SIGNAL: c_int = libc::SIGURG;

#[cfg(unix)]
fn this_thread() -> Target {
    // SAFETY: pthread_self has no preconditions.
    Target { thread: unsafe { libc::pthread_self() } }
}

#[cfg(not(unix))]
fn this_thread() -> Target {
    Target {}
}

#[cfg(unix)]
fn install_handler() {
    // SAFETY: a zeroed sigaction is a valid start; the handler only calls lua_sethook on
    // states of its own thread, which is safe in a signal handler.
    unsafe {
        let mut action: libc::sigaction = std::mem::zeroed();
        action.sa_sigaction = on_signal as *const () as libc::sighandler_t;
        action.sa_flags = libc::SA_RESTART;
        libc::sigemptyset(&mut action.sa_mask);
        if libc::sigaction(SIGNAL, &action, null_mut()) != 0 {
            panic!("the watchdog's signal handler could not be installed");
        }
    }
}

#[cfg(not(unix))]
fn install_handler() {}

#[cfg(unix)]
fn signal(target: Target) {
    // SAFETY: the thread is running an evaluation (its terms say so, under their lock), so
    // it is alive.
    unsafe {
        libc::pthread_kill(target.thread, SIGNAL);
    }
}

#[cfg(not(unix))]
fn signal(_: Target) {}

#[cfg(unix)]
extern "C" fn on_signal(_: c_int) {
    RUNNING.with(|running| running.iter().for_each(|state| arm(state.load(Ordering::Relaxed), 1)));
}

/// Arms the hook on `state` (if any) to fire after `every` instructions, on top of the
/// debugger's resting events.
fn arm(state: *mut ffi::lua_State, every: c_int) {
    if !state.is_null() {
        // SAFETY: the state is one this thread runs; lua_gethookmask reads a field and
        // lua_sethook is async-signal-safe.
        unsafe {
            let resting = ffi::lua_gethookmask(state) & !ffi::LUA_MASKCOUNT;
            ffi::lua_sethook(state, Some(hook), resting | ffi::LUA_MASKCOUNT, every)
        };
    }
}

fn is_armed(state: *mut ffi::lua_State) -> bool {
    // SAFETY: the state is one this thread runs.
    !state.is_null() && unsafe { ffi::lua_gethookmask(state) } & ffi::LUA_MASKCOUNT != 0
}

/// Takes the count event off `state`'s hook, leaving the debugger's resting events.
///
/// # Safety
/// `state` is a live Lua state this thread runs.
unsafe fn disarm(state: *mut ffi::lua_State) {
    unsafe {
        let resting = ffi::lua_gethookmask(state) & !ffi::LUA_MASKCOUNT;
        ffi::lua_sethook(state, (resting != 0).then_some(hook as ffi::lua_Hook), resting, 0);
    }
}

/// Sets the debugger's resting events on `state` (0: none), keeping the count event if the
/// limits armed it.
///
/// # Safety
/// `state` is a live Lua state this thread runs.
pub unsafe fn set_resting(state: *mut ffi::lua_State, events: c_int) {
    unsafe {
        let count = ffi::lua_gethookmask(state) & ffi::LUA_MASKCOUNT;
        let mask = events | count;
        let every = if count != 0 { ffi::lua_gethookcount(state) } else { 0 };
        ffi::lua_sethook(state, (mask != 0).then_some(hook as ffi::lua_Hook), mask, every);
    }
}

/// The coroutine running under the watch on this thread, if one is (null: the main state).
pub fn running_coroutine() -> *mut ffi::lua_State {
    RUNNING.with(|running| running[1].load(Ordering::Relaxed))
}

fn disarm_running() {
    RUNNING.with(|running| {
        for state in running {
            let state = state.load(Ordering::Relaxed);
            if !state.is_null() {
                // SAFETY: as in `arm`.
                unsafe { disarm(state) };
            }
        }
    });
}

/// What the debugger hands the hook when it installs itself (`super::debugger`): the hook
/// sends it calls, returns and lines, and a coroutine resumes with line events on while it
/// watches. The watchdog owns the hook slot and knows nothing else of the debugger.
pub(super) struct DebugEvents {
    /// The debugger's events; true when the error it left on the stack must be raised.
    pub on_event: unsafe fn(*mut ffi::lua_State, *mut ffi::lua_Debug) -> bool,
    /// Whether a debugger of this thread has breakpoints set or a step under way.
    pub watching: fn() -> bool,
}

/// The debugger's events, once it has installed itself.
static DEBUG_EVENTS: OnceLock<DebugEvents> = OnceLock::new();

/// Hands the debugger's events to the hook (the first hand-over holds: it is the same code
/// for every engine).
pub(super) fn hand_debug_events(events: DebugEvents) {
    let _ = DEBUG_EVENTS.set(events);
}

/// The one hook of every Lua thread: the count event is the limits' (see [`limits_check`]),
/// calls, returns and lines the debugger's.
unsafe extern "C-unwind" fn hook(state: *mut ffi::lua_State, debug: *mut ffi::lua_Debug) {
    // SAFETY: `debug` is the hook's activation record.
    if unsafe { (*debug).event } == ffi::LUA_HOOKCOUNT {
        // SAFETY: as the hook's.
        unsafe { limits_check(state, debug) }
    } else {
        let Some(events) = DEBUG_EVENTS.get() else { return };
        // SAFETY: as the hook's.
        if unsafe { (events.on_event)(state, debug) } {
            // SAFETY: the debugger left its error on the stack and holds nothing to drop.
            unsafe { ffi::lua_error(state) };
        }
    }
}

/// The armed count event: disarms, asks the runtime's check, and raises its reason as a Lua
/// error at the running line.
///
/// # Safety
/// Called from [`hook`] with its arguments.
unsafe fn limits_check(state: *mut ffi::lua_State, debug: *mut ffi::lua_Debug) {
    #[cfg(unix)]
    {
        disarm_running();
        // SAFETY: the hook runs on the state's own thread.
        unsafe { disarm(state) };
    }
    FIRED.with(|fired| fired.set(fired.get() + 1));
    let Some(check) = CHECK.with(Cell::get) else { return };
    let reason = catch_unwind(AssertUnwindSafe(|| {
        // SAFETY: the state is a live mlua state (the runtime's), in a hook on its thread.
        let lua = unsafe { Lua::get_or_init_from_ptr(state) };
        check(lua, state)
    }))
    .unwrap_or_else(|_| Some("internal error: the limits' check failed".into()));
    let Some(reason) = reason else { return };
    // SAFETY: `debug` is the hook's activation record; nothing is left to drop when the
    // error is raised (the message is pushed first).
    unsafe {
        let message = if ffi::lua_getinfo(state, c"Sl".as_ptr(), debug) != 0 {
            let place = CStr::from_ptr((*debug).short_src.as_ptr()).to_string_lossy();
            format!("{place}:{}: {reason}", (*debug).currentline.max(0))
        } else {
            reason
        };
        ffi::lua_pushlstring(state, message.as_ptr().cast(), message.len());
        drop(message);
        ffi::lua_error(state);
    }
}

/// `coroutine.resume` as the sandbox gives it: the original (upvalue 1), with the coroutine
/// it resumes known to the signal handler while it runs, and armed if the thread that
/// resumes it is.
///
/// # Safety
/// A Lua C function whose first upvalue is the standard `coroutine.resume`.
pub unsafe extern "C-unwind" fn resume(state: *mut ffi::lua_State) -> c_int {
    unsafe {
        let coroutine = ffi::lua_tothread(state, 1);
        let outer = RUNNING.with(|running| {
            let outer = running[1].swap(coroutine, Ordering::Relaxed);
            if !coroutine.is_null() {
                // While the debugger has events, the coroutine resumes with lines on: it may
                // be suspended in a function of a file with breakpoints however its resumer
                // runs, and its first line where none is turns them off again.
                let debugging = DEBUG_EVENTS.get().is_some_and(|events| (events.watching)());
                let events = ffi::LUA_MASKCALL | ffi::LUA_MASKRET | ffi::LUA_MASKLINE;
                set_resting(coroutine, if debugging { events } else { 0 });
            }
            if is_armed(state) {
                arm(coroutine, 1);
            }
            outer
        });
        let arguments = ffi::lua_gettop(state);
        ffi::lua_pushvalue(state, ffi::lua_upvalueindex(1));
        ffi::lua_insert(state, 1);
        let status = ffi::lua_pcall(state, arguments, ffi::LUA_MULTRET, 0);
        RUNNING.with(|running| {
            running[1].store(outer, Ordering::Relaxed);
            if is_armed(coroutine) {
                arm(state, 1);
            }
        });
        if status != ffi::LUA_OK {
            ffi::lua_error(state);
        }
        ffi::lua_gettop(state)
    }
}
