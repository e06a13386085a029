//! The debugger's side of each Lua thread's one hook: calls and returns turn line events on
//! and off, and a line checks the step, the replay's target and the breakpoints. The probes
//! of a file loaded with them (`probes.rs`) turn line events on where no call event is taken.

use nefia_protocol::repl::{BreakCause, StepKind};
use std::cell::Cell;
use std::ffi::c_int;

use mlua::{Lua, ffi};

use super::breakpoints::Action;
use crate::call_info::Frame;

use super::*;

impl Debugger {
    /// A call into, or a return from, the Lua function `record` describes (filled with `S`):
    /// line events (and returns) go on while a function of a file with breakpoints runs, and
    /// off again when the outermost such function returns.
    ///
    /// # Safety
    /// `state` runs on this thread; `record` is its hook's, filled with `S`.
    unsafe fn follow_call(&self, lua: &Lua, state: *mut ffi::lua_State, record: &ffi::lua_Debug) {
        let inside = self.inside_on(state);
        let lines = if record.event == ffi::LUA_HOOKRET {
            // SAFETY: as the function's.
            let here = unsafe { depth(state) };
            if inside.is_some_and(|entry| here <= entry) {
                // The outermost function of a file with breakpoints returns.
                self.inside.borrow_mut().retain(|(thread, _)| *thread != state as usize);
                false
            } else {
                // The function returned to decides.
                // SAFETY: as the function's.
                unsafe { self.returns_to_breakpoints(lua, state) }
            }
        } else {
            // SAFETY: filled by the caller.
            let here = self.has_breakpoints(lua, unsafe { source(record) });
            if here {
                // SAFETY: as the function's.
                self.note_running(state, unsafe { depth(state) });
            }
            here
        };
        let events = match (lines, self.inside_on(state).is_some()) {
            (true, _) => LINES,
            (false, true) => INSIDE,
            (false, false) => self.resting(),
        };
        // SAFETY: the state runs on this thread; setting a hook walks its stack, so only when
        // the events change.
        unsafe {
            if ffi::lua_gethookmask(state) & !ffi::LUA_MASKCOUNT != events {
                watchdog::set_resting(state, events);
            }
        }
    }

    /// A function of a file with breakpoints runs on `state` at depth `here`: it is followed as
    /// one, whatever way it began (a step into it, a coroutine resumed inside it, a call the
    /// hook did not follow), so that a call it makes does not turn its lines off. An entry
    /// deeper than it (left by a function that ended without its return being seen) gives way
    /// to it.
    fn note_running(&self, state: *mut ffi::lua_State, here: usize) {
        let mut inside = self.inside.borrow_mut();
        match inside.iter_mut().find(|(thread, _)| *thread == state as usize) {
            Some((_, entry)) => *entry = (*entry).min(here),
            None => inside.push((state as usize, here)),
        }
    }

    /// The depth of the outermost function of a file with breakpoints that Lua thread `state`
    /// runs, if it runs one.
    fn inside_on(&self, state: *mut ffi::lua_State) -> Option<usize> {
        self.inside.borrow().iter().find(|(thread, _)| *thread == state as usize).map(|(_, entry)| *entry)
    }

    /// A C function returns while a function of a file with breakpoints runs below it with
    /// line events off: they go on again if the function returned to is of such a file.
    ///
    /// # Safety
    /// `state` runs on this thread, in its hook at a return.
    unsafe fn follow_c_return(&self, lua: &Lua, state: *mut ffi::lua_State) {
        let below = self.inside_on(state).is_some();
        // SAFETY: the state runs on this thread.
        if !below || unsafe { ffi::lua_gethookmask(state) } & !ffi::LUA_MASKCOUNT != INSIDE {
            return;
        }
        // SAFETY: as the function's.
        if unsafe { self.returns_to_breakpoints(lua, state) } {
            // SAFETY: the state runs on this thread.
            unsafe { watchdog::set_resting(state, LINES) };
        }
    }

