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
//! pages wait until their page empties, and emptied pages go back to their run (pages lie
//! side by side in runs of 16: `heap/runs.rs`), which goes back when all its pages have. What
//! this costs is memory where garbage was made between blocks that live on: the anchor
//! workload's world was 6 % larger than with pages taking blocks again at half free (where a
//! mod's tables made after it cost up to 1.27 times the same made before it) while every
//! `Chara.create` left garbage between the handles; since it leaves none, the two rules give
//! the same memory.
//!
//! Larger blocks go to the process allocator. The memory limit bounds what the heap holds from
//! the process for Lua ([`Heap::held`]): its runs of pages whole, however few blocks are left
//! in them, the large blocks, and the blocks made before it was installed. Counting the bytes
//! Lua asked for instead, a mod that kept one small block in every page of every size class
//! held up to 64 times its limit (a page of 16 KiB for one block of 8 to 512 bytes, in 64
//! classes; `tests/tests/memory_limit.rs` is that mod). A block that would take the heap past
//! the limit is refused; Lua then collects garbage and tries again before it raises "not enough
//! memory", and the engine's message for it ([`out_of_memory`]) says what the heap holds
//! against the limit. A shrink is never refused (Lua's manual requires it to succeed) and never
//! takes memory: a block in a page stays in its slot, any other block is resized by the process
//! allocator; so the heap never holds more than the limit, unless it was set below what the
//! heap held then.
//!
//! What the process holds for Lua beyond the limit is the heap's bookkeeping — a page's record
//! (its free-slot bitmap, 280 bytes) in a table that grows by doubling, and its entries in
//! three maps: at most 650 bytes a 16 KiB page, under 4 % of what the pages hold — and what
//! the process allocator adds: its headers on the large blocks (glibc's: 8 to 16 bytes a
//! block, under 3 % of blocks over 512 bytes) and a gap of up to a page before a run (256
//! KiB) taken from its heap rather than mapped, under 7 % in address space and less in
//! resident memory. Under 16 MiB of room, the page-holding mod's run took 16.6 MiB of the
//! process's allocations and grew its resident memory by 18.0 MiB.
//!
//! The heap is installed once, right after the state is made ([`install`]); the blocks made
//! before come from the process allocator and go back to it. If it cannot be installed, Lua
//! keeps mlua's allocator, and [`set_limit`] sets mlua's limit instead, so the limit never
//! silently goes: on the process allocator free blocks merge and serve blocks of any size, so
//! counting the bytes asked for bounds what is held there. (Refusing to run instead would stop
//! the game for the want of a layout, which is all the heap adds.) The heap frees itself when
//! the state closes: its last block (the state itself) is the last one freed.

use std::alloc::{self, Layout};
use std::collections::BTreeMap;
use std::ffi::c_void;
use std::ptr::{self, NonNull};

use mlua::{Lua, ffi};
use runs::{RUN, Runs};
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
    /// The bytes the heap holds from the process for Lua: its runs of pages whole, and every
    /// block not in a page (large ones, and those made before the heap) at its size. What the
    /// limit bounds.
    held: usize,
    /// The most `held` may reach by a block Lua asks for; 0 for no limit.
    limit: usize,
    /// Every page, by id; a released page leaves its id in `spare_ids`.
    pages: Vec<Option<Page>>,
    spare_ids: Vec<u32>,
    /// The id of the page at each page-aligned address (shifted by [`PAGE_SHIFT`]).
    page_at: FxHashMap<usize, u32>,
    classes: Vec<Class>,
    /// Where the pages lie.
    runs: Runs,
}

/// A block the limit refused: what the heap held, and of it what Lua used, against the limit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Refusal {
    held: usize,
    used: usize,
    limit: usize,
}

thread_local! {
    /// The last block the limit refused on this thread (a Lua state allocates on the thread that
    /// runs it): what [`out_of_memory`] explains Lua's "not enough memory" with.
    static REFUSED: std::cell::Cell<Option<Refusal>> = const { std::cell::Cell::new(None) };
}

