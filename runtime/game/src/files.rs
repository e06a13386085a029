//! Reading and writing the engine's RON files: errors that name the file and line, and
//! atomic writes (a temp file in the same folder, then a rename) so a crash or a bad value
//! never leaves a half-written file behind.
//!
//! A write is a temp file `.<name>.<pid>.tmp` beside the file, `fsync`ed, renamed over the file,
//! then the folder `fsync`ed, so the rename is durable. The temps a killed writer left are removed
//! by the next write of that file and, in the project's own folders (the project, its maps, saves,
//! recordings and the edit journal), when the project opens (`Project::remove_stale_temps`: only
//! temps of processes no longer running). One limit holds for writing and reading every stored
//! file: [`MAX_FILE_BYTES`] (a save refused so names the mod's `save` table that holds most of it),
//! and tables in a stored value nest at most [`MAX_TABLE_DEPTH`] deep. Every RON file is read first
//! by the [`fast_reader`]; what it declines, `ron` reads.

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::value::MAX_TABLE_DEPTH;

pub mod fast_reader;
pub mod guarded;

/// A file that could not be read, parsed or written, with where the problem is.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub struct FileError {
    /// The file.
    pub path: PathBuf,
    /// 1-based line of the problem, if known.
    pub line: Option<usize>,
    /// 1-based column of the problem, if known.
    pub column: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.path.display())?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
            if let Some(column) = self.column {
                write!(f, ":{column}")?;
            }
        }
        write!(f, ": {}", self.message)
    }
}

impl FileError {
    /// An error about `path` as a whole.
    pub fn new(path: &Path, message: impl Into<String>) -> FileError {
        FileError { path: path.to_owned(), line: None, column: None, message: message.into() }
    }

    /// An I/O error about `path`.
    pub fn io(path: &Path, error: std::io::Error) -> FileError {
        FileError::new(path, error.to_string())
    }
}

/// The `.ron` files directly in `dir`, sorted by path (none if the folder cannot be read).
pub fn ron_files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<_> =
        entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "ron")).collect();
    files.sort();
    files
}

/// The RON dialect of every file Nefia reads and writes: optional values are written bare
/// (`start_map: "town"`, not `Some("town")`), and values nest as deep as
/// [`RON_NESTING_LIMIT`] allows.
pub fn ron_options() -> ron::Options {
    ron::Options::default()
        .with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
        .with_recursion_limit(RON_NESTING_LIMIT)
}

/// The levels of RON nesting every reader and writer accepts: a value whose tables nest
/// [`MAX_TABLE_DEPTH`] deep (each table costs `ron` two levels when read: the table and the
/// value in it) inside the deepest of Nefia's files (a save: its maps, a map's objects, an
/// object, its fields; a journal entry or a recording's input about as deep), with room to
/// spare. `ron`'s default of 128 refused a save whose mod's table nested 62 deep, which the
/// writer had written.
pub const RON_NESTING_LIMIT: usize = 2 * MAX_TABLE_DEPTH + 64;

/// The pretty-printer settings of every file Nefia writes: stable, indented, diff-friendly.
pub fn pretty_config() -> ron::ser::PrettyConfig {
    ron::ser::PrettyConfig::new()
        .indentor("    ")
        .struct_names(false)
        .separate_tuple_members(false)
        .extensions(ron::extensions::Extensions::IMPLICIT_SOME)
}

/// The largest file Nefia writes and reads (a map, a save, a recording, a journal's base, a
/// manifest): a larger file is refused before it is read, and a write that would make one
/// stops there and leaves the file it would have replaced as it was, so whatever is written is
/// read back. A world of 1,000,000 characters with their items saves in about 400 MB.
pub const MAX_FILE_BYTES: u64 = 1 << 30;

/// Parses RON text that came from `path` (for error messages). A misspelled key is named
/// with the nearest known one. Read by [`from_ron_str`].
pub fn parse_ron<T: DeserializeOwned>(path: &Path, text: &str) -> Result<T, FileError> {
    from_ron_str(text).map_err(|e| FileError {
        path: path.to_owned(),
        line: Some(e.span.start.line),
        column: Some(e.span.start.col),
        message: match &e.code {
            ron::Error::NoSuchStructField { expected, found, outer } => {
                unknown_field_message(found, expected, outer.as_deref())
            }
            other => other.to_string(),
        },
    })
}

