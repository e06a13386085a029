//! The UI layer stack (the compositor; seed: Draw Layers): `layer:query()` pushes a layer and
//! blocks until it is answered, input goes to the top layer, and the frontend draws the stack
//! bottom first. `Prompt`, `ListMenu`, `TextInput` and `UiLayer` are the layer classes.

use super::frontend::WaitReason;
use mlua::{Function, Lua, Table};

use super::super::{engine, rt_error};
use super::drawing::{Drawer, draw};
use nefia_game::display::{Input, LayerId, LayerKind, LayerView};

/// How a UI layer ended.
#[derive(Clone)]
pub(super) enum Outcome {
    Done(mlua::Value),
    Canceled,
}

pub(super) struct StackLayer {
    pub(super) id: LayerId,
    pub(super) kind: LayerKind,
    pub(super) table: Table,
    pub(super) outcome: Option<Outcome>,
}

/// The UI layer stack, bottom first, with custom layers drawn.
pub fn layer_views(lua: &Lua) -> Vec<LayerView> {
    let engine = engine(lua);
    let layers: Vec<(LayerId, LayerKind, Table)> =
        engine.gui.borrow().stack.iter().map(|l| (l.id, l.kind.clone(), l.table.clone())).collect();
    layers
        .into_iter()
        .map(|(id, kind, table)| {
            let kind = match kind {
                LayerKind::Custom { name, size, .. } => {
                    let draw = draw(lua, &table, &Drawer::ui_layer(&name));
                    LayerKind::Custom { name, size, draw }
                }
                other => other,
            };
            LayerView { id, kind }
        })
        .collect()
}

pub(super) fn result_table(lua: &Lua, index: usize, text: &str) -> mlua::Result<mlua::Value> {
    let result = lua.create_table()?;
    result.set("index", index + 1)?;
    result.set("text", text)?;
    Ok(mlua::Value::Table(result))
}

/// Reads a layer table made by `Prompt:new`, `ListMenu:new`, `TextInput:new` or
/// `UiLayer:new` into what the frontend draws.
pub(super) fn layer_kind(lua: &Lua, table: &Table) -> mlua::Result<LayerKind> {
    let kind: String = table.get("_kind")?;
    let strings = |field: &str| -> mlua::Result<Vec<String>> {
        let list: Option<Table> = table.get(field)?;
        let Some(list) = list else { return Err(rt_error(lua, format!("a {kind} needs a list of {field}"))) };
        list.sequence_values::<mlua::Value>().map(|v| v?.to_string()).collect()
    };
    Ok(match kind.as_str() {
        "prompt" => LayerKind::Prompt { title: table.get("title")?, choices: strings("choices")?, cursor: 0 },
        "list" => LayerKind::List {
            title: table.get::<Option<String>>("title")?.unwrap_or_default(),
            items: strings("items")?,
            cursor: 0,
        },
        "text" => LayerKind::TextInput {
            prompt: table.get::<Option<String>>("prompt")?.unwrap_or_default(),
            text: table.get::<Option<String>>("default")?.unwrap_or_default(),
        },
        _ => LayerKind::Custom {
            name: table.get::<Option<String>>("name")?.unwrap_or_else(|| "layer".into()),
            size: (
                table.get::<Option<f32>>("width")?.unwrap_or(320.0),
                table.get::<Option<f32>>("height")?.unwrap_or(200.0),
            ),
            draw: Vec::new(),
        },
    })
}

/// `layer:query()`: see the module documentation. A prompt whose entries give their own
/// indices answers with the chosen entry's.
pub(super) fn query(lua: &Lua, table: Table) -> mlua::Result<(mlua::Value, bool)> {
    let indices: Option<Table> = table.get("_indices")?;
    let (answer, canceled) = shown(lua, table)?;
    if let (Some(indices), mlua::Value::Table(answer)) = (indices, &answer)
        && let Some(place) = answer.get::<Option<i64>>("index")?
        && let Some(index) = indices.get::<Option<i64>>(place)?
    {
        answer.set("index", index)?;
    }
    Ok((answer, canceled))
}

