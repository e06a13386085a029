//! The File menu's dialogs: new and open project, and the question before quitting with
//! unsaved maps (the menu's entries and shortcuts are in [`crate::commands`]).

use std::path::PathBuf;

use nefia_runtime::host::{Command, MapCommand};

use crate::context::{AppRequest, EditorContext};

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

/// The File menu's dialog and where closing the window stands: the app's, since only the
/// app opens projects and closes the window.
#[derive(Debug, Default)]
pub struct FileDialogs {
    /// The open dialog, if any.
    pub open: Option<FileDialog>,
    /// Where closing the window stands (unsaved maps are asked about first).
    pub closing: Closing,
}

/// File → New project…: asks for the folder and the name.
pub fn ask_new_project(dialogs: &mut FileDialogs, state: &EditorContext) {
    let parent = state.project.parent().map(|p| p.join("new_project")).unwrap_or_default();
    dialogs.open = Some(FileDialog::NewProject { dir: parent.display().to_string(), name: "New project".into() });
}

/// File → Open project…: asks for the folder.
pub fn ask_open_project(dialogs: &mut FileDialogs, state: &EditorContext) {
    dialogs.open = Some(FileDialog::OpenProject { dir: state.project.display().to_string() });
}

/// Stops the window from closing while maps have unsaved changes, and asks instead; closes
/// once they are saved (or discarded).
pub fn guard_close(dialogs: &mut FileDialogs, state: &mut EditorContext, ctx: &egui::Context) {
    let unsaved: Vec<String> = state.snapshot.map_files.iter().filter(|m| m.dirty).map(|m| m.name.clone()).collect();
    if dialogs.closing == Closing::AfterSave && unsaved.is_empty() {
        dialogs.closing = Closing::Confirmed;
        state.requests.push(AppRequest::Quit);
    }
    if ctx.input(|i| i.viewport().close_requested()) && dialogs.closing != Closing::Confirmed && !unsaved.is_empty() {
        ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
        dialogs.open = Some(FileDialog::Unsaved { maps: unsaved });
    }
}

/// The open dialog, if any.
pub fn dialog_ui(dialogs: &mut FileDialogs, state: &mut EditorContext, ctx: &egui::Context) {
    let Some(dialog) = &mut dialogs.open else { return };
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
        dialogs.open = None;
    }
    if let Some(closing) = closing {
        dialogs.open = None;
        dialogs.closing = closing;
        if closing == Closing::AfterSave {
            state.outbox.push(Command::Maps(MapCommand::SaveAll));
        } else {
            state.requests.push(AppRequest::Quit);
        }
    }
    if let Some(dir) = open {
        dialogs.open = None;
        state.requests.push(AppRequest::OpenProject(dir));
    }
    if let Some((dir, name)) = create {
        dialogs.open = None;
        match new_project(state, &dir, &name) {
            Ok(()) => state.requests.push(AppRequest::OpenProject(dir)),
            Err(error) => state.notice = Some((error, std::time::Instant::now())),
        }
    }
}

/// Makes a project in `dir` that loads the open project's mods from the same folders.
fn new_project(state: &EditorContext, dir: &std::path::Path, name: &str) -> Result<(), String> {
    let current = nefia_runtime::project::Project::open(&state.project).map_err(|e| e.to_string())?;
    let absolute =
        |paths: Vec<PathBuf>| -> Vec<PathBuf> { paths.into_iter().filter_map(|p| p.canonicalize().ok()).collect() };
    let mod_dirs = absolute(current.mod_dirs());
    let asset_dirs = absolute(current.asset_dirs());
    nefia_runtime::map_files::create_project(dir, name, current.manifest.mods.clone(), mod_dirs, asset_dirs)
        .map(|_| ())
        .map_err(|e| e.to_string())
}
