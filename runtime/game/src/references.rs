//! References between prototypes: a field declared `types.data_id("base.map_tile")` names a
//! prototype of `base.map_tile`, in a list, a map or a table of fields as well as alone.
//!
//! `types.data_id` checks only an id's form, as OpenNefia's does, so a prototype may name one
//! a later file or mod adds. Whether the id names a prototype, and of that type, is asked
//! here once every mod has loaded: by every edit of a field (before anything changes), by a
//! hotload (which may not leave a reference dangling that was not before), and by
//! `nefia check`. A refusal says the id, the type it must be and what it is instead:
//! `elona.putit is a base.chara, not a base.map_tile`, or `no base.map_tile is called
//! elona.no_such_tile: did you mean elona.floor_stone?`.

use crate::data::DataRegistry;
use crate::field_type::FieldType;
use crate::symbol::Symbol;
use crate::value::{Key, Value};

/// The farthest (Damerau–Levenshtein) a missing id may be from an existing one to be offered
/// as what was meant, besides a third of its length.
const NEAR: usize = 2;

/// How many ids of a type a refusal lists when none is near the one given.
const LISTED: usize = 5;

/// Why a value does not fit the field its data type declares (every edit of a field asks
/// before anything changes).
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum FieldValueError {
    /// The field's checker refused the value, in OpenNefia's words
    /// (`Value is not of type "uint": "hp" ("lots")`).
    #[error("{0}")]
    Type(String),
    /// The checker failed before it judged the value (its error).
    #[error("the value could not be checked: {0}")]
    Unchecked(String),
    /// An id the value gives (the value itself) names no prototype of the type wanted.
    #[error("{0}")]
    Reference(ReferenceError),
    /// An id inside the value names no prototype of the type wanted.
    #[error("{at}: {error}")]
    ReferenceWithin {
        /// Where in the value: the field and the path inside it (`tiles[2]`).
        at: String,
        /// Why the id is refused.
        error: ReferenceError,
    },
}

/// Why an id does not name a prototype of the type a field wants.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReferenceError {
    /// No prototype of the wanted type has the id (nor of another type).
    #[error("no {expected} is called {id}{hint}")]
    Missing {
        /// The id given.
        id: String,
        /// The data type the field wants.
        expected: Symbol,
        /// `: did you mean …?`, the type's ids, or that it has none.
        hint: String,
    },
    /// The id names a prototype of another type.
    #[error("{id} is a {actual}, not a {expected}")]
    WrongType {
        /// The id given.
        id: String,
        /// The data type the field wants.
        expected: Symbol,
        /// The type (or types, joined by " and a ") that have a prototype of that id.
        actual: String,
    },
}

impl ReferenceError {
    /// The id that names no prototype of the wanted type.
    pub fn id(&self) -> &str {
        match self {
            ReferenceError::Missing { id, .. } | ReferenceError::WrongType { id, .. } => id,
        }
    }
}

/// A reference that names no prototype of its type, found in a prototype's field (or in a
/// data type's declared default).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dangling {
    /// The data type of the prototype (or the type whose default it is).
    pub data_type: Symbol,
    /// The prototype, or `None` for a declared default.
    pub prototype: Option<Symbol>,
    /// The field.
    pub field: Symbol,
    /// Where inside the field's value, Lua-style (`[2]`, `.floor`), or empty for the value itself.
    pub within: String,
    /// Why the id there is wrong.
    pub error: ReferenceError,
}

impl std::fmt::Display for Dangling {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.prototype {
            Some(prototype) => write!(f, "{prototype}.{}{}: {}", self.field, self.within, self.error),
            None => write!(f, "the default of {}.{}{}: {}", self.data_type, self.field, self.within, self.error),
        }
    }
}

/// Checks the references in `value`, of a field declared `ty`: the first that names no
/// prototype of its type, with where it is inside the value (empty for the value itself).
/// A value of another shape than `ty` is not judged here (its type checker refuses it).
pub fn check(data: &DataRegistry, ty: &FieldType, value: &Value) -> Result<(), (String, ReferenceError)> {
    let mut found = Vec::new();
    references(data, ty, value, String::new(), &mut found);
    found.into_iter().next().map_or(Ok(()), Err)
}

