//! The File menu's dialogs: new and open project, attach, import a map, and the question before quitting or
//! opening another project with unsaved maps (the menu's entries and shortcuts are in
//! [`crate::commands`]).

use std::path::PathBuf;

use nefia_protocol::maps::MapCommand;
use nefia_protocol::message::Command;

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
    /// Attach to a game running in another process (`nefia play --listen`).
    Attach {
        /// Its address, `127.0.0.1:7777`.
        address: String,
        /// The token it printed.
        token: String,
        /// The token is shown as typed (it is masked otherwise: the screen may be shared).
        show_token: bool,
        /// Why the last try failed, if it did.
        error: Option<String>,
    },
    /// Import a Tiled or LDtk map (see `nefia import` and [`crate::import_dialog`]).
    ImportMap(crate::import_dialog::ImportForm),
    /// The window is closing, or another project opening, with unsaved maps.
    Unsaved {
        /// The maps with unsaved changes.
        maps: Vec<String>,
        /// What happens once they are saved or discarded.
        then: Leaving,
    },
}

/// What leaves the open project: quitting, or opening a project (maybe the same again).
#[derive(Clone, Debug, PartialEq)]
pub enum Leaving {
    /// The window closes.
    Quit,
    /// The project in this folder opens.
    Open(PathBuf),
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
    /// A project to open once every map is saved.
    pub open_after_save: Option<PathBuf>,
    /// A project to open now (the app takes it).
    pub open_now: Option<PathBuf>,
    /// A game to attach to now, by address and token (the app takes it).
    pub attach_now: Option<(String, String)>,
    /// What File → Import map… last imported: the dialog opens with it.
    pub last_import: Option<crate::import_dialog::ImportForm>,
}

/// Opening the project in `dir`: at once if no map has unsaved changes, otherwise after
/// asking (save all first, or discard). The app opens what [`FileDialogs::open_now`] holds.
pub fn open_or_ask(dialogs: &mut FileDialogs, state: &EditorContext, dir: PathBuf) {
    let unsaved = unsaved_maps(state);
    if unsaved.is_empty() {
        dialogs.open_now = Some(dir);
    } else {
        dialogs.open = Some(FileDialog::Unsaved { maps: unsaved, then: Leaving::Open(dir) });
    }
}

