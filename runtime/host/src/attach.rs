//! Attaching to a game in another process: a [`HostHandle`] whose runtime thread is a game
//! served over TCP (`nefia play --listen`). The editor uses it as it uses the embedded one:
//! the same [`HostClient`](crate::HostClient) (commands in, snapshots and events out), so
//! every pane works the same way on both. Two threads carry the link: one writes each command as a
//! `host.command` request, the other reads the game's `host.frame` notifications into a
//! [`Mirror`] of its snapshot and passes its `host.event`s on.
//!
//! Leaving (dropping the handle) closes the connection and nothing else: the game goes on,
//! paused if it was, for the next client.

use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::net::{Shutdown, TcpStream, ToSocketAddrs};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use crossbeam_channel::{Receiver, Sender};
use serde_json::{Value as Json, json};

use super::client::{EventHub, HostConnector};
use super::handle::{HostHandle, Owner};
use super::remote::{Mirror, PROTOCOL_VERSION};
use super::shared::Shared;
use nefia_protocol::message::{Command, HostEvent, RefusalKind, Refused};
use nefia_protocol::view::Snapshot;

/// How long connecting and the handshake may take.
const HANDSHAKE: Duration = Duration::from_secs(10);

/// The longest line the game may send (the first frame carries every prototype).
const MAX_FRAME: u64 = 256 << 20;

/// Why the editor could not attach.
#[derive(Debug, thiserror::Error)]
pub enum AttachError {
    /// The address named no reachable game.
    #[error("cannot reach a game at {address}: {source}")]
    Connect {
        /// The address as given.
        address: String,
        /// Why.
        source: std::io::Error,
    },
    /// The game refused the handshake (a wrong token, another protocol version).
    #[error("the game at {address} refused to attach: {message}")]
    Refused {
        /// The address as given.
        address: String,
        /// What the game said.
        message: String,
    },
    /// The game answered something that is not the protocol.
    #[error("the game at {address} does not speak Nefia's protocol: {problem}")]
    Protocol {
        /// The address as given.
        address: String,
        /// What was wrong.
        problem: String,
    },
}

/// The two threads carrying an attached handle's link, and the connection they share; dropped
/// (with the handle), it closes the connection and waits for both threads to end.
struct Link {
    stream: TcpStream,
    writer: Option<JoinHandle<()>>,
    reader: Option<JoinHandle<()>>,
}

impl Drop for Link {
    fn drop(&mut self) {
        let _closed = self.stream.shutdown(Shutdown::Both);
        for thread in [self.writer.take(), self.reader.take()].into_iter().flatten() {
            if thread.join().is_err() {
                tracing::error!("a thread of the link to the attached game ended with a panic");
            }
        }
    }
}

/// Reads one line of at most [`MAX_FRAME`] bytes as JSON (None: the connection closed).
fn read_message(reader: &mut impl BufRead) -> Option<Result<Json, serde_json::Error>> {
    let mut line = Vec::new();
    match reader.by_ref().take(MAX_FRAME).read_until(b'\n', &mut line) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(serde_json::from_slice(&line)),
    }
}

/// Writes one message and its newline.
fn write_message(writer: &mut impl Write, message: &Json) -> std::io::Result<()> {
    serde_json::to_writer(&mut *writer, message)?;
    writer.write_all(b"\n")?;
    writer.flush()
}

impl HostHandle {
    /// Attaches to the game served at `address` (`127.0.0.1:7777`), presenting `token`;
    /// `repaint` is called whenever there is something new to show. The handle's snapshot
    /// is the game's, mirrored; its commands go to the game.
    pub fn attach(address: &str, token: &str, repaint: Arc<dyn Fn() + Send + Sync>) -> Result<HostHandle, AttachError> {
        let connect_error = |source| AttachError::Connect { address: address.to_owned(), source };
        let protocol = |problem: String| AttachError::Protocol { address: address.to_owned(), problem };
        let target = address.to_socket_addrs().map_err(connect_error)?.next().ok_or_else(|| {
            connect_error(std::io::Error::new(std::io::ErrorKind::NotFound, "the address names no host"))
        })?;
        let stream = TcpStream::connect_timeout(&target, HANDSHAKE).map_err(connect_error)?;
        let prepared = stream
            .set_nodelay(true)
            .and_then(|()| stream.set_read_timeout(Some(HANDSHAKE)))
            .and_then(|()| stream.try_clone());
        let mut reader = BufReader::new(prepared.map_err(connect_error)?);
        let mut writer = BufWriter::new(stream.try_clone().map_err(connect_error)?);
        let hello = json!({ "jsonrpc": "2.0", "id": 1, "method": "session.hello",
                            "params": { "version": PROTOCOL_VERSION, "token": token } });
        let mirror = json!({ "jsonrpc": "2.0", "id": 2, "method": "host.mirror" });
        for request in [hello, mirror] {
            write_message(&mut writer, &request).map_err(connect_error)?;
            let answer = match read_message(&mut reader) {
                Some(Ok(answer)) => answer,
                Some(Err(error)) => return Err(protocol(error.to_string())),
                None => return Err(protocol("it closed the connection during the handshake".into())),
            };
            if let Some(error) = answer.get("error") {
                let message = error.get("message").and_then(Json::as_str).unwrap_or("no reason given").to_owned();
                return Err(AttachError::Refused { address: address.to_owned(), message });
            }
            if answer.get("result").is_none() {
                return Err(protocol(format!("the answer {answer} has no result")));
            }
        }
        stream.set_read_timeout(None).map_err(connect_error)?;
        Ok(HostHandle::linked(address, stream, reader, writer, repaint))
    }

