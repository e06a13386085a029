//! What a first hour with the editor at 1280×800 tripped over, checked headless: every tab and
//! the inspector's five columns visible at the default layout, its field names whole, a toolbar
//! that does not move the map when play starts or the tool changes, long notices shown whole
//! without moving it, Where used selecting what it names, and the play-only HUD widgets kept
//! off the map while editing.

mod common;

use common::{editor, started, step_until};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use nefia_editor::app::EditorApp;

const WIDTH: f32 = 1280.0;

/// The screen rectangle of `label`'s widget (the last one if several have that label).
fn rect_of(harness: &Harness<'static, EditorApp>, label: &str) -> egui::Rect {
    harness.get_all_by_label(label).last().unwrap_or_else(|| panic!("{label} is shown")).rect()
}

#[test]
fn every_tab_of_the_default_layout_shows_its_title_inside_its_tab_bar() {
    let mut harness = editor();
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    harness.step();
    let leaves: Vec<(egui::Rect, Vec<String>)> = harness
        .state_mut()
        .dock_mut()
        .iter_leaves()
        .map(|(_, leaf)| (leaf.rect, leaf.tabs.iter().map(|tab| tab.title()).collect()))
        .collect();
    for (leaf, titles) in leaves {
        for title in titles {
            let tab = harness.get_by_role_and_label(egui::accesskit::Role::Tab, &title).rect();
            assert!(
                leaf.min.x <= tab.min.x && tab.max.x <= leaf.max.x,
                "the {title} tab {tab:?} is cut off or hidden in its tab bar {leaf:?}"
            );
        }
    }
}

#[test]
fn the_inspector_shows_all_five_columns_at_1280_by_800() {
    let mut harness = started();
    let player = harness.state().state().snapshot.player.expect("a player");
    harness.state_mut().state_mut().select(vec![player]);
    step_until(&mut harness, "the inspector", |h| h.query_by_label("base fov").is_some());
    let inspector = rect_of(&harness, "Inspector");
    for column in ["field", "base", "temp", "calc", "why"] {
        let header = rect_of(&harness, column);
        assert!(
            inspector.min.x <= header.min.x && header.max.x <= WIDTH,
            "the {column} column {header:?} is off the pane (its tab at {inspector:?})"
        );
    }
    // A value in the calc column, not only its title, is on screen.
    let fov = harness.get_by_label("base fov").rect();
    assert!(fov.max.x < rect_of(&harness, "calc").min.x, "the base editor comes before calc");
}

#[test]
fn the_map_stays_where_it_is_when_play_starts() {
    let mut harness = editor();
    step_until(&mut harness, "a drawn frame", |h| h.state().state().viewport.rect.is_some());
    let editing = harness.state().state().viewport.rect.expect("drawn");
    harness.key_press(egui::Key::F5);
    step_until(&mut harness, "play", |h| h.state().state().snapshot.play.playing);
    harness.step();
    let playing = harness.state().state().viewport.rect.expect("drawn");
    assert_eq!(editing, playing, "the toolbar kept its height: the map did not move");
    assert!(harness.query_by_label("⏹ Stop").is_some() && harness.query_by_label("Layers ⏷").is_some());
}

#[test]
fn a_play_only_widget_is_off_the_map_while_editing_until_the_user_shows_it() {
    let mut harness = editor();
    step_until(&mut harness, "the widgets", |h| !h.state().state().snapshot.widgets.is_empty());
    harness.step();
    let drawn = |h: &Harness<'static, EditorApp>| h.state().state().viewport.report.widgets.clone();
    assert!(drawn(&harness).is_empty(), "editing, no HUD widget covers the map: {:?}", drawn(&harness));
    harness.get_by_label("Layers ⏷").click();
    harness.step();
    harness.get_by_label("tools.log (play only by default)").click();
    harness.step();
    harness.step();
    assert!(drawn(&harness).iter().any(|w| w == "tools.log"), "turned on: {:?}", drawn(&harness));
    assert!(!drawn(&harness).iter().any(|w| w == "base.clock"), "the others stay off");

    let mut harness = started();
    harness.step();
    assert!(drawn(&harness).iter().any(|w| w == "tools.log"), "playing: {:?}", drawn(&harness));
    assert!(drawn(&harness).iter().any(|w| w == "base.clock"), "playing: {:?}", drawn(&harness));
}

