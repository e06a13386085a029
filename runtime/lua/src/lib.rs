//! The Lua API: the globals of the engine-features page (`Chara`, `Item`, `Feat`, `Map`,
//! `InstancedMap`, `Gui`, `Event`, `data`, `save`, `World`), one file per global table, over
//! one shared [`Engine`].
//!
//! Every mod runs in its own environment whose `_MOD_NAME` is its id and whose `require`
//! resolves modules inside the mod; globals it defines stay in its environment. The shared API
//! table has the safe standard library only (no `io`, no `debug`); trusted code (the REPL,
//! scripts run from the command line) gets `debug` too.
//!
//! Each mod's environment (`environment.rs`: its own `_MOD_NAME`, `_G`, `load` and `require`)
//! reads through read-only views of the API tables and of the standard library, made once by
//! `sandbox.lua` after the whole API is installed (Luau's sandbox is the model): writes, `rawset`
//! and `setmetatable` on them are refused, the string metatable is hidden, and `save` stays live
//! but each entry takes only a table. Each file loaded is registered as a source
//! ([`Engine::register_source`]), so errors, event handlers and temp values know their mod and
//! file:line. `compile` skips a UTF-8 byte order mark as LuaJIT (OpenNefia's loader) does, and
//! notes each file's `data:add_multi` list entries (`listed_entries`), so each such prototype is
//! recorded at its own entry's line.

mod c_closure;
mod call_info;
mod caller;
pub mod content_checks;
pub mod convert;
pub mod data;
pub mod data_validators;
pub mod debugger;
pub mod editor;
mod environment;
pub mod error;
pub mod event;
#[cfg(feature = "fault-injection")]
mod fault;
mod field_shadow;
mod find;
pub mod gui;
pub mod handle;
mod handlers;
mod heap;
mod host_access;
mod hotloading;
pub mod i18n;
pub mod images;
pub mod inspect;
pub mod instantiate;
pub mod invariants;
mod items;
pub mod limits;
mod location;
pub mod map;
mod map_store;
pub mod mapgen;
mod name_cache;
pub mod object;
mod object_access;
pub mod object_events;
pub mod objects;
mod params;
mod patterns;
pub mod profile;
pub mod prototype_overrides;
pub mod random;
pub mod reload;
pub mod repl;
pub mod runtime;
pub mod save;
pub mod schema;
pub mod session;
pub mod stdlib;
mod travel;
pub mod type_defs;
pub mod watch;
pub mod watchdog;
pub mod world;

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use mlua::{Function, Lua, Table, ffi};
use rustc_hash::FxHashMap;

use name_cache::NameCache;
use nefia_game::data::OnDuplicate;
use nefia_game::moddable::Origin;
use nefia_game::symbol::Symbol;
use nefia_game::world::World;

pub use environment::environment;
pub use mlua;
use nefia_protocol::output::{Output, Progress, ProgressSink};
pub use runtime::{OnModFailure, Runtime};

/// Where a loaded Lua file came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SourceFile {
    /// The mod that owns it: the namespace of what it adds with `data:add`.
    pub mod_id: Option<Symbol>,
    /// Its name in messages, such as `mods/elona/init.lua`.
    pub name: Symbol,
    /// The file on disk, if it is one.
    pub path: Option<PathBuf>,
    /// The digest of the text it was last compiled from ([`files::content_digest`]); none
    /// for code that is not a file, and after a reload of it failed: a save that leaves the
    /// text as it runs has nothing to reload (see `reload::Unchanged`).
    ///
    /// [`files::content_digest`]: nefia_game::files::content_digest
    pub text_digest: Option<u64>,
}

/// A mod whose files are loaded.
#[derive(Clone)]
pub struct LoadedMod {
    /// The environment its files run in.
    pub env: Table,
    /// Its folder.
    pub dir: PathBuf,
}

