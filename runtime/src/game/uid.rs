//! The uid of a map object, beneath everything that refers to objects (values, temp values,
//! locations): [`crate::game::object`] is the object itself.

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
