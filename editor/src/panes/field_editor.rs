//! The widget each declared field type calls for, shared by the Data pane and the Inspector:
//! a typed number, a checkbox, a text field, a colour picker, a picker of ids or choices
//! searched by typing, and list and map editors whose items are edited with the widget their
//! element type calls for. Each returns the new value once an edit is finished, so a change is
//! one History step.
//!
//! A widget never bends a value to fit its type: a number is sent as typed (out of range, not
//! whole, or not a number at all), and the host's type checker refuses it with OpenNefia's
//! message, which the pane shows at the field.

use std::collections::BTreeMap;
use std::sync::Arc;

use egui::Ui;
use nefia_game::Value;
use nefia_game::field_type::FieldType;
use nefia_game::value::Key;
use nefia_protocol::view::{DataTypeView, FieldView};

/// The widget `ty` calls for, showing `value`; returns the new value once an edit is finished
/// (Enter, focus left, a drag or a pick done), so each change is one History step.
/// `label` names the widget for assistive tools ("max_hp of elona.putit").
pub fn field_editor(
    ui: &mut Ui,
    id: egui::Id,
    ty: &FieldType,
    value: &Value,
    field: &FieldView,
    types: &[DataTypeView],
    label: String,
) -> Option<Value> {
    if !ty.is_data() {
        ui.weak(field.type_name.as_str());
        return None;
    }
    typed_editor(ui, id, ty, value, types, label)
}

/// The widget `ty` calls for, showing `value`, as [`field_editor`] but for a part of a field
/// (a list's item, a map's value) as well as a whole one.
pub fn typed_editor(
    ui: &mut Ui,
    id: egui::Id,
    ty: &FieldType,
    value: &Value,
    types: &[DataTypeView],
    label: String,
) -> Option<Value> {
    match ty {
        FieldType::Boolean => checkbox(ui, value, label),
        FieldType::Number { .. } => number_editor(ui, id, value, Checked::ByType, label),
        FieldType::DataId { data_type } => pick(ui, id, value, &ids_of(types, data_type), label),
        FieldType::OneOf { values } => pick(ui, id, value, values, label),
        FieldType::Color => color_editor(ui, id, value, label),
        FieldType::Some { of } if of.contains(&FieldType::Color) && !matches!(value, Value::Str(_)) => {
            color_editor(ui, id, value, label)
        }
        FieldType::Optional { of } => typed_editor(ui, id, of, value, types, label),
        FieldType::String => text_editor(ui, id, value, label),
        FieldType::List { of } => list_editor(ui, id, of, value, types, &label),
        FieldType::Map { key, value: of } => map_editor(ui, id, key, of, value, types, &label),
        FieldType::Function | FieldType::Opaque => {
            ui.weak(ty.lua_annotation());
            None
        }
        _ => value_editor(ui, id, value, label),
    }
}

/// Whether `ty` edits `value` with a list or map editor (several lines), rather than a widget
/// on one line.
pub fn is_list_or_map(ty: &FieldType) -> bool {
    match ty {
        FieldType::Optional { of } => is_list_or_map(of),
        FieldType::List { .. } | FieldType::Map { .. } => true,
        _ => false,
    }
}

/// The type of the items of a list of type `ty` (`types.list(t)`, or an optional one), if it is
/// one.
pub fn list_item_type(ty: &FieldType) -> Option<&FieldType> {
    match ty {
        FieldType::Optional { of } => list_item_type(of),
        FieldType::List { of } => Some(of),
        _ => None,
    }
}

/// The type of the part of a value of type `ty` at `key` (a list's item, a map's value, a
/// declared field of a table), if `ty` declares one.
pub fn part_type<'a>(ty: &'a FieldType, key: &Key) -> Option<&'a FieldType> {
    match (ty, key) {
        (FieldType::Optional { of }, key) => part_type(of, key),
        (FieldType::List { of }, Key::Int(_)) => Some(of),
        (FieldType::Map { value, .. }, _) => Some(value),
        (FieldType::Fields { fields }, Key::Str(name)) => fields.iter().find(|(n, _)| **n == **name).map(|(_, t)| t),
        (FieldType::Tuple { of }, Key::Int(i)) => usize::try_from(*i).ok()?.checked_sub(1).and_then(|i| of.get(i)),
        _ => None,
    }
}

