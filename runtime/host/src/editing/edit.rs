//! Edits made in the editor: each [`Edit`] is applied by recording the state it touches
//! before and after as a [`Transaction`] of the undo [`History`] (see [`nefia_game::history`]).
//! Some edits run Lua (a refresh runs its handlers), which is why making a transaction takes
//! the Lua state and undoing one does not. Edits made by scripts are not recorded.

use std::collections::HashSet;
use std::sync::Arc;

use mlua::Lua;

pub use super::edit_error::EditError;
use nefia_game::autotile::{AutotileLayer, Autotiler, Intent};
use nefia_game::edit::Edit;
use nefia_game::field_edit::{FieldChange, FieldEdited, change_field};
use nefia_game::history::{Change, History, Transaction, apply_changes, label_value, paint_label, places};
use nefia_game::location::{Holder, Location};
use nefia_game::map::MapId;
use nefia_game::moddable::Origin;
use nefia_game::object::Uid;
use nefia_game::source_patch::SourcePatch;
use nefia_game::symbol::Symbol;
use nefia_game::value::Value;
use nefia_game::world::{World, WorldError};

/// Applies `edit` and records it in `history`. `lua` runs what the edit triggers (refresh
/// handlers). Returns the entry's label. On error nothing is recorded, and for refusals
/// nothing changed.
pub fn apply(lua: &Lua, history: &mut History, edit: &Edit) -> Result<String, EditError> {
    let entry = make(lua, edit)?;
    let label = entry.label.clone();
    let engine = nefia_lua::engine(lua);
    history.record(&mut engine.world_mut(), entry);
    Ok(label)
}

