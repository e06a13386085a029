//! Building the [`Snapshot`] the editor draws after every command: the map view and the
//! Locations tree (rebuilt only when the world changed), the HUD and UI layers, the panes'
//! data.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::time::Instant;

use super::{BuiltViews, Host, panic_message};
use crate::game::display::LogLevel;
use crate::game::location::Location;
use crate::host::view::{self, RuntimeState, Snapshot};
use crate::lua::gui;

impl Host {
    /// Advances animations and publishes a new snapshot. A panic while building it is
    /// caught: it is reported, and the previous snapshot is published again with the fault.
    pub(super) fn publish(&self) {
        if self.headless {
            return;
        }
        let profiler = &self.runtime.engine().profiler;
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
        let limits = &self.runtime.engine().limits;
        let stopped = self.error.borrow().is_some();
        // Widgets animate on the wall clock: what they read of it is not the game's input.
        let session = &self.runtime.engine().session;
        let mode = std::mem::take(&mut session.borrow_mut().mode);
        let animating = match stopped {
            true => false,
            false => limits.run_deaf_to_stop(|| gui::update_all(lua, dt)).unwrap_or_else(|error| {
                self.fail(error);
                false
            }),
        };
        session.borrow_mut().mode = mode;
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
        let world = self.runtime.world();
        if world.data.revision() != self.frame.data_revision.get() {
            self.frame.data_revision.set(world.data.revision());
            *self.frame.data.borrow_mut() = Arc::new(view::data_view(&world.data));
        }
        let serial = self.frame.serial.get() + 1;
        self.frame.serial.set(serial);
        let date = world.clock.date();
        let maps = view::map_summaries(&world);
        let own_events = self.runtime.engine().object_events.borrow();
        let inspected = self
            .inspect
            .borrow()
            .iter()
            .filter_map(|&uid| view::object_details(&world, uid))
            .map(|mut details| {
                details.own_handlers = own_events.listing(details.uid, details.id);
                details
            })
            .collect();
        drop(own_events);
        let selection = self.runtime.engine().editor.selection.borrow().clone();
        let player = world.player();
        let player_at = player.and_then(|uid| {
            let object = world.object(uid).ok()?;
            let on_current = world.current_map().is_some_and(|map| object.location() == Some(Location::Map(map)));
            on_current.then_some((object.x, object.y))
        });
        let turn = world.turn;
        let mut map_files = match self.runtime.project() {
            Some(project) => self.runtime.maps().views(&world, &project),
            None => Vec::new(),
        };
        // While playing, the marks are the edit state's: playing changes no map file.
        if let Some(edit) = self.play.edit.borrow().as_ref() {
            for view in &mut map_files {
                view.dirty = view.map.is_some() && edit.was_dirty(&view.name);
            }
        }
        drop(world);
        let error = self.error.borrow().clone();
        let (widgets, map_layers, layers) =
            limits.run_deaf_to_stop(|| (gui::widget_views(lua), gui::map_layer_draws(lua), gui::layer_views(lua)));
        let engine = self.runtime.engine();
        let snapshot = Snapshot {
            serial,
            state: if error.is_some() { RuntimeState::Error } else { self.state.get() },
            project: self.project.clone(),
            problem: None,
            turn,
            date: date.to_string(),
            map,
            maps,
            widgets,
            map_layers,
            layers,
            animating,
            selection,
            selections_by_script: engine.editor.selections_by_script.get(),
            inspected,
            locations,
            history: self.history.borrow().view(),
            player,
            player_at,
            data: self.frame.data.borrow().clone(),
            asset_dirs: self.asset_dirs.clone(),
            mods: self.mods.clone(),
            mod_rows: self.mod_rows.borrow().clone(),
            map_files,
            pause: engine.repl.borrow().pause_view(),
            error,
            fault: self.fault.borrow().clone(),
            break_requested: self.break_requested.get(),
            playing: self.play.edit.borrow().is_some(),
            recording: self.recording_position(),
            play_paused: self.play.paused.get(),
            limits: view::LimitsView {
                time: engine.limits.time(),
                memory: engine.limits.memory(),
                used: lua.used_memory(),
            },
            watches: view::watch_views(&self.runtime.world()),
            profile: self.profile_view(),
            preview: self.preview_view(),
            map_problems: self.map_problems_view(),
            recovery: self.recovery_offer(),
        };
        *self.shared.snapshot.lock().unwrap_or_else(|e| e.into_inner()) = Arc::new(snapshot);
        (self.repaint)();
    }
}

impl Host {
    /// The profiler's state for the snapshot; its turns are copied only when one was added.
    fn profile_view(&self) -> view::ProfileView {
        let profiler = &self.runtime.engine().profiler;
        let mut sent = self.frame.profile.borrow_mut();
        if sent.0 != profiler.revision() {
            *sent = (profiler.revision(), Arc::new(profiler.turns()));
        }
        view::ProfileView { on: profiler.is_on(), turns: sent.1.clone() }
    }
}
