//! The editor's panes, one file each, and the one [`TabViewer`] that shows them in the dock.

pub mod inspector;
pub mod layers;
pub mod locations;
pub mod log;
pub mod prototypes;
pub mod repl;
pub mod viewport;

use egui::{Ui, WidgetText};
use egui_dock::TabViewer;
use serde::{Deserialize, Serialize};

use crate::app::EditorState;

/// A pane of the dock.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Tab {
    /// The running game: map, HUD, UI layers.
    Viewport,
    /// Fields of the selected objects.
    Inspector,
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
}

impl Tab {
    /// Every pane, in menu order.
    pub const ALL: [Tab; 7] =
        [Tab::Viewport, Tab::Inspector, Tab::Locations, Tab::Repl, Tab::Log, Tab::Prototypes, Tab::Layers];

    /// The pane's title.
    pub fn title(self) -> &'static str {
        match self {
            Tab::Viewport => "Viewport",
            Tab::Inspector => "Inspector",
            Tab::Locations => "Locations",
            Tab::Repl => "REPL",
            Tab::Log => "Log",
            Tab::Prototypes => "Prototypes",
            Tab::Layers => "Layers",
        }
    }
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
            Tab::Inspector => inspector::ui(ui, self.state),
            Tab::Locations => locations::ui(ui, self.state),
            Tab::Repl => repl::ui(ui, self.state),
            Tab::Log => log::ui(ui, self.state),
            Tab::Prototypes => prototypes::ui(ui, self.state),
            Tab::Layers => layers::ui(ui, self.state),
        }
    }

    fn is_closeable(&self, tab: &Tab) -> bool {
        *tab != Tab::Viewport
    }
}
