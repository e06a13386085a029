//! The runtime thread and its protocol (DESIGN.md, "the one hard constraint").
//!
//! The world and the Lua state live on one thread, which serves [`Command`]s from the editor
//! and publishes [`Snapshot`]s and [`HostEvent`]s back. Lua calls that block — a UI layer's
//! `query()` — run the same serve loop nested (through [`gui::Frontend`]), so the editor stays
//! live: it repaints, the log streams, and other panes' commands are answered while a script
//! waits. The editor never holds the Lua state; it renders the latest snapshot.
//!
//! The same nesting serves `pause()`: while a breakpoint waits, REPL input evaluates among
//! its locals. Every evaluation runs under the limits ([`Limits`]); the Stop flag is shared
//! with the editor so it can interrupt a script from its own thread. An uncaught error in
//! game logic (a key's handlers, a UI layer's input, a widget's update) stops the game on
//! the error screen until it is resumed or a hotload fixes it. A [`ModWatcher`] sends
//! [`Command::Reload`] for every Lua file saved in the loaded mods.

use std::cell::{Cell, RefCell};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};

use crate::game::display::{Input, LogLevel};
use crate::game::history::History;
use crate::game::object::Uid;
use crate::game::symbol::Symbol;
use crate::host::play::EditState;
use crate::host::view::{LocationTreeBuilder, MapViewBuilder, RuntimeState, Snapshot};
use crate::lua::gui;
use crate::lua::limits::Limits;
use crate::lua::repl;
use crate::lua::{GameError, Output};
use crate::runtime::{OnModFailure, Runtime};

pub mod check;
mod client;
mod debug_commands;
pub mod edit;
mod frame;
mod frontend;
pub mod generate;
mod handle;
pub mod hotload;
pub mod journal;
pub mod map_check;
mod map_commands;
mod mod_commands;
pub mod play;
mod play_commands;
mod protocol;
pub mod recorder;
mod recovery;
pub mod remote;
pub mod replay;
pub mod view;
pub mod workbench;

pub use client::{HostClient, HostConnector};
pub use handle::{HostConfig, HostHandle};
pub use mod_commands::QUIET;
pub use protocol::{Command, Hint, HostEvent, MapCommand, RefusalKind, Refused};
pub use recovery::{CHECKPOINT_BUDGET, PanicReport};
use recovery::{panic_message, serve_failure};

/// A command that works on the project came when no project is open.
#[derive(Debug, thiserror::Error)]
#[error("no project is open")]
struct NoProject;

/// How often animations advance while something animates.
const FRAME: Duration = Duration::from_millis(16);

/// State shared between the two threads.
pub(crate) struct Shared {
    snapshot: Mutex<Arc<Snapshot>>,
    /// Milliseconds since `started` when the current command began; 0 when idle.
    busy_since: AtomicU64,
    started: Instant,
    /// Raised by [`HostHandle::stop`]: the running Lua code is interrupted.
    stop: Arc<AtomicBool>,
    /// The step of long work going on (opening the project, loading a save), if any.
    progress: Mutex<Option<crate::lua::Progress>>,
}

/// The views of the world built for a snapshot, with the revision they were built at.
#[derive(Default)]
struct BuiltViews {
    /// The world revision (0: never built).
    revision: u64,
    /// The current map's view.
    map: Option<Arc<view::MapView>>,
    /// The Locations tree.
    locations: Arc<view::LocationTree>,
}

/// What the host builds snapshots with: the builders that reuse what did not change, and the
/// views built last.
struct FrameBuilder {
    maps: RefCell<MapViewBuilder>,
    locations: RefCell<LocationTreeBuilder>,
    /// The views last built from the world, reused while it does not change.
    built: RefCell<BuiltViews>,
    /// When animations were last advanced.
    last_update: Cell<Instant>,
    /// The number of the last snapshot.
    serial: Cell<u64>,
    /// The data registry's revision the data view was built at.
    data_revision: Cell<u64>,
    /// The data types as the Prototypes pane shows them.
    data: RefCell<Arc<Vec<view::DataTypeView>>>,
    /// The profiler's turns as last sent, with the profiler's revision then.
    profile: RefCell<(u64, Arc<Vec<Arc<crate::lua::profile::TurnProfile>>>)>,
}

impl Default for FrameBuilder {
    fn default() -> FrameBuilder {
        FrameBuilder {
            maps: RefCell::default(),
            locations: RefCell::default(),
            built: RefCell::default(),
            last_update: Cell::new(Instant::now()),
            profile: RefCell::default(),
            serial: Cell::new(0),
            data_revision: Cell::new(u64::MAX),
            data: RefCell::default(),
        }
    }
}

