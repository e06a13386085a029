//! What is drawn over the map: HUD widgets, and the UI layer stack (prompts, list menus, text
//! input, mods' own layers). Prompts and menus are real egui widgets, so they can be clicked
//! and are visible to accessibility tools; a mod's layer paints its draw list.

use egui::{Color32, Frame, Id, Painter, Pos2, Rect, RichText, Vec2};
use nefia_game::display::{Anchor, Input, LayerKind, LayerView, WidgetView};

use super::map::paint_draw_list;

/// Paints the HUD widgets at their anchors inside `rect`.
pub fn paint_widgets(painter: &Painter, rect: Rect, widgets: &[WidgetView]) {
    for widget in widgets {
        let widget_rect = place(rect, widget.anchor, widget.offset, widget.size);
        let painter = painter.with_clip_rect(widget_rect.intersect(rect));
        paint_draw_list(&painter, &widget.draw, |x, y| widget_rect.min + Vec2::new(x, y), 16.0);
    }
}

/// The rectangle of a widget of `size` hung from `anchor` of `rect`, `offset` inwards.
pub fn place(rect: Rect, anchor: Anchor, offset: (f32, f32), size: (f32, f32)) -> Rect {
    let (ox, oy) = offset;
    let (w, h) = size;
    let x = match anchor {
        Anchor::TopLeft | Anchor::BottomLeft => rect.left() + ox,
        Anchor::Top | Anchor::Bottom => rect.center().x - w / 2.0 + ox,
        Anchor::TopRight | Anchor::BottomRight => rect.right() - w - ox,
    };
    let y = match anchor {
        Anchor::TopLeft | Anchor::Top | Anchor::TopRight => rect.top() + oy,
        Anchor::BottomLeft | Anchor::Bottom | Anchor::BottomRight => rect.bottom() - h - oy,
    };
    Rect::from_min_size(Pos2::new(x, y), Vec2::new(w, h))
}

/// Shows the UI layers centred over `rect`, bottom first; only the top one takes clicks.
/// They are laid out in the viewport's own `ui`, after the map, so they are on top of it.
/// Returns the input the player gave with the mouse.
pub fn show_layers(ui: &mut egui::Ui, rect: Rect, layers: &[LayerView]) -> Vec<Input> {
    let mut input = Vec::new();
    for (depth, layer) in layers.iter().enumerate() {
        let top = depth + 1 == layers.len();
        // Centred using the size the layer had last frame.
        let size_id = Id::new(("nefia-ui-layer-size", layer.id.0));
        let size = ui.data(|d| d.get_temp::<Vec2>(size_id)).unwrap_or(Vec2::new(240.0, 120.0));
        let center = rect.center() + Vec2::splat(depth as f32 * 12.0);
        let area = Rect::from_center_size(center, size).intersect(rect);
        let builder = egui::UiBuilder::new()
            .max_rect(Rect::from_min_size(area.min, rect.max - area.min))
            .id_salt(("nefia-ui-layer", layer.id.0));
        let shown = ui.scope_builder(builder, |ui| {
            ui.add_enabled_ui(top, |ui| {
                Frame::window(ui.style()).show(ui, |ui| layer_ui(ui, layer, &mut input)).response.rect
            })
            .inner
        });
        if shown.inner.size() != size {
            // Lay the frame out again at once, centred for its real size.
            ui.data_mut(|d| d.insert_temp(size_id, shown.inner.size()));
            ui.ctx().request_discard("a UI layer changed size");
        }
    }
    input
}

fn layer_ui(ui: &mut egui::Ui, layer: &LayerView, input: &mut Vec<Input>) {
    match &layer.kind {
        LayerKind::Prompt { title, choices, cursor } => {
            if let Some(title) = title {
                ui.label(RichText::new(title).strong());
            }
            choices_ui(ui, layer, choices, *cursor, input);
        }
        LayerKind::List { title, items, cursor } => {
            ui.label(RichText::new(title).strong());
            egui::ScrollArea::vertical().max_height(320.0).show(ui, |ui| choices_ui(ui, layer, items, *cursor, input));
        }
        LayerKind::TextInput { prompt, text } => {
            ui.label(prompt);
            ui.label(RichText::new(format!("{text}▌")).monospace().background_color(Color32::from_black_alpha(80)));
            ui.weak("Enter to accept, Escape to cancel");
        }
        LayerKind::Custom { size, draw, .. } => {
            let (rect, _) = ui.allocate_exact_size(Vec2::new(size.0, size.1), egui::Sense::hover());
            paint_draw_list(&ui.painter().with_clip_rect(rect), draw, |x, y| rect.min + Vec2::new(x, y), 16.0);
        }
    }
    if ui.small_button("Cancel").clicked() {
        input.push(Input::Cancel { layer: layer.id });
    }
}

fn choices_ui(ui: &mut egui::Ui, layer: &LayerView, choices: &[String], cursor: usize, input: &mut Vec<Input>) {
    for (index, choice) in choices.iter().enumerate() {
        ui.horizontal(|ui| {
            let letter = (b'a' + (index % 26) as u8) as char;
            ui.weak(format!("{letter})"));
            let response = ui.selectable_label(index == cursor, choice);
            if index == cursor {
                response.scroll_to_me(None);
            }
            if response.clicked() {
                input.push(Input::Choose { layer: layer.id, index });
            }
        });
    }
}
