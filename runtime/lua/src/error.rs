//! Turning Lua errors into what a person should read: the message (root cause, without
//! mlua's wrapping) and the Lua traceback, as the protocol's [`LuaFailure`] and [`GameError`].

use std::borrow::Borrow;

use nefia_protocol::failure::{GameError, LuaFailure};

/// A Lua error as people read it: its root message and the deepest traceback it carries.
pub fn failure(error: impl Borrow<mlua::Error>) -> LuaFailure {
    let error = error.borrow();
    let (message, traceback) = split_traceback(&root_message(error));
    let traceback = deepest_traceback(error).map(str::to_owned).unwrap_or(traceback);
    LuaFailure { message, traceback }
}

/// The failure of `context` (what was running) as the error screen shows it.
pub fn game_error(context: String, error: &mlua::Error) -> GameError {
    GameError { context, failure: failure(error) }
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
