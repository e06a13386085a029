//! The Lua heap: the allocator of the Lua state, apart from the engine's.
//!
//! Lua's small blocks (tables and their parts, closures, short strings: up to [`SMALL_MAX`]
//! bytes) live in pages of their own, one size class to a page. A new block takes the free
//! slot with the lowest address in the lowest page with room, else a new page; a page that
//! filled up has room again once three quarters of it are free. On the process allocator,
//! shared with the engine, a mod's tables made after a big world took the holes the world's
//! garbage had left, in that allocator's order (last freed, first reused), spread over the
//! whole heap with the engine's objects between them: every access a cache miss. Here they
//! share a page with at most one old block for three new ones; holes scattered through fuller
//! pages wait until their page empties, and emptied pages go back. What this costs is memory
//! where garbage was made between blocks that live on: the anchor workload's world was 6 %
//! larger than with pages taking blocks again at half free (where a mod's tables made after
//! it cost up to 1.27 times the same made before it) while every `Chara.create` left garbage
//! between the handles; since it leaves none, the two rules give the same memory.
//!
//! Larger blocks go to the process allocator. The heap counts the bytes Lua holds and refuses
//! a block that would pass the memory limit, as mlua's own allocator did; Lua then collects
//! garbage and tries again before it raises "not enough memory".
//!
//! The heap is installed once, right after the state is made ([`install`]); the blocks made
//! before come from the process allocator and go back to it. The heap frees itself when the
//! state closes: its last block (the state itself) is the last one freed.

use std::alloc::{self, Layout};
use std::collections::BTreeMap;
use std::ffi::c_void;
use std::ptr::{self, NonNull};

use mlua::{Lua, ffi};
use rustc_hash::FxHashMap;

/// The largest block kept in the heap's pages; larger ones go to the process allocator.
const SMALL_MAX: usize = 512;
/// Size classes are this far apart: Lua needs 8-byte alignment (`LUAI_MAXALIGN` on 64 bits).
const GRAIN: usize = 8;
/// How many size classes there are.
const CLASSES: usize = SMALL_MAX / GRAIN;
/// Pages are `1 << PAGE_SHIFT` bytes, aligned to their size.
const PAGE_SHIFT: u32 = 14;
/// Whether a page that filled up, now with `free` of its `slots` free, takes new blocks
/// again: at least three quarters of it are free. (A page takes blocks from when it is made
/// until it is full.)
fn roomy(free: usize, slots: usize) -> bool {
    4 * free >= 3 * slots
}

/// The bytes of one page.
const PAGE: usize = 1 << PAGE_SHIFT;
/// The words of a page's free-slot bitmap (enough for the smallest class).
const WORDS: usize = PAGE / GRAIN / 64;
/// The alignment of the blocks Lua gets from the process allocator (as mlua gives them).
const LARGE_ALIGN: usize = ffi::SYS_MIN_ALIGN;

/// The size class of a block of `size` bytes (1 ..= [`SMALL_MAX`]).
fn class_of(size: usize) -> usize {
    size.div_ceil(GRAIN) - 1
}

/// The bytes of a slot of size class `class`.
fn slot_size(class: usize) -> usize {
    (class + 1) * GRAIN
}

/// The slots of a page of size class `class`.
fn slots_per_page(class: usize) -> usize {
    PAGE / slot_size(class)
}

/// One page: slots of one size, and which of them are free.
struct Page {
    base: NonNull<u8>,
    class: usize,
    /// How many slots are free.
    free: usize,
    /// Bit `i` of word `w` set: slot `64 * w + i` is free.
    bits: [u64; WORDS],
}

impl Page {
    fn layout() -> Layout {
        // PAGE is a power of two and far below isize::MAX: the layout always exists.
        Layout::from_size_align(PAGE, PAGE).unwrap_or_else(|_| unreachable!("a page's layout is valid"))
    }
}

