//! The runtime's speed and memory targets, each workload driven from Lua as a mod would.
//! Run with `cargo bench -p nefia_lua --bench engine`. The per-object rows run on worlds
//! of 10,000 and 100,000 characters and print the memory each world took; the peak memory of
//! the whole run is printed at the end.

use std::time::Duration;

use criterion::{BatchSize, Criterion, criterion_group};
use nefia_lua::Runtime;

mod common;

use common::{game, run};

const MAP_100: &str = "Map.set_map(InstancedMap:new(100, 100))";

const PUTITS_100: &str = r#"
    Map.set_map(InstancedMap:new(100, 100))
    for i = 0, 9999 do Chara.create("elona.putit", i % 100, i // 100) end
"#;

fn objects(c: &mut Criterion) {
    let mut group = c.benchmark_group("objects");
    group.sample_size(20);
    group.bench_function("100x100 map + 10,000 Chara.create", |b| {
        b.iter_batched(|| game(""), |rt| run(&rt, PUTITS_100), BatchSize::PerIteration)
    });
    group.bench_function("10,000 Item.create into inventories", |b| {
        b.iter_batched(
            || {
                game(&format!(
                    "{MAP_100}\n charas = {{}}\n for i = 1, 100 do charas[i] = Chara.create('elona.putit', i - 1, 0) end"
                ))
            },
            |rt| run(&rt, "for i = 0, 9999 do Item.create('elona.putitoro', nil, nil, {}, charas[i % 100 + 1]) end"),
            BatchSize::PerIteration,
        )
    });
    group.bench_function("10,000 clone()", |b| {
        b.iter_batched(
            || game(&format!("{MAP_100}\n putit = Chara.create('elona.putit', 1, 1)")),
            |rt| run(&rt, "for i = 1, 10000 do putit:clone() end"),
            BatchSize::PerIteration,
        )
    });
    group.bench_function("10,000 set_pos", |b| {
        let rt = game(&format!("{PUTITS_100}\n list = {{}}\n for i, c in Chara.iter() do list[i] = c end"));
        b.iter(|| run(&rt, "for i = 1, 10000 do list[i]:set_pos((i * 7) % 100, (i * 13) % 100) end"))
    });
    group.bench_function("100,000 objects_at_pos", |b| {
        let rt = game(PUTITS_100);
        b.iter(|| {
            run(&rt, "local map = Map.current() for i = 0, 99999 do for _, o in map:objects_at_pos(i % 100, (i // 100) % 100) do end end")
        })
    });
    group.finish();
}

/// The world sizes the per-object rows run at (characters on one map).
const SIZES: [usize; 2] = [10_000, 100_000];

/// A game of `n` putits (see [`common::world_of`]).
fn world_of(n: usize) -> Runtime {
    game(&common::world_of(n))
}

/// The rows whose cost per call must not grow with the world: each runs on a world of 10,000
/// and of 100,000 characters, and the peak memory of each world's rows is printed.
fn scaling(c: &mut Criterion) {
    for n in SIZES {
        let before = memory::reset_peak();
        let rt = world_of(n);
        let built = memory::peak().saturating_sub(before);
        let mut group = c.benchmark_group(format!("{n} characters"));
        group.sample_size(10);
        group.bench_function("1,000,000 calc(\"max_hp\"), each on the next character", |b| {
            let rounds = 1_000_000 / n;
            b.iter(|| run(&rt, &format!("for r = 1, {rounds} do for i = 1, #list do list[i]:calc('max_hp') end end")))
        });
        group.bench_function("100,000 mod(\"dv\", 5, \"add\"), each on the next character", |b| {
            // The temp values are reset first, so every sample does the same work.
            b.iter_batched(
                || run(&rt, "for i = 1, #list do list[i]:reset('dv') end"),
                |()| run(&rt, "local n = #list for i = 0, 99999 do list[i % n + 1]:mod('dv', 5, 'add') end"),
                BatchSize::PerIteration,
            )
        });
        group.bench_function("refresh() of every character, two handlers", |b| {
            b.iter(|| run(&rt, "for i = 1, #list do list[i]:refresh() end"))
        });
        group.bench_function("sight, radius 15, from one cell, with map memory", |b| {
            b.iter(|| rt.world_mut().refresh_sight())
        });
        // What a replay compares every turn.
        group.bench_function("state hash of the world", |b| b.iter(|| rt.state_hash().expect("a hash")));
        // What the host copies before a command that may change the world (panic recovery).
        group.bench_function("checkpoint: copy of the world's state", |b| b.iter(|| rt.world().copy_state()));
        group.finish();
        let peak = memory::peak().saturating_sub(before);
        println!(
            "{n} characters: the world took {:.0} MiB to build ({:.0} bytes a character), {:.0} MiB at the peak of its rows",
            mib(built),
            built as f64 / n as f64,
            mib(peak)
        );
    }
}

/// A tight Lua loop with the editor's limits (time, memory, a Stop flag) and without.
fn limits(c: &mut Criterion) {
    let mut group = c.benchmark_group("limits");
    group.sample_size(10);
    let tight = "local s = 0 for i = 1, 10000000 do s = s + i % 7 end";
    let rt = game("");
    group.bench_function("10,000,000 iterations of a tight loop, no limits", |b| b.iter(|| run(&rt, tight)));
    rt.set_limits(Some(nefia_lua::limits::Limits::EDITOR_TIME), Some(nefia_lua::limits::Limits::EDITOR_MEMORY));
    rt.engine().limits().share_flags(rt.lua(), std::sync::Arc::default(), std::sync::Arc::default());
    group.bench_function("10,000,000 iterations of a tight loop, the editor's limits", |b| b.iter(|| run(&rt, tight)));
    group.finish();
}

fn mib(bytes: usize) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

/// Bytes allocated through the global allocator (Lua's heap included: mlua allocates with
/// it), with the peak since the last reset.
mod memory {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::sync::atomic::{AtomicUsize, Ordering};

    static CURRENT: AtomicUsize = AtomicUsize::new(0);
    static PEAK: AtomicUsize = AtomicUsize::new(0);
    static HIGHEST: AtomicUsize = AtomicUsize::new(0);

    struct Counting;

    // SAFETY: every call goes to the system allocator; only the counters are added.
    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            let ptr = unsafe { System.alloc(layout) };
            if !ptr.is_null() {
                grew(layout.size());
            }
            ptr
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            unsafe { System.dealloc(ptr, layout) };
            CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
            let new = unsafe { System.realloc(ptr, layout, new_size) };
            if !new.is_null() {
                CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
                grew(new_size);
            }
            new
        }
    }

    fn grew(size: usize) {
        let now = CURRENT.fetch_add(size, Ordering::Relaxed) + size;
        PEAK.fetch_max(now, Ordering::Relaxed);
        HIGHEST.fetch_max(now, Ordering::Relaxed);
    }

    #[global_allocator]
    static ALLOCATOR: Counting = Counting;

    /// Starts a new peak at the current use, and returns that use.
    pub fn reset_peak() -> usize {
        let now = CURRENT.load(Ordering::Relaxed);
        PEAK.store(now, Ordering::Relaxed);
        now
    }

    /// The peak since the last reset.
    pub fn peak() -> usize {
        PEAK.load(Ordering::Relaxed)
    }

    /// The bytes allocated now.
    pub fn current() -> usize {
        CURRENT.load(Ordering::Relaxed)
    }

    /// The highest use since the process began.
    pub fn highest() -> usize {
        HIGHEST.load(Ordering::Relaxed)
    }
}

