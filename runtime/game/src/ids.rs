//! The ids the game's parts refer to each other by: a map object's uid and a map's id, beneath
//! everything that refers to objects and maps (values, temp values, locations);
//! [`crate::object`] and [`crate::map`] are the things themselves.

use std::fmt;

use serde::{Deserialize, Serialize};

/// The unique id of a map object. Starts at 1, grows by one for every object made (clones
/// included) and is never reused.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Uid(pub u64);

impl fmt::Display for Uid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// The unique id of a map (a separate sequence from object uids).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(transparent)]
pub struct MapId(pub u64);

impl fmt::Display for MapId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}
