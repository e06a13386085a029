//! The differences between two game states as field paths — what a replay that went another
//! way reports: `uid 7 (elona.putit) hp 5 → 4`, `save.elona.kills 3 → 4`. It compares what
//! [`World::state_hash`] hashes, so two states with different hashes have a difference here
//! (unless the hash collided).

use std::collections::{BTreeMap, BTreeSet};

use super::World;
use crate::object::{Object, Uid};
use crate::value::{Key, Value};

/// Collects differences up to a limit.
struct Differences {
    found: Vec<String>,
    limit: usize,
}

impl Differences {
    fn full(&self) -> bool {
        self.found.len() >= self.limit
    }

    fn add(&mut self, difference: String) {
        if !self.full() {
            self.found.push(difference);
        }
    }

    fn compare<T: PartialEq + std::fmt::Debug>(&mut self, what: &str, a: T, b: T) {
        if a != b {
            self.add(format!("{what} {a:?} → {b:?}"));
        }
    }
}

fn describe(uid: Uid, object: &Object) -> String {
    format!("uid {} ({})", uid.0, object.id)
}

fn place(object: &Object) -> String {
    match object.location() {
        Some(crate::location::Location::Map(map)) => format!("({}, {}) on map {}", object.x, object.y, map.0),
        Some(other) => other.to_string(),
        None => "nowhere".to_owned(),
    }
}

/// `a` and `b` differ at `path`: nested tables are compared key by key.
fn compare_values(out: &mut Differences, path: &str, a: &Value, b: &Value) {
    match (a, b) {
        (Value::Map(x), Value::Map(y)) => {
            let keys: BTreeSet<&Key> = x.keys().chain(y.keys()).collect();
            for key in keys {
                let sub = match key {
                    Key::Str(name) => format!("{path}.{name}"),
                    Key::Int(i) => format!("{path}[{i}]"),
                };
                let (p, q) = (x.get(key).unwrap_or(&Value::Nil), y.get(key).unwrap_or(&Value::Nil));
                compare_values(out, &sub, p, q);
            }
        }
        (Value::List(x), Value::List(y)) if x.len() == y.len() => {
            for (i, (p, q)) in x.iter().zip(y.iter()).enumerate() {
                compare_values(out, &format!("{path}[{}]", i + 1), p, q);
            }
        }
        _ if a != b => out.add(format!("{path} {a} → {b}")),
        _ => {}
    }
}

/// Compares object `uid` of world `wa` with the same object of `wb`; base values are
/// compared as `calc` would read them (own, else the prototype's).
fn compare_objects(out: &mut Differences, uid: Uid, (wa, a): (&World, &Object), (wb, b): (&World, &Object)) {
    let who = describe(uid, a);
    if a.id != b.id {
        out.add(format!("{who} is a {} in one and a {} in the other", a.id, b.id));
        return;
    }
    let (pa, pb) = (place(a), place(b));
    if pa != pb {
        out.add(format!("{who} at {pa} → {pb}"));
    }
    let names: BTreeSet<_> = a.fields.base.iter().chain(b.fields.base.iter()).map(|(name, _)| name).collect();
    for name in names {
        let (x, y) = (wa.base(uid, name), wb.base(uid, name));
        compare_values(out, &format!("{who} {name}"), x.unwrap_or(&Value::Nil), y.unwrap_or(&Value::Nil));
    }
    let names: BTreeSet<_> = a.fields.temp.iter().chain(b.fields.temp.iter()).map(|(name, _)| name).collect();
    for name in names {
        let (x, y) = (a.fields.temp.get(name).map(|t| &t.value), b.fields.temp.get(name).map(|t| &t.value));
        compare_values(out, &format!("{who} temp {name}"), x.unwrap_or(&Value::Nil), y.unwrap_or(&Value::Nil));
    }
}

