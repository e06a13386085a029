//! The host's maps subsystem: the Maps pane's and the File menu's work on the project's map
//! files (see [`nefia_game::map_files`]), and the map validators run on the map being edited
//! ([`check`]). It is a component: [`Maps`] keeps its own state and takes its own commands
//! ([`MapCommand`]) with a [`Cx`]; of the rest of the host it is given only the edit state
//! set aside while playing.

use std::cell::RefCell;

use crossbeam_channel::Sender;

use super::folders::FolderWatcher;
use crate::cx::Cx;
use crate::play::EditState;
use nefia_game::display::LogLevel;
use nefia_game::map_files::MapFileError;
use nefia_protocol::message::{Command, Hint, RefusalKind, Refused};

pub mod check;
pub mod export;
pub mod import;
pub mod new_tiles;

use nefia_protocol::maps::{MapCommand, MapsView};

/// Why a map file operation was not done.
#[derive(Debug, thiserror::Error)]
enum MapCommandError {
    /// The game is being played: the maps are the edit state's, set aside until play stops.
    #[error("the maps cannot be changed while playing (the edit state comes back when play stops): stop first")]
    Playing,
    /// The operation itself failed.
    #[error(transparent)]
    File(#[from] MapFileError),
}

impl MapCommandError {
    /// What the user can do so that the operation can be done.
    fn hint(&self) -> Option<Hint> {
        match self {
            MapCommandError::Playing => Some(Hint::StopPlay),
            MapCommandError::File(_) => None,
        }
    }
}

/// The maps subsystem: what the validators last found on the map being edited (the files
/// themselves are the runtime's, [`nefia_game::map_files::MapFiles`]).
pub(crate) struct Maps {
    /// The validators' last findings and their pace.
    pub(crate) check: check::MapCheck,
}

/// The edit state set aside while playing (`Some` while the game is played): the maps the
/// subsystem works on then are its, and no file changes.
pub(crate) type SetAside = RefCell<Option<EditState>>;

impl Maps {
    /// Nothing checked yet.
    pub(crate) fn new() -> Maps {
        Maps { check: check::MapCheck::new() }
    }

    /// The maps subsystem's part of the snapshot; `may_check` is whether the validators may
    /// run now (see [`check::MapCheck::waiting`]).
    pub(crate) fn view(&self, cx: &Cx, set_aside: &SetAside, may_check: bool) -> MapsView {
        let world = cx.runtime.world();
        let mut files = match cx.runtime.project() {
            Some(project) => cx.runtime.maps().views(&world, &project),
            None => Vec::new(),
        };
        // While playing, the marks are the edit state's: playing changes no map file.
        let set_aside = set_aside.borrow();
        if let Some(edit) = set_aside.as_ref() {
            for view in &mut files {
                view.dirty = view.map.is_some() && edit.was_dirty(&view.name);
            }
        }
        let playing = set_aside.is_some();
        drop((world, set_aside));
        MapsView { files, problems: self.check.view(cx, playing, may_check) }
    }

    /// Carries out a map file operation, unless the game is being played, and logs what was
    /// done; a failure is refused with what would let it be done.
    pub(crate) fn handle(&self, cx: &Cx, set_aside: &SetAside, command: MapCommand) {
        // A rescan changes no map: the edit state's list is brought up to date too.
        let playing = set_aside.borrow().is_some() && command != MapCommand::Rescan;
        let result = match playing {
            true => Err(MapCommandError::Playing),
            false => change_maps(cx, set_aside, command).map_err(MapCommandError::from),
        };
        if let Err(error) = result {
            let refused = Refused::new(RefusalKind::Maps, error.to_string());
            cx.refuse(Refused { hint: error.hint(), ..refused });
        }
    }

    /// Watches the project's `maps/`: a map file that comes or goes sends
    /// [`MapCommand::Rescan`].
    pub(crate) fn watch(cx: &Cx, rescans: Sender<Command>) -> Option<FolderWatcher> {
        let dir = cx.runtime.project()?.maps_dir();
        let repaint = cx.repaint.clone();
        let map_file = |_: &notify::EventKind, path: &std::path::Path| path.extension().is_some_and(|e| e == "ron");
        let watcher = FolderWatcher::start(&[dir], false, map_file, move |_| {
            // The command channel outlives the watcher: it closes with the host.
            if rescans.send(Command::Maps(MapCommand::Rescan)).is_ok() {
                repaint();
            }
        });
        watcher
            .inspect_err(|error| {
                let text = format!("the Maps pane will not see files added to maps/ (it cannot be watched): {error}");
                cx.log(LogLevel::Warn, text);
            })
            .ok()
    }
}

/// Lists again what `maps/` holds, in the maps the editor has and, while playing, in the edit
/// state that comes back when play stops; says what came and went.
fn rescan_maps(cx: &Cx, set_aside: &SetAside) {
    let Some(project) = cx.runtime.project() else { return };
    let mut found = cx.runtime.maps_mut().0.rescan(&project);
    if let Some(edit) = set_aside.borrow_mut().as_mut() {
        found = edit.rescan_maps(&project);
    }
    for name in found.added {
        cx.log(LogLevel::Info, format!("maps/{name}.ron appeared: listed in the Maps pane"));
    }
    for name in found.gone {
        cx.log(LogLevel::Info, format!("maps/{name}.ron was removed: no longer listed"));
    }
    for name in found.removed_while_open {
        let text = format!(
            "maps/{name}.ron was removed while its map is open: the map is kept; save it to write the file again"
        );
        cx.log(LogLevel::Warn, text);
    }
}

/// Carries out a map file operation and logs what was done.
fn change_maps(cx: &Cx, set_aside: &SetAside, command: MapCommand) -> Result<(), MapFileError> {
    let (mut files, mut world, mut opened) = cx.runtime.maps_mut();
    let project = opened.as_mut().ok_or_else(|| MapFileError::Refused("no project is open".into()))?;
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
                cx.log(LogLevel::Warn, problem);
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
        MapCommand::Rescan => {
            drop((files, world, opened));
            rescan_maps(cx, set_aside);
            return Ok(());
        }
        MapCommand::Import { source, mapping, new_tiles } => {
            drop((files, world, opened));
            let options = import::ImportOptions { mapping, new_tiles };
            let report = import::import_map_with(cx.runtime, &source, &options)
                .map_err(|e| MapFileError::Refused(format!("import of {}: {e}", source.display())))?;
            for note in &report.notes {
                cx.log(LogLevel::Info, note.clone());
            }
            rescan_maps(cx, set_aside);
            let names: Vec<String> =
                report.also_written.iter().chain(&report.written).map(|p| p.display().to_string()).collect();
            format!("imported {}: wrote {}", source.display(), names.join(", "))
        }
    };
    cx.log(LogLevel::Info, done);
    Ok(())
}
