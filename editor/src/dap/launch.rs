//! Launching the session's game or attaching to one, starting its program once the game and
//! the configuration are both there, and ending it.

use super::*;

impl<W: Write> Session<W> {
    /// `launch`: `{"program": "FILE.lua", "project": "DIR"}` runs a script,
    /// `{"recording": "FILE.ron", "project": "DIR"}` replays a recording's inputs; with
    /// `"probes": false`, files with breakpoints are followed by the call hook instead of
    /// probes (slower; to compare). The game starts at `configurationDone`, with the
    /// breakpoints set by then.
    pub(super) fn launch(&mut self, arguments: Json) -> Reply {
        #[derive(Deserialize)]
        struct Arguments {
            program: Option<PathBuf>,
            recording: Option<PathBuf>,
            project: Option<PathBuf>,
            probes: Option<bool>,
        }
        let arguments: Arguments = parse("launch", arguments)?;
        self.probes = arguments.probes.unwrap_or(true);
        let program = match (arguments.program, arguments.recording) {
            (Some(program), None) => Program::Script(existing(&program, "program")?),
            (None, Some(recording)) => Program::Recording(existing(&recording, "recording")?),
            _ => {
                return Err(Refusal(
                    "launch takes a \"program\" (a Lua file to run) or a \"recording\" (a .ron to replay), one of them"
                        .into(),
                ));
            }
        };
        let project = match arguments.project {
            Some(project) => existing(&project, "project")?,
            None => crate::default_project::find_here().map_err(|not_found| {
                Refusal(format!("{not_found}; or give \"project\" (a folder with project.ron)"))
            })?,
        };
        // A recording is opened as the editor's timeline opens one: it needs the recorder (its
        // replay writes nothing: a recording only looked through is not written again).
        // A script's session is recorded aside, for stepping back.
        let recordings = match program {
            Program::Recording(_) => Some(project.join("recordings")),
            Program::Script(_) => {
                let scratch = tempfile::tempdir()
                    .map_err(|error| Refusal(format!("no scratch folder for the script's session: {error}")))?;
                let folder = scratch.path().to_owned();
                self.scratch = Some(scratch);
                Some(folder)
            }
            Program::Attached => None,
        };
        let config = HostConfig {
            project,
            repaint: self.repaint(),
            recordings,
            journal: None,
            breakpoints: Vec::new(),
            saves: None,
            reports: None,
        };
        if self.configured {
            self.spawn(config, program);
        } else {
            self.launching = Some((config, program));
        }
        Ok(json!({}))
    }

    /// Starts the launched game with the breakpoints set so far.
    pub(super) fn spawn(&mut self, mut config: HostConfig, program: Program) {
        if self.probes {
            config.breakpoints = self
                .breakpoints
                .iter()
                .map(|(path, list)| (path.clone(), list.iter().map(|(_, b)| b.clone()).collect()))
                .collect();
        }
        let host = HostHandle::spawn(config);
        if !self.probes {
            host.send(Command::Debug(DebugCommand::Probes(false)));
        }
        self.started(host, program);
    }

    /// `attach`: `{"address": "HOST:PORT", "token": "..."}`, a game served by `nefia play
    /// --listen`.
    pub(super) fn attach(&mut self, arguments: Json) -> Reply {
        #[derive(Deserialize)]
        struct Arguments {
            address: String,
            token: String,
        }
        let arguments: Arguments = parse("attach", arguments)?;
        let host = HostHandle::attach(&arguments.address, &arguments.token, self.repaint())?;
        self.started(host, Program::Attached);
        Ok(json!({}))
    }

    /// What the game calls when it has something new: wakes the session's loop.
    fn repaint(&self) -> Arc<dyn Fn() + Send + Sync> {
        let wake = self.wake.clone();
        Arc::new(move || {
            let _ = wake.send(Wake::Host);
        })
    }

    /// A game is there: the breakpoints set so far go to it.
    fn started(&mut self, host: HostHandle, program: Program) {
        self.host = Some(host);
        self.program = Some(program);
        self.phase = Phase::Running;
        self.send_error_breaks();
        for (path, breakpoints) in self.breakpoints.clone() {
            let answer = self.send_breakpoints(&path, breakpoints.iter().map(|(_, b)| b.clone()).collect());
            if let Some((_, lines)) = answer {
                self.breakpoints_bound(&path, &lines);
            }
        }
        self.start_program();
    }

    /// Starts the program once the game is there and configuration is done.
    pub(super) fn start_program(&mut self) {
        if !self.configured || self.host.is_none() {
            return;
        }
        let Some(program) = self.program.take() else { return };
        let id = self.id();
        let Some(host) = self.host.as_ref() else { return };
        match program {
            Program::Script(path) => {
                // A fresh game, as `nefia run` gives a script.
                host.send(Command::Play(PlayCommand::Start(nefia_protocol::play::PlayFrom::Start)));
                host.send(Command::Repl(ReplCommand::RunFile { id, path }));
                self.program_id = Some(id);
            }
            Program::Recording(path) => {
                // Opened at its start, then played to its last turn; the breakpoints stop on
                // the way. The evaluation after it says the replay ended.
                host.send(Command::Play(PlayCommand::OpenRecording(path)));
                host.send(Command::Sync { id });
                let opened =
                    self.wait(|event| matches!(event, HostEvent::Synced { id: synced } if *synced == id).then_some(()));
                let turns = self.host.as_ref().and_then(|h| h.snapshot().play.recording.as_ref().map(|r| r.turns));
                let turns = turns.unwrap_or(0);
                if opened.is_err() || turns == 0 {
                    self.output("stderr", "nefia dap: the recording did not open (see the messages above)");
                }
                let Some(host) = self.host.as_ref() else { return };
                let last = turns.saturating_sub(1);
                host.send(Command::Play(PlayCommand::GoToTurn(last)));
                // Its end shows in the snapshot: at the last turn, nothing paused.
                self.replaying_to = Some(last);
            }
            Program::Attached => {}
        }
    }

    /// Ends the session's game: a launched one stops; an attached one is left running
    /// (`terminate` asks it to stop its play).
    pub(super) fn end(&mut self, terminate: bool) {
        let Some(host) = self.host.take() else {
            self.phase = Phase::Ended;
            return;
        };
        if host.attached_to().is_some() {
            if terminate {
                host.send(Command::Play(PlayCommand::Stop));
            }
        } else {
            host.stop();
            host.send(Command::Shutdown);
        }
        drop(host);
        if self.phase == Phase::Running {
            self.event("terminated", json!({}));
        }
        self.phase = Phase::Ended;
    }
}
