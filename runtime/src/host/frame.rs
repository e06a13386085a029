//! Building the [`Snapshot`] the editor draws after every command: the map view and the
//! Locations tree (rebuilt only when the world changed), the HUD and UI layers, the panes'
//! data.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::Instant;

use std::cell::{Cell, RefCell};

use super::{Host, panic_message};
use crate::game::display::LogLevel;
use crate::game::location::Location;
use crate::host::view::{self, RuntimeState, Snapshot};
use crate::host::view::{LocationTreeBuilder, MapViewBuilder};
use crate::lua::gui;

/// The views of the world built for a snapshot, with the revision they were built at.
#[derive(Default)]
pub(super) struct BuiltViews {
    /// The world revision (0: never built).
    revision: u64,
    /// The current map's view.
    map: Option<Arc<view::MapView>>,
    /// The Locations tree.
    pub(super) locations: Arc<view::LocationTree>,
}

/// What the host builds snapshots with: the builders that reuse what did not change, and the
/// views built last.
pub(super) struct FrameBuilder {
    pub(super) maps: RefCell<MapViewBuilder>,
    pub(super) locations: RefCell<LocationTreeBuilder>,
    /// The views last built from the world, reused while it does not change.
    pub(super) built: RefCell<BuiltViews>,
    /// When animations were last advanced.
    pub(super) last_update: Cell<Instant>,
    /// The number of the last snapshot.
    pub(super) serial: Cell<u64>,
}

impl Default for FrameBuilder {
    fn default() -> FrameBuilder {
        FrameBuilder {
            maps: RefCell::default(),
            locations: RefCell::default(),
            built: RefCell::default(),
            last_update: Cell::new(Instant::now()),
            serial: Cell::new(0),
        }
    }
}

impl Host {
    /// Advances animations and publishes a new snapshot. A panic while building it is
    /// caught: it is reported, and the previous snapshot is published again with the fault.
    pub(super) fn publish(&self) {
        if self.headless {
            return;
        }
        let profiler = self.runtime.engine().profiler();
        let built = profiler.scope(
            || crate::lua::profile::engine_work("snapshot for the editor"),
            || catch_unwind(AssertUnwindSafe(|| self.publish_snapshot())),
        );
        let Err(payload) = built else { return };
        let message =
            format!("the runtime caught a panic while building the view: {}", panic_message(payload.as_ref()));
        gui::log(self.runtime.lua(), LogLevel::Error, message.clone());
        *self.fault.borrow_mut() = Some(message.clone());
        let mut shared = self.shared.snapshot.lock().unwrap_or_else(|e| e.into_inner());
        let mut snapshot = Snapshot::clone(&shared);
        snapshot.serial += 1;
        snapshot.fault = Some(message);
        *shared = Arc::new(snapshot);
        drop(shared);
        (self.repaint)();
    }

    fn publish_snapshot(&self) {
        let lua = self.runtime.lua();
        let now = Instant::now();
        let dt = now.duration_since(self.frame.last_update.get()).as_secs_f32().min(0.1);
        self.frame.last_update.set(now);
        let limits = self.runtime.engine().limits();
        let stopped = self.debug.stopped();
        // Widgets animate on the wall clock: what they read of it is not the game's input.
        let engine = self.runtime.engine();
        let mode = std::mem::take(&mut engine.session_mut().mode);
        let animating = match stopped {
            true => false,
            false => limits.run_deaf_to_stop(|| gui::update_all(lua, dt)).unwrap_or_else(|error| {
                self.fail(error);
                false
            }),
        };
        engine.session_mut().mode = mode;
        let revision = self.runtime.world().revision();
        if self.frame.built.borrow().revision != revision {
            let world = self.runtime.world();
            let map = self.frame.maps.borrow_mut().build(&world);
            let engine = self.runtime.engine();
            let tree = self.frame.locations.borrow_mut().build(&world, |uid| engine.is_held_by_script(uid));
            *self.frame.built.borrow_mut() = BuiltViews { revision, map, locations: Arc::new(tree) };
        }
        let (map, locations) = {
            let built = self.frame.built.borrow();
            (built.map.clone(), built.locations.clone())
        };
        let serial = self.frame.serial.get() + 1;
        self.frame.serial.set(serial);
        let world = self.runtime.world();
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
        let debug = self.debug.view(&self.cx());
        let snapshot = Snapshot {
            serial,
            state: if debug.error.is_some() { RuntimeState::Error } else { self.state.get() },
            project: self.project.clone(),
            project_dir: self.project_dir.clone(),
            problem: None,
            fault: self.fault.borrow().clone(),
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
            editing: self.editing.view(&self.cx()),
            play: self.play.view(&self.cx()),
            debug,
            mods: self.mods.view(&self.cx()),
            maps: self.maps.view(&self.cx(), self.play.set_aside(), self.may_check_maps()),
            preview: self.workbench.view(),
        };
        *self.shared.snapshot.lock().unwrap_or_else(|e| e.into_inner()) = Arc::new(snapshot);
        (self.repaint)();
    }
}
