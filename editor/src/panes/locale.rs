//! The Locale pane: every key of the loaded mods' locale files by namespace, each language's
//! text side by side, a language that lacks a key marked (with a button that adds it to that
//! language's file), and where each key is used — Lua string literals (a click copies
//! `file:line`) and the prototypes its `_` entry localizes (a click shows it in the Data pane).
//! A text is edited in place: Enter sends [`Edit::LocaleText`], which the host writes into the
//! file byte-exactly, hotloads and records for undo as it does the Data pane's edits.
//!
//! The files are read as text ([`nefia_game::locale`]) when the pane opens and again when the
//! data registry changes (a locale file hotloaded, a language switched) or Rescan is pressed.
//! Also here: the viewport toolbar's language switch ([`language_ui`]).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::path::PathBuf;
use std::sync::Arc;

use egui::{Color32, RichText, Ui};
use nefia_game::edit::Edit;
use nefia_game::locale::KeyUse;
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::message::Command;
use nefia_protocol::mods::ModCommand;

use crate::context::{AppRequest, EditorContext, LocaleFiles, loaded_mods};

/// How many keys the pane lists at once (filter to find the others).
const SHOWN: usize = 200;

/// The Locale pane's own state.
#[derive(Default)]
pub struct LocaleState {
    /// The text a key must contain to be listed.
    pub filter: String,
    /// The files read, and what they were read for (the data view they go with).
    read: Option<Read>,
    /// The text being edited: key, language and the text so far.
    pub editing: Option<(String, String, String)>,
}

/// The locale files as last read, and what the pane makes of them.
struct Read {
    /// The files (the editor's shared read: made again when it is another).
    files: Arc<LocaleFiles>,
    /// By namespace, by key: each language's file, line and text.
    keys: BTreeMap<String, BTreeMap<String, BTreeMap<String, Cell>>>,
    uses: BTreeMap<String, Vec<KeyUse>>,
    /// By file and language: that language's file beside it, if one was read
    /// ([`sibling`](nefia_game::locale::localized::sibling)).
    siblings: BTreeMap<(PathBuf, String), PathBuf>,
}

/// One language's entry of a key.
struct Cell {
    file: PathBuf,
    text: Option<String>,
}

/// The pane.
pub fn ui(ui: &mut Ui, state: &mut EditorContext, pane: &mut LocaleState) {
    ui.horizontal(|ui| {
        ui.label("Filter keys");
        ui.add(egui::TextEdit::singleline(&mut pane.filter).hint_text("chara._.elona.putit"));
        if ui.button("Rescan").on_hover_text("Read the locale files again").clicked() {
            state.locale.forget();
        }
    });
    let files = state.locale.files(&state.snapshot);
    if pane.read.as_ref().is_none_or(|read| !Arc::ptr_eq(&read.files, &files)) {
        pane.read = Some(read_files(state, files));
    }
    let Some(read) = &pane.read else { return };
    if read.files.files.is_empty() {
        ui.weak("No loaded mod has locale files (mods/<mod>/locale/<lang>/*.lua).");
        return;
    }
    let mut shown = 0;
    let mut hidden = 0;
    for (namespace, keys) in &read.keys {
        let matching: Vec<_> = keys.iter().filter(|(key, _)| key.contains(pane.filter.as_str())).collect();
        if matching.is_empty() {
            continue;
        }
        egui::CollapsingHeader::new(format!("{namespace} ({} keys)", matching.len()))
            .id_salt(("locale-namespace", namespace))
            .default_open(true)
            .show(ui, |ui| {
                egui::Grid::new(("locale-grid", namespace)).striped(true).show(ui, |ui| {
                    ui.strong("key");
                    for language in &read.files.languages {
                        ui.strong(language);
                    }
                    ui.strong("used in");
                    ui.end_row();
                    for (key, cells) in matching {
                        if shown == SHOWN {
                            hidden += 1;
                            continue;
                        }
                        shown += 1;
                        let full = nefia_game::locale::full_key(namespace, key);
                        key_row(ui, state, &mut pane.editing, read, key, &full, cells);
                        ui.end_row();
                    }
                });
            });
    }
    if hidden > 0 {
        ui.weak(format!("{hidden} more keys: filter to find them"));
    }
}

