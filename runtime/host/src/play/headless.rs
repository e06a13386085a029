//! A game played with no frontend: a fresh runtime on a project, a host that publishes
//! nothing, play begun — what a replay (`replay.rs`) and a fuzzed game (`fuzz/`) start
//! from.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::sync::Arc;

use crossbeam_channel::{Receiver, Sender};

use crate::{Host, HostChannels, Serving, Shared};
use nefia_game::display::LogLevel;
use nefia_lua::gui;
use nefia_lua::runtime::{Runtime, RuntimeError};
use nefia_protocol::message::{Command, HostEvent};
use nefia_protocol::output::Output;
use nefia_protocol::play::PlayFrom;
use nefia_protocol::view::Snapshot;

/// A headless host playing.
pub(crate) struct HeadlessPlay {
    /// The host, the runtime's frontend until it is dropped.
    pub(crate) host: Rc<Host>,
    /// What the host sends; no one reads it but to find why play did not begin.
    pub(crate) events: Receiver<HostEvent>,
    /// Kept open so the host's channels stay connected; nothing is sent on it.
    pub(crate) _commands: Sender<Command>,
    /// The errors the game logged, in order.
    pub(crate) errors: Rc<RefCell<Vec<String>>>,
}

/// Why a headless game did not begin.
#[derive(Debug, thiserror::Error)]
pub(crate) enum HeadlessError {
    /// The project could not be opened.
    #[error(transparent)]
    Open(#[from] RuntimeError),
    /// Play was refused: why.
    #[error("{0}")]
    Start(String),
}

impl HeadlessPlay {
    /// Opens `project` in a fresh runtime under the editor's limits (a recording's REPL code
    /// and hotloads are code like a mod's), with saves in `saves`, and plays `from` — a new
    /// game seeded with `seed` if one is given — recording the session in `recordings` if
    /// given.
    pub(crate) fn start(
        project: &Path,
        saves: &Path,
        recordings: Option<PathBuf>,
        (from, seed): (PlayFrom, Option<u64>),
    ) -> Result<HeadlessPlay, HeadlessError> {
        let errors = Rc::new(RefCell::new(Vec::new()));
        let logged = errors.clone();
        let sink = Box::new(move |output: Output| {
            if let Output::Log(line) = output
                && line.level == LogLevel::Error
            {
                logged.borrow_mut().push(line.text);
            }
        });
        let mut runtime = Runtime::new(sink)?;
        let limits = nefia_lua::limits::Limits::EDITOR_TIME;
        runtime.set_limits(Some(limits), Some(nefia_lua::limits::Limits::EDITOR_MEMORY));
        runtime.open(project)?;
        runtime.set_save_dir(saves.to_owned());
        runtime.engine().set_next_seed(seed);
        let (commands, command_rx) = crossbeam_channel::unbounded();
        let (event_tx, events) = crossbeam_channel::unbounded();
        let name = runtime.project().map(|p| p.manifest.name.clone()).unwrap_or_default();
        let shared = Shared::new(Snapshot::empty(&name), false);
        let channels = HostChannels { commands: command_rx, events: event_tx, shared, repaint: Arc::new(|| {}) };
        let host = Rc::new(Host::new(runtime, channels, Serving::Headless { recordings }));
        gui::set_frontend(host.runtime.lua(), Some(host.clone()));
        host.begin_play(from);
        if !host.play.playing() {
            gui::set_frontend(host.runtime.lua(), None);
            let why = events.try_iter().find_map(|event| match event {
                HostEvent::Refused(refused) => Some(refused.message),
                _ => None,
            });
            return Err(HeadlessError::Start(why.unwrap_or_else(|| "play did not begin".into())));
        }
        Ok(HeadlessPlay { host, events, _commands: commands, errors })
    }
}
