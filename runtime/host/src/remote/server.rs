//! The listening socket: binding it, the token, and a thread per connection.

use std::io::BufReader;
use std::net::{Ipv4Addr, Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use crossbeam_channel::RecvTimeoutError;

use super::session::{ServerState, Session};
use super::wire::{Frame, RpcError, read_frame};
use crate::client::{HostClient, HostConnector};

/// How often a subscribed connection looks for a new snapshot.
const FRAME_POLL: Duration = Duration::from_millis(15);

/// How often an idle connection takes the events it has heard (so they do not pile up).
const IDLE_POLL: Duration = Duration::from_millis(200);

/// How many read lines may wait for their connection's session (the reader then waits too).
const QUEUED_LINES: usize = 4;

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum ListenError {
    /// The address given was neither a port nor an address with a port.
    #[error("'{0}' is not a port or an address with a port, such as 7777 or 127.0.0.1:7777")]
    BadAddress(String),
    /// The socket could not be bound.
    #[error("cannot listen on {address}: {source}")]
    Bind {
        /// The address.
        address: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
}

/// A bound socket with its token, not serving yet: the address and token can be told first.
pub struct Listener {
    listener: TcpListener,
    address: SocketAddr,
    token: String,
}

impl Listener {
    /// Binds `[ADDR:]PORT` (a bare port is on loopback, 127.0.0.1; port 0 picks a free one)
    /// and makes a random token.
    pub fn bind(address: &str) -> Result<Listener, ListenError> {
        let address = match address.parse::<u16>() {
            Ok(port) => SocketAddr::from((Ipv4Addr::LOCALHOST, port)),
            Err(_) => address.parse().map_err(|_| ListenError::BadAddress(address.to_owned()))?,
        };
        let listener = TcpListener::bind(address).map_err(|source| ListenError::Bind { address, source })?;
        let address = listener.local_addr().map_err(|source| ListenError::Bind { address, source })?;
        Ok(Listener { listener, address, token: super::new_token() })
    }

    /// The address bound (with the real port when 0 was asked for).
    pub fn address(&self) -> SocketAddr {
        self.address
    }

    /// The token a client must present in `session.hello`.
    pub fn token(&self) -> &str {
        &self.token
    }

    /// The line the game prints at start: `nefia: listening on 127.0.0.1:7777, token 3f9a…`.
    pub fn announcement(&self) -> String {
        format!("nefia: listening on {}, token {}", self.address, self.token)
    }

    /// Serves connections for `connector`'s runtime thread on a thread of its own, each
    /// connection on another, until the returned [`Server`] is dropped.
    pub fn serve(self, connector: HostConnector) -> Server {
        let state = Arc::new(ServerState { token: self.token, paused: Mutex::default() });
        let stopping = Arc::new(AtomicBool::new(false));
        let accepting = stopping.clone();
        let listener = self.listener;
        let thread = std::thread::Builder::new()
            .name("nefia remote".into())
            .spawn(move || {
                for stream in listener.incoming() {
                    if accepting.load(Ordering::Relaxed) {
                        break;
                    }
                    let Ok(stream) = stream else { continue };
                    let (client, state) = (connector.connect(), state.clone());
                    let spawned = std::thread::Builder::new()
                        .name("nefia remote connection".into())
                        .spawn(move || serve_connection(stream, client, state));
                    if let Err(error) = spawned {
                        tracing::warn!("a remote connection was refused: {error}");
                    }
                }
            })
            .expect("the remote protocol's thread starts");
        Server { address: self.address, stopping, thread: Some(thread) }
    }
}

/// The running server; dropping it stops accepting connections (those open go on until
/// their clients leave).
pub struct Server {
    address: SocketAddr,
    stopping: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl Server {
    /// The address it listens on.
    pub fn address(&self) -> SocketAddr {
        self.address
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stopping.store(true, Ordering::Relaxed);
        // Wake the accepting thread, which then sees it is to stop.
        let _woken = TcpStream::connect(self.address);
        if let Some(thread) = self.thread.take()
            && thread.join().is_err()
        {
            tracing::error!("the remote protocol's thread ended with a panic");
        }
    }
}

/// Serves one connection: a reader thread hands its lines over, this thread answers them
/// and sends frames between them.
fn serve_connection(stream: TcpStream, client: HostClient, state: Arc<ServerState>) {
    // Answers are small and awaited: send each at once.
    let prepared = stream.set_nodelay(true).and_then(|()| stream.try_clone());
    let reading = match prepared {
        Ok(reading) => reading,
        Err(error) => {
            tracing::warn!("a remote connection failed: {error}");
            return;
        }
    };
    let (lines, incoming) = crossbeam_channel::bounded(QUEUED_LINES);
    let reader = std::thread::Builder::new().name("nefia remote reader".into()).spawn(move || {
        let mut reader = BufReader::new(reading);
        loop {
            let frame = read_frame(&mut reader);
            let last = !matches!(frame, Frame::Line(_));
            if lines.send(frame).is_err() || last {
                break;
            }
        }
    });
    if reader.is_err() {
        return;
    }
    let closing = stream.try_clone();
    let mut session = Session::new(stream, client, state);
    loop {
        let wait = if session.subscribed() { FRAME_POLL } else { IDLE_POLL };
        let going_on = match incoming.recv_timeout(wait) {
            Ok(Frame::Line(line)) => session.handle_line(&line),
            Ok(Frame::TooLong) => {
                session.send_error(None, RpcError::TooLong);
                false
            }
            Ok(Frame::Closed) | Err(RecvTimeoutError::Disconnected) => false,
            Err(RecvTimeoutError::Timeout) => true,
        };
        if !going_on || !session.idle() {
            break;
        }
    }
    // The reader wakes from its read and ends.
    if let Ok(stream) = closing {
        let _closed = stream.shutdown(Shutdown::Both);
    }
}
