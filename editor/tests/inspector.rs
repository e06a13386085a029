//! The inspector, the locations browser and undo, driven headless: base and temp edits with
//! their provenance, refresh, drag and drop with refusals, and undoing a removal.

mod common;

use common::{cell_center, click_at, eval, eval_values, result, started, step_until};
use egui_kittest::Harness;
use egui_kittest::kittest::{NodeT, Queryable};
use nefia_editor::app::EditorApp;
use nefia_editor::context::Tab;
use nefia_game::{Uid, Value};

fn player(harness: &Harness<'static, EditorApp>) -> Uid {
    harness.state().state().snapshot.player.expect("the demo has a player")
}

/// The player's row of `field` in the inspector: (calc, temp value).
fn row(harness: &Harness<'static, EditorApp>, field: &str) -> (Option<Value>, Option<Value>) {
    let snapshot = &harness.state().state().snapshot;
    let player =
        snapshot.editing.inspected.iter().find(|o| Some(o.uid) == snapshot.player).expect("the player is inspected");
    let row = player.fields.iter().find(|r| r.name == field).expect("the field is listed");
    (row.calc.clone(), row.temp.as_ref().map(|t| t.value.clone()))
}

/// Selects the player and waits for the inspector to show it.
fn inspect_player(harness: &mut Harness<'static, EditorApp>) {
    let uid = player(harness);
    harness.state_mut().state_mut().select(vec![uid]);
    step_until(harness, "the inspector", |h| h.query_by_label("base fov").is_some());
}

fn set_number(harness: &mut Harness<'static, EditorApp>, label: &str, value: &str) {
    harness.get_by_label(label).click();
    harness.step();
    harness.key_combination(&[egui::Key::A]);
    harness.get_by_label(label).type_text(value);
    harness.step();
    harness.key_press(egui::Key::Enter);
    harness.step();
}

#[test]
fn editing_a_base_value_changes_calc_and_undo_restores_it() {
    let mut harness = started();
    inspect_player(&mut harness);
    set_number(&mut harness, "base strength", "9");
    step_until(&mut harness, "calc strength = 9", |h| row(h, "strength").0 == Some(Value::Int(9)));
    assert!(harness.query_by_label("9").is_some(), "the calc column shows it");
    assert_eq!(eval_values(&mut harness, "Chara.player().strength"), ["9"]);
    assert!(harness.state().state().snapshot.editing.history.labels.last().unwrap().starts_with("Set strength = 9"));
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    step_until(&mut harness, "the undo", |h| row(h, "strength").0 == Some(Value::Int(6)));
}

#[test]
fn a_temp_add_shows_its_provenance_refresh_clears_it_and_a_handler_reapplies() {
    let mut harness = started();
    inspect_player(&mut harness);
    harness.get_by_label("add temp dv").click();
    step_until(&mut harness, "the temp form", |h| h.query_by_label("Apply").is_some());
    // A popup's first frame measures it; it is in place from the next.
    harness.run_steps(2);
    set_number(&mut harness, "temp value", "20");
    harness.get_by_label("Apply").click();
    step_until(&mut harness, "calc dv = 24", |h| row(h, "dv") == (Some(Value::Int(24)), Some(Value::Int(24))));
    assert!(harness.query_by_label("add 20").is_some(), "the why column shows the contribution");

    harness.get_by_label("Refresh").click();
    step_until(&mut harness, "the refresh", |h| row(h, "dv") == (Some(Value::Int(4)), None));
    assert!(harness.query_by_label("add 20").is_none(), "refresh cleared the temp value");

    eval(
        &mut harness,
        "Event.register('base.on_chara_refreshed', 'test.blessing', function(c) c:mod('dv', 7, 'add') end)",
    );
    harness.get_by_label("Refresh").click();
    step_until(&mut harness, "the handler", |h| row(h, "dv").0 == Some(Value::Int(11)));
    assert!(harness.query_by_label("add 7").is_some(), "the handler's contribution shows");
}

#[test]
fn the_fov_trap_is_pointed_out() {
    let mut harness = started();
    inspect_player(&mut harness);
    eval(&mut harness, "Chara.player():mod('fov', 100) Chara.player().fov = 5");
    step_until(&mut harness, "calc fov = 100", |h| row(h, "fov").0 == Some(Value::Int(100)));
    assert!(harness.query_by_label("⚠").is_some(), "the hidden base value is flagged");
}

