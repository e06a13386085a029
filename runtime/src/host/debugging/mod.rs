//! The host's debugging subsystem: breakpoints (`pause()`, Break, Continue), the error
//! screen, watches set from the editor, the changes a command made to watched fields by routes
//! no Lua line took, "When did this change?" (a replay of the session, then going back to one
//! change), the turn profiler's switch, and the REPL ([`repl`]).
//!
//! It owns its state ([`Debugging`]) and takes its own commands ([`DebugCommand`], and the
//! REPL's [`ReplCommand`]).

use std::cell::{Cell, RefCell};
use std::sync::Arc;

use super::{Host, HostEvent, RefusalKind};
use crate::game::display::LogLevel;
use crate::game::object::Uid;
use crate::game::symbol::Symbol;
use crate::game::value::Value;
use crate::game::world::WatchId;
use crate::host::view::{LimitsView, ProfileView, WatchView, watch_views};
use crate::lua::profile::TurnProfile;
use crate::lua::{GameError, gui, watch};

mod repl;
mod stack;

pub use crate::host::play::ReverseKind;
pub use repl::ReplCommand;
pub use stack::{DebugAnswer, DebugQuery, Key, Scope, SourceView, VariablePath, VariableView};

/// A line breakpoint as a debug adapter sets it ([`crate::host::HostConfig::breakpoints`],
/// [`DebugQuery`]), and how a step goes on from a break ([`DebugCommand::Step`]). They are the
/// Lua debugger's own types; a frontend names them here.
pub use crate::lua::debugger::{LineBreakpoint, StepKind};

/// `path` as the debugger keeps breakpoints by and a debug adapter names a file: absolute from
/// the working folder, with symlinks, `.` and `..` resolved where the file exists, so every
/// spelling of one file is one path.
pub fn breakpoint_path(path: &std::path::Path) -> std::path::PathBuf {
    crate::lua::debugger::absolute(path)
}

/// What the debugging subsystem is asked to do.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub enum DebugCommand {
    /// Let the innermost `pause()` continue.
    Continue,
    /// Pause at the next turn boundary (before the game takes the next key), as `pause()`
    /// would, with the key, the player and the turn as locals.
    Break,
    /// Leave the error screen: the failed step is abandoned and the game goes on.
    Resume,
    /// Set a watch on an object's field ("Break when it changes"; with `becomes`, "… when
    /// it becomes" that value).
    Watch {
        /// The object.
        uid: Uid,
        /// The field.
        field: String,
        /// Stop only when the field takes this value.
        becomes: Option<Value>,
    },
    /// Remove a watch.
    Unwatch(WatchId),
    /// Turn a watch on or off.
    EnableWatch {
        /// The watch.
        id: WatchId,
        /// On or off.
        enabled: bool,
    },
    /// While playing a recorded session (or looking through an opened recording): list
    /// every change of an object's field so far, by replaying the session headless ("When
    /// did this change?"); answered with [`HostEvent::Changes`].
    FindChanges {
        /// The object.
        uid: Uid,
        /// The field.
        field: String,
    },
    /// Go to a change [`HostEvent::Changes`] listed: back to the start of its turn, then
    /// replay that turn up to the write and stop there in breakpoint mode, as a watch does.
    GoToChange {
        /// The turn mark of the change's turn.
        mark: usize,
        /// Which change of that turn (from 0).
        nth: u32,
        /// The object.
        uid: Uid,
        /// The field.
        field: String,
    },
    /// From a break while playing a recorded session, go back: to the line before, or to the
    /// previous breakpoint hit, by replaying the command from its turn's kept state.
    StepBack(ReverseKind),
    /// Let the innermost break continue and stop again at the next line a step of this kind
    /// reaches; with nothing paused, stop at the next line any Lua code runs.
    Step(StepKind),
    /// A debug adapter's pause: stop at the next line any Lua code runs. Sent by
    /// [`crate::host::HostClient::pause`], which also raises the Pause flag so that code
    /// running now stops before this command is read; then this does nothing.
    Pause,
    /// Pause where an error is raised: one that reaches the engine from game logic or a script
    /// (`uncaught`), one a mod catches with `pcall` (`caught`). A debug adapter's exception
    /// breakpoints.
    BreakOnErrors {
        /// Errors that reach the engine.
        uncaught: bool,
        /// Errors mods catch.
        caught: bool,
    },
    /// Whether files loaded while they have breakpoints get the debugger's probes (on at
    /// first): off, the hook takes every call to see their functions begin, as it does for
    /// files loaded before their breakpoints (slower; kept to compare the two).
    Probes(bool),
    /// A debug adapter's question about the paused stack, the breakpoints or the sources;
    /// answered with [`HostEvent::DebugAnswer`] with the same id.
    Query {
        /// Matches the answer to the request.
        id: u64,
        /// The question.
        query: DebugQuery,
    },
    /// Turn the turn profiler on or off (the Profiler pane's Record).
    SetProfiling(bool),
    /// Forget the turns profiled so far.
    ClearProfile,
    /// Run the invariants after every turn of play, stopping the game like a watch at the
    /// first that fails (the Watches pane's toggle).
    CheckInvariants(bool),
    /// Run every invariant now (the Invariants pane's Check now): their results show in the
    /// snapshot's `invariants`.
    RunInvariants,
}

