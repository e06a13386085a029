//! The editor's panes, one file each, and the one [`TabViewer`] that shows them in the dock.

pub mod history;
pub mod inspector;
pub mod layers;
pub mod locations;
pub mod log;
pub mod maps;
pub mod palette;
pub mod prototypes;
pub mod repl;
pub mod viewport;

use egui::{Ui, WidgetText};
use egui_dock::TabViewer;
use serde::{Deserialize, Serialize};

use crate::context::EditorState;

/// A pane of the dock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Tab {
    /// The running game: map, HUD, UI layers.
    Viewport,
    /// Fields of the selected objects.
    Inspector,
    /// Fields of one object, whatever is selected.
    PinnedInspector(u64),
    /// Maps and what they hold.
    Locations,
    /// The Lua REPL.
    Repl,
    /// Printed output, messages and log lines.
    Log,
    /// Every data type and its entries.
    Prototypes,
    /// The UI layer stack, widgets and map draw layers.
    Layers,
    /// The editor's undo history.
    History,
    /// The project's map files.
    Maps,
    /// Tiles and objects to paint and place.
    Palette,
}

impl Tab {
    /// Every pane, in menu order.
    pub const ALL: [Tab; 10] = [
        Tab::Viewport,
        Tab::Inspector,
        Tab::Locations,
        Tab::Maps,
        Tab::Palette,
        Tab::Repl,
        Tab::Log,
        Tab::Prototypes,
        Tab::Layers,
        Tab::History,
    ];

    /// The pane's title.
    pub fn title(self) -> String {
        match self {
            Tab::Viewport => "Viewport".into(),
            Tab::Inspector => "Inspector".into(),
            Tab::PinnedInspector(uid) => format!("Inspector · uid {uid}"),
            Tab::Locations => "Locations".into(),
            Tab::Repl => "REPL".into(),
            Tab::Log => "Log".into(),
            Tab::Prototypes => "Prototypes".into(),
            Tab::Layers => "Layers".into(),
            Tab::History => "History".into(),
            Tab::Maps => "Maps".into(),
            Tab::Palette => "Palette".into(),
        }
    }
}

/// Names a widget for screen readers and tests (`get_by_label`) when it shows no label of
/// its own, such as a text box.
pub fn accessible_name(ui: &Ui, response: &egui::Response, name: impl Into<String>) {
    let name = name.into();
    ui.ctx().accesskit_node_builder(response.id, |node| node.set_label(name));
}

/// Shows panes over the editor's state.
pub struct Panes<'a> {
    /// The state every pane reads and writes.
    pub state: &'a mut EditorState,
}

impl TabViewer for Panes<'_> {
    type Tab = Tab;

    fn title(&mut self, tab: &mut Tab) -> WidgetText {
        tab.title().into()
    }

    fn id(&mut self, tab: &mut Tab) -> egui::Id {
        egui::Id::new(("nefia-tab", *tab))
    }

    fn ui(&mut self, ui: &mut Ui, tab: &mut Tab) {
        match tab {
            Tab::Viewport => viewport::ui(ui, self.state),
            Tab::Inspector => inspector::ui(ui, self.state, None),
            Tab::PinnedInspector(uid) => inspector::ui(ui, self.state, Some(*uid)),
            Tab::Locations => locations::ui(ui, self.state),
            Tab::Repl => repl::ui(ui, self.state),
            Tab::Log => log::ui(ui, self.state),
            Tab::Prototypes => prototypes::ui(ui, self.state),
            Tab::Layers => layers::ui(ui, self.state),
            Tab::History => history::ui(ui, self.state),
            Tab::Maps => maps::ui(ui, self.state),
            Tab::Palette => palette::ui(ui, self.state),
        }
    }

    fn is_closeable(&self, tab: &Tab) -> bool {
        *tab != Tab::Viewport
    }
}
