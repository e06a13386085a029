//! The engine's hottest calls against the Lua VM's own floor: what plain Lua costs for the
//! same work, in the same process, with the measurements interleaved (this machine's speed
//! drifts from minute to minute, so only ratios taken side by side hold).
//!
//! Run with `cargo bench -p nefia_lua --bench floor`. Each world (10,000 and 100,000
//! characters) first makes 10,000 plain-Lua objects, `{ base = {...}, temp = {} }` with a
//! metatable whose `calc(k)` returns `temp[k]` or `base[k]` and whose `mod(k, v, "add")` adds
//! into `temp` (the floor), and then its characters, and then (after a full collection)
//! 10,000 more plain-Lua objects: a mod's own tables made after the world was built. The loops
//! run alternately, best of [`ROUNDS`], and each engine row is printed beside its floor with
//! the ratio and its target; then criterion times every loop.
//!
//! A field read (`obj.max_hp`) and write (`obj.hp = r`) are also put beside the same over
//! plain tables holding the fields as their own (`floor_plain`: an OpenNefia object, on which
//! a read is a plain lookup and a write a plain store), alternately, best of [`FIELD_ROUNDS`],
//! against the issue's targets (1.5x and 3x), and the write beside its own floor too
//! (`floor_stored`: a C `__newindex` that only stores the value in a table of the object's,
//! the least any write costs that is not a plain store). Measured on the 2-core development
//! machine under load (`cargo bench -p nefia_lua --bench floor -- zzz`: the filter skips
//! criterion's rows), per call at 10,000 / 100,000 characters:
//!
//! | | read | its ratio | write | its ratio |
//! |---|---:|---:|---:|---:|
//! | before the shadows (`field_shadow.rs`) | 113.5 / 109.5 ns | 10.3x / 10.2x | 547 / 563 ns | 48x / 49x |
//! | with them | 17.9 / 19.8 ns | 1.93x / 2.00x | 134 / 135 ns | 8.8x / 8.1x |
//! | and typed writes, the shadow in the handle | 20.8 / 20.2 ns | 1.69x / 1.75x | 130 / 126 ns | 7.6x / 7.6x |
//! | the write floor (`floor_stored`) | | | 42.1 / 41.9 ns | 2.5x / 2.5x |
//!
//! (the machine's speed drifts between runs: compare ratios within a row). Neither target can
//! be met by a handle whose writes are checked, in this VM. Lua 5.4 calls `__newindex` only
//! for a key the table lacks, so a field whose writes must be checked cannot be the handle's
//! own, and its read goes through `__index`: the handle, its metatable, then the shadow, three
//! lookups for the plain table's one (the read matches or beats the `__index` floor above).
//! And such a write calls a function, whose least (`floor_stored`) costs 2.4-2.7x a plain store
//! by itself, before the type check, the world's store, its watches and the shadow: the write
//! is about 3x its floor. The shadows of handles read cost about 400 bytes each (printed
//! first).
//!
//! The OpenNefia side of the comparison (its objects are tables): `opennefia_fields.lua`
//! beside this file runs the same two loops and their plain-table floors in OpenNefia's VM
//! (LuaJIT), on 10,000 putits made with its own `Chara.create`, alternately, best of 7, and
//! prints the same rows. Check out OpenNefia (github.com/Ruin0x11/OpenNefia, commit dbe3eaa,
//! the one the OpenNefia fixtures come from), start a game (headless: its README's LuaJIT
//! setup, from `src/`), and run `dofile("<this repo>/runtime/lua/benches/opennefia_fields.lua")`
//! in its REPL; compare the ratios each prints to its own plain table, not the nanoseconds
//! across machines. It uses only the API the two share, so `nefia run
//! runtime/lua/benches/opennefia_fields.lua` runs it unchanged on Nefia too (a CLI test keeps
//! it so).

use std::ffi::c_int;
use std::time::{Duration, Instant};

use criterion::Criterion;
use mlua::{Function, Table, ffi};
use nefia_lua::Runtime;

mod common;

/// How many times the interleaved comparison runs every loop; each row keeps its best.
const ROUNDS: usize = 15;

