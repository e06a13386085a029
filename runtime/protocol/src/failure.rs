//! Lua errors as people read them: what went wrong and where ([`LuaFailure`]), and an
//! uncaught error of game logic as the error screen shows it ([`GameError`]). The Lua layer
//! makes them from its errors (`nefia_lua::error::failure`).

use std::fmt;

/// A Lua error as shown to people: what went wrong and where.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct LuaFailure {
    /// The message, such as `mods/elona/init.lua:3: unknown base.chara id 'elona.nope'`.
    pub message: String,
    /// The Lua stack traceback, if one was captured.
    pub traceback: String,
}

impl fmt::Display for LuaFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        if !self.traceback.is_empty() {
            write!(f, "\n{}", self.traceback)?;
        }
        Ok(())
    }
}

impl std::error::Error for LuaFailure {}

/// An uncaught error in game logic — a handler, a UI layer's input or update, a turn — as
/// the error screen shows it.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct GameError {
    /// What was running, such as `widget 'clock': update` or `key Up`.
    pub context: String,
    /// The error.
    pub failure: LuaFailure,
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.context, self.failure)
    }
}
