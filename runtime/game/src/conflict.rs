//! What a three-way merge of a map left for someone to pick (see [`crate::map_merge`]):
//! the merged map holds ours' side of each conflict, and the conflict keeps theirs beside it.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::object_record::ObjectRecord;
use crate::symbol::Symbol;

pub mod resolve;

/// Which side of a merge a choice takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Side {
    /// The branch being merged into (git's "ours", the file the merge is written over).
    Ours,
    /// The branch being merged in.
    Theirs,
}

/// Something both sides changed differently: the merged map holds ours' version, and this
/// keeps theirs beside it until someone picks one.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Conflict {
    /// Both sides painted cell (x, y), with different tiles.
    Tile {
        /// Column.
        x: i32,
        /// Row.
        y: i32,
        /// Ours' tile (the one the map holds).
        ours: Symbol,
        /// Theirs' tile.
        theirs: Symbol,
    },
    /// Both sides painted cell (x, y) of art layer `layer` differently (none: erased it).
    ArtCell {
        /// The art layer's name.
        layer: String,
        /// Column.
        x: i32,
        /// Row.
        y: i32,
        /// Ours' tile (the one the layer holds).
        ours: Option<Symbol>,
        /// Theirs' tile.
        theirs: Option<Symbol>,
    },
    /// Both sides changed object `key` in ways that do not go together.
    Object {
        /// The object's key.
        key: String,
        /// What clashed: `prototype`, `position`, a field's name, `inventory`, `equipment`,
        /// or `removed` (one side removed it, the other changed it).
        fields: Vec<String>,
        /// Ours' version (the one the map holds; none: ours removed it).
        ours: Option<Box<ObjectRecord>>,
        /// Theirs' version (none: theirs removed it).
        theirs: Option<Box<ObjectRecord>>,
    },
    /// Both sides changed one of the map's own values differently: `name`, `entrance`,
    /// `generated`, `fields.<name>` (one of its own fields), `size` (two different resizes),
    /// `cut` (edits outside the kept area of a resize, which the merge could not keep),
    /// `art_layers.<name>` (one side removed an art layer the other changed: the values are
    /// the layers, `None` for removed) or `art_layers.<name>.place` / `.offset_px`.
    /// The values are written as RON.
    Map {
        /// Which value.
        field: String,
        /// Ours (what the map holds).
        ours: String,
        /// Theirs.
        theirs: String,
    },
}

impl Conflict {
    /// The cell the conflict is at, for marking it on the map (ours' cell of an object,
    /// else theirs'); none for the map's own values.
    pub fn cell(&self) -> Option<(i32, i32)> {
        match self {
            Conflict::Tile { x, y, .. } | Conflict::ArtCell { x, y, .. } => Some((*x, *y)),
            Conflict::Object { ours, theirs, .. } => ours.as_ref().or(theirs.as_ref()).map(|o| (o.x, o.y)),
            Conflict::Map { .. } => None,
        }
    }
}

impl fmt::Display for Conflict {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let version = |o: &Option<Box<ObjectRecord>>| {
            o.as_ref().map_or_else(|| "removed".to_owned(), |o| format!("{} at ({}, {})", o.id, o.x, o.y))
        };
        match self {
            Conflict::Tile { x, y, ours, theirs } => write!(f, "cell ({x}, {y}): ours {ours}, theirs {theirs}"),
            Conflict::ArtCell { layer, x, y, ours, theirs } => {
                let tile = |t: &Option<Symbol>| t.map_or_else(|| "(empty)".to_owned(), |t| t.to_string());
                write!(f, "art layer '{layer}' cell ({x}, {y}): ours {}, theirs {}", tile(ours), tile(theirs))
            }
            Conflict::Object { key, fields, ours: Some(ours), theirs: Some(theirs) } => {
                // Both still have it: say what each side made of what clashed.
                let aspect = |record: &ObjectRecord, field: &str| match field {
                    "prototype" => record.id.to_string(),
                    "position" => format!("({}, {})", record.x, record.y),
                    "inventory" => format!("{} item(s) held", record.inventory.len()),
                    "equipment" => format!("{} item(s) worn", record.equipment.len()),
                    name => {
                        record.fields.get(Symbol::intern(name)).map_or_else(|| "unset".to_owned(), ToString::to_string)
                    }
                };
                let clashes: Vec<String> = fields
                    .iter()
                    .map(|field| format!("{field} ours {}, theirs {}", aspect(ours, field), aspect(theirs, field)))
                    .collect();
                write!(f, "object {key}, {} at ({}, {}): {}", ours.id, ours.x, ours.y, clashes.join("; "))
            }
            Conflict::Object { key, ours, theirs, .. } => {
                write!(f, "object {key}: ours {}, theirs {}", version(ours), version(theirs))
            }
            Conflict::Map { field, ours, theirs } => write!(f, "map {field}: ours {ours}, theirs {theirs}"),
        }
    }
}
