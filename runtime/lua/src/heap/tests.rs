//! The heap driven as Lua drives it: through [`allocate`], the `lua_Alloc` Lua calls.

use super::runs::RUN_PAGES;
use super::*;
use proptest::prelude::*;

/// The size of the block that stands for the Lua state: made before the heap, freed last.
const STATE: usize = 96;

/// A heap driven through [`allocate`] as Lua drives it, over a state block made before it.
struct Driven {
    heap: *mut Heap,
    state: *mut u8,
}

impl Driven {
    fn new() -> Driven {
        Driven::over(0)
    }

    /// A heap installed when Lua held `before` bytes besides the state block.
    fn over(before: usize) -> Driven {
        // SAFETY: the layout has a non-zero size.
        let state = unsafe { alloc::alloc(Layout::from_size_align(STATE, LARGE_ALIGN).unwrap()) };
        Driven { heap: Box::into_raw(Box::new(Heap::new(STATE + before))), state }
    }

    fn heap(&self) -> &Heap {
        // SAFETY: the heap lives until `close`, and no call into it runs now.
        unsafe { &*self.heap }
    }

    fn set_limit(&mut self, limit: usize) {
        // SAFETY: as `heap`.
        unsafe { (*self.heap).limit = limit };
    }

    /// Lua's call for a new block of `size` bytes (`osize` then carries a type tag).
    fn alloc(&mut self, size: usize) -> *mut u8 {
        // SAFETY: a new block, as Lua asks for one.
        unsafe { allocate(self.heap.cast(), ptr::null_mut(), ffi::LUA_TTABLE as usize, size).cast() }
    }

    fn resize(&mut self, block: *mut u8, old: usize, new: usize) -> *mut u8 {
        // SAFETY: the caller's block is live and `old` bytes long.
        unsafe { allocate(self.heap.cast(), block.cast(), old, new).cast() }
    }

    fn free(&mut self, block: *mut u8, size: usize) {
        // SAFETY: as `resize`.
        unsafe { allocate(self.heap.cast(), block.cast(), size, 0) };
    }

    fn pages(&self) -> usize {
        self.heap().page_at.len()
    }

    /// Checks that the heap holds nothing but the state block and at most one kept page per
    /// class (all of it counted), then frees the state block, which frees the heap.
    fn close(self) {
        let heap = self.heap();
        assert_eq!(heap.used, STATE, "every block but the state's was freed");
        assert_eq!(heap.held, STATE + heap.runs.len() * RUN, "the heap counts what it holds");
        assert!(heap.runs.len() <= self.pages(), "a run with no page in use went back");
        let classes: std::collections::BTreeSet<usize> = heap.pages.iter().flatten().map(|page| page.class).collect();
        assert_eq!(classes.len(), self.pages(), "an emptied page is kept only as its class's last with room");
        assert!(heap.pages.iter().flatten().all(|page| page.free == slots_per_page(page.class)));
        let (heap, state) = (self.heap, self.state);
        // SAFETY: the state block, freed last, as Lua frees it; the heap frees itself.
        unsafe { allocate(heap.cast(), state.cast(), STATE, 0) };
    }
}

#[test]
fn new_blocks_fill_the_lowest_free_slots_in_order() {
    let mut heap = Driven::new();
    let blocks: Vec<*mut u8> = (0..17 * slots_per_page(class_of(56))).map(|_| heap.alloc(56)).collect();
    // Free three blocks of every four, from the top down (the order a sweep might take).
    let mut freed: Vec<*mut u8> =
        blocks.iter().enumerate().filter(|(i, _)| i % 4 != 0).map(|(_, &block)| block).collect();
    for &block in freed.iter().rev() {
        heap.free(block, 56);
    }
    freed.sort();
    let again: Vec<*mut u8> = (0..freed.len()).map(|_| heap.alloc(56)).collect();
    assert_eq!(again, freed, "each new block takes the lowest hole, in address order");
    for block in blocks {
        heap.free(block, 56);
    }
    heap.close();
}

