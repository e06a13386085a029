//! A locale file's keys (`mods/<mod>/locale/<lang>/*.lua`, OpenNefia's shape: a chunk that
//! returns nested tables) read with their lines, and a key's text written back byte-exactly:
//! what `nefia check --locale`, the type definitions and the editor's Locale pane read and the
//! Locale pane writes.
//!
//! Keys are made as OpenNefia's loader makes them (`reify_one` in its
//! module `internal.i18n`): a table of keys adds a `.`-joined part per level; a string,
//! a function or a list (a table with a first positional value) is one key's value. A name in
//! the returned table that is a `local` of the file set to a table constructor (OpenNefia's
//! `damage.lua`: `local damage = { ... }` ... `return { damage = { weapon = { elona = damage } } }`)
//! is read as that table.

use std::collections::HashMap;
use std::ops::Range;

use full_moon::LuaVersion;
use full_moon::ast::{Expression, Field, LastStmt, Stmt, TableConstructor, Var};

use super::literal::{self, Style};
use super::syntax::{Quote, Table, read_table};
use super::{SourceEditError, splice, without_bom};
use crate::value::Value;

/// One key of a locale file.
#[derive(Debug, Clone, PartialEq)]
pub struct LocaleEntry {
    /// The key within its namespace: `chara._.elona.putit.name`.
    pub key: String,
    /// The line of its key in the file (1-based).
    pub line: u32,
    /// Its text, when its value is a string literal; `None` for a function or a list.
    pub text: Option<String>,
}

/// A key's value read for writing: where it is and how it is quoted.
struct Found {
    entry: LocaleEntry,
    value: Range<usize>,
    quote: Option<Quote>,
}

/// What a walk of the file finds: the keys, and each table of keys by its key prefix (`""`
/// for the returned table) to add a key to.
#[derive(Default)]
struct Walk {
    keys: Vec<Found>,
    tables: Vec<(String, Table)>,
}

/// Every key of the locale file `text`, in source order.
pub fn locale_entries(text: &str) -> Result<Vec<LocaleEntry>, SourceEditError> {
    Ok(walk(without_bom(text).1)?.keys.into_iter().map(|found| found.entry).collect())
}

/// `text` with key `key`'s text set to `new`: the string literal replaced (in its own quotes),
/// or, for a key the file lacks, a field added to the deepest table of keys on its path (with
/// the tables it needs). A key whose value is a function or a list is refused, naming its line.
pub fn set_locale_text(text: &str, key: &str, new: &str) -> Result<String, SourceEditError> {
    let (bom, body) = without_bom(text);
    let walked = walk(body)?;
    let unwritable = |line: u32, reason: String| SourceEditError::Unwritable {
        prototype: "the locale file".to_owned(),
        field: key.to_owned(),
        line,
        reason,
    };
    if let Some(found) = walked.keys.iter().find(|found| found.entry.key == key) {
        if found.entry.text.is_none() {
            return Err(unwritable(found.entry.line, "its value is a function or a list: edit it in the file".into()));
        }
        if found.entry.text.as_deref() == Some(new) {
            return Ok(text.to_owned());
        }
        let style = Style { quote: found.quote.unwrap_or(Quote::Double), padded: true };
        let written =
            literal::write(&Value::str(new), style).map_err(|no| unwritable(found.entry.line, no.to_string()))?;
        return Ok(format!("{bom}{}", splice(body, found.value.clone(), &written)));
    }
    if let Some(found) = walked.keys.iter().find(|found| key.starts_with(&format!("{}.", found.entry.key))) {
        let reason = format!("`{}` is a value, not a table of keys", found.entry.key);
        return Err(unwritable(found.entry.line, reason));
    }
    let (prefix, table) = walked
        .tables
        .iter()
        .filter(|(prefix, _)| prefix.is_empty() || key.starts_with(&format!("{prefix}.")))
        .max_by_key(|(prefix, _)| prefix.len())
        .ok_or_else(|| unwritable(0, "the file returns no table of keys".into()))?;
    let rest = if prefix.is_empty() { key } else { &key[prefix.len() + 1..] };
    let mut parts = rest.split('.');
    let first = parts.next().unwrap_or(rest);
    let style = Style { quote: Quote::Double, padded: true };
    let mut written = literal::write(&Value::str(new), style).map_err(|no| unwritable(0, no.to_string()))?;
    for part in parts.rev() {
        written = format!("{{ {} = {written} }}", field_key(part));
    }
    let (range, addition) = super::addition(body, table, first, &written);
    Ok(format!("{bom}{}", splice(body, range, &addition)))
}

/// A key part as a field's key: a name, or `["..."]`.
fn field_key(part: &str) -> String {
    if literal::is_name(part) {
        return part.to_owned();
    }
    let mut key = "[".to_owned();
    literal::quote(part, Quote::Double, &mut key);
    key.push(']');
    key
}

/// Reads the file: its returned table, through the `local`s set to tables.
fn walk(text: &str) -> Result<Walk, SourceEditError> {
    let ast = full_moon::parse_fallible(text, LuaVersion::lua54()).into_result().map_err(|errors| {
        let first = errors.first();
        SourceEditError::Parse {
            line: first.map_or(0, |e| u32::try_from(e.range().0.line()).unwrap_or(u32::MAX)),
            message: first.map_or_else(|| "unknown error".to_owned(), ToString::to_string),
        }
    })?;
    let block = ast.nodes();
    let mut locals: HashMap<String, &TableConstructor> = HashMap::new();
    for stmt in block.stmts() {
        if let Stmt::LocalAssignment(assignment) = stmt {
            for (name, value) in assignment.names().iter().zip(assignment.expressions().iter()) {
                if let Expression::TableConstructor(table) = value {
                    locals.insert(name.token().to_string(), table);
                }
            }
        }
    }
    let mut walked = Walk::default();
    if let Some(LastStmt::Return(ret)) = block.last_stmt()
        && let Some(returned) = ret.returns().iter().next()
        && let Some(table) = table_of(returned, &locals)
    {
        let breaks: Vec<usize> = text.match_indices('\n').map(|(at, _)| at).collect();
        keys_of(&breaks, table, "", &locals, &mut walked, 0);
    }
    Ok(walked)
}

