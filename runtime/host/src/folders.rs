//! Watching the project's folders for files that come, change and go: the loaded mods' Lua
//! files (hotload, [`super::mods`]) and the project's `maps/` (the Maps pane lists what is
//! there, [`super::maps`]). Each burst of writes to a file is reported once.

use std::path::{Path, PathBuf};
use std::time::Duration;

use notify::{EventKind, RecursiveMode};
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};

/// How long the watcher waits for a burst of writes to a file to end. It adds to the
/// hotload latency.
pub const DEBOUNCE: Duration = Duration::from_millis(20);

/// Watches folders; dropping it stops watching.
pub struct FolderWatcher {
    _debouncer: Debouncer<notify::RecommendedWatcher, RecommendedCache>,
}

impl FolderWatcher {
    /// Watches `dirs` (with their subfolders if `recursive`) and calls `changed` with the
    /// paths of each burst's events that `wanted` accepts (given the event's kind and one of
    /// its paths), sorted and each once; a burst with none is not reported.
    pub fn start(
        dirs: &[PathBuf],
        recursive: bool,
        wanted: impl Fn(&EventKind, &Path) -> bool + Send + 'static,
        changed: impl Fn(Vec<PathBuf>) + Send + 'static,
    ) -> notify::Result<FolderWatcher> {
        let handler = move |result: DebounceEventResult| {
            let Ok(events) = result else { return };
            let mut paths: Vec<PathBuf> = events
                .iter()
                .flat_map(|event| event.paths.iter().filter(|path| wanted(&event.kind, path)))
                .cloned()
                .collect();
            paths.sort();
            paths.dedup();
            if !paths.is_empty() {
                changed(paths);
            }
        };
        let mut debouncer = new_debouncer(DEBOUNCE, Some(DEBOUNCE / 2), handler)?;
        let mode = if recursive { RecursiveMode::Recursive } else { RecursiveMode::NonRecursive };
        for dir in dirs {
            debouncer.watch(dir, mode)?;
        }
        Ok(FolderWatcher { _debouncer: debouncer })
    }
}
