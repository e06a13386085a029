//! The memory limit bounds the memory the process holds for Lua, not only the bytes Lua asks
//! for: a mod that keeps one string in every page of the Lua heap (`runtime/lua/src/heap.rs`) is stopped
//! when the pages it holds reach the limit. The process's allocations are counted here, so
//! the test binary's allocator is a counting one (this file holds no other test to share it).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use nefia_lua::Runtime;
use nefia_lua::limits::Limits;
use nefia_protocol::repl::Evaluation;

/// The bytes the process's allocations hold now, and the most they held since [`reset_peak`].
static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

/// The system allocator, counting what it holds.
struct Counting;

fn took(bytes: usize) {
    let live = LIVE.fetch_add(bytes, Ordering::Relaxed) + bytes;
    PEAK.fetch_max(live, Ordering::Relaxed);
}

fn gave(bytes: usize) {
    LIVE.fetch_sub(bytes, Ordering::Relaxed);
}

// SAFETY: every call goes to the system allocator as it came; only the counts are added.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as the caller's.
        let block = unsafe { System.alloc(layout) };
        if !block.is_null() {
            took(layout.size());
        }
        block
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        // SAFETY: as the caller's.
        let block = unsafe { System.alloc_zeroed(layout) };
        if !block.is_null() {
            took(layout.size());
        }
        block
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        // SAFETY: as the caller's.
        unsafe { System.dealloc(block, layout) };
        gave(layout.size());
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, size: usize) -> *mut u8 {
        // SAFETY: as the caller's.
        let moved = unsafe { System.realloc(block, layout, size) };
        if !moved.is_null() {
            took(size);
            gave(layout.size());
        }
        moved
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// What the limit leaves the mod beyond what Lua and the engine hold when it starts.
const ROOM: usize = 16 << 20;

/// The mod of `runtime/lua/src/heap/page_holder.lua`.
const PAGE_HOLDER: &str = include_str!("../../runtime/lua/src/heap/page_holder.lua");

#[test]
fn a_mod_that_keeps_a_string_in_every_page_is_stopped_at_the_limit() {
    let runtime = Runtime::new(Box::new(|_| {})).expect("a runtime starts");
    let lua = runtime.lua();
    lua.gc_collect().expect("collected");
    let held = Limits::lua_heap_bytes(lua);
    let engine = runtime.world().heap_estimate();
    let limit = held + engine + ROOM;
    runtime.set_limits(Some(Duration::from_secs(600)), Some(limit));
    // 60 size classes of 70 pages: 66 MiB of pages for 1.1 MiB of strings, then 8 MiB more.
    let run = format!("kept = (function(...)\n{PAGE_HOLDER}\nend)(70, {})", ROOM / 2);
    let start = LIVE.load(Ordering::Relaxed);
    PEAK.store(start, Ordering::Relaxed);
    let answer = runtime.eval(&run);
    let grown = PEAK.load(Ordering::Relaxed) - start;
    let heap_room = limit - held;
    eprintln!(
        "the mod's run took the process's allocations {:.2} MiB past where they were: the limit left the Lua heap \
         {:.2} MiB ({:.2} MiB of room besides what the engine held)",
        grown as f64 / f64::from(1 << 20),
        heap_room as f64 / f64::from(1 << 20),
        ROOM as f64 / f64::from(1 << 20)
    );
    let Evaluation::Error(failure) = answer else { panic!("the mod held its pages: {answer:?}") };
    assert!(failure.message.contains("out of memory") && failure.message.contains("memory limit of"), "{failure}");
    // The heap's bookkeeping (under 4 % of its pages) and the error's making besides.
    let overhead = heap_room / 25 + (256 << 10);
    assert!(
        grown <= heap_room + overhead,
        "the process took {grown} bytes more for a mod the limit left {heap_room} bytes (and {overhead} of overhead)"
    );
    // What it holds is let go, and the game goes on under the limit.
    assert_eq!(runtime.eval("kept = nil collectgarbage() return 1 + 1"), Evaluation::Values(vec!["2".into()]));
    assert!(Limits::lua_heap_bytes(lua) <= limit);
}
