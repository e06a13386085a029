//! What a debug adapter asks of the paused stack ([`DebugQuery`]) and what it is answered
//! ([`DebugAnswer`]). A leaf: the protocol names these, and they name nothing of the host's
//! handlers (`runtime/host/src/debugging/stack.rs` answers them).

use std::path::PathBuf;

use crate::repl::Evaluation;
use crate::repl::LineBreakpoint;
use nefia_game::object::Uid;

/// A scope of a paused frame.
#[derive(serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// The function's locals.
    Locals,
    /// Its upvalues.
    Upvalues,
    /// The globals of its environment (a mod's own globals; the API it reads through is
    /// left out).
    Globals,
}

/// One step down from a variable to one of its children.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq, Eq)]
pub enum Key {
    /// A string key, a variable's or a field's name.
    Name(String),
    /// An integer key.
    Index(i64),
}

/// Where a variable is: a frame of the innermost break, a scope, and the keys down to it.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct VariablePath {
    /// The frame, 0 being the paused function.
    pub frame: usize,
    /// The scope.
    pub scope: Scope,
    /// The keys from the scope down (empty: the scope itself).
    pub keys: Vec<Key>,
}

/// What a debug adapter asks of the paused stack.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub enum DebugQuery {
    /// The children of a variable (or a scope's variables), `count` of them from `start`
    /// (all if `count` is 0).
    Variables {
        /// The variable.
        path: VariablePath,
        /// The first child, from 0.
        start: usize,
        /// How many (0: all).
        count: usize,
    },
    /// Evaluate code among the variables of frame `frame` of the innermost break (with none,
    /// as the REPL does).
    Evaluate {
        /// The frame.
        frame: usize,
        /// Lua code: an expression or statements.
        code: String,
    },
    /// Give a child of a variable (or a scope's variable) the value of a Lua expression.
    SetVariable {
        /// The variable whose child it is.
        path: VariablePath,
        /// The child's key.
        key: Key,
        /// A Lua expression, evaluated in the frame.
        value: String,
    },
    /// Replace the line breakpoints of one file.
    SetBreakpoints {
        /// The file, absolute or relative to the game's working folder.
        path: PathBuf,
        /// Its breakpoints.
        breakpoints: Vec<LineBreakpoint>,
    },
    /// Every loaded file.
    Sources,
}

/// A variable as a debug adapter shows it.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct VariableView {
    /// Its key.
    pub key: Key,
    /// Its value, printed.
    pub value: String,
    /// Its type: a Lua type name, or "object" for a map object.
    pub kind: String,
    /// How many children it has (0: none to expand).
    pub children: usize,
    /// The map object it is, if it is one (its fields can be watched: data breakpoints).
    #[serde(default)]
    pub uid: Option<Uid>,
}

/// A loaded file.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct SourceView {
    /// Its name in messages (`mods/elona/game/rules.lua`).
    pub name: String,
    /// The file on disk.
    pub path: PathBuf,
}

/// The answer to a [`DebugQuery`].
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub enum DebugAnswer {
    /// The children asked for, and how many there are in all.
    Variables {
        /// The children from `start`.
        variables: Vec<VariableView>,
        /// How many children there are.
        total: usize,
    },
    /// What the evaluation gave.
    Evaluated(Evaluation),
    /// The variable as it is now.
    Variable(VariableView),
    /// The breakpoints are set; whether their file is loaded now (else they bind when it
    /// loads), and the line each one is on (one asked on a line that never runs by itself
    /// moves to the next that does).
    Breakpoints {
        /// The file is loaded.
        loaded: bool,
        /// Each breakpoint's line, in the order given.
        lines: Vec<u32>,
    },
    /// The loaded files.
    Sources(Vec<SourceView>),
    /// The query could not be answered: why.
    Failed(String),
}
