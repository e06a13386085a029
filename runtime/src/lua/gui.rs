//! `Gui`, `Log`, the UI layers (`Prompt`, `ListMenu`, `TextInput`, `UiLayer`) and HUD widgets
//! (seed: Draw Layers, UI Widgets).
//!
//! `layer:query()` pushes a layer on the UI stack and blocks the calling Lua code until the
//! layer is answered or canceled, returning `result, canceled`. With a frontend (the editor,
//! the player window), the frontend is served meanwhile — it draws the layer and sends the
//! player's input — so the rest of the engine stays usable. Headless, `query()` takes the next
//! answer queued with `Gui.push_ui_result(value)`, or returns `nil, true` when none is queued,
//! so game code can be tested without a window.
//!
//! Widgets (`Gui.add_widget`) and map draw layers (`Gui.add_map_layer`) are Lua tables with a
//! `draw(self, d)` function and an optional `update(self, dt)` that returns true while it is
//! animating. `d` is a draw context: `d:rect(x, y, w, h, color, opts)`,
//! `d:text(x, y, text, color, opts)`, `d:glyph(x, y, glyph, color, opts)`; `opts` may hold
//! `dx`, `dy` (a pixel offset), `size` (font size) and `alpha` (0–1). Widgets and UI layers
//! draw in pixels from their top-left corner; map layers draw in cells.

use std::collections::VecDeque;
use std::rc::Rc;

use mlua::{Function, Lua, Table, UserData, UserDataMethods};

use super::convert::from_lua;
use super::error::GameError;
use super::{Output, caller_origin, engine, rt_error};
use crate::moddable::Origin;
use crate::ui::{
    Anchor, Color, DrawCmd, DrawList, Input, LayerId, LayerKind, LayerView, LogLevel, LogLine, Position, WidgetView,
};

/// How many messages and log lines are kept for the HUD.
const HISTORY: usize = 200;

/// Why a blocking Lua call is waiting on the frontend.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaitReason {
    /// A UI layer's `query()`.
    Query,
    /// `pause()`: a breakpoint, until the REPL continues.
    Pause,
}

/// What a blocking Lua call waits on: the editor or the player window.
pub trait Frontend {
    /// Serves the frontend — answers its commands, publishes what to draw — until `done()`
    /// is true. An error (the frontend stopping the wait) is raised into the waiting Lua code.
    fn wait(&self, lua: &Lua, reason: WaitReason, done: &dyn Fn() -> bool) -> mlua::Result<()>;
}

/// A widget or map draw layer registered by a mod.
#[derive(Clone)]
struct Registered {
    id: String,
    table: Table,
    origin: Origin,
}

/// How a UI layer ended.
#[derive(Clone)]
enum Outcome {
    Done(mlua::Value),
    Canceled,
}

struct StackLayer {
    id: LayerId,
    kind: LayerKind,
    table: Table,
    outcome: Option<Outcome>,
}

/// The UI state the Lua API keeps: the layer stack, widgets, map draw layers, queued answers,
/// messages and log lines.
#[derive(Default)]
pub struct GuiState {
    stack: Vec<StackLayer>,
    next_layer: u64,
    widgets: Vec<Registered>,
    map_layers: Vec<Registered>,
    queued: VecDeque<mlua::Value>,
    messages: VecDeque<String>,
    log: VecDeque<LogLine>,
    animating: bool,
    /// What is failing to draw, so each failure is logged once (not every frame).
    failing_draws: rustc_hash::FxHashSet<String>,
}

/// The widgets and map draw layers as registered at one moment: what a failed hotload puts
/// back.
pub struct Registrations {
    widgets: Vec<Registered>,
    map_layers: Vec<Registered>,
}

impl GuiState {
    /// The last `count` messages of `Gui.mes`, oldest first.
    pub fn messages(&self, count: usize) -> impl Iterator<Item = &str> {
        self.messages.iter().skip(self.messages.len().saturating_sub(count)).map(String::as_str)
    }

    /// The last `count` log lines, oldest first.
    pub fn log(&self, count: usize) -> impl Iterator<Item = &LogLine> {
        self.log.iter().skip(self.log.len().saturating_sub(count))
    }

    /// True if a UI layer is open (it gets the keyboard).
    pub fn has_layers(&self) -> bool {
        !self.stack.is_empty()
    }

    /// True if the last update of a widget, map layer or UI layer asked for more frames.
    pub fn is_animating(&self) -> bool {
        self.animating
    }

    /// The ids of the registered widgets, in drawing order.
    pub fn widget_ids(&self) -> Vec<String> {
        self.widgets.iter().map(|w| w.id.clone()).collect()
    }

