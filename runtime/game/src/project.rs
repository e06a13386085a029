//! Projects: `projects/<name>/project.ron` says which mods a game loads, where to find them,
//! its start map and the player's prototype; its `maps/` folder holds the map files.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::files::{FileError, read_ron_text};

/// The contents of `project.ron`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ProjectManifest {
    /// The project's name, shown in the window title.
    pub name: String,
    /// Mods to load (their dependencies load too).
    #[serde(default)]
    pub mods: Vec<String>,
    /// Folders holding mod folders, relative to the project. `mods` inside the project is
    /// always searched first.
    #[serde(default)]
    pub mod_dirs: Vec<PathBuf>,
    /// Folders holding images, relative to the project. `assets` inside the project is always
    /// searched first.
    #[serde(default)]
    pub asset_dirs: Vec<PathBuf>,
    /// The map play starts on (a file stem under `maps/`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start_map: Option<String>,
    /// The player's `base.chara` prototype.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
}

/// Checks a name that becomes a file name inside the project (a map, a save, the start
/// map): 1 to 64 letters, digits, `_` or `-`, so it can never name a path outside the
/// project. `what` names it in the message ("map", "save").
pub fn check_name(what: &'static str, name: &str) -> Result<(), InvalidName> {
    let valid =
        !name.is_empty() && name.len() <= 64 && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    if valid { Ok(()) } else { Err(InvalidName { what, name: name.to_owned() }) }
}

/// A name [`check_name`] refused: it could not be a file name inside the project.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("'{name}' is not a {what} name: use 1 to 64 letters, digits, '_' or '-'")]
pub struct InvalidName {
    /// What it would have named ("map", "save").
    pub what: &'static str,
    /// The name refused.
    pub name: String,
}

// Image names are checked where sheets are found (the art module, below the data registry).
pub use crate::art::sheet::{InvalidAssetName, check_asset_name};

/// An opened project.
#[derive(Clone, Debug, PartialEq)]
pub struct Project {
    /// The project folder.
    pub dir: PathBuf,
    /// Its manifest.
    pub manifest: ProjectManifest,
}

impl Project {
    /// Opens the project in `dir` by reading its `project.ron`.
    pub fn open(dir: &Path) -> Result<Project, FileError> {
        let manifest_path = dir.join("project.ron");
        if !dir.is_dir() {
            return Err(FileError::new(dir, "no such project folder"));
        }
        if !manifest_path.is_file() {
            return Err(FileError::new(&manifest_path, "missing: a project folder needs a project.ron"));
        }
        let (manifest, text): (ProjectManifest, String) = read_ron_text(&manifest_path)?;
        if let Some(start) = &manifest.start_map
            && let Err(message) = check_name("map", start)
        {
            let line = text.lines().position(|l| l.contains("start_map")).map(|i| i + 1);
            return Err(FileError { line, ..FileError::new(&manifest_path, format!("start_map: {message}")) });
        }
        Ok(Project { dir: dir.to_owned(), manifest })
    }

    /// Writes `project.ron` (atomically).
    pub fn save(&self) -> Result<(), FileError> {
        let path = self.dir.join("project.ron");
        crate::files::write_atomic(&path, crate::files::to_ron(&path, &self.manifest)?.as_bytes())
    }

    /// The folders searched for mods, in order.
    pub fn mod_dirs(&self) -> Vec<PathBuf> {
        std::iter::once(self.dir.join("mods")).chain(self.manifest.mod_dirs.iter().map(|d| self.dir.join(d))).collect()
    }

    /// The folders searched for images, in order: the project's `assets`, its `asset_dirs`,
    /// then each enabled mod's own `assets` folder (where `nefia import --new-tiles` copies
    /// tilesets; listed whether it exists yet or not), in the order the mods are listed.
    pub fn asset_dirs(&self) -> Vec<PathBuf> {
        let (mods, _) = crate::mods::discover_all(&self.mod_dirs());
        let mod_assets = self.manifest.mods.iter().filter_map(|id| mods.get(id)).map(|m| m.dir.join("assets"));
        std::iter::once(self.dir.join("assets"))
            .chain(self.manifest.asset_dirs.iter().map(|d| self.dir.join(d)))
            .chain(mod_assets)
            .collect()
    }

    /// The folder of the project's map files.
    pub fn maps_dir(&self) -> PathBuf {
        self.dir.join("maps")
    }

    /// The folder saved games go to.
    pub fn saves_dir(&self) -> PathBuf {
        self.dir.join("saves")
    }

    /// Removes the temp files that writes interrupted by a crash or a kill left in the
    /// folders Nefia writes to (the project's own, its maps, saves, recordings and the edit
    /// journal): only `.<name>.<pid>.tmp` files of processes no longer running, never a file
    /// that is not Nefia's. Returns how many it removed.
    pub fn remove_stale_temps(&self) -> usize {
        let recordings = self.dir.join("recordings");
        let journal = crate::journal::journal_dir(&self.dir);
        [
            self.dir.clone(),
            self.maps_dir(),
            self.saves_dir(),
            crate::recording::files_dir(&recordings),
            recordings,
            journal,
        ]
        .iter()
        .map(|dir| crate::files::remove_stale_temps_in(dir))
        .sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_stay_inside_the_project() {
        assert!(check_name("map", "dungeon_1").is_ok());
        for bad in ["", "../evil", "/etc/passwd", "a b", "a/b", "."] {
            assert!(check_name("map", bad).is_err(), "{bad}");
        }
        assert!(check_asset_name("feats/fountain.png").is_ok());
        for bad in ["../x.png", "/x.png", "a//b.png", "C:/x.png", "a\\..\\b.png", ".hidden/x.png", ""] {
            assert!(check_asset_name(bad).is_err(), "{bad}");
        }
    }
}
