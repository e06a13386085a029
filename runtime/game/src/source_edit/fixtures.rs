//! What the source-edit tests of the game crate and the Lua crate's check of them against Lua
//! (`runtime/lua/tests/source_edit_in_lua.rs`, which includes this file by path) both read: the
//! mods' Lua files and a sample prototype.

use std::path::{Path, PathBuf};

use super::Locator;

/// The sample's prototype.
pub const PUTIT: Locator = Locator { data_type: "base.chara", short_id: "putit", line: 0 };

/// A file of prototypes written in every style the editor keeps: comments, quotes, a list
/// added in a loop.
pub const SAMPLE: &str = r#"-- Sample.

data:add {
   _type = "base.chara",
   _id = "putit",
   name = 'putit', -- its name
   color = { 130, 200, 255 },

   -- Hit points.
   max_hp = 6,
   ratio = 0.5,
}

data:add({ _type = "base.chara", _id = "small", name = "small", level = 1 })
data:add { _type = "base.item", _id = "putit", name = "putitoro" }

for _, id in ipairs({ "a", "b" }) do
   data:add { _type = "base.chara", _id = id }
end

for _ = 1, 2 do
   data:add { _type = "base.chara", _id = "twice" }
end
"#;

/// Every `.lua` file under the repository's `mods/`, with its text.
pub fn mod_files() -> Vec<(PathBuf, String)> {
    fn walk(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
        let mut entries: Vec<_> = std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()).collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "lua") {
                let text = std::fs::read_to_string(&path).unwrap();
                out.push((path, text));
            }
        }
    }
    let mut files = Vec::new();
    walk(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../mods"), &mut files);
    assert!(files.len() > 10, "the mods' Lua files were not found");
    files
}
