//! The entries of `data:add_multi(type, list)` lists: where each is (so `data:add_multi`
//! records each prototype at its own line), a copy of one put into its list after it, and a
//! copy made a `data:add` statement for another file.

use super::syntax::{DataAdd, Listed, Quote, Table};
use super::{
    Locator, SourceEditError, find_field, indent_before, line_at, line_start, literal, splice, with_id, without_bom,
};

/// An entry of a `data:add_multi` list, as [`listed_entries`] gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ListedEntry {
    /// The first and last lines of the `data:add_multi` call.
    pub call_lines: (u32, u32),
    /// Which item of the list it is, from 1 (the index `ipairs` gives it).
    pub position: usize,
    /// Its `_id` when written as a string literal.
    pub short_id: Option<String>,
    /// The line its table starts on: the prototype's line.
    pub line: u32,
}

/// Every entry of the `data:add_multi` lists of `text` that the file writes out (see the
/// module doc), in source order: what gives each prototype added by `data:add_multi` the line
/// of its own entry.
pub fn listed_entries(text: &str) -> Result<Vec<ListedEntry>, SourceEditError> {
    Ok(super::parse(without_bom(text).1)?
        .iter()
        .filter_map(|c| {
            let listed = c.listed.as_ref()?;
            Some(ListedEntry {
                call_lines: listed.call_lines,
                position: listed.position,
                short_id: c.string_field("_id").map(str::to_owned),
                line: c.line,
            })
        })
        .collect())
}

/// `text` with `copy` put into the list right after the entry `call`, with the entry's
/// separator (a `,` when it has none, which the entry then gets); and the copy's line.
pub(super) fn duplicate_entry(text: &str, call: &DataAdd, listed: &Listed, copy: &str) -> (String, u32) {
    let indent = indent_before(text, listed.entry.start);
    let separator = listed.separator.clone().map_or(",", |s| &text[s]);
    // Where the copy goes, what goes there, and how far into that the copy starts.
    let (at_byte, inserted, offset) = match (&listed.separator, &call.statement_break) {
        (Some(_), Some(line_break)) => {
            (line_break.end, format!("{indent}{copy}{separator}{}", &text[line_break.clone()]), indent.len())
        }
        (None, Some(line_break)) => {
            let newline = &text[line_break.clone()];
            (listed.entry.end, format!(",{newline}{indent}{copy}"), 1 + newline.len() + indent.len())
        }
        (Some(sep), None) => (sep.end, format!(" {copy}{separator}"), 1),
        (None, None) => (listed.entry.end, format!(", {copy}"), 2),
    };
    let edited = splice(text, at_byte..at_byte, &inserted);
    let line = line_at(&edited, at_byte + offset);
    (edited, line)
}

/// The entry `listed`, holding `table`, as a `data:add` statement with `_id` made
/// `new_short_id`: the list's `_type` added as its first field (unless it writes one) and the
/// indentation the list gave it taken off.
pub(super) fn as_statement(
    text: &str,
    table: &Table,
    at: &Locator,
    listed: &Listed,
    new_short_id: &str,
) -> Result<String, SourceEditError> {
    let entry = listed.entry.clone();
    let mut copy = with_id(text, table, at, entry.clone(), new_short_id)?;
    if let (None, Some(first)) =
        (table.fields.iter().find(|f| f.name.as_deref() == Some("_type")), table.fields.first())
    {
        let mut data_type = String::new();
        let quote = find_field(text, table, at, "_id")?.and_then(|f| f.quote).unwrap_or(Quote::Double);
        literal::quote(at.data_type, quote, &mut data_type);
        let first_line = line_start(text, first.span.start);
        let own_line = text[table.open.end..first.span.start].contains('\n');
        let (at_byte, inserted) = match own_line {
            true => {
                let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
                (first_line, format!("{}_type = {data_type},{newline}", &text[first_line..first.span.start]))
            }
            false => (first.span.start, format!("_type = {data_type}, ")),
        };
        // The `_id`, which the copy has already changed, is at or after the insertion.
        copy = splice(&copy, at_byte - entry.start..at_byte - entry.start, &inserted);
    }
    let indent = indent_before(text, entry.start);
    let dedented: Vec<&str> = copy
        .split('\n')
        .enumerate()
        .map(|(i, line)| match i {
            0 => line,
            _ => line.strip_prefix(indent).unwrap_or(line),
        })
        .collect();
    Ok(format!("data:add {}", dedented.join("\n")))
}
