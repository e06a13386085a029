//! The scratch save folder a replayed or opened recording loads and saves in, so the project's
//! saves are never written.

use nefia_game::recording::Recording;

/// Why the scratch save folder of a recording could not be made.
#[derive(Debug, thiserror::Error)]
pub enum ScratchSavesError {
    /// The temporary folder could not be made.
    #[error("a scratch folder for its saves: {0}")]
    Folder(#[from] std::io::Error),
    /// A save's name is not one a save can have.
    #[error("its save '{name}': {error}")]
    Name {
        /// The save's name as the recording gives it.
        name: String,
        /// Why it is refused.
        error: nefia_lua::save::SaveError,
    },
    /// A save could not be written.
    #[error(transparent)]
    File(#[from] nefia_game::files::FileError),
}

/// A scratch save folder holding the saves `recording` read: where a replay of it loads and
/// saves games, so the project's saves are never written.
pub(crate) fn scratch_saves(recording: &Recording) -> Result<tempfile::TempDir, ScratchSavesError> {
    let saves = tempfile::tempdir()?;
    for (name, save) in &recording.saves {
        let path = nefia_lua::save::save_path(saves.path(), name)
            .map_err(|error| ScratchSavesError::Name { name: name.clone(), error })?;
        nefia_game::save::write_save(&path, save)?;
    }
    Ok(saves)
}
