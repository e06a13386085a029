//! Reading a prototype's `image` into an [`Art`]: OpenNefia's shapes (a file name, `{ image,
//! count_x }`, a region `{ source, x, y, width, height, count_x, key_color }`) and Nefia's
//! (explicit `frames`, `frame_ms`, offsets, flips and turns, weighted `variants`, the
//! `autotile` sprite sets and CDDA's `multitile` parts), each checked against its sheet's
//! header. A refusal says what is wrong and what to write instead.

use std::collections::BTreeMap;
use std::sync::Arc;

use super::sheet::{MAX_SHEET_SIDE, SheetError, Sheets};
use super::{Art, Choice, Frame, Layout, Rotation, Sprite};
use crate::symbol::Symbol;
use crate::value::{Key, Value};

/// How long a frame shows when the image does not say (OpenNefia's `DEFAULT_ANIM_TIME`).
pub const DEFAULT_FRAME_MS: u32 = 250;

/// The most frames a sprite may have, variants an image, or pieces a row.
const MAX_ITEMS: usize = 256;

/// The parts of a CDDA multitile, in piece order (each flattened into four turns).
pub const MULTITILE_PARTS: [&str; 6] = ["unconnected", "end_piece", "edge", "corner", "t_connection", "center"];

/// The keys a region (or a file with `count_x`) may have.
const REGION_KEYS: [&str; 18] = [
    "image", "source", "x", "y", "width", "height", "count_x", "key_color", "frame_ms", "frames", "offset_x",
    "offset_y", "flip_x", "flip_y", "rotation", "autotile", "columns", "connects",
];

/// What the region example says to write.
const REGION_EXAMPLE: &str = "{ source = \"tiles/sheet.png\", x = 0, y = 0, width = 32, height = 32 }";

/// A prototype's `image`, read.
#[derive(Clone, Debug, PartialEq)]
pub struct Parsed {
    /// What it draws.
    pub art: Arc<Art>,
    /// The group a sprite set's neighbours must share to connect (`connects`); none: the
    /// same tile.
    pub connects: Option<Symbol>,
}

/// Why an `image` was refused.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum ArtError {
    /// A sheet it names cannot be used.
    #[error(transparent)]
    Sheet(#[from] SheetError),
    /// A frame lies partly outside its sheet.
    #[error(
        "the region x = {x}, y = {y}, width = {width}, height = {height} of '{sheet}' lies outside the sheet ({sheet_width}×{sheet_height}): give a region inside it"
    )]
    OutsideSheet {
        /// The sheet.
        sheet: String,
        /// The frame's left edge.
        x: u32,
        /// The frame's top edge.
        y: u32,
        /// The sprite's width.
        width: u32,
        /// The sprite's height.
        height: u32,
        /// The sheet's width.
        sheet_width: u32,
        /// The sheet's height.
        sheet_height: u32,
    },
    /// The shape is not one an image takes; the text says what to write.
    #[error("{0}")]
    Shape(String),
    /// A problem inside a variant or a multitile part.
    #[error("{at}: {error}")]
    Within {
        /// Where: "variant 2", "multitile part edge".
        at: String,
        /// The problem.
        error: Box<ArtError>,
    },
}

fn shape(message: impl Into<String>) -> ArtError {
    ArtError::Shape(message.into())
}

/// Reads `value`, a prototype's `image`, measuring the sheets it names with `sheets`.
pub fn parse(value: &Value, sheets: &Sheets) -> Result<Parsed, ArtError> {
    match value {
        Value::Str(_) => Ok(Parsed { art: Arc::new(still(value, sheets)?), connects: None }),
        Value::Map(map) if map.contains_key(&key("variants")) => parse_variants(map, sheets),
        Value::Map(map) if map.contains_key(&key("multitile")) => parse_multitile(map, sheets),
        Value::Map(map) => parse_region(map, sheets),
        other => Err(shape(format!(
            "an image is a file name (\"tiles/grass.png\") or a table such as {REGION_EXAMPLE}, not a {}",
            other.type_name()
        ))),
    }
}

fn key(name: &str) -> Key {
    Key::Str(Arc::from(name))
}

/// An image that must be one sprite set of one choice (a variant, a multitile part).
fn still(value: &Value, sheets: &Sheets) -> Result<Art, ArtError> {
    match value {
        Value::Str(name) => {
            let (width, height) = sheets.size(name)?.unwrap_or((0, 0));
            Ok(Art { sprites: vec![Sprite::whole(Symbol::intern(name), width, height)], choice: Choice::Single })
        }
        Value::Map(map) if !map.contains_key(&key("variants")) && !map.contains_key(&key("multitile")) => {
            let art = Arc::unwrap_or_clone(parse_region(map, sheets)?.art);
            match art.choice {
                Choice::Single => Ok(art),
                _ => Err(shape("a variant or multitile part is one sprite: drop its autotile")),
            }
        }
        Value::Map(_) => Err(shape("a variant or multitile part is a file or a region, not more variants or parts")),
        other => Err(shape(format!(
            "a variant or multitile part is a file name or a region such as {REGION_EXAMPLE}, not a {}",
            other.type_name()
        ))),
    }
}