#[test]
fn dragging_an_item_into_a_full_inventory_is_refused_and_nothing_moves() {
    let mut harness = started();
    eval_values(&mut harness, "Chara.player().inventory_capacity = 0");
    harness.state_mut().open_tab(Tab::Locations);
    let putitoro = eval_values(
        &mut harness,
        "(function() for _, i in Item.iter() do if i._id == 'elona.putitoro' then return i.uid end end end)()",
    )[0]
    .parse::<u64>()
    .unwrap();
    // Both rows in view at once: the search lists matches flat.
    harness.state_mut().panes_mut().locations.search = "elona.p".into();
    let item_row = format!("uid {putitoro} elona.putitoro");
    step_until(&mut harness, "the item row", |h| h.query_by_label_contains(&item_row).is_some());
    let player = player(&harness);
    let player_row = format!("uid {} elona.player", player.0);
    step_until(&mut harness, "the player row", |h| h.query_by_label_contains(&player_row).is_some());

    let from = harness.get_by_label_contains(&item_row).rect().center();
    let to = harness.get_by_label_contains(&player_row).rect().center();
    harness.drag_at(from);
    harness.step();
    harness.hover_at(from + egui::vec2(0.0, 12.0));
    harness.step();
    harness.drop_at(to);
    harness.step();
    step_until(&mut harness, "the refusal", |h| h.state().state().notice.is_some());
    let notice = &harness.state().state().notice.as_ref().unwrap().0;
    assert!(notice.contains("full"), "{notice}");
    assert_eq!(eval_values(&mut harness, &format!("World.object({putitoro}).location == Map.current()")), ["true"]);
}

#[test]
fn undo_brings_back_a_removed_object_with_its_uid_at_its_place() {
    let mut harness = started();
    let (uid, x, y) = {
        let values = eval_values(
            &mut harness,
            "(function() for _, c in Chara.iter() do if c._id == 'elona.putit' then return c.uid, c.x, c.y end end end)()",
        );
        (values[0].parse::<u64>().unwrap(), values[1].clone(), values[2].clone())
    };
    harness.state_mut().state_mut().outbox.push(nefia_protocol::message::Command::Editing(
        nefia_protocol::editing::EditingCommand::Edit(nefia_game::edit::Edit::Remove { uids: vec![Uid(uid)] }),
    ));
    harness.step();
    step_until(&mut harness, "the removal", |h| !h.state().state().snapshot.editing.history.labels.is_empty());
    assert_eq!(eval_values(&mut harness, &format!("World.object({uid}).location")), ["nil"]);
    harness.state_mut().open_tab(Tab::History);
    harness.step();
    // The label names the object as a person reads it, not as a Lua handle prints.
    let label = format!("Remove elona.putit (uid {uid})");
    step_until(&mut harness, "the History pane", |h| h.query_by_label(&label).is_some());
    assert!(harness.query_by_label_contains("<object").is_none(), "no raw handle in the History pane");
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    step_until(&mut harness, "the undo", |h| h.state().state().snapshot.editing.history.done == 0);
    let back = eval_values(
        &mut harness,
        &format!("local o = World.object({uid}) return o.location == Map.current(), o.x, o.y, o.uid"),
    );
    assert_eq!(back, ["true".to_owned(), x, y, uid.to_string()]);
}

/// Puts an item and, on it, a yeek at (3, 3) and waits until they are drawn; returns their
/// uids, bottom first.
fn item_under_a_yeek(harness: &mut Harness<'static, EditorApp>) -> (Uid, Uid) {
    let ids = eval_values(
        harness,
        "local a = Item.create('elona.putitoro', 3, 3) local b = Chara.create('elona.yeek', 3, 3) return a.uid, b.uid",
    );
    let (item, yeek) = (Uid(ids[0].parse().unwrap()), Uid(ids[1].parse().unwrap()));
    step_until(harness, "the new objects drawn", |h| {
        h.state().state().viewport.report.objects.iter().any(|o| o.uid == yeek)
    });
    (item, yeek)
}

#[test]
fn clicking_selects_cycles_through_a_stack_and_shift_adds() {
    let mut harness = started();
    let (item, yeek) = item_under_a_yeek(&mut harness);
    let player = player(&harness);
    let cell = cell_center(&harness, 3, 3);
    click_at(&mut harness, cell, egui::Modifiers::NONE);
    assert_eq!(harness.state().state().selection, [yeek], "the top object first");
    click_at(&mut harness, cell, egui::Modifiers::NONE);
    assert_eq!(harness.state().state().selection, [item], "then the one under it");
    let player_cell = cell_center(&harness, 16, 10);
    click_at(&mut harness, player_cell, egui::Modifiers::SHIFT);
    assert_eq!(harness.state().state().selection, [item, player], "shift adds");
    step_until(&mut harness, "the selection in the runtime", |h| eval_values(h, "#Editor.selection()") == ["2"]);
}

