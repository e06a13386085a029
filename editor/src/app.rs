//! The dock application: menus, status bar and the panes around the running game.
//!
//! The game runs on the runtime thread ([`HostHandle`]); every frame the editor takes the
//! latest snapshot and the events that arrived, shows them, and sends the commands the panes
//! queued. The layout is saved with eframe's storage and restored on start.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use egui_dock::{DockArea, DockState, NodeIndex, Style};
use nefia_runtime::Uid;
use nefia_runtime::host::{Command, Event, HostConfig, HostHandle};
use nefia_runtime::view::Snapshot;

use crate::panes::log::LogState;
use crate::panes::repl::ReplState;
use crate::panes::viewport::ViewportState;
use crate::panes::{Panes, Tab};

/// The storage key of the dock layout.
const DOCK_KEY: &str = "nefia-dock";

/// How long a command may run before the status bar calls the runtime busy.
const BUSY_AFTER: Duration = Duration::from_millis(150);

/// What the panes share.
pub struct EditorState {
    /// The latest snapshot of the game.
    pub snapshot: Arc<Snapshot>,
    /// The viewport's camera, toggles and caches.
    pub viewport: ViewportState,
    /// The log's lines.
    pub log: LogState,
    /// The REPL's history.
    pub repl: ReplState,
    /// The Prototypes pane's search text.
    pub prototype_search: String,
    /// The selected objects.
    pub selection: Vec<Uid>,
    /// Commands the panes queued this frame, sent after it.
    pub outbox: Vec<Command>,
}

/// The editor.
pub struct EditorApp {
    host: HostHandle,
    dock: DockState<Tab>,
    state: EditorState,
    titled: Option<String>,
    show_about: bool,
    show_shortcuts: bool,
}

impl EditorApp {
    /// Opens the editor on `project`, restoring the layout from `storage` if there is one.
    pub fn new(ctx: &egui::Context, project: PathBuf, storage: Option<&dyn eframe::Storage>) -> EditorApp {
        let repaint_ctx = ctx.clone();
        let host = HostHandle::spawn(HostConfig { project, repaint: Arc::new(move || repaint_ctx.request_repaint()) });
        let dock = storage.and_then(|s| eframe::get_value(s, DOCK_KEY)).unwrap_or_else(default_dock);
        EditorApp {
            state: EditorState {
                snapshot: host.snapshot(),
                viewport: ViewportState::default(),
                log: LogState::default(),
                repl: ReplState::default(),
                prototype_search: String::new(),
                selection: Vec::new(),
                outbox: Vec::new(),
            },
            host,
            dock,
            titled: None,
            show_about: false,
            show_shortcuts: false,
        }
    }

    /// The panes' shared state.
    pub fn state(&self) -> &EditorState {
        &self.state
    }

    /// The panes' shared state, mutably (tests drive the panes through it).
    pub fn state_mut(&mut self) -> &mut EditorState {
        &mut self.state
    }

    /// The dock layout.
    pub fn dock_mut(&mut self) -> &mut DockState<Tab> {
        &mut self.dock
    }

    /// The runtime thread.
    pub fn host(&self) -> &HostHandle {
        &self.host
    }

    /// Draws one frame into `ui` (the whole window).
    pub fn ui(&mut self, ui: &mut egui::Ui) {
        let ctx = ui.ctx().clone();
        for event in self.host.events() {
            match event {
                Event::Output(output) => self.state.log.push(output),
                Event::Evaluated { id, result } => self.state.repl.answer(id, result),
            }
        }
        self.state.snapshot = self.host.snapshot();
        let title = format!("Nefia — {}", self.state.snapshot.project);
        if self.titled.as_ref() != Some(&title) {
            ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
            self.titled = Some(title);
        }
        egui::Panel::top("nefia-menu").show(ui, |ui| self.menu_ui(ui));
        egui::Panel::bottom("nefia-status").show(ui, |ui| self.status_ui(ui));
        egui::CentralPanel::default().frame(egui::Frame::NONE).show(ui, |ui| {
            DockArea::new(&mut self.dock)
                .style(Style::from_egui(ui.style().as_ref()))
                .show_leaf_collapse_buttons(false)
                .show_inside(ui, &mut Panes { state: &mut self.state });
        });
        self.help_windows(&ctx);
        for command in self.state.outbox.drain(..) {
            self.host.send(command);
        }
        if self.host.busy_for().is_some() {
            ctx.request_repaint_after(Duration::from_millis(100));
        }
    }

    /// Focuses `tab`, opening it in the focused leaf if it was closed.
    pub fn open_tab(&mut self, tab: Tab) {
        match self.dock.find_tab(&tab) {
            Some(path) => {
                let _ = self.dock.set_active_tab(path);
            }
            None => self.dock.push_to_focused_leaf(tab),
        }
    }

