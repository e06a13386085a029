//! The editor's end of the runtime thread: starting it ([`HostHandle::spawn`] with a
//! [`HostConfig`]), sending it commands, reading its snapshots and events, and stopping it.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::Ordering;
use std::thread::JoinHandle;
use std::time::Duration;

use super::client::{EventHub, HostClient, HostConnector};
use super::recovery::{panic_message, serve_failure};
use super::serve::run;
use super::shared::{HostConfig, Shared};
use nefia_protocol::message::Command;
use nefia_protocol::view::Snapshot;

/// The editor's end of the runtime thread: a [`HostClient`] (its commands, snapshots and
/// events, through `Deref`) that also owns the thread.
pub struct HostHandle {
    client: HostClient,
    owner: Owner,
}

/// What a handle owns besides its client: the runtime thread it started, or the link to a
/// game in another process it attached to.
pub(super) enum Owner {
    /// The runtime thread, until it is joined.
    Thread(Option<JoinHandle<()>>),
    /// The connection to an attached game (see `attach.rs`): its address as given, and what
    /// holds the connection open (dropping it closes the connection and waits for its threads).
    Attached {
        /// The game's address.
        address: String,
        /// The link.
        link: Box<dyn Send>,
    },
}

impl HostHandle {
    /// Starts the runtime thread on `config.project`.
    pub fn spawn(config: HostConfig) -> HostHandle {
        let (commands, command_rx) = crossbeam_channel::unbounded();
        let (event_tx, events) = crossbeam_channel::unbounded();
        let name = config.project.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let shared = Shared::new(Snapshot::empty(&name), true);
        let thread_shared = shared.clone();
        let reloads = commands.clone();
        let thread = std::thread::Builder::new()
            .name("nefia runtime".into())
            .spawn(move || {
                let (repaint, project) = (config.repaint.clone(), config.project.display().to_string());
                let (shared, commands, events) = (thread_shared.clone(), command_rx.clone(), event_tx.clone());
                // Commands catch their own panics; one here is in setting up or in the
                // recovery itself.
                if let Err(payload) =
                    catch_unwind(AssertUnwindSafe(|| run(config, thread_shared, (reloads, command_rx), event_tx)))
                {
                    let problem = format!("The runtime stopped: {}", panic_message(payload.as_ref()));
                    serve_failure(&repaint, &shared, &commands, &events, &project, problem);
                }
            })
            .expect("the runtime thread starts");
        let connector = HostConnector::new(commands, shared, EventHub::new(events));
        HostHandle::with_owner(connector, Owner::Thread(Some(thread)))
    }

    /// A handle with `connector`'s client, owning `owner`.
    pub(super) fn with_owner(connector: HostConnector, owner: Owner) -> HostHandle {
        HostHandle { client: connector.connect(), owner }
    }

    /// The address of the game in another process this handle attached to, if it did.
    pub fn attached_to(&self) -> Option<&str> {
        match &self.owner {
            Owner::Attached { address, .. } => Some(address),
            Owner::Thread(_) => None,
        }
    }

    /// The step of the long work the runtime is doing now (see [`nefia_protocol::output::Progress`]),
    /// while it is busy.
    pub fn progress(&self) -> Option<nefia_protocol::output::Progress> {
        self.busy_for()?;
        self.client.shared().progress.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// How long the runtime has been busy with the current command, or with opening the
    /// project (None when idle).
    pub fn busy_for(&self) -> Option<Duration> {
        // An attached game's own editor, if any, tells its busy time.
        let Owner::Thread(Some(thread)) = &self.owner else { return None };
        if thread.is_finished() {
            return None;
        }
        let shared = self.client.shared();
        let since = shared.busy_since.load(Ordering::Relaxed);
        (since != 0).then(|| shared.started.elapsed().saturating_sub(Duration::from_millis(since)))
    }
}

impl Drop for HostHandle {
    fn drop(&mut self) {
        // The runtime thread ends; an attached game's link closes, and the game goes on.
        self.send(Command::Shutdown);
        match &mut self.owner {
            // The thread catches its own panics (see `recovery`); one that escaped is reported
            // where it happened, so there is nothing more to say here.
            Owner::Thread(thread) => {
                if let Some(thread) = thread.take()
                    && thread.join().is_err()
                {
                    tracing::error!("the runtime thread ended with a panic");
                }
            }
            // Closed before the client's channels go.
            Owner::Attached { link, .. } => drop(std::mem::replace(link, Box::new(()))),
        }
    }
}

impl std::ops::Deref for HostHandle {
    type Target = HostClient;

    /// The handle is a client of the thread it owns.
    fn deref(&self) -> &HostClient {
        &self.client
    }
}