fn unsaved_maps(state: &EditorContext) -> Vec<String> {
    state.snapshot.maps.files.iter().filter(|m| m.dirty).map(|m| m.name.clone()).collect()
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

/// File → Import map…: asks for the file and its mapping.
pub fn ask_import_map(dialogs: &mut FileDialogs) {
    let form = crate::import_dialog::ImportForm::remembered(dialogs.last_import.as_ref());
    dialogs.open = Some(FileDialog::ImportMap(form));
}

/// File → Attach to game…: asks for the address and the token.
pub fn ask_attach(dialogs: &mut FileDialogs) {
    let address = "127.0.0.1:7777".into();
    dialogs.open = Some(FileDialog::Attach { address, token: String::new(), show_token: false, error: None });
}

/// Stops the window from closing while maps have unsaved changes, and asks instead; closes
/// once they are saved (or discarded).
pub fn guard_close(dialogs: &mut FileDialogs, state: &mut EditorContext, ctx: &egui::Context) {
    let unsaved = unsaved_maps(state);
    if dialogs.closing == Closing::AfterSave && unsaved.is_empty() {
        dialogs.closing = Closing::Confirmed;
        state.requests.push(AppRequest::Quit);
    }
    if unsaved.is_empty()
        && let Some(dir) = dialogs.open_after_save.take()
    {
        dialogs.open_now = Some(dir);
    }
    if ctx.input(|i| i.viewport().close_requested()) && dialogs.closing != Closing::Confirmed && !unsaved.is_empty() {
        ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
        dialogs.open = Some(FileDialog::Unsaved { maps: unsaved, then: Leaving::Quit });
    }
}

/// The open dialog, if any.
pub fn dialog_ui(dialogs: &mut FileDialogs, state: &mut EditorContext, ctx: &egui::Context) {
    let Some(dialog) = &mut dialogs.open else { return };
    let mut close = false;
    let mut open: Option<PathBuf> = None;
    let mut create: Option<(PathBuf, String)> = None;
    let mut closing = None;
    // (open after saving, open now), chosen in the Unsaved dialog before opening a project.
    let mut dialogs_after: Option<(Option<PathBuf>, Option<PathBuf>)> = None;
    let mut imported = None;
    let modal = egui::Modal::new(egui::Id::new("nefia-file-dialog")).show(ctx, |ui| {
        match dialog {
            FileDialog::NewProject { dir, name } => {
                ui.heading("New project");
                egui::Grid::new("new-project").show(ui, |ui| {
                    crate::dialog_rows::field_row(ui, ("Folder", "project folder"), dir, None);
                    crate::dialog_rows::field_row(ui, ("Name", "project name"), name, None);
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
                crate::accessibility::accessible_name(ui, &field, "project folder");
                if ui.button("Open").clicked() {
                    open = Some(PathBuf::from(dir.trim()));
                }
            }
            FileDialog::Attach { address, token, show_token, error } => {
                ui.heading("Attach to game");
                ui.label("A game started with nefia play --listen prints its address and token.");
                egui::Grid::new("attach-game").show(ui, |ui| {
                    crate::dialog_rows::field_row(ui, ("Address", "game address"), address, None);
                    crate::dialog_rows::field_row(ui, ("Token", "game token"), token, Some(show_token));
                });
                if let Some(error) = error {
                    ui.colored_label(ui.visuals().error_fg_color, error.as_str());
                }
                ui.weak("The project open here closes; the game goes on when you leave it.");
                if ui.button("Attach").clicked() {
                    dialogs.attach_now = Some((address.trim().to_owned(), token.trim().to_owned()));
                }
            }
            FileDialog::ImportMap(form) => {
                if crate::import_dialog::ui(ui, form, state) {
                    imported = Some(form.clone());
                    close = true;
                }
            }
            FileDialog::Unsaved { maps, then: Leaving::Quit } => {
                ui.heading("Unsaved changes");
                ui.label(format!("These maps have unsaved changes: {}.", maps.join(", ")));
                crate::conflicts::note_unresolved(ui, state);
                ui.horizontal(|ui| {
                    if ui.button("Save all and quit").clicked() {
                        closing = Some(Closing::AfterSave);
                    }
                    if ui.button("Quit without saving").clicked() {
                        closing = Some(Closing::Confirmed);
                    }
                });
            }
            FileDialog::Unsaved { maps, then: Leaving::Open(dir) } => {
                ui.heading("Unsaved changes");
                ui.label(format!("These maps have unsaved changes: {}.", maps.join(", ")));
                crate::conflicts::note_unresolved(ui, state);
                ui.label(format!("Opening {} closes this project.", dir.display()));
                ui.horizontal(|ui| {
                    if ui.button("Save all and open").clicked() {
                        state.outbox.push(Command::Maps(MapCommand::SaveAll));
                        dialogs_after = Some((Some(dir.clone()), None));
                    }
                    if ui.button("Open without saving").clicked() {
                        dialogs_after = Some((None, Some(dir.clone())));
                    }
                });
            }
        }
        close |= ui.button("Cancel").clicked();
    });
    if close || modal.should_close() {
        dialogs.open = None;
    }
    if imported.is_some() {
        dialogs.last_import = imported;
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
    if let Some((after_save, now)) = dialogs_after {
        dialogs.open = None;
        dialogs.open_after_save = after_save;
        dialogs.open_now = now;
    }
    if let Some(dir) = open {
        dialogs.open = None;
        state.requests.push(AppRequest::OpenProject(dir));
    }
    if let Some((dir, name)) = create {
        dialogs.open = None;
        match new_project(state, &dir, &name) {
            Ok(()) => state.requests.push(AppRequest::OpenProject(dir)),
            Err(error) => state.notice = Some((error.to_string(), std::time::Instant::now())),
        }
    }
}

/// Why File → New project made no project.
#[derive(Debug, thiserror::Error)]
enum NewProjectError {
    /// The open project's manifest, whose mods the new one takes, could not be read.
    #[error(transparent)]
    Current(#[from] nefia_game::files::FileError),
    /// The new project could not be written (the folder holds one already, or cannot be written).
    #[error(transparent)]
    Create(#[from] nefia_game::map_files::MapFileError),
}

/// Makes a project in `dir` that loads the open project's mods from the same folders.
fn new_project(state: &EditorContext, dir: &std::path::Path, name: &str) -> Result<(), NewProjectError> {
    let current = nefia_game::project::Project::open(&state.project)?;
    let absolute =
        |paths: Vec<PathBuf>| -> Vec<PathBuf> { paths.into_iter().filter_map(|p| p.canonicalize().ok()).collect() };
    let mod_dirs = absolute(current.mod_dirs());
    let asset_dirs = absolute(current.asset_dirs());
    nefia_game::map_files::create_project(dir, name, current.manifest.mods.clone(), mod_dirs, asset_dirs)?;
    Ok(())
}