/// Parses RON text in Nefia's dialect: by the [`fast_reader`], or by `ron` where it declines
/// (which also names what is wrong and where).
pub fn from_ron_str<T: DeserializeOwned>(text: &str) -> Result<T, ron::error::SpannedError> {
    match fast_reader::read(text) {
        Ok(value) => Ok(value),
        Err(fast_reader::Declined) => ron_options().from_str(text),
    }
}

/// A 64-bit digest of a file's bytes, to tell one content from another (a recording names
/// files by it; a hotload skips a save whose text is the one that runs).
pub fn content_digest(bytes: &[u8]) -> u64 {
    use std::hash::Hasher;
    let mut h = rustc_hash::FxHasher::default();
    h.write_usize(bytes.len());
    h.write(bytes);
    h.finish()
}

/// Reads a text file of at most [`MAX_FILE_BYTES`].
pub fn read_text(path: &Path) -> Result<String, FileError> {
    let size = std::fs::metadata(path).map_err(|e| FileError::io(path, e))?.len();
    if size > MAX_FILE_BYTES {
        return Err(FileError::new(
            path,
            format!("the file has {size} bytes, more than the {MAX_FILE_BYTES} Nefia reads"),
        ));
    }
    std::fs::read_to_string(path).map_err(|e| FileError::io(path, e))
}

/// Reads and parses a RON file.
pub fn read_ron<T: DeserializeOwned>(path: &Path) -> Result<T, FileError> {
    parse_ron(path, &read_text(path)?)
}

/// Reads and parses a RON file, keeping its text to find the lines of later problems.
pub fn read_ron_text<T: DeserializeOwned>(path: &Path) -> Result<(T, String), FileError> {
    let text = read_text(path)?;
    Ok((parse_ron(path, &text)?, text))
}

/// Serializes `value` as pretty RON with a trailing newline.
pub fn to_ron<T: Serialize>(path: &Path, value: &T) -> Result<String, FileError> {
    to_ron_config(path, value, pretty_config())
}

/// Serializes `value` as pretty RON in which what is nested deeper than `depth` levels
/// stays on one line: map files write one line per object.
pub fn to_ron_lines<T: Serialize>(path: &Path, value: &T, depth: usize) -> Result<String, FileError> {
    to_ron_config(path, value, lines_config(depth))
}

/// Pretty RON that keeps what is nested deeper than `depth` levels on one line.
fn lines_config(depth: usize) -> ron::ser::PrettyConfig {
    pretty_config().depth_limit(depth)
}

fn to_ron_config<T: Serialize>(path: &Path, value: &T, config: ron::ser::PrettyConfig) -> Result<String, FileError> {
    let mut text = ron_options().to_string_pretty(value, config).map_err(|e| FileError::new(path, e.to_string()))?;
    text.push('\n');
    Ok(text)
}

/// Writes `bytes` to `path` atomically: into a temp file beside it, flushed to disk, renamed
/// over the old file, and the folder flushed too, so a crash at any moment leaves the old
/// file or the new one, whole. Temp files of this path left by an earlier crash are removed
/// first. If anything fails the old file is untouched.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    if u64::try_from(bytes.len()).map_or(true, |len| len > MAX_FILE_BYTES) {
        return Err(too_large(path));
    }
    write_atomic_with(path, |file| file.write_all(bytes), || Ok(()))
}

/// Whether `error` is the refusal of a write past [`MAX_FILE_BYTES`].
pub fn is_too_large(error: &FileError) -> bool {
    *error == too_large(&error.path)
}

/// The refusal of a write past [`MAX_FILE_BYTES`].
fn too_large(path: &Path) -> FileError {
    FileError::new(
        path,
        format!(
            "the file would be larger than {MAX_FILE_BYTES} bytes, the most Nefia reads back: it was not written, \
             and the file it would have replaced is as it was"
        ),
    )
}

/// Writes `value` to `path` atomically (as [`write_atomic`]) as pretty RON in which what is
/// nested deeper than `depth` levels stays on one line (see [`to_ron_lines`]), streamed to the
/// file: a save of 100,000 objects never holds its whole text.
pub fn write_ron_lines<T: Serialize>(path: &Path, value: &T, depth: usize) -> Result<(), FileError> {
    write_ron_lines_within(path, value, depth, MAX_FILE_BYTES)
}