impl DebugCommand {
    /// The command's name in messages ("a panic in watch").
    pub fn name(&self) -> &'static str {
        match self {
            DebugCommand::Continue => "continue",
            DebugCommand::Break => "break",
            DebugCommand::Resume => "resume",
            DebugCommand::Watch { .. } => "watch",
            DebugCommand::Unwatch(_) => "unwatch",
            DebugCommand::EnableWatch { .. } => "enable watch",
            DebugCommand::FindChanges { .. } => "find changes",
            DebugCommand::GoToChange { .. } => "go to change",
            DebugCommand::Step(_) => "step",
            DebugCommand::Pause => "pause",
            DebugCommand::StepBack(_) => "step back",
            DebugCommand::BreakOnErrors { .. } => "break on errors",
            DebugCommand::Probes(_) => "probes",
            DebugCommand::Query { .. } => "debug query",
            DebugCommand::SetProfiling(_) => "profile",
            DebugCommand::ClearProfile => "clear profile",
            DebugCommand::CheckInvariants(_) => "check invariants",
            DebugCommand::RunInvariants => "run invariants",
        }
    }

    /// A failed runtime's answer (see [`crate::host::Command::answer_when_failed`]): a query
    /// fails with the problem; the rest only acts.
    pub(in crate::host) fn answer_when_failed(&self, problem: &str) -> Option<HostEvent> {
        match self {
            DebugCommand::Query { id, .. } => {
                Some(HostEvent::DebugAnswer { id: *id, answer: DebugAnswer::Failed(problem.to_owned()) })
            }
            _ => None,
        }
    }

    /// The input a recorded session keeps of the command: a break asked, a break continued,
    /// the error screen left.
    pub(in crate::host) fn recorded_input(&self) -> Option<crate::game::recording::Input> {
        use crate::game::recording::Input;
        match self {
            DebugCommand::Break => Some(Input::Break),
            DebugCommand::Continue => Some(Input::Continue),
            DebugCommand::Resume => Some(Input::Resume),
            _ => None,
        }
    }

    /// True if the command only reads the world (no checkpoint is taken before it).
    pub(super) fn reads_only(&self) -> bool {
        !matches!(
            self,
            DebugCommand::Continue
                | DebugCommand::Resume
                | DebugCommand::GoToChange { .. }
                | DebugCommand::Step(_)
                | DebugCommand::StepBack(_)
                | DebugCommand::Query { .. }
        )
    }
}

/// The debugging subsystem's part of the snapshot.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, Default, PartialEq)]
pub struct DebugView {
    /// The innermost `pause()` in progress: where, and its locals and upvalues.
    pub pause: Option<crate::lua::repl::PauseView>,
    /// The uncaught error the game stopped on (the error screen), if any.
    pub error: Option<GameError>,
    /// A break is asked for at the next turn boundary.
    pub break_requested: bool,
    /// The limits Lua code runs under, and the Lua heap now.
    pub limits: LimitsView,
    /// The watchpoints, in the order they were set.
    pub watches: Vec<WatchView>,
    /// The turn profiler: on or off, and the turns kept, oldest first.
    pub profile: ProfileView,
    /// The invariants run after every turn of play.
    #[serde(default)]
    pub check_invariants: bool,
    /// Every declared invariant with what its last check found.
    #[serde(default)]
    pub invariants: Vec<crate::lua::invariants::InvariantStatus>,
}

/// The debugging subsystem's state on the host.
#[derive(Default)]
pub(super) struct Debugging {
    /// The uncaught error the game stopped on (the error screen), if any.
    pub(super) error: RefCell<Option<GameError>>,
    /// A break was asked for at the next turn boundary.
    pub(super) break_requested: Cell<bool>,
    /// The profiler's turns as last sent, with the profiler's revision then.
    sent_profile: RefCell<(u64, Arc<Vec<Arc<TurnProfile>>>)>,
}

