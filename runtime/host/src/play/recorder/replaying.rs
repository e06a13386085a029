//! Replaying stretches of the recorded inputs, and where the game stands among them: the turn
//! mark before an input, the inputs of a turn, the game put at the next mark after a step
//! back's replay left it inside a turn.

use super::*;

impl PlaySession {
    /// The command a recorded input was; None for reads of the clocks (and for a layer that
    /// is not open, which only a replay that went another way meets).
    pub(crate) fn command_of(&self, cx: &Cx, input: Input) -> Option<Command> {
        let layer_at = |depth| cx.runtime.engine().gui().layer_at_depth(depth);
        Some(match input {
            Input::Key(key) => Command::Input(display::Input::Key(key)),
            Input::Text(text) => Command::Input(display::Input::Text(text)),
            Input::Choose(depth, index) => Command::Input(display::Input::Choose { layer: layer_at(depth)?, index }),
            Input::Cancel(depth) => Command::Input(display::Input::Cancel { layer: layer_at(depth)? }),
            Input::Wait => Command::Play(PlayCommand::StepTurn),
            Input::Eval(code) => Command::Repl(ReplCommand::Eval { id: 0, code }),
            Input::Script(path) => Command::Repl(ReplCommand::RunFile { id: 0, path: path.into() }),
            Input::Break => Command::Debug(DebugCommand::Break),
            Input::Continue => Command::Debug(DebugCommand::Continue),
            Input::Resume => Command::Debug(DebugCommand::Resume),
            Input::Hotload { file, text } => Command::Mods(ModCommand::Hotload { file, text }),
            Input::Language(id) => Command::Mods(ModCommand::SwitchLanguage(id)),
            Input::Edit(edit) => Command::Editing(EditingCommand::Edit(edit)),
            Input::Undo => Command::Editing(EditingCommand::Undo),
            Input::Redo => Command::Editing(EditingCommand::Redo),
            Input::Stop => Command::Play(PlayCommand::Stop),
            Input::Time(_) | Input::Clock(_) => return None,
        })
    }

    /// The recorded inputs `from..to` (clipped to those recorded).
    pub(crate) fn recorded_inputs(&self, cx: &Cx, from: usize, to: usize) -> Vec<Input> {
        let session = cx.runtime.engine().session();
        let to = to.min(session.recorded.len());
        session.recorded.get(from..to).unwrap_or_default().iter().map(|(_, input)| input.clone()).collect()
    }

    /// The last turn mark at or before recorded input `input` (whose turn's inputs it is
    /// among), with the first input after that mark.
    pub(crate) fn mark_before_input(&self, input: usize) -> Option<(usize, usize)> {
        let recorder = self.recorder.borrow();
        let turns = &recorder.as_ref()?.recording.turns;
        let mark = turns.iter().rposition(|t| t.input <= input)?;
        Some((mark, turns[mark].input))
    }

    /// The last turn mark at or before recorded input `input` that has a kept state, with
    /// its first input: replaying from there reaches `input` with no other state put back.
    pub(crate) fn kept_mark_before_input(&self, input: usize) -> Option<(usize, usize)> {
        let (mark, _) = self.mark_before_input(input)?;
        let recorder = self.recorder.borrow();
        let recorder = recorder.as_ref()?;
        let kept = recorder.checkpoints.iter().rev().find(|c| c.mark <= mark)?.mark;
        Some((kept, recorder.recording.turns.get(kept)?.input))
    }

    /// The game is at the session's newest input again (a command replayed to its end).
    pub(crate) fn back_at_newest(&self) {
        if let Some(recorder) = self.recorder.borrow_mut().as_mut() {
            recorder.at = None;
            recorder.past_mark = false;
        }
    }

    /// A step back's replay ran inputs after the turn mark the game was put at: it is inside
    /// that turn now.
    pub(crate) fn left_mark(&self) {
        if let Some(recorder) = self.recorder.borrow_mut().as_mut() {
            recorder.past_mark = true;
        }
    }

    /// After recorded input `input`'s command ran inside its turn (a step back's replay; the
    /// inputs it took end before `after`): replays the turn's remaining inputs, so the game is
    /// at the next turn mark. False if there is none,
    /// or a step back was asked on the way.
    pub(crate) fn finish_turn(&self, cx: &Cx, host: &PlayHost, input: usize, after: usize) -> bool {
        let Some((mark, _)) = self.mark_before_input(input) else { return false };
        let marks = self.recorder.borrow().as_ref().map_or(0, |r| r.recording.turns.len());
        if mark + 1 >= marks {
            return false;
        }
        self.replay_within(cx, host, after, self.turn_end(cx, input));
        if self.reverse.rewinding() {
            return false;
        }
        if let Some(recorder) = self.recorder.borrow_mut().as_mut() {
            recorder.at = Some(mark + 1);
            recorder.past_mark = false;
            recorder.mark_revision = cx.runtime.world().revision();
        }
        true
    }