/// Makes `edit`, returning what it changed.
fn make(lua: &Lua, edit: &Edit) -> Result<Transaction, EditError> {
    let engine = nefia_lua::engine(lua);
    Ok(match edit {
        Edit::SetBase { uids, field, value } => {
            let label = format!("Set {field} = {}", label_value(value));
            field_edit(lua, uids, field, label, FieldChange::Base(value.clone()))?
        }
        Edit::ResetToPrototype { uids, field } => {
            field_edit(lua, uids, field, format!("Reset {field} to the prototype"), FieldChange::ResetToPrototype)?
        }
        Edit::ModTemp { uids, field, value, method } => {
            let label = match value {
                Value::Nil => format!("Remove temp {field}"),
                value => format!("Temp {field} {} {}", method.name(), label_value(value)),
            };
            let change = FieldChange::Temp { value: value.clone(), method: *method, origin: Origin::tool("editor") };
            field_edit(lua, uids, field, label, change)?
        }
        Edit::Refresh { uids } => {
            let temps = |world: &World| -> Vec<Change> {
                uids.iter()
                    .filter_map(|&uid| Some(Change::Temps { uid, temps: world.object(uid).ok()?.fields.temp.clone() }))
                    .collect()
            };
            let before = temps(&engine.world());
            for &uid in uids {
                nefia_lua::object::refresh(lua, uid)?;
            }
            let after = temps(&engine.world());
            Transaction::new(format!("Refresh {}", describe(&engine.world(), uids)), before, after)
        }
        Edit::Move { uids, to, x, y } => {
            let mut world = engine.world_mut();
            for &uid in uids {
                world.can_take_object(*to, uid, *x, *y)?;
            }
            let before = places(&world, uids);
            for &uid in uids {
                world.take_object(*to, uid, *x, *y)?;
            }
            let after = places(&world, uids);
            let label = format!("Move {} to {}", describe(&world, uids), holder_name(&world, *to, *x, *y));
            Transaction::new(label, before, after)
        }
        Edit::Remove { uids } => {
            let mut world = engine.world_mut();
            let before = places(&world, uids);
            for &uid in uids {
                world.remove_ownership(uid)?;
            }
            Transaction::new(format!("Remove {}", describe(&world, uids)), before, places(&world, uids))
        }
        Edit::Clone { uids } => {
            let mut world = engine.world_mut();
            let mut copies = Vec::new();
            for &uid in uids {
                let original = world.object(uid)?;
                let (location, x, y) = (original.location(), original.x, original.y);
                let copy = world.clone_object(uid)?;
                // The copy goes where the original is (an equipped original's copy goes to
                // the wearer's inventory: the slot is taken).
                match location {
                    Some(Location::Map(map)) => world.take_object(Holder::Map(map), copy, x, y)?,
                    Some(Location::Inventory(owner) | Location::Equipment(owner, _)) => {
                        world.take_object(Holder::Object(owner), copy, 0, 0)?
                    }
                    None => {}
                }
                copies.push(copy);
            }
            let before = taken_off(&copies);
            let label = format!("Clone {} as {}", describe(&world, uids), describe(&world, &copies));
            Transaction::new(label, before, places(&world, &copies))
        }
        Edit::Create { kind, id, to, x, y } => {
            let mut world = engine.world_mut();
            let uid = world.create(*kind, id)?;
            // A refused object is left ownerless; the next sweep frees it.
            world.take_object(*to, uid, *x, *y)?;
            let label = format!("Create {}", object_name(&world, uid));
            Transaction::new(label, taken_off(&[uid]), places(&world, &[uid]))
        }
        Edit::PaintTiles { map, cells, tile } => {
            let mut world = engine.world_mut();
            let tile = world.tile_id(tile)?;
            paint(&mut world, *map, cells.iter().copied(), tile)?
        }
        Edit::Fill { map, x, y, tile } => {
            let mut world = engine.world_mut();
            let tile = world.tile_id(tile)?;
            let cells = flood(world.map(*map)?, *x, *y);
            paint(&mut world, *map, cells.into_iter(), tile)?
        }
        Edit::PaintArt { map, layer, cells, tile } => {
            nefia_game::layer_edit::paint_art(&mut engine.world_mut(), *map, layer, cells, tile.as_deref())?
        }
        Edit::ArtLayer { map, edit } => nefia_game::layer_edit::edit_art_layers(&mut engine.world_mut(), *map, edit)?,
        Edit::Regenerate { map } => regenerate(lua, *map)?,
        Edit::BakeAutotile { map } => {
            let mut world = engine.world_mut();
            let instance = world.map(*map)?;
            let Some(layer) = instance.autotile.clone() else {
                return Err(EditError::Refused(format!("map '{}' has no auto-tiling rules to bake", instance.name)));
            };
            let label = format!("Bake the rules {} of map '{}' into its tiles", layer.rule_set, instance.name);
            let (before, after) =
                (Change::Autotile { map: *map, layer: Some(layer) }, Change::Autotile { map: *map, layer: None });
            apply_changes(&mut world, std::slice::from_ref(&after));
            Transaction::new(label, vec![before], vec![after])
        }
        Edit::PrototypeField { data_type, id, field, value } => {
            super::content::prototype_field(lua, data_type, id, field, value.as_ref())?
        }
        Edit::LocaleText { file, key, text } => super::locale::locale_text(lua, file, key, text)?,
        Edit::ApplyToPrototype { uid, field } => apply_to_prototype(lua, *uid, field)?,
        Edit::DuplicatePrototype { data_type, id, new_id, file } => {
            super::lifecycle::duplicate(lua, data_type, id, new_id, file.as_deref())?
        }
        Edit::NewPrototype { data_type, new_id, file } => super::lifecycle::create(lua, data_type, new_id, file)?,
        Edit::DeletePrototype { data_type, id } => super::lifecycle::delete(lua, data_type, id)?,
        Edit::Resolve { map, conflict, side } => {
            nefia_game::conflict::resolve::resolve(&mut engine.world_mut(), *map, *conflict, *side)?
        }
        Edit::Offset { uids, dx, dy } => {
            let mut world = engine.world_mut();
            let mut moves = Vec::new();
            for &uid in uids {
                let object = world.object(uid)?;
                let Some(Location::Map(map)) = object.location() else {
                    return Err(WorldError::NotOnMap(world.describe(uid)).into());
                };
                let (x, y) = (object.x + dx, object.y + dy);
                let instance = world.map(map)?;
                if !instance.in_bounds(x, y) {
                    let (width, height) = (instance.width(), instance.height());
                    return Err(
                        WorldError::from(nefia_game::location::Refusal::OutOfBounds { x, y, width, height }).into()
                    );
                }
                moves.push((uid, x, y));
            }
            let before = places(&world, uids);
            for (uid, x, y) in moves {
                world.set_pos(uid, x, y)?;
            }
            Transaction::new(format!("Move {} by ({dx}, {dy})", describe(&world, uids)), before, places(&world, uids))
        }
        Edit::Paste { map, x, y, clip } => {
            let mut world = engine.world_mut();
            let cells = (0..clip.height).flat_map(|cy| (0..clip.width).map(move |cx| (cx, cy)));
            let pasted = cells.zip(clip.tiles.iter().copied()).map(|((cx, cy), tile)| ((x + cx, y + cy), tile));
            let mut entry = match world.map(*map)?.autotile.clone() {
                // On a map with auto-tiling the clip's tiles are what its cells are meant to be.
                Some(layer) => paint_intent(&mut world, *map, layer, pasted)?.0,
                None => {
                    let mut entry = Transaction::new(String::new(), Vec::new(), Vec::new());
                    let instance = world.map(*map)?;
                    for ((tx, ty), tile) in pasted {
                        if let Some(old) = instance.tile(tx, ty) {
                            entry.before.push(Change::Tile { map: *map, x: tx, y: ty, tile: old });
                            entry.after.push(Change::Tile { map: *map, x: tx, y: ty, tile });
                        }
                    }
                    apply_changes(&mut world, &entry.after);
                    entry
                }
            };
            let mut made = Vec::new();
            for record in &clip.objects {
                let (tx, ty) = (x + record.x, y + record.y);
                if !world.map(*map)?.in_bounds(tx, ty) {
                    continue;
                }
                let uid = world.object_from_record(record)?;
                // A cell that refuses it (a mef where the rules just placed one) keeps what it
                // has, as a cell off the map does: the paste goes on, its steps all recorded.
                if world.take_object(Holder::Map(*map), uid, tx, ty).is_err() {
                    continue;
                }
                made.push(uid);
            }
            entry.before.extend(taken_off(&made));
            entry.after.extend(places(&world, &made));
            entry.label = format!("Paste {}x{} cells and {} objects", clip.width, clip.height, made.len());
            entry
        }
        Edit::Resize { map, width, height, anchor, tile } => {
            resize(&mut engine.world_mut(), *map, *width, *height, *anchor, tile)?
        }
        Edit::Stroke { id, edit } => {
            let mut entry = make(lua, edit)?;
            entry.stroke = Some(*id);
            entry
        }
    })
}

