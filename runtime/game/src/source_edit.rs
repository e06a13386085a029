//! Edits of a prototype's `data:add { ... }` table, or of its entry in a
//! `data:add_multi(type, { ... })` list, in the text of a mod's Lua file: what the editor's
//! forms write back to the source (issue 45).
//!
//! Pure text in, text out: no file is read or written and no Lua runs. The file is parsed with
//! full_moon (a lossless Lua 5.4 syntax tree) only to find byte spans; every edit splices the
//! original text, so everything it does not touch — comments, blank lines, indentation, the
//! quotes of other strings, trailing commas, the order of fields — stays byte for byte.
//!
//! A prototype is found by its `_type` and `_id`, both string literals in a `data:add { ... }`
//! or `data:add({ ... })` call ([`Locator`]), or by its literal `_id` in an entry of a
//! `data:add_multi("type", list)` list whose type is a literal (OpenNefia's usual form: the list
//! in the call, or in a `local` of the same block set just before; see `syntax.rs`); when
//! several match, the one nearest the prototype's recorded line wins; [`find_prototype`] tells
//! its line, or why it cannot be edited, before any edit. An entry of a list is edited as a
//! `data:add`'s table is, and [`duplicate`] and [`remove`] copy or remove the entry within its
//! list. What keeps an edit:
//! - [`set_field`] replaces only the value expression of the field. Setting a field to the value
//!   its literal already has changes no byte. A string keeps its quote (single or double); a
//!   table value is written on one line, padded or not as the table's other one-line tables
//!   are (`{ 130, 200, 255 }`). A new field goes after the last one, in the table's style: on a
//!   line of its own with the last field's indentation and separator, or on the same line of a
//!   one-line table. Unsetting a field that has a line of its own removes that whole line, the
//!   comment at its end included (it speaks of that field); comment lines above it stay.
//! - [`duplicate`] copies the statement, without the comment lines above it (they stay with the
//!   original), after the original, a blank line between them, with the new `_id`; an entry of
//!   a list is copied into the list right after the original, on lines of its own when it has
//!   them, with its separator.
//! - [`copy_of`] gives that copy's text (an entry of a list becomes a `data:add` statement
//!   with the list's `_type`) and [`append`] puts a statement at the end of a file (a copy into
//!   another file); [`new_statement`] writes a new prototype's table, a field a line, in the
//!   file's indentation.
//! - [`remove`] removes the statement's lines (an entry's, with its separator) and one blank
//!   line around them; comment lines above it stay, since they cannot be told from a header of
//!   what follows.
//!
//! A UTF-8 byte order mark at the start of the text is skipped as OpenNefia's loader (LuaJIT's)
//! skips it, and kept in the edited text.
//!
//! What it refuses, naming the prototype and the line: a prototype made by code (its `_id` or
//! `_type` is not a literal, its table is not a table constructor, or the call runs inside a
//! loop or a function): the caller says "edit it there"; a field set twice in the table; a new
//! `_id` (a copy's or a rename's) that the file already has for that type; values
//! with no Lua literal (object references, NaN and infinities); unsetting `_type` or `_id`.
//! Floats are written with a `.` or an exponent (`2.0`, `1e100`) so they read back as floats.

mod listed;
mod literal;
mod locale;
mod syntax;

#[cfg(test)]
mod fixtures;
#[cfg(test)]
mod tests;

use std::ops::Range;

pub use listed::{ListedEntry, listed_entries};
use literal::Style;
pub use locale::{LocaleEntry, locale_entries, set_locale_text};
use syntax::{DataAdd, FieldSpan, Quote, Table};

use crate::value::Value;

/// Which prototype to edit: its data type, its id within its mod, and the line its `data:add`
/// was recorded at.
#[derive(Debug, Clone, Copy)]
pub struct Locator<'a> {
    /// The data type, such as `base.chara`.
    pub data_type: &'a str,
    /// The `_id` as written, without the mod: `putit` for `elona.putit`.
    pub short_id: &'a str,
    /// The recorded line of the call (`Origin::line`), or 0 when not known; picks among several
    /// matching calls.
    pub line: u32,
}

impl std::fmt::Display for Locator<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} `{}`", self.data_type, self.short_id)
    }
}

