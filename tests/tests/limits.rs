//! The memory limit counts what the engine allocates in Rust for Lua — maps, objects and
//! interned names — besides the Lua heap; the time limit and Stop reach every loop, in
//! coroutines too, while Lua runs with no hook until the watchdog arms one.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use nefia_lua::watchdog;
use nefia_tests::TestGame;

/// How long a stopped loop may take to stop on a loaded machine: far above the limits here,
/// and a loop that is not stopped never ends.
const STOPPED_BY: Duration = Duration::from_secs(20);

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

/// The editor's limits: a time limit, a Stop flag shared with another thread, and (if
/// `memory`) a memory limit.
fn game_with_editor_limits(time: Duration, memory: bool) -> (TestGame, Arc<AtomicBool>) {
    let game = TestGame::new();
    game.runtime.set_limits(Some(time), memory.then_some(1 << 30));
    let stop = Arc::new(AtomicBool::new(false));
    game.runtime.engine().limits().share_flags(game.runtime.lua(), stop.clone(), Arc::default());
    (game, stop)
}

fn error_of(game: &TestGame, code: &str) -> String {
    format!("{:?}", game.runtime.eval(code))
}

#[test]
fn lua_runs_with_no_hook_until_the_watchdog_needs_one() {
    let (game, _stop) = game_with_editor_limits(Duration::from_secs(60), false);
    let before = watchdog::hook_calls();
    let answer = error_of(&game, "local s = 0 for i = 1, 3000000 do s = s + i % 7 end return s");
    assert!(answer.contains("Values"), "{answer}");
    // An instruction-count hook would have run thousands of times.
    assert_eq!(watchdog::hook_calls(), before, "the hook fired with no limit near");
}

#[test]
fn the_time_limit_interrupts_loops_in_coroutines_and_behind_pcall() {
    let (game, _stop) = game_with_editor_limits(Duration::from_millis(200), false);
    for code in [
        "while true do end",
        "coroutine.wrap(function() while true do end end)()",
        "local co = coroutine.create(function() while true do end end) return coroutine.resume(co)",
        "coroutine.wrap(function() coroutine.wrap(function() while true do pcall(function() while true do end end) end end)() end)()",
        "while true do pcall(function() while true do end end) end",
    ] {
        let started = Instant::now();
        let error = error_of(&game, code);
        assert!(error.contains("time limit of 0.2 s"), "{code}: {error}");
        assert!(started.elapsed() < STOPPED_BY, "{code}: took {:?}", started.elapsed());
    }
    // A coroutine that yields and is resumed later keeps running normally.
    let answer = error_of(
        &game,
        "local gen = coroutine.wrap(function() for i = 1, 3 do coroutine.yield(i) end end) return gen() + gen() + gen()",
    );
    assert!(answer.contains("\"6\""), "{answer}");
}

#[test]
fn stop_from_another_thread_interrupts_a_loop_in_a_coroutine() {
    let (game, stop) = game_with_editor_limits(Duration::from_secs(60), true);
    let pressed = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        stop.store(true, Ordering::Relaxed);
    });
    let started = Instant::now();
    let error = error_of(&game, "coroutine.wrap(function() local t = {} while true do t[1] = {} end end)()");
    pressed.join().expect("the Stop thread ends");
    assert!(error.contains("Stop was pressed"), "{error}");
    assert!(started.elapsed() < STOPPED_BY, "took {:?}", started.elapsed());
    // The next evaluation runs: the flag was taken down.
    assert!(error_of(&game, "return 1 + 1").contains("\"2\""));
}

#[test]
fn a_wrapped_coroutine_reports_errors_as_lua_does() {
    let game = TestGame::new();
    let error = error_of(&game, "local f = coroutine.wrap(function() error('inner') end) f()");
    assert!(error.contains("inner"), "{error}");
    let error = error_of(&game, "local f = coroutine.wrap(function() end) f() f()");
    assert!(error.contains("cannot resume dead coroutine"), "{error}");
    let answer = error_of(&game, "local f = coroutine.wrap(function(a, b) return a + b end) return f(2, 3)");
    assert!(answer.contains("\"5\""), "{answer}");
}
