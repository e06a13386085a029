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
