//! The form's "Localized" section: the prototype's `_` keys (`chara._.elona.putit.name`) with
//! each language's text side by side, edited in place. Enter (or leaving the box) writes the
//! text into the locale file the game reads it from, or adds the key to that language's file beside another
//! language's ([`localized_fields`]), as [`Edit::LocaleText`] — the Locale pane's edit, so it
//! is byte-exact, hotloaded and one undo step.
//!
//! The locale files are the editor's shared read ([`crate::context::LocaleFiles`], read again
//! when the data view changes: a locale file hotloaded is a change); a prototype's rows are
//! made when another is shown or the files were read again. Not each frame.

use std::sync::Arc;

use egui::{RichText, Ui};
use nefia_game::edit::Edit;
use nefia_game::locale::localized::{LocalizedField, LocalizedText, localized_fields};
use nefia_game::{Symbol, Value};
use nefia_protocol::view::{DataTypeView, PrototypeView};

use super::super::field_editor::text_editor;
use super::DataState;
use crate::context::{EditorContext, LocaleFiles};

/// The rows of the prototype last shown, and the locale files they were made from.
pub(super) struct LocaleRead {
    files: Arc<LocaleFiles>,
    rows: Option<((Symbol, Symbol), Vec<LocalizedField>)>,
}

/// The section for prototype `proto` of `data_type`: nothing when no loaded mod has locale
/// files.
pub(super) fn localized_ui(
    ui: &mut Ui,
    state: &mut EditorContext,
    data: &mut DataState,
    data_type: &DataTypeView,
    proto: &PrototypeView,
) {
    let files = state.locale.files(&state.snapshot);
    if data.locale.as_ref().is_none_or(|read| !Arc::ptr_eq(&read.files, &files)) {
        data.locale = Some(LocaleRead { files, rows: None });
    }
    let Some(read) = &mut data.locale else { return };
    if read.files.files.is_empty() {
        return;
    }
    let key = (data_type.id, proto.id);
    if read.rows.as_ref().is_none_or(|(shown, _)| *shown != key) {
        read.rows = Some((key, localized_fields(&read.files.files, data_type.id.as_str(), proto.id.as_str())));
    }
    let languages = &read.files.languages;
    let fields = read.rows.as_ref().map_or(&[][..], |(_, rows)| rows.as_slice());
    let mut edits = Vec::new();
    egui::CollapsingHeader::new("Localized").id_salt(("localized", proto.id.as_str())).default_open(true).show(
        ui,
        |ui| {
            egui::Grid::new(("localized grid", proto.id.as_str())).striped(true).show(ui, |ui| {
                ui.strong("field");
                for language in languages {
                    ui.strong(language);
                }
                ui.end_row();
                for field in fields {
                    ui.label(&field.field).on_hover_text(&field.key);
                    for (language, text) in &field.languages {
                        if let Some(edit) = text_ui(ui, proto.id.as_str(), &field.key, &field.field, language, text) {
                            edits.push(edit);
                        }
                    }
                    ui.end_row();
                }
            });
        },
    );
    for edit in edits {
        data.send(state, edit, (data_type.id, proto.id), None);
    }
}

/// One language's text of field `field` of prototype `id`: a box holding it (empty where the
/// language lacks it); Enter (or leaving the box) with a changed text gives the edit.
fn text_ui(ui: &mut Ui, id: &str, key: &str, field: &str, language: &str, text: &LocalizedText) -> Option<Edit> {
    let (file, current) = match text {
        LocalizedText::Present { file, text: Some(text) } => (file, text.as_str()),
        LocalizedText::Present { file, text: None } => {
            let note = format!("{key} is a function or a list in {}: edit it there", file.display());
            ui.weak("(function or list)").on_hover_text(note);
            return None;
        }
        LocalizedText::Missing { file: Some(file) } => (file, ""),
        LocalizedText::Missing { file: None } => {
            let note = format!("No {language} locale file of this prototype's mod to add {key} to");
            ui.label(RichText::new("no file").color(ui.visuals().warn_fg_color)).on_hover_text(note);
            return None;
        }
    };
    let memory = ui.make_persistent_id(("localized text", key, language));
    let label = format!("{field} ({language}) of {id}");
    let typed = ui
        .horizontal(|ui| {
            if matches!(text, LocalizedText::Missing { .. }) {
                let note = format!("{language} lacks {key}: what is typed here is added to {}", file.display());
                ui.colored_label(ui.visuals().error_fg_color, "•").on_hover_text(note);
            }
            text_editor(ui, memory, &Value::str(current), label)
        })
        .inner?;
    let text = typed.as_str()?.to_owned();
    Some(Edit::LocaleText { file: file.clone(), key: key.to_owned(), text })
}
