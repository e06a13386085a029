//! Replaying stretches of the recorded inputs, and where the game stands among them: the turn
//! mark before an input, the inputs of a turn, the game put at the next mark after a step
//! back's replay left it inside a turn.

use super::*;

impl Host {
    /// The command a recorded input was; None for reads of the clocks (and for a layer that
    /// is not open, which only a replay that went another way meets).
    pub(in crate::host) fn command_of(&self, input: Input) -> Option<Command> {
        let layer_at = |depth| self.runtime.engine().gui().layer_at_depth(depth);
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
            Input::Edit(edit) => Command::Editing(EditingCommand::Edit(edit)),
            Input::Undo => Command::Editing(EditingCommand::Undo),
            Input::Redo => Command::Editing(EditingCommand::Redo),
            Input::Stop => Command::Play(PlayCommand::Stop),
            Input::Time(_) | Input::Clock(_) => return None,
        })
    }

    /// The recorded inputs `from..to` (clipped to those recorded).
    pub(in crate::host) fn recorded_inputs(&self, from: usize, to: usize) -> Vec<Input> {
        let session = self.runtime.engine().session();
        let to = to.min(session.recorded.len());
        session.recorded.get(from..to).unwrap_or_default().iter().map(|(_, input)| input.clone()).collect()
    }

    /// The last turn mark at or before recorded input `input` (whose turn's inputs it is
    /// among), with the first input after that mark.
    pub(in crate::host) fn mark_before_input(&self, input: usize) -> Option<(usize, usize)> {
        let recorder = self.play.recorder.borrow();
        let turns = &recorder.as_ref()?.recording.turns;
        let mark = turns.iter().rposition(|t| t.input <= input)?;
        Some((mark, turns[mark].input))
    }

    /// The last turn mark at or before recorded input `input` that has a kept state, with
    /// its first input: replaying from there reaches `input` with no other state put back.
    pub(in crate::host) fn kept_mark_before_input(&self, input: usize) -> Option<(usize, usize)> {
        let (mark, _) = self.mark_before_input(input)?;
        let recorder = self.play.recorder.borrow();
        let recorder = recorder.as_ref()?;
        let kept = recorder.checkpoints.iter().rev().find(|c| c.mark <= mark)?.mark;
        Some((kept, recorder.recording.turns.get(kept)?.input))
    }

    /// The game is at the session's newest input again (a command replayed to its end).
    pub(in crate::host) fn back_at_newest(&self) {
        if let Some(recorder) = self.play.recorder.borrow_mut().as_mut() {
            recorder.at = None;
            recorder.past_mark = false;
        }
    }

    /// A step back's replay ran inputs after the turn mark the game was put at: it is inside
    /// that turn now.
    pub(in crate::host) fn left_mark(&self) {
        if let Some(recorder) = self.play.recorder.borrow_mut().as_mut() {
            recorder.past_mark = true;
        }
    }

    /// After recorded input `input`'s command ran inside its turn (a step back's replay; the
    /// inputs it took end before `after`): replays the turn's remaining inputs, so the game is
    /// at the next turn mark. False if there is none,
    /// or a step back was asked on the way.
    pub(in crate::host) fn finish_turn(&self, input: usize, after: usize) -> bool {
        let Some((mark, _)) = self.mark_before_input(input) else { return false };
        let marks = self.play.recorder.borrow().as_ref().map_or(0, |r| r.recording.turns.len());
        if mark + 1 >= marks {
            return false;
        }
        self.replay_within(after, self.turn_end(input));
        if self.debug.rewind.get().is_some() {
            return false;
        }
        if let Some(recorder) = self.play.recorder.borrow_mut().as_mut() {
            recorder.at = Some(mark + 1);
            recorder.past_mark = false;
            recorder.mark_revision = self.runtime.world().revision();
        }
        true
    }

    /// The first input of the turn after recorded input `input`'s (the number recorded, in the
    /// last turn).
    pub(in crate::host) fn turn_end(&self, input: usize) -> usize {
        let recorded = self.runtime.engine().session().recorded.len();
        let Some((mark, _)) = self.mark_before_input(input) else { return recorded };
        let next = self.play.recorder.borrow().as_ref().and_then(|r| r.recording.turns.get(mark + 1).map(|t| t.input));
        next.unwrap_or(recorded)
    }

    /// The turn mark the game was stepped back to, if it was.
    pub(in crate::host) fn stepped_back_to(&self) -> Option<usize> {
        self.play.recorder.borrow().as_ref().and_then(|r| r.at)
    }

    /// Runs the recorded inputs `from..to` (clipped to those recorded) on this host as they
    /// were run, without recording them again: nested waits (a menu the inputs open) take
    /// their inputs from the same list, and loads see the saves as they were then.
    pub(in crate::host) fn replay_within(&self, from: usize, to: usize) {
        self.replay_commands(from, to, usize::MAX);
    }

    /// [`Host::replay_within`] for at most `commands` top-level commands (with the inputs
    /// their waits take); a step back asked at a break ends it too. Returns the index of the
    /// first input not taken.
    pub(in crate::host) fn replay_commands(&self, from: usize, to: usize, commands: usize) -> usize {
        let inputs = self.recorded_inputs(from, to);
        let engine = self.runtime.engine();
        let mode = engine.session().mode;
        engine.session_mut().replay(from, inputs);
        self.play.replaying.set(true);
        // Recorded keys reached the game (a paused game's keys are not recorded), so they
        // reach it again while the timeline is paused.
        let paused = self.play.paused.replace(false);
        let mut ran = 0;
        while ran < commands
            && let Some(command) = self.next_replayed()
        {
            // The input being handled, for a step back from a break in it.
            let index = engine.session().replayed_index();
            let outer = self.debug.replaying_input.replace(index);
            self.handle(command);
            self.debug.replaying_input.set(outer);
            ran += 1;
            if let Some(index) = index {
                self.surveyed(index);
            }
            if self.debug.rewind.get().is_some() {
                // A step back was asked at a break: the rest is replayed by the step back.
                break;
            }
        }
        let next = engine.session().position().unwrap_or(to);
        self.play.paused.set(paused);
        self.play.replaying.set(false);
        engine.session_mut().resume(mode);
        next
    }

    /// The next recorded command to replay (clock reads are taken by the code that reads
    /// them; one left over is skipped). None when the inputs are used up.
    pub(in crate::host) fn next_replayed(&self) -> Option<Command> {
        loop {
            let input = self.runtime.engine().session_mut().queue.pop_front()?;
            if let Some(command) = self.command_of(input) {
                return Some(command);
            }
        }
    }
}
