//! What the Data pane does to a whole prototype, above its form: Duplicate (a new id, after
//! the original or into another file of its mod), New (the type's template, into a chosen
//! file), Delete (the host refuses while anything uses it) and Where used (each place a link);
//! and below it, the source of the fields that hold functions, read-only, with "Open in code
//! editor" (a command the user sets, `code -g {file}:{line}` by default).

use egui::Ui;
use nefia_game::edit::Edit;
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::editing::Usage;
use nefia_protocol::message::Command;
use nefia_protocol::play::PlayCommand;
use nefia_protocol::view::{DataTypeView, FunctionSource, PrototypeView};

use super::DataState;
use crate::context::EditorContext;
use crate::links;

/// The command "Open in code editor" runs unless the user sets another: `{file}` and `{line}`
/// are replaced by the function's file and line.
pub const DEFAULT_CODE_COMMAND: &str = "code -g {file}:{line}";

/// Duplicate, New, Delete and Where used for prototype `proto` of `data_type`, each on a line
/// of its own in a narrow pane.
pub(super) fn actions_ui(
    ui: &mut Ui,
    state: &mut EditorContext,
    data: &mut DataState,
    types: &[DataTypeView],
    data_type: &DataTypeView,
    proto: &PrototypeView,
) {
    let (type_id, id) = (data_type.id.as_str().to_owned(), proto.id.as_str().to_owned());
    let mod_id = id.split_once('.').map_or("", |(m, _)| m);
    if data.new_id.is_empty() {
        data.new_id = format!("{mod_id}.");
    }
    // Nothing typed after the mod's id: Duplicate names the copy after the original.
    let copy_id = match data.new_id.trim() {
        typed if typed.is_empty() || typed.ends_with('.') => free_copy_id(data_type, &id),
        typed => typed.to_owned(),
    };
    let mut edit = None;
    ui.horizontal_wrapped(|ui| {
        ui.spacing_mut().item_spacing.x = 4.0;
        if ui.button("Duplicate").on_hover_text(format!("Copy this prototype as {copy_id}")).clicked() {
            let file = data.file.clone();
            edit = Some(Edit::DuplicatePrototype {
                data_type: type_id.clone(),
                id: id.clone(),
                new_id: copy_id.clone(),
                file,
            });
        }
        let new_file = data.file.clone().or_else(|| origin_file(&proto.origin).map(str::to_owned));
        let new = ui
            .button("New")
            .on_hover_text(format!("A new {type_id} with its type's template fields, at the end of the file"));
        if new.clicked()
            && let Some(file) = new_file
        {
            edit = Some(Edit::NewPrototype { data_type: type_id.clone(), new_id: data.new_id.trim().to_owned(), file });
        }
        if ui.button("Delete").on_hover_text("Remove it from its file; refused while anything uses it").clicked() {
            edit = Some(Edit::DeletePrototype { data_type: type_id.clone(), id: id.clone() });
        }
        if ui.button("Where used").clicked() {
            state
                .outbox
                .push(Command::Editing(EditingCommand::WhereUsed { data_type: type_id.clone(), id: id.clone() }));
        }
    });
    let labels = ["New id:", "Into:"].map(|text| {
        let text = egui::WidgetText::from(text);
        text.into_galley(ui, Some(egui::TextWrapMode::Extend), f32::INFINITY, egui::TextStyle::Body).size().x
    });
    let label_width = labels[0].max(labels[1]);
    ui.horizontal(|ui| {
        ui.add_sized([label_width, 18.0], egui::Label::new("New id:"));
        let typed = ui.add(
            egui::TextEdit::singleline(&mut data.new_id)
                .hint_text(copy_id.as_str())
                .desired_width(ui.available_width() - 8.0),
        );
        crate::accessibility::accessible_name(ui, &typed, "new prototype id");
        typed.on_hover_text("The id Duplicate and New give: nothing after the mod's id, Duplicate adds _2");
    });
    ui.horizontal(|ui| {
        ui.add_sized([label_width, 18.0], egui::Label::new("Into:"));
        let files = mod_files(types, data.new_id.split_once('.').map_or(mod_id, |(m, _)| m));
        let shown = data.file.clone().unwrap_or_else(|| "after the original".to_owned());
        let picker = egui::ComboBox::from_id_salt("data target file")
            .selected_text(shown.as_str())
            .width(ui.available_width() - 2.0 * ui.spacing().button_padding.x)
            .wrap()
            .show_ui(ui, |ui| {
                ui.selectable_value(&mut data.file, None, "after the original");
                for file in files {
                    ui.selectable_value(&mut data.file, Some(file.clone()), file);
                }
            });
        crate::accessibility::accessible_name(ui, &picker.response, format!("target file {shown}"));
        picker.response.on_hover_text("Where Duplicate writes the copy, and New the new prototype");
    });
    if let Some(edit) = edit {
        data.send(state, edit, (data_type.id, proto.id), None);
    }
}

/// Where a prototype is added, as messages name it (`mods/elona/content/charas.lua:16`): its
/// origin without the mod's id in front (`[elona] `).
pub fn origin_place(origin: &str) -> &str {
    match origin.strip_prefix('[').and_then(|rest| rest.split_once("] ")) {
        Some((_, place)) => place,
        None => origin,
    }
}

/// The file a prototype is added in, as messages name it, from its origin.
fn origin_file(origin: &str) -> Option<&str> {
    origin_place(origin).rsplit_once(':').map(|(file, _)| file)
}

