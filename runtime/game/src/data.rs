//! Data types and prototypes (`data:add_type`, `data:add`).
//!
//! A data type such as `base.chara` declares its fields with defaults; a prototype such as
//! `elona.putit` is one entry of a type. Objects read their base values from their prototype
//! until they override them, so a prototype replaced by hotload is seen by existing objects.
//! This is the Rust side of the registry: plain [`Value`] fields. The Lua tables given to
//! `data:add` (which may also hold functions) are kept by the Lua API beside it.

use rustc_hash::FxHashMap;

use crate::field_type::{FieldType, WriteCheck};
use crate::moddable::{FieldMap, Origin};
use crate::symbol::Symbol;
use crate::value::Value;

/// Index of a prototype in the registry. Stable for the life of the world: replacing a
/// prototype (hotload) keeps its index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct ProtoIdx(pub u32);

/// One declared field of a data type (OpenNefia's `{ name, type, default, template, doc }`).
#[derive(Clone, Debug, PartialEq)]
pub struct FieldDecl {
    /// Field name.
    pub name: Symbol,
    /// Value a prototype gets when it does not give one (nil: no default).
    pub default: Value,
    /// What the field is for, shown by the editor.
    pub doc: String,
    /// Its declared type's shape (the checker, in Lua, judges values).
    pub ty: FieldType,
    /// Its declared type as OpenNefia names it (`uint`, `optional<string>`).
    pub type_name: String,
    /// What a value written from Lua must surely be to skip the checker.
    pub write: WriteCheck,
    /// A new prototype made from the type's template sets it (OpenNefia's `template = true`).
    pub template: bool,
}

impl FieldDecl {
    /// A field of any type, as a data type declared without types gives it.
    pub fn untyped(name: Symbol, default: Value, doc: String) -> FieldDecl {
        FieldDecl {
            name,
            default,
            doc,
            ty: FieldType::Any,
            type_name: "any".into(),
            write: WriteCheck::Any,
            template: false,
        }
    }
}

/// A data type: `base.chara`, `base.item`, `base.map_tile`, …
#[derive(Clone, Debug)]
pub struct DataType {
    /// Full id, such as `base.chara`.
    pub id: Symbol,
    /// Declared fields, in declaration order.
    pub fields: Vec<FieldDecl>,
    /// Entries in registration order.
    pub entries: Vec<ProtoIdx>,
    /// Where it was declared.
    pub origin: Origin,
}

/// One entry of a data type, such as `elona.putit` of `base.chara`.
#[derive(Clone, Debug)]
pub struct Prototype {
    /// Full id, such as `elona.putit`.
    pub id: Symbol,
    /// Its data type, such as `base.chara`.
    pub data_type: Symbol,
    /// The fields as given to `data:add`, without `_type`/`_id`.
    pub given: FieldMap,
    /// The given fields over the type's defaults: what objects read.
    pub fields: FieldMap,
    /// Where it was added.
    pub origin: Origin,
}

impl Prototype {
    /// Whether its objects are containers (`is_container`): an item that holds items.
    pub fn is_container(&self) -> bool {
        self.flag(Self::flag_names()[0])
    }

    /// Whether its objects wear items (`holds_equipment`: what `EquipSlots:new` makes).
    /// Characters wear items whatever their prototype says.
    pub fn holds_equipment(&self) -> bool {
        self.flag(Self::flag_names()[1])
    }

    /// Whether the field `name` is set and not false.
    fn flag(&self, name: Symbol) -> bool {
        self.fields.get(name).is_some_and(|v| !v.is_falsy())
    }

    /// `is_container` and `holds_equipment`, interned once: every object made asks.
    fn flag_names() -> [Symbol; 2] {
        static NAMES: std::sync::OnceLock<[Symbol; 2]> = std::sync::OnceLock::new();
        *NAMES.get_or_init(|| [Symbol::intern("is_container"), Symbol::intern("holds_equipment")])
    }
}

