//! The level editor, driven headless: painting with each tool, placing, moving, erasing and
//! copying objects, undoing a stroke, the Maps pane and saving maps as files.

mod common;

use common::{cell_center, click_at, drag_cells, editor_on, eval_values, step_until};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use nefia_editor::app::EditorApp;
use nefia_editor::context::Tab;
use nefia_editor::context::Tool;
use nefia_editor::panes::repl::ReplState;
use nefia_tests::DemoCopy;

/// An editor on a copy of the demo (files may change), its map drawn.
fn level_editor(copy: &DemoCopy) -> Harness<'static, EditorApp> {
    let mut harness = editor_on(&copy.project(), ReplState::default());
    step_until(&mut harness, "a drawn map", |h| h.state().state().viewport.rect.is_some());
    harness
}

fn tile(harness: &mut Harness<'static, EditorApp>, x: i32, y: i32) -> String {
    eval_values(harness, &format!("Map.current():tile({x}, {y})")).remove(0)
}

/// Picks a palette entry by its id, searching for it first as a user would in a long list.
fn pick(harness: &mut Harness<'static, EditorApp>, id: &str) {
    harness.state_mut().open_tab(Tab::Palette);
    harness.state_mut().state_mut().level.search = (id.to_owned(), id.to_owned());
    harness.step();
    harness.get_by_label_contains(&format!("{id}\n")).click();
    harness.step();
}

fn tool(harness: &mut Harness<'static, EditorApp>, tool: Tool) {
    harness.get_by_label(tool.name()).click();
    harness.step();
    assert_eq!(harness.state().state().level.tool, tool);
}

/// Waits until the runtime has answered everything sent so far (an eval goes after it).
fn settle(harness: &mut Harness<'static, EditorApp>) {
    eval_values(harness, "true");
}

#[test]
fn a_brush_stroke_paints_live_and_undoes_as_one_step() {
    let copy = DemoCopy::new();
    let mut harness = level_editor(&copy);
    pick(&mut harness, "elona.water");
    assert_eq!(harness.state().state().level.tool, Tool::Brush, "picking a tile takes the brush");
    drag_cells(&mut harness, &[(2, 1), (4, 1), (6, 1)]);
    settle(&mut harness);
    for x in 2..=6 {
        assert_eq!(tile(&mut harness, x, 1), "\"elona.water\"", "cell ({x}, 1)");
    }
    let history = harness.state().state().snapshot.editing.history.clone();
    assert_eq!(history.labels.len(), 1, "{:?}", history.labels);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    harness.step();
    settle(&mut harness);
    for x in 2..=6 {
        assert_eq!(tile(&mut harness, x, 1), "\"elona.grass\"", "cell ({x}, 1) back");
    }
}

#[test]
fn rectangle_line_fill_and_eyedropper() {
    let copy = DemoCopy::new();
    let mut harness = level_editor(&copy);
    pick(&mut harness, "elona.floor_stone");
    tool(&mut harness, Tool::Rect);
    drag_cells(&mut harness, &[(2, 2), (3, 3)]);
    settle(&mut harness);
    let painted = eval_values(
        &mut harness,
        "local n = 0 for y = 1, 4 do for x = 1, 4 do if Map.current():tile(x, y) == 'elona.floor_stone' then n = n + 1 end end end return n",
    );
    assert_eq!(painted, ["4"], "a 2×2 rectangle");

    tool(&mut harness, Tool::Line);
    drag_cells(&mut harness, &[(20, 16), (22, 17), (24, 18)]);
    settle(&mut harness);
    assert_eq!(tile(&mut harness, 20, 16), "\"elona.floor_stone\"");
    assert_eq!(tile(&mut harness, 24, 18), "\"elona.floor_stone\"");
    assert_eq!(tile(&mut harness, 24, 16), "\"elona.grass\"", "only the line");

    pick(&mut harness, "elona.water");
    tool(&mut harness, Tool::Fill);
    let floor = cell_center(&harness, 6, 5);
    click_at(&mut harness, floor, egui::Modifiers::NONE);
    settle(&mut harness);
    assert_eq!(tile(&mut harness, 10, 7), "\"elona.water\"", "the house floor filled");
    assert_eq!(tile(&mut harness, 4, 4), "\"elona.wall_stone\"");

    tool(&mut harness, Tool::Eyedropper);
    let grass = cell_center(&harness, 1, 1);
    click_at(&mut harness, grass, egui::Modifiers::NONE);
    assert_eq!(harness.state().state().level.tile.map(|t| t.to_string()).as_deref(), Some("elona.grass"));
    // Right-click picks with a painting tool too.
    tool(&mut harness, Tool::Brush);
    let wall = cell_center(&harness, 0, 0);
    harness.hover_at(wall);
    harness.event(egui::Event::PointerButton {
        pos: wall,
        button: egui::PointerButton::Secondary,
        pressed: true,
        modifiers: egui::Modifiers::NONE,
    });
    harness.event(egui::Event::PointerButton {
        pos: wall,
        button: egui::PointerButton::Secondary,
        pressed: false,
        modifiers: egui::Modifiers::NONE,
    });
    harness.step();
    assert_eq!(harness.state().state().level.tile.map(|t| t.to_string()).as_deref(), Some("elona.wall_stone"));
}