/// Shows layer `table` until it is answered (or takes a queued answer when there is no
/// frontend): the answer, and whether it was canceled.
fn shown(lua: &Lua, table: Table) -> mlua::Result<(mlua::Value, bool)> {
    let engine = engine(lua);
    let kind = layer_kind(lua, &table)?;
    let frontend = engine.frontend.borrow().clone();
    let Some(frontend) = frontend else {
        let queued = engine.gui.borrow_mut().queued.pop_front();
        return Ok(match queued {
            None => (mlua::Value::Nil, true),
            Some(mlua::Value::Table(answer)) if answer.contains_key("index")? => {
                let index: usize = answer.get("index")?;
                if let LayerKind::Prompt { choices: items, .. } | LayerKind::List { items, .. } = &kind
                    && let Some(text) = items.get(index.wrapping_sub(1))
                {
                    answer.set("text", text.as_str())?;
                }
                (mlua::Value::Table(answer), false)
            }
            Some(answer) => (answer, false),
        });
    };
    let id = {
        let mut gui = engine.gui.borrow_mut();
        gui.next_layer += 1;
        let id = LayerId(gui.next_layer);
        gui.stack.push(StackLayer { id, kind, table, outcome: None });
        id
    };
    let is_answered = || engine.gui.borrow().stack.iter().find(|l| l.id == id).is_none_or(|l| l.outcome.is_some());
    let waited = frontend.wait(lua, WaitReason::Query, &is_answered);
    let outcome = {
        let mut gui = engine.gui.borrow_mut();
        let position = gui.stack.iter().position(|l| l.id == id);
        position.and_then(|i| gui.stack.remove(i).outcome)
    };
    waited?;
    Ok(match outcome {
        Some(Outcome::Done(result)) => (result, false),
        Some(Outcome::Canceled) | None => (mlua::Value::Nil, true),
    })
}

