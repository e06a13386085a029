//! The host's debugging subsystem: breakpoints (`pause()`, Break, Continue), the error
//! screen and the break request ([`stops`], which play is lent), watches set from the editor, the changes a command made to watched fields by routes
//! no Lua line took, the turn profiler's switch, the invariants, a debug adapter's questions
//! about the paused stack ([`stack`]) and the REPL ([`repl`]).
//!
//! It is a component: [`Debugging`] owns its state and takes its own commands
//! ([`DebugCommand`], and the REPL's [`ReplCommand`](nefia_protocol::debugging::ReplCommand)) with a [`Cx`]. The commands that replay
//! the session — stepping back, "When did this change?" and going to one change — are the
//! play subsystem's to carry out: the spine routes them there. What
//! the REPL needs of the other subsystems it returns as [`repl::ReplEffects`], and a script
//! it is about to run it hands to a function the spine gives it.

use std::cell::RefCell;
use std::sync::Arc;

use crate::cx::Cx;
use nefia_game::display::LogLevel;
use nefia_game::symbol::Symbol;
use nefia_lua::watch;
use nefia_protocol::message::{RefusalKind, Refused};
use nefia_protocol::profile::TurnProfile;
use nefia_protocol::view::{LimitsView, ProfileView, watch_views};

mod repl;
mod stack;
pub(crate) mod stops;

use nefia_protocol::debugging::{DebugCommand, DebugView};

/// `path` as the debugger keeps breakpoints by and a debug adapter names a file: absolute from
/// the working folder, with symlinks, `.` and `..` resolved where the file exists, so every
/// spelling of one file is one path.
pub fn breakpoint_path(path: &std::path::Path) -> std::path::PathBuf {
    nefia_lua::debugger::absolute(path)
}

/// The debugging subsystem's state on the host.
#[derive(Default)]
pub(super) struct Debugging {
    /// The error screen and the break request, which the spine lends play by name.
    pub(crate) stops: stops::Stops,
    /// The profiler's turns as last sent, with the profiler's revision then.
    sent_profile: RefCell<(u64, Arc<Vec<Arc<TurnProfile>>>)>,
}

impl Debugging {
    /// The debugging subsystem's part of the snapshot.
    pub(crate) fn view(&self, cx: &Cx) -> DebugView {
        let engine = cx.runtime.engine();
        let lua = cx.runtime.lua();
        DebugView {
            pause: engine.pause_view(),
            error: self.stops.error(),
            report: self.stops.report(),
            break_requested: self.stops.break_requested(),
            limits: LimitsView {
                time: engine.limits().time(),
                memory: engine.limits().memory(),
                used: nefia_lua::limits::Limits::lua_heap_bytes(lua),
            },
            watches: watch_views(&cx.runtime.world()),
            profile: self.profile_view(cx),
            check_invariants: engine.checks_invariants(),
            invariants: nefia_lua::invariants::statuses(lua).unwrap_or_default(),
        }
    }

    /// The profiler's state for the snapshot; its turns are copied only when one was added.
    fn profile_view(&self, cx: &Cx) -> ProfileView {
        let profiler = cx.runtime.engine().profiler();
        let mut sent = self.sent_profile.borrow_mut();
        if sent.0 != profiler.revision() {
            *sent = (profiler.revision(), Arc::new(profiler.turns()));
        }
        ProfileView { on: profiler.is_on(), turns: sent.1.clone() }
    }

    /// Handles the debugging commands: breakpoints, the error screen, watches, the profiler,
    /// the invariants. The ones that replay the session (step back, find and go to changes)
    /// are the play subsystem's, which the spine routes them to: here they do nothing.
    pub(crate) fn handle(&self, cx: &Cx, command: DebugCommand) {
        let lua = cx.runtime.lua();
        let refuse = |kind, message: String| cx.refuse(Refused::new(kind, message));
        match command {
            DebugCommand::Continue => {
                let engine = cx.runtime.engine();
                engine.debugger().clear_step();
                if !engine.resume_pause() {
                    refuse(RefusalKind::NothingToDo, "nothing is paused".into());
                }
            }
            DebugCommand::Step(kind) => {
                let engine = cx.runtime.engine();
                engine.debugger().step(kind);
                engine.resume_pause();
            }
            DebugCommand::Pause => {
                let engine = cx.runtime.engine();
                if engine.limits().take_pause() {
                    engine.debugger().pause_at_next_line();
                }
            }
            DebugCommand::Query { id, query } => self.query(cx, id, query),
            DebugCommand::BreakOnErrors { uncaught, caught } => {
                if let Err(error) = cx.runtime.engine().debugger().break_on_errors(uncaught, caught) {
                    refuse(RefusalKind::NothingToDo, format!("errors cannot pause: {error}"));
                }
            }
            DebugCommand::Probes(on) => cx.runtime.engine().debugger().set_probes(on),
            DebugCommand::Break => self.stops.request_break(),
            DebugCommand::Resume => self.stops.clear_error(),
            DebugCommand::Watch { uid, field, becomes } => {
                if let Err(error) = watch::watch_from_editor(lua, uid, Symbol::intern(&field), becomes) {
                    refuse(RefusalKind::Edit, format!("cannot watch {field}: {error}"));
                }
            }
            DebugCommand::Unwatch(id) => {
                if !watch::unwatch(lua, id) {
                    refuse(RefusalKind::NothingToDo, format!("there is no watch {id}"));
                }
            }
            DebugCommand::EnableWatch { id, enabled } => {
                if !cx.runtime.world_mut().enable_watch(id, enabled) {
                    refuse(RefusalKind::NothingToDo, format!("there is no watch {id}"));
                }
            }
            DebugCommand::SetProfiling(on) => {
                let turn = cx.runtime.world().turn;
                cx.runtime.engine().profiler().set_on(on, turn);
            }
            DebugCommand::ClearProfile => cx.runtime.engine().profiler().clear(),
            DebugCommand::CheckInvariants(on) => nefia_lua::invariants::check_every_turn(lua, on),
            DebugCommand::RunInvariants => {
                if let Err(error) = nefia_lua::invariants::check_all(lua) {
                    refuse(RefusalKind::NothingToDo, format!("the invariants could not run: {error}"));
                }
            }
        }
    }

    /// Reports what the command changed in watched fields by routes no Lua line took (an
    /// edit, undo, a prototype reloaded): each watch compares its field again, and what
    /// changed is delivered as made by `operation`.
    pub(crate) fn deliver_watches(cx: &Cx, operation: &str) {
        if cx.runtime.world().watches().is_empty() {
            return;
        }
        cx.runtime.world_mut().compare_all_watched();
        if let Err(error) = watch::deliver(cx.runtime.lua(), watch::Writer::Rust(operation)) {
            cx.log(LogLevel::Error, format!("a watch could not pause: {error}"));
        }
    }
}
