//! The Data pane, driven headless at 1280×800: a prototype's field edited in its form is
//! written back to the one line of its Lua file, every instance shows it, and undo restores
//! the file's bytes; a value the type refuses is shown at its field and written nowhere; a
//! rule across fields is written and flagged; the pane fits the default layout.

mod common;

use common::{editor_on, eval_values, scroll_into_view, sprites_shown, step_until};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use nefia_editor::app::EditorApp;
use nefia_editor::context::Tab;
use nefia_editor::panes::repl::ReplState;
use nefia_game::Symbol;
use nefia_tests::DemoCopy;

/// Opens the Data pane on prototype `id` of `data_type` and waits for its form.
fn show(harness: &mut Harness<'static, EditorApp>, data_type: &str, id: &str) {
    harness.state_mut().open_tab(Tab::Prototypes);
    harness.state_mut().panes_mut().data.selected = Some((Symbol::intern(data_type), Symbol::intern(id)));
    step_until(harness, &format!("{id}'s form"), |h| {
        h.query_by_role_and_label(egui::accesskit::Role::Label, id).is_some()
            && h.query_by_label("Where used").is_some()
    });
}

/// Types `typed` into the field named `label` (what it held replaced) and presses Enter.
fn type_into(harness: &mut Harness<'static, EditorApp>, label: &str, typed: &str) {
    enabled(harness, label);
    harness.get_by_label(label).click();
    harness.step();
    harness.key_combination(&[egui::Key::A]);
    harness.get_by_label(label).type_text(typed);
    harness.step();
    harness.key_press(egui::Key::Enter);
    harness.step();
}

/// The labels (of any widget) that contain `text`.
fn labels_containing(harness: &Harness<'static, EditorApp>, text: &str) -> Vec<String> {
    harness.query_all_by_label_contains(text).filter_map(|node| text_of(&node)).collect()
}

/// What a node says: its label, or a text label's value.
fn text_of(node: &egui_kittest::Node<'_>) -> Option<String> {
    node.accesskit_node().label().or_else(|| node.value())
}

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
    pick_type(&mut harness, "base.chara (");
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

/// Picks the data type whose entry in the type list starts with `start` ("base.chara ("),
/// clicking as a user does: the list opens, the entry is within the window, and a click on
/// it closes it.
fn pick_type(harness: &mut Harness<'static, EditorApp>, start: &str) {
    step_until(harness, "the type list", |h| h.query_by_label_contains("data type").is_some());
    harness.get_by_label_contains("data type").click();
    fn entry<'h>(h: &'h Harness<'static, EditorApp>, start: &'h str) -> Option<egui_kittest::Node<'h>> {
        h.query_all_by_label_contains(start).find(|n| text_of(n).is_some_and(|l| l.starts_with(start)))
    }
    step_until(harness, "the list of types", |h| entry(h, start).is_some());
    let rect = entry(harness, start).expect("listed").rect();
    assert!(rect.bottom() <= 800.0 && rect.top() >= 0.0, "{start} is within the window: {rect:?}");
    entry(harness, start).expect("listed").click();
    step_until(harness, "the list closed", |h| entry(h, start).is_none());
}

/// Clicks the widget named `label` through AccessKit, as a screen reader does: the form's
/// lower rows are below the pane's fold at 1280×800.
/// The form waits (disabled) while its last edit is on its way: this waits for the widget to
/// be enabled first.
fn press(harness: &mut Harness<'static, EditorApp>, label: &str) {
    enabled(harness, label);
    harness.get_by_label(label).click_accesskit();
    harness.step();
}

