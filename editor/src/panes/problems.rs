//! The Problems pane: what the map validators (`base.map_validator` prototypes) find on the
//! map the viewport shows — a project map as it is painted, or the workbench's preview — and
//! the prototypes that break a rule of their data type (its `validators`).
//! Clicking a map problem brings its cell into view; the viewport frames every problem's cell.
//! Clicking a prototype's problem shows it in the Data pane. A map a merge left conflicts in
//! lists them first, with the resolve tool (see [`crate::conflicts`]).

use egui::{Color32, Ui};
use nefia_protocol::view::Snapshot;

use crate::commands::{Action, with_binding};
use crate::context::{AppRequest, EditorContext};

/// The colour problems are shown in, here and in the viewport.
pub const PROBLEM_COLOUR: Color32 = Color32::from_rgb(255, 90, 90);

/// How many problems the pane lists: the current map's conflicts and problems, and the
/// prototypes' broken rules.
pub fn count(snapshot: &Snapshot) -> usize {
    let conflicts = snapshot.map.as_ref().map_or(0, |m| m.conflicts.len());
    let prototypes: usize = snapshot.mods.data.iter().flat_map(|t| &t.entries).map(|e| e.problems.len()).sum();
    conflicts + snapshot.maps.problems.problems.len() + prototypes
}

/// Shows the pane.
pub fn ui(ui: &mut Ui, state: &mut EditorContext) {
    egui::ScrollArea::vertical().id_salt("problems").auto_shrink([false; 2]).show(ui, |ui| {
        map_section(ui, state);
        prototypes(ui, state);
    });
}

/// The current map's conflicts and problems, or why there are none to show.
fn map_section(ui: &mut Ui, state: &mut EditorContext) {
    let Some(map) = state.snapshot.map.as_ref().map(|m| m.name.clone()) else {
        ui.weak("No current map.");
        return;
    };
    if state.snapshot.play.playing {
        ui.weak(
            with_binding("The validators check the maps being edited: stop playing", Action::StopPlay, ui.ctx())
                + " to see them.",
        );
        return;
    }
    ui.label(format!("Map '{map}'"));
    crate::conflicts::list(ui, state);
    list(ui, state);
}

/// The current map's problems, each a button that brings its cell into view.
pub fn list(ui: &mut Ui, state: &mut EditorContext) {
    let view = state.snapshot.maps.problems.clone();
    if view.stale {
        ui.weak("checking…");
    } else if view.problems.is_empty() {
        ui.weak("The validators find no problem.");
    }
    for problem in view.problems.iter() {
        let text = egui::RichText::new(problem.to_string()).color(PROBLEM_COLOUR);
        let row = ui.add(egui::Button::new(text).frame(false)).on_hover_text("show the cell");
        if row.clicked() {
            state.viewport.reveal_cell = Some((problem.x, problem.y));
        }
    }
}

/// The prototypes that break a rule of their data type, each problem a button that shows the
/// prototype in the Data pane: `elona.putit (base.chara, mods/elona/content/charas.lua:16):
/// hp (50) is more than max_hp (20)`.
fn prototypes(ui: &mut Ui, state: &mut EditorContext) {
    let snapshot = state.snapshot.clone();
    let broken: Vec<_> = snapshot
        .mods
        .data
        .iter()
        .flat_map(|t| t.entries.iter().map(move |e| (t, e)))
        .filter(|(_, e)| !e.problems.is_empty())
        .collect();
    if broken.is_empty() {
        return;
    }
    ui.separator();
    ui.label("Prototypes");
    for (data_type, proto) in broken {
        for problem in &proto.problems {
            let place = super::data_pane::origin_place(&proto.origin);
            let text = format!("{} ({}, {place}): {}", proto.id, data_type.id, problem.message);
            let row = ui
                .add(egui::Button::new(egui::RichText::new(text).color(PROBLEM_COLOUR)).frame(false).wrap())
                .on_hover_text("Show it in the Data pane");
            if row.clicked() {
                state.requests.push(AppRequest::ShowPrototype {
                    data_type: data_type.id.as_str().to_owned(),
                    id: proto.id.as_str().to_owned(),
                });
            }
        }
    }
}