/// A problem with a data declaration.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum DataError {
    /// No data type of that name.
    #[error("unknown data type '{name}'; known types: {known}")]
    UnknownType {
        /// The name asked for.
        name: String,
        /// The declared types, comma separated.
        known: String,
    },
    /// The type was already declared.
    #[error("data type '{id}' is already declared (at {first})")]
    DuplicateType {
        /// The type.
        id: Symbol,
        /// Where it was first declared.
        first: Origin,
    },
    /// The id was already registered in that type.
    #[error("ID is already taken: '{id}' of type '{data_type}' (first added at {first})")]
    DuplicateId {
        /// The full id.
        id: Symbol,
        /// Its type.
        data_type: Symbol,
        /// Where it was first added.
        first: Origin,
    },
    /// No prototype of that id.
    #[error("unknown {data_type} id '{id}'")]
    UnknownId {
        /// The type searched.
        data_type: Symbol,
        /// The id asked for.
        id: String,
    },
}

/// Whether adding an entry that already exists is an error or replaces it (hotload).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OnDuplicate {
    /// "ID is already taken".
    Error,
    /// Replace in place, keeping the index so existing objects see the new data.
    Replace,
}

/// Every data type and prototype of the loaded mods.
#[derive(Clone, Debug, Default)]
pub struct DataRegistry {
    /// The art of the prototypes with an image, and the themes' replacements, read when
    /// each was added.
    pub art: crate::art::ArtBook,
    revision: u64,
    types: Vec<DataType>,
    type_index: FxHashMap<Symbol, usize>,
    protos: Vec<Prototype>,
    proto_index: FxHashMap<(Symbol, Symbol), ProtoIdx>,
    /// The [`WriteCheck`] of each declared field by data type and name, but `Any`'s.
    write_checks: FxHashMap<(Symbol, Symbol), WriteCheck>,
    /// Fields shown in the current language over what prototypes were given (see
    /// [`DataRegistry::set_localized`]).
    localized: FxHashMap<ProtoIdx, FieldMap>,
    /// Told whenever what objects show of their base values may have changed: the
    /// registry's own changes, and the world's (see [`crate::base_changes`]).
    pub(crate) base_changes: crate::base_changes::BaseChangeListener,
}

impl DataRegistry {
    /// A counter that grows whenever a type or prototype is added or replaced.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// Declares a data type, or (with [`OnDuplicate::Replace`]) redeclares it, re-applying
    /// its defaults to its existing entries.
    pub fn add_type(
        &mut self,
        id: Symbol,
        fields: Vec<FieldDecl>,
        origin: Origin,
        on_duplicate: OnDuplicate,
    ) -> Result<(), DataError> {
        if let Some(&index) = self.type_index.get(&id) {
            if on_duplicate == OnDuplicate::Error {
                return Err(DataError::DuplicateType { id, first: self.types[index].origin.clone() });
            }
            self.write_checks.retain(|&(data_type, _), _| data_type != id);
            self.keep_write_checks(id, &fields);
            self.types[index].fields = fields;
            self.types[index].origin = origin;
            for entry in self.types[index].entries.clone() {
                self.recompute(entry);
            }
            return Ok(());
        }
        self.revision += 1;
        self.keep_write_checks(id, &fields);
        self.type_index.insert(id, self.types.len());
        self.types.push(DataType { id, fields, entries: Vec::new(), origin });
        Ok(())
    }

    /// Keeps the [`WriteCheck`]s of data type `id`'s declared `fields`.
    fn keep_write_checks(&mut self, id: Symbol, fields: &[FieldDecl]) {
        for decl in fields.iter().filter(|decl| decl.write != WriteCheck::Any) {
            self.write_checks.insert((id, decl.name), decl.write);
        }
    }

    /// What a value written from Lua to field `field` of an object of prototype `proto` must
    /// surely be to skip its checker (see [`WriteCheck`]).
    pub fn write_check(&self, proto: ProtoIdx, field: Symbol) -> WriteCheck {
        let data_type = self.proto(proto).data_type;
        self.write_checks.get(&(data_type, field)).copied().unwrap_or_default()
    }

    /// Registers a prototype under `data_type`, or replaces it in place with
    /// [`OnDuplicate::Replace`].
    pub fn add(
        &mut self,
        data_type: Symbol,
        id: Symbol,
        given: FieldMap,
        origin: Origin,
        on_duplicate: OnDuplicate,
    ) -> Result<ProtoIdx, DataError> {
        let type_index = self.type_position_of(data_type)?;
        if let Some(&existing) = self.proto_index.get(&(data_type, id)) {
            let proto = &mut self.protos[existing.0 as usize];
            if on_duplicate == OnDuplicate::Error {
                return Err(DataError::DuplicateId { id, data_type, first: proto.origin.clone() });
            }
            proto.given = given;
            proto.origin = origin;
            self.recompute(existing);
            return Ok(existing);
        }
        let index = ProtoIdx(u32::try_from(self.protos.len()).expect("too many prototypes"));
        self.protos.push(Prototype { id, data_type, given, fields: FieldMap::new(), origin });
        self.recompute(index);
        self.proto_index.insert((data_type, id), index);
        self.types[type_index].entries.push(index);
        Ok(index)
    }

