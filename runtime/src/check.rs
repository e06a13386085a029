//! `nefia check`: load a project's mods and maps and report every problem with its file and
//! line, without a display.

use std::fmt;
use std::path::{Path, PathBuf};

use crate::files::{FileError, parse_ron};
use crate::lua::Output;
use crate::runtime::{Runtime, RuntimeError};
use crate::save::{MapRecord, RecordKind};

/// One problem found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The file at fault.
    pub file: PathBuf,
    /// Its line, when known.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.file.display(), self.message),
            None => write!(f, "{}: {}", self.file.display(), self.message),
        }
    }
}

impl From<FileError> for Problem {
    fn from(error: FileError) -> Problem {
        Problem { file: error.path, line: error.line, message: error.message }
    }
}

/// Loads the project in `dir` and every map under its `maps/` folder; returns the problems
/// found (empty when all is well).
pub fn check_project(dir: &Path) -> Vec<Problem> {
    let runtime = match Runtime::open_project(dir, Box::new(|_: Output| {})) {
        Ok(runtime) => runtime,
        Err(error) => return vec![runtime_problem(dir, error)],
    };
    let maps_dir = runtime.project().map(|p| p.maps_dir()).unwrap_or_default();
    let files = crate::files::ron_files(&maps_dir);
    let mut problems = Vec::new();
    for file in files {
        let text = match std::fs::read_to_string(&file) {
            Ok(text) => text,
            Err(error) => {
                problems.push(Problem { file, line: None, message: error.to_string() });
                continue;
            }
        };
        let record: MapRecord = match parse_ron(&file, &text) {
            Ok(record) => record,
            Err(error) => {
                problems.push(error.into());
                continue;
            }
        };
        let unknown = runtime.world().unknown_ids(&record);
        if !unknown.is_empty() {
            for (id, message) in unknown {
                problems.push(Problem { file: file.clone(), line: line_of(&text, &format!("\"{id}\"")), message });
            }
            continue;
        }
        if let Err(error) = runtime.world_mut().map_from_record(&record, RecordKind::MapFile) {
            let message = error.to_string();
            let line = quoted_id(&message).and_then(|id| line_of(&text, &format!("\"{id}\"")));
            problems.push(Problem { file, line, message });
        }
    }
    problems
}

fn runtime_problem(dir: &Path, error: RuntimeError) -> Problem {
    match error {
        RuntimeError::File(error) => error.into(),
        RuntimeError::Lua(failure) => {
            // Lua messages start with "file:line: ".
            let mut parts = failure.message.splitn(3, ':');
            match (parts.next(), parts.next().and_then(|l| l.trim().parse().ok()), parts.next()) {
                (Some(file), Some(line), Some(rest)) => {
                    Problem { file: PathBuf::from(file), line: Some(line), message: rest.trim().to_owned() }
                }
                _ => Problem { file: dir.to_owned(), line: None, message: failure.message },
            }
        }
        other => Problem { file: dir.join("project.ron"), line: None, message: other.to_string() },
    }
}

/// The first '…'-quoted word of an error message (the unknown id).
fn quoted_id(message: &str) -> Option<&str> {
    let start = message.find('\'')? + 1;
    let end = start + message[start..].find('\'')?;
    Some(&message[start..end])
}

fn line_of(text: &str, needle: &str) -> Option<usize> {
    text.lines().position(|l| l.contains(needle)).map(|i| i + 1)
}
