//! The Inspector's "Why is this tile here?": for the cell the Select tool clicked on a map
//! with auto-tiling rules, the rule that placed its tile with its pattern drawn over the
//! cell's neighbourhood (each pattern cell marked matched or not), the rules that matched and
//! lost and why, and the near misses with the neighbour that failed marked. The rule set's
//! name shows it in the Data pane; its place opens its source lines. Bake takes the rules off
//! the map and keeps their tiles.

use egui::{Color32, Rect, RichText, Sense, Stroke, Ui, Vec2};
use nefia_runtime::game::autotile::{Explanation, LostReason, RULE_SET_TYPE, RuleMatch};
use nefia_runtime::game::edit::Edit;
use nefia_runtime::host::{Command, EditingCommand};

use crate::context::{AppRequest, EditorContext};
use crate::links::LinkAction;

/// The side of one pattern cell as drawn, in points.
const CELL: f32 = 18.0;
/// A pattern cell the map gives.
const MATCHED: Color32 = Color32::from_rgb(60, 150, 80);
/// A pattern cell the map does not give.
const FAILED: Color32 = Color32::from_rgb(190, 60, 60);

/// Shows the section for the inspected cell, if it is on the current map and that map has
/// rules laid on it.
pub fn ui(ui: &mut Ui, state: &mut EditorContext) {
    let Some(why) = state.snapshot.editing.cell.clone() else { return };
    if !why.laid || state.snapshot.map.as_ref().map(|m| m.id) != Some(why.map) {
        return;
    }
    egui::CollapsingHeader::new("Why is this tile here?").default_open(true).show(ui, |ui| {
        match &why.explained {
            Ok(explanation) => explanation_ui(ui, state, explanation),
            Err(message) => {
                ui.colored_label(ui.visuals().warn_fg_color, message);
            }
        }
        let bake = ui.button("Bake rules into tiles").on_hover_text(
            "Take the rules off this map and keep the tiles they painted: painting then sets tiles, not intent (undoable)",
        );
        if bake.clicked() {
            state.outbox.push(Command::Editing(EditingCommand::Edit(Edit::BakeAutotile { map: why.map })));
        }
    });
    ui.separator();
}

fn explanation_ui(ui: &mut Ui, state: &mut EditorContext, explained: &Explanation) {
    let intent = explained.intent.as_deref().unwrap_or("empty");
    let shown = explained.tile.as_deref().unwrap_or(intent);
    ui.label(format!("({}, {}) shows {shown}; it is meant to be {intent}.", explained.x, explained.y));
    ui.horizontal(|ui| {
        ui.label("Rules:");
        if explained.declared_at.is_none() {
            // The map's own rules: they are in its file, not a prototype.
            ui.label(format!("{} (in its file)", explained.rule_set));
        } else if ui.link(&explained.rule_set).on_hover_text("Show the rule set in the Data pane").clicked() {
            let (data_type, id) = (RULE_SET_TYPE.to_owned(), explained.rule_set.clone());
            state.requests.push(AppRequest::ShowPrototype { data_type, id });
        }
        if let Some(origin) = explained.declared_at.as_ref().filter(|o| o.line > 0) {
            let place = format!("{}:{}", origin.file, origin.line);
            if ui.link(&place).on_hover_text("Show the rules' source").clicked() {
                state.follow(LinkAction::ShowSource(origin.file.to_string(), origin.line));
            }
        }
    });
    match &explained.winner {
        Some(winner) => {
            ui.label(RichText::new(format!("Placed by {}", rule_name(winner))).strong());
            pattern_ui(ui, winner);
        }
        None => {
            ui.label("No rule placed a tile here: the intent shows.");
        }
    }
    if !explained.lost.is_empty() {
        ui.label(RichText::new("Matched, but did not give the tile:").strong());
        for lost in &explained.lost {
            let why = match &lost.reason {
                LostReason::PaintedOver { by } => format!("painted over by '{by}'"),
                LostReason::Stopped { by } => format!("skipped: '{by}' matched first and stops"),
                LostReason::Chance { chance } => format!("its chance ({chance}) did not come up here"),
            };
            ui.label(format!("rule {} '{}': {why}", lost.rule + 1, lost.name));
        }
    }
    if !explained.near_misses.is_empty() {
        ui.label(RichText::new("Near misses (one neighbour off):").strong());
        for miss in &explained.near_misses {
            let failed = miss.cells.iter().find(|c| !c.matched);
            let because = failed.map_or(String::new(), |c| format!(": ({:+}, {:+}) is not {}", c.dx, c.dy, c.wants));
            ui.label(format!("{}{because}", rule_name(miss)));
            pattern_ui(ui, miss);
        }
    }
}

/// "rule 3 'wall face'", with its form when it is not as written.
fn rule_name(laid: &RuleMatch) -> String {
    let form = if laid.form == "as written" { String::new() } else { format!(" ({})", laid.form) };
    format!("rule {} '{}'{form}", laid.rule + 1, laid.name)
}

/// The rule's pattern as laid over the cell's neighbourhood: green where the map gives what
/// the pattern cell wants, red where it does not, the explained cell outlined; hovering a
/// cell says what it wants.
fn pattern_ui(ui: &mut Ui, laid: &RuleMatch) {
    let reach = laid.cells.iter().map(|c| c.dx.abs().max(c.dy.abs())).max().unwrap_or(0);
    let side = (2 * reach + 1) as f32 * CELL;
    let (rect, response) = ui.allocate_exact_size(Vec2::splat(side), Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, ui.visuals().extreme_bg_color);
    let cell_rect = |dx: i32, dy: i32| {
        let min = rect.min + Vec2::new((dx + reach) as f32, (dy + reach) as f32) * CELL;
        Rect::from_min_size(min, Vec2::splat(CELL)).shrink(1.0)
    };
    let text = ui.visuals().strong_text_color();
    for cell in &laid.cells {
        let at = cell_rect(cell.dx, cell.dy);
        painter.rect_filled(at, 2.0, if cell.matched { MATCHED } else { FAILED });
        let mark = if cell.matched { "✔" } else { "✘" };
        painter.text(at.center(), egui::Align2::CENTER_CENTER, mark, egui::FontId::proportional(11.0), text);
    }
    painter.rect_stroke(cell_rect(0, 0).expand(1.0), 2.0, Stroke::new(2.0, text), egui::StrokeKind::Outside);
    let hovered = response.hover_pos().and_then(|pos| {
        let offset = (pos - rect.min) / CELL;
        let (dx, dy) = (offset.x.floor() as i32 - reach, offset.y.floor() as i32 - reach);
        laid.cells.iter().find(|c| (c.dx, c.dy) == (dx, dy))
    });
    if let Some(cell) = hovered {
        let judged = if cell.matched { "the map gives it" } else { "the map does not give it" };
        response.on_hover_text(format!("({:+}, {:+}) wants {}: {judged}", cell.dx, cell.dy, cell.wants));
    }
}