fn putits_at(harness: &mut Harness<'static, EditorApp>, x: i32, y: i32) -> usize {
    let code = format!(
        "local n = 0 for _, o in Map.current():objects_at_pos({x}, {y}) do if o._id == 'elona.putit' then n = n + 1 end end return n"
    );
    eval_values(harness, &code)[0].parse().unwrap()
}

#[test]
fn objects_are_placed_dragged_duplicated_deleted_and_erased() {
    let copy = DemoCopy::new();
    let mut harness = level_editor(&copy);
    pick(&mut harness, "elona.putit");
    assert_eq!(harness.state().state().level.tool, Tool::Place);
    let cell = cell_center(&harness, 3, 3);
    click_at(&mut harness, cell, egui::Modifiers::NONE);
    settle(&mut harness);
    assert_eq!(putits_at(&mut harness, 3, 3), 1, "placed");

    tool(&mut harness, Tool::Select);
    click_at(&mut harness, cell, egui::Modifiers::NONE);
    step_until(&mut harness, "the selection's details", |h| !h.state().state().snapshot.editing.inspected.is_empty());
    drag_cells(&mut harness, &[(3, 3), (5, 4), (6, 5)]);
    settle(&mut harness);
    assert_eq!((putits_at(&mut harness, 3, 3), putits_at(&mut harness, 6, 5)), (0, 1), "dragged by (3, 2)");

    step_until(&mut harness, "the moved putit's details", |h| {
        h.state().state().snapshot.editing.inspected.iter().any(|o| (o.x, o.y) == (6, 5))
    });
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::D);
    harness.step();
    settle(&mut harness);
    assert_eq!(putits_at(&mut harness, 6, 5), 2, "Ctrl+D duplicates in place");
    harness.key_press(egui::Key::Delete);
    harness.step();
    settle(&mut harness);
    assert_eq!(putits_at(&mut harness, 6, 5), 1, "Delete removes the selection");

    tool(&mut harness, Tool::Erase);
    let at = cell_center(&harness, 6, 5);
    click_at(&mut harness, at, egui::Modifiers::NONE);
    settle(&mut harness);
    assert_eq!(putits_at(&mut harness, 6, 5), 0, "erased");
}

#[test]
fn a_region_copies_to_another_map() {
    let copy = DemoCopy::new();
    let mut harness = level_editor(&copy);
    // Box-select the putits' corner of the town, and copy it.
    drag_cells(&mut harness, &[(24, 3), (26, 5), (28, 7)]);
    settle(&mut harness);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::C);
    harness.step();
    step_until(&mut harness, "the copy", |h| h.state().state().level.clip.is_some());
    let clip = harness.state().state().level.clip.clone().unwrap();
    assert_eq!((clip.width, clip.height, clip.objects.len()), (5, 5, 2));

    harness
        .state_mut()
        .state_mut()
        .outbox
        .push(nefia_protocol::message::Command::Maps(nefia_protocol::maps::MapCommand::Open("dungeon".into())));
    step_until(&mut harness, "the dungeon", |h| {
        h.state().state().snapshot.map.as_ref().is_some_and(|m| m.name == "dungeon")
    });
    let target = cell_center(&harness, 2, 2);
    harness.hover_at(target);
    harness.step();
    harness.step();
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::V);
    harness.step();
    settle(&mut harness);
    assert_eq!(putits_at(&mut harness, 3, 3), 1, "the putit from (25, 4) lands at (3, 3)");
    assert_eq!(tile(&mut harness, 2, 2), "\"elona.grass\"", "with its tiles");
}

