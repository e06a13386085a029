//! Lua's pattern matching (`string.find`, `match`, `gmatch`, `gsub`) under the time limit.
//!
//! The C versions of these functions run on their own: a backtracking pattern such as
//! `("a"):rep(30000):find("a*a*a*a*b")` takes minutes inside one C call, where the
//! instruction-count hook of [`super::limits`] never fires. This is the same matcher as Lua
//! 5.4's `lstrlib.c` — the same classes, sets, captures, `%b`, `%f`, back-references, anchors
//! and error messages — written so that it counts its steps and asks the limits every
//! [`CHECK_STEPS`] of them whether to stop (`patterns/matcher.rs`). This file is the four
//! functions over it.

mod matcher;

use matcher::{CHECK_STEPS, Capture, Fail, Matcher, SPECIALS};
use mlua::{Lua, MultiValue, Table, Value};

use super::{engine, rt_error};

/// Lua's `posrelatI`: a 1-based start position, negatives counted from the end.
fn start_position(init: Option<i64>, len: usize) -> usize {
    let len_i = i64::try_from(len).unwrap_or(i64::MAX);
    match init.unwrap_or(1) {
        pos if pos > 0 => usize::try_from(pos).unwrap_or(usize::MAX),
        0 => 1,
        pos if pos < -len_i => 1,
        pos => usize::try_from(len_i + pos + 1).unwrap_or(1),
    }
}

fn to_lua_captures(lua: &Lua, captures: Vec<Capture<'_>>) -> mlua::Result<MultiValue> {
    captures
        .into_iter()
        .map(|capture| match capture {
            Capture::Text(text) => lua.create_string(text).map(Value::String),
            Capture::Position(at) => Ok(Value::Integer(i64::try_from(at).unwrap_or(i64::MAX))),
        })
        .collect()
}

fn int(n: usize) -> Value {
    Value::Integer(i64::try_from(n).unwrap_or(i64::MAX))
}

/// `find` (with `find`) or `match` of `pattern` in `subject` from `init`.
fn find_or_match(
    lua: &Lua,
    (subject, pattern, init, plain): (mlua::String, mlua::String, Option<i64>, Option<bool>),
    find: bool,
) -> mlua::Result<MultiValue> {
    let (subject, pattern) = (subject.as_bytes(), pattern.as_bytes());
    let (subject, pattern): (&[u8], &[u8]) = (&subject, &pattern);
    let start = start_position(init, subject.len()) - 1;
    if start > subject.len() {
        return Ok(MultiValue::from_vec(vec![Value::Nil]));
    }
    let engine = engine(lua);
    let check = || engine.limits.interrupted();
    let fail = |message: Fail| rt_error(lua, message);
    if find && (plain == Some(true) || !pattern.iter().any(|c| SPECIALS.contains(c))) {
        return match plain_find(&subject[start..], pattern, &check).map_err(fail)? {
            Some(at) => Ok(MultiValue::from_vec(vec![int(start + at + 1), int(start + at + pattern.len())])),
            None => Ok(MultiValue::from_vec(vec![Value::Nil])),
        };
    }
    let (anchored, pattern) = match pattern.strip_prefix(b"^") {
        Some(rest) => (true, rest),
        None => (false, pattern),
    };
    let mut at = start;
    loop {
        let mut matcher = Matcher::new(subject, pattern, &check);
        if let Some(end) = matcher.do_match(at, 0).map_err(fail)? {
            let mut values = Vec::new();
            if find {
                values.extend([int(at + 1), int(end)]);
            }
            values.extend(to_lua_captures(lua, matcher.captures(at, end, !find).map_err(fail)?)?);
            return Ok(MultiValue::from_vec(values));
        }
        at += 1;
        if anchored || at > subject.len() {
            return Ok(MultiValue::from_vec(vec![Value::Nil]));
        }
    }
}

/// Where `needle` first appears in `haystack`, counting steps.
fn plain_find(haystack: &[u8], needle: &[u8], check: &dyn Fn() -> Option<String>) -> Result<Option<usize>, Fail> {
    if needle.is_empty() {
        return Ok(Some(0));
    }
    let mut steps = 0usize;
    for (at, window) in haystack.windows(needle.len()).enumerate() {
        steps += needle.len();
        if steps >= CHECK_STEPS as usize {
            steps = 0;
            if let Some(reason) = check() {
                return Err(reason);
            }
        }
        if window == needle {
            return Ok(Some(at));
        }
    }
    Ok(None)
}

/// `string.gmatch(s, pattern [, init])`: an iterator over the matches.
fn gmatch(
    lua: &Lua,
    (subject, pattern, init): (mlua::String, mlua::String, Option<i64>),
) -> mlua::Result<mlua::Function> {
    let subject = subject.as_bytes().to_vec();
    let pattern = pattern.as_bytes().to_vec();
    let mut at = start_position(init, subject.len()) - 1;
    if at > subject.len() {
        at = subject.len() + 1;
    }
    let mut last_match: Option<usize> = None;
    lua.create_function_mut(move |lua, ()| {
        let engine = engine(lua);
        let check = || engine.limits.interrupted();
        while at <= subject.len() {
            let mut matcher = Matcher::new(&subject, &pattern, &check);
            let found = matcher.do_match(at, 0).map_err(|m| rt_error(lua, m))?;
            if let Some(end) = found.filter(|&end| Some(end) != last_match) {
                let captures = matcher.captures(at, end, true).map_err(|m| rt_error(lua, m))?;
                at = end;
                last_match = Some(end);
                return to_lua_captures(lua, captures);
            }
            at += 1;
        }
        Ok(MultiValue::new())
    })
}

