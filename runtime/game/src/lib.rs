//! # nefia_game — the game state, with no Lua in it
//!
//! The world and its map objects with uids ([`object`], [`world`]), the places they live
//! ([`location`], [`map`]), base and temporary values with provenance ([`moddable`]), data types
//! and prototypes ([`data`]), saves ([`save`]), map files and their exchange with Tiled and LDtk
//! ([`map_files`], [`exchange`]), the undo history ([`history`]), and the text edits that write a
//! prototype back into a mod's Lua source ([`source_edit`]). Plain Rust: the Lua API (`nefia_lua`)
//! and the host (`nefia_host`) work on it, and property tests drive it directly. This crate
//! depends on no Lua crate, so the compiler holds that it never reaches up.

pub mod art;
pub mod autotile;
pub mod base_changes;
pub mod clock;
pub mod code_rows;
pub mod conflict;
pub mod data;
pub mod display;
pub mod edit;
pub mod exchange;
pub mod field_edit;
pub mod field_spelling;
pub mod field_type;
pub mod files;
pub mod history;
pub mod ids;
pub mod journal;
pub mod layer_edit;
pub mod locale;
pub mod location;
pub mod map;
pub mod map_diff;
pub mod map_files;
pub mod map_merge;
pub mod moddable;
pub mod mods;
pub mod new_mod;
pub mod object;
pub mod object_key;
pub mod object_record;
pub mod project;
pub mod record_error;
pub mod recording;
pub mod references;
pub mod save;
pub mod source_edit;
pub mod source_patch;
pub mod symbol;
pub mod validate;
pub mod value;
pub mod world;

// The game's vocabulary at the root: the types nearly every user of the crate names.
pub use location::{Holder, Location, Refusal};
pub use map::{InstancedMap, MapId};
pub use moddable::{ModMethod, Origin};
pub use object::{ObjectKind, Uid};
pub use symbol::Symbol;
pub use value::Value;
pub use world::{World, WorldError};
