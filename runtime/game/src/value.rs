//! [`Value`]: the plain data held by object fields, prototypes and the `save` table.
//!
//! One representation is shared by Lua, the inspector and the saver, so all of them read one
//! truth. Values are cheap to clone (strings, lists and maps are reference counted) and can be
//! sent to the editor thread.
//!
//! An object reference is refused inside a table and in a map file (a map file's objects are
//! made again with new uids: see `validate.rs`); saves keep it.

use std::collections::BTreeMap;
use std::fmt;
use std::sync::Arc;

use serde::de::{self, MapAccess, SeqAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::ids::Uid;

/// A plain data value: what a Lua table field may hold once functions and objects are ruled
/// out.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Value {
    /// Absence of a value. Fields never store it: assigning nil removes the field.
    #[default]
    Nil,
    /// A boolean.
    Bool(bool),
    /// A Lua integer.
    Int(i64),
    /// A Lua float.
    Float(f64),
    /// A string.
    Str(Arc<str>),
    /// A Lua sequence (keys 1..n).
    List(Arc<Vec<Value>>),
    /// Any other Lua table.
    Map(Arc<BTreeMap<Key, Value>>),
    /// A map object, by uid: what a field holds when it is given an object's handle (a
    /// shopkeeper's `Inventory:new(...)` stock). Only a field itself holds one, never a table
    /// inside it. Written as `{ "$object": uid }` ([`OBJECT_KEY`]).
    Object(Uid),
}

/// The deepest tables may nest in a stored value (an object's field, a temp value, a mod's
/// `save` table): a table of plain values is 1 deep. Lua refuses a deeper table when it is
/// stored, the file checks refuse one in what they read, and every file's reader reads values
/// this deep inside the deepest file ([`crate::files::ron_options`]), so whatever is
/// written is read back.
pub const MAX_TABLE_DEPTH: usize = 64;

/// The one key of the map an object reference is written as.
pub const OBJECT_KEY: &str = "$object";

/// A key of a [`Value::Map`]: Lua tables that are not sequences are keyed by integers or
/// strings.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Key {
    /// An integer key.
    Int(i64),
    /// A string key.
    Str(Arc<str>),
}

impl Value {
    /// How deep tables nest in this value: 0 for a plain value, 1 for a table of plain values
    /// (compare with [`MAX_TABLE_DEPTH`]).
    pub fn table_depth(&self) -> usize {
        let deepest = |values: &mut dyn Iterator<Item = &Value>| 1 + values.map(Value::table_depth).max().unwrap_or(0);
        match self {
            Value::List(items) => deepest(&mut items.iter()),
            Value::Map(map) => deepest(&mut map.values()),
            _ => 0,
        }
    }

    /// About how many bytes this value takes written in a file: its strings' lengths and a few
    /// bytes for everything else, to tell which part of something too large to write is large.
    pub fn written_size(&self) -> usize {
        match self {
            Value::Str(s) => s.len() + 2,
            Value::List(items) => items.iter().map(|v| v.written_size() + 2).sum::<usize>() + 2,
            Value::Map(map) => map.iter().map(|(k, v)| k.to_string().len() + v.written_size() + 4).sum::<usize>() + 2,
            _ => 8,
        }
    }

    /// The path from this value (named `root`) to the part that holds most of its
    /// [`Value::written_size`]: each step goes into the entry holding more than half of what
    /// its table holds (`save.big_mod.log`).
    pub fn largest_part(&self, root: &str) -> String {
        let mut path = root.to_owned();
        let mut value = self;
        loop {
            let entries: Vec<(String, &Value)> = match value {
                Value::List(items) => items.iter().enumerate().map(|(i, v)| ((i + 1).to_string(), v)).collect(),
                Value::Map(map) => map.iter().map(|(k, v)| (k.to_string(), v)).collect(),
                _ => return path,
            };
            let whole = value.written_size();
            let Some((key, part)) = entries.into_iter().max_by_key(|(_, v)| v.written_size()) else { return path };
            if part.written_size() * 2 < whole {
                return path;
            }
            path = format!("{path}.{key}");
            value = part;
        }
    }

    /// A string value.
    pub fn str(s: &str) -> Value {
        Value::Str(Arc::from(s))
    }

    /// A list value.
    pub fn list(items: Vec<Value>) -> Value {
        Value::List(Arc::new(items))
    }