#[test]
fn picking_an_object_in_locations_pans_the_viewport_to_it() {
    use nefia_editor::context::Tab;
    use nefia_editor::render::camera::Camera;
    let mut harness = editor();
    step_until(&mut harness, "a drawn frame", |h| h.state().state().viewport.rect.is_some());
    // Zoomed in on the top-left corner: the shopkeeper is out of view.
    harness.state_mut().state_mut().viewport.camera = Some(Camera { center: egui::vec2(2.0, 2.0), zoom: 60.0 });
    harness.state_mut().open_tab(Tab::Locations);
    harness.state_mut().panes_mut().locations.search = "elona.shopkeeper".into();
    step_until(&mut harness, "the tree", |h| !h.state().state().snapshot.locations.maps.is_empty());
    let (shopkeeper, x, y) = {
        let locations = &harness.state().state().snapshot.locations;
        let row = locations.maps.iter().flat_map(|m| m.objects.iter()).find(|r| r.id.as_str() == "elona.shopkeeper");
        let row = row.expect("the demo has a shopkeeper");
        (row.uid, row.x, row.y)
    };
    let in_view = |h: &Harness<'static, EditorApp>| {
        let view = &h.state().state().viewport;
        let (camera, rect) = (view.camera.expect("a camera"), view.rect.expect("drawn"));
        rect.contains(camera.to_screen(rect, egui::vec2(x as f32 + 0.5, y as f32 + 0.5)))
    };
    let row = format!("uid {} elona.shopkeeper", shopkeeper.0);
    step_until(&mut harness, "the shopkeeper's row", |h| h.query_by_label_contains(&row).is_some());
    assert!(!in_view(&harness), "out of view before the pick");
    harness.get_by_label_contains(&row).click();
    step_until(&mut harness, "the pan", |h| in_view(h));
    assert_eq!(harness.state().state().selection, [shopkeeper], "picked and selected");
}

/// A game being played, its map clicked (the game has the keyboard); returns the map's
/// middle.
fn playing_with_the_keyboard() -> (Harness<'static, EditorApp>, egui::Pos2) {
    let mut harness = started();
    harness.step();
    let center = harness.state().state().viewport.rect.expect("drawn").center();
    common::click_at(&mut harness, center, egui::Modifiers::NONE);
    harness.step();
    (harness, center)
}

