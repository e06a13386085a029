//! Stepping back through Lua, from a break in a recorded session (a game played with a
//! recorder, or a launched recording being replayed): to the line that ran before, or back to
//! the previous hit of any breakpoint, however many turns earlier.
//!
//! Game logic is deterministic, so a command replayed from the same state runs the same lines.
//! The debugger counts the lines of files with breakpoints from the start of each top-level
//! command (its hook sees those lines whatever else it is doing, so a replay counts the same);
//! a break's position is its recorded input and that count. Stepping back unwinds the
//! command's code, finds the position to go back to, puts back the kept state before that
//! input's turn, replays the turn's inputs up to it with the breakpoints passed, then replays
//! the input itself with the debugger told to stop at the position. A position in an earlier
//! input is found by replaying the inputs before the break's, from one kept state at a time
//! (each input once), newest stretch first, noting how many counted lines each ran and where
//! breakpoints would stop (rr's reverse-continue, done by replaying forward). Going on from there
//! replays forward to where the game was going: through the break's input, or to the turn a launched
//! recording plays to, with the breakpoints on the way stopping.

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::path::PathBuf;

use super::{PlayHost, PlaySession};
use crate::cx::Cx;
use nefia_protocol::message::{HostEvent, RefusalKind, Refused};
use nefia_protocol::play::ReverseKind;
use nefia_protocol::repl::BreakCause;
use nefia_protocol::repl::Evaluation;

/// Stepping back's state, part of the play subsystem's.
#[derive(Default)]
pub(super) struct Reverse {
    /// Replaying a turn up to a change ("When did this change?" → an entry), or the command a
    /// step back went into: a break there waits for the editor, not for the recorded inputs.
    pub(super) stopping_at_change: Cell<bool>,
    /// The recorded input of the top-level command running (for stepping back into it).
    pub(super) command_input: Cell<Option<usize>>,
    /// The recorded input being replayed to step back into it.
    pub(super) replaying_input: Cell<Option<usize>>,
    /// A step back asked for: done once the command's code has unwound.
    rewind: Cell<Option<Rewind>>,
    /// While a step back replays the command it went into: where the game goes on to after
    /// it (a step back from a break there goes on to the same place).
    resuming: Cell<Option<Resume>>,
    /// The text each script run (`ReplCommand::RunFile`) had when it last ran: a replay runs
    /// the file again, so a step back is refused once it changed.
    scripts_run: RefCell<BTreeMap<PathBuf, Vec<u8>>>,
    /// A REPL command a step back unwound: its recorded input and its id, which its replay
    /// answers with.
    unwound: Cell<Option<(usize, u64)>>,
    /// While a step back searches the inputs before a break: what each command replayed ran.
    survey: RefCell<Option<Vec<Surveyed>>>,
}

impl Reverse {
    /// True once a step back was asked and until the command's code has unwound and been
    /// replayed.
    pub(super) fn rewinding(&self) -> bool {
        self.rewind.get().is_some()
    }
}

/// Where the game goes on to once the command stepped back into has run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Resume {
    /// Through recorded input `.0` (the break's own: a game being played).
    ThroughInput(usize),
    /// To turn mark `.0` (a launched recording, played to its last turn).
    ToMark(usize),
}

/// A step back asked for: the recorded input of the command, and where in it to stop.
#[derive(Clone, Copy, Debug)]
struct Rewind {
    input: usize,
    /// The break's position (counted lines) and whether its line is counted.
    position: (u64, bool),
    kind: ReverseKind,
    resume: Resume,
}

/// What replaying one recorded input's command showed: how many lines of files with
/// breakpoints it ran, and the positions where breakpoints would have stopped.
struct Surveyed {
    input: usize,
    lines: u64,
    hits: Vec<u64>,
}

impl PlaySession {
    /// Asks to step back from the innermost break: its command's code unwinds (the break's
    /// wait ends with an interruption) and [`PlaySession::rewind_if_asked`] replays it.
    pub(crate) fn request_rewind(&self, cx: &Cx, kind: ReverseKind) {
        let engine = cx.runtime.engine();
        let refuse = |message: &str| cx.refuse(Refused::new(RefusalKind::Play, message));
        if engine.pause_view().is_none() {
            return refuse("step back works from a break");
        }
        let Some(input) = self.reverse.command_input.get() else {
            return refuse(
                "step back works in a recorded session (a game played, or a recording replayed): this code is not a \
                 recorded input",
            );
        };
        let Some(position) = engine.debugger().break_position() else {
            return refuse("step back works from a break");
        };
        if self.mark_before_input(input).is_none() {
            return refuse("the session has no kept turn before this command");
        }
        if let Some(changed) = self.script_changed_since_it_ran(cx) {
            return refuse(&format!(
                "{} changed since it ran, so running it again would not go the same way: run it again to step back                  through it",
                changed.display()
            ));
        }
        // A step back from a break that a step back reached goes on as the first one would.
        let resume = self.reverse.resuming.get().unwrap_or(match self.going_to.get() {
            Some(mark) => Resume::ToMark(mark),
            None => Resume::ThroughInput(input),
        });
        self.reverse.rewind.set(Some(Rewind { input, position, kind, resume }));
    }

