//! The edit journal: what the editor did to the project's maps since they were last saved,
//! kept in `<project>/.nefia/journal/` so a crash or a kill loses nothing.
//!
//! The journal is a write-ahead log of the editor's commands, as a recording is of a play
//! session: `log.ron` has one [`JournalEntry`] a line, appended as each command is done (a
//! brush stroke's parts as they are painted). Replaying the commands from the same start
//! makes the same objects with the same uids, so the log needs no other identity. The start
//! is the editor's own (the project opened, its start map shown) until something the log
//! cannot replay happens — a map saved, renamed or deleted, a hotload that made objects —
//! and then `base.ron` takes the world as it is (a save of the edit state, with which maps are
//! which files and which have unsaved changes) and the log starts again from it.
//!
//! A form's edit of a prototype (see `runtime/host/src/editing/content.rs`) changes a mod's Lua file, not
//! the world, so replaying the command could not tell what it did: the file on disk already
//! holds its result. Its entry keeps the edit's patch of the file instead (the lines it
//! replaced and wrote, [`Journaled::Content`]), and a recovery puts those patches back in
//! History as the session had them, after checking that the file still holds what the log's
//! edits, undos and redos left in it ([`sources_changed_under`]).
//!
//! Both files are untrusted on reading: a base that does not parse is refused with its file
//! and line; a log line that does not parse ends the log there (the last line of a killed
//! process may be cut off), and one in the middle is reported.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::edit::Edit;
use crate::files::{FileError, parse_ron, read_text};
use crate::history::{History, Transaction};
use crate::map::MapId;
use crate::save::SaveGame;
use crate::source_patch::{PatchSide, SourcePatch};
use crate::value::Value;

/// The journal's format version, written in each base. 2: a form's edit of a Lua file is kept
/// as its [`SourcePatch`], not as the file's whole text before and after; a log of format 1 is
/// refused by name rather than read up to its first such entry.
pub const JOURNAL_FORMAT: u32 = 2;

/// The longest log written and read: 64 MiB. A log that an entry would take past it starts
/// again from a new base (the world with that edit), so the journal never writes what a
/// recovery would not read; a longer log (edited by hand) is read up to here, with a warning.
pub const MAX_LOG_BYTES: u64 = 64 << 20;

/// A command of the editor the journal keeps.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Journaled {
    /// An edit (a stroke's part, an inspector edit, …).
    Edit(Edit),
    /// An edit that changed Lua files (a prototype's field set in a form), with its patches of
    /// them: replayed, the patches go back into History; the files already hold their result.
    Content {
        /// The edit.
        edit: Edit,
        /// Its History label.
        label: String,
        /// Its patches of the files it changed.
        sources: Vec<SourcePatch>,
    },
    /// The last edit was undone.
    Undo,
    /// The last undone edit was redone.
    Redo,
    /// A map was opened.
    Open(String),
    /// A new map was made (it has no file yet).
    New {
        /// Its name.
        name: String,
        /// Width in cells.
        width: i32,
        /// Height in cells.
        height: i32,
        /// The tile it is filled with.
        tile: String,
    },
    /// The workbench previewed a generator's seed.
    Preview {
        /// The generator.
        generator: String,
        /// Its params.
        params: Value,
        /// The seed.
        seed: i64,
    },
    /// The workbench's preview was closed.
    ClosePreview,
}

impl Journaled {
    /// True for what changes a map the user may want back (not opening one).
    pub fn is_edit(&self) -> bool {
        matches!(self, Journaled::Edit(_) | Journaled::Content { .. } | Journaled::Undo | Journaled::Redo)
    }

    /// The command in a few words, for a recovery to say which did not come back.
    pub fn describe(&self) -> String {
        match self {
            Journaled::Edit(edit) => {
                let part = match edit {
                    Edit::Stroke { edit, .. } => edit,
                    edit => edit,
                };
                let text = format!("{part:?}");
                match text.char_indices().nth(DESCRIBED_CHARS) {
                    Some((end, _)) => format!("{}…", &text[..end]),
                    None => text,
                }
            }
            Journaled::Content { label, .. } => format!("'{label}'"),
            Journaled::Undo => "an undo".into(),
            Journaled::Redo => "a redo".into(),
            Journaled::Open(name) => format!("opening map '{name}'"),
            Journaled::New { name, .. } => format!("making map '{name}'"),
            Journaled::Preview { generator, seed, .. } => format!("a preview of {generator} seed {seed}"),
            Journaled::ClosePreview => "closing the preview".into(),
        }
    }
}