/// A play session: the edit state and undo history set aside, and play's own flags.
#[derive(Default)]
struct PlaySession {
    /// The edit state set aside while playing (none: editing).
    edit: RefCell<Option<EditState>>,
    /// The editor's undo history, set aside while playing.
    history: RefCell<Option<History>>,
    /// The game is paused (while playing).
    paused: Cell<bool>,
    /// Stop play was asked for while Lua code waited; it happens once the code unwound.
    stop_pending: Cell<bool>,
}

/// The runtime thread's state.
struct Host {
    runtime: Runtime,
    commands: Receiver<Command>,
    events: Sender<HostEvent>,
    shared: Arc<Shared>,
    repaint: Arc<dyn Fn() + Send + Sync>,
    project: String,
    /// What the snapshots are built with (see `frame.rs`).
    frame: FrameBuilder,
    inspect: RefCell<Vec<Uid>>,
    history: RefCell<History>,
    state: Cell<RuntimeState>,
    /// The uncaught error the game stopped on (the error screen), if any.
    error: RefCell<Option<GameError>>,
    /// A break was asked for at the next turn boundary.
    break_requested: Cell<bool>,
    /// Replaying a turn up to a change ("When did this change?" → an entry): a break there
    /// waits for the editor, not for the recorded inputs.
    stopping_at_change: Cell<bool>,
    /// The generator workbench (see `workbench/`).
    workbench: workbench::Workbench,
    /// What the map validators found on the current map (see `map_check.rs`).
    map_check: map_check::MapCheck,
    /// The play session, while playing (see `play_commands.rs`).
    play: PlaySession,
    /// How many `query()`/`pause()` waits are nested now.
    depth: Cell<u32>,
    /// How many waits have begun (a command that waited for the player took the player's
    /// time, not the game's).
    waits: Cell<u64>,
    asset_dirs: Arc<Vec<PathBuf>>,
    mods: Arc<Vec<String>>,
    /// What the Mods pane lists (rebuilt when a mod is enabled or the folders rescanned).
    mod_rows: RefCell<Arc<Vec<crate::game::mods::ModRow>>>,
    shutting_down: Cell<bool>,
    /// The last panic caught, shown in the status bar until the next one.
    fault: RefCell<Option<String>>,
    /// Why the runtime cannot go on, once it cannot: the serve loop ends and only the
    /// failure is served.
    failed: RefCell<Option<String>>,
    /// Where play sessions are recorded (None: they are not; a replay records nothing).
    recordings: Option<PathBuf>,
    /// No frontend draws: nothing is published (a headless replay).
    headless: bool,
    /// The session being recorded, while playing (see `recorder.rs`).
    recorder: RefCell<Option<recorder::Recorder>>,
    /// Commands come from the session log's recorded inputs, not the editor.
    replaying: Cell<bool>,
    /// The edit journal (see `journal.rs`).
    journal: journal::HostJournal,
    /// Saved files that did not parse a moment after they changed: tried again once quiet.
    hotload_waiting: RefCell<Vec<PathBuf>>,
}

fn run(
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
        runtime.set_progress(Rc::new(move |step: &crate::lua::Progress| {
            *told.progress.lock().unwrap_or_else(|e| e.into_inner()) = Some(step.clone());
            repaint();
        }));
        runtime.set_limits(Some(Limits::EDITOR_TIME), Some(Limits::EDITOR_MEMORY));
        runtime.engine().limits.share_stop(lua, shared.stop.clone());
        // A mod that fails is skipped and shown in the Mods pane; the rest of the project opens.
        runtime.open_with(&config.project, OnModFailure::Skip)?;
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
    let serving = Serving::Live { recordings: config.recordings, journal: config.journal };
    let host = Rc::new(Host::new(runtime, channels, serving));
    host.open_journal();
    let lua = host.runtime.lua();
    let limits = &host.runtime.engine().limits;
    let _watcher = host.watch_mods(reloads);
    gui::set_frontend(lua, Some(host.clone()));
    host.publish();
    while !host.shutting_down.get() && host.failed.borrow().is_none() {
        if let Some(command) = host.next_command() {
            host.handle(command);
            let profiler = &host.runtime.engine().profiler;
            profiler.scope(|| crate::lua::profile::engine_work("recording"), || host.mark_turn());
        }
        host.finish_play_if_asked();
        host.check_current_map();
        host.retry_quiet_hotloads();
        host.publish();
        // A Stop pressed as the command ended has nothing left to stop.
        limits.take_stop();
    }
    gui::set_frontend(lua, None);
    let failed = host.failed.borrow_mut().take();
    if let Some(problem) = failed {
        serve_failure(&host.repaint, &host.shared, &host.commands, &host.events, &host.project, problem);
    }
}

