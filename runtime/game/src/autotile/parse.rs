//! Reading a rule set from its prototype's `rules` field.
//!
//! ```lua
//! data:add {
//!    _type = "base.autotile_rule_set",
//!    _id = "walls",
//!    rules = {
//!       { name = "wall", pattern = { "#" }, legend = { ["#"] = "tag:wall" }, place = "base.wall" },
//!       {
//!          name = "wall face",
//!          pattern = { "* # *", "* # *", "* . *" },
//!          legend = { ["#"] = "tag:wall", ["."] = "!tag:wall" },
//!          place = { { "elona.wall_face", 3 }, { "elona.wall_face_cracked", 1 } },
//!          chance = 0.9, stop = true, mirror_x = true, rotate = false,
//!       },
//!       { name = "torch", pattern = { "#", "." }, legend = { ["#"] = "tag:wall", ["."] = "tag:floor" },
//!         object = { feat = "elona.torch" }, chance = 0.1 },
//!    },
//! }
//! ```
//!
//! A pattern is a list of rows of whitespace-separated tokens, as many rows as tokens in a
//! row, an odd number up to 7. `*` takes anything, `_` takes an empty cell (or outside the
//! map); any other token is looked up in `legend` (or taken as written): a tile id, or
//! `tag:NAME` for every tile with that tag, and a leading `!` turns it into "anything but".
//! A rule places a tile (`place`), an object (`object = { KIND = "prototype.id" }`, KIND one
//! of chara, item, feat, mef), or both.

use std::collections::BTreeMap;

use super::{CellTest, MAX_PATTERN_SIZE, Matcher, ObjectPlacement, Placement, Rule, RuleSet};
use crate::object::ObjectKind;
use crate::symbol::Symbol;
use crate::value::{Key, Value};

/// The keys a rule may have.
const RULE_KEYS: [&str; 10] =
    ["name", "pattern", "legend", "place", "object", "chance", "stop", "mirror_x", "mirror_y", "rotate"];

/// The most rules one set may have, and the most tiles one rule may choose among.
const MAX_RULES: usize = 4096;

/// The most different tiles and tags one set's patterns may name (each is a bit of the
/// painter's per-cell masks, with one bit for "empty").
pub const MAX_MATCHERS: usize = 63;

/// The ids a rule set may name, so a misspelled one is named as the set is read rather than
/// painted as an unknown tile or never placed.
pub trait KnownIds {
    /// Whether this is a `base.map_tile` id.
    fn is_tile(&self, id: &str) -> bool;
    /// Whether this is the id of a prototype of this object kind.
    fn is_object(&self, kind: ObjectKind, id: &str) -> bool;
}

/// A rule set that cannot be read: which set, which rule, and what is wrong with it.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("autotile rule set '{set}', {rule}: {problem}")]
pub struct RuleError {
    /// The rule set's id.
    pub set: String,
    /// Which rule ("rule 3 'wall face'"), or "its rules" for the list itself.
    pub rule: String,
    /// What is wrong and what to write instead.
    pub problem: RuleProblem,
}

