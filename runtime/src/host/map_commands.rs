//! The Maps pane's and the File menu's work on the project's map files, done on the runtime
//! thread (see [`crate::game::map_files`]).

use super::{Hint, Host, MapCommand};
use crate::game::display::LogLevel;
use crate::game::map_files::MapFileError;
use crate::lua::gui;

/// Why a map file operation was not done.
#[derive(Debug, thiserror::Error)]
pub(super) enum MapCommandError {
    /// The game is being played: the maps are the edit state's, set aside until play stops.
    #[error("the maps cannot be changed while playing (the edit state comes back when play stops): stop first")]
    Playing,
    /// The operation itself failed.
    #[error(transparent)]
    File(#[from] MapFileError),
}

impl MapCommandError {
    /// What the user can do so that the operation can be done.
    pub(super) fn hint(&self) -> Option<Hint> {
        match self {
            MapCommandError::Playing => Some(Hint::StopPlay),
            MapCommandError::File(_) => None,
        }
    }
}

impl Host {
    /// Carries out a map file operation, unless the game is being played, and logs what was
    /// done.
    pub(super) fn maps(&self, command: MapCommand) -> Result<(), MapCommandError> {
        if self.play.edit.borrow().is_some() {
            return Err(MapCommandError::Playing);
        }
        Ok(self.change_maps(command)?)
    }

    /// Carries out a map file operation and logs what was done.
    fn change_maps(&self, command: MapCommand) -> Result<(), MapFileError> {
        let lua = self.runtime.lua();
        let (mut files, mut world, mut project) = self.runtime.maps_mut();
        let project = project.as_mut().ok_or_else(|| MapFileError::Refused("no project is open".into()))?;
        let done = match command {
            MapCommand::New { name, width, height, tile } => {
                let map = files.create(&mut world, project, &name, width, height, &tile)?;
                world.set_current_map(map)?;
                format!("new map '{name}' ({width}x{height}); save it to write maps/{name}.ron")
            }
            MapCommand::Open(name) => {
                let (map, problems) = files.open(&mut world, project, &name)?;
                world.set_current_map(map)?;
                drop(world);
                for problem in problems {
                    gui::log(lua, LogLevel::Warn, problem);
                }
                format!("opened map '{name}'")
            }
            MapCommand::Save(name) => {
                let name = match name {
                    Some(name) => name,
                    None => world
                        .current_map()
                        .and_then(|m| files.name_of(m))
                        .map(str::to_owned)
                        .ok_or_else(|| MapFileError::Refused("the current map is not a project map".into()))?,
                };
                format!("saved {}", files.save(&world, project, &name)?.display())
            }
            MapCommand::SaveAll => {
                let saved = files.save_all(&world, project)?;
                format!("saved {} map(s)", saved.len())
            }
            MapCommand::Rename { from, to } => {
                files.rename(&mut world, project, &from, &to)?;
                format!("renamed map '{from}' to '{to}'")
            }
            MapCommand::Duplicate { from, to } => {
                files.duplicate(&world, project, &from, &to)?;
                format!("wrote maps/{to}.ron, a copy of '{from}'")
            }
            MapCommand::Delete(name) => {
                files.delete(&mut world, project, &name)?;
                format!("deleted map '{name}' (kept as maps/{name}.ron.bak)")
            }
            MapCommand::SetStart(name) => {
                project.manifest.start_map = Some(name.clone());
                project.save()?;
                format!("'{name}' is now the start map")
            }
        };
        gui::log(lua, LogLevel::Info, done);
        Ok(())
    }
}