#[test]
fn saving_marks_clean_and_an_unchanged_map_saves_byte_for_byte() {
    let copy = DemoCopy::new();
    let path = copy.project().join("maps/town.ron");
    let original = std::fs::read(&path).unwrap();
    let mut harness = level_editor(&copy);
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    harness.step();
    settle(&mut harness);
    assert_eq!(std::fs::read(&path).unwrap(), original, "unchanged: identical bytes");

    pick(&mut harness, "elona.water");
    let cell = cell_center(&harness, 1, 1);
    click_at(&mut harness, cell, egui::Modifiers::NONE);
    settle(&mut harness);
    harness.state_mut().open_tab(Tab::Maps);
    step_until(&mut harness, "the unsaved mark", |h| h.query_by_label("town • (start)").is_some());
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    harness.step();
    step_until(&mut harness, "the mark gone", |h| h.query_by_label("town (start)").is_some());
    let saved = std::fs::read_to_string(&path).unwrap();
    assert!(saved.contains("\"#~,,,"), "the painted cell is in the file:\n{saved}");
    assert_eq!(std::fs::read(path.with_extension("ron.bak")).unwrap(), original, "the old file is kept");
}

#[test]
fn ctrl_s_saves_while_the_repl_input_has_the_keyboard_and_undoing_to_the_save_point_clears_the_mark() {
    let copy = DemoCopy::new();
    let path = copy.project().join("maps/town.ron");
    let mut harness = level_editor(&copy);
    pick(&mut harness, "elona.water");
    let cell = cell_center(&harness, 1, 1);
    click_at(&mut harness, cell, egui::Modifiers::NONE);
    settle(&mut harness);
    let dirty = |h: &Harness<'static, EditorApp>| h.state().state().snapshot.maps.files.iter().any(|f| f.dirty);
    step_until(&mut harness, "the unsaved mark", |h| dirty(h));

    // The REPL input has the keyboard, with text in it: Ctrl+S still saves, the text stays.
    harness.state_mut().open_tab(Tab::Repl);
    harness.step();
    harness.get_by_label("REPL input").click();
    harness.step();
    harness.get_by_label("REPL input").type_text("1 +");
    harness.step();
    assert!(harness.get_by_label("REPL input").is_focused());
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    step_until(&mut harness, "saved from the REPL", |h| !dirty(h));
    assert!(std::fs::read_to_string(&path).unwrap().contains("\"#~,,,"), "the painted cell is in the file");
    assert_eq!(harness.state().panes().repl.input, "1 +", "the typing is kept");

    // Away from the save point and back: the mark follows the contents, not the count of changes.
    let undo = nefia_protocol::message::Command::Editing(nefia_protocol::editing::EditingCommand::Undo);
    let redo = nefia_protocol::message::Command::Editing(nefia_protocol::editing::EditingCommand::Redo);
    harness.state().host().send(undo);
    step_until(&mut harness, "unsaved after undoing the saved stroke", |h| dirty(h));
    harness.state().host().send(redo);
    step_until(&mut harness, "clean again back at the save point", |h| !dirty(h));
    harness.state_mut().open_tab(Tab::Maps);
    step_until(&mut harness, "no mark in Maps", |h| h.query_by_label("town (start)").is_some());
}

#[test]
fn the_maps_pane_lists_a_file_copied_into_maps_and_marks_the_open_map_whose_file_went() {
    let copy = DemoCopy::new();
    let maps = copy.project().join("maps");
    let mut harness = level_editor(&copy);
    harness.state_mut().open_tab(Tab::Maps);
    step_until(&mut harness, "the maps listed", |h| h.query_by_label("town (start)").is_some());
    std::fs::copy(maps.join("dungeon.ron"), maps.join("cellar.ron")).unwrap();
    step_until(&mut harness, "the new file listed", |h| h.query_by_label("cellar").is_some());
    harness.get_by_label("cellar").click();
    step_until(&mut harness, "it opens", |h| {
        h.state().state().snapshot.map.as_ref().is_some_and(|m| m.name == "cellar")
    });

    std::fs::remove_file(maps.join("cellar.ron")).unwrap();
    step_until(&mut harness, "the mark", |h| h.query_by_label("cellar • (file removed)").is_some());
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::S);
    step_until(&mut harness, "saved again", |h| h.query_by_label("cellar").is_some());
    assert!(maps.join("cellar.ron").exists(), "Ctrl+S wrote the file again");
}

