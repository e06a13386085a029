//! The runtime thread and its protocol (DESIGN.md, "the one hard constraint").
//!
//! The world and the Lua state live on one thread, which serves [`Command`]s from the editor
//! and publishes [`Snapshot`]s and [`Event`]s back. Lua calls that block — a UI layer's
//! `query()` — run the same serve loop nested (through [`Frontend`]), so the editor stays
//! live: it repaints, the log streams, and other panes' commands are answered while a script
//! waits. The editor never holds the Lua state; it renders the latest snapshot.

use std::cell::{Cell, RefCell};
use std::path::PathBuf;
use std::rc::Rc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam_channel::{Receiver, RecvTimeoutError, Sender};
use mlua::Lua;

use crate::edit::{self, Edit, History};
use crate::lua::gui::{self, Frontend, WaitReason};
use crate::lua::{LuaFailure, Output};
use crate::object::Uid;
use crate::runtime::{Evaluation, Runtime};
use crate::symbol::Symbol;
use crate::ui::{Input, LogLevel, LogLine};
use crate::view::{self, LocationTreeBuilder, MapViewBuilder, RuntimeState, Snapshot};

/// How often animations advance while something animates.
const FRAME: Duration = Duration::from_millis(16);

/// A request from the editor to the runtime thread.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Evaluate REPL input; the answer comes back as [`Event::Evaluated`] with the same id.
    Eval {
        /// Matches the answer to the request.
        id: u64,
        /// Lua code: an expression or statements.
        code: String,
    },
    /// Input for the top UI layer, or the game when no layer is open.
    Input(Input),
    /// Select these objects (what `Editor.selection()` returns).
    Select(Vec<Uid>),
    /// Send these objects' details in the snapshots (the inspector's selection and pinned
    /// tabs).
    Inspect(Vec<Uid>),
    /// Make an edit, recorded for undo; a refusal comes back as [`Event::Refused`].
    Edit(Edit),
    /// Undo the last edit.
    Undo,
    /// Redo the last undone edit.
    Redo,
    /// Stop the runtime thread.
    Shutdown,
}

/// Something the runtime thread tells the editor.
#[derive(Clone, Debug, PartialEq)]
pub enum Event {
    /// `print` output, a message or a log line, in the order they happened.
    Output(Output),
    /// An edit was refused or failed; nothing changed. The text says why.
    Refused(String),
    /// The answer to [`Command::Eval`].
    Evaluated {
        /// The request's id.
        id: u64,
        /// What came of it.
        result: Evaluation,
    },
}

/// State shared between the two threads.
struct Shared {
    snapshot: Mutex<Arc<Snapshot>>,
    /// Milliseconds since `started` when the current command began; 0 when idle.
    busy_since: AtomicU64,
    started: Instant,
}

/// The editor's end of the runtime thread.
pub struct HostHandle {
    commands: Sender<Command>,
    events: Receiver<Event>,
    shared: Arc<Shared>,
    thread: Option<JoinHandle<()>>,
}

/// How to start the runtime thread.
pub struct HostConfig {
    /// The project folder to open.
    pub project: PathBuf,
    /// Called (from the runtime thread) whenever there is something new to show.
    pub repaint: Arc<dyn Fn() + Send + Sync>,
}

impl HostHandle {
    /// Starts the runtime thread on `config.project`.
    pub fn spawn(config: HostConfig) -> HostHandle {
        let (commands, command_rx) = crossbeam_channel::unbounded();
        let (event_tx, events) = crossbeam_channel::unbounded();
        let name = config.project.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let shared = Arc::new(Shared {
            snapshot: Mutex::new(Arc::new(Snapshot::empty(&name))),
            busy_since: AtomicU64::new(0),
            started: Instant::now(),
        });
        let thread_shared = shared.clone();
        let thread = std::thread::Builder::new()
            .name("nefia runtime".into())
            .spawn(move || run(config, thread_shared, command_rx, event_tx))
            .expect("the runtime thread starts");
        HostHandle { commands, events, shared, thread: Some(thread) }
    }

    /// Sends a command (ignored if the runtime thread has ended).
    pub fn send(&self, command: Command) {
        let _ = self.commands.send(command);
    }

