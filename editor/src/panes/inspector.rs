//! The Inspector pane: the selected objects' fields, base against temp against calc, with
//! the contributions behind each temp value ("why is my fov 100?").
//!
//! Editing the base column sends `mod_base`, the temp column `mod` (set, add or merge) or
//! `mod(field, nil)`; every edit goes through the runtime's undo history. A field its data
//! type declares is edited with the widget its type calls for, as in the Data pane
//! (`field_editor.rs`); a value the host refuses shows why above the table. With several
//! objects selected, the fields they share show once and an edit applies to all. A pane can
//! be pinned to one object; rows are virtualised, so objects with hundreds of fields stay fast.
//! The columns are dragged wider or narrower and keep their widths; a cut name or value shows
//! whole in one tooltip.

use std::collections::{HashMap, HashSet};
use std::time::Instant;

use egui::{Color32, RichText, Ui};
use egui_extras::{Column, TableBuilder};
use nefia_game::edit::Edit;
use nefia_game::field_type::FieldType;
use nefia_game::moddable::Contribution;
use nefia_game::value::Key;
use nefia_game::{ModMethod, Uid, Value};
use nefia_protocol::debugging::DebugCommand;
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::message::Command;
use nefia_protocol::play::PlayCommand;
use nefia_protocol::view::{DataTypeView, FieldRow, ObjectDetails};

mod rows;

use rows::{Line, SharedRow, flatten, replace_at, shared_rows, value_at};

use super::field_editor::{self, brief};
use crate::context::EditorContext;

const ROW_HEIGHT: f32 = 22.0;
/// The width a small button (⟲, ×, +) takes in a cell, with its spacing.
const SMALL_BUTTON: f32 = 22.0;

/// The inspectors' shared state.
#[derive(Default)]
pub struct InspectorState {
    /// Each pane's field filter, by pane (None: the selection's pane).
    pub filters: HashMap<Option<u64>, String>,
    /// Expanded table-valued rows, by object set and field path.
    expanded: HashSet<(Vec<Uid>, String)>,
    /// Calculated values at the start of the current turn, to highlight what changed.
    baseline: HashMap<(Uid, String), Option<Value>>,
    /// The turn the baseline was taken at.
    baseline_turn: Option<u64>,
    /// The turn before: values that differ from it changed during the last turn.
    previous: HashMap<(Uid, String), Option<Value>>,
    /// Objects whose values are in the baseline.
    tracked: HashSet<Uid>,
    /// The temp modification being added, by pane.
    adding: HashMap<Option<u64>, AddTemp>,
    /// The value typed in a field's "Break when it becomes…".
    becomes: String,
    /// The field each pane last sent an edit of, and when: a refusal that comes after it
    /// shows in the pane.
    sent: HashMap<Option<u64>, (String, Instant)>,
}

/// A temp modification being composed: `mod(field, value, method)`.
struct AddTemp {
    field: String,
    method: ModMethod,
    value: Value,
    /// How far down the pane its "+" was: the form opens there, over the table, beside its
    /// row.
    at: f32,
}

impl InspectorState {
    /// Takes a new baseline when the turn changes (and for objects first seen this turn).
    fn track_turns(&mut self, turn: u64, objects: &[ObjectDetails]) {
        if self.baseline_turn != Some(turn) {
            self.previous = std::mem::take(&mut self.baseline);
            self.baseline_turn = Some(turn);
            self.tracked.clear();
        }
        for object in objects.iter().filter(|o| self.tracked.insert(o.uid)) {
            for field in &object.fields {
                self.baseline.entry((object.uid, field.name.clone())).or_insert_with(|| field.calc.clone());
            }
        }
    }

    /// True if `field` of `uid` changed during the last turn.
    fn changed_last_turn(&self, uid: Uid, field: &FieldRow) -> bool {
        self.previous.get(&(uid, field.name.clone())).is_some_and(|before| *before != field.calc)
    }
}

