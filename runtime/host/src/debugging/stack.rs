//! The paused stack as a debug adapter reads it ([`DebugQuery`]): the variables of a frame's
//! scopes by path (tables paged; a map object by its fields, each with base, temp and calc
//! and the contributions behind the temp value), evaluation in a frame, setting a variable,
//! the line breakpoints of a file, and the loaded sources.

use mlua::{Lua, Table};

use super::Debugging;
use crate::cx::Cx;
use nefia_game::Uid;
use nefia_game::field_edit::{FieldChange, change_field};
use nefia_lua::inspect::inspect;
use nefia_lua::repl;
use nefia_lua::{engine, handle};
use nefia_protocol::debugging::query::{DebugAnswer, DebugQuery, Key, Scope, SourceView, VariablePath, VariableView};
use nefia_protocol::message::HostEvent;
use nefia_protocol::view::{FieldRow, object_details};

/// What a path leads to.
enum Node {
    /// A scope of a frame.
    Scope(Table, Scope),
    /// A Lua value (a map object among them).
    Value(mlua::Value),
    /// A field of a map object.
    Field(FieldRow),
}

impl Debugging {
    /// Answers a debug adapter's query with [`HostEvent::DebugAnswer`].
    pub(crate) fn query(&self, cx: &Cx, id: u64, query: DebugQuery) {
        let lua = cx.runtime.lua();
        let answer = match query {
            DebugQuery::Variables { path, start, count } => {
                variables(lua, &path, start, count).unwrap_or_else(|error| DebugAnswer::Failed(error.to_string()))
            }
            DebugQuery::Evaluate { frame, code } => DebugAnswer::Evaluated(repl::evaluate_in_frame(lua, &code, frame)),
            DebugQuery::SetVariable { path, key, value } => {
                set_variable(lua, &path, &key, &value).unwrap_or_else(|error| DebugAnswer::Failed(error.to_string()))
            }
            DebugQuery::SetBreakpoints { path, breakpoints } => {
                let (loaded, lines) = cx.runtime.engine().debugger().set_breakpoints(lua, &path, breakpoints);
                DebugAnswer::Breakpoints { loaded, lines }
            }
            DebugQuery::Sources => DebugAnswer::Sources(sources(lua)),
        };
        cx.send(HostEvent::DebugAnswer { id, answer });
    }
}

/// The loaded files on disk, by name.
fn sources(lua: &Lua) -> Vec<SourceView> {
    let engine = engine(lua);
    let mut list: Vec<SourceView> = engine
        .sources()
        .values()
        .filter_map(|source| {
            let path = source.path.as_ref()?;
            Some(SourceView { name: source.name.as_str().to_owned(), path: std::path::absolute(path).ok()? })
        })
        .collect();
    list.sort_by(|a, b| a.name.cmp(&b.name));
    list
}

/// The node `path` leads to in the innermost break.
fn resolve(lua: &Lua, path: &VariablePath) -> mlua::Result<Node> {
    let frame = engine(lua)
        .paused_frame(path.frame)
        .ok_or_else(|| mlua::Error::runtime(format!("nothing is paused with a frame {}", path.frame)))?;
    let mut node = Node::Scope(frame, path.scope);
    for key in &path.keys {
        node = child(lua, node, key)?;
    }
    Ok(node)
}

/// The child of `node` under `key`.
fn child(lua: &Lua, node: Node, key: &Key) -> mlua::Result<Node> {
    let missing = || mlua::Error::runtime(format!("there is no {key:?} here any more"));
    match node {
        Node::Scope(frame, scope) => {
            let Key::Name(name) = key else { return Err(missing()) };
            scope_entries(&frame, scope)?
                .into_iter()
                .rev()
                .find(|(k, _)| matches!(k, Key::Name(n) if n == name))
                .map(|(_, value)| Node::Value(value))
                .ok_or_else(missing)
        }
        Node::Value(value) => {
            let engine = engine(lua);
            if let Some(uid) = handle::object_uid(&engine, &value) {
                let Key::Name(name) = key else { return Err(missing()) };
                let world = engine.world();
                let details = object_details(&world, uid).ok_or_else(missing)?;
                return details.fields.into_iter().find(|f| &f.name == name).map(Node::Field).ok_or_else(missing);
            }
            let mlua::Value::Table(table) = value else { return Err(missing()) };
            let value: mlua::Value = match key {
                Key::Name(name) => table.raw_get(name.as_str())?,
                Key::Index(index) => table.raw_get(*index)?,
            };
            Ok(Node::Value(value))
        }
        Node::Field(_) => Err(missing()),
    }
}

