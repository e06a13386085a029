//! Writing a [`Value`] as a Lua literal that reads back as the same value.

use std::fmt::Write;

use super::syntax::Quote;
use crate::value::{Key, Value};

/// How to write a value: the quote for its strings and whether its tables have a space inside
/// their braces.
#[derive(Debug, Clone, Copy)]
pub(super) struct Style {
    /// The quote of strings.
    pub quote: Quote,
    /// `{ 1, 2 }` rather than `{1, 2}`.
    pub padded: bool,
}

/// Why a value has no Lua literal.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum NoLiteral {
    /// A `nil` inside a table (it would drop the entry).
    #[error("a nil inside a table cannot be written")]
    NilInTable,
    /// A float that is not finite.
    #[error("the float {0} has no Lua literal")]
    NotFinite(f64),
    /// An object reference (it lives only in a running world).
    #[error("an object reference (uid {0:?}) cannot be written in a Lua file")]
    Object(crate::object::Uid),
}

/// `value` as a Lua expression, or why it has none: an object reference, a float that is not
/// finite, or a `nil` inside a table.
pub(super) fn write(value: &Value, style: Style) -> Result<String, NoLiteral> {
    let mut out = String::new();
    write_into(value, style, &mut out)?;
    Ok(out)
}

fn write_into(value: &Value, style: Style, out: &mut String) -> Result<(), NoLiteral> {
    match value {
        Value::Nil => return Err(NoLiteral::NilInTable),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        // `-9223372036854775808` would read as a float (the minus applies to a literal too
        // large for an integer); the hexadecimal literal wraps to the integer.
        Value::Int(i64::MIN) => out.push_str("0x8000000000000000"),
        Value::Int(i) => push(out, format_args!("{i}")),
        // Debug writes the shortest text that reads back as the same float, always with a `.`
        // or an exponent, so Lua reads a float and not an integer.
        Value::Float(x) if x.is_finite() => push(out, format_args!("{x:?}")),
        Value::Float(x) => return Err(NoLiteral::NotFinite(*x)),
        Value::Str(s) => quote(s, style.quote, out),
        Value::List(items) => {
            let entries = items.iter().map(|item| (None, item));
            table(entries, items.is_empty(), style, out)?;
        }
        Value::Map(map) => table(map.iter().map(|(key, v)| (Some(key), v)), map.is_empty(), style, out)?,
        Value::Object(uid) => return Err(NoLiteral::Object(*uid)),
    }
    Ok(())
}

/// A table constructor of `entries` on one line: keyed ones as `name = v`, `["key"] = v` or
/// `[3] = v`, positional ones as `v`.
fn table<'v>(
    entries: impl Iterator<Item = (Option<&'v Key>, &'v Value)>,
    empty: bool,
    style: Style,
    out: &mut String,
) -> Result<(), NoLiteral> {
    if empty {
        out.push_str("{}");
        return Ok(());
    }
    out.push_str(if style.padded { "{ " } else { "{" });
    for (i, (key, value)) in entries.enumerate() {
        if i > 0 {
            out.push_str(", ");
        }
        match key {
            None => {}
            Some(Key::Str(name)) if is_name(name) => push(out, format_args!("{name} = ")),
            Some(Key::Str(name)) => {
                out.push('[');
                quote(name, style.quote, out);
                out.push_str("] = ");
            }
            Some(Key::Int(i)) => push(out, format_args!("[{i}] = ")),
        }
        write_into(value, style, out)?;
    }
    out.push_str(if style.padded { " }" } else { "}" });
    Ok(())
}

fn push(out: &mut String, args: std::fmt::Arguments) {
    // Writing to a String cannot fail.
    let _ = out.write_fmt(args);
}

/// True if `name` can be a table key written bare (`name = v`): an identifier and not a
/// reserved word.
pub(super) fn is_name(name: &str) -> bool {
    const RESERVED: [&str; 22] = [
        "and", "break", "do", "else", "elseif", "end", "false", "for", "function", "goto", "if", "in", "local", "nil",
        "not", "or", "repeat", "return", "then", "true", "until", "while",
    ];
    crate::value::is_identifier(name) && !RESERVED.contains(&name)
}

/// `s` as a quoted Lua string: backslashes, the quote and control characters escaped, other
/// characters (UTF-8 included) as they are.
pub(super) fn quote(s: &str, quote: Quote, out: &mut String) {
    let mark = match quote {
        Quote::Double => '"',
        Quote::Single => '\'',
    };
    out.push(mark);
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            // Three digits always, so a digit after it is not read as part of the escape.
            c if c.is_ascii_control() => push(out, format_args!("\\{:03}", c as u32)),
            c if c == mark => {
                out.push('\\');
                out.push(c);
            }
            c => out.push(c),
        }
    }
    out.push(mark);
}
