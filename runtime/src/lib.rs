//! # nefia_runtime — the engine
//!
//! The game's state and rules with no GUI attached: map objects with uids
//! ([`object`]), the places they live ([`location`], [`map`]), base and temporary values with
//! provenance ([`moddable`]), data types and prototypes ([`data`]), saves ([`save`]), mods
//! ([`mods`]) and the Lua API that exposes all of it under the names of the OpenNefia
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
//! ties a world to a Lua state and loads a project into it.

pub mod game;
pub mod host;
pub mod lua;
pub mod runtime;

// The layers' modules by their short names, as the rest of the crate and the editor use them.
pub use game::{
    data, display, files, history, journal, location, map, map_diff, map_files, map_merge, moddable, mods, object,
    object_key, project, recording, save, symbol, validate, value, world,
};
pub use host::{check, edit, hotload, play, view};

pub use mlua;

pub use location::{Holder, Location, Refusal};
pub use map::{InstancedMap, MapId};
pub use moddable::{ModMethod, Origin};
pub use object::{ObjectKind, Uid};
pub use runtime::{OnModFailure, Runtime};
pub use symbol::Symbol;
pub use value::Value;
pub use world::{World, WorldError};
