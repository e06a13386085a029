//! Probes: a file loaded while it has breakpoints gets a call at the start of each of its
//! functions, so the debugger sees its functions begin without a call hook on every call of
//! every file.
//!
//! The hook's resting cost is in Lua itself: with the call event on, every call (C functions
//! included, and every field read of a handle is one) goes through Lua's hook machinery, which
//! costs about 10% of a busy turn even when the hook returns at once. A probe costs nothing
//! where its file does not run. The file's text is compiled with
//! `local __nefia_probe = __nefia_probe; __nefia_probe();` before the chunk's first statement
//! and `__nefia_probe();` before the first statement of each function body, on the line
//! that statement begins: every line keeps its number, and a function's first line event (with
//! line events on, as while stepping) is still the line its own code begins on. The probe
//! (`hook.rs`) turns the thread's line events on, and the hook follows the function from there
//! as it always did.
//!
//! A file loaded before it had breakpoints keeps the code it was loaded with (loading it again
//! would run its top level again and give its file-local state fresh values): the hook takes
//! calls for it as before, until a hotload gives it probes.

use full_moon::LuaVersion;
use full_moon::ast::{Block, FunctionBody, Stmt};
use full_moon::node::Node;
use full_moon::tokenizer::TokenReference;
use full_moon::visitors::Visitor;

/// The name the probe has in the environment a file is compiled in, and as the local each
/// probed file keeps it in (hidden from the Variables view).
pub(crate) const PROBE: &str = "__nefia_probe";

/// A file's text with its probes, and the lines where its functions' probes are not on the
/// line Lua reports first for them.
pub(crate) struct Probed {
    /// The text to compile.
    pub text: String,
    /// For each function whose probe sits on a line Lua gives it no first code on, the line it
    /// is defined on (0: the chunk) and the probe's line: with line events already on as it
    /// begins, Lua reports that line for the probe's own instructions, and the hook passes it
    /// over ([`super::Debugger::is_probe_line`]).
    pub probe_lines: Vec<(u32, u32)>,
}

/// `text` with a probe at the start of each function and of the chunk, or `None` when it does
/// not parse (Lua's own compiler then says why) or starts with a `#` line (Lua skips it).
///
/// A probe reports its function's first line itself (`__nefia_probe(true)`) only where Lua's
/// own first line event for the function would be on the probe's line: which line that is, is
/// asked of Lua, by compiling the chunk and each function alone in a scratch state and reading
/// the first line event before anything runs.
pub(crate) fn with_probes(text: &str) -> Option<Probed> {
    if text.starts_with('#') {
        return None;
    }
    let ast = full_moon::parse_fallible(text, LuaVersion::lua54()).into_result().ok()?;
    let lines = LineStarts::of(text);
    let scratch = mlua::Lua::new();
    let mut probe_lines = Vec::new();
    let mut call = |at: usize, defined: u32, first: Option<u32>| {
        let line = lines.line_of(at);
        // Unknown (the function does not compile alone): reported by the probe, as is likeliest.
        if first.is_none_or(|first| first == line) {
            format!("{PROBE}(true); ")
        } else {
            probe_lines.push((defined, line));
            format!("{PROBE}(); ")
        }
    };
    let chunk_probe = first_code(ast.nodes(), ast.eof());
    let mut inserts = vec![
        // Functions reach the probe through the chunk's local, whatever they do to `_ENV`.
        (statement_start(ast.nodes(), ast.eof()), format!("local {PROBE} = {PROBE}; ")),
        (chunk_probe, call(chunk_probe, 0, first_line(&scratch, text.to_owned(), false))),
    ];
    let mut bodies = Bodies::default();
    bodies.visit_ast(&ast);
    for body in bodies.found {
        let alone =
            format!("{}return function{}", "\n".repeat(body.line.saturating_sub(1) as usize), text.get(body.text)?);
        inserts.push((body.probe, call(body.probe, body.line, first_line(&scratch, alone, true))));
    }
    // Stable: the chunk's local stays before its probe when both are at one place.
    inserts.sort_by_key(|(at, _)| *at);
    let mut out = String::with_capacity(text.len() + inserts.iter().map(|(_, s)| s.len()).sum::<usize>());
    let mut copied = 0;
    for (at, insert) in inserts {
        out.push_str(text.get(copied..at)?);
        out.push_str(&insert);
        copied = at;
    }
    out.push_str(text.get(copied..)?);
    Some(Probed { text: out, probe_lines })
}

/// The first line Lua reports of the function `chunk` is (`returns_it`: that the chunk returns),
/// read from a line event in `scratch` that stops it before its first instruction runs.
fn first_line(scratch: &mlua::Lua, chunk: String, returns_it: bool) -> Option<u32> {
    let mut function = scratch.load(chunk).set_mode(mlua::ChunkMode::Text).into_function().ok()?;
    if returns_it {
        // Running the chunk only makes the closure.
        function = function.call(()).ok()?;
    }
    let seen = std::rc::Rc::new(std::cell::Cell::new(None));
    let noted = seen.clone();
    scratch
        .set_hook(mlua::HookTriggers::EVERY_LINE, move |_, debug| {
            noted.set(debug.current_line());
            Err(mlua::Error::runtime("the first line is seen: nothing more runs"))
        })
        .ok()?;
    let _stopped = function.call::<()>(());
    scratch.remove_hook();
    seen.get().and_then(|line| u32::try_from(line).ok())
}

