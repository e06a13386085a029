//! Writing a map object's field by name from an edit: the Inspector's, the remote protocol's
//! `object.set_base`/`set_temp`, a merge conflict's resolution, a journal's or a recording's
//! replay of those edits, and a debug adapter's `setVariable` on an object's field. This is
//! the one place they go through, so none skips the object rules of the seed: a uid is never
//! changed by hand, `location` is not set directly, and a position changes only through
//! `set_pos`. A name of [`RESERVED_FIELDS`](crate::object::RESERVED_FIELDS) is refused
//! in OpenNefia's words (the same as Lua's `obj.uid = 5`), except a base value of `x` or `y`,
//! which is a move that keeps the map's position index right.

use crate::history::{Change, apply_changes, places};
use crate::moddable::{ModMethod, Origin};
use crate::object::{Uid, reserved_field};
use crate::symbol::Symbol;
use crate::value::Value;
use crate::world::{World, WorldError};

/// What an edit does to a field.
#[derive(Clone, Debug, PartialEq)]
pub enum FieldChange {
    /// Set the base value (nil makes the field nil); of `x` or `y`, move the object there.
    Base(Value),
    /// Forget the object's own base value so the prototype's shows again.
    ResetToPrototype,
    /// Modify the temp value (`mod(field, value, method)`; nil removes it).
    Temp {
        /// The value.
        value: Value,
        /// How it combines with the current value.
        method: ModMethod,
        /// Who made it, shown among the temp value's contributions.
        origin: Origin,
    },
}

/// What an edit of a field changed, as the undo history keeps it: the state it touched
/// before and after.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldEdited {
    /// The state before.
    pub before: Vec<Change>,
    /// The state after.
    pub after: Vec<Change>,
}

/// What a field name means to an edit.
#[derive(Clone, Copy)]
enum Target {
    /// A field of the object's own.
    Field(Symbol),
    /// Its column (`x`) or row (`y`) on its map.
    Position(Axis),
}

/// A coordinate of an object's position.
#[derive(Clone, Copy)]
enum Axis {
    Column(i32),
    Row(i32),
}

/// Makes `change` to field `field` of each object of `uids`, in order. A reserved name is
/// refused ([`WorldError::Reserved`]), and so is a value of `x` or `y` that is no cell of the
/// object's map; on any error what the edit had changed is put back, so nothing changed.
pub fn change_field(
    world: &mut World,
    uids: &[Uid],
    field: &str,
    change: &FieldChange,
) -> Result<FieldEdited, WorldError> {
    let target = target(field, change)?;
    let state = |world: &World| match target {
        Target::Field(field) => fields(world, uids, field),
        Target::Position(_) => places(world, uids),
    };
    let before = state(world);
    for &uid in uids {
        if let Err(error) = change_one(world, uid, target, change) {
            apply_changes(world, &before);
            return Err(error);
        }
    }
    let after = state(world);
    Ok(FieldEdited { before, after })
}

/// What `field` names for `change`: a field, a move, or a refusal.
fn target(field: &str, change: &FieldChange) -> Result<Target, WorldError> {
    let Some(reserved) = reserved_field(field) else { return Ok(Target::Field(Symbol::intern(field))) };
    let (FieldChange::Base(value), "x" | "y") = (change, reserved.name) else { return Err(reserved.into()) };
    let axis = if reserved.name == "x" { "column" } else { "row" };
    let coordinate = match value {
        Value::Int(n) => i32::try_from(*n).ok(),
        _ => None,
    }
    .ok_or_else(|| WorldError::NotACoordinate { field: reserved.name, axis, value: value.to_string() })?;
    Ok(Target::Position(if reserved.name == "x" { Axis::Column(coordinate) } else { Axis::Row(coordinate) }))
}

/// Makes the edit to object `uid`.
fn change_one(world: &mut World, uid: Uid, target: Target, change: &FieldChange) -> Result<(), WorldError> {
    match (target, change) {
        (Target::Position(axis), _) => {
            let object = world.object(uid)?;
            let (x, y) = match axis {
                Axis::Column(x) => (x, object.y),
                Axis::Row(y) => (object.x, y),
            };
            world.set_pos(uid, x, y)
        }
        (Target::Field(field), FieldChange::Base(value)) => world.set_base(uid, field, value.clone()),
        (Target::Field(field), FieldChange::ResetToPrototype) => world.reset_to_prototype(uid, field),
        (Target::Field(field), FieldChange::Temp { value, method, origin }) => {
            world.mod_temp(uid, field, value.clone(), *method, origin.clone())
        }
    }
}

