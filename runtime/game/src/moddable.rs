//! IModdable: base and temporary values of a map object (seed: Temporary Values).
//!
//! Every object keeps its own base values (only those that differ from its prototype: the
//! prototype supplies the rest) and a temp table. `calc` answers temp if set, else base, else
//! nil. Each temp value remembers the contributions that built it — method, value, and the mod
//! and file:line of the `mod` call — so a developer can ask "why is my fov 100?".

use std::fmt;

use serde::{Deserialize, Serialize};
use smallvec::SmallVec;

use crate::symbol::Symbol;
use crate::value::Value;

/// How [`Moddable::mod_temp`] and [`Moddable::mod_base`] combine a new value with the current
/// one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ModMethod {
    /// Replace the current value.
    Set,
    /// Add to the current value (temp if set, else base).
    Add,
    /// Set only where the current value is nil or false.
    Merge,
}

impl ModMethod {
    /// The names accepted from Lua, in the order error messages list them.
    pub const NAMES: [&'static str; 3] = ["set", "add", "merge"];

    /// Parses a method name as given to `mod`.
    pub fn parse(name: &[u8]) -> Result<ModMethod, ModError> {
        match name {
            b"set" => Ok(ModMethod::Set),
            b"add" => Ok(ModMethod::Add),
            b"merge" => Ok(ModMethod::Merge),
            other => Err(ModError::UnknownMethod(String::from_utf8_lossy(other).into_owned())),
        }
    }

    /// The method's Lua name.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }
}

/// What went wrong applying a modification.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ModError {
    /// The method name is not one of set/add/merge.
    #[error("unknown method '{0}'; use one of \"set\", \"add\" or \"merge\"")]
    UnknownMethod(String),
    /// "add" was asked of a value that is not a number.
    #[error(
        "cannot add {value} to field '{field}': its current value {current} is not a number; use the \"set\" method to replace it"
    )]
    NotANumber {
        /// The field.
        field: Symbol,
        /// The current value.
        current: Value,
        /// The value to add.
        value: Value,
    },
}

/// Where a change came from: the mod and file:line of the Lua code that made it, or a named
/// tool such as the editor.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Origin {
    /// The mod that owns the file, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mod_id: Option<Symbol>,
    /// The file (a path relative to the project, or a name such as "editor" or "repl").
    pub file: Symbol,
    /// The line, or 0 when not known.
    pub line: u32,
}

impl Origin {
    /// An origin with no mod and no line, such as "editor".
    pub fn tool(name: &str) -> Origin {
        Origin { mod_id: None, file: Symbol::intern(name), line: 0 }
    }
}

impl fmt::Display for Origin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(mod_id) = self.mod_id {
            write!(f, "[{mod_id}] ")?;
        }
        if self.line > 0 { write!(f, "{}:{}", self.file, self.line) } else { write!(f, "{}", self.file) }
    }
}

/// One modification behind a temp value — or several in a row from the same place: adds
/// made one after another by the same line of code are one contribution with their sum.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Contribution {
    /// How it was combined.
    pub method: ModMethod,
    /// The value given to `mod` (for merged adds, their sum).
    pub value: Value,
    /// Who made it.
    pub origin: Origin,
    /// How many calls it stands for (more than 1 for merged adds).
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub times: u32,
}

fn one() -> u32 {
    1
}

fn is_one(n: &u32) -> bool {
    *n == 1
}

/// A temp value with the contributions that built it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TempValue {
    /// The current temp value (never nil).
    pub value: Value,
    /// The latest contributions, oldest first (at most [`TempValue::MAX_SOURCES`]). Most temp
    /// values have one, kept inline: a refresh that re-applies them allocates nothing.
    pub sources: SmallVec<[Contribution; 1]>,
    /// How many older contributions were dropped to keep the list short.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub dropped: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

impl TempValue {
    /// The most contributions a temp value remembers; older ones are counted in `dropped`.
    pub const MAX_SOURCES: usize = 32;

    fn push(&mut self, contribution: Contribution) {
        if self.sources.len() == Self::MAX_SOURCES {
            self.sources.remove(0);
            self.dropped += 1;
        }
        self.sources.push(contribution);
    }
}

/// What a [`FieldMap`] of `Self` keeps beside its owner before it takes memory of its own:
/// the array its first entries live in.
pub trait Inline: Sized {
    /// `[(Symbol, Self); N]`, N entries kept inline.
    type Entries: smallvec::Array<Item = (Symbol, Self)>;
}

/// An object's own base values: most objects have none or one (the prototype gives the rest),
/// and `calc` and `mod` read them on every call, so one is kept in the object itself.
impl Inline for Value {
    type Entries = [(Symbol, Value); 1];
}

