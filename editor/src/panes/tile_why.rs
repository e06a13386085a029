//! The Inspector's "Why is this tile here?": for the cell the Select tool clicked on a map
//! with auto-tiling rules, the rule that placed its tile with its pattern drawn over the
//! cell's neighbourhood (each pattern cell marked matched or not), the rule that placed its
//! object if one did, the rules that matched and
//! lost and why, and the near misses with the neighbour that failed marked. The rule set's
//! name shows it in the Data pane; its place opens its source lines. Bake takes the rules off
//! the map and keeps their tiles. On any map, a tile with art also says which sprite it
//! drew and why (its variant, or the piece of its sprite set the neighbours called for).

use egui::{Color32, Rect, RichText, Sense, Stroke, Ui, Vec2};
use nefia_game::autotile::{Explanation, LostReason, RULE_SET_TYPE, RuleMatch};
use nefia_game::edit::Edit;
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::editing::Unexplained;
use nefia_protocol::message::Command;
use nefia_protocol::view::TileStyle;

use crate::context::{AppRequest, EditorContext};
use crate::links::LinkAction;

/// The side of one pattern cell as drawn, in points.
const CELL: f32 = 18.0;
/// The frame of a pattern cell the map gives.
const MATCHED: Color32 = Color32::from_rgb(70, 200, 90);
/// The frame of a pattern cell the map does not give.
const FAILED: Color32 = Color32::from_rgb(230, 60, 60);

