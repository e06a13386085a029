//! An edit of a mod's Lua file as a patch: the lines it replaced and the lines it wrote, and
//! where. Undo and redo of a form's edit (and the journal's recovery of one) work on the file
//! as it is now, not on the whole text it had: each puts back only its own lines, and only if
//! they are still what it left there, so a hand edit elsewhere in the file — a prototype added
//! in a text editor after the form's edit — stays.
//!
//! A patch covers whole lines (the bytes the edit changed, widened to the lines they are on;
//! an edit that only adds or only removes lines takes the line before it too, so neither side
//! is empty). It keeps its byte offset in the file, a digest of the text before it, a digest
//! (and the length) of the text after it, and the lines just before and after it. To find its
//! lines in the file as it is now:
//!
//! 1. if the text before the offset is as it was and its lines are at the offset, there;
//! 2. else if the text after it is as it was and its lines end where that text begins (the
//!    offset moved by what was added or removed before it), there;
//! 3. else (text changed on both sides of them) where its lines occur exactly once between
//!    the line before and the line after them as they were, and not inside the text before or
//!    after it that is as it was. Found nowhere, they were changed since (or text was put
//!    right beside them as well as elsewhere: which lines are its own is not guessed); found
//!    more than once, which are its own cannot be told: either way it is refused.
//!
//! So a patch never writes over bytes it did not leave, and never guesses between two places.
//! A refusal names the file and the line where the patch's lines were, and nothing is written.

use std::fmt;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::files::content_digest;

/// The lines an edit of a text file replaced and the lines it wrote, and where (see the
/// module's text).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SourcePatch {
    /// The file.
    pub file: PathBuf,
    /// The byte offset of its lines in the file when it was made.
    pub offset: usize,
    /// The lines it replaced.
    pub old: String,
    /// The lines it wrote.
    pub new: String,
    /// [`content_digest`] of the file's bytes before `offset`.
    pub prefix_digest: u64,
    /// How many bytes of the file came after its lines.
    pub suffix_len: usize,
    /// [`content_digest`] of those bytes.
    pub suffix_digest: u64,
    /// The line before its lines when it was made (empty at the file's start).
    pub line_before: String,
    /// The line after its lines when it was made (empty at the file's end).
    pub line_after: String,
}

/// Which side of a patch a file is to hold: the lines before the edit (undo) or after (redo).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PatchSide {
    /// The lines it replaced.
    Old,
    /// The lines it wrote.
    New,
}

impl PatchSide {
    /// The other side.
    pub fn other(self) -> PatchSide {
        match self {
            PatchSide::Old => PatchSide::New,
            PatchSide::New => PatchSide::Old,
        }
    }
}

/// Why a patch could not be put on a file's text (nothing was written).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct PatchRefused {
    /// The file.
    pub file: PathBuf,
    /// The 1-based line where the patch's lines were (or would be) in the file as it is.
    pub line: usize,
    /// What is wrong.
    pub why: PatchMiss,
}

/// What a patch did not find.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PatchMiss {
    /// The lines it expects are not there: changed since (by hand, by git, …).
    Changed,
    /// Text changed both before and after its lines, and the lines it expects occur more than
    /// once: which is its own cannot be told.
    Ambiguous,
}

impl fmt::Display for PatchRefused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let at = format!("{}:{}", self.file.display(), self.line);
        match self.why {
            PatchMiss::Changed => write!(
                f,
                "{at}: the lines this edit changed were changed since (by hand or by another program); nothing was \
                 written: put them back as the edit left them, or make the change by hand"
            ),
            PatchMiss::Ambiguous => write!(
                f,
                "{at}: the file changed both before and after the lines this edit changed, and those lines occur \
                 more than once, so which are the edit's cannot be told; nothing was written: make the change by hand"
            ),
        }
    }
}

impl SourcePatch {
    /// The patch that turns `before` into `after` (the text of `file`), or None if they are
    /// the same.
    pub fn between(file: &Path, before: &str, after: &str) -> Option<SourcePatch> {
        if before == after {
            return None;
        }
        let (b, a) = (before.as_bytes(), after.as_bytes());
        let prefix = b.iter().zip(a).take_while(|(x, y)| x == y).count();
        let most = b.len().min(a.len()) - prefix;
        let suffix = b.iter().rev().zip(a.iter().rev()).take(most).take_while(|(x, y)| x == y).count();
        // Whole lines: the start back to its line's start, the ends on to their line's end
        // (the bytes after the ends are the same in both texts, so both move alike).
        let mut start = line_start(b, prefix);
        let (mut end_b, mut end_a) = (b.len() - suffix, a.len() - suffix);
        let ends_a_line = |t: &[u8], end: usize| end == start || t[end - 1] == b'\n';
        if !(ends_a_line(b, end_b) && ends_a_line(a, end_a)) {
            let rest = line_rest(b, end_b);
            (end_b, end_a) = (end_b + rest, end_a + rest);
        }
        // Only added or only removed lines: the line before them (or after) comes along, so
        // that neither side is empty and either can be found again.
        if end_b == start || end_a == start {
            if start > 0 {
                start = line_start(b, start - 1);
            } else {
                end_b += line_rest(b, end_b);
            }
        }
        let suffix = b.len() - end_b;
        Some(SourcePatch {
            file: file.to_owned(),
            offset: start,
            old: before[start..b.len() - suffix].to_owned(),
            new: after[start..a.len() - suffix].to_owned(),
            prefix_digest: content_digest(&b[..start]),
            suffix_len: suffix,
            suffix_digest: content_digest(&b[b.len() - suffix..]),
            line_before: before[line_start(b, start.saturating_sub(1))..start].to_owned(),
            line_after: before[end_b..end_b + line_rest(b, end_b)].to_owned(),
        })
    }