/// Where each line of a text begins, to tell the line of a byte.
struct LineStarts(Vec<usize>);

impl LineStarts {
    fn of(text: &str) -> LineStarts {
        LineStarts(std::iter::once(0).chain(text.match_indices('\n').map(|(at, _)| at + 1)).collect())
    }

    /// The line (from 1) of byte `at`.
    fn line_of(&self, at: usize) -> u32 {
        u32::try_from(self.0.partition_point(|&start| start <= at)).unwrap_or(u32::MAX)
    }
}

/// Where the first statement of `block` begins (`end` closes it: where that is, if it is empty).
fn statement_start(block: &Block, end: &TokenReference) -> usize {
    let first = block.stmts().next().and_then(Node::start_position);
    let first = first.or_else(|| block.last_stmt().and_then(Node::start_position));
    first.unwrap_or_else(|| end.token().start_position()).bytes()
}

/// Where the first code of `block` (closed by `end`) begins: its first statement, or inside it
/// when the statement has no code on its own first line (`do`, `repeat`, a label).
fn first_code(block: &Block, end: &TokenReference) -> usize {
    for statement in block.stmts() {
        match statement {
            Stmt::Do(inner) => return first_code(inner.block(), inner.end_token()),
            Stmt::Repeat(inner) => return first_code(inner.block(), inner.until_token()),
            Stmt::Label(_) => {}
            other => return other.start_position().map_or_else(|| end.token().start_position().bytes(), |p| p.bytes()),
        }
    }
    statement_start(block, end)
}

/// A function of the file: the line of its parameter list, its text from there to its `end`,
/// and where its probe goes.
struct Body {
    line: u32,
    text: std::ops::Range<usize>,
    probe: usize,
}

/// Every function of the file.
#[derive(Default)]
struct Bodies {
    found: Vec<Body>,
}

impl Visitor for Bodies {
    fn visit_function_body(&mut self, body: &FunctionBody) {
        let (open, _) = body.parameters_parentheses().tokens();
        let start = open.token().start_position();
        self.found.push(Body {
            line: u32::try_from(start.line()).unwrap_or(u32::MAX),
            text: start.bytes()..body.end_token().token().end_position().bytes(),
            probe: first_code(body.block(), body.end_token()),
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_function_and_the_chunk_begin_with_a_probe_on_their_first_line_of_code() {
        let text = "-- a module\nlocal a = 1\nlocal function f(x)\n  return x\nend\nlocal t = { g = function(...) return ... end }\nfunction t.h(a, b) --[[ ) ]] end\nlocal function r()\n  repeat\n    a = a + 1\n  until a > 3\nend\n";
        let probed = with_probes(text).expect("it parses").text;
        assert_eq!(probed.lines().count(), text.lines().count(), "{probed}");
        assert_eq!(probed.matches("__nefia_probe(true); ").count(), 5, "the chunk and four functions: {probed}");
        assert!(
            probed.starts_with("-- a module\nlocal __nefia_probe = __nefia_probe; __nefia_probe(true); local a = 1"),
            "{probed}"
        );
        assert!(probed.contains("function f(x)\n  __nefia_probe(true); return x"), "{probed}");
        assert!(probed.contains("function(...) __nefia_probe(true); return ... end"), "{probed}");
        assert!(probed.contains("function t.h(a, b) --[[ ) ]] __nefia_probe(true); end"), "{probed}");
        assert!(
            probed.contains("repeat\n    __nefia_probe(true); a = a + 1"),
            "into the loop, where code begins: {probed}"
        );
    }

    #[test]
    fn a_probe_on_a_line_lua_gives_its_function_no_first_code_on_does_not_report_it() {
        // Lua's first line for each function: `t.x`'s (3), `K + 1`'s (7), the closure's `end`
        // (11).
        let text = "local function f(t)\n  return\n    t.x\nend\nlocal function g()\n  local K <const> = 10\n  return K + 1\nend\nlocal function h()\n  local inner = function()\n  end\n  return inner\nend\n";
        let probed = with_probes(text).expect("it parses");
        assert_eq!(probed.text.matches("__nefia_probe(); ").count(), 4, "{}", probed.text);
        // The chunk's own first code is the closure `local function f` makes, on its `end`.
        assert_eq!(probed.probe_lines, [(0, 1), (1, 2), (5, 6), (9, 10)]);
    }

    #[test]
    fn a_body_that_begins_with_a_parenthesis_is_not_read_as_a_call_of_the_probe() {
        let probed = with_probes("local function f(g) (g)() end").expect("it parses").text;
        assert!(probed.contains("__nefia_probe(true); (g)()"), "{probed}");
    }

    #[test]
    fn text_that_does_not_parse_or_starts_with_a_hash_line_is_left_to_lua() {
        assert!(with_probes("local function f( end").is_none());
        assert!(with_probes("#!/usr/bin/lua\nprint(1)").is_none());
    }
}