/// Why an edit could not be made. Lines are 1-based lines of the text.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SourceEditError {
    /// The text is not valid Lua.
    #[error("the file is not valid Lua (line {line}): {message}")]
    Parse {
        /// The line of the first error.
        line: u32,
        /// What is wrong.
        message: String,
    },
    /// No `data:add` of the file writes the prototype out.
    #[error("no `data:add` in the file has `_type = \"{data_type}\"` and `_id = \"{short_id}\"`{code}")]
    NotFound {
        /// The data type looked for.
        data_type: String,
        /// The id looked for.
        short_id: String,
        /// ", though `data:add` calls made by code at lines ... may make it", or empty.
        code: String,
    },
    /// The prototype is made by code that cannot be edited as a table.
    #[error("{prototype} is made by code at line {line} ({why}): edit it there")]
    MadeByCode {
        /// The prototype, as `base.chara `putit``.
        prototype: String,
        /// The line of its `data:add`.
        line: u32,
        /// Why its table cannot be edited.
        why: String,
    },
    /// The table sets the field more than once.
    #[error("{prototype} sets `{field}` more than once (lines {lines:?}): keep one first")]
    FieldTwice {
        /// The prototype.
        prototype: String,
        /// The field.
        field: String,
        /// The lines that set it.
        lines: Vec<u32>,
    },
    /// The value cannot be written in Lua, or not in that field.
    #[error("cannot write `{field}` of {prototype} (line {line}): {reason}")]
    Unwritable {
        /// The prototype.
        prototype: String,
        /// The field.
        field: String,
        /// The line of its `data:add`.
        line: u32,
        /// Why.
        reason: String,
    },
    /// The new id of a copy is already the id of a prototype of that type in the file.
    #[error("{prototype} already exists at line {line}")]
    IdTaken {
        /// The prototype that exists.
        prototype: String,
        /// Its line.
        line: u32,
    },
    /// The `data:add` is part of a larger expression, so it cannot be copied or removed alone.
    #[error("the `data:add` of {prototype} at line {line} is part of an expression: edit it there")]
    NotAStatement {
        /// The prototype.
        prototype: String,
        /// Its line.
        line: u32,
    },
}

/// The source of a field's value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldSource {
    /// The value expression as written.
    pub text: String,
    /// The line it starts on.
    pub line: u32,
}

/// The line of the prototype's `data:add` in `text`, or why it cannot be edited there (not in
/// the file, made by code): to tell before an edit whether the form can write it back.
pub fn find_prototype(text: &str, at: &Locator) -> Result<u32, SourceEditError> {
    let calls = parse(without_bom(text).1)?;
    locate(&calls, at).map(|(call, _)| call.line)
}

/// `text` with the prototype's `field` set to `value`, or removed when `value` is `None` (or
/// nil). Only the field's value changes; see the module doc for what an added or removed field
/// looks like.
pub fn set_field(text: &str, at: &Locator, field: &str, value: Option<&Value>) -> Result<String, SourceEditError> {
    let (bom, text) = without_bom(text);
    let calls = parse(text)?;
    let (call, table) = locate(&calls, at)?;
    let value = value.filter(|v| **v != Value::Nil);
    let unwritable = |reason: String| SourceEditError::Unwritable {
        prototype: at.to_string(),
        field: field.to_owned(),
        line: call.line,
        reason,
    };
    if matches!(field, "_type" | "_id") && !matches!(value, Some(Value::Str(_))) {
        return Err(unwritable("`_type` and `_id` are strings and cannot be unset".to_owned()));
    }
    if let (Some(Value::Str(new_id)), "_id") = (value, field) {
        id_free(&calls, at, new_id)?;
    }
    let existing = find_field(text, table, at, field)?;
    let replacement = match (existing, value) {
        (Some(old), Some(new)) if old.literal.as_ref().is_some_and(|old| same(old, new)) => {
            return Ok(format!("{bom}{text}"));
        }
        (Some(old), Some(new)) => {
            let written = literal::write(new, style(table, Some(old))).map_err(|no| unwritable(no.to_string()))?;
            (old.value.clone(), written)
        }
        (Some(old), None) => removal(text, table, old),
        (None, Some(new)) => {
            let written = literal::write(new, style(table, None)).map_err(|no| unwritable(no.to_string()))?;
            addition(text, table, field, &written)
        }
        (None, None) => return Ok(format!("{bom}{text}")),
    };
    Ok(format!("{bom}{}", splice(text, replacement.0, &replacement.1)))
}

