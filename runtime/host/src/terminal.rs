//! A game on the terminal, for the command line: `nefia run` runs a script in it and
//! `nefia repl` a REPL, with no runtime thread; `import`, `export`, `render` and `api-defs`
//! open a project's data in one without starting a game. The editor's command line holds a game
//! through this type and never a Lua state.

use std::cell::Ref;
use std::path::{Path, PathBuf};
use std::time::Duration;

use nefia_game::save::{MapRecord, RecordKind};
use nefia_game::world::World;
use nefia_lua::Runtime;
use nefia_lua::runtime::RuntimeError;
use nefia_protocol::failure::LuaFailure;
use nefia_protocol::output::{Output, ProgressSink};
use nefia_protocol::view::{MapView, MapViewBuilder};

use crate::maps::export::{ExportError, ExportedMap, export_map};
use crate::maps::import::{ImportFailure, ImportOptions, ImportReport, import_map_with};
use crate::type_defs::TypeDefsError;

/// How a game on the terminal runs its code.
#[derive(Clone, Copy, Debug, Default)]
pub struct TerminalOptions {
    /// `pause()` opens a REPL on the terminal; otherwise it does nothing.
    pub pause: bool,
    /// The time limit of each run of Lua code; none by default (scripts may be long jobs).
    pub time: Option<Duration>,
    /// The Lua heap limit in bytes; none by default.
    pub memory: Option<usize>,
}

/// Why a game on the terminal did not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// The project did not open (a mod failed, a file is bad).
    #[error("cannot open project {}: {error}", project.display())]
    Open {
        /// The project's folder.
        project: PathBuf,
        /// Why.
        error: RuntimeError,
    },
    /// The project opened but its game did not start (no start map, a handler failed).
    #[error("cannot start the game of {}: {error}", project.display())]
    Start {
        /// The project's folder.
        project: PathBuf,
        /// Why.
        error: RuntimeError,
    },
}

/// Why a map file could not be viewed; the world is as it was.
#[derive(Debug, thiserror::Error)]
pub enum MapViewError {
    /// The file could not be read or is not a map's RON.
    #[error(transparent)]
    Read(#[from] nefia_game::files::FileError),
    /// The loaded mods refuse the map (a bad size, an unknown tile).
    #[error("{}: {error}", path.display())]
    Refused {
        /// The map file.
        path: PathBuf,
        /// Why.
        error: nefia_game::world::WorldError,
    },
}

/// A project loaded on this thread, for the command line.
pub struct TerminalGame {
    runtime: Runtime,
}

impl TerminalGame {
    /// Opens `project` and starts its game, the options' limits holding from the first line
    /// of mod code on; `output` gets what the game prints and `progress` how loading goes.
    pub fn start(
        project: &Path,
        options: TerminalOptions,
        output: Box<dyn FnMut(Output)>,
        progress: ProgressSink,
    ) -> Result<TerminalGame, StartError> {
        let open = |error| StartError::Open { project: project.to_owned(), error };
        let mut runtime = Runtime::new(output).map_err(open)?;
        runtime.break_on_terminal(options.pause);
        runtime.set_limits(options.time, options.memory);
        runtime.set_progress(progress);
        runtime.open(project).map_err(open)?;
        runtime.start_game().map_err(|error| StartError::Start { project: project.to_owned(), error })?;
        Ok(TerminalGame { runtime })
    }

    /// Opens `project`'s mods and data without starting a game, its output dropped.
    pub fn open(project: &Path) -> Result<TerminalGame, StartError> {
        let runtime = Runtime::open_project(project, Box::new(|_: Output| {}))
            .map_err(|error| StartError::Open { project: project.to_owned(), error })?;
        Ok(TerminalGame { runtime })
    }

    /// Runs the Lua script at `path` as trusted code.
    pub fn run_file(&self, path: &Path) -> Result<(), LuaFailure> {
        self.runtime.run_file(path)
    }

    /// Reads, evaluates and prints Lua lines from the terminal until the end of input.
    pub fn read_eval_print(&self) {
        self.runtime.read_eval_print();
    }

    /// The game's world, to read.
    pub fn world(&self) -> Ref<'_, World> {
        self.runtime.world()
    }

    /// Imports a Tiled or LDtk map into the project (see [`import_map_with`]).
    pub fn import_map(&self, source: &Path, options: &ImportOptions) -> Result<ImportReport, ImportFailure> {
        import_map_with(&self.runtime, source, options)
    }

    /// Map file `map` as a Tiled map (see [`export_map`]).
    pub fn export_map(&self, map: &Path, image_name: &str) -> Result<ExportedMap, ExportError> {
        export_map(&self.runtime, map, image_name)
    }

    /// Map file `map` made the current map and viewed as the renderer draws it, with nothing
    /// out of sight (`nefia render`).
    pub fn map_view(&self, map: &Path) -> Result<std::sync::Arc<MapView>, MapViewError> {
        let record: MapRecord = nefia_game::files::read_ron(map)?;
        let refused = |error| MapViewError::Refused { path: map.to_owned(), error };
        let mut world = self.runtime.world_mut();
        let id = world.map_from_record(&record, RecordKind::MapFile).map_err(refused)?;
        world.set_current_map(id).map_err(refused)?;
        let view = MapViewBuilder::default().build(&world);
        Ok(view.expect("the map was made current above"))
    }

    /// The folders images named by prototypes are looked up in, in order.
    pub fn asset_dirs(&self) -> Vec<PathBuf> {
        self.runtime.project().map(|p| p.asset_dirs()).unwrap_or_default()
    }

    /// Writes the Lua API's type definitions for `project` into `out` (see
    /// [`crate::type_defs::write`]).
    pub fn write_type_defs(&self, project: &Path, out: &Path) -> Result<Vec<PathBuf>, TypeDefsError> {
        crate::type_defs::write(&self.runtime, project, out)
    }
}
