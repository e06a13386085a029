//! The dock application: menus, status bar and the panes around the running game.
//!
//! The game runs on the runtime thread ([`HostHandle`]); every frame the editor takes the
//! latest snapshot and the events that arrived, shows them, and sends the commands the panes
//! queued. The layout is saved with eframe's storage and restored on start.
//!
//! The actions of [`crate::commands`] are done here: [`EditorApp::enabled`] says when each can
//! be, [`EditorApp::perform`] how (the viewport takes the actions of its own scopes: tools,
//! brush sizes, object keys). Before the panes are drawn, `bring_forward_news` brings a pane
//! forward once per piece of news: the REPL (its input given the keyboard) on each new break,
//! the REPL when the game stops on an error, Problems the first time a map shows merge
//! conflicts or validator problems.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use egui_dock::{DockArea, DockState, NodeIndex, Style};
use nefia_game::Uid;
use nefia_game::display::{LogLevel, LogLine};
use nefia_game::symbol::Symbol;
use nefia_host::{AttachError, HostConfig, HostHandle};
use nefia_protocol::debugging::DebugCommand;
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::maps::MapCommand;
use nefia_protocol::message::RefusalKind;
use nefia_protocol::message::{Command, HostEvent};
use nefia_protocol::mods::ModCommand;
use nefia_protocol::output::Output;
use nefia_protocol::play::PlayCommand;
use strum::IntoEnumIterator;

use crate::commands::{self, Action, Menu, Scope};
use crate::context::Tab;
use crate::context::{AppRequest, EditorContext};
use crate::file_dialogs;
use crate::file_dialogs::{FileDialog, FileDialogs};
use crate::panes::PaneStates;
use crate::panes::Panes;

mod save_note;
mod window;
use save_note::SaveNote;
pub use window::{run, run_attached, run_serving};

/// The storage key of the dock layout.
const DOCK_KEY: &str = "nefia-dock-v2";

/// How long a command may run before the status bar calls the runtime busy.
const BUSY_AFTER: Duration = Duration::from_millis(150);
/// After how long long work shows what it is doing in the status bar.
const PROGRESS_AFTER: Duration = Duration::from_millis(500);

/// The editor.
pub struct EditorApp {
    host: HostHandle,
    dock: DockState<Tab>,
    state: EditorContext,
    panes: PaneStates,
    dialogs: FileDialogs,
    titled: Option<String>,
    help: crate::help::Help,
    /// Play sessions are recorded and edits journaled (in each project opened).
    record: bool,
    /// What has been brought forward already: see [`EditorApp::bring_forward_news`].
    brought_forward: BroughtForward,
    /// What came of the last save, for the status bar: see [`SaveNote`].
    save_note: SaveNote,
}

/// The news the editor brought a pane forward for, so it does so once each.
#[derive(Default)]
struct BroughtForward {
    /// The break (its id) the REPL came forward for.
    pause: Option<u64>,
    /// Whether the REPL came forward for the error the game stopped on.
    error: bool,
    /// The maps the Problems pane came forward for (once per map).
    problems: std::collections::BTreeSet<String>,
}

/// Attaches to the game at `address` and waits (briefly) for its first frame, which names
/// the project's folder the panes read files from.
fn attach_and_wait(
    address: &str,
    token: &str,
    repaint: Arc<dyn Fn() + Send + Sync>,
) -> Result<HostHandle, AttachError> {
    let host = HostHandle::attach(address, token, repaint)?;
    let deadline = Instant::now() + Duration::from_secs(5);
    while host.snapshot().serial == 0 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(5));
    }
    Ok(host)
}

/// Starts the runtime thread on `project`, repainting `ctx` when it has news; play sessions
/// are recorded in `<project>/recordings` and edits journaled in `<project>/.nefia/journal`
/// if `record`.
fn spawn_host(ctx: &egui::Context, project: &std::path::Path, record: bool) -> HostHandle {
    let repaint_ctx = ctx.clone();
    let mut config = HostConfig::recorded(project.to_owned(), Arc::new(move || repaint_ctx.request_repaint()));
    if !record {
        (config.recordings, config.journal) = (None, None);
    }
    HostHandle::spawn(config)
}