/// The table constructor `expr` is, directly or as a `local` set to one.
fn table_of<'a>(expr: &'a Expression, locals: &HashMap<String, &'a TableConstructor>) -> Option<&'a TableConstructor> {
    match expr {
        Expression::TableConstructor(table) => Some(table),
        Expression::Var(Var::Name(name)) => locals.get(&name.token().to_string()).copied(),
        _ => None,
    }
}

/// How deep tables of keys are read (a `local` naming itself goes no further).
const MAX_DEPTH: usize = 32;

/// Walks `table`'s keys under `prefix`; `breaks` are the file's line breaks (their bytes).
fn keys_of<'a>(
    breaks: &[usize],
    table: &'a TableConstructor,
    prefix: &str,
    locals: &HashMap<String, &'a TableConstructor>,
    walked: &mut Walk,
    depth: usize,
) {
    let Some(spans) = read_table(table) else { return };
    if depth > MAX_DEPTH {
        return;
    }
    for (field, span) in table.fields().iter().zip(&spans.fields) {
        let (Some(name), value) = (span.name.as_deref(), field_value(field)) else { continue };
        let key = if prefix.is_empty() { name.to_owned() } else { format!("{prefix}.{name}") };
        let line = line_at(breaks, span.span.start);
        match value.and_then(|value| table_of(value, locals)) {
            Some(inner) if !inner.fields().iter().any(|f| matches!(f, Field::NoKey(_))) => {
                keys_of(breaks, inner, &key, locals, walked, depth + 1);
            }
            _ => {
                let text = match &span.literal {
                    Some(Value::Str(s)) => Some(s.to_string()),
                    _ => None,
                };
                let entry = LocaleEntry { key, line, text };
                walked.keys.push(Found { entry, value: span.value.clone(), quote: span.quote });
            }
        }
    }
    walked.tables.push((prefix.to_owned(), spans));
}

fn field_value(field: &Field) -> Option<&Expression> {
    match field {
        Field::NameKey { value, .. } | Field::ExpressionKey { value, .. } => Some(value),
        _ => None,
    }
}

/// The 1-based line of byte `at`, by the file's line `breaks`: one search, not a count of the
/// text before it for every key (which made a large file's read quadratic).
fn line_at(breaks: &[usize], at: usize) -> u32 {
    u32::try_from(breaks.partition_point(|&b| b < at) + 1).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DAMAGE: &str = "local damage = {\n   long_sword = {\n      name = \"sword\",\n   },\n}\n\nreturn {\n   damage = {\n      weapon = {\n         elona = damage\n      }\n   }\n}\n";

    #[test]
    fn keys_are_read_through_a_local_table_with_their_lines() {
        let entries = locale_entries(DAMAGE).expect("it parses");
        let expected =
            LocaleEntry { key: "damage.weapon.elona.long_sword.name".into(), line: 3, text: Some("sword".into()) };
        assert_eq!(entries, [expected]);
    }

    #[test]
    fn each_key_has_its_own_line() {
        let text = "return { top = 'a',\n  b = 'x',\n\n  c = {\n    d = 'y',\n  },\n}\n";
        let lines: Vec<(String, u32)> =
            locale_entries(text).expect("it parses").into_iter().map(|e| (e.key, e.line)).collect();
        assert_eq!(lines, [("top".into(), 1), ("b".into(), 2), ("c.d".into(), 5)]);
    }

    #[test]
    fn lists_and_functions_are_one_key_each() {
        let text = "return { a = { \"x\", \"y\" }, b = function(s) return s end, c = { d = 'e' } }";
        let keys: Vec<(String, Option<String>)> =
            locale_entries(text).expect("it parses").into_iter().map(|e| (e.key, e.text)).collect();
        assert_eq!(keys, [("a".into(), None), ("b".into(), None), ("c.d".into(), Some("e".into()))]);
    }

    #[test]
    fn a_text_is_replaced_in_its_own_quotes_and_every_other_byte_kept() {
        let text = "return { c = { d = 'e', f = \"g\" } } -- tail\n";
        let written = set_locale_text(text, "c.d", "it's").expect("written");
        assert_eq!(written, "return { c = { d = 'it\\'s', f = \"g\" } } -- tail\n");
        assert_eq!(set_locale_text(text, "c.f", "g").expect("unchanged"), text);
    }

    #[test]
    fn a_missing_key_is_added_to_the_deepest_table_on_its_path() {
        let written = set_locale_text(DAMAGE, "damage.weapon.elona.axe.name", "axe").expect("written");
        let keys: Vec<String> = locale_entries(&written).expect("it parses").into_iter().map(|e| e.key).collect();
        assert_eq!(keys, ["damage.weapon.elona.long_sword.name", "damage.weapon.elona.axe.name"], "{written}");
        assert!(
            written.starts_with("local damage = {\n   long_sword = {\n      name = \"sword\",\n   },\n"),
            "{written}"
        );
    }

    #[test]
    fn a_function_value_is_refused_naming_its_line() {
        let text = "return {\n  b = function(s) return s end,\n}\n";
        let error = set_locale_text(text, "b", "x").expect_err("refused");
        assert!(error.to_string().contains("line 2"), "{error}");
    }
}