#[test]
fn holes_in_pages_fuller_than_a_quarter_wait_and_new_blocks_go_side_by_side() {
    let mut heap = Driven::new();
    let per_page = slots_per_page(class_of(56));
    let blocks: Vec<*mut u8> = (0..16 * per_page).map(|_| heap.alloc(56)).collect();
    let mut holes: Vec<*mut u8> = blocks.iter().copied().step_by(4).collect();
    for &block in &holes {
        heap.free(block, 56);
    }
    let new: Vec<*mut u8> = (0..1_000).map(|_| heap.alloc(56)).collect();
    assert!(new.iter().all(|b| !holes.contains(b)), "a quarter free, no old page takes new blocks");
    let pages: std::collections::BTreeSet<usize> = new.iter().map(|b| b.addr() >> PAGE_SHIFT).collect();
    assert_eq!(pages.len(), 1_000usize.div_ceil(per_page), "the new blocks fill new pages side by side");
    let free_every_fourth_from = |heap: &mut Driven, first: usize, holes: &mut Vec<*mut u8>| {
        for &block in blocks.iter().skip(first).step_by(4) {
            heap.free(block, 56);
            holes.push(block);
        }
    };
    free_every_fourth_from(&mut heap, 2, &mut holes);
    let early = heap.alloc(56);
    assert!(!holes.contains(&early), "half free, no old page takes new blocks yet");
    free_every_fourth_from(&mut heap, 1, &mut holes);
    let late = heap.alloc(56);
    assert!(holes.contains(&late), "three quarters free, the old pages take blocks again");
    for block in new.into_iter().chain([early, late]).chain(blocks.into_iter().skip(3).step_by(4)) {
        heap.free(block, 56);
    }
    heap.close();
}

#[test]
fn emptied_pages_go_back_while_other_blocks_live_on() {
    let mut heap = Driven::new();
    let per_page = slots_per_page(class_of(64));
    // A page of 200-byte blocks and 15 of 64-byte ones fill the first run, 16 more the second;
    // the last page, in a third run, keeps room for one more block.
    let other = heap.alloc(200);
    let blocks: Vec<*mut u8> = (0..(2 * RUN_PAGES + 1) * per_page - 1).map(|_| heap.alloc(64)).collect();
    let (held, used) = (heap.heap().held, heap.heap().used);
    assert_eq!((heap.pages(), heap.heap().runs.len()), (2 * RUN_PAGES + 2, 3));
    // Empty the pages of the second run and one of the first: blocks live on in both others.
    let emptied = (RUN_PAGES - 2)..(2 * RUN_PAGES - 1);
    for &block in &blocks[emptied.start * per_page..emptied.end * per_page] {
        heap.free(block, 64);
    }
    assert_eq!(heap.pages(), 2 * RUN_PAGES + 2 - emptied.len(), "every emptied page went back");
    assert_eq!(heap.heap().runs.len(), 2, "and the run whose pages all did, with them");
    assert_eq!(heap.heap().held, held - RUN, "the limit no longer counts it");
    assert_eq!(heap.heap().used, used - emptied.len() * per_page * 64);
    // The page given back in the first run is the next one taken, by any class.
    let again = heap.alloc(300);
    assert_eq!((heap.heap().runs.len(), heap.heap().held), (2, held - RUN));
    heap.free(again, 300);
    for block in blocks[..emptied.start * per_page].iter().chain(&blocks[emptied.end * per_page..]) {
        heap.free(*block, 64);
    }
    heap.free(other, 200);
    heap.close();
}

#[test]
fn pages_lie_side_by_side_in_runs() {
    // Aligned one by one, each page cost glibc a gap before it: half again in resident memory.
    let mut heap = Driven::new();
    let per_page = slots_per_page(class_of(128));
    let blocks: Vec<*mut u8> = (0..RUN_PAGES * per_page).map(|_| heap.alloc(128)).collect();
    let first = blocks[0].addr();
    for (page, chunk) in blocks.chunks(per_page).enumerate() {
        assert_eq!(chunk[0].addr(), first + page * PAGE, "page {page} follows the one before");
    }
    assert_eq!(heap.heap().runs.len(), 1);
    for block in blocks {
        heap.free(block, 128);
    }
    heap.close();
}

#[test]
fn the_limit_counts_whole_runs_not_the_bytes_asked() {
    let mut heap = Driven::new();
    let per_page = slots_per_page(class_of(64));
    let blocks: Vec<*mut u8> = (0..RUN_PAGES * per_page).map(|_| heap.alloc(64)).collect();
    heap.set_limit(heap.heap().held);
    // Keep one block in each page: Lua uses 1 KiB, the heap holds a run of 16 pages.
    for (_, &block) in blocks.iter().enumerate().filter(|(i, _)| i % per_page != 0) {
        heap.free(block, 64);
    }
    assert_eq!(heap.heap().used, STATE + RUN_PAGES * 64);
    assert_eq!(heap.heap().held, STATE + RUN);
    let (held, used) = (heap.heap().held, heap.heap().used);
    assert!(heap.alloc(100).is_null(), "a block of another class needs a page in a run past the limit");
    assert!(heap.alloc(600).is_null(), "so does a large block");
    assert_eq!((heap.heap().held, heap.heap().used), (held, used), "a refused block is not counted");
    let refused = REFUSED.get().expect("the refusal is kept for the message");
    assert_eq!(refused, Refusal { held, used, limit: held });
    let message = out_of_memory("not enough memory");
    assert!(
        message.contains("memory limit of 0.3 MiB: it holds 0.3 MiB, 0.0 MiB of it in blocks Lua uses"),
        "{message}"
    );
    // Blocks of the class fill the kept pages' holes within the limit.
    let more: Vec<*mut u8> = (0..per_page).map(|_| heap.alloc(64)).collect();
    assert!(more.iter().all(|block| !block.is_null()) && heap.heap().held == held);
    // Pages emptied make room for a page of another class.
    for &block in more.iter().chain(blocks.iter().step_by(per_page)) {
        heap.free(block, 64);
    }
    let fits = heap.alloc(100);
    assert!(!fits.is_null() && heap.heap().held == held, "an emptied page of the run took it");
    heap.free(fits, 100);
    heap.close();
}

