//! Building the [`Snapshot`] the editor draws after every command: the map view and the
//! Locations tree (rebuilt only when the world changed), the HUD and UI layers, and the
//! panes' data, which the spine has each subsystem build ([`Panes`]).

use std::cell::{Cell, RefCell};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use super::cx::Cx;
use super::frontend::Waits;
use super::recovery::Recovery;
use super::{Shared, panic_message};
use nefia_game::location::Location;
use nefia_lua::gui::{self, WaitReason};
use nefia_lua::runtime::Runtime;
use nefia_protocol::debugging::DebugView;
use nefia_protocol::editing::EditingView;
use nefia_protocol::failure::GameError;
use nefia_protocol::maps::MapsView;
use nefia_protocol::mods::ModsView;
use nefia_protocol::play::PlayView;
use nefia_protocol::view;
use nefia_protocol::view::{LocationTreeBuilder, MapViewBuilder};
use nefia_protocol::view::{RuntimeState, Snapshot};
use nefia_protocol::workbench::PreviewView;

/// The views of the world built for a snapshot, with the revision they were built at.
#[derive(Default)]
pub(super) struct BuiltViews {
    /// The world revision (0: never built).
    revision: u64,
    /// The current map's view.
    map: Option<Arc<view::MapView>>,
    /// The Locations tree.
    locations: Arc<view::LocationTree>,
}

/// What the host builds snapshots with: the project they name, the builders that reuse what
/// did not change, and the views built last.
pub(super) struct FrameBuilder {
    /// The project's name (also what a failure is served under, see `serve.rs`).
    pub(super) project: String,
    /// The project's folder.
    project_dir: PathBuf,
    maps: RefCell<MapViewBuilder>,
    locations: RefCell<LocationTreeBuilder>,
    /// The views last built from the world, reused while it does not change.
    built: RefCell<BuiltViews>,
    /// When animations were last advanced.
    pub(super) last_update: Cell<Instant>,
    /// The number of the last snapshot.
    serial: Cell<u64>,
}

/// The subsystems' parts of a snapshot, each built by its subsystem's view.
pub(super) struct Panes {
    /// The editing subsystem's part.
    pub(super) editing: EditingView,
    /// The play subsystem's part.
    pub(super) play: PlayView,
    /// The debugging subsystem's part.
    pub(super) debug: DebugView,
    /// The mods subsystem's part.
    pub(super) mods: ModsView,
    /// The maps subsystem's part.
    pub(super) maps: MapsView,
    /// The workbench's preview.
    pub(super) preview: Option<PreviewView>,
}

/// What the spine hands the frame builder for one snapshot: its own parts, what it needs of
/// the debugging subsystem by name, and the subsystems' parts to build once the widgets were
/// advanced (so they show what the update did).
pub(super) struct Parts<'a> {
    /// Where the snapshot is published for the frontend.
    pub(super) shared: &'a Shared,
    /// The last panic caught, and where a panic while building the snapshot is noted.
    pub(super) recovery: &'a Recovery,
    /// The waits in progress: the runtime runs, is in a `query()` or is paused.
    pub(super) waits: &'a Waits,
    /// The game is stopped on the error screen: widgets do not animate.
    pub(super) stopped: bool,
    /// Stops the game on the error screen (a widget's update failed).
    pub(super) fail: &'a dyn Fn(GameError),
    /// Builds the subsystems' parts.
    pub(super) panes: &'a dyn Fn() -> Panes,
}

impl FrameBuilder {
    /// The snapshots of the project `runtime` opened (none: an empty name and folder).
    pub(super) fn new(runtime: &Runtime) -> FrameBuilder {
        FrameBuilder {
            project: runtime.project().map(|p| p.manifest.name.clone()).unwrap_or_default(),
            project_dir: runtime.project().map(|p| p.dir).unwrap_or_default(),
            maps: RefCell::default(),
            locations: RefCell::default(),
            built: RefCell::default(),
            last_update: Cell::new(Instant::now()),
            serial: Cell::new(0),
        }
    }