    fn menu_ui(&mut self, ui: &mut egui::Ui) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| {
                if ui.button("Quit").clicked() {
                    ui.ctx().send_viewport_cmd(egui::ViewportCommand::Close);
                }
            });
            ui.menu_button("Edit", |ui| {
                if ui.button("Clear selection").clicked() {
                    self.state.selection.clear();
                    self.state.outbox.push(Command::Select(Vec::new()));
                }
            });
            ui.menu_button("View", |ui| {
                for tab in Tab::ALL {
                    if ui.button(tab.title()).clicked() {
                        self.open_tab(tab);
                    }
                }
                ui.separator();
                if ui.button("Fit map").clicked() {
                    self.state.viewport.fit_requested = true;
                }
                ui.checkbox(&mut self.state.viewport.toggles.grid, "Grid");
                ui.separator();
                if ui.button("Reset layout").clicked() {
                    self.dock = default_dock();
                }
            });
            ui.menu_button("Play", |ui| {
                if ui.button("Refresh the player's sight").clicked() {
                    self.state.outbox.push(Command::Eval { id: 0, code: "World.refresh_sight()".into() });
                }
            });
            ui.menu_button("Help", |ui| {
                if ui.button("Keyboard and mouse").clicked() {
                    self.show_shortcuts = true;
                }
                if ui.button("About Nefia").clicked() {
                    self.show_about = true;
                }
            });
        });
    }

    fn status_ui(&mut self, ui: &mut egui::Ui) {
        let snapshot = &self.state.snapshot;
        ui.horizontal(|ui| {
            ui.label(format!("Project: {}", snapshot.project));
            ui.separator();
            match &snapshot.map {
                Some(map) => ui.label(format!("Map: {} ({}×{})", map.name, map.width, map.height)),
                None => ui.label("Map: none"),
            };
            ui.separator();
            match self.state.viewport.hovered {
                Some((x, y)) => ui.label(format!("Cell: {x}, {y}")),
                None => ui.label("Cell: —"),
            };
            ui.separator();
            ui.label(format!("Turn {} · {}", snapshot.turn, snapshot.date));
            ui.separator();
            let busy = self.host.busy_for().is_some_and(|d| d > BUSY_AFTER);
            let state = if busy { "busy" } else { snapshot.state.label() };
            ui.label(format!("Runtime: {state}"));
        });
    }

    fn help_windows(&mut self, ctx: &egui::Context) {
        egui::Window::new("About Nefia").open(&mut self.show_about).show(ctx, |ui| {
            ui.label(format!("Nefia {}", env!("CARGO_PKG_VERSION")));
            ui.label("An editor-centric 2D roguelike engine in the spirit of OpenNefia.");
        });
        egui::Window::new("Keyboard and mouse").open(&mut self.show_shortcuts).show(ctx, |ui| {
            egui::Grid::new("shortcuts").show(ui, |ui| {
                for (keys, action) in [
                    ("Mouse wheel", "zoom the viewport at the cursor"),
                    ("Middle drag, Space + drag", "pan the viewport"),
                    ("Click", "select the object on a cell and give the game the keyboard"),
                    ("` (backquote) in the viewport", "show or hide the REPL over the game"),
                    ("Arrows, Enter, Escape, a/b/c…", "answer prompts and menus"),
                    ("Enter / Shift+Enter", "run REPL input / add a line"),
                ] {
                    ui.strong(keys);
                    ui.label(action);
                    ui.end_row();
                }
            });
        });
    }
}

impl eframe::App for EditorApp {
    fn ui(&mut self, ui: &mut egui::Ui, _frame: &mut eframe::Frame) {
        EditorApp::ui(self, ui);
    }

    fn save(&mut self, storage: &mut dyn eframe::Storage) {
        eframe::set_value(storage, DOCK_KEY, &self.dock);
    }
}

/// The default layout: the viewport in the middle, Locations and Prototypes on the left,
/// Inspector and Layers on the right, REPL and Log below.
pub fn default_dock() -> DockState<Tab> {
    let mut dock = DockState::new(vec![Tab::Viewport]);
    let surface = dock.main_surface_mut();
    let [center, _left] = surface.split_left(NodeIndex::root(), 0.2, vec![Tab::Locations, Tab::Prototypes]);
    let [center, _right] = surface.split_right(center, 0.75, vec![Tab::Inspector, Tab::Layers]);
    surface.split_below(center, 0.72, vec![Tab::Repl, Tab::Log]);
    dock
}

/// Runs the editor window on `project`.
pub fn run(project: PathBuf) -> eframe::Result<()> {
    let options = eframe::NativeOptions {
        viewport: egui::ViewportBuilder::default().with_title("Nefia").with_inner_size([1280.0, 800.0]),
        ..Default::default()
    };
    eframe::run_native(
        "nefia",
        options,
        Box::new(move |cc| Ok(Box::new(EditorApp::new(&cc.egui_ctx, project, cc.storage)))),
    )
}