    /// Whether the function a return in the hook of `state` goes back to (its level 1) is of a
    /// file with breakpoints.
    ///
    /// # Safety
    /// `state` runs on this thread, in its hook at a return.
    unsafe fn returns_to_breakpoints(&self, lua: &Lua, state: *mut ffi::lua_State) -> bool {
        // SAFETY: a fresh record for level 1, filled by lua_getinfo.
        unsafe {
            let mut caller: ffi::lua_Debug = std::mem::zeroed();
            ffi::lua_getstack(state, 1, &mut caller) != 0
                && ffi::lua_getinfo(state, c"S".as_ptr(), &mut caller) != 0
                && self.has_breakpoints(lua, source(&caller))
        }
    }
}

thread_local! {
    /// The frame (its [`Frame::id`]) a call event saw begin, until its first line event.
    static BEGUN: Cell<usize> = const { Cell::new(0) };
}

/// The probe a file loaded with breakpoints calls as each of its functions begins (see
/// `probes.rs`): unless line events are on already, the function is followed from here as a
/// call into it would be. Told (`true`) that Lua's first line for the function is the probe's
/// own, it reports that line here (Lua reports a line only when it changes, so it would not);
/// otherwise Lua reports the function's first line itself.
///
/// # Safety
/// A Lua C function, called by Lua.
pub(crate) unsafe extern "C-unwind" fn probe(state: *mut ffi::lua_State) -> c_int {
    // SAFETY: the state runs on this thread, in a C function Lua called.
    if unsafe { begins(state) } {
        // SAFETY: the debugger left its error on the stack, and nothing here needs dropping.
        unsafe { ffi::lua_error(state) };
    }
    0
}

/// The probe's work: follows the function calling it on `state` if it is of a file with
/// breakpoints and line events are off, and sees its first line. True when an error must be
/// raised (as [`on_event`]).
///
/// # Safety
/// `state` runs on this thread, in the probe.
unsafe fn begins(state: *mut ffi::lua_State) -> bool {
    // SAFETY: as the function's; a fresh record for level 1, filled by Lua.
    unsafe {
        if !watching() || ffi::lua_gethookmask(state) & (ffi::LUA_MASKLINE | ffi::LUA_MASKCALL) != 0 {
            // No breakpoints (any more), lines are on already, or the call event followed this
            // function in.
            return false;
        }
        let mut caller: ffi::lua_Debug = std::mem::zeroed();
        if ffi::lua_getstack(state, 1, &mut caller) == 0 || ffi::lua_getinfo(state, c"S".as_ptr(), &mut caller) == 0 {
            return false;
        }
        let lua = Lua::get_or_init_from_ptr(state);
        let Some(engine) = lua.app_data_ref::<std::rc::Rc<crate::Engine>>().map(|e| e.clone()) else {
            return false;
        };
        let debugger = &engine.debugger;
        if debugger.hooked.get() > 0 || !debugger.is_active() || !debugger.has_breakpoints(lua, source(&caller)) {
            return false;
        }
        // The function is one level above the probe.
        debugger.note_running(state, depth(state).saturating_sub(1));
        watchdog::set_resting(state, LINES);
        if ffi::lua_toboolean(state, 1) == 0 {
            // Lua's first line for the function is a later one: it reports it itself.
            return false;
        }
        // The function's first line, as its line event: the break (if one stops) is of the
        // nearest Lua function, past the probe.
        caller.event = ffi::LUA_HOOKLINE;
        on_event(state, &mut caller)
    }
}

/// How many functions are on the stack of `state` (its depth).
///
/// # Safety
/// `state` is a live Lua state of this thread.
pub(super) unsafe fn depth(state: *mut ffi::lua_State) -> usize {
    let mut level = 0;
    // SAFETY: lua_getstack only fills the record.
    unsafe {
        let mut record: ffi::lua_Debug = std::mem::zeroed();
        while ffi::lua_getstack(state, level, &mut record) != 0 {
            level += 1;
        }
    }
    usize::try_from(level).unwrap_or(usize::MAX)
}