/// Sets `tile` on `cells` of `map`, recording each changed cell.
fn paint(
    world: &mut World,
    map: MapId,
    cells: impl Iterator<Item = (i32, i32)>,
    tile: Symbol,
) -> Result<Transaction, EditError> {
    let instance = world.map(map)?;
    if let Some(layer) = instance.autotile.clone() {
        let rule_set = layer.rule_set;
        let (mut entry, count) = paint_intent(world, map, layer, cells.map(|cell| (cell, tile)))?;
        entry.label = format!("{} (rules {rule_set})", paint_label(count, tile));
        return Ok(entry);
    }
    let mut before = Vec::new();
    let mut after = Vec::new();
    let mut seen = HashSet::new();
    for (x, y) in cells {
        if let Some(old) = instance.tile(x, y)
            && old != tile
            && seen.insert((x, y))
        {
            before.push(Change::Tile { map, x, y, tile: old });
            after.push(Change::Tile { map, x, y, tile });
        }
    }
    apply_changes(world, &after);
    Ok(Transaction::new(paint_label(after.len(), tile), before, after))
}

/// Paints the intent of a map with auto-tiling: each cell's intent becomes its tile, and the
/// rules paint the visible tiles again around the cells that changed. Undo puts back both.
/// Returns the unnamed transaction and how many cells' intent changed.
fn paint_intent(
    world: &mut World,
    map: MapId,
    layer: Arc<AutotileLayer>,
    cells: impl Iterator<Item = ((i32, i32), Symbol)>,
) -> Result<(Transaction, usize), EditError> {
    let mut painted = (*layer).clone();
    let changed: Vec<(i32, i32)> =
        cells.filter(|&((x, y), tile)| painted.intent.set(x, y, Some(tile))).map(|(cell, _)| cell).collect();
    if changed.is_empty() {
        return Ok((Transaction::new(String::new(), Vec::new(), Vec::new()), 0));
    }
    let rules = world.layer_rules(&layer)?;
    let tiler = Autotiler::new(&rules, painted.seed, world.tile_tags());
    let instance = world.map(map)?;
    let mut before = vec![Change::Autotile { map, layer: Some(layer.clone()) }];
    let (mut after, mut objects) = (Vec::new(), Vec::new());
    // Rules that place no objects have none on the map to take back either (a change of the
    // rules repaints whole maps — hotload, apply_autotile — which takes back what they placed):
    // the stroke then passes no cell to the objects' layer.
    let places_objects = tiler.places_objects();
    tiler.paint_around(&painted.intent, &changed, |x, y, placed| {
        if let Some(shown) = placed.tile.or_else(|| painted.intent.get(x, y))
            && let Some(old) = instance.tile(x, y)
            && old != shown
        {
            before.push(Change::Tile { map, x, y, tile: old });
            after.push(Change::Tile { map, x, y, tile: shown });
        }
        if places_objects {
            objects.push(((x, y), placed.object));
        }
    });
    after.insert(0, Change::Autotile { map, layer: Some(Arc::new(painted)) });
    apply_changes(world, &after);
    for object in world.place_rule_objects(map, objects)? {
        let (on_map, off) = (
            Change::Place { uid: object.uid, location: Some(Location::Map(map)), x: object.x, y: object.y },
            Change::Place { uid: object.uid, location: None, x: 0, y: 0 },
        );
        let (was, now) = if object.placed { (off, on_map) } else { (on_map, off) };
        before.push(was);
        after.push(now);
    }
    Ok((Transaction::new(String::new(), before, after), changed.len()))
}

