//! The REPL: evaluating input (an expression prints its values, a statement runs), completion
//! of names, and `pause()` breakpoints.
//!
//! `pause()` captures the calling function's locals and upvalues; while it waits, REPL input
//! runs in an environment that reads and assigns them first (see `pause.lua`), and the
//! assignments reach the paused code when it continues. With a frontend, the frontend is
//! served meanwhile; headless, `pause()` does nothing unless a terminal break was asked for
//! (`nefia run --break`), which reads REPL input from the terminal.

use nefia_protocol::repl::{Evaluation, PauseFrame, PauseView, SourceExcerpt};
use std::io::{BufRead, Write};

use mlua::{Function, Lua, Table};

use super::gui::WaitReason;
use super::{engine, inspect::inspect};
use nefia_protocol::repl::BreakCause;

/// How many lines a [`SourceExcerpt`] shows on each side of its line.
const EXCERPT_CONTEXT: u32 = 4;

/// The text of loaded file `file` (as errors name it), if it is a file on disk.
pub fn source_text(lua: &Lua, file: &str) -> Option<String> {
    let path = engine(lua).sources.borrow().values().find(|s| s.name.as_str() == file).and_then(|s| s.path.clone());
    path.and_then(|path| std::fs::read_to_string(path).ok())
}

/// The lines of loaded file `file` (as errors name it) around `line`.
pub fn source_excerpt(lua: &Lua, file: &str, line: u32) -> SourceExcerpt {
    let text = source_text(lua, file).unwrap_or_default();
    let first = line.saturating_sub(EXCERPT_CONTEXT).max(1);
    let lines = text
        .lines()
        .skip(first as usize - 1)
        .take((line + EXCERPT_CONTEXT + 1 - first) as usize)
        .map(str::to_owned)
        .collect();
    SourceExcerpt { file: file.to_owned(), line, first, lines }
}

/// A `pause()` in progress.
struct Break {
    /// The Lua frames captured (`pause.lua`'s), the paused one first.
    frames: Table,
    /// Makes the environment code runs in among a frame's variables.
    frame_env: Function,
    /// The environment REPL input runs in: the paused frame's.
    env: Table,
    view: PauseView,
    resumed: bool,
}

/// The REPL's state: its globals, and the breaks in progress (innermost last).
pub struct Repl {
    pub(crate) env: Table,
    breaks: Vec<Break>,
    /// Headless: answer `pause()` from the terminal.
    pub terminal_breaks: bool,
    /// Why the next break pauses, set just before a watch pauses (see [`PauseView::reason`]).
    pub(crate) next_reason: Option<String>,
    /// How many breaks there have been.
    breaks_made: u64,
}

impl Repl {
    /// A REPL whose globals live in `env`.
    pub fn new(env: Table) -> Repl {
        Repl { env, breaks: Vec::new(), terminal_breaks: false, next_reason: None, breaks_made: 0 }
    }

    /// The environment input runs in: the innermost break's, else the REPL's.
    fn current_env(&self) -> Table {
        self.breaks.last().map_or_else(|| self.env.clone(), |b| b.env.clone())
    }

    /// The innermost break, for the Locals view (values as of now).
    pub fn pause_view(&self) -> Option<PauseView> {
        let current = self.breaks.last()?;
        let mut view = current.view.clone();
        view.variables = current.frames.get::<Table>(1).and_then(|frame| variables(&frame)).unwrap_or_default();
        Some(view)
    }

    /// Why the innermost break stopped, if there is one.
    pub(crate) fn pause_cause(&self) -> Option<BreakCause> {
        self.breaks.last().map(|current| current.view.cause)
    }

    /// Frame `index` (0: the paused one) of the innermost break: its captured variables.
    pub(crate) fn frame(&self, index: usize) -> Option<Table> {
        self.breaks.last()?.frames.get::<Option<Table>>(index + 1).ok().flatten()
    }

    /// The environment code runs in among frame `index`'s variables (0: the REPL's).
    fn frame_env(&self, index: usize) -> mlua::Result<Table> {
        let Some(current) = self.breaks.last() else { return Ok(self.env.clone()) };
        if index == 0 {
            return Ok(current.env.clone());
        }
        let frame =
            self.frame(index).ok_or_else(|| mlua::Error::runtime(format!("there is no frame {index} in the break")))?;
        current.frame_env.call((frame, self.env.clone()))
    }

