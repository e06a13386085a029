//! Stepping back through Lua: from a break while playing a recorded session, to the line that
//! ran before, or back to the previous hit of any breakpoint.
//!
//! Game logic is deterministic, so a command replayed from the same state runs the same lines.
//! The debugger counts the lines of files with breakpoints from the start of each top-level
//! command (its hook sees those lines whatever else it is doing, so a replay counts the same);
//! a break's position is that count. Stepping back unwinds the command's code, puts back the
//! kept state before its turn and replays the turn's inputs up to it (the recorder's
//! `go_to_mark`), then replays the command itself with the debugger told to stop at the
//! position before. Back to the previous breakpoint hit first replays it once noting where
//! breakpoints would stop, then again to stop at the last of those before the break.

use super::super::{Host, RefusalKind};
use crate::lua::debugger::BreakCause;

/// Where to step back to.
#[derive(serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReverseKind {
    /// The line of a file with breakpoints that ran before the break's (DAP's stepBack).
    Line,
    /// The previous breakpoint hit before the break (DAP's reverseContinue); the break's own
    /// position if there is none in its command.
    Breakpoint,
}

/// A step back asked for: the recorded input of the command, and where in it to stop.
#[derive(Clone, Copy, Debug)]
pub(in crate::host) struct Rewind {
    input: usize,
    /// The break's position (counted lines) and whether its line is counted.
    position: (u64, bool),
    kind: ReverseKind,
}

impl Host {
    /// Asks to step back from the innermost break: its command's code unwinds (the break's
    /// wait ends with an interruption) and [`Host::rewind_if_asked`] replays it.
    pub(in crate::host) fn request_rewind(&self, kind: ReverseKind) {
        let engine = self.runtime.engine();
        let refuse = |message: &str| self.refuse(RefusalKind::Play, message);
        if engine.repl.borrow().pause_view().is_none() {
            return refuse("step back works from a break");
        }
        let Some(input) = self.debug.command_input.get() else {
            return refuse("step back works while playing a recorded session: this code is not a recorded input");
        };
        let Some(position) = engine.debugger.break_position() else {
            return refuse("step back works from a break");
        };
        if kind == ReverseKind::Line && position.0 == u64::from(position.1) {
            return refuse("this is the first line of the command's code in the files with breakpoints");
        }
        if self.mark_before_input(input).is_none() {
            return refuse("the session has no kept turn before this command");
        }
        self.debug.rewind.set(Some(Rewind { input, position, kind }));
    }

    /// Steps back as asked, once the command's code has unwound (the serve loop calls this
    /// after every command; a step back asked during the replay goes round again).
    pub(in crate::host) fn rewind_if_asked(&self) {
        while let Some(rewind) = self.debug.rewind.take() {
            self.debug.error.take();
            let debugger = &self.runtime.engine().debugger;
            let (counted, on_counted) = rewind.position;
            // The last counted line before the break's own.
            let before = if on_counted { counted - 1 } else { counted };
            let (target, cause) = match rewind.kind {
                ReverseKind::Line => (before, BreakCause::Step),
                ReverseKind::Breakpoint => {
                    debugger.scan_hits();
                    self.replay_command(rewind.input);
                    let hits = debugger.scanned();
                    let earlier = hits.into_iter().rfind(|&hit| hit <= before);
                    (earlier.unwrap_or(counted), BreakCause::Breakpoint)
                }
            };
            debugger.stop_at_line(target.max(1), cause);
            self.replay_command(rewind.input);
            debugger.clear_target();
        }
        self.mark_turn();
    }

    /// Puts back the state before recorded input `input`'s turn and replays up to and through
    /// it; its breaks are the editor's to answer, as at a change.
    fn replay_command(&self, input: usize) {
        let Some((mark, first)) = self.mark_before_input(input) else { return };
        self.go_to_mark(mark);
        self.replay_within(first, input);
        let stopping = self.debug.stopping_at_change.replace(true);
        self.debug.replaying_input.set(Some(input));
        self.replay_within(input, input + 1);
        self.debug.replaying_input.set(None);
        self.debug.stopping_at_change.set(stopping);
        if self.runtime.engine().session.borrow().recorded.len() == input + 1 {
            self.back_at_newest();
        }
    }
}
