//! What a fuzzed game's player does: the [`Action`]s, the weights that choose among them
//! (`--inputs move=20,pickup=3,key:f1=1`), and what a shrink puts in place of one.

use nefia_game::display::{LayerKind, LayerView};

/// One thing the fuzzing player does: a command, or the answer to the menu that waits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// A key, for the top UI layer or the game.
    Key(String),
    /// Entry `0` (from 0) of the top UI layer.
    Choose(usize),
    /// The top UI layer closed without a choice.
    Cancel,
    /// Text typed into the top UI layer.
    Text(String),
    /// A turn passes with the player waiting (the editor's Step).
    Wait,
    /// Back to the start of the previous turn (the editor's Step back).
    StepBack,
    /// Forward one recorded turn after stepping back.
    StepForward,
    /// The game's code stopped at a `pause()`: go on.
    Continue,
}

impl std::fmt::Display for Action {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Action::Key(key) => write!(f, "{key}"),
            Action::Choose(index) => write!(f, "choose #{index}"),
            Action::Cancel => f.write_str("cancel"),
            Action::Text(text) => write!(f, "type {text:?}"),
            Action::Wait => f.write_str("wait"),
            Action::StepBack => f.write_str("step back"),
            Action::StepForward => f.write_str("step forward"),
            Action::Continue => f.write_str("continue"),
        }
    }
}

impl Action {
    /// The simpler actions a shrink tries in this one's place, simplest first: waiting for
    /// any key, the first entry or none for a choice.
    pub fn simpler(&self) -> Vec<Action> {
        match self {
            Action::Wait => Vec::new(),
            Action::Choose(0) => vec![Action::Cancel],
            Action::Choose(_) => vec![Action::Cancel, Action::Choose(0)],
            Action::Cancel | Action::Continue => Vec::new(),
            Action::Key(_) | Action::Text(_) | Action::StepBack | Action::StepForward => vec![Action::Wait],
        }
    }
}

/// A kind of input the fuzzer draws, with the keys it presses for it.
#[derive(Clone, Debug, PartialEq)]
pub struct InputClass {
    /// Its name in `--inputs` (`move`, `key:f1`).
    pub name: String,
    /// How often it is drawn, against the others' weights.
    pub weight: u32,
    what: Draw,
}

/// What drawing a class does.
#[derive(Clone, Debug, PartialEq)]
enum Draw {
    /// Presses one of these keys.
    Keys(Vec<String>),
    /// Waits a turn.
    Wait,
    /// Steps back.
    StepBack,
    /// Steps forward.
    StepForward,
}

/// The classes of input with their default weights and keys: what a player of a roguelike
/// does most (moving), some (waiting, picking up, menus), and now and then (stairs, saving,
/// loading, stepping back and forward). The keys are the usual roguelike ones the demo binds.
const DEFAULT_CLASSES: &[(&str, u32, &[&str])] = &[
    ("move", 24, &["up", "down", "left", "right", "y", "u", "b", "n"]),
    ("wait", 3, &[]),
    ("stairs", 1, &["enter"]),
    ("pickup", 3, &["g"]),
    ("drop", 2, &["d"]),
    ("menu", 3, &["i", "e", "q"]),
    ("save", 1, &["ctrl+s"]),
    ("load", 1, &["ctrl+l"]),
    ("back", 1, &[]),
    ("forward", 1, &[]),
];

/// The classes of input and their weights (see [`Weights::parse`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Weights {
    classes: Vec<InputClass>,
}

impl Default for Weights {
    fn default() -> Weights {
        let classes = DEFAULT_CLASSES
            .iter()
            .map(|(name, weight, keys)| {
                let what = match *name {
                    "wait" => Draw::Wait,
                    "back" => Draw::StepBack,
                    "forward" => Draw::StepForward,
                    _ => Draw::Keys(keys.iter().map(|k| (*k).to_owned()).collect()),
                };
                InputClass { name: (*name).to_owned(), weight: *weight, what }
            })
            .collect();
        Weights { classes }
    }
}

/// The most a weight may be (so their sum fits).
const MAX_WEIGHT: u32 = 1_000_000;

/// An `--inputs` that [`Weights::parse`] refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    /// A pair is not `NAME=WEIGHT`.
    #[error("--inputs '{0}': write NAME=WEIGHT, such as move=20 or key:f1=2")]
    NotAPair(String),
    /// A weight is not a whole number up to [`MAX_WEIGHT`] (the pair).
    #[error("--inputs '{0}': the weight is a whole number from 0 to {MAX_WEIGHT}")]
    Weight(String),
    /// `key:` names no key (the pair).
    #[error("--inputs '{0}': name the key after key:, such as key:f1")]
    NoKey(String),
    /// A name that is no class of input.
    #[error(
        "--inputs: '{0}' is not an input: use one of {known}, or key:KEY for another key",
        known = DEFAULT_CLASSES.iter().map(|(n, _, _)| *n).collect::<Vec<&str>>().join(", ")
    )]
    UnknownInput(String),
    /// Every weight is 0.
    #[error("--inputs: every weight is 0, so there is nothing to play")]
    NothingToPlay,
}