/// The cells joined to (x, y) through sides that are what it is: its intent on a map with
/// auto-tiling, else its tile.
fn flood(map: &nefia_game::map::InstancedMap, x: i32, y: i32) -> Vec<(i32, i32)> {
    match &map.autotile {
        Some(layer) => flood_by(map, x, y, |x, y| layer.intent.get(x, y)),
        None => flood_by(map, x, y, |x, y| map.tile(x, y)),
    }
}

/// The cells of `map` joined to (x, y) through sides whose `kind` is the start's.
fn flood_by<K: PartialEq>(
    map: &nefia_game::map::InstancedMap,
    x: i32,
    y: i32,
    kind: impl Fn(i32, i32) -> K,
) -> Vec<(i32, i32)> {
    if !map.in_bounds(x, y) {
        return Vec::new();
    }
    let target = kind(x, y);
    let width = usize::try_from(map.width()).unwrap_or(0);
    let mut seen = vec![false; width * usize::try_from(map.height()).unwrap_or(0)];
    let index = |x: i32, y: i32| usize::try_from(y).unwrap_or(0) * width + usize::try_from(x).unwrap_or(0);
    let mut stack = vec![(x, y)];
    let mut cells = Vec::new();
    while let Some((cx, cy)) = stack.pop() {
        if !map.in_bounds(cx, cy) || kind(cx, cy) != target || std::mem::replace(&mut seen[index(cx, cy)], true) {
            continue;
        }
        cells.push((cx, cy));
        stack.extend([(cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)]);
    }
    cells
}

/// Changes the size of `map` (see [`Edit::Resize`]).
fn resize(
    world: &mut World,
    map: MapId,
    width: i32,
    height: i32,
    anchor: (i32, i32),
    tile: &str,
) -> Result<Transaction, EditError> {
    nefia_game::map::check_map_size(width.into(), height.into()).map_err(WorldError::MapSize)?;
    let tile = world.tile_id(tile)?;
    let instance = world.map(map)?;
    let (old_width, old_height) = (instance.width(), instance.height());
    let (dx, dy) = ((width - old_width) * anchor.0.clamp(0, 2) / 2, (height - old_height) * anchor.1.clamp(0, 2) / 2);
    let tiles: Vec<Symbol> = (0..height)
        .flat_map(|y| (0..width).map(move |x| (x - dx, y - dy)))
        .map(|(x, y)| instance.tile(x, y).unwrap_or(tile))
        .collect();
    let entrance =
        instance.entrance.map(|(x, y)| (x + dx, y + dy)).filter(|&(x, y)| x >= 0 && y >= 0 && x < width && y < height);
    let objects: Vec<Uid> = instance.objects().iter().collect();
    // The intent moves with the tiles; new cells are meant to be `tile`.
    let layer = instance.autotile.as_ref().map(|layer| {
        let intent = Intent::from_fn(width, height, |x, y| match layer.intent.get(x - dx, y - dy) {
            None if !instance.in_bounds(x - dx, y - dy) => Some(tile),
            kept => kept,
        });
        Arc::new(AutotileLayer { intent, ..(**layer).clone() })
    });
    // The art layers move with the tiles too; new cells are empty.
    let art = instance.art_layers().iter().map(|layer| {
        let cells = Intent::from_fn(width, height, |x, y| layer.cells.get(x - dx, y - dy));
        Arc::new(nefia_game::map::ArtLayer { cells, ..(**layer).clone() })
    });
    let mut before = grid(map, instance).to_vec();
    before.push(Change::ArtLayers { map, layers: instance.art_layers().clone() });
    before.extend(places(world, &objects));
    let mut after = vec![
        Change::Grid { map, width, height, tiles: Arc::new(tiles), entrance },
        Change::Autotile { map, layer },
        Change::ArtLayers { map, layers: art.collect() },
    ];
    for &uid in &objects {
        let object = world.object(uid)?;
        let (x, y) = (object.x + dx, object.y + dy);
        let inside = x >= 0 && y >= 0 && x < width && y < height;
        let location = inside.then_some(Location::Map(map));
        after.push(Change::Place { uid, location, x, y });
    }
    apply_changes(world, &after);
    let label = format!("Resize map '{}' from {old_width}x{old_height} to {width}x{height}", world.map(map)?.name);
    Ok(Transaction::new(label, before, after))
}