impl Host {
    /// The debugging subsystem's part of the snapshot.
    pub(super) fn debug_view(&self) -> DebugView {
        let engine = self.runtime.engine();
        let lua = self.runtime.lua();
        DebugView {
            pause: engine.pause_view(),
            error: self.debug.error.borrow().clone(),
            break_requested: self.debug.break_requested.get(),
            limits: LimitsView {
                time: engine.limits().time(),
                memory: engine.limits().memory(),
                used: crate::lua::limits::Limits::lua_heap_bytes(lua),
            },
            watches: watch_views(&self.runtime.world()),
            profile: self.profile_view(),
            check_invariants: engine.checks_invariants(),
            invariants: crate::lua::invariants::statuses(lua).unwrap_or_default(),
        }
    }

    /// The profiler's state for the snapshot; its turns are copied only when one was added.
    fn profile_view(&self) -> ProfileView {
        let profiler = self.runtime.engine().profiler();
        let mut sent = self.debug.sent_profile.borrow_mut();
        if sent.0 != profiler.revision() {
            *sent = (profiler.revision(), Arc::new(profiler.turns()));
        }
        ProfileView { on: profiler.is_on(), turns: sent.1.clone() }
    }

    /// Handles the debugging commands: breakpoints, the error screen, watches, changes, the
    /// profiler.
    pub(super) fn debugging(&self, command: DebugCommand) {
        let lua = self.runtime.lua();
        match command {
            DebugCommand::Continue => {
                let engine = self.runtime.engine();
                engine.debugger().clear_step();
                if !engine.resume_pause() {
                    self.refuse(RefusalKind::NothingToDo, "nothing is paused");
                }
            }
            DebugCommand::Step(kind) => {
                let engine = self.runtime.engine();
                engine.debugger().step(kind);
                engine.resume_pause();
            }
            DebugCommand::Pause => {
                let engine = self.runtime.engine();
                if engine.limits().take_pause() {
                    engine.debugger().pause_at_next_line();
                }
            }
            DebugCommand::Query { id, query } => self.debug_query(id, query),
            DebugCommand::StepBack(kind) => self.play.request_rewind(&self.cx(), kind),
            DebugCommand::BreakOnErrors { uncaught, caught } => {
                if let Err(error) = self.runtime.engine().debugger().break_on_errors(uncaught, caught) {
                    self.refuse(RefusalKind::NothingToDo, format!("errors cannot pause: {error}"));
                }
            }
            DebugCommand::Probes(on) => self.runtime.engine().debugger().set_probes(on),
            DebugCommand::Break => self.debug.break_requested.set(true),
            DebugCommand::Resume => {
                self.debug.error.take();
            }
            DebugCommand::Watch { uid, field, becomes } => {
                if let Err(error) = watch::watch_from_editor(lua, uid, Symbol::intern(&field), becomes) {
                    self.refuse(RefusalKind::Edit, format!("cannot watch {field}: {error}"));
                }
            }
            DebugCommand::Unwatch(id) => {
                if !watch::unwatch(lua, id) {
                    self.refuse(RefusalKind::NothingToDo, format!("there is no watch {id}"));
                }
            }
            DebugCommand::EnableWatch { id, enabled } => {
                if !self.runtime.world_mut().enable_watch(id, enabled) {
                    self.refuse(RefusalKind::NothingToDo, format!("there is no watch {id}"));
                }
            }
            DebugCommand::FindChanges { uid, field } => self.play.find_changes(&self.cx(), uid, &field),
            DebugCommand::GoToChange { mark, nth, uid, field } => {
                self.play.go_to_change(&self.cx(), self, mark, nth, uid, Symbol::intern(&field))
            }
            DebugCommand::SetProfiling(on) => {
                let turn = self.runtime.world().turn;
                self.runtime.engine().profiler().set_on(on, turn);
            }
            DebugCommand::ClearProfile => self.runtime.engine().profiler().clear(),
            DebugCommand::CheckInvariants(on) => crate::lua::invariants::check_every_turn(self.runtime.lua(), on),
            DebugCommand::RunInvariants => {
                if let Err(error) = crate::lua::invariants::check_all(self.runtime.lua()) {
                    self.refuse(RefusalKind::NothingToDo, format!("the invariants could not run: {error}"));
                }
            }
        }
    }

    /// Reports what the command changed in watched fields by routes no Lua line took (an
    /// edit, undo, a prototype reloaded): each watch compares its field again, and what
    /// changed is delivered as made by `operation`.
    pub(super) fn deliver_watches(&self, operation: &str) {
        if self.runtime.world().watches().is_empty() {
            return;
        }
        self.runtime.world_mut().compare_all_watched();
        let lua = self.runtime.lua();
        if let Err(error) = watch::deliver(lua, watch::Writer::Rust(operation)) {
            gui::log(lua, LogLevel::Error, format!("a watch could not pause: {error}"));
        }
    }
}
