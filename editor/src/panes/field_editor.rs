//! The widget each declared field type calls for, shared by the Data pane and the Inspector:
//! a number with its range, a checkbox, a text field, a colour picker, a searchable picker of
//! ids or choices. Each returns the new value once an edit is finished, so a change is one
//! History step.

use egui::Ui;
use nefia_runtime::Value;
use nefia_runtime::game::field_type::FieldType;
use nefia_runtime::host::view::{DataTypeView, FieldView};

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
    match ty {
        FieldType::Boolean => {
            let mut on = matches!(value, Value::Bool(true));
            let response = ui.checkbox(&mut on, "");
            super::accessible_name(ui, &response, label);
            response.changed().then_some(Value::Bool(on))
        }
        FieldType::Number { integer, min, max } => number_editor(ui, id, value, *integer, *min, *max, label),
        FieldType::DataId { data_type } => {
            let ids: Vec<String> = types
                .iter()
                .find(|t| t.id.as_str() == data_type)
                .map(|t| t.entries.iter().map(|e| e.id.as_str().to_owned()).collect())
                .unwrap_or_default();
            let choices: Vec<Value> = ids.iter().map(|id| Value::str(id)).collect();
            pick(ui, id, value, &choices, label)
        }
        FieldType::OneOf { values } => pick(ui, id, value, values, label),
        FieldType::Color => color_editor(ui, id, value, label),
        FieldType::Some { of } if of.contains(&FieldType::Color) && !matches!(value, Value::Str(_)) => {
            color_editor(ui, id, value, label)
        }
        FieldType::Optional { of } => field_editor(ui, id, of, value, field, types, label),
        FieldType::String => text_editor(ui, id, value, label),
        FieldType::Function | FieldType::Opaque => {
            ui.weak(field.type_name.as_str());
            None
        }
        _ => super::inspector::value_editor(ui, id, value, label, 1),
    }
}

/// A number within `min`..=`max`, whole if `integer`.
fn number_editor(
    ui: &mut Ui,
    id: egui::Id,
    value: &Value,
    integer: bool,
    min: Option<f64>,
    max: Option<f64>,
    label: String,
) -> Option<Value> {
    let mut buffer = ui.data(|d| d.get_temp::<f64>(id)).unwrap_or(value.as_f64().unwrap_or_default());
    let range = min.unwrap_or(f64::NEG_INFINITY)..=max.unwrap_or(f64::INFINITY);
    let drag = egui::DragValue::new(&mut buffer).range(range).speed(if integer { 0.2 } else { 0.05 });
    let drag = if integer { drag.fixed_decimals(0) } else { drag };
    let response = ui.add_sized([90.0, 18.0], drag);
    super::accessible_name(ui, &response, label);
    if response.dragged() || response.has_focus() {
        ui.data_mut(|d| d.insert_temp(id, buffer));
        return None;
    }
    ui.data_mut(|d| d.remove::<f64>(id));
    let whole = || format!("{buffer:.0}").parse::<i64>().ok().map(Value::Int);
    let new = if integer { whole()? } else { Value::Float(buffer) };
    let finished = response.drag_stopped() || response.lost_focus() || response.changed();
    (finished && !same_number(&new, value)).then_some(new)
}

/// Whether `a` and `b` are the same number (an integer field holding 6 and 6.0 are).
fn same_number(a: &Value, b: &Value) -> bool {
    a.as_f64().is_some() && a.as_f64() == b.as_f64()
}

/// A text, committed with Enter or when focus leaves.
fn text_editor(ui: &mut Ui, id: egui::Id, value: &Value, label: String) -> Option<Value> {
    let current = match value {
        Value::Str(s) => s.to_string(),
        Value::Nil => String::new(),
        other => other.to_string(),
    };
    let mut buffer = ui.data(|d| d.get_temp::<String>(id)).unwrap_or_else(|| current.clone());
    let response = ui.add(egui::TextEdit::singleline(&mut buffer).desired_width(140.0));
    super::accessible_name(ui, &response, label);
    if response.has_focus() {
        ui.data_mut(|d| d.insert_temp(id, buffer));
        return None;
    }
    ui.data_mut(|d| d.remove::<String>(id));
    (response.lost_focus() && buffer != current).then(|| Value::str(&buffer))
}

/// One of `choices`, in a searchable list.
fn pick(ui: &mut Ui, id: egui::Id, value: &Value, choices: &[Value], label: String) -> Option<Value> {
    let mut picked = None;
    let shown = match value {
        Value::Nil => "(none)".to_owned(),
        Value::Str(s) => s.to_string(),
        other => other.to_string(),
    };
    let response = egui::ComboBox::from_id_salt(id).selected_text(shown).width(160.0).show_ui(ui, |ui| {
        let filter_id = id.with("filter");
        let mut filter = ui.data(|d| d.get_temp::<String>(filter_id)).unwrap_or_default();
        ui.text_edit_singleline(&mut filter);
        for choice in choices {
            let text = match choice {
                Value::Str(s) => s.to_string(),
                other => other.to_string(),
            };
            if !filter.is_empty() && !text.to_lowercase().contains(&filter.to_lowercase()) {
                continue;
            }
            if ui.selectable_label(choice == value, text).clicked() && choice != value {
                picked = Some(choice.clone());
            }
        }
        ui.data_mut(|d| d.insert_temp(filter_id, filter));
    });
    super::accessible_name(ui, &response.response, label);
    picked
}

/// A colour `{ r, g, b }`, committed when the pointer is let go (the picker changes it on every
/// step of a drag).
fn color_editor(ui: &mut Ui, id: egui::Id, value: &Value, label: String) -> Option<Value> {
    let channel = |i: usize| match value {
        Value::List(items) => items.get(i).and_then(Value::as_f64).map_or(255, |c| c.clamp(0.0, 255.0).round() as u8),
        _ => 255,
    };
    let current = [channel(0), channel(1), channel(2)];
    let pending = ui.data(|d| d.get_temp::<[u8; 3]>(id));
    let mut rgb = pending.unwrap_or(current);
    let response = ui.color_edit_button_srgb(&mut rgb);
    super::accessible_name(ui, &response, label);
    if response.changed() {
        ui.data_mut(|d| d.insert_temp(id, rgb));
    }
    if ui.ctx().input(|i| i.pointer.any_down()) {
        return None;
    }
    let done = ui.data_mut(|d| d.remove_temp::<[u8; 3]>(id))?;
    (done != current).then(|| Value::list(done.iter().map(|&c| Value::Int(i64::from(c))).collect()))
}
