//! The fast reader against `ron`: what Nefia writes is read the same, the rest is declined.

use super::*;
use std::collections::BTreeMap;

#[derive(Debug, PartialEq, serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Sample {
    name: String,
    count: Option<u32>,
    #[serde(default)]
    missing: Option<i64>,
    list: Vec<i32>,
    map: BTreeMap<String, f64>,
    kind: Kind,
    pair: (i8, bool),
}

#[derive(Debug, PartialEq, serde::Deserialize)]
enum Kind {
    Plain,
    Wrapped(u8),
    Pair(i8, String),
    Named { a: u8, b: Option<bool> },
}

const SAMPLE: &str = r#"(
    name: "a \"b\"\n", count: 3,
    list: [1, -2, 3,], map: { "x": 1.5, "y": -2e3 },
    kind: Wrapped(7), pair: (-1, true),
)"#;

#[test]
fn what_nefia_writes_is_read_as_ron_reads_it() {
    let fast: Sample = read(SAMPLE).expect("read");
    let slow: Sample = crate::files::ron_options().from_str(SAMPLE).expect("ron reads it");
    assert_eq!(fast, slow);
    assert_eq!(fast.name, "a \"b\"\n");
    assert_eq!(fast.kind, Kind::Wrapped(7));
    for (text, kind) in [
        ("Plain", Kind::Plain),
        ("Pair(-3, \"x\",)", Kind::Pair(-3, "x".into())),
        ("Named(a: 1, b: true)", Kind::Named { a: 1, b: Some(true) }),
        ("Named(a: 2)", Kind::Named { a: 2, b: None }),
    ] {
        assert_eq!(read::<Kind>(text), Ok(kind), "{text}");
        assert_eq!(crate::files::ron_options().from_str::<Kind>(text).ok(), read::<Kind>(text).ok(), "{text}");
    }
    // A table as a field or a mod's `save` holds it, read through `deserialize_any`.
    let table = r#"[1.5, -2e3, 1e300, -0, "é", {"$object": 3}, {"k": [true, ()]}, ()]"#;
    let value: crate::value::Value = read(table).expect("the table is read");
    assert_eq!(Ok(value), crate::files::ron_options().from_str(table));
    assert_eq!(read::<Option<u32>>("Some(4)"), Ok(Some(4)));
    assert_eq!(read::<Option<u32>>("None"), Ok(None));
}

#[test]
fn ron_beyond_what_nefia_writes_is_declined() {
    for text in [
        "// a comment\n(x: 1)",
        "0x10",
        "1_000",
        "5i32",
        "1.",
        "007",
        "r\"raw\"",
        "'c'",
        "inf",
        "\"\\u{}\"",
        "\"\\u{1234567}\"",
        "\"\\u{d800}\"",
        "\"\\x41\"",
        "Sample(name: \"n\")",
        "[1, 2] trailing",
        "[1 2]",
    ] {
        assert_eq!(read::<ron::Value>(text), Err(Declined), "{text}");
    }
    assert_eq!(read::<u8>("256"), Err(Declined));
    assert_eq!(read::<u32>("-1"), Err(Declined));
}

/// A struct that skips the fields it does not know (as a save list's head skips a save).
#[derive(Debug, PartialEq, serde::Deserialize)]
struct Head {
    turn: u32,
}

#[test]
fn a_skipped_value_is_read_as_strictly_as_any_other() {
    // Words that are whole values to `ron` take nothing after them; `Some` takes exactly
    // one value in parentheses.
    for junk in ["true(1)", "None()", "inf(0)", "Some", "Some()", "Some(1, 2)", "Some(a: 1)", "[Some(Some)]"] {
        let text = format!("(turn: 1, junk: {junk})");
        assert_eq!(read::<Head>(&text), Err(Declined), "{text}");
        assert!(crate::files::ron_options().from_str::<Head>(&text).is_err(), "ron reads {text}");
    }
    for junk in ["Some(1,)", "None", "Tile(x: 1, y: 2)", "Pair(1, \"a\")", "unit", "{\"k\": [1.5, ()]}"] {
        let text = format!("(turn: 1, junk: {junk})");
        assert_eq!(read::<Head>(&text), Ok(Head { turn: 1 }), "{text}");
        assert!(crate::files::ron_options().from_str::<Head>(&text).is_ok(), "ron refuses {text}");
    }
}

#[test]
fn the_escapes_rons_writer_makes_are_read() {
    for text in ["Tom's", "e\u{301}", "tab\t, nul\0, \"quoted\" \\", "\u{7f}\u{10ffff}", "\u{1}"] {
        let written = crate::files::ron_options().to_string(&text).expect("written");
        let fast: String = read(&written).unwrap_or_else(|_| panic!("declined {written}"));
        assert_eq!(fast, text, "{written}");
    }
}

#[test]
fn nesting_past_the_limit_is_declined_without_overflowing_the_stack() {
    let deep = "[".repeat(100_000) + &"]".repeat(100_000);
    assert_eq!(read::<crate::value::Value>(&deep), Err(Declined));
    let shallow = "[".repeat(30) + &"]".repeat(30);
    assert!(read::<crate::value::Value>(&shallow).is_ok());
}