/// The value a new item of type `ty` starts with (a list's "+", a map's new entry), if the
/// type has one to offer: its least number, its first id or choice, an empty text or table.
pub fn new_item(ty: &FieldType, types: &[DataTypeView]) -> Option<Value> {
    Some(match ty {
        FieldType::Boolean => Value::Bool(false),
        FieldType::Number { integer, min, max } => {
            let within = |x: f64| min.is_none_or(|min| x >= min) && max.is_none_or(|max| x <= max);
            let start = if within(0.0) { 0.0 } else { min.or(*max)? };
            match integer {
                true => Value::Int(whole(start.ceil())?),
                false => Value::Float(start),
            }
        }
        FieldType::String => Value::str(""),
        FieldType::DataId { data_type } => ids_of(types, data_type).into_iter().next()?,
        FieldType::OneOf { values } => values.first()?.clone(),
        FieldType::Color => Value::list(vec![Value::Int(255); 3]),
        FieldType::Optional { of } => new_item(of, types)?,
        FieldType::Some { of } => of.iter().find_map(|t| new_item(t, types))?,
        FieldType::List { .. } | FieldType::Table | FieldType::Any => Value::list(Vec::new()),
        FieldType::Tuple { of } => Value::list(of.iter().map(|t| new_item(t, types)).collect::<Option<_>>()?),
        FieldType::Map { .. } => Value::Map(Arc::default()),
        FieldType::Fields { fields } => Value::Map(Arc::new(
            fields
                .iter()
                .filter_map(|(name, t)| Some((Key::Str(Arc::from(name.as_str())), new_item(t, types)?)))
                .collect(),
        )),
        FieldType::Function | FieldType::Opaque => return None,
    })
}

/// The ids of the prototypes of `data_type`, as values.
fn ids_of(types: &[DataTypeView], data_type: &str) -> Vec<Value> {
    types
        .iter()
        .find(|t| t.id.as_str() == data_type)
        .map(|t| t.entries.iter().map(|e| Value::str(e.id.as_str())).collect())
        .unwrap_or_default()
}

/// `x` as a whole number, if it is one within `i64`'s range.
fn whole(x: f64) -> Option<i64> {
    format!("{x:.0}").parse::<i64>().ok()
}

/// An editor for a value of no declared type, by what it holds, named `label` for assistive
/// tools. Returns the new value once an edit is finished, like [`typed_editor`]; a table is
/// shown in brief (set from Lua, not typed here).
pub fn value_editor(ui: &mut Ui, id: egui::Id, value: &Value, label: String) -> Option<Value> {
    match value {
        Value::Bool(_) => checkbox(ui, value, label),
        Value::Int(_) | Value::Float(_) => number_editor(ui, id, value, Checked::NotDeclared, label),
        Value::Str(_) => text_editor(ui, id, value, label),
        Value::Nil => {
            ui.weak("nil");
            None
        }
        Value::List(_) | Value::Map(_) | Value::Object(_) => {
            ui.weak(brief(value));
            None
        }
    }
}

/// A short text for a value in a cell: a table by its size.
pub fn brief(value: &Value) -> String {
    match value {
        Value::List(items) => format!("list ({})", items.len()),
        Value::Map(map) => format!("table ({})", map.len()),
        other => other.to_string(),
    }
}

/// A checkbox, true when `value` is.
fn checkbox(ui: &mut Ui, value: &Value, label: String) -> Option<Value> {
    let mut on = matches!(value, Value::Bool(true));
    let response = ui.checkbox(&mut on, "");
    crate::accessibility::accessible_name(ui, &response, label);
    response.changed().then_some(Value::Bool(on))
}

/// Who says no to a number typed into a [`number_editor`].
#[derive(Clone, Copy, PartialEq)]
enum Checked {
    /// The field's declared type, on the host: whatever was typed is sent, and a refusal comes
    /// back with the type checker's message.
    ByType,
    /// Nothing declares the field's type: a text that is not a number is kept back, and the
    /// field says so.
    NotDeclared,
}

