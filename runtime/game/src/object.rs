//! Map objects: characters, items and feats (seed: Map Objects).
//!
//! An [`Object`] is backed by a prototype of `base.chara`, `base.item` or `base.feat`, has a
//! [`Uid`] that is never reused, a position, an optional [`Location`], and its
//! [`Moddable`] base and temp values. Characters and container items are locations
//! themselves: they own an [`ObjectList`] of items; characters also own equipment slots.

use serde::{Deserialize, Serialize};

use crate::data::ProtoIdx;
pub use crate::ids::Uid;
use crate::location::{Location, ObjectList};
use crate::moddable::{FieldMap, Moddable};
use crate::symbol::Symbol;

/// Names read from a map object itself rather than its fields (OpenNefia's reserved field
/// names), with the advice given when a script assigns one. A file that gives an object one
/// as a field is refused too (see `validate.rs`).
pub const RESERVED_FIELDS: [(&str, &str); 11] = [
    ("uid", "uids are given by the engine when an object is made; use obj:clone() for a copy with a new uid"),
    ("_id", "use obj:change_prototype(id) to make it one of another prototype"),
    ("_type", "an object keeps its data type; create a new object instead"),
    ("x", "use obj:set_pos(x, y), which keeps the map's position index right"),
    ("y", "use obj:set_pos(x, y), which keeps the map's position index right"),
    ("location", "use location:take_object(obj, x, y) to move it, or obj:remove_ownership() to take it out"),
    ("temp", "use obj:mod(field, value[, method]) to set a temporary value"),
    ("equip", "use chara:equip_item(item[, slot]) and chara:unequip_item(slot)"),
    ("proto", "prototypes change with data:add"),
    ("__mt", "it is OpenNefia's object machinery, not a field"),
    ("__iface", "it is OpenNefia's object machinery, not a field"),
];

/// A name of [`RESERVED_FIELDS`] given as a field to write: refused in OpenNefia's words,
/// after what to do instead, by every path that writes a field (Lua's `obj.uid = 5`, and the
/// edits of [`crate::field_edit`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
// OpenNefia's wording ends the message: its mods' tests match "is a reserved field name on
// map objects.$".
#[error("{advice}; '{name}' is a reserved field name on map objects.")]
pub struct ReservedField {
    /// The reserved name.
    pub name: &'static str,
    /// What to do instead.
    pub advice: &'static str,
}

/// The reserved field `name` is, if it is one of [`RESERVED_FIELDS`].
pub fn reserved_field(name: &str) -> Option<ReservedField> {
    RESERVED_FIELDS.iter().find(|(reserved, _)| *reserved == name).map(|&(name, advice)| ReservedField { name, advice })
}

/// The engine's events with one id per object kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KindEvent {
    /// `refresh()` cleared the object's temp values: handlers re-apply theirs.
    Refreshed,
    /// The object was made, loaded, cloned or its prototype hotloaded (OpenNefia's
    /// `instantiate`): handlers set up what is not saved, such as connected handlers.
    Instantiated,
}

/// The four kinds of map object, each backed by its own data type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ObjectKind {
    /// A character (`base.chara`, IChara). Also a location for items.
    Chara,
    /// An item (`base.item`, IItem). A location for items when it is a container.
    Item,
    /// A map feature such as a door or stairs (`base.feat`, IFeat).
    Feat,
    /// A map effect such as fire or a web (`base.mef`, IMef): on maps only, at most one a
    /// cell, lasting some turns.
    Mef,
}

impl ObjectKind {
    /// Every kind, in drawing order (feats under mefs under items under characters).
    pub const ALL: [ObjectKind; 4] = [ObjectKind::Feat, ObjectKind::Mef, ObjectKind::Item, ObjectKind::Chara];

    /// The kind written `name` in files and rules: `chara`, `item`, `feat` or `mef`.
    pub fn named(name: &str) -> Option<ObjectKind> {
        ObjectKind::ALL.into_iter().find(|kind| kind.name() == name)
    }

