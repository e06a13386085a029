//! Writing the world down: each object, map and the whole game as records, the live world's
//! objects made into records one at a time as a save is written.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{ArtLayerRecord, AutotileRecord, MapRecord, RecordKind, SAVE_FORMAT, SaveGame, SaveSummary, choose_codes};
use crate::map::{InstancedMap, MapId};
use crate::moddable::FieldMap;
use crate::object::{Object, Uid};
use crate::object_record::{ObjectRecord, ObjectRecords};
use crate::symbol::Symbol;
use crate::value::Value;
use crate::world::{World, WorldError};

/// The objects of a live map as a save writes them: each object's record is made as it is
/// written and dropped after, so a save never holds a record of the whole world (for 100,000
/// characters with an item each, 70 MiB).
pub struct LiveObjects<'a> {
    world: &'a World,
    /// The map's objects in order (see [`World::listed_objects`]).
    entries: Vec<ListedObject<'a>>,
}

/// One object of a map as its record lists it.
enum ListedObject<'a> {
    /// An object of the world.
    Made(Uid),
    /// An object the loaded mods could not make, kept aside by the map.
    KeptAside(&'a ObjectRecord),
}

impl ObjectRecords for LiveObjects<'_> {
    fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

impl Serialize for LiveObjects<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeSeq;
        let mut list = serializer.serialize_seq(Some(self.entries.len()))?;
        for entry in &self.entries {
            match entry {
                ListedObject::Made(uid) => {
                    list.serialize_element(&self.world.object_record(*uid, RecordKind::SaveGame))?
                }
                ListedObject::KeptAside(record) => list.serialize_element(record)?,
            }
        }
        list.end()
    }
}

impl World {
    pub(crate) fn object_record(&self, uid: Uid, kind: RecordKind) -> ObjectRecord {
        let object: &Object = &self.objects[&uid];
        ObjectRecord {
            uid: (kind == RecordKind::SaveGame).then_some(uid),
            key: match kind {
                RecordKind::SaveGame => object.key.as_deref().map(str::to_owned),
                RecordKind::MapFile => Some(
                    object
                        .key
                        .as_deref()
                        .map_or_else(|| crate::object_key::session_key(&self.key_prefix, uid), str::to_owned),
                ),
            },
            kind: object.kind,
            id: object.id,
            x: object.x,
            y: object.y,
            fields: object.fields.base.clone(),
            temp: match kind {
                RecordKind::SaveGame => object.fields.temp.clone(),
                RecordKind::MapFile => FieldMap::new(),
            },
            inventory: object
                .inventory()
                .map(|items| items.map(|i| self.object_record(i, kind)).collect())
                .unwrap_or_default(),
            equipment: object
                .equipment()
                .map(|e| e.iter().map(|(slot, &item)| (slot, self.object_record(item, kind))).collect())
                .unwrap_or_default(),
        }
    }

    /// Writes map `id` as a record. A map file leaves out the player (it is placed when play
    /// starts) and puts back the objects it could not make, where they were.
    pub fn map_record(&self, id: MapId, kind: RecordKind) -> Result<MapRecord, WorldError> {
        let map = self.map(id)?;
        let objects = self.listed_objects(map, kind).into_iter().map(|listed| match listed {
            ListedObject::Made(uid) => self.object_record(uid, kind),
            ListedObject::KeptAside(record) => {
                let mut record = record.clone();
                if kind == RecordKind::MapFile {
                    // Map files give objects no uids (those kept aside hold one for saves).
                    record.visit_mut(&mut |r| r.uid = None);
                }
                record
            }
        });
        Ok(self.map_record_with(id, map, kind, objects.collect()))
    }