/// A number, typed and committed with Enter or when focus leaves (all of it selected when the
/// field is entered, so typing replaces it). What was typed is what is sent: nothing clamps
/// or rounds it, so an out-of-range or fractional value, or a text that is no number, reaches
/// the type checker, which says why it refuses it (see [`Checked`]).
fn number_editor(ui: &mut Ui, id: egui::Id, value: &Value, checked: Checked, label: String) -> Option<Value> {
    let current = match value {
        Value::Nil => String::new(),
        other => other.to_string(),
    };
    let not_a_number = id.with("not a number");
    let mut buffer = ui.data(|d| d.get_temp::<String>(id)).unwrap_or_else(|| current.clone());
    let output = egui::TextEdit::singleline(&mut buffer).desired_width(text_width(ui, 90.0)).show(ui);
    let response = output.response.response;
    crate::accessibility::accessible_name(ui, &response, label);
    // Entered: all of it selected once the click that entered is let go (the click itself
    // places the cursor), so typing replaces it.
    let select_all = id.with("select all");
    if response.gained_focus() {
        ui.data_mut(|d| {
            d.insert_temp(select_all, true);
            d.remove::<String>(not_a_number);
        });
    }
    if response.has_focus()
        && ui.data(|d| d.get_temp::<bool>(select_all).is_some())
        && !ui.input(|i| i.pointer.any_down())
    {
        let mut state = output.state;
        state.cursor.set_char_range(Some(egui::text::CCursorRange::select_all(&output.galley)));
        state.store(ui.ctx(), response.id);
        ui.data_mut(|d| d.remove::<bool>(select_all));
    }
    if let Some(why) = ui.data(|d| d.get_temp::<String>(not_a_number)) {
        ui.colored_label(ui.visuals().error_fg_color, format!("⚠ {why}"));
    }
    if response.has_focus() {
        ui.data_mut(|d| d.insert_temp(id, buffer));
        return None;
    }
    ui.data_mut(|d| d.remove::<String>(id));
    let typed = buffer.trim();
    if !response.lost_focus() || typed == current {
        return None;
    }
    let new = match (typed.parse::<i64>(), typed.parse::<f64>()) {
        (Ok(whole), _) => Value::Int(whole),
        (_, Ok(number)) if number.is_finite() => Value::Float(number),
        _ if checked == Checked::NotDeclared => {
            ui.data_mut(|d| d.insert_temp(not_a_number, format!("'{typed}' is not a number: nothing was changed")));
            return None;
        }
        _ => Value::str(typed),
    };
    (!same_number(&new, value)).then_some(new)
}

/// The width a one-line text box's text is given so that the box, its margins (egui's 4
/// points a side) included, fits the room left in `ui`, at most `most`.
fn text_width(ui: &Ui, most: f32) -> f32 {
    (ui.available_width() - 8.0).clamp(24.0, most)
}

/// Whether `a` and `b` are the same number (an integer field holding 6 and 6.0 are).
fn same_number(a: &Value, b: &Value) -> bool {
    a.as_f64().is_some() && a.as_f64() == b.as_f64()
}

/// A text, committed with Enter or when focus leaves (returned then, if changed); what is typed
/// meanwhile is kept in egui's memory under `id`. A text too long for the box shows whole on
/// hover.
pub fn text_editor(ui: &mut Ui, id: egui::Id, value: &Value, label: String) -> Option<Value> {
    let current = match value {
        Value::Str(s) => s.to_string(),
        Value::Nil => String::new(),
        other => other.to_string(),
    };
    let mut buffer = ui.data(|d| d.get_temp::<String>(id)).unwrap_or_else(|| current.clone());
    let output = egui::TextEdit::singleline(&mut buffer).desired_width(text_width(ui, 140.0)).show(ui);
    let mut response = output.response.response;
    crate::accessibility::accessible_name(ui, &response, label);
    if output.galley.size().x > output.text_clip_rect.width() && !response.has_focus() {
        response = response.on_hover_text(buffer.as_str());
    }
    if response.has_focus() {
        ui.data_mut(|d| d.insert_temp(id, buffer));
        return None;
    }
    ui.data_mut(|d| d.remove::<String>(id));
    (response.lost_focus() && buffer != current).then(|| Value::str(&buffer))
}