/// Who a host serves.
enum Serving {
    /// The editor or the player window, recording play sessions in `recordings` if set.
    Live {
        /// The recordings folder.
        recordings: Option<PathBuf>,
        /// The edit journal's folder.
        journal: Option<PathBuf>,
    },
    /// No one: a replay, headless.
    Headless,
}

/// What connects a host to its frontend.
struct HostChannels {
    commands: Receiver<Command>,
    events: Sender<HostEvent>,
    shared: Arc<Shared>,
    repaint: Arc<dyn Fn() + Send + Sync>,
}

impl Host {
    /// A host serving `runtime` through `channels`, live or replaying.
    fn new(runtime: Runtime, channels: HostChannels, serving: Serving) -> Host {
        let project = runtime.project().map(|p| p.manifest.name.clone()).unwrap_or_default();
        let asset_dirs = Arc::new(runtime.project().map(|p| p.asset_dirs()).unwrap_or_default());
        let mods: Arc<Vec<String>> = Arc::new(runtime.mods().iter().map(|m| m.id().to_owned()).collect());
        let mod_rows = RefCell::new(Arc::new(runtime.mod_rows()));
        Host {
            runtime,
            commands: channels.commands,
            events: channels.events,
            shared: channels.shared,
            repaint: channels.repaint,
            project,
            frame: FrameBuilder::default(),
            inspect: RefCell::default(),
            history: RefCell::default(),
            state: Cell::new(RuntimeState::Running),
            error: RefCell::default(),
            break_requested: Cell::new(false),
            stopping_at_change: Cell::new(false),
            workbench: workbench::Workbench::default(),
            map_check: map_check::MapCheck::new(),
            play: PlaySession::default(),
            depth: Cell::new(0),
            waits: Cell::new(0),
            asset_dirs,
            mods,
            mod_rows,
            shutting_down: Cell::new(false),
            fault: RefCell::default(),
            failed: RefCell::default(),
            headless: matches!(serving, Serving::Headless),
            journal: journal::HostJournal::new(match &serving {
                Serving::Live { journal, .. } => journal.clone(),
                Serving::Headless => None,
            }),
            recordings: match serving {
                Serving::Live { recordings, .. } => recordings,
                Serving::Headless => None,
            },
            recorder: RefCell::default(),
            replaying: Cell::new(false),
            hotload_waiting: RefCell::default(),
        }
    }

    /// Records what REPL `code` changed since `before` (the world at `revision`) as one
    /// History entry, "REPL: <its first line>".
    fn record_repl_edit(&self, code: &str, revision: u64, before: &crate::game::world::WorldState) {
        let mut world = self.runtime.world_mut();
        if world.revision() == revision {
            return;
        }
        let (undo, redo) = crate::game::history::changes_since(before, &world);
        if redo.is_empty() {
            return;
        }
        let first = code.lines().map(str::trim).find(|line| !line.is_empty()).unwrap_or_default();
        let first: String = match first.chars().count() > 60 {
            true => format!("{}…", first.chars().take(60).collect::<String>()),
            false => first.to_owned(),
        };
        let entry = crate::game::history::Transaction::new(format!("REPL: {first}"), undo, redo);
        self.history.borrow_mut().record(&mut world, entry);
    }

    /// The next command; while something animates, gives up after a frame so animations
    /// advance (otherwise it sleeps until a command comes: no work when nothing changes).
    fn next_command(&self) -> Option<Command> {
        if self.replaying.get() {
            match self.next_replayed() {
                Some(command) => return Some(command),
                // A headless replay has no one else to ask: the recording ended mid-wait.
                None if self.headless => return Some(Command::Shutdown),
                // The recorded inputs ran out inside a menu: the player goes on from there.
                None => self.replaying.set(false),
            }
        }
        let animating =
            self.runtime.engine().gui.borrow().is_animating() || self.map_check_waiting() || self.hotload_waiting();
        let command = if animating {
            match self.commands.recv_timeout(FRAME) {
                Ok(command) => Some(command),
                Err(RecvTimeoutError::Timeout) => None,
                Err(RecvTimeoutError::Disconnected) => Some(Command::Shutdown),
            }
        } else {
            Some(self.commands.recv().unwrap_or(Command::Shutdown))
        };
        // A fresh command after idling: animations restart from now, not from the idle gap.
        if !animating {
            self.frame.last_update.set(Instant::now());
        }
        command
    }