/// Shows the inspector; `pinned` is the uid a pinned pane shows, None for the selection.
pub fn ui(ui: &mut Ui, state: &mut EditorContext, inspector: &mut InspectorState, pinned: Option<u64>) {
    if pinned.is_none() {
        super::tile_why::ui(ui, state);
    }
    let snapshot = state.snapshot.clone();
    let uids: Vec<Uid> = match pinned {
        Some(uid) => vec![Uid(uid)],
        None => state.selection.clone(),
    };
    let objects: Vec<&ObjectDetails> =
        uids.iter().filter_map(|uid| snapshot.editing.inspected.iter().find(|o| o.uid == *uid)).collect();
    if objects.is_empty() {
        ui.weak(match pinned {
            Some(uid) => format!("uid {uid} no longer exists."),
            None => "Click an object in the viewport or in Locations to inspect it (or a cell, on a map with auto-tiling rules, to see why its tile is there).".to_owned(),
        });
        return;
    }
    inspector.track_turns(snapshot.turn, &snapshot.editing.inspected);
    header_ui(ui, state, &objects, pinned);
    let filter = inspector.filters.entry(pinned).or_default();
    ui.horizontal(|ui| {
        ui.label("Filter:");
        ui.add(egui::TextEdit::singleline(filter).hint_text("field name").desired_width(160.0));
    });
    let filter = filter.clone();
    refusal_ui(ui, state, inspector.sent.get(&pinned));
    let types = &snapshot.mods.data[..];
    let rows = shared_rows(&objects, types, &filter);
    let flat = flatten(&rows, &uids, &inspector.expanded);
    let mut edits = Vec::new();
    let mut watch_commands = Vec::new();
    let mut toggles = Vec::new();
    let mut adding = inspector.adding.remove(&pinned);
    // The field column fits the longest name shown (with the expand arrow and watch mark).
    let font = egui::TextStyle::Monospace.resolve(ui.style());
    let longest = flat.iter().map(|line| line.label(&rows[line.row].name).chars().count()).max().unwrap_or(0);
    let names = ui.fonts_mut(|f| f.glyph_width(&font, 'm')) * (longest as f32 + 4.0);
    let widths = column_widths(ui.available_width(), ui.spacing().item_spacing.x, names);
    egui::ScrollArea::horizontal().show(ui, |ui| {
        let table = TableBuilder::new(ui)
            .id_salt(("inspector-table", pinned))
            .striped(true)
            .cell_layout(egui::Layout::left_to_right(egui::Align::Center))
            .resizable(true);
        let table = widths
            .into_iter()
            .fold(table, |table, (width, least)| table.column(Column::initial(width).at_least(least).clip(true)));
        table
            .header(ROW_HEIGHT, |mut header| {
                for title in ["field", "base", "temp", "calc", "why"] {
                    header.col(|ui| {
                        ui.strong(title);
                    });
                }
            })
            .body(|body| {
                body.rows(ROW_HEIGHT, flat.len(), |mut row| {
                    let line = &flat[row.index()];
                    let shared = &rows[line.row];
                    let changed = objects.iter().any(|o| {
                        shared.rows.iter().any(|r| r.name == shared.name && inspector.changed_last_turn(o.uid, r))
                    });
                    row.col(|ui| {
                        let text = RichText::new(line.label(&shared.name)).monospace();
                        let text = if changed { text.color(Color32::from_rgb(255, 210, 90)) } else { text };
                        ui.add_space(line.depth as f32 * 12.0);
                        if line.expandable {
                            let arrow = if line.expanded { "⏷" } else { "⏵" };
                            if ui.small_button(arrow).clicked() {
                                toggles.push(line.path.clone());
                            }
                        }
                        let watched = line.depth == 0
                            && snapshot
                                .debug
                                .watches
                                .iter()
                                .any(|w| w.enabled && w.field == shared.name && uids.contains(&w.uid));
                        let text =
                            if watched { RichText::new(format!("◉ {}", text.text())).monospace() } else { text };
                        let mut notes = Vec::new();
                        if is_cut(ui, &text) {
                            notes.push(line.label(&shared.name));
                        }
                        if changed {
                            notes.push("changed during the last turn".to_owned());
                        }
                        if watched {
                            notes.push("watched: the game stops when it changes".to_owned());
                        }
                        let label = ui.add(
                            egui::Label::new(text)
                                .truncate()
                                .show_tooltip_when_elided(false)
                                .sense(egui::Sense::click()),
                        );
                        let label = match notes.is_empty() {
                            true => label,
                            false => label.on_hover_text(notes.join("\n")),
                        };
                        if line.depth == 0 {
                            label.context_menu(|ui| {
                                field_menu_ui(ui, &snapshot, &uids, shared, &mut inspector.becomes, &mut watch_commands)
                            });
                        }
                    });
                    row.col(|ui| base_ui(ui, &uids, shared, line, types, &mut edits));
                    row.col(|ui| {
                        if line.depth == 0 {
                            temp_ui(ui, &uids, shared, types, &mut edits, &mut adding);
                        }
                    });
                    row.col(|ui| {
                        if line.depth == 0 {
                            // A cut value shows whole on hover (the label's own tooltip).
                            let text = shared.calc.as_ref().map_or_else(|| "nil".to_owned(), brief);
                            ui.add(egui::Label::new(RichText::new(text).monospace()).truncate());
                        }
                    });
                    row.col(|ui| {
                        if line.depth == 0 {
                            why_ui(ui, shared);
                        }
                    });
                });
            });
    });
    add_temp_form(ui, &uids, &mut adding, &mut edits);
    if let Some(form) = adding {
        inspector.adding.insert(pinned, form);
    }
    for path in toggles {
        let key = (uids.clone(), path);
        if !inspector.expanded.remove(&key) {
            inspector.expanded.insert(key);
        }
    }
    if let Some(Edit::SetBase { field, .. } | Edit::ModTemp { field, .. } | Edit::ResetToPrototype { field, .. }) =
        edits.first()
    {
        inspector.sent.insert(pinned, (field.clone(), Instant::now()));
    }
    state.outbox.extend(edits.into_iter().map(|edit| Command::Editing(EditingCommand::Edit(edit))));
    state.outbox.extend(watch_commands);
}

