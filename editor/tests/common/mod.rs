//! Helpers shared by the editor's tests: an editor on the demo project, stepping until the
//! runtime thread has answered, and evaluating Lua through the REPL.

#![allow(dead_code)]

use std::time::{Duration, Instant};

use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use nefia_editor::app::EditorApp;
use nefia_editor::panes::repl::ReplState;
use nefia_protocol::repl::Evaluation;
use nefia_protocol::view::RuntimeState;
use nefia_tests::repo_root;

/// An editor on the demo project, 1280×800. Its REPL history stays in memory (the
/// repository's project is not written to).
pub fn editor() -> Harness<'static, EditorApp> {
    editor_on(&repo_root().join("projects/demo"), ReplState::default())
}

/// An editor on `project` with `repl` as its REPL.
pub fn editor_on(project: &std::path::Path, repl: ReplState) -> Harness<'static, EditorApp> {
    // The repository's demo is not written to: its sessions are not recorded.
    let record = !project.starts_with(repo_root());
    let mut app = EditorApp::recording(&egui::Context::default(), project.to_owned(), None, record);
    app.panes_mut().repl = repl;
    Harness::builder().with_size([1280.0, 800.0]).build_ui_state(|ui, app: &mut EditorApp| app.ui(ui), app)
}

/// An editor playing the demo (Play pressed: the player is on the start map).
pub fn started() -> Harness<'static, EditorApp> {
    let mut harness = editor();
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    harness.state().host().send(nefia_protocol::message::Command::Play(nefia_protocol::play::PlayCommand::Start(
        nefia_protocol::play::PlayFrom::Start,
    )));
    step_until(&mut harness, "the game", |h| {
        h.state().state().snapshot.play.playing && h.state().state().snapshot.player.is_some()
    });
    harness
}

/// The sprites (meshes of a texture other than the fonts') the last frame showed inside their
/// clip rectangles with bounds `keep` accepts, in the order drawn.
pub fn sprites_shown<App>(
    harness: &Harness<'static, App>,
    keep: impl Fn(egui::Rect) -> bool,
) -> Vec<std::sync::Arc<egui::Mesh>> {
    let shapes = &harness.output().shapes;
    shapes
        .iter()
        .filter_map(|clipped| match &clipped.shape {
            egui::Shape::Mesh(mesh) => {
                let bounds = mesh.calc_bounds();
                let shown = mesh.texture_id != egui::TextureId::default()
                    && clipped.clip_rect.contains(bounds.center())
                    && keep(bounds);
                shown.then(|| mesh.clone())
            }
            _ => None,
        })
        .collect()
}

