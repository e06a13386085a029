//! # nefia_host — the runtime thread (ARCHITECTURE.md, "The spine")
//!
//! The world and the Lua state live on one thread, which serves [`Command`]s from a frontend
//! and publishes [`Snapshot`](nefia_protocol::view::Snapshot)s and [`HostEvent`]s back (see `serve.rs`). Lua calls that
//! block — a UI layer's `query()`, `pause()` — run the same serve loop nested (through
//! [`gui::Frontend`], see `frontend.rs`), so the frontend stays live while a script waits.
//!
//! This file is the spine. [`Host::handle`] is the one function every command goes through:
//! it takes the panic checkpoint, records play input, journals edits, times the command for
//! the profiler and delivers watches, so no change to the world can skip them. The command is
//! then routed to the subsystem that owns it — each a component in its folder with its own
//! state, its own command sub-enum and its part of the snapshot: [`editing`], [`play`],
//! [`debugging`], [`mods`], [`maps`] and [`workbench`]. A component's handler is a method of
//! its state given a [`cx::Cx`] and, by name, what it needs of the others; what it needs done
//! by another it returns as effects, which this file applies (play, which runs replayed
//! commands through this spine, calls back through [`play::Spine`], implemented here). This is
//! the only file with `impl Host`.

use std::cell::Cell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Instant;

use crossbeam_channel::{Receiver, Sender};

use nefia_game::display::LogLevel;
use nefia_lua::gui;
use nefia_lua::runtime::Runtime;
use nefia_protocol::failure::GameError;
use nefia_protocol::message::{Command, HostEvent};

mod attach;
pub mod check;
mod client;
mod cx;
pub mod debugging;
pub mod editing;
pub mod folders;
mod frame;
mod frontend;
pub mod fuzz;
pub mod generate;
mod handle;
pub mod maps;
pub mod mods;
pub mod play;
mod recovery;
pub mod remote;
pub mod seeds;
mod serve;
mod shared;
pub mod terminal;
pub mod type_defs;
pub mod workbench;

pub use attach::AttachError;
pub use client::{HostClient, HostConnector};
pub use handle::HostHandle;
pub use mods::QUIET;
pub use recovery::CHECKPOINT_BUDGET;
use recovery::panic_message;
pub(crate) use serve::{HostChannels, Serving};
pub use shared::HostConfig;
pub(crate) use shared::Shared;

/// A command that works on the project came when no project is open.
#[derive(Debug, thiserror::Error)]
#[error("no project is open")]
struct NoProject;

/// The runtime thread's state: the subsystems, and what connects them to the frontend.
struct Host {
    runtime: Runtime,
    commands: Receiver<Command>,
    events: Sender<HostEvent>,
    shared: Arc<Shared>,
    repaint: Arc<dyn Fn() + Send + Sync>,
    /// No frontend draws: nothing is published (a headless replay).
    headless: bool,
    /// What the snapshots are built with (see `frame.rs`).
    frame: frame::FrameBuilder,
    /// The `query()`/`pause()` waits in progress (see `frontend.rs`).
    waits: frontend::Waits,
    /// Edits, undo history, the inspector's objects, the edit journal (see `editing/`).
    editing: editing::Editing,
    /// The play session, its recording and step back (see `play/`).
    play: play::PlaySession,
    /// Breakpoints, the error screen, watches, the profiler, the REPL (see `debugging/`).
    debug: debugging::Debugging,
    /// The loaded mods, the Mods pane's list, hotloads waiting (see `mods/`).
    mods: mods::Mods,
    /// The generator workbench (see `workbench/`).
    workbench: workbench::Workbench,
    /// The maps subsystem: the map validators' findings (the files are the runtime's; see `maps/`).
    maps: maps::Maps,
    shutting_down: Cell<bool>,
    /// The last panic caught, and whether the runtime can go on (see `recovery.rs`).
    recovery: recovery::Recovery,
}