impl Weights {
    /// The defaults changed by `text`: `NAME=WEIGHT` pairs split by commas, where NAME is a
    /// class (`move`, `wait`, `stairs`, `pickup`, `drop`, `menu`, `save`, `load`, `back`,
    /// `forward`; 0 turns it off) or `key:KEY` for a key of the game's own (`key:f1=2`).
    pub fn parse(text: &str) -> Result<Weights, WeightsError> {
        let mut weights = Weights::default();
        for pair in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let Some((name, weight)) = pair.split_once('=') else {
                return Err(WeightsError::NotAPair(pair.to_owned()));
            };
            let name = name.trim();
            let weight = weight
                .trim()
                .parse::<u32>()
                .ok()
                .filter(|w| *w <= MAX_WEIGHT)
                .ok_or_else(|| WeightsError::Weight(pair.to_owned()))?;
            if let Some(key) = name.strip_prefix("key:") {
                if key.is_empty() {
                    return Err(WeightsError::NoKey(pair.to_owned()));
                }
                weights.classes.retain(|c| c.name != name);
                let what = Draw::Keys(vec![key.to_owned()]);
                weights.classes.push(InputClass { name: name.to_owned(), weight, what });
                continue;
            }
            match weights.classes.iter_mut().find(|c| c.name == name) {
                Some(class) => class.weight = weight,
                None => return Err(WeightsError::UnknownInput(name.to_owned())),
            }
        }
        if weights.classes.iter().all(|c| c.weight == 0) {
            return Err(WeightsError::NothingToPlay);
        }
        Ok(weights)
    }

    /// Draws the next action with no UI layer open.
    pub fn draw(&self, rng: &mut fastrand::Rng) -> Action {
        let total: u32 = self.classes.iter().map(|c| c.weight).sum();
        let mut pick = rng.u32(0..total.max(1));
        let class = self.classes.iter().find(|c| {
            if pick < c.weight {
                return true;
            }
            pick -= c.weight;
            false
        });
        match class.map(|c| &c.what) {
            Some(Draw::Keys(keys)) if !keys.is_empty() => Action::Key(keys[rng.usize(0..keys.len())].clone()),
            Some(Draw::StepBack) => Action::StepBack,
            Some(Draw::StepForward) => Action::StepForward,
            _ => Action::Wait,
        }
    }

    /// Draws an answer for the top UI layer `top`: mostly one of its entries, sometimes
    /// closing it, now and then a key as a player pressing around would.
    pub fn answer(&self, top: &LayerView, rng: &mut fastrand::Rng) -> Action {
        let roll = rng.u32(0..100);
        match &top.kind {
            LayerKind::Prompt { choices: entries, .. } | LayerKind::List { items: entries, .. } => match roll {
                0..75 if !entries.is_empty() => Action::Choose(rng.usize(0..entries.len())),
                75..90 => Action::Cancel,
                _ => Action::Key(["up", "down", "enter"][rng.usize(0..3)].to_owned()),
            },
            LayerKind::TextInput { .. } => match roll {
                0..60 => Action::Text(["a", "1", " ", "é"][rng.usize(0..4)].to_owned()),
                60..85 => Action::Key("enter".into()),
                _ => Action::Cancel,
            },
            _ => match roll {
                0..70 => self.draw(rng),
                _ => Action::Cancel,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_change_the_defaults_add_keys_and_refuse_what_is_not_an_input() {
        let weights = Weights::parse("move=0, wait=5, key:f1=2").unwrap();
        let weight = |name: &str| weights.classes.iter().find(|c| c.name == name).map(|c| c.weight);
        assert_eq!(
            (weight("move"), weight("wait"), weight("key:f1"), weight("pickup")),
            (Some(0), Some(5), Some(2), Some(3))
        );
        let mut rng = fastrand::Rng::with_seed(1);
        let drawn: Vec<Action> = (0..500).map(|_| weights.draw(&mut rng)).collect();
        assert!(!drawn.iter().any(|a| matches!(a, Action::Key(k) if k == "up")), "move=0 is never drawn");
        assert!(drawn.contains(&Action::Key("f1".into())));
        for (bad, says) in [
            ("jump=1", "not an input"),
            ("move", "NAME=WEIGHT"),
            ("move=-1", "whole number"),
            ("key:=1", "name the key"),
        ] {
            let error = Weights::parse(bad).unwrap_err().to_string();
            assert!(error.contains(says), "{bad}: {error}");
        }
        let none = "move=0,wait=0,stairs=0,pickup=0,drop=0,menu=0,save=0,load=0,back=0,forward=0";
        assert!(Weights::parse(none).unwrap_err().to_string().contains("nothing to play"));
    }

    #[test]
    fn a_seeded_draw_is_the_same_every_time() {
        let weights = Weights::default();
        let draw = |seed| {
            let mut rng = fastrand::Rng::with_seed(seed);
            (0..50).map(|_| weights.draw(&mut rng)).collect::<Vec<_>>()
        };
        assert_eq!(draw(7), draw(7));
        assert_ne!(draw(7), draw(8));
    }
}
