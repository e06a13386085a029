//! The host's mods subsystem: watching the loaded mods' folders for saved files, reloading
//! them ([`hotload`], recording the text loaded while a session is recorded), and the Mods
//! pane's commands — enabling a mod in `project.ron`, rescanning the folders, writing a new
//! mod's skeleton.
//!
//! It is a component: [`Mods`] owns its state and takes its own commands ([`ModCommand`]) with
//! a [`Cx`], told by the spine whether a session is recorded. What it needs of the spine and
//! the other subsystems it returns as [`ModsEffects`]: an input to record (a hotload's text),
//! and that new code took (the error screen goes, the workbench's preview is made again).
//!
//! The watcher (`folders.rs`, debounced by `DEBOUNCE`, 20 ms) sends `ModCommand::Saved` into
//! the host's own command channel. A saved file whose text is the one it last compiled and ran
//! (`SourceFile::text_digest`, cleared when a reload fails) is not reloaded, so a save that
//! changed nothing, or the watcher seeing a file the editor wrote and reloaded itself, costs
//! nothing; `ModCommand::Reload` (the retry of a file once quiet) always reloads.

use std::cell::RefCell;
use std::path::PathBuf;
use std::sync::Arc;

use crossbeam_channel::Sender;

use super::NoProject;
use super::folders::FolderWatcher;
use crate::cx::Cx;
use nefia_game::display::LogLevel;
use nefia_game::files::FileError;
use nefia_game::mods::ModRow;
use nefia_game::symbol::Symbol;
use nefia_lua::data_validators;
use nefia_lua::reload::{self as hotload, Unchanged};
use nefia_lua::runtime::Runtime;
use nefia_protocol::message::{Command, HostEvent, RefusalKind, Refused};
use nefia_protocol::reload::Reload;
use nefia_protocol::view::{DataTypeView, PrototypeArt, data_view};

use nefia_protocol::mods::{ModCommand, ModsView, Repainted};

/// The mods subsystem's state on the host.
pub(crate) struct Mods {
    /// The loaded mods' ids, in load order.
    loaded: Arc<Vec<String>>,
    /// What the Mods pane lists (rebuilt when a mod is enabled or the folders rescanned).
    rows: RefCell<Arc<Vec<ModRow>>>,
    /// Where images named by prototypes are looked up, in order.
    asset_dirs: Arc<Vec<PathBuf>>,
    /// Saved files that did not parse a moment after they changed: tried again once quiet.
    hotload_waiting: RefCell<Vec<PathBuf>>,
    /// The data view as last built, with the data registry's revision then.
    data: RefCell<(u64, Arc<Vec<DataTypeView>>)>,
    /// The prototypes' art as last made (see [`ThemedArt`]).
    art: RefCell<ThemedArt>,
    /// What the last hotload's rules painted anew, map by map.
    repainted: RefCell<Vec<Arc<Repainted>>>,
}

impl Mods {
    /// The mods `runtime` loaded.
    pub(super) fn new(runtime: &Runtime) -> Mods {
        Mods {
            loaded: Arc::new(runtime.mods().iter().map(|m| m.id().to_owned()).collect()),
            rows: RefCell::new(Arc::new(runtime.mod_rows())),
            asset_dirs: Arc::new(runtime.project().map(|p| p.asset_dirs()).unwrap_or_default()),
            hotload_waiting: RefCell::default(),
            data: RefCell::new((u64::MAX, Arc::default())),
            art: RefCell::new(ThemedArt { revision: u64::MAX, ..ThemedArt::default() }),
            repainted: RefCell::default(),
        }
    }
}

/// The prototypes' art under the active themes, as last made, with the data registry's
/// revision and the themes then: a theme switch makes only this again, not the data view.
#[derive(Default)]
struct ThemedArt {
    revision: u64,
    themes: Vec<Symbol>,
    /// The themes' ids as the snapshot shows them.
    names: Arc<Vec<String>>,
    art: Arc<PrototypeArt>,
}