/// Why the host refused the pane's last edit, if it did: `sent` is the field the pane last
/// sent an edit of and when, and the host's refusal of a field's value names it first
/// (`fov = -5: Value is not of type "uint"`).
fn refusal_ui(ui: &mut Ui, state: &EditorContext, sent: Option<&(String, Instant)>) {
    let Some(((field, sent_at), (notice, at))) = sent.zip(state.notice.as_ref()) else { return };
    if at < sent_at || !notice.starts_with(&format!("{field} = ")) {
        return;
    }
    ui.add(egui::Label::new(RichText::new(format!("⚠ {notice}")).color(ui.visuals().error_fg_color)).wrap());
}

/// A field's right-click menu: watch it (stop when it changes, or when it becomes a value
/// typed there), or remove its watches.
fn field_menu_ui(
    ui: &mut Ui,
    snapshot: &nefia_protocol::view::Snapshot,
    uids: &[Uid],
    row: &SharedRow,
    becomes: &mut String,
    commands: &mut Vec<Command>,
) {
    let field = row.name.as_str();
    if let [uid] = uids
        && row.own
    {
        let apply = ui.button("Apply to prototype").on_hover_text(
            "Write this object's value into its prototype's data:add in the mod's Lua file, and drop the object's own",
        );
        if apply.clicked() {
            let edit = Edit::ApplyToPrototype { uid: *uid, field: field.to_owned() };
            commands.push(Command::Editing(EditingCommand::Edit(edit)));
            ui.close();
        }
    }
    let watch = |becomes: Option<Value>| {
        uids.iter().map(move |&uid| {
            Command::Debug(DebugCommand::Watch { uid, field: field.to_owned(), becomes: becomes.clone() })
        })
    };
    if ui.button("Break when it changes").on_hover_text("Pause the game at the line that changes it").clicked() {
        commands.extend(watch(None));
        ui.close();
    }
    ui.horizontal(|ui| {
        let go = ui.button("Break when it becomes").on_hover_text("Pause when it takes this value").clicked();
        let response = ui.add(egui::TextEdit::singleline(becomes).desired_width(70.0).hint_text("value"));
        crate::accessibility::accessible_name(ui, &response, "the value to break at");
        let entered = response.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
        if (go || entered) && !becomes.trim().is_empty() {
            commands.extend(watch(Some(Value::parse_literal(becomes))));
            becomes.clear();
            ui.close();
        }
    });
    if snapshot.play.recording.is_some() {
        let response = ui
            .button("When did this change?")
            .on_hover_text("Replay this session and list every change of the field, with the line that made it");
        if response.clicked() {
            commands.extend(
                uids.iter()
                    .take(1)
                    .map(|&uid| Command::Play(PlayCommand::FindChanges { uid, field: field.to_owned() })),
            );
            ui.close();
        }
    }
    let set: Vec<_> = snapshot.debug.watches.iter().filter(|w| w.field == field && uids.contains(&w.uid)).collect();
    if !set.is_empty() && ui.button("Remove its watches").clicked() {
        commands.extend(set.iter().map(|w| Command::Debug(DebugCommand::Unwatch(w.id))));
        ui.close();
    }
}