/// Temp values are large (their provenance is inline) and only characters have many, so none
/// is kept inline: an object without temp values is not made bigger by them.
impl Inline for TempValue {
    type Entries = [(Symbol, TempValue); 0];
}

/// Equipment slots: a character's body parts, never inline.
impl Inline for crate::ids::Uid {
    type Entries = [(Symbol, crate::ids::Uid); 0];
}

/// A small map from field name to value, sorted by symbol. Objects have few fields, so a
/// sorted vector is both smaller and faster than a hash map. It grows one entry at a time
/// (to the next power of two), not by four as a `Vec` first does.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldMap<V: Inline = Value> {
    entries: SmallVec<V::Entries>,
}

impl<V: Inline> Default for FieldMap<V> {
    fn default() -> Self {
        FieldMap::new()
    }
}

impl<V: Inline> FieldMap<V> {
    /// An empty map.
    pub fn new() -> Self {
        FieldMap { entries: SmallVec::new() }
    }

    /// The entry for `field`.
    pub fn get(&self, field: Symbol) -> Option<&V> {
        self.entries.binary_search_by_key(&field, |(k, _)| *k).ok().map(|i| &self.entries[i].1)
    }

    /// The entry for `field`, mutably.
    pub fn get_mut(&mut self, field: Symbol) -> Option<&mut V> {
        match self.entries.binary_search_by_key(&field, |(k, _)| *k) {
            Ok(i) => Some(&mut self.entries[i].1),
            Err(_) => None,
        }
    }

    /// The entry for `field`, to read or change in place after one search.
    pub fn entry(&mut self, field: Symbol) -> FieldEntry<'_, V> {
        match self.entries.binary_search_by_key(&field, |(k, _)| *k) {
            Ok(i) => FieldEntry::Occupied(&mut self.entries[i].1),
            Err(index) => FieldEntry::Vacant(VacantField { entries: &mut self.entries, index, field }),
        }
    }

    /// Sets the entry for `field`, returning the previous one.
    pub fn insert(&mut self, field: Symbol, value: V) -> Option<V> {
        match self.entries.binary_search_by_key(&field, |(k, _)| *k) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            Err(i) => {
                self.entries.insert(i, (field, value));
                None
            }
        }
    }

    /// Removes the entry for `field`.
    pub fn remove(&mut self, field: Symbol) -> Option<V> {
        match self.entries.binary_search_by_key(&field, |(k, _)| *k) {
            Ok(i) => Some(self.entries.remove(i).1),
            Err(_) => None,
        }
    }

    /// All entries, in symbol order (not name order: use [`FieldMap::sorted_by_name`] for
    /// anything a person or a file sees).
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (Symbol, &V)> {
        self.entries.iter().map(|(k, v)| (*k, v))
    }

    /// All entries sorted by field name: the stable order for files and displays.
    pub fn sorted_by_name(&self) -> Vec<(Symbol, &V)> {
        let mut entries: Vec<_> = self.iter().collect();
        entries.sort_by_key(|(k, _)| k.as_str());
        entries
    }

    /// Number of entries.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// True if there are no entries.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        self.entries.clear();
    }
}

/// A field of a [`FieldMap`] found by [`FieldMap::entry`].
pub enum FieldEntry<'a, V: Inline> {
    /// The field has an entry.
    Occupied(&'a mut V),
    /// The field has none; this is where it would go.
    Vacant(VacantField<'a, V>),
}

/// Where a missing field's entry goes in its [`FieldMap`].
pub struct VacantField<'a, V: Inline> {
    entries: &'a mut SmallVec<V::Entries>,
    index: usize,
    field: Symbol,
}

impl<V: Inline> VacantField<'_, V> {
    /// Gives the field its entry.
    pub fn insert(self, value: V) {
        self.entries.insert(self.index, (self.field, value));
    }
}

impl<V: Inline> FromIterator<(Symbol, V)> for FieldMap<V> {
    fn from_iter<I: IntoIterator<Item = (Symbol, V)>>(iter: I) -> Self {
        let mut map = FieldMap::new();
        for (k, v) in iter {
            map.insert(k, v);
        }
        map
    }
}

impl<V: Inline + Serialize> Serialize for FieldMap<V> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.sorted_by_name().into_iter().map(|(k, v)| (k.as_str(), v)))
    }
}

impl<'de, V: Inline + Deserialize<'de>> Deserialize<'de> for FieldMap<V> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        // A BTreeMap is in symbol order with each key once: the entries are taken as they
        // come, in one allocation, without a search per entry.
        let map = std::collections::BTreeMap::<Symbol, V>::deserialize(d)?;
        Ok(FieldMap { entries: map.into_iter().collect() })
    }
}

