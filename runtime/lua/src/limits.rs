//! Runaway-script control: a time limit per evaluation, a memory limit on the Lua heap and
//! what the engine holds for it, and the Stop flag another thread can raise.
//!
//! The [`super::watchdog`] arms a hook when the deadline passes, Stop is pressed or the
//! memory limit is due a check; the hook asks [`Limits::interrupted`] and the memory check,
//! and raises a Lua error when one trips, so the script unwinds like any failing script and
//! the world (plain Rust, changed only by whole operations) stays consistent. Until then Lua
//! runs with no hook at all. The clock runs only while Lua code runs for the frontend:
//! waiting for the player inside `query()` or `pause()` does not count.

use std::cell::{Cell, RefCell};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use mlua::{Lua, ffi};

use super::engine;
use super::watchdog::Watch;

/// The memory the engine holds for Lua besides the Lua heap: maps, objects, interned names.
fn engine_bytes(lua: &Lua) -> usize {
    let world = engine(lua).world.try_borrow().map(|w| w.heap_estimate()).unwrap_or(0);
    world + nefia_game::symbol::Symbol::interned_bytes()
}

/// An allocation [`Limits::check_allocation`] refused: it would pass the memory limit.
#[derive(Clone, Debug, thiserror::Error)]
#[error("{what} needs {bytes} bytes: {problem}")]
pub struct AllocationRefused {
    /// What would allocate (`Map.generate('mod.id')`).
    pub what: String,
    /// How many bytes it needs.
    pub bytes: usize,
    /// How much is in use, and the limit.
    pub problem: String,
}

/// Why `extra` more bytes would pass the memory limit, counting the Lua heap and what the
/// engine holds for Lua; none if they fit or there is no limit.
fn engine_memory_problem(lua: &Lua, heap: impl FnOnce() -> usize, extra: usize) -> Option<String> {
    let limit = engine(lua).limits.memory()?;
    let (heap, held) = (heap(), engine_bytes(lua));
    let total = heap.saturating_add(held).saturating_add(extra);
    (total > limit).then(|| {
        format!(
            "out of memory: the Lua heap ({} MiB) and what the engine holds for it ({} MiB: maps, objects, \
             names) pass the memory limit of {} MiB",
            heap >> 20,
            held >> 20,
            limit >> 20
        )
    })
}

/// Why the Lua code running must stop, if it must: the limits' check, made by the armed hook.
/// A raised Pause flag is acted on here too: the debugger stops at the next line.
///
/// It calls no function on `state` (see [`super::heap::held_in_hook`]).
fn check(lua: &Lua, state: *mut ffi::lua_State) -> Option<String> {
    let engine = engine(lua);
    if !engine.limits.between_commands() && engine.limits.take_pause() {
        engine.debugger.pause_at_next_line();
    }
    // SAFETY: the hook's state, on this thread.
    engine
        .limits
        .interrupted()
        .or_else(|| engine_memory_problem(lua, || unsafe { super::heap::held_in_hook(lua, state) }, 0))
}

/// The Lua main state of `lua`.
pub(crate) fn main_state(lua: &Lua) -> *mut ffi::lua_State {
    let mut main = std::ptr::null_mut();
    // SAFETY: reads the main thread from the registry and pops it; the state outlives the
    // Lua value, which the engine owns.
    let read = unsafe {
        lua.exec_raw::<()>((), |state| {
            ffi::lua_rawgeti(state, ffi::LUA_REGISTRYINDEX, ffi::LUA_RIDX_MAINTHREAD);
            main = ffi::lua_tothread(state, -1);
            ffi::lua_settop(state, -2);
        })
    };
    if let Err(error) = read {
        tracing::warn!("the Lua main state could not be read: {error}");
    }
    main
}

