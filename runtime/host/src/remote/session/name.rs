//! A name a remote client gives in params — a data type, a prototype id, a field, a file —
//! capped in length as it is read, before anything is made of it.

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::Deserialize;

/// The most bytes a name in params may have: a data type, a prototype id, a field or a file.
pub const MAX_NAME_BYTES: usize = 256;

/// A name in params (a data type, a prototype id, a field, a file), at most
/// [`MAX_NAME_BYTES`] bytes: a longer one is refused (invalid params) as it is read, before
/// anything is made of it — names go into the undo history's labels, which later answers
/// carry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Name(String);

impl Name {
    /// The name.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl From<Name> for String {
    fn from(name: Name) -> String {
        name.0
    }
}

impl std::fmt::Display for Name {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// Why `name` is refused, if it is longer than [`MAX_NAME_BYTES`]: its length and its start.
fn too_long(name: &str) -> Option<String> {
    (name.len() > MAX_NAME_BYTES).then(|| {
        let start: String = name.chars().take(32).collect();
        format!("the name '{start}…' is {} bytes long; names and ids take at most {MAX_NAME_BYTES}", name.len())
    })
}

impl<'de> Deserialize<'de> for Name {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Name, D::Error> {
        /// Reads a string, checking its length before keeping it.
        struct Checked;

        impl serde::de::Visitor<'_> for Checked {
            type Value = Name;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(f, "a string of at most {MAX_NAME_BYTES} bytes")
            }

            fn visit_str<E: serde::de::Error>(self, name: &str) -> Result<Name, E> {
                match too_long(name) {
                    Some(why) => Err(E::custom(why)),
                    None => Ok(Name(name.to_owned())),
                }
            }

            fn visit_string<E: serde::de::Error>(self, name: String) -> Result<Name, E> {
                match too_long(&name) {
                    Some(why) => Err(E::custom(why)),
                    None => Ok(Name(name)),
                }
            }
        }

        deserializer.deserialize_string(Checked)
    }
}

impl JsonSchema for Name {
    fn schema_name() -> std::borrow::Cow<'static, str> {
        "Name".into()
    }

    fn inline_schema() -> bool {
        true
    }

    fn json_schema(_: &mut SchemaGenerator) -> Schema {
        json_schema!({ "type": "string", "maxLength": MAX_NAME_BYTES })
    }
}
