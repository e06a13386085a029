//! Watching the asset folders for sheets that change on disk, so the atlas reloads them and
//! the map is drawn anew at once, as a hotloaded Lua file is.
//!
//! The editor watches, not the host: the host never reads an image (the engine only reads
//! their headers when mods load), the atlas is what knows which sheets are drawn, and the
//! player window's renderer gets the same reload with no message to add to the protocol.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use nefia_host::folders::FolderWatcher;

/// The asset folders being watched and the image files that changed since the last look.
#[derive(Default)]
pub struct SheetWatch {
    dirs: Vec<PathBuf>,
    changed: Arc<Mutex<Vec<PathBuf>>>,
    watcher: Option<FolderWatcher>,
}

impl SheetWatch {
    /// Watches `dirs` (their subfolders too), unless they are already; a change asks `ctx`
    /// for a frame. Folders that do not exist are left out; one that cannot be watched is
    /// reported in the log and the sheets are not reloaded.
    pub fn follow(&mut self, ctx: &egui::Context, dirs: &[PathBuf]) {
        if self.dirs == dirs {
            return;
        }
        self.dirs = dirs.to_vec();
        let existing: Vec<PathBuf> = dirs.iter().filter(|d| d.is_dir()).cloned().collect();
        let changed = self.changed.clone();
        let repaint = ctx.clone();
        let watcher = FolderWatcher::start(
            &existing,
            true,
            |kind, path| (kind.is_create() || kind.is_modify() || kind.is_remove()) && is_image(path),
            move |paths| {
                changed.lock().unwrap_or_else(|poisoned| poisoned.into_inner()).extend(paths);
                repaint.request_repaint();
            },
        );
        self.watcher = watcher
            .inspect_err(|error| {
                tracing::warn!("changed images are not reloaded: the asset folders cannot be watched: {error}")
            })
            .ok();
    }

    /// The image files that changed since the last call.
    pub fn changed(&self) -> Vec<PathBuf> {
        std::mem::take(&mut *self.changed.lock().unwrap_or_else(|poisoned| poisoned.into_inner()))
    }
}

/// Whether `path` names a PNG.
fn is_image(path: &Path) -> bool {
    path.extension().is_some_and(|e| e.eq_ignore_ascii_case("png"))
}