/// The pages of one size class that new blocks go to, by address: those not yet full since
/// they were made or since they emptied to a quarter full (see [`roomy`]).
#[derive(Default)]
struct Class {
    room: BTreeMap<usize, u32>,
    /// The page of `room` with the lowest address (address, id): where the next block of
    /// this class goes.
    lowest: Option<(usize, u32)>,
}

impl Class {
    /// Finds the lowest page with room again, after the lowest one filled or went back.
    fn refind_lowest(&mut self) {
        self.lowest = self.room.first_key_value().map(|(&base, &id)| (base, id));
    }

    /// Page `id` at `base` has room again.
    fn add_room(&mut self, base: usize, id: u32) {
        self.room.insert(base, id);
        if self.lowest.is_none_or(|(lowest, _)| base < lowest) {
            self.lowest = Some((base, id));
        }
    }
}

/// The allocator state of one Lua state; Lua holds it as its allocator's user data.
pub(crate) struct Heap {
    /// The bytes Lua holds (the sizes it asked for).
    used: usize,
    /// The most `used` may reach; 0 for no limit.
    limit: usize,
    /// Every page, by id; a released page leaves its id in `spare_ids`.
    pages: Vec<Option<Page>>,
    spare_ids: Vec<u32>,
    /// The id of the page at each page-aligned address (shifted by [`PAGE_SHIFT`]).
    page_at: FxHashMap<usize, u32>,
    classes: Vec<Class>,
}

impl Heap {
    /// A heap whose Lua state already holds `used` bytes from the process allocator.
    fn new(used: usize) -> Heap {
        Heap {
            used,
            limit: 0,
            pages: Vec::new(),
            spare_ids: Vec::new(),
            page_at: FxHashMap::default(),
            classes: (0..CLASSES).map(|_| Class::default()).collect(),
        }
    }

    /// The page that holds the small block at `ptr`, if the heap made it.
    fn page_of(&self, ptr: *mut u8) -> Option<u32> {
        self.page_at.get(&(ptr.addr() >> PAGE_SHIFT)).copied()
    }

    /// A new page for `class`, now the class's only page with room; none if the process is
    /// out of memory.
    fn new_page(&mut self, class: usize) -> Option<u32> {
        // SAFETY: the layout has a non-zero size.
        let base = NonNull::new(unsafe { alloc::alloc(Page::layout()) })?;
        let slots = slots_per_page(class);
        let mut bits = [0u64; WORDS];
        for (w, word) in bits.iter_mut().enumerate() {
            let first = w * 64;
            *word = match slots.saturating_sub(first) {
                0 => 0,
                n if n >= 64 => u64::MAX,
                n => (1u64 << n) - 1,
            };
        }
        let page = Page { base, class, free: slots, bits };
        let id = match self.spare_ids.pop() {
            Some(id) => {
                self.pages[id as usize] = Some(page);
                id
            }
            None => {
                self.pages.push(Some(page));
                u32::try_from(self.pages.len() - 1).ok()?
            }
        };
        self.page_at.insert(base.as_ptr().addr() >> PAGE_SHIFT, id);
        self.classes[class].add_room(base.as_ptr().addr(), id);
        Some(id)
    }

    fn page(&mut self, id: u32) -> &mut Page {
        match self.pages.get_mut(id as usize) {
            Some(Some(page)) => page,
            _ => unreachable!("a page id in use names a live page"),
        }
    }

    /// A slot of `class`, the free one with the lowest address.
    fn alloc_small(&mut self, class: usize) -> *mut u8 {
        let lowest = self.classes[class].lowest.map(|(_, id)| id);
        let Some(id) = lowest.or_else(|| self.new_page(class)) else {
            return ptr::null_mut();
        };
        let page = self.page(id);
        let Some(w) = page.bits.iter().position(|&word| word != 0) else {
            unreachable!("a page with room has a free slot")
        };
        let bit = page.bits[w].trailing_zeros() as usize;
        page.bits[w] &= !(1u64 << bit);
        page.free -= 1;
        let (base, full) = (page.base, page.free == 0);
        if full {
            let entry = &mut self.classes[class];
            entry.room.remove(&base.as_ptr().addr());
            entry.refind_lowest();
        }
        // SAFETY: the slot lies within the page.
        unsafe { base.as_ptr().add((w * 64 + bit) * slot_size(class)) }
    }

