//! The Data pane, driven headless: a prototype's field edited in its form is written back to
//! the one line of its Lua file, every instance shows it, and undo restores the file's bytes.

mod common;

use common::{editor_on, eval_values, step_until};
use egui_kittest::kittest::{NodeT, Queryable};
use nefia_editor::context::Tab;
use nefia_editor::panes::repl::ReplState;
use nefia_tests::DemoCopy;

#[test]
fn a_field_edited_in_the_form_changes_one_line_of_the_file_and_undo_restores_it() {
    let copy = DemoCopy::new();
    let file = copy.mod_file("elona/content/charas.lua");
    let original = std::fs::read_to_string(&file).unwrap();
    let mut harness = editor_on(&copy.project(), ReplState::default());
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    eval_values(&mut harness, "p = Chara.create('elona.putit', 1, 1)");
    harness.state_mut().open_tab(Tab::Prototypes);
    harness.step();
    step_until(&mut harness, "the putit listed", |h| h.query_by_label_contains("base.chara").is_some());
    harness.get_by_label_contains("base.chara (").click();
    step_until(&mut harness, "the entries", |h| h.query_by_label("elona.putit").is_some());
    harness.get_by_label("elona.putit").click();
    step_until(&mut harness, "the form", |h| h.query_by_label("max_hp of elona.putit").is_some());
    assert!(harness.query_by_label_contains("charas.lua").is_some(), "the form says where the prototype is added");

    harness.get_by_label("max_hp of elona.putit").click();
    harness.step();
    harness.key_combination(&[egui::Key::A]);
    harness.get_by_label("max_hp of elona.putit").type_text("50");
    harness.step();
    harness.key_press(egui::Key::Enter);
    step_until(&mut harness, "the file written", |_| std::fs::read_to_string(&file).unwrap() != original);
    let edited = std::fs::read_to_string(&file).unwrap();
    let changed: Vec<_> = original.lines().zip(edited.lines()).filter(|(a, b)| a != b).collect();
    assert_eq!(changed.len(), 1, "one line changed: {changed:?}");
    assert_eq!(changed[0].1.trim(), "max_hp = 50,");
    assert_eq!(eval_values(&mut harness, "p.max_hp"), ["50"], "a putit on the map reads the new base value");

    // Edit → Undo (the REPL's input has the keyboard after the evaluation).
    harness.get_by_label("Edit").click();
    step_until(&mut harness, "the Edit menu", |h| h.query_by_label_contains("Undo").is_some());
    harness.query_all_by_label_contains("Undo").next().expect("Undo in the menu").click();
    step_until(&mut harness, "the undo", |_| std::fs::read_to_string(&file).unwrap() == original);
    assert_eq!(eval_values(&mut harness, "p.max_hp"), ["6"]);
}

/// Clicks the widget named `label` through AccessKit, as a screen reader does: the form's
/// lower rows are below the pane's fold at 1280×800.
/// The form waits (disabled) while its last edit is on its way: this waits for the widget to
/// be enabled first.
fn press(harness: &mut egui_kittest::Harness<'static, nefia_editor::app::EditorApp>, label: &str) {
    enabled(harness, label);
    harness.get_by_label(label).click_accesskit();
    harness.step();
}

/// Steps until the widget named `label` is there and enabled.
fn enabled(harness: &mut egui_kittest::Harness<'static, nefia_editor::app::EditorApp>, label: &str) {
    step_until(harness, &format!("{label} enabled"), |h| {
        h.query_by_label(label).is_some_and(|node| !node.accesskit_node().is_disabled())
    });
}

