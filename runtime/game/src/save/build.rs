//! Building the world from records: a map file's or a save's maps and objects made, what
//! no loaded mod defines kept aside, and a whole save put in play.

use std::fmt;

use super::{MapRecord, RecordKind, SaveGame};
use crate::location::Location;
use crate::map::{InstancedMap, MapId};
use crate::moddable::Moddable;
use crate::object::Uid;
use crate::object_key::{fill_record, positional_key};
use crate::object_record::{ObjectRecord, UnresolvedObject};
use crate::symbol::Symbol;
use crate::world::{World, WorldError};

impl World {
    /// The ids a map record names that the loaded mods do not define: unknown tiles of its
    /// palette and unknown prototypes of its objects (at any depth), each with a message.
    pub fn unknown_ids(&self, record: &MapRecord) -> Vec<(Symbol, String)> {
        let mut unknown: Vec<(Symbol, String)> = record
            .palette
            .values()
            .filter(|&&tile| !self.tile_flags(tile).known)
            .map(|&tile| (tile, format!("unknown base.map_tile id '{tile}'")))
            .collect();
        for layer in &record.art_layers {
            let unknown_tiles = layer.palette.values().filter(|&&tile| !self.tile_flags(tile).known);
            let named = |&tile| (tile, format!("unknown base.map_tile id '{tile}' in art layer '{}'", layer.name));
            unknown.extend(unknown_tiles.map(named));
        }
        for object in &record.objects {
            self.unknown_in_object(object, &mut unknown);
        }
        unknown
    }

    /// The unknown prototype ids of `object` and of what it holds.
    fn unknown_in_object(&self, object: &ObjectRecord, unknown: &mut Vec<(Symbol, String)>) {
        if self.data.find_symbol(object.kind.data_type_symbol(), object.id).is_err() {
            let (data_type, id, x, y) = (object.kind.data_type(), object.id, object.x, object.y);
            unknown.push((id, format!("unknown {data_type} id '{id}' at ({x}, {y})")));
        }
        for held in object.inventory.iter().chain(object.equipment.values()) {
            self.unknown_in_object(held, unknown);
        }
    }

    /// Builds a map from a record, after [`crate::validate::check_map_record`] found no
    /// problem (on a refusal nothing changes). With [`RecordKind::MapFile`] objects get new
    /// uids; with [`RecordKind::SaveGame`] they keep theirs. Objects whose prototype (or that
    /// of something they hold) the loaded mods do not define are kept aside on the map and
    /// written back where they were.
    pub fn map_from_record(&mut self, record: &MapRecord, kind: RecordKind) -> Result<MapId, WorldError> {
        crate::validate::check_map_record(self, record, kind)?;
        Ok(self.build_map(record, kind))
    }

    /// Builds map record `record` of a save game whose objects carry no uid (they get new
    /// ones), keeping its own uid, temp values and memory, in place of the world's map with
    /// that uid if there is one: `Map.load`. The record must have been checked.
    pub fn map_from_saved(&mut self, record: &MapRecord) -> Result<MapId, WorldError> {
        if let Some(uid) = record.uid
            && self.maps.contains_key(&uid)
        {
            self.remove_map(uid)?;
        }
        let id = self.build_map(record, RecordKind::SaveGame);
        self.next_map_uid = self.next_map_uid.max(id.0 + 1);
        Ok(id)
    }

    /// Builds a checked map record (see [`World::map_from_record`]).
    fn build_map(&mut self, record: &MapRecord, kind: RecordKind) -> MapId {
        let code_width = record.palette.keys().next().map_or(1, |c| c.chars().count());
        let first = *record.palette.values().next().expect("checked: the palette is not empty");
        let mut map = InstancedMap::new(MapId(0), record.width, record.height, first);
        map.name = record.name.clone();
        map.codes = record.palette.iter().map(|(code, &tile)| (tile, code.clone())).collect();
        map.entrance = record.entrance;
        map.generated = record.generated.clone().map(std::sync::Arc::new);
        map.conflicts = std::sync::Arc::new(record.conflicts.clone());
        map.fields = Moddable { base: record.fields.clone(), temp: record.temp.clone() };
        map.autotile = record.autotile.as_ref().map(|a| std::sync::Arc::new(a.layer(record.width, record.height)));
        let art = record.art_layers.iter().map(|a| std::sync::Arc::new(a.layer(record.width, record.height)));
        map.set_art_layers(art.collect());
        for (y, row) in (0..).zip(&record.tiles) {
            let chars: Vec<char> = row.chars().collect();
            for (x, code) in (0..).zip(chars.chunks(code_width)) {
                let code: String = code.iter().collect();
                map.set_tile(x, y, record.palette[&code]);
            }
        }
        for (x, y, memory) in &record.memory {
            map.memory.set(*x, *y, memory.clone());
        }
        let id = match (kind, record.uid) {
            (RecordKind::SaveGame, Some(uid)) => {
                map.uid = uid;
                self.maps.insert(uid, map);
                self.revision += 1;
                uid
            }
            _ => self.insert_map(map),
        };
        // A map file's objects without a key are keyed by their place.
        let keys = match kind {
            RecordKind::MapFile => crate::object_key::top_level_keys(&record.objects),
            RecordKind::SaveGame => Vec::new(),
        };
        for (index, object) in record.objects.iter().enumerate() {
            let mut unknown = Vec::new();
            self.unknown_in_object(object, &mut unknown);
            if let Some((_, problem)) = unknown.into_iter().next() {
                let mut record = object.clone();
                if let Some(key) = keys.get(index) {
                    fill_record(&mut record, key.clone());
                }
                if kind == RecordKind::MapFile {
                    // Its uids are reserved so a save of this world carries it like the rest.
                    record.visit_mut(&mut |r| {
                        r.uid = Some(Uid(self.next_uid));
                        self.next_uid += 1;
                    });
                }
                let unresolved = UnresolvedObject { index, record, problem };
                self.maps.get_mut(&id).expect("just added").unresolved.push(unresolved);
                continue;
            }
            let uid = self.build_object(object, kind, keys.get(index).map(String::as_str));
            self.attach(uid, Location::Map(id), object.x, object.y);
        }
        id
    }