    /// The ids of the registered map draw layers, in drawing order.
    pub fn map_layer_ids(&self) -> Vec<String> {
        self.map_layers.iter().map(|w| w.id.clone()).collect()
    }

    fn push_message(&mut self, text: String) {
        if self.messages.len() == HISTORY {
            self.messages.pop_front();
        }
        self.messages.push_back(text);
    }

    fn push_log(&mut self, line: LogLine) {
        if self.log.len() == HISTORY {
            self.log.pop_front();
        }
        self.log.push_back(line);
    }

    /// Forgets the messages to the player (a new game, or back to editing).
    pub fn clear_messages(&mut self) {
        self.messages.clear();
    }

    /// Forgets the widgets and map layers registered from `file` (before reloading it), and
    /// returns every registration as it was, for [`GuiState::restore`].
    pub fn forget_file(&mut self, file: crate::Symbol) -> Registrations {
        let before = Registrations { widgets: self.widgets.clone(), map_layers: self.map_layers.clone() };
        self.widgets.retain(|w| w.origin.file != file);
        self.map_layers.retain(|w| w.origin.file != file);
        self.failing_draws.clear();
        before
    }

    /// Puts the registrations back as they were.
    pub fn restore(&mut self, registrations: Registrations) {
        self.widgets = registrations.widgets;
        self.map_layers = registrations.map_layers;
    }
}

/// Shows a message to the player (the seed's `Gui.mes`).
pub fn message(lua: &Lua, text: String) {
    let engine = engine(lua);
    engine.gui.borrow_mut().push_message(text.clone());
    engine.emit(Output::Message(text));
}

/// Records a log line and shows it in the log.
pub fn log(lua: &Lua, level: LogLevel, text: String) {
    let engine = engine(lua);
    let line = LogLine { level, text };
    engine.gui.borrow_mut().push_log(line.clone());
    engine.emit(Output::Log(line));
}

// ---- drawing --------------------------------------------------------------------------------

/// The `d` given to `draw(self, d)`.
#[derive(Default)]
struct DrawContext {
    commands: DrawList,
}

fn color_arg(lua: &Lua, value: &mlua::Value, alpha: Option<f32>) -> mlua::Result<Color> {
    let mut color = match value {
        mlua::Value::Nil => [255, 255, 255, 255],
        other => {
            let value = from_lua(lua, other, "color").map_err(|e| rt_error(lua, e))?;
            crate::world::parse_color(&value).ok_or_else(|| {
                rt_error(lua, format!("a colour must be {{r, g, b}}, {{r, g, b, a}} or \"#rrggbb\", not {value}"))
            })?
        }
    };
    if let Some(alpha) = alpha {
        color[3] = (color[3] as f32 * alpha.clamp(0.0, 1.0)).round() as u8;
    }
    Ok(color)
}

struct DrawOptions {
    dx: f32,
    dy: f32,
    size: Option<f32>,
    alpha: Option<f32>,
}

fn options(options: Option<Table>) -> mlua::Result<DrawOptions> {
    let Some(options) = options else { return Ok(DrawOptions { dx: 0.0, dy: 0.0, size: None, alpha: None }) };
    Ok(DrawOptions {
        dx: options.get::<Option<f32>>("dx")?.unwrap_or(0.0),
        dy: options.get::<Option<f32>>("dy")?.unwrap_or(0.0),
        size: options.get("size")?,
        alpha: options.get("alpha")?,
    })
}

impl UserData for DrawContext {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_method_mut(
            "rect",
            |lua, this, (x, y, w, h, color, opts): (f32, f32, f32, f32, mlua::Value, Option<Table>)| {
                let opts = options(opts)?;
                let color = color_arg(lua, &color, opts.alpha)?;
                this.commands.push(DrawCmd::Rect { at: Position { x, y, dx: opts.dx, dy: opts.dy }, w, h, color });
                Ok(())
            },
        );
        methods.add_method_mut(
            "text",
            |lua, this, (x, y, text, color, opts): (f32, f32, mlua::Value, mlua::Value, Option<Table>)| {
                let opts = options(opts)?;
                let color = color_arg(lua, &color, opts.alpha)?;
                let text = match text {
                    mlua::Value::String(s) => s.to_str()?.to_owned(),
                    other => other.to_string()?,
                };
                let at = Position { x, y, dx: opts.dx, dy: opts.dy };
                this.commands.push(DrawCmd::Text { at, text, color, size: opts.size.unwrap_or(14.0) });
                Ok(())
            },
        );
        methods.add_method_mut(
            "glyph",
            |lua, this, (x, y, glyph, color, opts): (f32, f32, String, mlua::Value, Option<Table>)| {
                let opts = options(opts)?;
                let color = color_arg(lua, &color, opts.alpha)?;
                this.commands.push(DrawCmd::Glyph { at: Position { x, y, dx: opts.dx, dy: opts.dy }, glyph, color });
                Ok(())
            },
        );
    }
}

