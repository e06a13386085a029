//! Each shape an `image` takes, and each refusal.

use std::sync::Arc;

use super::parse::{ArtError, parse};
use super::sheet::Sheets;
use super::{Choice, Frame, Layout, Rotation};
use crate::value::{Key, Value};

/// A PNG header claiming `width` × `height` (all the engine reads of a sheet).
fn png(width: u32, height: u32) -> Vec<u8> {
    let mut bytes = vec![0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n', 0, 0, 0, 13];
    bytes.extend_from_slice(b"IHDR");
    bytes.extend_from_slice(&width.to_be_bytes());
    bytes.extend_from_slice(&height.to_be_bytes());
    bytes.extend_from_slice(&[8, 6, 0, 0, 0]);
    bytes
}

/// Asset folders holding `sheet.png` (128×64), `water.png` (64×16) and `wall.png` (256×192).
fn sheets() -> (tempfile::TempDir, Sheets) {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("tiles")).unwrap();
    for (name, w, h) in [("sheet.png", 128, 64), ("water.png", 64, 16), ("wall.png", 256, 192)] {
        std::fs::write(dir.path().join("tiles").join(name), png(w, h)).unwrap();
    }
    let sheets = Sheets::new(vec![dir.path().to_owned()]);
    (dir, sheets)
}

/// The value of a Lua table constructor of the tests' kind: tables, `key = value`, strings,
/// whole numbers and booleans.
fn lua(text: &str) -> Value {
    fn value(rest: &mut &str) -> Value {
        *rest = rest.trim_start();
        if let Some(inner) = rest.strip_prefix('{') {
            *rest = inner;
            let (mut list, mut map) = (Vec::new(), std::collections::BTreeMap::new());
            loop {
                *rest = rest.trim_start().trim_start_matches(',').trim_start();
                if let Some(after) = rest.strip_prefix('}') {
                    *rest = after;
                    break;
                }
                let name: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
                let keyed = !name.is_empty() && rest[name.len()..].trim_start().starts_with('=') && !name.starts_with(|c: char| c.is_ascii_digit());
                if keyed {
                    *rest = rest[name.len()..].trim_start()[1..].trim_start();
                    map.insert(Key::Str(Arc::from(name.as_str())), value(rest));
                } else {
                    list.push(value(rest));
                }
            }
            return if map.is_empty() { Value::list(list) } else { Value::Map(Arc::new(map)) };
        }
        if let Some(inner) = rest.strip_prefix('"') {
            let end = inner.find('"').unwrap();
            let text = &inner[..end];
            *rest = &inner[end + 1..];
            return Value::str(text);
        }
        let word: String = rest.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '-').collect();
        *rest = &rest[word.len()..];
        match word.as_str() {
            "true" => Value::Bool(true),
            "false" => Value::Bool(false),
            number => Value::Int(number.parse().unwrap_or_else(|_| panic!("not a number: {number}"))),
        }
    }
    let mut rest = text;
    value(&mut rest)
}

fn refusal(text: &str) -> String {
    let (_dir, sheets) = sheets();
    parse(&lua(text), &sheets).unwrap_err().to_string()
}

#[test]
fn a_file_name_is_the_whole_sheet_at_its_real_size() {
    let (_dir, sheets) = sheets();
    let parsed = parse(&Value::str("tiles/sheet.png"), &sheets).unwrap();
    assert_eq!(parsed.art.choice, Choice::Single);
    let sprite = &parsed.art.sprites[0];
    assert_eq!((sprite.sheet.as_str(), sprite.width, sprite.height), ("tiles/sheet.png", 128, 64));
    let unchecked = parse(&Value::str("tiles/sheet.png"), &Sheets::default()).unwrap();
    assert_eq!(unchecked.art.sprites[0].width, 0, "no asset folders: the whole sheet, size unknown");
}

