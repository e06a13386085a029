//! Painting: which tile and object the rules give each cell of an intent grid.

use rustc_hash::FxHashMap;

use super::intent::Intent;
use super::{CellTest, Matcher, ObjectPlacement, Placement, RuleSet};
use crate::symbol::Symbol;

/// A pattern cell compiled against the rule set's list of matchers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(super) enum Test {
    /// A tile the matcher of this index takes.
    Is(usize),
    /// Anything that matcher does not take.
    Not(usize),
    /// Outside the map or empty.
    Empty,
}

/// One way a rule's pattern lies over the map: as written, mirrored or turned.
#[derive(Clone, Debug, PartialEq)]
pub(super) struct Variant {
    /// How the pattern was turned or mirrored, for people ("as written", "turned a quarter").
    pub form: String,
    /// The cells looked at, as offsets from the cell painted, the centre first.
    pub tests: Vec<((i32, i32), Test)>,
}

/// A rule set ready to paint: its patterns in every form they match in, its tiles' tags
/// looked up, and the seed its chances and weights are drawn from.
#[derive(Clone, Debug)]
pub struct Autotiler<'a> {
    pub(super) set: &'a RuleSet,
    seed: u64,
    pub(super) matchers: Vec<Matcher>,
    pub(super) variants: Vec<Vec<Variant>>,
    salts: Vec<u64>,
    tags: FxHashMap<Symbol, Vec<Symbol>>,
    radius: i32,
}

/// What the rules give one cell: a tile (`None`: no rule placed one, so the intent shows)
/// and an object (`None`: none).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Painted {
    /// The tile the last matching tile rule placed.
    pub tile: Option<Symbol>,
    /// The object the last matching object rule placed.
    pub object: Option<ObjectPlacement>,
}

/// The bit of a cell's mask that says it is empty or outside the grid.
const EMPTY_BIT: u64 = 1 << 63;

/// A window of an intent grid readied for the rules: each cell's mask of the matchers that
/// take its tile (bit `m` for matcher `m`, [`EMPTY_BIT`] for an empty cell or one outside
/// the grid), padded by the rules' reach so no look from a cell of the window needs a bounds
/// check, and each rule's forms as offsets into it.
pub(super) struct Lookup<'i> {
    pub intent: &'i Intent,
    /// Each palette tile's mask.
    tile_masks: Vec<u64>,
    masks: Vec<u64>,
    /// The window's top-left cell and size.
    origin: (i32, i32),
    size: (i32, i32),
    stride: i64,
    pad: i32,
    /// Per rule, per form: (offset into `masks`, bit, whether the bit must be set).
    compiled: Vec<Vec<Vec<(isize, u64, bool)>>>,
}

impl Lookup<'_> {
    /// The mask of (x, y).
    fn mask(&self, x: i32, y: i32) -> u64 {
        self.intent.index(x, y).map_or(EMPTY_BIT, |tile| self.tile_masks[tile])
    }

    /// Whether (x, y) is a cell of the window (its looks stay in the padded grid).
    fn in_window(&self, x: i32, y: i32) -> bool {
        let (dx, dy) = (x - self.origin.0, y - self.origin.1);
        dx >= 0 && dy >= 0 && dx < self.size.0 && dy < self.size.1
    }

    /// Whether the intent cell at (x, y) passes `test`.
    pub fn passes(&self, x: i32, y: i32, test: Test) -> bool {
        let (bit, set) = test_bit(test);
        (self.mask(x, y) & bit != 0) == set
    }

    /// The first form of rule `rule` that matches the cell at `base` (an index into the
    /// padded grid), if any.
    fn matching_at(&self, rule: usize, base: isize) -> Option<usize> {
        self.compiled[rule].iter().position(|tests| {
            tests
                .iter()
                .all(|&(offset, bit, set)| (self.masks[base.wrapping_add(offset).cast_unsigned()] & bit != 0) == set)
        })
    }

    /// The index of (x, y), a cell of the window, in the padded grid.
    fn base(&self, x: i32, y: i32) -> isize {
        let (px, py) = (i64::from(x - self.origin.0 + self.pad), i64::from(y - self.origin.1 + self.pad));
        isize::try_from(py * self.stride + px).unwrap_or(0)
    }
}

/// The bit a test looks at, and whether it must be set.
fn test_bit(test: Test) -> (u64, bool) {
    match test {
        Test::Empty => (EMPTY_BIT, true),
        Test::Is(m) => (1 << m, true),
        Test::Not(m) => (1 << m, false),
    }
}