/// `string.gsub(s, pattern, repl [, n])`.
fn gsub(
    lua: &Lua,
    (text, pattern, repl, max): (mlua::String, mlua::String, Value, Option<i64>),
) -> mlua::Result<(mlua::String, i64)> {
    let (subject, pattern) = (text.as_bytes(), pattern.as_bytes());
    let (subject, pattern): (&[u8], &[u8]) = (&subject, &pattern);
    if !matches!(repl, Value::String(_) | Value::Integer(_) | Value::Number(_) | Value::Table(_) | Value::Function(_)) {
        return Err(rt_error(
            lua,
            format!("bad argument #3 to 'gsub' (string/function/table expected, got {})", repl.type_name()),
        ));
    }
    let engine = engine(lua);
    let check = || engine.limits.interrupted();
    let fail = |message: Fail| rt_error(lua, message);
    let (anchored, pattern) = match pattern.strip_prefix(b"^") {
        Some(rest) => (true, rest),
        None => (false, pattern),
    };
    let max = max.unwrap_or(i64::MAX);
    let mut out: Vec<u8> = Vec::with_capacity(subject.len());
    let (mut at, mut count, mut last_match) = (0usize, 0i64, None);
    let repl_text = match &repl {
        Value::String(s) => Some(s.as_bytes().to_vec()),
        Value::Integer(_) | Value::Number(_) => {
            Some(lua.coerce_string(repl.clone())?.map(|s| s.as_bytes().to_vec()).unwrap_or_default())
        }
        _ => None,
    };
    while count < max {
        let mut matcher = Matcher::new(subject, pattern, &check);
        let found = matcher.do_match(at, 0).map_err(fail)?;
        match found.filter(|&end| Some(end) != last_match) {
            Some(end) => {
                count += 1;
                let whole = &subject[at..end];
                match &repl_text {
                    Some(template) => expand_template(lua, &matcher, template, at, end, &mut out)?,
                    None => {
                        let value = match &repl {
                            Value::Table(table) => {
                                let key = to_lua_captures(lua, vec![matcher.capture(0, at, end).map_err(fail)?])?;
                                table.get::<Value>(key.into_iter().next().unwrap_or(Value::Nil))?
                            }
                            Value::Function(function) => {
                                let args = to_lua_captures(lua, matcher.captures(at, end, true).map_err(fail)?)?;
                                function.call::<Value>(args)?
                            }
                            _ => Value::Nil,
                        };
                        match value {
                            Value::Nil | Value::Boolean(false) => out.extend_from_slice(whole),
                            Value::String(s) => out.extend_from_slice(&s.as_bytes()),
                            number @ (Value::Integer(_) | Value::Number(_)) => {
                                let text =
                                    lua.coerce_string(number)?.map(|s| s.as_bytes().to_vec()).unwrap_or_default();
                                out.extend_from_slice(&text);
                            }
                            other => {
                                return Err(rt_error(
                                    lua,
                                    format!("invalid replacement value (a {})", other.type_name()),
                                ));
                            }
                        }
                    }
                }
                at = end;
                last_match = Some(end);
            }
            None if at < subject.len() => {
                out.push(subject[at]);
                at += 1;
            }
            None => break,
        }
        if anchored {
            break;
        }
    }
    if at < subject.len() {
        out.extend_from_slice(&subject[at..]);
    }
    Ok((lua.create_string(&out)?, count))
}

/// Appends a replacement string with `%0`–`%9` and `%%` expanded.
fn expand_template(
    lua: &Lua,
    matcher: &Matcher,
    template: &[u8],
    s: usize,
    e: usize,
    out: &mut Vec<u8>,
) -> mlua::Result<()> {
    let mut i = 0;
    while i < template.len() {
        let c = template[i];
        i += 1;
        if c != b'%' {
            out.push(c);
            continue;
        }
        let next = template.get(i).copied().unwrap_or(0);
        i += 1;
        match next {
            b'%' => out.push(b'%'),
            b'0' => out.extend_from_slice(&matcher.subject[s..e]),
            b'1'..=b'9' => match matcher.capture(usize::from(next - b'1'), s, e).map_err(|m| rt_error(lua, m))? {
                Capture::Text(text) => out.extend_from_slice(text),
                Capture::Position(at) => out.extend_from_slice(at.to_string().as_bytes()),
            },
            _ => return Err(rt_error(lua, "invalid use of '%' in replacement string")),
        }
    }
    Ok(())
}

/// Replaces `find`, `match`, `gmatch` and `gsub` of the string library `string` (the table
/// strings index too) with the versions that keep to the time limit.
pub(super) fn install(lua: &Lua, string: &Table) -> mlua::Result<()> {
    string.raw_set("find", lua.create_function(|lua, args| find_or_match(lua, args, true))?)?;
    string.raw_set("match", lua.create_function(|lua, args| find_or_match(lua, args, false))?)?;
    string.raw_set("gmatch", lua.create_function(gmatch)?)?;
    string.raw_set("gsub", lua.create_function(gsub)?)?;
    Ok(())
}
