//! A record refused: each problem the checks found ([`crate::validate`]), with where
//! in the file it is, found again in the file's text to name its line.

use std::fmt;
use std::path::Path;

use crate::files::FileError;
use crate::symbol::Symbol;

/// Where in a file a problem is, found again in the file's text by [`RecordError::locate`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Place {
    /// The file as a whole.
    File,
    /// A field of the file's top level (`next_uid`, `start_map`).
    Top(&'static str),
    /// A field of the `map`-th map record (0 in a map file).
    MapField {
        /// Which map, in file order.
        map: usize,
        /// The field.
        field: &'static str,
    },
    /// Row `row` (0-based) of the tiles of the `map`-th map.
    Row {
        /// Which map, in file order.
        map: usize,
        /// The row.
        row: usize,
    },
    /// The `layer`-th (0-based) art layer of the `map`-th map, or row `row` (0-based) of its
    /// tiles.
    ArtLayer {
        /// Which map, in file order.
        map: usize,
        /// Which layer, bottom first.
        layer: usize,
        /// The row, if the problem is in one.
        row: Option<usize>,
    },
    /// The `nth` (0-based, in file order) object record with prototype `id` in the `map`-th
    /// map, or in the ownerless player when `map` is `None`.
    Object {
        /// Which map, in file order.
        map: Option<usize>,
        /// The object's prototype id.
        id: Symbol,
        /// How many records with that id come before it.
        nth: usize,
    },
    /// A mod's entry in the save's `mods`.
    ModSave(String),
}

/// One problem of a record: where it is and what is wrong, naming the field and the value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordProblem {
    /// Where it is.
    pub place: Place,
    /// What is wrong.
    pub message: String,
}

/// A record the checks refused: every problem found.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub struct RecordError {
    /// The problems, in file order as far as it is known.
    pub problems: Vec<RecordProblem>,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let messages: Vec<&str> = self.problems.iter().map(|p| p.message.as_str()).collect();
        f.write_str(&messages.join("; "))
    }
}

impl RecordError {
    /// The problems as `file:line: message`, their lines found in `text` (the file's
    /// contents).
    pub fn locate(&self, path: &Path, text: &str) -> Vec<FileError> {
        self.problems
            .iter()
            .map(|problem| FileError {
                path: path.to_owned(),
                line: line_of_place(text, &problem.place),
                column: None,
                message: problem.message.clone(),
            })
            .collect()
    }

    /// The first problem as a [`FileError`] naming `path` and its line, with how many more
    /// there are.
    pub fn first_located(&self, path: &Path, text: &str) -> FileError {
        let mut located = self.locate(path, text);
        let more = located.len().saturating_sub(1);
        let mut first = located.swap_remove(0);
        if more > 0 {
            first.message = format!("{} (and {more} more problem(s): run nefia check)", first.message);
        }
        first
    }
}

/// The 1-based line of `place` in `text`, if it can be found.
fn line_of_place(text: &str, place: &Place) -> Option<usize> {
    let at = match place {
        Place::File => return None,
        Place::Top(field) => find_field(text, 0, text.len(), field)?,
        Place::MapField { map, field } => {
            let (start, end) = map_region(text, *map)?;
            find_field(text, start, end, field).unwrap_or(start)
        }
        Place::Row { map, row } => {
            let (start, end) = map_region(text, *map)?;
            nth_string(text, find_field(text, start, end, "tiles")?, end, *row)?
        }
        Place::ArtLayer { map, layer, row } => {
            let (start, end) = map_region(text, *map)?;
            let layers = find_field(text, start, end, "art_layers")?;
            let mut at = layers;
            for _ in 0..=*layer {
                at = find_field(text, at + 1, end, "name")?;
            }
            match row {
                Some(row) => nth_string(text, find_field(text, at, end, "tiles")?, end, *row)?,
                None => at,
            }
        }
        Place::Object { map, id, nth } => {
            let (start, end) = match map {
                Some(map) => map_region(text, *map)?,
                None => (find_field(text, 0, text.len(), "ownerless_player")?, text.len()),
            };
            nth_id(text, start, end, id.as_str(), *nth)?
        }
        Place::ModSave(name) => {
            let start = find_field(text, 0, text.len(), "mods")?;
            start + text[start..].find(&format!("{name:?}")).unwrap_or(0)
        }
    };
    Some(text[..at].matches('\n').count() + 1)
}

fn is_ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_'
}

/// Where the bare field name `field` (followed by `:`) first appears in `text[start..end]`.
fn find_field(text: &str, start: usize, end: usize, field: &str) -> Option<usize> {
    let region = text.get(start..end)?;
    let mut from = 0;
    while let Some(found) = region[from..].find(field) {
        let at = from + found;
        let before = region[..at].chars().next_back();
        let after = region[at + field.len()..].trim_start().chars().next();
        if before.is_none_or(|c| !is_ident_char(c) && c != '"') && after == Some(':') {
            return Some(start + at);
        }
        from = at + field.len();
    }
    None
}