    /// Answers REPL command `id` (code or a script) with `result` — unless a step back unwound
    /// it: then its replay answers, with the same id (a debug adapter's launched program ends
    /// when its script's answer comes, and that is after the replay).
    pub(crate) fn answer_evaluation(&self, cx: &Cx, id: u64, result: Evaluation) {
        let unwound = self.reverse.unwound.get();
        if self.reverse.rewinding() && !cx.waiting() {
            if let Some(input) = self.reverse.command_input.get() {
                // Unwound again (a step back from the replay's break): the first id stays.
                let kept = unwound.filter(|(at, _)| *at == input).map_or(id, |(_, kept)| kept);
                self.reverse.unwound.set(Some((input, kept)));
            }
            return;
        }
        let replaying = self.replaying.get() && !cx.runtime.engine().debugger().scanning();
        let id = match unwound {
            Some((input, kept)) if replaying && self.reverse.replaying_input.get() == Some(input) => {
                self.reverse.unwound.set(None);
                kept
            }
            _ => id,
        };
        cx.send(HostEvent::Evaluated { id, result });
    }

    /// A script the recorded session ran whose file holds another text now: a replay would
    /// run that.
    fn script_changed_since_it_ran(&self, cx: &Cx) -> Option<PathBuf> {
        let scripts = self.reverse.scripts_run.borrow();
        let session = cx.runtime.engine().session();
        let ran = session.recorded.iter().filter_map(|(_, input)| match input {
            nefia_game::recording::Input::Script(path) => Some(PathBuf::from(path)),
            _ => None,
        });
        ran.into_iter().find(|path| {
            let then = scripts.get(path);
            then.is_none() || std::fs::read(path).ok().as_ref() != then
        })
    }

    /// Steps back as asked, once the command's code has unwound (the serve loop calls this
    /// after every command, and marks the turn after it; a step back asked during the replay
    /// goes round again).
    pub(crate) fn rewind_if_asked(&self, cx: &Cx, host: &PlayHost) {
        while let Some(rewind) = self.reverse.rewind.take() {
            host.stops.clear_error();
            let debugger = cx.runtime.engine().debugger();
            let (input, target, cause) = self.rewind_target(cx, host, &rewind);
            self.replay_to_before(cx, host, input);
            debugger.stop_at_line(target.max(1), cause);
            let outer = self.reverse.resuming.replace(Some(rewind.resume));
            let after = self.replay_input(cx, host, input);
            debugger.clear_target();
            if self.reverse.rewind.get().is_none() {
                self.resume_after(cx, host, input, after, rewind.resume);
            }
            self.reverse.resuming.set(outer);
        }
    }

    /// The recorded input and the position in it a step back stops at, with the break's
    /// cause: the line before the break's, or the last breakpoint hit before it; searched in
    /// the break's own input first, then in the ones before, newest first. Where there is
    /// none, the break's own position (and a step to the line before says why).
    fn rewind_target(&self, cx: &Cx, host: &PlayHost, rewind: &Rewind) -> (usize, u64, BreakCause) {
        let (counted, on_counted) = rewind.position;
        // The last counted line before the break's own.
        let before = counted - u64::from(on_counted);
        match rewind.kind {
            ReverseKind::Line if before > 0 => return (rewind.input, before, BreakCause::Step),
            ReverseKind::Line => {}
            ReverseKind::Breakpoint => {
                let own = self.survey(cx, host, rewind.input, self.turn_end(cx, rewind.input));
                if let Some(&hit) = own.first().and_then(|s| s.hits.iter().rfind(|&&hit| hit <= before)) {
                    return (rewind.input, hit, BreakCause::Breakpoint);
                }
            }
        }
        let mut end = rewind.input;
        // From the kept state before them, so each input is replayed once.
        while let Some((_, first)) = end.checked_sub(1).and_then(|last| self.kept_mark_before_input(last)) {
            for surveyed in self.survey(cx, host, first, end).into_iter().rev() {
                match rewind.kind {
                    ReverseKind::Line if surveyed.lines > 0 => {
                        return (surveyed.input, surveyed.lines, BreakCause::Step);
                    }
                    ReverseKind::Breakpoint if !surveyed.hits.is_empty() => {
                        let last = surveyed.hits.last().copied().unwrap_or(1);
                        return (surveyed.input, last, BreakCause::Breakpoint);
                    }
                    _ => {}
                }
            }
            end = first;
        }
        if rewind.kind == ReverseKind::Line {
            cx.refuse(Refused::new(
                RefusalKind::NothingToDo,
                "this is the first line of the files with breakpoints that ran in the session",
            ));
        }
        (
            rewind.input,
            counted,
            if rewind.kind == ReverseKind::Line { BreakCause::Step } else { BreakCause::Breakpoint },
        )
    }

