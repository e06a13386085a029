//! The Layers pane's art layers, driven headless as a user would: a layer added in the pane,
//! painted with the brush, hidden from the viewport, and undone, the game's tiles untouched.

mod common;

use common::{drag_cells, editor_on, eval_values, fill, step_until};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use nefia_editor::app::EditorApp;
use nefia_editor::context::{Tab, Tool};
use nefia_editor::panes::repl::ReplState;
use nefia_protocol::view::{MapView, NO_TILE};
use nefia_tests::DemoCopy;

/// The current map's view as the editor last saw it.
fn map(harness: &Harness<'static, EditorApp>) -> std::sync::Arc<MapView> {
    harness.state().state().snapshot.map.clone().expect("a current map")
}

/// The tile id at (x, y) of art layer `layer` of `view`, if the cell holds one.
fn art_at(view: &MapView, layer: usize, x: i32, y: i32) -> Option<String> {
    let chunk = view.chunk_at(x, y)?;
    let (w, _) = view.chunk_size(chunk.cx, chunk.cy);
    let index = chunk.art.get(layer)?.tiles[((y % 16) * w + x % 16) as usize];
    (index != NO_TILE).then(|| view.tile_styles[usize::from(index)].id.to_string())
}

fn undo(harness: &mut Harness<'static, EditorApp>) {
    harness.get_by_label("Edit").click();
    step_until(harness, "the Edit menu", |h| h.query_by_label_contains("Undo").is_some());
    harness.query_all_by_label_contains("Undo").next().expect("Undo in the menu").click();
    harness.step();
    eval_values(harness, "true");
}

#[test]
fn a_layer_added_in_the_pane_is_painted_hidden_and_undone_leaving_the_game_tiles() {
    let copy = DemoCopy::new();
    let mut harness = editor_on(&copy.project(), ReplState::default());
    step_until(&mut harness, "a drawn map", |h| h.state().state().viewport.rect.is_some());
    let tile = |harness: &mut Harness<'static, EditorApp>| eval_values(harness, "Map.current():tile(2, 1)");
    let game_tile = tile(&mut harness);

    harness.state_mut().open_tab(Tab::Layers);
    harness.step();
    fill(&mut harness, "New art layer name", "roofs");
    harness.get_by_label("Add above objects").click();
    step_until(&mut harness, "the layer added", |h| map(h).art_layers.iter().any(|l| l.name == "roofs"));
    harness.step();
    assert!(harness.query_by_label("Paint art layer 'roofs'").is_some(), "the pane lists the layer");

    // The brush paints the layer the pane picked (a new layer is picked).
    harness.state_mut().open_tab(Tab::Palette);
    harness.state_mut().state_mut().level.search = ("elona.water".into(), "elona.water".into());
    harness.step();
    harness.get_by_label_contains("elona.water\n").click();
    harness.step();
    assert_eq!(harness.state().state().level.tool, Tool::Brush);
    drag_cells(&mut harness, &[(2, 1), (3, 1)]);
    eval_values(&mut harness, "true");
    step_until(&mut harness, "the cells painted", |h| art_at(&map(h), 0, 3, 1).is_some());
    let view = map(&harness);
    assert_eq!(art_at(&view, 0, 2, 1).as_deref(), Some("elona.water"), "the art layer has the tile");
    assert_eq!(art_at(&view, 0, 4, 1), None);
    assert_eq!(tile(&mut harness), game_tile, "the game's tile did not change");
    let labels = harness.state().state().snapshot.editing.history.labels.clone();
    assert_eq!(labels.last().map(String::as_str), Some("Paint 2 cells of art layer 'roofs' with elona.water"));

    // Hidden, the viewport draws the map without it.
    harness.state_mut().open_tab(Tab::Layers);
    harness.step();
    harness.get_by_label("Show art layer 'roofs'").click();
    harness.step();
    let drawn = harness.state_mut().state_mut().level.art.shown(&view);
    assert!(drawn.art_layers.is_empty() && drawn.chunks[0].art.is_empty(), "the hidden layer is not drawn");
    harness.get_by_label("Show art layer 'roofs'").click();
    harness.step();
    assert_eq!(harness.state_mut().state_mut().level.art.shown(&view).art_layers.len(), 1, "shown again");

    undo(&mut harness);
    step_until(&mut harness, "the stroke undone", |h| art_at(&map(h), 0, 2, 1).is_none());
    undo(&mut harness);
    step_until(&mut harness, "the layer removed", |h| map(h).art_layers.is_empty());
    assert_eq!(tile(&mut harness), game_tile);
}