#[test]
fn clicks_made_while_the_runtime_is_busy_are_not_undone_when_it_catches_up() {
    let mut harness = started();
    let (item, _) = item_under_a_yeek(&mut harness);
    // Both clicks are made while the runtime is busy; it takes the first click's selection,
    // then is busy again before the second's: its snapshots show the first one meanwhile.
    let busy = "local t = os.clock() while os.clock() - t < 0.3 do end return 1";
    let cell = cell_center(&harness, 3, 3);
    eval(&mut harness, busy);
    click_at(&mut harness, cell, egui::Modifiers::NONE);
    let busy = eval(&mut harness, busy);
    click_at(&mut harness, cell, egui::Modifiers::NONE);
    assert_eq!(harness.state().state().selection, [item], "the second click went under the yeek");
    // As the runtime works through them, the first click's echo must not come back.
    step_until(&mut harness, "the runtime to show the second click", |h| {
        assert_eq!(h.state().state().selection, [item], "the editor's selection stays");
        result(h, busy).is_some() && h.state().state().snapshot.editing.selection == [item]
    });
}

#[test]
fn a_box_drag_selects_everything_in_it() {
    let mut harness = started();
    eval_values(
        &mut harness,
        "Chara.create('elona.yeek', 2, 2) Chara.create('elona.yeek', 4, 3) Item.create('elona.dagger', 9, 9)",
    );
    step_until(&mut harness, "the yeeks drawn", |h| {
        h.state().state().viewport.report.objects.iter().filter(|o| o.glyph == "y").count() == 2
    });
    let (from, to) = (cell_center(&harness, 1, 1), cell_center(&harness, 5, 4));
    harness.drag_at(from);
    harness.step();
    harness.hover_at(from + egui::vec2(10.0, 10.0));
    harness.step();
    harness.hover_at(to);
    harness.step();
    harness.drop_at(to);
    harness.step();
    assert_eq!(harness.state().state().selection.len(), 2, "both yeeks and nothing else");
}

#[test]
fn several_selected_objects_share_their_fields_and_an_edit_applies_to_all() {
    let mut harness = started();
    let ids = eval_values(
        &mut harness,
        "local a = Chara.create('elona.putit', 2, 2) local b = Chara.create('elona.putit', 3, 2) return a.uid, b.uid",
    );
    let uids: Vec<Uid> = ids.iter().map(|s| Uid(s.parse().unwrap())).collect();
    harness.state_mut().state_mut().select(uids.clone());
    step_until(&mut harness, "the shared fields", |h| h.query_by_label("2 objects selected").is_some());
    set_number(&mut harness, "base hp", "3");
    step_until(&mut harness, "both changed", |h| {
        eval_values(h, &format!("World.object({}).hp, World.object({}).hp", uids[0].0, uids[1].0)) == ["3", "3"]
    });
}

#[test]
fn a_pinned_inspector_keeps_its_object_and_editor_select_works_from_lua() {
    let mut harness = started();
    eval_values(&mut harness, "Editor.select(Chara.player())");
    step_until(&mut harness, "the selection from Lua", |h| h.state().state().selection == [player(h)]);
    step_until(&mut harness, "the inspector", |h| h.query_by_label("📌 Pin").is_some());
    harness.get_by_label("📌 Pin").click();
    harness.step();
    let uid = player(&harness);
    assert!(harness.state_mut().dock_mut().find_tab(&Tab::PinnedInspector(uid.0)).is_some());
    harness.state_mut().state_mut().select(Vec::new());
    step_until(&mut harness, "the pinned pane still shows the player", |h| {
        h.state().state().snapshot.editing.inspected.iter().any(|o| o.uid == uid)
            && h.state().state().selection.is_empty()
    });
}