#[test]
fn escape_in_the_repl_overlay_closes_it_and_opens_no_game_menu() {
    let (mut harness, _) = playing_with_the_keyboard();
    assert!(harness.state().state().viewport.has_focus, "the game has the keyboard");
    harness.key_press(egui::Key::Backtick);
    harness.step();
    assert!(harness.state().state().viewport.repl_overlay, "the backquote opens the overlay");
    harness.get_all_by_label("REPL input").last().expect("the overlay's input").click();
    harness.step();
    harness.key_press(egui::Key::Escape);
    harness.step();
    assert!(!harness.state().state().viewport.repl_overlay, "Escape closed it");
    for _ in 0..10 {
        harness.step();
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(harness.state().state().snapshot.layers.is_empty(), "no game menu opened");
    assert!(harness.state().state().viewport.has_focus, "the game has the keyboard back");
    // The game's own Escape still works once the overlay is gone.
    harness.key_press(egui::Key::Escape);
    step_until(&mut harness, "the game menu", |h| !h.state().state().snapshot.layers.is_empty());
}

#[test]
fn while_playing_the_status_bar_says_which_pane_has_the_keyboard() {
    let (mut harness, center) = playing_with_the_keyboard();
    assert!(harness.query_by_label_contains("keys go to the game").is_some());
    harness.state_mut().open_tab(nefia_editor::context::Tab::Repl);
    harness.step();
    harness.get_by_label("REPL input").click();
    harness.step();
    harness.step();
    assert!(!harness.state().state().viewport.has_focus);
    assert!(harness.query_by_label_contains("click the map to play").is_some(), "the hint says how to get it back");
    common::click_at(&mut harness, center, egui::Modifiers::NONE);
    harness.step();
    assert!(harness.query_by_label_contains("keys go to the game").is_some());
}

/// Writes a mod `id` into the copied project's own mods folder with `init` as its init.lua.
fn write_mod(copy: &nefia_tests::DemoCopy, id: &str, init: &str) {
    let dir = copy.project().join("mods").join(id);
    std::fs::create_dir_all(&dir).unwrap();
    nefia_tests::write(dir.join("mod.ron"), format!("(id: {id:?}, version: \"0.2.0\", dependencies: [\"base\"])"))
        .unwrap();
    nefia_tests::write(dir.join("init.lua"), init).unwrap();
}

/// Lists mod `id` last in the copied project's `project.ron`; returns the file.
fn enable(copy: &nefia_tests::DemoCopy, id: &str) -> std::path::PathBuf {
    let manifest = copy.project().join("project.ron");
    let text = std::fs::read_to_string(&manifest).unwrap();
    nefia_tests::write(&manifest, text.replace("\"damage_popups\"]", &format!("\"damage_popups\", {id:?}]"))).unwrap();
    manifest
}

#[test]
fn the_mods_pane_enables_a_new_mod_in_project_ron_and_shows_load_errors() {
    use nefia_editor::context::Tab;
    let copy = nefia_tests::DemoCopy::new();
    write_mod(&copy, "extra", "extra_loaded = true");
    write_mod(&copy, "broken", "local x = 1\nerror('the broken mod fails here')");
    // The broken mod is enabled: the project still opens, and the pane says why it did not load.
    let manifest = enable(&copy, "broken");
    let mut harness = common::editor_on(&copy.project(), nefia_editor::panes::repl::ReplState::default());
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    harness.state_mut().open_tab(Tab::Mods);
    harness.step();
    let row = |h: &Harness<'static, EditorApp>, id: &str| {
        h.state().state().snapshot.mods.rows.iter().find(|r| r.id == id).cloned().expect("listed")
    };
    let broken = row(&harness, "broken");
    assert!(broken.enabled && broken.load_position.is_none());
    let problem = broken.problem.expect("a reason");
    assert!(problem.contains("init.lua:2") && problem.contains("the broken mod fails here"), "{problem}");
    assert!(harness.query_by_label_contains("the broken mod fails here").is_some(), "shown in the pane");
    let extra = row(&harness, "extra");
    assert!(!extra.enabled && extra.load_position.is_none(), "found, not listed, not loaded");

    harness.get_by_label("enable mod extra").click();
    step_until(&mut harness, "extra enabled", |h| row(h, "extra").enabled);
    let written = std::fs::read_to_string(&manifest).unwrap();
    assert!(written.contains("\"extra\""), "project.ron lists it: {written}");
    nefia_game::files::read_ron::<nefia_game::project::ProjectManifest>(&manifest).expect("still readable RON");
    // A new mod from the pane: written, listed and enabled.
    harness.get_by_label("new mod id").focus();
    harness.step();
    harness.event(egui::Event::Text("fresh".into()));
    harness.step();
    harness.get_by_label("New mod").click();
    step_until(&mut harness, "the new mod's row", |h| {
        h.state().state().snapshot.mods.rows.iter().any(|r| r.id == "fresh" && r.enabled)
    });
    assert!(copy.project().join("mods/fresh/init.lua").is_file());
    harness.get_by_label("Reopen project").click();
    harness.step();
    step_until(&mut harness, "extra and fresh loaded", |h| {
        let loaded =
            |id: &str| h.state().state().snapshot.mods.rows.iter().any(|r| r.id == id && r.load_position.is_some());
        loaded("extra") && loaded("fresh")
    });
    assert_eq!(common::eval_values(&mut harness, "return require('mod.extra.init') ~= nil"), ["true"]);
    assert_eq!(common::eval_values(&mut harness, "return data['base.chara']['fresh.slime'] ~= nil"), ["true"]);

    // Unticked, a loaded mod nothing needs says it stays until a reopen, and the notice is
    // up; ticked again, project.ron matches what is loaded and the notice goes.
    harness.state_mut().open_tab(Tab::Mods);
    step_until(&mut harness, "the fresh row", |h| h.query_by_label("enable mod fresh").is_some());
    assert!(harness.query_by_label("Reopen project").is_none(), "nothing to reopen for");
    harness.get_by_label("enable mod fresh").click();
    step_until(&mut harness, "fresh unticked", |h| !row(h, "fresh").enabled);
    harness.step();
    assert!(harness.query_by_label("still loaded until you reopen the project").is_some());
    assert!(harness.query_by_label_contains("loaded because").is_none(), "nothing needs it");
    assert!(harness.query_by_label("Reopen project").is_some());
    harness.get_by_label("enable mod fresh").click();
    step_until(&mut harness, "fresh ticked again", |h| row(h, "fresh").enabled);
    harness.step();
    assert!(harness.query_by_label("Reopen project").is_none(), "the notice is gone once it matches");
}