/// [`write_ron_lines`] refusing a file of more than `limit` bytes.
fn write_ron_lines_within<T: Serialize>(path: &Path, value: &T, depth: usize, limit: u64) -> Result<(), FileError> {
    let mut over = false;
    let written = write_atomic_with(
        path,
        |file| {
            let mut writer = std::io::BufWriter::new(Bounded { file, left: limit, over: &mut over });
            ron_options()
                .to_io_writer_pretty(&mut writer, value, lines_config(depth))
                .map_err(std::io::Error::other)?;
            writer.write_all(b"\n")?;
            writer.flush()
        },
        || Ok(()),
    );
    match written {
        Err(_) if over => Err(too_large(path)),
        other => other,
    }
}

/// A file that takes at most `left` more bytes: a write past them fails and sets `over`.
struct Bounded<'a> {
    file: &'a mut std::fs::File,
    left: u64,
    over: &'a mut bool,
}

impl Write for Bounded<'_> {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let byte_count = |n: usize| u64::try_from(n).unwrap_or(u64::MAX);
        if byte_count(bytes.len()) > self.left {
            *self.over = true;
            return Err(std::io::Error::other("the file is over its size limit"));
        }
        let written = self.file.write(bytes)?;
        self.left = self.left.saturating_sub(byte_count(written));
        Ok(written)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.flush()
    }
}

/// [`write_atomic`] of what `write` writes into the temp file; `ready` is asked last, just
/// before the rename, and a refusal from it leaves the old file as it was (see [`guarded`]).
fn write_atomic_with(
    path: &Path,
    write: impl FnOnce(&mut std::fs::File) -> std::io::Result<()>,
    ready: impl FnOnce() -> Result<(), FileError>,
) -> Result<(), FileError> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| FileError::io(dir, e))?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    remove_stale_temps(dir, &name);
    let temp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let io = |error| FileError::io(path, error);
    let result = (|| {
        let mut file = std::fs::File::create(&temp).map_err(io)?;
        write(&mut file).map_err(io)?;
        file.sync_all().map_err(io)?;
        ready()?;
        std::fs::rename(&temp, path).map_err(io)?;
        // The rename is durable once the folder's entry is on disk.
        std::fs::File::open(dir).and_then(|dir| dir.sync_all()).map_err(io)
    })();
    if let Err(error) = result {
        if let Err(leftover) = std::fs::remove_file(&temp)
            && leftover.kind() != std::io::ErrorKind::NotFound
        {
            tracing::warn!("{}: the temp file could not be removed: {leftover}", temp.display());
        }
        return Err(error);
    }
    Ok(())
}

/// Removes the temp files `.<name>.<pid>.tmp` that a write of `name` interrupted by a crash
/// left in `dir`.
fn remove_stale_temps(dir: &Path, name: &str) {
    remove_stale_temps_where(dir, |of| of == name);
}

/// Removes every temp file a write interrupted by a crash left in `dir` (`.<name>.<pid>.tmp`
/// of a process no longer running), and nothing else: a project cleans its folders with it
/// when it opens. Returns how many it removed.
pub fn remove_stale_temps_in(dir: &Path) -> usize {
    remove_stale_temps_where(dir, |_| true)
}

/// Removes the stale temp files in `dir` of the files `of` names.
fn remove_stale_temps_where(dir: &Path, of: impl Fn(&str) -> bool) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else { return 0 };
    let mut removed = 0;
    for entry in entries.flatten() {
        let file = entry.file_name();
        let Some((name, pid)) = file.to_str().and_then(temp_of) else { continue };
        if !of(name) || process_is_alive(pid) || !entry.file_type().is_ok_and(|t| t.is_file()) {
            continue;
        }
        match std::fs::remove_file(entry.path()) {
            Ok(()) => removed += 1,
            Err(error) => tracing::warn!("{}: a stale temp file could not be removed: {error}", entry.path().display()),
        }
    }
    removed
}

/// The file and the writing process a temp file's name `.<name>.<pid>.tmp` gives.
fn temp_of(file: &str) -> Option<(&str, u32)> {
    let (name, pid) = file.strip_prefix('.')?.strip_suffix(".tmp")?.rsplit_once('.')?;
    let whole = !name.is_empty() && !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit());
    Some((name, pid.parse().ok()?)).filter(|_| whole)
}

