//! The memory limit counts what the engine allocates in Rust for Lua — maps, objects and
//! interned names — besides the Lua heap.

use std::time::Duration;

use nefia_tests::TestGame;

fn game_with_room(bytes: usize) -> TestGame {
    let game = TestGame::new();
    let used = game.runtime.lua().used_memory() + game.runtime.world().heap_estimate();
    game.runtime.set_limits(Some(Duration::from_secs(20)), Some(used + bytes));
    game
}

#[test]
fn a_map_past_the_memory_limit_is_refused_before_it_is_made() {
    let game = game_with_room(32 << 20);
    let maps_before = game.runtime.world().maps().count();
    let error = format!("{:?}", game.runtime.eval("return InstancedMap:new(4096, 4096)"));
    assert!(error.contains("InstancedMap:new(4096, 4096) needs"), "{error}");
    assert!(error.contains("pass the memory limit"), "{error}");
    assert_eq!(game.runtime.world().maps().count(), maps_before, "no map was made");
    // A small one still fits.
    assert!(format!("{:?}", game.runtime.eval("return InstancedMap:new(64, 64)")).contains("Values"));
}

#[test]
fn names_and_objects_made_in_a_loop_count_against_the_memory_limit() {
    let game = game_with_room(24 << 20);
    let error = format!(
        "{:?}",
        game.runtime.eval(
            "local hero = Chara.create('elona.player', 1, 1) \
             for i = 1, 100000000 do hero['field_number_' .. i] = true end"
        )
    );
    assert!(error.contains("out of memory"), "{error}");
    assert!(error.contains("what the engine holds for it"), "{error}");
    let error = format!(
        "{:?}",
        game.runtime.eval(
            "local map = InstancedMap:new(100, 100)              for i = 1, 100000000 do Item.create('elona.potion_of_sight', i % 100, i // 100 % 100, {}, map) end"
        )
    );
    assert!(error.contains("out of memory"), "{error}");
}
