//! One connection: the handshake, then each request translated to the host's [`Command`]s
//! and answered from its events and snapshots, and frame notifications while subscribed.
//!
//! Commands whose effect shows only in the snapshot are followed by a *barrier* —
//! `Command::Sync`, which does nothing — whose answer comes once the runtime thread has
//! handled (and published) everything sent before it, even while Lua waits in `pause()` or
//! `query()`, since those waits serve commands too.

use std::io::{BufWriter, Write};
use std::net::TcpStream;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{Value as Json, json};

use super::convert::{
    data_types_to_json, details_to_json, json_to_value, locations_to_json, output_text, pause_to_json,
    prototype_to_json, state_to_json, tiles_to_json, usage_to_json,
};
use super::frames::FrameDeltas;
use super::mirror::MirrorFrames;
use super::wire::{Request, RpcError, notification, params, response};
use super::{PROTOCOL_VERSION, token_matches};
use crate::client::HostClient;
use nefia_game::display::{Input, check_key};
use nefia_game::edit::Edit;
use nefia_game::moddable::ModMethod;
use nefia_game::object::Uid;
use nefia_protocol::debugging::{DebugCommand, ReplCommand};
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::message::{Command, HostEvent};
use nefia_protocol::repl::Evaluation;

mod answers;
mod methods;
pub(super) mod name;

use methods::{Hello, Method, NoParams};

/// Ids of the commands the server sends: far above those the editor counts from 1.
static NEXT_ID: AtomicU64 = AtomicU64::new(1 << 48);

fn next_id() -> u64 {
    NEXT_ID.fetch_add(1, Ordering::Relaxed)
}

/// How long a request waits between looks at whether the game still runs.
const LOOK: Duration = Duration::from_secs(1);

/// What every connection of a server shares.
pub struct ServerState {
    /// The token a client must present.
    pub token: String,
    /// Evaluations stopped in `pause()`, innermost last: their answers belong to whichever
    /// client continues them (the one that asked may have gone).
    pub paused: Mutex<Vec<u64>>,
}

/// What came of waiting for commands: the output printed meanwhile, the evaluation's answer
/// if it came, and refusals.
#[derive(Default)]
struct Settled {
    output: Vec<String>,
    evaluation: Option<(u64, Evaluation)>,
    refused: Vec<String>,
    usages: Option<Vec<nefia_protocol::editing::Usage>>,
    explained: Option<Result<nefia_game::autotile::Explanation, nefia_protocol::editing::Unexplained>>,
}

/// One connection's state.
pub struct Session {
    client: HostClient,
    server: Arc<ServerState>,
    writer: BufWriter<TcpStream>,
    greeted: bool,
    /// Frame updates, while subscribed.
    frames: Option<FrameDeltas>,
    /// Output printed outside any request, sent with the next frame.
    output: Vec<String>,
    /// The whole snapshot's deltas, while an attached editor mirrors the game.
    mirror: Option<MirrorFrames>,
}

impl Session {
    /// A session on `stream` (written to; another thread reads it) for `client`.
    pub fn new(stream: TcpStream, client: HostClient, server: Arc<ServerState>) -> Session {
        let writer = BufWriter::new(stream);
        Session { client, server, writer, greeted: false, frames: None, output: Vec::new(), mirror: None }
    }

    /// True while frame updates are wanted (the connection then looks at the snapshot often).
    pub fn subscribed(&self) -> bool {
        self.frames.is_some() || self.mirror.is_some()
    }

    /// Answers one request line. Returns false if the connection is to close.
    pub fn handle_line(&mut self, line: &[u8]) -> bool {
        let request = match Request::parse(line) {
            Ok(request) => request,
            Err((id, error)) => {
                self.send_error(id, error);
                return false;
            }
        };
        let outcome = self.call(&request);
        let close = outcome.as_ref().is_err_and(RpcError::closes);
        let written = match &request.id {
            Some(id) => self.write(&response(id, &outcome)),
            // A notification is not answered, except by closing when it must.
            None => true,
        };
        if let Ok(Json::Null) = &outcome
            && methods::FRAMES_FOLLOW.contains(&request.method.as_str())
        {
            // The first frame follows the answer.
            return written && self.idle();
        }
        written && !close
    }

