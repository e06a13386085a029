//! Mods: discovery under the project's mod folders, `mod.ron` manifests and load order.
//!
//! A mod is a folder `mods/<id>/` with a `mod.ron` (id, version, dependencies) and an
//! `init.lua`. Mods load after their dependencies; a missing dependency or a cycle is an
//! error that names the mods involved.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::files::{FileError, read_ron};

/// The contents of a `mod.ron`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ModManifest {
    /// The mod's id: its namespace (`elona` in `elona.putit`) and folder name.
    pub id: String,
    /// Its version.
    pub version: String,
    /// Ids of the mods it needs loaded first.
    #[serde(default)]
    pub dependencies: Vec<String>,
    /// One line saying what it is.
    #[serde(default)]
    pub description: String,
}

/// A mod found on disk.
#[derive(Clone, Debug, PartialEq)]
pub struct ModInfo {
    /// Its manifest.
    pub manifest: ModManifest,
    /// Its folder.
    pub dir: PathBuf,
}

impl ModInfo {
    /// The mod's id.
    pub fn id(&self) -> &str {
        &self.manifest.id
    }
}

/// A mod as the Mods pane lists it: found under the project's mod folders, enabled or not,
/// loaded or not, and why not.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct ModRow {
    /// Its id (its folder's name, for a folder whose manifest could not be read).
    pub id: String,
    /// Its version ("" if unknown).
    pub version: String,
    /// What it says it is.
    pub description: String,
    /// The mods it needs.
    pub dependencies: Vec<String>,
    /// Its folder.
    pub dir: PathBuf,
    /// Listed in the project's `mods` (its dependencies load with it without being listed).
    pub enabled: bool,
    /// Where it came in the load order, if it loaded.
    pub load_position: Option<usize>,
    /// Why it did not load (or could not be read), with file and line where there is one.
    pub problem: Option<String>,
}

/// Why the mods could not be put in order.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ModsError {
    /// A manifest could not be read.
    #[error("{0}")]
    Manifest(#[from] FileError),
    /// A mod asks for one that is not installed.
    #[error("mod '{wanted_by}' depends on '{missing}', which is not installed (looked in: {searched})")]
    MissingDependency {
        /// The mod with the dependency ("project" for the project's own list).
        wanted_by: String,
        /// The missing mod.
        missing: String,
        /// The folders searched.
        searched: String,
    },
    /// Mods depend on each other in a circle.
    #[error("mods depend on each other in a cycle: {}", .0.join(" -> "))]
    Cycle(Vec<String>),
    /// Two folders hold the same mod id.
    #[error("mod '{id}' is installed twice: {first} and {second}")]
    Duplicate {
        /// The id.
        id: String,
        /// First folder.
        first: String,
        /// Second folder.
        second: String,
    },
}

/// Finds every mod (a folder with a `mod.ron`) under `mod_dirs`; the first broken manifest
/// or duplicate id is an error. Folders that do not exist are skipped.
pub fn discover(mod_dirs: &[PathBuf]) -> Result<BTreeMap<String, ModInfo>, ModsError> {
    let (found, mut problems) = discover_all(mod_dirs);
    match problems.is_empty() {
        true => Ok(found),
        false => Err(problems.swap_remove(0).1),
    }
}

/// Finds every mod under `mod_dirs`, and the folders that are not usable mods (a broken
/// `mod.ron`, an id that is not its folder's name, an id found twice), each with its folder
/// name and the problem.
pub fn discover_all(mod_dirs: &[PathBuf]) -> (BTreeMap<String, ModInfo>, Vec<(String, ModsError)>) {
    let mut found: BTreeMap<String, ModInfo> = BTreeMap::new();
    let mut problems = Vec::new();
    for root in mod_dirs {
        let Ok(entries) = std::fs::read_dir(root) else {
            continue;
        };
        let mut dirs: Vec<PathBuf> = entries.filter_map(|e| e.ok()).map(|e| e.path()).collect();
        dirs.sort();
        for dir in dirs {
            let manifest_path = dir.join("mod.ron");
            if !manifest_path.is_file() {
                continue;
            }
            let folder = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let manifest: ModManifest = match read_ron(&manifest_path) {
                Ok(manifest) => manifest,
                Err(error) => {
                    problems.push((folder, error.into()));
                    continue;
                }
            };
            if manifest.id != folder {
                let message = format!("the mod id '{}' must match its folder name '{folder}'", manifest.id);
                problems.push((folder, FileError::new(&manifest_path, message).into()));
                continue;
            }
            let info = ModInfo { manifest, dir: dir.clone() };
            if let Some(first) = found.get(info.id()) {
                let duplicate = ModsError::Duplicate {
                    id: info.manifest.id.clone(),
                    first: first.dir.display().to_string(),
                    second: dir.display().to_string(),
                };
                problems.push((folder, duplicate));
                continue;
            }
            found.insert(info.manifest.id.clone(), info);
        }
    }
    (found, problems)
}

