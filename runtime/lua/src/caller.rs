//! Where the Lua code calling `obj:mod(...)` is, for the temp value's provenance, found at the
//! cost of a table look-up.
//!
//! `lua_getinfo` gives the line (`l`) and the chunk's name (`S`, which formats a display name
//! too); asking for both on every `mod` cost about as much as the rest of the call. The chunk
//! name is the same for every call a function makes, so the C `mod` asks for the line and the
//! function itself (`f`), and remembers each calling function's mod and file by its address.
//! An address stands for one function only while the function lives, so every remembered
//! function is also kept alive by a table of the cache's own (an upvalue of `mod`); when
//! [`MAX_CALLERS`] are kept, both are emptied and the functions may be collected.
//!
//! Even the line alone cost `mod` a seventh of its time (Lua finds it by walking the function's
//! line table from its start), so each *call site* is remembered too: the address of the
//! instruction the calling frame resumes at ([`super::call_info::Frame::site`]), which stands
//! for one line of one function while that function lives (it is kept alive as above). Where
//! Lua's layout could not be checked, every call asks `lua_getinfo` as before.

use std::cell::{Cell, RefCell};
use std::ffi::{CStr, c_int};
use std::mem::MaybeUninit;

use mlua::ffi;

use super::Engine;
use nefia_game::moddable::Origin;
use nefia_game::symbol::Symbol;

/// How many calling functions are remembered (and kept alive) before the cache starts over.
pub(crate) const MAX_CALLERS: usize = 4096;

/// How many buckets the direct-mapped cache of functions has (a power of two).
const BUCKETS: usize = 512;

/// How many buckets the direct-mapped cache of call sites has (a power of two).
const SITE_BUCKETS: usize = 1024;

/// A calling function's mod and file.
type CallerFile = (Option<Symbol>, Symbol);

/// A call site's mod, file and line.
type SiteOrigin = (Option<Symbol>, Symbol, u32);

/// The mod and file of the functions that called `mod`, by the function's address, and the
/// origin of their call sites, by the site's address.
pub(crate) struct CallerFiles {
    buckets: RefCell<Vec<Option<(usize, CallerFile)>>>,
    sites: RefCell<Vec<Option<(usize, SiteOrigin)>>>,
    /// How many functions the keeping table holds.
    kept: Cell<usize>,
}

impl Default for CallerFiles {
    fn default() -> Self {
        CallerFiles {
            buckets: RefCell::new(vec![None; BUCKETS]),
            sites: RefCell::new(vec![None; SITE_BUCKETS]),
            kept: Cell::new(0),
        }
    }
}

impl CallerFiles {
    fn bucket(address: usize) -> usize {
        ((address >> 4) ^ (address >> 13)) % BUCKETS
    }

    /// Instructions are four bytes apart, and a function's sites are near each other.
    fn site_bucket(site: usize) -> usize {
        ((site >> 2) ^ (site >> 12)) % SITE_BUCKETS
    }

    fn get(&self, address: usize) -> Option<CallerFile> {
        match self.buckets.borrow().get(Self::bucket(address)) {
            Some(Some((known, file))) if *known == address => Some(*file),
            _ => None,
        }
    }

    fn at_site(&self, site: usize) -> Option<Origin> {
        match self.sites.borrow().get(Self::site_bucket(site)) {
            Some(Some((known, (mod_id, file, line)))) if *known == site => {
                Some(Origin { mod_id: *mod_id, file: *file, line: *line })
            }
            _ => None,
        }
    }

    /// Remembers the origin of a call site of a function kept alive.
    fn remember_site(&self, site: usize, origin: &Origin) {
        if let Some(bucket) = self.sites.borrow_mut().get_mut(Self::site_bucket(site)) {
            *bucket = Some((site, (origin.mod_id, origin.file, origin.line)));
        }
    }
}

/// A calling function seen for the first time: remembered by [`remember`] once the call's own
/// work is done (keeping the function alive allocates, which may raise), with the call site
/// it called from (0: none to remember).
#[derive(Clone, Copy)]
pub(crate) struct NewCaller {
    address: usize,
    file: CallerFile,
    site: usize,
    line: u32,
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
        if ffi::lua_getstack(state, level, ar) == 0 {
            return Origin::tool("rust");
        }
        let callers = &engine.callers;
        // A C frame's slot holds no instruction of its own (often a Lua frame's from before,
        // whose CallInfo it reuses): only a Lua frame has a site.
        let site = super::call_info::Frame::of(ar).filter(|frame| !frame.runs_c()).map_or(0, |frame| frame.site());
        if let Some(origin) = callers.at_site(site).filter(|_| site != 0) {
            return origin;
        }
        if ffi::lua_getinfo(state, c"fl".as_ptr(), ar) == 0 {
            return Origin::tool("rust");
        }
        // Only a Lua function has a line, and only its site is an instruction's address.
        let (line, site) = match u32::try_from((*ar).currentline) {
            Ok(line) => (line, site),
            Err(_) => (0, 0),
        };
        let address = ffi::lua_topointer(state, -1) as usize;
        ffi::lua_settop(state, -2);
        if let Some((mod_id, file)) = callers.get(address) {
            let origin = Origin { mod_id, file, line };
            if site != 0 {
                // The function is kept alive: it was remembered.
                callers.remember_site(site, &origin);
            }
            return origin;
        }
        if ffi::lua_getinfo(state, c"S".as_ptr(), ar) == 0 {
            return Origin::tool("rust");
        }
        let source = std::slice::from_raw_parts((*ar).source.cast::<u8>(), (*ar).srclen);
        let short_src = CStr::from_ptr(std::ptr::addr_of!((*ar).short_src).cast()).to_bytes();
        let origin = engine.origin_for(source, short_src, line);
        new.set(Some(NewCaller { address, file: (origin.mod_id, origin.file), site, line }));
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
            callers.sites.borrow_mut().fill(None);
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
        if new.site != 0 {
            let (mod_id, file) = new.file;
            callers.remember_site(new.site, &Origin { mod_id, file, line: new.line });
        }
    }
}