/// The limits Lua code runs under. Headless runs start with none; the editor sets its
/// defaults (see [`Limits::EDITOR_TIME`], [`Limits::EDITOR_MEMORY`]).
pub struct Limits {
    time: Cell<Option<Duration>>,
    memory: Cell<Option<usize>>,
    deadline: Cell<Option<Instant>>,
    stop: RefCell<Arc<AtomicBool>>,
    /// Raised to pause the running Lua code at its next line (a debug adapter's pause).
    pause: RefCell<Arc<AtomicBool>>,
    /// Stop was pressed during the current evaluation: it keeps failing until it unwinds.
    stopped: Cell<bool>,
    /// The current evaluation is not what Stop and Pause are for (drawing the HUD): it leaves
    /// the flags.
    deaf_to_stop: Cell<bool>,
    /// How many evaluations are running (nested ones, such as REPL input while paused,
    /// count too).
    depth: Cell<u32>,
    /// The running evaluation waits for the player.
    waiting: Cell<bool>,
    /// The Lua main state, once a limit is set (null before: nothing to watch).
    main: Cell<*mut ffi::lua_State>,
    watch: Watch,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            time: Cell::new(None),
            memory: Cell::new(None),
            deadline: Cell::new(None),
            stop: Default::default(),
            pause: Default::default(),
            stopped: Cell::new(false),
            deaf_to_stop: Cell::new(false),
            depth: Cell::new(0),
            waiting: Cell::new(false),
            main: Cell::new(std::ptr::null_mut()),
            watch: Watch::default(),
        }
    }
}

impl Limits {
    /// The editor's default time limit for one evaluation.
    pub const EDITOR_TIME: Duration = Duration::from_secs(5);
    /// The editor's default limit on the Lua heap.
    pub const EDITOR_MEMORY: usize = 1 << 30;

    /// The time limit of one evaluation, if any.
    pub fn time(&self) -> Option<Duration> {
        self.time.get()
    }

    /// The memory limit, in bytes, if any.
    pub fn memory(&self) -> Option<usize> {
        self.memory.get()
    }

    /// The bytes the Lua heap holds: what the memory limit counts of it (whole pages of small
    /// blocks, and large blocks), at least the bytes Lua uses.
    pub fn lua_heap_bytes(lua: &Lua) -> usize {
        super::heap::held(lua)
    }

    /// Sets both limits (`None`: unlimited); the watchdog keeps them.
    pub fn set(&self, lua: &Lua, time: Option<Duration>, memory: Option<usize>) {
        self.time.set(time);
        self.memory.set(memory);
        if let Err(error) = super::heap::set_limit(lua, memory) {
            tracing::error!(
                "the Lua memory limit could not be set: neither the Lua heap nor mlua's allocator runs the state: {error}"
            );
        }
        self.main.set(main_state(lua));
        self.publish();
    }

    /// Shares the Stop and Pause flags: raising Stop interrupts the running Lua code at its
    /// next check, raising Pause stops it in the debugger at its next line. Whoever acts on a
    /// flag lowers it ([`Limits::take_stop`], [`Limits::take_pause`]).
    pub fn share_flags(&self, lua: &Lua, stop: Arc<AtomicBool>, pause: Arc<AtomicBool>) {
        *self.stop.borrow_mut() = stop;
        *self.pause.borrow_mut() = pause;
        self.main.set(main_state(lua));
        self.publish();
    }

    /// Interrupts the running evaluation as Stop does (what catches the interruption raises it
    /// again), without the Stop flag: the host unwinds code to replay it.
    pub fn interrupt(&self) {
        self.stopped.set(true);
    }

    /// True if Stop was pressed since the last call; lowers the flag.
    pub fn take_stop(&self) -> bool {
        self.stop.borrow().swap(false, Ordering::Relaxed)
    }

    /// True while the code running is not what Stop and Pause are for: drawing and animating
    /// the HUD between commands.
    pub fn between_commands(&self) -> bool {
        self.deaf_to_stop.get()
    }

    /// True if Pause was asked since the last call; lowers the flag.
    pub fn take_pause(&self) -> bool {
        self.pause.borrow().swap(false, Ordering::Relaxed)
    }

