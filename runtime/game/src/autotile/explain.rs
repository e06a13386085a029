//! "Why is this tile here?": the rule that painted a cell, the rules that matched and lost,
//! and the rules that missed by one neighbour.

use serde::{Deserialize, Serialize};

use super::intent::Intent;
use super::paint::Autotiler;
use super::paint::{Lookup, Test};

/// Why the rules gave a cell its tile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Explanation {
    /// The rule set laid on the map.
    pub rule_set: String,
    /// Where the rule set is declared (`file:line`), when it is known.
    pub declared_at: Option<crate::moddable::Origin>,
    /// The cell.
    pub x: i32,
    /// The cell.
    pub y: i32,
    /// Its intent tile (`None`: empty).
    pub intent: Option<String>,
    /// The tile the rules painted (`None`: no rule did, so the intent shows).
    pub tile: Option<String>,
    /// The rule that painted it.
    pub winner: Option<RuleMatch>,
    /// The object the rules place on the cell ("feat elona.torch"), if any.
    #[serde(default)]
    pub object: Option<String>,
    /// The rule that placed it.
    #[serde(default)]
    pub object_winner: Option<RuleMatch>,
    /// The rules that matched too but gave the cell neither its tile nor its object.
    pub lost: Vec<Lost>,
    /// The rules that failed by one cell of their pattern, that cell marked.
    pub near_misses: Vec<RuleMatch>,
    /// The intent of the cells as far around as the rules look, row by row from (-r, -r)
    /// to (r, r) (`None`: empty or outside the map): what the patterns are laid over.
    pub around: Vec<Option<String>>,
}

/// A rule laid over the cell's neighbourhood in one form, each pattern cell judged.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RuleMatch {
    /// Its place in the rule set (0 runs first).
    pub rule: usize,
    /// Its name.
    pub name: String,
    /// How its pattern lay: "as written", "mirrored left to right", "turned a quarter"…
    pub form: String,
    /// The line of its source where it is written, when known.
    #[serde(default)]
    pub line: Option<u32>,
    /// The cells it looked at.
    pub cells: Vec<PatternCell>,
}

/// One looked-at cell of a pattern, where it lies over the map.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PatternCell {
    /// Offset from the explained cell, across.
    pub dx: i32,
    /// Offset from the explained cell, down.
    pub dy: i32,
    /// What it asks for ("tag:wall", "not elona.water", "empty").
    pub wants: String,
    /// Whether the map's intent there gives it.
    pub matched: bool,
}

/// A rule that matched the cell and did not give its tile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Lost {
    /// Its place in the rule set.
    pub rule: usize,
    /// Its name.
    pub name: String,
    /// The line of its source where it is written, when known.
    #[serde(default)]
    pub line: Option<u32>,
    /// Why.
    pub reason: LostReason,
}

/// Why a matching rule did not give the tile.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LostReason {
    /// A later rule matched and painted over it (its tile, or its object).
    PaintedOver {
        /// That rule's name.
        by: String,
    },
    /// An earlier rule marked `stop` matched, so it was skipped.
    Stopped {
        /// That rule's name.
        by: String,
    },
    /// Its chance did not come up on this cell.
    Chance {
        /// Its chance.
        chance: f64,
    },
}

impl Explanation {
    /// Gives each rule named in the explanation its line: `lines[n]` is where rule `n` of the
    /// set is written (read from the set's source, item by item of its `rules`).
    pub fn with_rule_lines(mut self, lines: &[u32]) -> Explanation {
        let line_of = |rule: usize| lines.get(rule).copied();
        for laid in self.winner.iter_mut().chain(self.object_winner.iter_mut()).chain(self.near_misses.iter_mut()) {
            laid.line = line_of(laid.rule);
        }
        for lost in &mut self.lost {
            lost.line = line_of(lost.rule);
        }
        self
    }
}