    /// Lets the innermost `pause()` continue. Returns false if nothing is paused.
    pub fn resume(&mut self) -> bool {
        match self.breaks.last_mut() {
            Some(current) if !current.resumed => {
                current.resumed = true;
                true
            }
            _ => false,
        }
    }
}

fn variables(frame: &Table) -> mlua::Result<Vec<(String, String, String)>> {
    let count: usize = frame.get("count")?;
    let (names, values, kinds): (Table, Table, Table) =
        (frame.get("names")?, frame.get("values")?, frame.get("kinds")?);
    (1..=count).map(|i| Ok((names.get(i)?, kinds.get(i)?, inspect(&values.get::<mlua::Value>(i)?, 1)))).collect()
}

/// Evaluates REPL input in the current environment (a break's, or the REPL's): an
/// expression gives its values (no `return` needed), statements run, and globals they set
/// persist for later input. During a break, `continue` lets the paused code go on.
pub fn evaluate(lua: &Lua, code: &str) -> Evaluation {
    let engine = engine(lua);
    if code.trim() == "continue" && engine.repl.borrow_mut().resume() {
        return Evaluation::Continued;
    }
    let env = engine.repl.borrow().current_env();
    evaluate_in(lua, code, env)
}

/// Evaluates `code` as the REPL does, among the variables of frame `frame` of the innermost
/// break (0: the paused function; with no break, the REPL's globals).
pub fn evaluate_in_frame(lua: &Lua, code: &str, frame: usize) -> Evaluation {
    let env = engine(lua).repl.borrow().frame_env(frame);
    match env {
        Ok(env) => evaluate_in(lua, code, env),
        Err(error) => Evaluation::Error(crate::error::failure(error)),
    }
}

/// The value of the expression `code` among the variables of frame `frame` of the innermost
/// break (its first value; None if it gives none).
pub fn evaluate_value_in_frame(lua: &Lua, code: &str, frame: usize) -> mlua::Result<Option<mlua::Value>> {
    let engine = engine(lua);
    let env = engine.repl.borrow().frame_env(frame)?;
    let function = lua.load(format!("return {code}")).set_name("=repl").set_environment(env).into_function()?;
    Ok(engine.debugger.run_evaluation(&function)?.pop_front())
}

/// Evaluates `code` in `env` (an expression gives its values, statements run).
fn evaluate_in(lua: &Lua, code: &str, env: Table) -> Evaluation {
    let engine = engine(lua);
    let load = |code: String| lua.load(code).set_name("=repl").set_environment(env.clone()).into_function();
    let function = match load(format!("return {code}")) {
        Ok(f) => f,
        Err(_) => match load(code.to_owned()) {
            Ok(f) => f,
            Err(mlua::Error::SyntaxError { incomplete_input: true, .. }) => return Evaluation::Incomplete,
            Err(error) => return Evaluation::Error(crate::error::failure(error)),
        },
    };
    match engine.debugger.run_evaluation(&function) {
        Ok(values) => Evaluation::Values(values.iter().map(|v| inspect(v, 2)).collect()),
        Err(error) => Evaluation::Error(crate::error::failure(error)),
    }
}

