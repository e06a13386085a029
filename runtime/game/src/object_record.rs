//! An object as files write it: a map file's or a save's record of one object and what it
//! holds, and an object of a map file the loaded mods could not make, kept as written.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::ids::Uid;
use crate::moddable::{FieldMap, TempValue};
use crate::object::ObjectKind;
use crate::symbol::Symbol;

/// One object and what it holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectRecord {
    /// Its uid (save games only; map files give new objects new uids).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub uid: Option<Uid>,
    /// Its identity in a map file, unique within the file (see [`crate::object_key`]):
    /// always written in map files; in save games only when it came from a map file.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub key: Option<String>,
    /// Character, item or feat.
    pub kind: ObjectKind,
    /// Prototype id.
    pub id: Symbol,
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
    /// Base values that differ from the prototype.
    #[serde(default, skip_serializing_if = "FieldMap::is_empty")]
    pub fields: FieldMap,
    /// Temp values with their provenance (save games only).
    #[serde(default, skip_serializing_if = "FieldMap::is_empty")]
    pub temp: FieldMap<TempValue>,
    /// Items held, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty", deserialize_with = "exact_vec")]
    pub inventory: Vec<ObjectRecord>,
    /// Items worn, by slot.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub equipment: BTreeMap<Symbol, ObjectRecord>,
}

impl ObjectRecord {
    /// Calls `f` on this record and on every record it holds, parents first.
    pub fn visit_mut(&mut self, f: &mut impl FnMut(&mut ObjectRecord)) {
        f(self);
        for held in self.inventory.iter_mut().chain(self.equipment.values_mut()) {
            held.visit_mut(f);
        }
    }
}

/// A list read with no room to spare. RON gives no length ahead, so a list grows as it is
/// read, and an inventory of one item would keep room for four (704 bytes, not 176): a save of
/// 100,000 characters held 50 MiB of such room while it was loaded.
fn exact_vec<'de, D: serde::Deserializer<'de>, T: Deserialize<'de>>(deserializer: D) -> Result<Vec<T>, D::Error> {
    let mut list = Vec::<T>::deserialize(deserializer)?;
    list.shrink_to_fit();
    Ok(list)
}

/// An object of a map file that could not be made (its prototype, or one of what it holds,
/// is unknown to the loaded mods). The map keeps it and writes it back where it was.
#[derive(Clone, Debug, PartialEq)]
pub struct UnresolvedObject {
    /// Its position in the file's object list.
    pub index: usize,
    /// The object as written.
    pub record: ObjectRecord,
    /// What is unknown, such as `unknown base.chara id 'elona.nope' at (3, 4)`.
    pub problem: String,
}

/// What a map record's objects can be held as.
pub trait ObjectRecords {
    /// Whether there are none (a record without objects writes no `objects` field).
    fn is_empty(&self) -> bool;
}

impl ObjectRecords for Vec<ObjectRecord> {
    fn is_empty(&self) -> bool {
        Vec::is_empty(self)
    }
}
