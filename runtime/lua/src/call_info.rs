//! What Lua keeps of a running frame that its API gives only at a cost: the instruction a Lua
//! frame resumes at, and whether a frame runs a C function.
//!
//! `lua_getinfo` answers both, but `mod` asked it for its caller's line on every call (Lua walks
//! the function's line table to find it), and the debugger's call hook asked it for the callee's
//! chunk on every call while a breakpoint is set anywhere, most of them calls of C functions
//! (every field read of a handle is one). Both read Lua's private `CallInfo` of the frame
//! instead, which `lua_getstack` and the hook hand over in `lua_Debug`: its function's stack
//! slot and its saved instruction pointer. Where they lie is checked once per process, against
//! what `lua_getinfo` says, in a Lua state of its own ([`readable`]); if the check fails,
//! [`Frame::of`] gives nothing and the callers ask `lua_getinfo` as before. Nothing read here
//! is followed as a pointer but the frame and its function's slot, which Lua keeps valid while
//! the frame runs.
//!
//! The layouts were read from Lua 5.4 ([`LAYOUT_VERSION`]). The build checks that mlua's
//! bindings are 5.4's, and the check asks the running core its version (`lua_version`) before
//! its probe follows a pointer read where 5.4 keeps it: a core of another version is never
//! probed, and its callers ask `lua_getinfo`.

use std::ffi::c_int;
use std::mem::MaybeUninit;
use std::sync::OnceLock;

use mlua::ffi;

/// The Lua version the layouts below were read from (`LUA_VERSION_NUM`), as `lua_version`
/// answers it.
const LAYOUT_VERSION: ffi::lua_Number = 504.0;

// mlua's bindings do not export `LUA_VERSION_NUM`; these constants of theirs tell Lua 5.4 from
// its neighbours (5.3 has no generational mode, 5.5 numbers the collector's options anew and
// bounds the stack by `INT_MAX`).
const _: () = assert!(
    ffi::LUA_GCGEN == 10 && ffi::LUA_GCINC == 11 && ffi::LUAI_MAXSTACK == 1_000_000,
    "lua/call_info.rs reads Lua 5.4's CallInfo and stack slots: check its offsets against this Lua's lstate.h and \
     lobject.h, then LAYOUT_VERSION and this check"
);

/// Where a `CallInfo` keeps `savedpc`: after the stack slots of its function and of its top and
/// the links to the frames before and after (Lua 5.4's `lstate.h`).
const SAVEDPC_OFFSET: usize = 4 * size_of::<usize>();

/// Where a stack slot keeps its value's type tag: after the value, a union of a pointer and
/// Lua's 64-bit numbers (Lua 5.4's `lobject.h`).
const TAG_OFFSET: usize = 8;

/// The type tags of a light C function and of a C closure, without the collectable bit.
const C_FUNCTION_TAGS: [u8; 2] = [ffi::LUA_TFUNCTION as u8 | (1 << 4), ffi::LUA_TFUNCTION as u8 | (2 << 4)];

/// The bit of a type tag that marks a collectable value.
const COLLECTABLE: u8 = 1 << 6;

/// A frame of a running Lua state, as Lua keeps it.
#[derive(Clone, Copy)]
pub(crate) struct Frame(*const u8);

impl Frame {
    /// The frame `ar` describes, if Lua's layout is the one checked.
    ///
    /// # Safety
    /// `ar` was filled by `lua_getstack` or handed to a hook just now, and its frame still runs.
    pub(crate) unsafe fn of(ar: *const ffi::lua_Debug) -> Option<Frame> {
        // SAFETY: as the caller's; `i_ci` is lua_Debug's last field, private to Lua (mlua does
        // not name it).
        readable().then(|| unsafe { Frame::unchecked(ar) })
    }

    /// # Safety
    /// As [`Frame::of`].
    unsafe fn unchecked(ar: *const ffi::lua_Debug) -> Frame {
        // SAFETY: as the caller's.
        Frame(unsafe {
            ar.cast::<u8>().add(size_of::<ffi::lua_Debug>() - size_of::<usize>()).cast::<*const u8>().read()
        })
    }

    /// For a frame running a Lua function, the address of the instruction it resumes at: one
    /// call site of one function while the function lives. Only compared, never followed. A C
    /// frame's is meaningless (Lua leaves there what a frame before it left): ask
    /// [`Frame::runs_c`] first.
    pub(crate) fn site(self) -> usize {
        // SAFETY: a CallInfo is larger than this offset and a word: the read stays within it.
        unsafe { self.0.add(SAVEDPC_OFFSET).cast::<usize>().read_unaligned() }
    }

    /// The frame's identity while it runs (the address of Lua's record of it): the events of
    /// one running frame have the same. Only compared, never followed.
    pub(crate) fn id(self) -> usize {
        self.0 as usize
    }