    /// Sends the error of a frame that could not be read, then the connection closes.
    pub fn send_error(&mut self, id: Option<Json>, error: RpcError) {
        self.write(&response(&id.unwrap_or(Json::Null), &Err(error)));
    }

    /// Between requests: gathers the output printed meanwhile and sends a frame if one is
    /// due. Returns false if the client has gone.
    pub fn idle(&mut self) -> bool {
        // The game has ended: nothing will come again, and the client should know.
        if self.client.ended() {
            return false;
        }
        if self.mirror.is_some() {
            return self.mirror_idle();
        }
        for event in self.client.events() {
            if let HostEvent::Output(output) = event
                && self.frames.is_some()
            {
                self.output.push(output_text(output));
            }
        }
        let Some(frames) = &mut self.frames else { return true };
        let snapshot = self.client.snapshot();
        match frames.next(&snapshot, std::mem::take(&mut self.output)) {
            Some(frame) => self.write(&notification("frame", frame)),
            None => true,
        }
    }

    /// Between requests of an attached editor: every event heard, then the frame if the
    /// snapshot changed. Returns false if the client has gone.
    fn mirror_idle(&mut self) -> bool {
        for event in self.client.events() {
            let written = match serde_json::to_value(&event) {
                Ok(event) => self.write(&notification("host.event", event)),
                Err(error) => {
                    tracing::error!("an event could not be sent to the attached editor: {error}");
                    true
                }
            };
            if !written {
                return false;
            }
        }
        let snapshot = self.client.snapshot();
        let Some(mirror) = &mut self.mirror else { return true };
        match mirror.next(&snapshot) {
            Ok(Some(frame)) => self.write(&notification("host.frame", frame)),
            Ok(None) => true,
            Err(error) => {
                tracing::error!("a frame could not be sent to the attached editor: {error}");
                true
            }
        }
    }

    /// Writes one message and its newline. Returns false if the client has gone.
    fn write(&mut self, message: &Json) -> bool {
        let written = serde_json::to_writer(&mut self.writer, message)
            .map_err(std::io::Error::from)
            .and_then(|()| self.writer.write_all(b"\n"))
            .and_then(|()| self.writer.flush());
        written.is_ok()
    }

    /// Carries out a request: before the handshake only `session.hello`, then the method's
    /// own function (see [`methods::METHODS`]).
    fn call(&mut self, request: &Request) -> Result<Json, RpcError> {
        let method = Method::named(&request.method);
        if !self.greeted {
            return match method {
                Some(method) if method.name == methods::HELLO => self.hello(params(request.params.clone())?),
                _ => Err(RpcError::NotGreeted),
            };
        }
        let method = method.ok_or_else(|| RpcError::MethodNotFound(request.method.clone()))?;
        (method.answer)(self, request.params.clone())
    }

    /// The handshake: the version first (so a client learns what this game speaks), then
    /// the token.
    fn hello(&mut self, hello: Hello) -> Result<Json, RpcError> {
        if !token_matches(&self.server.token, &hello.token) {
            return Err(RpcError::WrongToken);
        }
        if hello.version != u64::from(PROTOCOL_VERSION) {
            return Err(RpcError::WrongVersion { ours: PROTOCOL_VERSION, theirs: hello.version });
        }
        self.greeted = true;
        Ok(json!({
            "protocol": PROTOCOL_VERSION,
            "engine": env!("CARGO_PKG_VERSION"),
            "project": self.client.snapshot().project,
        }))
    }