#[test]
fn opening_a_slow_project_shows_what_is_loading_in_the_status_bar() {
    let copy = nefia_tests::DemoCopy::new();
    write_mod(&copy, "slow", "local t = os.clock() while os.clock() - t < 1.5 do end");
    enable(&copy, "slow");
    let mut harness = common::editor_on(&copy.project(), nefia_editor::panes::repl::ReplState::default());
    step_until(&mut harness, "the progress", |h| h.query_by_label_contains("Loading: loading mod slow").is_some());
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    harness.step();
    assert!(harness.query_by_label_contains("Loading:").is_none(), "gone once opened");
}

#[test]
fn show_in_locations_scrolls_the_revealed_row_into_view() {
    use nefia_editor::context::Tab;
    let mut harness = started();
    harness.state_mut().open_tab(Tab::Locations);
    harness.step();
    // Expand everything on the map first, so the player's row is far down the tree.
    let putitoro = common::eval_values(
        &mut harness,
        "(function() for _, i in Item.iter() do if i._id == 'elona.putitoro' then return i.uid end end end)()",
    )[0]
    .parse::<u64>()
    .unwrap();
    harness.state_mut().state_mut().reveal = Some(nefia_game::Uid(putitoro));
    harness.step();
    let player = harness.state().state().snapshot.player.expect("a player");
    harness.state_mut().state_mut().reveal = Some(player);
    let row = format!("uid {} elona.player", player.0);
    step_until(&mut harness, "the player's row", |h| h.query_by_label_contains(&row).is_some());
    let rect = harness.get_by_label_contains(&row).rect();
    let pane = harness.get_by_role_and_label(egui::accesskit::Role::Tab, "Locations").rect();
    assert!(rect.min.y > pane.max.y && rect.max.y < 800.0, "the row {rect:?} is on screen below the tab bar");
}