/// Every reference of every prototype of `data` that names no prototype of its type, and
/// every data type's default that does, in declaration order.
pub fn dangling(data: &DataRegistry) -> Vec<Dangling> {
    let mut all = Vec::new();
    for data_type in data.types() {
        let referring: Vec<_> = data_type.fields.iter().filter(|decl| refers(&decl.ty)).collect();
        if referring.is_empty() {
            continue;
        }
        for decl in &referring {
            let mut found = Vec::new();
            references(data, &decl.ty, &decl.default, String::new(), &mut found);
            all.extend(found.into_iter().map(|(within, error)| Dangling {
                data_type: data_type.id,
                prototype: None,
                field: decl.name,
                within,
                error,
            }));
        }
        for &index in &data_type.entries {
            let proto = data.proto(index);
            for decl in &referring {
                let Some(value) = proto.given.get(decl.name) else { continue };
                let mut found = Vec::new();
                references(data, &decl.ty, value, String::new(), &mut found);
                all.extend(found.into_iter().map(|(within, error)| Dangling {
                    data_type: data_type.id,
                    prototype: Some(proto.id),
                    field: decl.name,
                    within,
                    error,
                }));
            }
        }
    }
    all
}

/// Whether a value of type `ty` can hold a reference.
pub fn refers(ty: &FieldType) -> bool {
    match ty {
        FieldType::DataId { .. } => true,
        FieldType::Optional { of } | FieldType::List { of } => refers(of),
        FieldType::Map { key, value } => refers(key) || refers(value),
        FieldType::Fields { fields } => fields.iter().any(|(_, t)| refers(t)),
        FieldType::Tuple { of } | FieldType::Some { of } => of.iter().any(refers),
        _ => false,
    }
}

/// Adds to `found` each reference in `value` (of type `ty`, at `within`) that names no
/// prototype of its type.
fn references(
    data: &DataRegistry,
    ty: &FieldType,
    value: &Value,
    within: String,
    found: &mut Vec<(String, ReferenceError)>,
) {
    if !refers(ty) {
        return;
    }
    let element = |index: usize| format!("{within}[{}]", index + 1);
    match (ty, value) {
        (FieldType::DataId { data_type }, Value::Str(id)) => {
            if let Err(error) = resolve(data, data_type, id) {
                found.push((within, error));
            }
        }
        (FieldType::Optional { of }, value) => references(data, of, value, within, found),
        (FieldType::List { of }, Value::List(items)) => {
            for (index, item) in items.iter().enumerate() {
                references(data, of, item, element(index), found);
            }
        }
        (FieldType::Tuple { of }, Value::List(items)) => {
            for (index, (ty, item)) in of.iter().zip(items.iter()).enumerate() {
                references(data, ty, item, element(index), found);
            }
        }
        (FieldType::Map { key, value: of }, Value::List(items)) => {
            for (index, item) in items.iter().enumerate() {
                references(data, key, &Value::Int(i64::try_from(index + 1).unwrap_or(i64::MAX)), element(index), found);
                references(data, of, item, element(index), found);
            }
        }
        (FieldType::Map { key, value: of }, Value::Map(entries)) => {
            for (name, item) in entries.iter() {
                let (at, key_value) = match name {
                    Key::Int(index) => (format!("{within}[{index}]"), Value::Int(*index)),
                    Key::Str(name) => (format!("{within}.{name}"), Value::Str(name.clone())),
                };
                references(data, key, &key_value, format!("{at} (its key)"), found);
                references(data, of, item, at, found);
            }
        }
        (FieldType::Fields { fields }, Value::Map(entries)) => {
            for (name, ty) in fields {
                if let Some(item) = entries.get(&Key::Str(name.as_str().into())) {
                    references(data, ty, item, format!("{within}.{name}"), found);
                }
            }
        }
        (FieldType::Some { of }, value) => {
            // Fine if any alternative that takes a value of this shape finds nothing wrong;
            // else what the first of them found.
            let mut first = None;
            for ty in of.iter().filter(|ty| takes_shape(ty, value)) {
                let mut own = Vec::new();
                references(data, ty, value, within.clone(), &mut own);
                if own.is_empty() {
                    return;
                }
                first.get_or_insert(own);
            }
            found.extend(first.unwrap_or_default());
        }
        _ => {}
    }
}

