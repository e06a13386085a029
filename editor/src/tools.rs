//! The level editor's tools in the viewport: select (S), brush (B, sizes 1–9), rectangle
//! (R), flood fill (F), line (L), eyedropper (I), place object (O) and erase (E).
//!
//! Tools turn mouse gestures into [`Edit`]s. A brush or erase drag is a stroke: its parts
//! are sent as they are painted (the map changes live) and merge into one undo step.
//! Rectangles and lines show a preview while dragging and are painted on release. Right-click
//! or Alt-click with a painting tool picks the tile under the cursor.

use egui::{Color32, Rect, Ui, Vec2};
use nefia_game::edit::Edit;
use nefia_game::location::Holder;
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::message::Command;
use nefia_protocol::view::MapView;

use crate::commands::{Action, Scope};
use crate::context::{Drag, EditorContext, LevelState, Tool};
use crate::render::camera::Camera;

/// The cells of a square brush of side `size` centred on `center`.
pub fn brush_cells(center: (i32, i32), size: i32) -> impl Iterator<Item = (i32, i32)> {
    let low = (size - 1) / 2;
    let (x0, y0) = (center.0 - low, center.1 - low);
    (y0..y0 + size).flat_map(move |y| (x0..x0 + size).map(move |x| (x, y)))
}

/// The cells of the line from `a` to `b` (Bresenham), ends included.
pub fn line_cells(a: (i32, i32), b: (i32, i32)) -> Vec<(i32, i32)> {
    let (dx, dy) = ((b.0 - a.0).abs(), -(b.1 - a.1).abs());
    let (sx, sy) = ((b.0 - a.0).signum(), (b.1 - a.1).signum());
    let (mut x, mut y, mut error) = (a.0, a.1, dx + dy);
    let mut cells = vec![(x, y)];
    while (x, y) != b {
        let twice = 2 * error;
        if twice >= dy {
            error += dy;
            x += sx;
        }
        if twice <= dx {
            error += dx;
            y += sy;
        }
        cells.push((x, y));
    }
    cells
}

/// The cells of the rectangle with corners `a` and `b`.
pub fn rect_cells(a: (i32, i32), b: (i32, i32)) -> impl Iterator<Item = (i32, i32)> {
    let (x0, x1, y0, y1) = (a.0.min(b.0), a.0.max(b.0), a.1.min(b.1), a.1.max(b.1));
    (y0..=y1).flat_map(move |y| (x0..=x1).map(move |x| (x, y)))
}

/// Tool shortcuts (letters, and 1–9 for the brush size), taken before the game sees the
/// keys. Only while the viewport has the keyboard and no UI layer is open.
pub fn shortcuts(ui: &Ui, level: &mut LevelState) {
    let sized = level.tool.has_size();
    let wanted = |action| match action {
        Action::Tool(_) => true,
        Action::BrushSize(_) => sized,
        _ => false,
    };
    for action in crate::commands::pressed(ui.ctx(), Scope::Tools, wanted) {
        match action {
            Action::Tool(tool) => {
                level.tool = tool;
                level.drag = None;
            }
            Action::BrushSize(size) => level.brush = i32::from(size),
            _ => {}
        }
    }
}

/// What a painting tool does with the mouse over the map this frame: paints, previews, picks.
pub fn tool_ui(
    ui: &Ui,
    rect: Rect,
    camera: &Camera,
    response: &egui::Response,
    map: &MapView,
    state: &mut EditorContext,
) {
    let level = &mut state.level;
    let Some(cell) = state.viewport.hovered.or(level.drag.map(|d| d.last)) else { return };
    let picking = response.secondary_clicked() || (response.clicked() && ui.input(|i| i.modifiers.alt));
    if (level.tool.paints() && picking) || (level.tool == Tool::Eyedropper && response.clicked()) {
        level.tile = map.tile_at(cell.0, cell.1).map(|t| t.id);
        return;
    }
    let pressed = response.drag_started_by(egui::PointerButton::Primary)
        || (response.clicked_by(egui::PointerButton::Primary) && level.drag.is_none());
    if pressed {
        // A drag starts where the button went down, not where the drag was recognised.
        let origin = ui.input(|i| i.pointer.press_origin()).map(|p| camera.cell_at(rect, p)).unwrap_or(cell);
        level.drag = Some(Drag { start: origin, last: origin, stroke: level.next_stroke });
        level.next_stroke += 1;
    }
    let releasing = response.drag_stopped() || response.clicked_by(egui::PointerButton::Primary);
    let painter = ui.painter().with_clip_rect(rect);
    let outline = |cells: &mut dyn Iterator<Item = (i32, i32)>, color: Color32| {
        for (x, y) in cells {
            let min = camera.to_screen(rect, Vec2::new(x as f32, y as f32));
            let cell_rect = Rect::from_min_size(min, Vec2::splat(camera.zoom));
            painter.rect_filled(cell_rect, 0.0, color);
        }
    };
    let preview = Color32::from_rgba_unmultiplied(255, 220, 80, 70);
    match (level.tool, level.drag) {
        (Tool::Brush | Tool::Erase, drag) => {
            outline(&mut brush_cells(cell, level.brush), preview);
            if let Some(drag) = drag {
                let cells: Vec<(i32, i32)> = line_cells(drag.last, cell)
                    .into_iter()
                    .flat_map(|c| brush_cells(c, level.brush))
                    .filter(|&(x, y)| x >= 0 && y >= 0 && x < map.width && y < map.height)
                    .collect();
                if pressed || drag.last != cell {
                    stroke(state, map, drag.stroke, cells);
                }
            }
        }
        (Tool::Rect, Some(drag)) => outline(&mut rect_cells(drag.start, cell), preview),
        (Tool::Line, Some(drag)) => {
            outline(&mut line_cells(drag.start, cell).into_iter().flat_map(|c| brush_cells(c, level.brush)), preview)
        }
        _ => outline(&mut std::iter::once(cell), preview),
    }
    let level = &mut state.level;
    if let Some(drag) = &mut level.drag {
        drag.last = cell;
    }
    if releasing && let Some(drag) = level.drag.take() {
        finish(state, map, drag, cell);
    }
}

