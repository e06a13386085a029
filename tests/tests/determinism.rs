//! What game logic can observe is the same on every run: `pairs` walks a table in the same
//! order in every Lua state (the vendored Lua's string hash has a fixed seed), and
//! `math.random` draws from the world's generator (the one a save keeps).

use nefia_tests::TestGame;

const WALK: &str = "local t = {} \
    for _, name in ipairs({ 'putit', 'yeek', 'shopkeeper', 'guard', 'dagger', 'bag', 'door', 'potion', 'wall', \
    'water', 'grass', 'stairs', 'fountain', 'player', 'red_putit', 'town_guard' }) do t[name] = true end \
    local order = {} for name in pairs(t) do order[#order + 1] = name end return table.concat(order, ' ')";

#[test]
fn pairs_walks_a_table_in_the_same_order_in_every_lua_state() {
    // Each game is a new Lua state at another address: with Lua's own seed (time and
    // addresses) the orders would differ.
    let orders: Vec<String> = (0..4).map(|_| format!("{:?}", TestGame::new().runtime.eval(WALK))).collect();
    assert!(orders.iter().all(|o| *o == orders[0]), "{orders:#?}");
}

#[test]
fn math_random_draws_from_the_worlds_generator() {
    // Lua's own generator would draw something else: the world's is the one saved with games.
    let game = TestGame::new();
    game.exec("math.randomseed(5)");
    let expected: Vec<String> = {
        let mut rng = game.runtime.world().rng.clone();
        (0..5).map(|_| rng.i64(1..=100).to_string()).collect()
    };
    let drawn = game.runtime.eval("local t = {} for i = 1, 5 do t[i] = math.random(100) end return table.unpack(t)");
    assert_eq!(drawn, nefia_protocol::repl::Evaluation::Values(expected));
}