/// Whether `record` (filled with `S`) describes a C function.
fn is_c(record: &ffi::lua_Debug) -> bool {
    // SAFETY: `what` is a static C string lua_getinfo set.
    !record.what.is_null() && unsafe { *record.what.cast::<u8>() } == b'C'
}

/// The chunk name of the function `record` describes (after `lua_getinfo` with `S`).
///
/// # Safety
/// `record` was filled by `lua_getinfo` with `S`; its string lives while the function does.
unsafe fn source<'a>(record: &ffi::lua_Debug) -> &'a [u8] {
    if record.source.is_null() {
        return &[];
    }
    // SAFETY: as the function's.
    unsafe { std::slice::from_raw_parts(record.source.cast::<u8>(), record.srclen) }
}

/// The debugger's events, from the state's one hook ([`watchdog`]'s).
///
/// # Safety
/// Called from the hook of a live state with its activation record.
/// Returns true when a Lua error (left on the stack) must be raised from the hook: Stop was
/// pressed, or the editor closed, while the break waited.
pub(super) unsafe fn on_event(state: *mut ffi::lua_State, record: *mut ffi::lua_Debug) -> bool {
    // The common case first, with nothing but the record: a call, while no function of a file
    // with breakpoints runs, into a C function or a function of a file known to have none.
    // SAFETY: the record is the hook's; lua_getinfo fills it.
    unsafe {
        if (*record).event == ffi::LUA_HOOKCALL || (*record).event == ffi::LUA_HOOKTAILCALL {
            // Most calls are of C functions (every field read of a handle is one): told apart
            // from Lua's frame without lua_getinfo, when Lua's layout reads as checked.
            if Frame::of(record).is_some_and(Frame::runs_c)
                || ffi::lua_getinfo(state, c"S".as_ptr(), record) == 0
                || is_c(&*record)
            {
                return false;
            }
            let resting = ffi::lua_gethookmask(state) & !ffi::LUA_MASKCOUNT == CALLS;
            if resting && known(source(&*record)) == Some(false) {
                return false;
            }
        }
    }
    // SAFETY: the state is a live mlua state in a hook on its thread.
    let lua = unsafe { Lua::get_or_init_from_ptr(state) };
    let Some(engine) = lua.app_data_ref::<std::rc::Rc<crate::Engine>>().map(|e| e.clone()) else { return false };
    let debugger = &engine.debugger;
    if debugger.hooked.get() > 0 {
        return false;
    }
    // SAFETY: the record is the hook's.
    let record = unsafe { &mut *record };
    let stepping = debugger.step.get().is_some();
    match record.event {
        ffi::LUA_HOOKCALL | ffi::LUA_HOOKTAILCALL | ffi::LUA_HOOKRET => {
            if record.event != ffi::LUA_HOOKRET {
                // SAFETY: the record is the hook's, its frame running.
                let frame = unsafe { Frame::of(record) };
                BEGUN.with(|begun| begun.set(frame.map_or(0, Frame::id)));
            }
            if stepping {
                return false;
            }
            // SAFETY: the record is the hook's; lua_getinfo fills it (again, for a call).
            if unsafe { ffi::lua_getinfo(state, c"S".as_ptr(), record) } == 0 {
                return false;
            }
            if is_c(record) {
                // A C function has no lines, and calling one changes nothing here; but its
                // return may reach a function of a file with breakpoints whose lines a Lua
                // function it called turned off (`Chara.create` running other files'
                // handlers, `Debug.profile_scope` running a closure).
                if record.event == ffi::LUA_HOOKRET {
                    // SAFETY: the state runs on this thread, in its hook.
                    unsafe { debugger.follow_c_return(lua, state) };
                }
                return false;
            }
            // SAFETY: the state runs on this thread; the record was filled above.
            unsafe { debugger.follow_call(lua, state, record) };
            false
        }
        ffi::LUA_HOOKLINE => {
            // SAFETY: the record is the hook's.
            if unsafe { ffi::lua_getinfo(state, c"Sl".as_ptr(), record) } == 0 {
                return false;
            }
            // SAFETY: filled just now.
            let chunk = unsafe { source(record) };
            let line = u32::try_from(record.currentline).unwrap_or(0);
            // SAFETY: the record is the hook's, its frame running.
            let frame = unsafe { Frame::of(record) }.map_or(0, Frame::id);
            let first = frame != 0 && BEGUN.with(|begun| begun.replace(0)) == frame;
            let defined = u32::try_from(record.linedefined).unwrap_or(0);
            if first && debugger.is_probe_line(chunk, defined, line) {
                // Only the probe's call is on this line: Lua gives the function no code here.
                return false;
            }
            // Lines of files with breakpoints are counted: a position in the command that a
            // replay of it reaches again (see `runtime/host/src/play/reverse.rs`).
            let counted = debugger.has_breakpoints(lua, chunk);
            if counted {
                // SAFETY: the state runs on this thread.
                debugger.note_running(state, unsafe { depth(state) });
                debugger.lines.set(debugger.lines.get() + 1);
                if let Some((target, cause)) = debugger.target.get()
                    && target == debugger.lines.get()
                {
                    debugger.target.set(None);
                    debugger.quiet.set(false);
                    return debugger.stop(state, None, cause, true);
                }
            }
            // A step or pause stops in the code it is for, not in the HUD drawn between
            // commands.
            if let Some(step) = debugger.step.get()
                && chunk.first() == Some(&b'@')
                && !engine.limits.between_commands()
            {
                let same_thread = step.state == state as usize;
                // SAFETY: the state runs on this thread.
                let here = unsafe { depth(state) };
                let done = match step.kind {
                    StepKind::In => true,
                    StepKind::Over => !same_thread || here <= step.depth,
                    StepKind::Out => !same_thread || here < step.depth,
                };
                if done {
                    return debugger.stop(state, None, step.cause, counted);
                }
            }
            if !stepping && !counted {
                let events = if debugger.inside_on(state).is_some() { INSIDE } else { debugger.resting() };
                // SAFETY: the state runs on this thread.
                unsafe { watchdog::set_resting(state, events) };
                return false;
            }
            let evaluate = |code: &str| debugger.evaluate_here(state, code);
            let truthy = |value: &mlua::Value| !matches!(value, mlua::Value::Nil | mlua::Value::Boolean(false));
            match debugger.at_line(lua, chunk, line, |code| evaluate(code).map(|value| truthy(&value))) {
                Action::Run => false,
                Action::Log(_) if debugger.quiet.get() => false,
                Action::Log(message) => {
                    let text = interpolate(&message, |code| match evaluate(code) {
                        Ok(value) => crate::inspect::inspect(&value, 1),
                        Err(problem) => format!("<{problem}>"),
                    });
                    engine.emit(Output::Print(text));
                    false
                }
                Action::Stop(_) if debugger.scan.borrow().is_some() => {
                    if let Some(hits) = debugger.scan.borrow_mut().as_mut() {
                        hits.push(debugger.lines.get());
                    }
                    false
                }
                // Replaying to an earlier line: the breakpoints on the way were passed already.
                Action::Stop(_) if debugger.target.get().is_some() => false,
                Action::Stop(note) => debugger.stop(state, note, BreakCause::Breakpoint, counted),
            }
        }
        _ => false,
    }
}

/// `message` with each `{expression}` replaced by what `value` makes of it; `{{` and `}}`
/// are braces.
fn interpolate(message: &str, value: impl Fn(&str) -> String) -> String {
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find(['{', '}']) {
        out.push_str(&rest[..at]);
        let brace = &rest[at..];
        if brace.starts_with("{{") || brace.starts_with("}}") {
            out.push_str(&brace[..1]);
            rest = &brace[2..];
        } else if let (true, Some(end)) = (brace.starts_with('{'), brace.find('}')) {
            out.push_str(&value(&brace[1..end]));
            rest = &brace[end + 1..];
        } else {
            out.push_str(&brace[..1]);
            rest = &brace[1..];
        }
    }
    out.push_str(rest);
    out
}
