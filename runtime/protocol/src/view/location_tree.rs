//! The Locations pane's tree: every map with what stands on it, and what each object holds
//! and wears, plus the ownerless objects scripts still hold.

use std::sync::Arc;

use nefia_game::map::MapId;
use nefia_game::object::{ObjectKind, Uid};
use nefia_game::symbol::Symbol;
use nefia_game::value::Value;
use nefia_game::world::World;

/// An object in the Locations tree.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct ObjectRow {
    /// Its uid.
    pub uid: Uid,
    /// Its kind.
    pub kind: ObjectKind,
    /// Its prototype id.
    pub id: Symbol,
    /// Its `name` field, if it has one.
    pub name: Option<Arc<str>>,
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
    /// True if it holds items (a character or a container).
    pub is_location: bool,
    /// What it holds and wears, if anything.
    pub contents: Option<Box<Contents>>,
}

/// What a character or container holds.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, Default, PartialEq, Eq)]
pub struct Contents {
    /// Items in its inventory, in order.
    pub inventory: Vec<ObjectRow>,
    /// Worn items by slot.
    pub equipment: Vec<(Symbol, ObjectRow)>,
}

/// A map in the Locations tree.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct MapNode {
    /// Its id.
    pub id: MapId,
    /// Its name.
    pub name: String,
    /// Its size.
    pub size: (i32, i32),
    /// True for the current map.
    pub current: bool,
    /// Its objects: feats, then items, then characters, each in insertion order.
    pub objects: Arc<Vec<ObjectRow>>,
}

/// The Locations tree: the world's maps with everything on them, and the ownerless objects
/// scripts still hold.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, Default, PartialEq, Eq)]
pub struct LocationTree {
    /// Every map.
    pub maps: Vec<MapNode>,
    /// Ownerless objects kept alive by a script (or being the player).
    pub ownerless: Vec<ObjectRow>,
}

impl LocationTree {
    /// The map and cell where `uid` is seen: its own cell on a map, or the cell of whoever
    /// holds it (through inventories and equipment). None for ownerless objects.
    pub fn cell_of(&self, uid: Uid) -> Option<(MapId, i32, i32)> {
        fn holds(row: &ObjectRow, uid: Uid) -> bool {
            row.uid == uid
                || row.contents.as_ref().is_some_and(|c| {
                    c.inventory.iter().any(|r| holds(r, uid)) || c.equipment.iter().any(|(_, r)| holds(r, uid))
                })
        }
        self.maps
            .iter()
            .find_map(|map| map.objects.iter().find(|row| holds(row, uid)).map(|row| (map.id, row.x, row.y)))
    }
}

/// Builds the Locations tree, reusing a map's rows while its objects have not changed.
#[derive(Default)]
pub struct LocationTreeBuilder {
    maps: Vec<(MapId, u64, Arc<Vec<ObjectRow>>)>,
}

impl LocationTreeBuilder {
    /// The tree of `world`; `held_by_script(uid)` tells which ownerless objects scripts hold.
    pub fn build(&mut self, world: &World, held_by_script: impl Fn(Uid) -> bool) -> LocationTree {
        let mut kept = Vec::new();
        let maps = world
            .maps()
            .map(|map| {
                let revision = map.objects_revision();
                let objects = match self.maps.iter().find(|(id, r, _)| *id == map.uid && *r == revision) {
                    Some((_, _, rows)) => rows.clone(),
                    None => {
                        let mut rows: Vec<ObjectRow> =
                            map.objects().iter().filter_map(|uid| object_row(world, uid)).collect();
                        rows.sort_by_key(|row| row.kind.draw_order());
                        Arc::new(rows)
                    }
                };
                kept.push((map.uid, revision, objects.clone()));
                MapNode {
                    id: map.uid,
                    name: map.name.clone(),
                    size: (map.width(), map.height()),
                    current: world.current_map() == Some(map.uid),
                    objects,
                }
            })
            .collect();
        self.maps = kept;
        let ownerless = world
            .ownerless()
            .filter(|&uid| held_by_script(uid) || world.player() == Some(uid))
            .filter_map(|uid| object_row(world, uid))
            .collect();
        LocationTree { maps, ownerless }
    }
}

fn object_row(world: &World, uid: Uid) -> Option<ObjectRow> {
    let object = world.object(uid).ok()?;
    let name = match world.base(uid, Symbol::intern("name")) {
        Some(Value::Str(name)) => Some(name.clone()),
        _ => None,
    };
    let inventory: Vec<ObjectRow> =
        object.inventory().map(|items| items.filter_map(|i| object_row(world, i)).collect()).unwrap_or_default();
    let equipment: Vec<(Symbol, ObjectRow)> = object
        .equipment()
        .map(|e| {
            e.sorted_by_name().into_iter().filter_map(|(slot, &item)| Some((slot, object_row(world, item)?))).collect()
        })
        .unwrap_or_default();
    let contents =
        (!inventory.is_empty() || !equipment.is_empty()).then(|| Box::new(Contents { inventory, equipment }));
    Some(ObjectRow {
        uid,
        kind: object.kind,
        id: object.id,
        name,
        x: object.x,
        y: object.y,
        is_location: object.inventory().is_some(),
        contents,
    })
}
