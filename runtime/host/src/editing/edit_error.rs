//! Why an edit could not be made: the error every edit (`edit.rs`) and the prototype edits it
//! hands on (`content.rs`, `lifecycle.rs`) answer with.

use nefia_game::world::WorldError;

/// Why an edit could not be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EditError {
    /// The world refused (a location refused the object, an object is gone, …).
    #[error(transparent)]
    World(#[from] WorldError),
    /// Lua code the edit ran failed (a refresh handler, a generator).
    #[error("{0}")]
    Lua(nefia_protocol::failure::LuaFailure),
    /// The edit cannot be made; the text says why and what to do.
    #[error("{0}")]
    Refused(String),
}

impl From<nefia_game::conflict::resolve::ResolveError> for EditError {
    fn from(error: nefia_game::conflict::resolve::ResolveError) -> EditError {
        match error {
            nefia_game::conflict::resolve::ResolveError::World(error) => EditError::World(error),
            nefia_game::conflict::resolve::ResolveError::Refused(text) => EditError::Refused(text),
        }
    }
}

impl From<nefia_game::world::ArtLayerError> for EditError {
    fn from(error: nefia_game::world::ArtLayerError) -> EditError {
        match error {
            nefia_game::world::ArtLayerError::World(error) => EditError::World(error),
            refused => EditError::Refused(refused.to_string()),
        }
    }
}

impl From<mlua::Error> for EditError {
    fn from(error: mlua::Error) -> EditError {
        EditError::Lua(nefia_lua::error::failure(error))
    }
}