/// The Rust side of `pause()`: registers the break, waits until it is resumed, and lets the
/// Lua side write the assignments back.
fn suspend(lua: &Lua, (frames, frame_env, cause): (Table, Function, Option<String>)) -> mlua::Result<()> {
    let engine = engine(lua);
    let frontend = engine.frontend.borrow().clone();
    let terminal = engine.repl.borrow().terminal_breaks;
    if frontend.is_none() && !terminal {
        return Ok(());
    }
    let top: Table = frames.get(1)?;
    let env: Table = frame_env.call((&top, engine.repl.borrow().env.clone()))?;
    let reason = engine.repl.borrow_mut().next_reason.take();
    let mut cause = BreakCause::from_name(cause.as_deref());
    if cause == BreakCause::Pause && reason.is_some() {
        cause = BreakCause::Watch;
    }
    engine.debugger.note_break(lua, top.get::<usize>("level")? + 1);
    let frames_view = pause_frames(&engine, &frames)?;
    let top_view = frames_view.first().cloned().unwrap_or(PauseFrame {
        function: String::new(),
        file: String::new(),
        path: None,
        line: 0,
    });
    let view = PauseView {
        function: top_view.function,
        file: top_view.file,
        line: top_view.line,
        variables: Vec::new(),
        reason,
        stack: frames_view.iter().map(|f| format!("{} at {}:{}", f.function, f.file, f.line)).collect(),
        frames: frames_view,
        cause,
        id: 0,
    };
    let depth = {
        let mut repl = engine.repl.borrow_mut();
        repl.breaks_made += 1;
        let view = PauseView { id: repl.breaks_made, ..view };
        repl.breaks.push(Break { frames, frame_env, env, view, resumed: false });
        repl.breaks.len()
    };
    let resumed = || engine.repl.borrow().breaks.get(depth - 1).is_none_or(|b| b.resumed);
    let waited = match frontend {
        Some(frontend) => frontend.wait(lua, WaitReason::Pause, &resumed),
        None => {
            if let Some(view) = engine.repl.borrow().pause_view() {
                if let Some(reason) = &view.reason {
                    println!("{reason}");
                }
                println!(
                    "paused in {} at {}:{}; type Lua to look around, `continue` to go on",
                    view.function, view.file, view.line
                );
                for (name, kind, value) in &view.variables {
                    println!("  {kind} {name} = {value}");
                }
            }
            engine.limits.waiting(|| read_eval_print(lua, "pause", &resumed));
            // The end of input lets the script go on too.
            engine.repl.borrow_mut().resume();
            Ok(())
        }
    };
    engine.repl.borrow_mut().breaks.truncate(depth - 1);
    waited
}

/// The frames `pause.lua` captured, as the snapshot shows them.
fn pause_frames(engine: &super::Engine, frames: &Table) -> mlua::Result<Vec<PauseFrame>> {
    let sources = engine.sources.borrow();
    frames
        .sequence_values::<Table>()
        .map(|frame| {
            let frame = frame?;
            let source: String = frame.get("source")?;
            Ok(PauseFrame {
                function: frame.get("function")?,
                file: frame.get("file")?,
                path: sources.get(&source).and_then(|s| s.path.clone()),
                line: u32::try_from(frame.get::<i64>("line")?).unwrap_or(0),
            })
        })
        .collect()
}

/// A REPL on the terminal (`nefia repl`, and `pause()` with `nefia run --break`): reads
/// lines from stdin until the end of input or `done()`, with `prompt` while a chunk is being
/// read. Values go to stdout, errors to stderr.
pub fn read_eval_print(lua: &Lua, prompt: &str, done: &dyn Fn() -> bool) {
    let stdin = std::io::stdin();
    let mut pending = String::new();
    while !done() {
        print!("{prompt}{} ", if pending.is_empty() { ">" } else { ">>" });
        // A terminal that cannot be flushed still gets the prompt with the next line.
        std::io::stdout().flush().ok();
        let mut line = String::new();
        if stdin.lock().read_line(&mut line).unwrap_or(0) == 0 {
            return;
        }
        pending.push_str(&line);
        match engine(lua).limits.run(|| evaluate(lua, &pending)) {
            Evaluation::Incomplete => continue,
            Evaluation::Values(values) if !values.is_empty() => println!("{}", values.join("\t")),
            Evaluation::Values(_) | Evaluation::Continued => {}
            Evaluation::Error(failure) => eprintln!("{failure}"),
        }
        pending.clear();
    }
}

