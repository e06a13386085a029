//! The host's debugging subsystem: breakpoints (`pause()`, Break, Continue), the error
//! screen, watches set from the editor, the changes a command made to watched fields by routes
//! no Lua line took, the turn profiler's switch, the invariants, a debug adapter's questions
//! about the paused stack ([`stack`]) and the REPL ([`repl`]).
//!
//! It is a component: [`Debugging`] owns its state and takes its own commands
//! ([`DebugCommand`], and the REPL's [`ReplCommand`]) with a [`Cx`]. The commands that replay
//! the session — stepping back, "When did this change?" and going to one change — it hands
//! back to the spine as a [`Timeline`], for the play session's timeline to carry out; what
//! the REPL needs of the other subsystems it returns as [`repl::ReplEffects`], and a script
//! it is about to run it hands to a function the spine gives it.

use std::cell::{Cell, RefCell};
use std::sync::Arc;

use super::{HostEvent, RefusalKind, Refused};
use crate::game::display::LogLevel;
use crate::game::object::Uid;
use crate::game::symbol::Symbol;
use crate::game::value::Value;
use crate::game::world::WatchId;
use crate::host::cx::Cx;
use crate::host::view::{LimitsView, ProfileView, WatchView, watch_views};
use crate::lua::profile::TurnProfile;
use crate::lua::{GameError, watch};

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

/// The debugging commands the play session's timeline carries out — they replay the session
/// — which [`Debugging::handle`] gives back and the spine hands on.
pub(in crate::host) enum Timeline {
    /// Step back from the innermost break ([`DebugCommand::StepBack`]).
    StepBack(ReverseKind),
    /// List every change of an object's field so far ([`DebugCommand::FindChanges`]).
    FindChanges {
        /// The object.
        uid: Uid,
        /// The field.
        field: String,
    },
    /// Go to one change a list gave ([`DebugCommand::GoToChange`]).
    GoToChange {
        /// The turn mark of the change's turn.
        mark: usize,
        /// Which change of that turn (from 0).
        nth: u32,
        /// The object.
        uid: Uid,
        /// The field.
        field: Symbol,
    },
}

/// The debugging subsystem's state on the host.
#[derive(Default)]
pub(super) struct Debugging {
    /// The uncaught error the game stopped on (the error screen), if any.
    error: RefCell<Option<GameError>>,
    /// A break was asked for at the next turn boundary.
    break_requested: Cell<bool>,
    /// The profiler's turns as last sent, with the profiler's revision then.
    sent_profile: RefCell<(u64, Arc<Vec<Arc<TurnProfile>>>)>,
}

impl Debugging {
    /// The debugging subsystem's part of the snapshot.
    pub(in crate::host) fn view(&self, cx: &Cx) -> DebugView {
        let engine = cx.runtime.engine();
        let lua = cx.runtime.lua();
        DebugView {
            pause: engine.pause_view(),
            error: self.error(),
            break_requested: self.break_requested.get(),
            limits: LimitsView {
                time: engine.limits().time(),
                memory: engine.limits().memory(),
                used: crate::lua::limits::Limits::lua_heap_bytes(lua),
            },
            watches: watch_views(&cx.runtime.world()),
            profile: self.profile_view(cx),
            check_invariants: engine.checks_invariants(),
            invariants: crate::lua::invariants::statuses(lua).unwrap_or_default(),
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

    /// The uncaught error the game stopped on (the error screen), if any.
    pub(in crate::host) fn error(&self) -> Option<GameError> {
        self.error.borrow().clone()
    }

    /// True while the game is stopped on the error screen.
    pub(in crate::host) fn stopped(&self) -> bool {
        self.error.borrow().is_some()
    }

    /// Stops the game on the error screen with `error`.
    pub(in crate::host) fn set_error(&self, error: GameError) {
        *self.error.borrow_mut() = Some(error);
    }

    /// Leaves the error screen (new code took, or the game goes on another way).
    pub(in crate::host) fn clear_error(&self) {
        self.error.take();
    }

    /// True if a break was asked for at this turn boundary; the request is spent.
    pub(in crate::host) fn take_break_request(&self) -> bool {
        self.break_requested.take()
    }

    /// Handles the debugging commands: breakpoints, the error screen, watches, the profiler,
    /// the invariants. The ones the play session's timeline carries out are handed back as a
    /// [`Timeline`].
    pub(in crate::host) fn handle(&self, cx: &Cx, command: DebugCommand) -> Option<Timeline> {
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
            DebugCommand::StepBack(kind) => return Some(Timeline::StepBack(kind)),
            DebugCommand::BreakOnErrors { uncaught, caught } => {
                if let Err(error) = cx.runtime.engine().debugger().break_on_errors(uncaught, caught) {
                    refuse(RefusalKind::NothingToDo, format!("errors cannot pause: {error}"));
                }
            }
            DebugCommand::Probes(on) => cx.runtime.engine().debugger().set_probes(on),
            DebugCommand::Break => self.break_requested.set(true),
            DebugCommand::Resume => self.clear_error(),
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
            DebugCommand::FindChanges { uid, field } => return Some(Timeline::FindChanges { uid, field }),
            DebugCommand::GoToChange { mark, nth, uid, field } => {
                return Some(Timeline::GoToChange { mark, nth, uid, field: Symbol::intern(&field) });
            }
            DebugCommand::SetProfiling(on) => {
                let turn = cx.runtime.world().turn;
                cx.runtime.engine().profiler().set_on(on, turn);
            }
            DebugCommand::ClearProfile => cx.runtime.engine().profiler().clear(),
            DebugCommand::CheckInvariants(on) => crate::lua::invariants::check_every_turn(lua, on),
            DebugCommand::RunInvariants => {
                if let Err(error) = crate::lua::invariants::check_all(lua) {
                    refuse(RefusalKind::NothingToDo, format!("the invariants could not run: {error}"));
                }
            }
        }
        None
    }

    /// Reports what the command changed in watched fields by routes no Lua line took (an
    /// edit, undo, a prototype reloaded): each watch compares its field again, and what
    /// changed is delivered as made by `operation`.
    pub(in crate::host) fn deliver_watches(cx: &Cx, operation: &str) {
        if cx.runtime.world().watches().is_empty() {
            return;
        }
        cx.runtime.world_mut().compare_all_watched();
        if let Err(error) = watch::deliver(cx.runtime.lua(), watch::Writer::Rust(operation)) {
            cx.log(LogLevel::Error, format!("a watch could not pause: {error}"));
        }
    }
}
