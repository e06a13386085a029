//! The Workbench pane: pick a map generator (a `base.map_generator` prototype), set its params
//! with widgets made from its schema and a seed (◀ ▶, 🎲, or typed), and the viewport shows
//! the map it makes — a preview, not one of the project's maps — with the validators'
//! problems framed. Saving the generator's file regenerates the same seed and tints the cells
//! the change altered; the counts are here. Bake makes the preview one of the project's maps;
//! Play this plays it, and Stop comes back to it.
//! Scan seeds generates a range of seeds on every core and lists the seeds whose map passes a
//! predicate, with a histogram of each metric; clicking a seed previews it.

use std::collections::BTreeMap;

use egui::{Color32, RichText, Ui};
use nefia_game::Value;
use nefia_game::value::Key;
use nefia_host::generate::{Scan, ScanControl, ScanReport};
use nefia_protocol::message::Command;
use nefia_protocol::workbench::WorkbenchCommand;

use crate::commands::{Action, with_binding};
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
    /// Scanning seeds.
    pub scan: ScanState,
}

/// The Scan seeds section: what to scan, the scan running, and what the last one found.
pub struct ScanState {
    /// The first seed.
    pub from: i64,
    /// The last seed.
    pub to: i64,
    /// A Lua expression over `map` (or a function): the seeds kept; empty keeps all.
    pub predicate: String,
    /// One metric a line, `NAME=LUA`.
    pub metrics: String,
    running: Option<RunningScan>,
    /// The last scan's outcome.
    pub report: Option<Result<ScanReport, ScanFailed>>,
}

/// Why a scan gave no report.
#[derive(Debug, thiserror::Error)]
pub enum ScanFailed {
    /// The project could not be opened, or the generator, the predicate or a metric failed.
    #[error(transparent)]
    Generate(#[from] nefia_host::generate::GenerateError),
    /// The scan's thread panicked.
    #[error("the scan stopped on a panic")]
    Panicked,
}

impl Default for ScanState {
    fn default() -> ScanState {
        ScanState {
            from: 1,
            to: 1000,
            predicate: "#Map.validate(map) == 0".into(),
            metrics: "entrance_x=map.entrance[1]".into(),
            running: None,
            report: None,
        }
    }
}

/// A scan on its own thread (every core; it opens its own Lua states, apart from the game's).
struct RunningScan {
    control: ScanControl,
    total: u64,
    thread: std::thread::JoinHandle<Result<ScanReport, nefia_host::generate::GenerateError>>,
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
    let generators = state.snapshot.mods.data.iter().find(|t| t.id.as_str() == "base.map_generator");
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

/// Shows the pane (it scrolls: the scan's results can be long).
pub fn ui(ui: &mut Ui, state: &mut EditorContext, pane: &mut WorkbenchState) {
    egui::ScrollArea::vertical().id_salt("workbench").auto_shrink([false; 2]).show(ui, |ui| pane_ui(ui, state, pane));
}

fn pane_ui(ui: &mut Ui, state: &mut EditorContext, pane: &mut WorkbenchState) {
    let generators: Vec<String> = state
        .snapshot
        .mods
        .data
        .iter()
        .filter(|t| t.id.as_str() == "base.map_generator")
        .flat_map(|t| t.entries.iter().map(|e| e.id.to_string()))
        .collect();
    if generators.is_empty() {
        ui.weak("No map generators: add one with data:add { _type = \"base.map_generator\", ... } (see the README).");
        return;
    }
    if state.snapshot.play.playing {
        ui.weak(
            with_binding("The workbench previews while editing: stop playing", Action::StopPlay, ui.ctx())
                + " to use it.",
        );
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
        crate::accessibility::accessible_name(ui, &combo.response, "generator");
    });
    let Some(generator) = pane.generator.clone() else { return };
    ui.horizontal(|ui| {
        ui.label("Seed:");
        if ui.small_button("◀").on_hover_text("The seed before").clicked() {
            pane.seed -= 1;
            changed = true;
        }
        let response = ui.add(egui::DragValue::new(&mut pane.seed).speed(1.0));
        crate::accessibility::accessible_name(ui, &response, "seed");
        changed |= response.changed();
        if ui.small_button("▶").on_hover_text("The seed after").clicked() {
            pane.seed += 1;
            changed = true;
        }
        // Sweeping through the seeds of the scan's range.
        let range = pane.scan.from.min(pane.scan.to)..=pane.scan.to.max(pane.scan.from);
        let slider =
            ui.add(egui::Slider::new(&mut pane.seed, range).show_value(false).clamping(egui::SliderClamping::Never));
        crate::accessibility::accessible_name(ui, &slider, "seed slider");
        changed |= slider.changed();
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
                state.outbox.push(Command::Workbench(WorkbenchCommand::Close));
            }
            let name = ui.add(egui::TextEdit::singleline(&mut pane.bake_as).hint_text("map name").desired_width(110.0));
            crate::accessibility::accessible_name(ui, &name, "bake as");
            let bake = ui
                .add_enabled(!pane.bake_as.trim().is_empty(), egui::Button::new("Bake"))
                .on_hover_text("Make the preview one of the project's maps, written to maps/<name>.ron");
            if bake.clicked() {
                state.outbox.push(Command::Workbench(WorkbenchCommand::Bake(pane.bake_as.trim().to_owned())));
            }
            if let Some(map) = state.snapshot.preview.as_ref().and_then(|p| p.map)
                && ui
                    .button("Play this")
                    .on_hover_text("Play the preview at its entrance (Stop comes back here)")
                    .clicked()
            {
                crate::play_controls::play(state, nefia_protocol::play::PlayFrom::Map(map));
            }
        }
    });
    let params = Value::Map(std::sync::Arc::new(
        pane.params.iter().map(|(name, value)| (Key::Str(name.as_str().into()), value.clone())).collect(),
    ));
    if changed {
        state.outbox.push(Command::Workbench(WorkbenchCommand::Preview {
            generator: generator.clone(),
            params: params.clone(),
            seed: pane.seed,
        }));
    }
    preview_ui(ui, state);
    ui.separator();
    egui::CollapsingHeader::new("Scan seeds").id_salt("workbench-scan").show(ui, |ui| {
        if let Some(seed) = scan_ui(ui, state, &mut pane.scan, &generator, &params) {
            pane.seed = seed;
            state.outbox.push(Command::Workbench(WorkbenchCommand::Preview {
                generator: generator.clone(),
                params: params.clone(),
                seed,
            }));
        }
    });
}