/// `text` with a copy of the prototype's `data:add` statement, whose `_id` is `new_short_id`,
/// after it (a copy of its entry after the entry, in a `data:add_multi` list); and the line of
/// the copy's `data:add` (of the copied entry).
pub fn duplicate(text: &str, at: &Locator, new_short_id: &str) -> Result<(String, u32), SourceEditError> {
    let (bom, text) = without_bom(text);
    let calls = parse(text)?;
    let (call, table) = locate(&calls, at)?;
    let statement = statement_of(call, at)?;
    id_free(&calls, at, new_short_id)?;
    let (edited, line) = match &call.listed {
        Some(listed) => {
            let copy = with_id(text, table, at, listed.entry.clone(), new_short_id)?;
            listed::duplicate_entry(text, call, listed, &copy)
        }
        None => {
            let copy = with_id(text, table, at, statement.clone(), new_short_id)?;
            let indent = indent_before(text, statement.start);
            // After the line break ending the statement's line, with a blank line before the
            // copy; else right after the statement.
            let (at_byte, before, after) = match &call.statement_break {
                Some(line_break) => (line_break.end, &text[line_break.clone()], &text[line_break.clone()]),
                None => (statement.end, "\n\n", ""),
            };
            let edited = splice(text, at_byte..at_byte, &format!("{before}{indent}{copy}{after}"));
            let line = line_at(&edited, at_byte + before.len() + indent.len());
            (edited, line)
        }
    };
    Ok((format!("{bom}{edited}"), line))
}

/// The prototype's `data:add` statement as written in `text`, with `_id` made `new_short_id`
/// (its quotes kept): a copy to put in this file or another. An entry of a `data:add_multi`
/// list becomes `data:add` of its table, with the list's `_type` added as its first field and
/// the indentation the list gave it taken off.
pub fn copy_of(text: &str, at: &Locator, new_short_id: &str) -> Result<String, SourceEditError> {
    let text = without_bom(text).1;
    let calls = parse(text)?;
    let (call, table) = locate(&calls, at)?;
    let statement = statement_of(call, at)?;
    let Some(listed) = &call.listed else { return with_id(text, table, at, statement, new_short_id) };
    listed::as_statement(text, table, at, listed, new_short_id)
}

/// The text of `span` (a statement or an entry holding `table`) with its `_id` made
/// `new_short_id`, its quotes kept.
fn with_id(
    text: &str,
    table: &Table,
    at: &Locator,
    span: Range<usize>,
    new_short_id: &str,
) -> Result<String, SourceEditError> {
    let id = find_field(text, table, at, "_id")?.map(|f| (f.value.clone(), f.quote.unwrap_or(Quote::Double)));
    let mut copy = text[span.clone()].to_owned();
    if let Some((id, quote)) = id {
        let mut written = String::new();
        literal::quote(new_short_id, quote, &mut written);
        copy = splice(&copy, id.start - span.start..id.end - span.start, &written);
    }
    Ok(copy)
}

/// `text` with `statement` (a whole `data:add { ... }` adding `short_id` of `data_type`)
/// appended at its end after a blank line; and the line the statement starts on. Refused when
/// the file already adds that id for that type.
pub fn append(text: &str, data_type: &str, short_id: &str, statement: &str) -> Result<(String, u32), SourceEditError> {
    let calls = parse(without_bom(text).1)?;
    let at = Locator { data_type, short_id, line: 0 };
    if let Some(taken) =
        calls.iter().find(|c| c.string_field("_type") == Some(data_type) && c.string_field("_id") == Some(short_id))
    {
        return Err(SourceEditError::IdTaken { prototype: at.to_string(), line: taken.line });
    }
    let body = text.trim_end_matches(['\n', '\r', ' ', '\t']);
    let newline = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let gap = if body.is_empty() { String::new() } else { format!("{newline}{newline}") };
    let edited = format!("{body}{gap}{statement}{newline}");
    let line = line_at(&edited, body.len() + gap.len());
    Ok((edited, line))
}