/// Sends one part of a brush or erase stroke.
fn stroke(state: &mut EditorContext, map: &MapView, id: u64, cells: Vec<(i32, i32)>) {
    let edit = match (state.level.tool, state.level.art.paint_target(map)) {
        (Tool::Brush, layer) => {
            let Some(tile) = state.level.tile else { return no_tile(state) };
            paint(map, layer, cells, Some(tile.to_string()))
        }
        // On an art layer the eraser empties its cells.
        (_, Some(layer)) => paint(map, Some(layer), cells, None),
        _ => {
            let player = state.snapshot.player;
            let uids: Vec<_> = cells
                .iter()
                .flat_map(|&(x, y)| map.objects_at(x, y))
                .map(|o| o.uid)
                .filter(|&uid| Some(uid) != player)
                .collect();
            if uids.is_empty() {
                return;
            }
            Edit::Remove { uids }
        }
    };
    state.outbox.push(Command::Editing(EditingCommand::Edit(Edit::Stroke { id, edit: Box::new(edit) })));
}

/// Painting `cells` of `map` with `tile`: its game tiles, or art layer `layer` (where no tile
/// erases).
fn paint(map: &MapView, layer: Option<&str>, cells: Vec<(i32, i32)>, tile: Option<String>) -> Edit {
    match (layer, tile) {
        (None, Some(tile)) => Edit::PaintTiles { map: map.id, cells, tile },
        (layer, tile) => Edit::PaintArt { map: map.id, layer: layer.unwrap_or_default().to_owned(), cells, tile },
    }
}

fn no_tile(state: &mut EditorContext) {
    state.notice = Some(("Pick a tile in the Palette first (or right-click a cell)".into(), std::time::Instant::now()));
}

/// What a tool does when the mouse is released.
fn finish(state: &mut EditorContext, map: &MapView, drag: Drag, end: (i32, i32)) {
    let tile = state.level.tile.map(|t| t.to_string());
    let edit = match state.level.tool {
        Tool::Rect | Tool::Line | Tool::Fill => {
            let Some(tile) = tile else { return no_tile(state) };
            let layer = state.level.art.paint_target(map);
            match state.level.tool {
                Tool::Rect => paint(map, layer, rect_cells(drag.start, end).collect(), Some(tile)),
                Tool::Line => {
                    let cells = line_cells(drag.start, end).into_iter().flat_map(|c| brush_cells(c, state.level.brush));
                    paint(map, layer, cells.collect(), Some(tile))
                }
                _ if layer.is_some() => {
                    let notice = "Fill paints the game tiles: pick them in the Layers pane (the brush and rectangle paint art layers)";
                    state.notice = Some((notice.into(), std::time::Instant::now()));
                    return;
                }
                _ => Edit::Fill { map: map.id, x: end.0, y: end.1, tile },
            }
        }
        Tool::Place => {
            let Some((kind, id)) = state.level.object else {
                state.notice = Some(("Pick an object in the Palette first".into(), std::time::Instant::now()));
                return;
            };
            Edit::Create { kind, id: id.to_string(), to: Holder::Map(map.id), x: end.0, y: end.1 }
        }
        _ => return,
    };
    state.outbox.push(Command::Editing(EditingCommand::Edit(edit)));
}

/// The selected objects an edit may remove or copy: all but the player.
fn selected_objects(state: &EditorContext) -> Vec<nefia_game::Uid> {
    state.selection.iter().copied().filter(|&u| Some(u) != state.snapshot.player).collect()
}

/// Removes the selected objects (Delete, Edit → Delete).
pub fn delete_selection(state: &mut EditorContext) {
    let uids = selected_objects(state);
    if !uids.is_empty() {
        state.outbox.push(Command::Editing(EditingCommand::Edit(Edit::Remove { uids })));
        state.select(Vec::new());
    }
}

/// Duplicates the selected objects (Ctrl+D, Edit → Duplicate).
pub fn duplicate_selection(state: &mut EditorContext) {
    let uids = selected_objects(state);
    if !uids.is_empty() {
        state.outbox.push(Command::Editing(EditingCommand::Edit(Edit::Clone { uids })));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brushes_lines_and_rectangles_cover_the_right_cells() {
        assert_eq!(brush_cells((5, 5), 1).collect::<Vec<_>>(), [(5, 5)]);
        assert_eq!(brush_cells((5, 5), 3).count(), 9);
        assert!(brush_cells((5, 5), 3).any(|c| c == (4, 4)) && brush_cells((5, 5), 3).any(|c| c == (6, 6)));
        assert_eq!(line_cells((0, 0), (3, 0)), [(0, 0), (1, 0), (2, 0), (3, 0)]);
        assert_eq!(line_cells((0, 0), (2, 2)), [(0, 0), (1, 1), (2, 2)]);
        assert_eq!(line_cells((3, 1), (3, 1)), [(3, 1)]);
        assert_eq!(rect_cells((2, 2), (0, 1)).count(), 6);
    }
}
