//! What the REPL and the debugger answer: an evaluation's values or error ([`Evaluation`]),
//! the frame a `pause()` or a breakpoint stopped in ([`PauseView`]), why it stopped
//! ([`BreakCause`]), and how to step on ([`StepKind`]).

use crate::failure::LuaFailure;

/// What evaluating REPL input gave.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
pub enum Evaluation {
    /// It ran; these are its results, pretty-printed (empty for a statement).
    Values(Vec<String>),
    /// The chunk is not complete yet (an open `function`, `do`, string…): read another line.
    Incomplete,
    /// It failed.
    Error(LuaFailure),
    /// It was `continue` during a break: the paused code goes on.
    Continued,
}

/// A paused function, as the REPL's Locals view shows it.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
pub struct PauseView {
    /// The paused function's name.
    pub function: String,
    /// Its file.
    pub file: String,
    /// The line of the `pause()` call.
    pub line: u32,
    /// Its locals and upvalues: name, "local" or "upvalue", value.
    pub variables: Vec<(String, String, String)>,
    /// Why it paused, when not by `pause()`: the watch that fired ("watch: uid 12
    /// (elona.putit) hp 6 → 5 at mods/elona/game/rules.lua:88").
    pub reason: Option<String>,
    /// The Lua stack from the paused function outwards: "damage at mods/elona/game/rules.lua:37".
    pub stack: Vec<String>,
    /// The same stack as frames, with the files on disk.
    #[serde(default)]
    pub frames: Vec<PauseFrame>,
    /// What paused: `pause()`, a watch, a breakpoint, a step.
    #[serde(default)]
    pub cause: BreakCause,
    /// Which break this is: breaks are numbered from 1 as they happen, so a frontend tells a
    /// new break on the same line from the one it continued.
    #[serde(default)]
    pub id: u64,
}

/// One Lua function on a paused stack.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct PauseFrame {
    /// The function's name ("damage", "main chunk", "function <mods/x/a.lua:3>").
    pub function: String,
    /// Its file as messages name it (`mods/elona/game/rules.lua`).
    pub file: String,
    /// The file on disk, if it is one.
    pub path: Option<std::path::PathBuf>,
    /// The line it is on.
    pub line: u32,
}

/// Lines of a loaded file around a line an error or a breakpoint names (what a file:line
/// link shows; nothing is opened or run).
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct SourceExcerpt {
    /// The file as errors name it.
    pub file: String,
    /// The line asked for.
    pub line: u32,
    /// The number of the first line in `lines`.
    pub first: u32,
    /// The lines; empty if the file is not a loaded file on disk.
    pub lines: Vec<String>,
}

/// How a step goes on from a break.
#[derive(serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum StepKind {
    /// To the next line in this function or one it returns to (over calls).
    Over,
    /// To the next line run anywhere (into calls).
    In,
    /// To the next line of a function this one returns to.
    Out,
}

/// Why the game is paused.
#[derive(serde::Serialize, serde::Deserialize, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BreakCause {
    /// `pause()` in code, or Break at a turn boundary.
    #[default]
    Pause,
    /// A watch fired ([`super::repl::PauseView::reason`] says which).
    Watch,
    /// A line breakpoint.
    Breakpoint,
    /// A step ended.
    Step,
    /// An error was raised (with the error breaks on).
    Exception,
}

impl BreakCause {
    /// The cause as `pause.lua` names it.
    pub fn name(self) -> &'static str {
        match self {
            BreakCause::Pause => "pause",
            BreakCause::Watch => "watch",
            BreakCause::Breakpoint => "breakpoint",
            BreakCause::Step => "step",
            BreakCause::Exception => "exception",
        }
    }

    /// The cause `pause.lua` was given.
    pub fn from_name(name: Option<&str>) -> BreakCause {
        match name {
            Some("breakpoint") => BreakCause::Breakpoint,
            Some("step") => BreakCause::Step,
            Some("watch") => BreakCause::Watch,
            Some("exception") => BreakCause::Exception,
            _ => BreakCause::Pause,
        }
    }
}

/// A line breakpoint as a debug adapter sets it (DAP's `SourceBreakpoint`).
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, Default, PartialEq, Eq)]
pub struct LineBreakpoint {
    /// The line, from 1.
    pub line: u32,
    /// A Lua expression among the line's locals: stop only when it is true.
    pub condition: Option<String>,
    /// How many hits to let pass: `N` or `== N` stops on the Nth hit only, `>= N` / `> N`
    /// from then on, `% N` on every Nth.
    pub hit_condition: Option<String>,
    /// Print this instead of stopping; `{expression}` parts are evaluated among the locals.
    pub log_message: Option<String>,
}