/// A new `data:add { ... }` statement adding `short_id` of `data_type` with `fields`, one a
/// line, indented as the file's other tables are (three spaces, OpenNefia's, when it has none).
pub fn new_statement(
    text: &str,
    data_type: &str,
    short_id: &str,
    fields: &[(&str, &Value)],
) -> Result<String, SourceEditError> {
    let text = without_bom(text).1;
    let calls = parse(text)?;
    let indent = calls
        .iter()
        .filter(|c| c.listed.is_none())
        .filter_map(|c| c.table.as_ref()?.fields.first())
        .map(|f| &text[line_start(text, f.span.start)..f.span.start])
        .find(|indent| !indent.is_empty() && only_blanks(indent))
        .unwrap_or("   ");
    let prototype = Locator { data_type, short_id, line: 0 }.to_string();
    let mut out = String::from("data:add {\n");
    let id = Value::str(short_id);
    let data_type = Value::str(data_type);
    for (name, value) in [("_type", &data_type), ("_id", &id)].into_iter().chain(fields.iter().copied()) {
        let written = literal::write(value, Style { quote: Quote::Double, padded: true }).map_err(|reason| {
            SourceEditError::Unwritable {
                prototype: prototype.clone(),
                field: name.to_owned(),
                line: 0,
                reason: reason.to_string(),
            }
        })?;
        out.push_str(indent);
        if literal::is_name(name) {
            out.push_str(name);
        } else {
            out.push('[');
            literal::quote(name, Quote::Double, &mut out);
            out.push(']');
        }
        out.push_str(" = ");
        out.push_str(&written);
        out.push_str(",\n");
    }
    out.push('}');
    Ok(out)
}

/// The `_type` and `_id` of every `data:add` of `text` that writes both as string literals
/// (and of every entry of a `data:add_multi` list whose type is a literal and whose entry
/// writes its `_id` so): the prototypes the file adds as a table the forms can edit.
pub fn prototypes_in(text: &str) -> Result<Vec<(String, String)>, SourceEditError> {
    Ok(parse(without_bom(text).1)?
        .iter()
        .filter_map(|c| Some((c.string_field("_type")?.to_owned(), c.string_field("_id")?.to_owned())))
        .collect())
}

/// The 1-based lines of `text` holding a string literal whose text is exactly `literal`
/// (as written between its quotes): where a Lua file names a prototype id. A file that does
/// not tokenize gives the literals read before the error.
pub fn lines_naming(text: &str, literal: &str) -> Vec<u32> {
    use full_moon::tokenizer::{Lexer, LexerResult, TokenType};
    let text = without_bom(text).1;
    let tokens = match Lexer::new(text, full_moon::LuaVersion::lua54()).collect() {
        LexerResult::Ok(tokens) | LexerResult::Recovered(tokens, _) => tokens,
        LexerResult::Fatal(_) => Vec::new(),
    };
    tokens
        .iter()
        .filter(|t| matches!(t.token_type(), TokenType::StringLiteral { literal: l, .. } if l.as_str() == literal))
        .map(|t| u32::try_from(t.start_position().line()).unwrap_or(u32::MAX))
        .collect()
}

/// `text` without the prototype's `data:add` statement (without its entry and the entry's
/// separator, in a `data:add_multi` list).
pub fn remove(text: &str, at: &Locator) -> Result<String, SourceEditError> {
    let (bom, text) = without_bom(text);
    let calls = parse(text)?;
    let (call, _) = locate(&calls, at)?;
    let statement = statement_of(call, at)?;
    let start = line_start(text, statement.start);
    let range = match &call.statement_break {
        Some(line_break) if only_blanks(&text[start..statement.start]) => {
            let blank_before = start == 0 || blank_line_before(text, start);
            let next = line_break.end;
            match text[next..].find('\n') {
                Some(end) if blank_before && only_blanks(text[next..next + end].trim_end_matches('\r')) => {
                    start..next + end + 1
                }
                _ => start..next,
            }
        }
        _ => statement.start..skip_blanks(text, statement.end),
    };
    Ok(format!("{bom}{}", splice(text, range, "")))
}