    /// Frees the small block at `ptr` in page `id`; a page a quarter full takes new blocks
    /// again, an empty page goes back to the process unless it is its class's only page with
    /// room.
    fn free_small(&mut self, id: u32, ptr: *mut u8) {
        let page = self.page(id);
        let (class, base) = (page.class, page.base.as_ptr().addr());
        let slot = (ptr.addr() - base) / slot_size(class);
        page.bits[slot / 64] |= 1u64 << (slot % 64);
        page.free += 1;
        let (free, slots) = (page.free, slots_per_page(class));
        let entry = &mut self.classes[class];
        if roomy(free, slots) && !roomy(free - 1, slots) {
            entry.add_room(base, id);
        }
        if free == slots && entry.room.len() > 1 {
            entry.room.remove(&base);
            entry.refind_lowest();
            self.release(id);
        }
    }

    /// Gives page `id` back to the process.
    fn release(&mut self, id: u32) {
        let Some(page) = self.pages.get_mut(id as usize).and_then(Option::take) else { return };
        self.page_at.remove(&(page.base.as_ptr().addr() >> PAGE_SHIFT));
        self.spare_ids.push(id);
        // SAFETY: the page was allocated with this layout and no block in it is in use.
        unsafe { alloc::dealloc(page.base.as_ptr(), Page::layout()) };
    }

    /// A new block of `size` (> 0) bytes; null if there is no memory for it.
    fn alloc(&mut self, size: usize) -> *mut u8 {
        if size <= SMALL_MAX {
            return self.alloc_small(class_of(size));
        }
        match Layout::from_size_align(size, LARGE_ALIGN) {
            // SAFETY: the layout has a non-zero size.
            Ok(layout) => unsafe { alloc::alloc(layout) },
            Err(_) => ptr::null_mut(),
        }
    }

    /// Frees the block of `size` bytes at `ptr`.
    ///
    /// # Safety
    /// `ptr` is a live block of exactly `size` bytes from this heap or, made before the heap
    /// was installed, from the process allocator.
    unsafe fn free(&mut self, ptr: *mut u8, size: usize) {
        if let Some(id) = (size <= SMALL_MAX).then(|| self.page_of(ptr)).flatten() {
            self.free_small(id, ptr);
        } else {
            // SAFETY: a block the heap did not make came from the process allocator with
            // this layout (the caller's promise).
            unsafe { alloc::dealloc(ptr, Layout::from_size_align_unchecked(size, LARGE_ALIGN)) };
        }
    }

    /// The block at `ptr` (of `old` bytes) resized to `new` (> 0) bytes, moved if it must
    /// be; null, leaving the block as it was, if there is no memory for it.
    ///
    /// # Safety
    /// As [`Heap::free`].
    unsafe fn realloc(&mut self, ptr: *mut u8, old: usize, new: usize) -> *mut u8 {
        let page = (old <= SMALL_MAX).then(|| self.page_of(ptr)).flatten();
        match page {
            Some(id) if new <= SMALL_MAX && self.page(id).class == class_of(new) => return ptr,
            None if old > SMALL_MAX && new > SMALL_MAX => {
                // SAFETY: a large block came from the process allocator with this layout.
                return unsafe { alloc::realloc(ptr, Layout::from_size_align_unchecked(old, LARGE_ALIGN), new) };
            }
            _ => {}
        }
        let moved = self.alloc(new);
        if !moved.is_null() {
            // SAFETY: both blocks hold at least the bytes copied and do not overlap.
            unsafe {
                ptr::copy_nonoverlapping(ptr, moved, old.min(new));
                self.free(ptr, old);
            }
        }
        moved
    }

