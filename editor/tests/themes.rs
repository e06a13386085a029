//! The theme picker: the viewport toolbar's Theme combo switches the active `base.theme`,
//! and the map and the palette's previews are drawn with the theme's images at once; the
//! player window's title menu has the same picker, and the theme stays for the game played.

mod common;

use common::{editor_on, eval_values, step_until};
use egui::accesskit::Role;
use egui_kittest::kittest::Queryable;
use nefia_editor::panes::repl::ReplState;
use nefia_tests::DemoCopy;

/// The sheet the editor's current map view draws cell (x, y)'s tile from.
fn sheet_at(harness: &egui_kittest::Harness<'static, nefia_editor::app::EditorApp>, x: i32, y: i32) -> Option<String> {
    let snapshot = &harness.state().state().snapshot;
    let style = snapshot.map.as_ref()?.tile_at(x, y)?;
    Some(style.art.as_ref()?.sprites[0].sheet.to_string())
}

/// The sheet the snapshot's art of the prototypes (what the Palette and the Data pane
/// preview) gives tile `id`.
fn prototype_sheet(harness: &egui_kittest::Harness<'static, nefia_editor::app::EditorApp>, id: &str) -> Option<String> {
    let art = &harness.state().state().snapshot.mods.art;
    let art = art.get(nefia_game::Symbol::intern("base.map_tile"), nefia_game::Symbol::intern(id))?;
    Some(art.sprites[0].sheet.to_string())
}

#[test]
fn the_toolbars_theme_combo_redraws_the_map_with_the_themes_images_and_back() {
    let copy = DemoCopy::with_art_mods();
    let mut harness = editor_on(&copy.project(), ReplState::default());
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    eval_values(&mut harness, "Map.current():set_tile(2, 1, 'art_walls.wall') return 1");
    step_until(&mut harness, "the wall's own art", |h| sheet_at(h, 2, 1).as_deref() == Some("tiles/walls.png"));

    let data_view = harness.state().state().snapshot.mods.data.clone();
    harness.get_by_role_and_label(Role::ComboBox, "Theme").click();
    step_until(&mut harness, "the themes", |h| h.query_by_label("Night").is_some());
    // A popup's first frame measures it; it is in place from the next.
    harness.run_steps(2);
    harness.get_by_label("Night").click();
    step_until(&mut harness, "the night theme's art", |h| sheet_at(h, 2, 1).as_deref() == Some("tiles/night.png"));
    assert_eq!(*harness.state().state().snapshot.mods.active_themes, ["art_night.night"]);
    assert_eq!(
        prototype_sheet(&harness, "art_walls.wall").as_deref(),
        Some("tiles/night.png"),
        "the prototypes' previews' too"
    );
    let now = &harness.state().state().snapshot.mods.data;
    assert!(std::sync::Arc::ptr_eq(&data_view, now), "a theme switch makes the art again, not the data view");

    harness.get_by_role_and_label(Role::ComboBox, "Theme").click();
    step_until(&mut harness, "the choices", |h| h.query_by_label("Default art").is_some());
    harness.run_steps(2);
    harness.get_by_label("Default art").click();
    step_until(&mut harness, "the wall's own art again", |h| sheet_at(h, 2, 1).as_deref() == Some("tiles/walls.png"));
}

#[test]
fn the_player_windows_title_menu_picks_the_theme_the_game_is_drawn_with() {
    use nefia_editor::player::PlayerApp;
    let copy = DemoCopy::with_art_mods();
    let app = PlayerApp::new(&egui::Context::default(), copy.project());
    let mut harness = egui_kittest::Harness::builder()
        .with_size([1024.0, 768.0])
        .build_ui_state(|ui, app: &mut PlayerApp| app.ui(ui), app);
    step_until(&mut harness, "the title menu's theme picker", |h| {
        h.query_by_role_and_label(Role::ComboBox, "Theme").is_some()
    });
    harness.get_by_role_and_label(Role::ComboBox, "Theme").click();
    step_until(&mut harness, "the themes", |h| h.query_by_label("Night").is_some());
    harness.run_steps(2);
    harness.get_by_label("Night").click();
    step_until(&mut harness, "the night theme", |h| *h.state().snapshot().mods.active_themes == ["art_night.night"]);

    harness.get_by_label("New game").click();
    step_until(&mut harness, "a new game", |h| h.state().snapshot().play.playing);
    assert_eq!(*harness.state().snapshot().mods.active_themes, ["art_night.night"], "the game keeps the theme");
}
