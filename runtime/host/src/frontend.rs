//! The waits of blocking Lua calls: `query()` and `pause()` run the serve loop nested until
//! they are answered, so the editor stays live meanwhile. The host is the
//! [`Frontend`](nefia_lua::gui::Frontend) they wait through (in `runtime/host/src/lib.rs`: it serves the
//! commands); [`Waits::wait`] is the loop and what it keeps. It is handed what it needs of
//! the rest of the host by name ([`Nesting`]), so it imports none of the host's modules: the
//! context every subsystem is given holds the waits, which must not reach back into them.

use std::cell::Cell;
use std::sync::atomic::{AtomicU64, Ordering};

use nefia_lua::gui::WaitReason;
use nefia_lua::runtime::Runtime;

/// The `query()`/`pause()` waits: how many are nested now, how many have begun, and why the
/// innermost one waits. The spine's state; a subsystem reads it through
/// [`super::cx::Cx::waiting`].
#[derive(Default)]
pub(crate) struct Waits {
    depth: Cell<u32>,
    begun: Cell<u64>,
    /// Why the innermost wait waits (None: none does).
    innermost: Cell<Option<WaitReason>>,
}

/// What a wait is handed by the spine: how to serve a command and publish, and the spine's
/// and the other subsystems' state it reads and sets, by name.
pub(crate) struct Nesting<'a> {
    /// Takes the next command, if one comes, and handles it (the spine's).
    pub(crate) serve: &'a dyn Fn(),
    /// Publishes a snapshot (the spine's).
    pub(crate) publish: &'a dyn Fn(),
    /// When the command began to be busy (not busy while the player is waited for).
    pub(crate) busy_since: &'a AtomicU64,
    /// The frontend has gone or asked the runtime to shut down.
    pub(crate) shutting_down: &'a Cell<bool>,
    /// The runtime cannot go on after a panic (see `recovery.rs`).
    pub(crate) failed: &'a dyn Fn() -> bool,
    /// Play's step back asked: the waiting code unwinds to be replayed.
    pub(crate) rewinding: &'a dyn Fn() -> bool,
}

impl Waits {
    /// How many waits are nested now (0: a top-level command runs).
    pub(crate) fn depth(&self) -> u32 {
        self.depth.get()
    }

    /// How many waits have begun (a command that waited for the player took the player's
    /// time, not the game's).
    pub(crate) fn begun(&self) -> u64 {
        self.begun.get()
    }

    /// Why the innermost wait waits: a `query()` or a `pause()` (None: no wait, the runtime
    /// runs).
    pub(crate) fn innermost(&self) -> Option<WaitReason> {
        self.innermost.get()
    }

    /// A wait begins.
    fn enter(&self) {
        self.depth.set(self.depth.get() + 1);
        self.begun.set(self.begun.get() + 1);
    }

    /// The innermost wait ended.
    fn leave(&self) {
        self.depth.set(self.depth.get().saturating_sub(1));
    }

    /// Runs the serve loop nested until `done` (the `query()` answered, the `pause()` gone
    /// on), or until the wait must end: the editor closing, the runtime failed, Stop pressed,
    /// a step back asked. Meanwhile nothing is busy and the time limit does not run.
    pub(crate) fn wait(
        &self,
        runtime: &Runtime,
        reason: WaitReason,
        done: &dyn Fn() -> bool,
        nesting: Nesting,
    ) -> mlua::Result<()> {
        let outer = self.innermost.replace(Some(reason));
        // Not busy while waiting for the player, and the time limit does not run.
        let busy = nesting.busy_since.swap(0, Ordering::Relaxed);
        let limits = runtime.engine().limits();
        self.enter();
        let profiler = runtime.engine().profiler();
        let result = profiler.waiting(|| {
            limits.waiting(|| {
                (nesting.publish)();
                loop {
                    if done() {
                        break Ok(());
                    }
                    if nesting.shutting_down.get() {
                        break Err(mlua::Error::runtime("the editor is closing"));
                    }
                    if (nesting.failed)() {
                        break Err(mlua::Error::runtime("the runtime stopped after a panic"));
                    }
                    if limits.take_stop() {
                        break Err(mlua::Error::runtime("interrupted: Stop was pressed while the script waited"));
                    }
                    if (nesting.rewinding)() {
                        // Stepping back: the command's code unwinds, then is replayed.
                        limits.interrupt();
                        break Err(mlua::Error::runtime("interrupted: stepping back replays this turn"));
                    }
                    (nesting.serve)();
                    (nesting.publish)();
                }
            })
        });
        self.leave();
        self.innermost.set(outer);
        nesting.busy_since.store(busy, Ordering::Relaxed);
        result
    }
}