impl Heap {
    /// A heap whose Lua state already holds `used` bytes from the process allocator.
    fn new(used: usize) -> Heap {
        Heap {
            used,
            held: used,
            limit: 0,
            pages: Vec::new(),
            spare_ids: Vec::new(),
            page_at: FxHashMap::default(),
            classes: (0..CLASSES).map(|_| Class::default()).collect(),
            runs: Runs::default(),
        }
    }

    /// Whether the heap may take `bytes` more from the process within the limit; a refusal is
    /// kept for [`out_of_memory`].
    fn may_take(&self, bytes: usize) -> bool {
        let fits = self.limit == 0 || self.held.saturating_add(bytes) <= self.limit;
        if !fits {
            REFUSED.set(Some(Refusal { held: self.held, used: self.used, limit: self.limit }));
        }
        fits
    }

    /// The page that holds the small block at `ptr`, if the heap made it.
    fn page_of(&self, ptr: *mut u8) -> Option<u32> {
        self.page_at.get(&(ptr.addr() >> PAGE_SHIFT)).copied()
    }

    /// A new page for `class`, now the class's only page with room; none if a new run for it
    /// would pass the limit or the process is out of memory.
    fn new_page(&mut self, class: usize) -> Option<u32> {
        let grows = self.runs.full();
        if grows && !self.may_take(RUN) {
            return None;
        }
        let base = self.runs.take()?;
        if grows {
            self.held += RUN;
        }
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
    /// again, an empty page goes back to its run unless it is its class's only page with room.
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

    /// Gives page `id` back to its run, and the run to the process once all its pages are.
    fn release(&mut self, id: u32) {
        let Some(page) = self.pages.get_mut(id as usize).and_then(Option::take) else { return };
        self.page_at.remove(&(page.base.as_ptr().addr() >> PAGE_SHIFT));
        self.spare_ids.push(id);
        if self.runs.give(page.base) {
            self.held -= RUN;
        }
    }

    /// A new block of `size` (> 0) bytes; null if it would pass the limit or there is no
    /// memory for it.
    fn alloc(&mut self, size: usize) -> *mut u8 {
        if size <= SMALL_MAX {
            return self.alloc_small(class_of(size));
        }
        let Ok(layout) = Layout::from_size_align(size, LARGE_ALIGN) else { return ptr::null_mut() };
        if !self.may_take(size) {
            return ptr::null_mut();
        }
        // SAFETY: the layout has a non-zero size.
        let block = unsafe { alloc::alloc(layout) };
        if !block.is_null() {
            self.held += size;
        }
        block
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
            self.held -= size;
            // SAFETY: a block the heap did not put in a page came from the process allocator
            // with this layout (the caller's promise).
            unsafe { alloc::dealloc(ptr, Layout::from_size_align_unchecked(size, LARGE_ALIGN)) };
        }
    }