/// How much of an edit [`Journaled::describe`] shows.
const DESCRIBED_CHARS: usize = 80;

/// One line of the log.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JournalEntry {
    /// When it was done, in milliseconds since 1970.
    pub at: u64,
    /// The name of the map that was current (what the recovery dialog lists).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub map: Option<String>,
    /// The world's next object uid once it was done: replaying must come to the same.
    pub next_uid: u64,
    /// The command.
    pub what: Journaled,
}

/// A project map file open in the world when the base was taken.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BaseFile {
    /// The map's name (its file's stem).
    pub name: String,
    /// Its map in the base's world.
    pub map: MapId,
    /// It had no unsaved changes.
    pub clean: bool,
}

/// The workbench's preview when the base was taken.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BasePreview {
    /// The generator.
    pub generator: String,
    /// Its params.
    pub params: Value,
    /// The seed.
    pub seed: i64,
    /// The preview's map in the base's world.
    pub map: MapId,
    /// The map that was current before the preview.
    pub was_current: Option<MapId>,
}

/// The edit state the log starts from, when it is not the editor's own start.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct JournalBase {
    /// [`JOURNAL_FORMAT`].
    pub format: u32,
    /// The file name of its log in the journal folder (`log-<n>.ron`).
    pub log: String,
    /// The world, with every mod's `save` table.
    pub world: SaveGame,
    /// The project maps open in it.
    pub files: Vec<BaseFile>,
    /// The workbench's preview, if one showed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub preview: Option<BasePreview>,
}

/// A map with unsaved edits, as the recovery dialog lists it.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct UnsavedMap {
    /// The map's name.
    pub name: String,
    /// How many History steps the log leaves on it (of the edits made while it was current;
    /// see [`steps_of`]).
    pub edits: usize,
    /// When the last was made, in milliseconds since 1970 (none if all are from before the
    /// base: changes not saved when it was taken).
    pub last: Option<u64>,
}

/// A journal found on opening a project: what recovering it would bring back.
#[derive(Clone, Debug, PartialEq)]
pub struct Journal {
    /// The base, if the log does not start from the editor's own start.
    pub base: Option<JournalBase>,
    /// The log.
    pub entries: Vec<JournalEntry>,
    /// What could not be read (a line cut off is not a problem), as `file:line: message`.
    pub problems: Vec<String>,
    /// The prefix of the object keys the session gave (see [`crate::object_key`]), so the
    /// recovered session keys its objects as the crashed one did.
    pub key_prefix: Option<String>,
}

/// The journal folder of the project in `project`.
pub fn journal_dir(project: &Path) -> PathBuf {
    project.join(".nefia").join("journal")
}

/// The log's file in journal folder `dir` when there is no base.
pub fn log_path(dir: &Path) -> PathBuf {
    dir.join("log.ron")
}

