//! A project's map files (`maps/<name>.ron`) and their maps in the world: which are open,
//! which have unsaved changes, and the file operations of the Maps pane — new, open, save,
//! rename, duplicate, delete.
//!
//! A map's name is its file's stem. Saving writes the map as a map file (no player, no
//! memory, objects with only the fields that differ from their prototype), atomically, and
//! keeps the previous file as `<name>.ron.bak`. A file with ids the loaded mods do not know
//! still opens: unknown tiles stay in the grid, unknown objects are kept aside, and both are
//! written back unchanged.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::files::{FileError, read_ron, read_ron_text, to_ron_lines, write_atomic};
use crate::map::MapId;
use crate::project::Project;
use crate::save::{MapRecord, RecordKind};
use crate::world::{World, WorldError};

/// Why a map file operation failed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum MapFileError {
    /// Reading or writing a file failed, or it is malformed.
    #[error(transparent)]
    File(#[from] FileError),
    /// The world refused (a bad size, an unknown tile…).
    #[error(transparent)]
    World(#[from] WorldError),
    /// The request itself cannot be done; the text says why.
    #[error("{0}")]
    Refused(String),
}

/// One map file and its map.
#[derive(Clone, Debug, Default)]
struct MapFile {
    /// The map in the world, once opened.
    map: Option<MapId>,
    /// The map as it was when last loaded or saved; none if it never was.
    saved: Option<SavePoint>,
    /// What could not be read: unknown ids, with file:line.
    problems: Vec<String>,
    /// Its file was removed from `maps/` while it was open (its map stays, unsaved).
    file_removed: bool,
    /// The last answer of [`MapFiles::is_dirty`] that compared contents, with the content
    /// revision it was for: contents are compared once per change, not once per frame.
    compared: std::cell::Cell<Option<(u64, bool)>>,
}

/// The map as saved: its content revision then, and a hash of what its file holds, so that
/// undoing back to the saved state (a new revision, the same contents) is not unsaved.
#[derive(Clone, Copy, Debug)]
struct SavePoint {
    revision: u64,
    content: u64,
}

impl SavePoint {
    /// Map `map` as it is now.
    fn of(world: &World, map: MapId) -> Result<SavePoint, WorldError> {
        Ok(SavePoint { revision: world.map(map)?.content_revision(), content: content_hash(world, map)? })
    }
}

/// A hash of what map `map`'s file would hold.
fn content_hash(world: &World, map: MapId) -> Result<u64, WorldError> {
    use std::hash::{Hash, Hasher};
    let record = world.map_record(map, RecordKind::MapFile)?;
    let mut hasher = rustc_hash::FxHasher::default();
    ron::to_string(&record).unwrap_or_default().hash(&mut hasher);
    Ok(hasher.finish())
}

/// A map file as the Maps pane shows it.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct MapFileView {
    /// The name (the file stem).
    pub name: String,
    /// Its size, once open.
    pub size: Option<(i32, i32)>,
    /// Its map in the world, once open.
    pub map: Option<MapId>,
    /// It is the current map.
    pub current: bool,
    /// It has changes not yet saved.
    pub dirty: bool,
    /// It is the project's start map.
    pub start: bool,
    /// Unknown ids found when it was opened, as `file:line: message`.
    pub problems: Vec<String>,
    /// The generator and seed that made it, if it is open and a generator made it.
    pub generated: Option<(String, i64)>,
    /// How many conflicts a merge left in it, if it is open (see [`crate::map_merge`]).
    pub conflicts: usize,
    /// Its file was removed from `maps/` while it was open: saving writes it again.
    #[serde(default)]
    pub file_removed: bool,
}

/// What a [`MapFiles::rescan`] found changed in `maps/`.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rescanned {
    /// Files that appeared, now listed.
    pub added: Vec<String>,
    /// Files of maps not open that went, no longer listed.
    pub gone: Vec<String>,
    /// Files of open maps that went: the maps stay, with unsaved changes.
    pub removed_while_open: Vec<String>,
}

