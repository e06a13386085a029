//! A hash of the whole game state — what a replay compares turn by turn to know it went the
//! same way: the objects a save keeps — on maps, the player, what they hold — (kind,
//! prototype, place, own base values, temp values) and the fields of their prototypes (the
//! base values they do not override), maps (tiles,
//! entrance, what the player remembers), the clock, the turn, the random number generator and
//! every mod's `save` table.
//!
//! It is the same on every run of the same game: FxHash has no random seed, names are hashed
//! as text (not as symbol numbers, which depend on the order names were first seen), and the
//! fields of an object are combined in an order-free way.
//!
//! `pairs` walks a table in the same order on every run because the vendored Lua is built with
//! a fixed string-hash seed (`.cargo/config.toml`). A map keeps the hash of its tiles until they
//! change (`InstancedMap::tiles_hash`, by tiles revision), and its memory keeps a running sum
//! of its cells' hashes (`MapMemory::hash`), so the hash of a turn costs the objects, not the
//! cells.

use std::collections::BTreeMap;
use std::hash::{Hash, Hasher};

use rustc_hash::FxHasher;

use super::World;
use crate::location::Location;
use crate::moddable::{FieldMap, TempValue};
use crate::value::{Key, Value};

fn hash_value(h: &mut FxHasher, value: &Value) {
    match value {
        Value::Nil => 0u8.hash(h),
        Value::Bool(b) => (1u8, b).hash(h),
        Value::Int(i) => (2u8, i).hash(h),
        Value::Float(f) => (3u8, f.to_bits()).hash(h),
        Value::Str(s) => (4u8, &**s).hash(h),
        Value::List(items) => {
            (5u8, items.len()).hash(h);
            for item in items.iter() {
                hash_value(h, item);
            }
        }
        Value::Map(map) => {
            (6u8, map.len()).hash(h);
            for (key, item) in map.iter() {
                match key {
                    Key::Int(i) => (0u8, i).hash(h),
                    Key::Str(s) => (1u8, &**s).hash(h),
                }
                hash_value(h, item);
            }
        }
        Value::Object(uid) => (7u8, uid.0).hash(h),
    }
}

/// The fields' hash, the same whatever order they are stored in.
fn hash_fields<V: crate::moddable::Inline>(fields: &FieldMap<V>, mut value: impl FnMut(&mut FxHasher, &V)) -> u64 {
    fields
        .iter()
        .map(|(name, v)| {
            let mut h = FxHasher::default();
            name.as_str().hash(&mut h);
            value(&mut h, v);
            h.finish()
        })
        .fold(0u64, u64::wrapping_add)
}

fn hash_temp(h: &mut FxHasher, temp: &TempValue) {
    hash_value(h, &temp.value);
    (temp.sources.len(), temp.dropped).hash(h);
    for source in &temp.sources {
        source.method.name().hash(h);
        hash_value(h, &source.value);
    }
}

impl World {
    /// True if `uid` is on a map or is the player, or is held (through inventories and
    /// equipment) by such an object: what a save keeps.
    pub(super) fn in_game(&self, mut uid: crate::object::Uid) -> bool {
        // Holders do not nest deeper than the objects there are; the bound only guards.
        for _ in 0..=self.objects.len() {
            match self.objects.get(&uid).and_then(|o| o.location()) {
                Some(Location::Map(_)) => return true,
                Some(Location::Inventory(owner) | Location::Equipment(owner, _)) => uid = owner,
                None => return self.player == Some(uid),
            }
        }
        false
    }

    /// The hash of the game state with every mod's `save` table (see the module's text).
    /// Two worlds with the same hash are, for a replay's purposes, in the same state.
    pub fn state_hash(&self, save_tables: &BTreeMap<String, Value>) -> u64 {
        let mut h = FxHasher::default();
        (self.turn, self.clock.seconds, self.rng.get_seed(), self.next_uid).hash(&mut h);
        (self.current_map.map(|m| m.0), self.player.map(|p| p.0)).hash(&mut h);
        // Objects in an order-free way too: a loaded game stores them map by map. What their
        // prototypes say is part of their base values: a prototype whose `max_hp` changed
        // makes another game.
        let mut objects = 0u64;
        // The prototypes seen, one bit each (there are few, and most objects share them).
        let mut protos: Vec<u64> = Vec::new();
        for (uid, object) in self.objects.iter() {
            let in_game = match object.location() {
                Some(Location::Map(_)) => true,
                Some(Location::Inventory(owner) | Location::Equipment(owner, _)) => self.in_game(owner),
                None => self.player == Some(*uid),
            };
            if !in_game {
                continue;
            }
            let mut h = FxHasher::default();
            (uid.0, object.kind.data_type(), object.id.as_str(), object.x, object.y).hash(&mut h);
            match object.location() {
                None => 0u8.hash(&mut h),
                Some(Location::Map(map)) => (1u8, map.0).hash(&mut h),
                Some(Location::Inventory(owner)) => (2u8, owner.0).hash(&mut h),
                Some(Location::Equipment(owner, slot)) => (3u8, owner.0, slot.as_str()).hash(&mut h),
            }
            hash_fields(&object.fields.base, hash_value).hash(&mut h);
            hash_fields(&object.fields.temp, hash_temp).hash(&mut h);
            objects = objects.wrapping_add(h.finish());
            let (word, bit) = (object.proto.0 as usize / 64, object.proto.0 % 64);
            if protos.len() <= word {
                protos.resize(word + 1, 0);
            }
            protos[word] |= 1 << bit;
        }
        objects.hash(&mut h);
        let seen = protos.iter().enumerate().flat_map(|(word, bits)| {
            (0..64u32).filter(move |bit| bits & (1 << bit) != 0).map(move |bit| word as u32 * 64 + bit)
        });
        let protos = seen.map(|index| {
            let proto = self.data.proto(crate::data::ProtoIdx(index));
            let mut h = FxHasher::default();
            (proto.id.as_str(), hash_fields(&proto.fields, hash_value)).hash(&mut h);
            h.finish()
        });
        protos.fold(0u64, u64::wrapping_add).hash(&mut h);
        for (id, map) in &self.maps {
            (id.0, &map.name, map.width(), map.height(), map.entrance).hash(&mut h);
            // Cells by their tile's name (palettes are numbered in the order a map was built).
            map.tiles_hash(|map| {
                let mut h = FxHasher::default();
                let tiles: Vec<u64> = map
                    .palette()
                    .iter()
                    .map(|tile| {
                        let mut h = FxHasher::default();
                        tile.as_str().hash(&mut h);
                        h.finish()
                    })
                    .collect();
                for y in 0..map.height() {
                    for x in 0..map.width() {
                        tiles.get(usize::from(map.tile_index(x, y))).hash(&mut h);
                    }
                }
                h.finish()
            })
            .hash(&mut h);
            map.memory.hash().hash(&mut h);
        }
        for (name, table) in save_tables {
            name.hash(&mut h);
            hash_value(&mut h, table);
        }
        h.finish()
    }
}