/// The state every Lua API function works on. Lives in the Lua state's app data.
///
/// Its fields are private to this crate: the host reaches the engine through methods that say
/// what it wants (`host_access.rs`), so what the Lua API keeps, and how, stays its own.
pub struct Engine {
    /// The game state.
    world: RefCell<World>,
    /// Event handlers.
    events: RefCell<handlers::EventRegistry>,
    /// The handlers objects have of their own (`obj:connect_self`, prototypes' `events`).
    object_events: RefCell<handlers::ObjectEvents>,
    /// The prototypes that give their own `take_object` or `can_take_object`.
    location_overrides: RefCell<rustc_hash::FxHashSet<Symbol>>,
    /// Loaded files by chunk name (`@mods/elona/init.lua`).
    sources: RefCell<FxHashMap<String, SourceFile>>,
    /// The entries of the `data:add_multi` lists each loaded file writes out, by chunk name, as
    /// the file was compiled: `data:add_multi` records each prototype at its entry's line.
    listed_entries: RefCell<FxHashMap<String, Vec<nefia_game::source_edit::ListedEntry>>>,
    /// Whether re-adding a prototype or handler replaces it (hotload) or is an error.
    on_duplicate: Cell<OnDuplicate>,
    /// The object prototypes added again during the hotload in progress (data type, id).
    hotloaded_prototypes: RefCell<Vec<(Symbol, Symbol)>>,
    /// Where `Save.save_game` writes.
    save_dir: RefCell<PathBuf>,
    /// The sheets of the project's asset folders, measured as prototypes' images are read
    /// (none without a project: images are then read but not checked against files).
    sheets: RefCell<nefia_game::art::Sheets>,
    /// UI layers, widgets, map draw layers, messages and log.
    gui: RefCell<gui::GuiState>,
    /// The REPL's globals and the `pause()` breaks in progress.
    repl: RefCell<repl::Repl>,
    /// Line breakpoints and stepping (a debug adapter's).
    debugger: debugger::Debugger,
    /// The time and memory limits of Lua code, and the Stop flag.
    limits: limits::Limits,
    /// Whether the game is played, and whether game code asked to stop.
    play: PlayFlags,
    /// What scripts and the editor share: the selection.
    editor: EditorLink,
    /// The inputs of the session being recorded or replayed, and the clock reads and saves
    /// that reach game logic from outside the game.
    session: RefCell<session::SessionLog>,
    /// Watchpoints' conditions and what collecting watches noted.
    watch: watch::WatchLink,
    /// The turn profiler.
    profiler: profile::Profiler,
    /// What blocking calls wait on; none when headless.
    frontend: RefCell<Option<Rc<dyn gui::Frontend>>>,
    output: RefCell<Box<dyn FnMut(Output)>>,
    handles: RefCell<handle::Handles>,
    /// Told each step of long work (see [`Engine::progress`]).
    progress: RefCell<Option<ProgressSink>>,
    /// The Lua tables given to `data:add`, by type then id.
    data_tables: Table,
    /// The API table as the engine installed it (writable: only Rust uses it).
    api: Table,
    /// The read-only view of [`Engine::api`] every environment reads through, and the maker
    /// of an environment's `load` (`sandbox.lua`); set once the whole API is installed.
    sandbox: std::cell::OnceCell<(Table, Function)>,
    /// Each loaded mod's environment and folder.
    mods: RefCell<BTreeMap<Symbol, LoadedMod>>,
    /// The open project, if any.
    project: RefCell<Option<nefia_game::project::Project>>,
    /// The project's map files and their maps in the world (`Map.open`).
    maps: RefCell<nefia_game::map_files::MapFiles>,
    /// Modules returned by `require`, by `mod:module`.
    modules: Table,
    /// Source text given to modules by `env.load_transient_path`, by `mod:module`: `require`
    /// and `hotload.hotload` use it instead of the file (see `hotloading.rs`).
    transient: RefCell<FxHashMap<String, String>>,
    ipairs_iter: Function,
    /// Makes a chain over a list (`chain.lua`): what the engine's iterators return.
    chain: Function,
    pairs_of: Function,
    /// Names already looked up, by the address of their Lua string.
    names: NameCaches,
    /// The mod and file of the functions that called `mod` (see `caller.rs`).
    callers: caller::CallerFiles,
}

/// Play's flags as the Lua API sees them.
#[derive(Default)]
pub struct PlayFlags {
    /// True while the game is played (`Play.is_playing()`).
    pub playing: Cell<bool>,
    /// Game code asked to stop playing (`Play.quit()`); the frontend acts on it.
    pub quit_requested: Cell<bool>,
    /// The invariants run after every turn of play, a failure stopping the game like a watch.
    pub check_invariants: Cell<bool>,
    /// What the last check of each invariant found, by id (see [`invariants::statuses`]).
    pub(crate) invariant_checks: RefCell<BTreeMap<String, nefia_protocol::checks::LastCheck>>,
    /// The random seed the next new game starts with (`nefia fuzz`: a seed is one game);
    /// none: a seed of its own.
    pub next_seed: Cell<Option<u64>>,
}

