//! Where the Lua code calling `obj:mod(...)` is, for the temp value's provenance, found at the
//! cost of the line alone.
//!
//! `lua_getinfo` gives the line (`l`) and the chunk's name (`S`, which formats a display name
//! too); asking for both on every `mod` cost about as much as the rest of the call. The chunk
//! name is the same for every call a function makes, so the C `mod` asks for the line and the
//! function itself (`f`), and remembers each calling function's mod and file by its address.
//! An address stands for one function only while the function lives, so every remembered
//! function is also kept alive by a table of the cache's own (an upvalue of `mod`); when
//! [`MAX_CALLERS`] are kept, both are emptied and the functions may be collected.

use std::cell::{Cell, RefCell};
use std::ffi::{CStr, c_int};
use std::mem::MaybeUninit;

use mlua::ffi;

use super::Engine;
use crate::game::moddable::Origin;
use crate::game::symbol::Symbol;

/// How many calling functions are remembered (and kept alive) before the cache starts over.
pub(crate) const MAX_CALLERS: usize = 4096;

/// How many buckets the direct-mapped cache has (a power of two).
const BUCKETS: usize = 512;

/// A calling function's mod and file.
type CallerFile = (Option<Symbol>, Symbol);

/// The mod and file of the functions that called `mod`, by the function's address.
pub(crate) struct CallerFiles {
    buckets: RefCell<Vec<Option<(usize, CallerFile)>>>,
    /// How many functions the keeping table holds.
    kept: Cell<usize>,
}

impl Default for CallerFiles {
    fn default() -> Self {
        CallerFiles { buckets: RefCell::new(vec![None; BUCKETS]), kept: Cell::new(0) }
    }
}

impl CallerFiles {
    fn bucket(address: usize) -> usize {
        ((address >> 4) ^ (address >> 13)) % BUCKETS
    }

    fn get(&self, address: usize) -> Option<CallerFile> {
        match self.buckets.borrow().get(Self::bucket(address)) {
            Some(Some((known, file))) if *known == address => Some(*file),
            _ => None,
        }
    }
}

/// A calling function seen for the first time: remembered by [`remember`] once the call's own
/// work is done (keeping the function alive allocates, which may raise).
#[derive(Clone, Copy)]
pub(crate) struct NewCaller {
    address: usize,
    file: CallerFile,
}

/// The origin of the Lua code `level` frames up; a caller not remembered yet is put in `new`.
///
/// # Safety
/// `state` must be running a C function with a free stack slot; nothing is left on the stack.
pub(crate) unsafe fn origin(
    state: *mut ffi::lua_State,
    engine: &Engine,
    level: c_int,
    new: &Cell<Option<NewCaller>>,
) -> Origin {
    let mut debug = MaybeUninit::<ffi::lua_Debug>::uninit();
    let ar = debug.as_mut_ptr();
    // SAFETY: getstack fills `i_ci`, getinfo the fields of the options asked for; only those
    // are read.
    unsafe {
        if ffi::lua_getstack(state, level, ar) == 0 || ffi::lua_getinfo(state, c"fl".as_ptr(), ar) == 0 {
            return Origin::tool("rust");
        }
        let line = u32::try_from((*ar).currentline).unwrap_or(0);
        let address = ffi::lua_topointer(state, -1) as usize;
        ffi::lua_settop(state, -2);
        if let Some((mod_id, file)) = engine.callers.get(address) {
            return Origin { mod_id, file, line };
        }
        if ffi::lua_getinfo(state, c"S".as_ptr(), ar) == 0 {
            return Origin::tool("rust");
        }
        let source = std::slice::from_raw_parts((*ar).source.cast::<u8>(), (*ar).srclen);
        let short_src = CStr::from_ptr(std::ptr::addr_of!((*ar).short_src).cast()).to_bytes();
        let origin = engine.origin_for(source, short_src, line);
        new.set(Some(NewCaller { address, file: (origin.mod_id, origin.file) }));
        origin
    }
}

/// Remembers `new`, the function `level` frames up, keeping it alive in the table at upvalue
/// `keep` (replaced by a fresh one when [`MAX_CALLERS`] are kept).
///
/// # Safety
/// `state` must be running the C function whose upvalue `keep` is the keeping table, with 3
/// free stack slots and nothing of the caller's frame left to drop: this may raise.
pub(crate) unsafe fn remember(state: *mut ffi::lua_State, engine: &Engine, level: c_int, keep: c_int, new: NewCaller) {
    let mut debug = MaybeUninit::<ffi::lua_Debug>::uninit();
    let ar = debug.as_mut_ptr();
    unsafe {
        if ffi::lua_getstack(state, level, ar) == 0 || ffi::lua_getinfo(state, c"f".as_ptr(), ar) == 0 {
            return;
        }
        if ffi::lua_topointer(state, -1) as usize != new.address {
            ffi::lua_settop(state, -2);
            return;
        }
        let callers = &engine.callers;
        if callers.kept.get() >= MAX_CALLERS {
            callers.buckets.borrow_mut().fill(None);
            callers.kept.set(0);
            ffi::lua_createtable(state, 0, 0);
            ffi::lua_replace(state, keep);
        }
        ffi::lua_pushboolean(state, 1);
        ffi::lua_rawset(state, keep);
        callers.kept.set(callers.kept.get() + 1);
        if let Some(bucket) = callers.buckets.borrow_mut().get_mut(CallerFiles::bucket(new.address)) {
            *bucket = Some((new.address, new.file));
        }
    }
}