    /// Builds an object (and what it holds) from a record with known prototypes; it is left
    /// ownerless. Its uid must be free (checked for saves). It keeps the record's key, or
    /// takes its positional key from `place` (a keyless map file's object).
    fn build_object(&mut self, record: &ObjectRecord, kind: RecordKind, place: Option<&str>) -> Uid {
        let proto = self
            .data
            .find_symbol(record.kind.data_type_symbol(), record.id)
            .expect("checked: the prototypes are known");
        let uid = match (kind, record.uid) {
            (RecordKind::SaveGame, Some(uid)) => {
                self.spawn(uid, proto);
                uid
            }
            _ => self.create_from(proto),
        };
        let object = self.objects.get_mut(&uid).expect("just made");
        object.fields = Moddable { base: record.fields.clone(), temp: record.temp.clone() };
        object.x = record.x;
        object.y = record.y;
        object.key = record.key.as_deref().or(place).map(Box::from);
        let own = object.key.clone();
        // A held object's key is made only when its holder has one (a save's seldom does).
        let held_place =
            |index: &dyn fmt::Display| own.as_deref().map(|own| positional_key(Some(own), &index.to_string()));
        for (n, item) in record.inventory.iter().enumerate() {
            let item_uid = self.build_object(item, kind, held_place(&n).as_deref());
            self.attach(item_uid, Location::Inventory(uid), 0, 0);
        }
        for (&slot, item) in &record.equipment {
            let item_uid = self.build_object(item, kind, held_place(&slot).as_deref());
            self.attach(item_uid, Location::Equipment(uid, slot), 0, 0);
        }
        uid
    }

    /// Builds an ownerless object (and what it holds) from a record with a new uid and a new
    /// key (it is another object than the one copied): the editor's paste. Unknown
    /// prototypes are refused.
    pub fn object_from_record(&mut self, record: &ObjectRecord) -> Result<Uid, WorldError> {
        let mut record = record.clone();
        record.visit_mut(&mut |r| r.key = None);
        self.object_from_record_keyed(&record)
    }

    /// Builds an ownerless object (and what it holds) from a record with a new uid, keeping
    /// the record's keys: the same object coming back (a merge conflict resolved to the
    /// side that has it). Unknown prototypes are refused.
    pub fn object_from_record_keyed(&mut self, record: &ObjectRecord) -> Result<Uid, WorldError> {
        let mut unknown = Vec::new();
        self.unknown_in_object(record, &mut unknown);
        if let Some((id, _)) = unknown.into_iter().next() {
            let data_type = record.kind.data_type_symbol();
            return Err(self
                .data
                .find_symbol(data_type, id)
                .err()
                .map_or_else(|| WorldError::UnknownHeld { id, holder: record.id }, WorldError::Data));
        }
        Ok(self.build_object(record, RecordKind::MapFile, None))
    }

    /// Replaces the world's game state with `save`, after [`crate::validate::check_save`]
    /// found no problem; on a refusal the world is left as it was. Objects with prototypes
    /// the loaded mods do not define are kept aside on their maps (see
    /// [`InstancedMap::unresolved`]) and written back by the next save; their problems are
    /// returned.
    pub fn load_game(&mut self, save: &SaveGame) -> Result<Vec<String>, WorldError> {
        crate::validate::check_save(self, save)?;
        // Checked, the record builds a world without fail: the old world goes first, so a
        // load never holds two worlds at once.
        let revision = self.revision() + 1;
        let watches = std::mem::take(&mut self.watches);
        let changes = std::mem::take(&mut self.changes);
        let key_prefix = std::mem::take(&mut self.key_prefix);
        *self = World::new(std::mem::take(&mut self.data));
        for map in &save.maps {
            self.build_map(map, RecordKind::SaveGame);
        }
        if let Some(player) = &save.ownerless_player {
            self.build_object(player, RecordKind::SaveGame, None);
        }
        self.next_uid = save.next_uid;
        self.next_map_uid = save.next_map_uid;
        self.clock = save.clock;
        self.turn = save.turn;
        self.rng = fastrand::Rng::with_seed(save.rng_seed);
        self.current_map = save.current_map;
        self.player = save.player;
        self.revision = revision;
        let kept_aside =
            self.maps.values().flat_map(|m| m.unresolved.iter().map(|u| format!("map '{}': {}", m.name, u.problem)));
        let kept_aside = kept_aside.collect();
        self.watches = watches;
        self.changes = changes;
        self.changed_everything();
        self.data.base_changes.notify(crate::base_changes::BaseChange::Every);
        self.key_prefix = key_prefix;
        self.watches_see_now();
        // What the player sees is not saved: it is computed now, not at the first turn (what
        // it remembers stays as saved).
        self.refresh_sight_only();
        Ok(kept_aside)
    }
}