    /// The lines of `side`.
    pub fn lines(&self, side: PatchSide) -> &str {
        match side {
            PatchSide::Old => &self.old,
            PatchSide::New => &self.new,
        }
    }

    /// Where the lines of `side` are in `text` (see the module's text).
    pub fn find(&self, text: &str, side: PatchSide) -> Result<usize, PatchRefused> {
        let expected = self.lines(side).as_bytes();
        let bytes = text.as_bytes();
        // Its lines at `at`, ending where a line ends (so `x = 6` is not found in `x = 60`).
        let holds = |at: usize| {
            bytes.get(at..).is_some_and(|rest| {
                rest.starts_with(expected) && (expected.ends_with(b"\n") || rest.len() == expected.len())
            })
        };
        // The text before it, and the text after it, as they were.
        let before_same = bytes.get(..self.offset).is_some_and(|before| content_digest(before) == self.prefix_digest);
        let after_at = bytes.len().checked_sub(self.suffix_len);
        let after_at = after_at.filter(|&at| content_digest(&bytes[at..]) == self.suffix_digest);
        let end_at = after_at.and_then(|at| at.checked_sub(expected.len()));
        if before_same && holds(self.offset) {
            return Ok(self.offset);
        }
        if let Some(at) = end_at.filter(|&at| holds(at)) {
            return Ok(at);
        }
        // Text changed on both sides: where its lines occur once, between what stayed, between
        // the two lines that were beside them (one common neighbour such as `}` alone could
        // be another prototype's).
        let (low, high) = (if before_same { self.offset } else { 0 }, after_at.unwrap_or(bytes.len()));
        let near = match (before_same, end_at) {
            (false, Some(at)) => at,
            _ => self.offset.min(bytes.len()),
        };
        let refused = |why| PatchRefused { file: self.file.clone(), line: line_of(bytes, near), why };
        let newlines = bytes.iter().enumerate().filter(|(_, b)| **b == b'\n');
        let line_starts = std::iter::once(0).chain(newlines.map(|(at, _)| at + 1));
        let beside = |at: usize| {
            let previous = &bytes[line_start(bytes, at.saturating_sub(1))..at];
            let end = at + expected.len();
            previous == self.line_before.as_bytes()
                && &bytes[end..end + line_rest(bytes, end)] == self.line_after.as_bytes()
        };
        let fits = |&at: &usize| at >= low && at + expected.len() <= high && holds(at) && beside(at);
        let mut found = line_starts.filter(fits);
        match (found.next(), found.next()) {
            (Some(at), None) if !expected.is_empty() => Ok(at),
            (Some(_), Some(_)) => Err(refused(PatchMiss::Ambiguous)),
            _ => Err(refused(PatchMiss::Changed)),
        }
    }

    /// `text` with the patch's lines turned to those of `side`: they must hold the other
    /// side's now (see [`SourcePatch::find`]); every other byte is kept.
    pub fn put(&self, text: &str, side: PatchSide) -> Result<String, PatchRefused> {
        let from = self.lines(side.other());
        let at = self.find(text, side.other())?;
        let mut out = String::with_capacity(text.len() - from.len() + self.lines(side).len());
        out.push_str(&text[..at]);
        out.push_str(self.lines(side));
        out.push_str(&text[at + from.len()..]);
        Ok(out)
    }
}

/// The start of the line byte `at` is on.
fn line_start(bytes: &[u8], at: usize) -> usize {
    bytes[..at.min(bytes.len())].iter().rposition(|&b| b == b'\n').map_or(0, |newline| newline + 1)
}

/// How many bytes from `at` to the end of its line, its newline included.
fn line_rest(bytes: &[u8], at: usize) -> usize {
    let rest = &bytes[at.min(bytes.len())..];
    rest.iter().position(|&b| b == b'\n').map_or(rest.len(), |newline| newline + 1)
}