/// Whether process `pid` still runs (so its temp file is a write in progress). Where that
/// cannot be told, only this process counts as alive.
fn process_is_alive(pid: u32) -> bool {
    pid == std::process::id() || (cfg!(target_os = "linux") && Path::new("/proc").join(pid.to_string()).exists())
}

/// Turns serde's and RON's "unknown field" error into one that suggests the nearest known
/// key: `unknown field 'widht' in MapRecord: did you mean 'width'? (known: …)`.
pub fn unknown_field_message(found: &str, expected: &[&str], outer: Option<&str>) -> String {
    let nearest = expected
        .iter()
        .map(|known| (strsim::damerau_levenshtein(found, known), *known))
        .filter(|(distance, known)| *distance <= known.len().max(2) / 2 + 1)
        .min();
    let inside = outer.map(|o| format!(" in {o}")).unwrap_or_default();
    let known = expected.join(", ");
    match nearest {
        Some((_, known_name)) => {
            format!("unknown field '{found}'{inside}: did you mean '{known_name}'? (known: {known})")
        }
        None => format!("unknown field '{found}'{inside} (known: {known})"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_errors_name_file_and_line() {
        let err = parse_ron::<Vec<i32>>(Path::new("maps/town.ron"), "[\n1,\n2 3]").unwrap_err();
        assert_eq!(err.line, Some(3));
        assert!(err.to_string().starts_with("maps/town.ron:3:"), "{err}");
    }

    #[test]
    fn atomic_write_replaces_contents() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.ron");
        write_atomic(&path, b"one").unwrap();
        write_atomic(&path, b"two").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "no temp file left behind");
    }

    #[test]
    fn stale_temp_files_are_removed_by_the_next_write() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.ron");
        std::fs::write(dir.path().join(".a.ron.999999999.tmp"), "half").unwrap();
        std::fs::write(dir.path().join(".b.ron.999999999.tmp"), "other file's").unwrap();
        write_atomic(&path, b"whole").unwrap();
        let mut left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        left.sort();
        assert_eq!(left, [".b.ron.999999999.tmp", "a.ron"]);
    }

    #[test]
    fn a_folder_sweep_removes_only_crashed_writers_temp_files() {
        let dir = tempfile::tempdir().unwrap();
        let mine = format!(".c.ron.{}.tmp", std::process::id());
        for name in
            [".a.ron.999999999.tmp", ".b.ron.999999998.tmp", &mine, "a.ron", ".a.ron.x1.tmp", "a.tmp", "..1.tmp"]
        {
            std::fs::write(dir.path().join(name), "kept?").unwrap();
        }
        assert_eq!(remove_stale_temps_in(dir.path()), 2);
        let mut left: Vec<_> = std::fs::read_dir(dir.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        left.sort();
        assert_eq!(
            left,
            ["..1.tmp", ".a.ron.x1.tmp", mine.as_str(), "a.ron", "a.tmp"],
            "a write in progress and files not ours stay"
        );
    }

    #[test]
    fn a_write_past_the_size_limit_leaves_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("save.ron");
        write_atomic(&path, b"old").unwrap();
        let text = "x".repeat(100);
        let refused = write_ron_lines_within(&path, &text, 2, 50).unwrap_err();
        assert!(refused.message.contains("the file it would have replaced is as it was"), "{refused}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "old");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "no temp file left behind");
        let at_the_limit = ron_options().to_string(&text).unwrap().len() + 1;
        write_ron_lines_within(&path, &text, 2, u64::try_from(at_the_limit).unwrap()).unwrap();
        assert_eq!(read_ron::<String>(&path).unwrap(), text, "a file of exactly the limit is written and read");
    }

    #[test]
    fn misspelled_keys_suggest_the_known_one() {
        #[derive(serde::Deserialize, Debug)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct Manifest {
            start_map: Option<String>,
        }
        let err = parse_ron::<Manifest>(Path::new("project.ron"), "(\n  strat_map: \"town\",\n)").unwrap_err();
        assert_eq!(err.line, Some(2));
        assert!(err.message.contains("did you mean 'start_map'?"), "{err}");
    }

    #[test]
    fn unknown_fields_suggest_the_nearest() {
        let message = unknown_field_message("widht", &["name", "width", "height"], Some("MapRecord"));
        assert!(message.contains("did you mean 'width'?"), "{message}");
        let message = unknown_field_message("zzzzzzzz", &["name", "width"], None);
        assert!(!message.contains("did you mean"), "{message}");
    }
}
