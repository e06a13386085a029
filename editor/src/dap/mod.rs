//! `nefia dap`: the Debug Adapter Protocol, for VS Code, Neovim (nvim-dap), Helix and every
//! other editor that speaks it.
//!
//! The adapter is one more frontend of the runtime thread, like the editor and the player
//! window: it starts a game ([`HostHandle::spawn`]) for a launch, or attaches to one in another
//! process ([`HostHandle::attach`]), and translates requests into the same [`Command`]s —
//! breakpoints and steps into [`DebugCommand`]s, variables and evaluation into
//! [`DebugQuery`]s — and the snapshots and events it gets back into DAP responses and events.
//! So everything it shows is what the editor's panes show, and an attached code editor and the
//! Nefia editor can debug one game together.
//!
//! One thread reads messages ([`wire`]) and the runtime's repaint signal wakes the same loop
//! ([`Wake`]); requests are answered in order. Every malformed or unexpected message gets an
//! error response (or, when it has no request to answer, an error on the console) naming the
//! problem, and the session goes on.

use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender};
use std::time::Duration;

use nefia_runtime::Uid;
use nefia_runtime::game::world::WatchId;
use nefia_runtime::host::view::{RuntimeState, Snapshot};
use nefia_runtime::host::{
    Command, DebugAnswer, DebugCommand, DebugQuery, HostConfig, HostEvent, HostHandle, Key, PlayCommand, ReplCommand,
    ReverseKind, Scope, VariablePath,
};
use nefia_runtime::lua::Output;
use nefia_runtime::lua::debugger::{BreakCause, LineBreakpoint, StepKind};
use nefia_runtime::lua::repl::{Evaluation, PauseView};
use serde::Deserialize;
use serde_json::{Value as Json, json};

pub mod wire;

/// How long a request waits for the runtime's answer before saying it is busy.
const ANSWER_PATIENCE: Duration = Duration::from_secs(10);

/// The requests the adapter answers.
const REQUESTS: [&str; 26] = [
    "initialize",
    "launch",
    "attach",
    "setBreakpoints",
    "setExceptionBreakpoints",
    "configurationDone",
    "threads",
    "disconnect",
    "terminate",
    "continue",
    "next",
    "stepIn",
    "stepOut",
    "pause",
    "stackTrace",
    "scopes",
    "variables",
    "setVariable",
    "evaluate",
    "completions",
    "loadedSources",
    "source",
    "dataBreakpointInfo",
    "setDataBreakpoints",
    "stepBack",
    "reverseContinue",
];

/// The one thread the adapter shows: the game's.
const THREAD: i64 = 1;

/// What wakes the adapter's loop.
pub enum Wake {
    /// A message from the client (or why one could not be read).
    Client(wire::Read),
    /// The runtime has something new.
    Host,
}

/// A request that failed, with the message its error response carries.
struct Refusal(String);

impl<E: std::fmt::Display> From<E> for Refusal {
    fn from(error: E) -> Refusal {
        Refusal(error.to_string())
    }
}

type Reply = Result<Json, Refusal>;

/// Where the session is in the protocol's order.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Phase {
    /// Before `initialize`.
    New,
    /// Initialized, no game yet.
    Initialized,
    /// A game is launched or attached.
    Running,
    /// The game ended (or the client terminated it).
    Ended,
}

/// What to start when configuration is done.
enum Program {
    /// Run a script.
    Script(PathBuf),
    /// Replay a recording's inputs.
    Recording(PathBuf),
    /// Nothing: attached to a running game.
    Attached,
}

/// A debug session.
pub struct Session<W: Write> {
    out: W,
    seq: i64,
    phase: Phase,
    host: Option<HostHandle>,
    wake: Sender<Wake>,
    program: Option<Program>,
    /// The id of the program's evaluation, while it runs.
    program_id: Option<u64>,
    /// A launched recording is replayed to this turn mark; reaching it ends the program.
    replaying_to: Option<usize>,
    configured: bool,
    /// Breakpoints by file as the client last set them (sent again to a game launched later),
    /// each with the id it was given.
    breakpoints: BTreeMap<PathBuf, Vec<(i64, LineBreakpoint)>>,
    next_breakpoint: i64,
    /// Pause where errors are raised: those that reach the engine (`uncaught`), those mods
    /// catch (`caught`).
    error_breaks: (bool, bool),
    /// The last error paused for where it was raised (the error screen that follows it is not
    /// a second stop).
    last_exception: Option<String>,
    /// Variable references handed out since the last stop: reference `n` is `references[n-1]`,
    /// with the map object it is, if it is one (its fields take data breakpoints).
    references: Vec<(VariablePath, Option<Uid>)>,
    /// The data breakpoints set: the watches made for them, by data id (`uid:field`).
    data_breakpoints: Vec<(String, WatchId)>,
    /// The break last told to the client (None: running).
    stopped: Option<PauseView>,
    /// The break last continued from: the snapshot may still show it for a moment.
    continued: Option<u64>,
    /// The error screen last told to the client.
    error_shown: bool,
    /// Events read while waiting for an answer, handled after it.
    backlog: Vec<HostEvent>,
    next_id: u64,
    /// Whether the client counts lines and columns from 1 (the default).
    lines_from_1: bool,
}

