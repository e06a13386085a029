//! Recordings of play sessions: what a replay needs to run a session again exactly, and to
//! tell when it does not.
//!
//! A [`Recording`] is readable RON kept in `<project>/recordings/`. It names the project's
//! files by content hash (so a replay can say which changed since), holds the state play
//! started from (a save, whether the session began on the start map or from a saved game),
//! the random seed, and the inputs in the order they came with the turn each fell on: keys,
//! UI layer answers, REPL evaluations and hotloads as text, reads of the wall clock, and the
//! state hash at the start of every turn. Recordings kept in `recordings/tests/` are the
//! project's regression tests. The files' contents are kept once each, by hash, in
//! `recordings/files/`, so a replay whose files changed can run the recorded ones beside it
//! and name the fields that differ.
//!
//! Nothing here runs Lua: recording and replaying are the host layer's (`runtime/host/src/play/recorder.rs`,
//! `runtime/host/src/play/replay.rs`), which this layer does not name.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::edit::Edit;
use crate::files::{self, FileError};
use crate::save::SaveGame;

/// The format the writer wrote; a reader refuses newer ones.
pub const RECORDING_FORMAT: u32 = 1;

/// The most inputs a recording may hold (a session of days of play has fewer).
const MAX_INPUTS: usize = 10_000_000;

/// One play session, as a replay needs it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Recording {
    /// [`RECORDING_FORMAT`] of the writer.
    pub format: u32,
    /// The project's name.
    pub project: String,
    /// When the session began, UTC: `2026-12-01 14:23:05`.
    pub made: String,
    /// Every file of the project's loaded mods, its maps and `project.ron`, by path as error
    /// messages name them (`mods/elona/game/rules.lua`, `maps/town.ron`), with a hash of
    /// its content.
    pub files: BTreeMap<String, String>,
    /// How play began: "start map town at (12, 5)", "save quick".
    pub began: String,
    /// The random seed the session began with.
    pub seed: u64,
    /// The game as it was when play began (the player placed, `base.on_game_started` run).
    pub start: SaveGame,
    /// Saves the session loaded that it had not written itself, as they were read.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub saves: BTreeMap<String, SaveGame>,
    /// The inputs in order, each with the game's turn when it came.
    pub inputs: Vec<(u64, Input)>,
    /// The start of every turn: after how many inputs, the game's turn, the state hash.
    pub turns: Vec<TurnMark>,
    /// Where the session stepped back and went another way, dropping what followed.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub branches: Vec<Branch>,
    /// Play was stopped while stepped back to this turn mark: the turns after it had been
    /// played and are kept (a replay goes to the end, where play had gone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped_back_at: Option<usize>,
    /// Written by `nefia fuzz` for a failure it found and shrank: a regression test that
    /// fails while the bug is there.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fuzz: Option<FuzzOrigin>,
    /// Written as a bug report (the player window's error screen): the error the session
    /// stopped on. A replay says whether it comes back, and at which turn.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<ReportedError>,
}

/// The error a bug report's session stopped on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ReportedError {
    /// The game's turn when it happened.
    pub turn: u64,
    /// The error screen's text: what was running, and the error.
    pub message: String,
}

/// Where a recording `nefia fuzz` wrote came from. Its regression test replays it with the
/// invariants on and fails on any error the game logs; it compares the states with the
/// recorded ones only when the failure was a replay that did not come to them (fixing any
/// other bug changes the states).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FuzzOrigin {
    /// The seed of the fuzzed game.
    pub seed: i64,
    /// What failed, such as `invariant elona.hp_within_max` or `Lua error at
    /// mods/elona/game/rules.lua:40`.
    pub failure: String,
    /// The failure was a replay that did not come to the recorded state.
    pub compares_states: bool,
    /// How many inputs the fuzzed game had played when it failed.
    pub played: usize,
    /// How many were left after shrinking.
    pub shrunk: usize,
}

/// One input of a session, as a replay re-runs it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Input {
    /// A key for the top UI layer or the game.
    Key(String),
    /// Typed text for the top UI layer.
    Text(String),
    /// Entry `1` of the UI layer `0` places down from the top was chosen.
    Choose(u32, usize),
    /// The UI layer `0` places down from the top was closed without a choice.
    Cancel(u32),
    /// A turn passed with the player waiting (Step).
    Wait,
    /// REPL input, evaluated.
    Eval(String),
    /// A Lua file run as a script (`nefia dap`'s launched program), by its path; a replay
    /// runs the file again.
    Script(String),
    /// A break at the next turn boundary was asked for.
    Break,
    /// The innermost breakpoint went on.
    Continue,
    /// The error screen was left.
    Resume,
    /// A mod file was hotloaded with this text.
    Hotload {
        /// The file as error messages name it (`mods/elona/game/rules.lua`).
        file: String,
        /// Its text as it was loaded.
        text: String,
    },
    /// An edit made in the editor while playing.
    Edit(Edit),
    /// The last edit was undone.
    Undo,
    /// The last undone edit was redone.
    Redo,
    /// `os.time()` read the wall clock (seconds).
    Time(i64),
    /// `os.clock()` read the processor clock (seconds).
    Clock(f64),
    /// The language was switched to this `base.language`.
    Language(String),
    /// Play ended.
    Stop,
}

