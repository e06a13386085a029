//! What the frontend's handle ([`super::HostHandle`]) and the runtime thread it starts
//! agree on: how the thread is started ([`HostConfig`]) and the state both read while it runs
//! ([`Shared`]). A leaf below both, so the handle and the serve loop do not import each other.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64};
use std::sync::{Arc, Mutex};
use std::time::Instant;

use nefia_protocol::view::Snapshot;

/// How to start the runtime thread.
pub struct HostConfig {
    /// The project folder to open.
    pub project: PathBuf,
    /// Called (from the runtime thread) whenever there is something new to show.
    pub repaint: Arc<dyn Fn() + Send + Sync>,
    /// Where play sessions are recorded (see [`crate::play::recorder`]): `<project>/recordings` in the
    /// editor and the player window; None records nothing (tests on the repository's own
    /// project).
    pub recordings: Option<PathBuf>,
    /// Where the edit journal is kept (see [`crate::editing::journal`]):
    /// `<project>/.nefia/journal` in the editor; None journals nothing.
    pub journal: Option<PathBuf>,
    /// Line breakpoints set before the project's mods load (a launched debug session's), by
    /// file: those files load with the debugger's probes (see `runtime/lua/src/debugger/probes.rs`).
    pub breakpoints: Vec<(PathBuf, Vec<nefia_protocol::repl::LineBreakpoint>)>,
    /// Where games are saved: None is `<project>/saves` (a packaged game's player's own
    /// folder otherwise).
    pub saves: Option<PathBuf>,
    /// Where a bug report goes when the error screen appears (the session recorded so far,
    /// with the error: see `play/recorder/report.rs`); None writes none.
    pub reports: Option<PathBuf>,
}

impl HostConfig {
    /// The runtime thread on `project`, recording play sessions in `<project>/recordings`.
    pub fn recorded(project: PathBuf, repaint: Arc<dyn Fn() + Send + Sync>) -> HostConfig {
        let recordings = Some(project.join("recordings"));
        let journal = Some(nefia_game::journal::journal_dir(&project));
        HostConfig { project, repaint, recordings, journal, breakpoints: Vec::new(), saves: None, reports: None }
    }
}

/// State shared between the two threads.
pub(crate) struct Shared {
    pub(super) snapshot: Mutex<Arc<Snapshot>>,
    /// Milliseconds since `started` when the current command began; 0 when idle.
    pub(super) busy_since: AtomicU64,
    pub(super) started: Instant,
    /// Raised by [`crate::HostClient::stop`]: the running Lua code is interrupted.
    pub(super) stop: Arc<AtomicBool>,
    /// Raised by [`crate::HostClient::pause`]: the running Lua code stops in the debugger at its
    /// next line.
    pub(super) pause: Arc<AtomicBool>,
    /// The step of long work going on (opening the project, loading a save), if any.
    pub(super) progress: Mutex<Option<nefia_protocol::output::Progress>>,
}

impl Shared {
    /// The state of a runtime that shows `snapshot` first, busy from the start if `busy`
    /// (the runtime thread opens the project first).
    pub(super) fn new(snapshot: Snapshot, busy: bool) -> Arc<Shared> {
        Arc::new(Shared {
            snapshot: Mutex::new(Arc::new(snapshot)),
            busy_since: AtomicU64::new(u64::from(busy)),
            started: Instant::now(),
            stop: Arc::default(),
            pause: Arc::default(),
            progress: Mutex::default(),
        })
    }
}