/// The project's map files.
#[derive(Clone, Debug, Default)]
pub struct MapFiles {
    files: BTreeMap<String, MapFile>,
}

/// Checks a map name: letters, digits, `_` and `-`, so it is a file name inside the
/// project's `maps/` folder and never a path outside it.
pub fn check_name(name: &str) -> Result<(), MapFileError> {
    crate::project::check_name("map", name).map_err(|refused| MapFileError::Refused(refused.to_string()))
}

/// A map file's text: one line per palette entry, row of tiles and object.
pub fn map_text(path: &Path, record: &MapRecord) -> Result<String, FileError> {
    to_ron_lines(path, record, 2)
}

/// The line of `text` (1-based) where `needle` first appears.
fn line_of(text: &str, needle: &str) -> Option<usize> {
    let at = text.find(needle)?;
    Some(text[..at].lines().count().max(1) + usize::from(text[..at].ends_with('\n')))
}

impl MapFiles {
    /// The map files found in the project's `maps/` folder (none are open yet).
    pub fn scan(project: &Project) -> MapFiles {
        let files = crate::files::ron_files(&project.maps_dir())
            .iter()
            .filter_map(|path| Some((path.file_stem()?.to_str()?.to_owned(), MapFile::default())))
            .collect();
        MapFiles { files }
    }

    /// Takes in what `maps/` holds now (a file copied in, merged, baked from the command
    /// line, or deleted outside the editor): new files are listed, those of maps not open
    /// are dropped when their file goes, and an open map whose file went stays, marked, with
    /// unsaved changes. Maps made in the editor and not yet saved are left alone.
    pub fn rescan(&mut self, project: &Project) -> Rescanned {
        let on_disk = MapFiles::scan(project).files;
        let mut found = Rescanned::default();
        for name in on_disk.keys() {
            match self.files.get_mut(name) {
                None => {
                    self.files.insert(name.clone(), MapFile::default());
                    found.added.push(name.clone());
                }
                Some(file) if file.file_removed => {
                    // Back on disk (an undone delete, a checkout): compared again from now.
                    file.file_removed = false;
                }
                Some(_) => {}
            }
        }
        let went: Vec<String> = self.files.keys().filter(|name| !on_disk.contains_key(*name)).cloned().collect();
        for name in went {
            let Some(file) = self.files.get_mut(&name) else { continue };
            if file.map.is_none() {
                self.files.remove(&name);
                found.gone.push(name);
            } else if file.saved.is_some() && !file.file_removed {
                // It had a file (it was loaded or saved): what is open is now its only copy.
                // A map made in the editor and never saved has no file to lose.
                file.file_removed = true;
                file.saved = None;
                found.removed_while_open.push(name);
            }
        }
        found
    }

