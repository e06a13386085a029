//! OpenNefia's own engine tests (`src/test/` in its repository) of what Nefia has, counted:
//! each is listed with where Nefia's port of it is (a `test_*` function of the same name in
//! `tests/lua/opennefia_*.lua`, or one named otherwise), or why it is not ported. Each port
//! runs as a test named after OpenNefia's file and test, the others are listed as ignored with
//! their reason, and the run fails if fewer than [`AT_LEAST`] are ported.
//!
//! The scope: OpenNefia's tests of map objects, their events and instantiation, clones,
//! stacks, locations, equipment, containers, maps, saves, hotloading and data (68 tests of 21
//! files), and its IItemContainer and ICharaEquip tests (8 more). Its other tests are of what
//! Nefia does not have (areas, aspects, enchantments, advice, activities, menus, drawing).

use std::collections::BTreeSet;
use std::path::PathBuf;

use libtest_mimic::{Arguments, Trial};
use nefia_tests::lua_tests::{lua_dir, run_test, test_files, test_names};

/// How many of the tests must be ported (and, the run checks, pass).
const AT_LEAST: usize = 67;

/// Where Nefia's port of an OpenNefia test is.
enum Port {
    /// A `test_*` function of OpenNefia's name in one of `tests/lua/opennefia_*.lua`.
    Named,
    /// A `test_*` function of another name in `tests/lua/<file>.lua`.
    As(&'static str, &'static str),
    /// Not ported, for this reason.
    Not(&'static str),
}

const NO_AREAS: Port = Port::Not("Nefia has no areas or staying characters (OpenNefia's StayingCharas)");
const NO_ASPECTS: Port = Port::Not("Nefia has no aspects");
const NO_ENCHANTMENTS: Port = Port::Not("Nefia has no enchantments");
const NO_BONUSES: Port = Port::Not("Nefia's equipment gives no hit or damage bonus, and it lacks the items compared");

/// OpenNefia's tests in scope: its file under `src/test/`, its test, Nefia's port.
const TESTS: &[(&str, &str, Port)] = &[
    ("api/IEventEmitter.lua", "test_IEventEmitter_has_event_handler", Port::Named),
    ("api/IEventEmitter.lua", "test_IEventEmitter_has_event_handler__throws_if_invalid", Port::Named),
    ("api/IEventEmitter.lua", "test_IEventEmitter_disconnect_self", Port::Named),
    ("api/IMapObject.lua", "test_IMapObject_set_pos", Port::Named),
    ("api/IMapObject.lua", "test_IMapObject_current_map", Port::Named),
    ("api/IMapObject.lua", "test_IMapObject_containing_map", Port::Named),
    ("api/IMapObject.lua", "test_IMapObject_containing_map__position", Port::Named),
    ("api/IObject.lua", "test_IObject_change_prototype__IEventEmitter_prototype_callbacks_added", Port::Named),
    ("api/IObject.lua", "test_IObject_change_prototype__IEventEmitter_prototype_callbacks_removed", Port::Named),
    ("api/IObject.lua", "test_IObject_change_prototype__IEventEmitter_prototype_callbacks_preserved", Port::Named),
    ("api/IStackableObject.lua", "test_IStackableObject_separate__single", Port::Named),
    ("api/IStackableObject.lua", "test_IStackableObject_separate__multiple", Port::Named),
    ("api/IStackableObject.lua", "test_IStackableObject_separate__amount", Port::Named),
    ("api/IStackableObject.lua", "test_IStackableObject_separate__amount_exceeding", Port::Named),
    ("api/IStackableObject.lua", "test_IStackableObject_separate__same_location", Port::Named),
    ("api/IStackableObject.lua", "test_IStackableObject_separate__events", Port::Named),
    ("api/IStackableObject.lua", "test_IStackableObject_can_stack_with__nonobject", Port::Named),
    ("api/IStackableObject.lua", "test_IStackableObject_can_stack_with__self", Port::Named),
    ("api/IStackableObject.lua", "test_IStackableObject_can_stack_with__different_object_type", Port::Named),
    ("api/IStackableObject.lua", "test_IStackableObject_can_stack_with__no_location", Port::Named),
    ("api/IStackableObject.lua", "test_IStackableObject_can_stack_with__different_location", Port::Named),
    ("api/IStackableObject.lua", "test_IStackableObject_can_stack_with__different_id", Port::Named),
    ("api/IStackableObject.lua", "test_IStackableObject_can_stack_with__separated", Port::Named),
    ("api/IStackableObject.lua", "test_IStackableObject_can_stack_with__separated_in_map", Port::Named),
    ("api/IStackableObject.lua", "test_IStackableObject_stack__aspect", NO_ASPECTS),
    ("api/IStackableObject.lua", "test_IStackableObject_stack", Port::Named),
    ("api/IStackableObject.lua", "test_IStackableObject_stack__chara", Port::Named),
    ("api/Feat.lua", "test_Feat_create__params_validation", Port::Named),
    ("api/Map.lua", "test_Map_delete__removes_stayers", NO_AREAS),
    ("api/Map.lua", "test_Map_travel_to__deletes_saved_temporary_maps", Port::Named),
    ("api/Map.lua", "test_Map_travel_to__preserves_saved_nontemporary_maps", Port::Named),
    ("api/MapObject.lua", "test_MapObject_clone", Port::Named),
    ("api/MapObject.lua", "test_MapObject_clone__owned_chara", Port::Named),
    ("api/MapObject.lua", "test_MapObject_clone__owned_item", Port::Named),
    ("api/MapObject.lua", "test_MapObject_clone__owned_equipment", Port::Named),
    ("api/MapObject.lua", "test_MapObject_is_map_object", Port::Named),
    ("api/MapObject.lua", "test_MapObject_clone__equip_slots", Port::Named),
    ("api/Save.lua", "test_Save_save_game__sanitizes_save_id", Port::Named),
    (
        "api/chara/EquipSlots.lua",
        "test_EquipSlots_iter_all_body_parts__blocked",
        Port::As("equip_slots", "test_slots_of_their_own_leave_blocked_parts_out"),
    ),
    ("api/chara/IChara.lua", "test_IChara_swap_places", Port::Named),
    ("api/chara/IChara.lua", "test_IChara_kill__unregisters_staying", NO_AREAS),
    ("api/chara/IChara.lua", "test_IChara_vaniquish__unregisters_staying", NO_AREAS),
    ("api/chara/IChara.lua", "test_IChara_remove_ownership__unregisters_staying", NO_AREAS),
    ("api/item/IItem.lua", "test_IItem_get_owning_chara", Port::Named),
    ("event/instantiate_feat.lua", "test_feat_event_emitter_callbacks_restored", Port::Named),
    ("event/instantiate_feat.lua", "test_object_change_prototype__feat_callbacks_added", Port::Named),
    ("event/instantiate_feat.lua", "test_object_change_prototype__feat_callbacks_removed", Port::Named),
    ("event/instantiate_feat.lua", "test_object_change_prototype__feat_callbacks_preserved", Port::Named),
    ("event/instantiate_item.lua", "test_item_event_emitter_callbacks_restored", Port::Named),
    ("event/instantiate_item.lua", "test_object_change_prototype__item_callbacks_added", Port::Named),
    ("event/instantiate_item.lua", "test_object_change_prototype__item_callbacks_removed", Port::Named),
    ("event/instantiate_item.lua", "test_object_change_prototype__item_callbacks_preserved", Port::Named),
    ("event/instantiate_mef.lua", "test_object_change_prototype__mef_callbacks_added", Port::Named),
    ("event/instantiate_mef.lua", "test_object_change_prototype__mef_callbacks_removed", Port::Named),
    ("event/instantiate_mef.lua", "test_object_change_prototype__mef_callbacks_preserved", Port::Named),
    ("event/on_hotload.lua", "test_hotload_IEventEmitter_events", Port::Named),
    ("internal/hotload.lua", "test_hotload_hotload", Port::Named),
    ("internal/data_table.lua", "test_data_table__ext", Port::Named),
    ("internal/object.lua", "test_object___tostring", Port::Named),
    ("internal/object.lua", "test_object__get_reserved_field", Port::Named),
    ("internal/object.lua", "test_object__set_reserved_field", Port::Named),
    ("internal/object.lua", "test_object_serialize", Port::Named),
    ("internal/object.lua", "test_object_change_prototype", Port::Named),
    ("internal/object.lua", "test_object_instantiate_events_save", Port::Named),
    ("internal/object.lua", "test_object_instantiate_events_map_load", Port::Named),
    ("location.lua", "test_item_owning_location", Port::Named),
    (
        "location.lua",
        "test_transfer_between_two_nested_inventories",
        Port::As("inventories", "test_a_shopkeepers_stock_hands_its_items_to_a_container"),
    ),
    ("mef.lua", "test_mef_serialize_origin", Port::Named),
    ("api/item/IItemContainer.lua", "test_IItemContainer_is_item_container__false", Port::Named),
    ("api/item/IItemContainer.lua", "test_IItemContainer_is_item_container__true", Port::Named),
    ("api/item/IItemContainer.lua", "test_IItemContainer_is_item_container__containing_map", Port::Named),
    ("api/chara/ICharaEquip.lua", "test_ICharaEquip_equip_item", Port::Named),
    ("api/chara/ICharaEquip.lua", "test_ICharaEquip_iter_merged_enchantments__single", NO_ENCHANTMENTS),
    ("api/chara/ICharaEquip.lua", "test_ICharaEquip_iter_merged_enchantments__multiple", NO_ENCHANTMENTS),
    ("api/chara/ICharaEquip.lua", "test_ICharaEquip_on_refresh__weapon_bonuses", NO_BONUSES),
    ("api/chara/ICharaEquip.lua", "test_ICharaEquip_on_refresh__equipment_bonuses", NO_BONUSES),
];

/// The `tests/lua/opennefia_*.lua` file defining `test`: it panics unless exactly one does.
fn named_port(ported: &[(PathBuf, Vec<String>)], test: &str) -> PathBuf {
    let files: Vec<&PathBuf> =
        ported.iter().filter(|(_, names)| names.iter().any(|n| n == test)).map(|(file, _)| file).collect();
    match files[..] {
        [file] => file.clone(),
        [] => panic!("{test} is listed as ported, but no tests/lua/opennefia_*.lua defines it"),
        _ => panic!("{test} is defined in more than one file: {files:?}"),
    }
}

fn main() {
    let args = Arguments::from_args();
    let ported: Vec<(PathBuf, Vec<String>)> = test_files(&lua_dir())
        .into_iter()
        .filter(|f| f.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.starts_with("opennefia_")))
        .map(|f| {
            let names = test_names(&f).unwrap_or_else(|e| panic!("{} does not load: {e}", f.display()));
            (f, names)
        })
        .collect();
    let mut listed = BTreeSet::new();
    for (file, test, _) in TESTS {
        assert!(listed.insert((file, test)), "{file}::{test} is listed twice: it would be counted twice");
    }
    let mut trials = Vec::new();
    let mut count = 0;
    for (file, test, port) in TESTS {
        let name = format!("src/test/{file}::{test}");
        let (file, function) = match port {
            Port::Not(reason) => {
                trials.push(Trial::test(format!("{name} (not ported: {reason})"), || Ok(())).with_ignored_flag(true));
                continue;
            }
            Port::Named => (named_port(&ported, test), (*test).to_owned()),
            Port::As(file, function) => (lua_dir().join(format!("{file}.lua")), (*function).to_owned()),
        };
        count += 1;
        trials.push(Trial::test(name, move || Ok(run_test(&file, &function)?)));
    }
    println!(
        "OpenNefia's engine tests in scope: {}; ported: {count} (each must pass); not ported: {}",
        TESTS.len(),
        TESTS.len() - count
    );
    assert!(count >= AT_LEAST, "{count} of OpenNefia's tests are ported; at least {AT_LEAST} must be");
    libtest_mimic::run(&args, trials).exit();
}