/// The Scan seeds section; returns a seed clicked in the results.
fn scan_ui(ui: &mut Ui, state: &EditorContext, scan: &mut ScanState, generator: &str, params: &Value) -> Option<i64> {
    ui.horizontal(|ui| {
        ui.label("Seeds");
        ui.add(egui::DragValue::new(&mut scan.from));
        ui.label("to");
        ui.add(egui::DragValue::new(&mut scan.to));
    });
    ui.horizontal(|ui| {
        ui.label("Keep where");
        let response = ui.add(egui::TextEdit::singleline(&mut scan.predicate).hint_text("a Lua expression over map"));
        crate::accessibility::accessible_name(ui, &response, "scan predicate");
    });
    ui.label("Metrics (NAME=LUA, one a line)");
    let response = ui.add(egui::TextEdit::multiline(&mut scan.metrics).desired_rows(2));
    crate::accessibility::accessible_name(ui, &response, "scan metrics");
    if let Some(running) = &scan.running {
        let done = running.control.scanned.load(std::sync::atomic::Ordering::Relaxed);
        ui.horizontal(|ui| {
            let fraction = done as f32 / running.total.max(1) as f32;
            ui.add(
                egui::ProgressBar::new(fraction)
                    .text(format!("{done} of {} seeds", running.total))
                    .desired_width(220.0),
            );
            if ui.button("Cancel").clicked() {
                running.control.cancel.store(true, std::sync::atomic::Ordering::Relaxed);
            }
        });
        ui.ctx().request_repaint_after(std::time::Duration::from_millis(100));
        if running.thread.is_finished()
            && let Some(running) = scan.running.take()
        {
            scan.report =
                Some(running.thread.join().map_or(Err(ScanFailed::Panicked), |r| r.map_err(ScanFailed::from)));
        }
        return None;
    }
    if ui.button("Scan").on_hover_text("Generate every seed of the range on every core").clicked()
        && scan.from <= scan.to
    {
        let metrics = scan
            .metrics
            .lines()
            .filter_map(|line| line.split_once('='))
            .map(|(name, code)| (name.trim().to_owned(), code.trim().to_owned()))
            .filter(|(name, code)| !name.is_empty() && !code.is_empty())
            .collect();
        let asked = Scan {
            generator: generator.to_owned(),
            params: params.clone(),
            seeds: nefia_host::seeds::Seeds::range(scan.from, scan.to),
            predicate: (!scan.predicate.trim().is_empty()).then(|| scan.predicate.clone()),
            metrics,
            jobs: std::thread::available_parallelism().map_or(1, usize::from),
        };
        let control = ScanControl::default();
        let (project, worker) = (state.project.clone(), control.clone());
        let thread = std::thread::spawn(move || nefia_host::generate::scan(&project, &asked, &worker));
        let total = u64::try_from(scan.to - scan.from).unwrap_or(0) + 1;
        scan.running = Some(RunningScan { control, total, thread });
        scan.report = None;
    }
    match &scan.report {
        Some(Ok(report)) => report_ui(ui, report, &scan.metrics),
        Some(Err(error)) => {
            ui.colored_label(Color32::from_rgb(255, 110, 110), error.to_string());
            None
        }
        None => None,
    }
}

