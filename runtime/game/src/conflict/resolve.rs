//! Resolving the conflicts a merge left in a map (see [`crate::map_merge`]): the map holds
//! ours' side of each, so picking ours only drops the conflict, and picking theirs puts
//! theirs' tile, object values or map value in its place. One pick is one History entry,
//! undone like any edit.

use std::sync::Arc;

use crate::conflict::{Conflict, Side};
use crate::field_edit::{FieldChange, FieldEdited, change_field};
use crate::history::{Change, Transaction, apply_changes, places};
use crate::location::{Holder, Location};
use crate::map::MapId;
use crate::object::Uid;
use crate::object_record::ObjectRecord;
use crate::symbol::Symbol;
use crate::world::{World, WorldError};

/// Why a conflict could not be resolved as asked.
#[derive(Debug, thiserror::Error)]
pub enum ResolveError {
    /// The world refused (a location refused the object, an object is gone, …).
    #[error(transparent)]
    World(#[from] WorldError),
    /// The pick cannot be made; the text says why and what to do.
    #[error("{0}")]
    Refused(String),
}

/// Picks `side` for conflict `which` of map `map` (its index in the map's list), or for all
/// of them. Theirs' size cannot be picked here: a lone pick of it is refused (resize the map
/// instead), and "all" leaves it listed.
pub fn resolve(world: &mut World, map: MapId, which: Option<usize>, side: Side) -> Result<Transaction, ResolveError> {
    let instance = world.map(map)?;
    let list = instance.conflicts.clone();
    if list.is_empty() {
        return Err(ResolveError::Refused(format!("map '{}' has no conflicts to resolve", instance.name)));
    }
    if let Some(index) = which
        && index >= list.len()
    {
        return Err(ResolveError::Refused(format!(
            "there is no conflict {index}: map '{}' has {}",
            instance.name,
            list.len()
        )));
    }
    let values = |world: &World| -> Result<Change, ResolveError> {
        let instance = world.map(map)?;
        Ok(Change::MapValues {
            map,
            name: instance.name.clone(),
            entrance: instance.entrance,
            generated: instance.generated.clone(),
            fields: instance.fields.base.clone(),
            conflicts: instance.conflicts.clone(),
        })
    };
    // Art layers are recorded whole, once: an art conflict's pick changes them in place.
    let art = |world: &World| -> Result<Change, ResolveError> {
        Ok(Change::ArtLayers { map, layers: world.map(map)?.art_layers().clone() })
    };
    let mut entry = Transaction::new(String::new(), vec![values(world)?, art(world)?], Vec::new());
    let mut left = Vec::new();
    let mut picked = 0;
    for (index, conflict) in list.iter().enumerate() {
        if which.is_some_and(|w| w != index) {
            left.push(conflict.clone());
            continue;
        }
        let taken = match side {
            Side::Theirs => take_theirs(world, map, conflict, which.is_some(), &mut entry),
            Side::Ours => Ok(true),
        };
        match taken {
            Ok(true) => picked += 1,
            Ok(false) => left.push(conflict.clone()),
            Err(error) => {
                // A refused pick changes nothing: what the picks before it changed goes back.
                let undo: Vec<Change> = entry.before.into_iter().rev().collect();
                apply_changes(world, &undo);
                return Err(error);
            }
        }
    }
    let instance = world.map_mut(map)?;
    instance.conflicts = Arc::new(left);
    // What the map file writes changed: it has unsaved changes.
    instance.touch_objects();
    entry.after.push(values(world)?);
    entry.after.push(art(world)?);
    let side_name = match side {
        Side::Ours => "ours",
        Side::Theirs => "theirs",
    };
    entry.label = match which {
        Some(_) => format!("Resolve {} with {side_name}", list[which.unwrap_or(0)]),
        None => format!("Resolve {picked} conflicts with {side_name}"),
    };
    Ok(entry)
}

/// Puts theirs' side of `conflict` in the map, recording what it changed in `entry`; false
/// when it is one "all" leaves (theirs' size).
fn take_theirs(
    world: &mut World,
    map: MapId,
    conflict: &Conflict,
    alone: bool,
    entry: &mut Transaction,
) -> Result<bool, ResolveError> {
    match conflict {
        Conflict::Tile { x, y, theirs, .. } => {
            let tile = world.tile_id(theirs.as_str())?;
            let old = world.map(map)?.tile(*x, *y).ok_or_else(|| {
                ResolveError::Refused(format!(
                    "cell ({x}, {y}) is not on the map any more: pick ours, or resize the map"
                ))
            })?;
            let (before, after) =
                (Change::Tile { map, x: *x, y: *y, tile: old }, Change::Tile { map, x: *x, y: *y, tile });
            apply_changes(world, std::slice::from_ref(&after));
            entry.before.push(before);
            entry.after.push(after);
        }
        Conflict::Object { key, fields, theirs, .. } => take_object(world, map, key, fields, theirs.as_deref(), entry)?,
        Conflict::ArtCell { layer, x, y, theirs, .. } => {
            let refused = |what: &str| ResolveError::Refused(format!("cell ({x}, {y}) of art layer '{layer}' {what}"));
            let instance = world.map_mut(map)?;
            let mut layers = instance.art_layers().clone();
            let painted = layers.iter_mut().find(|l| l.name == *layer).ok_or_else(|| refused("has no layer now"))?;
            if !Arc::make_mut(painted).cells.set(*x, *y, *theirs) && painted.cells.get(*x, *y) != *theirs {
                return Err(refused("is not on the map any more: pick ours, or resize the map"));
            }
            instance.set_art_layers(layers);
        }
        Conflict::Map { field, theirs, .. } if field.starts_with("art_layers.") => {
            take_art_layer(world.map_mut(map)?, &field["art_layers.".len()..], theirs)?
        }
        Conflict::Map { field, theirs, .. } => {
            let refused = |what: &str| ResolveError::Refused(format!("theirs' {field} ({theirs}) {what}"));
            let instance = world.map_mut(map)?;
            match field.as_str() {
                "name" => instance.name = ron::from_str(theirs).map_err(|_| refused("cannot be read"))?,
                "entrance" => {
                    let entrance: Option<(i32, i32)> = ron::from_str(theirs).map_err(|_| refused("cannot be read"))?;
                    if entrance.is_some_and(|(x, y)| !instance.in_bounds(x, y)) {
                        return Err(refused("is outside the map"));
                    }
                    instance.entrance = entrance;
                }
                "generated" => {
                    let generated: Option<crate::map::Generated> =
                        ron::from_str(theirs).map_err(|_| refused("cannot be read"))?;
                    instance.generated = generated.map(Arc::new);
                }
                field if field.starts_with("fields.") => {
                    let name = Symbol::intern(&field["fields.".len()..]);
                    let value: Option<crate::value::Value> =
                        crate::files::ron_options().from_str(theirs).map_err(|_| refused("cannot be read"))?;
                    match value {
                        Some(value) => instance.fields.base.insert(name, value),
                        None => instance.fields.base.remove(name),
                    };
                }
                "size" if alone => return Err(refused("cannot be picked here: resize the map to it (Map ▸ Resize)")),
                "size" => return Ok(false),
                // Edits outside a resize's kept area: there is nothing to put back.
                _ => {}
            }
        }
    }
    Ok(true)
}

/// Puts theirs' value of an art layer's conflict in `map`: `name` is the layer (theirs is the
/// whole layer, or `None` for removed), or `name.place` / `name.offset_px`.
fn take_art_layer(map: &mut crate::map::InstancedMap, field: &str, theirs: &str) -> Result<(), ResolveError> {
    let refused = |what: &str| ResolveError::Refused(format!("theirs' art_layers.{field} ({theirs}) {what}"));
    let mut layers = map.art_layers().clone();
    let (name, part) = match field.rsplit_once('.') {
        Some((name, part @ ("place" | "offset_px"))) => (name, Some(part)),
        _ => (field, None),
    };
    let index = layers.iter().position(|l| l.name == name);
    match (part, index) {
        (Some("place"), Some(i)) => {
            Arc::make_mut(&mut layers[i]).place = ron::from_str(theirs).map_err(|_| refused("cannot be read"))?
        }
        (Some(_), Some(i)) => {
            Arc::make_mut(&mut layers[i]).offset_px = ron::from_str(theirs).map_err(|_| refused("cannot be read"))?
        }
        (Some(_), None) => return Err(refused("is of a layer the map no longer has")),
        (None, _) => {
            let record: Option<crate::save::ArtLayerRecord> =
                ron::from_str(theirs).map_err(|_| refused("cannot be read"))?;
            let layer = match record {
                Some(record) => {
                    let cells =
                        record.cells(map.width(), map.height()).map_err(|e| refused(&format!("does not fit: {e}")))?;
                    Some(Arc::new(crate::map::ArtLayer { cells, ..record.layer(1, 1) }))
                }
                None => None,
            };
            match (index, layer) {
                (Some(i), Some(layer)) => layers[i] = layer,
                (Some(i), None) => drop(layers.remove(i)),
                (None, Some(layer)) => layers.push(layer),
                (None, None) => {}
            }
        }
    }
    map.set_art_layers(layers);
    Ok(())
}

/// The object of map `map` with key `key`.
fn keyed(world: &World, map: MapId, key: &str) -> Result<Option<Uid>, ResolveError> {
    let instance = world.map(map)?;
    Ok(instance.objects().iter().find(|&uid| world.object_key(uid).is_ok_and(|k| k == key)))
}

/// Puts theirs' version of object `key` in the map: made again, removed, or the clashing
/// `fields` set to theirs'.
fn take_object(
    world: &mut World,
    map: MapId,
    key: &str,
    fields: &[String],
    theirs: Option<&ObjectRecord>,
    entry: &mut Transaction,
) -> Result<(), ResolveError> {
    let ours = keyed(world, map, key)?;
    match (ours, theirs) {
        (None, None) => {}
        (Some(uid), None) => {
            entry.before.extend(places(world, &[uid]));
            world.remove_ownership(uid)?;
            entry.after.extend(places(world, &[uid]));
        }
        (None, Some(record)) => {
            let uid = world.object_from_record_keyed(record)?;
            entry.before.push(Change::Place { uid, location: None, x: 0, y: 0 });
            world.take_object(Holder::Map(map), uid, record.x, record.y)?;
            entry.after.extend(places(world, &[uid]));
        }
        (Some(uid), Some(record)) => {
            for field in fields {
                take_field(world, uid, field, record, entry)?;
            }
        }
    }
    Ok(())
}

/// Sets one aspect of object `uid` to theirs' (`record`).
fn take_field(
    world: &mut World,
    uid: Uid,
    field: &str,
    record: &ObjectRecord,
    entry: &mut Transaction,
) -> Result<(), ResolveError> {
    match field {
        "prototype" => {
            let old = world.object(uid)?.proto;
            let proto = world.data.find_symbol(record.kind.data_type_symbol(), record.id).map_err(WorldError::Data)?;
            entry.before.push(Change::Prototype { uid, proto: old });
            entry.after.push(Change::Prototype { uid, proto });
            world.set_prototype(uid, proto)?;
        }
        "position" => {
            entry.before.extend(places(world, &[uid]));
            world.set_pos(uid, record.x, record.y)?;
            entry.after.extend(places(world, &[uid]));
        }
        "inventory" | "equipment" => {
            let object = world.object(uid)?;
            let held: Vec<Uid> = match field {
                "inventory" => object.inventory().map(|items| items.collect()).unwrap_or_default(),
                _ => object.equipment().map(|e| e.iter().map(|(_, &item)| item).collect()).unwrap_or_default(),
            };
            entry.before.extend(places(world, &held));
            for &item in &held {
                world.remove_ownership(item)?;
            }
            entry.after.extend(places(world, &held));
            let mut made = Vec::new();
            if field == "inventory" {
                for item in &record.inventory {
                    let item_uid = world.object_from_record_keyed(item)?;
                    world.attach(item_uid, Location::Inventory(uid), 0, 0);
                    made.push(item_uid);
                }
            } else {
                for (&slot, item) in &record.equipment {
                    let item_uid = world.object_from_record_keyed(item)?;
                    world.attach(item_uid, Location::Equipment(uid, slot), 0, 0);
                    made.push(item_uid);
                }
            }
            entry.before.extend(made.iter().map(|&item| Change::Place { uid: item, location: None, x: 0, y: 0 }));
            entry.after.extend(places(world, &made));
        }
        // Through the rules every edit of a field keeps: a conflict read from a file names
        // the field, and a reserved one is refused.
        name => {
            let change = match record.fields.get(Symbol::intern(name)) {
                Some(theirs) => FieldChange::Base(theirs.clone()),
                None => FieldChange::ResetToPrototype,
            };
            let FieldEdited { before, after } = change_field(world, &[uid], name, &change)?;
            entry.before.extend(before);
            entry.after.extend(after);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::object::ObjectKind;
    use crate::save::RecordKind;
    use crate::value::Value;
    use crate::world::tests::world_with_map;

    #[test]
    fn theirs_reserved_field_is_refused_and_the_picks_before_it_go_back() {
        let (mut world, map) = world_with_map();
        let uid = world.create(ObjectKind::Chara, "t.putit").unwrap();
        world.take_object(Holder::Map(map), uid, 1, 1).unwrap();
        let key = world.object_key(uid).unwrap();
        let mut theirs = world.object_record(uid, RecordKind::MapFile);
        let (hp, uid_field) = (Symbol::intern("hp"), Symbol::intern("uid"));
        theirs.fields.insert(hp, Value::Int(9));
        theirs.fields.insert(uid_field, Value::Int(5));
        let conflict = |field: &str| Conflict::Object {
            key: key.clone(),
            fields: vec![field.to_owned()],
            ours: None,
            theirs: Some(Box::new(theirs.clone())),
        };
        world.map_mut(map).unwrap().conflicts = Arc::new(vec![conflict("hp"), conflict("uid")]);

        let error = resolve(&mut world, map, None, Side::Theirs).unwrap_err().to_string();
        assert!(error.ends_with("'uid' is a reserved field name on map objects."), "{error}");
        assert_eq!(world.base(uid, hp), None, "theirs' hp, picked before, went back");
        assert_eq!(world.object(uid).unwrap().fields.base.get(uid_field), None);
        assert_eq!(world.map(map).unwrap().conflicts.len(), 2, "both are still listed");

        resolve(&mut world, map, Some(0), Side::Theirs).unwrap();
        assert_eq!(world.base(uid, hp), Some(&Value::Int(9)), "a lone pick of a field is taken");
    }
}
