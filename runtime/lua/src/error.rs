//! Turning Lua errors into what a person should read: the message (root cause, without
//! mlua's wrapping) and the Lua traceback.

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

impl From<&mlua::Error> for LuaFailure {
    fn from(error: &mlua::Error) -> LuaFailure {
        let (message, traceback) = split_traceback(&root_message(error));
        let traceback = deepest_traceback(error).map(str::to_owned).unwrap_or(traceback);
        LuaFailure { message, traceback }
    }
}

impl From<mlua::Error> for LuaFailure {
    fn from(error: mlua::Error) -> LuaFailure {
        LuaFailure::from(&error)
    }
}

/// An uncaught error in game logic — a handler, a UI layer's input or update, a turn — as
/// the error screen shows it.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct GameError {
    /// What was running, such as `widget 'clock': update` or `key Up`.
    pub context: String,
    /// The error.
    pub failure: LuaFailure,
}

impl GameError {
    /// The failure of `context`.
    pub fn new(context: String, error: &mlua::Error) -> GameError {
        GameError { context, failure: LuaFailure::from(error) }
    }
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.context, self.failure)
    }
}

/// The innermost message of an error, as Lua code should see it.
pub fn root_message(error: &mlua::Error) -> String {
    match error {
        mlua::Error::CallbackError { cause, .. } | mlua::Error::WithContext { cause, .. } => root_message(cause),
        mlua::Error::BadArgument { to, pos, name, cause } => {
            let name = name.as_deref().map(|n| format!(" ({n})")).unwrap_or_default();
            let to = to.as_deref().map(|t| format!(" to '{t}'")).unwrap_or_default();
            format!("bad argument #{pos}{name}{to}: {}", root_message(cause))
        }
        mlua::Error::RuntimeError(message) => message.clone(),
        mlua::Error::SyntaxError { message, .. } => message.clone(),
        mlua::Error::MemoryError(message) => super::heap::out_of_memory(message),
        mlua::Error::ExternalError(inner) => inner.to_string(),
        mlua::Error::FromLuaConversionError { from, to, message } => match message {
            Some(message) => format!("expected {to}, got {from}: {message}"),
            None => format!("expected {to}, got {from}"),
        },
        other => other.to_string(),
    }
}

fn deepest_traceback(error: &mlua::Error) -> Option<&str> {
    match error {
        mlua::Error::CallbackError { cause, traceback } => deepest_traceback(cause).or(Some(traceback)),
        mlua::Error::WithContext { cause, .. } | mlua::Error::BadArgument { cause, .. } => deepest_traceback(cause),
        _ => None,
    }
}

fn split_traceback(message: &str) -> (String, String) {
    match message.find("\nstack traceback:") {
        Some(at) => (message[..at].to_owned(), message[at + 1..].to_owned()),
        None => (message.to_owned(), String::new()),
    }
}