#[test]
fn opennefias_file_split_in_count_x_frames_animates_across() {
    let (_dir, sheets) = sheets();
    let parsed = parse(&lua(r#"{ image = "tiles/water.png", count_x = 4 }"#), &sheets).unwrap();
    let sprite = &parsed.art.sprites[0];
    assert_eq!((sprite.width, sprite.height), (16, 16));
    assert_eq!(sprite.frames.iter().map(|f| (f.x, f.duration_ms)).collect::<Vec<_>>(), [(0, 250), (16, 250), (32, 250), (48, 250)]);
}

#[test]
fn opennefias_region_with_count_x_frame_ms_and_key_color() {
    let (_dir, sheets) = sheets();
    let text = r#"{ source = "tiles/sheet.png", x = 0, y = 32, width = 32, height = 32, count_x = 4, frame_ms = 100, key_color = {0, 0, 0} }"#;
    let parsed = parse(&lua(text), &sheets).unwrap();
    let sprite = &parsed.art.sprites[0];
    assert_eq!(sprite.key_color, Some([0, 0, 0]));
    assert_eq!(sprite.frames[3], Frame { x: 96, y: 32, duration_ms: 100 });
}

#[test]
fn explicit_frames_offsets_flips_and_turns() {
    let (_dir, sheets) = sheets();
    let text = r#"{ source = "tiles/sheet.png", x = 0, y = 0, width = 16, height = 16, offset_x = 2, offset_y = -4, flip_x = true, rotation = 90,
        frames = { { x = 0, y = 0, ms = 250 }, { x = 16, y = 0, ms = 100 } } }"#;
    let sprite = parse(&lua(text), &sheets).unwrap().art.sprites[0].clone();
    assert_eq!(sprite.frames, [Frame { x: 0, y: 0, duration_ms: 250 }, Frame { x: 16, y: 0, duration_ms: 100 }]);
    assert_eq!((sprite.offset, sprite.flip_x, sprite.flip_y, sprite.rotation), ((2, -4), true, false, Rotation::Quarter));
}

#[test]
fn weighted_variants_of_files_and_regions() {
    let (_dir, sheets) = sheets();
    let text = r#"{ variants = { { weight = 3, image = "tiles/sheet.png" }, { image = { source = "tiles/sheet.png", x = 16, y = 0, width = 16, height = 16 } } } }"#;
    let parsed = parse(&lua(text), &sheets).unwrap();
    assert_eq!(parsed.art.choice, Choice::Variants { weights: vec![3, 1] });
    assert_eq!(parsed.art.sprites[1].frames[0].x, 16);
}

#[test]
fn a_blob_set_lays_its_47_pieces_in_rows_of_columns() {
    let (_dir, sheets) = sheets();
    let text = r#"{ source = "tiles/wall.png", x = 0, y = 0, width = 32, height = 32, autotile = "blob47", columns = 8, connects = "wall" }"#;
    let parsed = parse(&lua(text), &sheets).unwrap();
    assert_eq!(parsed.art.choice, Choice::Set(Layout::Blob47));
    assert_eq!(parsed.art.sprites.len(), 47);
    assert_eq!(parsed.connects.map(|c| c.to_string()), Some("wall".into()));
    let at = |piece: usize| (parsed.art.sprites[piece].frames[0].x, parsed.art.sprites[piece].frames[0].y);
    assert_eq!((at(0), at(7), at(8), at(46)), ((0, 0), (224, 0), (0, 32), (192, 160)));
    let wang = parse(&lua(r#"{ source = "tiles/wall.png", x = 0, y = 0, width = 32, height = 32, autotile = "wang16", columns = 4 }"#), &sheets).unwrap();
    assert_eq!((wang.art.sprites.len(), wang.art.sprites[5].frames[0].x, wang.art.sprites[5].frames[0].y), (16, 32, 32));
}

#[test]
fn multitile_parts_are_flattened_four_turns_each_missing_ones_drawn_as_the_centre() {
    let (_dir, sheets) = sheets();
    let region = |x: u32| format!(r#"{{ source = "tiles/sheet.png", x = {x}, y = 0, width = 16, height = 16 }}"#);
    let text = format!("{{ multitile = {{ center = {}, edge = {}, corner = {} }}, connects = \"wall\" }}", region(0), region(16), region(32));
    let parsed = parse(&lua(&text), &sheets).unwrap();
    assert_eq!(parsed.art.choice, Choice::Set(Layout::Multitile));
    assert_eq!(parsed.art.sprites.len(), 24);
    // Parts in order: unconnected, end_piece, edge, corner, t_connection, center.
    let edge_turned = &parsed.art.sprites[2 * 4 + 1];
    assert_eq!((edge_turned.frames[0].x, edge_turned.rotation), (16, Rotation::Quarter));
    let unconnected = &parsed.art.sprites[1];
    assert_eq!((unconnected.frames[0].x, unconnected.rotation), (0, Rotation::None), "a missing part is the centre, unturned");
}

#[test]
fn each_bad_image_is_refused_saying_what_to_write() {
    let missing = refusal(r#""tiles/nope.png""#);
    assert!(missing.contains("'tiles/nope.png' was not found in the asset folders"), "{missing}");
    let outside = refusal(r#"{ source = "tiles/sheet.png", x = 120, y = 0, width = 16, height = 16 }"#);
    assert!(outside.contains("lies outside the sheet (128×64)"), "{outside}");
    let frames_outside = refusal(r#"{ source = "tiles/sheet.png", x = 0, y = 0, width = 32, height = 32, count_x = 5 }"#);
    assert!(frames_outside.contains("x = 128") && frames_outside.contains("outside"), "{frames_outside}");
    let side = refusal(r#"{ source = "tiles/sheet.png", x = 0, y = 0, width = 5000, height = 16 }"#);
    assert!(side.contains("width is a whole number from 1 to 4096"), "{side}");
    let typo = refusal(r#"{ sorce = "tiles/sheet.png", x = 0, y = 0, width = 16, height = 16 }"#);
    assert!(typo.contains("unknown key 'sorce' in the image: did you mean 'source'?"), "{typo}");
    let no_size = refusal(r#"{ source = "tiles/sheet.png", x = 0, y = 0 }"#);
    assert!(no_size.contains("a region gives width"), "{no_size}");
    let layout = refusal(r#"{ source = "tiles/wall.png", x = 0, y = 0, width = 32, height = 32, autotile = "blob48" }"#);
    assert!(layout.contains("autotile is \"blob47\" or \"wang16\", not \"blob48\""), "{layout}");
    let set_off_sheet = refusal(r#"{ source = "tiles/sheet.png", x = 0, y = 0, width = 32, height = 32, autotile = "blob47" }"#);
    assert!(set_off_sheet.contains("outside the sheet"), "{set_off_sheet}");
    let weight = refusal(r#"{ variants = { { weight = 0, image = "tiles/sheet.png" } } }"#);
    assert!(weight.starts_with("variant 1: weight is a whole number"), "{weight}");
    let nested = refusal(r#"{ variants = { { image = { variants = {} } } } }"#);
    assert!(nested.contains("not more variants"), "{nested}");
    let rotation = refusal(r#"{ source = "tiles/sheet.png", x = 0, y = 0, width = 16, height = 16, rotation = 45 }"#);
    assert!(rotation.contains("rotation is 0, 90, 180 or 270"), "{rotation}");
    let number = refusal("12");
    assert!(number.contains("an image is a file name"), "{number}");
    let colour = refusal(r#"{ source = "tiles/sheet.png", x = 0, y = 0, width = 16, height = 16, key_color = {0, 0} }"#);
    assert!(colour.contains("key_color is { r, g, b }"), "{colour}");
    let no_centre = refusal(r#"{ multitile = { edge = "tiles/sheet.png" } }"#);
    assert!(no_centre.contains("needs its center part"), "{no_centre}");
    assert!(matches!(parse(&Value::str("../x.png"), &Sheets::default()), Err(ArtError::Sheet(_))));
}

#[test]
fn a_file_that_is_not_a_png_or_too_large_is_refused() {
    let (dir, sheets) = sheets();
    std::fs::write(dir.path().join("tiles/fake.png"), b"GIF89a and then some more bytes here").unwrap();
    std::fs::write(dir.path().join("tiles/huge.png"), png(5000, 10)).unwrap();
    let fake = parse(&Value::str("tiles/fake.png"), &sheets).unwrap_err().to_string();
    assert!(fake.contains("is not a PNG"), "{fake}");
    let huge = parse(&Value::str("tiles/huge.png"), &sheets).unwrap_err().to_string();
    assert!(huge.contains("5000×10") && huge.contains("split it"), "{huge}");
}