/// Routes `input` down the UI layer stack, top first (helix's compositor is the model): each
/// layer consumes it or passes it on. Returns false if no layer consumed it (the input is the
/// game's).
pub fn handle_input(lua: &Lua, input: &Input) -> mlua::Result<bool> {
    let engine = engine(lua);
    let layers: Vec<(LayerId, LayerKind, Table)> =
        engine.gui.borrow().stack.iter().rev().map(|l| (l.id, l.kind.clone(), l.table.clone())).collect();
    for (id, kind, table) in layers {
        if layer_input(lua, id, kind, &table, input)? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// One layer's handling of `input`: true if it consumed it. Prompts, menus and text inputs
/// are modal (they consume every key); a custom layer consumes what its `on_key`/`on_text`
/// does not answer `false` to; a choice or cancel addressed to another layer passes on.
fn layer_input(lua: &Lua, id: LayerId, kind: LayerKind, table: &Table, input: &Input) -> mlua::Result<bool> {
    let engine = engine(lua);
    let finish = |outcome: Outcome| {
        if let Some(layer) = engine.gui.borrow_mut().stack.iter_mut().find(|l| l.id == id) {
            layer.outcome = Some(outcome);
        }
    };
    let set_kind = |kind: LayerKind| {
        if let Some(layer) = engine.gui.borrow_mut().stack.iter_mut().find(|l| l.id == id) {
            layer.kind = kind;
        }
    };
    match (kind, input) {
        (_, Input::Cancel { layer }) if *layer == id => finish(Outcome::Canceled),
        (_, Input::Choose { layer, .. } | Input::Cancel { layer }) if *layer != id => return Ok(false),
        (LayerKind::Prompt { choices: items, .. } | LayerKind::List { items, .. }, Input::Choose { index, .. }) => {
            if let Some(text) = items.get(*index) {
                finish(Outcome::Done(result_table(lua, *index, text)?));
            }
        }
        (LayerKind::Prompt { title, choices, cursor }, Input::Key(key)) => match menu_key(key, cursor, choices.len()) {
            MenuKey::Move(cursor) => set_kind(LayerKind::Prompt { title, choices, cursor }),
            MenuKey::Choose(index) => finish(Outcome::Done(result_table(lua, index, &choices[index])?)),
            MenuKey::Cancel => finish(Outcome::Canceled),
            MenuKey::Ignore => {}
        },
        (LayerKind::List { title, items, cursor }, Input::Key(key)) => match menu_key(key, cursor, items.len()) {
            MenuKey::Move(cursor) => set_kind(LayerKind::List { title, items, cursor }),
            MenuKey::Choose(index) => finish(Outcome::Done(result_table(lua, index, &items[index])?)),
            MenuKey::Cancel => finish(Outcome::Canceled),
            MenuKey::Ignore => {}
        },
        (LayerKind::TextInput { prompt, mut text }, input) => match input {
            Input::Text(typed) => {
                text.push_str(typed);
                set_kind(LayerKind::TextInput { prompt, text });
            }
            Input::Key(key) if key == "backspace" => {
                text.pop();
                set_kind(LayerKind::TextInput { prompt, text });
            }
            Input::Key(key) if key == "enter" => finish(Outcome::Done(mlua::Value::String(lua.create_string(&text)?))),
            Input::Key(key) if key == "escape" => finish(Outcome::Canceled),
            _ => {}
        },
        (LayerKind::Custom { name, .. }, Input::Key(key)) => {
            if let Some(on_key) = table.get::<Option<Function>>("on_key")? {
                let answer: mlua::Value = engine
                    .profiler
                    .scope(|| Drawer::ui_layer(&name).profile_key("on_key"), || on_key.call((table, key.as_str())))?;
                return Ok(answer != mlua::Value::Boolean(false));
            } else if key == "escape" {
                finish(Outcome::Canceled);
            }
        }
        (LayerKind::Custom { name, .. }, Input::Text(text)) => {
            if let Some(on_text) = table.get::<Option<Function>>("on_text")? {
                let answer: mlua::Value = engine.profiler.scope(
                    || Drawer::ui_layer(&name).profile_key("on_text"),
                    || on_text.call((table, text.as_str())),
                )?;
                return Ok(answer != mlua::Value::Boolean(false));
            }
        }
        _ => {}
    }
    Ok(true)
}

pub(super) enum MenuKey {
    Move(usize),
    Choose(usize),
    Cancel,
    Ignore,
}

/// Keys of prompts and list menus: arrows move, Enter picks, Escape cancels,
/// and `a`, `b`, `c`… pick the first, second, third… entry directly.
pub(super) fn menu_key(key: &str, cursor: usize, count: usize) -> MenuKey {
    if count == 0 {
        return if key == "escape" { MenuKey::Cancel } else { MenuKey::Ignore };
    }
    match key {
        "up" => MenuKey::Move((cursor + count - 1) % count),
        "down" => MenuKey::Move((cursor + 1) % count),
        "enter" | "space" => MenuKey::Choose(cursor.min(count - 1)),
        "escape" => MenuKey::Cancel,
        letter if letter.len() == 1 => {
            let index = letter.as_bytes()[0].wrapping_sub(b'a') as usize;
            if index < count { MenuKey::Choose(index) } else { MenuKey::Ignore }
        }
        _ => MenuKey::Ignore,
    }
}

/// Ends the custom layer `table` with `outcome`.
pub(super) fn finish_custom(lua: &Lua, table: &Table, outcome: Outcome) {
    let engine = engine(lua);
    let mut gui = engine.gui.borrow_mut();
    if let Some(layer) = gui.stack.iter_mut().find(|l| l.table.to_pointer() == table.to_pointer()) {
        layer.outcome = Some(outcome);
    }
}

/// A layer class: `Class:new(spec)` makes a layer table of `kind` from `spec`.
/// Checks a prompt's entries as OpenNefia's `Prompt:new` does and returns their texts and
/// indices: an entry is a value shown as text (its index is its place) or `{ text = ...,
/// index = n }`; indices are whole numbers, none given twice.
fn prompt_choices(lua: &Lua, choices: &Table) -> mlua::Result<(Table, Table)> {
    let (texts, indices) = (lua.create_table()?, lua.create_table()?);
    let mut given: Vec<(i64, usize)> = Vec::new();
    for (n, entry) in (1..).zip(choices.sequence_values::<mlua::Value>()) {
        let entry = entry?;
        let (text, index) = match &entry {
            mlua::Value::Table(table) => {
                let Some(text) = table.get::<Option<mlua::Value>>("text")?.filter(|t| !t.is_nil()) else {
                    return Err(rt_error(
                        lua,
                        format!("Prompt: entry {n} is a table without a text: write {{ text = \"...\" }}"),
                    ));
                };
                let index = match table.get::<mlua::Value>("index")? {
                    mlua::Value::Nil => n,
                    mlua::Value::Integer(i) => i,
                    mlua::Value::Number(f) if f.fract() == 0.0 && f.abs() < 2f64.powi(53) => f as i64,
                    other => {
                        let shown = other.to_string().unwrap_or_else(|_| other.type_name().to_owned());
                        return Err(rt_error(lua, format!("Prompt: entry {n}'s index {shown} is not a whole number")));
                    }
                };
                (text.to_string()?, index)
            }
            other => (other.to_string()?, n),
        };
        let place = usize::try_from(n).unwrap_or(usize::MAX);
        if let Some((_, first)) = given.iter().find(|(i, _)| *i == index) {
            return Err(rt_error(
                lua,
                format!("Prompt: entries {first} and {n} both have index {index}: give each entry its own"),
            ));
        }
        given.push((index, place));
        texts.raw_set(n, text)?;
        indices.raw_set(n, index)?;
    }
    Ok((texts, indices))
}

pub(super) fn layer_class(lua: &Lua, kind: &'static str, query: &Function) -> mlua::Result<Table> {
    let class = lua.create_table()?;
    class.set("query", query)?;
    class.set(
        "new",
        lua.create_function(move |lua, (class, first, second): (Table, mlua::Value, Option<Table>)| {
            let layer = match (kind, first) {
                // Prompt:new({"Yes", "No"}, { title = "Really?" })
                ("prompt", mlua::Value::Table(choices)) if choices.raw_len() > 0 => {
                    let layer = second.unwrap_or(lua.create_table()?);
                    let (texts, indices) = prompt_choices(lua, &choices)?;
                    layer.set("choices", texts)?;
                    layer.set("_indices", indices)?;
                    layer
                }
                (_, mlua::Value::Table(spec)) => spec,
                (_, other) => {
                    return Err(rt_error(
                        lua,
                        format!("{kind} layers are made from a table, not a {}", other.type_name()),
                    ));
                }
            };
            layer.set("_kind", kind)?;
            let meta = lua.create_table()?;
            meta.set("__index", class)?;
            layer.set_metatable(Some(meta))?;
            Ok(layer)
        })?,
    )?;
    Ok(class)
}