/// The selection, shared by scripts (`Editor.select`, `Editor.selection()`) and the editor.
#[derive(Default)]
pub struct EditorLink {
    /// The objects selected in the editor.
    pub selection: RefCell<Vec<nefia_game::object::Uid>>,
    /// How many times a script chose the selection (`Editor.select`): the editor takes the
    /// runtime's selection when this changes, and keeps its own clicks otherwise.
    pub selections_by_script: Cell<u64>,
}

/// Names already looked up, by the address of their Lua string (see `name_cache.rs`).
#[derive(Default)]
struct NameCaches {
    /// Field names.
    symbols: NameCache<Symbol>,
    /// Chunk names, with their mod and display name, for provenance.
    origins: NameCache<(Option<Symbol>, Symbol)>,
}

impl Engine {
    /// Sends text to whoever shows it (stdout headless, the log pane in the editor).
    pub fn emit(&self, output: Output) {
        match self.output.try_borrow_mut() {
            Ok(mut sink) => sink(output),
            Err(_) => eprintln!("{output:?}"),
        }
    }

    /// Replaces the output sink.
    pub fn set_output(&self, sink: Box<dyn FnMut(Output)>) {
        *self.output.borrow_mut() = sink;
    }

    /// Forgets every handle after a load: existing handles stop resolving.
    pub fn forget_handles(&self) -> mlua::Result<()> {
        self.handles.borrow().forget_all()
    }

    /// The symbol for a field name read from a Lua string, or `None` if no field was ever
    /// called that. Lua interns short strings, so the same name usually comes at the same
    /// address: that address is remembered (and the bytes compared, in case it was reused).
    pub fn lookup_symbol(&self, name: &[u8]) -> Option<Symbol> {
        self.names.symbols.get(name).or_else(|| {
            let symbol = Symbol::lookup(std::str::from_utf8(name).ok()?)?;
            self.names.symbols.insert(name, symbol);
            Some(symbol)
        })
    }

    /// Tells the progress sink, if any, that `what` is being done, step `done` of `total`.
    pub fn progress(&self, what: impl Into<String>, done: usize, total: usize) {
        let sink = self.progress.borrow().clone();
        if let Some(sink) = sink {
            sink(&Progress { what: what.into(), done, total });
        }
    }

    /// The origin of a call from the Lua chunk `source` (its chunk name, such as
    /// `@mods/elona/init.lua`) at `line`; `short_src` names unregistered chunks. Chunk names
    /// are remembered by address like field names (see [`Engine::lookup_symbol`]).
    pub fn origin_for(&self, source: &[u8], short_src: &[u8], line: u32) -> Origin {
        let (mod_id, file) = self.names.origins.get(source).unwrap_or_else(|| {
            let known =
                match std::str::from_utf8(source).ok().and_then(|chunk| self.sources.borrow().get(chunk).cloned()) {
                    Some(file) => (file.mod_id, file.name),
                    None => (None, Symbol::intern(&String::from_utf8_lossy(short_src))),
                };
            self.names.origins.insert(source, known);
            known
        });
        Origin { mod_id, file, line }
    }

    /// True while a script holds a handle to `uid`: an ownerless object it keeps alive.
    pub fn is_held_by_script(&self, uid: nefia_game::object::Uid) -> bool {
        handle::is_held_by_script(self, uid)
    }

    /// Registers a loaded file so errors and provenance name it.
    pub fn register_source(&self, chunk_name: &str, file: SourceFile) {
        self.sources.borrow_mut().insert(chunk_name.to_owned(), file);
        self.debugger.sources_changed();
    }
}

/// The engine of `lua`. Panics if the state was not made by [`install`].
pub fn engine(lua: &Lua) -> Rc<Engine> {
    lua.app_data_ref::<Rc<Engine>>().expect("the Lua state has an engine").clone()
}

