//! The host as the [`Frontend`] blocking Lua calls wait through: `query()` and `pause()` run
//! the serve loop nested until they are answered, so the editor stays live meanwhile.

use std::sync::atomic::Ordering;

use mlua::Lua;

use super::Host;
use crate::host::view::RuntimeState;
use crate::lua::gui::{Frontend, WaitReason};

impl Frontend for Host {
    fn wait(&self, _lua: &Lua, reason: WaitReason, done: &dyn Fn() -> bool) -> mlua::Result<()> {
        let outer = self.state.replace(match reason {
            WaitReason::Query => RuntimeState::InQuery,
            WaitReason::Pause => RuntimeState::Paused,
        });
        // Not busy while waiting for the player, and the time limit does not run.
        let busy = self.shared.busy_since.swap(0, Ordering::Relaxed);
        let limits = self.runtime.engine().limits();
        self.waits.enter();
        let debugger_break = {
            use crate::lua::debugger::BreakCause;
            let cause = self.runtime.engine().pause_view().map(|view| view.cause);
            matches!(cause, Some(BreakCause::Breakpoint | BreakCause::Step | BreakCause::Exception))
        };
        let answers = self.play.editor_answers_break(reason == WaitReason::Pause, debugger_break);
        let profiler = self.runtime.engine().profiler();
        let result = profiler.waiting(|| {
            limits.waiting(|| {
                self.publish();
                loop {
                    if done() {
                        break Ok(());
                    }
                    if self.shutting_down.get() {
                        break Err(mlua::Error::runtime("the editor is closing"));
                    }
                    if self.failed.borrow().is_some() {
                        break Err(mlua::Error::runtime("the runtime stopped after a panic"));
                    }
                    if limits.take_stop() {
                        break Err(mlua::Error::runtime("interrupted: Stop was pressed while the script waited"));
                    }
                    if self.play.rewinding() {
                        // Stepping back: the command's code unwinds, then is replayed.
                        limits.interrupt();
                        break Err(mlua::Error::runtime("interrupted: stepping back replays this turn"));
                    }
                    if let Some(command) = self.next_command() {
                        self.handle(command);
                    }
                    self.publish();
                }
            })
        });
        self.play.break_answered(answers);
        self.waits.leave();
        self.state.set(outer);
        self.shared.busy_since.store(busy, Ordering::Relaxed);
        result
    }
}

impl Host {
    /// True while the game's code waits at a breakpoint (`pause()`, a watch), not in a menu.
    pub(super) fn at_breakpoint(&self) -> bool {
        self.state.get() == RuntimeState::Paused
    }
}