/// Field `field` of each object of `uids`: its own base value and its temp value.
fn fields(world: &World, uids: &[Uid], field: Symbol) -> Vec<Change> {
    uids.iter()
        .filter_map(|&uid| {
            let object = world.object(uid).ok()?;
            let (own, temp) = (object.fields.base.get(field).cloned(), object.fields.temp.get(field).cloned());
            Some(Change::Field { uid, field, own, temp })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::location::{Holder, Location};
    use crate::object::ObjectKind;
    use crate::world::tests::world_with_map;

    fn putit_at(world: &mut World, map: crate::map::MapId, x: i32, y: i32) -> Uid {
        let uid = world.create(ObjectKind::Chara, "t.putit").unwrap();
        world.take_object(Holder::Map(map), uid, x, y).unwrap();
        uid
    }

    #[test]
    fn reserved_names_are_refused_in_opennefias_words_and_nothing_changes() {
        let (mut world, map) = world_with_map();
        let uid = putit_at(&mut world, map, 1, 1);
        let temp = FieldChange::Temp { value: Value::Int(5), method: ModMethod::Set, origin: Origin::tool("t") };
        for field in ["uid", "location", "_id", "_type", "temp", "equip", "proto", "__mt", "__iface"] {
            for change in [FieldChange::Base(Value::Int(5)), FieldChange::ResetToPrototype, temp.clone()] {
                let error = change_field(&mut world, &[uid], field, &change).unwrap_err();
                assert_eq!(error, WorldError::Reserved(reserved_field(field).unwrap()));
                let message = error.to_string();
                assert!(
                    message.ends_with(&format!("; '{field}' is a reserved field name on map objects.")),
                    "{message}"
                );
            }
            assert!(world.object(uid).unwrap().fields.base.get(Symbol::intern(field)).is_none());
        }
        let error = change_field(&mut world, &[uid], "uid", &FieldChange::Base(Value::Int(5))).unwrap_err();
        assert!(error.to_string().starts_with("uids are given by the engine"), "the advice comes first: {error}");
        for field in ["x", "y"] {
            let error = change_field(&mut world, &[uid], field, &temp).unwrap_err();
            assert!(error.to_string().contains("set_pos(x, y)"), "{error}");
        }
        assert_eq!((world.object(uid).unwrap().x, world.object(uid).unwrap().y), (1, 1));
    }

    #[test]
    fn x_and_y_move_the_object_keeping_the_position_index() {
        let (mut world, map) = world_with_map();
        let (a, b) = (putit_at(&mut world, map, 1, 1), putit_at(&mut world, map, 2, 1));
        let edited = change_field(&mut world, &[a, b], "y", &FieldChange::Base(Value::Int(3))).unwrap();
        let on_map = |uid, x| Change::Place { uid, location: Some(Location::Map(map)), x, y: 1 };
        assert_eq!(edited.before, vec![on_map(a, 1), on_map(b, 2)], "the undo history puts them back");
        let instance = world.map(map).unwrap();
        assert_eq!((instance.objects_at(1, 3), instance.objects_at(2, 3)), (&[a][..], &[b][..]));
        assert!(instance.objects_at(1, 1).is_empty() && instance.objects_at(2, 1).is_empty());
        change_field(&mut world, &[a], "x", &FieldChange::Base(Value::Int(0))).unwrap();
        assert_eq!(world.map(map).unwrap().objects_at(0, 3), &[a][..]);
        assert!(world.object(a).unwrap().fields.base.get(Symbol::intern("x")).is_none(), "no field named x");

        // One refused object puts back those moved before it.
        let outside = change_field(&mut world, &[b, a], "x", &FieldChange::Base(Value::Int(4))).unwrap_err();
        assert!(outside.to_string().contains("outside the 4x4 map"), "{outside}");
        assert_eq!(world.map(map).unwrap().objects_at(2, 3), &[b][..], "b went back");
        for value in [Value::Str("far".into()), Value::Nil, Value::Float(1.5), Value::Int(i64::MAX)] {
            let error = change_field(&mut world, &[a], "x", &FieldChange::Base(value.clone())).unwrap_err();
            assert!(matches!(error, WorldError::NotACoordinate { field: "x", axis: "column", .. }), "{value}: {error}");
        }
    }

    #[test]
    fn other_fields_are_set_reset_and_modded_as_base_and_temp_values() {
        let (mut world, map) = world_with_map();
        let uid = putit_at(&mut world, map, 1, 1);
        let hp = Symbol::intern("hp");
        let edited = change_field(&mut world, &[uid], "hp", &FieldChange::Base(Value::Int(7))).unwrap();
        assert_eq!(edited.after, vec![Change::Field { uid, field: hp, own: Some(Value::Int(7)), temp: None }]);
        let temp = FieldChange::Temp { value: Value::Int(2), method: ModMethod::Add, origin: Origin::tool("t") };
        change_field(&mut world, &[uid], "hp", &temp).unwrap();
        assert_eq!(world.calc(uid, hp), Some(&Value::Int(9)));
        change_field(&mut world, &[uid], "hp", &FieldChange::ResetToPrototype).unwrap();
        assert_eq!(world.base(uid, hp), None);
    }
}