/// The source text of the prototype's `field` value and its line, or `None` if the table does
/// not set it (for showing a function's source, read-only).
pub fn field_source(text: &str, at: &Locator, field: &str) -> Result<Option<FieldSource>, SourceEditError> {
    let text = without_bom(text).1;
    let calls = parse(text)?;
    let (_, table) = locate(&calls, at)?;
    Ok(find_field(text, table, at, field)?
        .map(|f| FieldSource { text: text[f.value.clone()].to_owned(), line: line_at(text, f.value.start) }))
}

/// The line each item of the prototype's list `field` begins on (`rules = { {…}, {…} }`: one
/// line per rule, in order), or `None` if the table does not set the field.
pub fn item_lines(text: &str, at: &Locator, field: &str) -> Result<Option<Vec<u32>>, SourceEditError> {
    let text = without_bom(text).1;
    let calls = parse(text)?;
    let (_, table) = locate(&calls, at)?;
    Ok(find_field(text, table, at, field)?.map(|f| f.items.iter().map(|&start| line_at(text, start)).collect()))
}

/// The byte order mark starting `text`, if any, and the text after it: Lua text as LuaJIT's
/// lexer (OpenNefia's loader) reads it. Lines are the same with or without it.
pub fn without_bom(text: &str) -> (&str, &str) {
    match text.strip_prefix('\u{feff}') {
        Some(rest) => (&text[..text.len() - rest.len()], rest),
        None => ("", text),
    }
}

fn parse(text: &str) -> Result<Vec<DataAdd>, SourceEditError> {
    syntax::data_adds(text).map_err(|e| SourceEditError::Parse { line: e.line, message: e.message })
}

/// The call that writes the prototype out, and its table.
fn locate<'c>(calls: &'c [DataAdd], at: &Locator) -> Result<(&'c DataAdd, &'c Table), SourceEditError> {
    let distance = |c: &&DataAdd| match at.line {
        0 => 0,
        line if (c.line..=c.end_line).contains(&line) => 0,
        line => line.abs_diff(c.line).min(line.abs_diff(c.end_line)),
    };
    let made_by_code =
        |call: &DataAdd, why: String| SourceEditError::MadeByCode { prototype: at.to_string(), line: call.line, why };
    let literal = calls
        .iter()
        .filter(|c| c.string_field("_type") == Some(at.data_type) && c.string_field("_id") == Some(at.short_id))
        .min_by_key(distance);
    if let Some(call) = literal {
        return match (call.enclosing, &call.table) {
            (None, Some(table)) => Ok((call, table)),
            (Some(inside), _) => Err(made_by_code(call, format!("it runs inside {inside}"))),
            (None, None) => Err(made_by_code(call, "its argument is not a table constructor".to_owned())),
        };
    }
    // Calls that could make it: their type is this one or not a literal, and their id is not
    // a literal.
    let computed: Vec<&DataAdd> = calls
        .iter()
        .filter(|c| c.string_field("_id").is_none() && c.string_field("_type").is_none_or(|t| t == at.data_type))
        .collect();
    if at.line != 0
        && let Some(call) = computed.iter().find(|c| distance(c) == 0)
    {
        let why = match (&call.table, call.enclosing) {
            (None, _) => "its argument is not a table constructor".to_owned(),
            (Some(_), Some(inside)) => format!("its `_id` is computed, inside {inside}"),
            (Some(_), None) => "its `_id` is computed".to_owned(),
        };
        return Err(made_by_code(call, why));
    }
    let lines: Vec<String> = computed.iter().map(|c| c.line.to_string()).collect();
    let code = match &lines[..] {
        [] => String::new(),
        [line] => format!(", though the `data:add` made by code at line {line} may make it"),
        lines => format!(", though the `data:add` calls made by code at lines {} may make it", lines.join(", ")),
    };
    Err(SourceEditError::NotFound { data_type: at.data_type.to_owned(), short_id: at.short_id.to_owned(), code })
}

/// Refuses `new_id` when a `data:add` of the file already has it for the prototype's type
/// (its own `_id` is free: setting `_id` to the value it has changes nothing).
fn id_free(calls: &[DataAdd], at: &Locator, new_id: &str) -> Result<(), SourceEditError> {
    let taken = calls.iter().find(|c| {
        new_id != at.short_id && c.string_field("_type") == Some(at.data_type) && c.string_field("_id") == Some(new_id)
    });
    match taken {
        Some(taken) => Err(SourceEditError::IdTaken {
            prototype: Locator { short_id: new_id, ..*at }.to_string(),
            line: taken.line,
        }),
        None => Ok(()),
    }
}