    /// Map `id` as a save writes it: its objects' records made one at a time.
    fn live_map_record(&self, id: MapId) -> MapRecord<LiveObjects<'_>> {
        let map = &self.maps[&id];
        let entries = self.listed_objects(map, RecordKind::SaveGame);
        self.map_record_with(id, map, RecordKind::SaveGame, LiveObjects { world: self, entries })
    }

    /// The objects of `map` in the order a record of `kind` lists them: a map file leaves out
    /// the player (it is placed when play starts); the objects the map could not make go back
    /// where they were.
    fn listed_objects<'a>(&self, map: &'a InstancedMap, kind: RecordKind) -> Vec<ListedObject<'a>> {
        let mut listed: Vec<ListedObject> = map
            .objects()
            .iter()
            .filter(|&uid| kind == RecordKind::SaveGame || Some(uid) != self.player)
            .map(ListedObject::Made)
            .collect();
        for unresolved in &map.unresolved {
            listed.insert(unresolved.index.min(listed.len()), ListedObject::KeptAside(&unresolved.record));
        }
        listed
    }

    /// Map `map` (the world's map `id`) as a record of `kind` holding `objects`.
    fn map_record_with<Objects>(
        &self,
        id: MapId,
        map: &InstancedMap,
        kind: RecordKind,
        objects: Objects,
    ) -> MapRecord<Objects> {
        let (palette, tiles) = self.encode_tiles(map);
        // A sparse grid's codes: the map file's first, then the tile's glyph.
        let wish = |tile| map.codes.get(&tile).cloned().or_else(|| self.tile_glyph(tile));
        MapRecord {
            uid: (kind == RecordKind::SaveGame).then_some(id),
            name: map.name.clone(),
            width: map.width(),
            height: map.height(),
            palette,
            tiles,
            entrance: map.entrance,
            objects,
            memory: match kind {
                RecordKind::SaveGame => map.memory.known_cells().map(|(x, y, m)| (x, y, m.clone())).collect(),
                RecordKind::MapFile => Vec::new(),
            },
            generated: map.generated.as_deref().cloned(),
            fields: map.fields.base.clone(),
            temp: match kind {
                RecordKind::SaveGame => map.fields.temp.clone(),
                RecordKind::MapFile => FieldMap::new(),
            },
            conflicts: map.conflicts.to_vec(),
            autotile: map.autotile.as_deref().map(|layer| AutotileRecord::of(layer, &wish)),
            art_layers: map.art_layers().iter().map(|layer| ArtLayerRecord::of(layer, &wish)).collect(),
        }
    }

    fn encode_tiles(&self, map: &InstancedMap) -> (BTreeMap<String, Symbol>, Vec<String>) {
        let mut used = vec![false; map.palette().len()];
        for y in 0..map.height() {
            for x in 0..map.width() {
                used[map.tile_index(x, y) as usize] = true;
            }
        }
        let used_tiles: Vec<usize> = (0..used.len()).filter(|&i| used[i]).collect();
        let tiles: Vec<Symbol> = used_tiles.iter().map(|&i| map.palette()[i]).collect();
        // The code the file had first (so saving does not rewrite the grid), then the tile's
        // glyph, then the first free code.
        let chosen = choose_codes(&tiles, &[&|tile| map.codes.get(&tile).cloned(), &|tile| self.tile_glyph(tile)]);
        let mut codes = vec![String::new(); map.palette().len()];
        for (&index, code) in used_tiles.iter().zip(chosen) {
            codes[index] = code;
        }
        let palette = used_tiles.iter().map(|&i| (codes[i].clone(), map.palette()[i])).collect();
        let rows = (0..map.height())
            .map(|y| (0..map.width()).map(|x| codes[map.tile_index(x, y) as usize].as_str()).collect())
            .collect();
        (palette, rows)
    }

    /// The glyph of tile `tile` (the code map files write its cells with), if it has one.
    pub fn tile_glyph(&self, tile: Symbol) -> Option<String> {
        self.tile_fields(tile)?.get(Symbol::intern("glyph"))?.as_str().map(str::to_owned)
    }

    /// Writes the whole game as a record. `mods` is every mod's `save` table.
    pub fn save_game(&self, mods: BTreeMap<String, Value>) -> SaveGame {
        self.save_game_with(mods, |id| self.map_record(id, RecordKind::SaveGame).expect("live map"))
    }

    /// The whole game as [`write_save`](super::write_save) writes it without a record of it: the same text as
    /// [`World::save_game`]'s, each object's record made as it is written.
    pub fn live_save_game(&self, mods: BTreeMap<String, Value>) -> SaveGame<MapRecord<LiveObjects<'_>>> {
        self.save_game_with(mods, |id| self.live_map_record(id))
    }

    /// The whole game with each map as `map_record` makes it.
    fn save_game_with<Map>(&self, mods: BTreeMap<String, Value>, map_record: impl Fn(MapId) -> Map) -> SaveGame<Map> {
        let player = self.player();
        let ownerless_player = player
            .filter(|&p| self.objects[&p].location.is_none())
            .map(|p| self.object_record(p, RecordKind::SaveGame));
        SaveGame {
            format: SAVE_FORMAT,
            summary: self.save_summary(),
            next_uid: self.next_uid,
            next_map_uid: self.next_map_uid,
            clock: self.clock,
            turn: self.turn,
            rng_seed: self.rng.get_seed(),
            current_map: self.current_map,
            player,
            ownerless_player,
            maps: self.maps.keys().map(|&id| map_record(id)).collect(),
            mods,
            language: None,
        }
    }

    /// The map the player is on and who the player is, for the list of saves.
    fn save_summary(&self) -> Option<SaveSummary> {
        let player = self.player()?;
        let object = self.object(player).ok()?;
        let map = self.current_map.and_then(|m| self.map(m).ok()).map(|m| m.name.clone()).unwrap_or_default();
        let name = match self.calc(player, Symbol::intern("name")) {
            Some(Value::Str(name)) => name.to_string(),
            _ => object.id.to_string(),
        };
        let level = match self.calc(player, Symbol::intern("level")) {
            Some(Value::Int(level)) => Some(*level),
            _ => None,
        };
        Some(SaveSummary { map, player: name, level })
    }
}
