//! An object as the inspector shows it: each field's base, temp and calculated values.

use nefia_game::map::MapId;
use nefia_game::moddable::TempValue;
use nefia_game::object::{ObjectKind, Uid};
use nefia_game::symbol::Symbol;
use nefia_game::value::Value;
use nefia_game::world::World;

/// One row of the inspector: a field's base, temp and calculated values.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct FieldRow {
    /// The field.
    pub name: String,
    /// Its base value (own or the prototype's).
    pub base: Option<Value>,
    /// True if the base value is the object's own (it differs from the prototype).
    pub own: bool,
    /// Its temp value with provenance, if any.
    pub temp: Option<TempValue>,
    /// What `calc` gives.
    pub calc: Option<Value>,
}

/// An object as the inspector shows it.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct ObjectDetails {
    /// Its uid.
    pub uid: Uid,
    /// How scripts print it.
    pub title: String,
    /// Its data type.
    pub kind: ObjectKind,
    /// Its prototype id.
    pub id: Symbol,
    /// Where it is, in words.
    pub location: String,
    /// The map it is on directly, if any.
    pub map: Option<MapId>,
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
    /// Its fields by name.
    pub fields: Vec<FieldRow>,
    /// The event handlers it has of its own (its prototype's `events` and those connected
    /// with `connect_self`), as `event · name (priority n) at file:line`.
    pub own_handlers: Vec<String>,
}

/// The inspector's view of object `uid`: every field of its prototype, its own base values
/// and its temp values, sorted by name.
pub fn object_details(world: &World, uid: Uid) -> Option<ObjectDetails> {
    let object = world.object(uid).ok()?;
    let proto = &world.data.proto(object.proto).fields;
    let fields = world
        .field_names(uid)
        .ok()?
        .into_iter()
        .map(|name| FieldRow {
            name: name.as_str().to_owned(),
            base: object.fields.base(name, proto).cloned(),
            own: object.fields.base.get(name).is_some(),
            temp: object.fields.temp.get(name).cloned(),
            calc: object.fields.calc(name, proto).cloned(),
        })
        .collect();
    let location = match object.location() {
        Some(nefia_game::Location::Map(map)) => {
            let name = world.map(map).map(|m| m.name.clone()).unwrap_or_default();
            format!("map {map} '{name}'")
        }
        Some(nefia_game::Location::Inventory(owner)) => format!("inventory of {}", world.describe(owner)),
        Some(nefia_game::Location::Equipment(owner, slot)) => format!("slot '{slot}' of {}", world.describe(owner)),
        None => "nowhere (ownerless)".to_owned(),
    };
    Some(ObjectDetails {
        uid,
        title: world.describe(uid),
        kind: object.kind,
        id: object.id,
        location,
        map: world.map_of(uid),
        x: object.x,
        y: object.y,
        fields,
        own_handlers: Vec::new(),
    })
}
