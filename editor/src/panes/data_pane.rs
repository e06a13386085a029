//! The Data pane: every data type's prototypes, searchable, and the selected prototype as a
//! form generated from its type's declared fields. An edit in the form is written back into
//! the Lua file that adds the prototype (one field's text, the rest of the file kept) and
//! hotloaded, as one History step.
//!
//! The pane says no where the user looks. A value the field's type refuses (a number below its
//! range, a text that is no number) is sent as typed, written nowhere, and the host's refusal —
//! OpenNefia's type checker's message — is shown at that field of that prototype, and there
//! only, until the next edit of it. The rules across fields a data type declares (its
//! validators, such as `hp` at most `max_hp`) do not refuse an edit: a prototype that breaks
//! one is written and flagged, above its form and in the Problems pane.
//!
//! At the top, a list (its height dragged) of one data type's prototypes — the type picked
//! in a list of every type — or, while searching, of every type's matches. Below, the form
//! fills the rest of the pane (see [`form`]), with Duplicate (selecting the copy), New,
//! Delete and Where used above it ([`actions`]).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use egui::Ui;
use nefia_game::Symbol;
use nefia_game::edit::Edit;
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::editing::Usage;
use nefia_protocol::message::Command;
use nefia_protocol::view::{DataTypeView, PrototypeView};

use crate::context::EditorContext;

mod actions;
mod art;
mod form;
mod localized;

pub use actions::{DEFAULT_CODE_COMMAND, origin_place};
pub use form::PlacePrototype;

/// A prototype: its data type and its id.
pub type ProtoKey = (Symbol, Symbol);

/// The Data pane's list, selected prototype and what its edits were answered.
pub struct DataState {
    /// What the list is filtered by.
    pub search: String,
    /// The data type whose prototypes the list shows while not searching.
    pub data_type: Option<Symbol>,
    /// The prototype shown in the form: its data type and id.
    pub selected: Option<ProtoKey>,
    /// The prototype the form showed last frame: a new selection is scrolled to in the list.
    shown: Option<ProtoKey>,
    /// The list scrolls to the selected prototype on its next frame.
    scroll_to_selected: bool,
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
    /// The pane's last edit until it is answered.
    pending: Option<Pending>,
    /// The pane's last edit, for a refusal of it, kept through the answer window even once
    /// `pending` took History's next step for it: a step another command made meanwhile (a
    /// REPL line, a paint) looks the same from here, and must not lose the refusal.
    refusable: Option<Pending>,
    /// Why the host refused the pane's last edit of each prototype, shown on that prototype's
    /// form (at the field, for a field's edit) until the pane's next edit of it.
    refusals: HashMap<ProtoKey, Refusal>,
    /// What the pane's last Duplicate or New made, said on the new prototype's form.
    made: Option<(ProtoKey, String)>,
    /// A field edit on its way: when it was sent and the prototype as the form showed it. The
    /// form waits (disabled) until the prototype comes back changed, so the next edit is made
    /// from what the file now holds, never from the value the last one replaced.
    in_flight: Option<(Instant, PrototypeView)>,
    /// The loaded mods' locale files, for the form's Localized section.
    locale: Option<localized::LocaleRead>,
}

/// An edit the pane sent, until the host answers it: with a new History step (done), or with
/// a refusal.
#[derive(Clone)]
struct Pending {
    /// When it was sent.
    sent: Instant,
    /// History as it was when it was sent: a new step is the edit done.
    history: (usize, usize, Option<String>),
    /// The prototype whose form it was made from.
    on: ProtoKey,
    /// The field it set, for a field's edit.
    field: Option<Symbol>,
    /// The prototype it makes (Duplicate, New), and what to say once it is there.
    makes: Option<(ProtoKey, String)>,
}

/// A refused edit of a prototype.
#[derive(Clone, Debug, PartialEq)]
pub struct Refusal {
    /// The field whose value was refused, if the edit was of one.
    pub field: Option<Symbol>,
    /// Why, as the host said it.
    pub message: String,
}

/// How long after the pane sent an edit an answer to it is waited for: a refusal of an edit
/// that comes within it is taken as the answer (the host answers edits in order).
const ANSWER_WINDOW: Duration = Duration::from_secs(30);

