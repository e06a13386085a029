//! Runs the Lua tests: every global `test_*` function of every `tests/lua/**/*.lua` file, each
//! against a fresh game (see `nefia_tests::TestGame`), listed by cargo as `file::test_name`.
//! `Assert` (the engine's `runtime/lua/src/assert.lua`) is available to every test file.

use std::path::{Path, PathBuf};

use libtest_mimic::{Arguments, Failed, Trial};
use nefia_lua::mlua;
use nefia_tests::{TestGame, repo_root};

fn lua_dir() -> PathBuf {
    repo_root().join("tests/lua")
}

fn test_files(dir: &Path, found: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> =
        std::fs::read_dir(dir).expect("tests/lua exists").filter_map(|e| e.ok()).map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            test_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "lua") {
            found.push(path);
        }
    }
}

/// Loads `file` into `game` with `Assert` available; returns its environment.
// A String error: libtest-mimic's `Failed` is made from text, and a person reads it.
fn load(game: &TestGame, file: &Path) -> Result<mlua::Table, String> {
    let assert = game.runtime.assert_library().map_err(|f| f.to_string())?;
    game.runtime.run_file_as(file, "test", &[("Assert", assert)]).map_err(|f| f.to_string())
}

/// The `test_*` functions of a file, in the order they are defined.
// A String error: it is reported as the file's failure, for a person to read.
fn test_names(file: &Path) -> Result<Vec<String>, String> {
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
    Ok(tests.into_iter().map(|(_, name)| name).collect())
}

fn run_test(file: &Path, name: &str) -> Result<(), Failed> {
    let game = TestGame::new();
    let env = load(&game, file)?;
    let test: mlua::Function = env.raw_get(name).map_err(|e| e.to_string())?;
    let result = test.call::<()>(());
    if let Err(error) = result {
        let output = game.output.borrow().join("\n");
        let failure = nefia_lua::error::failure(error);
        return Err(if output.is_empty() {
            failure.to_string()
        } else {
            format!("{failure}\n--- output ---\n{output}")
        }
        .into());
    }
    Ok(())
}

fn main() {
    let args = Arguments::from_args();
    let mut files = Vec::new();
    test_files(&lua_dir(), &mut files);
    let mut trials = Vec::new();
    for file in files {
        let stem = file.strip_prefix(lua_dir()).unwrap_or(&file).with_extension("").display().to_string();
        match test_names(&file) {
            Ok(names) => {
                for name in names {
                    let file = file.clone();
                    trials.push(Trial::test(format!("{stem}::{name}"), move || run_test(&file, &name)));
                }
            }
            Err(error) => trials.push(Trial::test(format!("{stem}::load"), move || Err(error.clone().into()))),
        }
    }
    libtest_mimic::run(&args, trials).exit();
}