    /// A handle over an attached game's connection, after the handshake.
    fn linked(
        address: &str,
        stream: TcpStream,
        reader: BufReader<TcpStream>,
        writer: BufWriter<TcpStream>,
        repaint: Arc<dyn Fn() + Send + Sync>,
    ) -> HostHandle {
        let (commands, command_rx) = crossbeam_channel::unbounded();
        let (event_tx, events) = crossbeam_channel::unbounded();
        let shared = Shared::new(Snapshot::empty(address), false);
        let writing = std::thread::Builder::new()
            .name("nefia attach writer".into())
            .spawn(move || write_commands(writer, &command_rx))
            .ok();
        let (told, from) = (shared.clone(), address.to_owned());
        let reading = std::thread::Builder::new()
            .name("nefia attach reader".into())
            .spawn(move || read_frames(reader, &told, &event_tx, &repaint, &from))
            .ok();
        let link = Link { stream, writer: writing, reader: reading };
        let connector = HostConnector::new(commands, shared, EventHub::new(events));
        HostHandle::with_owner(connector, Owner::Attached { address: address.to_owned(), link: Box::new(link) })
    }
}

/// Sends each command as a `host.command` request until the handle says Shutdown (the
/// editor leaves: the game goes on) or the connection closes.
fn write_commands(mut writer: BufWriter<TcpStream>, commands: &Receiver<Command>) {
    let mut id = 10_u64;
    for command in commands {
        if command == Command::Shutdown {
            break;
        }
        id += 1;
        let request = match serde_json::to_value(&command) {
            Ok(command) => json!({ "jsonrpc": "2.0", "id": id, "method": "host.command",
                                   "params": { "command": command } }),
            Err(error) => {
                tracing::error!("{} could not be sent to the attached game: {error}", command.name());
                continue;
            }
        };
        if write_message(&mut writer, &request).is_err() {
            break;
        }
    }
    let _closed = writer.get_ref().shutdown(Shutdown::Write);
}

/// Puts each `host.frame` into the mirror and passes each `host.event` on, until the
/// connection closes; the snapshot then says the game has gone.
fn read_frames(
    mut reader: BufReader<TcpStream>,
    shared: &Shared,
    events: &Sender<HostEvent>,
    repaint: &Arc<dyn Fn() + Send + Sync>,
    address: &str,
) {
    let mut mirror = Mirror::new(address);
    let refuse = |message: String| events.send(HostEvent::Refused(Refused::new(RefusalKind::Unavailable, message)));
    while let Some(message) = read_message(&mut reader) {
        let message = match message {
            Ok(message) => message,
            Err(error) => {
                tracing::warn!("the attached game sent a line that is not JSON: {error}");
                continue;
            }
        };
        let params = message.get("params").cloned().unwrap_or(Json::Null);
        match message.get("method").and_then(Json::as_str) {
            Some("host.frame") => match mirror.apply(params) {
                Ok(snapshot) => *shared.snapshot.lock().unwrap_or_else(|e| e.into_inner()) = snapshot,
                Err(error) => tracing::warn!("a frame of the attached game was dropped: {error}"),
            },
            Some("host.event") => match serde_json::from_value(params) {
                Ok(event) => {
                    if events.send(event).is_err() {
                        return;
                    }
                }
                Err(error) => tracing::warn!("an event of the attached game was dropped: {error}"),
            },
            // The answer to a command: only a refusal says anything.
            _ => {
                if let Some(error) = message.get("error") {
                    let text = error.get("message").and_then(Json::as_str).unwrap_or("refused");
                    let _told = refuse(format!("the attached game refused a command: {text}"));
                }
            }
        }
        repaint();
    }
    let mut snapshot = Snapshot::clone(&mirror.snapshot());
    snapshot.serial += 1;
    snapshot.problem = Some(format!("The game at {address} has closed the connection."));
    *shared.snapshot.lock().unwrap_or_else(|e| e.into_inner()) = Arc::new(snapshot);
    repaint();
}
