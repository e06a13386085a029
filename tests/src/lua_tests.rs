//! Running the Lua tests of `tests/lua`: each global `test_*` function of a file, against a
//! fresh game (see [`TestGame`]), with `Assert` (the engine's `runtime/lua/src/assert.lua`)
//! and `TestUtil` (OpenNefia's test helpers, `tests/support/TestUtil.lua`) available.
//! `tests/lua.rs` runs every file; `tests/opennefia_engine.rs` counts OpenNefia's ported tests.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use nefia_lua::mlua;

use crate::{TestGame, repo_root};

/// The folder of the Lua tests.
pub fn lua_dir() -> PathBuf {
    repo_root().join("tests/lua")
}

/// The `.lua` files under `dir`, sorted, subfolders included.
pub fn test_files(dir: &Path) -> Vec<PathBuf> {
    let mut found = Vec::new();
    collect(dir, &mut found);
    found
}

fn collect(dir: &Path, found: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(dir).expect("tests/lua exists").filter_map(|e| e.ok()).map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            collect(&path, found);
        } else if path.extension().is_some_and(|e| e == "lua") {
            found.push(path);
        }
    }
}

/// Loads `file` into `game` with `Assert` and `TestUtil` available; returns its environment.
// A String error: libtest-mimic's `Failed` is made from text, and a person reads it.
pub fn load(game: &TestGame, file: &Path) -> Result<mlua::Table, String> {
    let assert = game.runtime.assert_library().map_err(|f| f.to_string())?;
    let support = repo_root().join("tests/support/TestUtil.lua");
    let util_env =
        game.runtime.run_file_as(&support, "test", &[("Assert", assert.clone())]).map_err(|f| f.to_string())?;
    let util: mlua::Value = util_env.raw_get("TestUtil").map_err(|e| e.to_string())?;
    game.runtime.run_file_as(file, "test", &[("Assert", assert), ("TestUtil", util)]).map_err(|f| f.to_string())
}

/// The `test_*` functions of a file, in the order they are defined.
// A String error: it is reported as the file's failure, for a person to read.
pub fn test_names(file: &Path) -> Result<Vec<String>, String> {
    let game = TestGame::new();
    let env = load(&game, file)?;
    let mut tests: Vec<(usize, String)> = Vec::new();
    for pair in env.pairs::<String, mlua::Value>() {
        let (name, value) = pair.map_err(|e| e.to_string())?;
        if let (true, mlua::Value::Function(function)) = (name.starts_with("test_"), value) {
            tests.push((function.info().line_defined.unwrap_or(0), name));
        }
    }
    tests.sort();
    let twice = defined_twice(file)?;
    if !twice.is_empty() {
        return Err(format!("{} defines {twice:?} twice: Lua keeps the last, the first never runs", file.display()));
    }
    Ok(tests.into_iter().map(|(_, name)| name).collect())
}

/// The `test_*` functions `file`'s text defines more than once (`function test_…`).
fn defined_twice(file: &Path) -> Result<Vec<String>, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("{}: {e}", file.display()))?;
    let mut seen = BTreeSet::new();
    let mut twice = Vec::new();
    for line in text.lines() {
        let Some(rest) = line.trim_start().strip_prefix("function ") else { continue };
        let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
        if name.starts_with("test_") && !seen.insert(name.clone()) {
            twice.push(name);
        }
    }
    Ok(twice)
}

/// Runs test `name` of `file` in a fresh game: the Lua error and the game's output if it fails.
// A String error: it is a test's failure, for a person to read.
pub fn run_test(file: &Path, name: &str) -> Result<(), String> {
    let game = TestGame::new();
    let env = load(&game, file)?;
    let test: mlua::Function = env.raw_get(name).map_err(|e| e.to_string())?;
    if let Err(error) = test.call::<()>(()) {
        let output = game.output.borrow().join("\n");
        let failure = nefia_lua::error::failure(error);
        return Err(if output.is_empty() {
            failure.to_string()
        } else {
            format!("{failure}\n--- output ---\n{output}")
        });
    }
    Ok(())
}