/// Calls `table:draw(d)` and returns what it drew. A failing draw draws nothing and is
/// logged once while it keeps failing, so one broken widget cannot take the HUD down (drawing
/// is not game logic: it does not stop the game).
fn draw(lua: &Lua, table: &Table, what: &str) -> DrawList {
    let Ok(Some(function)) = table.get::<Option<Function>>("draw") else { return Vec::new() };
    let result = (|| {
        let context = lua.create_userdata(DrawContext::default())?;
        function.call::<()>((table, &context))?;
        Ok::<_, mlua::Error>(context.take::<DrawContext>()?.commands)
    })();
    let engine = engine(lua);
    match result {
        Ok(commands) => {
            engine.gui.borrow_mut().failing_draws.remove(what);
            commands
        }
        Err(error) => {
            let first = engine.gui.borrow_mut().failing_draws.insert(what.to_owned());
            if first {
                log(lua, LogLevel::Error, format!("{what}: draw failed: {}", super::LuaFailure::from(error)));
            }
            Vec::new()
        }
    }
}

/// Calls `table:update(dt)`; returns true if it asked for more frames.
fn update(table: &Table, dt: f32, what: &str) -> Result<bool, GameError> {
    let Ok(Some(function)) = table.get::<Option<Function>>("update") else { return Ok(false) };
    match function.call::<mlua::Value>((table, dt)) {
        Ok(result) => Ok(!matches!(result, mlua::Value::Nil | mlua::Value::Boolean(false))),
        Err(error) => Err(GameError::new(format!("{what}: update"), &error)),
    }
}

/// Advances every widget, map layer and custom UI layer by `dt` seconds. Returns true while
/// any of them is animating; a failing update stops the frame there (it is game logic: the
/// frontend shows the error screen).
pub fn update_all(lua: &Lua, dt: f32) -> Result<bool, GameError> {
    let engine = engine(lua);
    let (widgets, map_layers, layers): (Vec<Registered>, Vec<Registered>, Vec<Table>) = {
        let gui = engine.gui.borrow();
        (gui.widgets.clone(), gui.map_layers.clone(), gui.stack.iter().map(|l| l.table.clone()).collect())
    };
    let mut animating = false;
    let mut updated = || -> Result<(), GameError> {
        for widget in &widgets {
            animating |= update(&widget.table, dt, &format!("widget '{}'", widget.id))?;
        }
        for layer in &map_layers {
            animating |= update(&layer.table, dt, &format!("map layer '{}'", layer.id))?;
        }
        for layer in &layers {
            animating |= update(layer, dt, "UI layer")?;
        }
        Ok(())
    };
    let result = updated();
    engine.gui.borrow_mut().animating = animating && result.is_ok();
    result.map(|()| animating)
}

/// What the widgets draw now.
pub fn widget_views(lua: &Lua) -> Vec<WidgetView> {
    let widgets = engine(lua).gui.borrow().widgets.clone();
    widgets
        .iter()
        .map(|widget| {
            let get = |name: &str| widget.table.get::<Option<f32>>(name).ok().flatten();
            let anchor = widget.table.get::<Option<String>>("anchor").ok().flatten();
            WidgetView {
                id: widget.id.clone(),
                anchor: anchor.as_deref().and_then(Anchor::parse).unwrap_or_default(),
                offset: (get("x").unwrap_or(0.0), get("y").unwrap_or(0.0)),
                size: (get("width").unwrap_or(200.0), get("height").unwrap_or(40.0)),
                draw: draw(lua, &widget.table, &format!("widget '{}'", widget.id)),
            }
        })
        .collect()
}

/// What the map draw layers draw now, in cells, by layer id.
pub fn map_layer_draws(lua: &Lua) -> Vec<(String, DrawList)> {
    let layers = engine(lua).gui.borrow().map_layers.clone();
    layers
        .iter()
        .map(|layer| (layer.id.clone(), draw(lua, &layer.table, &format!("map layer '{}'", layer.id))))
        .collect()
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
                    let draw = draw(lua, &table, &format!("UI layer '{name}'"));
                    LayerKind::Custom { name, size, draw }
                }
                other => other,
            };
            LayerView { id, kind }
        })
        .collect()
}