#[test]
fn locations_search_finds_by_uid_id_and_name_and_the_context_menu_clones() {
    let mut harness = started();
    harness.state_mut().open_tab(Tab::Locations);
    let uid = player(&harness);
    for search in [format!("uid {}", uid.0), "elona.player".to_owned(), "you".to_owned()] {
        harness.state_mut().panes_mut().locations.search = search.clone();
        step_until(&mut harness, &search, |h| {
            h.query_by_label_contains(&format!("uid {} elona.player", uid.0)).is_some()
        });
    }
    harness.state_mut().panes_mut().locations.search = "elona.shopkeeper".into();
    let mut shopkeeper = harness.state().state().snapshot.locations.maps.iter().flat_map(|m| m.objects.iter());
    let shopkeeper = shopkeeper.find(|r| r.id.as_str() == "elona.shopkeeper").expect("a shopkeeper").uid;
    // Its row in Locations (the Palette lists the prototype too).
    let row = format!("uid {} elona.shopkeeper", shopkeeper.0);
    step_until(&mut harness, "the shopkeeper", |h| h.query_by_label_contains(&row).is_some());
    harness.get_by_label_contains(&row).click_secondary();
    harness.step();
    harness.get_by_label("Clone").click();
    step_until(&mut harness, "the clone", |h| {
        h.state().state().snapshot.editing.history.labels.iter().any(|l| l.starts_with("Clone"))
    });
    assert_eq!(
        eval_values(
            &mut harness,
            "local n = 0 for _, c in Chara.iter() do if c._id == 'elona.shopkeeper' then n = n + 1 end end return n"
        ),
        ["2"]
    );
}

#[test]
fn the_inspector_lists_the_event_handlers_an_object_has_of_its_own() {
    let mut harness = started();
    eval(&mut harness, "Chara.player():connect_self('base.on_damage', 'Flinch', function() end, 50)");
    inspect_player(&mut harness);
    step_until(&mut harness, "the handlers' header", |h| h.query_by_label("Its own event handlers (1)").is_some());
    harness.get_by_label("Its own event handlers (1)").click();
    step_until(&mut harness, "the handler", |h| {
        h.query_by_label_contains("base.on_damage · Flinch (priority 50) at").is_some()
    });
}

/// Shows only the player's fields named like `filter` in the inspector.
fn filter_fields(harness: &mut Harness<'static, EditorApp>, filter: &str) {
    harness.state_mut().panes_mut().inspector.filters.insert(None, filter.to_owned());
    harness.step();
}

/// How many tooltips hovering the label `text` shows with `text` in them: the labels that
/// read `text` once the tooltip delay has passed, less the hovered one.
fn tooltips_of(harness: &mut Harness<'static, EditorApp>, text: &str) -> usize {
    let at = harness.get_by_label(text).rect().center();
    harness.hover_at(at);
    // Each step is a quarter of a second: past the tooltip delay.
    harness.run_steps(4);
    let shown = harness.query_all_by_label(text).count() - 1;
    // The pointer leaves, and the tooltip with it.
    harness.hover_at(egui::pos2(1.0, 1.0));
    harness.run_steps(2);
    shown
}

/// A field of the player's own with a name longer than the field column is wide at 1280×800
/// (the column fits the names up to half the pane).
const LONG_FIELD: &str = "a_field_name_longer_than_half_the_inspector";

/// Gives the player [`LONG_FIELD`].
fn with_long_field(harness: &mut Harness<'static, EditorApp>) {
    eval_values(harness, &format!("Chara.player().{LONG_FIELD} = 1"));
}

#[test]
fn a_cut_field_name_shows_whole_in_one_tooltip() {
    let mut harness = started();
    with_long_field(&mut harness);
    inspect_player(&mut harness);
    filter_fields(&mut harness, LONG_FIELD);
    step_until(&mut harness, "the row", |h| h.query_by_label(LONG_FIELD).is_some());
    assert_eq!(tooltips_of(&mut harness, LONG_FIELD), 1, "one tooltip with the whole name");
}