/// Steps the window until `condition` holds (the runtime answers from its own thread).
pub fn step_until<App>(
    harness: &mut Harness<'static, App>,
    what: &str,
    mut condition: impl FnMut(&mut Harness<'static, App>) -> bool,
) {
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        harness.step();
        if condition(harness) {
            return;
        }
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Scrolls the widget labelled `label` into view and steps until it has stopped moving for a
/// few frames (a scroll area starts a frame late and animates there over several: a click
/// before it settles misses).
pub fn scroll_into_view<App>(harness: &mut Harness<'static, App>, label: &str) {
    harness.get_by_label(label).scroll_to_me();
    let (mut last, mut still) = (None, 0);
    step_until(harness, &format!("{label} scrolled into view"), |h| {
        let rect = h.get_by_label(label).rect();
        still = if last == Some(rect) { still + 1 } else { 0 };
        last = Some(rect);
        still == 5
    });
}

/// Sends Lua to the runtime as the REPL does; returns the REPL entry's index.
pub fn eval(harness: &mut Harness<'static, EditorApp>, code: &str) -> usize {
    let command = harness.state_mut().panes_mut().repl.submit(code.to_owned());
    harness.state().host().send(command);
    harness.state().panes().repl.entries.len() - 1
}

/// The answer to REPL entry `entry`, if it came.
pub fn result(harness: &Harness<'static, EditorApp>, entry: usize) -> Option<Evaluation> {
    harness.state().panes().repl.entries[entry].result.clone()
}

/// Evaluates `code` and waits for its values.
pub fn eval_values(harness: &mut Harness<'static, EditorApp>, code: &str) -> Vec<String> {
    let entry = eval(harness, code);
    step_until(harness, code, |h| result(h, entry).is_some());
    match result(harness, entry) {
        Some(Evaluation::Values(values)) => values,
        other => panic!("{code} gave {other:?}"),
    }
}

/// The screen position of the middle of cell (x, y) in the viewport.
pub fn cell_center(harness: &Harness<'static, EditorApp>, x: i32, y: i32) -> egui::Pos2 {
    let view = &harness.state().state().viewport;
    let camera = view.camera.expect("the viewport has a camera");
    camera.to_screen(view.rect.expect("the viewport was drawn"), egui::vec2(x as f32 + 0.5, y as f32 + 0.5))
}

/// Clicks at `pos` with `modifiers` held.
pub fn click_at(harness: &mut Harness<'static, EditorApp>, pos: egui::Pos2, modifiers: egui::Modifiers) {
    harness.hover_at(pos);
    for pressed in [true, false] {
        harness.event_modifiers(
            egui::Event::PointerButton { pos, button: egui::PointerButton::Primary, pressed, modifiers },
            modifiers,
        );
    }
    harness.step();
}

/// Drags with the primary button through the centres of `cells` (first to last).
pub fn drag_cells(harness: &mut Harness<'static, EditorApp>, cells: &[(i32, i32)]) {
    let points: Vec<egui::Pos2> = cells.iter().map(|&(x, y)| cell_center(harness, x, y)).collect();
    harness.hover_at(points[0]);
    harness.step();
    harness.drag_at(points[0]);
    harness.step();
    // Past the drag threshold first, then through each cell.
    harness.hover_at(points[0] + egui::vec2(6.0, 6.0));
    harness.step();
    for &point in &points[1..] {
        harness.hover_at(point);
        harness.step();
    }
    harness.drop_at(*points.last().expect("at least one cell"));
    harness.step();
}

/// The game's turn as the editor last saw it.
pub fn turn(harness: &Harness<'static, EditorApp>) -> u64 {
    harness.state().state().snapshot.turn
}

/// Presses the arrow keys in turn until a turn passes (a wall may be in the way, or someone
/// friendly: the game's "Really attack …?" is answered with Escape). Each key is pressed only
/// once the game waits for the player's move, and given fifteen seconds: a loaded machine (CI)
/// has taken over six to play the first turn of a debug build, and a key pressed before the
/// last was played would pass a second turn.
pub fn walk(harness: &mut Harness<'static, EditorApp>) {
    let before = turn(harness);
    for key in [egui::Key::ArrowRight, egui::Key::ArrowDown, egui::Key::ArrowLeft, egui::Key::ArrowUp] {
        step_until(harness, "the game to wait for a move", |h| {
            h.state().state().snapshot.state == RuntimeState::Running
        });
        harness.key_press(key);
        let deadline = Instant::now() + Duration::from_secs(15);
        while Instant::now() < deadline {
            harness.step();
            std::thread::sleep(Duration::from_millis(5));
            if turn(harness) > before {
                return;
            }
            if harness.state().state().snapshot.state == RuntimeState::InQuery {
                harness.key_press(egui::Key::Escape);
                break;
            }
        }
    }
    let snapshot = &harness.state().state().snapshot;
    panic!(
        "no turn passed: state {:?}, error {:?}, pause {:?}, playing {}, paused {}, viewport focus {}",
        snapshot.state,
        snapshot.debug.error,
        snapshot.debug.pause.as_ref().map(|p| (p.line, p.cause, p.reason.clone())),
        snapshot.play.playing,
        snapshot.play.paused,
        harness.state().state().viewport.has_focus,
    );
}

/// Fills the dialog field labelled `field` with `text` (what was there is replaced).
pub fn fill(harness: &mut Harness<'static, EditorApp>, field: &str, text: &str) {
    use egui_kittest::kittest::Queryable;
    harness.get_by_label(field).click();
    harness.step();
    harness.key_combination_modifiers(egui::Modifiers::COMMAND, &[egui::Key::A]);
    harness.get_by_label(field).type_text(text);
    harness.step();
}