fn header_ui(ui: &mut Ui, state: &mut EditorContext, objects: &[&ObjectDetails], pinned: Option<u64>) {
    let uids: Vec<Uid> = objects.iter().map(|o| o.uid).collect();
    match objects {
        [object] => {
            ui.horizontal_wrapped(|ui| {
                ui.label(RichText::new(&object.title).strong().monospace());
                if ui
                    .button("Refresh")
                    .on_hover_text("refresh(): clear temp values and let handlers re-apply them")
                    .clicked()
                {
                    state.outbox.push(Command::Editing(EditingCommand::Edit(Edit::Refresh { uids: uids.clone() })));
                }
                if pinned.is_none()
                    && ui.button("📌 Pin").on_hover_text("Open an inspector that keeps showing this object").clicked()
                {
                    state.requests.push(crate::context::AppRequest::Pin(object.uid));
                }
            });
            ui.horizontal_wrapped(|ui| {
                let name = object
                    .fields
                    .iter()
                    .find(|f| f.name == "name")
                    .and_then(|f| f.calc.as_ref().and_then(Value::as_str));
                ui.label(format!(
                    "uid {} · {} · {} · \"{}\"",
                    object.uid,
                    object.kind.data_type(),
                    object.id,
                    name.unwrap_or("—")
                ));
                ui.label("·");
                if ui.link(&object.location).on_hover_text("show in Locations").clicked() {
                    state.reveal = Some(object.uid);
                }
                ui.label(format!("· ({}, {})", object.x, object.y));
            });
            if !object.own_handlers.is_empty() {
                let title = format!("Its own event handlers ({})", object.own_handlers.len());
                egui::CollapsingHeader::new(title).id_salt(("own-handlers", object.uid)).show(ui, |ui| {
                    for handler in &object.own_handlers {
                        ui.label(RichText::new(handler).monospace());
                    }
                });
            }
        }
        objects => {
            ui.horizontal(|ui| {
                ui.label(RichText::new(format!("{} objects selected", objects.len())).strong());
                if ui.button("Refresh all").clicked() {
                    state.outbox.push(Command::Editing(EditingCommand::Edit(Edit::Refresh { uids: uids.clone() })));
                }
            });
            ui.weak("Fields they share show once; an edit applies to all.");
        }
    }
}

/// How wide the five columns (field, base, temp, calc, why) start, and the least each may be
/// dragged to, in a pane `width` wide with `spacing` between columns, when the field names
/// need `names` pixels: the field column fits them whole (up to half the pane), the others
/// are each at least wide enough to use and share what is left, why the largest share after
/// base (text that does not fit is cut and shown whole on hover). The table keeps the widths
/// the columns are dragged to, and scrolls sideways when they pass the pane's.
fn column_widths(width: f32, spacing: f32, names: f32) -> [(f32, f32); 5] {
    const SHARES: [f32; 4] = [0.3, 0.2, 0.18, 0.32];
    const LEAST: [f32; 5] = [56.0, 56.0, 44.0, 36.0, 64.0];
    let room = (width - spacing * 4.0).max(0.0);
    let field = names.clamp(LEAST[0], (room / 2.0).max(LEAST[0])).floor();
    let others: f32 = LEAST[1..].iter().sum();
    let extra = (room - field - others).max(0.0);
    std::array::from_fn(|i| match i {
        0 => (field, LEAST[0]),
        i => ((LEAST[i] + extra * SHARES[i - 1]).floor(), LEAST[i]),
    })
}

/// Whether `text` is wider than the room left in `ui`: a label of it is cut.
fn is_cut(ui: &Ui, text: &RichText) -> bool {
    let galley = egui::WidgetText::from(text.clone()).into_galley(
        ui,
        Some(egui::TextWrapMode::Extend),
        f32::INFINITY,
        egui::TextStyle::Monospace,
    );
    galley.size().x > ui.available_width()
}

/// The editor of `value` in a cell, leaving room after it for `buttons` small buttons: the
/// widget its declared type `ty` calls for, as the Data pane shows it (a table in brief: its
/// entries are lines of their own once expanded), else one by what it holds. `label` names it
/// for assistive tools.
fn cell_editor(
    ui: &mut Ui,
    id: egui::Id,
    ty: Option<&FieldType>,
    value: &Value,
    types: &[DataTypeView],
    label: String,
    buttons: u8,
) -> Option<Value> {
    let width = (ui.available_width() - f32::from(buttons) * SMALL_BUTTON).max(24.0);
    let layout = egui::Layout::left_to_right(egui::Align::Center);
    let typed = ty.filter(|ty| !field_editor::is_list_or_map(ty) || matches!(value, Value::Nil));
    ui.allocate_ui_with_layout(egui::vec2(width, ROW_HEIGHT - 4.0), layout, |ui| match typed {
        Some(ty) => field_editor::typed_editor(ui, id, ty, value, types, label),
        None => field_editor::value_editor(ui, id, value, label),
    })
    .inner
}