    /// The names of the map files, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.files.keys().map(String::as_str)
    }

    /// The open map called `name`, if any.
    pub fn map(&self, name: &str) -> Option<MapId> {
        self.files.get(name).and_then(|f| f.map)
    }

    /// The name of the file of map `id`, if it is a project map.
    pub fn name_of(&self, id: MapId) -> Option<&str> {
        self.files.iter().find(|(_, f)| f.map == Some(id)).map(|(name, _)| name.as_str())
    }

    fn path(project: &Project, name: &str) -> PathBuf {
        project.maps_dir().join(format!("{name}.ron"))
    }

    /// Opens map `name`: the world's map of that name if it has one (opened before, or
    /// from a loaded save), else its file loaded into the world. Unknown ids are reported in
    /// [`MapFileView::problems`] (and returned), not refused.
    pub fn open(
        &mut self,
        world: &mut World,
        project: &Project,
        name: &str,
    ) -> Result<(MapId, Vec<String>), MapFileError> {
        if let Some(map) = self.map(name).filter(|&id| world.map(id).is_ok_and(|m| m.name == name)) {
            return Ok((map, Vec::new()));
        }
        // A map of that name already in the world (a loaded save's, a recording's start) is
        // the one the game goes on with: the file would start it over.
        if let Some(map) = world.maps().find(|m| m.name == name).map(|m| m.uid) {
            let saved = Some(SavePoint::of(world, map)?);
            self.files.insert(name.to_owned(), MapFile { map: Some(map), saved, ..MapFile::default() });
            return Ok((map, Vec::new()));
        }
        check_name(name)?;
        let path = Self::path(project, name);
        let (record, text): (MapRecord, String) = read_ron_text(&path)?;
        let file_name = format!("maps/{name}.ron");
        let problems: Vec<String> = world
            .unknown_ids(&record)
            .into_iter()
            .map(|(id, message)| match line_of(&text, &format!("\"{id}\"")) {
                Some(line) => format!("{file_name}:{line}: {message}"),
                None => format!("{file_name}: {message}"),
            })
            .collect();
        let map = world
            .map_from_record(&record, RecordKind::MapFile)
            .map_err(|error| crate::validate::refusal_in_file(error, &path, &text))?;
        world.map_mut(map)?.name = name.to_owned();
        let saved = Some(SavePoint::of(world, map)?);
        let file = MapFile { map: Some(map), saved, problems: problems.clone(), ..MapFile::default() };
        self.files.insert(name.to_owned(), file);
        Ok((map, problems))
    }

    /// Makes a new `width`×`height` map called `name` filled with `tile`; it has no file
    /// until it is saved.
    pub fn create(
        &mut self,
        world: &mut World,
        project: &Project,
        name: &str,
        width: i32,
        height: i32,
        tile: &str,
    ) -> Result<MapId, MapFileError> {
        check_name(name)?;
        if self.files.contains_key(name) || Self::path(project, name).exists() {
            return Err(MapFileError::Refused(format!("a map called '{name}' already exists")));
        }
        let map = world.create_map(width, height, Some(tile))?;
        world.map_mut(map)?.name = name.to_owned();
        self.files.insert(name.to_owned(), MapFile { map: Some(map), ..MapFile::default() });
        Ok(map)
    }

    /// Makes the world's map `map` (one with no file, such as a generated preview) the
    /// project's map `name`; it has no file until it is saved.
    pub fn adopt(&mut self, world: &mut World, project: &Project, name: &str, map: MapId) -> Result<(), MapFileError> {
        check_name(name)?;
        if self.files.contains_key(name) || Self::path(project, name).exists() {
            return Err(MapFileError::Refused(format!("a map called '{name}' already exists")));
        }
        world.map_mut(map)?.name = name.to_owned();
        self.files.insert(name.to_owned(), MapFile { map: Some(map), ..MapFile::default() });
        Ok(())
    }

    /// Takes the world's map `map` as project map `name` again (the edit journal's base was
    /// loaded): as saved if `clean`, else with unsaved changes.
    pub fn reopen(&mut self, world: &World, name: &str, map: MapId, clean: bool) {
        let saved = clean.then(|| SavePoint::of(world, map).ok()).flatten();
        self.files.insert(name.to_owned(), MapFile { map: Some(map), saved, ..MapFile::default() });
    }

    /// Takes the open map `name` as it is now as saved (the player was placed on it, which
    /// map files do not record).
    pub fn mark_saved(&mut self, world: &World, name: &str) {
        if let Some(file) = self.files.get_mut(name)
            && let Some(map) = file.map
        {
            file.saved = SavePoint::of(world, map).ok();
        }
    }

    /// Saves map `name` to its file (the old one becomes `<name>.ron.bak`).
    pub fn save(&mut self, world: &World, project: &Project, name: &str) -> Result<PathBuf, MapFileError> {
        let file = self.files.get_mut(name).ok_or_else(|| MapFileError::Refused(format!("no map called '{name}'")))?;
        let Some(map) = file.map else {
            return Err(MapFileError::Refused(format!("map '{name}' is not open: nothing to save")));
        };
        let path = Self::path(project, name);
        let text = map_text(&path, &world.map_record(map, RecordKind::MapFile)?)?;
        // Never over a file another program is writing (or changes while this one is written).
        let read = crate::files::guarded::read_quiet(&path)?;
        crate::files::guarded::write_over(&path, read.as_deref(), text.as_bytes())?;
        // The backup is the file as it was read, written once the save went through, so a
        // refused save leaves the last backup too.
        if let Some(old) = &read {
            write_atomic(&path.with_extension("ron.bak"), old)?;
        }
        file.saved = Some(SavePoint::of(world, map)?);
        file.file_removed = false;
        Ok(path)
    }

    /// Saves every open map with unsaved changes; returns the files written.
    pub fn save_all(&mut self, world: &World, project: &Project) -> Result<Vec<PathBuf>, MapFileError> {
        self.dirty(world).into_iter().map(|name| self.save(world, project, &name)).collect()
    }

    /// Writes every open map with unsaved changes beside its file as
    /// `maps/<name>.ron.recovered`, for when the runtime cannot go on: the map files
    /// themselves are left alone. Returns what was written and what could not be.
    pub fn write_recovered(&self, world: &World, project: &Project) -> Vec<Result<PathBuf, MapFileError>> {
        self.dirty(world)
            .into_iter()
            .filter_map(|name| Some((name.clone(), self.map(&name)?)))
            .map(|(name, map)| {
                let path = Self::path(project, &name).with_extension("ron.recovered");
                // The world may be inconsistent here: a map that cannot be written is named.
                let record = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    world.map_record(map, RecordKind::MapFile)
                }))
                .map_err(|_| MapFileError::Refused(format!("map '{name}' is too damaged to write")))??;
                write_atomic(&path, map_text(&path, &record)?.as_bytes())?;
                Ok(path)
            })
            .collect()
    }

    /// The names of the open maps with unsaved changes.
    pub fn dirty(&self, world: &World) -> Vec<String> {
        self.files.iter().filter(|(_, f)| Self::is_dirty(world, f)).map(|(name, _)| name.clone()).collect()
    }

    /// True if open map `file` differs from its file: changed since it was saved, and not
    /// back to what was saved (undone to the save point, say).
    fn is_dirty(world: &World, file: &MapFile) -> bool {
        let Some((id, map)) = file.map.and_then(|id| Some((id, world.map(id).ok()?))) else { return false };
        let Some(saved) = file.saved else { return true };
        let revision = map.content_revision();
        if revision == saved.revision {
            return false;
        }
        if let Some((compared, dirty)) = file.compared.get()
            && compared == revision
        {
            return dirty;
        }
        let dirty = !content_hash(world, id).is_ok_and(|content| content == saved.content);
        file.compared.set(Some((revision, dirty)));
        dirty
    }

    /// Renames map `from` to `to`: its file (if saved), its map, and the project's start
    /// map if it was this one.
    pub fn rename(
        &mut self,
        world: &mut World,
        project: &mut Project,
        from: &str,
        to: &str,
    ) -> Result<(), MapFileError> {
        check_name(to)?;
        if self.files.contains_key(to) || Self::path(project, to).exists() {
            return Err(MapFileError::Refused(format!("a map called '{to}' already exists")));
        }
        let file = self.files.remove(from).ok_or_else(|| MapFileError::Refused(format!("no map called '{from}'")))?;
        let (old, new) = (Self::path(project, from), Self::path(project, to));
        if old.exists()
            && let Err(error) = std::fs::rename(&old, &new)
        {
            self.files.insert(from.to_owned(), file);
            return Err(FileError::io(&old, error).into());
        }
        if let Some(map) = file.map {
            world.map_mut(map)?.name = to.to_owned();
        }
        self.files.insert(to.to_owned(), file);
        if project.manifest.start_map.as_deref() == Some(from) {
            project.manifest.start_map = Some(to.to_owned());
            project.save()?;
        }
        Ok(())
    }

    /// Writes a copy of map `from` (as it is now, unsaved changes included) as map `to`.
    pub fn duplicate(&mut self, world: &World, project: &Project, from: &str, to: &str) -> Result<(), MapFileError> {
        check_name(to)?;
        if self.files.contains_key(to) || Self::path(project, to).exists() {
            return Err(MapFileError::Refused(format!("a map called '{to}' already exists")));
        }
        let target = Self::path(project, to);
        match self.map(from) {
            Some(map) => {
                let mut record = world.map_record(map, RecordKind::MapFile)?;
                record.name = to.to_owned();
                write_atomic(&target, map_text(&target, &record)?.as_bytes())?;
            }
            None => {
                check_name(from)?;
                let mut record: MapRecord = read_ron(&Self::path(project, from))?;
                record.name = to.to_owned();
                write_atomic(&target, map_text(&target, &record)?.as_bytes())?;
            }
        }
        self.files.insert(to.to_owned(), MapFile::default());
        Ok(())
    }

    /// Deletes map `name`: its file is kept as `<name>.ron.bak`, and its map leaves the
    /// world. The start map cannot be deleted.
    pub fn delete(&mut self, world: &mut World, project: &Project, name: &str) -> Result<(), MapFileError> {
        if project.manifest.start_map.as_deref() == Some(name) {
            return Err(MapFileError::Refused(format!(
                "'{name}' is the project's start map: make another map the start map first"
            )));
        }
        let file = self.files.get(name).ok_or_else(|| MapFileError::Refused(format!("no map called '{name}'")))?;
        let path = Self::path(project, name);
        if path.exists() {
            let backup = path.with_extension("ron.bak");
            std::fs::rename(&path, &backup).map_err(|e| FileError::io(&path, e))?;
        }
        if let Some(map) = file.map {
            world.remove_map(map)?;
            if world.current_map().is_none()
                && let Some(other) = self.files.values().filter_map(|f| f.map).find(|&m| m != map)
            {
                world.set_current_map(other)?;
            }
        }
        self.files.remove(name);
        Ok(())
    }

    /// What the Maps pane shows.
    pub fn views(&self, world: &World, project: &Project) -> Vec<MapFileView> {
        self.files
            .iter()
            .map(|(name, file)| {
                let map = file.map.and_then(|m| world.map(m).ok());
                MapFileView {
                    name: name.clone(),
                    size: map.map(|m| (m.width(), m.height())),
                    map: file.map,
                    current: file.map.is_some() && file.map == world.current_map(),
                    dirty: Self::is_dirty(world, file),
                    start: project.manifest.start_map.as_deref() == Some(name.as_str()),
                    problems: file.problems.clone(),
                    generated: map.and_then(|m| m.generated.as_ref()).map(|g| (g.generator.clone(), g.seed)),
                    conflicts: map.map_or(0, |m| m.conflicts.len()),
                    file_removed: file.file_removed,
                }
            })
            .collect()
    }
}