fn statement_of(call: &DataAdd, at: &Locator) -> Result<Range<usize>, SourceEditError> {
    call.statement.clone().ok_or_else(|| SourceEditError::NotAStatement { prototype: at.to_string(), line: call.line })
}

/// The field of `table` named `field`, if it sets it once.
fn find_field<'t>(
    text: &str,
    table: &'t Table,
    at: &Locator,
    field: &str,
) -> Result<Option<&'t FieldSpan>, SourceEditError> {
    let mut found = table.fields.iter().filter(|f| f.name.as_deref() == Some(field));
    match (found.next(), found.next()) {
        (Some(first), Some(second)) => Err(SourceEditError::FieldTwice {
            prototype: at.to_string(),
            field: field.to_owned(),
            lines: [first, second].into_iter().chain(found).map(|f| line_at(text, f.span.start)).collect(),
        }),
        (first, _) => Ok(first),
    }
}

/// How to write a new value: the old value's quote, else double quotes; the padding of the old
/// value's table if it is a one-line table, else of the first one-line table of the others.
fn style(table: &Table, old: Option<&FieldSpan>) -> Style {
    let padded = old
        .and_then(|f| f.one_line_table)
        .or_else(|| table.fields.iter().find_map(|f| f.one_line_table))
        .unwrap_or(true);
    Style { quote: old.and_then(|f| f.quote).unwrap_or(Quote::Double), padded }
}

/// A field of a `data:add` table written as a plain literal (a string, number, boolean or a
/// table of them): what a form edits in place, and what the editor reads its value from.
#[derive(Debug, Clone, PartialEq)]
pub struct LiteralField {
    /// The line of its `data:add` call.
    pub line: u32,
    /// The value as written.
    pub written: String,
    /// The value the editor reads from it.
    pub value: Value,
}

/// Every literal field of every `data:add` table in `text` (see [`LiteralField`]): the text a
/// form would keep and the value it reads, so a test can hold the reading to Lua's own.
pub fn literal_fields(text: &str) -> Result<Vec<LiteralField>, SourceEditError> {
    let text = without_bom(text).1;
    let mut fields = Vec::new();
    for call in parse(text)? {
        for field in call.table.iter().flat_map(|table| &table.fields) {
            if let Some(value) = &field.literal {
                let written = text[field.value.clone()].to_owned();
                fields.push(LiteralField { line: call.line, written, value: value.clone() });
            }
        }
    }
    Ok(fields)
}

/// Whether two values are the same to Lua: floats by their bits (so `-0.0` is not `0.0`), an
/// empty list and an empty map alike.
pub fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Float(x), Value::Float(y)) => x.to_bits() == y.to_bits(),
        (Value::List(x), Value::List(y)) => x.len() == y.len() && x.iter().zip(y.iter()).all(|(x, y)| same(x, y)),
        (Value::Map(x), Value::Map(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|((kx, x), (ky, y))| kx == ky && same(x, y))
        }
        (Value::List(list), Value::Map(map)) | (Value::Map(map), Value::List(list)) => {
            list.is_empty() && map.is_empty()
        }
        _ => a == b,
    }
}

