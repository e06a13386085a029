//! The Workbench pane: pick a map generator (a `base.map_generator` prototype), set its params
//! with widgets made from its schema and a seed (◀ ▶, 🎲, or typed), and the viewport shows
//! the map it makes — a preview, not one of the project's maps — with the validators'
//! problems framed. Saving the generator's file regenerates the same seed and tints the cells
//! the change altered; the counts are here. Bake makes the preview one of the project's maps.

use std::collections::BTreeMap;

use egui::{Color32, RichText, Ui};
use nefia_runtime::Value;
use nefia_runtime::host::Command;
use nefia_runtime::value::Key;

use crate::context::EditorContext;

/// The pane's own state: the generator picked, the params and the seed set.
#[derive(Default)]
pub struct WorkbenchState {
    /// The generator's id.
    pub generator: Option<String>,
    /// The params set, by name.
    pub params: BTreeMap<String, Value>,
    /// The seed.
    pub seed: i64,
    /// The name to bake the preview as.
    pub bake_as: String,
}

/// A param of the schema: its name, type, default and bounds.
struct Param {
    name: String,
    kind: String,
    default: Value,
    min: Option<f64>,
    max: Option<f64>,
}

/// The schema of generator `id` as the data view holds it (its `params` field).
fn schema(state: &EditorContext, id: &str) -> Vec<Param> {
    let generators = state.snapshot.data.iter().find(|t| t.id.as_str() == "base.map_generator");
    let entry = generators.and_then(|t| t.entries.iter().find(|e| e.id.as_str() == id));
    let params = entry.and_then(|e| e.fields.iter().find(|(name, _)| name.as_str() == "params"));
    let Some((_, Value::Map(params))) = params else { return Vec::new() };
    params
        .iter()
        .filter_map(|(name, spec)| {
            let (Key::Str(name), Value::Map(spec)) = (name, spec) else { return None };
            let get = |field: &str| spec.get(&Key::Str(field.into())).cloned();
            Some(Param {
                name: name.to_string(),
                kind: get("type").and_then(|t| t.as_str().map(str::to_owned)).unwrap_or_else(|| "float".into()),
                default: get("default").unwrap_or_default(),
                min: get("min").and_then(|v| v.as_f64()),
                max: get("max").and_then(|v| v.as_f64()),
            })
        })
        .collect()
}

/// Shows the pane.
pub fn ui(ui: &mut Ui, state: &mut EditorContext, pane: &mut WorkbenchState) {
    let generators: Vec<String> = state
        .snapshot
        .data
        .iter()
        .filter(|t| t.id.as_str() == "base.map_generator")
        .flat_map(|t| t.entries.iter().map(|e| e.id.to_string()))
        .collect();
    if generators.is_empty() {
        ui.weak("No map generators: add one with data:add { _type = \"base.map_generator\", ... } (see the README).");
        return;
    }
    if state.snapshot.playing {
        ui.weak("The workbench previews while editing: stop playing (Shift+F5) to use it.");
        return;
    }
    let mut changed = false;
    ui.horizontal(|ui| {
        ui.label("Generator:");
        let shown = pane.generator.clone().unwrap_or_else(|| "pick one".into());
        let combo = egui::ComboBox::from_id_salt("workbench-generator").selected_text(shown).show_ui(ui, |ui| {
            for id in &generators {
                if ui.selectable_label(pane.generator.as_deref() == Some(id.as_str()), id).clicked() {
                    pane.generator = Some(id.clone());
                    pane.params.clear();
                    changed = true;
                }
            }
        });
        crate::panes::accessible_name(ui, &combo.response, "generator");
    });
    let Some(generator) = pane.generator.clone() else { return };
    ui.horizontal(|ui| {
        ui.label("Seed:");
        if ui.small_button("◀").on_hover_text("The seed before").clicked() {
            pane.seed -= 1;
            changed = true;
        }
        let response = ui.add(egui::DragValue::new(&mut pane.seed).speed(1.0));
        crate::panes::accessible_name(ui, &response, "seed");
        changed |= response.changed();
        if ui.small_button("▶").on_hover_text("The seed after").clicked() {
            pane.seed += 1;
            changed = true;
        }
        if ui.small_button("🎲").on_hover_text("A random seed").clicked() {
            pane.seed = i64::from(fastrand::u32(..));
            changed = true;
        }
    });
    for param in schema(state, &generator) {
        changed |= param_ui(ui, pane, &param);
    }
    ui.horizontal(|ui| {
        changed |= ui.button("Generate").clicked();
        if state.snapshot.preview.is_some() {
            if ui.button("Close preview").clicked() {
                state.outbox.push(Command::ClosePreview);
            }
            let name = ui.add(egui::TextEdit::singleline(&mut pane.bake_as).hint_text("map name").desired_width(110.0));
            crate::panes::accessible_name(ui, &name, "bake as");
            let bake = ui
                .add_enabled(!pane.bake_as.trim().is_empty(), egui::Button::new("Bake"))
                .on_hover_text("Make the preview one of the project's maps, written to maps/<name>.ron");
            if bake.clicked() {
                state.outbox.push(Command::BakePreview(pane.bake_as.trim().to_owned()));
            }
        }
    });
    if changed {
        let params = pane.params.iter().map(|(name, value)| (Key::Str(name.as_str().into()), value.clone())).collect();
        state.outbox.push(Command::Preview {
            generator,
            params: Value::Map(std::sync::Arc::new(params)),
            seed: pane.seed,
        });
    }
    preview_ui(ui, state);
}

