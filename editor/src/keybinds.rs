//! The player's keys: what each key does in the player window. The actions are the game's
//! keybinds (its `base.keybind` prototypes: their default key, then their alternates) and the
//! window's own (step back, step forward, the Options); the keys are the game's unless the
//! player chose others (`settings.ron`'s `keys`, see [`crate::settings`]).
//!
//! The game keeps its own keybinds: a key the player bound to a game action is sent to the game
//! as that keybind's default key, so the game (and a recording of the session, which replays
//! anywhere) sees the keys it was written for. A default key the player took away from every
//! action does nothing; a key no keybind names goes to the game as it is. While a UI layer (a
//! menu) is open, keys go to it as they are.

use std::collections::BTreeMap;

use nefia_game::Value;
use nefia_protocol::mods::ModsView;

/// A game keybind: its id, what it does and its keys, as the game gives them.
#[derive(Clone, Debug, PartialEq)]
pub struct GameKeybind {
    /// The prototype's id (`elona.north`).
    pub id: String,
    /// What it does ("Move north"); the id if it gives no name.
    pub name: String,
    /// Its default key, then its alternates.
    pub keys: Vec<String>,
}

/// The game's `base.keybind` prototypes, as the game reads them now.
pub fn game_keybinds(mods: &ModsView) -> Vec<GameKeybind> {
    let Some(keybinds) = mods.data.iter().find(|t| t.id.as_str() == "base.keybind") else { return Vec::new() };
    keybinds
        .entries
        .iter()
        .map(|entry| {
            let field = |name: &str| entry.fields.iter().find(|(n, _)| n.as_str() == name).map(|(_, v)| v);
            let mut keys: Vec<String> =
                field("default").and_then(Value::as_str).map(str::to_owned).into_iter().collect();
            if let Some(Value::List(alternates)) = field("default_alternate") {
                keys.extend(alternates.iter().filter_map(Value::as_str).map(str::to_owned));
            }
            let name = match field("name").and_then(Value::as_str) {
                Some(name) if !name.is_empty() => name.to_owned(),
                _ => entry.id.as_str().to_owned(),
            };
            GameKeybind { id: entry.id.as_str().to_owned(), name, keys }
        })
        .collect()
}

/// What an action does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Does {
    /// A game keybind: the game is sent this key (the keybind's default).
    Game(String),
    /// Step back a turn.
    StepBack,
    /// Step forward a turn (after stepping back).
    StepForward,
    /// Open the Options.
    Options,
}

/// An action keys can be bound to.
#[derive(Clone, Debug, PartialEq)]
pub struct Action {
    /// Its id in `settings.ron` (`elona.north`, `nefia.step_back`).
    pub id: String,
    /// What it does, in words.
    pub name: String,
    /// What it does.
    pub does: Does,
    /// The keys it has unless the player chose others.
    pub defaults: Vec<String>,
}

/// The player window's own actions, with the keys they have always had.
fn window_actions() -> Vec<Action> {
    let action = |id: &str, name: &str, does: Does, key: &str| Action {
        id: format!("nefia.{id}"),
        name: name.to_owned(),
        does,
        defaults: vec![key.to_owned()],
    };
    vec![
        action("step_back", "Step back a turn", Does::StepBack, "backspace"),
        action("step_forward", "Step forward a turn", Does::StepForward, "shift+backspace"),
        action("options", "Open the Options", Does::Options, "f10"),
    ]
}

/// Another action already has the key asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Conflict {
    /// The action that has it (an index into [`Keybinds::actions`]).
    pub other: usize,
}

/// What a key pressed while no menu is open does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Pressed {
    /// An action's.
    Action(Does),
    /// Nothing: the player took it away from the action the game gave it to.
    Nothing,
    /// No action has it: it goes to the game as it is.
    Unbound,
}

/// Every action with its keys now.
#[derive(Clone, Debug, PartialEq)]
pub struct Keybinds {
    actions: Vec<Action>,
    /// By action, its keys, the main one first.
    keys: Vec<Vec<String>>,
    /// Keys chosen for actions the game no longer has: kept, so nothing is lost.
    others: BTreeMap<String, Vec<String>>,
}

impl Keybinds {
    /// The game's keybinds in `mods` and the window's actions, with the keys `chosen` gives
    /// (by action id) in place of their defaults.
    pub fn new(mods: &ModsView, chosen: &BTreeMap<String, Vec<String>>) -> Keybinds {
        let game = game_keybinds(mods).into_iter().filter(|k| !k.keys.is_empty()).map(|keybind| Action {
            does: Does::Game(keybind.keys[0].clone()),
            id: keybind.id,
            name: keybind.name,
            defaults: keybind.keys,
        });
        Keybinds::of(game.chain(window_actions()).collect(), chosen)
    }

    /// `actions` with the keys `chosen` gives in place of their defaults.
    fn of(actions: Vec<Action>, chosen: &BTreeMap<String, Vec<String>>) -> Keybinds {
        let keys = actions.iter().map(|a| chosen.get(&a.id).unwrap_or(&a.defaults).clone()).collect();
        let mut others = chosen.clone();
        others.retain(|id, _| !actions.iter().any(|a| &a.id == id));
        Keybinds { actions, keys, others }
    }

    /// The actions, each with its keys now.
    pub fn actions(&self) -> impl Iterator<Item = (&Action, &[String])> {
        self.actions.iter().zip(self.keys.iter().map(Vec::as_slice))
    }

    /// The action `index`.
    pub fn action(&self, index: usize) -> Option<&Action> {
        self.actions.get(index)
    }

