//! Clients of the runtime thread: what sends it commands, reads its snapshots and hears its
//! events. The [`HostHandle`](super::HostHandle) that started the thread is one; a
//! [`HostConnector`] (from [`HostHandle::connector`](HostClient::connector)) makes
//! more, for other frontends in the same process (the remote protocol's connections beside
//! the player window). Every client hears every event from the moment it was made, in order.

use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, Select, Sender, TryRecvError};

use crate::shared::Shared;
use nefia_protocol::debugging::DebugCommand;
use nefia_protocol::message::{Command, HostEvent};
use nefia_protocol::view::Snapshot;

/// The runtime thread's events, copied to every client's queue by whichever client reads
/// first (no thread of its own).
pub(crate) struct EventHub {
    /// What the runtime thread sends.
    source: Receiver<HostEvent>,
    /// Each client's queue.
    queues: Mutex<Vec<Sender<HostEvent>>>,
}

impl EventHub {
    /// A hub over the runtime thread's events.
    pub(crate) fn new(source: Receiver<HostEvent>) -> Arc<EventHub> {
        Arc::new(EventHub { source, queues: Mutex::default() })
    }

    /// A new queue that receives every event from now on.
    fn queue(&self) -> Receiver<HostEvent> {
        let (sender, receiver) = crossbeam_channel::unbounded();
        self.queues.lock().unwrap_or_else(|e| e.into_inner()).push(sender);
        receiver
    }

    /// Copies the events waiting at the source to every queue, in order (under the lock, so
    /// two clients reading at once cannot interleave them). Returns false once the runtime
    /// thread has ended and nothing is left.
    fn pump(&self) -> bool {
        let mut queues = self.queues.lock().unwrap_or_else(|e| e.into_inner());
        loop {
            match self.source.try_recv() {
                // A client that has gone is forgotten.
                Ok(event) => queues.retain(|queue| queue.send(event.clone()).is_ok()),
                Err(TryRecvError::Empty) => return true,
                Err(TryRecvError::Disconnected) => return false,
            }
        }
    }
}

/// What makes clients of one runtime thread: each [`HostClient`] it makes hears every event
/// from then on. It hears nothing itself, so it can be kept (by a server that makes a client
/// per connection) at no cost.
#[derive(Clone)]
pub struct HostConnector {
    commands: Sender<Command>,
    shared: Arc<Shared>,
    hub: Arc<EventHub>,
}

impl HostConnector {
    /// A connector to the thread that `commands` reach, whose events `hub` copies.
    pub(crate) fn new(commands: Sender<Command>, shared: Arc<Shared>, hub: Arc<EventHub>) -> HostConnector {
        HostConnector { commands, shared, hub }
    }

    /// A new client, hearing every event from now on.
    pub fn connect(&self) -> HostClient {
        HostClient { events: self.hub.queue(), connector: self.clone() }
    }
}

/// One frontend's end of the runtime thread: commands in, snapshots and events out.
pub struct HostClient {
    connector: HostConnector,
    events: Receiver<HostEvent>,
}

impl HostClient {
    /// What makes more clients of the same thread.
    pub fn connector(&self) -> HostConnector {
        self.connector.clone()
    }

    /// The state shared with the runtime thread.
    pub(crate) fn shared(&self) -> &Shared {
        &self.connector.shared
    }

    /// Sends a command. After the runtime thread has ended nothing serves it: it is dropped
    /// (the snapshot says why the thread ended).
    pub fn send(&self, command: Command) {
        if let Err(unsent) = self.connector.commands.send(command) {
            tracing::debug!("the runtime thread has ended; {} dropped", unsent.0.name());
        }
    }

    /// The latest snapshot.
    pub fn snapshot(&self) -> Arc<Snapshot> {
        self.connector.shared.snapshot.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Events that arrived since the last call, in order.
    pub fn events(&self) -> Vec<HostEvent> {
        self.connector.hub.pump();
        self.events.try_iter().collect()
    }

    /// The next event, waiting up to `timeout` for one (None: none came, or the runtime
    /// thread has ended).
    pub fn next_event(&self, timeout: Duration) -> Option<HostEvent> {
        let deadline = Instant::now() + timeout;
        loop {
            let running = self.connector.hub.pump();
            if let Ok(event) = self.events.try_recv() {
                return Some(event);
            }
            if !running {
                return None;
            }
            // Another client may copy the next event here, or it may arrive at the source.
            let mut select = Select::new();
            select.recv(&self.connector.hub.source);
            select.recv(&self.events);
            select.ready_deadline(deadline).ok()?;
        }
    }

    /// True once the runtime thread has ended and every event it sent has been taken.
    pub fn ended(&self) -> bool {
        !self.connector.hub.pump() && self.events.is_empty()
    }

    /// Interrupts the running Lua code (a runaway script, a paused one) at once.
    pub fn stop(&self) {
        self.connector.shared.stop.store(true, Ordering::Relaxed);
        self.send(Command::Stop);
    }

    /// Stops the game's Lua code in the debugger at its next line: in the middle of a long
    /// run of code at once (the Pause flag, acted on by the limits' check), or, if none runs,
    /// wherever code runs next ([`DebugCommand::Pause`]).
    pub fn pause(&self) {
        self.connector.shared.pause.store(true, Ordering::Relaxed);
        self.send(Command::Debug(DebugCommand::Pause));
    }
}
