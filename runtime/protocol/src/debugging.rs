//! The debugging subsystem's part of the protocol: its commands ([`DebugCommand`], the REPL's
//! [`ReplCommand`]) and its part of the snapshot ([`DebugView`]). A leaf: the protocol and the
//! snapshot name these, and they name nothing of the host's handlers.

pub mod query;

use std::path::PathBuf;
use std::time::Duration;

use crate::debugging::query::DebugQuery;
use crate::failure::GameError;
use crate::repl::StepKind;
use crate::view::debug::{LimitsView, ProfileView, WatchView};
use nefia_game::object::Uid;
use nefia_game::value::Value;
use nefia_game::world::WatchId;

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
    /// Let the innermost break continue and stop again at the next line a step of this kind
    /// reaches; with nothing paused, stop at the next line any Lua code runs.
    Step(StepKind),
    /// A debug adapter's pause: stop at the next line any Lua code runs. Sent by
    /// the host's `HostClient::pause`, which also raises the Pause flag so that code
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
    /// answered with [`HostEvent::DebugAnswer`](crate::message::HostEvent::DebugAnswer) with the same id.
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
            DebugCommand::Step(_) => "step",
            DebugCommand::Pause => "pause",
            DebugCommand::BreakOnErrors { .. } => "break on errors",
            DebugCommand::Probes(_) => "probes",
            DebugCommand::Query { .. } => "debug query",
            DebugCommand::SetProfiling(_) => "profile",
            DebugCommand::ClearProfile => "clear profile",
            DebugCommand::CheckInvariants(_) => "check invariants",
            DebugCommand::RunInvariants => "run invariants",
        }
    }

    /// The input a recorded session keeps of the command: a break asked, a break continued,
    /// the error screen left.
    pub fn recorded_input(&self) -> Option<nefia_game::recording::Input> {
        use nefia_game::recording::Input;
        match self {
            DebugCommand::Break => Some(Input::Break),
            DebugCommand::Continue => Some(Input::Continue),
            DebugCommand::Resume => Some(Input::Resume),
            _ => None,
        }
    }

    /// True if the command only reads the world (no checkpoint is taken before it).
    pub fn reads_only(&self) -> bool {
        !matches!(
            self,
            DebugCommand::Continue | DebugCommand::Resume | DebugCommand::Step(_) | DebugCommand::Query { .. }
        )
    }
}

/// The debugging subsystem's part of the snapshot.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, Default, PartialEq)]
pub struct DebugView {
    /// The innermost `pause()` in progress: where, and its locals and upvalues.
    pub pause: Option<crate::repl::PauseView>,
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
    pub invariants: Vec<crate::checks::InvariantStatus>,
    /// The bug report written when the error screen appeared, in a host that writes them
    /// (the player window's): where it went, or why it could not be written.
    #[serde(default)]
    pub report: Option<Result<PathBuf, String>>,
}

/// What the REPL asks of the host.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub enum ReplCommand {
    /// Evaluate REPL input; the answer comes back as
    /// [`HostEvent::Evaluated`](crate::message::HostEvent::Evaluated) with the same id.
    Eval {
        /// Matches the answer to the request.
        id: u64,
        /// Lua code: an expression or statements.
        code: String,
    },
    /// Run a Lua file as `nefia run` does (in a trusted environment of its own, under the
    /// limits; its chunk is named by its path, so breakpoints in it bind); answered with
    /// [`HostEvent::Evaluated`](crate::message::HostEvent::Evaluated), with no values when it ran to its end.
    RunFile {
        /// Matches the answer to the request.
        id: u64,
        /// The file.
        path: PathBuf,
    },
    /// Complete the end of REPL input; answered with
    /// [`HostEvent::Completions`](crate::message::HostEvent::Completions).
    Complete {
        /// Matches the answer to the request.
        id: u64,
        /// The input up to the cursor.
        text: String,
    },
    /// Show the lines of a loaded file around `line`; answered with
    /// [`HostEvent::Source`](crate::message::HostEvent::Source).
    ShowSource {
        /// The file as errors name it (`mods/elona/init.lua`).
        file: String,
        /// The line to show.
        line: u32,
    },
    /// Set the time limit of one evaluation and the Lua heap limit (`None`: unlimited).
    SetLimits {
        /// The time limit.
        time: Option<Duration>,
        /// The memory limit, in bytes.
        memory: Option<usize>,
    },
}

impl ReplCommand {
    /// The command's name in messages ("a panic in eval").
    pub fn name(&self) -> &'static str {
        match self {
            ReplCommand::Eval { .. } => "eval",
            ReplCommand::RunFile { .. } => "run file",
            ReplCommand::Complete { .. } => "complete",
            ReplCommand::ShowSource { .. } => "show source",
            ReplCommand::SetLimits { .. } => "set limits",
        }
    }

    /// The input a recorded session keeps of the command: code, or the script run.
    pub fn recorded_input(&self) -> Option<nefia_game::recording::Input> {
        use nefia_game::recording::Input;
        match self {
            ReplCommand::Eval { code, .. } => Some(Input::Eval(code.clone())),
            ReplCommand::RunFile { path, .. } => Some(Input::Script(path.display().to_string())),
            ReplCommand::Complete { .. } | ReplCommand::ShowSource { .. } | ReplCommand::SetLimits { .. } => None,
        }
    }

    /// True if the command only reads the world (no checkpoint is taken before it).
    pub fn reads_only(&self) -> bool {
        matches!(self, ReplCommand::ShowSource { .. } | ReplCommand::SetLimits { .. })
    }
}