/// One of `choices`, in a list searched by typing: the search box has the keyboard as the
/// list opens and a click in it keeps the list open; Enter picks the first match, a click
/// any.
fn pick(ui: &mut Ui, id: egui::Id, value: &Value, choices: &[Value], label: String) -> Option<Value> {
    let mut picked = None;
    let text_of = |choice: &Value| match choice {
        Value::Nil => "(none)".to_owned(),
        Value::Str(s) => s.to_string(),
        other => other.to_string(),
    };
    let (filter_id, open_id) = (id.with("filter"), id.with("open"));
    let width = (ui.available_width() - 2.0 * ui.spacing().button_padding.x).clamp(24.0, 160.0);
    let response = egui::ComboBox::from_id_salt(id)
        .selected_text(text_of(value))
        .width(width)
        .close_behavior(egui::PopupCloseBehavior::CloseOnClickOutside)
        .show_ui(ui, |ui| {
            let mut filter = ui.data(|d| d.get_temp::<String>(filter_id)).unwrap_or_default();
            let typed = ui.add(egui::TextEdit::singleline(&mut filter).hint_text("type to search"));
            crate::accessibility::accessible_name(ui, &typed, format!("search {label}"));
            if !ui.data(|d| d.get_temp::<bool>(open_id).unwrap_or(false)) {
                typed.request_focus();
                ui.data_mut(|d| d.insert_temp(open_id, true));
            }
            let enter = typed.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter));
            let needle = filter.to_lowercase();
            let mut matches =
                choices.iter().filter(|c| needle.is_empty() || text_of(c).to_lowercase().contains(&needle));
            if enter {
                picked = matches.next().cloned();
            }
            for choice in matches {
                if ui.selectable_label(choice == value, text_of(choice)).clicked() {
                    picked = Some(choice.clone());
                }
            }
            if picked.is_some() {
                ui.close();
            }
            ui.data_mut(|d| d.insert_temp(filter_id, filter));
        });
    if response.inner.is_none() {
        // Closed: the next opening starts with an empty search that has the keyboard.
        ui.data_mut(|d| {
            d.remove::<bool>(open_id);
            d.remove::<String>(filter_id);
        });
    }
    crate::accessibility::accessible_name(ui, &response.response, label);
    picked.filter(|choice| choice != value)
}

/// A colour `{ r, g, b }`, committed when the pointer is let go (the picker changes it on every
/// step of a drag).
fn color_editor(ui: &mut Ui, id: egui::Id, value: &Value, label: String) -> Option<Value> {
    let channel = |i: usize| match value {
        Value::List(items) => items
            .get(i)
            .and_then(Value::as_f64)
            .and_then(|c| whole(c.clamp(0.0, 255.0).round()))
            .map_or(255, |c| u8::try_from(c).unwrap_or(u8::MAX)),
        _ => 255,
    };
    let current = [channel(0), channel(1), channel(2)];
    let pending = ui.data(|d| d.get_temp::<[u8; 3]>(id));
    let mut rgb = pending.unwrap_or(current);
    let response = ui.color_edit_button_srgb(&mut rgb);
    crate::accessibility::accessible_name(ui, &response, label);
    if response.changed() {
        ui.data_mut(|d| d.insert_temp(id, rgb));
    }
    if ui.ctx().input(|i| i.pointer.any_down()) {
        return None;
    }
    let done = ui.data_mut(|d| d.remove_temp::<[u8; 3]>(id))?;
    (done != current).then(|| Value::list(done.iter().map(|&c| Value::Int(i64::from(c))).collect()))
}

/// What a list editor's row asked for.
enum ItemChange {
    /// The item became this value.
    Set(usize, Value),
    /// The item was removed.
    Remove(usize),
    /// The item swapped places with the one after it.
    SwapWithNext(usize),
}