    fn recompute(&mut self, index: ProtoIdx) {
        self.revision += 1;
        // The objects of the prototype show its new fields.
        self.base_changes.notify(crate::base_changes::BaseChange::Every);
        let proto = &self.protos[index.0 as usize];
        let data_type = &self.types[self.type_index[&proto.data_type]];
        let mut fields = proto.given.clone();
        for decl in &data_type.fields {
            if fields.get(decl.name).is_none() && decl.default != Value::Nil {
                fields.insert(decl.name, decl.default.clone());
            }
        }
        for (field, value) in self.localized.get(&index).into_iter().flat_map(FieldMap::iter) {
            fields.insert(field, value.clone());
        }
        self.protos[index.0 as usize].fields = fields;
    }

    /// Shows `value` as field `field` of prototype `id` of `data_type` to its objects, over
    /// what the prototype was given (the field in the current language: a `_` entry of a
    /// locale file), or, with `None`, what it was given again; it stays over a hotload of the
    /// prototype. The prototype's `given` fields, which the editor shows and writes, are not
    /// touched. False if there is no such prototype or its type declares no such field.
    pub fn set_localized(&mut self, data_type: Symbol, id: Symbol, field: Symbol, value: Option<Value>) -> bool {
        let Some(&index) = self.proto_index.get(&(data_type, id)) else { return false };
        let declared = self.types[self.type_index[&data_type]].fields.iter().any(|decl| decl.name == field);
        if !declared {
            return false;
        }
        let entry = self.localized.entry(index).or_default();
        match value {
            Some(value) => entry.insert(field, value),
            None => entry.remove(field),
        };
        self.recompute(index);
        true
    }

    /// Shows every prototype's fields as it was given again (a language is about to be
    /// loaded; see [`DataRegistry::set_localized`]).
    pub fn clear_localized(&mut self) {
        for index in std::mem::take(&mut self.localized).into_keys() {
            self.recompute(index);
        }
    }

    fn type_position(&self, name: &str) -> Result<usize, DataError> {
        Symbol::lookup(name).and_then(|s| self.type_index.get(&s).copied()).ok_or_else(|| self.unknown_type(name))
    }

    fn type_position_of(&self, data_type: Symbol) -> Result<usize, DataError> {
        self.type_index.get(&data_type).copied().ok_or_else(|| self.unknown_type(data_type.as_str()))
    }

    fn unknown_type(&self, name: &str) -> DataError {
        DataError::UnknownType {
            name: name.to_owned(),
            known: self.types.iter().map(|t| t.id.as_str()).collect::<Vec<_>>().join(", "),
        }
    }

    /// Takes prototype `id` of `data_type` out of the registry (a prototype deleted from its
    /// source): it is no longer found or listed. Its slot stays, so no other prototype's
    /// index moves; the caller has made sure no object uses it. False if there was none.
    pub fn retire(&mut self, data_type: Symbol, id: Symbol) -> bool {
        let Some(index) = self.proto_index.remove(&(data_type, id)) else { return false };
        self.art.remove(data_type, id);
        if let Ok(position) = self.type_position_of(data_type) {
            self.types[position].entries.retain(|&entry| entry != index);
        }
        self.revision += 1;
        true
    }

    /// Puts back an earlier copy of the registry (a rejected hotload), as a new revision.
    pub fn restore(&mut self, earlier: DataRegistry) {
        let revision = self.revision + 1;
        let base_changes = std::mem::take(&mut self.base_changes);
        *self = earlier;
        self.revision = revision;
        self.base_changes = base_changes;
        self.base_changes.notify(crate::base_changes::BaseChange::Every);
    }

    /// The data type called `name`.
    pub fn data_type(&self, name: &str) -> Result<&DataType, DataError> {
        Ok(&self.types[self.type_position(name)?])
    }

    /// All data types in declaration order.
    pub fn types(&self) -> &[DataType] {
        &self.types
    }

