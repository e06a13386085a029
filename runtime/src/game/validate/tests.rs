//! Tests of finding a problem's line and suggesting a known field.

use super::*;

#[test]
fn places_are_found_on_their_lines() {
    let text = "(\n    name: \"town\",\n    width: 2,\n    tiles: [\n        \"..\",\n        \".x\",\n    ],\n    objects: [\n        (kind: Chara, id: \"elona.putit\", x: 0, y: 0),\n        (kind: Chara, id: \"elona.putit\", x: 9, y: 0),\n    ],\n)";
    assert_eq!(line_of_place(text, &Place::MapField { map: 0, field: "width" }), Some(3));
    assert_eq!(line_of_place(text, &Place::Row { map: 0, row: 1 }), Some(6));
    let putit = Symbol::intern("elona.putit");
    assert_eq!(line_of_place(text, &Place::Object { map: Some(0), id: putit, nth: 1 }), Some(10));
    assert_eq!(line_of_place(text, &Place::Top("nothing")), None);
}

#[test]
fn unknown_fields_suggest_the_nearest() {
    let message = unknown_field_message("widht", &["name", "width", "height"], Some("MapRecord"));
    assert!(message.contains("did you mean 'width'?"), "{message}");
    let message = unknown_field_message("zzzzzzzz", &["name", "width"], None);
    assert!(!message.contains("did you mean"), "{message}");
}