impl Host {
    /// A host serving `runtime` through `channels`, live or replaying.
    fn new(runtime: Runtime, channels: HostChannels, serving: Serving) -> Host {
        let headless = matches!(serving, Serving::Headless { .. });
        let (recordings, journal, reports) = match serving {
            Serving::Live { recordings, journal, reports } => (recordings, journal, reports),
            Serving::Headless { recordings } => (recordings, None, None),
        };
        Host {
            frame: frame::FrameBuilder::new(&runtime),
            mods: mods::Mods::new(&runtime),
            runtime,
            commands: channels.commands,
            events: channels.events,
            shared: channels.shared,
            repaint: channels.repaint,
            headless,
            waits: frontend::Waits::default(),
            editing: editing::Editing::new(journal),
            play: play::PlaySession::new(recordings, reports),
            debug: debugging::Debugging::default(),
            workbench: workbench::Workbench::default(),
            maps: maps::Maps::new(),
            shutting_down: Cell::new(false),
            recovery: recovery::Recovery::default(),
        }
    }

    /// Carries out one command under the limits — the spine every change goes through. A panic
    /// anywhere inside it (the command, a Lua callback, a nested command) is caught here: see
    /// [`recovery::Recovery::recover`].
    fn handle(&self, command: Command) {
        let since = u64::try_from(self.shared.started.elapsed().as_millis()).unwrap_or(u64::MAX).max(1);
        self.shared.busy_since.store(since, Ordering::Relaxed);
        let name = command.name();
        let checkpoint = self.recovery.checkpoint(&self.cx(), self.play.playing(), &command);
        if self.waits.depth() == 0 {
            // Lines are counted, and the command's recorded input noted, for stepping back.
            self.runtime.engine().debugger().command_begins();
            self.play.command_begins();
        }
        let look = self.play.look_after_stepping_back(&self.cx(), &command);
        if look.is_none() {
            self.play.record_command(&self.cx(), &command);
        }
        let limits = self.runtime.engine().limits();
        let (started, waits) = (Instant::now(), self.waits.begun());
        let operation = command.operation();
        let (journaling, asked) = self.editing.journal_before(&self.cx(), self.play.playing(), &command);
        self.apply_editing(asked);
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            limits.run(|| {
                let profiler = self.runtime.engine().profiler();
                profiler.scope(
                    || nefia_lua::profile::engine_work(&format!("command: {name}")),
                    || {
                        self.route(command);
                        debugging::Debugging::deliver_watches(&self.cx(), &operation);
                    },
                )
            })
        }));
        if self.waits.depth() == 0 && self.waits.begun() == waits {
            self.play.played(started.elapsed());
        }
        let journaled = journaling.is_some();
        if outcome.is_ok() {
            let asked = self.editing.journal_after(&self.cx(), self.play.playing(), journaling);
            self.apply_editing(asked);
        }
        if let Some((code, revision)) = look {
            self.play.record_look(&self.cx(), code, revision);
        }
        self.shared.busy_since.store(0, Ordering::Relaxed);
        *self.shared.progress.lock().unwrap_or_else(|e| e.into_inner()) = None;
        if let Err(payload) = outcome {
            // Recovery ends a played game the panic left inconsistent, putting the edit state back.
            let end_play = || {
                self.end_play();
            };
            let message = panic_message(payload.as_ref());
            self.recovery.recover(&self.cx(), self.play.playing(), &end_play, name, message, checkpoint);
            // What the command did before it panicked is in no log: the world as recovery
            // left it is where the journal goes on from.
            if journaled {
                self.rebase();
            }
        }
    }

    /// Routes a command to the subsystem that owns it.
    fn route(&self, command: Command) {
        match command {
            Command::Repl(command) => {
                let script_runs = |path, text| self.play.script_runs(path, text);
                let effects = self.debug.repl(&self.cx(), self.play.playing(), command, &script_runs);
                if let Some(edit) = effects.edit {
                    self.editing.record_repl_edit(&self.cx(), &edit.code, edit.revision, &edit.before);
                }
                if let Some((id, result)) = effects.evaluated {
                    self.play.answer_evaluation(&self.cx(), id, result);
                }
            }
            Command::Input(input) => {
                let effects = self.play.input(&self.cx(), &self.debug.stops, input);
                self.apply_play(effects);
            }
            Command::Editing(command) => {
                let effects = self.editing.handle(&self.cx(), &|c| self.route(c), &self.workbench, command);
                self.apply_editing(effects);
            }
            Command::Maps(command) => self.maps.handle(&self.cx(), self.play.set_aside(), command),
            Command::Play(command) => {
                let effects = self.play.handle(&self.cx(), &self.play_host(), &self.workbench, command);
                self.apply_play(effects);
            }
            Command::Debug(command) => self.debug.handle(&self.cx(), command),
            Command::Mods(command) => {
                let effects = self.mods.handle(&self.cx(), self.play.recording(), command);
                for input in &effects.record {
                    self.play.record_command(&self.cx(), input);
                }
                if effects.code_changed {
                    self.debug.stops.clear_error();
                    self.refresh_preview();
                }
            }
            Command::Workbench(command) => {
                let playing = self.play.playing();
                let found = self.workbench.handle(&self.cx(), playing, command);
                self.maps.check.record_some(found);
            }
            Command::Stop => {}
            Command::Sync { id } => self.send(HostEvent::Synced { id }),
            Command::Shutdown => {
                self.shutting_down.set(true);
                self.editing.close_journal();
            }
        }
    }

    /// Sends an event to the editor; if the editor has gone there is no one to tell, and the
    /// serve loop ends at the next command.
    fn send(&self, event: HostEvent) {
        self.cx().send(event);
    }

    /// What a subsystem that is a component is handed (see `cx.rs`).
    fn cx(&self) -> cx::Cx<'_> {
        cx::Cx::new(&self.runtime, &self.events, &self.shutting_down, &self.repaint, &self.waits)
    }

    /// Does what the editing subsystem asked: a new base for the edit journal.
    fn apply_editing(&self, effects: editing::EditingEffects) {
        if effects.rebase {
            self.rebase();
        }
    }

    /// Takes the world as it is now as the edit journal's base, with the workbench's preview.
    fn rebase(&self) {
        self.editing.rebase(&self.cx(), self.workbench.base());
    }

    /// Generates the workbench's preview again with the same seed (after a hotload), its
    /// validators' findings given to the maps subsystem.
    fn refresh_preview(&self) {
        let playing = self.play.playing();
        let found = self.workbench.refresh(&self.cx(), playing);
        self.maps.check.record_some(found);
    }

    /// The next command: while replaying, the recorded input; in a fuzzed game, its player's;
    /// otherwise the frontend's (see [`serve::receive`]).
    fn next_command(&self) -> Option<Command> {
        let fuzzed = self.play.player.try_borrow().map_or(true, |player| player.is_some());
        if self.play.replaying() {
            match self.play.next_replayed(&self.cx()) {
                Some(command) => return Some(command),
                // A headless replay has no one else to ask: the recording ended mid-wait.
                None if self.headless && !fuzzed => return Some(Command::Shutdown),
                // The recorded inputs ran out inside a menu: the player goes on from there.
                None => self.play.stop_replaying(),
            }
        }
        // A fuzzed game's player answers every wait, top-level or nested, itself (a step
        // back's replay answers its own from the recorded inputs, above).
        match self.play.player.try_borrow_mut() {
            Ok(mut player) => {
                if let Some(player) = player.as_mut() {
                    return Some(player(self));
                }
            }
            // The player's own checks (Lua invariants) waited for input: there is none.
            Err(_) => return Some(Command::Shutdown),
        }
        let animating = self.runtime.engine().gui().is_animating()
            || self.maps.check.waiting(&self.cx(), self.may_check_maps())
            || self.mods.hotload_waiting();
        let command = serve::receive(&self.commands, animating);
        // A fresh command after idling: animations restart from now, not from the idle gap.
        if !animating {
            self.frame.last_update.set(Instant::now());
        }
        command
    }

    /// Advances animations and publishes a new snapshot with each subsystem's part (see
    /// `frame.rs`); headless, no one draws it.
    fn publish(&self) {
        if self.headless {
            return;
        }
        let panes = || frame::Panes {
            debug: self.debug.view(&self.cx()),
            editing: self.editing.view(&self.cx()),
            play: self.play.view(&self.cx()),
            mods: self.mods.view(&self.cx()),
            maps: self.maps.view(&self.cx(), self.play.set_aside(), self.may_check_maps()),
            preview: self.workbench.view(),
        };
        let parts = frame::Parts {
            shared: &self.shared,
            recovery: &self.recovery,
            waits: &self.waits,
            stopped: self.debug.stops.on_error_screen(),
            fail: &|error| self.fail(error),
            panes: &panes,
        };
        self.frame.publish(&self.cx(), parts);
    }

    /// Whether the map validators may run now: not headless, not while playing, paused or on
    /// the error screen.
    fn may_check_maps(&self) -> bool {
        !self.headless && !self.play.playing() && self.waits.depth() == 0 && !self.debug.stops.on_error_screen()
    }

    /// The serve loop's step (`serve.rs`, a fuzzed game's): serves the next top-level command,
    /// if one comes; a step back it asked for replays once its code has unwound, then the turn
    /// is marked (a command unwound to be replayed is marked once it was). Then play ends if
    /// Stop or `Play.quit()` asked, the code that was running having unwound; returns where
    /// the session's recording was written, if it was. (A wait serves commands nested with
    /// none of this: see `frontend.rs`.)
    fn serve_next(&self) -> Option<std::path::PathBuf> {
        if let Some(command) = self.next_command() {
            self.handle(command);
            self.play.rewind_if_asked(&self.cx(), &self.play_host());
            let profiler = self.runtime.engine().profiler();
            profiler.scope(|| nefia_lua::profile::engine_work("recording"), || self.play.mark_turn(&self.cx()));
        }
        let effects = self.play.finish_play_if_asked(&self.cx(), &self.debug.stops);
        self.apply_play(effects)
    }

    /// Starts playing from `from`; a failure leaves the edit state as it was (and is refused).
    fn begin_play(&self, from: nefia_protocol::play::PlayFrom) {
        let effects = self.play.begin_play(&self.cx(), &self.workbench, from);
        self.apply_play(effects);
    }

    /// Stops playing and puts the edit state back; returns where the session's recording
    /// was written, if it was.
    fn end_play(&self) -> Option<std::path::PathBuf> {
        let effects = self.play.end_play(&self.cx(), &self.debug.stops);
        self.apply_play(effects)
    }

    /// What play is lent while it replays (see `play.rs`): this spine, and the debugging
    /// component's error screen and break request.
    fn play_host(&self) -> play::PlayHost<'_> {
        play::PlayHost { spine: self, stops: &self.debug.stops }
    }

    /// Does what play asked: the undo history aside at Play and back at Stop, the Stop flag
    /// raised, the error screen; returns where an ended session's recording was written.
    fn apply_play(&self, effects: play::PlayEffects) -> Option<std::path::PathBuf> {
        if effects.began {
            self.editing.set_history_aside();
        }
        if effects.ended {
            self.editing.put_history_back();
        }
        if effects.stop {
            self.shared.stop.store(true, Ordering::Relaxed);
        }
        if let Some(error) = effects.failed {
            self.fail(error);
        }
        effects.recorded
    }

    /// Stops the game on the error screen: uncaught in game logic. (Not when the failure is
    /// play being stopped under the code's feet.)
    fn fail(&self, error: GameError) {
        if self.play.unwinding() {
            // Play was stopped, or the code was unwound to replay it: not the game's failure.
            return;
        }
        gui::log(self.runtime.lua(), LogLevel::Error, error.to_string());
        // One report a stop: an error while the screen already shows one adds none.
        let report = match self.debug.stops.on_error_screen() {
            true => None,
            false => self.play.write_report(&self.cx(), &error),
        };
        if let Some(report) = report {
            self.debug.stops.set_report(report.map_err(|e| e.to_string()));
        }
        self.debug.stops.set_error(error);
    }
}

impl play::Spine for Host {
    fn handle(&self, command: Command) {
        Host::handle(self, command);
    }
}

impl gui::Frontend for Host {
    /// A `query()` or `pause()` waits: the serve loop runs nested until it is answered (see
    /// `frontend.rs`).
    fn wait(&self, _lua: &mlua::Lua, reason: gui::WaitReason, done: &dyn Fn() -> bool) -> mlua::Result<()> {
        let serve = || {
            if let Some(command) = self.next_command() {
                self.handle(command);
            }
        };
        let nesting = frontend::Nesting {
            serve: &serve,
            publish: &|| self.publish(),
            busy_since: &self.shared.busy_since,
            shutting_down: &self.shutting_down,
            failed: &|| self.recovery.failed(),
            rewinding: &|| self.play.rewinding(),
        };
        let answers = self.play.editor_answers_break(&self.cx(), reason == gui::WaitReason::Pause);
        let result = self.waits.wait(&self.runtime, reason, done, nesting);
        self.play.break_answered(answers);
        result
    }
}