    /// The action that has `key`: one whose main key it is first, as the game looks keys up.
    pub fn bound_to(&self, key: &str) -> Option<usize> {
        let has = |slot: &dyn Fn(&[String]) -> bool| self.keys.iter().position(|keys| slot(keys));
        has(&|keys| keys.first().is_some_and(|k| k == key)).or_else(|| has(&|keys| keys.iter().any(|k| k == key)))
    }

    /// Makes `key` action `index`'s main key (the one it replaces is no longer the action's);
    /// refused if another action has it.
    pub fn rebind(&mut self, index: usize, key: &str) -> Result<(), Conflict> {
        match self.bound_to(key) {
            Some(other) if other != index => Err(Conflict { other }),
            _ => {
                let keys = &mut self.keys[index];
                match keys.iter().position(|k| k == key) {
                    Some(at) => keys.swap(0, at),
                    None if keys.is_empty() => keys.push(key.to_owned()),
                    None => keys[0] = key.to_owned(),
                }
                Ok(())
            }
        }
    }

    /// Makes `key` action `index`'s main key, and gives the action that had it the key it
    /// replaces in its place: the two swap.
    pub fn swap(&mut self, index: usize, key: &str) {
        let Some(other) = self.bound_to(key).filter(|&other| other != index) else {
            // No other action has it (any more): a plain rebind.
            let _ = self.rebind(index, key);
            return;
        };
        let replaced = self.keys[index].first().cloned();
        let at = self.keys[other].iter().position(|k| k == key).unwrap_or(0);
        match replaced {
            Some(replaced) => self.keys[other][at] = replaced,
            None => drop(self.keys[other].remove(at)),
        }
        let _ = self.rebind(index, key);
    }

    /// Every action back to its default keys.
    pub fn reset(&mut self) {
        self.keys = self.actions.iter().map(|a| a.defaults.clone()).collect();
    }

    /// The keys to keep in `settings.ron`: those of each action whose keys are not its
    /// defaults (and those kept for actions the game no longer has).
    pub fn chosen(&self) -> BTreeMap<String, Vec<String>> {
        let changed = self.actions().filter(|(action, keys)| *keys != action.defaults.as_slice());
        let mut chosen = self.others.clone();
        chosen.extend(changed.map(|(action, keys)| (action.id.clone(), keys.to_vec())));
        chosen
    }

    /// What `key` (the engine's name for it, as [`crate::keys::key_name`] gives it) does
    /// while no menu is open.
    pub fn pressed(&self, key: &str) -> Pressed {
        match self.bound_to(key) {
            Some(index) => Pressed::Action(self.actions[index].does.clone()),
            None if self.actions.iter().any(|a| a.defaults.iter().any(|k| k == key)) => Pressed::Nothing,
            None => Pressed::Unbound,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keybinds(chosen: &[(&str, &[&str])]) -> Keybinds {
        let game = |id: &str, name: &str, keys: &[&str]| Action {
            id: id.into(),
            name: name.into(),
            does: Does::Game(keys[0].into()),
            defaults: keys.iter().map(|&k| k.to_owned()).collect(),
        };
        let mut actions = vec![
            game("elona.north", "Move north", &["up", "8", "k"]),
            game("elona.west", "Move west", &["left", "4", "h"]),
        ];
        actions.extend(window_actions());
        let chosen: BTreeMap<String, Vec<String>> =
            chosen.iter().map(|(id, keys)| (id.to_string(), keys.iter().map(|&k| k.to_owned()).collect())).collect();
        Keybinds::of(actions, &chosen)
    }

    #[test]
    fn the_defaults_are_todays_keys() {
        let keybinds = keybinds(&[]);
        assert_eq!(keybinds.pressed("up"), Pressed::Action(Does::Game("up".into())));
        assert_eq!(keybinds.pressed("h"), Pressed::Action(Does::Game("left".into())));
        assert_eq!(keybinds.pressed("backspace"), Pressed::Action(Does::StepBack));
        assert_eq!(keybinds.pressed("shift+backspace"), Pressed::Action(Does::StepForward));
        assert_eq!(keybinds.pressed("x"), Pressed::Unbound);
        assert!(keybinds.chosen().is_empty());
    }

    #[test]
    fn a_rebound_key_does_the_action_and_the_old_one_nothing() {
        let mut keybinds = keybinds(&[]);
        keybinds.rebind(0, "w").unwrap();
        assert_eq!(keybinds.pressed("w"), Pressed::Action(Does::Game("up".into())));
        assert_eq!(keybinds.pressed("up"), Pressed::Nothing);
        assert_eq!(keybinds.pressed("8"), Pressed::Action(Does::Game("up".into())), "the alternates stay");
        assert_eq!(keybinds.chosen()["elona.north"], ["w", "8", "k"]);
    }

    #[test]
    fn a_key_another_action_has_is_a_conflict_until_swapped() {
        let mut keybinds = keybinds(&[]);
        assert_eq!(keybinds.rebind(0, "h"), Err(Conflict { other: 1 }));
        assert_eq!(keybinds.pressed("h"), Pressed::Action(Does::Game("left".into())), "nothing changed");
        keybinds.swap(0, "h");
        assert_eq!(keybinds.pressed("h"), Pressed::Action(Does::Game("up".into())));
        assert_eq!(keybinds.pressed("up"), Pressed::Action(Does::Game("left".into())), "west has north's old key");
        keybinds.reset();
        assert!(keybinds.chosen().is_empty());
    }

    #[test]
    fn keys_chosen_for_actions_the_game_lost_are_kept() {
        let keybinds = keybinds(&[("gone.action", &["z"]), ("elona.west", &["a"])]);
        assert_eq!(keybinds.pressed("a"), Pressed::Action(Does::Game("left".into())));
        assert_eq!(keybinds.chosen().len(), 2);
    }
}
