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

/// `text` with a probe at the start of each function and of the chunk, or `None` when it does
/// not parse (Lua's own compiler then says why) or starts with a `#` line (Lua skips it).
pub(crate) fn with_probes(text: &str) -> Option<String> {
    if text.starts_with('#') {
        return None;
    }
    let ast = full_moon::parse_fallible(text, LuaVersion::lua54()).into_result().ok()?;
    let call = format!("{PROBE}(); ");
    let mut inserts = vec![
        // Functions reach the probe through the chunk's local, whatever they do to `_ENV`.
        (statement_start(ast.nodes(), ast.eof()), format!("local {PROBE} = {PROBE}; ")),
        (first_code(ast.nodes(), ast.eof()), call.clone()),
    ];
    let mut bodies = Bodies::default();
    bodies.visit_ast(&ast);
    inserts.extend(bodies.starts.into_iter().map(|start| (start, call.clone())));
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
    Some(out)
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

/// Where each function's first code begins.
#[derive(Default)]
struct Bodies {
    starts: Vec<usize>,
}

impl Visitor for Bodies {
    fn visit_function_body(&mut self, body: &FunctionBody) {
        self.starts.push(first_code(body.block(), body.end_token()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_function_and_the_chunk_begin_with_a_probe_on_their_first_line_of_code() {
        let text = "-- a module\nlocal a = 1\nlocal function f(x)\n  return x\nend\nlocal t = { g = function(...) return ... end }\nfunction t.h(a, b) --[[ ) ]] end\nlocal function r()\n  repeat\n    a = a + 1\n  until a > 3\nend\n";
        let probed = with_probes(text).expect("it parses");
        assert_eq!(probed.lines().count(), text.lines().count(), "{probed}");
        assert_eq!(probed.matches("__nefia_probe(); ").count(), 5, "the chunk and four functions: {probed}");
        assert!(
            probed.starts_with("-- a module\nlocal __nefia_probe = __nefia_probe; __nefia_probe(); local a = 1"),
            "{probed}"
        );
        assert!(probed.contains("function f(x)\n  __nefia_probe(); return x"), "{probed}");
        assert!(probed.contains("function(...) __nefia_probe(); return ... end"), "{probed}");
        assert!(probed.contains("function t.h(a, b) --[[ ) ]] __nefia_probe(); end"), "{probed}");
        assert!(
            probed.contains("repeat\n    __nefia_probe(); a = a + 1"),
            "into the loop, where code begins: {probed}"
        );
    }

    #[test]
    fn a_body_that_begins_with_a_parenthesis_is_not_read_as_a_call_of_the_probe() {
        let probed = with_probes("local function f(g) (g)() end").expect("it parses");
        assert!(probed.contains("__nefia_probe(); (g)()"), "{probed}");
    }

    #[test]
    fn text_that_does_not_parse_or_starts_with_a_hash_line_is_left_to_lua() {
        assert_eq!(with_probes("local function f( end"), None);
        assert_eq!(with_probes("#!/usr/bin/lua\nprint(1)"), None);
    }
}