    /// Replays recorded inputs `from..to` from the state before `from`, passing the
    /// breakpoints on the way, and says what each command ran.
    fn survey(&self, cx: &Cx, host: &PlayHost, from: usize, to: usize) -> Vec<Surveyed> {
        let debugger = cx.runtime.engine().debugger();
        self.replay_to_before(cx, host, from);
        self.left_mark();
        *self.reverse.survey.borrow_mut() = Some(Vec::new());
        debugger.scan_hits();
        self.replay_within(cx, host, from, to);
        debugger.scanned();
        self.reverse.survey.borrow_mut().take().unwrap_or_default()
    }

    /// A replayed command (recorded input `input`) ran: while surveying, what it ran is noted.
    pub(crate) fn surveyed(&self, cx: &Cx, input: usize) {
        let mut survey = self.reverse.survey.borrow_mut();
        let Some(survey) = survey.as_mut() else { return };
        let debugger = cx.runtime.engine().debugger();
        let hits = debugger.scanned();
        survey.push(Surveyed { input, lines: debugger.lines_run(), hits });
        debugger.scan_hits();
    }

    /// Puts back the kept state before recorded input `input`'s turn and replays the turn's
    /// inputs before it, passing the breakpoints on the way.
    fn replay_to_before(&self, cx: &Cx, host: &PlayHost, input: usize) {
        let Some((mark, first)) = self.mark_before_input(input) else { return };
        let debugger = cx.runtime.engine().debugger();
        debugger.scan_hits();
        self.go_to_mark(cx, host, mark);
        self.left_mark();
        self.replay_within(cx, host, first, input);
        debugger.scanned();
    }

    /// Replays recorded input `input`'s command (with the inputs its waits take), from the
    /// state before it; its breaks are the editor's to answer, as at a change. Returns the
    /// index of the first input it did not take.
    fn replay_input(&self, cx: &Cx, host: &PlayHost, input: usize) -> usize {
        let stopping = self.reverse.stopping_at_change.replace(true);
        self.left_mark();
        let after = self.replay_commands(cx, host, input, self.turn_end(cx, input), 1);
        self.reverse.stopping_at_change.set(stopping);
        after
    }

    /// The command stepped back into has run (recorded input `input`, its inputs ending
    /// before `after`): the game goes on to where it was going, the breakpoints on the way
    /// stopping.
    fn resume_after(&self, cx: &Cx, host: &PlayHost, input: usize, after: usize, resume: Resume) {
        match resume {
            Resume::ThroughInput(last) => {
                self.replay_within(cx, host, after, last + 1);
                let newest = cx.runtime.engine().session().recorded.len() == last + 1;
                if newest && self.reverse.rewind.get().is_none() {
                    self.back_at_newest();
                }
            }
            Resume::ToMark(mark) => {
                if self.finish_turn(cx, host, input, after) {
                    self.go_to_mark(cx, host, mark);
                }
            }
        }
    }
}

impl PlaySession {
    /// A top-level command begins: while it is a recorded input being replayed, that is the
    /// input a step back from a break in it goes into (a live command's input is noted when
    /// it is recorded).
    pub(crate) fn command_begins(&self) {
        self.reverse.command_input.set(self.reverse.replaying_input.get());
    }

    /// REPL script `path` is about to run with `text`: a step back into it is refused once
    /// the file holds another text.
    pub(crate) fn script_runs(&self, path: PathBuf, text: Vec<u8>) {
        self.reverse.scripts_run.borrow_mut().insert(path, text);
    }
}
