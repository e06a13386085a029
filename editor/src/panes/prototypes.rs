//! The Data pane: every data type and its prototypes, searchable, and the selected prototype
//! as a form generated from its type's declared fields. An edit in the form is written back
//! into the Lua file that adds the prototype (one field's text, the rest of the file kept) and
//! hotloaded, as one History step: the host checks the value against the field's type first
//! and says why it refuses one.
//!
//! Above the form: Duplicate (a new id, after the original or into another file of its mod),
//! New (the type's template, into a chosen file), Delete (the host refuses while anything uses
//! it) and Where used (each place a link); a refusal of the pane's last edit is shown above
//! the form. Fields holding functions show their source
//! read-only, with "Open in code editor" (a command the user sets, `code -g {file}:{line}` by
//! default).

use std::time::{Duration, Instant};

use egui::Ui;
use nefia_runtime::game::edit::Edit;
use nefia_runtime::host::editing::usages::Usage;
use nefia_runtime::host::view::{DataTypeView, FunctionSource, PrototypeView};
use nefia_runtime::host::{Command, EditingCommand, PlayCommand};
use nefia_runtime::{ObjectKind, Symbol, Value};

use super::field_editor::field_editor;
use crate::context::EditorContext;
use crate::links;

/// The command "Open in code editor" runs unless the user sets another: `{file}` and `{line}`
/// are replaced by the function's file and line.
pub const DEFAULT_CODE_COMMAND: &str = "code -g {file}:{line}";

/// The Data pane's search text, selected prototype and the forms above it.
pub struct DataState {
    /// What the list is filtered by.
    pub search: String,
    /// The prototype shown in the form: its data type and id.
    pub selected: Option<(Symbol, Symbol)>,
    /// The id typed for Duplicate or New.
    pub new_id: String,
    /// The file chosen for Duplicate (none: after the original) or New.
    pub file: Option<String>,
    /// The last Where used answer: the data type, the prototype and its usages.
    pub usages: Option<(String, String, Vec<Usage>)>,
    /// The command "Open in code editor" runs.
    pub code_command: String,
    /// Why the last "Open in code editor" failed, if it did.
    pub open_failed: Option<String>,
    /// When the pane last sent an edit (a field, Duplicate, New, Delete): an edit refusal that
    /// comes soon after is the answer to it.
    sent: Option<Instant>,
    /// Why the host refused the pane's last edit, shown above the form until the next one.
    pub refusal: Option<String>,
    /// A field edit on its way: when it was sent and the prototype as the form showed it. The
    /// form waits (disabled) until the prototype comes back changed, so the next edit is made
    /// from what the file now holds, never from the value the last one replaced.
    in_flight: Option<(Instant, PrototypeView)>,
}

/// How long after the pane sent an edit a refusal of an edit is taken as its answer.
const ANSWER_WINDOW: Duration = Duration::from_secs(5);

impl DataState {
    /// Sends `edit` from the pane, forgetting the last refusal.
    fn send(&mut self, state: &mut EditorContext, edit: Edit) {
        state.outbox.push(Command::Editing(EditingCommand::Edit(edit)));
        self.sent = Some(Instant::now());
        self.refusal = None;
    }

    /// Hears the host refuse an edit (`reason` in words): kept if it answers the pane's last.
    pub fn edit_refused(&mut self, reason: &str) {
        if self.sent.take().is_some_and(|sent| sent.elapsed() < ANSWER_WINDOW) {
            self.refusal = Some(reason.to_owned());
            self.in_flight = None;
        }
    }

    /// True while a field edit of `proto` has not come back: its form is shown as it was.
    fn waiting_for(&mut self, proto: &PrototypeView) -> bool {
        let waiting =
            self.in_flight.as_ref().is_some_and(|(sent, shown)| shown == proto && sent.elapsed() < ANSWER_WINDOW);
        if !waiting {
            self.in_flight = None;
        }
        waiting
    }
}

impl Default for DataState {
    fn default() -> Self {
        DataState {
            search: String::new(),
            selected: None,
            new_id: String::new(),
            file: None,
            usages: None,
            code_command: DEFAULT_CODE_COMMAND.to_owned(),
            open_failed: None,
            sent: None,
            refusal: None,
            in_flight: None,
        }
    }
}

