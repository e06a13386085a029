//! Field names a data type does not declare but nearly does: `max_hpp` for `max_hp`.
//!
//! A prototype may set fields its type does not declare (OpenNefia's mods add their own), so
//! an undeclared name is refused only when it looks like a slip of the keyboard for a declared
//! one: in a name of under 8 letters, one letter too many or too few, two letters swapped,
//! or a letter struck for its neighbour on the keyboard (another letter makes another word:
//! `max_mp` is not taken for `max_hp`); in a longer name, two such edits of any letters. A
//! plural of a declared name (`levels` beside `level`) is a field of its own, not a slip.
//! Names under 4 letters (`dv`, `pv`, `hp`) are never judged.
//! The forms and `data.set_field` refuse a misspelled field; `nefia check` reports one.

use crate::data::{DataRegistry, DataType};
use crate::symbol::Symbol;

/// Names shorter than this are never judged misspelled.
const SHORTEST: usize = 4;

/// Declared names this long or longer may be two edits away; shorter ones one slip.
const LONG: usize = 8;

/// A field name that is not declared but is a slip away from one that is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{name} is not a field of {data_type}: did you mean {meant}?")]
pub struct Misspelled {
    /// The data type.
    pub data_type: Symbol,
    /// The name given.
    pub name: String,
    /// The declared field it is nearest.
    pub meant: Symbol,
}

/// `name` as a misspelling of a field `data_type` declares, or `None` if it is declared or
/// not near enough any declared field to be one.
pub fn misspelled(data_type: &DataType, name: &str) -> Option<Misspelled> {
    if name.chars().count() < SHORTEST || data_type.fields.iter().any(|decl| decl.name.as_str() == name) {
        return None;
    }
    data_type
        .fields
        .iter()
        .filter_map(|decl| {
            let declared = decl.name.as_str();
            let slips = strsim::damerau_levenshtein(name, declared);
            let long = declared.chars().count() >= LONG;
            let near = if long { slips <= 2 } else { slips <= 1 && !a_word_apart(name, declared) };
            let near = near && !plural_of(name, declared) && !plural_of(declared, name);
            (declared.chars().count() >= SHORTEST && near).then_some((slips, decl.name))
        })
        .min_by_key(|(slips, _)| *slips)
        .map(|(_, meant)| Misspelled { data_type: data_type.id, name: name.to_owned(), meant })
}

/// Every field a prototype of `data` sets that is a misspelling of one its type declares:
/// the prototype's data type and id, and the misspelling, in declaration order.
pub fn misspelled_fields(data: &DataRegistry) -> Vec<(Symbol, Misspelled)> {
    let mut found = Vec::new();
    for data_type in data.types() {
        for &index in &data_type.entries {
            let proto = data.proto(index);
            let mut names: Vec<&str> = proto.given.iter().map(|(name, _)| name.as_str()).collect();
            names.sort_unstable();
            found.extend(names.into_iter().filter_map(|name| misspelled(data_type, name)).map(|m| (proto.id, m)));
        }
    }
    found
}

/// Whether `plural` is `singular` with `s` or `es` after it (`levels`, `boxes`): a field of
/// its own (a list of them), not a slip.
fn plural_of(plural: &str, singular: &str) -> bool {
    plural.strip_prefix(singular).is_some_and(|end| end == "s" || end == "es")
}

/// Whether `a` and `b` are the same length and differ in letters that are not neighbours on
/// the keyboard: another word (`max_mp`, `max_hp`), not a slip.
fn a_word_apart(a: &str, b: &str) -> bool {
    if a.chars().count() != b.chars().count() {
        return false;
    }
    a.chars().zip(b.chars()).filter(|(x, y)| x != y).any(|(x, y)| !neighbours(x, y))
        && strsim::damerau_levenshtein(a, b) == strsim::hamming(a, b).unwrap_or(usize::MAX)
}

/// Whether keys `a` and `b` touch on a QWERTY keyboard (`_` beside `-`, `0` and `p`).
fn neighbours(a: char, b: char) -> bool {
    const ROWS: [&str; 4] = ["1234567890-", "qwertyuiop[", "asdfghjkl;'", "zxcvbnm,./"];
    let place = |c: char| {
        let c = if c == '_' { '-' } else { c.to_ascii_lowercase() };
        ROWS.iter().enumerate().find_map(|(row, keys)| keys.find(c).map(|column| (row, column)))
    };
    match (place(a), place(b)) {
        (Some((row_a, col_a)), Some((row_b, col_b))) => {
            // Each row sits about half a key right of the one above it.
            let (a2, b2) = (col_a * 2 + row_a, col_b * 2 + row_b);
            row_a.abs_diff(row_b) <= 1 && a2.abs_diff(b2) <= 2 && (row_a, col_a) != (row_b, col_b)
        }
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{FieldDecl, OnDuplicate};
    use crate::moddable::{FieldMap, Origin};
    use crate::value::Value;

    fn chara() -> DataRegistry {
        let mut data = DataRegistry::default();
        let fields = ["max_hp", "hp", "dv", "pv", "level", "inventory_capacity", "relation"]
            .into_iter()
            .map(|name| FieldDecl::untyped(Symbol::intern(name), Value::Nil, String::new()))
            .collect();
        data.add_type(Symbol::intern("base.chara"), fields, Origin::tool("test"), OnDuplicate::Error).unwrap();
        data
    }

    #[test]
    fn a_slip_of_the_keyboard_is_caught_and_another_word_is_not() {
        let data = chara();
        let chara = data.data_type("base.chara").unwrap();
        let meant = |name: &str| misspelled(chara, name).map(|m| m.meant.as_str());
        assert_eq!(meant("max_hpp"), Some("max_hp"), "a letter too many");
        assert_eq!(meant("maxhp"), Some("max_hp"), "a letter too few");
        assert_eq!(meant("relaiton"), Some("relation"), "two swapped");
        assert_eq!(meant("max_jp"), Some("max_hp"), "a neighbouring key");
        assert_eq!(meant("inventory_capasity"), Some("inventory_capacity"), "two slips in a long name");
        assert_eq!(meant("max_mp"), None, "another field OpenNefia's characters have");
        assert_eq!(meant("max_hp"), None, "declared");
        assert_eq!(meant("hpp"), None, "too short to judge");
        assert_eq!(meant("favourite_food"), None, "a field of the mod's own");
        assert_eq!(meant("levels"), None, "a plural is a field of its own");
        assert_eq!(meant("leve"), Some("level"), "but a letter too few is a slip");
        let message = misspelled(chara, "max_hpp").unwrap().to_string();
        assert_eq!(message, "max_hpp is not a field of base.chara: did you mean max_hp?");
    }

    #[test]
    fn every_prototypes_misspelled_field_is_listed() {
        let mut data = chara();
        let given: FieldMap =
            [(Symbol::intern("max_hpp"), Value::Int(3)), (Symbol::intern("favourite_food"), Value::str("putitoro"))]
                .into_iter()
                .collect();
        let (chara, id) = (Symbol::intern("base.chara"), Symbol::intern("elona.x"));
        data.add(chara, id, given, Origin::tool("test"), OnDuplicate::Error).unwrap();
        let found = misspelled_fields(&data);
        assert_eq!(found.len(), 1, "{found:?}");
        assert_eq!((found[0].0, found[0].1.meant.as_str()), (id, "max_hp"));
    }
}
