//! The Maps pane: the project's map files. Click a map to open it (it becomes the current
//! map); the buttons make a new map, and rename, duplicate, resize or delete the selected
//! one, or regenerate it if a generator made it (baked in the workbench). Maps with unsaved
//! changes are marked •, maps with unknown ids ⚠.

use egui::{RichText, Ui};
use nefia_game::edit::Edit;
use nefia_game::map::MapId;
use nefia_game::map_files::MapFileView;
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::maps::MapCommand;
use nefia_protocol::message::Command;

use crate::context::EditorContext;

/// A dialog of the Maps pane.
#[derive(Clone, Debug, PartialEq)]
pub enum MapDialog {
    /// A new map: name, width, height, tile.
    New {
        /// The name.
        name: String,
        /// Width in cells.
        width: i32,
        /// Height in cells.
        height: i32,
        /// The tile it is filled with.
        tile: String,
    },
    /// Rename `from`.
    Rename {
        /// The map.
        from: String,
        /// The new name.
        to: String,
    },
    /// Copy `from` under a new name.
    Duplicate {
        /// The map.
        from: String,
        /// The copy's name.
        to: String,
    },
    /// Resize an open map.
    Resize {
        /// The map's name.
        name: String,
        /// The map.
        map: MapId,
        /// The new width.
        width: i32,
        /// The new height.
        height: i32,
        /// Which part stays: 0, 1 or 2 across and down.
        anchor: (i32, i32),
        /// The tile of new cells.
        tile: String,
    },
    /// Delete, once confirmed.
    Delete {
        /// The map.
        name: String,
    },
}

/// The Maps pane's state.
#[derive(Default)]
pub struct MapsState {
    /// The map the buttons act on.
    pub selected: Option<String>,
    /// The dialog open, if any.
    pub dialog: Option<MapDialog>,
    /// The current map as the pane last saw it: when another map becomes current (opened,
    /// travelled to, or back after Stop) the selection follows it.
    current: Option<String>,
}

/// A map's name with its marks: • unsaved, (start), ⚠ unknown ids, (file removed) from
/// `maps/` while open, ⇄ N merge conflicts.
fn marks(view: &MapFileView) -> String {
    let mut parts = vec![view.name.clone()];
    parts.extend(
        [
            (view.dirty, "•"),
            (view.start, "(start)"),
            (!view.problems.is_empty(), "⚠"),
            (view.file_removed, "(file removed)"),
        ]
        .iter()
        .filter(|m| m.0)
        .map(|m| m.1.to_owned()),
    );
    if view.conflicts > 0 {
        parts.push(format!("⇄ {} conflict(s)", view.conflicts));
    }
    parts.join(" ")
}

/// Shows the Maps pane.
pub fn ui(ui: &mut Ui, state: &mut EditorContext, maps: &mut MapsState) {
    let snapshot = state.snapshot.clone();
    let current = snapshot.maps.files.iter().find(|m| m.current).map(|m| m.name.clone());
    if current != maps.current {
        maps.current = current;
        maps.selected = maps.current.clone().or(maps.selected.take());
    }
    ui.horizontal_wrapped(|ui| {
        if ui.button("New map…").clicked() {
            let dialog = MapDialog::New { name: String::new(), width: 40, height: 25, tile: state_tile(state) };
            maps.dialog = Some(dialog);
        }
        let dirty = snapshot.maps.files.iter().any(|m| m.dirty);
        if ui.add_enabled(dirty, egui::Button::new("Save all")).clicked() {
            crate::conflicts::save(state, MapCommand::SaveAll);
        }
    });
    ui.separator();
    for view in &snapshot.maps.files {
        let selected = maps.selected.as_deref() == Some(view.name.as_str());
        let mut text = RichText::new(marks(view));
        if view.conflicts > 0 {
            text = text.color(crate::conflicts::CONFLICT_COLOUR);
        }
        if view.current {
            text = text.strong();
        }
        let size = view.size.map(|(w, h)| format!("{w}×{h}")).unwrap_or_else(|| "not open".into());
        let response = ui.horizontal(|ui| {
            let response = ui.selectable_label(selected, text);
            ui.weak(size);
            response
        });
        let mut response = response.inner;
        if !view.problems.is_empty() {
            response = response.on_hover_text(view.problems.join("\n"));
        }
        if view.conflicts > 0 {
            response = response.on_hover_text("a merge left conflicts: the Problems pane resolves them");
        }
        if view.file_removed {
            let why = format!("maps/{}.ron was removed outside the editor: saving writes it again", view.name);
            response = response.on_hover_text(why);
        }
        if response.clicked() {
            maps.selected = Some(view.name.clone());
            if !view.current {
                state.outbox.push(Command::Maps(MapCommand::Open(view.name.clone())));
            }
        }
    }
    ui.separator();
    let chosen = maps.selected.clone().and_then(|name| snapshot.maps.files.iter().find(|m| m.name == name).cloned());
    if let Some(view) = chosen {
        actions_ui(ui, state, maps, &view);
    }
    dialog_ui(ui.ctx(), state, maps);
}

/// The tile new cells get: the palette's, or the first tile.
fn state_tile(state: &EditorContext) -> String {
    state.level.tile.map(|t| t.to_string()).unwrap_or_else(|| {
        let tiles = state.snapshot.mods.data.iter().find(|t| t.id.as_str() == "base.map_tile");
        tiles.and_then(|t| t.entries.first()).map(|e| e.id.to_string()).unwrap_or_default()
    })
}

