//! The File menu's dialogs: new and open project, and the question before quitting with
//! unsaved maps (the menu's entries and shortcuts are in [`crate::commands`]).

use std::path::PathBuf;

use nefia_runtime::host::{Command, MapCommand};

use crate::context::{AppRequest, EditorState};

/// A dialog of the File menu.
#[derive(Clone, Debug, PartialEq)]
pub enum FileDialog {
    /// Make a project in a new folder (loading the open project's mods).
    NewProject {
        /// The folder.
        dir: String,
        /// The project's name.
        name: String,
    },
    /// Open the project in a folder.
    OpenProject {
        /// The folder.
        dir: String,
    },
    /// The window is closing with unsaved maps.
    Unsaved {
        /// The maps with unsaved changes.
        maps: Vec<String>,
    },
}

/// Where closing the window stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Closing {
    /// Not closing.
    #[default]
    No,
    /// Close once every map is saved.
    AfterSave,
    /// Close, discarding unsaved changes.
    Confirmed,
}

/// File → New project…: asks for the folder and the name.
pub fn ask_new_project(state: &mut EditorState) {
    let parent = state.project.parent().map(|p| p.join("new_project")).unwrap_or_default();
    state.file_dialog = Some(FileDialog::NewProject { dir: parent.display().to_string(), name: "New project".into() });
}

/// File → Open project…: asks for the folder.
pub fn ask_open_project(state: &mut EditorState) {
    state.file_dialog = Some(FileDialog::OpenProject { dir: state.project.display().to_string() });
}

/// Stops the window from closing while maps have unsaved changes, and asks instead; closes
/// once they are saved (or discarded).
pub fn guard_close(state: &mut EditorState, ctx: &egui::Context) {
    let unsaved: Vec<String> = state.snapshot.map_files.iter().filter(|m| m.dirty).map(|m| m.name.clone()).collect();
    if state.closing == Closing::AfterSave && unsaved.is_empty() {
        state.closing = Closing::Confirmed;
        state.requests.push(AppRequest::Quit);
    }
    if ctx.input(|i| i.viewport().close_requested()) && state.closing != Closing::Confirmed && !unsaved.is_empty() {
        ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
        state.file_dialog = Some(FileDialog::Unsaved { maps: unsaved });
    }
}

/// The open dialog, if any.
pub fn dialog_ui(state: &mut EditorState, ctx: &egui::Context) {
    let Some(dialog) = &mut state.file_dialog else { return };
    let mut close = false;
    let mut open: Option<PathBuf> = None;
    let mut create: Option<(PathBuf, String)> = None;
    let mut closing = None;
    let modal = egui::Modal::new(egui::Id::new("nefia-file-dialog")).show(ctx, |ui| {
        match dialog {
            FileDialog::NewProject { dir, name } => {
                ui.heading("New project");
                egui::Grid::new("new-project").show(ui, |ui| {
                    ui.label("Folder");
                    let field = ui.add(egui::TextEdit::singleline(dir).desired_width(360.0));
                    crate::panes::accessible_name(ui, &field, "project folder");
                    ui.end_row();
                    ui.label("Name");
                    let field = ui.text_edit_singleline(name);
                    crate::panes::accessible_name(ui, &field, "project name");
                    ui.end_row();
                });
                ui.weak("It loads the open project's mods; make a map in the Maps pane.");
                if ui.button("Create").clicked() {
                    create = Some((PathBuf::from(dir.trim()), name.trim().to_owned()));
                }
            }
            FileDialog::OpenProject { dir } => {
                ui.heading("Open project");
                ui.label("The folder holding project.ron:");
                let field = ui.add(egui::TextEdit::singleline(dir).desired_width(360.0));
                crate::panes::accessible_name(ui, &field, "project folder");
                if ui.button("Open").clicked() {
                    open = Some(PathBuf::from(dir.trim()));
                }
            }
            FileDialog::Unsaved { maps } => {
                ui.heading("Unsaved changes");
                ui.label(format!("These maps have unsaved changes: {}.", maps.join(", ")));
                ui.horizontal(|ui| {
                    if ui.button("Save all and quit").clicked() {
                        closing = Some(Closing::AfterSave);
                    }
                    if ui.button("Quit without saving").clicked() {
                        closing = Some(Closing::Confirmed);
                    }
                });
            }
        }
        close |= ui.button("Cancel").clicked();
    });
    if close || modal.should_close() {
        state.file_dialog = None;
    }
    if let Some(closing) = closing {
        state.file_dialog = None;
        state.closing = closing;
        if closing == Closing::AfterSave {
            state.outbox.push(Command::Maps(MapCommand::SaveAll));
        } else {
            state.requests.push(AppRequest::Quit);
        }
    }
    if let Some(dir) = open {
        state.file_dialog = None;
        state.requests.push(AppRequest::OpenProject(dir));
    }
    if let Some((dir, name)) = create {
        state.file_dialog = None;
        match new_project(state, &dir, &name) {
            Ok(()) => state.requests.push(AppRequest::OpenProject(dir)),
            Err(error) => state.notice = Some((error, std::time::Instant::now())),
        }
    }
}

/// Makes a project in `dir` that loads the open project's mods from the same folders.
fn new_project(state: &EditorState, dir: &std::path::Path, name: &str) -> Result<(), String> {
    let current = nefia_runtime::project::Project::open(&state.project).map_err(|e| e.to_string())?;
    let absolute =
        |paths: Vec<PathBuf>| -> Vec<PathBuf> { paths.into_iter().filter_map(|p| p.canonicalize().ok()).collect() };
    let mod_dirs = absolute(current.mod_dirs());
    let asset_dirs = absolute(current.asset_dirs());
    nefia_runtime::map_files::create_project(dir, name, current.manifest.mods.clone(), mod_dirs, asset_dirs)
        .map(|_| ())
        .map_err(|e| e.to_string())
}