    /// Its name in files and rules (as serde writes it): `chara`, `item`, `feat`, `mef`.
    pub fn name(self) -> &'static str {
        match self {
            ObjectKind::Chara => "chara",
            ObjectKind::Item => "item",
            ObjectKind::Feat => "feat",
            ObjectKind::Mef => "mef",
        }
    }

    /// The data type that backs this kind.
    pub fn data_type(self) -> &'static str {
        match self {
            ObjectKind::Chara => "base.chara",
            ObjectKind::Item => "base.item",
            ObjectKind::Feat => "base.feat",
            ObjectKind::Mef => "base.mef",
        }
    }

    /// [`ObjectKind::data_type`] as a symbol, interned once: loading and checking a save look it
    /// up for every object.
    pub fn data_type_symbol(self) -> Symbol {
        static SYMBOLS: std::sync::OnceLock<[Symbol; 4]> = std::sync::OnceLock::new();
        let symbols = SYMBOLS.get_or_init(|| ObjectKind::ALL.map(|kind| Symbol::intern(kind.data_type())));
        let index = ObjectKind::ALL.iter().position(|&kind| kind == self).unwrap_or_default();
        symbols[index]
    }

    /// The kind backed by `data_type`, if it is one of the object types.
    pub fn from_data_type(data_type: &str) -> Option<ObjectKind> {
        ObjectKind::ALL.into_iter().find(|k| k.data_type() == data_type)
    }

    /// The kind backed by the data type `symbol`, if it is one of the object types.
    pub fn from_data_type_symbol(symbol: Symbol) -> Option<ObjectKind> {
        ObjectKind::ALL.into_iter().find(|k| k.data_type_symbol() == symbol)
    }

    /// The engine event `event` emitted for an object of this kind
    /// (`base.on_chara_refreshed`, `base.on_item_instantiated`, …).
    pub fn event_name(self, event: KindEvent) -> &'static str {
        use KindEvent::*;
        match (self, event) {
            (ObjectKind::Chara, Refreshed) => "base.on_chara_refreshed",
            (ObjectKind::Item, Refreshed) => "base.on_item_refreshed",
            (ObjectKind::Feat, Refreshed) => "base.on_feat_refreshed",
            (ObjectKind::Mef, Refreshed) => "base.on_mef_refreshed",
            (ObjectKind::Chara, Instantiated) => "base.on_chara_instantiated",
            (ObjectKind::Item, Instantiated) => "base.on_item_instantiated",
            (ObjectKind::Feat, Instantiated) => "base.on_feat_instantiated",
            (ObjectKind::Mef, Instantiated) => "base.on_mef_instantiated",
        }
    }

    /// [`ObjectKind::event_name`] as a symbol (interned once).
    pub fn event(self, event: KindEvent) -> Symbol {
        static SYMBOLS: std::sync::OnceLock<[[Symbol; 4]; 2]> = std::sync::OnceLock::new();
        let symbols = SYMBOLS.get_or_init(|| {
            [KindEvent::Refreshed, KindEvent::Instantiated].map(|event| {
                [ObjectKind::Chara, ObjectKind::Item, ObjectKind::Feat, ObjectKind::Mef]
                    .map(|kind| Symbol::intern(kind.event_name(event)))
            })
        });
        symbols[event as usize][self as usize]
    }

    /// Its place in drawing order ([`ObjectKind::ALL`]): feats under mefs under items under
    /// characters.
    pub fn draw_order(self) -> usize {
        match self {
            ObjectKind::Feat => 0,
            ObjectKind::Mef => 1,
            ObjectKind::Item => 2,
            ObjectKind::Chara => 3,
        }
    }

    /// A lower-case name for messages: "character", "item", "feat".
    pub fn noun(self) -> &'static str {
        match self {
            ObjectKind::Chara => "character",
            ObjectKind::Item => "item",
            ObjectKind::Feat => "feat",
            ObjectKind::Mef => "mef",
        }
    }
}

/// A character's equipment: slot name to the item worn there.
pub type Equipment = FieldMap<Uid>;

/// One map object.
#[derive(Clone, Debug)]
pub struct Object {
    /// Its unique id.
    pub uid: Uid,
    /// Character, item or feat.
    pub kind: ObjectKind,
    /// Its prototype in the data registry.
    pub proto: ProtoIdx,
    /// Its prototype's id, such as `elona.putit`.
    pub id: Symbol,
    /// Column on the map (0-based). Inside an inventory it is 0.
    pub x: i32,
    /// Row on the map (0-based). Inside an inventory it is 0.
    pub y: i32,
    /// Base and temp values.
    pub fields: Moddable,
    pub(crate) location: Option<Location>,
    /// Order key inside its location, so iteration follows insertion order.
    pub(crate) seq: u64,
    /// The items this object holds, for characters and containers.
    pub(crate) inventory: Option<ObjectList>,
    /// Worn items by slot, for characters.
    pub(crate) equipment: Option<Equipment>,
    /// Holds from Rust (editor undo history, clipboard) that keep an ownerless object alive.
    pub(crate) pins: u32,
    /// Its key in a map file, if it was read from one (see [`crate::object_key`]); an
    /// object without one is keyed by its session and uid.
    pub(crate) key: Option<Box<str>>,
}

impl Object {
    /// Where the object is, if anywhere.
    pub fn location(&self) -> Option<Location> {
        self.location
    }

    /// The items it holds, in insertion order, if it is a location.
    pub fn inventory(&self) -> Option<impl Iterator<Item = Uid> + '_> {
        self.inventory.as_ref().map(|list| list.iter())
    }

    /// Its equipment slots with the worn items, if it is a character.
    pub fn equipment(&self) -> Option<&Equipment> {
        self.equipment.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn draw_order_follows_the_order_of_all() {
        let orders: Vec<usize> = ObjectKind::ALL.iter().map(|k| k.draw_order()).collect();
        assert_eq!(orders, [0, 1, 2, 3]);
    }
}