/// How long a file that fails to reload must go unchanged before its error is reported (an
/// editor may write a file in more than one go).
pub const QUIET: std::time::Duration = std::time::Duration::from_millis(250);

/// True if `path` last changed at least [`QUIET`] ago (or cannot be asked).
fn quiet_since_changed(path: &std::path::Path) -> bool {
    let modified = std::fs::metadata(path).and_then(|m| m.modified());
    modified.ok().and_then(|m| m.elapsed().ok()).is_none_or(|age| age >= QUIET)
}

/// Fills each prototype's [`PrototypeView::functions`](nefia_protocol::view::PrototypeView):
/// the functions its Lua table holds, found by the lines Lua recorded for them in their file.
fn with_function_sources(lua: &mlua::Lua, types: &mut [DataTypeView]) {
    let engine = nefia_lua::engine(lua);
    let sources = engine.sources();
    let mut texts: std::collections::HashMap<String, Option<String>> = std::collections::HashMap::new();
    for data_type in types.iter_mut() {
        let Ok(Some(entries)) = engine.data_tables_of(data_type.id.as_str()) else {
            continue;
        };
        for proto in &mut data_type.entries {
            let Ok(Some(entry)) = entries.raw_get::<Option<mlua::Table>>(proto.id.as_str()) else { continue };
            for (name, function) in entry.pairs::<String, mlua::Function>().flatten() {
                let info = function.info();
                let (Some(chunk), Some(first), Some(last)) = (info.source, info.line_defined, info.last_line_defined)
                else {
                    continue;
                };
                let Some(file) = sources.get(&chunk) else { continue };
                let text = texts
                    .entry(chunk.clone())
                    .or_insert_with(|| file.path.as_ref().and_then(|p| std::fs::read_to_string(p).ok()));
                let Some(text) = text else { continue };
                let lines: Vec<&str> =
                    text.lines().skip(first.saturating_sub(1)).take(last.saturating_sub(first) + 1).collect();
                let line = u32::try_from(first).unwrap_or(u32::MAX);
                let source = nefia_protocol::view::FunctionSource {
                    at: format!("{}:{line}", file.name),
                    path: file.path.clone(),
                    line,
                    text: lines.join("\n"),
                };
                proto.functions.push((Symbol::intern(&name), source));
            }
            proto.functions.sort_by(|a, b| a.0.as_str().cmp(b.0.as_str()));
        }
    }
}

/// Fills each prototype's [`PrototypeView::problems`](nefia_protocol::view::PrototypeView): the
/// rules its data type's validators say it breaks, all run as one evaluation under the
/// runtime's limits (a validator that fails, or all that run too long, is a problem of the
/// prototype being checked).
fn with_problems(cx: &Cx, types: &mut [DataTypeView]) {
    let lua = cx.runtime.lua();
    let Ok(validated) = data_validators::validated_types(lua) else { return };
    cx.runtime.engine().limits().run(|| {
        for data_type in types.iter_mut().filter(|t| validated.contains(&t.id)) {
            for proto in &mut data_type.entries {
                proto.problems = data_validators::check(lua, data_type.id, proto.id).unwrap_or_else(|error| {
                    let message = format!("the validators could not run: {}", nefia_lua::error::failure(error).message);
                    vec![nefia_protocol::checks::PrototypeProblem { fields: Vec::new(), message }]
                });
            }
        }
    });
}

/// What a mods command asks of the spine once it is done.
#[derive(Debug, Default)]
pub(crate) struct ModsEffects {
    /// Inputs for the session's recording (a hotload's text, while a session is recorded).
    pub record: Vec<Command>,
    /// New code took: the error screen goes and the workbench's preview is made again.
    pub code_changed: bool,
}