    /// Gives every page back: the state has freed all it held.
    fn release_all(&mut self) {
        for id in 0..self.pages.len() {
            if let Ok(id) = u32::try_from(id) {
                self.release(id);
            }
        }
    }
}

/// Lua's allocator function over a [`Heap`] (its user data), as `lua_Alloc` specifies:
/// frees when `nsize` is 0, allocates when `ptr` is null (`osize` is then a type tag),
/// resizes otherwise; null when refused.
unsafe extern "C" fn allocate(ud: *mut c_void, ptr: *mut c_void, osize: usize, nsize: usize) -> *mut c_void {
    let heap_ptr = ud.cast::<Heap>();
    // SAFETY: Lua passes back the user data `install` gave it, a live heap used by this
    // state only, one call at a time.
    let heap = unsafe { &mut *heap_ptr };
    let ptr = ptr.cast::<u8>();
    if nsize == 0 {
        if !ptr.is_null() {
            // SAFETY: Lua frees a live block with its exact size.
            unsafe { heap.free(ptr, osize) };
            match heap.used.checked_sub(osize) {
                Some(0) => {
                    // The state itself, its first block and its last, is gone: so is its heap.
                    heap.release_all();
                    // SAFETY: made by `Box::into_raw` in `install`; Lua calls no more.
                    drop(unsafe { Box::from_raw(heap_ptr) });
                }
                Some(left) => heap.used = left,
                // Never: Lua frees only what it holds, and the count starts exact. Were it
                // wrong, keeping the heap (a leak) is the safe side.
                None => {}
            }
        }
        return ptr::null_mut();
    }
    let old = if ptr.is_null() { 0 } else { osize };
    if nsize > old && heap.limit > 0 && heap.used - old + nsize > heap.limit {
        return ptr::null_mut();
    }
    let block = if ptr.is_null() {
        heap.alloc(nsize)
    } else {
        // SAFETY: Lua resizes a live block whose size is `osize`.
        unsafe { heap.realloc(ptr, osize, nsize) }
    };
    if !block.is_null() {
        heap.used = heap.used - old + nsize;
    }
    block.cast()
}

/// Gives the new state `lua` its own heap. Call once, before the state runs anything.
pub(crate) fn install(lua: &Lua) {
    // SAFETY: reads the bytes Lua holds and swaps the allocator within one raw call: no
    // block is made between the two, and Lua's count is exact. Blocks made before are
    // freed through the process allocator (see `Heap::free`).
    let swapped = unsafe {
        lua.exec_raw::<()>((), |state| {
            let kib = ffi::lua_gc(state, ffi::LUA_GCCOUNT, 0);
            let rest = ffi::lua_gc(state, ffi::LUA_GCCOUNTB, 0);
            let used = usize::try_from(kib).unwrap_or(0) * 1024 + usize::try_from(rest).unwrap_or(0);
            let heap = Box::into_raw(Box::new(Heap::new(used)));
            ffi::lua_setallocf(state, allocate, heap.cast());
        })
    };
    if let Err(error) = swapped {
        tracing::warn!("the Lua heap could not be installed, Lua keeps the process allocator: {error}");
    }
}