/// Runs a session over `input` and `output` until the client disconnects or the input ends.
pub fn serve(input: impl BufRead + Send + 'static, output: impl Write) {
    let (wake, woken) = std::sync::mpsc::channel();
    let reader = wake.clone();
    std::thread::Builder::new()
        .name("dap reader".into())
        .spawn(move || {
            let mut input = input;
            loop {
                let read = wire::read(&mut input);
                let end = matches!(read, wire::Read::End);
                if reader.send(Wake::Client(read)).is_err() || end {
                    return;
                }
            }
        })
        .expect("the reader thread starts");
    Session::new(output, wake).run(&woken);
}

impl<W: Write> Session<W> {
    fn new(out: W, wake: Sender<Wake>) -> Session<W> {
        Session {
            out,
            seq: 0,
            phase: Phase::New,
            host: None,
            wake,
            program: None,
            program_id: None,
            replaying_to: None,
            configured: false,
            breakpoints: BTreeMap::new(),
            next_breakpoint: 0,
            error_breaks: (true, false),
            last_exception: None,
            references: Vec::new(),
            data_breakpoints: Vec::new(),
            stopped: None,
            continued: None,
            error_shown: false,
            backlog: Vec::new(),
            next_id: 1,
            lines_from_1: true,
        }
    }

    fn run(mut self, woken: &Receiver<Wake>) {
        while let Ok(wake) = woken.recv() {
            match wake {
                Wake::Client(wire::Read::End) => break,
                Wake::Client(wire::Read::Malformed(problem)) => self.malformed(&problem.to_string()),
                Wake::Client(wire::Read::Message(message)) => {
                    if !self.message(message) {
                        break;
                    }
                }
                Wake::Host => {}
            }
            self.follow_host();
        }
        if let Some(host) = self.host.take() {
            host.send(Command::Shutdown);
        }
    }

    /// Sends a message with the next sequence number.
    fn send(&mut self, mut message: Json) {
        self.seq += 1;
        message["seq"] = json!(self.seq);
        // A client that went away cannot be told anything more.
        let _ = wire::write(&mut self.out, &message);
    }

    fn event(&mut self, event: &str, body: Json) {
        self.send(json!({ "type": "event", "event": event, "body": body }));
    }

    fn output(&mut self, category: &str, text: &str) {
        let mut text = text.to_owned();
        if !text.ends_with('\n') {
            text.push('\n');
        }
        self.event("output", json!({ "category": category, "output": text }));
    }

    /// A message that could not be read: there is no request to answer, so the error is a
    /// response to request 0 and a line on the console.
    fn malformed(&mut self, problem: &str) {
        self.send(json!({
            "type": "response", "request_seq": 0, "success": false, "command": "",
            "message": format!("nefia dap: {problem}"),
        }));
        self.output("stderr", &format!("nefia dap: {problem}"));
    }

    /// Handles one message; false when the session ends.
    fn message(&mut self, message: Json) -> bool {
        let seq = message.get("seq").and_then(Json::as_i64).unwrap_or(0);
        let command = message.get("command").and_then(Json::as_str).unwrap_or("").to_owned();
        if message.get("type").and_then(Json::as_str) != Some("request") {
            let problem = "a message that is not a request: a client sends {\"type\": \"request\", \"command\": ...}";
            self.respond(seq, &command, Err(Refusal(problem.into())));
            return true;
        }
        if command.is_empty() {
            self.respond(seq, &command, Err(Refusal("a request with no command".into())));
            return true;
        }
        let arguments = message.get("arguments").cloned().unwrap_or(json!({}));
        let reply = self.request(&command, arguments);
        let ends = command == "disconnect" && reply.is_ok();
        self.respond(seq, &command, reply);
        if command == "initialize" && self.phase == Phase::Initialized {
            self.event("initialized", json!({}));
        }
        !ends
    }

    fn respond(&mut self, seq: i64, command: &str, reply: Reply) {
        let message = match reply {
            Ok(body) => {
                json!({ "type": "response", "request_seq": seq, "success": true, "command": command, "body": body })
            }
            Err(Refusal(message)) => json!({
                "type": "response", "request_seq": seq, "success": false, "command": command,
                "message": message,
                "body": { "error": { "id": 1, "format": message, "showUser": true } },
            }),
        };
        self.send(message);
    }