/// The whole grid of `instance` and its auto-tiling as changes to map `map`.
fn grid(map: MapId, instance: &nefia_game::map::InstancedMap) -> [Change; 2] {
    [
        Change::Grid {
            map,
            width: instance.width(),
            height: instance.height(),
            tiles: Arc::new(instance.tile_ids()),
            entrance: instance.entrance,
        },
        Change::Autotile { map, layer: instance.autotile.clone() },
    ]
}

/// Makes map `map` again (see [`Edit::Regenerate`]): the generator runs on a fresh map, whose
/// grid and objects then take the place of the map's own.
fn regenerate(lua: &Lua, map: MapId) -> Result<Transaction, EditError> {
    let engine = nefia_lua::engine(lua);
    let (generated, name) = {
        let world = engine.world();
        let instance = world.map(map)?;
        (instance.generated.clone(), instance.name.clone())
    };
    let Some(generated) = generated else {
        return Err(EditError::Refused(format!(
            "map '{name}' was not made by a generator: only maps baked in the workbench can be regenerated"
        )));
    };
    let params = match nefia_lua::convert::to_lua(lua, &generated.params)? {
        mlua::Value::Table(params) => Some(params),
        _ => None,
    };
    let fresh = nefia_lua::mapgen::generate_map(lua, &generated.generator, params, generated.seed)?;
    let mut world = engine.world_mut();
    let (instance, made) = (world.map(map)?, world.map(fresh)?);
    let old: Vec<Uid> = instance.objects().iter().collect();
    let new: Vec<Uid> = made.objects().iter().collect();
    let mut before = grid(map, instance).to_vec();
    before.extend(places(&world, &old));
    before.extend(taken_off(&new));
    let mut after = grid(map, made).to_vec();
    after.extend(taken_off(&old));
    after.extend(places(&world, &new).into_iter().map(|change| match change {
        Change::Place { uid, x, y, .. } => Change::Place { uid, location: Some(Location::Map(map)), x, y },
        other => other,
    }));
    apply_changes(&mut world, &after);
    world.remove_map(fresh)?;
    let label = format!("Regenerate map '{name}' ({} seed {})", generated.generator, generated.seed);
    Ok(Transaction::new(label, before, after))
}

/// Applies a change of one field of several objects (through the rules every edit of a field
/// keeps: [`change_field`]) and records it. A value is checked first against the type the
/// field's data type declares ([`nefia_lua::schema::check_value`]) and the depth every stored
/// value keeps to: nothing changes if one object refuses it.
fn field_edit(
    lua: &Lua,
    uids: &[Uid],
    field: &str,
    label: String,
    change: FieldChange,
) -> Result<Transaction, EditError> {
    let engine = nefia_lua::engine(lua);
    if let FieldChange::Base(value) | FieldChange::Temp { value, .. } = &change {
        checked_value(lua, uids, field, value)?;
    }
    let mut world = engine.world_mut();
    let FieldEdited { before, after } = change_field(&mut world, uids, field, &change)?;
    Ok(Transaction::new(format!("{label} on {}", describe(&world, uids)), before, after))
}

