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

pub mod check;
pub mod data;
pub mod edit;
pub mod files;
pub mod history;
pub mod host;
pub mod hotload;
pub mod location;
pub mod lua;
pub mod map;
pub mod map_files;
pub mod moddable;
pub mod mods;
pub mod object;
pub mod play;
pub mod project;
pub mod runtime;
pub mod save;
pub mod symbol;
pub mod ui;
pub mod validate;
pub mod value;
pub mod view;
pub mod world;

pub use mlua;

pub use location::{Holder, Location, Refusal};
pub use map::{InstancedMap, MapId};
pub use moddable::{ModMethod, Origin};
pub use object::{ObjectKind, Uid};
pub use runtime::Runtime;
pub use symbol::Symbol;
pub use value::Value;
pub use world::{World, WorldError};