/// A scope's variables in the order the function has them.
fn scope_entries(frame: &Table, scope: Scope) -> mlua::Result<Vec<(Key, mlua::Value)>> {
    if scope == Scope::Globals {
        let Some(globals) = frame.get::<Option<Table>>("globals")? else { return Ok(Vec::new()) };
        return table_entries(&globals);
    }
    let kind = if scope == Scope::Locals { "local" } else { "upvalue" };
    let count: usize = frame.get("count")?;
    let (names, values, kinds): (Table, Table, Table) =
        (frame.get("names")?, frame.get("values")?, frame.get("kinds")?);
    let mut entries = Vec::new();
    for slot in 1..=count {
        if kinds.get::<String>(slot)? == kind {
            entries.push((Key::Name(names.get(slot)?), values.get(slot)?));
        }
    }
    Ok(entries)
}

/// A table's own entries with string or integer keys: integers in order, then names sorted.
fn table_entries(table: &Table) -> mlua::Result<Vec<(Key, mlua::Value)>> {
    let mut entries = Vec::new();
    for pair in table.clone().pairs::<mlua::Value, mlua::Value>() {
        let (key, value) = pair?;
        let key = match key {
            mlua::Value::Integer(index) => Key::Index(index),
            mlua::Value::String(name) => Key::Name(name.to_string_lossy()),
            _ => continue,
        };
        entries.push((key, value));
    }
    entries.sort_by(|a, b| match (&a.0, &b.0) {
        (Key::Index(x), Key::Index(y)) => x.cmp(y),
        (Key::Index(_), Key::Name(_)) => std::cmp::Ordering::Less,
        (Key::Name(_), Key::Index(_)) => std::cmp::Ordering::Greater,
        (Key::Name(x), Key::Name(y)) => x.cmp(y),
    });
    Ok(entries)
}

/// The children of the variable at `path`, paged.
fn variables(lua: &Lua, path: &VariablePath, start: usize, count: usize) -> mlua::Result<DebugAnswer> {
    let all = children(lua, resolve(lua, path)?)?;
    let total = all.len();
    let take = if count == 0 { total } else { count };
    Ok(DebugAnswer::Variables { variables: all.into_iter().skip(start).take(take).collect(), total })
}

/// Every child of `node`, as views.
fn children(lua: &Lua, node: Node) -> mlua::Result<Vec<VariableView>> {
    let entries = match node {
        Node::Scope(frame, scope) => scope_entries(&frame, scope)?,
        Node::Value(value) => {
            let engine = engine(lua);
            if let Some(uid) = handle::object_uid(&engine, &value) {
                return Ok(object_fields(&engine.world(), uid));
            }
            match value {
                mlua::Value::Table(table) => table_entries(&table)?,
                _ => Vec::new(),
            }
        }
        Node::Field(field) => return Ok(field_parts(&field)),
    };
    Ok(entries.into_iter().map(|(key, value)| view(lua, key, &value)).collect())
}

/// A Lua value as a variable.
fn view(lua: &Lua, key: Key, value: &mlua::Value) -> VariableView {
    let engine = engine(lua);
    if let Some(uid) = handle::object_uid(&engine, value) {
        let fields = object_details(&engine.world(), uid).map_or(0, |d| d.fields.len());
        return VariableView { key, value: inspect(value, 1), kind: "object".into(), children: fields, uid: Some(uid) };
    }
    let children = match value {
        mlua::Value::Table(table) => table.clone().pairs::<mlua::Value, mlua::Value>().count(),
        _ => 0,
    };
    VariableView { key, value: inspect(value, 1), kind: value.type_name().into(), children, uid: None }
}

/// A map object's fields, each showing its calc value (expandable into base, temp and the
/// contributions when it has a temp value).
fn object_fields(world: &nefia_game::World, uid: Uid) -> Vec<VariableView> {
    let Some(details) = object_details(world, uid) else { return Vec::new() };
    let shown =
        |value: &Option<nefia_game::Value>| value.as_ref().map_or_else(|| "nil".to_owned(), ToString::to_string);
    details
        .fields
        .iter()
        .map(|field| VariableView {
            key: Key::Name(field.name.clone()),
            value: shown(&field.calc),
            kind: "field".into(),
            children: field_parts(field).len(),
            uid: None,
        })
        .collect()
}