/// The start of a turn in a recording.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnMark {
    /// How many inputs came before it.
    pub input: usize,
    /// The game's turn counter.
    pub turn: u64,
    /// [`crate::World::state_hash`] with every mod's `save` table.
    pub hash: u64,
}

/// A point where the session stepped back and then went another way.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Branch {
    /// The index in `turns` of the turn it went back to.
    pub at: usize,
    /// How many inputs were dropped.
    pub dropped_inputs: usize,
    /// How many turns were dropped.
    pub dropped_turns: usize,
}

/// Why a recording could not be read or used.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RecordingError {
    /// The file could not be read, parsed or written.
    #[error(transparent)]
    File(#[from] FileError),
    /// The file parsed but does not describe a session a replay can run.
    #[error("{path}: {message}")]
    Invalid {
        /// The file.
        path: PathBuf,
        /// What is wrong with it.
        message: String,
    },
}

impl Recording {
    /// Reads and checks a recording: a format this engine knows, file hashes that name a kept
    /// file and nothing else, turns in order and within the inputs.
    pub fn read(path: &Path) -> Result<Recording, RecordingError> {
        let recording: Recording = files::read_ron(path)?;
        let invalid = |message: String| RecordingError::Invalid { path: path.to_owned(), message };
        if recording.format > RECORDING_FORMAT {
            return Err(invalid(format!(
                "format {} is newer than this engine's {RECORDING_FORMAT}: replay it with a newer nefia",
                recording.format
            )));
        }
        if recording.inputs.len() > MAX_INPUTS {
            return Err(invalid(format!("{} inputs: at most {MAX_INPUTS} are replayed", recording.inputs.len())));
        }
        for (name, hash) in &recording.files {
            if hash.len() != 16 || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
                return Err(invalid(format!("the hash of {name} is {hash:?}: a file's hash is 16 hex digits")));
            }
        }
        let mut last = 0;
        for (index, mark) in recording.turns.iter().enumerate() {
            if mark.input < last || mark.input > recording.inputs.len() {
                return Err(invalid(format!(
                    "turn mark {index} comes after input {} but the inputs before it are {last}..{}",
                    mark.input,
                    recording.inputs.len()
                )));
            }
            last = mark.input;
        }
        Ok(recording)
    }

    /// Writes the recording atomically.
    pub fn write(&self, path: &Path) -> Result<(), FileError> {
        // Inputs and turn marks one per line: readable, and a diff shows where two differ.
        files::write_ron_lines(path, self, 2)
    }

    /// The index of the first turn mark at or after game turn `turn`, if any.
    pub fn mark_of_turn(&self, turn: u64) -> Option<usize> {
        self.turns.iter().position(|mark| mark.turn >= turn)
    }
}

/// The hash a recording names a file's content by: 16 hex digits.
pub fn content_hash(bytes: &[u8]) -> String {
    format!("{:016x}", files::content_digest(bytes))
}

/// A project's files as a recording names them: `project.ron`, its maps, and every file of
/// each loaded mod (`mods/<id>/<path>`), with the folders they are in.
pub fn project_files(project_dir: &Path, mods: &[(String, PathBuf)]) -> BTreeMap<String, PathBuf> {
    let mut found = BTreeMap::new();
    found.insert("project.ron".to_owned(), project_dir.join("project.ron"));
    for map in files::ron_files(&project_dir.join("maps")) {
        if let Some(name) = map.file_name().and_then(|n| n.to_str()) {
            found.insert(format!("maps/{name}"), map.clone());
        }
    }
    for (id, dir) in mods {
        let mut stack = vec![dir.clone()];
        while let Some(folder) = stack.pop() {
            let Ok(entries) = std::fs::read_dir(&folder) else { continue };
            for entry in entries.flatten() {
                let path = entry.path();
                // Links are not followed: a mod's files are what is inside its folder.
                let Ok(kind) = entry.file_type() else { continue };
                if kind.is_dir() {
                    stack.push(path);
                } else if kind.is_file()
                    && let Ok(inner) = path.strip_prefix(dir)
                {
                    let inner = inner.to_string_lossy().replace('\\', "/");
                    found.insert(format!("mods/{id}/{inner}"), path);
                }
            }
        }
    }
    found
}