/// How many times the interleaved comparison of field reads and writes with a plain table's
/// runs every loop (the issue's best of seven).
const FIELD_ROUNDS: usize = 7;

/// How many objects each loop goes through, in order.
const OBJECTS: usize = 10_000;

/// The floor's objects and the loops, the same for the engine's objects and plain tables.
const FLOOR: &str = r#"
FloorObject = {}
FloorObject.__index = FloorObject
function FloorObject:calc(k)
    local t = self.temp[k]
    if t ~= nil then return t end
    return self.base[k]
end
function FloorObject:mod(k, v, method)
    local temp = self.temp
    if method == "add" then temp[k] = (temp[k] or 0) + v else temp[k] = v end
end
-- `objects` answer calc and mod; `fields` are plain tables reading the same base values
-- through `__index`; `plain` hold them as their own fields (OpenNefia's objects: a read is a
-- plain lookup, a write a plain store).
function plain_objects(n)
    local objects, fields, plain = {}, {}, {}
    for i = 1, n do
        local base = { max_hp = 10 + i % 7, dv = i % 5, fov = 14 }
        -- `temp` has room for the one field the loops mod from the start: its first `mod`
        -- then allocates nothing, and the floor keeps the layout it was made with.
        objects[i] = setmetatable({ base = base, temp = { dv = nil } }, FloorObject)
        fields[i] = setmetatable({}, { __index = base })
        plain[i] = { max_hp = 10 + i % 7, dv = i % 5, fov = 14, hp = 6 }
    end
    return objects, fields, plain
end
function calc_loop(objects, n, rounds)
    for _ = 1, rounds do for i = 1, n do objects[i]:calc("max_hp") end end
end
function mod_loop(objects, n, rounds)
    for _ = 1, rounds do for i = 1, n do objects[i]:mod("dv", 1, "add") end end
end
function read_loop(objects, n, rounds)
    local x
    for _ = 1, rounds do for i = 1, n do x = objects[i].max_hp end end
    return x
end
function write_loop(objects, n, rounds)
    for r = 1, rounds do for i = 1, n do objects[i].hp = r end end
end
floor, floor_fields, floor_plain = plain_objects(10000)
-- `floor_stored` answer `obj.hp = r` with `store`, a C `__newindex` that only keeps the value
-- in the object's own table of fields (read back through `__index`): the least a write costs
-- that is not a plain store, before it checks anything or tells anyone.
function stored_objects(store, n)
    floor_stored = {}
    for i = 1, n do
        local own = { max_hp = 10 + i % 7, dv = i % 5, fov = 14, hp = 6 }
        floor_stored[i] = setmetatable({ own }, { __index = own, __newindex = store })
    end
end
"#;

/// `__newindex` of the write floor's objects (`stored_objects` above): `t[k] = v` into the
/// table at `t[1]`.
unsafe extern "C-unwind" fn floor_store(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: called by Lua as `__newindex(t, k, v)` of a table whose entry 1 is a table.
    unsafe {
        ffi::lua_rawgeti(state, 1, 1);
        ffi::lua_rotate(state, 2, 1);
        ffi::lua_rawset(state, 2);
    }
    0
}

/// A world of `n` characters between two sets of plain objects (see the module doc).
struct Bench {
    runtime: Runtime,
    characters: usize,
}

impl Bench {
    fn new(characters: usize) -> Bench {
        let runtime = common::game(FLOOR);
        // SAFETY: `floor_store` is a Lua C function (it keeps the stack's invariants).
        let store = unsafe { runtime.lua().create_c_function(floor_store) }.expect("a C function");
        let made = runtime.exec("return stored_objects", "bench").expect("the setup's function");
        let made: Function = runtime.lua().unpack_multi(made).expect("a function");
        made.call::<()>((store, OBJECTS)).expect("the write floor's objects");
        common::run(&runtime, &common::world_of(characters));
        // The garbage the world's making left is collected first, as it is sooner or later
        // in any game: the mod's tables are made into the heap as it then is.
        common::run(&runtime, "collectgarbage() mine = plain_objects(10000)");
        Bench { runtime, characters }
    }