/// Object `uid`'s own value of `field` written to its prototype's source, and dropped from the
/// object: one step (the prototype's edit, then the reset).
fn apply_to_prototype(lua: &Lua, uid: Uid, field: &str) -> Result<Transaction, EditError> {
    let engine = nefia_lua::engine(lua);
    let (data_type, id, own, proto_value, title) = {
        let world = engine.world();
        let object = world.object(uid)?;
        let symbol = Symbol::intern(field);
        let own = object.fields.base.get(symbol).cloned();
        let proto_value = world.data.proto(object.proto).fields.get(symbol).cloned();
        (object.kind.data_type(), object.id, own, proto_value, object_name(&world, uid))
    };
    let Some(own) = own else {
        return Err(EditError::Refused(format!("{title} has no {field} of its own to apply to {id}")));
    };
    let mut applied = match proto_value.as_ref() == Some(&own) {
        // The prototype has it already: only the object's own copy goes.
        true => Transaction::new(String::new(), Vec::new(), Vec::new()),
        false => super::content::prototype_field(lua, data_type, id.as_str(), field, Some(&own))?,
    };
    let reset = field_edit(lua, &[uid], field, String::new(), FieldChange::ResetToPrototype)?;
    applied.before.extend(reset.before);
    applied.after.extend(reset.after);
    applied.label = format!("Apply {field} = {} of {title} to {id}", label_value(&own));
    Ok(applied)
}

/// Content edit `edit` made again by a recovery, its files already holding its result (its
/// patches `sources`, from the journal): its transaction as the edit made it, labelled `label`,
/// with the object's own value dropped again for an "Apply to prototype".
pub(super) fn remade(lua: &Lua, edit: &Edit, label: &str, sources: &[SourcePatch]) -> Result<Transaction, EditError> {
    let Transaction { mut before, mut after, .. } = Transaction::of_patches(label.to_owned(), sources.iter().cloned());
    if let Edit::ApplyToPrototype { uid, field } = edit {
        let reset = field_edit(lua, &[*uid], field, String::new(), FieldChange::ResetToPrototype)?;
        before.extend(reset.before);
        after.extend(reset.after);
    }
    Ok(Transaction::new(label.to_owned(), before, after))
}

/// Refuses `value` for field `field` of any of `uids` whose data type declares another type,
/// or a value nested deeper than a save or map file holds.
fn checked_value(lua: &Lua, uids: &[Uid], field: &str, value: &Value) -> Result<(), EditError> {
    let depth = value.table_depth();
    if depth > nefia_game::value::MAX_TABLE_DEPTH {
        return Err(EditError::Refused(format!(
            "{field}: the value nests tables {depth} deep, more than the {} a stored value may: flatten it",
            nefia_game::value::MAX_TABLE_DEPTH
        )));
    }
    let engine = nefia_lua::engine(lua);
    let kinds: Vec<_> = {
        let world = engine.world();
        uids.iter().filter_map(|&uid| world.object(uid).ok().map(|o| o.kind)).collect()
    };
    for kind in kinds {
        nefia_lua::schema::check_value(lua, kind.data_type(), field, value)
            .map_err(|problem| EditError::Refused(format!("{field} = {value}: {problem}")))?;
    }
    Ok(())
}

/// Objects `uids` in no location: what undoing their creation puts back.
fn taken_off(uids: &[Uid]) -> Vec<Change> {
    uids.iter().map(|&uid| Change::Place { uid, location: None, x: 0, y: 0 }).collect()
}

/// How a history label names `uids`: the one object (see [`object_name`]), or how many.
fn describe(world: &World, uids: &[Uid]) -> String {
    match uids {
        [uid] => object_name(world, *uid),
        uids => format!("{} objects", uids.len()),
    }
}

/// How a history label names object `uid`, as a person reads it: its prototype and uid
/// ("elona.blue_slime (uid 11)"); the Lua form (`<object ('base.chara', uid 11) …>`) is for
/// scripts and links.
fn object_name(world: &World, uid: Uid) -> String {
    match world.object(uid) {
        Ok(object) => format!("{} (uid {uid})", object.id),
        Err(_) => format!("uid {uid}"),
    }
}

fn holder_name(world: &World, holder: Holder, x: i32, y: i32) -> String {
    match holder {
        Holder::Map(map) => {
            format!("{} ({x}, {y})", world.map(map).map(|m| format!("map '{}'", m.name)).unwrap_or_default())
        }
        Holder::Object(uid) => object_name(world, uid),
    }
}
