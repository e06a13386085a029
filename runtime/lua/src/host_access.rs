//! What the host (`runtime/host/src/`, `runtime.rs`) and the crates over the runtime reach the engine
//! through: [`Engine`]'s fields are private to this crate, and these methods say what is wanted of
//! them. The world, the session log, the UI state and the map files are lent as `Ref`/`RefMut`
//! for as long as the caller keeps them, as a borrow of the field was before; the time and
//! memory limits, the debugger and the profiler are subsystems with methods of their own and
//! are lent whole.

use std::cell::{BorrowError, BorrowMutError, Ref, RefMut};
use std::collections::{BTreeMap, VecDeque};
use std::path::PathBuf;

use mlua::{FromLua, Table};
use rustc_hash::FxHashMap;

use super::{Engine, LoadedMod, SourceFile, debugger, gui, limits, profile, session};
use nefia_game::map_files::MapFiles;
use nefia_game::object::Uid;
use nefia_game::project::Project;
use nefia_game::symbol::Symbol;
use nefia_game::world::World;
use nefia_protocol::output::ProgressSink;

impl Engine {
    /// The game state, to read. Panics if it is being changed.
    pub fn world(&self) -> Ref<'_, World> {
        self.world.borrow()
    }

    /// The game state, to change. Panics if it is in use.
    pub fn world_mut(&self) -> RefMut<'_, World> {
        self.world.borrow_mut()
    }

    /// The game state to read, or an error if it is being changed (after a panic, say).
    pub fn try_world(&self) -> Result<Ref<'_, World>, BorrowError> {
        self.world.try_borrow()
    }

    /// The game state to change, or an error if it is in use (after a panic, say).
    pub fn try_world_mut(&self) -> Result<RefMut<'_, World>, BorrowMutError> {
        self.world.try_borrow_mut()
    }

    /// The inputs of the session being recorded or replayed, to read.
    pub fn session(&self) -> Ref<'_, session::SessionLog> {
        self.session.borrow()
    }

    /// The session log, to start or stop recording or replaying and to take inputs from it.
    pub fn session_mut(&self) -> RefMut<'_, session::SessionLog> {
        self.session.borrow_mut()
    }

    /// UI layers, widgets and messages, to read.
    pub fn gui(&self) -> Ref<'_, gui::GuiState> {
        self.gui.borrow()
    }

    /// Forgets the messages shown to the player (a play begins or ends).
    pub fn clear_messages(&self) {
        self.gui.borrow_mut().clear_messages();
    }

    /// Puts back the messages shown to the player (a checkpoint of a recording is restored).
    pub fn set_messages(&self, messages: VecDeque<String>) {
        self.gui.borrow_mut().set_messages(messages);
    }

    /// The time and memory limits of Lua code, and the Stop and Pause flags.
    pub fn limits(&self) -> &limits::Limits {
        &self.limits
    }

    /// Line breakpoints and stepping.
    pub fn debugger(&self) -> &debugger::Debugger {
        &self.debugger
    }

    /// The turn profiler.
    pub fn profiler(&self) -> &profile::Profiler {
        &self.profiler
    }

    /// Where `Save.save_game` writes.
    pub fn save_dir(&self) -> PathBuf {
        self.save_dir.borrow().clone()
    }

    /// Makes `Save.save_game` write into `dir`.
    pub fn set_save_dir(&self, dir: PathBuf) {
        *self.save_dir.borrow_mut() = dir;
    }

    /// Sets the asset folders prototypes' images are looked up in (the project's, in order).
    pub fn set_asset_dirs(&self, dirs: Vec<PathBuf>) {
        *self.sheets.borrow_mut() = nefia_game::art::Sheets::new(dirs);
    }

    /// Forgets the sizes of the sheets measured so far (a hotload may follow a PNG's change).
    pub fn forget_sheet_sizes(&self) {
        self.sheets.borrow().forget();
    }

    /// Tells long work's steps to `sink` (see [`Engine::progress`]).
    pub fn set_progress_sink(&self, sink: ProgressSink) {
        *self.progress.borrow_mut() = Some(sink);
    }

    /// Marks the game as played (`Play.is_playing()` is true).
    pub fn start_playing(&self) {
        self.play.playing.set(true);
    }

    /// Marks play as over: not played, and no `Play.quit()` waiting to be acted on.
    pub fn stop_playing(&self) {
        self.play.playing.set(false);
        self.play.quit_requested.set(false);
    }

    /// True if game code asked to stop playing (`Play.quit()`).
    pub fn quit_requested(&self) -> bool {
        self.play.quit_requested.get()
    }

    /// True if game code asked to stop playing (`Play.quit()`); the request is taken.
    pub fn take_quit_request(&self) -> bool {
        self.play.quit_requested.take()
    }

    /// True if the invariants run after every turn of play.
    pub fn checks_invariants(&self) -> bool {
        self.play.check_invariants.get()
    }

    /// Runs the invariants after every turn of play (`on`), or not.
    pub fn set_check_invariants(&self, on: bool) {
        self.play.check_invariants.set(on);
    }

    /// Starts the next new game with random seed `seed` (none: a seed of its own).
    pub fn set_next_seed(&self, seed: Option<u64>) {
        self.play.next_seed.set(seed);
    }

    /// The seed asked for the next new game (see [`Engine::set_next_seed`]), taken: the game
    /// after it gets a seed of its own.
    pub fn take_next_seed(&self) -> Option<u64> {
        self.play.next_seed.take()
    }

    /// The objects selected, by the editor or a script.
    pub fn selection(&self) -> Vec<Uid> {
        self.editor.selection.borrow().clone()
    }

    /// Selects `uids` for the editor: scripts see them in `Editor.selection()`, and it does
    /// not count as a script's choice (see [`Engine::selections_by_script`]).
    pub fn set_selection(&self, uids: Vec<Uid>) {
        *self.editor.selection.borrow_mut() = uids;
    }

    /// How many times a script chose the selection (`Editor.select`).
    pub fn selections_by_script(&self) -> u64 {
        self.editor.selections_by_script.get()
    }

    /// The environment REPL code runs in.
    pub fn repl_env(&self) -> Table {
        self.repl.borrow().env.clone()
    }

    /// The innermost `pause()` break in progress, if any.
    pub fn pause_view(&self) -> Option<nefia_protocol::repl::PauseView> {
        self.repl.borrow().pause_view()
    }

    /// Why the innermost `pause()` break stopped, if there is one (without reading its frame's
    /// variables, as [`Engine::pause_view`] does).
    pub fn pause_cause(&self) -> Option<nefia_protocol::repl::BreakCause> {
        self.repl.borrow().pause_cause()
    }

    /// Frame `index` (0: the paused one) of the innermost `pause()` break: its captured
    /// variables; none if there is no such break or frame.
    pub fn paused_frame(&self, index: usize) -> Option<Table> {
        self.repl.borrow().frame(index)
    }

    /// Lets the innermost `pause()` break go on; false if there was none.
    pub fn resume_pause(&self) -> bool {
        self.repl.borrow_mut().resume()
    }

    /// Whether a failure of code run from the terminal breaks into a `pause()` REPL.
    pub fn set_terminal_breaks(&self, enabled: bool) {
        self.repl.borrow_mut().terminal_breaks = enabled;
    }

    /// The changes collecting watches noted since they were last taken.
    pub fn take_watch_changes(&self) -> Vec<nefia_protocol::watch::FieldChange> {
        std::mem::take(&mut *self.watch.changes.borrow_mut())
    }

    /// The loaded files by chunk name (`@mods/elona/init.lua`).
    pub fn sources(&self) -> Ref<'_, FxHashMap<String, SourceFile>> {
        self.sources.borrow()
    }

    /// The mod a loaded file belongs to, by its path on disk; none if no mod's loaded file is
    /// there.
    pub fn mod_of_file(&self, path: &std::path::Path) -> Option<Symbol> {
        self.sources.borrow().values().find(|s| s.path.as_deref() == Some(path)).and_then(|s| s.mod_id)
    }

    /// Registers mod `id` as loaded: its environment and folder (`require` finds it).
    pub fn add_mod(&self, id: Symbol, loaded: LoadedMod) {
        self.mods.borrow_mut().insert(id, loaded);
    }

    /// Each loaded mod's environment and folder.
    pub fn loaded_mods(&self) -> Ref<'_, BTreeMap<Symbol, LoadedMod>> {
        self.mods.borrow()
    }

    /// The handlers `uid` has of its own and from its prototype `proto`, one line each.
    pub fn own_handlers(&self, uid: Uid, proto: Symbol) -> Vec<String> {
        self.object_events.borrow().listing(uid, proto)
    }

    /// The Lua tables given to `data:add` for `data_type`, by id; none if none was.
    pub fn data_tables_of(&self, data_type: &str) -> mlua::Result<Option<Table>> {
        self.data_tables.raw_get(data_type)
    }

    /// The engine's global `name` (`World`, `Map`, `save`, `types`) as the engine installed it.
    pub fn api_global<V: FromLua>(&self, name: &str) -> mlua::Result<V> {
        self.api.raw_get(name)
    }

    /// The open project, if any.
    pub fn project(&self) -> Ref<'_, Option<Project>> {
        self.project.borrow()
    }

    /// The open project, to open, close or change.
    pub fn project_mut(&self) -> RefMut<'_, Option<Project>> {
        self.project.borrow_mut()
    }

    /// The project's map files and their maps in the world.
    pub fn map_files(&self) -> Ref<'_, MapFiles> {
        self.maps.borrow()
    }

    /// The project's map files, to change.
    pub fn map_files_mut(&self) -> RefMut<'_, MapFiles> {
        self.maps.borrow_mut()
    }

    /// The project's map files, or an error if they are being changed (after a panic, say).
    pub fn try_map_files(&self) -> Result<Ref<'_, MapFiles>, BorrowError> {
        self.maps.try_borrow()
    }
}