/// One param's widget, from its type and bounds; true if it changed.
fn param_ui(ui: &mut Ui, pane: &mut WorkbenchState, param: &Param) -> bool {
    let value = pane.params.get(&param.name).cloned().unwrap_or_else(|| param.default.clone());
    let new = ui
        .horizontal(|ui| {
            ui.label(&param.name);
            let range = param.min.unwrap_or(f64::MIN)..=param.max.unwrap_or(f64::MAX);
            match (param.kind.as_str(), &value) {
                ("bool", _) => {
                    let mut on = !value.is_falsy();
                    ui.checkbox(&mut on, "").changed().then_some(Value::Bool(on))
                }
                ("int", _) => {
                    let mut number = value.as_i64().unwrap_or(0);
                    let range = range.start().max(i64::MIN as f64) as i64..=range.end().min(i64::MAX as f64) as i64;
                    let response = ui.add(egui::DragValue::new(&mut number).range(range));
                    crate::panes::accessible_name(ui, &response, format!("param {}", param.name));
                    response.changed().then_some(Value::Int(number))
                }
                ("string", _) => {
                    let mut text = value.as_str().unwrap_or_default().to_owned();
                    ui.text_edit_singleline(&mut text).changed().then(|| Value::str(&text))
                }
                _ => {
                    let mut number = value.as_f64().unwrap_or(0.0);
                    let response = ui.add(egui::DragValue::new(&mut number).range(range).speed(0.01));
                    crate::panes::accessible_name(ui, &response, format!("param {}", param.name));
                    response.changed().then_some(Value::Float(number))
                }
            }
        })
        .inner;
    match new {
        Some(new) => {
            pane.params.insert(param.name.clone(), new);
            true
        }
        None => false,
    }
}

/// What the preview is: its problems, the change the last regeneration made, a failure.
fn preview_ui(ui: &mut Ui, state: &mut EditorContext) {
    let Some(preview) = state.snapshot.preview.clone() else { return };
    ui.separator();
    ui.label(format!("{} seed {} in {:.1} ms", preview.generator, preview.seed, preview.took_ms));
    if let Some(error) = &preview.error {
        ui.colored_label(Color32::from_rgb(255, 110, 110), format!("the last generation failed: {error}"));
    }
    if let Some(diff) = &preview.diff {
        let text =
            format!("{} cells changed: {} tiles, {} with other objects", diff.cells.len(), diff.tiles, diff.objects);
        ui.label(RichText::new(text).color(Color32::from_rgb(255, 200, 40)));
    }
    if preview.problems.is_empty() {
        ui.weak("The validators find no problem.");
    }
    for problem in &preview.problems {
        ui.colored_label(Color32::from_rgb(255, 110, 110), problem.to_string());
    }
}
