//! The Workbench pane: a generator picked shows its map in the viewport, ▶ takes the next
//! seed and tells what changed, saving the generator's file regenerates the same seed, and a
//! scan of seeds lists the seeds kept, each previewed with a click.

mod common;

use common::{editor_on, step_until};
use egui_kittest::kittest::Queryable;
use nefia_editor::context::Tab;
use nefia_editor::panes::repl::ReplState;
use nefia_tests::DemoCopy;

#[test]
fn picking_a_generator_previews_it_and_the_next_seed_and_a_hotload_show_the_change() {
    let copy = DemoCopy::new();
    let mut harness = editor_on(&copy.project(), ReplState::default());
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    harness.state_mut().open_tab(Tab::Workbench);
    step_until(&mut harness, "the generators", |h| h.query_by_label("generator").is_some());
    harness.get_by_label("generator").click();
    step_until(&mut harness, "the list", |h| h.query_by_label("elona.cave").is_some());
    // Through accesskit: kittest's pointer click in the hover's frame misses a popup's items.
    harness.get_by_label("elona.cave").click_accesskit();
    step_until(&mut harness, "the preview", |h| {
        h.state().state().snapshot.map.as_ref().is_some_and(|m| m.name == "elona.cave #0")
    });
    assert!(harness.query_by_label("param fill").is_some(), "the params' widgets, from the schema");
    step_until(&mut harness, "no problems", |h| h.query_by_label("The validators find no problem.").is_some());

    // The list stays open after an accesskit click: Escape closes it.
    harness.key_press(egui::Key::Escape);
    step_until(&mut harness, "the list closed", |h| h.query_by_label("elona.dungeon").is_none());
    assert!(harness.query_by_label("seed slider").is_some(), "a slider beside ◀ ▶");
    harness.get_by_label("▶").click();
    step_until(&mut harness, "the next seed", |h| {
        h.state().state().snapshot.preview.as_ref().is_some_and(|p| p.seed == 1 && p.generation == 2)
    });
    harness.run_steps(2);
    // Another seed is another map: no tint, no count of changes.
    assert!(harness.state().state().snapshot.preview.as_ref().is_some_and(|p| p.diff.is_none()));
    assert!(harness.query_by_label_contains("cells changed:").is_none());

    let file = copy.mod_file("elona/content/generators.lua");
    let text = std::fs::read_to_string(&file).unwrap();
    nefia_tests::write(&file, text.replacen("default = 6, min = 0, max = 200", "default = 30, min = 0, max = 200", 1))
        .unwrap();
    harness.state().host().send(nefia_protocol::message::Command::Mods(nefia_protocol::mods::ModCommand::Reload(file)));
    step_until(&mut harness, "the hotload's change, told", |h| h.query_by_label_contains("cells changed:").is_some());
    step_until(&mut harness, "the hotload's change", |h| {
        h.state()
            .state()
            .snapshot
            .preview
            .as_ref()
            .and_then(|p| p.diff.as_ref())
            .is_some_and(|d| d.tiles == 0 && d.objects > 0)
    });
    assert_eq!(harness.state().state().snapshot.preview.as_ref().map(|p| p.seed), Some(1), "the same seed");
    // Scan seeds 1 to 20 on every core, keep those whose entrance is left of x = 40.
    harness.get_by_label("Scan seeds").click_accesskit();
    step_until(&mut harness, "the scan's form", |h| h.query_by_label("Scan").is_some());
    {
        let scan = &mut harness.state_mut().panes_mut().workbench.scan;
        (scan.from, scan.to, scan.predicate) = (1, 20, "map.entrance[1] < 40".into());
    }
    // Below the pane's fold (it scrolls): clicked through accesskit.
    harness.get_by_label("Scan").click_accesskit();
    step_until(&mut harness, "the scan's result", |h| h.query_by_label_contains("of 20 seeds kept").is_some());
    let kept: Vec<i64> = match &harness.state_mut().panes_mut().workbench.scan.report {
        Some(Ok(report)) => report.matches.iter().map(|m| m.seed).collect(),
        other => panic!("{:?}", other.as_ref().map(|r| r.as_ref().map(|r| r.scanned))),
    };
    assert!(!kept.is_empty() && kept.len() < 20, "{kept:?}");
    harness.get_by_label(&kept[0].to_string()).click_accesskit();
    step_until(&mut harness, "the seed clicked, previewed", |h| {
        h.state().state().snapshot.preview.as_ref().is_some_and(|p| p.seed == kept[0])
    });
    harness.get_by_label("Close preview").click();
    step_until(&mut harness, "the town again", |h| {
        h.state().state().snapshot.preview.is_none()
            && h.state().state().snapshot.map.as_ref().is_some_and(|m| m.name == "town")
    });
}