impl DataState {
    /// Sends `edit`, made on the form of prototype `on` (of `field`, for a field's edit; making
    /// `makes`, for a Duplicate or New), and forgets the last refusal of `on`.
    fn send(&mut self, state: &mut EditorContext, edit: Edit, on: ProtoKey, field: Option<Symbol>) {
        let makes = match &edit {
            Edit::DuplicatePrototype { id, new_id, .. } => {
                Some(((on.0, Symbol::intern(new_id)), format!("Duplicated {id} as {new_id}")))
            }
            Edit::NewPrototype { data_type, new_id, file } => {
                Some(((on.0, Symbol::intern(new_id)), format!("Added {data_type} {new_id} to {file}")))
            }
            _ => None,
        };
        state.outbox.push(Command::Editing(EditingCommand::Edit(edit)));
        let history = &state.snapshot.editing.history;
        let history = (history.labels.len(), history.done, history.labels.last().cloned());
        let pending = Pending { sent: Instant::now(), history, on, field, makes };
        self.refusable = Some(pending.clone());
        self.pending = Some(pending);
        self.refusals.remove(&on);
    }

    /// Hears the host refuse an edit (`reason` in words): kept with the prototype (and field)
    /// the pane's last edit was of, if it answers that edit — sent within the answer window,
    /// and naming that prototype or the one it makes (every refusal of a prototype's edit
    /// does), so the refusal of another edit meanwhile (an undo, a paint) is not taken for it.
    pub fn edit_refused(&mut self, reason: &str) {
        let answers = |pending: &Pending| {
            let names = |key: &ProtoKey| reason.contains(key.1.as_str());
            pending.sent.elapsed() < ANSWER_WINDOW
                && (names(&pending.on) || pending.makes.as_ref().is_some_and(|(key, _)| names(key)))
        };
        let Some(pending) = self.refusable.take_if(|pending| answers(pending)) else { return };
        self.pending.take_if(|waiting| waiting.sent == pending.sent);
        self.refusals.insert(pending.on, Refusal { field: pending.field, message: reason.to_owned() });
        self.in_flight = None;
    }

    /// The refusal of the pane's last edit of prototype `key`, if it was refused.
    pub fn refusal(&self, key: ProtoKey) -> Option<&Refusal> {
        self.refusals.get(&key)
    }

    /// Takes the snapshot's news of the pane's last edit: done (History has a new step), and
    /// for a Duplicate or New, the new prototype there — selected, scrolled to and said.
    fn hear(&mut self, state: &mut EditorContext) {
        let Some(pending) = &self.pending else { return };
        let history = &state.snapshot.editing.history;
        let now = (history.labels.len(), history.done, history.labels.last().cloned());
        let done = now != pending.history;
        if !done {
            if pending.sent.elapsed() >= ANSWER_WINDOW {
                self.pending = None;
            }
            return;
        }
        match &pending.makes {
            Some((key, said)) => {
                if find(&state.snapshot.mods.data, *key).is_none() && pending.sent.elapsed() < ANSWER_WINDOW {
                    return;
                }
                self.selected = Some(*key);
                self.new_id.clear();
                state.notice = Some((said.clone(), Instant::now()));
                self.made = Some((*key, said.clone()));
            }
            None => self.made = None,
        }
        self.pending = None;
    }

    /// Another prototype is shown: a new id with nothing typed after its mod's id is made
    /// again from the new one's.
    fn new_prototype_shown(&mut self) {
        if self.new_id.ends_with('.') {
            self.new_id.clear();
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
            data_type: None,
            selected: None,
            shown: None,
            scroll_to_selected: false,
            new_id: String::new(),
            file: None,
            usages: None,
            code_command: DEFAULT_CODE_COMMAND.to_owned(),
            open_failed: None,
            pending: None,
            refusable: None,
            refusals: HashMap::new(),
            made: None,
            in_flight: None,
            locale: None,
        }
    }
}

/// The data type `key` names and its prototype, if both are there.
fn find(types: &[DataTypeView], key: ProtoKey) -> Option<(&DataTypeView, &PrototypeView)> {
    let data_type = types.iter().find(|t| t.id == key.0)?;
    Some((data_type, data_type.entries.iter().find(|e| e.id == key.1)?))
}