/// Shows the data types, their prototypes and the selected one's form.
pub fn ui(ui: &mut Ui, state: &mut EditorContext, data: &mut DataState) {
    let snapshot = state.snapshot.clone();
    ui.horizontal(|ui| {
        ui.label("Search:");
        ui.text_edit_singleline(&mut data.search);
    });
    let search = data.search.to_lowercase();
    egui::ScrollArea::vertical().id_salt("data list").max_height(ui.available_height() * 0.4).show(ui, |ui| {
        for data_type in snapshot.mods.data.iter() {
            let entries: Vec<&PrototypeView> = data_type
                .entries
                .iter()
                .filter(|e| search.is_empty() || e.id.as_str().to_lowercase().contains(&search))
                .collect();
            if entries.is_empty() && !search.is_empty() {
                continue;
            }
            egui::CollapsingHeader::new(format!("{} ({})", data_type.id, entries.len()))
                .default_open(!search.is_empty())
                .show(ui, |ui| {
                    for entry in entries {
                        let chosen = data.selected == Some((data_type.id, entry.id));
                        if ui.selectable_label(chosen, entry.id.as_str()).clicked() {
                            data.selected = Some((data_type.id, entry.id));
                        }
                    }
                });
        }
    });
    ui.separator();
    let selected = data.selected.and_then(|(type_id, id)| {
        let data_type = snapshot.mods.data.iter().find(|t| t.id == type_id)?;
        Some((data_type, data_type.entries.iter().find(|e| e.id == id)?))
    });
    match selected {
        Some((data_type, proto)) => {
            egui::ScrollArea::both().id_salt("data form").show(ui, |ui| {
                actions_ui(ui, state, data, &snapshot.mods.data, data_type, proto);
                if let Some(reason) = &data.refusal {
                    let text = egui::RichText::new(format!("⚠ {reason}")).color(ui.visuals().error_fg_color);
                    ui.add(egui::Label::new(text).wrap());
                }
                usages_ui(ui, state, data, proto);
                let waiting = data.waiting_for(proto);
                if waiting {
                    // Asks for frames until the answer comes.
                    ui.ctx().request_repaint_after(Duration::from_millis(50));
                }
                ui.add_enabled_ui(!waiting, |ui| form_ui(ui, state, data, &snapshot.mods.data, data_type, proto));
                functions_ui(ui, data, proto);
            });
        }
        None => {
            ui.weak("Pick a prototype to edit its fields.");
        }
    }
}

/// What the Data pane's glyph carries when dragged onto the map: a prototype to place there.
#[derive(Clone, Debug, PartialEq)]
pub struct PlacePrototype {
    /// The kind of object it makes.
    pub kind: ObjectKind,
    /// The prototype's id.
    pub id: String,
}

/// The prototype's glyph in its colour, a cell at the map's zoom; for a character, item, feat
/// or mef, dragging it onto the map places one there.
fn glyph_ui(ui: &mut Ui, state: &EditorContext, data_type: &DataTypeView, proto: &PrototypeView) {
    let field = |name: &str| proto.fields.iter().find(|(n, _)| n.as_str() == name).map(|(_, v)| v);
    let Some(Value::Str(glyph)) = field("glyph") else { return };
    let channel = |i: usize| match field("color") {
        Some(Value::List(rgb)) => rgb.get(i).and_then(Value::as_f64).map_or(255, |c| c.clamp(0.0, 255.0) as u8),
        _ => 255,
    };
    let colour = egui::Color32::from_rgb(channel(0), channel(1), channel(2));
    let zoom = state.viewport.camera.map_or(24.0, |c| c.zoom).clamp(16.0, 64.0);
    let draw = |ui: &mut Ui| {
        let (rect, response) = ui.allocate_exact_size(egui::vec2(zoom, zoom), egui::Sense::hover());
        ui.painter().rect_filled(rect, 2.0, egui::Color32::BLACK);
        let font = egui::FontId::monospace(zoom * 0.8);
        ui.painter().text(rect.center(), egui::Align2::CENTER_CENTER, glyph.as_ref(), font, colour);
        response
    };
    let kind = ObjectKind::ALL.into_iter().find(|k| k.data_type() == data_type.id.as_str());
    match kind {
        Some(kind) => {
            let payload = PlacePrototype { kind, id: proto.id.as_str().to_owned() };
            let id = egui::Id::new(("place prototype", proto.id.as_str()));
            ui.dnd_drag_source(id, payload, |ui| draw(ui)).response.on_hover_text("Drag onto the map to place one");
        }
        None => {
            draw(ui);
        }
    }
}