/// Installs `pause` into `api`, and the debugger's breaks; `resume` is the watchdog's
/// `coroutine.resume`.
pub fn install(lua: &Lua, api: &Table, resume: Function) -> mlua::Result<()> {
    engine(lua).register_source(
        "=repl",
        super::SourceFile {
            mod_id: Some(nefia_game::Symbol::intern("repl")),
            name: nefia_game::Symbol::intern("repl"),
            path: None,
            text_digest: None,
        },
    );
    let debug: Table = lua.globals().raw_get("debug")?;
    let suspend = lua.create_function(suspend)?;
    let pauses_for_error =
        lua.create_function(|lua, error: mlua::Value| Ok(engine(lua).debugger.pauses_for_error(lua, &error)))?;
    let breaks: Table = lua.load(include_str!("pause.lua")).set_name("=nefia pause").call((
        debug,
        suspend,
        api.clone(),
        resume,
        pauses_for_error,
    ))?;
    // SAFETY: the probe is a Lua C function that pushes nothing and returns no values.
    let probe = unsafe { lua.create_c_function(super::debugger::probe)? };
    api.raw_set(super::debugger::PROBE, probe)?;
    let engine = engine(lua);
    engine.watch.set_pause_writer(breaks.get("pause")?);
    engine.debugger.install(lua, breaks)
}

/// Completions for the end of `text`: the names that can follow the trailing `a.b.c` or
/// `a:b`, as whole replacements of that trailing expression, sorted.
pub fn complete(lua: &Lua, text: &str) -> Vec<String> {
    let start = text.rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == ':')).map_or(0, |i| i + 1);
    let expression = &text[start..];
    let (base, separator, partial) = match expression.rfind(['.', ':']) {
        Some(at) => (&expression[..at], &expression[at..at + 1], &expression[at + 1..]),
        None => ("", "", expression),
    };
    let engine = engine(lua);
    let env = engine.repl.borrow().current_env();
    let mut names: Vec<String> = if base.is_empty() {
        global_names(&engine.repl.borrow())
    } else {
        resolve(&env, base).map(|value| member_names(lua, &value, separator == ":")).unwrap_or_default()
    };
    names.retain(|name| name.starts_with(partial) && nefia_game::value::is_identifier(name));
    names.sort();
    names.dedup();
    names.into_iter().map(|name| format!("{}{base}{separator}{name}", &text[..start])).collect()
}

/// Looks up `a.b.c` by plain indexing (no calls), from `env`.
fn resolve(env: &Table, path: &str) -> Option<mlua::Value> {
    if path.contains(':') {
        return None;
    }
    let mut value = mlua::Value::Table(env.clone());
    for part in path.split('.') {
        value = match value {
            mlua::Value::Table(table) => table.get(part).ok()?,
            _ => return None,
        };
    }
    Some(value)
}

/// Names of the paused function's variables (in a break), the REPL's globals and the API.
fn global_names(repl: &Repl) -> Vec<String> {
    let mut names = Vec::new();
    if let Some(frame) = repl.frame(0)
        && let Ok(slots) = frame.get::<Table>("slots")
    {
        names.extend(slots.pairs::<String, mlua::Value>().filter_map(Result::ok).map(|(k, _)| k));
    }
    names.extend(member_names_of_table(&repl.env, false));
    names
}

/// The keys of a table (and of its `__index` tables), or an object's fields and methods.
fn member_names(lua: &Lua, value: &mlua::Value, methods_only: bool) -> Vec<String> {
    let engine = engine(lua);
    if let Some(uid) = super::handle::object_uid(&engine, value) {
        let mut names = engine
            .handles
            .borrow()
            .object_methods
            .as_ref()
            .map(|m| member_names_of_table(m, false))
            .unwrap_or_default();
        if !methods_only {
            let world = engine.world.borrow();
            names.extend(world.field_names(uid).unwrap_or_default().into_iter().map(|name| name.as_str().to_owned()));
            names.extend(["uid", "_id", "_type", "x", "y", "location", "temp", "proto"].map(String::from));
        }
        return names;
    }
    match value {
        mlua::Value::Table(table) => member_names_of_table(table, methods_only),
        _ => Vec::new(),
    }
}

/// The string keys of `table` and of the tables its `__index` chain leads to.
fn member_names_of_table(table: &Table, methods_only: bool) -> Vec<String> {
    let mut names = Vec::new();
    let mut current = Some(table.clone());
    for _ in 0..8 {
        let Some(table) = current else { break };
        names.extend(
            table
                .pairs::<String, mlua::Value>()
                .filter_map(Result::ok)
                .filter(|(_, v)| !methods_only || v.is_function())
                .map(|(k, _)| k),
        );
        current = table.metatable().and_then(|meta| meta.raw_get::<Option<Table>>("__index").ok().flatten());
    }
    names
}