    /// The latest snapshot.
    pub fn snapshot(&self) -> Arc<Snapshot> {
        self.shared.snapshot.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Events that arrived since the last call, in order.
    pub fn events(&self) -> Vec<Event> {
        self.events.try_iter().collect()
    }

    /// How long the runtime has been busy with the current command (None when idle).
    pub fn busy_for(&self) -> Option<Duration> {
        let since = self.shared.busy_since.load(Ordering::Relaxed);
        (since != 0).then(|| self.shared.started.elapsed().saturating_sub(Duration::from_millis(since)))
    }
}

impl Drop for HostHandle {
    fn drop(&mut self) {
        self.send(Command::Shutdown);
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// The runtime thread's state.
struct Host {
    runtime: Runtime,
    commands: Receiver<Command>,
    events: Sender<Event>,
    shared: Arc<Shared>,
    repaint: Arc<dyn Fn() + Send + Sync>,
    project: String,
    maps: RefCell<MapViewBuilder>,
    locations: RefCell<LocationTreeBuilder>,
    /// The world revision the map view and tree were built at, and what was built.
    built: RefCell<(u64, Option<Arc<view::MapView>>, Arc<view::LocationTree>)>,
    inspect: RefCell<Vec<Uid>>,
    history: RefCell<History>,
    state: Cell<RuntimeState>,
    last_update: Cell<Instant>,
    serial: Cell<u64>,
    data_revision: Cell<u64>,
    data: RefCell<Arc<Vec<view::DataTypeView>>>,
    asset_dirs: Arc<Vec<PathBuf>>,
    shutting_down: Cell<bool>,
}

fn run(config: HostConfig, shared: Arc<Shared>, commands: Receiver<Command>, events: Sender<Event>) {
    let sink_events = events.clone();
    let sink_repaint = config.repaint.clone();
    let sink = Box::new(move |output: Output| {
        let _ = sink_events.send(Event::Output(output));
        sink_repaint();
    });
    let opened = Runtime::open_project(&config.project, sink).and_then(|mut runtime| {
        runtime.start_game()?;
        Ok(runtime)
    });
    let runtime = match opened {
        Ok(runtime) => runtime,
        Err(error) => return serve_failure(&config, &shared, &commands, &events, error.to_string()),
    };
    let project = runtime.project().map(|p| p.manifest.name.clone()).unwrap_or_default();
    let asset_dirs = Arc::new(runtime.project().map(|p| p.asset_dirs()).unwrap_or_default());
    let host = Rc::new(Host {
        runtime,
        commands,
        events,
        shared,
        repaint: config.repaint,
        project,
        maps: RefCell::default(),
        locations: RefCell::default(),
        built: RefCell::new((0, None, Arc::default())),
        inspect: RefCell::default(),
        history: RefCell::default(),
        state: Cell::new(RuntimeState::Running),
        last_update: Cell::new(Instant::now()),
        serial: Cell::new(0),
        data_revision: Cell::new(u64::MAX),
        data: RefCell::default(),
        asset_dirs,
        shutting_down: Cell::new(false),
    });
    gui::set_frontend(host.runtime.lua(), Some(host.clone()));
    host.publish();
    while !host.shutting_down.get() {
        if let Some(command) = host.next_command() {
            host.handle(command);
        }
        host.publish();
    }
    gui::set_frontend(host.runtime.lua(), None);
}

/// Publishes the reason the project could not be opened and waits for shutdown.
fn serve_failure(
    config: &HostConfig,
    shared: &Shared,
    commands: &Receiver<Command>,
    events: &Sender<Event>,
    problem: String,
) {
    let mut snapshot = Snapshot::empty(&config.project.display().to_string());
    snapshot.state = RuntimeState::Failed;
    snapshot.problem = Some(problem.clone());
    *shared.snapshot.lock().unwrap_or_else(|e| e.into_inner()) = Arc::new(snapshot);
    let _ = events.send(Event::Output(Output::Log(LogLine { level: LogLevel::Error, text: problem })));
    (config.repaint)();
    for command in commands.iter() {
        match command {
            Command::Shutdown => return,
            Command::Eval { id, .. } => {
                let failure = LuaFailure { message: "the project is not open".into(), traceback: String::new() };
                let _ = events.send(Event::Evaluated { id, result: Evaluation::Error(failure) });
            }
            Command::Input(_)
            | Command::Select(_)
            | Command::Inspect(_)
            | Command::Edit(_)
            | Command::Undo
            | Command::Redo => {}
        }
    }
}

impl Host {
    /// The next command; while something animates, gives up after a frame so animations
    /// advance (otherwise it sleeps until a command comes: no work when nothing changes).
    fn next_command(&self) -> Option<Command> {
        let animating = self.runtime.engine().gui.borrow().is_animating();
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
            self.last_update.set(Instant::now());
        }
        command
    }

    fn handle(&self, command: Command) {
        let lua = self.runtime.lua();
        self.shared.busy_since.store(self.shared.started.elapsed().as_millis().max(1) as u64, Ordering::Relaxed);
        match command {
            Command::Eval { id, code } => {
                let result = self.runtime.eval(&code);
                let _ = self.events.send(Event::Evaluated { id, result });
            }
            Command::Input(input) => {
                let result = gui::handle_input(lua, &input).and_then(|handled| match (handled, &input) {
                    (false, Input::Key(key)) => self.game_key(key),
                    _ => Ok(()),
                });
                if let Err(error) = result {
                    gui::log(lua, LogLevel::Error, LuaFailure::from(error).to_string());
                }
            }
            Command::Select(uids) => *self.runtime.engine().selection.borrow_mut() = uids,
            Command::Inspect(uids) => *self.inspect.borrow_mut() = uids,
            Command::Edit(edit) => {
                let result = edit::apply(lua, &mut self.history.borrow_mut(), &edit);
                if let Err(error) = result {
                    let _ = self.events.send(Event::Refused(error.to_string()));
                }
            }
            Command::Undo => {
                let undone = self.history.borrow_mut().undo(&mut self.runtime.world_mut());
                if undone.is_none() {
                    let _ = self.events.send(Event::Refused("nothing to undo".into()));
                }
            }
            Command::Redo => {
                let redone = self.history.borrow_mut().redo(&mut self.runtime.world_mut());
                if redone.is_none() {
                    let _ = self.events.send(Event::Refused("nothing to redo".into()));
                }
            }
            Command::Shutdown => self.shutting_down.set(true),
        }
        self.shared.busy_since.store(0, Ordering::Relaxed);
    }

    /// A key with no UI layer open goes to the game: `base.on_key_pressed`.
    fn game_key(&self, key: &str) -> mlua::Result<()> {
        let lua = self.runtime.lua();
        let params = lua.create_table()?;
        params.set("key", key)?;
        crate::lua::event::trigger(lua, Symbol::intern("base.on_key_pressed"), mlua::Value::Nil, params)?;
        Ok(())
    }

    /// Advances animations and publishes a new snapshot.
    fn publish(&self) {
        let lua = self.runtime.lua();
        let now = Instant::now();
        let dt = now.duration_since(self.last_update.get()).as_secs_f32().min(0.1);
        self.last_update.set(now);
        let animating = gui::update_all(lua, dt);
        let revision = self.runtime.world().revision();
        if self.built.borrow().0 != revision {
            let world = self.runtime.world();
            let map = self.maps.borrow_mut().build(&world);
            let engine = self.runtime.engine();
            let tree = self.locations.borrow_mut().build(&world, |uid| engine.is_held_by_script(uid));
            *self.built.borrow_mut() = (revision, map, Arc::new(tree));
        }
        let (map, locations) = {
            let built = self.built.borrow();
            (built.1.clone(), built.2.clone())
        };
        let world = self.runtime.world();
        if world.data.revision() != self.data_revision.get() {
            self.data_revision.set(world.data.revision());
            *self.data.borrow_mut() = Arc::new(view::data_view(&world.data));
        }
        let serial = self.serial.get() + 1;
        self.serial.set(serial);
        let date = world.clock.date();
        let maps = view::map_summaries(&world);
        let inspected = self.inspect.borrow().iter().filter_map(|&uid| view::object_details(&world, uid)).collect();
        let selection = self.runtime.engine().selection.borrow().clone();
        let player = world.player();
        let turn = world.turn;
        drop(world);
        let snapshot = Snapshot {
            serial,
            state: self.state.get(),
            project: self.project.clone(),
            problem: None,
            turn,
            date: format!("{}/{:02}/{:02} {:02}:{:02}", date.year, date.month, date.day, date.hour, date.minute),
            map,
            maps,
            widgets: gui::widget_views(lua),
            map_layers: gui::map_layer_draws(lua),
            layers: gui::layer_views(lua),
            animating,
            selection,
            inspected,
            locations,
            history: self.history.borrow().view(),
            player,
            data: self.data.borrow().clone(),
            asset_dirs: self.asset_dirs.clone(),
        };
        *self.shared.snapshot.lock().unwrap_or_else(|e| e.into_inner()) = Arc::new(snapshot);
        (self.repaint)();
    }
}

impl Frontend for Host {
    fn wait(&self, _lua: &Lua, reason: WaitReason, done: &dyn Fn() -> bool) -> mlua::Result<()> {
        let outer = self.state.replace(match reason {
            WaitReason::Query => RuntimeState::InQuery,
        });
        // Not busy while waiting for the player.
        let busy = self.shared.busy_since.swap(0, Ordering::Relaxed);
        self.publish();
        let result = loop {
            if done() {
                break Ok(());
            }
            if self.shutting_down.get() {
                break Err(mlua::Error::runtime("the editor is closing"));
            }
            if let Some(command) = self.next_command() {
                self.handle(command);
            }
            self.publish();
        };
        self.state.set(outer);
        self.shared.busy_since.store(busy, Ordering::Relaxed);
        result
    }
}