/// `{ variants = { { weight = 3, image = ... }, ... } }`.
fn parse_variants(map: &BTreeMap<Key, Value>, sheets: &Sheets) -> Result<Parsed, ArtError> {
    only_keys(map, &["variants"])?;
    let usage = "write variants = { { weight = 3, image = \"a.png\" }, { weight = 1, image = \"b.png\" } }";
    let Some(Value::List(list)) = map.get(&key("variants")) else {
        return Err(shape(format!("variants is a list of {{ weight, image }}: {usage}")));
    };
    if list.is_empty() || list.len() > MAX_ITEMS {
        return Err(shape(format!("variants lists 1 to {MAX_ITEMS} images, not {}: {usage}", list.len())));
    }
    let (mut sprites, mut weights) = (Vec::with_capacity(list.len()), Vec::with_capacity(list.len()));
    for (index, variant) in list.iter().enumerate() {
        let within = |error| ArtError::Within { at: format!("variant {}", index + 1), error: Box::new(error) };
        let Value::Map(entry) = variant else {
            return Err(within(shape(format!("it is a {}: {usage}", variant.type_name()))));
        };
        only_keys(entry, &["weight", "image"]).map_err(within)?;
        let weight = match entry.get(&key("weight")) {
            None => 1,
            Some(w) => w.as_i64().and_then(|w| u32::try_from(w).ok()).filter(|&w| (1..=1_000_000).contains(&w)).ok_or_else(
                || within(shape("weight is a whole number from 1 to 1000000")),
            )?,
        };
        let image = entry.get(&key("image")).ok_or_else(|| within(shape(format!("it has no image: {usage}"))))?;
        let art = still(image, sheets).map_err(within)?;
        sprites.extend(art.sprites);
        weights.push(weight);
    }
    Ok(Parsed { art: Arc::new(Art { sprites, choice: Choice::Variants { weights } }), connects: None })
}

/// `{ multitile = { center = ..., edge = ..., ... }, connects = "wall" }`: each part turned
/// four ways, a missing part drawn as the centre.
fn parse_multitile(map: &BTreeMap<Key, Value>, sheets: &Sheets) -> Result<Parsed, ArtError> {
    only_keys(map, &["multitile", "connects"])?;
    let connects = connects(map)?;
    let Some(Value::Map(parts)) = map.get(&key("multitile")) else {
        return Err(shape("multitile is a table of parts: write multitile = { center = \"wall_c.png\", edge = ... }"));
    };
    only_keys(parts, &MULTITILE_PARTS)?;
    let part = |name: &str| -> Result<Option<Sprite>, ArtError> {
        let Some(value) = parts.get(&key(name)) else { return Ok(None) };
        let within = |error| ArtError::Within { at: format!("multitile part {name}"), error: Box::new(error) };
        Ok(still(value, sheets).map_err(within)?.sprites.into_iter().next())
    };
    let center = part("center")?
        .ok_or_else(|| shape("a multitile needs its center part (the others default to it): add center = ..."))?;
    let mut sprites = Vec::with_capacity(MULTITILE_PARTS.len() * 4);
    for name in MULTITILE_PARTS {
        let (sprite, turns) = match part(name)? {
            Some(sprite) => (sprite, true),
            None => (center.clone(), false),
        };
        for quarter in 0..4u8 {
            let mut turned = sprite.clone();
            if turns {
                turned.rotation = turned.rotation.then(quarter);
            }
            sprites.push(turned);
        }
    }
    Ok(Parsed { art: Arc::new(Art { sprites, choice: Choice::Set(Layout::Multitile) }), connects })
}

fn connects(map: &BTreeMap<Key, Value>) -> Result<Option<Symbol>, ArtError> {
    match map.get(&key("connects")) {
        None => Ok(None),
        Some(Value::Str(group)) if !group.is_empty() => Ok(Some(Symbol::intern(group))),
        Some(_) => Err(shape("connects is the name of the group whose tiles join up, such as connects = \"wall\"")),
    }
}