/// Where the Lua code calling into the engine is: its file, line and mod.
pub fn caller_origin(lua: &Lua, engine: &Engine) -> Origin {
    lua.inspect_stack(1, |debug| {
        let line = debug.current_line().unwrap_or(0) as u32;
        let source = debug.source();
        engine.origin_for(
            source.source.as_deref().unwrap_or("").as_bytes(),
            source.short_src.as_deref().unwrap_or("?").as_bytes(),
            line,
        )
    })
    .unwrap_or_else(|| Origin::tool("rust"))
}

/// A Lua error whose message starts with the calling Lua line, like Lua's own `error`:
/// `mods/elona/init.lua:12: unknown base.chara id 'elona.nope'`. A C function between (the
/// fast `__newindex` handing a write to the function that refuses it) is passed over.
pub fn rt_error(lua: &Lua, message: impl std::fmt::Display) -> mlua::Error {
    /// How far up the stack the Lua line is looked for: the caller, or the caller's caller.
    const LEVELS: std::ops::RangeInclusive<usize> = 1..=2;
    let location = LEVELS
        .filter_map(|level| {
            lua.inspect_stack(level, |debug| {
                let line = debug.current_line()?;
                let source = debug.source();
                Some(format!("{}:{line}: ", source.short_src.as_deref().unwrap_or("?")))
            })
            .flatten()
        })
        .next()
        .unwrap_or_default();
    mlua::Error::runtime(format!("{location}{message}"))
}

/// What iterator functions return: a chain over `list` (see `chain.lua`), which steps as
/// `ipairs(list)` does in `for _, obj in ... do` and has OpenNefia's chain methods.
pub fn ipairs(lua: &Lua, list: Table) -> mlua::Result<(Table, Table, i64)> {
    let chain: Table = engine(lua).chain.call(&list)?;
    Ok((chain, list, 0))
}

/// An iterator over parallel sequences: `for key, value in ...`.
pub fn pairs_of(lua: &Lua, keys: Table, values: Table) -> mlua::Result<Function> {
    engine(lua).pairs_of.call((keys, values))
}