#[test]
fn a_list_field_gets_items_added_moved_and_removed_in_the_form_and_in_the_file() {
    let copy = DemoCopy::new();
    let file = copy.mod_file("elona/content/charas.lua");
    let mut harness = editor_on(&copy.project(), ReplState::default());
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    harness.state_mut().open_tab(Tab::Prototypes);
    harness.state_mut().panes_mut().data.selected =
        Some((nefia_runtime::Symbol::intern("base.chara"), nefia_runtime::Symbol::intern("elona.putit")));
    // `equip_slots` is a `types.list(types.string)` the putit leaves to its default, the
    // seven slots.
    let list = "equip_slots of elona.putit";
    let item = |n: usize| format!("item {n} of {list}");
    step_until(&mut harness, "the form", |h| h.query_by_label(&item(7)).is_some());
    // The line the putit's `data:add` has the field on, if any.
    let written = || {
        let text = std::fs::read_to_string(&file).unwrap();
        let putit = text.split("data:add").find(|call| call.contains("_id = \"putit\"")).unwrap().to_owned();
        putit.lines().find(|line| line.contains("equip_slots")).map(|line| line.trim().to_owned())
    };
    assert_eq!(written(), None, "the putit leaves it to its default");
    let slots = |slots: &str| Some(format!("equip_slots = {{ {slots} }},"));

    press(&mut harness, &format!("remove {}", item(6)));
    let without_ring = r#""head", "neck", "body", "main_hand", "off_hand", "feet""#;
    step_until(&mut harness, "the ring removed", |_| written() == slots(without_ring));
    step_until(&mut harness, "six items in the form", |h| h.query_by_label(&item(7)).is_none());

    press(&mut harness, &format!("move {} up", item(6)));
    let feet_up = r#""head", "neck", "body", "main_hand", "feet", "off_hand""#;
    step_until(&mut harness, "the feet moved up", |_| written() == slots(feet_up));
    // The form builds the next edit from the list it shows: wait for it to show the move.
    step_until(&mut harness, "the feet moved up in the form", |h| {
        h.query_by_label(&item(5)).and_then(|node| node.value()).as_deref() == Some("feet")
    });

    press(&mut harness, &format!("add an item to {list}"));
    step_until(&mut harness, "an item added", |_| written() == slots(&format!(r#"{feet_up}, """#)));
    step_until(&mut harness, "the new item in the form", |h| h.query_by_label(&item(7)).is_some());
    enabled(&mut harness, &item(7));
    harness.get_by_label(&item(7)).focus();
    harness.step();
    harness.get_by_label(&item(7)).type_text("ring");
    harness.step();
    harness.key_press(egui::Key::Enter);
    step_until(&mut harness, "the item typed", |_| written() == slots(&format!(r#"{feet_up}, "ring""#)));
    assert_eq!(
        eval_values(
            &mut harness,
            "local slots = Chara.create('elona.putit', 1, 1).equip_slots return slots[5], slots[7]"
        ),
        ["\"feet\"", "\"ring\""],
        "a new putit has the list"
    );
}

#[test]
fn a_map_field_gets_entries_removed_and_added_in_the_form_and_in_the_file() {
    let copy = DemoCopy::new();
    let file = copy.mod_file("elona/content/generators.lua");
    let mut harness = editor_on(&copy.project(), ReplState::default());
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    harness.state_mut().open_tab(Tab::Prototypes);
    harness.state_mut().panes_mut().data.selected =
        Some((nefia_runtime::Symbol::intern("base.map_generator"), nefia_runtime::Symbol::intern("elona.dungeon")));
    // `params` is a `types.map(types.string, types.table)`.
    let map = "params of elona.dungeon";
    step_until(&mut harness, "the form", |h| h.query_by_label(&format!("remove monsters of {map}")).is_some());
    // The dungeon's `data:add` call.
    let dungeon = || {
        let text = std::fs::read_to_string(&file).unwrap();
        text.split("data:add").find(|call| call.contains("_id = \"dungeon\"")).unwrap().to_owned()
    };
    assert!(dungeon().contains("monsters = {"));

    press(&mut harness, &format!("remove monsters of {map}"));
    step_until(&mut harness, "the entry removed", |_| !dungeon().contains("monsters = {"));
    assert!(dungeon().contains("max_room = {"), "the other entries stay");

    let key = format!("new key of {map}");
    enabled(&mut harness, &key);
    harness.get_by_label(&key).focus();
    harness.step();
    harness.get_by_label(&key).type_text("depth");
    harness.step();
    harness.key_press(egui::Key::Enter);
    harness.step();
    press(&mut harness, &format!("add an entry to {map}"));
    step_until(&mut harness, "the entry added", |_| dungeon().contains("depth = {}"));
    step_until(&mut harness, "the entry in the form", |h| {
        h.query_by_label(&format!("remove depth of {map}")).is_some()
    });
}

#[test]
fn where_used_and_duplicate_from_the_form() {
    let copy = DemoCopy::new();
    let file = copy.mod_file("elona/content/charas.lua");
    let mut harness = editor_on(&copy.project(), ReplState::default());
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    harness.state_mut().open_tab(Tab::Prototypes);
    harness.step();
    step_until(&mut harness, "the types listed", |h| h.query_by_label_contains("base.chara").is_some());
    harness.get_by_label_contains("base.chara (").click();
    step_until(&mut harness, "the entries", |h| h.query_by_label("elona.putit").is_some());
    harness.get_by_label("elona.putit").click();
    step_until(&mut harness, "the form", |h| h.query_by_label("Where used").is_some());

    press(&mut harness, "Where used");
    step_until(&mut harness, "the usages", |h| h.query_by_label_contains("generators.lua:25").is_some());

    harness.get_by_label("new prototype id").focus();
    harness.step();
    harness.get_by_label("new prototype id").type_text("big_putit");
    harness.step();
    press(&mut harness, "Duplicate");
    step_until(&mut harness, "the copy written", |_| {
        std::fs::read_to_string(&file).unwrap().contains("_id = \"big_putit\"")
    });
    assert_eq!(eval_values(&mut harness, "data['base.chara']['elona.big_putit'].max_hp"), ["6"], "hotloaded");

    // One placed on the map: Delete is refused, naming where it is, and the file keeps it.
    eval_values(&mut harness, "Chara.create('elona.big_putit', 3, 4)");
    harness.state_mut().panes_mut().data.selected =
        Some((nefia_runtime::Symbol::intern("base.chara"), nefia_runtime::Symbol::intern("elona.big_putit")));
    step_until(&mut harness, "the copy's form", |h| h.query_by_label("max_hp of elona.big_putit").is_some());
    press(&mut harness, "Delete");
    step_until(&mut harness, "the refusal in the pane", |h| {
        h.query_by_label_contains("⚠ Delete elona.big_putit").is_some()
    });
    let reason = harness.get_by_label_contains("⚠ Delete elona.big_putit").value().unwrap_or_default();
    assert!(reason.contains("on map 'town' at (3, 4)"), "it says what uses it: {reason}");
    assert!(std::fs::read_to_string(&file).unwrap().contains("_id = \"big_putit\""), "the file keeps it");
}

#[test]
fn a_number_field_takes_no_text_and_the_file_is_left_alone() {
    let copy = DemoCopy::new();
    let file = copy.mod_file("elona/content/charas.lua");
    let original = std::fs::read_to_string(&file).unwrap();
    let mut harness = editor_on(&copy.project(), ReplState::default());
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    harness.state_mut().open_tab(Tab::Prototypes);
    harness.state_mut().panes_mut().data.selected =
        Some((nefia_runtime::Symbol::intern("base.chara"), nefia_runtime::Symbol::intern("elona.putit")));
    step_until(&mut harness, "the form", |h| h.query_by_label("max_hp of elona.putit").is_some());
    // `max_hp` is a `uint`: its field takes numbers only, and none below 0.
    let type_in = |harness: &mut egui_kittest::Harness<'static, nefia_editor::app::EditorApp>, typed: &str| {
        harness.get_by_label("max_hp of elona.putit").click();
        harness.step();
        harness.key_combination(&[egui::Key::A]);
        harness.get_by_label("max_hp of elona.putit").type_text(typed);
        harness.step();
        harness.key_press(egui::Key::Enter);
        harness.run_steps(3);
    };
    type_in(&mut harness, "lots");
    eval_values(&mut harness, "nil");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), original, "a text is not a number: the file is left alone");
    type_in(&mut harness, "-5");
    step_until(&mut harness, "the field stopped at 0", |_| std::fs::read_to_string(&file).unwrap() != original);
    let written = std::fs::read_to_string(&file).unwrap();
    let changed: Vec<_> = original.lines().zip(written.lines()).filter(|(a, b)| a != b).collect();
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert_eq!(changed[0].1.trim(), "max_hp = 0,");
}

#[test]
fn the_glyph_dragged_from_the_form_onto_the_map_places_one_there() {
    let copy = DemoCopy::new();
    let mut harness = editor_on(&copy.project(), ReplState::default());
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    harness.state_mut().open_tab(Tab::Prototypes);
    harness.state_mut().panes_mut().data.selected =
        Some((nefia_runtime::Symbol::intern("base.chara"), nefia_runtime::Symbol::intern("elona.putit")));
    step_until(&mut harness, "the form", |h| h.query_by_label("max_hp of elona.putit").is_some());
    // The glyph is the cell drawn left of the form's heading, at the map's zoom.
    let heading = harness.get_by_role_and_label(egui::accesskit::Role::Label, "elona.putit").rect();
    let zoom = harness.state().state().viewport.camera.map_or(24.0, |c| c.zoom).clamp(16.0, 64.0);
    // (egui's default item spacing, 8 points, between the glyph and the heading.)
    let glyph = egui::pos2(heading.left() - 8.0 - zoom / 2.0, heading.center().y);
    let (x, y) = (5, 15);
    let putits_at = |h: &egui_kittest::Harness<'static, nefia_editor::app::EditorApp>| {
        let map = h.state().state().snapshot.map.clone().expect("a map");
        map.objects_at(x, y).filter(|o| o.glyph.as_str() == "p").count()
    };
    assert_eq!(putits_at(&harness), 0);
    let target = common::cell_center(&harness, x, y);
    harness.hover_at(glyph);
    harness.step();
    harness.drag_at(glyph);
    harness.step();
    harness.hover_at(glyph + egui::vec2(8.0, 8.0));
    harness.step();
    harness.hover_at(target);
    harness.step();
    harness.drop_at(target);
    harness.step();
    step_until(&mut harness, "a putit placed at the drop", |h| putits_at(h) == 1);
    let history = &harness.state().state().snapshot.editing.history.labels;
    assert!(history.iter().any(|step| step.contains("elona.putit")), "one History step: {history:?}");
}