/// Where a recording's files are kept, once each by content hash.
pub fn files_dir(recordings_dir: &Path) -> PathBuf {
    recordings_dir.join("files")
}

/// Hashes `files` and keeps each content not kept yet in `store`; returns the hashes by
/// name. A file that cannot be read is left out (its absence is then what a replay reports).
pub fn hash_and_keep(files: &BTreeMap<String, PathBuf>, store: &Path) -> BTreeMap<String, String> {
    let mut hashes = BTreeMap::new();
    for (name, path) in files {
        let Ok(bytes) = std::fs::read(path) else { continue };
        let hash = content_hash(&bytes);
        let kept = store.join(&hash);
        if !kept.exists()
            && let Err(error) = files::write_atomic(&kept, &bytes)
        {
            tracing::warn!("a recorded file could not be kept: {error}");
        }
        hashes.insert(name.clone(), hash);
    }
    hashes
}

/// How the files now differ from those a recording names.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileChanges {
    /// Files whose content changed.
    pub changed: Vec<String>,
    /// Files the recording names that are gone.
    pub removed: Vec<String>,
    /// Files that are new.
    pub added: Vec<String>,
}

impl FileChanges {
    /// True if nothing changed.
    pub fn is_empty(&self) -> bool {
        self.changed.is_empty() && self.removed.is_empty() && self.added.is_empty()
    }

    /// "changed: mods/elona/game/rules.lua; new: maps/cave.ron".
    pub fn describe(&self) -> String {
        let parts = [("changed", &self.changed), ("gone", &self.removed), ("new", &self.added)];
        let parts: Vec<String> = parts
            .iter()
            .filter(|(_, names)| !names.is_empty())
            .map(|(what, names)| format!("{what}: {}", names.join(", ")))
            .collect();
        parts.join("; ")
    }
}

/// Compares the files now (`now`, by name and hash) with those a recording names.
pub fn compare_files(recorded: &BTreeMap<String, String>, now: &BTreeMap<String, String>) -> FileChanges {
    let mut changes = FileChanges::default();
    for (name, hash) in recorded {
        match now.get(name) {
            Some(current) if current == hash => {}
            Some(_) => changes.changed.push(name.clone()),
            None => changes.removed.push(name.clone()),
        }
    }
    changes.added = now.keys().filter(|name| !recorded.contains_key(*name)).cloned().collect();
    changes
}

/// `2026-12-01 14:23:05` for a time since the Unix epoch, UTC.
pub fn utc_date(since_epoch: std::time::Duration) -> String {
    let seconds = since_epoch.as_secs();
    let (days, rest) = (seconds / 86_400, seconds % 86_400);
    let (year, month, day) = civil_from_days(days);
    format!("{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02}", rest / 3600, rest % 3600 / 60, rest % 60)
}

/// The Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's algorithm).
fn civil_from_days(days: u64) -> (u64, u64, u64) {
    let z = days + 719_468;
    let era = z / 146_097;
    let day_of_era = z % 146_097;
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 { month_index + 3 } else { month_index - 9 };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    (year, month, day)
}

/// A file name for a recording made at `date` (as [`utc_date`] writes it) on map `map`:
/// `2026-12-01-142305-town.ron`.
pub fn file_name(date: &str, map: &str) -> String {
    let stamp: String = date.chars().filter(char::is_ascii_digit).collect();
    let (day, time) = stamp.split_at(stamp.len().min(8));
    let map: String = map.chars().map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect();
    match day.len() {
        8 => format!("{}-{}-{}-{time}-{map}.ron", &day[..4], &day[4..6], &day[6..]),
        _ => format!("{stamp}-{map}.ron"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_written_in_utc() {
        assert_eq!(utc_date(std::time::Duration::from_secs(0)), "1970-01-01 00:00:00");
        assert_eq!(utc_date(std::time::Duration::from_secs(1_796_135_385)), "2026-12-01 14:29:45");
        assert_eq!(utc_date(std::time::Duration::from_secs(951_782_400)), "2000-02-29 00:00:00");
        assert_eq!(file_name("2026-12-01 14:23:05", "town"), "2026-12-01-142305-town.ron");
        assert_eq!(file_name("2026-12-01 14:23:05", "a/b"), "2026-12-01-142305-a_b.ron");
    }

    #[test]
    fn file_changes_name_what_changed_went_and_came() {
        let recorded: BTreeMap<String, String> =
            [("a".into(), "1".into()), ("b".into(), "2".into()), ("c".into(), "3".into())].into();
        let now: BTreeMap<String, String> =
            [("a".into(), "1".into()), ("b".into(), "9".into()), ("d".into(), "4".into())].into();
        let changes = compare_files(&recorded, &now);
        assert_eq!(changes.describe(), "changed: b; gone: c; new: d");
        assert!(compare_files(&now, &now).is_empty());
    }
}
