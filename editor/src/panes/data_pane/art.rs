//! The prototype's art in its form, folded under a line that says what it is: what its
//! `image` draws under the active themes — every sprite, in order (a sprite set's pieces in
//! its layout's order, variants with their weights), each animated as the map animates it —
//! so a region or a frame list edited in the form is seen at once, from the viewport's atlas.

use egui::{Sense, Ui, Vec2};
use nefia_game::art::{Art, Choice, Layout, Sprite};
use nefia_protocol::view::{DataTypeView, PrototypeView};

use crate::accessibility::accessible_name;
use crate::context::EditorContext;
use crate::render::map::chunk::{next_frame_ms, repaint_at_frame};

/// The side of each sprite shown, in points.
const SIDE: f32 = 32.0;

/// What kind of art `art` is (the words after its count of sprites in the section's title),
/// and how a cell chooses among its sprites, if it chooses.
fn kind(art: &Art) -> (&'static str, Option<&'static str>) {
    match &art.choice {
        Choice::Single => ("", None),
        Choice::Variants { .. } => (", variants", Some("Each cell draws one, picked by weight from the map's seed.")),
        Choice::Set(Layout::Blob47) => {
            (", a blob set", Some("A 47-piece blob set: each cell draws the piece its 8 neighbours call for."))
        }
        Choice::Set(Layout::Wang16) => {
            (", a Wang set", Some("A 16-piece Wang set: each cell draws the piece its 4 edge neighbours call for."))
        }
        Choice::Set(Layout::Multitile) => (
            ", multitile",
            Some("CDDA's multitile parts: each cell draws the part its neighbours call for, turned to face them."),
        ),
    }
}

/// What `art` is, in a few words (the section's title): its sprites and their kind.
fn title(art: &Art) -> String {
    let count = art.sprites.len();
    let sprites = if count == 1 { "1 sprite".to_owned() } else { format!("{count} sprites") };
    format!("Art: {sprites}{}", kind(art).0)
}

/// Where sprite `sprite` is cut from, and its animation.
fn describe(index: usize, count: usize, sprite: &Sprite, weight: Option<u32>) -> String {
    let first = sprite.frames.first().map_or((0, 0), |frame| (frame.x, frame.y));
    let mut text = format!(
        "sprite {} of {count}: {} at ({}, {}), {}×{}",
        index + 1,
        sprite.sheet,
        first.0,
        first.1,
        sprite.width,
        sprite.height
    );
    if sprite.frames.len() > 1 {
        text += &format!(", {} frames over {} ms", sprite.frames.len(), sprite.cycle_ms());
    }
    if let Some(weight) = weight {
        text += &format!(", weight {weight}");
    }
    text
}

/// The art section of the form of `proto` (of `data_type`), if it has art.
pub(super) fn art_ui(ui: &mut Ui, state: &mut EditorContext, data_type: &DataTypeView, proto: &PrototypeView) {
    let Some(art) = state.snapshot.mods.art.get(data_type.id, proto.id).cloned() else { return };
    let assets = state.snapshot.mods.asset_dirs.clone();
    let renderer = &mut state.viewport.renderer;
    let time_ms = renderer.time_ms(ui.ctx());
    let weights = match &art.choice {
        Choice::Variants { weights } => Some(weights.as_slice()),
        _ => None,
    };
    let shown = egui::CollapsingHeader::new(title(&art)).id_salt(("prototype art", proto.id.as_str())).show(ui, |ui| {
        if let Some(choosing) = kind(&art).1 {
            ui.add(egui::Label::new(choosing).wrap());
        }
        ui.horizontal_wrapped(|ui| {
            let count = art.sprites.len();
            for (index, sprite) in art.sprites.iter().enumerate() {
                let (rect, response) = ui.allocate_exact_size(Vec2::splat(SIDE), Sense::hover());
                ui.painter().rect_filled(rect, 2.0, egui::Color32::BLACK);
                if !renderer.paint_sprite(ui.painter(), rect, sprite, sprite.frame_index_at(time_ms), &assets) {
                    ui.painter().text(
                        rect.center(),
                        egui::Align2::CENTER_CENTER,
                        "?",
                        egui::FontId::monospace(SIDE * 0.6),
                        ui.visuals().error_fg_color,
                    );
                }
                let text = describe(index, count, sprite, weights.and_then(|w| w.get(index).copied()));
                accessible_name(ui, &response, text.clone());
                response.on_hover_text(text);
            }
        });
    });
    // Shown, the next frame of any of them, as the map asks for its own.
    let next = art.sprites.iter().filter_map(|sprite| next_frame_ms(sprite, time_ms)).min();
    if let Some(next) = next.filter(|_| shown.body_returned.is_some()) {
        repaint_at_frame(ui.ctx(), next, time_ms);
    }
}