#[test]
fn shrinks_take_no_memory_and_are_never_refused() {
    let mut heap = Driven::new();
    let (small, large) = (heap.alloc(500), heap.alloc(4_000));
    heap.set_limit(1);
    let small_again = heap.resize(small, 500, 20);
    assert_eq!(small_again, small, "a block in a page shrinks in its slot");
    let held = heap.heap().held;
    let large_again = heap.resize(large, 4_000, 300);
    assert!(!large_again.is_null(), "a large block shrinks to a small size on the process allocator");
    assert_eq!(heap.heap().held, held - 3_700);
    assert_eq!(heap.resize(small_again, 20, 504), small, "it grows in its slot as far as the slot goes");
    assert!(heap.resize(small_again, 504, 600).is_null(), "growing out of its slot is refused past the limit");
    heap.set_limit(0);
    heap.free(small_again, 504);
    heap.free(large_again, 300);
    heap.close();
}

#[test]
fn a_lua_state_runs_on_its_heap_and_keeps_its_limit() {
    let lua = Lua::new();
    install(&lua);
    set_limit(&lua, Some(held(&lua) + (4 << 20))).unwrap();
    lua.load("t = {} for i = 1, 10000 do t[i] = { x = i, name = 'n' .. i } end").exec().unwrap();
    let sum: i64 = lua.load("local s = 0 for _, v in ipairs(t) do s = s + v.x end return s").eval().unwrap();
    assert_eq!(sum, 50_005_000);
    let hog = lua.load("local t = {} for i = 1, 1e7 do t[i] = { i } end").exec();
    assert!(matches!(hog, Err(mlua::Error::MemoryError(_))), "the limit stops a hog: {hog:?}");
    set_limit(&lua, None).unwrap();
    lua.load("t = nil collectgarbage()").exec().unwrap();
    drop(lua);
}

/// Makes 64 MiB of strings one at a time and keeps them: a hog that stops itself.
const HOG: &str = "local t = {} for i = 1, 64 do t[i] = ('x'):rep(1 << 20) .. i end";

#[test]
fn a_state_without_its_heap_keeps_its_limit_through_mlua() {
    // As when `install` fails: Lua keeps mlua's allocator.
    let lua = Lua::new();
    set_limit(&lua, Some(lua.used_memory() + (4 << 20))).unwrap();
    let hog = lua.load(HOG).exec();
    assert!(matches!(hog, Err(mlua::Error::MemoryError(_))), "mlua's limit stops the hog: {hog:?}");
    assert_eq!(held(&lua), lua.used_memory(), "the limit counts what mlua counts");
}

#[test]
fn a_mod_keeping_a_string_in_every_page_is_held_to_its_limit() {
    let lua = Lua::new();
    install(&lua);
    let limit = held(&lua) + (8 << 20);
    set_limit(&lua, Some(limit)).unwrap();
    // 60 classes of 20 pages hold 19 MiB for 270 KiB of strings.
    let holding = lua.load(include_str!("page_holder.lua")).call::<i64>((20, 1 << 20));
    let Err(error) = holding else { panic!("the mod held {} MiB under a limit of 8 MiB", held(&lua) >> 20) };
    assert!(held(&lua) <= limit, "the heap holds {} bytes, past its limit of {limit}", held(&lua));
    let message = crate::error::root_message(&error);
    assert!(message.contains("not enough memory") && message.contains("would pass its memory limit of"), "{message}");
}

#[derive(Debug, Clone)]
enum Step {
    Alloc(usize),
    Resize(usize, usize),
    Free(usize),
    Limit(Option<usize>),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        4 => (1usize..1_200).prop_map(Step::Alloc),
        2 => (any::<usize>(), 1usize..1_200).prop_map(|(i, n)| Step::Resize(i, n)),
        3 => any::<usize>().prop_map(Step::Free),
        1 => proptest::option::of(0usize..(3 * RUN)).prop_map(Step::Limit),
    ]
}

/// A live block of the model: where, how big, and the byte it is filled with.
#[derive(Clone, Copy)]
struct Block {
    at: *mut u8,
    size: usize,
    tag: u8,
}

impl Block {
    fn fill(self) {
        // SAFETY: a live block of `size` bytes.
        unsafe { ptr::write_bytes(self.at, self.tag, self.size) };
    }