/// True for the file names logs are given: `log.ron` and `log-<digits>.ron` (a base names
/// its log; it must not name a file anywhere else).
pub fn is_log_name(name: &str) -> bool {
    let stem = name.strip_suffix(".ron").unwrap_or("");
    stem == "log" || stem.strip_prefix("log-").is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// The file in journal folder `dir` naming the session's object key prefix.
pub fn key_prefix_path(dir: &Path) -> PathBuf {
    dir.join("key_prefix")
}

/// Reads the session's key prefix from journal folder `dir`: none if the file is missing
/// or is not 1 to 16 letters and digits (the session's new objects then get new keys).
fn read_key_prefix(dir: &Path) -> Option<String> {
    let text = std::fs::read_to_string(key_prefix_path(dir)).ok()?;
    let prefix = text.trim();
    let fits = (1..=16).contains(&prefix.len()) && prefix.bytes().all(|b| b.is_ascii_alphanumeric());
    fits.then(|| prefix.to_owned())
}

/// The base's file in journal folder `dir`.
pub fn base_path(dir: &Path) -> PathBuf {
    dir.join("base.ron")
}

/// One log line, ending in a newline.
pub fn entry_line(entry: &JournalEntry) -> Result<String, ron::Error> {
    let mut line = crate::files::ron_options().to_string(entry)?;
    line.push('\n');
    Ok(line)
}

impl Journal {
    /// Reads the journal in folder `dir`; `None` if there is nothing to recover (no log
    /// entry, and no base with a map left unsaved).
    pub fn read(dir: &Path) -> Result<Option<Journal>, FileError> {
        let base_file = base_path(dir);
        let base: Option<JournalBase> = match base_file.exists() {
            true => Some(parse_ron(&base_file, &read_text(&base_file)?)?),
            false => None,
        };
        if let Some(base) = &base
            && base.format != JOURNAL_FORMAT
        {
            return Err(FileError::new(
                &base_file,
                format!("journal format {} is not {JOURNAL_FORMAT}: it was written by another Nefia", base.format),
            ));
        }
        let log = match &base {
            Some(base) if is_log_name(&base.log) => dir.join(&base.log),
            Some(base) => {
                let message = format!("log: '{}' is not a log's file name (log-<number>.ron)", base.log);
                return Err(FileError::new(&base_file, message));
            }
            None => log_path(dir),
        };
        let (entries, problems) = match log.exists() {
            true => read_log(&log)?,
            false => (Vec::new(), Vec::new()),
        };
        let unsaved_base = base.as_ref().is_some_and(|b| b.files.iter().any(|f| !f.clean));
        if entries.is_empty() && !unsaved_base {
            return Ok(None);
        }
        Ok(Some(Journal { base, entries, problems, key_prefix: read_key_prefix(dir) }))
    }

    /// The maps with unsaved edits, by name, each with the History steps the log leaves on it
    /// (see [`steps_of`]).
    pub fn unsaved_maps(&self) -> Vec<UnsavedMap> {
        let mut maps: Vec<UnsavedMap> = Vec::new();
        let base_unsaved = self.base.iter().flat_map(|b| &b.files).filter(|f| !f.clean).map(|f| f.name.clone());
        for name in base_unsaved {
            maps.push(UnsavedMap { name, edits: 0, last: None });
        }
        let steps = steps_of(&self.entries);
        for (index, entry) in self.entries.iter().enumerate().filter(|(_, e)| e.what.is_edit()) {
            let name = entry.map.clone().unwrap_or_else(|| "(no map)".into());
            let position = match maps.iter().position(|m| m.name == name) {
                Some(position) => position,
                None => {
                    maps.push(UnsavedMap { name, edits: 0, last: None });
                    maps.len() - 1
                }
            };
            let map = &mut maps[position];
            map.edits += steps.iter().filter(|&&made| made == index).count();
            map.last = Some(entry.at);
        }
        maps
    }
}

/// The History steps replaying `entries` from an empty History leaves, done or undone, oldest
/// first: for each, the index of the entry that made it (of a stroke, its last part). History
/// itself does the counting, with a step for each edit, so a stroke's parts are one step, an
/// undo and a redo none, and an edit made after an undo drops the undone steps as it does in
/// the editor.
pub fn steps_of(entries: &[JournalEntry]) -> Vec<usize> {
    replayed_history(entries).0.view().labels.iter().filter_map(|label| label.parse().ok()).collect()
}

/// A patch the log puts on a file: by the entry at `entry` (an edit, an undo or a redo), turning
/// the patch's lines to `side`.
#[derive(Clone, Debug, PartialEq)]
pub struct SourceStep {
    /// The index of the entry.
    pub entry: usize,
    /// The patch.
    pub patch: Arc<SourcePatch>,
    /// The side its lines are turned to.
    pub side: PatchSide,
}

/// What replaying `entries` does to History, in a History whose steps are labelled with the
/// index of the entry that made them and hold only their patches of files, and the patches
/// the entries put on files in order.
fn replayed_history(entries: &[JournalEntry]) -> (History, Vec<SourceStep>) {
    let mut world = crate::world::World::new(crate::data::DataRegistry::default());
    let mut history = History::default();
    let mut steps = Vec::new();
    let mut put = |entry, changes: &[crate::history::Change]| {
        let made = Transaction::sources(changes).into_iter().map(|(patch, side)| SourceStep { entry, patch, side });
        steps.extend(made);
    };
    for (index, entry) in entries.iter().enumerate() {
        let mut step = Transaction::new(index.to_string(), Vec::new(), Vec::new());
        match &entry.what {
            Journaled::Edit(edit) => {
                if let Edit::Stroke { id, .. } = edit {
                    step.stroke = Some(*id);
                }
                history.record(&mut world, step);
            }
            Journaled::Content { sources, .. } => {
                let step = Transaction::of_patches(index.to_string(), sources.iter().cloned());
                put(index, &step.after);
                history.record(&mut world, step);
            }
            Journaled::Undo => {
                if let Some(step) = history.next_undo() {
                    put(index, &step.before);
                }
                history.undo(&mut world);
            }
            Journaled::Redo => {
                if let Some(step) = history.next_redo() {
                    put(index, &step.after);
                }
                history.redo(&mut world);
            }
            Journaled::Open(_) | Journaled::New { .. } | Journaled::Preview { .. } | Journaled::ClosePreview => {}
        }
    }
    (history, steps)
}

/// Whether the files the log's entries patched still hold what those entries left in them,
/// their text as `read` gives it: each patch the log put on a file is taken back, latest
/// first, from the file's text as it is now (in memory; nothing is written). The first that
/// does not find its lines — changed under it since, by hand or by another program — is
/// returned: the index of its entry and why. Text the log's patches did not write may have
/// changed at will.
pub fn sources_changed_under(
    entries: &[JournalEntry],
    read: impl Fn(&Path) -> std::io::Result<String>,
) -> Option<(usize, String)> {
    let mut texts: HashMap<PathBuf, String> = HashMap::new();
    for step in replayed_history(entries).1.iter().rev() {
        let file = &step.patch.file;
        let text = match texts.get(file) {
            Some(text) => text,
            None => match read(file) {
                Ok(text) => texts.entry(file.clone()).or_insert(text),
                Err(error) => return Some((step.entry, format!("{} cannot be read: {error}", file.display()))),
            },
        };
        match step.patch.put(text, step.side.other()) {
            Ok(before) => {
                texts.insert(file.clone(), before);
            }
            Err(refused) => return Some((step.entry, refused.to_string())),
        }
    }
    None
}

/// The entries of log file `path`; a malformed last line is taken as cut off by a kill, a
/// malformed line before it ends the log with a problem naming it.
fn read_log(path: &Path) -> Result<(Vec<JournalEntry>, Vec<String>), FileError> {
    use std::io::Read;
    let file = std::fs::File::open(path).map_err(|e| FileError::io(path, e))?;
    let mut bytes = Vec::new();
    file.take(MAX_LOG_BYTES + 1).read_to_end(&mut bytes).map_err(|e| FileError::io(path, e))?;
    let mut problems = Vec::new();
    if bytes.len() as u64 > MAX_LOG_BYTES {
        bytes.truncate(usize::try_from(MAX_LOG_BYTES).unwrap_or(usize::MAX));
        problems
            .push(format!("{}: the log is longer than {MAX_LOG_BYTES} bytes: it is read no further", path.display()));
    }
    let text = String::from_utf8_lossy(&bytes);
    let lines: Vec<&str> = text.lines().collect();
    let mut entries = Vec::new();
    for (number, line) in lines.iter().enumerate() {
        match crate::files::from_ron_str::<JournalEntry>(line) {
            Ok(entry) => entries.push(entry),
            // The line being written when the process died.
            Err(_) if number + 1 == lines.len() && !text.ends_with('\n') => break,
            Err(error) => {
                problems.push(format!("{}:{}: {error}; the log is read up to here", path.display(), number + 1));
                break;
            }
        }
    }
    Ok((entries, problems))
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::edit::Clip;
    use crate::object::{ObjectKind, Uid};
    use crate::object_record::ObjectRecord;
    use crate::symbol::Symbol;
    use crate::value::MAX_TABLE_DEPTH;

    /// A value whose tables nest `depth` deep.
    fn nested(depth: usize) -> Value {
        (1..depth).fold(Value::list(vec![Value::Int(1)]), |inner, _| Value::list(vec![inner]))
    }

    #[test]
    fn steps_are_counted_as_history_counts_them() {
        let paint = |stroke| {
            let part = Edit::PaintTiles { map: MapId(1), cells: vec![(1, 1)], tile: "t.wall".into() };
            Journaled::Edit(Edit::Stroke { id: stroke, edit: Box::new(part) })
        };
        let form = |before: &str, after: &str| Journaled::Content {
            edit: Edit::PrototypeField {
                data_type: "base.chara".into(),
                id: "m.a".into(),
                field: "hp".into(),
                value: None,
            },
            label: format!("Set {after}"),
            sources: SourcePatch::between(Path::new("a.lua"), &format!("{before}\n"), &format!("{after}\n"))
                .into_iter()
                .collect(),
        };
        let entries: Vec<JournalEntry> =
            [paint(1), paint(1), form("0", "1"), form("1", "2"), Journaled::Undo, form("1", "3")]
                .into_iter()
                .chain([Journaled::Undo, Journaled::Redo])
                .map(|what| JournalEntry { at: 1, map: Some("town".into()), next_uid: 1, what })
                .collect();
        // The stroke's two parts are one step (its last part made it); the edit to "2" was
        // undone and dropped by the edit to "3"; an undo and a redo make no step.
        assert_eq!(steps_of(&entries), vec![1, 2, 5]);
        let journal = Journal { base: None, entries, problems: Vec::new(), key_prefix: None };
        assert_eq!(journal.unsaved_maps(), vec![UnsavedMap { name: "town".into(), edits: 3, last: Some(1) }]);
        // The file as the log left it, hand edits around the lines it wrote or not, holds.
        let file = |text: &'static str| move |_: &Path| Ok(text.to_owned());
        assert_eq!(sources_changed_under(&journal.entries, file("3\n")), None);
        assert_eq!(sources_changed_under(&journal.entries, file("-- by hand\n3\n")), None);
        // The lines the last redo wrote changed under it: the walk back stops there.
        let (entry, why) = sources_changed_under(&journal.entries, file("4\n")).expect("changed under the log");
        assert_eq!(entry, 7);
        assert!(why.starts_with("a.lua:1: "), "{why}");
    }

    #[test]
    fn a_journal_line_holding_a_value_at_the_depth_limit_is_read_back() {
        let deep = nested(MAX_TABLE_DEPTH);
        assert_eq!(deep.table_depth(), MAX_TABLE_DEPTH);
        let record = |id: &str, fields: Vec<(&str, Value)>, inventory| ObjectRecord {
            uid: None,
            key: None,
            kind: ObjectKind::Item,
            id: Symbol::intern(id),
            x: 0,
            y: 0,
            fields: fields.into_iter().map(|(name, value)| (Symbol::intern(name), value)).collect(),
            temp: Default::default(),
            inventory,
            equipment: Default::default(),
        };
        // The deepest place a value is journaled: a field of an item in a pasted bag.
        let gold = record("elona.gold_piece", vec![("deep", deep.clone())], vec![]);
        let bag = record("elona.bag", vec![], vec![gold]);
        let clip =
            Arc::new(Clip { width: 1, height: 1, tiles: vec![Symbol::intern("elona.grass")], objects: vec![bag] });
        let edits = [
            Edit::SetBase { uids: vec![Uid(3)], field: "deep".into(), value: deep },
            Edit::Paste { map: MapId(1), x: 0, y: 0, clip },
        ];
        for edit in edits {
            let entry = JournalEntry { at: 1, map: None, next_uid: 4, what: Journaled::Edit(edit) };
            let line = entry_line(&entry).expect("the line is written");
            let read: JournalEntry = crate::files::from_ron_str(&line).expect("and read again");
            assert_eq!(read, entry);
        }
    }
}
