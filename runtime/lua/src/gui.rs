//! `Gui`, `Log`, the UI layers (`Prompt`, `ListMenu`, `TextInput`, `UiLayer`) and HUD widgets
//! (seed: Draw Layers, UI Widgets). This file holds the state they share (`GuiState`) and
//! installs the tables; `gui/messages.rs` is the messages and the log, `gui/layers.rs` the UI
//! layer stack (the compositor: `query()`, input top down), `gui/widgets.rs` the widgets and
//! map draw layers, `gui/drawing.rs` the draw context, `gui/frontend.rs` what blocking calls
//! wait on.
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

use mlua::{Lua, Table};

use super::engine;
use nefia_game::display::{LayerId, LogLevel, LogLine};
use nefia_protocol::failure::GameError;

mod drawing;
mod frontend;
mod layers;
mod messages;
mod widgets;

pub use frontend::{Frontend, WaitReason, set_frontend};
pub use layers::{handle_input, layer_views};
pub use messages::{log, message};
pub use widgets::{map_layer_draws, widget_views};

use drawing::{Drawer, update};
use layers::{Outcome, StackLayer, finish_custom, layer_class, query};
use messages::text_of;
use widgets::{Drawn, Registered, register, unregister};

/// How many messages and log lines are kept for the HUD.
const HISTORY: usize = 200;

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
    /// How many log lines were ever recorded: the number of the newest.
    logged: u64,
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
    /// True if a UI layer is open (it gets the keyboard).
    pub fn has_layers(&self) -> bool {
        !self.stack.is_empty()
    }

    /// How many places down from the top of the stack layer `id` is (0: the top).
    pub fn depth_of_layer(&self, id: LayerId) -> Option<u32> {
        let from_top = self.stack.iter().rev().position(|l| l.id == id)?;
        u32::try_from(from_top).ok()
    }

    /// The top UI layer as it is kept (a custom layer's drawing left out), if one is open.
    pub fn top_layer(&self) -> Option<nefia_game::display::LayerView> {
        self.stack.last().map(|l| nefia_game::display::LayerView { id: l.id, kind: l.kind.clone() })
    }

    /// The layer `depth` places down from the top of the stack.
    pub fn layer_at_depth(&self, depth: u32) -> Option<LayerId> {
        self.stack.iter().rev().nth(usize::try_from(depth).ok()?).map(|l| l.id)
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

    /// Forgets the widgets and map layers registered from `file` (before reloading it), and
    /// returns every registration as it was, for [`GuiState::restore`].
    pub fn forget_file(&mut self, file: nefia_game::Symbol) -> Registrations {
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
            animating |= update(lua, &widget.table, dt, &widget.drawer(Drawn::Widget))?;
        }
        for layer in &map_layers {
            animating |= update(lua, &layer.table, dt, &layer.drawer(Drawn::MapLayer))?;
        }
        for layer in &layers {
            animating |= update(lua, layer, dt, &Drawer::ui_layer("custom"))?;
        }
        Ok(())
    };
    let result = updated();
    engine.gui.borrow_mut().animating = animating && result.is_ok();
    result.map(|()| animating)
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
            message(lua, text_of(&text)?);
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
    // The least serious level mods' `Log.*` lines are kept at (`Log.set_level`); the engine's
    // own lines are always kept.
    let least = std::rc::Rc::new(std::cell::Cell::new(LogLevel::Debug));
    for (name, level) in
        [("debug", LogLevel::Debug), ("info", LogLevel::Info), ("warn", LogLevel::Warn), ("error", LogLevel::Error)]
    {
        let least = least.clone();
        log_table.set(
            name,
            lua.create_function(move |lua, values: mlua::Variadic<mlua::Value>| {
                if level < least.get() {
                    return Ok(());
                }
                let parts: Vec<String> = values.iter().map(text_of).collect::<mlua::Result<_>>()?;
                log(lua, level, parts.join(" "));
                Ok(())
            })?,
        )?;
    }
    log_table.set(
        "set_level",
        lua.create_function(move |lua, name: mlua::Value| {
            let level = match name.as_string().map(|n| n.to_string_lossy()).as_deref() {
                // OpenNefia's trace is finer than debug: both show everything here.
                Some("trace" | "debug") => LogLevel::Debug,
                Some("info") => LogLevel::Info,
                Some("warn") => LogLevel::Warn,
                Some("error") => LogLevel::Error,
                _ => {
                    return Err(super::rt_error(
                        lua,
                        format!(
                            "Log.set_level takes \"trace\", \"debug\", \"info\", \"warn\" or \"error\", not {}",
                            super::inspect::inspect(&name, 0)
                        ),
                    ));
                }
            };
            least.set(level);
            Ok(())
        })?,
    )?;
    log_table.set(
        "recent",
        lua.create_function(|lua, count: Option<usize>| {
            let engine = engine(lua);
            let gui = engine.gui.borrow();
            let list = lua.create_table()?;
            let lines: Vec<&LogLine> = gui.log(count.unwrap_or(10)).collect();
            let first = gui.logged.saturating_sub(lines.len() as u64) + 1;
            for (i, line) in lines.into_iter().enumerate() {
                let entry = lua.create_table()?;
                entry.set("id", first + i as u64)?;
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