/// The base and temp values of one object. Base values that are not in `base` come from the
/// prototype; an explicit `Nil` in `base` hides the prototype's value.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Moddable {
    /// Base values that differ from the prototype.
    pub base: FieldMap,
    /// Temp values with their provenance.
    pub temp: FieldMap<TempValue>,
}

impl Moddable {
    /// The base value of `field`: the object's own, else the prototype's.
    pub fn base<'a>(&'a self, field: Symbol, proto: &'a FieldMap) -> Option<&'a Value> {
        let value = match self.base.get(field) {
            Some(own) => own,
            None => proto.get(field)?,
        };
        (!matches!(value, Value::Nil)).then_some(value)
    }

    /// The temp value of `field` if set, else its base value (seed: `calc`).
    pub fn calc<'a>(&'a self, field: Symbol, proto: &'a FieldMap) -> Option<&'a Value> {
        match self.temp.get(field) {
            Some(temp) => Some(&temp.value),
            None => self.base(field, proto),
        }
    }

    /// Sets a base value (seed: `obj.field = v`). Nil makes the field nil even where the
    /// prototype has a value.
    pub fn set_base(&mut self, field: Symbol, value: Value, proto: &FieldMap) {
        if proto.get(field) == Some(&value) || (value == Value::Nil && proto.get(field).is_none()) {
            self.base.remove(field);
        } else {
            self.base.insert(field, value);
        }
    }

    /// Forgets the object's own base value so the prototype's shows again.
    pub fn reset_to_prototype(&mut self, field: Symbol) {
        self.base.remove(field);
    }

    /// Modifies the base value of a field (seed: `mod_base`).
    pub fn mod_base(
        &mut self,
        field: Symbol,
        value: Value,
        method: ModMethod,
        proto: &FieldMap,
    ) -> Result<(), ModError> {
        let new = combine(field, self.base(field, proto).unwrap_or(&Value::Nil), &value, method)?;
        self.set_base(field, new, proto);
        Ok(())
    }

    /// Modifies the temp value of a field (seed: `mod`). A nil value removes the temp value.
    pub fn mod_temp(
        &mut self,
        field: Symbol,
        value: Value,
        method: ModMethod,
        origin: Origin,
        proto: &FieldMap,
    ) -> Result<(), ModError> {
        if matches!(value, Value::Nil) {
            self.temp.remove(field);
            return Ok(());
        }
        match self.temp.entry(field) {
            FieldEntry::Occupied(temp) => {
                if method == ModMethod::Merge && !temp.value.is_falsy() {
                    return Ok(());
                }
                let new = combine(field, &temp.value, &value, method)?;
                if method == ModMethod::Set {
                    temp.sources.clear();
                    temp.dropped = 0;
                }
                temp.value = new;
                // Another add from the line that made the last one joins it.
                let last = temp
                    .sources
                    .last_mut()
                    .filter(|last| method == ModMethod::Add && last.method == ModMethod::Add && last.origin == origin);
                match last.and_then(|last| last.value.add(&value).map(|sum| (last, sum))) {
                    Some((last, sum)) => {
                        last.value = sum;
                        last.times = last.times.saturating_add(1);
                    }
                    None => temp.push(Contribution { method, value, origin, times: 1 }),
                }
            }
            FieldEntry::Vacant(vacant) => {
                let current = self.base.get(field).or_else(|| proto.get(field)).unwrap_or(&Value::Nil);
                if method == ModMethod::Merge && !current.is_falsy() {
                    return Ok(());
                }
                let new = combine(field, current, &value, method)?;
                let contribution = Contribution { method, value, origin, times: 1 };
                vacant.insert(TempValue { value: new, sources: smallvec::smallvec![contribution], dropped: 0 });
            }
        }
        Ok(())
    }

    /// Clears the temp value of a field and sets its base value (seed: `reset`).
    pub fn reset(&mut self, field: Symbol, value: Value, proto: &FieldMap) {
        self.temp.remove(field);
        self.set_base(field, value, proto);
    }

    /// Clears every temp value (the first half of `refresh`).
    pub fn clear_temp(&mut self) {
        self.temp.clear();
    }
}

