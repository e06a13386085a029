//! Mods on the runtime thread: watching their folders for saved files, reloading them (and
//! recording the text loaded while a session is recorded), and the Mods pane's commands —
//! enabling a mod in `project.ron`, rescanning the folders, writing a new mod's skeleton.

use std::path::PathBuf;
use std::sync::Arc;

use crossbeam_channel::Sender;

use super::{Command, Host, HostEvent, NoProject, RefusalKind};
use crate::game::display::LogLevel;
use crate::game::files::FileError;
use crate::host::hotload::{self, ModWatcher, Reload};
use crate::lua::gui;

/// How long a file that fails to reload must go unchanged before its error is reported (an
/// editor may write a file in more than one go).
pub const QUIET: std::time::Duration = std::time::Duration::from_millis(250);

/// True if `path` last changed at least [`QUIET`] ago (or cannot be asked).
fn quiet_since_changed(path: &std::path::Path) -> bool {
    let modified = std::fs::metadata(path).and_then(|m| m.modified());
    modified.ok().and_then(|m| m.elapsed().ok()).is_none_or(|age| age >= QUIET)
}

impl Host {
    /// Watches the loaded mods' folders; saved Lua files come back as [`Command::Reload`].
    pub(super) fn watch_mods(&self, reloads: Sender<Command>) -> Option<ModWatcher> {
        let dirs: Vec<PathBuf> = self.runtime.mods().iter().map(|m| m.dir.clone()).collect();
        let repaint = self.repaint.clone();
        let watcher = ModWatcher::start(&dirs, move |path| {
            // The command channel outlives the watcher: it closes with the host.
            if reloads.send(Command::Reload(path)).is_ok() {
                repaint();
            }
        });
        watcher
            .inspect_err(|error| {
                let text = format!("hotload is off: the mods' folders cannot be watched: {error}");
                gui::log(self.runtime.lua(), LogLevel::Warn, text);
            })
            .ok()
    }

    /// Reloads a saved Lua file; while a session is recorded, the text loaded is recorded.
    /// A file that fails to reload a moment after it changed may be half-written: the failed
    /// reload changed nothing, and the file is tried again once it has been quiet for
    /// [`QUIET`]; only then is its error reported.
    pub(super) fn reload(&self, path: &std::path::Path) {
        self.hotload_waiting.borrow_mut().retain(|p| p != path);
        let lua = self.runtime.lua();
        let recording = self.recorder.borrow().is_some();
        let reload = match recording {
            true => match crate::game::files::read_text(path) {
                Ok(text) => hotload::reload_file_with(lua, path, text.clone()).inspect(|reload| {
                    self.record_command(&Command::Hotload { file: reload.file.clone(), text });
                }),
                Err(error) => {
                    gui::log(lua, LogLevel::Error, format!("reload rejected: {error}"));
                    None
                }
            },
            false => hotload::reload_file(lua, path),
        };
        match reload {
            Some(reload) if reload.outcome.is_err() && !quiet_since_changed(path) => {
                self.hotload_waiting.borrow_mut().push(path.to_owned());
            }
            Some(reload) => self.reloaded(reload),
            None => {}
        }
    }

    /// True while a hotload waits for its file to be quiet (the serve loop wakes to try it).
    pub(super) fn hotload_waiting(&self) -> bool {
        !self.hotload_waiting.borrow().is_empty()
    }

    /// Tries again the hotloads whose files have been quiet long enough.
    pub(super) fn retry_quiet_hotloads(&self) {
        let quiet: Vec<PathBuf> = {
            let mut waiting = self.hotload_waiting.borrow_mut();
            let (quiet, still): (Vec<PathBuf>, Vec<PathBuf>) =
                std::mem::take(&mut *waiting).into_iter().partition(|p| quiet_since_changed(p));
            *waiting = still;
            quiet
        };
        for path in quiet {
            self.handle(Command::Reload(path));
        }
    }

    /// Tells the editor about a reload; a good one clears the error screen.
    pub(super) fn reloaded(&self, reload: Reload) {
        let reloaded = reload.outcome.is_ok();
        if reloaded {
            self.error.take();
        }
        self.send(HostEvent::Reloaded(reload));
        if reloaded {
            // The workbench shows what the new code makes of the same seed.
            self.refresh_preview();
        }
    }

    /// Lists mod `id` in the project's `mods` (or takes it out) and writes `project.ron`.
    fn set_mod_enabled(&self, id: &str, enabled: bool) -> Result<(), ModCommandError> {
        if !self.mod_rows.borrow().iter().any(|row| row.id == id) {
            return Err(ModCommandError::NotFound(id.to_owned()));
        }
        let (_, _, mut project) = self.runtime.maps_mut();
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
    pub(super) fn rescan_mods(&self) {
        *self.mod_rows.borrow_mut() = Arc::new(self.runtime.mod_rows());
    }

    /// `Command::SetModEnabled`: lists the mod (or takes it out) and says when it applies.
    pub(super) fn enable_mod(&self, id: &str, enabled: bool) {
        match self.set_mod_enabled(id, enabled) {
            Ok(()) => {
                let change = if enabled { "enabled: it loads" } else { "disabled: it is left out" };
                let text = format!("mod '{id}' {change} when the project is opened again");
                gui::log(self.runtime.lua(), LogLevel::Info, text);
                self.rescan_mods();
            }
            Err(error) => self.refuse(RefusalKind::UnknownMod, error.to_string()),
        }
    }

    /// `Command::NewMod`: writes the skeleton of mod `id` and enables it.
    pub(super) fn new_mod(&self, id: &str) {
        let made = match self.runtime.maps_mut().2.as_mut() {
            Some(project) => crate::game::mods::create_mod(project, id).map_err(ModCommandError::from),
            None => Err(NoProject.into()),
        };
        match made {
            Ok(dir) => {
                let text =
                    format!("wrote {} and enabled '{id}': it loads when the project is opened again", dir.display());
                gui::log(self.runtime.lua(), LogLevel::Info, text);
                self.rescan_mods();
            }
            Err(error) => self.refuse(RefusalKind::UnknownMod, error.to_string()),
        }
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
