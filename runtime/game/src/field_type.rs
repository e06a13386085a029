//! [`FieldType`]: the type a data type declares for a field, as the engine reads it.
//!
//! Mods declare fields with OpenNefia's `types` checkers (`{ name = "max_hp", type =
//! types.uint }`); the checker itself runs in Lua (`runtime/lua/src/types.lua`), the one judge of a value.
//! This is its shape, read once when the data type is declared, for what needs a field's type
//! without running Lua: the Data pane's widgets, the type definitions (`nefia api-defs`) and
//! the remote protocol's schemas.

use serde::{Deserialize, Serialize};

use crate::value::Value;

/// The shape of a declared field's type.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum FieldType {
    /// Anything (`types.any`, or no type declared).
    #[default]
    Any,
    /// `types.boolean`.
    Boolean,
    /// A number: `types.number`, `int`, `float`, `uint`, bounded (`range`, `gteq`, …).
    Number {
        /// Integers only (`int`, `uint`).
        integer: bool,
        /// The least value allowed, if bounded below.
        min: Option<f64>,
        /// The greatest value allowed, if bounded above.
        max: Option<f64>,
    },
    /// A string (`types.string`, `identifier`, `path`, …).
    String,
    /// The id of a prototype of a data type (`types.data_id("base.chara")`).
    DataId {
        /// The data type.
        data_type: String,
    },
    /// One of some values (`types.literal(...)`, or the values of `types.enum(Enum.X)`).
    OneOf {
        /// The values allowed, in order.
        values: Vec<Value>,
    },
    /// A colour (`types.color`: `{ r, g, b[, a] }` of 0..=255).
    Color,
    /// The inner type or nil (`types.optional(t)`).
    Optional {
        /// The type when given.
        of: Box<FieldType>,
    },
    /// A sequence (`types.list(t)`).
    List {
        /// Each element's type.
        of: Box<FieldType>,
    },
    /// A table from keys to values (`types.map(k, v)`, `set`, `keys`, `values`).
    Map {
        /// Each key's type.
        key: Box<FieldType>,
        /// Each value's type.
        value: Box<FieldType>,
    },
    /// A table with named fields (`types.fields { ... }`, `fields_strict`).
    Fields {
        /// Each field's name and type, by name.
        fields: Vec<(String, FieldType)>,
    },
    /// A table of values by position (`types.tuple { ... }`).
    Tuple {
        /// Each position's type.
        of: Vec<FieldType>,
    },
    /// Any one of several types (`types.some(...)`).
    Some {
        /// The types, in order.
        of: Vec<FieldType>,
    },
    /// A function (`types.callback(...)`, `types["function"]`): shown as source, never edited.
    Function,
    /// A table of no declared shape (`types.table`, `serializable`).
    Table,
    /// What a form cannot edit as plain data (a class instance, a map object, a thread…).
    Opaque,
}

impl FieldType {
    /// Whether the field holds plain data a form can edit (not a function or an object).
    pub fn is_data(&self) -> bool {
        match self {
            FieldType::Function | FieldType::Opaque => false,
            FieldType::Optional { of } => of.is_data(),
            FieldType::Some { of } => of.iter().any(FieldType::is_data),
            _ => true,
        }
    }

    /// The type as a LuaLS annotation (`integer`, `string?`, `"a"|"b"`, `integer[]`), for the
    /// type definitions: a prototype id is its data type's alias of ids (`nefia.id.base.chara`).
    pub fn lua_annotation(&self) -> String {
        let annotate = |t: &FieldType| t.lua_annotation();
        match self {
            FieldType::Any => "any".into(),
            FieldType::Boolean => "boolean".into(),
            FieldType::Number { integer: true, .. } => "integer".into(),
            FieldType::Number { integer: false, .. } => "number".into(),
            FieldType::String => "string".into(),
            FieldType::DataId { data_type } => format!("nefia.id.{data_type}"),
            FieldType::OneOf { values } => {
                let literal = |v: &Value| match v {
                    Value::Str(s) => format!("\"{s}\""),
                    other => other.to_string(),
                };
                values.iter().map(literal).collect::<Vec<_>>().join("|")
            }
            FieldType::Color => "integer[]".into(),
            FieldType::Optional { of } => format!("{}?", grouped(annotate(of))),
            FieldType::List { of } => format!("{}[]", grouped(annotate(of))),
            FieldType::Map { key, value } => format!("table<{}, {}>", annotate(key), annotate(value)),
            FieldType::Fields { fields } => {
                let each: Vec<String> = fields.iter().map(|(name, t)| format!("{name}: {}", annotate(t))).collect();
                format!("{{ {} }}", each.join(", "))
            }
            FieldType::Tuple { .. } | FieldType::Table => "table".into(),
            FieldType::Some { of } => of.iter().map(annotate).collect::<Vec<_>>().join("|"),
            FieldType::Function => "function".into(),
            FieldType::Opaque => "any".into(),
        }
    }
}

/// `annotation` in parentheses where a suffix (`?`, `[]`) would bind to its last part only.
fn grouped(annotation: String) -> String {
    match annotation.contains(['|', ' ']) {
        true => format!("({annotation})"),
        false => annotation,
    }
}
