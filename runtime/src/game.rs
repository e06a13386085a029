//! The game state with no Lua in it: what the Lua API ([`crate::lua`]) and the host
//! ([`crate::host`]) work on, and what property tests drive directly.

pub mod autotile;
pub mod clock;
pub mod conflict;
pub mod data;
pub mod display;
pub mod edit;
pub mod field_edit;
pub mod field_spelling;
pub mod field_type;
pub mod files;
pub mod history;
pub mod ids;
pub mod journal;
pub mod location;
pub mod map;
pub mod map_diff;
pub mod map_files;
pub mod map_import;
pub mod map_merge;
pub mod moddable;
pub mod mods;
pub mod object;
pub mod object_key;
pub mod object_record;
pub mod project;
pub mod record_error;
pub mod recording;
pub mod references;
pub mod save;
pub mod source_patch;
pub mod symbol;
pub mod validate;
pub mod value;
pub mod world;
