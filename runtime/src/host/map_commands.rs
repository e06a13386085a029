//! The Maps pane's and the File menu's work on the project's map files, done on the runtime
//! thread (see [`crate::map_files`]).

use super::{Host, MapCommand};
use crate::display::LogLevel;
use crate::lua::gui;
use crate::map_files::MapFileError;

impl Host {
    /// Carries out a map file operation and logs what was done.
    pub(super) fn maps(&self, command: MapCommand) -> Result<(), MapFileError> {
        let lua = self.runtime.lua();
        if self.play.edit.borrow().is_some() {
            return Err(MapFileError::Refused(
                "the maps cannot be changed while playing: stop first (Shift+F5), the edit state comes back".into(),
            ));
        }
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
