//! Reading and writing the engine's RON files: errors that name the file and line, and
//! atomic writes (a temp file in the same folder, then a rename) so a crash or a bad value
//! never leaves a half-written file behind.

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde::de::DeserializeOwned;

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
pub fn ron_files(dir: &Path) -> Vec<std::path::PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else { return Vec::new() };
    let mut files: Vec<_> =
        entries.flatten().map(|e| e.path()).filter(|p| p.extension().is_some_and(|x| x == "ron")).collect();
    files.sort();
    files
}

/// The RON dialect of every file Nefia reads and writes: optional values are written bare
/// (`start_map: "town"`, not `Some("town")`).
pub fn ron_options() -> ron::Options {
    ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME)
}

/// The pretty-printer settings of every file Nefia writes: stable, indented, diff-friendly.
pub fn pretty_config() -> ron::ser::PrettyConfig {
    ron::ser::PrettyConfig::new()
        .indentor("    ")
        .struct_names(false)
        .separate_tuple_members(false)
        .extensions(ron::extensions::Extensions::IMPLICIT_SOME)
}

/// Parses RON text that came from `path` (for error messages).
pub fn parse_ron<T: DeserializeOwned>(path: &Path, text: &str) -> Result<T, FileError> {
    ron_options().from_str(text).map_err(|e| FileError {
        path: path.to_owned(),
        line: Some(e.span.start.line),
        column: Some(e.span.start.col),
        message: e.code.to_string(),
    })
}

/// Reads and parses a RON file.
pub fn read_ron<T: DeserializeOwned>(path: &Path) -> Result<T, FileError> {
    let text = std::fs::read_to_string(path).map_err(|e| FileError::io(path, e))?;
    parse_ron(path, &text)
}

/// Serializes `value` as pretty RON with a trailing newline.
pub fn to_ron<T: Serialize>(path: &Path, value: &T) -> Result<String, FileError> {
    to_ron_config(path, value, pretty_config())
}

/// Serializes `value` as pretty RON in which what is nested deeper than `depth` levels
/// stays on one line: map files write one line per object.
pub fn to_ron_lines<T: Serialize>(path: &Path, value: &T, depth: usize) -> Result<String, FileError> {
    to_ron_config(path, value, pretty_config().depth_limit(depth))
}

fn to_ron_config<T: Serialize>(path: &Path, value: &T, config: ron::ser::PrettyConfig) -> Result<String, FileError> {
    let mut text = ron_options().to_string_pretty(value, config).map_err(|e| FileError::new(path, e.to_string()))?;
    text.push('\n');
    Ok(text)
}

/// Writes `bytes` to `path` atomically: into a temp file beside it, flushed, then renamed
/// over the old file. If anything fails the old file is untouched.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), FileError> {
    let dir = path.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| FileError::io(dir, e))?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let temp = dir.join(format!(".{name}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut file = std::fs::File::create(&temp)?;
        file.write_all(bytes)?;
        file.sync_all()?;
        std::fs::rename(&temp, path)
    })();
    if let Err(error) = result {
        let _ = std::fs::remove_file(&temp);
        return Err(FileError::io(path, error));
    }
    Ok(())
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
}
