//! Why an edit could not be made: the error every edit (`edit.rs`) and the prototype edits it
//! hands on (`content.rs`, `lifecycle.rs`) answer with.

use crate::game::world::WorldError;

/// Why an edit could not be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EditError {
    /// The world refused (a location refused the object, an object is gone, …).
    #[error(transparent)]
    World(#[from] WorldError),
    /// Lua code the edit ran failed (a refresh handler, a generator).
    #[error("{0}")]
    Lua(crate::lua::LuaFailure),
    /// The edit cannot be made; the text says why and what to do.
    #[error("{0}")]
    Refused(String),
}

impl From<mlua::Error> for EditError {
    fn from(error: mlua::Error) -> EditError {
        EditError::Lua(crate::lua::LuaFailure::from(error))
    }
}