/// The first id `<id>_2`, `<id>_3`, … that no prototype of `data_type` has.
fn free_copy_id(data_type: &DataTypeView, id: &str) -> String {
    (2..)
        .map(|n| format!("{id}_{n}"))
        .find(|candidate| !data_type.entries.iter().any(|e| e.id.as_str() == candidate))
        .unwrap_or_default()
}

/// The files of mod `mod_id` that add prototypes, as messages name them, sorted.
fn mod_files(types: &[DataTypeView], mod_id: &str) -> Vec<String> {
    let prefix = format!("{mod_id}.");
    let mut files: Vec<String> = types
        .iter()
        .flat_map(|t| t.entries.iter())
        .filter(|e| e.id.as_str().starts_with(&prefix))
        .filter_map(|e| origin_file(&e.origin).map(str::to_owned))
        .collect();
    files.sort();
    files.dedup();
    files
}

/// The last Where used answer for `proto`, each usage a link that opens it.
pub(super) fn usages_ui(ui: &mut Ui, state: &mut EditorContext, data: &mut DataState, proto: &PrototypeView) {
    let Some((_, id, usages)) = &data.usages else { return };
    if id != proto.id.as_str() {
        return;
    }
    let mut open = None;
    egui::CollapsingHeader::new(format!("Used in {} place(s)", usages.len())).default_open(true).show(ui, |ui| {
        if usages.is_empty() {
            ui.weak("Nothing uses it: it can be deleted.");
        }
        for usage in usages {
            if ui.add(egui::Link::new(usage.to_string())).clicked() {
                open = Some(usage.clone());
            }
        }
    });
    match open {
        Some(Usage::Object { uid, map: None, .. }) => state.follow(links::LinkAction::Inspect(uid)),
        Some(Usage::Object { uid, map: Some(map), x, y, .. }) => {
            state.follow(links::LinkAction::ShowOnMap { map, x, y, select: links::OnMap::Object(uid) })
        }
        Some(Usage::MapFile { map, x, y }) => {
            let select = links::OnMap::MadeFrom(id.clone());
            state.follow(links::LinkAction::ShowOnMap { map, x, y, select })
        }
        Some(Usage::Tiles { map, x, y, .. }) => {
            state.follow(links::LinkAction::ShowOnMap { map, x, y, select: links::OnMap::Cell })
        }
        Some(Usage::Field { at, .. } | Usage::Literal { at }) => {
            if let Some((file, line)) = at.rsplit_once(':').and_then(|(f, l)| Some((f.to_owned(), l.parse().ok()?))) {
                state.follow(links::LinkAction::ShowSource(file, line));
            }
        }
        Some(Usage::Recording { name }) => {
            let path = state.project.join("recordings").join(name);
            state.outbox.push(Command::Play(PlayCommand::OpenRecording(path)));
        }
        None => {}
    }
}

/// The fields of `proto` that hold functions: their source, read-only, and a button that opens
/// each in the user's code editor.
pub(super) fn functions_ui(ui: &mut Ui, data: &mut DataState, proto: &PrototypeView) {
    if proto.functions.is_empty() {
        return;
    }
    ui.separator();
    ui.horizontal_wrapped(|ui| {
        ui.weak("Code editor:");
        let command =
            ui.add(egui::TextEdit::singleline(&mut data.code_command).desired_width(ui.available_width().min(180.0)));
        crate::accessibility::accessible_name(ui, &command, "code editor command");
        command.on_hover_text("Run by \"Open in code editor\": {file} and {line} are replaced");
    });
    for (name, source) in &proto.functions {
        ui.horizontal_wrapped(|ui| {
            ui.strong(name.as_str());
            ui.weak(&source.at);
            if ui.button("Open in code editor").clicked() {
                data.open_failed = open_in_code_editor(&data.code_command, source).err().map(|e| e.to_string());
            }
        });
        let mut text = source.text.as_str();
        ui.add(egui::TextEdit::multiline(&mut text).code_editor().desired_rows(1).desired_width(f32::INFINITY));
    }
    if let Some(why) = &data.open_failed {
        ui.colored_label(ui.visuals().warn_fg_color, why);
    }
}

/// Why "Open in code editor" opened nothing; each says what to do instead.
#[derive(Debug, thiserror::Error)]
enum OpenFailed {
    /// The function was not loaded from a file (the REPL made it, say).
    #[error("{0} is not a file on disk")]
    NotOnDisk(String),
    /// The command is empty.
    #[error("set the code editor command first")]
    NoCommand,
    /// The command's program could not be started.
    #[error("`{program}` could not be started ({source}): set the code editor command above")]
    CannotStart {
        /// The program, the command's first word.
        program: String,
        /// Why it could not be started.
        source: std::io::Error,
    },
}

/// Runs `command` (words split at spaces, `{file}` and `{line}` replaced) for `source`.
fn open_in_code_editor(command: &str, source: &FunctionSource) -> Result<(), OpenFailed> {
    let Some(path) = &source.path else { return Err(OpenFailed::NotOnDisk(source.at.clone())) };
    let words: Vec<String> = command
        .split_whitespace()
        .map(|w| w.replace("{file}", &path.to_string_lossy()).replace("{line}", &source.line.to_string()))
        .collect();
    let Some((program, args)) = words.split_first() else { return Err(OpenFailed::NoCommand) };
    std::process::Command::new(program)
        .args(args)
        .spawn()
        .map(drop)
        .map_err(|source| OpenFailed::CannotStart { program: program.clone(), source })
}