#[test]
fn the_maps_pane_makes_renames_and_deletes_maps_and_marks_unknown_ids() {
    let copy = DemoCopy::new();
    let odd = "(\n    name: \"odd\",\n    width: 2,\n    height: 1,\n    palette: {\n        \".\": \"elona.floor_stone\",\n    },\n    tiles: [\n        \"..\",\n    ],\n    objects: [\n        (kind: chara, id: \"elona.nope\", x: 1, y: 0),\n    ],\n)\n";
    nefia_tests::write(copy.project().join("maps/odd.ron"), odd).unwrap();
    let mut harness = level_editor(&copy);
    harness.state_mut().open_tab(Tab::Maps);
    harness.step();
    harness.get_by_label("odd").click();
    step_until(&mut harness, "odd open", |h| h.state().state().snapshot.map.as_ref().is_some_and(|m| m.name == "odd"));
    let map = harness.state().state().snapshot.map.clone().unwrap();
    assert_eq!(map.unresolved.len(), 1, "the unknown character is marked on the map");
    step_until(&mut harness, "the mark", |h| h.query_by_label("odd ⚠").is_some());
    step_until(&mut harness, "the problem listed", |h| {
        h.query_by_label("maps/odd.ron:12: unknown base.chara id 'elona.nope' at (1, 0)").is_some()
    });

    harness.get_by_label("New map…").click();
    // A new window is placed over a couple of frames.
    harness.run_steps(3);
    harness.get_by_label("map name").click();
    harness.step();
    harness.get_by_label("map name").type_text("cellar");
    harness.step();
    harness.get_by_label("Create").click();
    step_until(&mut harness, "the new map", |h| {
        h.state().state().snapshot.map.as_ref().is_some_and(|m| m.name == "cellar")
    });
    harness.step();
    harness.get_by_label("cellar •").click();
    harness.step();
    harness.get_by_label("Save").click();
    step_until(&mut harness, "the file", |_| copy.project().join("maps/cellar.ron").is_file());

    harness.get_by_label("Rename…").click();
    harness.run_steps(3);
    harness.get_by_label("new name").click();
    harness.key_combination_modifiers(egui::Modifiers::COMMAND, &[egui::Key::A]);
    harness.get_by_label("new name").type_text("vault");
    harness.step();
    harness.get_by_label("Rename").click();
    step_until(&mut harness, "the renamed file", |_| copy.project().join("maps/vault.ron").is_file());
    assert!(!copy.project().join("maps/cellar.ron").exists());
    // The file is renamed before the runtime's next snapshot lists the map under its new name.
    step_until(&mut harness, "the renamed map listed", |h| h.query_by_label("Delete…").is_some());

    harness.get_by_label("Delete…").click();
    harness.run_steps(3);
    harness.get_by_label("Delete").click();
    step_until(&mut harness, "the deletion", |_| !copy.project().join("maps/vault.ron").exists());
    assert!(copy.project().join("maps/vault.ron.bak").is_file());
    step_until(&mut harness, "the list without it", |h| {
        h.state().state().snapshot.maps.files.iter().all(|m| m.name != "vault")
    });
}

#[test]
fn quitting_with_unsaved_maps_asks_and_can_save_first() {
    let copy = DemoCopy::new();
    let mut harness = level_editor(&copy);
    pick(&mut harness, "elona.water");
    let cell = cell_center(&harness, 2, 2);
    click_at(&mut harness, cell, egui::Modifiers::NONE);
    step_until(&mut harness, "the unsaved map", |h| h.state().state().snapshot.maps.files.iter().any(|m| m.dirty));
    let close = |harness: &mut Harness<'static, EditorApp>| {
        harness
            .input_mut()
            .viewports
            .entry(egui::ViewportId::ROOT)
            .or_default()
            .events
            .push(egui::ViewportEvent::Close);
        harness.step();
    };
    let commands = |harness: &Harness<'static, EditorApp>| {
        harness.output().viewport_output.get(&egui::ViewportId::ROOT).map(|v| v.commands.clone()).unwrap_or_default()
    };
    close(&mut harness);
    assert!(commands(&harness).contains(&egui::ViewportCommand::CancelClose), "the window stays open");
    harness.run_steps(3);
    assert!(harness.query_by_label_contains("These maps have unsaved changes: town").is_some());
    harness.get_by_label("Save all and quit").click();
    let closed = std::cell::Cell::new(false);
    step_until(&mut harness, "the save and the close", |h| {
        closed.set(closed.get() || commands(h).contains(&egui::ViewportCommand::Close));
        closed.get()
    });
    assert!(std::fs::read_to_string(copy.project().join("maps/town.ron")).unwrap().contains("\"#,~,"), "saved first");
}