    /// The block at `ptr` (of `old` bytes) resized to `new` (> 0) bytes, moved if it must
    /// be; null, leaving the block as it was, if that would pass the limit or there is no
    /// memory for it. A block in a page stays in its slot while it fits there; any other block
    /// the process allocator resizes, unless it grows to a small size (then it moves to a
    /// page). So a shrink takes no memory and is never refused.
    ///
    /// # Safety
    /// As [`Heap::free`].
    unsafe fn realloc(&mut self, ptr: *mut u8, old: usize, new: usize) -> *mut u8 {
        match (old <= SMALL_MAX).then(|| self.page_of(ptr)).flatten() {
            Some(id) if new <= slot_size(self.page(id).class) => return ptr,
            None if new > SMALL_MAX || new <= old => {
                if new > old && !self.may_take(new - old) {
                    return ptr::null_mut();
                }
                // SAFETY: a block not in a page came from the process allocator with this
                // layout, and `new` is not zero.
                let moved = unsafe { alloc::realloc(ptr, Layout::from_size_align_unchecked(old, LARGE_ALIGN), new) };
                if !moved.is_null() {
                    self.held = self.held - old + new;
                }
                return moved;
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
                    // The state itself, its first block and its last, is gone: so is its heap,
                    // and with it its runs of pages.
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
    let (block, old) = if ptr.is_null() {
        (heap.alloc(nsize), 0)
    } else {
        // SAFETY: Lua resizes a live block whose size is `osize`.
        (unsafe { heap.realloc(ptr, osize, nsize) }, osize)
    };
    if !block.is_null() {
        heap.used = heap.used - old + nsize;
    }
    block.cast()
}

/// Gives the new state `lua` its own heap. Call once, before the state runs anything. If it
/// cannot, the state keeps mlua's allocator (and [`set_limit`] mlua's limit).
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
        tracing::warn!("the Lua heap could not be installed, Lua keeps mlua's allocator and its memory limit: {error}");
    }
}

/// Runs `f` on the heap of `lua`; none if the state has no heap of its own.
fn with_heap<R>(lua: &Lua, f: impl FnOnce(&mut Heap) -> R) -> Option<R> {
    let mut answer = None;
    // SAFETY: a raw call on the running state, which is not allocating during it.
    let read = unsafe { lua.exec_raw::<()>((), |state| answer = heap_of(state).map(|heap| f(&mut *heap))) };
    read.ok().and(answer)
}

/// The heap of `state`'s Lua, if its allocator is ours.
///
/// # Safety
/// `state` is a live state of this thread; the heap is not in use while the pointer is.
unsafe fn heap_of(state: *mut ffi::lua_State) -> Option<*mut Heap> {
    let mut ud = ptr::null_mut();
    // SAFETY: as the function's; lua_getallocf only reads the global state.
    let allocator = unsafe { ffi::lua_getallocf(state, &mut ud) };
    ptr::fn_addr_eq(allocator, allocate as ffi::lua_Alloc).then(|| ud.cast::<Heap>())
}

/// Sets the most bytes the Lua heap may hold (`None`: no limit). A state without a heap of
/// its own (see [`install`]) gets mlua's limit instead, on the bytes Lua asks for; the error
/// says if neither allocator is there to keep a limit.
pub(crate) fn set_limit(lua: &Lua, limit: Option<usize>) -> mlua::Result<()> {
    REFUSED.set(None);
    match with_heap(lua, |heap| heap.limit = limit.unwrap_or(0)) {
        Some(()) => Ok(()),
        None => lua.set_memory_limit(limit.unwrap_or(0)).map(drop),
    }
}

/// The bytes the Lua heap holds for `lua`, what its memory limit bounds (see [`Heap::held`]);
/// for a state without a heap of its own, the bytes Lua asked for (what mlua's limit bounds).
pub(crate) fn held(lua: &Lua) -> usize {
    with_heap(lua, |heap| heap.held).unwrap_or_else(|| lua.used_memory())
}

/// [`held`], read on `state` without calling into Lua, for the limits' hook: a function called
/// from a count hook returns into the hooked Lua function and resets where Lua last traced it,
/// so Lua would report the line it is on once more (a breakpoint there would stop twice).
///
/// # Safety
/// `state` is a live state of `lua`, on this thread, in a hook.
pub(crate) unsafe fn held_in_hook(lua: &Lua, state: *mut ffi::lua_State) -> usize {
    // SAFETY: as the function's; the hook is not allocating.
    match unsafe { heap_of(state) } {
        // SAFETY: the heap lives as long as its state.
        Some(heap) => unsafe { (*heap).held },
        None => lua.used_memory(),
    }
}

/// What the engine says when Lua raises "not enough memory" (`message`): what the heap held
/// against the limit when it last refused a block on this thread, and what to do.
pub(crate) fn out_of_memory(message: &str) -> String {
    const MIB: f64 = (1 << 20) as f64;
    let why = match REFUSED.get() {
        Some(Refusal { held, used, limit }) => format!(
            "the Lua heap would pass its memory limit of {:.1} MiB: it holds {:.1} MiB, {:.1} MiB of it in blocks Lua \
             uses (a page of small blocks is held whole while any of them lives)",
            limit as f64 / MIB,
            held as f64 / MIB,
            used as f64 / MIB
        ),
        None => "Lua allocated past its memory limit".to_owned(),
    };
    format!(
        "out of memory ({message}): {why}; let go of what the script holds, or raise the limit (the REPL's limits, or \
         --memory-limit for nefia run)"
    )
}

mod runs;
#[cfg(test)]
mod tests;
