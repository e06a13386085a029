//! Where the heap's pages come from: runs of [`RUN_PAGES`] pages side by side, each run one
//! allocation of the process allocator, aligned to a page.
//!
//! Taken one by one, a page aligned to its size cost glibc a gap before it (its header pushes
//! the next aligned address a page on), which only smaller blocks of the process could fill: a
//! mod holding 16 MiB of pages made the process's resident memory grow by 26 MiB. In a run the
//! pages lie side by side; what a run costs besides is at most one such gap. A page given back
//! waits in its run for the next page of any class (the free page with the lowest address is
//! taken first), and a run goes back to the process when all its pages are free. What the heap
//! holds from the process is its runs whole.

use std::alloc::{self, Layout};
use std::collections::{BTreeMap, BTreeSet};
use std::ptr::NonNull;

use super::PAGE;

/// The pages of one run.
pub(super) const RUN_PAGES: usize = 16;
/// The bytes of one run: 256 KiB.
pub(super) const RUN: usize = RUN_PAGES * PAGE;

/// One run: where it is, and how many of its pages are taken.
struct Run {
    base: NonNull<u8>,
    taken: usize,
}

/// The runs the heap holds, and which of their pages are free.
#[derive(Default)]
pub(super) struct Runs {
    /// Each run, by its address.
    runs: BTreeMap<usize, Run>,
    /// The free pages of every run, by address.
    free: BTreeSet<usize>,
}

impl Runs {
    fn layout() -> Layout {
        // RUN is a multiple of PAGE, a power of two, and far below isize::MAX.
        Layout::from_size_align(RUN, PAGE).unwrap_or_else(|_| unreachable!("a run's layout is valid"))
    }

    /// Whether taking a page makes a new run: no page is free.
    pub(super) fn full(&self) -> bool {
        self.free.is_empty()
    }

    /// How many runs there are.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.runs.len()
    }

    /// The run that holds the page at `page`.
    fn run_of(&mut self, page: usize) -> &mut Run {
        match self.runs.range_mut(..=page).next_back() {
            Some((_, run)) => run,
            None => unreachable!("a page lies in a run"),
        }
    }

    /// The free page with the lowest address, in a new run if none is free; none if the
    /// process is out of memory.
    pub(super) fn take(&mut self) -> Option<NonNull<u8>> {
        if self.free.is_empty() {
            // SAFETY: the layout has a non-zero size.
            let base = NonNull::new(unsafe { alloc::alloc(Runs::layout()) })?;
            let at = base.as_ptr().addr();
            self.runs.insert(at, Run { base, taken: 0 });
            self.free.extend((0..RUN_PAGES).map(|i| at + i * PAGE));
        }
        let page = self.free.pop_first()?;
        let run = self.run_of(page);
        run.taken += 1;
        // SAFETY: the page lies within the run.
        NonNull::new(unsafe { run.base.as_ptr().add(page - run.base.as_ptr().addr()) })
    }

    /// Takes back the page at `page`, no block in it in use; true if its run, now all free,
    /// went back to the process.
    pub(super) fn give(&mut self, page: NonNull<u8>) -> bool {
        let at = page.as_ptr().addr();
        self.free.insert(at);
        let run = self.run_of(at);
        run.taken -= 1;
        if run.taken > 0 {
            return false;
        }
        let base = run.base;
        let start = base.as_ptr().addr();
        self.runs.remove(&start);
        for i in 0..RUN_PAGES {
            self.free.remove(&(start + i * PAGE));
        }
        // SAFETY: the run was allocated with this layout and none of its pages is in use.
        unsafe { alloc::dealloc(base.as_ptr(), Runs::layout()) };
        true
    }
}

impl Drop for Runs {
    /// Gives every run back: the state has freed all it held.
    fn drop(&mut self) {
        for run in self.runs.values() {
            // SAFETY: as in `give`: the heap is gone, and with it every block.
            unsafe { alloc::dealloc(run.base.as_ptr(), Runs::layout()) };
        }
    }
}