#[test]
fn a_column_dragged_wider_shows_a_cut_name_uncut() {
    let mut harness = started();
    with_long_field(&mut harness);
    inspect_player(&mut harness);
    filter_fields(&mut harness, LONG_FIELD);
    step_until(&mut harness, "the row", |h| h.query_by_label(LONG_FIELD).is_some());
    assert_eq!(tooltips_of(&mut harness, LONG_FIELD), 1, "the name starts cut");
    let cut = harness.get_by_label(LONG_FIELD).rect().width();

    // The border between the field and base columns (half a spacing before the base column's
    // header, above the row), dragged 200 points to the right.
    let name = harness.get_by_label(LONG_FIELD).rect();
    let base = harness
        .query_all_by_label("base")
        .map(|header| header.rect())
        .filter(|header| header.left() > name.left() && header.bottom() <= name.top())
        .min_by(|a, b| (name.top() - a.bottom()).total_cmp(&(name.top() - b.bottom())))
        .expect("the base column's header");
    let from = egui::pos2(base.left() - 4.0, base.center().y);
    let to = from + egui::vec2(200.0, 0.0);
    harness.hover_at(from);
    harness.step();
    harness.drag_at(from);
    harness.step();
    harness.hover_at(from + egui::vec2(10.0, 0.0));
    harness.step();
    harness.hover_at(to);
    harness.step();
    harness.drop_at(to);
    harness.step();

    let whole = harness.get_by_label(LONG_FIELD).rect().width();
    assert!(whole > cut, "the name takes more room: {cut} → {whole}");
    assert_eq!(tooltips_of(&mut harness, LONG_FIELD), 0, "a whole name needs no tooltip");
    harness.state_mut().state_mut().select(Vec::new());
    step_until(&mut harness, "nothing inspected", |h| h.query_by_label(LONG_FIELD).is_none());
    let uid = player(&harness);
    harness.state_mut().state_mut().select(vec![uid]);
    step_until(&mut harness, "the player again", |h| h.query_by_label(LONG_FIELD).is_some());
    assert_eq!(harness.get_by_label(LONG_FIELD).rect().width(), whole, "the column keeps its width");
}

#[test]
fn the_inspector_edits_a_declared_field_with_the_widget_its_type_calls_for() {
    let mut harness = started();
    inspect_player(&mut harness);
    // `relation` is one of "hostile", "neutral", "ally" or an `Enum.Relation` value: a choice, not a text box.
    harness.get_by_role_and_label(egui::accesskit::Role::ComboBox, "base relation").click();
    step_until(&mut harness, "the choices", |h| h.query_by_label("neutral").is_some());
    // A popup's first frame measures it; it is in place from the next.
    harness.run_steps(2);
    harness.get_by_label("neutral").click();
    step_until(&mut harness, "relation = neutral", |h| row(h, "relation").0 == Some(Value::str("neutral")));

    // `max_hp` is a `uint`: -5 is sent as typed (never clamped to 0), the host refuses it with
    // the type's message, and nothing changes.
    let before = row(&harness, "max_hp").0;
    set_number(&mut harness, "base max_hp", "-5");
    step_until(&mut harness, "the refusal in the pane", |h| h.query_by_label_contains("⚠ max_hp = -5:").is_some());
    let reason = harness.get_by_label_contains("⚠ max_hp = -5:").accesskit_node().value().unwrap_or_default();
    assert!(reason.contains("int >= 0"), "it says what the field takes: {reason}");
    assert_eq!(row(&harness, "max_hp").0, before, "nothing was clamped or written");
}

#[test]
fn a_value_the_host_refuses_shows_why_in_the_inspector() {
    let mut harness = started();
    inspect_player(&mut harness);
    // A temp value set to -5 for `fov`, a `uint`: the host refuses it.
    harness.get_by_label("add temp fov").click();
    step_until(&mut harness, "the temp form", |h| h.query_by_label("Apply").is_some());
    harness.run_steps(2);
    harness.get_by_label("set").click();
    harness.step();
    set_number(&mut harness, "temp value", "-5");
    harness.get_by_label("Apply").click();
    step_until(&mut harness, "the refusal in the pane", |h| h.query_by_label_contains("⚠ fov = -5:").is_some());
    let reason = harness.get_by_label_contains("⚠ fov = -5:").accesskit_node().value().unwrap_or_default();
    assert!(reason.contains("int >= 0"), "it says what the field takes: {reason}");
    assert_eq!(row(&harness, "fov").1, None, "no temp value was set");
}

#[test]
fn a_declared_list_gets_items_added_and_removed_in_the_inspector() {
    let mut harness = started();
    inspect_player(&mut harness);
    filter_fields(&mut harness, "equip_slots");
    let slots = |h: &mut Harness<'static, EditorApp>| eval_values(h, "#Chara.player().equip_slots")[0].clone();
    assert_eq!(slots(&mut harness), "7");
    harness.get_by_label("add an item to base equip_slots").click();
    step_until(&mut harness, "an eighth slot", |h| slots(h) == "8");
    harness.get_by_label("⏵").click();
    step_until(&mut harness, "the items", |h| h.query_by_label("remove base equip_slots/8").is_some());
    harness.get_by_label("remove base equip_slots/8").click();
    step_until(&mut harness, "seven slots again", |h| slots(h) == "7");
    assert_eq!(eval_values(&mut harness, "Chara.player().equip_slots[7]"), ["\"feet\""], "the last one went");
}