impl Mods {
    /// The mods subsystem's part of the snapshot; the data view is built again only when
    /// the registry changed.
    pub(crate) fn view(&self, cx: &Cx) -> ModsView {
        let world = cx.runtime.world();
        let mut art = self.art.borrow_mut();
        if art.revision != world.data.revision() || art.themes != world.active_themes() {
            let themes = world.active_themes().to_vec();
            *art = ThemedArt {
                revision: world.data.revision(),
                names: Arc::new(themes.iter().map(ToString::to_string).collect()),
                art: Arc::new(PrototypeArt::of(&world.data, &themes)),
                themes,
            };
        }
        let mut data = self.data.borrow_mut();
        if data.0 != world.data.revision() {
            let mut view = data_view(&world.data);
            drop(world);
            with_function_sources(cx.runtime.lua(), &mut view);
            with_problems(cx, &mut view);
            *data = (cx.runtime.world().data.revision(), Arc::new(view));
        }
        ModsView {
            loaded: self.loaded.clone(),
            rows: self.rows.borrow().clone(),
            asset_dirs: self.asset_dirs.clone(),
            data: data.1.clone(),
            repainted: {
                let current = cx.runtime.world().current_map();
                self.repainted.borrow().iter().find(|r| Some(r.map) == current).cloned()
            },
            active_themes: art.names.clone(),
            art: art.art.clone(),
            language: nefia_lua::i18n::current_language(cx.runtime.lua()).map(|(id, _)| id).unwrap_or_default(),
        }
    }

    /// Handles a mods command; `recording` says a session is recorded (a hotload's text is
    /// then an input to record).
    pub(crate) fn handle(&self, cx: &Cx, recording: bool, command: ModCommand) -> ModsEffects {
        let lua = cx.runtime.lua();
        let mut effects = ModsEffects::default();
        match command {
            ModCommand::Reload(path) => self.reload(cx, recording, &path, Unchanged::Reload, &mut effects),
            ModCommand::Saved(path) => self.reload(cx, recording, &path, Unchanged::Skip, &mut effects),
            ModCommand::Hotload { file, text } => {
                if let Some(reload) = hotload::reload_recorded(lua, &file, &text) {
                    self.reloaded(cx, reload, &mut effects);
                }
            }
            ModCommand::ReloadMod(id) => {
                if !cx.runtime.mods().iter().any(|m| m.id() == id) {
                    cx.refuse(Refused::new(RefusalKind::UnknownMod, format!("no mod '{id}' is loaded")));
                }
                for path in hotload::loaded_files_of(lua, &id) {
                    self.reload(cx, recording, &path, Unchanged::Reload, &mut effects);
                }
            }
            ModCommand::SetEnabled { id, enabled } => self.enable_mod(cx, &id, enabled),
            ModCommand::Rescan => self.rescan(cx),
            ModCommand::New(id) => self.new_mod(cx, &id),
            ModCommand::SetThemes(themes) => {
                let themes = themes.iter().map(|t| Symbol::intern(t)).collect();
                if let Err(error) = cx.runtime.world_mut().set_active_themes(themes) {
                    let message =
                        format!("cannot use that theme: {error}; pick one of the loaded base.theme prototypes");
                    cx.refuse(Refused::new(RefusalKind::UnknownMod, message));
                }
            }
            ModCommand::SwitchLanguage(id) => {
                // A recorded session keeps the switch as an input (`ModCommand::recorded_input`).
                if let Err(failure) = nefia_lua::i18n::switch_language(lua, &id) {
                    cx.refuse(Refused::new(RefusalKind::Edit, format!("cannot switch to {id}: {failure}")));
                }
            }
        }
        effects
    }

    /// Watches the loaded mods' folders; each Lua file written, created or renamed into place
    /// comes back as [`ModCommand::Saved`].
    pub(crate) fn watch(cx: &Cx, reloads: Sender<Command>) -> Option<FolderWatcher> {
        let dirs: Vec<PathBuf> = cx.runtime.mods().iter().map(|m| m.dir.clone()).collect();
        let repaint = cx.repaint.clone();
        let saved_lua = |kind: &notify::EventKind, path: &std::path::Path| {
            (kind.is_create() || kind.is_modify()) && path.extension().is_some_and(|e| e == "lua") && path.is_file()
        };
        let watcher = FolderWatcher::start(&dirs, true, saved_lua, move |paths| {
            for path in paths {
                // The command channel outlives the watcher: it closes with the host.
                if reloads.send(Command::Mods(ModCommand::Saved(path))).is_ok() {
                    repaint();
                }
            }
        });
        watcher
            .inspect_err(|error| {
                cx.log(LogLevel::Warn, format!("hotload is off: the mods' folders cannot be watched: {error}"))
            })
            .ok()
    }