/// A list of items of type `of`, one row each (its widget, ⏶ ⏷ to move it, × to remove it)
/// and "+" to add one at the end; nil shows as an empty list. Each change gives the whole new
/// list.
fn list_editor(
    ui: &mut Ui,
    id: egui::Id,
    of: &FieldType,
    value: &Value,
    types: &[DataTypeView],
    label: &str,
) -> Option<Value> {
    let items: &[Value] = match value {
        Value::List(items) => items,
        Value::Nil => &[],
        other => {
            ui.weak(brief(other));
            return None;
        }
    };
    let mut change = None;
    ui.vertical(|ui| {
        for (index, item) in items.iter().enumerate() {
            let name = format!("item {} of {label}", index + 1);
            ui.horizontal(|ui| {
                if let Some(new) = typed_editor(ui, id.with(index), of, item, types, name.clone()) {
                    change = Some(ItemChange::Set(index, new));
                }
                let up = ui.add_enabled(index > 0, egui::Button::new("⏶").small()).on_hover_text("Move it up");
                crate::accessibility::accessible_name(ui, &up, format!("move {name} up"));
                let down = ui
                    .add_enabled(index + 1 < items.len(), egui::Button::new("⏷").small())
                    .on_hover_text("Move it down");
                crate::accessibility::accessible_name(ui, &down, format!("move {name} down"));
                let remove = ui.small_button("×").on_hover_text("Remove it");
                crate::accessibility::accessible_name(ui, &remove, format!("remove {name}"));
                if up.clicked() {
                    change = Some(ItemChange::SwapWithNext(index - 1));
                } else if down.clicked() {
                    change = Some(ItemChange::SwapWithNext(index));
                } else if remove.clicked() {
                    change = Some(ItemChange::Remove(index));
                }
            });
        }
        let start = new_item(of, types);
        let add =
            ui.add_enabled(start.is_some(), egui::Button::new("+").small()).on_hover_text("Add an item at the end");
        crate::accessibility::accessible_name(ui, &add, format!("add an item to {label}"));
        if add.clicked() {
            change = start.map(|start| ItemChange::Set(items.len(), start));
        }
    });
    let mut items = items.to_vec();
    match change? {
        ItemChange::Set(index, new) if index == items.len() => items.push(new),
        ItemChange::Set(index, new) => items[index] = new,
        ItemChange::Remove(index) => {
            items.remove(index);
        }
        ItemChange::SwapWithNext(index) => items.swap(index, index + 1),
    }
    Some(Value::list(items))
}

/// A table from keys of type `key` to values of type `of`, one row per entry (its key, its
/// value's widget, × to remove it) and a last row to type a new key and add it with "+"; nil
/// shows as an empty table. Each change gives the whole new table.
fn map_editor(
    ui: &mut Ui,
    id: egui::Id,
    key: &FieldType,
    of: &FieldType,
    value: &Value,
    types: &[DataTypeView],
    label: &str,
) -> Option<Value> {
    let empty = BTreeMap::new();
    let entries = match value {
        Value::Map(map) => &**map,
        Value::Nil => &empty,
        Value::List(items) if items.is_empty() => &empty,
        other => {
            ui.weak(brief(other));
            return None;
        }
    };
    let mut change: Option<(Key, Option<Value>)> = None;
    ui.vertical(|ui| {
        for (entry, item) in entries {
            let name = format!("{entry} of {label}");
            ui.horizontal(|ui| {
                ui.monospace(entry.to_string());
                if let Some(new) = typed_editor(ui, id.with(entry), of, item, types, name.clone()) {
                    change = Some((entry.clone(), Some(new)));
                }
                let remove = ui.small_button("×").on_hover_text("Remove it");
                crate::accessibility::accessible_name(ui, &remove, format!("remove {name}"));
                if remove.clicked() {
                    change = Some((entry.clone(), None));
                }
            });
        }
        ui.horizontal(|ui| {
            let typed_id = id.with("new key");
            let typed = ui.data(|d| d.get_temp::<Value>(typed_id)).unwrap_or(Value::Nil);
            // A key of no declared type is typed as a string.
            let key_type = if matches!(key, FieldType::Any) { &FieldType::String } else { key };
            if let Some(new) =
                typed_editor(ui, id.with("key editor"), key_type, &typed, types, format!("new key of {label}"))
            {
                ui.data_mut(|d| d.insert_temp(typed_id, new));
            }
            let new_key = match &typed {
                Value::Int(i) => Some(Key::Int(*i)),
                Value::Str(s) if !s.is_empty() => Some(Key::Str(s.clone())),
                _ => None,
            }
            .filter(|k| !entries.contains_key(k));
            // A set (`types.set`) maps its members to true.
            let start = if matches!(of, FieldType::Boolean) { Some(Value::Bool(true)) } else { new_item(of, types) };
            let add = ui
                .add_enabled(new_key.is_some() && start.is_some(), egui::Button::new("+").small())
                .on_hover_text("Add an entry with this key");
            crate::accessibility::accessible_name(ui, &add, format!("add an entry to {label}"));
            if add.clicked() {
                ui.data_mut(|d| d.remove::<Value>(typed_id));
                change = new_key.zip(start).map(|(k, v)| (k, Some(v)));
            }
        });
    });
    let (entry, new) = change?;
    let mut entries = entries.clone();
    match new {
        Some(new) => entries.insert(entry, new),
        None => entries.remove(&entry),
    };
    Some(Value::Map(Arc::new(entries)))
}
