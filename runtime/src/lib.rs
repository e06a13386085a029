//! # nefia_runtime — the engine
//!
//! The game's state and rules with no GUI attached: map objects with uids
//! ([`game::object`]), the places they live ([`game::location`], [`game::map`]), base and
//! temporary values with provenance ([`game::moddable`]), data types and prototypes
//! ([`game::data`]), saves ([`game::save`]), mods ([`game::mods`]) and the Lua API that exposes all of it under the names of the OpenNefia
//! engine-features page ([`lua`]). [`Runtime`] ties a [`World`] to a Lua state and loads a
//! project into it.
//!
//! The world is plain Rust data; Lua holds objects through handles (uids), so the inspector,
//! the saver and scripts read one truth. Everything here runs on one thread: the editor talks
//! to it through the host protocol and never holds the Lua state.
//!
//! The layers are folders: [`game`] is the game state with no Lua in it (world, objects,
//! locations, temp values, maps and sight, data, saves, map files, the undo history, the checks
//! of files); [`lua`] is the Lua API over it; [`host`] runs a game for a frontend (the runtime
//! thread and its protocol, the frame data, edits, play, hotload, `nefia check`). [`Runtime`]
//! ties a world to a Lua state and loads a project into it. Paths name their layer
//! (`game::world`, `host::editing::edit`): no module is re-exported under a short name, so a crossing
//! between layers shows where it is made.

pub mod game;
pub mod host;
pub mod lua;
pub mod runtime;

pub use mlua;

// The game's vocabulary at the root: the types nearly every user of the crate names.
pub use game::location::{Holder, Location, Refusal};
pub use game::map::{InstancedMap, MapId};
pub use game::moddable::{ModMethod, Origin};
pub use game::object::{ObjectKind, Uid};
pub use game::symbol::Symbol;
pub use game::value::Value;
pub use game::world::{World, WorldError};
pub use runtime::{OnModFailure, Runtime};

#[cfg(test)]
mod layers {
    /// Every `.rs` file under `dir`.
    fn sources(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
        let mut found = Vec::new();
        for entry in std::fs::read_dir(dir).expect("the folder reads").flatten() {
            let path = entry.path();
            if path.is_dir() {
                found.extend(sources(&path));
            } else if path.extension().is_some_and(|e| e == "rs") {
                found.push(path);
            }
        }
        found
    }

    /// Asserts that no file under `src/<layer>` names any of `above`.
    fn names_none_of(layer: &str, above: &[&str]) {
        let folder = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(layer);
        let files = sources(&folder);
        assert!(files.len() > 20, "the {layer} layer's files are found: {}", files.len());
        for file in files {
            let text = std::fs::read_to_string(&file).expect("a source file");
            for (line, text) in text.lines().enumerate() {
                for above in above {
                    assert!(!text.contains(above), "{}:{}: {layer}/ reaches {above}", file.display(), line + 1);
                }
            }
        }
    }

    #[test]
    fn the_game_layer_names_neither_the_lua_api_nor_the_host() {
        names_none_of("game", &["crate::host", "crate::lua", "super::host", "super::lua"]);
    }

    #[test]
    fn the_lua_layer_names_not_the_host() {
        names_none_of("lua", &["crate::host", "super::host"]);
    }
}