    /// Advances animations and publishes a new snapshot. A panic while building it is
    /// caught: it is reported, and the previous snapshot is published again with the fault.
    pub(super) fn publish(&self, cx: &Cx, parts: Parts) {
        let profiler = cx.runtime.engine().profiler();
        let built = profiler.scope(
            || nefia_lua::profile::engine_work("snapshot for the editor"),
            || catch_unwind(AssertUnwindSafe(|| self.publish_snapshot(cx, &parts))),
        );
        let Err(payload) = built else { return };
        let message =
            format!("the runtime caught a panic while building the view: {}", panic_message(payload.as_ref()));
        parts.recovery.note_fault(cx, message.clone());
        let mut shared = parts.shared.snapshot.lock().unwrap_or_else(|e| e.into_inner());
        let mut snapshot = Snapshot::clone(&shared);
        snapshot.serial += 1;
        snapshot.fault = Some(message);
        *shared = Arc::new(snapshot);
        drop(shared);
        (cx.repaint)();
    }

    /// Advances the widgets, then builds the snapshot and publishes it.
    fn publish_snapshot(&self, cx: &Cx, parts: &Parts) {
        let runtime = cx.runtime;
        let lua = runtime.lua();
        let now = Instant::now();
        let dt = now.duration_since(self.last_update.get()).as_secs_f32().min(0.1);
        self.last_update.set(now);
        let limits = runtime.engine().limits();
        // Widgets animate on the wall clock: what they read of it is not the game's input.
        let engine = runtime.engine();
        let mode = std::mem::take(&mut engine.session_mut().mode);
        let animating = match parts.stopped {
            true => false,
            false => limits.run_deaf_to_stop(|| gui::update_all(lua, dt)).unwrap_or_else(|error| {
                (parts.fail)(error);
                false
            }),
        };
        engine.session_mut().mode = mode;
        let revision = runtime.world().revision();
        if self.built.borrow().revision != revision {
            let world = runtime.world();
            let map = self.maps.borrow_mut().build(&world);
            let engine = runtime.engine();
            let tree = self.locations.borrow_mut().build(&world, |uid| engine.is_held_by_script(uid));
            *self.built.borrow_mut() = BuiltViews { revision, map, locations: Arc::new(tree) };
        }
        let (map, locations) = {
            let built = self.built.borrow();
            (built.map.clone(), built.locations.clone())
        };
        let serial = self.serial.get() + 1;
        self.serial.set(serial);
        let world = runtime.world();
        let date = world.clock.date();
        let maps = view::map_summaries(&world);
        let player = world.player();
        let player_at = player.and_then(|uid| {
            let object = world.object(uid).ok()?;
            let on_current = world.current_map().is_some_and(|map| object.location() == Some(Location::Map(map)));
            on_current.then_some((object.x, object.y))
        });
        let turn = world.turn;
        drop(world);
        let (widgets, map_layers, layers) =
            limits.run_deaf_to_stop(|| (gui::widget_views(lua), gui::map_layer_draws(lua), gui::layer_views(lua)));
        let Panes { editing, play, debug, mods, maps: maps_view, preview } = (parts.panes)();
        let snapshot = Snapshot {
            serial,
            state: match parts.waits.innermost() {
                _ if debug.error.is_some() => RuntimeState::Error,
                None => RuntimeState::Running,
                Some(WaitReason::Query) => RuntimeState::InQuery,
                Some(WaitReason::Pause) => RuntimeState::Paused,
            },
            project: self.project.clone(),
            project_dir: self.project_dir.clone(),
            problem: None,
            fault: parts.recovery.fault(),
            turn,
            date: date.to_string(),
            map,
            map_summaries: maps,
            widgets,
            map_layers,
            layers,
            animating,
            locations,
            player,
            player_at,
            editing,
            play,
            debug,
            mods,
            maps: maps_view,
            preview,
        };
        *parts.shared.snapshot.lock().unwrap_or_else(|e| e.into_inner()) = Arc::new(snapshot);
        (cx.repaint)();
    }
}
