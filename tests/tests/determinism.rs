//! What game logic can observe is the same on every run: `pairs` walks a table in the same
//! order in every Lua state (the vendored Lua's string hash has a fixed seed), and the world's
//! random numbers follow its seed.

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
fn two_games_with_the_same_seed_draw_the_same_numbers() {
    let draw =
        "math.randomseed(2024) local t = {} for i = 1, 10 do t[i] = math.random(100) end return table.concat(t, ',')";
    let (a, b) = (TestGame::new(), TestGame::new());
    assert_eq!(a.runtime.eval(draw), b.runtime.eval(draw));
}