/// Whether a value of `ty` could be `value` by its shape alone (a string for an id, a table
/// for a list): which alternatives of `types.some` a value is meant for.
fn takes_shape(ty: &FieldType, value: &Value) -> bool {
    match ty {
        FieldType::Any => true,
        FieldType::Boolean => matches!(value, Value::Bool(_)),
        FieldType::Number { .. } => matches!(value, Value::Int(_) | Value::Float(_)),
        FieldType::String | FieldType::DataId { .. } => matches!(value, Value::Str(_)),
        FieldType::OneOf { values } => values.contains(value),
        FieldType::Optional { of } => *value == Value::Nil || takes_shape(of, value),
        FieldType::Some { of } => of.iter().any(|ty| takes_shape(ty, value)),
        FieldType::Color
        | FieldType::List { .. }
        | FieldType::Map { .. }
        | FieldType::Fields { .. }
        | FieldType::Tuple { .. }
        | FieldType::Table => matches!(value, Value::List(_) | Value::Map(_)),
        FieldType::Function | FieldType::Opaque => false,
    }
}

/// Whether `id` names a prototype of `data_type`, or why not.
pub fn resolve(data: &DataRegistry, data_type: &str, id: &str) -> Result<(), ReferenceError> {
    let expected = Symbol::intern(data_type);
    if data.find(expected, id).is_ok() {
        return Ok(());
    }
    let elsewhere: Vec<&str> = data
        .types()
        .iter()
        .filter(|other| other.id != expected && data.find(other.id, id).is_ok())
        .map(|other| other.id.as_str())
        .collect();
    if !elsewhere.is_empty() {
        return Err(ReferenceError::WrongType { id: id.to_owned(), expected, actual: elsewhere.join(" and a ") });
    }
    let known: Vec<&str> = data.entries(data_type).map(|proto| proto.id.as_str()).collect();
    Err(ReferenceError::Missing { id: id.to_owned(), expected, hint: hint(id, data_type, &known) })
}