#[test]
fn the_inspectors_names_and_why_are_readable_and_the_add_form_opens_beside_its_row() {
    let mut harness = started();
    let player = harness.state().state().snapshot.player.expect("a player");
    harness.state_mut().state_mut().select(vec![player]);
    step_until(&mut harness, "the inspector", |h| h.query_by_label("base fov").is_some());
    let (field, base, why) = (rect_of(&harness, "field"), rect_of(&harness, "base"), rect_of(&harness, "why"));
    let char_width = harness.ctx.fonts_mut(|f| f.glyph_width(&egui::FontId::monospace(12.0), 'm'));
    assert!(
        base.min.x - field.min.x >= char_width * "equip_slots".len() as f32,
        "the field column fits its names: {field:?} then {base:?}"
    );
    assert!(WIDTH - why.min.x >= 72.0, "why has room: it starts at {}", why.min.x);

    let row_before = harness.get_by_label("base fov").rect();
    let plus = harness.get_by_label("add temp fov").rect();
    harness.get_by_label("add temp fov").click();
    step_until(&mut harness, "the form", |h| h.query_by_label("Apply").is_some());
    harness.run_steps(2);
    assert_eq!(harness.get_by_label("base fov").rect(), row_before, "no row moved");
    let (form, inspector) = (harness.get_by_label_contains("mod(\"fov\"").rect(), rect_of(&harness, "field"));
    assert!((form.min.y - plus.max.y).abs() < 30.0, "the form is beside its row: {form:?} under {plus:?}");
    assert!(form.min.x >= inspector.min.x - 10.0, "over the Inspector, not the map: {form:?}");
    harness.get_by_label("Cancel").click();
    step_until(&mut harness, "the form closed", |h| h.query_by_label("Apply").is_none());
}

#[test]
fn viewport_notices_stack_in_one_area_above_the_map() {
    let mut harness = started();
    // The keyboard in another pane (the REPL's input), and an edit refused meanwhile.
    harness.state_mut().panes_mut().repl.take_keyboard();
    step_until(&mut harness, "the REPL to take the keyboard", |h| !h.state().state().viewport.has_focus);
    let refused = "Pick a tile in the Palette first (or right-click a cell)";
    harness.state_mut().state_mut().notice = Some((refused.to_owned(), std::time::Instant::now()));
    harness.step();
    harness.step();
    let hint = harness.get_by_label_contains("Click the map to play").rect();
    let notice = harness.get_by_label_contains("Pick a tile in the Palette").rect();
    let map = harness.state().state().viewport.rect.expect("drawn");
    assert!(!hint.intersects(notice), "the notices stack: {hint:?} and {notice:?}");
    for rect in [hint, notice] {
        assert!(rect.max.y <= map.min.y, "a notice {rect:?} is over the map's cells {map:?}");
    }
}

#[test]
fn the_current_map_in_locations_has_one_triangle_its_expander() {
    use nefia_editor::context::Tab;
    let mut harness = editor();
    harness.state_mut().open_tab(Tab::Locations);
    step_until(&mut harness, "the town's row", |h| h.query_by_label_contains("'town'").is_some());
    let row = harness.get_by_label_contains("'town'").value().unwrap_or_default();
    assert!(row.starts_with("map ") && row.ends_with("· current"), "the current map says so in words: {row}");
}

#[test]
fn ctrl_s_says_in_the_status_bar_what_it_saved() {
    let copy = nefia_tests::DemoCopy::new();
    let mut harness = common::editor_on(&copy.project(), nefia_editor::panes::repl::ReplState::default());
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    harness.key_combination_modifiers(egui::Modifiers::COMMAND, &[egui::Key::S]);
    step_until(&mut harness, "the status bar's word", |h| h.query_by_label_contains("✔ saved").is_some());
    let said = harness.get_by_label_contains("✔ saved").value().unwrap_or_default();
    assert!(said.ends_with("town.ron"), "it names the file: {said}");
}

#[test]
fn the_toolbar_keeps_its_height_whichever_tool_is_chosen() {
    use nefia_editor::context::Tool;
    use strum::IntoEnumIterator;
    let mut harness = editor();
    step_until(&mut harness, "a drawn frame", |h| h.state().state().viewport.rect.is_some());
    // No tile picked yet: the painting tools say at length what to do first.
    harness.state_mut().state_mut().level.tile = None;
    let mut seen = Vec::new();
    for tool in Tool::iter() {
        harness.state_mut().state_mut().level.tool = tool;
        harness.step();
        harness.step();
        let map = harness.state().state().viewport.rect.expect("drawn");
        seen.push((tool, map, rect_of(&harness, "Fit map")));
    }
    let (_, map, fit) = seen[0];
    for (tool, other_map, other_fit) in seen {
        assert_eq!((other_map, other_fit), (map, fit), "with {tool:?} the toolbar changed height: the map moved");
    }
}

