//! The Viewport pane: the running game's map with its draw layers, the HUD widgets and the
//! UI layers over it. Pan with the middle button (or Space and drag), zoom with the wheel,
//! click to select and to give the game the keyboard.

use egui::{Rect, Sense, Ui, Vec2};
use nefia_game::Uid;
use nefia_game::display::{Input, WidgetView};
use nefia_game::edit::Edit;
use nefia_game::location::Holder;
use nefia_protocol::debugging::DebugCommand;
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::message::Command;
use nefia_protocol::play::PlayCommand;
use nefia_protocol::view::{MapView, Snapshot};

use nefia_protocol::failure::GameError;

use super::locations::DraggedObjects;
use crate::commands::{Action, Scope};
use crate::context::Tab;
use crate::context::Tool;
use crate::context::{AppRequest, EditorContext};
use crate::keys;
use crate::render::camera::Camera;
use crate::render::error_screen::{ErrorChoice, error_screen_ui};
use crate::render::overlay;
use crate::tools;

mod toolbar;

use toolbar::toolbar_ui;

/// Shows the viewport.
pub fn ui(ui: &mut Ui, state: &mut EditorContext, repl: &mut super::repl::ReplState) {
    toolbar_ui(ui, state);
    open_dropped_recording(ui, state);
    notices_ui(ui, state);
    let (rect, response) = ui.allocate_exact_size(ui.available_size(), Sense::click_and_drag());
    let snapshot = state.snapshot.clone();
    let view = &mut state.viewport;
    if let Some(problem) = &snapshot.problem {
        ui.painter().rect_filled(rect, 0.0, egui::Color32::from_gray(20));
        ui.painter().text(
            rect.center(),
            egui::Align2::CENTER_CENTER,
            problem,
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
    if snapshot.play.playing != view.was_playing {
        view.was_playing = snapshot.play.playing;
        match view.was_playing {
            true => view.before_play = view.camera.zip(view.fitted),
            false => {
                if let Some((camera, fitted)) = view.before_play.take()
                    && fitted == map.id
                {
                    view.camera = Some(camera);
                }
            }
        }
    }
    if view.camera.is_none() || view.fit_requested || view.fitted != Some(map.id) {
        view.camera = Some(Camera::fit(rect, map.width, map.height));
        view.fitted = Some(map.id);
        view.fit_requested = false;
    }
    let camera = view.camera.as_mut().expect("set above");
    pan_and_zoom(ui, rect, &response, camera);
    if let Some(uid) = view.pan_to.take()
        && let Some((on, x, y)) = snapshot.locations.cell_of(uid)
        && on == map.id
    {
        camera.reveal(rect, x, y);
    }
    if let Some((x, y)) = view.reveal_cell.take() {
        camera.reveal(rect, x, y);
    }
    if view.zoom_to_player
        && snapshot.play.playing
        && let Some(player) = snapshot.player
        && let Some((on, x, y)) = snapshot.locations.cell_of(player)
        && on == map.id
    {
        view.zoom_to_player = false;
        if camera.zoom < Camera::PLAY_ZOOM {
            camera.zoom = Camera::PLAY_ZOOM;
            camera.center = Vec2::new(x as f32 + 0.5, y as f32 + 0.5);
        }
    }
    let camera = camera.as_drawn();
    view.hovered = response
        .hover_pos()
        .map(|pos| camera.cell_at(rect, pos))
        .filter(|&(x, y)| x >= 0 && y >= 0 && x < map.width && y < map.height);
    view.rect = Some(rect);
    if let Some(dropped) = response.dnd_release_payload::<super::data_pane::PlacePrototype>()
        && let Some((x, y)) = view.hovered
        && !snapshot.play.playing
    {
        let to = Holder::Map(map.id);
        let edit = Edit::Create { kind: dropped.kind, id: dropped.id.clone(), to, x, y };
        state.outbox.push(Command::Editing(EditingCommand::Edit(edit)));
    }
    let shown = match view.toggles.intent {
        true => view.intent_of(&map),
        false => map.clone(),
    };
    // The art layers hidden in the Layers pane are left out.
    let shown = state.level.art.shown(&shown);
    let view = &mut state.viewport;
    view.report = view.renderer.paint(
        ui.painter(),
        rect,
        &camera,
        &shown,
        &view.toggles,
        &snapshot.map_layers,
        &snapshot.mods.asset_dirs,
    );
    for problem in view.renderer.take_image_problems() {
        state.requests.push(AppRequest::Warn(problem));
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
    let widgets: Vec<WidgetView> =
        snapshot.widgets.iter().filter(|w| view.shows_widget(w, snapshot.play.playing)).cloned().collect();
    overlay::paint_widgets(ui.painter(), rect, &widgets);
    view.report.widgets = widgets.into_iter().map(|w| w.id).collect();

    outline_selection(ui, rect, &camera, &snapshot, &state.selection);
    mark_unresolved(ui, rect, &camera, &map);
    if let Some(diff) = snapshot.preview.as_ref().filter(|p| p.map == Some(map.id)).and_then(|p| p.diff.as_ref()) {
        mark_cells(ui, rect, &camera, &diff.cells, |painter, cell| {
            painter.rect_filled(cell, 0.0, egui::Color32::from_rgba_unmultiplied(255, 200, 40, 90));
        });
    }
    if let Some(repainted) = snapshot.mods.repainted.as_ref().filter(|r| r.map == map.id) {
        // The cells a hotloaded rule painted anew.
        mark_cells(ui, rect, &camera, &repainted.cells, |painter, cell| {
            painter.rect_filled(cell, 0.0, egui::Color32::from_rgba_unmultiplied(80, 200, 255, 90));
        });
    }
    if snapshot.maps.problems.map == Some(map.id) {
        let cells: Vec<(i32, i32)> = snapshot.maps.problems.problems.iter().map(|p| (p.x, p.y)).collect();
        mark_cells(ui, rect, &camera, &cells, |painter, cell| {
            let stroke = egui::Stroke::new(2.0, super::problems::PROBLEM_COLOUR);
            painter.rect_stroke(cell, 0.0, stroke, egui::StrokeKind::Outside);
        });
    }
    if !map.conflicts.is_empty() {
        // An outline and a corner flag, so what stands in the cell still shows.
        mark_cells(ui, rect, &camera, &crate::conflicts::cells(&map.conflicts), |painter, cell| {
            let colour = crate::conflicts::CONFLICT_COLOUR;
            painter.rect_stroke(cell.shrink(1.0), 0.0, egui::Stroke::new(2.0, colour), egui::StrokeKind::Inside);
            let flag = (cell.width() * 0.35).max(3.0);
            let corner = cell.right_top();
            let points = vec![corner, corner + egui::vec2(-flag, 0.0), corner + egui::vec2(0.0, flag)];
            painter.add(egui::Shape::convex_polygon(points, colour, egui::Stroke::NONE));
        });
    }
    // While playing the tools are put away: clicks select (the inspector works on the game).
    match state.level.tool {
        _ if snapshot.play.playing => select_ui(ui, rect, &camera, &response, &map, state),
        Tool::Select => select_ui(ui, rect, &camera, &response, &map, state),
        _ => tools::tool_ui(ui, rect, &camera, &response, &map, state),
    }
    if let (Some(payload), Some((x, y))) = (response.dnd_release_payload::<DraggedObjects>(), state.viewport.hovered) {
        state.outbox.push(Command::Editing(EditingCommand::Edit(Edit::Move {
            uids: payload.0.clone(),
            to: Holder::Map(map.id),
            x,
            y,
        })));
    }
    // Any press gives the viewport the keyboard (tool shortcuts, Delete, the game's keys).
    if response.clicked() || response.drag_started() || response.secondary_clicked() || state.viewport.focus_requested {
        state.viewport.focus_requested = false;
        response.request_focus();
    }
    state.viewport.has_focus = response.has_focus();
    if snapshot.play.playing {
        keyboard_frame(ui, rect, response.has_focus() || state.viewport.repl_overlay);
    }
    let mut input = overlay::show_layers(ui, rect, &snapshot.layers);
    if response.has_focus() {
        let toggled = crate::commands::pressed(ui.ctx(), Scope::Viewport, |a| a == Action::ToggleReplOverlay);
        if !toggled.is_empty() {
            state.viewport.repl_overlay = !state.viewport.repl_overlay;
        }
    }
    // Escape closes the overlay (before the REPL's text box or the game sees it) and gives
    // the keyboard back to the game.
    if state.viewport.repl_overlay && ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Escape)) {
        state.viewport.repl_overlay = false;
        response.request_focus();
    }
    if state.viewport.repl_overlay {
        let console = Rect::from_min_max(rect.left_bottom() - Vec2::new(0.0, rect.height() * 0.4), rect.max);
        ui.scope_builder(egui::UiBuilder::new().max_rect(console), |ui| {
            egui::Frame::popup(ui.style()).fill(egui::Color32::from_black_alpha(220)).show(ui, |ui| {
                ui.set_min_size(console.size() - Vec2::splat(16.0));
                super::repl::ui(ui, state, repl);
            });
        });
    }
    if let Some(error) = &snapshot.debug.error {
        error_screen(ui, rect, error, state);
        return;
    }
    state.viewport.dismissed_error = None;
    let layer_open = !snapshot.layers.is_empty();
    if response.has_focus() && !layer_open && !snapshot.play.playing {
        tools::shortcuts(ui, &mut state.level);
        object_shortcuts(ui, &map, state);
    }
    let nothing_else_focused = ui.ctx().memory(|m| m.focused().is_none_or(|id| id == response.id));
    if response.has_focus() || (layer_open && nothing_else_focused) {
        // The game takes arrows, Tab and Escape rather than egui's focus navigation.
        ui.memory_mut(|m| {
            m.set_focus_lock_filter(
                response.id,
                egui::EventFilter { tab: true, horizontal_arrows: true, vertical_arrows: true, escape: true },
            )
        });
        input.extend(keys::game_input(ui.ctx(), &snapshot.layers));
    }
    let input = input.into_iter().filter(|i| !matches!(i, Input::Key(k) if k == "`"));
    state.outbox.extend(input.map(Command::Input));
}

/// While playing, a frame round the map when the game has the keyboard (when it has not,
/// the notice area says so).
fn keyboard_frame(ui: &Ui, rect: Rect, game_has_keys: bool) {
    if game_has_keys {
        let stroke = egui::Stroke::new(2.0, egui::Color32::from_rgb(90, 160, 255));
        ui.painter().with_clip_rect(rect).rect_stroke(rect, 0.0, stroke, egui::StrokeKind::Inside);
    }
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

/// A recording (`.ron` in a `recordings` folder) dropped on the editor opens in the timeline.
fn open_dropped_recording(ui: &Ui, state: &mut EditorContext) {
    let dropped = ui.input(|i| i.raw.dropped_files.iter().map(|f| f.path().to_owned()).collect::<Vec<_>>());
    let recording = dropped.into_iter().find(|path| {
        path.extension().is_some_and(|e| e == "ron") && path.ancestors().any(|d| d.ends_with("recordings"))
    });
    if let Some(path) = recording {
        state.outbox.push(Command::Play(PlayCommand::OpenRecording(path)));
    }
}

/// Outlines the selected objects on the current map.
fn outline_selection(ui: &Ui, rect: Rect, camera: &Camera, snapshot: &Snapshot, selection: &[Uid]) {
    let Some(map) = &snapshot.map else { return };
    let painter = ui.painter().with_clip_rect(rect);
    for object in snapshot.editing.inspected.iter().filter(|o| selection.contains(&o.uid) && o.map == Some(map.id)) {
        let min = camera.to_screen(rect, Vec2::new(object.x as f32, object.y as f32));
        let cell = Rect::from_min_size(min, Vec2::splat(camera.zoom.max(3.0)));
        painter.rect_stroke(
            cell,
            2.0,
            egui::Stroke::new(2.0, egui::Color32::from_rgb(80, 220, 255)),
            egui::StrokeKind::Outside,
        );
    }
}

/// Click selects the top object of a cell (clicking again goes down the stack), Shift-click
/// adds or removes it, and dragging a box selects everything in it (Shift adds).
fn select_ui(
    ui: &Ui,
    rect: Rect,
    camera: &Camera,
    response: &egui::Response,
    map: &MapView,
    state: &mut EditorContext,
) {
    let shift = ui.input(|i| i.modifiers.shift);
    let mut selection = state.selection.clone();
    if response.clicked() {
        response.request_focus();
        let Some((x, y)) = state.viewport.hovered else { return };
        state.inspect_cell(Some((map.id, x, y)));
        let here: Vec<Uid> = map.objects_at(x, y).map(|o| o.uid).collect();
        let pick = match (selection.as_slice(), here.iter().position(|u| selection.first() == Some(u))) {
            ([_], Some(index)) if !shift => here.get(if index == 0 { here.len() - 1 } else { index - 1 }).copied(),
            _ => here.last().copied(),
        };
        match (pick, shift) {
            (Some(uid), true) => {
                if let Some(index) = selection.iter().position(|u| *u == uid) {
                    selection.remove(index);
                } else {
                    selection.push(uid);
                }
            }
            (pick, false) => selection = pick.into_iter().collect(),
            (None, true) => return,
        }
        state.select(selection);
        return;
    }
    let space = ui.input(|i| i.key_down(egui::Key::Space));
    if response.drag_started_by(egui::PointerButton::Primary) && !space {
        let origin = ui.input(|i| i.pointer.press_origin()).map(|p| camera.to_cell(rect, p));
        let cell = origin.map(|c| (c.x.floor() as i32, c.y.floor() as i32));
        let on_selected = cell.is_some_and(|(x, y)| map.objects_at(x, y).any(|o| selection.contains(&o.uid)));
        if on_selected {
            state.viewport.move_from = cell;
        } else {
            state.viewport.box_start = origin;
        }
    }
    if let Some(from) = state.viewport.move_from {
        move_ui(ui, rect, camera, response, map, state, from);
        return;
    }
    let Some(start) = state.viewport.box_start else { return };
    let Some(now) = ui.input(|i| i.pointer.interact_pos()).map(|p| camera.to_cell(rect, p)) else { return };
    let (min, max) = (start.min(now), start.max(now));
    let screen = Rect::from_min_max(camera.to_screen(rect, min), camera.to_screen(rect, max));
    ui.painter().with_clip_rect(rect).rect(
        screen,
        0.0,
        egui::Color32::from_rgba_unmultiplied(80, 220, 255, 30),
        egui::Stroke::new(1.0, egui::Color32::from_rgb(80, 220, 255)),
        egui::StrokeKind::Inside,
    );
    if response.drag_stopped() {
        state.viewport.box_start = None;
        let cell = |v: Vec2| (v.x.floor() as i32, v.y.floor() as i32);
        state.level.region = Some((map.id, cell(min), cell(max)));
        if !shift {
            selection.clear();
        }
        for y in min.y.floor() as i32..=max.y.floor() as i32 {
            for x in min.x.floor() as i32..=max.x.floor() as i32 {
                selection
                    .extend(map.objects_at(x, y).map(|o| o.uid).filter(|u| !selection.contains(u)).collect::<Vec<_>>());
            }
        }
        state.select(selection);
    }
}

/// The error screen over the game: what failed, its traceback, Enter to resume (the failed
/// step is abandoned) and Escape to leave it for the REPL — then a banner stays until the
/// game is resumed or a hotload fixes it.
fn error_screen(ui: &mut Ui, rect: Rect, error: &GameError, state: &mut EditorContext) {
    let keys = ui.ctx().memory(|m| m.focused().is_none()) || state.viewport.has_focus;
    let mut actions = Vec::new();
    let choice = if state.viewport.dismissed_error.as_ref() == Some(error) {
        error_banner_ui(ui, rect, error)
    } else {
        let leave = ("To the REPL", Some("Saving the fixed file reloads it and resumes."));
        error_screen_ui(ui, rect, error, leave, keys, &mut actions)
    };
    for action in actions {
        state.follow(action);
    }
    match choice {
        Some(ErrorChoice::Resume) => state.outbox.push(Command::Debug(DebugCommand::Resume)),
        Some(ErrorChoice::Leave) => {
            state.viewport.dismissed_error = Some(error.clone());
            state.requests.push(AppRequest::OpenTab(Tab::Repl));
            ui.memory_mut(|m| m.request_focus(super::repl::input_id()));
        }
        None => {}
    }
}

/// The banner the error screen leaves once dismissed for the REPL: Resume stays at hand.
fn error_banner_ui(ui: &mut Ui, rect: Rect, error: &GameError) -> Option<ErrorChoice> {
    // As tall as its text needs: a long context wraps rather than being cut.
    let area = Rect::from_min_size(rect.min + Vec2::splat(8.0), Vec2::new(rect.width() - 16.0, rect.height() - 16.0));
    let mut choice = None;
    ui.scope_builder(egui::UiBuilder::new().max_rect(area), |ui| {
        let frame = egui::Frame::popup(ui.style()).fill(egui::Color32::from_rgba_unmultiplied(40, 8, 8, 240));
        frame.show(ui, |ui| {
            ui.set_width(area.width() - 16.0);
            ui.horizontal_wrapped(|ui| {
                ui.colored_label(
                    egui::Color32::LIGHT_RED,
                    format!("The game stopped on an error in {}", error.context),
                );
                if ui.button("Resume").clicked() {
                    choice = Some(ErrorChoice::Resume);
                }
            });
        });
    });
    choice
}

/// Dragging the selected objects: ghosts follow the mouse; on release they move by the
/// difference (`set_pos`), as one undo step.
fn move_ui(
    ui: &Ui,
    rect: Rect,
    camera: &Camera,
    response: &egui::Response,
    map: &MapView,
    state: &mut EditorContext,
    from: (i32, i32),
) {
    let Some(to) = state.viewport.hovered else { return };
    let (dx, dy) = (to.0 - from.0, to.1 - from.1);
    let moved: Vec<(Uid, i32, i32)> = state
        .snapshot
        .editing
        .inspected
        .iter()
        .filter(|o| state.selection.contains(&o.uid) && o.map == Some(map.id))
        .map(|o| (o.uid, o.x, o.y))
        .collect();
    let painter = ui.painter().with_clip_rect(rect);
    for &(_, x, y) in &moved {
        let min = camera.to_screen(rect, Vec2::new((x + dx) as f32, (y + dy) as f32));
        let ghost = Rect::from_min_size(min, Vec2::splat(camera.zoom.max(3.0)));
        painter.rect_stroke(
            ghost,
            2.0,
            egui::Stroke::new(2.0, egui::Color32::from_rgb(255, 200, 80)),
            egui::StrokeKind::Outside,
        );
    }
    if response.drag_stopped() {
        state.viewport.move_from = None;
        if (dx, dy) != (0, 0) && !moved.is_empty() {
            let uids = moved.into_iter().map(|(uid, _, _)| uid).collect();
            state.outbox.push(Command::Editing(EditingCommand::Edit(Edit::Offset { uids, dx, dy })));
        }
    }
}

/// Delete removes the selected objects, Ctrl+D duplicates them, Ctrl+C copies the
/// box-selected region (or the selection's cells) and Ctrl+V pastes at the cursor.
fn object_shortcuts(ui: &Ui, map: &MapView, state: &mut EditorContext) {
    let objects = [Action::DeleteSelection, Action::DuplicateSelection, Action::CopyRegion, Action::Paste];
    let pressed = crate::commands::pressed(ui.ctx(), Scope::Tools, |a| objects.contains(&a));
    // The platform's copy and paste (Ctrl+C in some windows systems arrives as these).
    let (copied, pasted) = ui.input(|i| {
        let copied = i.events.iter().any(|e| matches!(e, egui::Event::Copy));
        (copied, i.events.iter().any(|e| matches!(e, egui::Event::Paste(_))))
    });
    let copy = copied || pressed.contains(&Action::CopyRegion);
    let paste = pasted || pressed.contains(&Action::Paste);
    if pressed.contains(&Action::DeleteSelection) {
        tools::delete_selection(state);
    }
    if pressed.contains(&Action::DuplicateSelection) {
        tools::duplicate_selection(state);
    }
    if copy {
        let region = state.level.region.filter(|(id, _, _)| *id == map.id).or_else(|| {
            let cells: Vec<(i32, i32)> = state
                .snapshot
                .editing
                .inspected
                .iter()
                .filter(|o| state.selection.contains(&o.uid) && o.map == Some(map.id))
                .map(|o| (o.x, o.y))
                .collect();
            let min = cells.iter().copied().reduce(|a, b| (a.0.min(b.0), a.1.min(b.1)))?;
            let max = cells.iter().copied().reduce(|a, b| (a.0.max(b.0), a.1.max(b.1)))?;
            Some((map.id, min, max))
        });
        if let Some((map, min, max)) = region {
            let (width, height) = (max.0 - min.0 + 1, max.1 - min.1 + 1);
            state.outbox.push(Command::Editing(EditingCommand::Copy { map, x: min.0, y: min.1, width, height }));
        }
    }
    if paste && let (Some(clip), Some((x, y))) = (state.level.clip.clone(), state.viewport.hovered) {
        state.outbox.push(Command::Editing(EditingCommand::Edit(Edit::Paste { map: map.id, x, y, clip })));
    }
}

/// Marks the objects of the map file whose ids the mods do not know.
/// The workbench's preview: the cells its last regeneration changed, tinted, and the
/// validators' problems, framed red.
/// Marks each of `cells` with `mark`, given the painter and the cell's rectangle: the
/// workbench's diff tints, the validators' problems are framed.
fn mark_cells(ui: &Ui, rect: Rect, camera: &Camera, cells: &[(i32, i32)], mark: impl Fn(&egui::Painter, Rect)) {
    let painter = ui.painter().with_clip_rect(rect);
    for &(x, y) in cells {
        let cell = Rect::from_min_size(camera.to_screen(rect, Vec2::new(x as f32, y as f32)), Vec2::splat(camera.zoom));
        mark(&painter, cell);
    }
}

fn mark_unresolved(ui: &Ui, rect: Rect, camera: &Camera, map: &MapView) {
    let painter = ui.painter().with_clip_rect(rect);
    for (x, y, problem) in &map.unresolved {
        let min = camera.to_screen(rect, Vec2::new(*x as f32, *y as f32));
        let cell = Rect::from_min_size(min, Vec2::splat(camera.zoom.max(6.0)));
        painter.rect(
            cell,
            2.0,
            egui::Color32::from_rgb(120, 0, 120),
            egui::Stroke::new(1.0, egui::Color32::from_rgb(255, 0, 255)),
            egui::StrokeKind::Inside,
        );
        painter.text(
            cell.center(),
            egui::Align2::CENTER_CENTER,
            "?",
            egui::FontId::monospace(camera.zoom * 0.8),
            egui::Color32::WHITE,
        );
        if ui.rect_contains_pointer(cell) {
            egui::Tooltip::always_open(
                ui.ctx().clone(),
                ui.layer_id(),
                egui::Id::new(("unresolved", x, y)),
                egui::PopupAnchor::Pointer,
            )
            .show(|ui| ui.label(problem));
        }
    }
}

/// How long a notice (a refused edit, a copy) stays in the notice area.
const NOTICE_SHOWN: std::time::Duration = std::time::Duration::from_secs(5);

/// How many lines of a notice show before it is cut (the whole text is on hover).
const NOTICE_LINES: usize = 4;

/// The viewport's one notice area, between the toolbar and the map, so no notice covers
/// another: each notice on a line of its own (stacked, newest last). A line is kept for each
/// in the layout, so a notice never moves the map; a longer one grows over the map's top, up
/// to [`NOTICE_LINES`] lines (the whole text on hover). With no notice the line says what the
/// tool does.
fn notices_ui(ui: &mut Ui, state: &EditorContext) {
    let view = &state.viewport;
    let mut notices: Vec<(String, egui::Color32)> = Vec::new();
    if state.snapshot.play.playing && !view.has_focus && !view.repl_overlay {
        let text = "Click the map to play: the keyboard is in another pane";
        notices.push((text.to_owned(), egui::Color32::from_rgb(110, 90, 20)));
    }
    if let Some((text, when)) = &state.notice
        && let Some(left) = NOTICE_SHOWN.checked_sub(when.elapsed())
    {
        ui.ctx().request_repaint_after(left);
        notices.push((text.clone(), egui::Color32::from_rgb(120, 30, 30)));
    }
    let idle = match state.snapshot.play.playing {
        true => "⌨ the game's keys act while the map has the keyboard",
        false => state.level.tool.tooltip(),
    };
    if notices.is_empty() {
        notices.push((idle.to_owned(), egui::Color32::TRANSPARENT));
    }
    let margin = egui::Margin::symmetric(8, 2);
    let line = ui.text_style_height(&egui::TextStyle::Body) + f32::from(margin.top + margin.bottom);
    for (index, (text, fill)) in notices.into_iter().enumerate() {
        let colour =
            if fill == egui::Color32::TRANSPARENT { ui.visuals().weak_text_color() } else { egui::Color32::WHITE };
        let (slot, _) = ui.allocate_exact_size(egui::vec2(ui.available_width(), line), Sense::hover());
        // Drawn above the map, from its line down: the map stays where it is.
        egui::Area::new(ui.id().with(("notice", index)))
            .order(egui::Order::Middle)
            .fixed_pos(slot.min)
            .constrain(false)
            .show(ui.ctx(), |ui| {
                egui::Frame::new().fill(fill).corner_radius(4.0).inner_margin(margin).show(ui, |ui| {
                    let width = slot.width() - f32::from(margin.left + margin.right);
                    ui.set_width(width);
                    let mut job = egui::text::LayoutJob::simple(
                        text.clone(),
                        egui::TextStyle::Body.resolve(ui.style()),
                        colour,
                        width,
                    );
                    job.wrap.max_rows = NOTICE_LINES;
                    job.wrap.overflow_character = Some('…');
                    // Laid out here: a label would lay a job out again with its own wrapping.
                    let galley = ui.fonts_mut(|fonts| fonts.layout_job(job));
                    ui.add(egui::Label::new(galley)).on_hover_text(text);
                });
            });
    }
}