/// Steps until the widget named `label` is there and enabled.
fn enabled(harness: &mut Harness<'static, EditorApp>, label: &str) {
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
    harness.state_mut().panes_mut().data.selected = Some((Symbol::intern("base.chara"), Symbol::intern("elona.putit")));
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
        Some((Symbol::intern("base.map_generator"), Symbol::intern("elona.dungeon")));
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
    pick_type(&mut harness, "base.chara (");
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
        Some((Symbol::intern("base.chara"), Symbol::intern("elona.big_putit")));
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
fn the_glyph_dragged_from_the_form_onto_the_map_places_one_there() {
    let copy = DemoCopy::new();
    let mut harness = editor_on(&copy.project(), ReplState::default());
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    harness.state_mut().open_tab(Tab::Prototypes);
    harness.state_mut().panes_mut().data.selected = Some((Symbol::intern("base.chara"), Symbol::intern("elona.putit")));
    step_until(&mut harness, "the form", |h| h.query_by_label("max_hp of elona.putit").is_some());
    // The glyph is the cell drawn left of the form's heading, at the map's zoom.
    let heading = harness.get_by_role_and_label(egui::accesskit::Role::Label, "elona.putit").rect();
    let zoom = harness.state().state().viewport.camera.map_or(24.0, |c| c.zoom).clamp(16.0, 64.0);
    // (egui's default item spacing, 8 points, between the glyph and the heading.)
    let glyph = egui::pos2(heading.left() - 8.0 - zoom / 2.0, heading.center().y);
    let (x, y) = (5, 15);
    let putits_at = |h: &Harness<'static, EditorApp>| {
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

/// The Data pane's body (below its tab) in the dock.
fn pane_rect(harness: &mut Harness<'static, EditorApp>) -> egui::Rect {
    let dock = harness.state_mut().dock_mut();
    let (node, _) = dock.find_main_surface_tab(&Tab::Prototypes).expect("the Data pane is docked");
    dock.main_surface()[node].get_leaf().expect("a leaf").viewport
}

/// The message the Data pane shows under field `field` of the form, if any: the error label
/// between the field's widget and the next field's name.
fn message_at_field(harness: &Harness<'static, EditorApp>, id: &str, field: &str, next: &str) -> Option<String> {
    let widget = harness.get_by_label(&format!("{field} of {id}")).rect();
    let below = harness.get_by_label(&format!("{next} of {id}")).rect();
    harness
        .query_all_by_label_contains("⚠")
        .filter(|n| n.rect().top() >= widget.bottom() - 1.0 && n.rect().bottom() <= below.top() + 1.0)
        .find_map(|n| text_of(&n))
}

#[test]
fn a_number_the_type_refuses_is_shown_at_its_field_and_nothing_is_written() {
    let copy = DemoCopy::new();
    let file = copy.mod_file("elona/content/charas.lua");
    let original = std::fs::read_to_string(&file).unwrap();
    let mut harness = editor_on(&copy.project(), ReplState::default());
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    show(&mut harness, "base.chara", "elona.putit");
    // `max_hp` is a `types.uint`: nothing below 0, nothing but whole numbers.
    for (typed, said) in [("-5", r#"Value is not of type "int >= 0": "max_hp" (-5)"#), ("abc", r#"("abc")"#)] {
        type_into(&mut harness, "max_hp of elona.putit", typed);
        step_until(&mut harness, &format!("{typed} refused at the field"), |h| {
            message_at_field(h, "elona.putit", "max_hp", "hp").is_some_and(|m| m.contains(said))
        });
        assert_eq!(std::fs::read_to_string(&file).unwrap(), original, "{typed}: nothing is written");
        let shown = harness.get_by_label("max_hp of elona.putit").value().unwrap_or_default();
        assert_eq!(shown, "6", "the field shows what the file holds");
    }
    assert_eq!(eval_values(&mut harness, "data['base.chara']['elona.putit'].max_hp"), ["6"]);
}

#[test]
fn a_refusal_stays_on_the_form_of_the_prototype_it_was_about() {
    let copy = DemoCopy::new();
    let mut harness = editor_on(&copy.project(), ReplState::default());
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    show(&mut harness, "base.chara", "elona.putit");
    type_into(&mut harness, "max_hp of elona.putit", "-5");
    step_until(&mut harness, "the refusal", |h| {
        message_at_field(h, "elona.putit", "max_hp", "hp").is_some_and(|m| m.contains("-5"))
    });

    harness.get_by_label("elona.red_putit").click();
    step_until(&mut harness, "the red putit's form", |h| h.query_by_label("max_hp of elona.red_putit").is_some());
    harness.run_steps(3);
    assert_eq!(labels_containing(&harness, "⚠"), Vec::<String>::new(), "the red putit's form has no refusal");

    harness.get_by_label("elona.putit").click();
    step_until(&mut harness, "the putit's form again", |h| h.query_by_label("max_hp of elona.putit").is_some());
    step_until(&mut harness, "its refusal again, at its field", |h| {
        message_at_field(h, "elona.putit", "max_hp", "hp").is_some_and(|m| m.contains("-5"))
    });
}

#[test]
fn a_rule_across_fields_broken_by_an_edit_is_written_and_flagged_beside_the_form_and_in_problems() {
    let copy = DemoCopy::new();
    let file = copy.mod_file("elona/content/charas.lua");
    let mut harness = editor_on(&copy.project(), ReplState::default());
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    show(&mut harness, "base.chara", "elona.putit");
    let said = "hp (6) is more than max_hp (3)";
    assert!(labels_containing(&harness, said).is_empty());

    type_into(&mut harness, "max_hp of elona.putit", "3");
    step_until(&mut harness, "written", |_| std::fs::read_to_string(&file).unwrap().contains("max_hp = 3,"));
    step_until(&mut harness, "flagged beside the form", |h| !labels_containing(h, &format!("⚠ {said}")).is_empty());

    // Problems lists it with the prototype, its type and its file:line; a click shows it.
    harness.state_mut().panes_mut().data.selected = Some((Symbol::intern("base.chara"), Symbol::intern("elona.yeek")));
    harness.state_mut().open_tab(Tab::Problems);
    let row = "elona.putit (base.chara, ";
    step_until(&mut harness, "the problem listed", |h| {
        labels_containing(h, row).iter().any(|l| l.contains("charas.lua:") && l.ends_with(said))
    });
    assert!(harness.query_by_label_contains("Problems (").is_some(), "the Problems tab counts it");
    harness.get_by_label_contains(row).click();
    step_until(&mut harness, "the putit shown in the Data pane", |h| {
        h.state().panes().data.selected.map(|(_, id)| id.as_str().to_owned()).as_deref() == Some("elona.putit")
    });
}

#[test]
fn the_id_picker_is_searched_by_typing_and_a_click_in_its_search_keeps_it_open() {
    let copy = DemoCopy::new();
    let file = copy.mod_file("elona/content/generators.lua");
    let mut harness = editor_on(&copy.project(), ReplState::default());
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    show(&mut harness, "base.map_generator", "elona.cave");
    let picker = "tile of elona.cave";
    let search = format!("search {picker}");
    enabled(&mut harness, picker);
    harness.get_by_label(picker).scroll_to_me();
    harness.step();
    harness.get_by_label(picker).click();
    step_until(&mut harness, "the list open", |h| h.query_by_label(&search).is_some());
    step_until(&mut harness, "the search box has the keyboard", |h| h.get_by_label(&search).is_focused());
    harness.get_by_label(&search).type_text("wood");
    harness.step();
    assert_eq!(harness.get_by_label(&search).value().as_deref(), Some("wood"), "typing reaches the search box");
    step_until(&mut harness, "only the matches listed", |h| h.query_by_label("elona.wall_stone").is_none());
    assert!(harness.query_by_label("elona.floor_wood").is_some());

    harness.get_by_label(&search).click();
    harness.run_steps(2);
    assert!(harness.query_by_label(&search).is_some(), "a click in the search box keeps the list open");
    harness.key_press(egui::Key::Enter);
    step_until(&mut harness, "the match picked", |_| {
        let text = std::fs::read_to_string(&file).unwrap();
        let cave = text.split("data:add").find(|call| call.contains("_id = \"cave\"")).unwrap().to_owned();
        cave.contains(r#"tile = "elona.floor_wood","#)
    });
    step_until(&mut harness, "the list closed", |h| h.query_by_label(&search).is_none());
}

#[test]
fn duplicate_selects_the_copy_scrolls_to_it_and_says_so_and_the_next_edit_lands_on_it() {
    let copy = DemoCopy::new();
    let file = copy.mod_file("elona/content/charas.lua");
    let mut harness = editor_on(&copy.project(), ReplState::default());
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    show(&mut harness, "base.chara", "elona.putit");
    press(&mut harness, "Duplicate");
    let said = "Duplicated elona.putit as elona.putit_2";
    step_until(&mut harness, "the copy selected and said", |h| {
        h.state().panes().data.selected.map(|(_, id)| id.as_str().to_owned()).as_deref() == Some("elona.putit_2")
            && !labels_containing(h, said).is_empty()
    });
    assert!(std::fs::read_to_string(&file).unwrap().contains(r#"_id = "putit_2","#));
    harness.run_steps(3);
    let pane = pane_rect(&mut harness);
    let row = harness
        .query_all_by_label("elona.putit_2")
        .find(|n| n.accesskit_node().role() != egui::accesskit::Role::Label)
        .expect("the copy's row in the list")
        .rect();
    assert!(pane.contains_rect(row), "the list shows the copy: {row:?} in {pane:?}");

    type_into(&mut harness, "max_hp of elona.putit_2", "60");
    step_until(&mut harness, "the copy edited", |_| {
        let text = std::fs::read_to_string(&file).unwrap();
        text.split("data:add").any(|call| call.contains(r#"_id = "putit_2","#) && call.contains("max_hp = 60,"))
    });
    let text = std::fs::read_to_string(&file).unwrap();
    let putit = text.split("data:add").find(|call| call.contains(r#"_id = "putit","#)).unwrap();
    assert!(putit.contains("max_hp = 6,"), "the original is left as it was: {putit}");
}

#[test]
fn at_1280_by_800_labels_are_whole_the_form_fills_the_pane_and_every_type_is_in_the_type_list() {
    let copy = DemoCopy::new();
    let mut harness = editor_on(&copy.project(), ReplState::default());
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    show(&mut harness, "base.chara", "elona.putit");
    harness.run_steps(3);
    let pane = pane_rect(&mut harness);
    let text_width = |harness: &Harness<'static, EditorApp>, text: &str, style: egui::TextStyle| {
        let font = style.resolve(&harness.ctx.global_style());
        harness.ctx.fonts_mut(|f| f.layout_no_wrap(text.to_owned(), font, egui::Color32::WHITE).size().x)
    };
    // Every field's name, whole and inside the pane.
    let fields: Vec<String> =
        harness.state().state().snapshot.mods.data[0].fields.iter().map(|f| f.name.as_str().to_owned()).collect();
    for name in &fields {
        let node = harness
            .query_all_by_role_and_label(egui::accesskit::Role::Label, name)
            .find(|n| n.rect().center().x > pane.left() && n.rect().center().x < pane.right())
            .unwrap_or_else(|| panic!("{name} in the pane"));
        let rect = node.rect();
        assert!(rect.right() <= pane.right(), "{name} is inside the pane: {rect:?} in {pane:?}");
        let whole = text_width(&harness, name, egui::TextStyle::Body);
        // A name too long for its column wraps onto a second line; none is cut short.
        let wrapped = rect.height() > 24.0;
        assert!(wrapped || rect.width() + 0.5 >= whole, "{name} is whole: {} of {whole} points", rect.width());
    }
    // The buttons and the pickers above the form, whole and inside the pane.
    for label in ["Duplicate", "New", "Delete", "Where used"] {
        let rect = harness.get_by_label(label).rect();
        let whole = text_width(&harness, label, egui::TextStyle::Button);
        assert!(rect.right() <= pane.right() && rect.width() >= whole, "{label}: {rect:?} in {pane:?}");
    }
    let target = harness.get_by_label_contains("target file");
    let whole = text_width(&harness, "after the original", egui::TextStyle::Button);
    assert!(target.rect().right() <= pane.right() && target.rect().width() >= whole, "{:?}", target.rect());
    let origin = harness.get_by_label_contains("charas.lua:").rect();
    assert!(origin.right() <= pane.right(), "where it is added is inside the pane: {origin:?} in {pane:?}");
    // The form has the pane's height below the list: the list takes a third of the pane at
    // most, and the form's rows reach the pane's bottom.
    let heading = harness.get_by_role_and_label(egui::accesskit::Role::Label, "elona.putit").rect();
    assert!(heading.top() <= pane.top() + pane.height() / 3.0, "the form starts at {heading:?} in {pane:?}");
    let shown: Vec<egui::Rect> = fields
        .iter()
        .filter_map(|name| {
            harness.query_all_by_role_and_label(egui::accesskit::Role::Label, name).map(|n| n.rect()).find(|r| {
                r.left() >= pane.left()
                    && r.right() <= pane.right()
                    && r.top() >= pane.top()
                    && r.bottom() <= pane.bottom()
            })
        })
        .collect();
    let bottom = shown.iter().map(|r| r.bottom()).fold(0.0, f32::max);
    assert!(bottom >= pane.bottom() - 30.0, "the form reaches the pane's bottom: {bottom} of {pane:?}");
    assert!(shown.len() >= 7, "{} fields shown at once", shown.len());

    // The last type declared, reached from the type list without searching.
    let last = harness.state().state().snapshot.mods.data.last().expect("data types").id.as_str().to_owned();
    pick_type(&mut harness, &format!("{last} ("));
    let first = harness.state().state().snapshot.mods.data.last().unwrap().entries[0].id.as_str().to_owned();
    step_until(&mut harness, "its prototypes listed", |h| h.query_by_label(&first).is_some());
}

#[test]
fn a_name_is_edited_per_language_into_its_locale_file_and_a_missing_one_is_added_beside() {
    let copy = DemoCopy::new();
    let en = copy.mod_file("elona/locale/en/chara.lua");
    let en_text = std::fs::read_to_string(&en).unwrap();
    let with_desc = en_text.replacen("name = \"putit\",", "name = \"putit\",\n               desc = \"A blob.\",", 1);
    nefia_tests::write(&en, &with_desc).unwrap();
    let jp = copy.mod_file("elona/locale/jp/chara.lua");
    let original = std::fs::read_to_string(&jp).unwrap();
    let mut harness = editor_on(&copy.project(), ReplState::default());
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    show(&mut harness, "base.chara", "elona.putit");
    step_until(&mut harness, "the Localized section", |h| h.query_by_label("name (jp) of elona.putit").is_some());
    let value = |h: &Harness<'static, EditorApp>, label: &str| h.get_by_label(label).value().unwrap_or_default();
    assert_eq!(value(&harness, "name (en) of elona.putit"), "putit");
    assert_eq!(value(&harness, "name (jp) of elona.putit"), "プチ", "each language side by side");
    assert_eq!(value(&harness, "desc (jp) of elona.putit"), "", "jp lacks the description");

    // The section is under the fields: scrolled into view first.
    scroll_into_view(&mut harness, "name (jp) of elona.putit");
    harness.get_by_label("name (jp) of elona.putit").click();
    harness.step();
    harness.key_press(egui::Key::End);
    for _ in 0.."プチ".chars().count() {
        harness.key_press(egui::Key::Backspace);
    }
    harness.get_by_label("name (jp) of elona.putit").type_text("ぷちぷち");
    harness.step();
    harness.key_press(egui::Key::Enter);

    step_until(&mut harness, "the jp file written", |_| std::fs::read_to_string(&jp).unwrap() != original);
    let named = std::fs::read_to_string(&jp).unwrap();
    let changed: Vec<_> = original.lines().zip(named.lines()).filter(|(a, b)| a != b).collect();
    assert_eq!(changed.len(), 1, "one line changed: {changed:?}");
    assert_eq!(changed[0].1.trim(), "name = \"ぷちぷち\",");
    assert!(named.len() == original.len() - "プチ".len() + "ぷちぷち".len(), "every other byte kept");
    assert_eq!(std::fs::read_to_string(&en).unwrap(), with_desc, "the English file untouched");

    scroll_into_view(&mut harness, "desc (jp) of elona.putit");
    type_into(&mut harness, "desc (jp) of elona.putit", "ぷるぷる");
    step_until(&mut harness, "the key added", |_| std::fs::read_to_string(&jp).unwrap() != named);
    let added = std::fs::read_to_string(&jp).unwrap();
    let putit = &added[added.find("putit = {").unwrap()..];
    let putit = &putit[..putit.find('}').unwrap()];
    assert!(putit.contains("desc = \"ぷるぷる\""), "added in putit's table of the jp file: {putit}");
    eval_values(&mut harness, "I18N.switch_language('base.japanese')");
    assert_eq!(eval_values(&mut harness, "I18N.get('chara._.elona.putit.desc')"), ["\"ぷるぷる\""]);

    for expected in [&named, &original] {
        harness
            .state()
            .host()
            .send(nefia_protocol::message::Command::Editing(nefia_protocol::editing::EditingCommand::Undo));
        step_until(&mut harness, "the undo", |_| std::fs::read_to_string(&jp).unwrap() == **expected);
    }
}

#[test]
fn the_form_shows_each_sprite_of_the_prototypes_art_with_where_it_is_cut_from() {
    let copy = DemoCopy::new();
    let mut harness = editor_on(&copy.project(), ReplState::default());
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    show(&mut harness, "base.map_tile", "elona.water");
    assert_eq!(labels_containing(&harness, " of 16: "), Vec::<String>::new(), "folded until opened");
    let header = "Art: 16 sprites, a Wang set";
    scroll_into_view(&mut harness, header);
    harness.get_by_label(header).click();
    step_until(&mut harness, "the sprites", |h| !labels_containing(h, " of 16: ").is_empty());
    assert!(!labels_containing(&harness, "the piece its 4 edge neighbours call for").is_empty(), "how one is chosen");
    let sprites = labels_containing(&harness, " of 16: tiles/water.png at (");
    assert_eq!(sprites.len(), 16, "each piece: {sprites:?}");
    assert!(sprites.iter().all(|s| s.contains("32×32, 4 frames over 1200 ms")), "animated: {sprites:?}");
    // Each drawn from its sheet (not a "?" for a sheet not found): the sprites shown between
    // the section's title and the one under it, once that is in view; and animated, as the
    // map animates them: on the renderer's clock, 300 ms on, each shows its next frame.
    scroll_into_view(&mut harness, "Localized");
    let (top, bottom) = (harness.get_by_label(header).rect().bottom(), harness.get_by_label("Localized").rect().top());
    let mut frame_at = |time_ms| {
        harness.state_mut().state_mut().viewport.set_animation_clock(Some(time_ms));
        harness.run_steps(2);
        let shown = sprites_shown(&harness, |bounds| (top..bottom).contains(&bounds.center().y));
        shown.iter().map(|mesh| mesh.vertices[0].uv).collect::<Vec<_>>()
    };
    let (first, next) = (frame_at(0), frame_at(300));
    assert_eq!((first.len(), next.len()), (16, 16), "each piece drawn");
    assert!(first.iter().zip(&next).all(|(a, b)| a != b), "each on its next frame 300 ms in");
    show(&mut harness, "base.map_tile", "base.floor");
    assert!(harness.query_by_label_contains("Art:").is_none(), "base's floor has no image");
}
