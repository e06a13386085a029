//! The editor's panes, one file each, and the one [`TabViewer`] that shows them in the dock.
//!
//! Each pane's own state is a part of [`PaneStates`], which the app owns; a pane's `ui`
//! borrows the shared [`EditorContext`] and its own part only, so no pane imports the app.
//! egui_dock leaves its tab buttons unnamed: [`TabViewer::on_tab_button`] gives each the title
//! it shows (Problems with how many problems it lists) as its accessible name, which the tests
//! find tabs by.

pub mod data_pane;
pub mod field_editor;
pub mod history;
pub mod inspector;
pub mod invariants;
pub mod layers;
pub mod locale;
pub mod locations;
pub mod log;
pub mod maps;
pub mod mods;
pub mod palette;
pub mod problems;
pub mod profiler;
pub mod recordings;
pub mod repl;
pub mod tile_why;
pub mod viewport;
pub mod watches;
pub mod workbench;

use egui::{Ui, WidgetText};
use egui_dock::TabViewer;

use crate::context::{EditorContext, Tab};

/// Each pane's own state: what it keeps between frames that no other pane reads. The app
/// owns it; a pane borrows only its own part, next to the shared [`EditorContext`].
#[derive(Default)]
pub struct PaneStates {
    /// The Log's lines.
    pub log: log::LogState,
    /// The REPL's transcript, history and input.
    pub repl: repl::ReplState,
    /// The Data pane's search text and selected prototype.
    pub data: data_pane::DataState,
    /// The Maps pane's selection and dialog.
    pub maps: maps::MapsState,
    /// The inspectors' filters and expanded rows.
    pub inspector: inspector::InspectorState,
    /// The Locations pane's search and expanded nodes.
    pub locations: locations::LocationsState,
    /// The Mods pane's note of changes not yet applied.
    pub mods: mods::ModsState,
    /// The recordings listed and the checks running.
    pub recordings: recordings::RecordingsState,
    /// The last answer to "When did this change?".
    pub watches: watches::WatchesState,
    /// The Profiler's picked turn and order.
    pub profiler: profiler::ProfilerState,
    /// The Workbench's generator, params and seed.
    pub workbench: workbench::WorkbenchState,
    /// The Locale pane's filter, files read and text being edited.
    pub locale: locale::LocaleState,
}

impl PaneStates {
    /// The panes' state on opening the project in `project` (the REPL's history is the
    /// project's).
    pub fn of_project(project: &std::path::Path) -> PaneStates {
        PaneStates {
            repl: repl::ReplState::with_history_file(repl::ReplState::history_file_of(project)),
            ..PaneStates::default()
        }
    }
}

/// Shows panes over the editor's context and their own states.
pub struct Panes<'a> {
    /// The state every pane reads and writes.
    pub context: &'a mut EditorContext,
    /// Each pane's own state.
    pub states: &'a mut PaneStates,
}

impl Panes<'_> {
    /// The title on `tab`'s button: the Problems tab counts what it lists.
    fn shown_title(&self, tab: Tab) -> String {
        match tab {
            Tab::Problems => match problems::count(&self.context.snapshot) {
                0 => tab.title(),
                count => format!("{} ({count})", tab.title()),
            },
            _ => tab.title(),
        }
    }
}

impl TabViewer for Panes<'_> {
    type Tab = Tab;

    fn title(&mut self, tab: &mut Tab) -> WidgetText {
        self.shown_title(*tab).into()
    }

    fn id(&mut self, tab: &mut Tab) -> egui::Id {
        egui::Id::new(("nefia-tab", *tab))
    }

    fn ui(&mut self, ui: &mut Ui, tab: &mut Tab) {
        match tab {
            Tab::Viewport => viewport::ui(ui, self.context, &mut self.states.repl),
            Tab::Inspector => inspector::ui(ui, self.context, &mut self.states.inspector, None),
            Tab::PinnedInspector(uid) => inspector::ui(ui, self.context, &mut self.states.inspector, Some(*uid)),
            Tab::Locations => locations::ui(ui, self.context, &mut self.states.locations),
            Tab::Repl => repl::ui(ui, self.context, &mut self.states.repl),
            Tab::Log => log::ui(ui, &mut self.states.log),
            Tab::Prototypes => data_pane::ui(ui, self.context, &mut self.states.data),
            Tab::Layers => layers::ui(ui, self.context),
            Tab::History => history::ui(ui, self.context),
            Tab::Maps => maps::ui(ui, self.context, &mut self.states.maps),
            Tab::Palette => palette::ui(ui, self.context),
            Tab::Mods => mods::ui(ui, self.context, &mut self.states.mods),
            Tab::Recordings => recordings::ui(ui, self.context, &mut self.states.recordings),
            Tab::Watches => watches::ui(ui, self.context, &mut self.states.watches),
            Tab::Profiler => profiler::ui(ui, self.context, &mut self.states.profiler),
            Tab::Workbench => workbench::ui(ui, self.context, &mut self.states.workbench),
            Tab::Problems => problems::ui(ui, self.context),
            Tab::Locale => locale::ui(ui, self.context, &mut self.states.locale),
        }
    }

    /// Names the tab's button (egui_dock gives it none), so screen readers and tests find
    /// the tab by its title.
    fn on_tab_button(&mut self, tab: &mut Tab, response: &egui::Response) {
        let title = self.shown_title(*tab);
        response.ctx.accesskit_node_builder(response.id, |node| {
            node.set_role(egui::accesskit::Role::Tab);
            node.set_label(title);
        });
    }

    /// The Profiler scrolls its table alone, under a chart that stays; the other panes
    /// scroll as a whole.
    fn scroll_bars(&self, tab: &Tab) -> [bool; 2] {
        match tab {
            Tab::Profiler => [false, false],
            _ => [true, true],
        }
    }

    fn is_closeable(&self, tab: &Tab) -> bool {
        *tab != Tab::Viewport
    }
}