/// The span of the `map`-th map record: from its `name` field to the next map's. A map's
/// `name` is the first bare `name:` of the file, and the next map's is the next one as deeply
/// nested (an art layer's `name` is nested deeper).
fn map_region(text: &str, map: usize) -> Option<(usize, usize)> {
    let mut names = names_at_map_depth(text);
    let start = names.nth(map)?;
    Some((start, names.next().unwrap_or(text.len())))
}

/// Where each bare `name:` field as deeply nested as the file's first one is, in order.
fn names_at_map_depth(text: &str) -> impl Iterator<Item = usize> + '_ {
    let (mut depth, mut in_string, mut escaped, mut map_depth) = (0usize, false, false, None);
    let mut previous = None;
    text.char_indices().filter_map(move |(i, c)| {
        let before = std::mem::replace(&mut previous, Some(c));
        if in_string {
            match c {
                '\\' if !escaped => escaped = true,
                '"' if !escaped => in_string = false,
                _ => escaped = false,
            }
            return None;
        }
        match c {
            '"' => in_string = true,
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.saturating_sub(1),
            'n' if before.is_none_or(|b| !is_ident_char(b))
                && text[i..].starts_with("name")
                && text[i + 4..].trim_start().starts_with(':') =>
            {
                let wanted = *map_depth.get_or_insert(depth);
                return (wanted == depth).then_some(i);
            }
            _ => {}
        }
        None
    })
}

/// Where the `nth` string literal after `from` starts.
fn nth_string(text: &str, from: usize, end: usize, nth: usize) -> Option<usize> {
    let mut count = 0;
    let mut in_string = false;
    let mut escaped = false;
    for (i, c) in text.get(from..end)?.char_indices() {
        match (in_string, c) {
            (true, '\\') if !escaped => escaped = true,
            (true, '"') if !escaped => in_string = false,
            (true, _) => escaped = false,
            (false, '"') => {
                if count == nth {
                    return Some(from + i);
                }
                count += 1;
                in_string = true;
            }
            (false, _) => {}
        }
    }
    None
}

/// Where the `nth` `id: "<id>"` of `text[start..end]` is.
fn nth_id(text: &str, start: usize, end: usize, id: &str, nth: usize) -> Option<usize> {
    let quoted = format!("{id:?}");
    let region = text.get(start..end)?;
    let mut count = 0;
    let mut from = 0;
    while let Some(found) = region[from..].find(&quoted) {
        let at = from + found;
        let before = region[..at].trim_end();
        if let Some(before) = before.strip_suffix(':')
            && before.trim_end().ends_with("id")
            && !before.trim_end().trim_end_matches("id").ends_with(is_ident_char)
        {
            if count == nth {
                return Some(start + at);
            }
            count += 1;
        }
        from = at + quoted.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_are_found_on_their_lines() {
        let text = "(\n    name: \"town\",\n    width: 2,\n    tiles: [\n        \"..\",\n        \".x\",\n    ],\n    objects: [\n        (kind: Chara, id: \"elona.putit\", x: 0, y: 0),\n        (kind: Chara, id: \"elona.putit\", x: 9, y: 0),\n    ],\n)";
        assert_eq!(line_of_place(text, &Place::MapField { map: 0, field: "width" }), Some(3));
        assert_eq!(line_of_place(text, &Place::Row { map: 0, row: 1 }), Some(6));
        let putit = Symbol::intern("elona.putit");
        assert_eq!(line_of_place(text, &Place::Object { map: Some(0), id: putit, nth: 1 }), Some(10));
        assert_eq!(line_of_place(text, &Place::Top("nothing")), None);
    }

    #[test]
    fn art_layers_are_found_in_their_map_and_do_not_start_another() {
        let text = "(\n    maps: [\n        (\n            name: \"a\",\n            art_layers: [\n                (\n                    name: \"roofs\",\n                    tiles: [\n                        \" x\",\n                        \"x \",\n                    ],\n                ),\n            ],\n        ),\n        (\n            name: \"b\",\n            width: 2,\n        ),\n    ],\n)";
        let layer = |row| Place::ArtLayer { map: 0, layer: 0, row };
        assert_eq!(line_of_place(text, &layer(None)), Some(7));
        assert_eq!(line_of_place(text, &layer(Some(1))), Some(10));
        assert_eq!(
            line_of_place(text, &Place::MapField { map: 1, field: "width" }),
            Some(17),
            "the layer's name is not map b's"
        );
    }
}
