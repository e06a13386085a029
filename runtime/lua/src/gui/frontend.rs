//! The frontend trait: what blocking Lua calls (`query()`, `pause()`) wait on — the editor's
//! host, or nothing headless.
//!
//! The host implements it (`Host` in the host crate's `lib.rs`, over `Waits::wait` in its
//! `frontend.rs`) by running its serve loop nested until the wait is done, so the REPL and the
//! other panes keep working while a script waits. Headless there is no frontend: `query()`
//! takes the answers queued with `Gui.push_ui_result` (see `gui.rs`).

use std::rc::Rc;

use mlua::Lua;

use super::super::engine;

/// Why a blocking Lua call is waiting on the frontend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaitReason {
    /// A UI layer's `query()`.
    Query,
    /// `pause()`: a breakpoint, until the REPL continues.
    Pause,
}

/// What a blocking Lua call waits on: the editor or the player window.
pub trait Frontend {
    /// Serves the frontend — answers its commands, publishes what to draw — until `done()`
    /// is true. An error (the frontend stopping the wait) is raised into the waiting Lua code.
    fn wait(&self, lua: &Lua, reason: WaitReason, done: &dyn Fn() -> bool) -> mlua::Result<()>;
}

/// Makes `frontend` the one blocking calls wait on (None: headless).
pub fn set_frontend(lua: &Lua, frontend: Option<Rc<dyn Frontend>>) {
    *engine(lua).frontend.borrow_mut() = frontend;
}