/// Shows the section for the inspected cell, if it is on the current map and that map has
/// rules laid on it.
pub fn ui(ui: &mut Ui, state: &mut EditorContext) {
    let Some(why) = state.snapshot.editing.cell.clone() else { return };
    let no_rules = matches!(why.explained, Err(Unexplained::NoRules(_)));
    if (no_rules && why.sprite.is_none()) || state.snapshot.map.as_ref().map(|m| m.id) != Some(why.map) {
        return;
    }
    egui::CollapsingHeader::new("Why is this tile here?").default_open(true).show(ui, |ui| {
        if let Some(sprite) = &why.sprite {
            ui.label(format!("{} draws sprite {} of {}: {}.", sprite.tile, sprite.sprite, sprite.sheet, sprite.why));
        }
        match &why.explained {
            Ok(explanation) => explanation_ui(ui, state, explanation),
            Err(_) if no_rules => return,
            Err(unexplained) => {
                ui.colored_label(ui.visuals().warn_fg_color, unexplained.to_string());
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
    let styles = state.snapshot.map.as_ref().map(|m| m.tile_styles.clone()).unwrap_or_default();
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
            ui.horizontal(|ui| {
                ui.label(RichText::new("Placed by").strong());
                rule_link(ui, state, explained, &rule_name(winner), winner.line);
            });
            pattern_ui(ui, winner, explained, &styles);
        }
        None => {
            ui.label("No rule placed a tile here: the intent shows.");
        }
    }
    if let (Some(object), Some(placer)) = (&explained.object, &explained.object_winner) {
        ui.horizontal(|ui| {
            ui.label(RichText::new(format!("Object {object} placed by")).strong());
            rule_link(ui, state, explained, &rule_name(placer), placer.line);
        });
        if explained.winner.as_ref().is_none_or(|winner| winner.rule != placer.rule) {
            pattern_ui(ui, placer, explained, &styles);
        }
    }
    if !explained.lost.is_empty() {
        ui.label(RichText::new("Matched, but gave the cell nothing:").strong());
        for lost in &explained.lost {
            let why = match &lost.reason {
                LostReason::PaintedOver { by } => format!("painted over by '{by}'"),
                LostReason::Stopped { by } => format!("skipped: '{by}' matched first and stops"),
                LostReason::Chance { chance } => format!("its chance ({chance}) did not come up here"),
            };
            ui.horizontal(|ui| {
                rule_link(ui, state, explained, &format!("rule {} '{}'", lost.rule + 1, lost.name), lost.line);
                ui.label(why);
            });
        }
    }
    if !explained.near_misses.is_empty() {
        ui.label(RichText::new("Near misses (one neighbour off):").strong());
        for miss in &explained.near_misses {
            let failed = miss.cells.iter().find(|c| !c.matched);
            let because = failed.map_or(String::new(), |c| format!(": ({:+}, {:+}) is not {}", c.dx, c.dy, c.wants));
            ui.horizontal(|ui| {
                rule_link(ui, state, explained, &rule_name(miss), miss.line);
                ui.label(because.trim_start_matches(": "));
            });
            pattern_ui(ui, miss, explained, &styles);
        }
    }
}

/// A rule's name: a link to its line when its source is known, else plain text.
fn rule_link(ui: &mut Ui, state: &mut EditorContext, explained: &Explanation, name: &str, line: Option<u32>) {
    match (explained.declared_at.as_ref(), line) {
        (Some(origin), Some(line)) => {
            let place = format!("{}:{line}", origin.file);
            if ui.link(name).on_hover_text(format!("Show the rule at {place}")).clicked() {
                state.follow(LinkAction::ShowSource(origin.file.to_string(), line));
            }
        }
        _ => {
            ui.label(name);
        }
    }
}

/// "rule 3 'wall face'", with its form when it is not as written.
fn rule_name(laid: &RuleMatch) -> String {
    let form = if laid.form == "as written" { String::new() } else { format!(" ({})", laid.form) };
    format!("rule {} '{}'{form}", laid.rule + 1, laid.name)
}

/// The rule's pattern laid over the cell's neighbourhood: each cell drawn as its intent tile
/// looks (its colours and glyph), the cells the pattern looks at framed green where the map
/// gives what they want and red where it does not, the explained cell outlined; hovering a
/// cell says what it is and what the pattern wants there.
fn pattern_ui(ui: &mut Ui, laid: &RuleMatch, explained: &Explanation, styles: &[TileStyle]) {
    let side_cells = (explained.around.len() as f64).sqrt().round() as i32;
    let reach = (side_cells - 1) / 2;
    let (rect, response) = ui.allocate_exact_size(Vec2::splat(side_cells.max(1) as f32 * CELL), Sense::hover());
    let painter = ui.painter_at(rect);
    painter.rect_filled(rect, 2.0, ui.visuals().extreme_bg_color);
    let cell_rect = |dx: i32, dy: i32| {
        let min = rect.min + Vec2::new((dx + reach) as f32, (dy + reach) as f32) * CELL;
        Rect::from_min_size(min, Vec2::splat(CELL)).shrink(1.0)
    };
    let intent_at = |dx: i32, dy: i32| -> Option<&str> {
        let index = usize::try_from((dy + reach) * side_cells + dx + reach).ok()?;
        explained.around.get(index)?.as_deref()
    };
    for dy in -reach..=reach {
        for dx in -reach..=reach {
            let at = cell_rect(dx, dy);
            let Some(tile) = intent_at(dx, dy) else { continue };
            let style = styles.iter().find(|s| s.id.as_str() == tile);
            let (bg, fg, glyph) = match style {
                Some(s) => (colour(s.bg), colour(s.fg), s.glyph.as_str()),
                None => (Color32::from_gray(70), Color32::from_gray(200), "?"),
            };
            painter.rect_filled(at, 1.0, bg);
            painter.text(at.center(), egui::Align2::CENTER_CENTER, glyph, egui::FontId::monospace(12.0), fg);
        }
    }
    for cell in &laid.cells {
        let colour = if cell.matched { MATCHED } else { FAILED };
        painter.rect_stroke(cell_rect(cell.dx, cell.dy), 1.0, Stroke::new(2.0, colour), egui::StrokeKind::Inside);
    }
    let text = ui.visuals().strong_text_color();
    painter.rect_stroke(cell_rect(0, 0).expand(1.0), 2.0, Stroke::new(1.0, text), egui::StrokeKind::Outside);
    let hovered = response.hover_pos().map(|pos| {
        let offset = (pos - rect.min) / CELL;
        (offset.x.floor() as i32 - reach, offset.y.floor() as i32 - reach)
    });
    if let Some((dx, dy)) = hovered {
        let is = intent_at(dx, dy).unwrap_or("empty");
        let wants = laid.cells.iter().find(|c| (c.dx, c.dy) == (dx, dy)).map_or(String::new(), |cell| {
            let judged = if cell.matched { "given" } else { "not given" };
            format!("; the pattern wants {}: {judged}", cell.wants)
        });
        response.on_hover_text(format!("({dx:+}, {dy:+}) is {is}{wants}"));
    }
}

/// A tile style's colour as egui's.
fn colour([r, g, b, a]: [u8; 4]) -> Color32 {
    Color32::from_rgba_unmultiplied(r, g, b, a)
}