/// What a scan found: counts, a histogram a metric, and the seeds kept (click to preview).
fn report_ui(ui: &mut Ui, report: &ScanReport, metrics: &str) -> Option<i64> {
    let rate = report.scanned as f64 / report.took.as_secs_f64().max(1e-9);
    ui.label(format!(
        "{} of {} seeds kept ({:.1} s, {rate:.0} seeds/s)",
        report.matches.len(),
        report.scanned,
        report.took.as_secs_f64()
    ));
    let names: Vec<&str> = metrics.lines().filter_map(|l| l.split_once('=')).map(|(n, _)| n.trim()).collect();
    for (index, name) in names.iter().enumerate() {
        let values: Vec<f64> = report.matches.iter().filter_map(|m| m.metrics.get(index)?.parse().ok()).collect();
        histogram_ui(ui, name, &values);
    }
    let mut picked = None;
    egui::ScrollArea::vertical().id_salt("scan-seeds").max_height(160.0).show(ui, |ui| {
        ui.horizontal_wrapped(|ui| {
            for found in report.matches.iter().take(500) {
                let hover =
                    names.iter().zip(&found.metrics).map(|(n, v)| format!("{n} = {v}")).collect::<Vec<_>>().join("\n");
                if ui.small_button(found.seed.to_string()).on_hover_text(hover).clicked() {
                    picked = Some(found.seed);
                }
            }
        });
    });
    picked
}

/// A metric's values as a histogram of 20 bins.
fn histogram_ui(ui: &mut Ui, name: &str, values: &[f64]) {
    let (Some(min), Some(max)) = (values.iter().copied().reduce(f64::min), values.iter().copied().reduce(f64::max))
    else {
        return;
    };
    let width = ((max - min) / 20.0).max(1e-9);
    let mut counts = [0u32; 20];
    for value in values {
        let bin = (((value - min) / width) as usize).min(19);
        counts[bin] += 1;
    }
    let bars = counts
        .iter()
        .enumerate()
        .map(|(i, &n)| egui_plot::Bar::new(min + (i as f64 + 0.5) * width, f64::from(n)).width(width * 0.9))
        .collect();
    ui.label(format!("{name}: {min} to {max}"));
    egui_plot::Plot::new(("scan-histogram", name)).height(80.0).allow_scroll(false).show(ui, |plot| {
        plot.bar_chart(egui_plot::BarChart::new(name.to_owned(), bars));
    });
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
                    crate::accessibility::accessible_name(ui, &response, format!("param {}", param.name));
                    response.changed().then_some(Value::Int(number))
                }
                ("string", _) => {
                    let mut text = value.as_str().unwrap_or_default().to_owned();
                    ui.text_edit_singleline(&mut text).changed().then(|| Value::str(&text))
                }
                _ => {
                    let mut number = value.as_f64().unwrap_or(0.0);
                    let response = ui.add(egui::DragValue::new(&mut number).range(range).speed(0.01));
                    crate::accessibility::accessible_name(ui, &response, format!("param {}", param.name));
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
    if let Some(path) = &preview.baked {
        ui.colored_label(Color32::from_rgb(120, 220, 120), format!("✔ Baked to {path}"));
    }
    if let Some(diff) = &preview.diff {
        let text =
            format!("{} cells changed: {} tiles, {} with other objects", diff.cells.len(), diff.tiles, diff.objects);
        ui.label(RichText::new(text).color(Color32::from_rgb(255, 200, 40)));
    }
    super::problems::list(ui, state);
}