fn actions_ui(ui: &mut Ui, state: &mut EditorContext, maps: &mut MapsState, view: &MapFileView) {
    let name = view.name.clone();
    ui.label(RichText::new(format!("Map '{name}'")).strong());
    ui.horizontal_wrapped(|ui| {
        if ui.add_enabled(view.map.is_some(), egui::Button::new("Save")).clicked() {
            crate::conflicts::save(state, MapCommand::Save(Some(name.clone())));
        }
        if ui.button("Rename…").clicked() {
            maps.dialog = Some(MapDialog::Rename { from: name.clone(), to: name.clone() });
        }
        if ui.button("Duplicate…").clicked() {
            maps.dialog = Some(MapDialog::Duplicate { from: name.clone(), to: format!("{name}_copy") });
        }
        if let (Some(map), Some((width, height))) = (view.map, view.size)
            && ui.button("Resize…").clicked()
        {
            let tile = state_tile(state);
            maps.dialog = Some(MapDialog::Resize { name: name.clone(), map, width, height, anchor: (1, 1), tile });
        }
        if let (Some(map), Some(_)) = (view.map, &view.generated)
            && ui
                .button("Regenerate")
                .on_hover_text("make the map again with its generator, params and seed (undo brings it back)")
                .clicked()
        {
            state.outbox.push(Command::Editing(EditingCommand::Edit(Edit::Regenerate { map })));
        }
        if ui.add_enabled(!view.start, egui::Button::new("Set as start map")).clicked() {
            state.outbox.push(Command::Maps(MapCommand::SetStart(name.clone())));
        }
        if ui.add_enabled(!view.start, egui::Button::new("Delete…")).clicked() {
            maps.dialog = Some(MapDialog::Delete { name: name.clone() });
        }
    });
    if let Some((generator, seed)) = &view.generated {
        ui.weak(format!("generated by {generator}, seed {seed}"));
    }
    for problem in &view.problems {
        ui.colored_label(egui::Color32::YELLOW, problem);
    }
}

/// The open dialog, as a modal window; OK sends its command.
fn dialog_ui(ctx: &egui::Context, state: &mut EditorContext, maps: &mut MapsState) {
    let Some(dialog) = &mut maps.dialog else { return };
    let mut command = None;
    let mut close = false;
    let modal = egui::Modal::new(egui::Id::new("nefia-map-dialog")).show(ctx, |ui| {
        match dialog {
            MapDialog::New { name, width, height, tile } => {
                ui.heading("New map");
                egui::Grid::new("new-map").show(ui, |ui| {
                    ui.label("Name");
                    let field = ui.text_edit_singleline(name);
                    crate::accessibility::accessible_name(ui, &field, "map name");
                    ui.end_row();
                    ui.label("Size");
                    ui.horizontal(|ui| {
                        ui.add(egui::DragValue::new(width).range(1..=4096));
                        ui.label("×");
                        ui.add(egui::DragValue::new(height).range(1..=4096));
                    });
                    ui.end_row();
                    ui.label("Tile");
                    ui.text_edit_singleline(tile);
                    ui.end_row();
                });
                if ui.button("Create").clicked() {
                    command = Some(Command::Maps(MapCommand::New {
                        name: name.trim().to_owned(),
                        width: *width,
                        height: *height,
                        tile: tile.clone(),
                    }));
                }
            }
            MapDialog::Rename { from, to } => {
                ui.heading(format!("Rename '{from}'"));
                let field = ui.text_edit_singleline(to);
                crate::accessibility::accessible_name(ui, &field, "new name");
                if ui.button("Rename").clicked() {
                    command = Some(Command::Maps(MapCommand::Rename { from: from.clone(), to: to.trim().to_owned() }));
                }
            }
            MapDialog::Duplicate { from, to } => {
                ui.heading(format!("Duplicate '{from}' as"));
                let field = ui.text_edit_singleline(to);
                crate::accessibility::accessible_name(ui, &field, "new name");
                if ui.button("Duplicate").clicked() {
                    let (from, to) = (from.clone(), to.trim().to_owned());
                    command = Some(Command::Maps(MapCommand::Duplicate { from, to }));
                }
            }
            MapDialog::Resize { name, map, width, height, anchor, tile } => {
                ui.heading(format!("Resize '{name}'"));
                ui.horizontal(|ui| {
                    ui.add(egui::DragValue::new(width).range(1..=4096));
                    ui.label("×");
                    ui.add(egui::DragValue::new(height).range(1..=4096));
                });
                ui.label("Anchor: the part that stays where it is");
                egui::Grid::new("anchor").show(ui, |ui| {
                    for ay in 0..3 {
                        for ax in 0..3 {
                            let mark = if *anchor == (ax, ay) { "●" } else { "○" };
                            if ui.button(mark).clicked() {
                                *anchor = (ax, ay);
                            }
                        }
                        ui.end_row();
                    }
                });
                ui.horizontal(|ui| {
                    ui.label("New cells get tile");
                    ui.text_edit_singleline(tile);
                });
                if ui.button("Resize").clicked() {
                    command = Some(Command::Editing(EditingCommand::Edit(Edit::Resize {
                        map: *map,
                        width: *width,
                        height: *height,
                        anchor: *anchor,
                        tile: tile.clone(),
                    })));
                }
            }
            MapDialog::Delete { name } => {
                ui.heading(format!("Delete map '{name}'?"));
                ui.label(format!("maps/{name}.ron is kept as maps/{name}.ron.bak."));
                if ui.button("Delete").clicked() {
                    command = Some(Command::Maps(MapCommand::Delete(name.clone())));
                }
            }
        }
        close |= ui.button("Cancel").clicked();
    });
    if command.is_some() || close || modal.should_close() {
        maps.dialog = None;
    }
    if let Some(command) = command {
        // The pane follows the map it made or renamed.
        if let Command::Maps(MapCommand::New { name: to, .. } | MapCommand::Rename { to, .. }) = &command {
            maps.selected = Some(to.clone());
        }
        state.outbox.push(command);
    }
}