/// Creates the Lua state and installs the engine API over `world`.
pub fn install(world: World, output: Box<dyn FnMut(Output)>) -> mlua::Result<(Lua, Rc<Engine>)> {
    // SAFETY: the `debug` library is only loaded so that trusted environments (the REPL,
    // command-line scripts, `pause()`) can use it; mod environments never see it.
    // A Rust panic is never caught by a script's `pcall`: it unwinds to the host's command
    // boundary, which checks the world (see `runtime/host/src/lib.rs`).
    let options = mlua::LuaOptions::default().catch_rust_panics(false);
    let lua = unsafe { Lua::unsafe_new_with(mlua::StdLib::ALL_SAFE | mlua::StdLib::DEBUG, options) };
    heap::install(&lua);
    // Handles are mostly short-lived (an iterator's objects, a created-and-removed item);
    // generational collection frees them young, and with them the objects they kept alive.
    lua.gc_gen(0, 0);
    stdlib::install(&lua)?;
    let api = lua.create_table()?;
    let clean_error = lua.create_function(|lua, err: mlua::Value| {
        Ok(match err {
            mlua::Value::Error(error) => mlua::Value::String(lua.create_string(error::root_message(&error))?),
            other => other,
        })
    })?;
    let emit_print = lua.create_function(|lua, text: String| {
        engine(lua).emit(Output::Print(text));
        Ok(())
    })?;
    let interrupted = lua.create_function(|lua, ()| Ok(engine(lua).limits.interrupted()))?;
    let resume = watchdog_resume(&lua)?;
    let globals = lua.globals();
    let (table_lib, string_lib, math_lib): (Table, Table, Table) =
        (globals.get("table")?, globals.get("string")?, globals.get("math")?);
    lua.load(include_str!("stdext.lua")).set_name("=nefia stdext").call::<()>((table_lib, string_lib, math_lib))?;
    let pairs_of: Function = lua.load(include_str!("prelude.lua")).set_name("=nefia prelude").call((
        api.clone(),
        lua.globals(),
        clean_error,
        emit_print,
        interrupted,
        resume.clone(),
    ))?;
    let (object_meta, map_meta) = (lua.create_table()?, lua.create_table()?);
    let handles = handle::Handles::new(&lua, object_meta.clone(), map_meta.clone())?;
    let ipairs_iter: Function = lua.load("return (ipairs({}))").set_name("=nefia prelude").eval()?;
    let chain: Function = lua.load(include_str!("chain.lua")).set_name("=nefia chain").call(())?;
    let engine = Rc::new(Engine {
        world: RefCell::new(world),
        events: RefCell::default(),
        object_events: RefCell::default(),
        location_overrides: RefCell::default(),
        sources: RefCell::default(),
        listed_entries: RefCell::default(),
        on_duplicate: Cell::new(OnDuplicate::Error),
        hotloaded_prototypes: RefCell::default(),
        save_dir: RefCell::new(PathBuf::from("saves")),
        sheets: RefCell::default(),
        gui: RefCell::default(),
        play: PlayFlags::default(),
        editor: EditorLink::default(),
        repl: RefCell::new(repl::Repl::new(lua.create_table()?)),
        debugger: debugger::Debugger::default(),
        limits: limits::Limits::default(),
        frontend: RefCell::new(None),
        session: RefCell::default(),
        watch: watch::WatchLink::default(),
        profiler: profile::Profiler::default(),
        output: RefCell::new(output),
        handles: RefCell::new(handles),
        progress: RefCell::default(),
        data_tables: lua.create_table()?,
        api: api.clone(),
        sandbox: std::cell::OnceCell::new(),
        mods: RefCell::default(),
        project: RefCell::default(),
        maps: RefCell::default(),
        modules: lua.create_table()?,
        transient: RefCell::default(),
        ipairs_iter,
        chain,
        pairs_of,
        names: NameCaches::default(),
        callers: caller::CallerFiles::default(),
    });
    lua.set_app_data(engine.clone());
    let (object_methods, object_fields) = object::fill_metatable(&lua, &object_meta)?;
    engine.handles.borrow_mut().object_methods = Some(object_methods.clone());
    let (map_methods, map_fields) = map::fill_metatable(&lua, &map_meta)?;
    engine.handles.borrow_mut().map_methods = Some(map_methods.clone());
    object_access::install(
        &lua,
        &engine,
        (&object_meta, &object_methods, object_fields),
        (&map_meta, &map_methods, map_fields),
    )?;
    let shadows = engine.handles.borrow().shadows();
    engine.world.borrow_mut().listen_to_base_changes(nefia_game::base_changes::BaseChangeListener::new(
        move |change| {
            // Fails only if Lua is out of memory, which clearing an entry never asks for.
            if let Err(error) = shadows.forget(change) {
                tracing::warn!("the shadows of handles were not forgotten after {change:?}: {error}");
            }
        },
    ));
    objects::install(&lua, &api)?;
    find::install(&lua, &api, &object_methods)?;
    items::install(&lua, &api, &object_methods)?;
    location::install(&lua, &api)?;
    lua.load(include_str!("enum.lua")).set_name("=nefia enum").call::<()>(&api)?;
    lua.load(include_str!("class.lua")).set_name("=nefia class").call::<()>(&api)?;
    let (adopt, check_declared): (Function, Function) =
        lua.load(include_str!("types.lua")).set_name("=nefia types").call((&api, schema::checkers(&lua)?))?;
    schema::install(&lua, check_declared)?;
    lua.load(include_str!("queue.lua")).set_name("=nefia Queue").call::<()>(&api)?;
    lua.load(include_str!("action.lua")).set_name("=nefia Action").call::<()>(&api)?;
    lua.load(include_str!("generate.lua")).set_name("=nefia Object").call::<()>(&api)?;
    hotloading::install(&lua, &api)?;
    map::install(&lua, &api)?;
    data::install(&lua, &api)?;
    event::install(&lua, &api)?;
    i18n::install(&lua, &api)?;
    gui::install(&lua, &api)?;
    world::install(&lua, &api)?;
    save::install(&lua, &api)?;
    editor::install(&lua, &api)?;
    repl::install(&lua, &api, resume)?;
    random::install(&lua)?;
    session::install(&lua, &api)?;
    watch::install(&lua, &api)?;
    #[cfg(feature = "fault-injection")]
    fault::install(&lua, &api)?;
    let sandbox = lua.load(include_str!("sandbox.lua")).set_name("=nefia sandbox").call((api.clone(), adopt))?;
    if engine.sandbox.set(sandbox).is_err() {
        return Err(mlua::Error::runtime("the sandbox is installed once"));
    }
    let repl_env = environment(&lua, "repl", None, true)?;
    engine.repl.borrow_mut().env = repl_env;
    Ok((lua, engine))
}