impl<'a> Autotiler<'a> {
    /// Readies `set` to paint with `seed`; `tags` gives each tile id's tags (tiles it does
    /// not list have none).
    pub fn new(set: &'a RuleSet, seed: i64, tags: impl IntoIterator<Item = (Symbol, Vec<Symbol>)>) -> Autotiler<'a> {
        let mut matchers: Vec<Matcher> = Vec::new();
        let mut matcher = |m: Matcher| match matchers.iter().position(|&k| k == m) {
            Some(i) => i,
            None => {
                matchers.push(m);
                matchers.len() - 1
            }
        };
        let mut radius = 0;
        let variants = set
            .rules
            .iter()
            .map(|rule| {
                radius = radius.max(i32::try_from(rule.size / 2).unwrap_or(0));
                let written: Vec<((i32, i32), Test)> = rule
                    .cells()
                    .filter_map(|(offset, test)| match test {
                        CellTest::Any => None,
                        CellTest::Is(m) => Some((offset, Test::Is(matcher(m)))),
                        CellTest::Not(m) => Some((offset, Test::Not(matcher(m)))),
                        CellTest::Empty => Some((offset, Test::Empty)),
                    })
                    .collect();
                forms(rule, written)
            })
            .collect();
        let salts = set.rules.iter().map(|rule| hash_str(&rule.name)).collect();
        Autotiler {
            set,
            seed: u64::from_ne_bytes(seed.to_ne_bytes()),
            matchers,
            variants,
            salts,
            tags: tags.into_iter().collect(),
            radius,
        }
    }

    /// Whether any rule places an object (else painting gives every cell none).
    pub fn places_objects(&self) -> bool {
        self.set.rules.iter().any(|rule| rule.object.is_some())
    }

    /// How far from a cell the rules look: a change repaints the cells this close to it.
    pub fn radius(&self) -> i32 {
        self.radius
    }

    /// The whole of `intent` readied for the rules.
    pub(super) fn lookup<'i>(&self, intent: &'i Intent) -> Lookup<'i> {
        self.lookup_window(intent, (0, 0), (intent.width(), intent.height()))
    }

    /// The cells of `intent` from `origin`, `size` across and down, readied for the rules.
    pub(super) fn lookup_window<'i>(&self, intent: &'i Intent, origin: (i32, i32), size: (i32, i32)) -> Lookup<'i> {
        // Each palette tile's mask: the matchers that take it (a set names at most 63).
        let tile_masks: Vec<u64> = intent
            .palette()
            .iter()
            .map(|tile| {
                let tags = self.tags.get(tile);
                self.matchers.iter().enumerate().fold(0, |mask, (m, matcher)| {
                    let takes = match matcher {
                        Matcher::Tile(t) => t == tile,
                        Matcher::Tag(tag) => tags.is_some_and(|tags| tags.contains(tag)),
                    };
                    if takes && m < 63 { mask | 1 << m } else { mask }
                })
            })
            .collect();
        let pad = self.radius;
        let (width, height) = (size.0.max(0) + 2 * pad, size.1.max(0) + 2 * pad);
        let stride = i64::from(width);
        let mut masks = Vec::with_capacity(usize::try_from(i64::from(width) * i64::from(height)).unwrap_or(0));
        for y in origin.1 - pad..origin.1 - pad + height {
            for x in origin.0 - pad..origin.0 - pad + width {
                masks.push(intent.index(x, y).map_or(EMPTY_BIT, |tile| tile_masks[tile]));
            }
        }
        let offset = |(dx, dy): (i32, i32)| isize::try_from(i64::from(dy) * stride + i64::from(dx)).unwrap_or(0);
        let compiled = self
            .variants
            .iter()
            .map(|forms| {
                forms
                    .iter()
                    .map(|form| {
                        form.tests
                            .iter()
                            .map(|&(at, test)| {
                                let (bit, set) = test_bit(test);
                                (offset(at), bit, set)
                            })
                            .collect()
                    })
                    .collect()
            })
            .collect();
        Lookup { intent, tile_masks, masks, origin, size, stride, pad, compiled }
    }

    /// The first form of rule `rule` that matches at (x, y), if any.
    pub(super) fn matching_form(&self, lookup: &Lookup, rule: usize, x: i32, y: i32) -> Option<usize> {
        match lookup.in_window(x, y) {
            true => lookup.matching_at(rule, lookup.base(x, y)),
            false => self.variants[rule]
                .iter()
                .position(|variant| variant.tests.iter().all(|&((dx, dy), test)| lookup.passes(x + dx, y + dy, test))),
        }
    }

    /// Whether rule `rule`'s chance holds at (x, y).
    pub(super) fn chance_holds(&self, rule: usize, x: i32, y: i32) -> bool {
        let chance = self.set.rules[rule].chance;
        chance >= 1.0 || unit(self.roll(rule, x, y, 0)) < chance
    }

    /// The tile rule `rule` places at (x, y) (its weighted pick drawn for that cell; `None`
    /// for a rule placing no tile).
    pub(super) fn placed(&self, rule: usize, x: i32, y: i32) -> Option<Symbol> {
        match self.set.rules[rule].place.as_ref()? {
            Placement::Tile(tile) => Some(*tile),
            Placement::OneOf(choices) => {
                let total: u64 = choices.iter().map(|&(_, w)| u64::from(w)).sum();
                let mut pick = self.roll(rule, x, y, 1) % total.max(1);
                choices.iter().find_map(|&(tile, weight)| {
                    let here = pick < u64::from(weight);
                    pick = pick.saturating_sub(u64::from(weight));
                    here.then_some(tile)
                })
            }
        }
    }

    fn roll(&self, rule: usize, x: i32, y: i32, what: u64) -> u64 {
        let cell = (u64::from(x.unsigned_abs()) << 32 | u64::from(y.unsigned_abs())) ^ u64::from(x < 0) << 63;
        mix(self.seed ^ mix(self.salts[rule] ^ mix(cell ^ mix(what ^ u64::from(y < 0)))))
    }

    /// The tile and object the rules paint at (x, y) of `lookup`'s grid.
    pub(super) fn paint_cell(&self, lookup: &Lookup, x: i32, y: i32) -> Painted {
        let mut painted = Painted::default();
        let base = lookup.base(x, y);
        for (rule, spec) in self.set.rules.iter().enumerate() {
            if lookup.matching_at(rule, base).is_some() && self.chance_holds(rule, x, y) {
                if let Some(tile) = self.placed(rule, x, y) {
                    painted.tile = Some(tile);
                }
                if let Some(object) = spec.object {
                    painted.object = Some(object);
                }
                if spec.stop {
                    break;
                }
            }
        }
        painted
    }

    /// What the rules paint over the whole of `intent`, row by row.
    pub fn paint(&self, intent: &Intent) -> Vec<Painted> {
        let lookup = self.lookup(intent);
        (0..intent.height())
            .flat_map(|y| (0..intent.width()).map(move |x| (x, y)))
            .map(|(x, y)| self.paint_cell(&lookup, x, y))
            .collect()
    }

    /// Paints again only what a change of the cells `changed` can reach (each within
    /// [`Autotiler::radius`]), giving each cell of the grid it repaints to `out` once.
    pub fn paint_around(&self, intent: &Intent, changed: &[(i32, i32)], mut out: impl FnMut(i32, i32, Painted)) {
        let r = self.radius;
        let Some(&(first_x, first_y)) = changed.first() else { return };
        let (mut low, mut high) = ((first_x, first_y), (first_x, first_y));
        for &(x, y) in changed {
            low = (low.0.min(x), low.1.min(y));
            high = (high.0.max(x), high.1.max(y));
        }
        let origin = (low.0 - r, low.1 - r);
        let lookup = self.lookup_window(intent, origin, (high.0 - low.0 + 1 + 2 * r, high.1 - low.1 + 1 + 2 * r));
        let mut cells: Vec<(i32, i32)> = changed
            .iter()
            .flat_map(|&(x, y)| (y - r..=y + r).flat_map(move |cy| (x - r..=x + r).map(move |cx| (cy, cx))))
            .filter(|&(cy, cx)| cx >= 0 && cy >= 0 && cx < intent.width() && cy < intent.height())
            .collect();
        cells.sort_unstable();
        cells.dedup();
        for (y, x) in cells {
            out(x, y, self.paint_cell(&lookup, x, y));
        }
    }
}