    /// Sends `commands` and a barrier, and waits until the barrier is answered: the snapshot
    /// then shows what the commands did. The output printed meanwhile, the refusals and, if
    /// `evaluation` is given, that evaluation's answer (unless it waits in `pause()`) are
    /// gathered.
    fn settle(&mut self, commands: Vec<Command>, evaluation: Option<u64>) -> Result<Settled, RpcError> {
        for command in commands {
            self.client.send(command);
        }
        let barrier = next_id();
        self.client.send(Command::Sync { id: barrier });
        let mut settled = Settled::default();
        loop {
            let Some(event) = self.client.next_event(LOOK) else {
                if self.client.snapshot().problem.is_some() || self.client.ended() {
                    return Err(RpcError::GameEnded);
                }
                continue;
            };
            match event {
                HostEvent::Output(output) => settled.output.push(output_text(output)),
                HostEvent::Refused(refused) => settled.refused.push(refused.message),
                HostEvent::Evaluated { id, result } => {
                    self.server.paused.lock().unwrap_or_else(|e| e.into_inner()).retain(|&p| p != id);
                    if Some(id) == evaluation {
                        settled.evaluation = Some((id, result));
                    }
                }
                HostEvent::Usages { usages, .. } => settled.usages = Some(usages),
                HostEvent::CellExplained(why) => settled.explained = Some(why.explained),
                HostEvent::Synced { id } if id == barrier => return Ok(settled),
                _ => {}
            }
        }
    }

    /// The answer of a `lua.eval` or `debug.continue` of evaluation `id`: its values, or the
    /// pause (or query) it waits in, which makes it a paused evaluation.
    fn outcome(&mut self, id: u64, settled: Settled) -> Result<Json, RpcError> {
        let output = settled.output;
        match settled.evaluation {
            Some((_, Evaluation::Values(values))) => Ok(json!({ "output": output, "values": values })),
            Some((_, Evaluation::Continued)) => Ok(json!({ "output": output, "values": [], "continued": true })),
            Some((_, Evaluation::Incomplete)) => Err(RpcError::Lua {
                message: "the code is not complete: an open function, do, string or bracket".into(),
                traceback: String::new(),
                output,
            }),
            Some((_, Evaluation::Error(failure))) => {
                Err(RpcError::Lua { message: failure.message, traceback: failure.traceback, output })
            }
            None => {
                let snapshot = self.client.snapshot();
                let Some(pause) = &snapshot.debug.pause else {
                    // In a UI layer's query(): game.input answers it.
                    return Ok(json!({ "output": output, "waiting": snapshot.state.label() }));
                };
                let mut paused = self.server.paused.lock().unwrap_or_else(|e| e.into_inner());
                if !paused.contains(&id) {
                    paused.push(id);
                }
                Ok(json!({ "output": output, "paused": pause_to_json(pause) }))
            }
        }
    }

    /// `object.get`: the object joins the inspected objects for one snapshot, and the list
    /// is put back as it was (the editor's inspector keeps its own).
    fn object(&mut self, uid: Uid) -> Result<Json, RpcError> {
        let inspected: Vec<Uid> = self.client.snapshot().editing.inspected.iter().map(|d| d.uid).collect();
        let mut with = inspected.clone();
        with.push(uid);
        self.settle(vec![Command::Editing(EditingCommand::Inspect(with))], None)?;
        let snapshot = self.client.snapshot();
        let details = snapshot.editing.inspected.iter().find(|d| d.uid == uid).map(details_to_json);
        if !inspected.contains(&uid) {
            self.client.send(Command::Editing(EditingCommand::Inspect(inspected)));
        }
        details.ok_or_else(|| RpcError::Refused(format!("there is no object {}", uid.0)))
    }

    /// `object.set_base` (no `method`) and `object.set_temp` (a temp value modified by
    /// `method`): an edit, as the inspector makes it.
    fn edit(&mut self, uid: u64, field: String, value: Json, method: Option<&str>) -> Result<Json, RpcError> {
        let value = json_to_value(&value)?;
        let uids = vec![Uid(uid)];
        let edit = match method {
            None => Edit::SetBase { uids, field, value },
            Some(method) => {
                let method = ModMethod::parse(method.as_bytes()).map_err(|e| RpcError::InvalidParams(e.to_string()))?;
                Edit::ModTemp { uids, field, value, method }
            }
        };
        self.history_after(Command::Editing(EditingCommand::Edit(edit)))
    }

    /// Sends `command` and answers with the undo history after it, or its refusal.
    fn history_after(&mut self, command: Command) -> Result<Json, RpcError> {
        let settled = self.settle(vec![command], None)?;
        if let Some(refused) = settled.refused.into_iter().next() {
            return Err(RpcError::Refused(refused));
        }
        let history = &self.client.snapshot().editing.history;
        Ok(json!({ "labels": history.labels, "done": history.done }))
    }
}