#[test]
fn a_baked_map_regenerates_from_the_maps_pane_and_play_this_plays_the_preview() {
    let copy = DemoCopy::new();
    let mut harness = editor_on(&copy.project(), ReplState::default());
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    harness.state_mut().open_tab(Tab::Workbench);
    step_until(&mut harness, "the generators", |h| h.query_by_label("generator").is_some());
    harness.state_mut().panes_mut().workbench.generator = Some("elona.dungeon".into());
    step_until(&mut harness, "its form", |h| h.query_by_label("Generate").is_some());
    harness.get_by_label("Generate").click();
    step_until(&mut harness, "the preview", |h| h.query_by_label("Play this").is_some());

    // Play this: the game runs on the preview, zoomed in where glyphs show; Stop comes back.
    harness.get_by_label("Play this").click();
    step_until(&mut harness, "playing the preview", |h| {
        let snapshot = &h.state().state().snapshot;
        snapshot.play.playing
            && snapshot.player.is_some()
            && snapshot.map.as_ref().is_some_and(|m| m.name == "elona.dungeon #0")
    });
    step_until(&mut harness, "the zoom of play", |h| {
        h.state().state().viewport.camera.is_some_and(|c| c.zoom >= nefia_editor::render::camera::Camera::PLAY_ZOOM)
    });
    harness.state().host().send(nefia_protocol::message::Command::Play(nefia_protocol::play::PlayCommand::Stop));
    step_until(&mut harness, "the preview again", |h| {
        !h.state().state().snapshot.play.playing && h.query_by_label("Play this").is_some()
    });

    // Frames are stepped, not run to rest: the host may still be busy (a repaint is asked for
    // every 100 ms while it is), so `run` could exceed its steps on a loaded machine.
    harness.get_by_label("bake as").click();
    harness.run_steps(2);
    harness.get_by_label("bake as").type_text("level_one");
    step_until(&mut harness, "the name typed", |h| h.state_mut().panes_mut().workbench.bake_as == "level_one");
    harness.get_by_label("Bake").click();
    step_until(&mut harness, "baked", |h| {
        h.state().state().snapshot.maps.files.iter().any(|m| m.name == "level_one" && m.generated.is_some())
    });
    // Told where it went, and the workbench goes on: the same seed, its buttons still there.
    step_until(&mut harness, "the bake confirmed", |h| h.query_by_label_contains("✔ Baked to").is_some());
    assert!(harness.query_by_label_contains("level_one.ron").is_some(), "the path is named");
    assert!(harness.query_by_label("Play this").is_some() && harness.query_by_label("Bake").is_some());
    harness.state_mut().open_tab(Tab::Maps);
    step_until(&mut harness, "the Maps pane", |h| h.query_by_label("level_one").is_some());
    harness.get_by_label("level_one").click();
    step_until(&mut harness, "how it was made", |h| h.query_by_label("generated by elona.dungeon, seed 0").is_some());
    harness.get_by_label("Regenerate").click();
    step_until(&mut harness, "regenerated", |h| {
        h.state()
            .state()
            .snapshot
            .editing
            .history
            .labels
            .iter()
            .any(|l| l == "Regenerate map 'level_one' (elona.dungeon seed 0)")
    });
}