/// Refuses a key not in `known`, suggesting the nearest.
fn only_keys(map: &BTreeMap<Key, Value>, known: &[&str]) -> Result<(), ArtError> {
    for entry in map.keys() {
        let name = match entry {
            Key::Str(name) => name.to_string(),
            Key::Int(index) => index.to_string(),
        };
        if known.contains(&name.as_str()) {
            continue;
        }
        let nearest = known.iter().min_by_key(|k| strsim::levenshtein(k, &name)).filter(|k| strsim::levenshtein(k, &name) <= 2);
        return Err(shape(match nearest {
            Some(near) => format!("unknown key '{name}' in the image: did you mean '{near}'?"),
            None => format!("unknown key '{name}' in the image: it takes {}", known.join(", ")),
        }));
    }
    Ok(())
}

/// A whole number field of a region, within `range`; `default` if not given.
fn number(map: &BTreeMap<Key, Value>, name: &str, default: i64, range: std::ops::RangeInclusive<i64>) -> Result<i64, ArtError> {
    match map.get(&key(name)) {
        None => Ok(default),
        Some(value) => value.as_i64().filter(|n| range.contains(n)).ok_or_else(|| {
            shape(format!("{name} is a whole number from {} to {}, not {value:?}", range.start(), range.end()))
        }),
    }
}

fn flag(map: &BTreeMap<Key, Value>, name: &str) -> Result<bool, ArtError> {
    match map.get(&key(name)) {
        None => Ok(false),
        Some(Value::Bool(set)) => Ok(*set),
        Some(_) => Err(shape(format!("{name} is true or false"))),
    }
}

fn side(value: i64) -> u32 {
    u32::try_from(value).unwrap_or(0)
}

/// A region or a file with frames, possibly a sprite set.
fn parse_region(map: &BTreeMap<Key, Value>, sheets: &Sheets) -> Result<Parsed, ArtError> {
    only_keys(map, &REGION_KEYS)?;
    let max = i64::from(MAX_SHEET_SIDE);
    let (sheet, whole) = match (map.get(&key("source")), map.get(&key("image"))) {
        (Some(Value::Str(source)), None) => (source.clone(), false),
        (None, Some(Value::Str(image))) => (image.clone(), true),
        (Some(_), Some(_)) => return Err(shape("give source (a region of a sheet) or image (a whole file), not both")),
        _ => return Err(shape(format!("a region names its sheet: {REGION_EXAMPLE}, or {{ image = \"tiles/water.png\", count_x = 4 }}"))),
    };
    let size = sheets.size(&sheet)?;
    let count_x = side(number(map, "count_x", 1, 1..=MAX_ITEMS as i64)?);
    let frame_ms = side(number(map, "frame_ms", i64::from(DEFAULT_FRAME_MS), 1..=600_000)?);
    let (x, y, width, height) = if whole {
        for region in ["x", "y", "width", "height"] {
            if map.contains_key(&key(region)) {
                return Err(shape(format!("{region} is for a region: write source = ... instead of image = ...")));
            }
        }
        let (w, h) = size.unwrap_or((0, 0));
        (0, 0, w / count_x, h)
    } else {
        let given = |name: &str| -> Result<u32, ArtError> {
            match map.get(&key(name)) {
                Some(_) => Ok(side(number(map, name, 0, 1..=max)?)),
                None => Err(shape(format!("a region gives {name}: {REGION_EXAMPLE}"))),
            }
        };
        (side(number(map, "x", 0, 0..=max)?), side(number(map, "y", 0, 0..=max)?), given("width")?, given("height")?)
    };
    let mut frames: Vec<Frame> = (0..count_x).map(|i| Frame { x: x + i * width, y, duration_ms: frame_ms }).collect();
    if let Some(listed) = map.get(&key("frames")) {
        if count_x > 1 {
            return Err(shape("give count_x or frames, not both"));
        }
        frames = explicit_frames(listed, frame_ms)?;
    }
    let rotation = match number(map, "rotation", 0, 0..=270)? {
        0 => Rotation::None,
        90 => Rotation::Quarter,
        180 => Rotation::Half,
        270 => Rotation::ThreeQuarters,
        other => return Err(shape(format!("rotation is 0, 90, 180 or 270 (degrees clockwise), not {other}"))),
    };
    let sprite = Sprite {
        sheet: Symbol::intern(&sheet),
        width,
        height,
        frames,
        key_color: key_color(map)?,
        offset: (number(map, "offset_x", 0, -max..=max)? as i32, number(map, "offset_y", 0, -max..=max)? as i32),
        flip_x: flag(map, "flip_x")?,
        flip_y: flag(map, "flip_y")?,
        rotation,
    };
    let connects = connects(map)?;
    let (sprites, choice) = match map.get(&key("autotile")) {
        None => {
            if map.contains_key(&key("columns")) || connects.is_some() {
                return Err(shape("columns and connects are for a sprite set: add autotile = \"blob47\" or \"wang16\""));
            }
            (vec![sprite], Choice::Single)
        }
        Some(Value::Str(layout)) => {
            let (layout, pieces) = match &**layout {
                "blob47" => (Layout::Blob47, 47),
                "wang16" => (Layout::Wang16, 16),
                other => {
                    return Err(shape(format!("autotile is \"blob47\" or \"wang16\", not \"{other}\" (for CDDA's parts write multitile = {{ ... }})")));
                }
            };
            let columns = side(number(map, "columns", pieces, 1..=pieces)?);
            (set_pieces(&sprite, pieces as u32, columns), Choice::Set(layout))
        }
        Some(_) => return Err(shape("autotile is \"blob47\" or \"wang16\"")),
    };
    for sprite in &sprites {
        check_inside(sprite, size)?;
    }
    Ok(Parsed { art: Arc::new(Art { sprites, choice }), connects })
}