/// Shows the list of prototypes above and the selected one's form below, filling the pane.
pub fn ui(ui: &mut Ui, state: &mut EditorContext, data: &mut DataState) {
    data.hear(state);
    let snapshot = state.snapshot.clone();
    let types = &snapshot.mods.data;
    if data.selected != data.shown {
        // Selected elsewhere (a link, Duplicate, Problems): the list shows it.
        data.shown = data.selected;
        data.scroll_to_selected = true;
        if let Some((data_type, _)) = data.selected {
            data.data_type = Some(data_type);
        }
        data.new_prototype_shown();
    }
    let height = ui.available_height();
    egui::Panel::top(ui.id().with("data list"))
        .resizable(true)
        .default_size((height * 0.3).max(110.0))
        .size_range(80.0..=(height - 80.0).max(80.0))
        .show(ui, |ui| list_ui(ui, data, types));
    let selected = data.selected.and_then(|key| find(types, key));
    egui::ScrollArea::vertical().id_salt("data form").auto_shrink([false; 2]).show(ui, |ui| match selected {
        Some((data_type, proto)) => {
            let waiting = data.waiting_for(proto);
            if waiting {
                // Asks for frames until the answer comes.
                ui.ctx().request_repaint_after(Duration::from_millis(50));
            }
            form::form_ui(ui, state, data, types, data_type, proto, waiting);
        }
        None => {
            ui.weak("Pick a prototype to edit its fields.");
        }
    });
}

/// The data type picker, the search box and the list of prototypes: the picked type's, or
/// while searching every type's whose id matches, under their type's name.
fn list_ui(ui: &mut Ui, data: &mut DataState, types: &[DataTypeView]) {
    let current = data.data_type.and_then(|id| types.iter().find(|t| t.id == id)).or(types.first());
    ui.horizontal(|ui| {
        ui.label("Type:");
        let shown = current.map_or_else(|| "(none)".to_owned(), |t| format!("{} ({})", t.id, t.entries.len()));
        let picker = egui::ComboBox::from_id_salt("data type")
            .selected_text(shown.as_str())
            .width(ui.available_width())
            .height(f32::INFINITY)
            .show_ui(ui, |ui| {
                for data_type in types {
                    let text = format!("{} ({})", data_type.id, data_type.entries.len());
                    if ui.selectable_label(Some(data_type.id) == current.map(|t| t.id), text).clicked() {
                        data.data_type = Some(data_type.id);
                    }
                }
            });
        crate::accessibility::accessible_name(ui, &picker.response, format!("data type {shown}"));
        picker.response.on_hover_text("The data type whose prototypes are listed");
    });
    ui.horizontal(|ui| {
        ui.label("Search:");
        let search = ui.add(egui::TextEdit::singleline(&mut data.search).desired_width(ui.available_width()));
        crate::accessibility::accessible_name(ui, &search, "search prototypes");
        search.on_hover_text("Ids containing this, in every data type");
    });
    let needle = data.search.to_lowercase();
    egui::ScrollArea::vertical().id_salt("data list").auto_shrink([false; 2]).show(ui, |ui| {
        let listed: Vec<&DataTypeView> = match needle.is_empty() {
            true => current.into_iter().collect(),
            false => types.iter().collect(),
        };
        let mut found = false;
        for data_type in listed {
            let entries: Vec<&PrototypeView> = data_type
                .entries
                .iter()
                .filter(|e| needle.is_empty() || e.id.as_str().to_lowercase().contains(&needle))
                .collect();
            if entries.is_empty() {
                continue;
            }
            found = true;
            if !needle.is_empty() {
                ui.weak(data_type.id.as_str());
            }
            for entry in entries {
                let key = (data_type.id, entry.id);
                let chosen = data.selected == Some(key);
                let text = match entry.problems.is_empty() {
                    true => egui::RichText::new(entry.id.as_str()),
                    false => egui::RichText::new(entry.id.as_str()).color(ui.visuals().warn_fg_color),
                };
                let row = ui.selectable_label(chosen, text);
                crate::accessibility::accessible_name(ui, &row, entry.id.as_str());
                if chosen && data.scroll_to_selected {
                    row.scroll_to_me(Some(egui::Align::Center));
                    data.scroll_to_selected = false;
                }
                let row = match entry.problems.len() {
                    0 => row,
                    count => row.on_hover_text(format!("breaks {count} rule(s) of {}", data_type.id)),
                };
                if row.clicked() {
                    data.selected = Some(key);
                    data.shown = Some(key);
                    data.new_prototype_shown();
                }
            }
        }
        if !found {
            ui.weak(if needle.is_empty() { "No prototypes of this type." } else { "No id matches." });
        }
    });
}
