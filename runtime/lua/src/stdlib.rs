//! The standard library functions that could run long, or allocate without bound, inside one
//! C call — where the instruction-count hook of [`super::limits`] never fires — replaced by
//! versions that keep to the limits: the pattern functions (`patterns.rs`),
//! `string.rep` (its result's size is checked before it is made) and `table.concat` (it asks
//! the limits as it goes and checks the size). `table.sort` needs nothing: a Lua comparator
//! runs Lua instructions, and the default order is bounded by the table's size.

use mlua::{Function, Lua, Table, Value};

use super::{engine, rt_error};

/// The largest string `string.rep` or `table.concat` makes when no memory limit is set.
pub const MAX_STRING_BYTES: usize = 1 << 30;

/// Items `table.concat` joins between two checks of the limits.
const CONCAT_CHECK_EVERY: i64 = 4096;

/// How many bytes a new string may have: what the memory limit leaves, or
/// [`MAX_STRING_BYTES`].
fn bytes_left(lua: &Lua) -> usize {
    match engine(lua).limits.memory() {
        Some(limit) => limit.saturating_sub(super::heap::held(lua)),
        None => MAX_STRING_BYTES,
    }
}

fn too_large(lua: &Lua, function: &str, size: Option<usize>) -> mlua::Error {
    let size = size.map_or_else(|| "more than can be counted".to_owned(), |s| s.to_string());
    rt_error(
        lua,
        format!(
            "{function} would make a string of {size} bytes, more than the {} bytes the memory limit leaves; \
             make it smaller or raise the limit",
            bytes_left(lua)
        ),
    )
}

/// `string.rep(s, n [, sep])`, with the result's size checked first.
fn rep(
    lua: &Lua,
    original: &Function,
    (text, n, sep): (mlua::String, i64, Option<mlua::String>),
) -> mlua::Result<Value> {
    if n > 0 {
        let count = usize::try_from(n).ok();
        let sep_len = sep.as_ref().map_or(0, |s| s.as_bytes().len());
        let size = count.and_then(|n| text.as_bytes().len().checked_mul(n)?.checked_add(sep_len.checked_mul(n - 1)?));
        if size.is_none_or(|size| size > bytes_left(lua)) {
            return Err(too_large(lua, "string.rep", size));
        }
    }
    original.call((text, n, sep))
}

/// `table.concat(list [, sep [, i [, j]]])`, asking the limits as it goes.
fn concat(
    lua: &Lua,
    (list, sep, i, j): (Table, Option<mlua::String>, Option<i64>, Option<i64>),
) -> mlua::Result<mlua::String> {
    let sep = sep.map(|s| s.as_bytes().to_vec()).unwrap_or_default();
    let first = i.unwrap_or(1);
    let last = match j {
        Some(j) => j,
        None => list.len()?,
    };
    let limit = bytes_left(lua);
    let mut out: Vec<u8> = Vec::new();
    let mut index = first;
    while index <= last {
        if (index - first) % CONCAT_CHECK_EVERY == CONCAT_CHECK_EVERY - 1
            && let Some(reason) = engine(lua).limits.interrupted()
        {
            return Err(rt_error(lua, reason));
        }
        match list.get::<Value>(index)? {
            Value::String(s) => out.extend_from_slice(&s.as_bytes()),
            number @ (Value::Integer(_) | Value::Number(_)) => out.extend_from_slice(
                lua.coerce_string(number)?.map(|s| s.as_bytes().to_vec()).unwrap_or_default().as_slice(),
            ),
            other => {
                return Err(rt_error(
                    lua,
                    format!("invalid value (at index {index}) in table for 'concat': a {}", other.type_name()),
                ));
            }
        }
        if index < last {
            out.extend_from_slice(&sep);
        }
        if out.len() > limit {
            return Err(too_large(lua, "table.concat", Some(out.len())));
        }
        index += 1;
    }
    lua.create_string(&out)
}

/// Replaces the long-running functions of the raw `string` and `table` libraries (before
/// the sandbox makes its read-only views of them).
pub fn install(lua: &Lua) -> mlua::Result<()> {
    let globals = lua.globals();
    let string: Table = globals.raw_get("string")?;
    super::patterns::install(lua, &string)?;
    let original_rep: Function = string.raw_get("rep")?;
    string.raw_set("rep", lua.create_function(move |lua, args| rep(lua, &original_rep, args))?)?;
    let table: Table = globals.raw_get("table")?;
    table.raw_set("concat", lua.create_function(concat)?)?;
    Ok(())
}
