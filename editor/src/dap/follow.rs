//! Following the game: its output, the program's end, breaks and the error screen become DAP
//! events.

use super::*;

impl<W: Write> Session<W> {
    /// Tells the client what happened in the game: output, the program's end, breaks and
    /// the error screen.
    pub(super) fn follow_host(&mut self) {
        let Some(host) = self.host.as_ref() else { return };
        let mut events = std::mem::take(&mut self.backlog);
        events.extend(host.events());
        let snapshot = host.snapshot();
        let ended = host.ended();
        for event in events {
            self.host_event(event);
        }
        if self.phase != Phase::Running {
            return;
        }
        self.follow_breaks(&snapshot);
        let replayed = snapshot.play.recording.as_ref().is_some_and(|r| Some(r.at) == self.replaying_to);
        if replayed && snapshot.debug.pause.is_none() && self.phase == Phase::Running {
            self.replaying_to = None;
            self.event("exited", json!({ "exitCode": 0 }));
            self.event("terminated", json!({}));
            self.phase = Phase::Ended;
            return;
        }
        if ended || snapshot.state == RuntimeState::Failed {
            if let Some(problem) = &snapshot.problem {
                self.output("stderr", problem);
            }
            self.event("terminated", json!({}));
            self.phase = Phase::Ended;
        }
    }

    pub(super) fn host_event(&mut self, event: HostEvent) {
        match event {
            HostEvent::Output(Output::Print(text)) => self.output("stdout", &text),
            HostEvent::Output(Output::Message(text)) => self.output("console", &text),
            HostEvent::Output(Output::Log(line)) => {
                let category = if line.level >= nefia_game::display::LogLevel::Warn { "stderr" } else { "console" };
                self.output(category, &format!("[{}] {}", line.level.name(), line.text));
            }
            HostEvent::Refused(refused) => self.output("stderr", &refused.message),
            HostEvent::Panicked(report) => self.output("stderr", &format!("panic: {}", report.message)),
            HostEvent::Reloaded(reload) if !reload.breakpoints_moved.is_empty() => self.breakpoints_moved(&reload),
            HostEvent::Evaluated { id, result } if Some(id) == self.program_id => {
                self.program_id = None;
                let code = match result {
                    Evaluation::Error(failure) => {
                        self.output("stderr", &failure.to_string());
                        1
                    }
                    _ => 0,
                };
                self.event("exited", json!({ "exitCode": code }));
                self.event("terminated", json!({}));
                self.phase = Phase::Ended;
            }
            _ => {}
        }
    }

    /// A new break or error screen is a `stopped` event; its end a `continued` one.
    pub(super) fn follow_breaks(&mut self, snapshot: &Snapshot) {
        match &snapshot.debug.pause {
            // Still the break the client continued: the game has not taken the command yet.
            Some(pause) if self.continued == Some(pause.id) => {}
            Some(pause) => {
                let is_new = self.stopped.as_ref().is_none_or(|s| s.id != pause.id);
                self.stopped = Some(pause.clone());
                if is_new {
                    self.references.clear();
                    let reason = match pause.cause {
                        BreakCause::Breakpoint => "breakpoint",
                        BreakCause::Step => "step",
                        BreakCause::Watch => "data breakpoint",
                        BreakCause::Pause => "pause",
                        BreakCause::Exception => "exception",
                    };
                    if pause.cause == BreakCause::Exception {
                        self.last_exception = pause.reason.clone();
                    }
                    let mut body = json!({ "reason": reason, "threadId": THREAD, "allThreadsStopped": true });
                    if let Some(text) = &pause.reason {
                        body["text"] = json!(text);
                        body["description"] = json!(text);
                    }
                    self.event("stopped", body);
                }
            }
            None => {
                self.continued = None;
                if self.stopped.take().is_some() {
                    // Continued by another frontend (the editor attached to the same game).
                    self.references.clear();
                    self.event("continued", json!({ "threadId": THREAD, "allThreadsContinued": true }));
                }
            }
        }
        match (&snapshot.debug.error, self.error_shown) {
            (Some(error), false) => {
                self.error_shown = true;
                self.output("stderr", &error.to_string());
                let seen = self.last_exception.take().is_some_and(|reason| reason.ends_with(&error.failure.message));
                if self.error_breaks.0 && !seen {
                    self.event(
                        "stopped",
                        json!({
                            "reason": "exception", "threadId": THREAD, "allThreadsStopped": true,
                            "text": error.failure.message, "description": error.to_string(),
                        }),
                    );
                }
            }
            (None, true) => self.error_shown = false,
            _ => {}
        }
    }
}