#[test]
fn the_problems_pane_lists_what_the_validators_find_as_the_map_is_painted_and_shows_the_cell() {
    let copy = DemoCopy::new();
    let mut harness = editor_on(&copy.project(), ReplState::default());
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    harness
        .state()
        .host()
        .send(nefia_protocol::message::Command::Maps(nefia_protocol::maps::MapCommand::Open("dungeon".into())));
    harness.state_mut().open_tab(Tab::Problems);
    step_until(&mut harness, "the dungeon checked", |h| {
        let snapshot = &h.state().state().snapshot;
        snapshot.map.as_ref().is_some_and(|m| m.name == "dungeon" && snapshot.maps.problems.map == Some(m.id))
            && h.query_by_label("The validators find no problem.").is_some()
    });
    let map = harness.state().state().snapshot.map.as_ref().map(|m| m.id).unwrap();
    let paint = nefia_game::edit::Edit::PaintTiles { map, cells: vec![(34, 20)], tile: "elona.wall_stone".into() };
    harness
        .state()
        .host()
        .send(nefia_protocol::message::Command::Editing(nefia_protocol::editing::EditingCommand::Edit(paint)));
    let problem = "(34, 20): elona.stairs_down stands on elona.wall_stone [base.nothing_on_walls]";
    step_until(&mut harness, "the problem listed", |h| h.query_by_label(problem).is_some());

    // Zoomed in on the top-left corner, the cell is out of view; clicking the problem shows it.
    harness.state_mut().open_tab(Tab::Viewport);
    harness.run_steps(2);
    let camera = nefia_editor::render::camera::Camera { center: egui::vec2(2.0, 2.0), zoom: 48.0 };
    harness.state_mut().state_mut().viewport.camera = Some(camera);
    harness.state_mut().open_tab(Tab::Problems);
    harness.run_steps(2);
    harness.get_by_label(problem).click();
    harness.state_mut().open_tab(Tab::Viewport);
    harness.run_steps(2);
    let state = harness.state().state();
    let (camera, rect) = (state.viewport.camera.unwrap(), state.viewport.rect.unwrap());
    assert!(rect.contains(camera.to_screen(rect, egui::vec2(34.5, 20.5))), "the cell is in view: {camera:?}");
}

#[test]
fn stopping_play_this_brings_the_preview_back_as_it_was_framed() {
    let copy = DemoCopy::new();
    let mut harness = editor_on(&copy.project(), ReplState::default());
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    harness.state_mut().open_tab(Tab::Workbench);
    step_until(&mut harness, "the generators", |h| h.query_by_label("generator").is_some());
    harness.state_mut().panes_mut().workbench.generator = Some("elona.dungeon".into());
    step_until(&mut harness, "its form", |h| h.query_by_label("Generate").is_some());
    harness.get_by_label("Generate").click();
    step_until(&mut harness, "the preview", |h| {
        h.query_by_label("Play this").is_some()
            && h.state().state().snapshot.map.as_ref().is_some_and(|m| m.name == "elona.dungeon #0")
    });
    harness.step();
    let framed = harness.state().state().viewport.camera.expect("the preview is framed");

    harness.get_by_label("Play this").click();
    step_until(&mut harness, "the zoom of play", |h| {
        h.state().state().viewport.camera.is_some_and(|c| c.zoom >= nefia_editor::render::camera::Camera::PLAY_ZOOM)
    });
    harness.state().host().send(nefia_protocol::message::Command::Play(nefia_protocol::play::PlayCommand::Stop));
    step_until(&mut harness, "the preview again", |h| {
        !h.state().state().snapshot.play.playing && h.query_by_label("Play this").is_some()
    });
    harness.step();
    let camera = harness.state().state().viewport.camera.expect("framed");
    assert_eq!((camera.center, camera.zoom), (framed.center, framed.zoom), "the preview is framed as before play");
}
