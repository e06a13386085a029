//! Projects: `projects/<name>/project.ron` says which mods a game loads, where to find them,
//! its start map and the player's prototype; its `maps/` folder holds the map files.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::files::{FileError, read_ron};

/// The contents of `project.ron`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
        let manifest = read_ron(&manifest_path)?;
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

    /// The folders searched for images, in order.
    pub fn asset_dirs(&self) -> Vec<PathBuf> {
        std::iter::once(self.dir.join("assets"))
            .chain(self.manifest.asset_dirs.iter().map(|d| self.dir.join(d)))
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
}