#[test]
fn a_new_project_is_made_and_opened() {
    let copy = DemoCopy::new();
    let mut harness = level_editor(&copy);
    let dir = copy.root.path().join("projects/caves");
    harness.get_by_label("File").click();
    harness.run_steps(2);
    harness.get_by_label("New project…").click();
    harness.run_steps(3);
    for (field, text) in [("project folder", dir.display().to_string()), ("project name", "Caves".to_owned())] {
        harness.get_by_label(field).click();
        harness.step();
        harness.key_combination_modifiers(egui::Modifiers::COMMAND, &[egui::Key::A]);
        harness.get_by_label(field).type_text(&text);
        harness.step();
    }
    harness.get_by_label("Create").click();
    step_until(&mut harness, "the new project open", |h| h.state().state().snapshot.project == "Caves");
    assert!(dir.join("project.ron").is_file() && dir.join("maps").is_dir());
    assert_eq!(harness.state().project_dir(), dir.as_path());
    assert!(harness.state().state().snapshot.mods.loaded.contains(&"elona".to_owned()), "the demo's mods load");
}

#[test]
fn opening_a_project_with_unsaved_maps_asks_and_saves_or_discards() {
    let copy = DemoCopy::new();
    let mut harness = level_editor(&copy);
    let town = copy.project().join("maps/town.ron");
    let saved = std::fs::read_to_string(&town).unwrap();
    fn unsaved(h: &mut Harness<'static, EditorApp>) -> bool {
        h.state().state().snapshot.maps.files.iter().any(|m| m.dirty)
    }
    let paint = |harness: &mut Harness<'static, EditorApp>| {
        eval_values(harness, "Map.current():set_tile(2, 2, 'elona.water')");
        step_until(harness, "the unsaved map", unsaved);
    };
    let reopen = |harness: &mut Harness<'static, EditorApp>| {
        harness.state_mut().state_mut().requests.push(nefia_editor::context::AppRequest::OpenProject(copy.project()));
        harness.run_steps(2);
    };
    // Discarding: the project opens again from its files, the edit gone.
    paint(&mut harness);
    reopen(&mut harness);
    assert!(harness.query_by_label_contains("These maps have unsaved changes: town").is_some(), "asked first");
    harness.get_by_label("Open without saving").click_accesskit();
    harness.step();
    step_until(&mut harness, "the reopened project", |h| h.state().state().snapshot.map.is_some() && !unsaved(h));
    assert_eq!(tile(&mut harness, 2, 2), "\"elona.grass\"", "the edit was discarded, as chosen");
    assert_eq!(std::fs::read_to_string(&town).unwrap(), saved);
    // Saving first: the file has the edit, and the project opens with it.
    paint(&mut harness);
    reopen(&mut harness);
    harness.get_by_label("Save all and open").click_accesskit();
    step_until(&mut harness, "the save, then the reopened project", |h| {
        std::fs::read_to_string(&town).unwrap() != saved && h.state().state().snapshot.map.is_some() && !unsaved(h)
    });
    step_until(&mut harness, "the map after the reopen", |h| h.state().state().snapshot.map.is_some());
    assert_eq!(tile(&mut harness, 2, 2), "\"elona.water\"", "saved, then opened with it");
}

/// File → Import map…: a Tiled map brought into the project; the first try writes the mapping
/// to fill, the second (the mapping filled) lists the map in the Maps pane.
#[test]
fn file_import_map_writes_the_mapping_to_fill_then_imports_the_map() {
    let copy = DemoCopy::new();
    let work = tempfile::tempdir().unwrap();
    let fixtures = nefia_tests::repo_root().join("tests/fixtures/tiled");
    for file in ["desert.tmx", "desert.tsx"] {
        std::fs::copy(fixtures.join(file), work.path().join(file)).unwrap();
    }
    let source = work.path().join("desert.tmx");
    let mut harness = editor_on(&copy.project(), ReplState::default());
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    let import = |harness: &mut Harness<'static, EditorApp>| {
        harness.get_by_label("File").click();
        harness.run_steps(2);
        harness.get_by_label("Import map…").click();
        harness.run_steps(3);
        common::fill(harness, "map file to import", &source.display().to_string());
        harness.get_by_label("Import").click();
        harness.run_steps(2);
    };
    import(&mut harness);
    let template = work.path().join("desert.mapping.ron");
    step_until(&mut harness, "the mapping written", |_| template.exists());
    assert!(harness.query_by_label("Import").is_none(), "the dialog closed");

    let mut mapping: nefia_game::exchange::Mapping = nefia_game::files::read_ron(&template).unwrap();
    assert!(mapping.tiles.len() > 10, "every tile of the desert listed: {:?}", mapping.tiles.keys());
    for tile in mapping.tiles.values_mut() {
        *tile = "elona.grass".into();
    }
    nefia_tests::write(&template, ron::to_string(&mapping).unwrap()).unwrap();
    import(&mut harness);
    step_until(&mut harness, "the map listed", |h| {
        h.state().state().snapshot.maps.files.iter().any(|m| m.name == "desert")
    });
    assert!(copy.project().join("maps/desert.ron").exists());
}