/// The span and text that add `field = written` after the table's last field.
fn addition(text: &str, table: &Table, field: &str, written: &str) -> (Range<usize>, String) {
    let mut key = String::new();
    if literal::is_name(field) {
        key.push_str(field);
    } else {
        key.push('[');
        literal::quote(field, Quote::Double, &mut key);
        key.push(']');
    }
    let Some(last) = table.fields.last() else {
        return (table.open.end..table.open.end, format!(" {key} = {written} "));
    };
    let assign = &text[last.key_end..last.value.start];
    let assign = if last.key_end < last.value.start && !assign.contains('\n') { assign } else { " = " };
    let entry = format!("{key}{assign}{written}");
    let separator = last.separator.clone().map_or("", |s| &text[s]);
    let multi_line = text[table.open.end..table.close.start].contains('\n');
    match (multi_line, &last.separator) {
        (true, _) => {
            let start = line_start(text, last.span.start);
            let indent = &text[start..skip_blanks(text, start)];
            // Without a separator the last field gets a comma and the new one, now last, none.
            let comma = if last.separator.is_none() { "," } else { "" };
            match &last.line_break {
                Some(line_break) => {
                    let newline = &text[line_break.clone()];
                    let after = last.separator.as_ref().map_or(last.value.end, |s| s.end);
                    let mut inserted = format!("{newline}{indent}{entry}{separator}");
                    if comma.is_empty() {
                        (line_break.start..line_break.start, inserted)
                    } else {
                        // The comma goes right after the value, before any comment on its line.
                        inserted.insert_str(0, &text[after..line_break.start]);
                        inserted.insert_str(0, comma);
                        (after..line_break.start, inserted)
                    }
                }
                None => {
                    let after = last.separator.as_ref().map_or(last.value.end, |s| s.end);
                    (after..after, format!("{comma}\n{indent}{entry}{separator}"))
                }
            }
        }
        (false, Some(sep)) => {
            let gap = one_line_gap(text, table);
            (sep.end..sep.end, format!("{gap}{entry}{separator}"))
        }
        (false, None) => {
            let gap = one_line_gap(text, table);
            (last.value.end..last.value.end, format!(",{gap}{entry}"))
        }
    }
}

/// The spaces between two fields of a one-line table: what is between the last two, else one.
fn one_line_gap<'t>(text: &'t str, table: &Table) -> &'t str {
    match table.fields.iter().rev().take(2).collect::<Vec<_>>()[..] {
        [last, previous] => match &previous.separator {
            Some(sep) if only_blanks(&text[sep.end..last.span.start]) => &text[sep.end..last.span.start],
            _ => " ",
        },
        _ => " ",
    }
}

/// The span that removes `field` from `table`: its whole line when it has one of its own.
fn removal(text: &str, table: &Table, field: &FieldSpan) -> (Range<usize>, String) {
    let start = line_start(text, field.span.start);
    if let Some(line_break) = &field.line_break
        && only_blanks(&text[start..field.span.start])
    {
        return (start..line_break.end, String::new());
    }
    if let Some(sep) = &field.separator {
        return (field.span.start..skip_blanks(text, sep.end), String::new());
    }
    // The last field, without a separator: its previous one's separator goes with it.
    let previous = table.fields.iter().take_while(|f| f.span.start < field.span.start).last();
    match previous.and_then(|p| p.separator.clone()) {
        Some(sep) if only_blanks(&text[sep.end..field.span.start]) => (sep.start..field.span.end, String::new()),
        _ => (field.span.start..field.span.end, String::new()),
    }
}

fn splice(text: &str, range: Range<usize>, with: &str) -> String {
    let mut out = String::with_capacity(text.len() + with.len());
    out.push_str(&text[..range.start]);
    out.push_str(with);
    out.push_str(&text[range.end..]);
    out
}

fn only_blanks(s: &str) -> bool {
    s.bytes().all(|b| b == b' ' || b == b'\t')
}

/// The blanks from the start of `at`'s line to `at`, or "" when anything else is there.
fn indent_before(text: &str, at: usize) -> &str {
    let indent = &text[line_start(text, at)..at];
    if only_blanks(indent) { indent } else { "" }
}

/// The first byte at or after `at` that is not a space or a tab.
fn skip_blanks(text: &str, at: usize) -> usize {
    at + text[at..].len() - text[at..].trim_start_matches([' ', '\t']).len()
}

/// The first byte of the line holding byte `at`.
fn line_start(text: &str, at: usize) -> usize {
    text[..at].rfind('\n').map_or(0, |i| i + 1)
}

/// Whether the line before the one starting at `start` holds only blanks.
fn blank_line_before(text: &str, start: usize) -> bool {
    let previous = &text[..start.saturating_sub(1)];
    only_blanks(previous[line_start(previous, previous.len())..].trim_end_matches('\r'))
}

/// The 1-based line of byte `at`.
fn line_at(text: &str, at: usize) -> u32 {
    u32::try_from(text[..at].matches('\n').count() + 1).unwrap_or(u32::MAX)
}
