//! The loaded mods' locale files as the editor last read them, shared by the Locale pane and
//! the Data pane's Localized section: read once when the data view changes (a hotloaded locale
//! file changes it) or when asked to read them again, however many panes show them.

use std::path::PathBuf;
use std::sync::Arc;

use nefia_game::locale::LocaleFile;
use nefia_protocol::view::{DataTypeView, Snapshot};

/// The locale files of one read, with the languages they are in.
pub struct LocaleFiles {
    /// Every locale file of the loaded mods, in load order.
    pub files: Vec<LocaleFile>,
    /// The languages the files are in.
    pub languages: Vec<String>,
}

/// The last read and the data view it was made for.
#[derive(Default)]
pub(crate) struct LocaleCache {
    read: Option<(Arc<Vec<DataTypeView>>, Arc<LocaleFiles>)>,
}

impl LocaleCache {
    /// The locale files of `snapshot`'s loaded mods: the last read while its data view is the
    /// same, else a new one.
    pub(crate) fn files(&mut self, snapshot: &Snapshot) -> Arc<LocaleFiles> {
        let data = &snapshot.mods.data;
        if let Some((read_for, files)) = &self.read
            && Arc::ptr_eq(read_for, data)
        {
            return files.clone();
        }
        let (files, _) = nefia_game::locale::scan(&loaded_mods(snapshot));
        let languages = nefia_game::locale::languages(&files);
        let files = Arc::new(LocaleFiles { files, languages });
        self.read = Some((data.clone(), files.clone()));
        files
    }

    /// Forgets the last read: the next asks read the files again.
    pub(crate) fn forget(&mut self) {
        self.read = None;
    }
}

/// The loaded mods, id and folder, in load order: whose locale files the game reads.
pub(crate) fn loaded_mods(snapshot: &Snapshot) -> Vec<(String, PathBuf)> {
    let mut rows: Vec<_> = snapshot.mods.rows.iter().filter(|row| row.load_position.is_some()).collect();
    rows.sort_by_key(|row| row.load_position);
    rows.iter().map(|row| (row.id.clone(), row.dir.clone())).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_files_are_read_once_per_data_view_or_when_forgotten() {
        let mut cache = LocaleCache::default();
        let mut snapshot = Snapshot::empty("test");
        let first = cache.files(&snapshot);
        assert!(Arc::ptr_eq(&first, &cache.files(&snapshot)), "the same view: the same read, shared");
        cache.forget();
        let again = cache.files(&snapshot);
        assert!(!Arc::ptr_eq(&first, &again), "Rescan reads them again");
        snapshot.mods.data = Arc::new(Vec::new());
        assert!(!Arc::ptr_eq(&again, &cache.files(&snapshot)), "a new data view (a hotload) reads them again");
    }
}