/// Orders `wanted` and everything they depend on so that each mod comes after its
/// dependencies.
pub fn load_order(
    available: &BTreeMap<String, ModInfo>,
    wanted: &[String],
    searched: &[PathBuf],
) -> Result<Vec<ModInfo>, ModsError> {
    let searched = searched.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ");
    let mut order = Vec::new();
    let mut path = Vec::new();
    for id in wanted {
        visit(available, id, "project", &searched, &mut path, &mut order)?;
    }
    Ok(order)
}

fn visit(
    available: &BTreeMap<String, ModInfo>,
    id: &str,
    wanted_by: &str,
    searched: &str,
    path: &mut Vec<String>,
    order: &mut Vec<ModInfo>,
) -> Result<(), ModsError> {
    if order.iter().any(|m| m.id() == id) {
        return Ok(());
    }
    if let Some(start) = path.iter().position(|p| p == id) {
        let mut cycle = path[start..].to_vec();
        cycle.push(id.to_owned());
        return Err(ModsError::Cycle(cycle));
    }
    let info = available.get(id).ok_or_else(|| ModsError::MissingDependency {
        wanted_by: wanted_by.to_owned(),
        missing: id.to_owned(),
        searched: searched.to_owned(),
    })?;
    path.push(id.to_owned());
    for dependency in &info.manifest.dependencies {
        visit(available, dependency, id, searched, path, order)?;
    }
    path.pop();
    order.push(info.clone());
    Ok(())
}

/// The file a Lua chunk name refers to, and the mod owning it, for provenance. Files are
/// named relative to the folder that holds the mod folders, such as `mods/elona/init.lua`.
pub fn display_path(root: &Path, file: &Path) -> String {
    file.strip_prefix(root).unwrap_or(file).display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write_mod(root: &Path, id: &str, deps: &[&str]) {
        let dir = root.join(id);
        std::fs::create_dir_all(&dir).unwrap();
        let deps = deps.iter().map(|d| format!("{d:?}")).collect::<Vec<_>>().join(", ");
        std::fs::write(dir.join("mod.ron"), format!("(id: {id:?}, version: \"1.0\", dependencies: [{deps}])")).unwrap();
    }

    #[test]
    fn dependencies_load_first() {
        let root = tempfile::tempdir().unwrap();
        write_mod(root.path(), "base", &[]);
        write_mod(root.path(), "elona", &["base"]);
        write_mod(root.path(), "tools", &["elona", "base"]);
        let dirs = vec![root.path().to_owned()];
        let found = discover(&dirs).unwrap();
        let order = load_order(&found, &["tools".into()], &dirs).unwrap();
        let ids: Vec<_> = order.iter().map(|m| m.id()).collect();
        assert_eq!(ids, ["base", "elona", "tools"]);
    }

    #[test]
    fn missing_dependency_and_cycle_name_the_mods() {
        let root = tempfile::tempdir().unwrap();
        write_mod(root.path(), "a", &["b"]);
        write_mod(root.path(), "b", &["a"]);
        write_mod(root.path(), "c", &["nowhere"]);
        let dirs = vec![root.path().to_owned()];
        let found = discover(&dirs).unwrap();
        let cycle = load_order(&found, &["a".into()], &dirs).unwrap_err().to_string();
        assert!(cycle.contains("a -> b -> a"), "{cycle}");
        let missing = load_order(&found, &["c".into()], &dirs).unwrap_err().to_string();
        assert!(missing.contains("'c' depends on 'nowhere'"), "{missing}");
    }
}
