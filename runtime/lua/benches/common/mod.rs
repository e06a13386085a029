//! What the runtime's benches share: a game with the demo's mods, and the world of `n`
//! characters the per-object rows run on.

use std::path::PathBuf;

use nefia_lua::Runtime;
use nefia_protocol::output::Output;

fn mods_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../mods")
}

/// A runtime with base and elona loaded, and `setup` run in Lua.
pub fn game(setup: &str) -> Runtime {
    let mut runtime = Runtime::new(Box::new(|_: Output| {})).expect("runtime");
    runtime.load_mods(&[mods_dir()], &["base".into(), "elona".into()]).expect("mods");
    run(&runtime, setup);
    runtime
}

/// Runs `code` in the runtime's Lua, panicking with the Lua error.
pub fn run(runtime: &Runtime, code: &str) {
    if let Err(failure) = runtime.exec(code, "bench") {
        panic!("{failure}");
    }
}

/// Lua that makes, on a square map big enough to hold them one to a cell, `n` putits (their
/// handles in the global `list`), walls scattered for sight, the two refresh handlers of the
/// OpenNefia workload and a player in the middle.
pub fn world_of(n: usize) -> String {
    let side = (n as f64).sqrt().ceil() as usize + 1;
    format!(
        "Map.set_map(InstancedMap:new({side}, {side}))
        local map = Map.current()
        for x = 0, {side} - 1, 7 do for y = 0, {side} - 1, 3 do map:set_tile(x, y, 'elona.wall_stone') end end
        list = {{}}
        for i = 0, {n} - 1 do list[i + 1] = Chara.create('elona.putit', i % {side}, i // {side}) end
        Event.register('base.on_chara_refreshed', 'bench.a', function(c) c:mod('dv', 5, 'add') end)
        Event.register('base.on_chara_refreshed', 'bench.b', function(c) c:mod('fov', 2, 'add') end)
        local hero = Chara.create('elona.player', {side} // 2, {side} // 2)
        Chara.set_player(hero)"
    )
}