/// Compiles a mod's file with chunk name `mods/<mod>/<path>` in `env`, registering it as a
/// source of `mod_id`.
pub fn load_mod_file(lua: &Lua, mod_id: Symbol, mod_dir: &Path, path: &Path, env: Table) -> mlua::Result<Function> {
    let code =
        std::fs::read(path).map_err(|e| mlua::Error::runtime(format!("{}: cannot read: {e}", path.display())))?;
    load_mod_code(lua, mod_id, mod_dir, path, code, env)
}

/// Compiles `code` as the mod's file at `path` (a hotload replayed from a recording
/// compiles the text it recorded).
pub fn load_mod_code(
    lua: &Lua,
    mod_id: Symbol,
    mod_dir: &Path,
    path: &Path,
    code: Vec<u8>,
    env: Table,
) -> mlua::Result<Function> {
    let relative = path.strip_prefix(mod_dir).unwrap_or(path);
    let name = format!("mods/{mod_id}/{}", relative.display());
    compile(lua, &name, Some(mod_id), path, code, env)
}

/// Compiles the file `path` under the display `name`, in `env`, registering it as a source.
pub fn load_file(lua: &Lua, name: &str, mod_id: Option<Symbol>, path: &Path, env: Table) -> mlua::Result<Function> {
    let code =
        std::fs::read(path).map_err(|e| mlua::Error::runtime(format!("{}: cannot read: {e}", path.display())))?;
    compile(lua, name, mod_id, path, code, env)
}

fn compile(
    lua: &Lua,
    name: &str,
    mod_id: Option<Symbol>,
    path: &Path,
    code: Vec<u8>,
    env: Table,
) -> mlua::Result<Function> {
    let chunk_name = format!("@{name}");
    // The digest is of the file's bytes, its byte order mark included.
    let text_digest = Some(nefia_game::files::content_digest(&code));
    let code = without_bom(&code);
    let listed = std::str::from_utf8(code)
        .ok()
        .filter(|text| text.contains("add_multi"))
        .and_then(|text| nefia_game::source_edit::listed_entries(text).ok())
        .unwrap_or_default();
    match listed.is_empty() {
        true => engine(lua).listed_entries.borrow_mut().remove(&chunk_name),
        false => engine(lua).listed_entries.borrow_mut().insert(chunk_name.clone(), listed),
    };
    let compile = |code: &[u8]| {
        lua.load(code)
            .set_name(&chunk_name)
            .set_mode(mlua::ChunkMode::Text)
            .set_environment(env.clone())
            .into_function()
    };
    // A file with breakpoints gets the debugger's probes; if they do not compile (a chunk
    // with as many locals as Lua allows), it is compiled as written and the hook follows it.
    let probed = engine(lua)
        .debugger
        .wants_probes(path)
        .then(|| std::str::from_utf8(code).ok().and_then(debugger::with_probes))
        .flatten()
        .and_then(|probed| Some((compile(probed.text.as_bytes()).ok()?, probed.probe_lines)));
    let file = SourceFile { mod_id, name: Symbol::intern(name), path: Some(path.to_owned()), text_digest };
    engine(lua).register_source(&chunk_name, file);
    match probed {
        Some((function, probe_lines)) => {
            engine(lua).debugger.compiled_with_probes(&chunk_name, probe_lines);
            Ok(function)
        }
        None => {
            engine(lua).debugger.compiled_without_probes(path);
            compile(code)
        }
    }
}

/// Lua source as OpenNefia's loader (LuaJIT's lexer) reads it: without the UTF-8 byte order
/// mark a file may start with, which Lua 5.4 would refuse. Lines stay as they were.
pub fn without_bom(code: &[u8]) -> &[u8] {
    code.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(code)
}

/// `coroutine.resume` that lets the watchdog arm the coroutine it runs (see
/// [`watchdog::resume`]).
fn watchdog_resume(lua: &Lua) -> mlua::Result<Function> {
    let coroutine: Table = lua.globals().get("coroutine")?;
    let original: Function = coroutine.get("resume")?;
    // SAFETY: exec_raw pushed the original resume, which becomes the closure's upvalue.
    unsafe { lua.exec_raw(original, |state| ffi::lua_pushcclosure(state, watchdog::resume, 1)) }
}