    /// Finds the prototype `id` of `data_type`.
    pub fn find(&self, data_type: Symbol, id: &str) -> Result<ProtoIdx, DataError> {
        match Symbol::lookup(id) {
            Some(id) => self.find_symbol(data_type, id),
            None => {
                self.type_position_of(data_type)?;
                Err(DataError::UnknownId { data_type, id: id.to_owned() })
            }
        }
    }

    /// Finds the prototype `id` of `data_type`, by symbol: one hash lookup, no name
    /// looked up (a load finds every object's prototype several times).
    pub fn find_symbol(&self, data_type: Symbol, id: Symbol) -> Result<ProtoIdx, DataError> {
        if let Some(&index) = self.proto_index.get(&(data_type, id)) {
            return Ok(index);
        }
        self.type_position_of(data_type)?;
        Err(DataError::UnknownId { data_type, id: id.as_str().to_owned() })
    }

    /// The prototype at `index`.
    pub fn proto(&self, index: ProtoIdx) -> &Prototype {
        &self.protos[index.0 as usize]
    }

    /// The prototypes of `data_type` in registration order (empty for an unknown type).
    pub fn entries(&self, data_type: &str) -> impl Iterator<Item = &Prototype> {
        let entries = self.data_type(data_type).map(|t| t.entries.as_slice()).unwrap_or(&[]);
        entries.iter().map(|&i| self.proto(i))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn registry() -> DataRegistry {
        let mut data = DataRegistry::default();
        let fields = vec![FieldDecl::untyped("fov".into(), Value::Int(15), String::new())];
        data.add_type("base.chara".into(), fields, Origin::tool("t"), OnDuplicate::Error).unwrap();
        data
    }

    #[test]
    fn defaults_apply_and_duplicates_are_refused() {
        let mut data = registry();
        let given: FieldMap = [(Symbol::intern("hp"), Value::Int(3))].into_iter().collect();
        let idx = data
            .add("base.chara".into(), "elona.putit".into(), given.clone(), Origin::tool("t"), OnDuplicate::Error)
            .unwrap();
        assert_eq!(data.proto(idx).fields.get("fov".into()), Some(&Value::Int(15)));
        let err = data
            .add("base.chara".into(), "elona.putit".into(), given, Origin::tool("t"), OnDuplicate::Error)
            .unwrap_err();
        assert!(err.to_string().contains("ID is already taken"), "{err}");
    }

    #[test]
    fn replace_keeps_the_index() {
        let mut data = registry();
        let a = data
            .add("base.chara".into(), "elona.a".into(), FieldMap::new(), Origin::tool("t"), OnDuplicate::Error)
            .unwrap();
        let given: FieldMap = [(Symbol::intern("fov"), Value::Int(3))].into_iter().collect();
        let b =
            data.add("base.chara".into(), "elona.a".into(), given, Origin::tool("t"), OnDuplicate::Replace).unwrap();
        assert_eq!(a, b);
        assert_eq!(data.proto(a).fields.get("fov".into()), Some(&Value::Int(3)));
    }

    #[test]
    fn a_retired_prototype_is_neither_found_nor_listed_and_others_keep_their_index() {
        let mut data = registry();
        let add = |data: &mut DataRegistry, id: &str| {
            data.add("base.chara".into(), id.into(), FieldMap::new(), Origin::tool("t"), OnDuplicate::Error).unwrap()
        };
        let (_, b) = (add(&mut data, "elona.a"), add(&mut data, "elona.b"));
        assert!(data.retire("base.chara".into(), "elona.a".into()));
        assert!(!data.retire("base.chara".into(), "elona.a".into()), "retired once");
        assert!(data.find("base.chara".into(), "elona.a").is_err());
        assert_eq!(data.find("base.chara".into(), "elona.b").unwrap(), b);
        let listed: Vec<&str> = data.entries("base.chara").map(|p| p.id.as_str()).collect();
        assert_eq!(listed, ["elona.b"]);
        // Added again (an undone delete), it is found under a new index.
        let again = add(&mut data, "elona.a");
        assert_eq!(data.find("base.chara".into(), "elona.a").unwrap(), again);
    }

    #[test]
    fn unknown_type_lists_known_ones() {
        let data = registry();
        let err = data.data_type("base.nope").unwrap_err().to_string();
        assert!(err.contains("base.nope") && err.contains("base.chara"), "{err}");
    }
}
