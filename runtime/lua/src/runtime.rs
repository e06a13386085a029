//! [`Runtime`]: a world and its Lua state with a project's mods loaded — what `nefia run`,
//! the tests and (on its own thread) the editor drive.

use std::cell::{Ref, RefMut};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use mlua::{Lua, Table};

use crate::repl;
use crate::{Engine, LoadedMod};
use nefia_game::data::DataRegistry;
use nefia_game::files::FileError;
use nefia_game::map::MapId;
use nefia_game::map_files::{MapFileError, MapFiles};
use nefia_game::mods::{self, ModInfo, ModsError};
use nefia_game::object::ObjectKind;
use nefia_game::object::Uid;
use nefia_game::project::Project;
use nefia_game::symbol::Symbol;
use nefia_game::world::{World, WorldError};
use nefia_protocol::failure::LuaFailure;
use nefia_protocol::output::Output;
use nefia_protocol::repl::Evaluation;

/// Why a runtime could not be set up or a step failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RuntimeError {
    /// A project or map file is missing or malformed.
    #[error(transparent)]
    File(#[from] FileError),
    /// The mods could not be ordered.
    #[error(transparent)]
    Mods(#[from] ModsError),
    /// Lua code failed.
    #[error("{0}")]
    Lua(#[from] LuaFailure),
    /// A world operation failed.
    #[error(transparent)]
    World(#[from] WorldError),
    /// Saving or loading failed.
    #[error(transparent)]
    Save(#[from] crate::save::SaveError),
    /// A map file could not be opened.
    #[error(transparent)]
    MapFile(#[from] MapFileError),
}

/// What opening a project does when one of its mods cannot load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnModFailure {
    /// Stop with the error (`nefia run`, `nefia check`, tests).
    Stop,
    /// Skip that mod and those that need it, note why (see [`Runtime::mod_failures`]) and
    /// go on with the rest (the editor, so the Mods pane can show the problem).
    Skip,
}

/// A world with a Lua state and loaded mods.
pub struct Runtime {
    lua: Lua,
    engine: Rc<Engine>,
    mods: Vec<ModInfo>,
    /// The mods skipped under [`OnModFailure::Skip`], by id, with why.
    mod_failures: Vec<(String, String)>,
}

impl Runtime {
    /// A runtime with no mods loaded. `output` receives `print` lines and messages.
    pub fn new(output: Box<dyn FnMut(Output)>) -> Result<Runtime, RuntimeError> {
        let (lua, engine) =
            crate::install(World::new(DataRegistry::default()), output).map_err(crate::error::failure)?;
        Ok(Runtime { lua, engine, mods: Vec::new(), mod_failures: Vec::new() })
    }

    /// Opens the project in `dir` and loads its mods (the world is empty until
    /// [`Runtime::start_game`]).
    pub fn open_project(dir: &Path, output: Box<dyn FnMut(Output)>) -> Result<Runtime, RuntimeError> {
        let mut runtime = Runtime::new(output)?;
        runtime.open(dir)?;
        Ok(runtime)
    }

    /// Opens the project in `dir` in this runtime and loads its mods, under the limits set
    /// so far (see [`Runtime::set_limits`]); a mod that cannot load is an error.
    pub fn open(&mut self, dir: &Path) -> Result<(), RuntimeError> {
        self.open_with(dir, OnModFailure::Stop)
    }

    /// [`Runtime::open`], doing `on_failure` when a mod cannot load.
    pub fn open_with(&mut self, dir: &Path, on_failure: OnModFailure) -> Result<(), RuntimeError> {
        let project = Project::open(dir)?;
        let removed = project.remove_stale_temps();
        if removed > 0 {
            tracing::info!("{}: removed {removed} temp file(s) left by interrupted writes", dir.display());
        }
        self.engine.set_save_dir(project.saves_dir());
        self.engine.set_asset_dirs(project.asset_dirs());
        match on_failure {
            OnModFailure::Stop => self.load_mods(&project.mod_dirs(), &project.manifest.mods)?,
            OnModFailure::Skip => self.load_mods_skipping_failures(&project.mod_dirs(), &project.manifest.mods),
        }
        *self.engine.map_files_mut() = MapFiles::scan(&project);
        *self.engine.project_mut() = Some(project);
        Ok(())
    }

    /// Finds the mods under `mod_dirs` and loads `wanted` with their dependencies, in order.
    pub fn load_mods(&mut self, mod_dirs: &[PathBuf], wanted: &[String]) -> Result<(), RuntimeError> {
        let available = mods::discover(mod_dirs)?;
        let order = mods::load_order(&available, wanted, mod_dirs)?;
        let total = order.len();
        for (done, info) in order.into_iter().enumerate() {
            if self.mods.iter().any(|m| m.id() == info.id()) {
                continue;
            }
            self.engine.progress(format!("loading mod {}", info.id()), done, total);
            self.load_mod(&info)?;
            self.mods.push(info);
        }
        self.load_translations()
    }

    /// Loads the current language's locale files of the loaded mods (see [`crate::i18n`]).
    fn load_translations(&self) -> Result<(), RuntimeError> {
        let order: Vec<&str> = self.mods.iter().map(ModInfo::id).collect();
        Ok(crate::i18n::load_after_mods(&self.lua, &order)?)
    }

    /// Loads `wanted` as [`Runtime::load_mods`] does, except that a mod that cannot load (a
    /// broken manifest, a missing dependency, an error in its `init.lua`) is skipped, with
    /// the mods that need it, and noted in [`Runtime::mod_failures`].
    pub fn load_mods_skipping_failures(&mut self, mod_dirs: &[PathBuf], wanted: &[String]) {
        let (available, problems) = mods::discover_all(mod_dirs);
        self.mod_failures.extend(problems.into_iter().map(|(folder, problem)| (folder, problem.to_string())));
        for (done, id) in wanted.iter().enumerate() {
            self.engine.progress(format!("loading mod {id}"), done, wanted.len());
            if self.has_failed(id) {
                continue;
            }
            let order = match mods::load_order(&available, std::slice::from_ref(id), mod_dirs) {
                Ok(order) => order,
                Err(error) => {
                    self.mod_failures.push((id.clone(), error.to_string()));
                    continue;
                }
            };
            for info in order {
                if self.mods.iter().any(|m| m.id() == info.id()) || self.has_failed(info.id()) {
                    continue;
                }
                if let Some(failed) = info.manifest.dependencies.iter().find(|d| self.has_failed(d)) {
                    let why = format!("not loaded: it needs '{failed}', which did not load");
                    self.mod_failures.push((info.id().to_owned(), why));
                    continue;
                }
                match self.load_mod(&info) {
                    Ok(()) => self.mods.push(info),
                    Err(error) => self.mod_failures.push((info.id().to_owned(), error.to_string())),
                }
            }
        }
        if let Err(error) = self.load_translations() {
            crate::gui::log(&self.lua, nefia_game::display::LogLevel::Error, error.to_string());
        }
    }

    fn has_failed(&self, id: &str) -> bool {
        self.mod_failures.iter().any(|(failed, _)| failed == id)
    }

    /// The mods skipped when the project opened, by id, with why.
    pub fn mod_failures(&self) -> &[(String, String)] {
        &self.mod_failures
    }

    /// Every mod under the project's mod folders, as the Mods pane lists them.
    pub fn mod_rows(&self) -> Vec<mods::ModRow> {
        let Some(project) = self.project() else { return Vec::new() };
        let (found, problems) = mods::discover_all(&project.mod_dirs());
        let why = |id: &str| self.mod_failures.iter().find(|(failed, _)| failed == id).map(|(_, why)| why.clone());
        let enabled = |id: &str| project.manifest.mods.iter().any(|m| m == id);
        let mut rows: Vec<mods::ModRow> = found
            .values()
            .map(|info| mods::ModRow {
                id: info.id().to_owned(),
                version: info.manifest.version.clone(),
                description: info.manifest.description.clone(),
                dependencies: info.manifest.dependencies.clone(),
                dir: info.dir.canonicalize().unwrap_or_else(|_| info.dir.clone()),
                enabled: enabled(info.id()),
                load_position: self.mods.iter().position(|m| m.id() == info.id()),
                problem: why(info.id()),
            })
            .collect();
        for (folder, problem) in problems {
            let dir = project.mod_dirs().into_iter().map(|d| d.join(&folder)).find(|d| d.is_dir()).unwrap_or_default();
            rows.push(mods::ModRow {
                enabled: enabled(&folder),
                id: folder,
                version: String::new(),
                description: String::new(),
                dependencies: Vec::new(),
                dir,
                load_position: None,
                problem: Some(problem.to_string()),
            });
        }
        rows.sort_by(|a, b| {
            (a.load_position.is_none(), a.load_position, &a.id).cmp(&(
                b.load_position.is_none(),
                b.load_position,
                &b.id,
            ))
        });
        rows
    }

    fn load_mod(&self, info: &ModInfo) -> Result<(), RuntimeError> {
        let id = Symbol::intern(info.id());
        let env = crate::environment(&self.lua, info.id(), Some(id), false).map_err(crate::error::failure)?;
        self.engine.add_mod(id, LoadedMod { env: env.clone(), dir: info.dir.clone() });
        // Every loaded mod has its save table from the start.
        let save: Table = self.engine.api_global("save").map_err(crate::error::failure)?;
        let _: Table = save.get(info.id()).map_err(crate::error::failure)?;
        let init = info.dir.join("init.lua");
        if init.is_file() {
            let chunk = crate::load_mod_file(&self.lua, id, &info.dir, &init, env).map_err(crate::error::failure)?;
            self.engine.limits().run(|| chunk.call::<()>(())).map_err(crate::error::failure)?;
        }
        Ok(())
    }

    /// Opens the project's start map and makes it current (the editor's first view); no
    /// player is placed. Returns the map, if the project names one.
    pub fn open_start_map(&self) -> Result<Option<MapId>, RuntimeError> {
        let Some(project) = self.project() else { return Ok(None) };
        let Some(start) = &project.manifest.start_map else { return Ok(None) };
        let engine = self.engine();
        engine.progress(format!("opening map {start}"), 0, 1);
        let (map, problems) = engine.map_files_mut().open(&mut engine.world_mut(), &project, start)?;
        for problem in problems {
            crate::gui::log(self.lua(), nefia_game::display::LogLevel::Warn, problem);
        }
        engine.world_mut().set_current_map(map)?;
        Ok(Some(map))
    }

    /// Makes the project's player prototype the player and puts it on `map` at `at`, or at
    /// the map's entrance, or on a random open cell; refreshes it and its sight, and fires
    /// `base.on_game_started`.
    pub fn place_player(&self, map: MapId, at: Option<(i32, i32)>) -> Result<(), RuntimeError> {
        let Some(project) = self.project() else { return Ok(()) };
        let Some(player_id) = &project.manifest.player else {
            return Err(WorldError::NoPlayerPrototype(project.manifest.name.clone()).into());
        };
        let engine = self.engine();
        let player = {
            let mut world = engine.world_mut();
            let player = world.create(ObjectKind::Chara, player_id)?;
            let (x, y) = match at.or(world.map(map)?.entrance) {
                Some(cell) => cell,
                None => world.random_open_position(map, ObjectKind::Chara)?,
            };
            world.take_object(nefia_game::Holder::Map(map), player, x, y)?;
            world.set_player(player)?;
            world.set_current_map(map)?;
            player
        };
        self.refresh(player)?;
        engine.world_mut().refresh_sight();
        let lua = self.lua();
        let started = engine.limits().run(|| -> mlua::Result<()> {
            let params = lua.create_table()?;
            params.set("player", crate::handle::push_object(lua, player)?)?;
            crate::event::trigger(lua, Symbol::intern("base.on_game_started"), mlua::Value::Nil, params)?;
            Ok(())
        });
        Ok(started.map_err(crate::error::failure)?)
    }

    /// Starts a game headless (`nefia run`, tests): opens the start map and places the
    /// player there, as Play does in the editor (see the host's `play` component).
    pub fn start_game(&mut self) -> Result<(), RuntimeError> {
        if let Some(map) = self.open_start_map()? {
            self.place_player(map, None)?;
        }
        Ok(())
    }

    /// Runs a Lua file in a trusted environment (with `debug`), as `nefia run` does, under
    /// the time limit (see [`Runtime::set_limits`]).
    pub fn run_file(&self, path: &Path) -> Result<(), LuaFailure> {
        let env = crate::environment(&self.lua, "script", None, true).map_err(crate::error::failure)?;
        let name = path.display().to_string();
        let chunk = crate::load_file(&self.lua, &name, None, path, env).map_err(crate::error::failure)?;
        self.engine.limits().run(|| self.engine.debugger().call::<_, ()>(&chunk, ())).map_err(crate::error::failure)?;
        Ok(())
    }

    /// The hash of the whole game state with every mod's `save` table (see
    /// [`World::state_hash`]).
    pub fn state_hash(&self) -> Result<u64, RuntimeError> {
        let tables = crate::save::save_tables(&self.lua)?;
        Ok(self.world().state_hash(&tables))
    }

    /// Tells `sink` each step of long work: each mod loaded, the start map opened, a save read
    /// and rebuilt.
    pub fn set_progress(&self, sink: nefia_protocol::output::ProgressSink) {
        self.engine.set_progress_sink(sink);
    }

    /// Sets the time limit of one evaluation and the memory limit of the Lua heap (`None`:
    /// unlimited, the default headless).
    pub fn set_limits(&self, time: Option<std::time::Duration>, memory: Option<usize>) {
        self.engine.limits().set(&self.lua, time, memory);
    }

    /// Makes `pause()` open a REPL on the terminal (`nefia run --break`); otherwise, headless,
    /// it does nothing.
    pub fn break_on_terminal(&self, enabled: bool) {
        self.engine.set_terminal_breaks(enabled);
    }

    /// A Lua REPL on the terminal (`nefia repl`): reads lines from stdin and evaluates them in
    /// the trusted REPL environment until the end of input; values go to stdout, errors to
    /// stderr.
    pub fn read_eval_print(&self) {
        repl::read_eval_print(&self.lua, "", &|| false);
    }

    /// Runs a Lua file whose prototypes go in namespace `mod_id` (test files, for example),
    /// with `globals` defined in its environment first, and returns the environment (the
    /// globals it defined).
    pub fn run_file_as(&self, path: &Path, mod_id: &str, globals: &[(&str, mlua::Value)]) -> Result<Table, LuaFailure> {
        let env = crate::environment(&self.lua, mod_id, None, true).map_err(crate::error::failure)?;
        for (name, value) in globals {
            env.raw_set(*name, value).map_err(crate::error::failure)?;
        }
        let name = path.display().to_string();
        crate::load_file(&self.lua, &name, Some(Symbol::intern(mod_id)), path, env.clone())
            .map_err(crate::error::failure)?
            .call::<()>(())
            .map_err(crate::error::failure)?;
        Ok(env)
    }

    /// The `Assert` table of Lua tests (`Assert.eq(actual, expected [, message])` and the
    /// rest of `assert.lua`), made afresh.
    pub fn assert_library(&self) -> Result<mlua::Value, LuaFailure> {
        let env = crate::environment(&self.lua, "test", None, true).map_err(crate::error::failure)?;
        let chunk = self.lua.load(include_str!("assert.lua")).set_name("@nefia Assert").set_environment(env.clone());
        chunk.exec().map_err(crate::error::failure)?;
        env.raw_get("Assert").map_err(crate::error::failure)
    }

    /// Evaluates REPL input (see [`repl::evaluate`]) as one evaluation under the limits.
    pub fn eval(&self, code: &str) -> Evaluation {
        self.engine.limits().run(|| repl::evaluate(&self.lua, code))
    }

    /// Runs Lua code in the REPL's environment (trusted, with `debug`) and returns its
    /// results.
    pub fn exec(&self, code: &str, name: &str) -> Result<mlua::MultiValue, LuaFailure> {
        let env = self.engine.repl_env();
        self.lua.load(code).set_name(format!("={name}")).set_environment(env).call(()).map_err(crate::error::failure)
    }

    /// `refresh()` on object `uid`: clears its temp values and emits its refresh event.
    pub fn refresh(&self, uid: Uid) -> Result<(), LuaFailure> {
        crate::object::refresh(&self.lua, uid).map_err(crate::error::failure)?;
        Ok(())
    }

    /// Saves the game as `name` in the project's save folder (see [`Runtime::set_save_dir`]).
    pub fn save_game(&self, name: &str) -> Result<PathBuf, RuntimeError> {
        Ok(crate::save::save_game(&self.lua, name)?)
    }

    /// Loads save `name`, replacing the world.
    pub fn load_game(&self, name: &str) -> Result<PathBuf, RuntimeError> {
        Ok(crate::save::load_game(&self.lua, name)?)
    }

    /// Sets the folder saves are written to and read from.
    pub fn set_save_dir(&self, dir: PathBuf) {
        self.engine.set_save_dir(dir);
    }

    /// The world, for reading.
    pub fn world(&self) -> Ref<'_, World> {
        self.engine.world()
    }

    /// The world, for changing from Rust.
    pub fn world_mut(&self) -> RefMut<'_, World> {
        self.engine.world_mut()
    }

    /// The Lua state.
    pub fn lua(&self) -> &Lua {
        &self.lua
    }

    /// The state shared by the Lua API.
    pub fn engine(&self) -> &Rc<Engine> {
        &self.engine
    }

    /// The open project, if any (a copy: see [`Runtime::maps_mut`] to change it).
    pub fn project(&self) -> Option<Project> {
        self.engine.project().clone()
    }

    /// The project's map files and their maps in the world.
    pub fn maps(&self) -> Ref<'_, MapFiles> {
        self.engine.map_files()
    }

    /// The project's map files, the world and the project, for changing them together.
    pub fn maps_mut(&self) -> (RefMut<'_, MapFiles>, RefMut<'_, World>, RefMut<'_, Option<Project>>) {
        (self.engine.map_files_mut(), self.engine.world_mut(), self.engine.project_mut())
    }

    /// The loaded mods in load order.
    pub fn mods(&self) -> &[ModInfo] {
        &self.mods
    }
}