/// Saving and loading worlds of 10,000 and 100,000 objects (a third each characters, items
/// and feats): per object, both should cost the same at either size, and a load no more than
/// a save.
fn saves(c: &mut Criterion) {
    let mut group = c.benchmark_group("saves");
    group.sample_size(10).measurement_time(Duration::from_secs(20));
    for objects in SIZES {
        let rt = game(&format!(
            r#"
            Map.set_map(InstancedMap:new(320, 320))
            for i = 0, {last} do
                local kind = i % 3
                if kind == 0 then Chara.create("elona.putit", i % 320, i // 320)
                elseif kind == 1 then Item.create("elona.putitoro", i % 320, i // 320)
                else Feat.create("elona.stairs_down", i % 320, i // 320) end
            end
            "#,
            last = objects - 1
        ));
        assert!(rt.world().object_count() >= objects);
        let dir = tempfile::tempdir().expect("temp dir");
        rt.set_save_dir(dir.path().to_owned());
        group.throughput(criterion::Throughput::Elements(u64::try_from(objects).expect("a count")));
        group.bench_function(format!("save {objects} objects"), |b| b.iter(|| rt.save_game("bench").expect("save")));
        rt.save_game("bench").expect("save");
        group.bench_function(format!("load {objects} objects"), |b| b.iter(|| rt.load_game("bench").expect("load")));
        // The first half of a load: reading and parsing the file.
        let path = dir.path().join("bench.ron");
        group.bench_function(format!("load {objects} objects: read the file"), |b| {
            b.iter(|| nefia_game::save::read_save(&path).expect("read"))
        });
    }
    group.finish();
}

fn map_files(c: &mut Criterion) {
    use nefia_game::save::{MapRecord, RecordKind};
    let mut group = c.benchmark_group("map files");
    group.sample_size(10);
    let rt = game(
        r#"
        Map.set_map(InstancedMap:new(512, 512, "elona.grass"))
        local map = Map.current()
        for y = 0, 511 do for x = 0, 511 do
            if (x * 7 + y * 13) % 11 == 0 then map:set_tile(x, y, "elona.wall_stone")
            elseif (x + y) % 17 == 0 then map:set_tile(x, y, "elona.water") end
        end end
        for i = 0, 19999 do
            local kind = i % 3
            local x, y = (i * 37) % 512, (i * 101) % 512
            if kind == 0 then Chara.create("elona.putit", x, y)
            elseif kind == 1 then Item.create("elona.putitoro", x, y)
            else Feat.create("elona.door", x, y) end
        end
        "#,
    );
    let map = rt.world().current_map().expect("a map");
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("big.ron");
    let save = || {
        let record = rt.world().map_record(map, RecordKind::MapFile).expect("record");
        let text = nefia_game::map_files::map_text(&path, &record).expect("text");
        nefia_game::files::write_atomic(&path, text.as_bytes()).expect("written");
    };
    group.bench_function("save a 512x512 map with 20,000 objects", |b| b.iter(save));
    save();
    group.bench_function("load a 512x512 map with 20,000 objects", |b| {
        b.iter(|| {
            let record: MapRecord = nefia_game::files::read_ron(&path).expect("read");
            let mut world = rt.world_mut();
            let loaded = world.map_from_record(&record, RecordKind::MapFile).expect("built");
            world.remove_map(loaded).expect("removed");
            world.sweep(|_| false);
        })
    });
    group.finish();
}

criterion_group!(benches, objects, scaling, limits, saves, map_files);

/// The peak resident memory of this process so far, from /proc (Linux).
fn peak_memory_mib() -> Option<f64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: f64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib / 1024.0)
}

/// The anchor workload's memory: 100,000 characters (or `NEFIA_ANCHOR_CHARACTERS`, such as
/// 1000000), each with an item in its inventory and a temp value, as many clones, a save and
/// a load, with what each step took, in time and memory, and the peak of each (bytes asked of
/// the allocator, Lua's heap included; the allocator's own overhead is not counted). Runs
/// when the bench filter is absent or names "anchor".
fn anchor() {
    let n: usize = std::env::var("NEFIA_ANCHOR_CHARACTERS").ok().and_then(|n| n.parse().ok()).unwrap_or(100_000);
    // One character a cell, on the 320×320 map of 100,000 or a square big enough.
    let side = (1..).find(|side| side * side >= n).unwrap_or(1).max(320);
    let start = memory::reset_peak();
    let mut began = std::time::Instant::now();
    let rt = game(&format!("Map.set_map(InstancedMap:new({side}, {side}))"));
    let mut step = |what: &str, before: usize, count: usize| {
        let now = memory::current();
        println!(
            "anchor: {what}: {:.0} ms, {:+.1} MiB ({:.0} bytes each), peak {:.1} MiB; the Lua heap holds {:.1} MiB",
            began.elapsed().as_secs_f64() * 1000.0,
            mib(now) - mib(before),
            (now as f64 - before as f64) / count as f64,
            mib(memory::peak()),
            mib(rt.lua().used_memory())
        );
        began = std::time::Instant::now();
        memory::reset_peak()
    };
    let dir = tempfile::tempdir().expect("temp dir");
    rt.set_save_dir(dir.path().to_owned());
    let mut at = step("an empty game", start, 1);
    run(
        &rt,
        &format!(
            "list = {{}} for i = 0, {n} - 1 do list[i + 1] = Chara.create('elona.putit', i % {side}, i // {side}) end"
        ),
    );
    at = step(&format!("{n} characters"), at, n);
    run(&rt, &format!("for i = 1, {n} do Item.create('elona.putitoro', nil, nil, {{}}, list[i]) end"));
    at = step("an item in each one's inventory", at, n);
    run(&rt, &format!("for i = 1, {n} do list[i]:mod('dv', 1, 'add') end"));
    at = step("a temp value on each character", at, n);
    run(&rt, &format!("clones = {{}} for i = 1, {n} do clones[i] = list[i]:clone() end"));
    at = step(&format!("{n} clones (with their items)"), at, n);
    let file = rt.save_game("anchor").expect("saved");
    at = step("a save (what stays after it)", at, 1);
    let bytes = std::fs::metadata(&file).map(|m| m.len()).unwrap_or_default();
    println!("anchor: the save file: {:.1} MiB", bytes as f64 / (1024.0 * 1024.0));
    rt.load_game("anchor").expect("loaded");
    step("a load (what stays after it)", at, 1);
    println!("anchor: the peak of the whole workload: {:.1} MiB over the process before it", {
        mib(memory::highest().saturating_sub(start))
    });
}

/// True if the bench filter given on the command line (if any) is in `name`.
fn wanted(name: &str) -> bool {
    std::env::args().skip(1).filter(|arg| !arg.starts_with('-')).all(|filter| name.contains(&filter))
}

fn main() {
    if wanted("anchor") {
        anchor();
    }
    benches();
    Criterion::default().configure_from_args().final_summary();
    if let Some(peak) = peak_memory_mib() {
        println!("peak memory of the whole run: {peak:.0} MiB");
    }
}