/// Creates a new project folder `dir` named `name`, loading `mods` found in `mod_dirs`,
/// with an empty `maps/` folder.
pub fn create_project(
    dir: &Path,
    name: &str,
    mods: Vec<String>,
    mod_dirs: Vec<PathBuf>,
    asset_dirs: Vec<PathBuf>,
) -> Result<Project, MapFileError> {
    if dir.join("project.ron").exists() {
        return Err(MapFileError::Refused(format!("{} already holds a project", dir.display())));
    }
    std::fs::create_dir_all(dir.join("maps")).map_err(|e| FileError::io(dir, e))?;
    let manifest = crate::project::ProjectManifest {
        name: name.to_owned(),
        mods,
        mod_dirs,
        asset_dirs,
        start_map: None,
        player: None,
    };
    let project = Project { dir: dir.to_owned(), manifest };
    project.save()?;
    Ok(project)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_counted_from_one() {
        let text = "(\n  a: \"x\",\n  b: \"y\",\n)";
        assert_eq!(line_of(text, "\"x\""), Some(2));
        assert_eq!(line_of(text, "\"y\""), Some(3));
        assert_eq!(line_of(text, "("), Some(1));
        assert_eq!(line_of(text, "zzz"), None);
    }

    #[test]
    fn names_are_file_names() {
        assert!(check_name("dungeon_1").is_ok());
        assert!(check_name("").is_err());
        assert!(check_name("../evil").is_err());
        assert!(check_name("a b").is_err());
    }
}
