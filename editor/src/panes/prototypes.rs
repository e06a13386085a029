//! The Data pane: every data type and its prototypes, searchable, and the selected prototype
//! as a form generated from its type's declared fields. An edit in the form is written back
//! into the Lua file that adds the prototype (one field's text, the rest of the file kept) and
//! hotloaded, as one History step: the host checks the value against the field's type first
//! and says why it refuses one.

use egui::Ui;
use nefia_runtime::game::edit::Edit;
use nefia_runtime::host::view::{DataTypeView, PrototypeView};
use nefia_runtime::host::{Command, EditingCommand};
use nefia_runtime::{Symbol, Value};

use super::field_editor::field_editor;
use crate::context::EditorContext;
use crate::links;

/// The Data pane's search text and selected prototype.
#[derive(Default)]
pub struct DataState {
    /// What the list is filtered by.
    pub search: String,
    /// The prototype shown in the form: its data type and id.
    pub selected: Option<(Symbol, Symbol)>,
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
            egui::ScrollArea::vertical()
                .id_salt("data form")
                .show(ui, |ui| form_ui(ui, state, &snapshot.mods.data, data_type, proto));
        }
        None => {
            ui.weak("Pick a prototype to edit its fields.");
        }
    }
}

/// The form of prototype `proto` of `data_type`: a row per declared field.
fn form_ui(
    ui: &mut Ui,
    state: &mut EditorContext,
    types: &[DataTypeView],
    data_type: &DataTypeView,
    proto: &PrototypeView,
) {
    ui.heading(proto.id.as_str());
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
    for (field, value) in edits {
        state.outbox.push(Command::Editing(EditingCommand::Edit(Edit::PrototypeField {
            data_type: data_type.id.as_str().to_owned(),
            id: proto.id.as_str().to_owned(),
            field: field.as_str().to_owned(),
            value,
        })));
    }
}