#[test]
fn a_cell_of_a_map_with_rules_says_why_its_tile_is_there_and_opens_the_rules() {
    use nefia_game::value::Value;
    use nefia_protocol::message::Command;
    use nefia_protocol::workbench::WorkbenchCommand;
    let copy = nefia_tests::DemoCopy::new();
    let mut harness = common::editor_on(&copy.project(), nefia_editor::panes::repl::ReplState::default());
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    let preview = WorkbenchCommand::Preview { generator: "elona.cave".into(), params: Value::Nil, seed: 2 };
    harness.state().host().send(Command::Workbench(preview));
    step_until(&mut harness, "the cave", |h| {
        h.state().state().snapshot.map.as_ref().is_some_and(|m| m.name == "elona.cave #2")
    });
    let (map, face) = {
        let map = harness.state().state().snapshot.map.clone().unwrap();
        let cells = (0..map.height).flat_map(|y| (0..map.width).map(move |x| (x, y)));
        let face = cells.clone().find(|&(x, y)| map.tile_at(x, y).is_some_and(|t| t.id.as_str() == "elona.wall_face"));
        (map.id, face.expect("the cave has wall faces"))
    };
    harness.state_mut().open_tab(Tab::Inspector);
    harness.run_steps(2);
    // The Select tool's click on the cell.
    let at = cell_center(&harness, face.0, face.1);
    click_at(&mut harness, at, egui::Modifiers::NONE);
    step_until(&mut harness, "the cell inspected", |h| h.state().state().snapshot.editing.cell.is_some());
    let inspected = harness.state().state().snapshot.editing.cell.as_ref().map(|c| (c.map, c.x, c.y));
    assert_eq!(inspected, Some((map, face.0, face.1)));
    step_until(&mut harness, "the explanation", |h| h.query_by_label("Why is this tile here?").is_some());
    step_until(&mut harness, "the winner", |h| h.query_by_label("rule 3 'wall face'").is_some());
    assert!(harness.query_by_label("Placed by").is_some());
    // The rule's name is a link to its own line, the item of the set's `rules` it is.
    let winner = harness.state().state().snapshot.editing.cell.as_ref().and_then(|c| c.explained.clone().ok());
    let line = winner.and_then(|w| w.winner).and_then(|w| w.line).expect("the rule's line");
    let text = std::fs::read_to_string(nefia_tests::repo_root().join("mods/elona/content/map.lua")).unwrap();
    // The rule begins there: its table's `{`, its name on the line after.
    let written: Vec<&str> = text.lines().skip(usize::try_from(line).unwrap() - 1).take(2).collect();
    assert_eq!(written[0].trim(), "{", "line {line} begins the rule");
    assert!(written[1].contains("\"wall face\""), "line {line} is the rule's: {written:?}");
    let shown = format!("({}, {}) shows elona.wall_face; it is meant to be elona.wall_stone.", face.0, face.1);
    assert!(harness.query_by_label(&shown).is_some(), "{shown}");

    // The rule set's name shows it in the Data pane.
    harness.get_by_label("elona.cave_detail").click_accesskit();
    harness.run_steps(2);
    let selected = harness.state().panes().data.selected.map(|(t, id)| (t.to_string(), id.to_string()));
    assert_eq!(selected, Some(("base.autotile_rule_set".to_owned(), "elona.cave_detail".to_owned())));

    // The viewport's Intent toggle draws what each cell is meant to be: the face's wall.
    harness.get_by_label("Intent").click();
    harness.run_steps(2);
    let viewport = &harness.state().state().viewport;
    assert!(viewport.toggles.intent);
    let drawn = viewport.drawn_intent().expect("the intent was drawn");
    assert_eq!(drawn.tile_at(face.0, face.1).map(|t| t.id.as_str()), Some("elona.wall_stone"));
    assert_ne!(drawn.chunks[0].tiles, harness.state().state().snapshot.map.as_ref().unwrap().chunks[0].tiles);
    harness.get_by_label("Intent").click();
    harness.run_steps(2);
    assert!(!harness.state().state().viewport.toggles.intent, "toggled back to the painted tiles");
}
