//! The editor, driven headless with egui_kittest: the dock and its panes, the viewport's
//! drawing, prompts answered by mouse and keyboard, and widgets added from Lua.

mod common;

use std::time::{Duration, Instant};

use common::{editor, eval, result, sprites_shown, step_until};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use nefia_editor::app::EditorApp;
use nefia_editor::context::Tab;
use nefia_protocol::repl::Evaluation;
use nefia_tests::repo_root;
use strum::IntoEnumIterator;

#[test]
fn the_dock_has_every_pane_and_each_shows() {
    let mut harness = editor();
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    let tabs: Vec<Tab> = harness.state_mut().dock_mut().iter_all_tabs().map(|(_, tab)| *tab).collect();
    for tab in Tab::iter() {
        assert!(tabs.contains(&tab), "{tab:?} missing from the default layout");
    }
    for (tab, label) in [(Tab::Prototypes, "Search:"), (Tab::Layers, "UI layers"), (Tab::Log, "Filter:")] {
        harness.state_mut().open_tab(tab);
        harness.step();
        assert!(harness.query_by_label(label).is_some(), "{tab:?} shows {label}");
    }
    harness.state_mut().open_tab(Tab::Prototypes);
    harness.step();
    assert!(harness.query_by_label_contains("base.chara").is_some(), "the prototypes list the data types");
}

#[test]
fn the_viewport_draws_the_demo_map() {
    let mut harness = editor();
    step_until(&mut harness, "a drawn frame", |h| !h.state().state().viewport.report.objects.is_empty());
    let report = &harness.state().state().viewport.report;
    assert!(!report.overview, "the small demo map is drawn with glyphs");
    assert!(!report.objects.iter().any(|o| o.cell == (16, 10)), "editing: no player yet: {:?}", report.objects);
    assert!(report.objects.iter().any(|o| o.glyph == "p"), "putits");
    assert_eq!(report.sprites, 32 * 20 + 10, "every cell of the town and its ten objects are drawn from assets/");
    assert!(harness.query_by_label_contains("Map: town").is_some(), "the status bar names the map");
    harness.key_press(egui::Key::F5);
    step_until(&mut harness, "the player drawn", |h| {
        h.state().state().viewport.report.objects.iter().any(|o| o.cell == (16, 10) && o.glyph == "@")
    });
    assert!(harness.query_by_label_contains("playing").is_some(), "the status bar says so");
}

#[test]
fn the_ascii_checkbox_draws_glyphs_in_place_of_sprites() {
    let mut harness = editor();
    step_until(&mut harness, "the fountain's sprite", |h| h.state().state().viewport.report.sprites > 0);
    let glyphs = harness.state().state().viewport.report.glyphs;
    harness.get_by_label("ASCII").click();
    step_until(&mut harness, "the ASCII view", |h| h.state().state().viewport.toggles.ascii);
    harness.step();
    let report = &harness.state().state().viewport.report;
    assert_eq!(report.sprites, 0, "no sprite in the ASCII view");
    assert!(report.glyphs > glyphs, "the fountain is its glyph: {} glyphs, {glyphs} before", report.glyphs);
    harness.get_by_label("ASCII").click();
    step_until(&mut harness, "the sprites back", |h| h.state().state().viewport.report.sprites > 0);
}

/// How many sprites (meshes of a texture other than the fonts') the last frame showed to the
/// left of the row labelled with `label`, level with it: a palette row's preview.
fn sprites_left_of(harness: &Harness<'static, EditorApp>, label: &str) -> usize {
    let row = harness.get_by_label_contains(label).rect();
    sprites_shown(harness, |bounds| bounds.max.x <= row.min.x + 1.0 && row.y_range().contains(bounds.center().y)).len()
}

