//! The Viewport pane: the running game's map with its draw layers, the HUD widgets and the
//! UI layers over it. Pan with the middle button (or Space and drag), zoom with the wheel,
//! click to select and to give the game the keyboard.

use egui::{Rect, Sense, Ui, Vec2};
use nefia_runtime::host::Command;
use nefia_runtime::lua::Output;
use nefia_runtime::ui::{Input, LayerKind};
use nefia_runtime::ui::{LogLevel, LogLine};

use crate::app::EditorState;
use crate::keys;
use crate::render::map::{Camera, DrawReport, LayerToggles, MapRenderer};
use crate::render::overlay;

/// The viewport's own state.
#[derive(Default)]
pub struct ViewportState {
    /// Where the view looks (fitted to the map on first sight).
    pub camera: Option<Camera>,
    /// Which layers are shown.
    pub toggles: LayerToggles,
    /// The cell under the mouse.
    pub hovered: Option<(i32, i32)>,
    /// What the last frame drew.
    pub report: DrawReport,
    /// Fit the map on the next frame.
    pub fit_requested: bool,
    /// The REPL drawn over the game (toggled with the backquote key in the viewport), the
    /// top of the seed's layer stack.
    pub repl_overlay: bool,
    renderer: MapRenderer,
    fitted: Option<nefia_runtime::MapId>,
}

/// Shows the viewport.
pub fn ui(ui: &mut Ui, state: &mut EditorState) {
    toolbar_ui(ui, state);
    let (rect, response) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
    let snapshot = state.snapshot.clone();
    let view = &mut state.viewport;
    if let Some(problem) = &snapshot.problem {
        ui.painter().rect_filled(rect, 0.0, egui::Color32::from_gray(20));
        ui.painter().text(
            rect.center(),
            egui::Align2::CENTER_CENTER,
            format!("The project could not be opened:\n{problem}"),
            egui::FontId::proportional(16.0),
            egui::Color32::LIGHT_RED,
        );
        return;
    }
    let Some(map) = snapshot.map.clone() else {
        ui.painter().text(
            rect.center(),
            egui::Align2::CENTER_CENTER,
            "No current map",
            egui::FontId::proportional(16.0),
            egui::Color32::GRAY,
        );
        return;
    };
    if view.camera.is_none() || view.fit_requested || view.fitted != Some(map.id) {
        view.camera = Some(Camera::fit(rect, map.width, map.height));
        view.fitted = Some(map.id);
        view.fit_requested = false;
    }
    let camera = view.camera.as_mut().expect("set above");
    pan_and_zoom(ui, rect, &response, camera);
    view.hovered = response
        .hover_pos()
        .map(|pos| camera.cell_at(rect, pos))
        .filter(|&(x, y)| x >= 0 && y >= 0 && x < map.width && y < map.height);
    let camera = *camera;
    view.report = view.renderer.paint(
        ui.painter(),
        rect,
        &camera,
        &map,
        &view.toggles,
        &snapshot.map_layers,
        &snapshot.asset_dirs,
    );
    for problem in view.renderer.take_image_problems() {
        state.log.push(Output::Log(LogLine { level: LogLevel::Warn, text: problem }));
    }
    let view = &mut state.viewport;
    if let Some((x, y)) = view.hovered {
        let min = camera.to_screen(rect, Vec2::new(x as f32, y as f32));
        let cell = Rect::from_min_size(min, Vec2::splat(camera.zoom));
        ui.painter().with_clip_rect(rect).rect_stroke(
            cell,
            0.0,
            egui::Stroke::new(1.0, egui::Color32::YELLOW),
            egui::StrokeKind::Inside,
        );
    }
    overlay::paint_widgets(ui.painter(), rect, &snapshot.widgets);
    view.report.widgets = snapshot.widgets.iter().map(|w| w.id.clone()).collect();

    if response.clicked() {
        response.request_focus();
        if let Some((x, y)) = view.hovered {
            let top = map.objects_at(x, y).last().map(|o| o.uid);
            state.selection = top.into_iter().collect();
            state.outbox.push(Command::Select(state.selection.clone()));
        }
    }
    let mut input = overlay::show_layers(ui, rect, &snapshot.layers);
    if response.has_focus() && ui.input(|i| i.key_pressed(egui::Key::Backtick)) {
        state.viewport.repl_overlay = !state.viewport.repl_overlay;
    }
    if state.viewport.repl_overlay {
        let console = Rect::from_min_max(rect.left_bottom() - Vec2::new(0.0, rect.height() * 0.4), rect.max);
        ui.scope_builder(egui::UiBuilder::new().max_rect(console), |ui| {
            egui::Frame::popup(ui.style()).fill(egui::Color32::from_black_alpha(220)).show(ui, |ui| {
                ui.set_min_size(console.size() - Vec2::splat(16.0));
                super::repl::ui(ui, state);
            });
        });
    }
    let layer_open = !snapshot.layers.is_empty();
    let nothing_else_focused = ui.ctx().memory(|m| m.focused().is_none_or(|id| id == response.id));
    if response.has_focus() || (layer_open && nothing_else_focused) {
        // The game takes arrows, Tab and Escape rather than egui's focus navigation.
        ui.memory_mut(|m| {
            m.set_focus_lock_filter(
                response.id,
                egui::EventFilter { tab: true, horizontal_arrows: true, vertical_arrows: true, escape: true },
            )
        });
        let text = matches!(
            snapshot.layers.last().map(|l| &l.kind),
            Some(LayerKind::TextInput { .. } | LayerKind::Custom { .. })
        );
        input.extend(
            keys::frame_input(ui.ctx(), text)
                .into_iter()
                .filter(|i| !matches!(i, Input::Key(k) if k == "space" && text)),
        );
    }
    let input = input.into_iter().filter(|i| !matches!(i, Input::Key(k) if k == "`"));
    state.outbox.extend(input.map(Command::Input));
}

fn pan_and_zoom(ui: &Ui, rect: Rect, response: &egui::Response, camera: &mut Camera) {
    let space_held = ui.input(|i| i.key_down(egui::Key::Space));
    let panning = response.dragged_by(egui::PointerButton::Middle)
        || (space_held && response.dragged_by(egui::PointerButton::Primary));
    if panning {
        camera.center -= response.drag_delta() / camera.zoom;
    }
    if let Some(pos) = response.hover_pos() {
        let scroll = ui.input(|i| i.smooth_scroll_delta.y);
        if scroll != 0.0 {
            camera.zoom_at(rect, pos, (scroll / 200.0).exp());
        }
    }
}

fn toolbar_ui(ui: &mut Ui, state: &mut EditorState) {
    ui.horizontal(|ui| {
        if ui.button("Fit map").on_hover_text("Show the whole map (F)").clicked() {
            state.viewport.fit_requested = true;
        }
        let toggles = &mut state.viewport.toggles;
        ui.toggle_value(&mut toggles.grid, "Grid");
        ui.separator();
        ui.label("Layers:");
        ui.toggle_value(&mut toggles.tiles, "Tiles");
        ui.toggle_value(&mut toggles.feats, "Feats");
        ui.toggle_value(&mut toggles.items, "Items");
        ui.toggle_value(&mut toggles.charas, "Characters");
        ui.toggle_value(&mut toggles.shadow, "Shadow");
        ui.toggle_value(&mut toggles.mods, "Mod layers");
        if let Some(camera) = &state.viewport.camera {
            ui.separator();
            ui.weak(format!("{:.0} px/cell", camera.zoom));
        }
    });
}