    /// The value of the global `name` the setup made (in the environment scripts run in).
    fn global<T: mlua::FromLuaMulti>(&self, name: &str) -> T {
        let value = self.runtime.exec(&format!("return {name}"), "bench").expect("a global");
        self.runtime.lua().unpack_multi(value).expect("a global of the setup")
    }

    /// A loop named `function` over the first `n` objects of the global table `objects`,
    /// `rounds` times; the closure runs it once.
    fn looping(&self, function: &str, objects: &str, n: usize, rounds: usize) -> impl FnMut() + use<> {
        let (function, objects): (Function, Table) = (self.global(function), self.global(objects));
        move || function.call::<()>((&objects, n, rounds)).expect("the loop ran")
    }
}

/// One loop to time: its name, how many calls it makes, and the loop.
struct Row<'a> {
    name: String,
    calls: usize,
    run: Box<dyn FnMut() + 'a>,
    best: Duration,
}

impl<'a> Row<'a> {
    fn new(name: impl Into<String>, calls: usize, run: impl FnMut() + 'a) -> Row<'a> {
        Row { name: name.into(), calls, run: Box::new(run), best: Duration::MAX }
    }

    fn per_call_ns(&self) -> f64 {
        self.best.as_secs_f64() * 1e9 / self.calls as f64
    }
}

/// Runs every row once per round, in turn, `rounds` times, each keeping its best time.
fn alternate(rows: &mut [Row<'_>], rounds: usize) {
    for _ in 0..rounds {
        for row in rows.iter_mut() {
            let start = Instant::now();
            (row.run)();
            row.best = row.best.min(start.elapsed());
        }
    }
}

/// The loops of one world: the engine's calc, field read and mod over its first 10,000
/// characters, the same loops over the floor's objects and over the mod's own tables made
/// after the world, each row ten times over its 10,000 objects.
fn rows_of(bench: &Bench) -> Vec<Row<'_>> {
    let n = bench.characters;
    let calls = OBJECTS * 10;
    let row = |what: &str, function: &str, objects: &str| {
        Row::new(format!("{what}, {n} characters"), calls, bench.looping(function, objects, OBJECTS, 10))
    };
    vec![
        row("calc", "calc_loop", "list"),
        row("calc floor", "calc_loop", "floor"),
        row("calc on a mod's tables made after the world", "calc_loop", "mine"),
        row("field read", "read_loop", "list"),
        row("field read floor", "read_loop", "floor_fields"),
        row("mod", "mod_loop", "list"),
        row("mod floor", "mod_loop", "floor"),
    ]
}

/// A field read (`obj.max_hp`) and write (`obj.hp = r`) over the world's first 10,000
/// characters beside the same over plain tables holding the fields as their own (the floor
/// OpenNefia's objects stand on), each row ten times over its 10,000 objects.
fn field_rows(bench: &Bench) -> Vec<Row<'_>> {
    let n = bench.characters;
    let row = |what: &str, function: &str, objects: &str| {
        Row::new(format!("{what}, {n} characters"), OBJECTS * 10, bench.looping(function, objects, OBJECTS, 10))
    };
    vec![
        row("field read", "read_loop", "list"),
        row("field read plain table", "read_loop", "floor_plain"),
        row("field write", "write_loop", "list"),
        row("field write plain table", "write_loop", "floor_plain"),
        row("field write C floor", "write_loop", "floor_stored"),
    ]
}

/// The same calls over every character of each world: 100,000 once against 10,000 ten times.
fn flat_rows<'a>(small: &'a Bench, large: &'a Bench) -> Vec<Row<'a>> {
    let mut rows = Vec::new();
    let calls =
        [("calc", "calc_loop"), ("field read", "read_loop"), ("field write", "write_loop"), ("mod", "mod_loop")];
    for (what, function) in calls {
        for bench in [small, large] {
            let n = bench.characters;
            let rounds = large.characters / n;
            rows.push(Row::new(
                format!("{what} over all {n} characters"),
                large.characters,
                bench.looping(function, "list", n, rounds),
            ));
        }
    }
    for bench in [small, large] {
        let runtime = &bench.runtime;
        rows.push(Row::new(format!("sight over {} characters", bench.characters), 1, move || {
            runtime.world_mut().refresh_sight()
        }));
    }
    rows
}