/// One key's row: its name, each language's text (or "missing"), its uses.
fn key_row(
    ui: &mut Ui,
    state: &mut EditorContext,
    editing: &mut Option<(String, String, String)>,
    read: &Read,
    key: &str,
    full: &str,
    cells: &BTreeMap<String, Cell>,
) {
    ui.label(key);
    for language in &read.files.languages {
        match cells.get(language) {
            Some(cell) => text_cell(ui, state, editing, key, language, cell),
            None => {
                ui.horizontal(|ui| {
                    ui.label(RichText::new("missing").color(Color32::from_rgb(230, 90, 80)));
                    let target = cells
                        .values()
                        .next()
                        .and_then(|other| read.siblings.get(&(other.file.clone(), language.clone())).cloned());
                    let add = ui.add_enabled(target.is_some(), egui::Button::new(format!("Add {language}")));
                    if add.on_hover_text(format!("Add `{full}` to the {language} file")).clicked() {
                        *editing = Some((key.to_owned(), language.clone(), String::new()));
                    }
                    let mut sent = false;
                    if let Some((k, l, text)) = editing.as_mut()
                        && k == key
                        && l == language
                        && let Some(file) = target
                    {
                        sent = edit_box(ui, state, file, key, language, text);
                    }
                    if sent {
                        *editing = None;
                    }
                });
            }
        }
    }
    ui.horizontal_wrapped(|ui| {
        for key_use in read.uses.get(full).into_iter().flatten() {
            uses_link(ui, state, key_use);
        }
    });
}

/// A language's text of a key, edited in place on a click.
fn text_cell(
    ui: &mut Ui,
    state: &mut EditorContext,
    editing: &mut Option<(String, String, String)>,
    key: &str,
    language: &str,
    cell: &Cell,
) {
    let is_edited = editing.as_ref().is_some_and(|(k, l, _)| k == key && l == language);
    if is_edited {
        let mut finished = false;
        if let Some((_, _, text)) = editing.as_mut() {
            finished = edit_box(ui, state, cell.file.clone(), key, language, text);
        }
        if finished {
            *editing = None;
        }
        return;
    }
    match &cell.text {
        Some(text) => {
            let button = ui.add(egui::Button::new(text.as_str()).frame(false));
            if button.on_hover_text(format!("{language}: click to edit")).clicked() {
                *editing = Some((key.to_owned(), language.to_owned(), text.clone()));
            }
        }
        None => {
            ui.weak("(function or list)");
        }
    }
}

/// The text box of a key being edited; Enter sends the edit. True once sent.
fn edit_box(
    ui: &mut Ui,
    state: &mut EditorContext,
    file: PathBuf,
    key: &str,
    language: &str,
    text: &mut String,
) -> bool {
    let label = format!("{key} ({language})");
    let response = ui.add(egui::TextEdit::singleline(text).desired_width(160.0));
    crate::accessibility::accessible_name(ui, &response, label);
    if response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
        let edit = Edit::LocaleText { file, key: key.to_owned(), text: text.clone() };
        state.outbox.push(Command::Editing(EditingCommand::Edit(edit)));
        return true;
    }
    false
}

