//! Object keys: the identity an object carries in a map file, so that two branches of a
//! project can tell "the same object, edited" from "another object" when their map files
//! are merged (`nefia merge`).
//!
//! Uids cannot serve: they come from one counter per running world, so objects made on two
//! branches would get the same ones. A key is unique within its map file and is never
//! reused for another object:
//! - an object read from a map file keeps the key written there;
//! - an object a session makes is keyed `<session>-<uid>`, where the session prefix is ten
//!   random hex digits chosen when the editor starts (kept in the edit journal, so a
//!   recovered session keys its objects as the crashed one would have);
//! - an object of a file written before keys existed is keyed by its place in the file —
//!   `#3` for the fourth object, `#3/0` for the first item it holds, `#3/body` for what it
//!   wears on the body — so every branch derives the same keys from the same old file.
//!
//! A paste is a new object and gets a new key; a clone too.

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasher, Hasher};

use crate::object_record::ObjectRecord;

/// The prefix of worlds that no editor session keys (tests, the headless tools): fixed, so
/// their output is the same on every run.
pub const FIXED_PREFIX: &str = "new";

/// A fresh random session prefix: ten hex digits (40 bits), so two sessions of a team pick
/// the same one with odds of one in a trillion.
pub fn session_prefix() -> String {
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    hasher.write_u128(nanos);
    hasher.write_u32(std::process::id());
    format!("{:010x}", hasher.finish() & 0xff_ffff_ffff)
}

/// The key a session gives an object it made.
pub fn session_key(prefix: &str, uid: crate::object::Uid) -> String {
    format!("{prefix}-{}", uid.0)
}

/// The key of the object at `index` of a keyless list, under the key of its holder (none
/// for a map's own list).
pub fn positional_key(holder: Option<&str>, index: &str) -> String {
    match holder {
        Some(holder) => format!("{holder}/{index}"),
        None => format!("#{index}"),
    }
}

/// The key each of a map file's objects goes by: its own, or for one without, its place
/// (`#3`), made unique against the keys the file gives (`#3+` if another object is `#3`).
pub fn top_level_keys(objects: &[ObjectRecord]) -> Vec<String> {
    let taken: HashSet<&str> = objects.iter().filter_map(|o| o.key.as_deref()).collect();
    let mut given: HashSet<String> = HashSet::new();
    objects
        .iter()
        .enumerate()
        .map(|(n, object)| match &object.key {
            Some(key) => key.clone(),
            None => {
                let mut key = positional_key(None, &n.to_string());
                while taken.contains(key.as_str()) || given.contains(&key) {
                    key.push('+');
                }
                given.insert(key.clone());
                key
            }
        })
        .collect()
}

/// Gives every record of `objects` (and what each holds) that has no key the key loading
/// the file gives it (see [`top_level_keys`]).
pub fn fill_missing(objects: &mut [ObjectRecord]) {
    let keys = top_level_keys(objects);
    for (record, key) in objects.iter_mut().zip(keys) {
        fill_record(record, key);
    }
}

/// Gives `record` the key `key` if it has none, and what it holds their positional keys
/// under its own.
pub fn fill_record(record: &mut ObjectRecord, key: String) {
    let own = record.key.get_or_insert(key).clone();
    for (n, item) in record.inventory.iter_mut().enumerate() {
        fill_record(item, positional_key(Some(&own), &n.to_string()));
    }
    for (slot, item) in record.equipment.iter_mut() {
        fill_record(item, positional_key(Some(&own), slot.as_str()));
    }
}

/// Calls `f` with every key of `objects` (at any depth, holders first) and the position of
/// the top-level object it is under.
pub fn for_each_key<'a>(objects: &'a [ObjectRecord], mut f: impl FnMut(usize, &'a str)) {
    fn walk<'a>(record: &'a ObjectRecord, top: usize, f: &mut impl FnMut(usize, &'a str)) {
        if let Some(key) = record.key.as_deref() {
            f(top, key);
        }
        for held in record.inventory.iter().chain(record.equipment.values()) {
            walk(held, top, f);
        }
    }
    for (top, record) in objects.iter().enumerate() {
        walk(record, top, &mut f);
    }
}

/// The first key written twice in a map's objects (at any depth), with the positions of the
/// two top-level objects that carry it.
pub fn first_repeat(objects: &[ObjectRecord]) -> Option<(String, usize, usize)> {
    let mut seen: HashMap<&str, usize> = HashMap::new();
    let mut repeat = None;
    for_each_key(objects, |top, key| {
        if repeat.is_some() {
            return;
        }
        match seen.get(key) {
            Some(&first) => repeat = Some((key.to_owned(), first, top)),
            None => {
                seen.insert(key, top);
            }
        }
    });
    repeat
}