/// What is wrong with a rule set or one of its rules, and what to write instead.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum RuleProblem {
    /// `rules` is not a list.
    #[error("`rules` must be a list of rules, not a {0}")]
    RulesNotAList(&'static str),
    /// More rules than [`MAX_RULES`].
    #[error("{0} rules; a set holds at most {MAX_RULES}")]
    TooManyRules(usize),
    /// The patterns name more than [`MAX_MATCHERS`] tiles and tags.
    #[error(
        "its patterns name {0} different tiles and tags; a set names at most {MAX_MATCHERS} (name a tag the tiles share instead)"
    )]
    TooManyMatchers(usize),
    /// A rule is not a table.
    #[error("a rule is a table {{ pattern = …, place = … }}, not a {0}")]
    RuleNotATable(&'static str),
    /// A rule has a key no rule has.
    #[error("unknown key '{key}'; a rule's keys are {}", RULE_KEYS.join(", "))]
    UnknownKey {
        /// The key.
        key: String,
    },
    /// A flag (`stop`, `mirror_x`, ...) is not a boolean.
    #[error("`{key}` must be true or false, not a {type_name}")]
    FlagNotABool {
        /// The flag.
        key: String,
        /// The type given.
        type_name: &'static str,
    },
    /// `chance` is not in (0, 1].
    #[error("`chance` must be a number above 0 and at most 1 (0.25 holds on a quarter of cells)")]
    Chance,
    /// The rule places nothing.
    #[error(
        "no `place` or `object`; give the tile it places (place = \"base.wall\"), weighted tiles, or an object (object = {{ feat = \"mod.id\" }})"
    )]
    PlacesNothing,
    /// `legend` is not a table.
    #[error("`legend` maps pattern tokens to tiles or tags ({{ [\"#\"] = \"tag:wall\" }}), not a {0}")]
    LegendNotATable(&'static str),
    /// The legend redefines `*` or `_`.
    #[error("the legend cannot redefine '{0}' (it takes anything or empty)")]
    LegendRedefines(String),
    /// A legend entry is not a token and a tile id or tag.
    #[error("the legend's keys are pattern tokens and its values tile ids or \"tag:NAME\"")]
    LegendEntry,
    /// The rule has no pattern.
    #[error("no `pattern`; give rows of tokens such as {{ \"* # *\", \"* # *\", \"* . *\" }}")]
    NoPattern,
    /// `pattern` is not a list of rows.
    #[error("`pattern` must be a list of rows, not a {0}")]
    PatternNotAList(&'static str),
    /// The pattern has an even number of rows, or too many.
    #[error("the pattern has {0} rows; it must be square with an odd side of 1 to {MAX_PATTERN_SIZE}")]
    PatternRows(usize),
    /// A pattern row is not a string.
    #[error("pattern row {0} must be a string of tokens")]
    RowNotAString(usize),
    /// A pattern row has more or fewer tokens than the pattern has rows.
    #[error(
        "pattern row {row} has {tokens} tokens; a pattern of {size} rows needs {size} in each (separate them with spaces)"
    )]
    RowTokens {
        /// The row (1-based).
        row: usize,
        /// Its tokens.
        tokens: usize,
        /// The pattern's rows.
        size: usize,
    },
    /// A pattern token means no tile and no tag.
    #[error(
        "pattern token '{token}' means '{meaning}', which is no base.map_tile id; give the legend an entry for it, or write a tile id or tag:NAME"
    )]
    UnknownToken {
        /// The token.
        token: String,
        /// What the legend made of it.
        meaning: String,
    },
    /// `place` names no tile.
    #[error("`place` names '{0}', which is no base.map_tile id")]
    UnknownTile(String),
    /// A weighted choice of `place` is not a pair.
    #[error("a weighted choice is {{ \"tile.id\", weight }}")]
    WeightedChoice,
    /// A choice of `place` is neither an id nor a pair.
    #[error("`place` lists tile ids or {{ \"tile.id\", weight }} pairs")]
    Choice,
    /// `place` is neither an id nor a list of choices.
    #[error(
        "`place` is a tile id or a list of tile ids and {{ \"tile.id\", weight }} pairs (at least one); an object is placed with `object = {{ feat = \"mod.id\" }}`"
    )]
    Place,
    /// `object` is not `{ KIND = "prototype.id" }`.
    #[error("{OBJECT_USAGE}")]
    Object,
    /// `object` names no object kind.
    #[error("`object` names kind '{0}'; {OBJECT_USAGE}")]
    ObjectKind(String),
    /// `object` names no prototype of its kind.
    #[error("`object` names '{id}', which is no {data_type} id")]
    UnknownObject {
        /// The id.
        id: String,
        /// The kind's data type.
        data_type: &'static str,
    },
    /// A weight is not a whole number from 1 to 1000000.
    #[error("a weight is a whole number from 1 to 1000000")]
    Weight,
}

/// How `object` is written.
const OBJECT_USAGE: &str = "`object` is { KIND = \"prototype.id\" } with KIND one of chara, item, feat, mef (object = { feat = \"elona.torch\" })";