/// A use of a key: a prototype shows in the Data pane; a string literal copies `file:line`.
fn uses_link(ui: &mut Ui, state: &mut EditorContext, key_use: &KeyUse) {
    let place = format!("{}:{}", key_use.file, key_use.line);
    match key_use.what.split_once(' ') {
        Some((data_type, id)) => {
            if ui.link(id).on_hover_text(format!("{data_type} {id}, added at {place}")).clicked() {
                state.requests.push(AppRequest::ShowPrototype { data_type: data_type.into(), id: id.into() });
            }
        }
        None => {
            if ui.link(&place).on_hover_text("A string literal: click to copy its file and line").clicked() {
                ui.ctx().copy_text(place);
            }
        }
    }
}

/// The keys of the loaded mods' locale files `read`, and where they are used.
fn read_files(state: &EditorContext, read: Arc<LocaleFiles>) -> Read {
    let mods = loaded_mods(&state.snapshot);
    let (files, languages) = (&read.files, &read.languages);
    let data = &state.snapshot.mods.data;
    let mut keys: BTreeMap<String, BTreeMap<String, BTreeMap<String, Cell>>> = BTreeMap::new();
    for file in files {
        for entry in &file.entries {
            let cell = Cell { file: file.path.clone(), text: entry.text.clone() };
            keys.entry(file.namespace.clone())
                .or_default()
                .entry(entry.key.clone())
                .or_default()
                .insert(file.language.clone(), cell);
        }
    }
    let siblings = files
        .iter()
        .flat_map(|file| languages.iter().map(move |language| (file, language)))
        .filter_map(|(file, language)| {
            let sibling = nefia_game::locale::localized::sibling(files, &file.path, language)?;
            Some(((file.path.clone(), language.clone()), sibling.path.clone()))
        })
        .collect();
    let all: BTreeSet<String> = nefia_game::locale::key_table(files).into_keys().collect();
    let mut uses = nefia_game::locale::literal_uses(&mods, &all);
    let origins: HashMap<(&str, &str), &str> = data
        .iter()
        .flat_map(|t| t.entries.iter().map(move |p| ((t.id.as_str(), p.id.as_str()), p.origin.as_str())))
        .collect();
    for key in &all {
        if let Some(key_use) = prototype_use(&origins, key) {
            uses.entry(key.clone()).or_default().push(key_use);
        }
    }
    Read { files: read, keys, uses, siblings }
}

/// The prototype a `_` key localizes, as a use: of `origins`, where each prototype was added,
/// by data type and id.
fn prototype_use(origins: &HashMap<(&str, &str), &str>, key: &str) -> Option<KeyUse> {
    let (data_type, id) = nefia_game::locale::prototype_of_key(key)?;
    let origin = *origins.get(&(data_type.as_str(), id.as_str()))?;
    let (file, line) = origin.rsplit_once(':').unwrap_or((origin, "0"));
    Some(KeyUse { file: file.to_owned(), line: line.parse().unwrap_or(0), what: format!("{data_type} {id}") })
}

/// The viewport toolbar's language switch: the `base.language` prototypes, the current one
/// chosen; choosing another switches the game's language (the map and HUD follow).
pub fn language_ui(ui: &mut Ui, state: &mut EditorContext) {
    let languages = state.snapshot.mods.languages();
    if languages.is_empty() {
        return;
    }
    let current = state.snapshot.mods.language.clone();
    let shown = current.strip_prefix("base.").unwrap_or(&current).to_owned();
    let name = format!("Language: {shown}");
    // The toolbar's row is one line: the combo shows the bare language, its full name is read out.
    let picker =
        egui::ComboBox::from_id_salt("viewport-language").selected_text(shown.as_str()).width(72.0).show_ui(ui, |ui| {
            for language in languages.iter() {
                let name = language.strip_prefix("base.").unwrap_or(language);
                if ui.selectable_label(*language == current, name).clicked() && *language != current {
                    state.outbox.push(Command::Mods(ModCommand::SwitchLanguage(language.clone())));
                }
            }
        });
    crate::accessibility::accessible_name(ui, &picker.response, name);
    picker.response.on_hover_text(
        "The game's language (base.language): names and messages follow; pseudo shows where text will not fit",
    );
}