/// The base value of `line`'s field (or of its entry), edited with [`cell_editor`], with ⟲ to
/// reset an object's own value, ⚠ when a temp value hides it, and + and × to add and remove a
/// declared list's items.
fn base_ui(ui: &mut Ui, uids: &[Uid], row: &SharedRow, line: &Line, types: &[DataTypeView], edits: &mut Vec<Edit>) {
    let Some(base) = &row.base else {
        ui.weak("(mixed)");
        return;
    };
    let Some(current) = base.as_ref().map_or(Some(&Value::Nil), |b| value_at(b, &line.keys)) else { return };
    let id = ui.id().with(("base", &line.path));
    let hidden = matches!(row.temp, Some(Some(_))) && row.own;
    let type_at = |keys: &[Key]| {
        row.declared.and_then(|field| keys.iter().try_fold(&field.ty, |ty, key| field_editor::part_type(ty, key)))
    };
    let ty = type_at(&line.keys);
    // A declared list gets items added with + on its line and removed with × on theirs, as in
    // the Data pane's list editor.
    let new_item = ty
        .and_then(field_editor::list_item_type)
        .filter(|_| matches!(current, Value::List(_)))
        .and_then(|of| field_editor::new_item(of, types));
    let item = line.keys.split_last().and_then(|(key, parent)| match key {
        Key::Int(position) => type_at(parent).and_then(field_editor::list_item_type).map(|_| (parent, *position)),
        Key::Str(_) => None,
    });
    let buttons = u8::from(new_item.is_some())
        + u8::from(item.is_some())
        + if line.depth > 0 { 0 } else { u8::from(row.own) + u8::from(hidden) };
    let with = |keys: &[Key], new: Value| match base {
        Some(base) => replace_at(base, keys, new),
        None => new,
    };
    let mut value = cell_editor(ui, id, ty, current, types, format!("base {}", line.path), buttons)
        .map(|new| with(&line.keys, new));
    if let (Some(start), Value::List(items)) = (new_item, current) {
        let add = ui.small_button("+").on_hover_text("Add an item at the end");
        crate::accessibility::accessible_name(ui, &add, format!("add an item to base {}", line.path));
        if add.clicked() {
            value = Some(with(&line.keys, Value::list(items.iter().cloned().chain([start]).collect())));
        }
    }
    if let Some((parent, position)) = item {
        let remove = ui.small_button("×").on_hover_text("Remove this item");
        crate::accessibility::accessible_name(ui, &remove, format!("remove base {}", line.path));
        let list = base.as_ref().and_then(|base| value_at(base, parent));
        if remove.clicked()
            && let Some(Value::List(items)) = list
        {
            let kept = items.iter().zip(1..).filter(|(_, at)| *at != position).map(|(item, _)| item.clone());
            value = Some(with(parent, Value::list(kept.collect())));
        }
    }
    if let Some(value) = value {
        edits.push(Edit::SetBase { uids: uids.to_vec(), field: row.name.clone(), value });
    }
    if line.depth > 0 {
        return;
    }
    if row.own {
        let reset = ui.small_button("⟲").on_hover_text("Reset to the prototype's value");
        crate::accessibility::accessible_name(ui, &reset, format!("reset {}", row.name));
        if reset.clicked() {
            edits.push(Edit::ResetToPrototype { uids: uids.to_vec(), field: row.name.clone() });
        }
    }
    if hidden {
        ui.label(RichText::new("⚠").color(Color32::YELLOW)).on_hover_text(
            "This base value is hidden: a temp value is set, and calc() returns the temp value. It shows again after refresh() clears the temp values.",
        );
    }
}