impl EditorApp {
    /// Opens the editor on `project`, restoring the layout from `storage` if there is one.
    /// Play sessions are recorded in the project's `recordings/`.
    pub fn new(ctx: &egui::Context, project: PathBuf, storage: Option<&dyn eframe::Storage>) -> EditorApp {
        EditorApp::recording(ctx, project, storage, true)
    }

    /// [`EditorApp::new`], then opens `recording` in the timeline (`nefia edit --recording`)
    /// once the project is open.
    pub fn opening(
        ctx: &egui::Context,
        project: PathBuf,
        recording: Option<PathBuf>,
        storage: Option<&dyn eframe::Storage>,
    ) -> EditorApp {
        let app = EditorApp::new(ctx, project, storage);
        if let Some(path) = recording {
            // Commands wait in order: this one runs once the project has opened.
            app.host.send(Command::Play(PlayCommand::OpenRecording(path)));
        }
        app
    }

    /// Opens the editor on `project`, recording play sessions only if `record` (tests on the
    /// repository's own project leave it as it is).
    pub fn recording(
        ctx: &egui::Context,
        project: PathBuf,
        storage: Option<&dyn eframe::Storage>,
        record: bool,
    ) -> EditorApp {
        let host = spawn_host(ctx, &project, record);
        EditorApp::with_host(ctx, host, project, storage, record)
    }

    /// The editor on the game `host` serves, whose project is in `project`.
    fn with_host(
        ctx: &egui::Context,
        host: HostHandle,
        project: PathBuf,
        storage: Option<&dyn eframe::Storage>,
        record: bool,
    ) -> EditorApp {
        crate::render::install_fonts(ctx);
        let dock = storage.and_then(|s| eframe::get_value(s, DOCK_KEY)).unwrap_or_else(default_dock);
        let state = EditorContext::new(project, host.snapshot());
        let panes = PaneStates::of_project(&state.project);
        EditorApp {
            state,
            panes,
            dialogs: FileDialogs::default(),
            host,
            dock,
            titled: None,
            help: crate::help::Help::default(),
            record,
            brought_forward: BroughtForward::default(),
            save_note: SaveNote::default(),
        }
    }

    /// The open project's folder.
    pub fn project_dir(&self) -> &std::path::Path {
        &self.state.project
    }

    /// Closes the open project and opens the one in `dir` (the layout stays).
    pub fn open_project(&mut self, ctx: &egui::Context, dir: PathBuf) {
        self.take_host(spawn_host(ctx, &dir, self.record), dir);
    }

    /// Works on the game `host` serves, whose project is in `project`, from now on: the
    /// panes start over, the layout stays.
    fn take_host(&mut self, host: HostHandle, project: PathBuf) {
        self.host = host;
        self.state = EditorContext::new(project, self.host.snapshot());
        self.panes = PaneStates::of_project(&self.state.project);
        self.dialogs = FileDialogs::default();
        self.brought_forward = BroughtForward::default();
    }

    /// Closes the open project (or game) and attaches to the game served at `address`
    /// (`nefia play --listen`), presenting `token`. The panes work on that game; its project
    /// folder, if it is on this machine, is the one the panes read files from.
    pub fn attach(&mut self, ctx: &egui::Context, address: &str, token: &str) -> Result<(), AttachError> {
        let repaint_ctx = ctx.clone();
        let host = attach_and_wait(address, token, Arc::new(move || repaint_ctx.request_repaint()))?;
        let project = host.snapshot().project_dir.clone();
        self.take_host(host, project);
        Ok(())
    }

    /// The dialog's Attach: refused while maps have unsaved changes; a failure stays in the
    /// dialog, which stays open.
    fn attach_from_dialog(&mut self, ctx: &egui::Context, address: String, token: String) {
        let unsaved: Vec<&str> =
            self.state.snapshot.maps.files.iter().filter(|m| m.dirty).map(|m| m.name.as_str()).collect();
        let failed = match unsaved.is_empty() {
            false => format!("These maps have unsaved changes: {}. Save or undo them first.", unsaved.join(", ")),
            true => match self.attach(ctx, &address, &token) {
                Ok(()) => return,
                Err(error) => error.to_string(),
            },
        };
        self.dialogs.open = Some(FileDialog::Attach { address, token, show_token: false, error: Some(failed) });
    }

