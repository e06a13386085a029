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
//!
//! A launch starts its game at `configurationDone`, with the breakpoints set by then given to
//! the host before the mods load (`HostConfig::breakpoints`), so the launch's files load with
//! the debugger's probes; breakpoints set later, or in a game attached to, are followed by the
//! call hook until their file is hotloaded. `editor/tests/vscode/dap_client.js` drives the
//! adapter with VS Code's own test client (`@vscode/debugadapter-testsupport`, which `.ci/run`
//! installs).

use std::collections::BTreeMap;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender};
use std::time::Duration;

use nefia_game::Uid;
use nefia_game::world::WatchId;
use nefia_host::{HostConfig, HostHandle};
use nefia_protocol::debugging::query::{DebugAnswer, DebugQuery, Key, Scope, VariablePath};
use nefia_protocol::debugging::{DebugCommand, ReplCommand};
use nefia_protocol::message::{Command, HostEvent};
use nefia_protocol::output::Output;
use nefia_protocol::play::{PlayCommand, ReverseKind};
use nefia_protocol::repl::LineBreakpoint;
use nefia_protocol::repl::StepKind;
use nefia_protocol::repl::{BreakCause, Evaluation, PauseView};
use nefia_protocol::view::{RuntimeState, Snapshot};
use serde::Deserialize;
use serde_json::{Value as Json, json};

mod breakpoints;
mod follow;
mod inspect;
mod launch;
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
    /// Where a launched script's session is recorded, so that it can be stepped back
    /// through (its replay runs the script again); removed with the session.
    scratch: Option<tempfile::TempDir>,
    /// A launch waiting for `configurationDone`: the game starts with the breakpoints set by
    /// then, so the files that have them load with the debugger's probes.
    launching: Option<(HostConfig, Program)>,
    /// Whether files loaded with breakpoints get probes (a launch's `"probes": false` turns
    /// them off, to compare).
    probes: bool,
}

/// Runs a session over `input` and `output` until the client disconnects or the input ends
/// (`Ok`), or until a message that cannot be read past, such as one longer than
/// [`wire::MAX_MESSAGE`] (`Err`: the problem, which the client was told).
pub fn serve(input: impl BufRead + Send + 'static, output: impl Write) -> Result<(), wire::Malformed> {
    let (wake, woken) = std::sync::mpsc::channel();
    let reader = wake.clone();
    std::thread::Builder::new()
        .name("dap reader".into())
        .spawn(move || {
            let mut input = input;
            loop {
                let read = wire::read(&mut input);
                let end = match &read {
                    wire::Read::End => true,
                    wire::Read::Malformed(problem) => problem.ends_session(),
                    wire::Read::Message(_) => false,
                };
                if reader.send(Wake::Client(read)).is_err() || end {
                    return;
                }
            }
        })
        .expect("the reader thread starts");
    Session::new(output, wake).run(&woken)
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
            scratch: None,
            launching: None,
            probes: true,
        }
    }

    fn run(mut self, woken: &Receiver<Wake>) -> Result<(), wire::Malformed> {
        let mut ended = Ok(());
        while let Ok(wake) = woken.recv() {
            match wake {
                Wake::Client(wire::Read::End) => break,
                Wake::Client(wire::Read::Malformed(problem)) if problem.ends_session() => {
                    self.malformed(&problem.to_string());
                    self.event("terminated", json!({}));
                    ended = Err(problem);
                    break;
                }
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
        ended
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
            ("launch" | "attach", Phase::Initialized) if self.launching.is_some() => {
                Err(Refusal("a game is launched already: it starts at configurationDone".into()))
            }
            ("launch", Phase::Initialized) => self.launch(arguments),
            ("attach", Phase::Initialized) => self.attach(arguments),
            ("launch" | "attach", _) => Err(Refusal("a game is launched or attached already".into())),
            ("setBreakpoints", _) => self.set_breakpoints(arguments),
            ("setExceptionBreakpoints", _) => self.set_exception_breakpoints(arguments),
            ("configurationDone", _) => {
                self.configured = true;
                if let Some((config, program)) = self.launching.take() {
                    self.spawn(config, program);
                }
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
                self.host()?.pause();
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

    fn id(&mut self) -> u64 {
        self.next_id += 1;
        self.next_id
    }

    /// The game goes on from the break: what was read at it no longer holds.
    fn left_break(&mut self) {
        self.continued = self.stopped.take().map(|pause| pause.id);
        self.references.clear();
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
        self.left_break();
        Ok(json!({ "allThreadsContinued": true }))
    }

    /// `stepBack` and `reverseContinue`: the game replays the break's command to an earlier
    /// line; the refusal, if any, comes back as an event.
    fn step_back(&mut self, kind: ReverseKind) -> Reply {
        if self.stopped.is_none() {
            return Err(Refusal("the game is not paused".into()));
        }
        self.host()?.send(Command::Play(PlayCommand::StepBackInCode(kind)));
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
        self.left_break();
        Ok(json!({}))
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
