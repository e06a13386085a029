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

/// What a field's declared type asks of a boolean, number or string written to it from Lua
/// (`obj.hp = 5`), made once from the field's checker when its data type is declared: the
/// checks Rust can make exactly as the checker would, so the fast write need not run it. What
/// it cannot tell ([`WriteCheck::Judge`]) the checker judges.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub enum WriteCheck {
    /// Anything (`types.any`, or no type declared).
    #[default]
    Any,
    /// `types.boolean`.
    Boolean,
    /// Any string (`types.string`, `path`, `locale_id`, `require_path`).
    String,
    /// A number that is not NaN (`types.number`, `int`, `float`, bounded by `gt`, `gteq`, `lt`,
    /// `lteq` or `range`).
    Number {
        /// Lua integers are allowed (`number`, `int`).
        integers: bool,
        /// Lua floats are allowed (`number`, `float`).
        floats: bool,
        /// The least value, and whether it is allowed itself.
        low: Option<(f64, bool)>,
        /// The greatest value, and whether it is allowed itself.
        high: Option<(f64, bool)>,
    },
    /// Only the checker can tell (an identifier, an id, one of some values, a table…).
    Judge,
}

/// The largest integer an `f64` holds exactly: beyond it, a bound is compared by the checker.
const EXACT_INTEGER: i64 = 1 << 53;

impl WriteCheck {
    /// True if the checker surely takes `value`; false if it may not (it then judges).
    pub fn surely_admits(&self, value: &Value) -> bool {
        match (self, value) {
            (WriteCheck::Any, _) | (WriteCheck::Boolean, Value::Bool(_)) | (WriteCheck::String, Value::Str(_)) => true,
            (WriteCheck::Number { integers, low, high, .. }, Value::Int(n)) => {
                // Within ±2^53 an integer is exactly an f64, so it compares as Lua compares it.
                *integers && (-EXACT_INTEGER..=EXACT_INTEGER).contains(n) && within(*n as f64, *low, *high)
            }
            (WriteCheck::Number { floats, low, high, .. }, Value::Float(x)) => {
                *floats && !x.is_nan() && within(*x, *low, *high)
            }
            _ => false,
        }
    }
}

/// True if `x` is within the bounds (each with whether it is allowed itself).
fn within(x: f64, low: Option<(f64, bool)>, high: Option<(f64, bool)>) -> bool {
    let above = low.is_none_or(|(low, allowed)| if allowed { x >= low } else { x > low });
    let below = high.is_none_or(|(high, allowed)| if allowed { x <= high } else { x < high });
    above && below
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_write_check_admits_only_what_its_checker_surely_takes() {
        let uint = WriteCheck::Number { integers: true, floats: false, low: Some((0.0, true)), high: None };
        assert!(uint.surely_admits(&Value::Int(0)) && uint.surely_admits(&Value::Int(7)));
        assert!(!uint.surely_admits(&Value::Int(-1)) && !uint.surely_admits(&Value::Float(1.0)));
        assert!(!uint.surely_admits(&Value::Int(i64::MAX)), "beyond 2^53 the checker compares");
        let open =
            WriteCheck::Number { integers: true, floats: true, low: Some((0.0, false)), high: Some((1.0, false)) };
        assert!(open.surely_admits(&Value::Float(0.5)));
        assert!(!open.surely_admits(&Value::Float(0.0)) && !open.surely_admits(&Value::Int(1)));
        assert!(!open.surely_admits(&Value::Float(f64::NAN)));
        assert!(WriteCheck::String.surely_admits(&Value::Str("a".into())));
        assert!(!WriteCheck::String.surely_admits(&Value::Int(1)) && !WriteCheck::Boolean.surely_admits(&Value::Nil));
        assert!(WriteCheck::Any.surely_admits(&Value::Float(f64::NAN)));
        assert!(!WriteCheck::Judge.surely_admits(&Value::Bool(true)), "the checker judges");
    }
}