fn criterion_rows(c: &mut Criterion, bench: &Bench) {
    let mut group = c.benchmark_group(format!("floor/{} characters", bench.characters));
    group.sample_size(10).warm_up_time(Duration::from_secs(1)).measurement_time(Duration::from_secs(3));
    let mut rows = rows_of(bench);
    // The field rows the comparison above already has are timed once.
    for row in field_rows(bench) {
        if !rows.iter().any(|timed| timed.name == row.name) {
            rows.push(row);
        }
    }
    for mut row in rows {
        group.bench_function(format!("{} ({} calls)", row.name, row.calls), |b| b.iter(&mut row.run));
    }
    group.finish();
}

/// Prints `engine` beside `floor`: both per call and their ratio against `target`.
fn compare(rows: &[Row<'_>], engine: &str, floor: &str, target: f64) {
    let find = |name: &str| rows.iter().find(|row| row.name == name).expect("a row of that name");
    let (engine, floor) = (find(engine), find(floor));
    let ratio = engine.per_call_ns() / floor.per_call_ns();
    let verdict = if ratio <= target { "within" } else { "OVER" };
    println!(
        "{:<58} {:>7.1} ns  against {:<46} {:>7.1} ns  {ratio:.2}x  ({verdict} {target}x)",
        engine.name,
        engine.per_call_ns(),
        floor.name,
        floor.per_call_ns()
    );
}

/// What the shadows of a world's handles hold in Lua's heap (see `field_shadow.rs`): the heap
/// before and after the first read of one field of every character, after full collections.
fn shadow_memory(bench: &Bench) {
    let heap = || {
        common::run(&bench.runtime, "collectgarbage() collectgarbage()");
        bench.runtime.lua().used_memory()
    };
    let before = heap();
    common::run(&bench.runtime, "read_loop(list, #list, 1)");
    let grown = heap().saturating_sub(before);
    let n = bench.characters;
    println!(
        "the shadows of {n} handles (one field read): {:.1} MiB of Lua heap, {:.0} bytes each",
        grown as f64 / (1024.0 * 1024.0),
        grown as f64 / n as f64
    );
}

fn main() {
    let small = Bench::new(10_000);
    let large = Bench::new(100_000);
    shadow_memory(&large);
    println!("Interleaved, best of {ROUNDS} rounds (a call's cost):");
    for bench in [&small, &large] {
        let mut rows = rows_of(bench);
        alternate(&mut rows, ROUNDS);
        let n = bench.characters;
        compare(&rows, &format!("calc, {n} characters"), &format!("calc floor, {n} characters"), 1.25);
        compare(&rows, &format!("field read, {n} characters"), &format!("field read floor, {n} characters"), 1.25);
        compare(&rows, &format!("mod, {n} characters"), &format!("mod floor, {n} characters"), 2.0);
        compare(
            &rows,
            &format!("calc on a mod's tables made after the world, {n} characters"),
            &format!("calc floor, {n} characters"),
            1.2,
        );
        let mut rows = field_rows(bench);
        alternate(&mut rows, FIELD_ROUNDS);
        compare(&rows, &format!("field read, {n} characters"), &format!("field read plain table, {n} characters"), 1.5);
        compare(
            &rows,
            &format!("field write, {n} characters"),
            &format!("field write plain table, {n} characters"),
            3.0,
        );
        compare(
            &rows,
            &format!("field write C floor, {n} characters"),
            &format!("field write plain table, {n} characters"),
            3.0,
        );
        compare(&rows, &format!("field write, {n} characters"), &format!("field write C floor, {n} characters"), 3.0);
    }
    let mut rows = flat_rows(&small, &large);
    alternate(&mut rows, ROUNDS);
    for what in ["calc", "field read", "field write", "mod"] {
        compare(
            &rows,
            &format!("{what} over all 100000 characters"),
            &format!("{what} over all 10000 characters"),
            1.3,
        );
    }
    compare(&rows, "sight over 100000 characters", "sight over 10000 characters", 1.3);
    // Criterion's rows last: its millions of calls change the objects' temp values.
    let mut criterion = Criterion::default().configure_from_args();
    criterion_rows(&mut criterion, &small);
    criterion_rows(&mut criterion, &large);
    criterion.final_summary();
}