/// Sets the most bytes the Lua heap may hold (`None`: no limit). Returns false if `lua` has
/// no heap of its own (see [`install`]).
pub(crate) fn set_limit(lua: &Lua, limit: Option<usize>) -> bool {
    let mut set = false;
    // SAFETY: the allocator's user data is a live heap when the allocator is ours; Lua is
    // not allocating during this raw call.
    let read = unsafe {
        lua.exec_raw::<()>((), |state| {
            let mut ud = ptr::null_mut();
            let f = ffi::lua_getallocf(state, &mut ud);
            if ptr::fn_addr_eq(f, allocate as ffi::lua_Alloc) {
                (*ud.cast::<Heap>()).limit = limit.unwrap_or(0);
                set = true;
            }
        })
    };
    read.is_ok() && set
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Runs `f` over a heap that holds nothing yet, then checks that it gave every page back.
    fn with_heap(f: impl FnOnce(&mut Heap)) {
        let mut heap = Heap::new(0);
        f(&mut heap);
        heap.release_all();
        assert!(heap.page_at.is_empty());
    }

    #[test]
    fn new_blocks_fill_the_lowest_free_slots_in_order() {
        with_heap(|heap| {
            let blocks: Vec<*mut u8> = (0..17 * slots_per_page(class_of(56))).map(|_| heap.alloc(56)).collect();
            // Free three blocks of every four, from the top down (the order a sweep might take).
            let mut freed: Vec<*mut u8> =
                blocks.iter().enumerate().filter(|(i, _)| i % 4 != 0).map(|(_, &block)| block).collect();
            for &block in freed.iter().rev() {
                unsafe { heap.free(block, 56) };
            }
            freed.sort();
            let again: Vec<*mut u8> = (0..freed.len()).map(|_| heap.alloc(56)).collect();
            assert_eq!(again, freed, "each new block takes the lowest hole, in address order");
            for block in blocks {
                unsafe { heap.free(block, 56) };
            }
        });
    }

    #[test]
    fn holes_in_pages_fuller_than_a_quarter_wait_and_new_blocks_go_side_by_side() {
        with_heap(|heap| {
            let per_page = slots_per_page(class_of(56));
            let blocks: Vec<*mut u8> = (0..16 * per_page).map(|_| heap.alloc(56)).collect();
            let mut holes: Vec<*mut u8> = blocks.iter().copied().step_by(4).collect();
            for &block in &holes {
                unsafe { heap.free(block, 56) };
            }
            let new: Vec<*mut u8> = (0..1_000).map(|_| heap.alloc(56)).collect();
            assert!(new.iter().all(|b| !holes.contains(b)), "a quarter free, no old page takes new blocks");
            let pages: std::collections::BTreeSet<usize> = new.iter().map(|b| b.addr() >> PAGE_SHIFT).collect();
            assert_eq!(pages.len(), 1_000usize.div_ceil(per_page), "the new blocks fill new pages side by side");
            let free_every_fourth_from = |heap: &mut Heap, first: usize, holes: &mut Vec<*mut u8>| {
                for &block in blocks.iter().skip(first).step_by(4) {
                    unsafe { heap.free(block, 56) };
                    holes.push(block);
                }
            };
            free_every_fourth_from(heap, 2, &mut holes);
            assert!(!holes.contains(&heap.alloc(56)), "half free, no old page takes new blocks yet");
            free_every_fourth_from(heap, 1, &mut holes);
            assert!(holes.contains(&heap.alloc(56)), "three quarters free, the old pages take blocks again");
        });
    }

    #[test]
    fn an_empty_page_goes_back_unless_it_is_the_last_with_room() {
        with_heap(|heap| {
            let blocks: Vec<*mut u8> = (0..3 * slots_per_page(class_of(64))).map(|_| heap.alloc(64)).collect();
            assert_eq!(heap.page_at.len(), 3);
            for &block in &blocks {
                unsafe { heap.free(block, 64) };
            }
            assert_eq!(heap.page_at.len(), 1, "two emptied pages went back, one stays for the next block");
        });
    }

    #[test]
    fn the_limit_refuses_growth_and_the_count_follows_every_block() {
        let heap = Box::into_raw(Box::new(Heap::new(100)));
        let ud = heap.cast::<c_void>();
        unsafe {
            (*heap).limit = 1_000;
            let a = allocate(ud, ptr::null_mut(), 5, 600);
            assert!(!a.is_null());
            assert_eq!((*heap).used, 700);
            assert!(allocate(ud, ptr::null_mut(), 5, 400).is_null(), "past the limit");
            assert_eq!((*heap).used, 700, "a refused block is not counted");
            let a = allocate(ud, a, 600, 20);
            assert!(!a.is_null(), "shrinking always works");
            assert_eq!((*heap).used, 120);
            allocate(ud, a, 20, 0);
            assert_eq!((*heap).used, 100);
            // The state's own 100 bytes, freed last, free the heap.
            let state = alloc::alloc(Layout::from_size_align(100, LARGE_ALIGN).unwrap());
            allocate(ud, state.cast(), 100, 0);
        }
    }

    #[test]
    fn a_lua_state_runs_on_its_heap_and_keeps_its_limit() {
        let lua = Lua::new();
        install(&lua);
        assert!(set_limit(&lua, Some(lua.used_memory() + (4 << 20))));
        lua.load("t = {} for i = 1, 10000 do t[i] = { x = i, name = 'n' .. i } end").exec().unwrap();
        let sum: i64 = lua.load("local s = 0 for _, v in ipairs(t) do s = s + v.x end return s").eval().unwrap();
        assert_eq!(sum, 50_005_000);
        let hog = lua.load("local t = {} for i = 1, 1e7 do t[i] = { i } end").exec();
        assert!(matches!(hog, Err(mlua::Error::MemoryError(_))), "the limit stops a hog: {hog:?}");
        assert!(set_limit(&lua, None));
        lua.load("t = nil collectgarbage()").exec().unwrap();
        drop(lua);
    }

    #[derive(Debug, Clone)]
    enum Step {
        Alloc(usize),
        Resize(usize, usize),
        Free(usize),
    }

    fn step() -> impl Strategy<Value = Step> {
        prop_oneof![
            (1usize..1_200).prop_map(Step::Alloc),
            (any::<usize>(), 1usize..1_200).prop_map(|(i, n)| Step::Resize(i, n)),
            any::<usize>().prop_map(Step::Free),
        ]
    }

    proptest! {
        /// Any run of allocations, resizes and frees keeps every live block's bytes, never
        /// gives two live blocks the same bytes, and counts exactly what is held.
        #[test]
        fn blocks_keep_their_bytes_and_never_overlap(steps in proptest::collection::vec(step(), 1..400)) {
            with_heap(|heap| {
                let mut live: Vec<(*mut u8, usize, u8)> = Vec::new();
                let fill = |block: *mut u8, size: usize, tag: u8| unsafe { ptr::write_bytes(block, tag, size) };
                for (n, step) in steps.into_iter().enumerate() {
                    let tag = (n % 251) as u8;
                    match step {
                        Step::Alloc(size) => {
                            let block = heap.alloc(size);
                            fill(block, size, tag);
                            live.push((block, size, tag));
                        }
                        Step::Resize(i, size) if !live.is_empty() => {
                            let i = i % live.len();
                            let (block, old, old_tag) = live[i];
                            let block = unsafe { heap.realloc(block, old, size) };
                            let kept = unsafe { std::slice::from_raw_parts(block, old.min(size)) };
                            assert!(kept.iter().all(|&b| b == old_tag), "a resize keeps the bytes");
                            fill(block, size, tag);
                            live[i] = (block, size, tag);
                        }
                        Step::Free(i) if !live.is_empty() => {
                            let (block, size, _) = live.swap_remove(i % live.len());
                            unsafe { heap.free(block, size) };
                        }
                        _ => {}
                    }
                    for &(block, size, tag) in &live {
                        let bytes = unsafe { std::slice::from_raw_parts(block, size) };
                        assert!(bytes.iter().all(|&b| b == tag), "no other block wrote over this one");
                    }
                }
                for (block, size, _) in live {
                    unsafe { heap.free(block, size) };
                }
            });
        }
    }
}
