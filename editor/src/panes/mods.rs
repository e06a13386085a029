//! The Mods pane: every mod under the project's mod folders — id, version, what it needs,
//! whether the project lists it, where it came in the load order, and why it did not load
//! (file:line places are links). Ticking a mod writes `project.ron`; New mod writes a
//! skeleton and enables it; mods load when the project is opened again (Reopen), and a
//! loaded one can be reloaded in place.

use std::collections::BTreeSet;

use egui::{Color32, RichText, Ui};
use nefia_game::mods::ModRow;
use nefia_protocol::message::Command;
use nefia_protocol::mods::ModCommand;

use crate::context::{AppRequest, EditorContext};
use crate::links;

/// The Mods pane's own state.
#[derive(Default)]
pub struct ModsState {
    /// The id typed for a new mod.
    pub new_id: String,
}

/// The mods `project.ron` asks for: those it lists and, through their dependencies, those
/// they need.
fn wanted(rows: &[ModRow]) -> BTreeSet<&str> {
    let mut wanted: BTreeSet<&str> = rows.iter().filter(|r| r.enabled).map(|r| r.id.as_str()).collect();
    loop {
        let needed: Vec<&str> = rows
            .iter()
            .filter(|r| wanted.contains(r.id.as_str()))
            .flat_map(|r| r.dependencies.iter().map(String::as_str))
            .filter(|d| !wanted.contains(d))
            .collect();
        if needed.is_empty() {
            return wanted;
        }
        wanted.extend(needed);
    }
}

/// True if opening the project again would load other mods than are loaded now (a mod that
/// failed to load is not counted: reopening does not help it).
fn reopen_would_change(rows: &[ModRow], wanted: &BTreeSet<&str>) -> bool {
    rows.iter().any(|r| r.problem.is_none() && wanted.contains(r.id.as_str()) != r.load_position.is_some())
}

/// Shows the Mods pane.
pub fn ui(ui: &mut Ui, state: &mut EditorContext, mods: &mut ModsState) {
    let rows = state.snapshot.mods.rows.clone();
    ui.horizontal(|ui| {
        ui.label(format!("{} mods found", rows.len()));
        if ui.button("Rescan").on_hover_text("Look again for mod folders (a folder with a mod.ron)").clicked() {
            state.outbox.push(Command::Mods(ModCommand::Rescan));
        }
    });
    ui.horizontal(|ui| {
        let field = ui.add(egui::TextEdit::singleline(&mut mods.new_id).hint_text("new_mod_id").desired_width(120.0));
        crate::accessibility::accessible_name(ui, &field, "new mod id");
        let id = mods.new_id.trim().to_owned();
        let make = ui.add_enabled(!id.is_empty(), egui::Button::new("New mod"));
        if make
            .on_hover_text("Write mods/<id>/ (mod.ron, init.lua with a prototype and a handler) and enable it")
            .clicked()
        {
            state.outbox.push(Command::Mods(ModCommand::New(id)));
            mods.new_id.clear();
        }
    });
    let wanted = wanted(&rows);
    if reopen_would_change(&rows, &wanted) {
        reopen_ui(ui, state);
    }
    ui.separator();
    let mut actions = Vec::new();
    egui::ScrollArea::vertical().auto_shrink([false; 2]).show(ui, |ui| {
        for row in rows.iter() {
            row_ui(ui, state, (&rows, &wanted), row, &mut actions);
            ui.separator();
        }
    });
    for action in actions {
        state.follow(action);
    }
}

/// The banner after a change: Reopen applies it (unsaved maps are asked about first).
fn reopen_ui(ui: &mut Ui, state: &mut EditorContext) {
    egui::Frame::group(ui.style()).fill(Color32::from_rgb(50, 42, 10)).show(ui, |ui| {
        ui.label("project.ron lists other mods than are loaded: they load as listed when the project is opened again.");
        let reopen = ui.button("Reopen project").on_hover_text("Open this project again with the mods as listed");
        if reopen.clicked() {
            state.requests.push(AppRequest::OpenProject(state.project.clone()));
        }
    });
}

/// One mod's row; `(rows, wanted)` are every row and the mods `project.ron` asks for.
fn row_ui(
    ui: &mut Ui,
    state: &mut EditorContext,
    (rows, wanted): (&[ModRow], &BTreeSet<&str>),
    row: &ModRow,
    actions: &mut Vec<links::LinkAction>,
) {
    ui.horizontal_wrapped(|ui| {
        let mut enabled = row.enabled;
        let tick = ui.checkbox(&mut enabled, RichText::new(&row.id).strong().monospace());
        crate::accessibility::accessible_name(ui, &tick, format!("enable mod {}", row.id));
        if tick.changed() {
            state.outbox.push(Command::Mods(ModCommand::SetEnabled { id: row.id.clone(), enabled }));
        }
        if !row.version.is_empty() {
            ui.weak(format!("v{}", row.version));
        }
        match row.load_position {
            Some(position) => ui.label(format!("loaded #{}", position + 1)),
            None => ui.weak("not loaded"),
        };
        if row.load_position.is_some()
            && ui.small_button("Reload").on_hover_text("Run the mod's loaded files again").clicked()
        {
            state.outbox.push(Command::Mods(ModCommand::ReloadMod(row.id.clone())));
        }
    });
    if !row.description.is_empty() {
        ui.label(&row.description);
    }
    if !row.dependencies.is_empty() {
        ui.weak(format!("needs {}", row.dependencies.join(", ")));
    }
    if !row.enabled && row.load_position.is_some() {
        let needers: Vec<&str> = rows
            .iter()
            .filter(|r| wanted.contains(r.id.as_str()) && r.dependencies.contains(&row.id))
            .map(|r| r.id.as_str())
            .collect();
        match needers.is_empty() {
            true => ui.weak("still loaded until you reopen the project"),
            false => ui.weak(format!("loaded because {} needs it", needers.join(", "))),
        };
    }
    if let Some(problem) = &row.problem {
        links::show(ui, problem, Color32::LIGHT_RED, actions);
    }
    ui.weak(row.dir.display().to_string());
}