    /// The address of the game attached to, if the editor is attached to one.
    pub fn attached(&self) -> Option<&str> {
        self.host.attached_to()
    }

    /// The panes' shared state.
    pub fn state(&self) -> &EditorContext {
        &self.state
    }

    /// The panes' shared state, mutably (tests drive the panes through it).
    pub fn state_mut(&mut self) -> &mut EditorContext {
        &mut self.state
    }

    /// Each pane's own state.
    pub fn panes(&self) -> &PaneStates {
        &self.panes
    }

    /// Each pane's own state, mutably (tests drive the panes through it).
    pub fn panes_mut(&mut self) -> &mut PaneStates {
        &mut self.panes
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
            self.save_note.heard(&event);
            match event {
                HostEvent::Output(output) => {
                    self.panes.repl.output(&output);
                    self.panes.log.push(output);
                }
                HostEvent::Evaluated { id, result } => self.panes.repl.answer(id, result),
                HostEvent::Refused(refused) => {
                    let reason = commands::refusal_text(&refused, &ctx);
                    if refused.kind == RefusalKind::Edit {
                        self.panes.data.edit_refused(&reason);
                    }
                    self.panes.log.push(Output::Log(LogLine { level: LogLevel::Warn, text: reason.clone() }));
                    self.state.notice = Some((reason, Instant::now()));
                }
                // The report is in the Log already (the runtime logs it).
                HostEvent::Panicked(report) => self.state.notice = Some((report.message, Instant::now())),
                HostEvent::Completions { id, candidates } => self.panes.repl.completed(id, candidates),
                HostEvent::Copied(clip) => {
                    let text = format!(
                        "Copied {}×{} cells and {} objects: Ctrl+V pastes at the cursor",
                        clip.width,
                        clip.height,
                        clip.objects.len()
                    );
                    self.state.notice = Some((text, Instant::now()));
                    self.state.level.clip = Some(clip);
                }
                HostEvent::Source(excerpt) => self.panes.repl.source = Some(excerpt),
                HostEvent::Changes { uid, field, entries } => {
                    self.panes.watches.changes = Some(crate::panes::watches::ChangeList { uid, field, entries });
                    self.state.requests.push(AppRequest::OpenTab(Tab::Watches));
                }
                HostEvent::Recovered(report) => self.state.recovery_report = Some(report),
                HostEvent::Usages { data_type, id, usages } => self.panes.data.usages = Some((data_type, id, usages)),
                // The editor does not list saves (the player window's Load game does), nor
                // wait on a barrier of its own (remote clients do).
                // The Inspector reads the inspected cell's explanation from the snapshot.
                HostEvent::Saves(_)
                | HostEvent::Synced { .. }
                | HostEvent::DebugAnswer { .. }
                | HostEvent::CellExplained(_) => {}
                HostEvent::Reloaded(reload) => {
                    if let Err(failure) = reload.outcome {
                        let text = format!("reload of {} rejected: {}", reload.file, failure.message);
                        self.state.notice = Some((text, Instant::now()));
                    }
                }
            }
        }
        self.state.busy = self.host.busy_for().is_some();
        self.state.snapshot = self.host.snapshot();
        if self.state.snapshot.editing.selections_by_script != self.state.selections_by_script {
            self.state.selections_by_script = self.state.snapshot.editing.selections_by_script;
            self.state.selection = self.state.snapshot.editing.selection.clone();
        }
        self.state.show_arrived();
        let snapshot = &self.state.snapshot;
        let current = snapshot.maps.files.iter().find(|m| m.current);
        let mut title = match current {
            Some(map) => format!("Nefia — {} — {}{}", snapshot.project, map.name, if map.dirty { " •" } else { "" }),
            None => format!("Nefia — {}", snapshot.project),
        };
        if let Some(address) = self.host.attached_to() {
            title.push_str(&format!(" (attached to {address})"));
        }
        show_title(&ctx, &mut self.titled, title);
        self.bring_forward_news(&ctx);
        // Before the panes, so that a shortcut the editor takes (Ctrl+Z stepping back while
        // playing) is not also a key for the game.
        self.shortcuts(&ctx);
        egui::Panel::top("nefia-menu").show(ui, |ui| self.menu_ui(ui));
        egui::Panel::bottom("nefia-status").show(ui, |ui| self.status_ui(ui));
        egui::CentralPanel::default().frame(egui::Frame::NONE).show(ui, |ui| {
            DockArea::new(&mut self.dock)
                .style(Style::from_egui(ui.style().as_ref()))
                .show_leaf_collapse_buttons(false)
                .show_inside(ui, &mut Panes { context: &mut self.state, states: &mut self.panes });
        });
        self.help.windows(&ctx, &self.state.snapshot);
        file_dialogs::dialog_ui(&mut self.dialogs, &mut self.state, &ctx);
        crate::recovery_dialog::ui(&ctx, &mut self.state);
        crate::conflicts::save_dialog(&ctx, &mut self.state);
        file_dialogs::guard_close(&mut self.dialogs, &mut self.state, &ctx);
        for request in std::mem::take(&mut self.state.requests) {
            match request {
                AppRequest::OpenProject(dir) => file_dialogs::open_or_ask(&mut self.dialogs, &self.state, dir),
                AppRequest::OpenTab(tab) => self.open_tab(tab),
                AppRequest::Pin(uid) => self.pin(uid),
                AppRequest::StopScript => self.host.stop(),
                AppRequest::Quit => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
                AppRequest::ShowPrototype { data_type, id } => {
                    self.panes.data.selected = Some((Symbol::intern(&data_type), Symbol::intern(&id)));
                    self.open_tab(Tab::Prototypes);
                }
                AppRequest::Warn(text) => self.panes.log.push(Output::Log(LogLine { level: LogLevel::Warn, text })),
            }
        }
        self.request_inspection();
        for command in self.state.outbox.drain(..) {
            self.save_note.sent(&command);
            self.host.send(command);
        }
        // A project to open (no unsaved maps, or the user chose): after the old one's commands.
        if let Some(dir) = self.dialogs.open_now.take() {
            self.open_project(&ctx, dir);
        }
        if let Some((address, token)) = self.dialogs.attach_now.take() {
            self.attach_from_dialog(&ctx, address, token);
        }
        if self.host.busy_for().is_some() {
            ctx.request_repaint_after(Duration::from_millis(100));
        }
    }

    /// The window's shortcuts (see [`crate::commands`]): those of the whole window, and
    /// those that wait while a text field has the keyboard (as it had it last frame). The
    /// viewport takes its own; the keys left over are the game's.
    fn shortcuts(&mut self, ctx: &egui::Context) {
        let mut actions = commands::pressed(ctx, Scope::Window, |a| self.enabled(a));
        let typing = ctx.memory(|m| m.focused().is_some()) && !self.state.viewport.has_focus;
        if !typing {
            actions.extend(commands::pressed(ctx, Scope::NotTyping, |a| self.enabled(a)));
        }
        for action in actions {
            self.perform(ctx, action);
        }
    }

    /// Whether `action` can be done now (its menu entry is greyed out, its shortcut left to
    /// others, otherwise). While playing, Ctrl+S and the other editing keys are the game's.
    pub fn enabled(&self, action: Action) -> bool {
        let snapshot = &self.state.snapshot;
        let (playing, paused) = (snapshot.play.playing, snapshot.debug.pause.is_some());
        match action {
            Action::SaveMap | Action::SaveAll | Action::Play | Action::PlayHere | Action::OpenRecording => !playing,
            // While a recorded session plays, undo and redo go through its turns (stepping
            // back undoes what was done in the turn, edits included).
            Action::Undo if playing && snapshot.play.recording.is_some() => {
                snapshot.play.recording.is_some_and(|r| r.can_step_back())
            }
            Action::Redo if playing && snapshot.play.recording.is_some() => {
                snapshot.play.recording.is_some_and(|r| r.forward > 0)
            }
            Action::Undo => snapshot.editing.history.done > 0,
            Action::Redo => snapshot.editing.history.done < snapshot.editing.history.labels.len(),
            Action::DeleteSelection | Action::DuplicateSelection => !playing && !self.state.selection.is_empty(),
            Action::StopPlay => playing,
            Action::Continue => paused,
            Action::BreakAtTurn => !paused,
            Action::StopScript => self.state.busy || paused,
            _ => true,
        }
    }

    /// Does `action` (from its shortcut or its menu entry).
    pub fn perform(&mut self, ctx: &egui::Context, action: Action) {
        let state = &mut self.state;
        match action {
            Action::NewProject => file_dialogs::ask_new_project(&mut self.dialogs, state),
            Action::OpenProject => file_dialogs::ask_open_project(&mut self.dialogs, state),
            Action::AttachGame => file_dialogs::ask_attach(&mut self.dialogs),
            Action::OpenRecording => state.requests.push(AppRequest::OpenTab(Tab::Recordings)),
            Action::ImportMap => file_dialogs::ask_import_map(&mut self.dialogs),
            Action::SaveMap => crate::conflicts::save(state, MapCommand::Save(None)),
            Action::SaveAll => crate::conflicts::save(state, MapCommand::SaveAll),
            Action::Quit => ctx.send_viewport_cmd(egui::ViewportCommand::Close),
            Action::Undo if state.snapshot.play.recording.is_some() => {
                state.outbox.push(Command::Play(PlayCommand::StepBack))
            }
            Action::Redo if state.snapshot.play.recording.is_some() => {
                state.outbox.push(Command::Play(PlayCommand::StepForward))
            }
            Action::Undo => state.outbox.push(Command::Editing(EditingCommand::Undo)),
            Action::Redo => state.outbox.push(Command::Editing(EditingCommand::Redo)),
            Action::ClearSelection => state.select(Vec::new()),
            Action::DeleteSelection => crate::tools::delete_selection(state),
            Action::DuplicateSelection => crate::tools::duplicate_selection(state),
            Action::FitMap => state.viewport.fit_requested = true,
            Action::ToggleGrid => state.viewport.toggles.grid = !state.viewport.toggles.grid,
            Action::ResetLayout => self.dock = default_dock(),
            Action::ToggleReplOverlay => state.viewport.repl_overlay = !state.viewport.repl_overlay,
            Action::Play => crate::play_controls::play(state, nefia_protocol::play::PlayFrom::Start),
            Action::PlayHere => crate::play_controls::play_here(state),
            Action::StopPlay => state.outbox.push(Command::Play(PlayCommand::Stop)),
            Action::Continue => state.outbox.push(Command::Debug(DebugCommand::Continue)),
            Action::BreakAtTurn => state.outbox.push(Command::Debug(DebugCommand::Break)),
            Action::StopScript => self.host.stop(),
            Action::Tool(tool) => state.level.tool = tool,
            Action::BrushSize(size) => state.level.brush = i32::from(size),
            // These need the cell under the cursor: the viewport does them.
            Action::CopyRegion | Action::Paste => {}
        }
    }

    /// The entries of `menu`, from the action table; the undo entries name what they undo.
    fn menu_entries_ui(&mut self, ui: &mut egui::Ui, menu: Menu) {
        for action in Action::all().into_iter().filter(|a| a.info().menu == Some(menu)) {
            let history = &self.state.snapshot.editing.history;
            let stepping = self.state.snapshot.play.recording.is_some();
            let label = match action {
                Action::Undo if stepping => Some("Step back a turn".to_owned()),
                Action::Redo if stepping => Some("Step forward a turn".to_owned()),
                Action::Undo => history.labels.get(history.done.wrapping_sub(1)).map(|l| format!("Undo {l}")),
                Action::Redo => history.labels.get(history.done).map(|l| format!("Redo {l}")),
                Action::ToggleGrid if self.state.viewport.toggles.grid => Some("✔ Grid".to_owned()),
                _ => None,
            };
            if commands::menu_button(ui, action, label, self.enabled(action)) {
                self.perform(ui.ctx(), action);
            }
        }
    }

    /// Opens an inspector pinned to `uid`, beside the Inspector if it is open.
    pub fn pin(&mut self, uid: Uid) {
        let tab = Tab::PinnedInspector(uid.0);
        if self.dock.find_tab(&tab).is_some() {
            self.open_tab(tab);
            return;
        }
        if let Some(path) = self.dock.find_tab(&Tab::Inspector) {
            self.dock.set_focused_node_and_surface(path.node_path());
        }
        self.dock.push_to_focused_leaf(tab);
    }

    /// Asks the runtime for the details of the selected objects and of the pinned ones.
    fn request_inspection(&mut self) {
        let mut uids = self.state.selection.clone();
        uids.extend(self.dock.iter_all_tabs().filter_map(|(_, tab)| match tab {
            Tab::PinnedInspector(uid) => Some(Uid(*uid)),
            _ => None,
        }));
        uids.dedup();
        if uids != self.state.inspecting {
            self.state.inspecting = uids.clone();
            self.state.outbox.push(Command::Editing(EditingCommand::Inspect(uids)));
        }
    }

    /// Brings forward the pane news is in, once each, before the panes are drawn: on a new
    /// break (a watch, `pause()`, a breakpoint, an error break) the REPL, its input given the
    /// keyboard; when the game stops on an error, the REPL (the error screen keeps the keys:
    /// Enter resumes, Escape goes to the REPL); the first time a map shows merge conflicts or
    /// validator problems, the Problems pane.
    fn bring_forward_news(&mut self, ctx: &egui::Context) {
        let snapshot = &self.state.snapshot;
        let pause = snapshot.debug.pause.as_ref().map(|p| p.id);
        let error = snapshot.state == nefia_protocol::view::RuntimeState::Error;
        let problems = match &snapshot.map {
            Some(map) if !snapshot.play.playing => {
                let conflicts = !map.conflicts.is_empty();
                let found = !snapshot.maps.problems.stale && !snapshot.maps.problems.problems.is_empty();
                (conflicts || found).then(|| map.name.clone())
            }
            _ => None,
        };
        if let Some(id) = pause
            && self.brought_forward.pause != Some(id)
        {
            self.brought_forward.pause = Some(id);
            self.open_tab(Tab::Repl);
            // Keys still held were the game's (the break came on one of them).
            let held = ctx.input(|i| i.keys_down.iter().copied().collect::<Vec<_>>());
            self.panes.repl.take_keyboard_at_break(held);
        }
        if error && !self.brought_forward.error {
            self.open_tab(Tab::Repl);
        }
        self.brought_forward.error = error;
        if let Some(map) = problems
            && self.brought_forward.problems.insert(map)
        {
            self.open_tab(Tab::Problems);
        }
    }

    /// Focuses `tab`, opening it in the focused leaf if it was closed.
    pub fn open_tab(&mut self, tab: Tab) {
        match self.dock.find_tab(&tab) {
            Some(path) => {
                if let Err(error) = self.dock.set_active_tab(path) {
                    tracing::debug!("{tab:?} could not be brought to the front: {error:?}");
                }
            }
            None => self.dock.push_to_focused_leaf(tab),
        }
    }

    fn menu_ui(&mut self, ui: &mut egui::Ui) {
        egui::MenuBar::new().ui(ui, |ui| {
            ui.menu_button("File", |ui| self.menu_entries_ui(ui, Menu::File));
            ui.menu_button("Edit", |ui| self.menu_entries_ui(ui, Menu::Edit));
            ui.menu_button("View", |ui| {
                for tab in Tab::iter() {
                    if ui.button(tab.title()).clicked() {
                        self.open_tab(tab);
                    }
                }
                ui.separator();
                self.menu_entries_ui(ui, Menu::View);
            });
            ui.menu_button("Play", |ui| self.menu_entries_ui(ui, Menu::Play));
            ui.menu_button("Mods", |ui| {
                if ui.button("Mods pane…").on_hover_text("Every mod found: enable, disable, load errors").clicked() {
                    self.open_tab(Tab::Mods);
                }
                ui.separator();
                ui.label("Reload a mod's files (saving a file reloads it by itself):");
                for id in self.state.snapshot.mods.loaded.iter() {
                    if ui.button(format!("Reload mod {id}")).clicked() {
                        self.state.outbox.push(Command::Mods(ModCommand::ReloadMod(id.clone())));
                    }
                }
            });
            ui.menu_button("Help", |ui| {
                if ui.button("Keyboard and mouse").clicked() {
                    self.help.keys = true;
                }
                if ui.button("About Nefia").clicked() {
                    self.help.about = true;
                }
            });
        });
    }

    fn status_ui(&mut self, ui: &mut egui::Ui) {
        let snapshot = &self.state.snapshot;
        ui.horizontal(|ui| {
            ui.label(format!("Project: {}", snapshot.project));
            if let Some(address) = self.host.attached_to() {
                ui.label(format!("attached to {address}"))
                    .on_hover_text("The game runs in another process; closing the editor leaves it running");
            }
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
            ui.label(crate::play_controls::status(&self.state));
            if snapshot.play.playing {
                match self.state.viewport.has_focus {
                    true => ui.weak("⌨ keys go to the game"),
                    false => ui.colored_label(egui::Color32::YELLOW, "⌨ click the map to play"),
                };
            }
            ui.separator();
            let busy = self.host.busy_for().is_some_and(|d| d > BUSY_AFTER);
            let state = if busy { "busy" } else { snapshot.state.label() };
            ui.label(format!("Runtime: {state}"));
            // Long work (opening the project, loading a save) says what it is doing.
            if self.host.busy_for().is_some_and(|d| d > PROGRESS_AFTER)
                && let Some(step) = self.host.progress()
            {
                ui.separator();
                ui.spinner();
                let text = match step.total {
                    0 => format!("Loading: {}", step.what),
                    total => format!("Loading: {} ({}/{total})", step.what, step.done + 1),
                };
                let fraction = if step.total == 0 { 0.0 } else { step.done as f32 / step.total as f32 };
                ui.add(egui::ProgressBar::new(fraction).desired_width(90.0));
                ui.label(text);
            }
            self.save_note.ui(ui);
            if let Some(fault) = &snapshot.fault {
                ui.separator();
                ui.colored_label(egui::Color32::LIGHT_RED, "⚠ recovered from a panic").on_hover_text(fault);
            }
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

/// Sets the window's title to `title` unless `shown` says it is already showing.
pub(crate) fn show_title(ctx: &egui::Context, shown: &mut Option<String>, title: String) {
    if shown.as_ref() != Some(&title) {
        ctx.send_viewport_cmd(egui::ViewportCommand::Title(title.clone()));
        *shown = Some(title);
    }
}

/// The default layout, every tab's title visible at 1280×800: the viewport in the middle,
/// Maps and Locations over Palette and Prototypes on the left, Inspector, History, Layers,
/// Mods and Locale on the right (wide enough for the inspector's five columns with the field names
/// whole), REPL, Log and Recordings below (tall enough for a transcript).
pub fn default_dock() -> DockState<Tab> {
    let mut dock = DockState::new(vec![Tab::Viewport]);
    let surface = dock.main_surface_mut();
    let [center, left] = surface.split_left(NodeIndex::root(), 0.18, vec![Tab::Maps, Tab::Locations]);
    surface.split_below(left, 0.36, vec![Tab::Palette, Tab::Prototypes]);
    let [center, _right] =
        surface.split_right(center, 0.59, vec![Tab::Inspector, Tab::History, Tab::Layers, Tab::Mods, Tab::Locale]);
    surface.split_below(
        center,
        0.62,
        vec![Tab::Repl, Tab::Log, Tab::Recordings, Tab::Watches, Tab::Profiler, Tab::Workbench, Tab::Problems],
    );
    dock
}