impl World {
    /// What differs between this state (with its mods' `save` tables) and `other`'s, as
    /// field paths ("uid 7 (elona.putit) hp 5 → 4": this world's value first), at most
    /// `limit` of them, in the order the state hash reads them.
    pub fn differences(
        &self,
        saves: &BTreeMap<String, Value>,
        other: &World,
        other_saves: &BTreeMap<String, Value>,
        limit: usize,
    ) -> Vec<String> {
        let mut out = Differences { found: Vec::new(), limit };
        out.compare("turn", self.turn, other.turn);
        out.compare("clock (seconds)", self.clock.seconds, other.clock.seconds);
        if self.rng.get_seed() != other.rng.get_seed() {
            out.add("the random number generator is at another number (a different count of draws)".into());
        }
        out.compare("next uid", self.next_uid, other.next_uid);
        out.compare("current map", self.current_map.map(|m| m.0), other.current_map.map(|m| m.0));
        out.compare("player uid", self.player.map(|p| p.0), other.player.map(|p| p.0));
        let mine: BTreeMap<Uid, &Object> =
            self.objects.iter().filter(|(uid, _)| self.in_game(**uid)).map(|(u, o)| (*u, o)).collect();
        let theirs: BTreeMap<Uid, &Object> =
            other.objects.iter().filter(|(uid, _)| other.in_game(**uid)).map(|(u, o)| (*u, o)).collect();
        for uid in mine.keys().chain(theirs.keys()).collect::<BTreeSet<_>>() {
            if out.full() {
                break;
            }
            match (mine.get(uid), theirs.get(uid)) {
                (Some(a), Some(b)) => compare_objects(&mut out, *uid, (self, a), (other, b)),
                (Some(a), None) => out.add(format!("{} at {} → out of play", describe(*uid, a), place(a))),
                (None, Some(b)) => out.add(format!("{} out of play → at {}", describe(*uid, b), place(b))),
                (None, None) => {}
            }
        }
        let maps: BTreeSet<_> = self.maps.keys().chain(other.maps.keys()).collect();
        for id in maps {
            match (self.maps.get(id), other.maps.get(id)) {
                (Some(a), Some(b)) => {
                    let what = format!("map {} ({})", id.0, a.name);
                    if (a.width(), a.height()) != (b.width(), b.height()) {
                        out.add(format!("{what} is {}×{} → {}×{}", a.width(), a.height(), b.width(), b.height()));
                        continue;
                    }
                    let mut cells = (0..a.height()).flat_map(|y| (0..a.width()).map(move |x| (x, y)));
                    let differing: Vec<(i32, i32)> =
                        cells.by_ref().filter(|&(x, y)| a.tile(x, y) != b.tile(x, y)).collect();
                    if let Some(&(x, y)) = differing.first() {
                        let (p, q) = (a.tile(x, y), b.tile(x, y));
                        let name = |t: Option<crate::Symbol>| t.map_or("none".to_owned(), |t| t.to_string());
                        out.add(format!(
                            "{what}: {} tiles differ, the first at ({x}, {y}): {} → {}",
                            differing.len(),
                            name(p),
                            name(q)
                        ));
                    }
                    let remembered = |m: &crate::InstancedMap| {
                        m.memory.known_cells().map(|(x, y, c)| ((x, y), c.clone())).collect::<BTreeMap<_, _>>()
                    };
                    let (ma, mb) = (remembered(a), remembered(b));
                    if ma != mb {
                        let cells: BTreeSet<_> =
                            ma.keys().chain(mb.keys()).filter(|k| ma.get(k) != mb.get(k)).collect();
                        out.add(format!("{what}: the player remembers {} cells differently", cells.len()));
                    }
                }
                (Some(a), None) => out.add(format!("map {} ({}) → none", id.0, a.name)),
                (None, Some(b)) => out.add(format!("map {} none → ({})", id.0, b.name)),
                (None, None) => {}
            }
        }
        let names: BTreeSet<&String> = saves.keys().chain(other_saves.keys()).collect();
        for name in names {
            let (x, y) = (saves.get(name).unwrap_or(&Value::Nil), other_saves.get(name).unwrap_or(&Value::Nil));
            compare_values(&mut out, &format!("save.{name}"), x, y);
        }
        out.found
    }
}
