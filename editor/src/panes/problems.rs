//! The Problems pane: what the map validators (`base.map_validator` prototypes) find on the
//! map the viewport shows — a project map as it is painted, or the workbench's preview.
//! Clicking a problem brings its cell into view; the viewport frames every problem's cell.
//! A map a merge left conflicts in lists them first, with the resolve tool (see
//! [`crate::conflicts`]).

use egui::{Color32, Ui};

use crate::commands::{Action, with_binding};
use crate::context::EditorContext;

/// The colour problems are shown in, here and in the viewport.
pub const PROBLEM_COLOUR: Color32 = Color32::from_rgb(255, 90, 90);

/// Shows the pane.
pub fn ui(ui: &mut Ui, state: &mut EditorContext) {
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
    egui::ScrollArea::vertical().id_salt("problems").auto_shrink([false; 2]).show(ui, |ui| {
        crate::conflicts::list(ui, state);
        list(ui, state);
    });
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