    /// Answers one request.
    fn request(&mut self, command: &str, arguments: Json) -> Reply {
        if !REQUESTS.contains(&command) {
            return Err(Refusal(format!("`{command}` is not a request nefia dap knows")));
        }
        match (command, self.phase) {
            ("initialize", Phase::New) => self.initialize(arguments),
            ("initialize", _) => Err(Refusal("initialize was already done".into())),
            (_, Phase::New) => Err(Refusal(format!("`{command}` before `initialize`: initialize first"))),
            ("launch", Phase::Initialized) => self.launch(arguments),
            ("attach", Phase::Initialized) => self.attach(arguments),
            ("launch" | "attach", _) => Err(Refusal("a game is launched or attached already".into())),
            ("setBreakpoints", _) => self.set_breakpoints(arguments),
            ("setExceptionBreakpoints", _) => self.set_exception_breakpoints(arguments),
            ("configurationDone", _) => {
                self.configured = true;
                self.start_program();
                Ok(json!({}))
            }
            ("threads", _) => Ok(json!({ "threads": [{ "id": THREAD, "name": "game" }] })),
            ("disconnect", _) => {
                self.end(false);
                Ok(json!({}))
            }
            ("terminate", _) => {
                self.end(true);
                Ok(json!({}))
            }
            (_, Phase::Initialized) => Err(Refusal(format!("`{command}` needs a game: launch or attach first"))),
            (_, Phase::Ended) => Err(Refusal(format!("`{command}`: the game has ended"))),
            ("continue", _) => self.resume(None),
            ("next", _) => self.resume(Some(StepKind::Over)),
            ("stepIn", _) => self.resume(Some(StepKind::In)),
            ("stepOut", _) => self.resume(Some(StepKind::Out)),
            ("stepBack", _) => self.step_back(ReverseKind::Line),
            ("reverseContinue", _) => self.step_back(ReverseKind::Breakpoint),
            ("pause", _) => {
                self.host()?.send(Command::Debug(DebugCommand::Step(StepKind::In)));
                Ok(json!({}))
            }
            ("stackTrace", _) => self.stack_trace(),
            ("scopes", _) => self.scopes(arguments),
            ("variables", _) => self.variables(arguments),
            ("setVariable", _) => self.set_variable(arguments),
            ("evaluate", _) => self.evaluate(arguments),
            ("completions", _) => self.completions(arguments),
            ("loadedSources", _) => self.loaded_sources(),
            ("source", _) => self.source(arguments),
            ("dataBreakpointInfo", _) => self.data_breakpoint_info(arguments),
            ("setDataBreakpoints", _) => self.set_data_breakpoints(arguments),
            _ => Err(Refusal(format!("`{command}` is not a request nefia dap knows"))),
        }
    }

    fn host(&self) -> Result<&HostHandle, Refusal> {
        self.host.as_ref().ok_or_else(|| Refusal("no game: launch or attach first".into()))
    }

    fn initialize(&mut self, arguments: Json) -> Reply {
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Arguments {
            lines_start_at1: Option<bool>,
        }
        let arguments: Arguments = parse("initialize", arguments)?;
        self.lines_from_1 = arguments.lines_start_at1.unwrap_or(true);
        self.phase = Phase::Initialized;
        Ok(json!({
            "supportsConfigurationDoneRequest": true,
            "supportsConditionalBreakpoints": true,
            "supportsHitConditionalBreakpoints": true,
            "supportsLogPoints": true,
            "supportsEvaluateForHovers": true,
            "supportsSetVariable": true,
            "supportsCompletionsRequest": true,
            "supportsLoadedSourcesRequest": true,
            "supportsTerminateRequest": true,
            "supportsDataBreakpoints": true,
            "supportsStepBack": true,
            "exceptionBreakpointFilters": [{
                "filter": "uncaught",
                "label": "Uncaught errors",
                "description": "Stop where an error is raised that no Lua code catches: a failing handler, key or script",
                "default": true,
            }, {
                "filter": "caught",
                "label": "Caught errors",
                "description": "Stop where an error is raised that a mod catches with pcall or xpcall",
                "default": false,
            }],
        }))
    }

    /// `launch`: `{"program": "FILE.lua", "project": "DIR"}` runs a script,
    /// `{"recording": "FILE.ron", "project": "DIR"}` replays a recording's inputs.
    fn launch(&mut self, arguments: Json) -> Reply {
        #[derive(Deserialize)]
        struct Arguments {
            program: Option<PathBuf>,
            recording: Option<PathBuf>,
            project: Option<PathBuf>,
        }
        let arguments: Arguments = parse("launch", arguments)?;
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
        let recordings = matches!(program, Program::Recording(_)).then(|| project.join("recordings"));
        let config = HostConfig { project, repaint: self.repaint(), recordings, journal: None };
        let host = HostHandle::spawn(config);
        self.started(host, program);
        Ok(json!({}))
    }