/// A rule's pattern in each form it matches in: as written, then mirrored and turned as it
/// allows, without repeats (a symmetric pattern's mirror is itself).
fn forms(rule: &super::Rule, written: Vec<((i32, i32), Test)>) -> Vec<Variant> {
    const TURNS: [&str; 3] = ["turned a quarter", "turned a half", "turned three quarters"];
    let mirrors = [(false, false), (true, false), (false, true), (true, true)]
        .into_iter()
        .filter(|&(x, y)| (!x || rule.mirror_x) && (!y || rule.mirror_y));
    let quarters = if rule.rotate { 0..4 } else { 0..1 };
    let mut variants: Vec<Variant> = Vec::new();
    let mut seen: Vec<Vec<((i32, i32), Test)>> = Vec::new();
    for (mirror_x, mirror_y) in mirrors {
        for quarter in quarters.clone() {
            let place = |(mut x, mut y): (i32, i32)| {
                if mirror_x {
                    x = -x;
                }
                if mirror_y {
                    y = -y;
                }
                for _ in 0..quarter {
                    (x, y) = (-y, x);
                }
                (x, y)
            };
            let mut tests: Vec<((i32, i32), Test)> = written.iter().map(|&(p, test)| (place(p), test)).collect();
            // Nearest first: most rules are told apart by the cell itself.
            tests.sort_by_key(|&((x, y), _)| x.abs() + y.abs());
            let mut key = tests.clone();
            key.sort_unstable();
            if seen.contains(&key) {
                continue;
            }
            seen.push(key);
            let mut parts: Vec<&str> = Vec::new();
            if mirror_x {
                parts.push("mirrored left to right");
            }
            if mirror_y {
                parts.push("mirrored top to bottom");
            }
            if quarter > 0 {
                parts.push(TURNS[quarter - 1]);
            }
            let form = if parts.is_empty() { "as written".to_owned() } else { parts.join(", ") };
            variants.push(Variant { form, tests });
        }
    }
    variants
}

/// A 64-bit mix of `z` (SplitMix64's finaliser): each bit of the input reaches every bit.
fn mix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// A hash of `s` that does not change between runs or builds (FNV-1a).
fn hash_str(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

/// A roll as a number in [0, 1).
fn unit(roll: u64) -> f64 {
    f64::from(u32::try_from(roll >> 32).unwrap_or(0)) / 4_294_967_296.0
}