    /// A map value with string keys.
    pub fn map<'a>(entries: impl IntoIterator<Item = (&'a str, Value)>) -> Value {
        Value::Map(Arc::new(entries.into_iter().map(|(k, v)| (Key::Str(Arc::from(k)), v)).collect()))
    }

    /// True for nil and false: the values Lua treats as false.
    pub fn is_falsy(&self) -> bool {
        matches!(self, Value::Nil | Value::Bool(false))
    }

    /// The value as a float, if it is a number.
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Value::Int(i) => Some(i as f64),
            Value::Float(f) => Some(f),
            _ => None,
        }
    }

    /// The value as an integer, if it is an integer or a float with an exact integer value.
    pub fn as_i64(&self) -> Option<i64> {
        match *self {
            Value::Int(i) => Some(i),
            Value::Float(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Some(f as i64),
            _ => None,
        }
    }

    /// The value as a string slice, if it is a string.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }

    /// The value as a boolean, if it is one.
    pub fn as_bool(&self) -> Option<bool> {
        match *self {
            Value::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// Looks up a string key of a map value.
    pub fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Map(map) => map.get(&Key::Str(Arc::from(key))),
            _ => None,
        }
    }

    /// The Lua type name of this value, for error messages.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Nil => "nil",
            Value::Bool(_) => "boolean",
            Value::Int(_) | Value::Float(_) => "number",
            Value::Str(_) => "string",
            Value::List(_) | Value::Map(_) => "table",
            Value::Object(_) => "object",
        }
    }

    /// Reads a value typed the way a Lua literal is (`5`, `2.5`, `true`, `nil`, `"text"`);
    /// other text is taken as a string.
    pub fn parse_literal(text: &str) -> Value {
        let text = text.trim();
        match text {
            "nil" => Value::Nil,
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            _ => {
                if let Ok(i) = text.parse::<i64>() {
                    Value::Int(i)
                } else if let Ok(x) = text.parse::<f64>() {
                    Value::Float(x)
                } else {
                    let quoted = ['"', '\''].iter().find_map(|&q| {
                        text.strip_prefix(q).and_then(|t| t.strip_suffix(q)).filter(|_| text.len() >= 2)
                    });
                    Value::str(quoted.unwrap_or(text))
                }
            }
        }
    }

    /// True if an object reference is inside this value (in a table): only a field itself
    /// may hold one.
    pub fn holds_object_inside(&self) -> bool {
        let inside = |v: &Value| matches!(v, Value::Object(_)) || v.holds_object_inside();
        match self {
            Value::List(items) => items.iter().any(inside),
            Value::Map(map) => map.values().any(inside),
            _ => false,
        }
    }

    /// Adds two numbers the way Lua does: integer + integer stays an integer (wrapping),
    /// anything else with a float is a float. Returns `None` if either is not a number.
    pub fn add(&self, other: &Value) -> Option<Value> {
        match (self, other) {
            (Value::Int(a), Value::Int(b)) => Some(Value::Int(a.wrapping_add(*b))),
            _ => Some(Value::Float(self.as_f64()? + other.as_f64()?)),
        }
    }
}

impl fmt::Display for Value {
    /// Formats the value the way a Lua literal would read.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Nil => f.write_str("nil"),
            Value::Bool(b) => write!(f, "{b}"),
            Value::Int(i) => write!(f, "{i}"),
            Value::Float(x) if x.fract() == 0.0 && x.is_finite() => write!(f, "{x:.1}"),
            Value::Float(x) => write!(f, "{x}"),
            Value::Str(s) => write!(f, "{s:?}"),
            Value::List(items) => {
                f.write_str("{")?;
                for (i, item) in items.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "{item}")?;
                }
                f.write_str("}")
            }
            Value::Map(map) => {
                f.write_str("{")?;
                for (i, (key, item)) in map.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    match key {
                        Key::Int(k) => write!(f, "[{k}] = {item}")?,
                        Key::Str(k) if is_identifier(k) => write!(f, "{k} = {item}")?,
                        Key::Str(k) => write!(f, "[{k:?}] = {item}")?,
                    }
                }
                f.write_str("}")
            }
            Value::Object(uid) => write!(f, "object #{}", uid.0),
        }
    }
}

/// True if `s` can be written as a bare Lua table key.
pub fn is_identifier(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c == '_' || c.is_ascii_alphabetic())
        && chars.all(|c| c == '_' || c.is_ascii_alphanumeric())
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl From<i64> for Value {
    fn from(i: i64) -> Value {
        Value::Int(i)
    }
}

impl From<f64> for Value {
    fn from(x: f64) -> Value {
        Value::Float(x)
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::str(s)
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Key::Int(i) => write!(f, "{i}"),
            Key::Str(s) => f.write_str(s),
        }
    }
}

impl Serialize for Value {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Value::Nil => serializer.serialize_unit(),
            Value::Bool(b) => serializer.serialize_bool(*b),
            Value::Int(i) => serializer.serialize_i64(*i),
            Value::Float(x) => serializer.serialize_f64(*x),
            Value::Str(s) => serializer.serialize_str(s),
            Value::List(items) => serializer.collect_seq(items.iter()),
            Value::Map(map) => serializer.collect_map(map.iter()),
            Value::Object(uid) => {
                let mut map = serializer.serialize_map(Some(1))?;
                map.serialize_entry(OBJECT_KEY, &uid.0)?;
                map.end()
            }
        }
    }
}

