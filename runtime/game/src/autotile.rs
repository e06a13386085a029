//! Auto-tiling: rules that lay a map's visible tiles from a simpler "intent" grid (floor,
//! wall, water…), and say afterwards why each tile is there.
//!
//! A rule set (`base.autotile_rule_set`) is a list of rules. Each rule has a pattern over the
//! neighbourhood of a cell (an odd square, 1×1 up to 7×7) whose cells ask for anything, a tile
//! or tag, anything but a tile or tag, or nothing (outside the map, or an empty intent cell).
//! Rules run in their order and each one that matches paints the cell, so a later rule paints
//! over an earlier one (general rules first, their special cases after, as CSS reads); a rule
//! marked `stop` ends the cell's run, so the rules after it skip that cell. A rule may hold
//! only by `chance`, place one of several tiles by weight, and match mirrored or rotated.
//! A rule may also place an object (a torch on a wall, mushrooms in a cave): objects are a
//! second layer painted the same way, at most one a cell, the last matching rule's. The
//! world keys each object the rules placed `rule@x,y` (see [`RULE_OBJECT_KEY`]), so a repaint
//! knows which objects of a cell are the rules' to take back, and two branches of a project
//! that paint the same cell merge it as one object.
//! Randomness is a hash of the seed, the rule's name and the cell: the same intent and seed
//! always give the same tiles, and a change repaints only the cells it reaches.
//!
//! [`parse`] reads a rule set from its prototype, [`Autotiler`] paints, and
//! [`Autotiler::explain`] answers "why is this tile here?".
//!
//! A property test (`autotile/tests.rs`) holds the explanation to the painting on random rules
//! and maps: for every cell, the rule the explanation names alone paints that cell the same.

mod explain;
mod intent;
mod paint;
mod parse;

pub use explain::{Explanation, Lost, LostReason, PatternCell, RuleMatch};
pub use intent::Intent;
pub use paint::Autotiler;
pub use paint::Painted;
pub use parse::{KnownIds, RuleError, parse_rule_set};

use crate::object::ObjectKind;
use crate::symbol::Symbol;

/// The data type rule sets are declared as.
pub const RULE_SET_TYPE: &str = "base.autotile_rule_set";

/// What a layer's rule set is called when the map holds its rules itself.
pub const OWN_RULES: &str = "the map's own rules";

/// How the key of an object placed by rules begins (`rule@12,5`): a repaint takes back only
/// objects so keyed on the cells it repaints.
pub const RULE_OBJECT_KEY: &str = "rule@";

/// The widest pattern a rule may have, in cells (7×7: three cells each way from the centre).
pub const MAX_PATTERN_SIZE: usize = 7;

/// A map's auto-tiling: the rule set laid on it, its seed, and the intent grid the rules read
/// (the map's visible tiles are what they paint from it).
#[derive(Clone, Debug, PartialEq)]
pub struct AutotileLayer {
    /// The `base.autotile_rule_set` id, or [`OWN_RULES`] for rules the map holds itself.
    pub rule_set: Symbol,
    /// The map's own rules (as a rule set's `rules` are written), kept in its file.
    pub own_rules: Option<std::sync::Arc<crate::value::Value>>,
    /// The seed its chances and weighted picks are drawn from.
    pub seed: i64,
    /// What each cell is meant to be.
    pub intent: Intent,
}

/// What a pattern's cell is compared with: one tile, or every tile carrying a tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Matcher {
    /// This tile id.
    Tile(Symbol),
    /// Any tile whose `tags` hold this tag.
    Tag(Symbol),
}

/// What one cell of a pattern asks of the intent cell under it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum CellTest {
    /// Anything (the cell is not looked at).
    Any,
    /// A tile the matcher takes (not outside the map, not empty).
    Is(Matcher),
    /// Anything the matcher does not take, outside the map and empty included.
    Not(Matcher),
    /// Outside the map, or an empty intent cell.
    Empty,
}

/// What a rule places when it matches.
#[derive(Clone, Debug, PartialEq)]
pub enum Placement {
    /// Always this tile.
    Tile(Symbol),
    /// One of these tiles, each as likely as its weight (weights are positive).
    OneOf(Vec<(Symbol, u32)>),
}

/// An object a rule places: its kind and prototype id (`object = { feat = "elona.torch" }`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ObjectPlacement {
    /// Character, item, feat or mef.
    pub kind: ObjectKind,
    /// Its prototype id.
    pub id: Symbol,
}

impl std::fmt::Display for ObjectPlacement {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}", self.kind.noun(), self.id)
    }
}

/// One rule of a rule set.
#[derive(Clone, Debug, PartialEq)]
pub struct Rule {
    /// Its name (given, or "rule N" counting from 1): what explanations call it, and the
    /// salt of its chance, so adding a rule does not reshuffle the others' cells.
    pub name: String,
    /// Side of its square pattern (odd, 1 to [`MAX_PATTERN_SIZE`]).
    pub size: usize,
    /// The pattern's cells, row by row (`size * size` of them).
    pub pattern: Vec<CellTest>,
    /// The tile it places, if it places one.
    pub place: Option<Placement>,
    /// The object it places, if it places one (a rule places a tile, an object or both).
    pub object: Option<ObjectPlacement>,
    /// How likely it is to hold where it matches, in (0, 1].
    pub chance: f64,
    /// The rules after it skip a cell it painted.
    pub stop: bool,
    /// It also matches mirrored left to right.
    pub mirror_x: bool,
    /// It also matches mirrored top to bottom.
    pub mirror_y: bool,
    /// It also matches turned by a quarter, a half and three quarters.
    pub rotate: bool,
}

impl Rule {
    /// The pattern's cells with their offsets from the centre, row by row.
    pub fn cells(&self) -> impl Iterator<Item = ((i32, i32), CellTest)> + '_ {
        let half = i32::try_from(self.size / 2).unwrap_or(0);
        let size = i32::try_from(self.size).unwrap_or(1);
        self.pattern.iter().enumerate().map(move |(i, test)| {
            let i = i32::try_from(i).unwrap_or(0);
            ((i % size - half, i / size - half), *test)
        })
    }
}

/// A rule set: its rules in the order they run.
#[derive(Clone, Debug, PartialEq)]
pub struct RuleSet {
    /// Its id, such as `elona.dungeon_walls`.
    pub id: Symbol,
    /// The rules, first run first.
    pub rules: Vec<Rule>,
}

impl std::fmt::Display for Matcher {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Matcher::Tile(tile) => write!(f, "{tile}"),
            Matcher::Tag(tag) => write!(f, "tag:{tag}"),
        }
    }
}

impl std::fmt::Display for CellTest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CellTest::Any => write!(f, "anything"),
            CellTest::Is(matcher) => write!(f, "{matcher}"),
            CellTest::Not(matcher) => write!(f, "not {matcher}"),
            CellTest::Empty => write!(f, "empty"),
        }
    }
}

#[cfg(test)]
mod tests;