/// What to say after "no T is called X": the nearest id of T, else some of its ids.
fn hint(id: &str, data_type: &str, known: &[&str]) -> String {
    let nearest = known
        .iter()
        .map(|candidate| (strsim::damerau_levenshtein(id, candidate), *candidate))
        .filter(|(distance, _)| *distance <= NEAR.max(id.chars().count() / 3))
        .min();
    if let Some((_, nearest)) = nearest {
        return format!(": did you mean {nearest}?");
    }
    match known {
        [] => format!(": there is no {data_type} at all"),
        some if some.len() <= LISTED => format!(" (the {data_type} ids: {})", some.join(", ")),
        many => format!(" (the {data_type} ids: {}, and {} more)", many[..LISTED].join(", "), many.len() - LISTED),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{FieldDecl, OnDuplicate};
    use crate::moddable::{FieldMap, Origin};

    fn id_field(name: &str, ty: FieldType) -> FieldDecl {
        FieldDecl { ty, ..FieldDecl::untyped(Symbol::intern(name), Value::Nil, String::new()) }
    }

    fn tile() -> FieldType {
        FieldType::DataId { data_type: "base.map_tile".into() }
    }

    fn registry() -> DataRegistry {
        let mut data = DataRegistry::default();
        let origin = Origin::tool("test");
        let add_type = |data: &mut DataRegistry, id: &str, fields| {
            data.add_type(Symbol::intern(id), fields, origin.clone(), OnDuplicate::Error).unwrap();
        };
        add_type(&mut data, "base.map_tile", Vec::new());
        add_type(&mut data, "base.chara", Vec::new());
        let fields = vec![
            id_field("tile", tile()),
            id_field("tiles", FieldType::List { of: Box::new(tile()) }),
            id_field("by_name", FieldType::Map { key: Box::new(FieldType::String), value: Box::new(tile()) }),
            id_field(
                "either",
                FieldType::Some { of: vec![tile(), FieldType::Number { integer: true, min: None, max: None }] },
            ),
        ];
        add_type(&mut data, "base.map_generator", fields);
        for (data_type, id) in
            [("base.map_tile", "elona.floor_stone"), ("base.map_tile", "base.wall"), ("base.chara", "elona.putit")]
        {
            data.add(
                Symbol::intern(data_type),
                Symbol::intern(id),
                FieldMap::new(),
                origin.clone(),
                OnDuplicate::Error,
            )
            .unwrap();
        }
        data
    }

    #[test]
    fn an_id_of_another_type_or_of_none_is_refused_with_what_it_is_instead() {
        let data = registry();
        assert_eq!(resolve(&data, "base.map_tile", "base.wall"), Ok(()));
        let wrong = resolve(&data, "base.map_tile", "elona.putit").unwrap_err();
        assert_eq!(wrong.to_string(), "elona.putit is a base.chara, not a base.map_tile");
        let near = resolve(&data, "base.map_tile", "elona.floor_ston").unwrap_err();
        assert_eq!(near.to_string(), "no base.map_tile is called elona.floor_ston: did you mean elona.floor_stone?");
        let far = resolve(&data, "base.map_tile", "elona.no_such_tile").unwrap_err();
        assert_eq!(
            far.to_string(),
            "no base.map_tile is called elona.no_such_tile (the base.map_tile ids: elona.floor_stone, base.wall)"
        );
    }

    #[test]
    fn references_inside_lists_maps_and_alternatives_are_checked() {
        let data = registry();
        let list = Value::list(vec![Value::str("base.wall"), Value::str("elona.putit")]);
        let (within, error) =
            check(&data, &id_field("", FieldType::List { of: Box::new(tile()) }).ty, &list).unwrap_err();
        assert_eq!(
            (within.as_str(), error.to_string().as_str()),
            ("[2]", "elona.putit is a base.chara, not a base.map_tile")
        );
        let map = Value::map([("wall", Value::str("base.walll"))]);
        let ty = FieldType::Map { key: Box::new(FieldType::String), value: Box::new(tile()) };
        assert_eq!(check(&data, &ty, &map).unwrap_err().0, ".wall");
        let either = FieldType::Some { of: vec![tile(), FieldType::Number { integer: true, min: None, max: None }] };
        assert_eq!(check(&data, &either, &Value::Int(3)), Ok(()), "a number takes the other alternative");
        assert!(check(&data, &either, &Value::str("base.nothing")).is_err());
        assert_eq!(
            check(&data, &FieldType::String, &Value::str("base.nothing")),
            Ok(()),
            "a plain string refers to nothing"
        );
    }

    #[test]
    fn dangling_lists_every_prototypes_bad_reference() {
        let mut data = registry();
        let given: FieldMap = [
            (Symbol::intern("tile"), Value::str("elona.putit")),
            (Symbol::intern("tiles"), Value::list(vec![Value::str("base.wall"), Value::str("base.none")])),
        ]
        .into_iter()
        .collect();
        let generator = Symbol::intern("base.map_generator");
        data.add(generator, Symbol::intern("elona.cave"), given, Origin::tool("test"), OnDuplicate::Error).unwrap();
        let found: Vec<String> = dangling(&data).iter().map(ToString::to_string).collect();
        assert_eq!(found.len(), 2, "{found:?}");
        assert_eq!(found[0], "elona.cave.tile: elona.putit is a base.chara, not a base.map_tile");
        assert!(found[1].starts_with("elona.cave.tiles[2]: no base.map_tile is called base.none"), "{found:?}");
    }
}
