//! File → Import map…: the dialog shows each source tile's picture beside its entry, has a
//! file browser, remembers the paths of the last import, and opens the imported map.

mod common;

use common::{editor_on, fill, step_until};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use nefia_editor::app::EditorApp;
use nefia_editor::panes::repl::ReplState;
use nefia_tests::DemoCopy;

fn open_dialog(harness: &mut Harness<'static, EditorApp>) {
    harness.get_by_label("File").click();
    harness.run_steps(2);
    harness.get_by_label("Import map…").click();
    harness.run_steps(3);
}

#[test]
fn the_import_dialog_shows_the_tiles_pictures_browses_remembers_and_opens_the_imported_map() {
    let copy = DemoCopy::new();
    let work = tempfile::tempdir().unwrap();
    let fixtures = nefia_tests::repo_root().join("tests/fixtures/tiled");
    for file in ["desert.tmx", "desert.tsx", "tmw_desert_spacing.png"] {
        std::fs::copy(fixtures.join(file), work.path().join(file)).unwrap();
    }
    let source = work.path().join("desert.tmx");
    let mut harness = editor_on(&copy.project(), ReplState::default());
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());

    // The file browser picks the map file from its folder.
    open_dialog(&mut harness);
    fill(&mut harness, "map file to import", &work.path().join("nothing-yet.tmx").display().to_string());
    harness.get_by_label("Browse…").click();
    harness.run_steps(2);
    harness.get_by_label("desert.tmx").click();
    harness.run_steps(3);
    let field = harness.get_by_label("map file to import");
    assert_eq!(field.value().as_deref(), Some(source.display().to_string().as_str()), "picked in the browser");

    // Each tile the mapping lists with its picture, numbered as the template numbers them.
    let sources = nefia_game::exchange::read(&source).unwrap();
    let listed = nefia_game::exchange::template_pictures(&sources, &Default::default());
    let pictured = listed.iter().filter(|(_, p)| p.is_some()).count();
    assert!(pictured > 10, "the desert's tiles have pictures");
    step_until(&mut harness, "the pictures", |h| h.query_all_by_label_contains("tile picture").count() > 0);
    assert_eq!(harness.query_all_by_label_contains("tile picture").count(), pictured, "one picture per tile");
    assert!(harness.query_by_label("tile picture 1").is_some());

    // New tiles into a loaded mod: the map is imported with its art and opened.
    fill(&mut harness, "new tiles mod", "tools");
    harness.get_by_label("Import").click();
    step_until(&mut harness, "the imported map open", |h| {
        h.state().state().snapshot.map.as_ref().is_some_and(|m| m.name == "desert")
    });
    assert!(copy.project().join("maps/desert.ron").exists());
    let map = harness.state().state().snapshot.map.clone().unwrap();
    assert!(
        map.tile_styles.iter().any(|s| s.id.as_str().starts_with("tools.desert_") && s.art.is_some()),
        "the new tiles are drawn as their pictures: {:?}",
        map.tile_styles.iter().map(|s| (s.id, s.art.is_some())).collect::<Vec<_>>()
    );

    // The dialog opens again with the last import's paths.
    open_dialog(&mut harness);
    let field = harness.get_by_label("map file to import");
    assert_eq!(field.value().as_deref(), Some(source.display().to_string().as_str()), "remembered");
    assert_eq!(harness.get_by_label("new tiles mod").value().as_deref(), Some("tools"));
}