#[test]
fn the_palette_previews_each_tile_and_object_with_its_sprite_and_with_glyphs_in_the_ascii_view() {
    let mut harness = editor();
    step_until(&mut harness, "the palette's tiles", |h| h.query_by_label_contains("elona.grass\n").is_some());
    harness.step();
    for row in ["elona.grass\n", "elona.putit\n"] {
        assert_eq!(sprites_left_of(&harness, row), 1, "{row:?} is previewed with its sprite");
    }
    assert_eq!(sprites_left_of(&harness, "base.floor\n"), 0, "base's floor has no image: its glyph");
    harness.get_by_label("ASCII").click();
    step_until(&mut harness, "the ASCII view", |h| h.state().state().viewport.toggles.ascii);
    harness.step();
    assert_eq!(sprites_left_of(&harness, "elona.grass\n"), 0, "the ASCII view previews glyphs");
}

#[test]
fn a_prompt_from_lua_is_answered_by_a_click_and_escape_cancels() {
    let mut harness = editor();
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    let asked = eval(&mut harness, "local c = Prompt:new({'Yes', 'No'}):query() return c.index");
    step_until(&mut harness, "the prompt", |h| h.query_by_label("No").is_some());
    assert!(harness.query_by_label_contains("Runtime: in query").is_some());
    harness.get_by_label("No").click();
    step_until(&mut harness, "the answer", |h| result(h, asked).is_some());
    assert_eq!(result(&harness, asked), Some(Evaluation::Values(vec!["2".into()])));

    let canceled = eval(&mut harness, "local c, canceled = Prompt:new({'Yes', 'No'}):query() return canceled");
    step_until(&mut harness, "the second prompt", |h| h.query_by_label("Yes").is_some());
    harness.key_press(egui::Key::Escape);
    step_until(&mut harness, "the cancel", |h| result(h, canceled).is_some());
    assert_eq!(result(&harness, canceled), Some(Evaluation::Values(vec!["true".into()])));
    step_until(&mut harness, "the prompt to close", |h| h.query_by_label("Yes").is_none());
}

#[test]
fn a_widget_added_from_lua_appears_over_the_map() {
    let mut harness = editor();
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    eval(
        &mut harness,
        "Gui.add_widget('test.banner', { anchor = 'top', width = 200, height = 20, show_while_editing = true, draw = function(self, d) d:text(0, 0, 'Hello HUD') end })",
    );
    step_until(&mut harness, "the widget", |h| {
        h.state().state().viewport.report.widgets.iter().any(|w| w == "test.banner")
    });
    harness.state_mut().open_tab(Tab::Layers);
    harness.step();
    assert!(harness.query_by_label("test.banner (Top)").is_some(), "the Layers pane lists it");
}

#[test]
fn a_long_lua_loop_does_not_freeze_the_window_and_shows_busy() {
    let mut harness = editor();
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    let long = eval(&mut harness, "local n = 0 for i = 1, 3e8 do n = n + 1 end return n");
    let started = Instant::now();
    step_until(&mut harness, "the busy status", |h| h.query_by_label("Runtime: busy").is_some());
    let frames_while_busy = {
        let mut frames = 0;
        while result(&harness, long).is_none() && frames < 20 {
            harness.step();
            frames += 1;
        }
        frames
    };
    assert!(frames_while_busy > 0, "the window kept drawing while Lua ran");
    step_until(&mut harness, "the loop to end", |h| result(h, long).is_some());
    assert!(started.elapsed() > Duration::from_millis(150), "the loop was long enough to matter");
    step_until(&mut harness, "the status to recover", |h| h.query_by_label("Runtime: running").is_some());
}

/// An in-memory eframe storage.
#[derive(Default)]
struct MemoryStorage(std::collections::HashMap<String, String>);

impl eframe::Storage for MemoryStorage {
    fn get_string(&self, key: &str) -> Option<String> {
        self.0.get(key).cloned()
    }

    fn set_string(&mut self, key: &str, value: String) {
        self.0.insert(key.to_owned(), value);
    }

