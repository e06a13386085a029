//! Where a session is in its recording, as the play controls and the timeline show it: how
//! far back and forward one can step, and about how much memory stepping back keeps.

use super::{Input, Recorder, TurnMark};
use crate::cx::Cx;
use crate::play::PlaySession;
use nefia_protocol::play::RecordingPosition;

impl PlaySession {
    /// Where the session is in its recording.
    pub(crate) fn recording_position(&self, cx: &Cx) -> Option<RecordingPosition> {
        let recorder = self.recorder.borrow();
        let recorder = recorder.as_ref()?;
        let turns = recorder.recording.turns.len();
        let at = recorder.at.unwrap_or(turns - 1);
        let oldest = recorder.checkpoints.first().map_or(0, |c| c.mark);
        let pending = self.changed_since_mark(cx, recorder);
        let turn_of = |mark: usize| recorder.recording.turns.get(mark).map_or(0, |m| m.turn);
        Some(RecordingPosition {
            at,
            oldest,
            turn_range: (turn_of(oldest), turn_of(turns - 1)),
            opened: recorder.opened.is_some(),
            kept_bytes: self.kept_bytes(cx, recorder),
            back: at - oldest,
            changed: pending,
            forward: turns - 1 - at + usize::from(recorder.at.is_some() && self.inputs_since_mark(cx, recorder) > 0),
            turns: turns - 1,
        })
    }

    /// About how many bytes the kept states and the recorded inputs take.
    fn kept_bytes(&self, cx: &Cx, recorder: &Recorder) -> usize {
        let states: usize = recorder.checkpoints.iter().map(|c| c.world.heap_estimate()).sum();
        let session = cx.runtime.engine().session();
        let (counted, mut text) = recorder.counted_inputs.get();
        text += session
            .recorded
            .get(counted..)
            .unwrap_or_default()
            .iter()
            .map(|(_, input)| match input {
                Input::Key(s) | Input::Text(s) | Input::Eval(s) | Input::Script(s) => s.len(),
                Input::Hotload { file, text } => file.len() + text.len(),
                _ => 0,
            })
            .sum::<usize>();
        recorder.counted_inputs.set((session.recorded.len(), text));
        let inputs = session.recorded.len() * size_of::<(u64, Input)>();
        states + inputs + text + recorder.recording.turns.len() * size_of::<TurnMark>()
    }

    /// True if, at the newest input, the game changed since its turn began (stepping back
    /// goes to the start of this turn first).
    pub(super) fn changed_since_mark(&self, cx: &Cx, recorder: &Recorder) -> bool {
        recorder.at.is_none() && cx.runtime.world().revision() != recorder.mark_revision
    }

    /// Inputs recorded since the last turn mark.
    fn inputs_since_mark(&self, cx: &Cx, recorder: &Recorder) -> usize {
        let last = recorder.recording.turns.last().map_or(0, |m| m.input);
        cx.runtime.engine().session().recorded.len().saturating_sub(last)
    }
}