    /// Reloads a saved Lua file (one whose text is the one it runs only if `unchanged` says
    /// so); while a session is recorded, the text loaded is an input to record. A file that fails
    /// to reload a moment after it changed may be half-written: the failed reload changed nothing,
    /// and the file is tried again once it has been quiet for [`QUIET`]; only then is its error
    /// reported.
    fn reload(
        &self,
        cx: &Cx,
        recording: bool,
        path: &std::path::Path,
        unchanged: Unchanged,
        effects: &mut ModsEffects,
    ) {
        self.hotload_waiting.borrow_mut().retain(|p| p != path);
        let lua = cx.runtime.lua();
        let reload = match recording {
            true => match nefia_game::files::read_text(path) {
                Ok(text) => hotload::reload_file_with(lua, path, text.clone(), unchanged).inspect(|reload| {
                    effects.record.push(Command::Mods(ModCommand::Hotload { file: reload.file.clone(), text }));
                }),
                Err(error) => {
                    cx.log(LogLevel::Error, format!("reload rejected: {error}"));
                    None
                }
            },
            false => hotload::reload_file(lua, path, unchanged),
        };
        match reload {
            Some(reload) if reload.outcome.is_err() && !quiet_since_changed(path) => {
                self.hotload_waiting.borrow_mut().push(path.to_owned());
            }
            Some(reload) => self.reloaded(cx, reload, effects),
            None => {}
        }
    }

    /// True while a hotload waits for its file to be quiet (the serve loop wakes to try it).
    pub(crate) fn hotload_waiting(&self) -> bool {
        !self.hotload_waiting.borrow().is_empty()
    }

    /// The files waiting to be reloaded that have been quiet long enough, taken off the
    /// waiting list (the spine reloads each as a command of its own).
    pub(crate) fn quiet_hotloads(&self) -> Vec<PathBuf> {
        let mut waiting = self.hotload_waiting.borrow_mut();
        let (quiet, still): (Vec<PathBuf>, Vec<PathBuf>) =
            std::mem::take(&mut *waiting).into_iter().partition(|p| quiet_since_changed(p));
        *waiting = still;
        quiet
    }

    /// Tells the editor about a reload; a good one writes the type definitions again, paints
    /// the maps with rules again, and is told to the spine.
    fn reloaded(&self, cx: &Cx, reload: Reload, effects: &mut ModsEffects) {
        let reloaded = reload.outcome.is_ok();
        if reloaded {
            refresh_type_defs(cx);
        }
        cx.send(HostEvent::Reloaded(reload));
        if reloaded {
            self.repaint_autotiles(cx);
            effects.code_changed = true;
        }
    }

    /// Paints again every map with auto-tiling rules laid on it, from its intent by the rules
    /// as they are now (a rule or a tile's tags may have changed), keeping the cells that
    /// changed for the viewport's tint. A map the repaint did not change keeps the tint of the
    /// last hotload that did, so saving a file twice (or the watcher and the Reload button
    /// both reloading it) does not wipe what the first reload showed. A rule set that no
    /// longer reads leaves its maps as they were and says why in the Log.
    fn repaint_autotiles(&self, cx: &Cx) {
        let mut world = cx.runtime.world_mut();
        let laid: Vec<_> = world.maps().filter(|m| m.autotile.is_some()).map(|m| m.uid).collect();
        let before = std::mem::take(&mut *self.repainted.borrow_mut());
        let mut repainted = Vec::new();
        let mut problems = Vec::new();
        for map in laid {
            let unchanged = || before.iter().find(|r| r.map == map).cloned();
            match world.repaint_autotile(map) {
                Ok(cells) if cells.is_empty() => repainted.extend(unchanged()),
                Ok(cells) => repainted.push(Arc::new(Repainted { map, cells })),
                Err(error) => {
                    repainted.extend(unchanged());
                    problems.push(format!("the rules were not applied again: {error}"));
                }
            }
        }
        drop(world);
        for problem in problems {
            cx.log(LogLevel::Error, problem);
        }
        *self.repainted.borrow_mut() = repainted;
    }

