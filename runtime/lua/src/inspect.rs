//! Pretty-printing Lua values for the REPL: tables expanded to a depth with cycles marked,
//! objects as `<object ('base.chara', uid 12) elona.putit>`, functions with where they were
//! defined.

/// Most entries shown per table before "… N more".
const MAX_ENTRIES: usize = 40;

/// Formats `value`, expanding tables `depth` levels deep.
pub fn inspect(value: &mlua::Value, depth: usize) -> String {
    let mut out = String::new();
    write_value(&mut out, value, depth, &mut Vec::new(), 0);
    out
}

fn write_value(
    out: &mut String,
    value: &mlua::Value,
    depth: usize,
    path: &mut Vec<*const std::ffi::c_void>,
    indent: usize,
) {
    match value {
        mlua::Value::String(s) => {
            out.push_str(&format!("{:?}", s.to_string_lossy()));
        }
        // Objects and maps (and any table that says how to show itself) as `tostring` does.
        mlua::Value::Table(table)
            if table.metatable().is_some_and(|meta| meta.contains_key("__tostring").unwrap_or(false)) =>
        {
            out.push_str(&value.to_string().unwrap_or_else(|_| "<table>".into()));
        }
        mlua::Value::Table(table) => write_table(out, table, depth, path, indent),
        mlua::Value::Function(function) => {
            let info = function.info();
            match (info.short_src, info.line_defined) {
                (Some(src), Some(line)) if info.what != "C" => {
                    out.push_str(&format!("<function {src}:{line}>"));
                }
                _ => out.push_str("<function (builtin)>"),
            }
        }
        other => match other.to_string() {
            Ok(text) => out.push_str(&text),
            Err(_) => out.push_str(&format!("<{}>", other.type_name())),
        },
    }
}

fn write_table(
    out: &mut String,
    table: &mlua::Table,
    depth: usize,
    path: &mut Vec<*const std::ffi::c_void>,
    indent: usize,
) {
    let pointer = table.to_pointer();
    if path.contains(&pointer) {
        out.push_str("<cycle>");
        return;
    }
    let mut entries: Vec<(mlua::Value, mlua::Value)> =
        table.pairs::<mlua::Value, mlua::Value>().filter_map(Result::ok).collect();
    if entries.is_empty() {
        out.push_str("{}");
        return;
    }
    if depth == 0 {
        out.push_str(&format!("{{...}} ({} entries)", entries.len()));
        return;
    }
    let len = table.raw_len();
    entries.sort_by_key(|(key, _)| match key {
        mlua::Value::Integer(i) if *i >= 1 && (*i as usize) <= len => (0, *i, String::new()),
        other => (1, 0, other.to_string().unwrap_or_default()),
    });
    path.push(pointer);
    out.push('{');
    let pad = "  ".repeat(indent + 1);
    for (shown, (key, value)) in entries.iter().enumerate() {
        if shown == MAX_ENTRIES {
            out.push_str(&format!("\n{pad}... {} more", entries.len() - MAX_ENTRIES));
            break;
        }
        out.push('\n');
        out.push_str(&pad);
        match key {
            mlua::Value::Integer(i) if *i >= 1 && (*i as usize) <= len => {}
            mlua::Value::String(s) if nefia_game::value::is_identifier(&s.to_string_lossy()) => {
                out.push_str(&format!("{} = ", s.to_string_lossy()));
            }
            other => {
                out.push('[');
                write_value(out, other, 0, path, indent + 1);
                out.push_str("] = ");
            }
        }
        write_value(out, value, depth - 1, path, indent + 1);
        out.push(',');
    }
    path.pop();
    out.push('\n');
    out.push_str(&"  ".repeat(indent));
    out.push('}');
}
