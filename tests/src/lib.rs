//! Helpers shared by the end-to-end tests: where the repository's mods are, and a fresh
//! headless game to test against.

use std::cell::RefCell;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use nefia_runtime::Runtime;
use nefia_runtime::lua::Output;
use nefia_runtime::mlua;

/// The repository root.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ is inside the repository").to_owned()
}

/// The repository's `mods/` folder.
pub fn mods_dir() -> PathBuf {
    repo_root().join("mods")
}

/// A headless game for a test: `base` and `elona` loaded, a current 20×20 map of floor, no
/// player, saves in a temporary folder. Output is collected in `output`.
pub struct TestGame {
    /// The runtime.
    pub runtime: Runtime,
    /// Every `print` line and message so far.
    pub output: Rc<RefCell<Vec<String>>>,
    /// Where saves go; removed when the game is dropped.
    pub save_dir: tempfile::TempDir,
}

impl TestGame {
    /// A fresh game.
    pub fn new() -> TestGame {
        let output = Rc::new(RefCell::new(Vec::new()));
        let sink = output.clone();
        let mut runtime = Runtime::new(Box::new(move |line: Output| {
            sink.borrow_mut().push(match line {
                Output::Print(text) | Output::Message(text) => text,
                Output::Log(line) => format!("[{}] {}", line.level.name(), line.text),
            })
        }))
        .expect("a runtime starts");
        runtime.load_mods(&[mods_dir()], &["base".into(), "elona".into()]).expect("the shipped mods load");
        let save_dir = tempfile::tempdir().expect("a temporary folder");
        runtime.set_save_dir(save_dir.path().to_owned());
        {
            let mut world = runtime.world_mut();
            let map = world.create_map(20, 20, None).expect("a map");
            world.set_current_map(map).expect("it exists");
        }
        TestGame { runtime, output, save_dir }
    }

    /// Runs Lua code in a trusted environment; panics with the Lua error if it fails.
    pub fn exec(&self, code: &str) {
        if let Err(failure) = self.runtime.exec(code, "test") {
            panic!("Lua failed: {failure}");
        }
    }

    /// Evaluates a Lua expression.
    pub fn eval<T: mlua::FromLuaMulti>(&self, expression: &str) -> T {
        let values =
            self.runtime.exec(&format!("return {expression}"), "test").unwrap_or_else(|f| panic!("Lua failed: {f}"));
        self.runtime.lua().unpack_multi(values).unwrap_or_else(|e| panic!("unexpected result of {expression}: {e}"))
    }
}

impl Default for TestGame {
    fn default() -> Self {
        TestGame::new()
    }
}