impl Serialize for Key {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Key::Int(i) => serializer.serialize_i64(*i),
            Key::Str(s) => serializer.serialize_str(s),
        }
    }
}

struct ValueVisitor;

impl<'de> Visitor<'de> for ValueVisitor {
    type Value = Value;

    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a boolean, number, string, list or map")
    }

    fn visit_unit<E>(self) -> Result<Value, E> {
        Ok(Value::Nil)
    }

    fn visit_none<E>(self) -> Result<Value, E> {
        Ok(Value::Nil)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Value, D::Error> {
        Value::deserialize(d)
    }

    fn visit_bool<E>(self, b: bool) -> Result<Value, E> {
        Ok(Value::Bool(b))
    }

    fn visit_i64<E>(self, i: i64) -> Result<Value, E> {
        Ok(Value::Int(i))
    }

    fn visit_u64<E: de::Error>(self, u: u64) -> Result<Value, E> {
        i64::try_from(u).map(Value::Int).map_err(|_| E::custom(format!("integer {u} does not fit in a Lua integer")))
    }

    fn visit_f64<E>(self, x: f64) -> Result<Value, E> {
        Ok(Value::Float(x))
    }

    fn visit_str<E>(self, s: &str) -> Result<Value, E> {
        Ok(Value::str(s))
    }

    fn visit_char<E>(self, c: char) -> Result<Value, E> {
        Ok(Value::str(c.encode_utf8(&mut [0; 4])))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Value, A::Error> {
        let mut items = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(item) = seq.next_element()? {
            items.push(item);
        }
        Ok(Value::list(items))
    }

    fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Value, A::Error> {
        let mut map = BTreeMap::new();
        while let Some((key, value)) = access.next_entry()? {
            map.insert(key, value);
        }
        // `{ "$object": uid }` is an object reference (no Lua table converts to that key).
        if map.len() == 1
            && let Some(Value::Int(uid)) = map.get(&Key::Str(Arc::from(OBJECT_KEY)))
        {
            let uid = u64::try_from(*uid).map_err(|_| de::Error::custom(format!("object uid {uid} is negative")))?;
            return Ok(Value::Object(Uid(uid)));
        }
        Ok(Value::Map(Arc::new(map)))
    }
}

impl<'de> Deserialize<'de> for Value {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Value, D::Error> {
        d.deserialize_any(ValueVisitor)
    }
}

impl<'de> Deserialize<'de> for Key {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Key, D::Error> {
        match Value::deserialize(d)? {
            Value::Int(i) => Ok(Key::Int(i)),
            Value::Str(s) => Ok(Key::Str(s)),
            other => {
                Err(de::Error::custom(format!("a table key must be an integer or a string, not {}", other.type_name())))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_object_reference_round_trips_and_only_whole() {
        let value = Value::Object(Uid(42));
        let text = ron::to_string(&value).unwrap();
        assert_eq!(ron::from_str::<Value>(&text).unwrap(), value);
        let beside = ron::from_str::<Value>(r#"{"$object": 4, "x": 1}"#).unwrap();
        assert!(matches!(beside, Value::Map(_)), "with another key it is a plain table");
        assert!(ron::from_str::<Value>(r#"{"$object": -4}"#).is_err());
    }

    #[test]
    fn ron_round_trip_keeps_types() {
        let value = Value::map([
            ("a", Value::Int(1)),
            ("b", Value::Float(1.0)),
            ("c", Value::list(vec![Value::str("x"), Value::Bool(true)])),
        ]);
        let text = ron::to_string(&value).unwrap();
        let back: Value = ron::from_str(&text).unwrap();
        assert_eq!(back, value);
    }

    #[test]
    fn the_largest_part_of_a_value_is_found_by_its_path() {
        let log = Value::list(vec![Value::str(&"x".repeat(1000)), Value::str("short")]);
        let table = Value::map([("log", log), ("kills", Value::Int(3))]);
        assert_eq!(table.largest_part("save.my_mod"), "save.my_mod.log.1");
        let even = Value::map([("a", Value::str("12345")), ("b", Value::str("67890"))]);
        assert_eq!(even.largest_part("save.x"), "save.x", "no entry holds most of it");
        assert_eq!(Value::list(vec![Value::list(vec![Value::Int(1)])]).table_depth(), 2);
        assert_eq!(Value::Int(1).table_depth(), 0);
    }

    #[test]
    fn lua_style_addition() {
        assert_eq!(Value::Int(2).add(&Value::Int(3)), Some(Value::Int(5)));
        assert_eq!(Value::Int(2).add(&Value::Float(0.5)), Some(Value::Float(2.5)));
        assert_eq!(Value::str("x").add(&Value::Int(1)), None);
    }
}