/// A field's parts: base, temp and calc, and each contribution to the temp value; none for a
/// field with no temp value (its value is all there is).
fn field_parts(field: &FieldRow) -> Vec<VariableView> {
    let Some(temp) = &field.temp else { return Vec::new() };
    let part = |name: &str, value: String| VariableView {
        key: Key::Name(name.to_owned()),
        value,
        kind: "part".into(),
        children: 0,
        uid: None,
    };
    let mut parts = vec![
        part("base", field.base.as_ref().map_or_else(|| "nil".to_owned(), ToString::to_string)),
        part("temp", temp.value.to_string()),
        part("calc", field.calc.as_ref().map_or_else(|| "nil".to_owned(), ToString::to_string)),
    ];
    for (n, contribution) in temp.sources.iter().enumerate() {
        parts.push(part(
            &format!("contribution {}", n + 1),
            format!("{} {} by {}", contribution.method.name(), contribution.value, contribution.origin),
        ));
    }
    parts
}

/// Gives the child `key` of the variable at `path` the value of `code`, evaluated in the
/// path's frame: a local or upvalue is written back when the break continues, a table's
/// field at once.
fn set_variable(lua: &Lua, path: &VariablePath, key: &Key, code: &str) -> mlua::Result<DebugAnswer> {
    let value = match repl::evaluate_value_in_frame(lua, code, path.frame)? {
        Some(value) => value,
        None => return Ok(DebugAnswer::Failed(format!("`{code}` gives no value"))),
    };
    match resolve(lua, path)? {
        Node::Scope(frame, Scope::Globals) => {
            let globals: Table = frame.get("globals")?;
            set_key(&globals, key, &value)?;
        }
        Node::Scope(frame, scope) => {
            let Key::Name(name) = key else { return Ok(DebugAnswer::Failed("a variable has a name".into())) };
            let kind = if scope == Scope::Locals { "local" } else { "upvalue" };
            let (names, kinds, values, changed): (Table, Table, Table, Table) =
                (frame.get("names")?, frame.get("kinds")?, frame.get("values")?, frame.get("changed")?);
            let count: usize = frame.get("count")?;
            let slot = (1..=count)
                .rev()
                .find(|&slot| {
                    names.get::<String>(slot).ok().as_ref() == Some(name)
                        && kinds.get::<String>(slot).ok().as_deref() == Some(kind)
                })
                .ok_or_else(|| mlua::Error::runtime(format!("there is no {kind} named {name}")))?;
            values.raw_set(slot, &value)?;
            changed.raw_set(slot, true)?;
        }
        Node::Value(object @ mlua::Value::Table(_)) if handle::object_uid(&engine(lua), &object).is_some() => {
            let Key::Name(name) = key else { return Ok(DebugAnswer::Failed("an object's field has a name".into())) };
            let engine = engine(lua);
            let uid = handle::object_uid(&engine, &object).ok_or_else(|| mlua::Error::runtime("the object is gone"))?;
            let field_value = nefia_lua::object::field_value(lua, &engine, &value, name)?;
            // Checked as every edit of a field is: its declared type, and the ids it names.
            let data_type = engine.world().object(uid).map(|object| object.kind.data_type());
            if let Ok(data_type) = data_type
                && let Err(problem) = nefia_lua::schema::check_value(lua, data_type, name, &field_value)
            {
                return Ok(DebugAnswer::Failed(format!("{name} = {field_value}: {problem}")));
            }
            let change = FieldChange::Base(field_value);
            // Through the rules every edit of a field keeps (a reserved name is refused in
            // OpenNefia's words; `x` and `y` move the object); the watches on it hear of it at once.
            let changed = change_field(&mut engine.world_mut(), &[uid], name, &change);
            if let Err(error) = changed {
                return Ok(DebugAnswer::Failed(error.to_string()));
            }
            nefia_lua::watch::deliver(lua, nefia_lua::watch::Writer::Rust("the debugger's setVariable"))?;
        }
        Node::Value(mlua::Value::Table(table)) => set_key(&table, key, &value)?,
        _ => return Ok(DebugAnswer::Failed("only a table's field or a frame's variable can be set".into())),
    }
    Ok(DebugAnswer::Variable(view(lua, key.clone(), &value)))
}

/// `table[key] = value`, raw.
fn set_key(table: &Table, key: &Key, value: &mlua::Value) -> mlua::Result<()> {
    match key {
        Key::Name(name) => table.raw_set(name.as_str(), value),
        Key::Index(index) => table.raw_set(*index, value),
    }
}