impl Autotiler<'_> {
    /// Why the cell (x, y) of `intent` gets the tile and object [`Autotiler::paint`] gives it.
    pub fn explain(&self, intent: &Intent, x: i32, y: i32) -> Explanation {
        let lookup = self.lookup_window(intent, (x, y), (1, 1));
        let rules = &self.set.rules;
        // The rule (and its form) giving the cell its tile, and its object, so far.
        let mut winner: Option<(usize, usize)> = None;
        let mut object_winner: Option<(usize, usize)> = None;
        let mut stopped_by: Option<usize> = None;
        let (mut lost, mut near_misses) = (Vec::new(), Vec::new());
        let mut lose =
            |rule: usize, reason| lost.push(Lost { rule, name: rules[rule].name.clone(), line: None, reason });
        for rule in 0..rules.len() {
            let Some(form) = self.matching_form(&lookup, rule, x, y) else {
                if let Some(miss) = self.near_miss(&lookup, rule, x, y) {
                    near_misses.push(miss);
                }
                continue;
            };
            if let Some(by) = stopped_by {
                lose(rule, LostReason::Stopped { by: rules[by].name.clone() });
            } else if !self.chance_holds(rule, x, y) {
                lose(rule, LostReason::Chance { chance: rules[rule].chance });
            } else {
                let mut taken = Vec::new();
                if rules[rule].place.is_some() {
                    taken.extend(winner.replace((rule, form)).map(|(earlier, _)| earlier));
                }
                if rules[rule].object.is_some() {
                    taken.extend(object_winner.replace((rule, form)).map(|(earlier, _)| earlier));
                }
                // A rule is lost once a later one has taken all it gave the cell.
                let winning =
                    |r: usize| winner.is_some_and(|(w, _)| w == r) || object_winner.is_some_and(|(w, _)| w == r);
                taken.dedup();
                for earlier in taken.into_iter().filter(|&earlier| !winning(earlier)) {
                    lose(earlier, LostReason::PaintedOver { by: rules[rule].name.clone() });
                }
                if rules[rule].stop {
                    stopped_by = Some(rule);
                }
            }
        }
        Explanation {
            rule_set: self.set.id.to_string(),
            declared_at: None,
            x,
            y,
            intent: intent.get(x, y).map(|t| t.to_string()),
            tile: winner.and_then(|(rule, _)| self.placed(rule, x, y)).map(|t| t.to_string()),
            winner: winner.map(|(rule, form)| self.laid(&lookup, rule, form, x, y)),
            object: object_winner.and_then(|(rule, _)| rules[rule].object).map(|o| o.to_string()),
            object_winner: object_winner.map(|(rule, form)| self.laid(&lookup, rule, form, x, y)),
            lost,
            near_misses,
            around: {
                let r = self.radius();
                (y - r..=y + r)
                    .flat_map(|cy| (x - r..=x + r).map(move |cx| (cx, cy)))
                    .map(|(cx, cy)| intent.get(cx, cy).map(|t| t.to_string()))
                    .collect()
            },
        }
    }

    /// Rule `rule` in form `form` laid over (x, y), each cell judged.
    fn laid(&self, lookup: &Lookup, rule: usize, form: usize, x: i32, y: i32) -> RuleMatch {
        let variant = &self.variants[rule][form];
        let cells = variant
            .tests
            .iter()
            .map(|&((dx, dy), test)| PatternCell {
                dx,
                dy,
                wants: match test {
                    Test::Is(m) => self.matchers[m].to_string(),
                    Test::Not(m) => format!("not {}", self.matchers[m]),
                    Test::Empty => "empty".into(),
                },
                matched: lookup.passes(x + dx, y + dy, test),
            })
            .collect();
        RuleMatch { rule, name: self.set.rules[rule].name.clone(), form: variant.form.clone(), line: None, cells }
    }

    /// Rule `rule` laid in the form that fails on exactly one cell at (x, y), if one does.
    fn near_miss(&self, lookup: &Lookup, rule: usize, x: i32, y: i32) -> Option<RuleMatch> {
        let fails = |tests: &[((i32, i32), Test)]| {
            tests.iter().filter(|&&((dx, dy), t)| !lookup.passes(x + dx, y + dy, t)).count()
        };
        let form = self.variants[rule].iter().position(|v| fails(&v.tests) == 1)?;
        Some(self.laid(lookup, rule, form, x, y))
    }
}