/// Reads rule set `id` from its `rules` value; `known` tells the ids it may name.
pub fn parse_rule_set(id: Symbol, rules: &Value, known: &dyn KnownIds) -> Result<RuleSet, RuleError> {
    let fail = |rule: String, problem: RuleProblem| RuleError { set: id.to_string(), rule, problem };
    let list = match rules {
        Value::List(list) => list.as_slice(),
        Value::Nil => &[],
        other => {
            return Err(fail("its rules".into(), RuleProblem::RulesNotAList(other.type_name())));
        }
    };
    if list.len() > MAX_RULES {
        return Err(fail("its rules".into(), RuleProblem::TooManyRules(list.len())));
    }
    let rules = list
        .iter()
        .enumerate()
        .map(|(index, value)| {
            let given_name = value.get("name").and_then(Value::as_str).map(str::to_owned);
            let label = match &given_name {
                Some(name) => format!("rule {} '{name}'", index + 1),
                None => format!("rule {}", index + 1),
            };
            let name = given_name.unwrap_or_else(|| format!("rule {}", index + 1));
            parse_rule(name, value, known).map_err(|problem| fail(label, problem))
        })
        .collect::<Result<Vec<Rule>, RuleError>>()?;
    let mut matchers: Vec<Matcher> = rules
        .iter()
        .flat_map(|rule| rule.pattern.iter())
        .filter_map(|test| match test {
            CellTest::Is(m) | CellTest::Not(m) => Some(*m),
            CellTest::Any | CellTest::Empty => None,
        })
        .collect();
    matchers.sort_unstable();
    matchers.dedup();
    if matchers.len() > MAX_MATCHERS {
        return Err(fail("its rules".into(), RuleProblem::TooManyMatchers(matchers.len())));
    }
    Ok(RuleSet { id, rules })
}

fn parse_rule(name: String, value: &Value, known: &dyn KnownIds) -> Result<Rule, RuleProblem> {
    let Value::Map(map) = value else {
        return Err(RuleProblem::RuleNotATable(value.type_name()));
    };
    for key in map.keys() {
        let known = matches!(key, Key::Str(k) if RULE_KEYS.contains(&k.as_ref()));
        if !known {
            let key = match key {
                Key::Str(k) => k.to_string(),
                Key::Int(i) => i.to_string(),
            };
            return Err(RuleProblem::UnknownKey { key });
        }
    }
    let legend = legend(value.get("legend"))?;
    let (size, pattern) = pattern(value.get("pattern"), &legend, known)?;
    let flag = |key: &str| match value.get(key) {
        None => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(other) => Err(RuleProblem::FlagNotABool { key: key.to_owned(), type_name: other.type_name() }),
    };
    let chance = match value.get("chance") {
        None => 1.0,
        Some(v) => match v.as_f64() {
            Some(c) if c > 0.0 && c <= 1.0 => c,
            _ => return Err(RuleProblem::Chance),
        },
    };
    let place = value.get("place").map(|place| placement(place, known)).transpose()?;
    let object = value.get("object").map(|object| object_placement(object, known)).transpose()?;
    if place.is_none() && object.is_none() {
        return Err(RuleProblem::PlacesNothing);
    }
    Ok(Rule {
        name,
        size,
        pattern,
        place,
        object,
        chance,
        stop: flag("stop")?,
        mirror_x: flag("mirror_x")?,
        mirror_y: flag("mirror_y")?,
        rotate: flag("rotate")?,
    })
}

fn legend(value: Option<&Value>) -> Result<BTreeMap<String, String>, RuleProblem> {
    let Some(value) = value else { return Ok(BTreeMap::new()) };
    let Value::Map(map) = value else {
        return Err(RuleProblem::LegendNotATable(value.type_name()));
    };
    map.iter()
        .map(|(key, meaning)| match (key, meaning.as_str()) {
            (Key::Str(token), Some(meaning)) if !matches!(token.as_ref(), "*" | "_") => {
                Ok((token.to_string(), meaning.to_owned()))
            }
            (Key::Str(token), Some(_)) => Err(RuleProblem::LegendRedefines(token.to_string())),
            _ => Err(RuleProblem::LegendEntry),
        })
        .collect()
}