    /// Carries out one command under the limits. A panic anywhere inside it (the command,
    /// a Lua callback, a nested command) is caught here: see [`Host::recover`].
    fn handle(&self, command: Command) {
        let since = u64::try_from(self.shared.started.elapsed().as_millis()).unwrap_or(u64::MAX).max(1);
        self.shared.busy_since.store(since, Ordering::Relaxed);
        let name = command.name();
        let checkpoint = self.checkpoint(&command);
        let look = self.look_after_stepping_back(&command);
        if look.is_none() {
            self.record_command(&command);
        }
        let limits = &self.runtime.engine().limits;
        let (started, waits) = (Instant::now(), self.waits.get());
        let operation = command.operation();
        let journaling = self.journal_before(&command);
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            limits.run(|| {
                let profiler = &self.runtime.engine().profiler;
                profiler.scope(
                    || crate::lua::profile::engine_work(&format!("command: {name}")),
                    || {
                        self.handle_timed(command);
                        self.deliver_watches(&operation);
                    },
                )
            })
        }));
        if self.depth.get() == 0 && self.waits.get() == waits {
            self.played(started.elapsed());
        }
        let journaled = journaling.is_some();
        if outcome.is_ok() {
            self.journal_after(journaling);
        }
        if let Some((code, revision)) = look {
            self.record_look(code, revision);
        }
        self.shared.busy_since.store(0, Ordering::Relaxed);
        *self.shared.progress.lock().unwrap_or_else(|e| e.into_inner()) = None;
        if let Err(payload) = outcome {
            self.recover(name, panic_message(payload.as_ref()), checkpoint);
            // What the command did before it panicked is in no log: the world as recovery
            // left it is where the journal goes on from.
            if journaled {
                self.rebase();
            }
        }
    }

    /// Tells the editor a command was not done.
    fn refuse(&self, kind: RefusalKind, message: impl Into<String>) {
        self.send(HostEvent::Refused(Refused::new(kind, message)));
    }

    /// Tells the editor a command was not done, and that `hint` would let it be: `message`
    /// ends with that action in words, and the frontend names its binding.
    fn refuse_hinting(&self, kind: RefusalKind, message: impl Into<String>, hint: Hint) {
        self.send(HostEvent::Refused(Refused::new(kind, message).hinting(hint)));
    }

    /// Sends an event to the editor; if the editor has gone there is no one to tell, and the
    /// serve loop ends at the next command.
    fn send(&self, event: HostEvent) {
        if self.events.send(event).is_err() {
            self.shutting_down.set(true);
        }
    }

    fn handle_timed(&self, command: Command) {
        let lua = self.runtime.lua();
        match command {
            Command::Eval { id, code } => {
                // While editing, what the code changes becomes one undoable edit. Code run at
                // a breakpoint belongs to the evaluation that paused.
                let editing = self.play.edit.borrow().is_none() && self.depth.get() == 0;
                let before = editing.then(|| {
                    let world = self.runtime.world();
                    (world.revision(), world.copy_state())
                });
                let result = repl::evaluate(lua, &code);
                if let Some((revision, before)) = before {
                    self.record_repl_edit(&code, revision, &before);
                }
                self.send(HostEvent::Evaluated { id, result });
            }
            Command::Input(input) => {
                if self.error.borrow().is_some() {
                    return;
                }
                if self.at_breakpoint() {
                    // The game's code is stopped mid-line: no key reaches it until it goes on.
                    self.refuse_hinting(
                        RefusalKind::Play,
                        "the game is stopped at a breakpoint: continue to go on",
                        Hint::Continue,
                    );
                    return;
                }
                let context = match &input {
                    Input::Key(key) => format!("key {key}"),
                    other => format!("{other:?}"),
                };
                let playing = self.play.edit.borrow().is_some() && !self.play.paused.get();
                let result = gui::handle_input(lua, &input).and_then(|handled| match (handled, &input) {
                    (false, Input::Key(key)) if playing => self.game_key(key),
                    _ => Ok(()),
                });
                if let Err(error) = result {
                    self.fail(GameError::new(context, &error));
                }
            }
            Command::Select(uids) => *self.runtime.engine().editor.selection.borrow_mut() = uids,
            Command::Inspect(uids) => *self.inspect.borrow_mut() = uids,
            Command::Edit(edit) => {
                let result = edit::apply(lua, &mut self.history.borrow_mut(), &edit);
                if let Err(error) = result {
                    self.refuse(RefusalKind::Edit, error.to_string());
                }
            }
            Command::Maps(command) => {
                if let Err(error) = self.maps(command) {
                    let refused = Refused::new(RefusalKind::Maps, error.to_string());
                    self.send(HostEvent::Refused(Refused { hint: error.hint(), ..refused }));
                }
            }
            Command::Copy { map, x, y, width, height } => {
                match crate::game::edit::copy_region(&self.runtime.world(), map, x, y, width, height) {
                    Ok(clip) => {
                        self.send(HostEvent::Copied(Arc::new(clip)));
                    }
                    Err(error) => {
                        self.refuse(RefusalKind::Edit, error.to_string());
                    }
                }
            }
            Command::Undo => {
                let undone = self.history.borrow_mut().undo(&mut self.runtime.world_mut());
                if undone.is_none() {
                    self.refuse(RefusalKind::NothingToDo, "nothing to undo");
                }
            }
            Command::Redo => {
                let redone = self.history.borrow_mut().redo(&mut self.runtime.world_mut());
                if redone.is_none() {
                    self.refuse(RefusalKind::NothingToDo, "nothing to redo");
                }
            }
            Command::Continue => {
                if !self.runtime.engine().repl.borrow_mut().resume() {
                    self.refuse(RefusalKind::NothingToDo, "nothing is paused");
                }
            }
            Command::Break => self.break_requested.set(true),
            Command::Play(from) => self.begin_play(from),
            Command::StopPlay => {
                if self.depth.get() > 0 {
                    // Lua code waits in a menu or a breakpoint: let it unwind first.
                    self.play.stop_pending.set(true);
                    self.shared.stop.store(true, Ordering::Relaxed);
                } else {
                    self.end_play();
                }
            }
            Command::PausePlay(paused) => self.play.paused.set(paused && self.play.edit.borrow().is_some()),
            Command::ListSaves => {
                let saves = crate::lua::save::list_saves(&self.runtime.engine().save_dir.borrow());
                self.send(HostEvent::Saves(saves));
            }
            Command::StepTurn => {
                if self.play.edit.borrow().is_none() {
                    self.refuse(RefusalKind::Play, "Step works while playing");
                } else if let Err(error) = crate::lua::event::trigger(
                    lua,
                    Symbol::intern("base.on_wait_turn"),
                    mlua::Value::Nil,
                    lua.create_table().expect("a table"),
                ) {
                    self.fail(GameError::new("step".into(), &error));
                }
            }
            Command::Stop => {}
            Command::Resume => {
                self.error.take();
            }
            Command::Reload(path) => self.reload(&path),
            Command::Hotload { file, text } => {
                if let Some(reload) = hotload::reload_recorded(lua, &file, &text) {
                    self.reloaded(reload);
                }
            }
            Command::StepBack => self.step_back(),
            Command::StepForward => self.step_forward(),
            Command::GoToTurn(mark) => self.go_to_mark(mark),
            Command::OpenRecording(path) => self.open_recording(&path),
            Command::ReloadMod(id) => {
                let known = self.runtime.mods().iter().any(|m| m.id() == id);
                if !known {
                    self.refuse(RefusalKind::UnknownMod, format!("no mod '{id}' is loaded"));
                }
                for path in hotload::loaded_files_of(lua, &id) {
                    self.reload(&path);
                }
            }
            Command::SetModEnabled { id, enabled } => self.enable_mod(&id, enabled),
            Command::RescanMods => self.rescan_mods(),
            Command::NewMod(id) => self.new_mod(&id),
            Command::Complete { id, text } => {
                let candidates = repl::complete(lua, &text);
                self.send(HostEvent::Completions { id, candidates });
            }
            Command::SetLimits { time, memory } => self.runtime.engine().limits.set(lua, time, memory),
            Command::ShowSource { file, line } => {
                self.send(HostEvent::Source(repl::source_excerpt(lua, &file, line)));
            }
            Command::Workbench(command) => self.workbench(command),
            Command::Recover(recover) => self.answer_recovery(recover),
            command @ (Command::Watch { .. }
            | Command::Unwatch(_)
            | Command::EnableWatch { .. }
            | Command::FindChanges { .. }
            | Command::GoToChange { .. }
            | Command::SetProfiling(_)
            | Command::ClearProfile) => self.debugging(command),
            Command::Sync { id } => self.send(HostEvent::Synced { id }),
            Command::Shutdown => {
                self.shutting_down.set(true);
                self.close_journal();
            }
        }
    }

    /// Stops the game on the error screen: uncaught in game logic. (Not when the failure is
    /// play being stopped under the code's feet.)
    fn fail(&self, error: GameError) {
        if self.play.stop_pending.get() {
            return;
        }
        gui::log(self.runtime.lua(), LogLevel::Error, error.to_string());
        *self.error.borrow_mut() = Some(error);
    }
}