    /// `attach`: `{"address": "HOST:PORT", "token": "..."}`, a game served by `nefia play
    /// --listen`.
    fn attach(&mut self, arguments: Json) -> Reply {
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
            self.send_breakpoints(&path, breakpoints.into_iter().map(|(_, b)| b).collect());
        }
        self.start_program();
    }

    /// Starts the program once the game is there and configuration is done.
    fn start_program(&mut self) {
        if !self.configured || self.host.is_none() {
            return;
        }
        let Some(program) = self.program.take() else { return };
        let (id, synced) = (self.id(), self.id());
        let Some(host) = self.host.as_ref() else { return };
        match program {
            Program::Script(path) => {
                // A fresh game, as `nefia run` gives a script.
                host.send(Command::Play(PlayCommand::Start(nefia_runtime::host::play::PlayFrom::Start)));
                host.send(Command::Repl(ReplCommand::RunFile { id, path }));
                self.program_id = Some(id);
            }
            Program::Recording(path) => {
                // Opened at its start, then played to its last turn; the breakpoints stop on
                // the way. The evaluation after it says the replay ended.
                host.send(Command::Play(PlayCommand::OpenRecording(path)));
                host.send(Command::Sync { id: synced });
                let opened =
                    self.wait(|event| matches!(event, HostEvent::Synced { id } if *id == synced).then_some(()));
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
                let _ = id;
            }
            Program::Attached => {}
        }
    }

    fn id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    fn set_breakpoints(&mut self, arguments: Json) -> Reply {
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Source {
            path: Option<PathBuf>,
        }
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Breakpoint {
            line: u32,
            condition: Option<String>,
            hit_condition: Option<String>,
            log_message: Option<String>,
        }
        #[derive(Deserialize)]
        struct Arguments {
            source: Source,
            breakpoints: Option<Vec<Breakpoint>>,
        }
        let arguments: Arguments = parse("setBreakpoints", arguments)?;
        let path = arguments.source.path.ok_or_else(|| Refusal("setBreakpoints: the source has no path".into()))?;
        let path = std::path::absolute(&path).unwrap_or(path);
        let offset = u32::from(!self.lines_from_1);
        let list: Vec<LineBreakpoint> = arguments
            .breakpoints
            .unwrap_or_default()
            .into_iter()
            .map(|b| LineBreakpoint {
                line: b.line + offset,
                condition: b.condition,
                hit_condition: b.hit_condition,
                log_message: b.log_message,
            })
            .collect();
        let ids: Vec<i64> = list
            .iter()
            .map(|_| {
                self.next_breakpoint += 1;
                self.next_breakpoint
            })
            .collect();
        self.breakpoints.insert(path.clone(), ids.iter().copied().zip(list.iter().cloned()).collect());
        let answer = if self.host.is_some() { self.send_breakpoints(&path, list.clone()) } else { None };
        let exists = path.is_file();
        let message = match (exists, answer.as_ref().map(|(loaded, _)| *loaded)) {
            (false, _) => Some(format!("{} is not a file", path.display())),
            (true, Some(false)) | (true, None) => Some("not loaded yet: binds when the file loads".to_owned()),
            (true, Some(true)) => None,
        };
        // The game moves a breakpoint off a line that never runs by itself.
        let list: Vec<LineBreakpoint> = match answer {
            Some((_, lines)) if lines.len() == list.len() => {
                list.into_iter().zip(lines).map(|(b, line)| LineBreakpoint { line, ..b }).collect()
            }
            _ => list,
        };
        if let Some(kept) = self.breakpoints.get_mut(&path) {
            for ((_, kept), now) in kept.iter_mut().zip(&list) {
                kept.line = now.line;
            }
        }
        let breakpoints: Vec<Json> = list
            .iter()
            .zip(&ids)
            .map(|(b, id)| {
                let mut entry = json!({ "id": id, "verified": exists, "line": b.line - offset });
                if let Some(message) = &message {
                    entry["message"] = json!(message);
                }
                entry
            })
            .collect();
        Ok(json!({ "breakpoints": breakpoints }))
    }

    /// Sends a file's breakpoints to the game; whether the file is loaded there (None if the
    /// game did not answer).
    fn send_breakpoints(&mut self, path: &Path, breakpoints: Vec<LineBreakpoint>) -> Option<(bool, Vec<u32>)> {
        match self.ask(DebugQuery::SetBreakpoints { path: path.to_owned(), breakpoints }) {
            Ok(DebugAnswer::Breakpoints { loaded, lines }) => Some((loaded, lines)),
            _ => None,
        }
    }

    fn set_exception_breakpoints(&mut self, arguments: Json) -> Reply {
        #[derive(Deserialize)]
        struct Arguments {
            filters: Vec<String>,
        }
        let arguments: Arguments = parse("setExceptionBreakpoints", arguments)?;
        if let Some(unknown) = arguments.filters.iter().find(|f| !matches!(f.as_str(), "uncaught" | "caught")) {
            return Err(Refusal(format!("no exception filter `{unknown}`: the filters are `uncaught` and `caught`")));
        }
        let on = |name: &str| arguments.filters.iter().any(|f| f == name);
        self.error_breaks = (on("uncaught"), on("caught"));
        self.send_error_breaks();
        Ok(json!({}))
    }

    fn send_error_breaks(&self) {
        let (uncaught, caught) = self.error_breaks;
        if let Some(host) = &self.host {
            host.send(Command::Debug(DebugCommand::BreakOnErrors { uncaught, caught }));
        }
    }

    /// `continue` (no step) or a step from the break.
    fn resume(&mut self, step: Option<StepKind>) -> Reply {
        let snapshot = self.host()?.snapshot();
        if snapshot.debug.error.is_some() && snapshot.debug.pause.is_none() {
            // The error screen: the failed step is left, the game goes on.
            self.host()?.send(Command::Debug(DebugCommand::Resume));
        } else {
            if snapshot.debug.pause.is_none() {
                return Err(Refusal("the game is not paused".into()));
            }
            let command = match step {
                Some(kind) => DebugCommand::Step(kind),
                None => DebugCommand::Continue,
            };
            self.host()?.send(Command::Debug(command));
        }
        self.continued = self.stopped.take().map(|pause| pause.id);
        self.references.clear();
        Ok(json!({ "allThreadsContinued": true }))
    }

    /// `stepBack` and `reverseContinue`: the game replays the break's command to an earlier
    /// line; the refusal, if any, comes back as an event.
    fn step_back(&mut self, kind: ReverseKind) -> Reply {
        if self.stopped.is_none() {
            return Err(Refusal("the game is not paused".into()));
        }
        self.host()?.send(Command::Debug(DebugCommand::StepBack(kind)));
        let id = self.id();
        self.host()?.send(Command::Sync { id });
        let refused = self.wait(|event| match event {
            HostEvent::Refused(refused) => Some(Some(refused.message.clone())),
            HostEvent::Synced { id: got } if *got == id => Some(None),
            _ => None,
        })?;
        if let Some(message) = refused {
            return Err(Refusal(message));
        }
        self.continued = self.stopped.take().map(|pause| pause.id);
        self.references.clear();
        Ok(json!({}))
    }

    fn stack_trace(&mut self) -> Reply {
        let snapshot = self.host()?.snapshot();
        let line = |line: u32| if self.lines_from_1 { line } else { line.saturating_sub(1) };
        if let Some(pause) = &snapshot.debug.pause {
            let frames: Vec<Json> = pause
                .frames
                .iter()
                .enumerate()
                .map(|(index, frame)| {
                    let mut entry = json!({
                        "id": index + 1, "name": frame.function, "line": line(frame.line), "column": 0,
                    });
                    if let Some(path) = &frame.path {
                        entry["source"] =
                            json!({ "name": frame.file, "path": std::path::absolute(path).unwrap_or(path.clone()) });
                    } else {
                        entry["source"] = json!({ "name": frame.file, "presentationHint": "deemphasize" });
                    }
                    entry
                })
                .collect();
            let total = frames.len();
            return Ok(json!({ "stackFrames": frames, "totalFrames": total }));
        }
        if let Some(error) = &snapshot.debug.error {
            return Ok(
                json!({ "stackFrames": [{ "id": 1, "name": error.context, "line": 0, "column": 0 }], "totalFrames": 1 }),
            );
        }
        Err(Refusal("the game is not paused".into()))
    }

    /// A frame id (from 1) as a frame index.
    fn frame(arguments: &Json, request: &str) -> Result<usize, Refusal> {
        let id = arguments
            .get("frameId")
            .and_then(Json::as_u64)
            .ok_or_else(|| Refusal(format!("{request}: `frameId` must be the id of a frame from stackTrace")))?;
        usize::try_from(id)
            .ok()
            .and_then(|id| id.checked_sub(1))
            .ok_or_else(|| Refusal(format!("{request}: there is no frame {id}")))
    }

    fn scopes(&mut self, arguments: Json) -> Reply {
        let frame = Self::frame(&arguments, "scopes")?;
        let known = self.stopped.as_ref().is_some_and(|p| frame < p.frames.len());
        if !known {
            return Err(Refusal(format!("scopes: there is no frame {} now", frame + 1)));
        }
        let scopes: Vec<Json> = [(Scope::Locals, "Locals", "locals"), (Scope::Upvalues, "Upvalues", "registers"), (Scope::Globals, "Mod globals", "globals")]
            .into_iter()
            .map(|(scope, name, hint)| {
                let reference = self.reference(VariablePath { frame, scope, keys: Vec::new() }, None);
                json!({ "name": name, "presentationHint": hint, "variablesReference": reference, "expensive": scope == Scope::Globals })
            })
            .collect();
        Ok(json!({ "scopes": scopes }))
    }

    fn reference(&mut self, path: VariablePath, uid: Option<Uid>) -> usize {
        self.references.push((path, uid));
        self.references.len()
    }

    fn path(&self, arguments: &Json, request: &str) -> Result<VariablePath, Refusal> {
        self.referenced(arguments, request).map(|(path, _)| path)
    }

    /// The variable a request's `variablesReference` names, with its object if it is one.
    fn referenced(&self, arguments: &Json, request: &str) -> Result<(VariablePath, Option<Uid>), Refusal> {
        let reference = arguments.get("variablesReference").and_then(Json::as_u64).ok_or_else(|| {
            Refusal(format!("{request}: `variablesReference` must be a number from scopes or variables"))
        })?;
        usize::try_from(reference)
            .ok()
            .and_then(|r| r.checked_sub(1))
            .and_then(|index| self.references.get(index))
            .cloned()
            .ok_or_else(|| Refusal(format!("{request}: there is no variable {reference} now (the game went on since)")))
    }

    fn variables(&mut self, arguments: Json) -> Reply {
        let path = self.path(&arguments, "variables")?;
        let number =
            |name: &str| arguments.get(name).and_then(Json::as_u64).and_then(|n| usize::try_from(n).ok()).unwrap_or(0);
        let (start, count) = (number("start"), number("count"));
        let answer = self.ask(DebugQuery::Variables { path: path.clone(), start, count })?;
        let DebugAnswer::Variables { variables, .. } = answer else { return Err(refusal(answer)) };
        let list: Vec<Json> = variables
            .into_iter()
            .map(|variable| {
                let reference = if variable.children > 0 {
                    let mut child = path.clone();
                    child.keys.push(variable.key.clone());
                    self.reference(child, variable.uid)
                } else {
                    0
                };
                let mut entry = json!({
                    "name": key_name(&variable.key), "value": variable.value, "type": variable.kind,
                    "variablesReference": reference,
                });
                if variable.kind == "table" {
                    entry["indexedVariables"] = json!(variable.children);
                }
                entry
            })
            .collect();
        Ok(json!({ "variables": list }))
    }

    fn set_variable(&mut self, arguments: Json) -> Reply {
        let path = self.path(&arguments, "setVariable")?;
        #[derive(Deserialize)]
        struct Arguments {
            name: String,
            value: String,
        }
        let Arguments { name, value } = parse("setVariable", arguments)?;
        // Table items are shown as `[n]`.
        let index = name.strip_prefix('[').and_then(|n| n.strip_suffix(']')).and_then(|n| n.parse::<i64>().ok());
        let key = match index {
            Some(index) => Key::Index(index),
            None => Key::Name(name),
        };
        match self.ask(DebugQuery::SetVariable { path, key, value })? {
            DebugAnswer::Variable(variable) => Ok(json!({ "value": variable.value, "type": variable.kind })),
            other => Err(refusal(other)),
        }
    }

    fn evaluate(&mut self, arguments: Json) -> Reply {
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Arguments {
            expression: String,
            frame_id: Option<u64>,
        }
        let arguments: Arguments = parse("evaluate", arguments)?;
        let evaluation = if self.stopped.is_some() {
            let frame = arguments
                .frame_id
                .and_then(|id| usize::try_from(id).ok())
                .and_then(|id| id.checked_sub(1))
                .unwrap_or(0);
            match self.ask(DebugQuery::Evaluate { frame, code: arguments.expression })? {
                DebugAnswer::Evaluated(evaluation) => evaluation,
                other => return Err(refusal(other)),
            }
        } else {
            let id = self.id();
            self.host()?.send(Command::Repl(ReplCommand::Eval { id, code: arguments.expression }));
            self.wait(|event| match event {
                HostEvent::Evaluated { id: got, result } if *got == id => Some(result.clone()),
                _ => None,
            })?
        };
        match evaluation {
            Evaluation::Values(values) => Ok(json!({ "result": values.join("\t"), "variablesReference": 0 })),
            Evaluation::Error(failure) => Err(Refusal(failure.message)),
            Evaluation::Incomplete => Err(Refusal("the expression is not complete".into())),
            Evaluation::Continued => {
                self.stopped = None;
                Ok(json!({ "result": "continued", "variablesReference": 0 }))
            }
        }
    }

    fn completions(&mut self, arguments: Json) -> Reply {
        #[derive(Deserialize)]
        struct Arguments {
            text: String,
            column: usize,
        }
        let arguments: Arguments = parse("completions", arguments)?;
        let from = usize::from(self.lines_from_1);
        let cut = arguments.column.saturating_sub(from).min(arguments.text.chars().count());
        let text: String = arguments.text.chars().take(cut).collect();
        let id = self.id();
        self.host()?.send(Command::Repl(ReplCommand::Complete { id, text: text.clone() }));
        let candidates = self.wait(|event| match event {
            HostEvent::Completions { id: got, candidates } if *got == id => Some(candidates.clone()),
            _ => None,
        })?;
        let targets: Vec<Json> = candidates
            .iter()
            .map(|candidate| json!({ "label": candidate, "text": candidate, "start": from, "length": text.encode_utf16().count() }))
            .collect();
        Ok(json!({ "targets": targets }))
    }

    fn loaded_sources(&mut self) -> Reply {
        match self.ask(DebugQuery::Sources)? {
            DebugAnswer::Sources(sources) => {
                let list: Vec<Json> = sources.iter().map(|s| json!({ "name": s.name, "path": s.path })).collect();
                Ok(json!({ "sources": list }))
            }
            other => Err(refusal(other)),
        }
    }

    /// `dataBreakpointInfo`: a map object's field can be watched (as `Debug.watch` does).
    fn data_breakpoint_info(&mut self, arguments: Json) -> Reply {
        let name = arguments.get("name").and_then(Json::as_str).unwrap_or_default().to_owned();
        let target = match self.referenced(&arguments, "dataBreakpointInfo") {
            Ok((_, Some(uid))) => Some(uid),
            _ => None,
        };
        Ok(match target {
            Some(uid) => json!({
                "dataId": format!("{uid}:{name}"),
                "description": format!("when {name} of object {uid} changes"),
                "accessTypes": ["write"],
                "canPersist": false,
            }),
            None => json!({ "dataId": null, "description": "only a map object's fields can be watched" }),
        })
    }

    /// `setDataBreakpoints`: replaces the watches made for data breakpoints.
    fn set_data_breakpoints(&mut self, arguments: Json) -> Reply {
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Breakpoint {
            data_id: String,
        }
        #[derive(Deserialize)]
        struct Arguments {
            breakpoints: Vec<Breakpoint>,
        }
        let arguments: Arguments = parse("setDataBreakpoints", arguments)?;
        let mut targets = Vec::new();
        for breakpoint in &arguments.breakpoints {
            let parsed = breakpoint
                .data_id
                .split_once(':')
                .and_then(|(uid, field)| Some((uid.parse::<u64>().ok()?, field.to_owned())));
            let Some((uid, field)) = parsed else {
                return Err(Refusal(format!(
                    "setDataBreakpoints: `{}` is not a data id from dataBreakpointInfo",
                    breakpoint.data_id
                )));
            };
            targets.push((breakpoint.data_id.clone(), Uid(uid), field));
        }
        for (_, id) in std::mem::take(&mut self.data_breakpoints) {
            self.host()?.send(Command::Debug(DebugCommand::Unwatch(id)));
        }
        for (_, uid, field) in &targets {
            self.host()?.send(Command::Debug(DebugCommand::Watch { uid: *uid, field: field.clone(), becomes: None }));
        }
        let id = self.id();
        self.host()?.send(Command::Sync { id });
        self.wait(|event| matches!(event, HostEvent::Synced { id: got } if *got == id).then_some(()))?;
        let watches = self.host()?.snapshot().debug.watches.clone();
        let mut verified = Vec::new();
        for (data_id, uid, field) in targets {
            let watch = watches.iter().rev().find(|w| w.uid == uid && w.field == field);
            if let Some(watch) = watch {
                self.data_breakpoints.push((data_id, watch.id));
            }
            verified.push(json!({ "verified": watch.is_some() }));
        }
        Ok(json!({ "breakpoints": verified }))
    }

    /// `source`: the text of a file by its path (code editors ask for the sources they do not
    /// have open, such as loaded files listed by loadedSources).
    fn source(&mut self, arguments: Json) -> Reply {
        let path = arguments
            .pointer("/source/path")
            .and_then(Json::as_str)
            .ok_or_else(|| Refusal("source: give the source's path".into()))?;
        let size =
            std::fs::metadata(path).map_err(|error| Refusal(format!("source: cannot read {path}: {error}")))?.len();
        if size > wire::MAX_MESSAGE as u64 {
            return Err(Refusal(format!("source: {path} is {size} bytes, more than a source is")));
        }
        let text =
            std::fs::read_to_string(path).map_err(|error| Refusal(format!("source: cannot read {path}: {error}")))?;
        Ok(json!({ "content": text }))
    }

    /// Ends the session's game: a launched one stops; an attached one is left running
    /// (`terminate` asks it to stop its play).
    fn end(&mut self, terminate: bool) {
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

    /// Asks the game a [`DebugQuery`] and waits for the answer.
    fn ask(&mut self, query: DebugQuery) -> Result<DebugAnswer, Refusal> {
        let id = self.id();
        self.host()?.send(Command::Debug(DebugCommand::Query { id, query }));
        self.wait(|event| match event {
            HostEvent::DebugAnswer { id: got, answer } if *got == id => Some(answer.clone()),
            _ => None,
        })
    }

    /// Waits for the event `pick` takes; the others are kept for [`Session::follow_host`].
    fn wait<T>(&mut self, mut pick: impl FnMut(&HostEvent) -> Option<T>) -> Result<T, Refusal> {
        let deadline = std::time::Instant::now() + ANSWER_PATIENCE;
        loop {
            let host = self.host()?;
            let left = deadline.saturating_duration_since(std::time::Instant::now());
            let Some(event) = host.next_event(left) else {
                return Err(Refusal(if host.ended() {
                    "the game has ended".into()
                } else {
                    "the game is busy running Lua and did not answer: pause it first".into()
                }));
            };
            match pick(&event) {
                Some(found) => return Ok(found),
                None => self.backlog.push(event),
            }
        }
    }

    /// Tells the client what happened in the game: output, the program's end, breaks and
    /// the error screen.
    fn follow_host(&mut self) {
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

    fn host_event(&mut self, event: HostEvent) {
        match event {
            HostEvent::Output(Output::Print(text)) => self.output("stdout", &text),
            HostEvent::Output(Output::Message(text)) => self.output("console", &text),
            HostEvent::Output(Output::Log(line)) => {
                let category =
                    if line.level >= nefia_runtime::game::display::LogLevel::Warn { "stderr" } else { "console" };
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

    /// A hotload moved breakpoints with their lines: the client is told each one's new line.
    fn breakpoints_moved(&mut self, reload: &nefia_runtime::host::mods::hotload::Reload) {
        let path = std::path::absolute(&reload.path).unwrap_or_else(|_| reload.path.clone());
        let key = self.breakpoints.keys().find(|p| p.canonicalize().ok() == path.canonicalize().ok()).cloned();
        let Some(list) = key.and_then(|key| self.breakpoints.get_mut(&key)) else { return };
        let offset = u32::from(!self.lines_from_1);
        let mut changed = Vec::new();
        for (id, breakpoint) in list.iter_mut() {
            if let Some(&(_, to)) = reload.breakpoints_moved.iter().find(|(from, _)| *from == breakpoint.line) {
                breakpoint.line = to;
                changed.push(json!({ "id": *id, "verified": true, "line": to - offset }));
            }
        }
        for breakpoint in changed {
            self.event("breakpoint", json!({ "reason": "changed", "breakpoint": breakpoint }));
        }
    }

    /// A new break or error screen is a `stopped` event; its end a `continued` one.
    fn follow_breaks(&mut self, snapshot: &Snapshot) {
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

/// Reads a request's arguments into their struct; the error names the request and the problem.
fn parse<T: serde::de::DeserializeOwned>(request: &str, arguments: Json) -> Result<T, Refusal> {
    serde_json::from_value(arguments).map_err(|error| Refusal(format!("{request}: bad arguments: {error}")))
}

/// `path` made absolute from the adapter's working folder, if it exists.
fn existing(path: &Path, what: &str) -> Result<PathBuf, Refusal> {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
    if absolute.exists() {
        Ok(absolute)
    } else {
        Err(Refusal(format!("the {what} {} does not exist", absolute.display())))
    }
}

/// An answer that is not the one asked for, as a refusal.
fn refusal(answer: DebugAnswer) -> Refusal {
    match answer {
        DebugAnswer::Failed(problem) => Refusal(problem),
        other => Refusal(format!("an unexpected answer: {other:?}")),
    }
}

/// A variable's key as the Variables view names it.
fn key_name(key: &Key) -> String {
    match key {
        Key::Name(name) => name.clone(),
        Key::Index(index) => format!("[{index}]"),
    }
}
