//! The breakpoints by file: set and bound to lines that run, moved by a hotload, and what a
//! line with one asks for when it runs (its condition, hit count and log message).

use std::cell::Cell;
use std::path::{Path, PathBuf};

use mlua::Lua;

use super::lines::{first_running_line, line_map};
use super::{Armed, Debugger, GENERATION, KNOWN, absolute, engine, known};
use nefia_protocol::repl::LineBreakpoint;

impl Debugger {
    /// Replaces the breakpoints of file `path` (made absolute from the working folder) with
    /// `breakpoints`; an empty list clears them. A breakpoint on a line that never runs by
    /// itself — blank, a comment, a `function` header — moves to the next line that does, as
    /// a code editor's user means it. Returns whether the file is loaded now, and each
    /// breakpoint's line.
    pub fn set_breakpoints(&self, lua: &Lua, path: &Path, mut breakpoints: Vec<LineBreakpoint>) -> (bool, Vec<u32>) {
        let path = absolute(path);
        let text = std::fs::read_to_string(&path).ok();
        if let Some(text) = &text {
            let lines: Vec<&str> = text.lines().collect();
            for breakpoint in &mut breakpoints {
                breakpoint.line = first_running_line(&lines, breakpoint.line);
            }
        }
        let lines = breakpoints.iter().map(|b| b.line).collect();
        {
            let mut files = self.files.borrow_mut();
            if breakpoints.is_empty() {
                files.remove(&path);
                self.texts.borrow_mut().remove(&path);
            } else {
                files.insert(path.clone(), breakpoints.into_iter().map(|spec| Armed { spec, hits: 0 }).collect());
                // The text the lines are of, to move them with a hotload.
                if let Some(text) = text {
                    self.texts.borrow_mut().insert(path.clone(), text);
                }
            }
        }
        self.sources_changed();
        self.rest();
        let loaded = engine(lua)
            .sources
            .borrow()
            .values()
            .any(|source| source.path.as_deref().map(absolute) == Some(path.clone()));
        (loaded, lines)
    }

    /// File `path` was reloaded with `text` (a hotload): its breakpoints move with their
    /// lines where lines were added or removed above them. Returns those that moved, as
    /// (old line, new line).
    pub fn file_reloaded(&self, path: &Path, text: &str) -> Vec<(u32, u32)> {
        let path = absolute(path);
        let Some(old) = self.texts.borrow_mut().insert(path.clone(), text.to_owned()) else { return Vec::new() };
        let mut moved = Vec::new();
        if let Some(list) = self.files.borrow_mut().get_mut(&path) {
            let map = line_map(&old, text);
            for armed in list.iter_mut() {
                let to = map(armed.spec.line);
                if to != armed.spec.line {
                    moved.push((armed.spec.line, to));
                    armed.spec.line = to;
                }
            }
        }
        moved
    }

    /// Whether the chunk named `source` (a Lua string's bytes, at their address) is a file
    /// with breakpoints.
    pub(super) fn has_breakpoints(&self, lua: &Lua, source: &[u8]) -> bool {
        if let Some(known) = known(source) {
            return known;
        }
        let answer = self.file_of(lua, source).is_some();
        KNOWN.with(|known| known.insert(source, (answer, GENERATION.with(Cell::get))));
        answer
    }

    /// The file with breakpoints the chunk named `source` was loaded from.
    fn file_of(&self, lua: &Lua, source: &[u8]) -> Option<PathBuf> {
        let chunk = std::str::from_utf8(source).ok()?;
        let path = engine(lua).sources.borrow().get(chunk)?.path.clone()?;
        let path = absolute(&path);
        self.files.borrow().get(&path).is_some_and(|list| !list.is_empty()).then_some(path)
    }

    /// What the breakpoint on `line` of the chunk `source`, if any, asks for now that the
    /// line runs: its condition was true (or it has none) is asked of `condition_holds`.
    pub(super) fn at_line(
        &self,
        lua: &Lua,
        source: &[u8],
        line: u32,
        condition_holds: impl Fn(&str) -> Result<bool, super::EvaluationError>,
    ) -> Action {
        let Some(path) = self.file_of(lua, source) else { return Action::Run };
        let spec = {
            let files = self.files.borrow();
            let Some(armed) = files.get(&path).and_then(|list| list.iter().find(|a| a.spec.line == line)) else {
                return Action::Run;
            };
            armed.spec.clone()
        };
        if let Some(condition) = spec.condition.as_deref().filter(|c| !c.trim().is_empty()) {
            match condition_holds(condition) {
                Ok(true) => {}
                Ok(false) => return Action::Run,
                Err(problem) => {
                    return Action::Stop(Some(format!("the breakpoint's condition `{condition}` failed: {problem}")));
                }
            }
        }
        let hits = {
            let mut files = self.files.borrow_mut();
            let Some(armed) = files.get_mut(&path).and_then(|list| list.iter_mut().find(|a| a.spec.line == line))
            else {
                return Action::Run;
            };
            armed.hits += 1;
            armed.hits
        };
        if let Some(hit_condition) = spec.hit_condition.as_deref().filter(|c| !c.trim().is_empty()) {
            match hit_condition_holds(hit_condition, hits) {
                Ok(true) => {}
                Ok(false) => return Action::Run,
                Err(unclear) => return Action::Stop(Some(unclear.to_string())),
            }
        }
        match spec.log_message {
            Some(message) => Action::Log(message),
            None => Action::Stop(None),
        }
    }
}

/// What the hook does at a line.
pub(super) enum Action {
    /// Nothing: the code runs on.
    Run,
    /// Print the log message (its `{...}` parts evaluated).
    Log(String),
    /// Stop, with a note on why when it is not plainly the breakpoint.
    Stop(Option<String>),
}

/// A hit condition [`hit_condition_holds`] does not understand.
#[derive(Debug, PartialEq, thiserror::Error)]
#[error("the hit count `{0}` is not understood: write a number (stop on that hit), >= N, > N or % N")]
struct UnclearHitCount(String);

/// Whether a breakpoint hit for the `hits`th time stops under `condition` (see
/// [`LineBreakpoint::hit_condition`]).
fn hit_condition_holds(condition: &str, hits: u32) -> Result<bool, UnclearHitCount> {
    let text = condition.trim();
    let (operator, number) = ["==", ">=", ">", "%", "="]
        .iter()
        .find_map(|op| text.strip_prefix(op).map(|rest| (*op, rest.trim())))
        .unwrap_or(("==", text));
    let n: u32 = number.parse().map_err(|_| UnclearHitCount(condition.to_owned()))?;
    Ok(match operator {
        ">=" => hits >= n,
        ">" => hits > n,
        "%" => n != 0 && hits.is_multiple_of(n),
        _ => hits == n,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hit_counts_are_understood_or_refused_with_advice() {
        assert_eq!(hit_condition_holds("3", 3), Ok(true));
        assert_eq!(hit_condition_holds("3", 4), Ok(false));
        assert_eq!(hit_condition_holds(">= 2", 5), Ok(true));
        assert_eq!(hit_condition_holds("% 2", 4), Ok(true));
        assert!(hit_condition_holds("often", 1).is_err_and(|e| e.to_string().contains("write a number")));
    }
}
