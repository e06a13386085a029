//! The REPL: evaluating input (an expression prints its values, a statement runs), completion
//! of names, and `pause()` breakpoints.
//!
//! `pause()` captures the calling function's locals and upvalues; while it waits, REPL input
//! runs in an environment that reads and assigns them first (see `pause.lua`), and the
//! assignments reach the paused code when it continues. With a frontend, the frontend is
//! served meanwhile; headless, `pause()` does nothing unless a terminal break was asked for
//! (`nefia run --break`), which reads REPL input from the terminal.

use std::io::{BufRead, Write};

use mlua::{Function, Lua, Table};

use super::gui::WaitReason;
use super::{LuaFailure, engine, inspect::inspect};

/// What evaluating REPL input gave.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
pub enum Evaluation {
    /// It ran; these are its results, pretty-printed (empty for a statement).
    Values(Vec<String>),
    /// The chunk is not complete yet (an open `function`, `do`, string…): read another line.
    Incomplete,
    /// It failed.
    Error(LuaFailure),
    /// It was `continue` during a break: the paused code goes on.
    Continued,
}

/// A paused function, as the REPL's Locals view shows it.
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq)]
pub struct PauseView {
    /// The paused function's name.
    pub function: String,
    /// Its file.
    pub file: String,
    /// The line of the `pause()` call.
    pub line: u32,
    /// Its locals and upvalues: name, "local" or "upvalue", value.
    pub variables: Vec<(String, String, String)>,
    /// Why it paused, when not by `pause()`: the watch that fired ("watch: uid 12
    /// (elona.putit) hp 6 → 5 at mods/elona/game/rules.lua:88").
    pub reason: Option<String>,
    /// The Lua stack from the paused function outwards: "damage at mods/elona/game/rules.lua:37".
    pub stack: Vec<String>,
}

/// Lines of a loaded file around a line an error or a breakpoint names (what a file:line
/// link shows; nothing is opened or run).
#[derive(serde::Serialize, serde::Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct SourceExcerpt {
    /// The file as errors name it.
    pub file: String,
    /// The line asked for.
    pub line: u32,
    /// The number of the first line in `lines`.
    pub first: u32,
    /// The lines; empty if the file is not a loaded file on disk.
    pub lines: Vec<String>,
}

/// How many lines a [`SourceExcerpt`] shows on each side of its line.
const EXCERPT_CONTEXT: u32 = 4;

/// The lines of loaded file `file` (as errors name it) around `line`.
pub fn source_excerpt(lua: &Lua, file: &str, line: u32) -> SourceExcerpt {
    let path = engine(lua).sources.borrow().values().find(|s| s.name.as_str() == file).and_then(|s| s.path.clone());
    let text = path.and_then(|path| std::fs::read_to_string(path).ok()).unwrap_or_default();
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
    frame: Table,
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
}

impl Repl {
    /// A REPL whose globals live in `env`.
    pub fn new(env: Table) -> Repl {
        Repl { env, breaks: Vec::new(), terminal_breaks: false, next_reason: None }
    }

    /// The environment input runs in: the innermost break's, else the REPL's.
    fn current_env(&self) -> Table {
        self.breaks.last().map_or_else(|| self.env.clone(), |b| b.env.clone())
    }

    /// The innermost break, for the Locals view (values as of now).
    pub fn pause_view(&self) -> Option<PauseView> {
        let current = self.breaks.last()?;
        let mut view = current.view.clone();
        view.variables = variables(&current.frame).unwrap_or_default();
        Some(view)
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
    let load = |code: String| lua.load(code).set_name("=repl").set_environment(env.clone()).into_function();
    let function = match load(format!("return {code}")) {
        Ok(f) => f,
        Err(_) => match load(code.to_owned()) {
            Ok(f) => f,
            Err(mlua::Error::SyntaxError { incomplete_input: true, .. }) => return Evaluation::Incomplete,
            Err(error) => return Evaluation::Error(LuaFailure::from(error)),
        },
    };
    match function.call::<mlua::MultiValue>(()) {
        Ok(values) => Evaluation::Values(values.iter().map(|v| inspect(v, 2)).collect()),
        Err(error) => Evaluation::Error(LuaFailure::from(error)),
    }
}

/// The Rust side of `pause()`: registers the break, waits until it is resumed, and lets the
/// Lua side write the assignments back.
fn suspend(
    lua: &Lua,
    (frame, frame_env, file, line, function, stack): (Table, Function, String, u32, String, Vec<String>),
) -> mlua::Result<()> {
    let engine = engine(lua);
    let frontend = engine.frontend.borrow().clone();
    let terminal = engine.repl.borrow().terminal_breaks;
    if frontend.is_none() && !terminal {
        return Ok(());
    }
    let env: Table = frame_env.call((&frame, engine.repl.borrow().env.clone()))?;
    let reason = engine.repl.borrow_mut().next_reason.take();
    let view = PauseView { function, file, line, variables: Vec::new(), reason, stack };
    let depth = {
        let mut repl = engine.repl.borrow_mut();
        repl.breaks.push(Break { frame, env, view, resumed: false });
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

/// Installs `pause` into `api`.
pub fn install(lua: &Lua, api: &Table) -> mlua::Result<()> {
    engine(lua).register_source(
        "=repl",
        super::SourceFile {
            mod_id: Some(crate::Symbol::intern("repl")),
            name: crate::Symbol::intern("repl"),
            path: None,
        },
    );
    let debug: Table = lua.globals().raw_get("debug")?;
    let suspend = lua.create_function(suspend)?;
    let pause_writer: Function =
        lua.load(include_str!("pause.lua")).set_name("=nefia pause").call((debug, suspend, api.clone()))?;
    engine(lua).watch.set_pause_writer(pause_writer);
    Ok(())
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
    names.retain(|name| name.starts_with(partial) && crate::game::value::is_identifier(name));
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
    if let Some(current) = repl.breaks.last()
        && let Ok(slots) = current.frame.get::<Table>("slots")
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
            if let Some(details) = crate::host::view::object_details(&world, uid) {
                names.extend(details.fields.into_iter().map(|f| f.name));
            }
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
