//! The rows the Inspector's table shows: each field the inspected objects share (with the
//! values they agree on and the declaration their data types give it), and the lines of the
//! table once table values are expanded, with the paths that reach their entries.

use std::collections::HashSet;

use nefia_game::moddable::TempValue;
use nefia_game::object::ObjectKind;
use nefia_game::value::Key;
use nefia_game::{Uid, Value};
use nefia_protocol::view::{DataTypeView, FieldRow, FieldView, ObjectDetails};

/// One field across every inspected object.
pub(super) struct SharedRow<'a> {
    pub(super) name: String,
    /// The field's row in each object.
    pub(super) rows: Vec<&'a FieldRow>,
    /// The base value if all objects agree.
    pub(super) base: Option<Option<Value>>,
    /// The temp value if all agree.
    pub(super) temp: Option<Option<&'a TempValue>>,
    pub(super) calc: Option<Value>,
    pub(super) own: bool,
    /// The field as every object's data type declares it, if they declare it alike.
    pub(super) declared: Option<&'a FieldView>,
}

/// The value every one of `values` has, if they agree.
fn agree<T: PartialEq + Clone>(values: impl Iterator<Item = T>) -> Option<T> {
    let mut values = values.peekable();
    let first = values.next()?;
    values.all(|v| v == first).then_some(first)
}

/// Whether `name` holds the letters of `filter` in order (case aside).
fn fuzzy(name: &str, filter: &str) -> bool {
    let mut letters = name.chars().map(|c| c.to_ascii_lowercase());
    filter.chars().map(|c| c.to_ascii_lowercase()).all(|wanted| letters.any(|c| c == wanted))
}

/// The field `name` as the data type of objects of `kind` declares it, if it does.
fn declared<'a>(types: &'a [DataTypeView], kind: ObjectKind, name: &str) -> Option<&'a FieldView> {
    let data_type = types.iter().find(|t| t.id.as_str() == kind.data_type())?;
    data_type.fields.iter().find(|f| f.name.as_str() == name)
}

/// The fields every object has, matching `filter`, in name order, with their declarations
/// among `types`.
pub(super) fn shared_rows<'a>(
    objects: &[&'a ObjectDetails],
    types: &'a [DataTypeView],
    filter: &str,
) -> Vec<SharedRow<'a>> {
    let Some(first) = objects.first() else { return Vec::new() };
    first
        .fields
        .iter()
        .filter(|row| fuzzy(&row.name, filter))
        .filter_map(|row| {
            let rows: Vec<&FieldRow> =
                objects.iter().map(|o| o.fields.iter().find(|r| r.name == row.name)).collect::<Option<_>>()?;
            Some(SharedRow {
                name: row.name.clone(),
                base: agree(rows.iter().map(|r| r.base.clone())),
                temp: agree(rows.iter().map(|r| r.temp.as_ref())),
                calc: agree(rows.iter().map(|r| r.calc.clone())).flatten(),
                own: rows.iter().any(|r| r.own),
                declared: agree(objects.iter().map(|o| declared(types, o.kind, &row.name))).flatten(),
                rows,
            })
        })
        .collect()
}

/// A line of the table: a field, or an entry inside an expanded table value.
pub(super) struct Line {
    pub(super) row: usize,
    pub(super) depth: usize,
    /// The keys from the field's value down to this entry.
    pub(super) keys: Vec<Key>,
    pub(super) path: String,
    pub(super) expandable: bool,
    pub(super) expanded: bool,
}

impl Line {
    /// The line's name in the field column: the field, or its entry's key.
    pub(super) fn label(&self, field: &str) -> String {
        match self.keys.last() {
            None => field.to_owned(),
            Some(Key::Int(i)) => format!("[{i}]"),
            Some(Key::Str(s)) => s.to_string(),
        }
    }
}

/// The entries of a table value, in order (none for a plain value).
pub(super) fn entries(value: &Value) -> Vec<(Key, &Value)> {
    match value {
        Value::List(items) => items.iter().enumerate().map(|(i, v)| (Key::Int(i as i64 + 1), v)).collect(),
        Value::Map(map) => map.iter().map(|(k, v)| (k.clone(), v)).collect(),
        _ => Vec::new(),
    }
}

/// The table's lines: each row, and the entries of the expanded table values under it.
pub(super) fn flatten(rows: &[SharedRow], uids: &[Uid], expanded: &HashSet<(Vec<Uid>, String)>) -> Vec<Line> {
    fn walk(
        lines: &mut Vec<Line>,
        row: usize,
        value: Option<&Value>,
        keys: Vec<Key>,
        path: String,
        uids: &[Uid],
        expanded: &HashSet<(Vec<Uid>, String)>,
    ) {
        let expandable = value.is_some_and(|v| matches!(v, Value::List(_) | Value::Map(_)));
        let is_expanded = expandable && expanded.contains(&(uids.to_vec(), path.clone()));
        lines.push(Line {
            row,
            depth: keys.len(),
            keys: keys.clone(),
            path: path.clone(),
            expandable,
            expanded: is_expanded,
        });
        if let (true, Some(value)) = (is_expanded, value) {
            for (key, child) in entries(value) {
                let mut child_keys = keys.clone();
                child_keys.push(key.clone());
                walk(lines, row, Some(child), child_keys, format!("{path}/{key}"), uids, expanded);
            }
        }
    }
    let mut lines = Vec::new();
    for (index, row) in rows.iter().enumerate() {
        let base = row.base.as_ref().and_then(Option::as_ref);
        walk(&mut lines, index, base, Vec::new(), row.name.clone(), uids, expanded);
    }
    lines
}

/// The value at `keys` inside `value`.
pub(super) fn value_at<'a>(value: &'a Value, keys: &[Key]) -> Option<&'a Value> {
    let Some((first, rest)) = keys.split_first() else { return Some(value) };
    let child = entries(value).into_iter().find(|(k, _)| k == first)?.1;
    value_at(child, rest)
}

/// `value` with the entry at `keys` replaced by `new`.
pub(super) fn replace_at(value: &Value, keys: &[Key], new: Value) -> Value {
    let Some((first, rest)) = keys.split_first() else { return new };
    match value {
        Value::List(items) => {
            let mut items = (**items).clone();
            if let Key::Int(i) = first
                && let Some(slot) = items.get_mut(*i as usize - 1)
            {
                *slot = replace_at(slot, rest, new);
            }
            Value::list(items)
        }
        Value::Map(map) => {
            let mut map = (**map).clone();
            if let Some(slot) = map.get_mut(first) {
                *slot = replace_at(slot, rest, new);
            }
            Value::Map(std::sync::Arc::new(map))
        }
        other => other.clone(),
    }
}