/// The pieces of a sprite set laid left to right from `first`'s place, `columns` a row; an
/// animated set's frame `j` is the whole set again, `j` set-widths to the right.
fn set_pieces(first: &Sprite, pieces: u32, columns: u32) -> Vec<Sprite> {
    let set_width = columns * first.width;
    (0..pieces)
        .map(|piece| {
            let (dx, dy) = ((piece % columns) * first.width, (piece / columns) * first.height);
            let mut sprite = first.clone();
            for (index, frame) in sprite.frames.iter_mut().enumerate() {
                let first_frame = first.frames[0];
                frame.x = first_frame.x + dx + index as u32 * set_width;
                frame.y = first_frame.y + dy;
            }
            sprite
        })
        .collect()
}

/// `frames = { { x = 0, y = 0, ms = 250 }, ... }`.
fn explicit_frames(listed: &Value, frame_ms: u32) -> Result<Vec<Frame>, ArtError> {
    let usage = "write frames = { { x = 0, y = 0, ms = 250 }, { x = 16, y = 0, ms = 100 } }";
    let Value::List(list) = listed else { return Err(shape(format!("frames is a list: {usage}"))) };
    if list.is_empty() || list.len() > MAX_ITEMS {
        return Err(shape(format!("frames lists 1 to {MAX_ITEMS} frames, not {}: {usage}", list.len())));
    }
    let max = i64::from(MAX_SHEET_SIDE);
    list.iter()
        .enumerate()
        .map(|(index, frame)| {
            let within = |error| ArtError::Within { at: format!("frame {}", index + 1), error: Box::new(error) };
            let Value::Map(frame) = frame else { return Err(within(shape(usage))) };
            only_keys(frame, &["x", "y", "ms"]).map_err(within)?;
            Ok(Frame {
                x: side(number(frame, "x", 0, 0..=max).map_err(within)?),
                y: side(number(frame, "y", 0, 0..=max).map_err(within)?),
                duration_ms: side(number(frame, "ms", i64::from(frame_ms), 1..=600_000).map_err(within)?),
            })
        })
        .collect()
}

fn key_color(map: &BTreeMap<Key, Value>) -> Result<Option<[u8; 3]>, ArtError> {
    let Some(value) = map.get(&key("key_color")) else { return Ok(None) };
    let refused = || shape("key_color is { r, g, b }, each 0 to 255, such as key_color = { 0, 0, 0 }");
    let Value::List(parts) = value else { return Err(refused()) };
    let rgb: Vec<u8> = parts.iter().filter_map(|p| p.as_i64().and_then(|p| u8::try_from(p).ok())).collect();
    match rgb[..] {
        [r, g, b] if parts.len() == 3 => Ok(Some([r, g, b])),
        _ => Err(refused()),
    }
}

/// Refuses a frame of `sprite` outside its sheet of `size` (unchecked without one).
fn check_inside(sprite: &Sprite, size: Option<(u32, u32)>) -> Result<(), ArtError> {
    let Some((sheet_width, sheet_height)) = size else { return Ok(()) };
    if sprite.width == 0 || sprite.height == 0 {
        return Err(shape(format!(
            "'{}' ({sheet_width}×{sheet_height}) is narrower than count_x frames: give a smaller count_x",
            sprite.sheet
        )));
    }
    for frame in &sprite.frames {
        let right = u64::from(frame.x) + u64::from(sprite.width);
        let bottom = u64::from(frame.y) + u64::from(sprite.height);
        if right > u64::from(sheet_width) || bottom > u64::from(sheet_height) {
            return Err(ArtError::OutsideSheet {
                sheet: sprite.sheet.to_string(),
                x: frame.x,
                y: frame.y,
                width: sprite.width,
                height: sprite.height,
                sheet_width,
                sheet_height,
            });
        }
    }
    Ok(())
}
