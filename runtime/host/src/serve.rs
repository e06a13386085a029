//! The serve loop: the runtime thread opens the project, then takes commands one at a time
//! (each through [`Host::handle`]), publishing a snapshot after each, until the frontend
//! goes or the runtime cannot go on. The frontend's commands are taken with [`receive`].

use std::path::PathBuf;
use std::rc::Rc;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};

use super::Host;
use super::recovery::serve_failure;
use crate::shared::{HostConfig, Shared};
use nefia_game::display::LogLevel;
use nefia_lua::gui;
use nefia_lua::limits::Limits;
use nefia_lua::runtime::{OnModFailure, Runtime};
use nefia_protocol::message::{Command, HostEvent};
use nefia_protocol::output::Output;

/// How often animations advance while something animates.
const FRAME: Duration = Duration::from_millis(16);

/// Opens the project of `config` and serves it until the frontend goes.
pub(super) fn run(
    config: HostConfig,
    shared: Arc<Shared>,
    (reloads, commands): (Sender<Command>, Receiver<Command>),
    events: Sender<HostEvent>,
) {
    let sink_events = events.clone();
    let sink_repaint = config.repaint.clone();
    let sink = Box::new(move |output: Output| {
        // With the editor gone there is no one to show the output to.
        if sink_events.send(HostEvent::Output(output)).is_ok() {
            sink_repaint();
        }
    });
    // The limits hold from the first line of mod code on.
    let opened = Runtime::new(sink).and_then(|mut runtime| {
        let lua = runtime.lua();
        let (told, repaint) = (shared.clone(), config.repaint.clone());
        runtime.set_progress(Rc::new(move |step: &nefia_protocol::output::Progress| {
            *told.progress.lock().unwrap_or_else(|e| e.into_inner()) = Some(step.clone());
            repaint();
        }));
        runtime.set_limits(Some(Limits::EDITOR_TIME), Some(Limits::EDITOR_MEMORY));
        runtime.engine().limits().share_flags(lua, shared.stop.clone(), shared.pause.clone());
        for (path, breakpoints) in &config.breakpoints {
            runtime.engine().debugger().set_breakpoints(lua, path, breakpoints.clone());
        }
        // A mod that fails is skipped and shown in the Mods pane; the rest of the project opens.
        runtime.open_with(&config.project, OnModFailure::Skip)?;
        if let Some(saves) = &config.saves {
            runtime.set_save_dir(saves.clone());
        }
        runtime.open_start_map()?;
        Ok(runtime)
    });
    // Opened (or not): no longer busy.
    shared.busy_since.store(0, Ordering::Relaxed);
    *shared.progress.lock().unwrap_or_else(|e| e.into_inner()) = None;
    let runtime = match opened {
        Ok(runtime) => runtime,
        Err(error) => {
            let name = config.project.display().to_string();
            let problem = format!("The project could not be opened:\n{error}");
            return serve_failure(&config.repaint, &shared, &commands, &events, &name, problem);
        }
    };
    for (id, why) in runtime.mod_failures() {
        gui::log(runtime.lua(), LogLevel::Error, format!("mod '{id}' did not load: {why}"));
    }
    let channels = HostChannels { commands, events, shared, repaint: config.repaint };
    let serving = Serving::Live { recordings: config.recordings, journal: config.journal, reports: config.reports };
    let host = Rc::new(Host::new(runtime, channels, serving));
    host.editing.open_journal(&host.cx());
    let lua = host.runtime.lua();
    let limits = host.runtime.engine().limits();
    let _watchers =
        (super::mods::Mods::watch(&host.cx(), reloads.clone()), super::maps::Maps::watch(&host.cx(), reloads));
    gui::set_frontend(lua, Some(host.clone()));
    host.publish();
    while !host.shutting_down.get() && !host.recovery.failed() {
        host.serve_next();
        if let Some(due) = host.maps.check.due(&host.cx(), host.may_check_maps()) {
            let profiler = host.runtime.engine().profiler();
            profiler
                .scope(|| nefia_lua::profile::engine_work("map validators"), || host.maps.check.check(&host.cx(), due));
        }
        // Hotloads whose files have been quiet long enough are tried again, each a command.
        for path in host.mods.quiet_hotloads() {
            host.handle(Command::Mods(nefia_protocol::mods::ModCommand::Reload(path)));
        }
        host.publish();
        // A Stop pressed as the command ended has nothing left to stop.
        limits.take_stop();
    }
    gui::set_frontend(lua, None);
    if let Some(problem) = host.recovery.failure() {
        serve_failure(&host.repaint, &host.shared, &host.commands, &host.events, &host.frame.project, problem);
    }
}

/// Who a host serves.
pub(crate) enum Serving {
    /// The editor or the player window, recording play sessions in `recordings` if set.
    Live {
        /// The recordings folder.
        recordings: Option<PathBuf>,
        /// The edit journal's folder.
        journal: Option<PathBuf>,
        /// The bug reports' folder.
        reports: Option<PathBuf>,
    },
    /// No one: a replay or a fuzzed game, headless. A fuzzed game records its session in
    /// `recordings` (its steps back need the recording's kept states); a replay records
    /// nothing.
    Headless {
        /// The recordings folder.
        recordings: Option<PathBuf>,
    },
}

/// What connects a host to its frontend.
pub(crate) struct HostChannels {
    /// Where commands come from.
    pub(crate) commands: Receiver<Command>,
    /// Where events go.
    pub(crate) events: Sender<HostEvent>,
    /// The state shared with the frontend's handle.
    pub(crate) shared: Arc<Shared>,
    /// Asks the frontend to draw again.
    pub(crate) repaint: Arc<dyn Fn() + Send + Sync>,
}

/// The next command from the frontend: while `animating`, gives up after a frame so
/// animations advance (otherwise it sleeps until a command comes: no work when nothing
/// changes). The frontend gone is a Shutdown.
pub(super) fn receive(commands: &Receiver<Command>, animating: bool) -> Option<Command> {
    if !animating {
        return Some(commands.recv().unwrap_or(Command::Shutdown));
    }
    match commands.recv_timeout(FRAME) {
        Ok(command) => Some(command),
        Err(RecvTimeoutError::Timeout) => None,
        Err(RecvTimeoutError::Disconnected) => Some(Command::Shutdown),
    }
}