    /// The first input of the turn after recorded input `input`'s (the number recorded, in the
    /// last turn).
    pub(crate) fn turn_end(&self, cx: &Cx, input: usize) -> usize {
        let recorded = cx.runtime.engine().session().recorded.len();
        let Some((mark, _)) = self.mark_before_input(input) else { return recorded };
        let next = self.recorder.borrow().as_ref().and_then(|r| r.recording.turns.get(mark + 1).map(|t| t.input));
        next.unwrap_or(recorded)
    }

    /// The turn mark the game was stepped back to, if it was.
    pub(crate) fn stepped_back_to(&self) -> Option<usize> {
        self.recorder.borrow().as_ref().and_then(|r| r.at)
    }

    /// Runs the recorded inputs `from..to` (clipped to those recorded) on this host as they
    /// were run, without recording them again: nested waits (a menu the inputs open) take
    /// their inputs from the same list, and loads see the saves as they were then.
    pub(crate) fn replay_within(&self, cx: &Cx, host: &PlayHost, from: usize, to: usize) {
        self.replay_commands(cx, host, from, to, usize::MAX);
    }

    /// [`PlaySession::replay_within`] for at most `commands` top-level commands (with the inputs
    /// their waits take); a step back asked at a break ends it too. Returns the index of the
    /// first input not taken.
    pub(crate) fn replay_commands(&self, cx: &Cx, host: &PlayHost, from: usize, to: usize, commands: usize) -> usize {
        let inputs = self.recorded_inputs(cx, from, to);
        let engine = cx.runtime.engine();
        let mode = engine.session().mode;
        engine.session_mut().replay(from, inputs);
        self.replaying.set(true);
        // Recorded keys reached the game (a paused game's keys are not recorded), so they
        // reach it again while the timeline is paused.
        let paused = self.paused.replace(false);
        let mut ran = 0;
        while ran < commands
            && let Some(command) = self.next_replayed(cx)
        {
            // The input being handled, for a step back from a break in it.
            let index = engine.session().replayed_index();
            let outer = self.reverse.replaying_input.replace(index);
            host.spine.handle(command);
            self.reverse.replaying_input.set(outer);
            ran += 1;
            if let Some(index) = index {
                self.surveyed(cx, index);
            }
            if self.reverse.rewinding() {
                // A step back was asked at a break: the rest is replayed by the step back.
                break;
            }
        }
        let next = engine.session().position().unwrap_or(to);
        self.paused.set(paused);
        self.replaying.set(false);
        engine.session_mut().resume(mode);
        next
    }

    /// The next recorded command to replay (clock reads are taken by the code that reads
    /// them; one left over is skipped). None when the inputs are used up.
    pub(crate) fn next_replayed(&self, cx: &Cx) -> Option<Command> {
        loop {
            let input = cx.runtime.engine().session_mut().queue.pop_front()?;
            if let Some(command) = self.command_of(cx, input) {
                return Some(command);
            }
        }
    }
}

/// What [`PlaySession::editor_answers_break`] changed, for [`PlaySession::break_answered`] to
/// put back.
pub(crate) struct EditorAnswers {
    /// Whether inputs were replayed before the break (None: the break did not stop them).
    replaying: Option<bool>,
    /// Whether a break was the editor's to answer before this one.
    answering: bool,
}

impl PlaySession {
    /// A `query()` or `pause()` (`pause` true) begins to wait. A break while replaying a turn
    /// up to a change is the editor's to answer, and the turn's remaining inputs replay after
    /// it; so is a breakpoint, a step or an error break of the debugger's: the session was
    /// recorded without them, so no recorded input answers them. What the editor does at such
    /// a break (Continue, REPL code) is not a new input either.
    pub(crate) fn editor_answers_break(&self, cx: &Cx, pause: bool) -> EditorAnswers {
        use nefia_protocol::repl::BreakCause;
        let debugger_break = || {
            let cause = cx.runtime.engine().pause_cause();
            matches!(cause, Some(BreakCause::Breakpoint | BreakCause::Step | BreakCause::Exception))
        };
        let stopping = &self.reverse.stopping_at_change;
        let replaying = (pause && (stopping.get() || debugger_break())).then(|| self.replaying.replace(false));
        let answering = stopping.replace(stopping.get() || replaying == Some(true));
        EditorAnswers { replaying, answering }
    }

    /// The wait [`PlaySession::editor_answers_break`] began has ended.
    pub(crate) fn break_answered(&self, answers: EditorAnswers) {
        if let Some(replaying) = answers.replaying {
            self.replaying.set(replaying);
        }
        self.reverse.stopping_at_change.set(answers.answering);
    }

    /// True once a step back was asked: the code that waits unwinds, then is replayed.
    pub(crate) fn rewinding(&self) -> bool {
        self.reverse.rewinding()
    }
}