    fn remove_string(&mut self, key: &str) {
        self.0.remove(key);
    }

    fn flush(&mut self) {}
}

#[test]
fn the_layout_is_saved_restored_and_reset() {
    let mut storage = MemoryStorage::default();
    {
        let mut app = EditorApp::recording(&egui::Context::default(), repo_root().join("projects/demo"), None, false);
        let path = app.dock_mut().find_tab(&Tab::Layers).expect("the default layout has Layers");
        app.dock_mut().remove_tab(path);
        eframe::App::save(&mut app, &mut storage);
    }
    let mut app =
        EditorApp::recording(&egui::Context::default(), repo_root().join("projects/demo"), Some(&storage), false);
    assert!(app.dock_mut().find_tab(&Tab::Layers).is_none(), "the closed pane stays closed");
    assert!(app.dock_mut().find_tab(&Tab::Inspector).is_some());
    let mut harness =
        Harness::builder().with_size([1280.0, 800.0]).build_ui_state(|ui, app: &mut EditorApp| app.ui(ui), app);
    harness.get_by_label("View").click();
    harness.step();
    harness.get_by_label("Reset layout").click();
    harness.step();
    assert!(harness.state_mut().dock_mut().find_tab(&Tab::Layers).is_some(), "reset brings it back");
}

#[test]
fn a_panic_in_the_runtime_shows_in_the_status_bar_and_the_editor_goes_on() {
    let mut harness = editor();
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    eval(&mut harness, "Fault.panic('boom from a test')");
    step_until(&mut harness, "the fault shown", |h| h.query_by_label_contains("recovered from a panic").is_some());
    assert!(harness.query_by_label_contains("Runtime: running").is_some(), "not busy, not stopped");
    let asked = eval(&mut harness, "return 6 * 7");
    step_until(&mut harness, "the next answer", |h| result(h, asked).is_some());
    assert_eq!(result(&harness, asked), Some(Evaluation::Values(vec!["42".into()])), "the runtime goes on");
}

#[test]
fn the_help_window_lists_the_shortcuts_of_the_action_table() {
    let mut harness = editor();
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    harness.get_by_label("Help").click();
    harness.step();
    harness.get_by_label("Keyboard and mouse").click();
    harness.step();
    harness.step();
    for action in nefia_editor::commands::Action::all() {
        let info = action.info();
        if info.shortcuts.is_empty() || matches!(action, nefia_editor::commands::Action::BrushSize(_)) {
            continue;
        }
        assert!(harness.query_all_by_label(info.label).next().is_some(), "{:?} is listed as {:?}", action, info.label);
    }
    assert!(harness.query_by_label("Ctrl+Shift+S").is_some(), "with its keys");
}

#[test]
fn the_help_window_lists_the_games_keybinds_and_searches() {
    let mut harness = editor();
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    harness.get_by_label("Help").click();
    harness.step();
    harness.get_by_label("Keyboard and mouse").click();
    step_until(&mut harness, "the game's keys", |h| h.query_by_label("Pick up").is_some());
    assert!(harness.query_by_label("g, comma").is_some(), "with its keys, from elona.pick_up");
    assert!(harness.query_by_label("Move north").is_some() && harness.query_by_label("up, 8, k").is_some());
    // The long gesture line is whole, wrapped in its column (190 points wide), not cut.
    let gesture = harness.get_by_label("Arrows, Enter, Escape, a/b/c…").rect();
    assert!(gesture.width() <= 191.0, "kept to the keys' column: {gesture:?}");

    harness.get_by_label("search keys").focus();
    harness.step();
    harness.get_by_label("search keys").type_text("stairs");
    step_until(&mut harness, "the search applied", |h| h.query_by_label("Pick up").is_none());
    assert!(harness.query_by_label("Take the stairs").is_some(), "the game's stairs key is found");
    assert!(harness.query_by_label("enter, shift+period, shift+comma").is_some());
}