    /// Whether the frame runs a C function (one with no lines and no chunk).
    pub(crate) fn runs_c(self) -> bool {
        // SAFETY: the frame's first field is its function's stack slot, valid while it runs.
        let tag = unsafe { self.0.cast::<*const u8>().read().add(TAG_OFFSET).read() };
        C_FUNCTION_TAGS.contains(&(tag & !COLLECTABLE))
    }
}

/// Whether frames are read where this build of Lua keeps them: checked once per process.
fn readable() -> bool {
    static READABLE: OnceLock<bool> = OnceLock::new();
    *READABLE.get_or_init(|| check(LAYOUT_VERSION).unwrap_or(false))
}

/// Whether the layouts read from Lua `version` (a `lua_version`) are this build's: the core's
/// version is theirs, and then its frames read as `lua_getinfo` says ([`agrees`]).
fn check(version: ffi::lua_Number) -> mlua::Result<bool> {
    let lua = mlua::Lua::new();
    let mut running = 0.0;
    // SAFETY: `lua_version` reads the version of the core that made the state.
    unsafe { lua.exec_raw::<()>((), |state| running = ffi::lua_version(state)) }?;
    if running != version {
        return Ok(false);
    }
    agrees(&lua)
}

/// Calls a C probe from one line twice and from the next once: each time it reads its own
/// frame (a C function) and its caller's (a Lua function, with its call site and line). The
/// first two sites must be the same address, the third one a few instructions on, and
/// `lua_getinfo` must agree on the lines and on which function is C.
fn agrees(lua: &mlua::Lua) -> mlua::Result<bool> {
    // SAFETY: `probe` is a C function that reads its own and its caller's frame.
    let probe = unsafe { lua.create_c_function(probe) }?;
    let seen: Vec<(i64, i64, bool)> = lua
        .load(
            "local probe, seen = ...\nfor _ = 1, 2 do seen[#seen + 1] = { probe() } end\n\
             seen[#seen + 1] = { probe() }\nreturn seen",
        )
        .call::<mlua::Table>((probe, lua.create_table()?))?
        .sequence_values::<mlua::Table>()
        .map(|seen| {
            let seen = seen?;
            Ok((seen.get(1)?, seen.get(2)?, seen.get(3)?))
        })
        .collect::<mlua::Result<_>>()?;
    let [(first, first_line, kinds), (again, again_line, kinds_again), (other, other_line, other_kinds)] = seen[..]
    else {
        return Ok(false);
    };
    let step = other.wrapping_sub(first);
    Ok(kinds
        && kinds_again
        && other_kinds
        && first != 0
        && first == again
        && (first_line, again_line, other_line) == (2, 2, 3)
        && step > 0
        && step < 4096
        && step % 4 == 0)
}

/// The probe of [`agrees`]: returns its caller's call site and line, and whether both frames'
/// kinds read right (its own: C; its caller's: Lua).
unsafe extern "C-unwind" fn probe(state: *mut ffi::lua_State) -> c_int {
    let mut own = MaybeUninit::<ffi::lua_Debug>::uninit();
    let mut caller = MaybeUninit::<ffi::lua_Debug>::uninit();
    let (own, caller) = (own.as_mut_ptr(), caller.as_mut_ptr());
    // SAFETY: getstack fills `i_ci`, getinfo the line; three results are pushed onto a stack
    // with room for LUA_MINSTACK.
    unsafe {
        let (site, line, kinds) = if ffi::lua_getstack(state, 0, own) != 0
            && ffi::lua_getstack(state, 1, caller) != 0
            && ffi::lua_getinfo(state, c"l".as_ptr(), caller) != 0
        {
            let (own, caller_frame) = (Frame::unchecked(own), Frame::unchecked(caller));
            (caller_frame.site(), (*caller).currentline, own.runs_c() && !caller_frame.runs_c())
        } else {
            (0, -1, false)
        };
        ffi::lua_pushinteger(state, i64::try_from(site).unwrap_or(0));
        ffi::lua_pushinteger(state, line.into());
        ffi::lua_pushboolean(state, c_int::from(kinds));
    }
    3
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_are_read_where_this_build_of_lua_keeps_them() {
        // Without this, every `mod` asks lua_getinfo for its line again (a seventh of its
        // time), and the debugger's hook asks it for the chunk of every C function called.
        assert!(readable(), "the probe's frames did not read as lua_getinfo says");
    }

    #[test]
    fn a_core_of_another_version_is_not_probed() {
        // Its frames may keep anything where 5.4 keeps the function's slot: the probe would
        // follow it. The callers ask lua_getinfo instead.
        assert!(!check(503.0).expect("the version was read"));
        assert!(!check(505.0).expect("the version was read"));
        assert!(check(LAYOUT_VERSION).expect("the probe ran"));
    }
}
