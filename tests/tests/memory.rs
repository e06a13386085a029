//! Objects nobody holds are freed: making and removing a million objects keeps memory flat.

use nefia_tests::TestGame;

#[test]
fn creating_and_removing_a_million_objects_keeps_memory_flat() {
    let game = TestGame::new();
    let measure = |n: u32| -> (usize, usize) {
        game.exec(&format!(
            "for i = 1, {n} do local o = Item.create('elona.putitoro', 1, 1); o:remove_ownership() end"
        ));
        (game.runtime.world().object_count(), game.runtime.lua().used_memory())
    };
    let (objects_early, lua_early) = measure(100_000);
    let (objects_late, lua_late) = measure(900_000);
    assert_eq!(game.eval::<i64>("Item.create('elona.putitoro', 1, 1).uid"), 1_000_001);
    assert!(objects_late < 20_000, "live objects stay bounded: {objects_early} then {objects_late}");
    assert!(lua_late < lua_early * 2 + (4 << 20), "Lua memory stays flat: {lua_early} then {lua_late} bytes");
}

#[test]
fn a_refresh_leaves_no_params_table_for_handlers_that_take_the_receiver_only() {
    let game = TestGame::new();
    let garbage_per_refresh = |handler: &str| -> usize {
        game.exec(&format!(
            "Event.register('base.on_chara_refreshed', 'probe', {handler}) chara = Chara.create('elona.putit', 1, 1) \
             chara:refresh()"
        ));
        let lua = game.runtime.lua();
        lua.gc_collect().expect("collected");
        lua.gc_stop();
        let before = lua.used_memory();
        game.exec("for _ = 1, 1000 do chara:refresh() end");
        let after = lua.used_memory();
        lua.gc_restart();
        game.exec("Event.unregister('base.on_chara_refreshed', 'probe')");
        (after - before) / 1000
    };
    let receiver_only = garbage_per_refresh("function(c) c:mod('dv', 1, 'add') end");
    let with_params = garbage_per_refresh("function(c, params) c:mod('dv', 1, 'add') end");
    // A Lua table is 56 bytes.
    assert!(
        with_params >= receiver_only + 56,
        "a handler that takes params gets a table each time ({with_params} bytes a refresh), one that takes the \
         receiver only none ({receiver_only} bytes)"
    );
}

#[test]
fn looping_over_the_equipment_of_a_character_that_wears_nothing_makes_no_garbage() {
    let game = TestGame::new();
    game.exec("bare = Chara.create('elona.putit', 1, 1) worn = 0");
    let lua = game.runtime.lua();
    lua.gc_collect().expect("collected");
    lua.gc_stop();
    let before = lua.used_memory();
    game.exec("for _ = 1, 10000 do for _, item in bare.equip:iter() do worn = worn + 1 end end");
    // What the chunk itself takes (about 1 KiB) over the loops.
    let per_loop = (lua.used_memory() - before) / 10_000;
    lua.gc_restart();
    assert_eq!(game.eval::<i64>("worn"), 0);
    // Before, each loop made two lists and a closure with three upvalues: 288 bytes.
    assert!(per_loop < 8, "a loop over no equipment made {per_loop} bytes of garbage");
}