/// The 1-based line of byte `at`.
fn line_of(bytes: &[u8], at: usize) -> usize {
    bytes[..at.min(bytes.len())].iter().filter(|&&b| b == b'\n').count() + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str =
        "data:add {\n   _id = \"putit\",\n   max_hp = 6,\n}\n\ndata:add {\n   _id = \"yeek\",\n   max_hp = 6,\n}\n";

    fn patch(before: &str, after: &str) -> SourcePatch {
        SourcePatch::between(Path::new("charas.lua"), before, after).expect("they differ")
    }

    #[test]
    fn a_patch_holds_the_whole_lines_it_changed() {
        let after = FILE.replacen("max_hp = 6", "max_hp = 50", 1);
        let p = patch(FILE, &after);
        assert_eq!((p.old.as_str(), p.new.as_str()), ("   max_hp = 6,\n", "   max_hp = 50,\n"));
        assert_eq!(p.put(FILE, PatchSide::New).unwrap(), after);
        assert_eq!(p.put(&after, PatchSide::Old).unwrap(), FILE);
        // Lines only added or only removed take the line before them along.
        let added = FILE.replace("}\n\ndata", "}\n-- note\n\ndata");
        let p = patch(FILE, &added);
        assert_eq!((p.old.as_str(), p.new.as_str()), ("}\n", "}\n-- note\n"));
        assert_eq!(patch(&added, FILE).put(&added, PatchSide::New).unwrap(), FILE);
        let at_start = patch("b\n", "a\nb\n");
        assert_eq!((at_start.old.as_str(), at_start.new.as_str()), ("b\n", "a\nb\n"));
        assert_eq!(patch("x\ny\n", "x\nZy\n").old, "y\n", "a change within a line takes the whole line");
    }

    #[test]
    fn a_patch_is_found_again_after_text_before_or_after_it_changed() {
        let after = FILE.replacen("max_hp = 6", "max_hp = 50", 1);
        let p = patch(FILE, &after);
        let appended = format!("{after}data:add {{ _id = \"by_hand\" }}\n");
        assert_eq!(p.put(&appended, PatchSide::Old).unwrap(), format!("{FILE}data:add {{ _id = \"by_hand\" }}\n"));
        let prepended = format!("-- by hand\n{after}");
        assert_eq!(p.put(&prepended, PatchSide::Old).unwrap(), format!("-- by hand\n{FILE}"));
        // Both before and after: where its lines occur once.
        let both = format!("-- by hand\n{after}-- and here\n");
        assert_eq!(p.put(&both, PatchSide::Old).unwrap(), format!("-- by hand\n{FILE}-- and here\n"));
        // A line put right above its line by hand.
        let beside = after.replacen("   max_hp = 50,", "   level = 2,\n   max_hp = 50,", 1);
        assert_eq!(p.put(&beside, PatchSide::Old).unwrap(), FILE.replacen("   max_hp", "   level = 2,\n   max_hp", 1));
    }

    #[test]
    fn a_patch_whose_lines_changed_or_cannot_be_told_apart_is_refused_with_its_line() {
        let after = FILE.replacen("max_hp = 6", "max_hp = 50", 1);
        let p = patch(FILE, &after);
        let over = after.replace("max_hp = 50", "max_hp = 51");
        let refused = p.put(&over, PatchSide::Old).unwrap_err();
        assert_eq!((refused.line, refused.why), (3, PatchMiss::Changed));
        assert!(refused.to_string().starts_with("charas.lua:3: "), "{refused}");
        // The yeek's max_hp is the putit's old line: a redo across edits on both sides takes
        // the one between the lines that were beside it, the yeek's, not the putit's.
        let yeek = |text: &str| text.replace("\"yeek\",\n   max_hp = 6", "\"yeek\",\n   max_hp = 50");
        let y = patch(&after, &yeek(&after));
        let both = format!("--\n{FILE}--\n");
        assert_eq!(y.put(&both, PatchSide::New).unwrap(), format!("--\n{}--\n", yeek(FILE)));
        // Two such places: which is its own cannot be told.
        let twice = format!("--\n{FILE}data:add {{\n   _id = \"yeek\",\n   max_hp = 6,\n}}\n--\n");
        assert_eq!(y.put(&twice, PatchSide::New).unwrap_err().why, PatchMiss::Ambiguous);
    }

    #[test]
    fn a_line_alike_in_another_prototype_or_only_longer_is_not_taken_for_the_edits_own() {
        let after = FILE.replacen("max_hp = 6", "max_hp = 50", 1);
        let p = patch(FILE, &after);
        // By hand: lines put right above and below the putit's edited line, and the yeek given
        // the same line, whose `}` after it is alike but whose line before is not.
        let by_hand = after
            .replacen("   max_hp = 50,\n", "   level = 2,\n   max_hp = 50,\n   hp = 50,\n", 1)
            .replace("\"yeek\",\n   max_hp = 6", "\"yeek\",\n   max_hp = 50");
        assert_eq!(p.put(&by_hand, PatchSide::Old).unwrap_err().why, PatchMiss::Changed);
        // The file's last line, only longer than the edit's, is not its line.
        let last = patch("a\nx = 6", "a\nx = 50");
        assert_eq!(last.put("a\nx = 500", PatchSide::Old).unwrap_err().why, PatchMiss::Changed);
    }
}