/// Combines the current value with a new one by `method`.
fn combine(field: Symbol, current: &Value, value: &Value, method: ModMethod) -> Result<Value, ModError> {
    Ok(match method {
        ModMethod::Set => value.clone(),
        ModMethod::Merge if current.is_falsy() => value.clone(),
        ModMethod::Merge => current.clone(),
        ModMethod::Add if matches!(current, Value::Nil) => value.clone(),
        ModMethod::Add => match current.add(value) {
            Some(sum) => sum,
            None => {
                return Err(ModError::NotANumber { field, current: current.clone(), value: value.clone() });
            }
        },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn proto() -> FieldMap {
        [(Symbol::intern("fov"), Value::Int(15)), (Symbol::intern("dv"), Value::Int(10))].into_iter().collect()
    }

    #[test]
    fn one_own_base_value_lives_in_the_object_and_temp_values_take_memory_one_at_a_time() {
        let (fov, dv) = (Symbol::intern("fov"), Symbol::intern("dv"));
        let mut m = Moddable::default();
        m.set_base(fov, Value::Int(1), &proto());
        assert!(!m.base.entries.spilled(), "calc and mod read it without leaving the object");
        m.set_base(dv, Value::Int(2), &proto());
        assert!(m.base.entries.spilled());
        m.mod_temp(fov, Value::Int(3), ModMethod::Add, Origin::tool("test"), &proto()).unwrap();
        assert_eq!(m.temp.entries.capacity(), 1, "a Vec would take room for four");
        assert_eq!(m.calc(fov, &proto()), Some(&Value::Int(4)));
    }

    #[test]
    fn a_decoded_field_map_is_in_search_order() {
        let map: FieldMap = ron::from_str(r#"{"zz_last": 1, "aa_first": 2, "mm_mid": 3}"#).unwrap();
        for (name, value) in [("zz_last", 1), ("aa_first", 2), ("mm_mid", 3)] {
            assert_eq!(map.get(Symbol::intern(name)), Some(&Value::Int(value)), "{name} is found");
        }
    }

    #[test]
    fn seed_fov_demonstration() {
        let proto = proto();
        let fov = Symbol::intern("fov");
        let mut m = Moddable::default();
        assert_eq!(m.calc(fov, &proto), Some(&Value::Int(15)));
        m.mod_temp(fov, Value::Int(100), ModMethod::Set, Origin::tool("test"), &proto).unwrap();
        assert_eq!(m.calc(fov, &proto), Some(&Value::Int(100)));
        m.set_base(fov, Value::Int(5), &proto);
        assert_eq!(m.calc(fov, &proto), Some(&Value::Int(100)));
        m.clear_temp();
        assert_eq!(m.calc(fov, &proto), Some(&Value::Int(5)));
        m.set_base(fov, Value::Int(100), &proto);
        assert_eq!(m.calc(fov, &proto), Some(&Value::Int(100)));
    }

    #[test]
    fn add_twice_on_base_ten() {
        let proto = proto();
        let dv = Symbol::intern("dv");
        let mut m = Moddable::default();
        for _ in 0..2 {
            m.mod_temp(dv, Value::Int(20), ModMethod::Add, Origin::tool("test"), &proto).unwrap();
        }
        assert_eq!(m.calc(dv, &proto), Some(&Value::Int(50)));
        let sources = &m.temp.get(dv).unwrap().sources;
        assert_eq!(sources.len(), 1, "two adds from one place are one source");
        assert_eq!((sources[0].value.clone(), sources[0].times), (Value::Int(40), 2));
        m.mod_temp(dv, Value::Int(1), ModMethod::Add, Origin::tool("elsewhere"), &proto).unwrap();
        assert_eq!(m.temp.get(dv).unwrap().sources.len(), 2, "another place, another source");
        assert_eq!(m.calc(dv, &proto), Some(&Value::Int(51)));
    }

    #[test]
    fn nil_base_hides_prototype_and_reset_restores_it() {
        let proto = proto();
        let fov = Symbol::intern("fov");
        let mut m = Moddable::default();
        m.set_base(fov, Value::Nil, &proto);
        assert_eq!(m.calc(fov, &proto), None);
        m.reset_to_prototype(fov);
        assert_eq!(m.calc(fov, &proto), Some(&Value::Int(15)));
    }

    #[test]
    fn merge_only_fills_falsy() {
        let proto = proto();
        let dv = Symbol::intern("dv");
        let flag = Symbol::intern("moddable_test_flag");
        let mut m = Moddable::default();
        m.mod_temp(dv, Value::Int(1), ModMethod::Merge, Origin::tool("t"), &proto).unwrap();
        assert_eq!(m.calc(dv, &proto), Some(&Value::Int(10)));
        assert!(m.temp.get(dv).is_none(), "a merge over a set value changes nothing");
        m.mod_temp(flag, Value::Bool(true), ModMethod::Merge, Origin::tool("t"), &proto).unwrap();
        assert_eq!(m.calc(flag, &proto), Some(&Value::Bool(true)));
    }
}
