//! What the checks of content found: a prototype that breaks its data type's validator
//! ([`PrototypeProblem`]), the state of the world's invariants ([`InvariantStatus`]), and a
//! generated map's problem ([`MapProblem`]).

use nefia_game::symbol::Symbol;

/// A rule of its data type that a prototype breaks: what the type's validator said of it.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct PrototypeProblem {
    /// The fields the rule is about (none: the prototype as a whole).
    pub fields: Vec<Symbol>,
    /// What is wrong, as the validator says it ("hp (50) is more than max_hp (20)").
    pub message: String,
}

/// A declared invariant, as the editor lists it: its id, what it says, what it runs on and
/// what its last check found.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct InvariantStatus {
    /// Its id (`elona.hp_within_max`).
    pub id: String,
    /// Its `doc`.
    pub doc: String,
    /// The data type of the objects it checks each of (`base.chara`); none: the whole world.
    pub each: Option<String>,
    /// Its last check, if it has been checked.
    pub last: Option<LastCheck>,
}

/// A problem a validator found on a map, at a cell.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct MapProblem {
    /// The validator, such as `base.stairs_reachable`.
    pub validator: String,
    /// The cell.
    pub x: i32,
    /// The cell.
    pub y: i32,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for MapProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "({}, {}): {} [{}]", self.x, self.y, self.message, self.validator)
    }
}

/// What the last check of one invariant found.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct LastCheck {
    /// The game's turn then.
    pub turn: u64,
    /// Why it did not hold; none if it held.
    pub failure: Option<String>,
}