/// The temp value of `row`'s field, edited with [`cell_editor`], with × to remove it and + to
/// add a modification.
fn temp_ui(
    ui: &mut Ui,
    uids: &[Uid],
    row: &SharedRow,
    types: &[DataTypeView],
    edits: &mut Vec<Edit>,
    adding: &mut Option<AddTemp>,
) {
    match row.temp {
        None => {
            ui.weak("(mixed)");
        }
        Some(Some(temp)) => {
            let id = ui.id().with(("temp", &row.name));
            let ty = row.declared.map(|field| &field.ty);
            if let Some(value) = cell_editor(ui, id, ty, &temp.value, types, format!("temp {}", row.name), 2) {
                edits.push(Edit::ModTemp {
                    uids: uids.to_vec(),
                    field: row.name.clone(),
                    value,
                    method: ModMethod::Set,
                });
            }
            let remove = ui.small_button("×").on_hover_text("mod(field, nil): remove the temp value");
            crate::accessibility::accessible_name(ui, &remove, format!("remove temp {}", row.name));
            if remove.clicked() {
                edits.push(Edit::ModTemp {
                    uids: uids.to_vec(),
                    field: row.name.clone(),
                    value: Value::Nil,
                    method: ModMethod::Set,
                });
            }
            add_temp_ui(ui, row, adding);
        }
        Some(None) => add_temp_ui(ui, row, adding),
    }
}

/// The "+" button: opens the form to add a temp modification to this field.
fn add_temp_ui(ui: &mut Ui, row: &SharedRow, adding: &mut Option<AddTemp>) {
    let button = ui.small_button("+").on_hover_text("mod(): add a temp modification");
    crate::accessibility::accessible_name(ui, &button, format!("add temp {}", row.name));
    if button.clicked() {
        let value = match row.calc {
            Some(Value::Int(_)) | None => Value::Int(0),
            Some(Value::Float(_)) => Value::Float(0.0),
            Some(ref other) => other.clone(),
        };
        let at = button.rect.bottom();
        *adding = Some(AddTemp { field: row.name.clone(), method: ModMethod::Add, value, at });
    }
}

/// The form of a temp modification being added — method, value, Apply — over the table
/// under its row's "+", so no row moves.
fn add_temp_form(ui: &mut Ui, uids: &[Uid], adding: &mut Option<AddTemp>, edits: &mut Vec<Edit>) {
    let Some(form) = adding else { return };
    let mut close = false;
    // Within the pane (never over the map beside it).
    let pane = ui.max_rect();
    let area = egui::Area::new(ui.id().with(("add-temp", &form.field)))
        .order(egui::Order::Foreground)
        .fixed_pos(egui::pos2(pane.left(), form.at));
    area.show(ui.ctx(), |ui| {
        egui::Frame::popup(ui.style()).show(ui, |ui| {
            // Three short lines, narrower than the pane.
            ui.label(format!("mod(\"{}\", value, method):", form.field));
            ui.horizontal(|ui| {
                for method in [ModMethod::Set, ModMethod::Add, ModMethod::Merge] {
                    ui.radio_value(&mut form.method, method, method.name());
                }
            });
            ui.horizontal(|ui| {
                let id = ui.id().with("add-temp-value");
                if let Some(new) = field_editor::value_editor(ui, id, &form.value, "temp value".into()) {
                    form.value = new;
                }
                if ui.button("Apply").clicked() {
                    edits.push(Edit::ModTemp {
                        uids: uids.to_vec(),
                        field: form.field.clone(),
                        value: form.value.clone(),
                        method: form.method,
                    });
                    close = true;
                }
                close |= ui.button("Cancel").clicked();
            });
        })
    });
    if close {
        *adding = None;
    }
}

fn why_ui(ui: &mut Ui, row: &SharedRow) {
    let Some(Some(temp)) = row.temp else { return };
    let times = |c: &Contribution| match c.times {
        1 => String::new(),
        n => format!(" ×{n}"),
    };
    let summary = temp
        .sources
        .iter()
        .map(|c| format!("{} {}{}", c.method.name(), brief(&c.value), times(c)))
        .collect::<Vec<_>>()
        .join(", ");
    let summary = if temp.dropped > 0 { format!("(+{} older) {summary}", temp.dropped) } else { summary };
    // Its tooltip lists every contribution whole, so the cut summary needs no tooltip of its own.
    ui.add(egui::Label::new(RichText::new(&summary)).truncate().show_tooltip_when_elided(false)).on_hover_ui(|ui| {
        if temp.dropped > 0 {
            ui.weak(format!("{} older contributions not kept", temp.dropped));
        }
        for contribution in &temp.sources {
            let (method, value, origin) = (contribution.method.name(), &contribution.value, &contribution.origin);
            ui.monospace(format!("{method} {value}{} — {origin}", times(contribution)));
        }
    });
}