// ---- the layer stack --------------------------------------------------------------------------

fn result_table(lua: &Lua, index: usize, text: &str) -> mlua::Result<mlua::Value> {
    let result = lua.create_table()?;
    result.set("index", index + 1)?;
    result.set("text", text)?;
    Ok(mlua::Value::Table(result))
}

/// Reads a layer table made by `Prompt:new`, `ListMenu:new`, `TextInput:new` or
/// `UiLayer:new` into what the frontend draws.
fn layer_kind(lua: &Lua, table: &Table) -> mlua::Result<LayerKind> {
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

/// `layer:query()`: see the module documentation.
fn query(lua: &Lua, table: Table) -> mlua::Result<(mlua::Value, bool)> {
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

/// Sends `input` to the top UI layer. Returns false if no layer is open (the input is the
/// game's).
pub fn handle_input(lua: &Lua, input: &Input) -> mlua::Result<bool> {
    let engine = engine(lua);
    let Some((id, kind, table)) = engine.gui.borrow().stack.last().map(|l| (l.id, l.kind.clone(), l.table.clone()))
    else {
        return Ok(false);
    };
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
        (_, Input::Choose { layer, .. } | Input::Cancel { layer }) if *layer != id => {}
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
        (LayerKind::Custom { .. }, Input::Key(key)) => {
            if let Some(on_key) = table.get::<Option<Function>>("on_key")? {
                on_key.call::<()>((&table, key.as_str()))?;
            } else if key == "escape" {
                finish(Outcome::Canceled);
            }
        }
        (LayerKind::Custom { .. }, Input::Text(text)) => {
            if let Some(on_text) = table.get::<Option<Function>>("on_text")? {
                on_text.call::<()>((&table, text.as_str()))?;
            }
        }
        _ => {}
    }
    Ok(true)
}

enum MenuKey {
    Move(usize),
    Choose(usize),
    Cancel,
    Ignore,
}

/// Keys of prompts and list menus: arrows move, Enter picks, Escape cancels,
/// and `a`, `b`, `c`… pick the first, second, third… entry directly.
fn menu_key(key: &str, cursor: usize, count: usize) -> MenuKey {
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
fn finish_custom(lua: &Lua, table: &Table, outcome: Outcome) {
    let engine = engine(lua);
    let mut gui = engine.gui.borrow_mut();
    if let Some(layer) = gui.stack.iter_mut().find(|l| l.table.to_pointer() == table.to_pointer()) {
        layer.outcome = Some(outcome);
    }
}

/// A layer class: `Class:new(spec)` makes a layer table of `kind` from `spec`.
fn layer_class(lua: &Lua, kind: &'static str, query: &Function) -> mlua::Result<Table> {
    let class = lua.create_table()?;
    class.set("query", query)?;
    class.set(
        "new",
        lua.create_function(move |lua, (class, first, second): (Table, mlua::Value, Option<Table>)| {
            let layer = match (kind, first) {
                // Prompt:new({"Yes", "No"}, { title = "Really?" })
                ("prompt", mlua::Value::Table(choices)) if choices.raw_len() > 0 => {
                    let layer = second.unwrap_or(lua.create_table()?);
                    layer.set("choices", choices)?;
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

/// Installs `Gui`, `Log`, `Prompt`, `ListMenu`, `TextInput` and `UiLayer` into `api`.
pub fn install(lua: &Lua, api: &Table) -> mlua::Result<()> {
    let query = lua.create_function(|lua, table: Table| query(lua, table))?;
    api.set("Prompt", layer_class(lua, "prompt", &query)?)?;
    api.set("ListMenu", layer_class(lua, "list", &query)?)?;
    api.set("TextInput", layer_class(lua, "text", &query)?)?;
    let custom = layer_class(lua, "custom", &query)?;
    custom.set(
        "finish",
        lua.create_function(|lua, (table, result): (Table, mlua::Value)| {
            finish_custom(lua, &table, Outcome::Done(result));
            Ok(())
        })?,
    )?;
    custom.set(
        "cancel",
        lua.create_function(|lua, table: Table| {
            finish_custom(lua, &table, Outcome::Canceled);
            Ok(())
        })?,
    )?;
    api.set("UiLayer", custom)?;

    let gui = lua.create_table()?;
    gui.set(
        "mes",
        lua.create_function(|lua, text: mlua::Value| {
            let text = match text {
                mlua::Value::String(s) => s.to_str()?.to_owned(),
                other => other.to_string()?,
            };
            message(lua, text);
            Ok(())
        })?,
    )?;
    gui.set(
        "messages",
        lua.create_function(|lua, count: Option<usize>| {
            let engine = engine(lua);
            let gui = engine.gui.borrow();
            lua.create_sequence_from(gui.messages(count.unwrap_or(10)).map(str::to_owned).collect::<Vec<_>>())
        })?,
    )?;
    gui.set(
        "push_ui_result",
        lua.create_function(|lua, value: mlua::Value| {
            engine(lua).gui.borrow_mut().queued.push_back(value);
            Ok(())
        })?,
    )?;
    gui.set(
        "add_widget",
        lua.create_function(|lua, (id, widget): (String, Table)| register(lua, id, widget, Drawn::Widget))?,
    )?;
    gui.set("remove_widget", lua.create_function(|lua, id: String| unregister(lua, &id, Drawn::Widget))?)?;
    gui.set(
        "add_map_layer",
        lua.create_function(|lua, (id, layer): (String, Table)| register(lua, id, layer, Drawn::MapLayer))?,
    )?;
    gui.set("remove_map_layer", lua.create_function(|lua, id: String| unregister(lua, &id, Drawn::MapLayer))?)?;
    gui.set(
        "widgets",
        lua.create_function(|lua, ()| lua.create_sequence_from(engine(lua).gui.borrow().widget_ids()))?,
    )?;
    gui.set(
        "layers",
        lua.create_function(|lua, ()| {
            let names: Vec<String> = engine(lua).gui.borrow().stack.iter().map(|l| l.kind.describe()).collect();
            lua.create_sequence_from(names)
        })?,
    )?;
    api.set("Gui", gui)?;

    let log_table = lua.create_table()?;
    for (name, level) in
        [("debug", LogLevel::Debug), ("info", LogLevel::Info), ("warn", LogLevel::Warn), ("error", LogLevel::Error)]
    {
        log_table.set(
            name,
            lua.create_function(move |lua, values: mlua::Variadic<mlua::Value>| {
                let parts: Vec<String> = values.iter().map(|v| v.to_string()).collect::<mlua::Result<_>>()?;
                log(lua, level, parts.join(" "));
                Ok(())
            })?,
        )?;
    }
    log_table.set(
        "recent",
        lua.create_function(|lua, count: Option<usize>| {
            let engine = engine(lua);
            let gui = engine.gui.borrow();
            let list = lua.create_table()?;
            for (i, line) in gui.log(count.unwrap_or(10)).enumerate() {
                let entry = lua.create_table()?;
                entry.set("level", line.level.name())?;
                entry.set("text", line.text.as_str())?;
                list.raw_set(i + 1, entry)?;
            }
            Ok(list)
        })?,
    )?;
    api.set("Log", log_table)?;
    Ok(())
}

/// The two lists of drawn Lua tables: HUD widgets and map draw layers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Drawn {
    /// `Gui.add_widget`.
    Widget,
    /// `Gui.add_map_layer`.
    MapLayer,
}

impl Drawn {
    fn list(self, gui: &mut GuiState) -> &mut Vec<Registered> {
        match self {
            Drawn::Widget => &mut gui.widgets,
            Drawn::MapLayer => &mut gui.map_layers,
        }
    }
}

/// `Gui.add_widget` / `Gui.add_map_layer`: registers (or replaces, keeping its place) the
/// table under `id`.
fn register(lua: &Lua, id: String, table: Table, kind: Drawn) -> mlua::Result<()> {
    let engine = engine(lua);
    if table.get::<Option<Function>>("draw")?.is_none() {
        let what = match kind {
            Drawn::Widget => "a widget",
            Drawn::MapLayer => "a map layer",
        };
        return Err(rt_error(lua, format!("{what} needs a draw(self, d) function")));
    }
    let origin = caller_origin(lua, &engine);
    let mut gui = engine.gui.borrow_mut();
    let list = kind.list(&mut gui);
    let entry = Registered { id: id.clone(), table, origin };
    match list.iter_mut().find(|w| w.id == id) {
        Some(existing) => *existing = entry,
        None => list.push(entry),
    }
    gui.animating = true;
    Ok(())
}

fn unregister(lua: &Lua, id: &str, kind: Drawn) -> mlua::Result<bool> {
    let engine = engine(lua);
    let mut gui = engine.gui.borrow_mut();
    let list = kind.list(&mut gui);
    let before = list.len();
    list.retain(|w| w.id != id);
    Ok(list.len() != before)
}

/// Makes `frontend` the one blocking calls wait on (None: headless).
pub fn set_frontend(lua: &Lua, frontend: Option<Rc<dyn Frontend>>) {
    *engine(lua).frontend.borrow_mut() = frontend;
}
