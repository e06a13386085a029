//! What a hotload of a Lua file did ([`Reload`]).

use std::path::PathBuf;
use std::time::Duration;

use crate::failure::LuaFailure;

/// What reloading one file gave.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct Reload {
    /// The file, as errors name it (`mods/elona/init.lua`).
    pub file: String,
    /// How long the reload took, or why it was rejected.
    pub outcome: Result<Duration, LuaFailure>,
    /// The file on disk.
    #[serde(default)]
    pub path: PathBuf,
    /// Its breakpoints that moved with their lines, as (old line, new line).
    #[serde(default)]
    pub breakpoints_moved: Vec<(u32, u32)>,
}