    /// Tells the watchdog what the code running now runs under: nothing while no evaluation
    /// runs or it waits for the player.
    fn publish(&self) {
        let main = self.main.get();
        if main.is_null() || self.depth.get() == 0 || self.waiting.get() {
            self.watch.idle();
            return;
        }
        let shared = |flag: &RefCell<Arc<AtomicBool>>| {
            let flag = flag.borrow();
            (!self.deaf_to_stop.get() && Arc::strong_count(&flag) > 1).then(|| flag.clone())
        };
        let flags = [shared(&self.stop), shared(&self.pause)].into_iter().flatten().collect();
        self.watch.running(main, check, self.deadline.get(), flags, self.memory.get().is_some());
    }

    /// Checks that the engine may allocate `bytes` more of Rust memory for Lua (a map of
    /// `InstancedMap:new`) within the memory limit; the error says how much is in use.
    pub fn check_allocation(&self, lua: &Lua, bytes: usize, what: &str) -> Result<(), AllocationRefused> {
        match engine_memory_problem(lua, || super::heap::held(lua), bytes) {
            Some(problem) => Err(AllocationRefused { what: what.to_owned(), bytes, problem }),
            None => Ok(()),
        }
    }

    /// Runs `f` as one evaluation: the clock starts now (nested evaluations, such as REPL
    /// input while paused, get their own), and the outer deadline comes back afterwards.
    pub fn run<T>(&self, f: impl FnOnce() -> T) -> T {
        let outer = self.deadline.replace(self.time.get().map(|limit| Instant::now() + limit));
        let outer_stopped = self.stopped.replace(false);
        let outer_deaf = self.deaf_to_stop.replace(self.deaf_to_stop.get());
        let outer_waiting = self.waiting.replace(false);
        self.depth.set(self.depth.get() + 1);
        self.publish();
        let result = f();
        self.depth.set(self.depth.get() - 1);
        self.deadline.set(outer);
        self.stopped.set(outer_stopped);
        self.deaf_to_stop.set(outer_deaf);
        self.waiting.set(outer_waiting);
        self.publish();
        result
    }

    /// Runs `f` as one evaluation that Stop does not interrupt (drawing and animating the
    /// HUD between commands): the Stop flag stays for the script it is meant for.
    pub fn run_deaf_to_stop<T>(&self, f: impl FnOnce() -> T) -> T {
        let outer = self.deaf_to_stop.replace(true);
        let result = self.run(f);
        self.deaf_to_stop.set(outer);
        self.publish();
        result
    }

    /// Runs `f` with the clock stopped (the Lua code waits for the player); the time left
    /// counts again afterwards.
    pub fn waiting<T>(&self, f: impl FnOnce() -> T) -> T {
        let left = self.deadline.take().map(|deadline| deadline.saturating_duration_since(Instant::now()));
        let outer_waiting = self.waiting.replace(true);
        self.publish();
        let result = f();
        self.deadline.set(left.map(|left| Instant::now() + left));
        self.waiting.set(outer_waiting);
        self.publish();
        result
    }

    /// Why the running evaluation must stop, if it must. Once it must, it keeps having to
    /// until it unwinds: `pcall` re-raises the interruption (see `prelude.lua`).
    pub fn interrupted(&self) -> Option<String> {
        if !self.deaf_to_stop.get() && self.take_stop() {
            self.stopped.set(true);
        }
        if self.stopped.get() {
            return Some("interrupted: Stop was pressed".into());
        }
        let deadline = self.deadline.get()?;
        (Instant::now() >= deadline).then(|| {
            format!(
                "interrupted: the script ran longer than the time limit of {} s (an endless loop?); raise the limit \
                 if it is meant to take long (REPL limits, or --time-limit for nefia run)",
                self.time.get().unwrap_or_default().as_secs_f32()
            )
        })
    }
}