    /// Whether its first `size` bytes are still its tag.
    fn kept(self, size: usize) -> bool {
        // SAFETY: a live block of at least `size` bytes.
        unsafe { std::slice::from_raw_parts(self.at, size.min(self.size)) }.iter().all(|&b| b == self.tag)
    }
}

/// What the heap must hold as the model sees it: its runs whole and every block outside pages.
fn expected_held(heap: &Driven, live: &[Block]) -> usize {
    let outside: usize = live.iter().filter(|b| heap.heap().page_of(b.at).is_none()).map(|b| b.size).sum();
    STATE + heap.heap().runs.len() * RUN + outside
}

/// The bytes that a block of `new` bytes, for one of `old` (0: none) at `at`, may need from
/// the process: a run for a small block, the growth of a block outside the pages resized in
/// place, else the block.
fn needed(heap: &Driven, at: *mut u8, old: usize, new: usize) -> usize {
    match new {
        0..=SMALL_MAX => RUN,
        _ if old > 0 && heap.heap().page_of(at).is_none() => new - old,
        _ => new,
    }
}

proptest! {
    /// Any run of Lua's calls — blocks made, resized and freed, some of them made before the
    /// heap (by the process allocator, which takes them back) — keeps every live block's
    /// bytes, aligned for Lua, apart from every other; counts exactly the bytes Lua uses and
    /// those the heap holds; and refuses a block only if it would take what the heap holds past
    /// the limit, which it never passes.
    #[test]
    fn lua_s_calls_keep_blocks_counts_and_the_limit(
        before in proptest::collection::vec(1usize..1_200, 0..12),
        steps in proptest::collection::vec(step(), 1..300),
    ) {
        let mut live: Vec<Block> = before
            .iter()
            .enumerate()
            .map(|(n, &size)| {
                // SAFETY: the layout has a non-zero size; Lua's blocks come from mlua so.
                let at = unsafe { alloc::alloc(Layout::from_size_align(size, LARGE_ALIGN).unwrap()) };
                Block { at, size, tag: n as u8 }
            })
            .collect();
        live.iter().for_each(|block| block.fill());
        let mut heap = Driven::over(before.iter().sum());
        let mut limit = None;
        for (n, step) in steps.into_iter().enumerate() {
            let tag = (n % 251) as u8 + 1;
            let held = heap.heap().held;
            let (asked, made) = match step {
                Step::Alloc(size) => (Some(needed(&heap, ptr::null_mut(), 0, size)), Some((heap.alloc(size), size))),
                Step::Resize(i, size) if !live.is_empty() => {
                    let i = i % live.len();
                    let old = live[i];
                    let need = (size > old.size).then(|| needed(&heap, old.at, old.size, size));
                    let at = heap.resize(old.at, old.size, size);
                    if !at.is_null() {
                        prop_assert!(Block { at, ..old }.kept(size), "a resize keeps the bytes");
                        live.swap_remove(i);
                    }
                    (need, Some((at, size)))
                }
                Step::Free(i) if !live.is_empty() => {
                    let gone = live.swap_remove(i % live.len());
                    heap.free(gone.at, gone.size);
                    (None, None)
                }
                Step::Limit(room) => {
                    limit = room.map(|room| held + room);
                    heap.set_limit(limit.unwrap_or(0));
                    (None, None)
                }
                _ => (None, None),
            };
            match made {
                Some((at, size)) if !at.is_null() => {
                    prop_assert_eq!(at.addr() % GRAIN, 0, "Lua's blocks are aligned to 8 bytes");
                    prop_assert!(size <= SMALL_MAX || at.addr() % LARGE_ALIGN == 0);
                    let block = Block { at, size, tag };
                    block.fill();
                    live.push(block);
                }
                Some(_) => {
                    let (Some(limit), Some(need)) = (limit, asked) else {
                        return Err(TestCaseError::fail("a block was refused with no limit, or a shrink"));
                    };
                    prop_assert!(held + need > limit, "refused {} bytes with {} of {} held", need, held, limit);
                    prop_assert_eq!(heap.heap().held, held, "a refused block is not counted");
                }
                None => {}
            }
            prop_assert_eq!(heap.heap().used, STATE + live.iter().map(|b| b.size).sum::<usize>());
            prop_assert_eq!(heap.heap().held, expected_held(&heap, &live));
            if let Some(limit) = limit {
                prop_assert!(heap.heap().held <= limit, "the heap passed its limit");
            }
            for block in &live {
                prop_assert!(block.kept(block.size), "no other block wrote over this one");
            }
        }
        // What is left goes back (the blocks made before the heap to the process allocator),
        // and the last block frees the heap.
        for block in live {
            heap.free(block.at, block.size);
        }
        heap.close();
    }
}