    /// Lists mod `id` in the project's `mods` (or takes it out) and writes `project.ron`.
    fn set_mod_enabled(&self, cx: &Cx, id: &str, enabled: bool) -> Result<(), ModCommandError> {
        if !self.rows.borrow().iter().any(|row| row.id == id) {
            return Err(ModCommandError::NotFound(id.to_owned()));
        }
        let (_, _, mut project) = cx.runtime.maps_mut();
        let project = project.as_mut().ok_or(NoProject)?;
        let mods = &mut project.manifest.mods;
        let listed = mods.iter().any(|m| m == id);
        match (enabled, listed) {
            (true, false) => mods.push(id.to_owned()),
            (false, true) => mods.retain(|m| m != id),
            _ => return Ok(()),
        }
        Ok(project.save()?)
    }

    /// Rebuilds the Mods pane's list from the mod folders.
    fn rescan(&self, cx: &Cx) {
        *self.rows.borrow_mut() = Arc::new(cx.runtime.mod_rows());
    }

    /// `ModCommand::SetEnabled`: lists the mod (or takes it out) and says when it applies.
    fn enable_mod(&self, cx: &Cx, id: &str, enabled: bool) {
        match self.set_mod_enabled(cx, id, enabled) {
            Ok(()) => {
                let change = if enabled { "enabled: it loads" } else { "disabled: it is left out" };
                cx.log(LogLevel::Info, format!("mod '{id}' {change} when the project is opened again"));
                self.rescan(cx);
            }
            Err(error) => cx.refuse(Refused::new(RefusalKind::UnknownMod, error.to_string())),
        }
    }

    /// `ModCommand::New`: writes the skeleton of mod `id` and enables it.
    fn new_mod(&self, cx: &Cx, id: &str) {
        let made = match cx.runtime.maps_mut().2.as_mut() {
            Some(project) => nefia_game::new_mod::create_mod(project, id).map_err(ModCommandError::from),
            None => Err(NoProject.into()),
        };
        match made {
            Ok(dir) => {
                let text =
                    format!("wrote {} and enabled '{id}': it loads when the project is opened again", dir.display());
                cx.log(LogLevel::Info, text);
                self.rescan(cx);
            }
            Err(error) => cx.refuse(Refused::new(RefusalKind::UnknownMod, error.to_string())),
        }
    }
}

/// Writes the Lua API's type definitions again after a hotload, when the project has them
/// where `nefia api-defs` puts them (`.nefia/types`): a new prototype or event id is known to
/// the code editor at once.
fn refresh_type_defs(cx: &Cx) {
    let Some(project) = cx.runtime.project().map(|p| p.dir.clone()) else { return };
    let types = project.join(crate::type_defs::DEFAULT_FOLDER);
    if !types.join("api.lua").is_file() {
        return;
    }
    if let Err(error) = crate::type_defs::write(cx.runtime, &project, &types) {
        cx.log(LogLevel::Warn, format!("the type definitions were not updated: {error}"));
    }
}

/// Why a mod could not be enabled, disabled or made.
#[derive(Debug, thiserror::Error)]
enum ModCommandError {
    /// No mod folder of the project holds a mod of this id.
    #[error("no mod '{0}' is in the project's mod folders")]
    NotFound(String),
    /// There is no project to change.
    #[error(transparent)]
    NoProject(#[from] NoProject),
    /// `project.ron` or the mod's files could not be written.
    #[error(transparent)]
    File(#[from] FileError),
}
