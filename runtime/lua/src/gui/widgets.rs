//! HUD widgets (`Gui.add_widget`) and map draw layers (`Gui.add_map_layer`): Lua tables drawn
//! every frame, registered by id (seed: UI Widgets, Draw Layers).

use mlua::{Function, Lua, Table};
use nefia_game::moddable::Origin;

use super::super::{caller_origin, engine, rt_error};
use super::GuiState;
use super::drawing::{Drawer, draw};
use nefia_game::display::{Anchor, DrawList, WidgetView};
use nefia_protocol::profile::ProfileKind;

/// A widget or map draw layer registered by a mod.
#[derive(Clone)]
pub(super) struct Registered {
    pub(super) id: String,
    pub(super) table: Table,
    pub(super) origin: Origin,
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
                draw: draw(lua, &widget.table, &widget.drawer(Drawn::Widget)),
                show_while_editing: widget.table.get::<Option<bool>>("show_while_editing").ok().flatten() == Some(true),
            }
        })
        .collect()
}

/// What the map draw layers draw now, in cells, by layer id.
pub fn map_layer_draws(lua: &Lua) -> Vec<(String, DrawList)> {
    let layers = engine(lua).gui.borrow().map_layers.clone();
    layers.iter().map(|layer| (layer.id.clone(), draw(lua, &layer.table, &layer.drawer(Drawn::MapLayer)))).collect()
}

/// The two lists of drawn Lua tables: HUD widgets and map draw layers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Drawn {
    /// `Gui.add_widget`.
    Widget,
    /// `Gui.add_map_layer`.
    MapLayer,
}

impl Registered {
    /// How messages and the profiler name it.
    pub(super) fn drawer(&self, kind: Drawn) -> Drawer {
        let (what, kind) = match kind {
            Drawn::Widget => ("widget", ProfileKind::Widget),
            Drawn::MapLayer => ("map layer", ProfileKind::MapLayer),
        };
        Drawer { name: format!("{what} '{}'", self.id), kind, at: self.origin.to_string() }
    }
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
pub(super) fn register(lua: &Lua, id: String, table: Table, kind: Drawn) -> mlua::Result<()> {
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

pub(super) fn unregister(lua: &Lua, id: &str, kind: Drawn) -> mlua::Result<bool> {
    let engine = engine(lua);
    let mut gui = engine.gui.borrow_mut();
    let list = kind.list(&mut gui);
    let before = list.len();
    list.retain(|w| w.id != id);
    Ok(list.len() != before)
}