#[test]
fn the_inspectors_field_column_shows_the_longest_names_whole() {
    let mut harness = started();
    let player = harness.state().state().snapshot.player.expect("a player");
    harness.state_mut().state_mut().select(vec![player]);
    step_until(&mut harness, "the inspector", |h| h.query_by_label("base fov").is_some());
    harness.step();
    let font = egui::TextStyle::Monospace.resolve(&harness.ctx.global_style());
    let base = rect_of(&harness, "base");
    for name in ["inventory_capacity", "blocked_body_parts"] {
        let whole =
            harness.ctx.fonts_mut(|f| f.layout_no_wrap(name.to_owned(), font.clone(), egui::Color32::WHITE)).size().x;
        let shown = rect_of(&harness, name);
        assert!(shown.width() >= whole - 0.5, "{name} is cut: {:.0} of its {whole:.0} px shown", shown.width());
        assert!(shown.max.x <= base.min.x, "{name} {shown:?} runs into the base column at {base:?}");
    }
}

#[test]
fn a_long_notice_shows_whole_over_the_map_and_does_not_move_it() {
    let mut harness = editor();
    step_until(&mut harness, "a drawn frame", |h| h.state().state().viewport.rect.is_some());
    harness.step();
    let map = harness.state().state().viewport.rect.expect("drawn");
    let text = "cannot place elona.putit at (41, 3) on map 'town': the cell is outside the map, which is 32 by 20 \
                cells; place it inside the map, or resize the map first from the Maps pane (Resize…) and place \
                it again, and mind that a resized map keeps the part its anchor names";
    harness.state_mut().state_mut().notice = Some((text.to_owned(), std::time::Instant::now()));
    harness.step();
    harness.step();
    let notice = rect_of(&harness, text);
    let line = harness.ctx.global_style().text_styles[&egui::TextStyle::Body].size;
    assert!(notice.height() >= 2.5 * line, "the notice wraps onto lines of its own: {notice:?}");
    assert!(map.min.x <= notice.min.x && notice.max.x <= map.max.x, "inside the viewport: {notice:?} {map:?}");
    assert_eq!(harness.state().state().viewport.rect, Some(map), "the map did not move");
}

#[test]
fn where_used_opens_the_map_file_and_selects_the_object_there() {
    use nefia_editor::context::Tab;
    use nefia_game::Symbol;
    let mut harness = editor();
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    harness.state_mut().open_tab(Tab::Prototypes);
    harness.state_mut().panes_mut().data.selected = Some((Symbol::intern("base.chara"), Symbol::intern("elona.yeek")));
    step_until(&mut harness, "the form", |h| h.query_by_label("Where used").is_some());
    harness.get_by_label("Where used").click_accesskit();
    // The yeek stands only in the dungeon's map file, which is not open.
    let place = "an object in map file 'dungeon'";
    step_until(&mut harness, "the usages", |h| h.query_by_label_contains(place).is_some());
    harness.get_by_label_contains(place).click_accesskit();
    step_until(&mut harness, "the dungeon", |h| {
        h.state().state().snapshot.map.as_ref().is_some_and(|m| m.name == "dungeon")
    });
    step_until(&mut harness, "a selection", |h| !h.state().state().selection.is_empty());
    let selection = harness.state().state().selection.clone();
    let locations = &harness.state().state().snapshot.locations;
    let selected: Vec<_> = locations
        .maps
        .iter()
        .flat_map(|m| m.objects.iter())
        .filter(|row| selection.contains(&row.uid))
        .map(|row| row.id.as_str())
        .collect();
    assert_eq!(selected, ["elona.yeek"], "the yeek is selected");
}