/// Duplicate, New, Delete and Where used for prototype `proto` of `data_type`.
fn actions_ui(
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
    ui.horizontal_wrapped(|ui| {
        ui.label("New id:");
        let typed = ui.add(egui::TextEdit::singleline(&mut data.new_id).desired_width(140.0));
        super::accessible_name(ui, &typed, "new prototype id");
        let files = mod_files(types, data.new_id.split_once('.').map_or(mod_id, |(m, _)| m));
        let shown = data.file.clone().unwrap_or_else(|| "after the original".to_owned());
        egui::ComboBox::from_id_salt("data target file").selected_text(shown).show_ui(ui, |ui| {
            ui.selectable_value(&mut data.file, None, "after the original");
            for file in files {
                ui.selectable_value(&mut data.file, Some(file.clone()), file);
            }
        });
    });
    let mut edit = None;
    ui.horizontal_wrapped(|ui| {
        let new_id = data.new_id.trim().to_owned();
        if ui.button("Duplicate").on_hover_text("Copy this prototype under the new id").clicked() {
            let file = data.file.clone();
            edit = Some(Edit::DuplicatePrototype {
                data_type: type_id.clone(),
                id: id.clone(),
                new_id: new_id.clone(),
                file,
            });
        }
        let new_file = data.file.clone().or_else(|| proto.origin.rsplit_once(':').map(|(f, _)| f.to_owned()));
        let new = ui
            .button("New")
            .on_hover_text(format!("A new {type_id} with its type's template fields, at the end of the file"));
        if new.clicked()
            && let Some(file) = new_file
        {
            edit = Some(Edit::NewPrototype { data_type: type_id.clone(), new_id, file });
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
    if let Some(edit) = edit {
        data.send(state, edit);
    }
}

/// The files of mod `mod_id` that add prototypes, as messages name them, sorted.
fn mod_files(types: &[DataTypeView], mod_id: &str) -> Vec<String> {
    let prefix = format!("{mod_id}.");
    let mut files: Vec<String> = types
        .iter()
        .flat_map(|t| t.entries.iter())
        .filter(|e| e.id.as_str().starts_with(&prefix))
        .filter_map(|e| e.origin.rsplit_once(':').map(|(file, _)| file.to_owned()))
        .collect();
    files.sort();
    files.dedup();
    files
}

/// The last Where used answer for `proto`, each usage a link that opens it.
fn usages_ui(ui: &mut Ui, state: &mut EditorContext, data: &mut DataState, proto: &PrototypeView) {
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
            if ui.link(usage.to_string()).clicked() {
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
fn functions_ui(ui: &mut Ui, data: &mut DataState, proto: &PrototypeView) {
    if proto.functions.is_empty() {
        return;
    }
    ui.separator();
    ui.horizontal(|ui| {
        ui.weak("Code editor:");
        let command = ui.add(egui::TextEdit::singleline(&mut data.code_command).desired_width(180.0));
        super::accessible_name(ui, &command, "code editor command");
        command.on_hover_text("Run by \"Open in code editor\": {file} and {line} are replaced");
    });
    for (name, source) in &proto.functions {
        ui.horizontal(|ui| {
            ui.strong(name.as_str());
            ui.weak(&source.at);
            if ui.button("Open in code editor").clicked() {
                data.open_failed = open_in_code_editor(&data.code_command, source).err();
            }
        });
        let mut text = source.text.as_str();
        ui.add(egui::TextEdit::multiline(&mut text).code_editor().desired_rows(1).desired_width(f32::INFINITY));
    }
    if let Some(why) = &data.open_failed {
        ui.colored_label(ui.visuals().warn_fg_color, why);
    }
}

/// Runs `command` (words split at spaces, `{file}` and `{line}` replaced) for `source`.
fn open_in_code_editor(command: &str, source: &FunctionSource) -> Result<(), String> {
    let Some(path) = &source.path else { return Err(format!("{} is not a file on disk", source.at)) };
    let words: Vec<String> = command
        .split_whitespace()
        .map(|w| w.replace("{file}", &path.to_string_lossy()).replace("{line}", &source.line.to_string()))
        .collect();
    let Some((program, args)) = words.split_first() else { return Err("set the code editor command first".into()) };
    std::process::Command::new(program)
        .args(args)
        .spawn()
        .map(drop)
        .map_err(|e| format!("`{program}` could not be started ({e}): set the code editor command above"))
}

/// The form of prototype `proto` of `data_type`: a row per declared field.
fn form_ui(
    ui: &mut Ui,
    state: &mut EditorContext,
    data: &mut DataState,
    types: &[DataTypeView],
    data_type: &DataTypeView,
    proto: &PrototypeView,
) {
    ui.horizontal(|ui| {
        glyph_ui(ui, state, data_type, proto);
        ui.heading(proto.id.as_str());
    });
    let mut actions = Vec::new();
    ui.horizontal(|ui| {
        ui.weak("added at");
        links::show_inline(ui, &proto.origin, ui.visuals().hyperlink_color, &mut actions);
    });
    for action in actions {
        state.follow(action);
    }
    let mut edits = Vec::new();
    egui::Grid::new(("data form", proto.id.as_str())).num_columns(3).striped(true).show(ui, |ui| {
        for field in &data_type.fields {
            let given = proto.given.contains(&field.name);
            let value = proto.fields.iter().find(|(name, _)| *name == field.name).map_or(&Value::Nil, |(_, v)| v);
            let name = egui::RichText::new(field.name.as_str());
            let name = if given { name.strong() } else { name.weak() };
            ui.label(name)
                .on_hover_text(format!("{}\n\ntype: {}\ndefault: {}", field.doc, field.type_name, field.default));
            let id = ui.make_persistent_id(("data field", proto.id.as_str(), field.name.as_str()));
            let label = format!("{} of {}", field.name, proto.id);
            if let Some(new) = field_editor(ui, id, &field.ty, value, field, types, label) {
                edits.push((field.name, Some(new)));
            }
            if given && ui.small_button("unset").on_hover_text("Remove it from the table: the default shows").clicked()
            {
                edits.push((field.name, None));
            } else if !given {
                ui.weak("default");
            }
            ui.end_row();
        }
    });
    if !edits.is_empty() {
        data.in_flight = Some((Instant::now(), proto.clone()));
    }
    for (field, value) in edits {
        let edit = Edit::PrototypeField {
            data_type: data_type.id.as_str().to_owned(),
            id: proto.id.as_str().to_owned(),
            field: field.as_str().to_owned(),
            value,
        };
        data.send(state, edit);
    }
}