fn pattern(
    value: Option<&Value>,
    legend: &BTreeMap<String, String>,
    known: &dyn KnownIds,
) -> Result<(usize, Vec<CellTest>), RuleProblem> {
    let rows: &[Value] = match value {
        Some(Value::List(rows)) => rows.as_slice(),
        Some(row @ Value::Str(_)) => std::slice::from_ref(row),
        None => return Err(RuleProblem::NoPattern),
        Some(other) => return Err(RuleProblem::PatternNotAList(other.type_name())),
    };
    let size = rows.len();
    if size.is_multiple_of(2) || size > MAX_PATTERN_SIZE {
        return Err(RuleProblem::PatternRows(size));
    }
    let mut cells = Vec::with_capacity(size * size);
    for (row_index, row) in rows.iter().enumerate() {
        let Some(row) = row.as_str() else {
            return Err(RuleProblem::RowNotAString(row_index + 1));
        };
        let tokens: Vec<&str> = row.split_whitespace().take(MAX_PATTERN_SIZE + 1).collect();
        if tokens.len() != size {
            return Err(RuleProblem::RowTokens { row: row_index + 1, tokens: tokens.len(), size });
        }
        for token in tokens {
            cells.push(cell_test(token, legend, known)?);
        }
    }
    Ok((size, cells))
}

fn cell_test(token: &str, legend: &BTreeMap<String, String>, known: &dyn KnownIds) -> Result<CellTest, RuleProblem> {
    match token {
        "*" => return Ok(CellTest::Any),
        "_" => return Ok(CellTest::Empty),
        _ => {}
    }
    let (mut negated, bare) = match token.strip_prefix('!') {
        Some(rest) => (true, rest),
        None => (false, token),
    };
    let meaning = legend.get(bare).map_or(bare, String::as_str);
    let meaning = match meaning.strip_prefix('!') {
        Some(rest) => {
            negated = !negated;
            rest
        }
        None => meaning,
    };
    let matcher = match meaning.strip_prefix("tag:") {
        Some(tag) if !tag.is_empty() => Matcher::Tag(Symbol::intern(tag)),
        _ if known.is_tile(meaning) => Matcher::Tile(Symbol::intern(meaning)),
        _ => {
            return Err(RuleProblem::UnknownToken { token: token.to_owned(), meaning: meaning.to_owned() });
        }
    };
    Ok(if negated { CellTest::Not(matcher) } else { CellTest::Is(matcher) })
}

fn placement(value: &Value, known: &dyn KnownIds) -> Result<Placement, RuleProblem> {
    let tile = |id: &str| {
        if known.is_tile(id) { Ok(Symbol::intern(id)) } else { Err(RuleProblem::UnknownTile(id.to_owned())) }
    };
    match value {
        Value::Str(id) => Ok(Placement::Tile(tile(id)?)),
        Value::List(choices) if !choices.is_empty() && choices.len() <= MAX_RULES => {
            let choices = choices
                .iter()
                .map(|choice| match choice {
                    Value::Str(id) => Ok((tile(id)?, 1)),
                    Value::List(pair) => match pair.as_slice() {
                        [Value::Str(id), weight] => Ok((tile(id)?, weight_of(weight)?)),
                        _ => Err(RuleProblem::WeightedChoice),
                    },
                    _ => Err(RuleProblem::Choice),
                })
                .collect::<Result<Vec<_>, RuleProblem>>()?;
            Ok(Placement::OneOf(choices))
        }
        _ => Err(RuleProblem::Place),
    }
}

/// Reads `object = { KIND = "prototype.id" }`.
fn object_placement(value: &Value, known: &dyn KnownIds) -> Result<ObjectPlacement, RuleProblem> {
    let Value::Map(map) = value else { return Err(RuleProblem::Object) };
    let mut entries = map.iter();
    let (Some((Key::Str(kind), Value::Str(id))), None) = (entries.next(), entries.next()) else {
        return Err(RuleProblem::Object);
    };
    let kind = ObjectKind::named(kind).ok_or_else(|| RuleProblem::ObjectKind(kind.to_string()))?;
    if !known.is_object(kind, id) {
        return Err(RuleProblem::UnknownObject { id: id.to_string(), data_type: kind.data_type() });
    }
    Ok(ObjectPlacement { kind, id: Symbol::intern(id) })
}

fn weight_of(value: &Value) -> Result<u32, RuleProblem> {
    value
        .as_i64()
        .and_then(|w| u32::try_from(w).ok())
        .filter(|&w| (1..=1_000_000).contains(&w))
        .ok_or(RuleProblem::Weight)
}
