//! The panes of the dock by name: what the app opens, the panes ask to bring to the front,
//! and the layout persists.

use serde::{Deserialize, Serialize};

/// A pane of the dock, in the View menu's order (`Tab::iter()`, from `strum`, lists the panes
/// the menu opens: every one but a pinned inspector).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, strum::EnumIter)]
pub enum Tab {
    /// The running game: map, HUD, UI layers.
    Viewport,
    /// Fields of the selected objects.
    Inspector,
    /// Fields of one object, whatever is selected (opened from the Inspector, not the menu).
    #[strum(disabled)]
    PinnedInspector(u64),
    /// Maps and what they hold.
    Locations,
    /// The project's map files.
    Maps,
    /// Tiles and objects to paint and place.
    Palette,
    /// The Lua REPL.
    Repl,
    /// Printed output, messages and log lines.
    Log,
    /// The Data pane: every data type and its entries, the selected one as a form.
    Prototypes,
    /// The UI layer stack, widgets and map draw layers.
    Layers,
    /// The editor's undo history.
    History,
    /// The mods found, enabled and loaded.
    Mods,
    /// The recorded play sessions and regression tests.
    Recordings,
    /// The watchpoints on object fields.
    Watches,
    /// Where each turn's time went.
    Profiler,
    /// Map generators: a seed's map previewed, regenerated on hotload.
    Workbench,
    /// What the map validators find on the current map.
    Problems,
    /// The locale files' keys, every language side by side.
    Locale,
}

impl Tab {
    /// The pane's title.
    pub fn title(self) -> String {
        match self {
            Tab::Viewport => "Viewport".into(),
            Tab::Inspector => "Inspector".into(),
            Tab::PinnedInspector(uid) => format!("Inspector · uid {uid}"),
            Tab::Locations => "Locations".into(),
            Tab::Repl => "REPL".into(),
            Tab::Log => "Log".into(),
            Tab::Prototypes => "Data".into(),
            Tab::Layers => "Layers".into(),
            Tab::History => "History".into(),
            Tab::Maps => "Maps".into(),
            Tab::Palette => "Palette".into(),
            Tab::Mods => "Mods".into(),
            Tab::Recordings => "Recordings".into(),
            Tab::Watches => "Watches".into(),
            Tab::Profiler => "Profiler".into(),
            Tab::Workbench => "Workbench".into(),
            Tab::Problems => "Problems".into(),
            Tab::Locale => "Locale".into(),
        }
    }
}
