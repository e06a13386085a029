//! Bug reports: when the error screen appears in a host that writes them (the player
//! window), the session recorded so far is written with the error as a recording of its own,
//! `bug-<date>-<map>.ron` in the reports folder, for the player to send. `nefia replay` of it
//! plays the session again and says whether the same error comes back at the same turn.

use std::path::PathBuf;

use super::super::PlaySession;
use crate::cx::Cx;
use nefia_game::files::FileError;
use nefia_game::recording::{self, Input, ReportedError};
use nefia_protocol::failure::GameError;

impl PlaySession {
    /// Writes the session so far with `error` as a bug report, if this session writes them
    /// and is being recorded (not an opened recording looked through); returns where it went.
    pub(crate) fn write_report(&self, cx: &Cx, error: &GameError) -> Option<Result<PathBuf, FileError>> {
        let dir = self.reports.as_ref()?;
        let recorder = self.recorder.borrow();
        let recorder = recorder.as_ref().filter(|recorder| recorder.opened.is_none())?;
        let session = cx.runtime.engine().session();
        let mut report = recorder.recording.clone();
        let turn = cx.runtime.world().turn;
        report.inputs = session.recorded.clone();
        // Ended here, as if play were stopped: a replay ends on the error's turn.
        report.inputs.push((turn, Input::Stop));
        report.saves = session.saves_read.clone();
        report.stopped_back_at = recorder.at;
        report.error = Some(ReportedError { turn, message: error.to_string() });
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
        let map = {
            let world = cx.runtime.world();
            world.current_map().and_then(|m| world.map(m).ok()).map(|m| m.name.clone()).unwrap_or_default()
        };
        let path = dir.join(format!("bug-{}", recording::file_name(&recording::utc_date(now), &map)));
        Some(report.write(&path).map(|()| path))
    }
}
