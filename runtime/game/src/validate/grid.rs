//! The checks of a map record's grids: its palette and tile rows, its auto-tiling's palette,
//! intent rows and own rules, and its art layers' palettes and rows — rows of codes, each
//! read the same way.

use std::collections::{BTreeMap, BTreeSet};

use super::{MAX_PALETTE, Problems};
use crate::record_error::Place;
use crate::save::MapRecord;
use crate::symbol::Symbol;
use crate::world::World;

/// Checks the palette: non-empty, not too large, codes non-empty and of one width. Returns
/// the code width when the rows can be read with it.
pub(super) fn check_palette(record: &MapRecord, map: usize, out: &mut Problems) -> Option<usize> {
    let place = Place::MapField { map, field: "palette" };
    if record.palette.is_empty() {
        out.add(place, "the palette is empty: give at least one code, such as \".\": \"elona.floor_stone\"");
        return None;
    }
    check_codes(&record.palette, "", place, out)
}

/// Checks a palette's codes: not too many, non-empty, of one width and not all spaces (the
/// code of an empty intent cell). Returns the code width (1 for no codes).
fn check_codes(palette: &BTreeMap<String, Symbol>, prefix: &str, place: Place, out: &mut Problems) -> Option<usize> {
    if palette.len() > MAX_PALETTE {
        out.add(place, format!("{prefix}the palette has {} codes, more than {MAX_PALETTE}", palette.len()));
        return None;
    }
    if palette.contains_key("") {
        out.add(place, format!("{prefix}a palette code is empty: every code is one or more characters"));
        return None;
    }
    if let Some(code) = palette.keys().find(|c| c.trim().is_empty()) {
        out.add(place, format!("{prefix}the code '{code}' is all spaces, which is how an empty cell is written"));
        return None;
    }
    let widths: BTreeSet<usize> = palette.keys().map(|c| c.chars().count()).collect();
    if widths.len() > 1 {
        let widths: Vec<String> = widths.iter().map(usize::to_string).collect();
        out.add(
            place,
            format!("{prefix}palette codes have different lengths ({}): every code must be as long", widths.join(", ")),
        );
        return None;
    }
    Some(widths.into_iter().next().unwrap_or(1))
}

/// Checks that every row has `width` codes from the palette.
pub(super) fn check_rows(record: &MapRecord, map: usize, code_width: usize, out: &mut Problems) {
    let (palette, rows, width) = (&record.palette, &record.tiles, record.width);
    let grid = Grid { palette, rows, width, code_width, blank: false, rows_name: "" };
    grid.check(|row| Place::Row { map, row }, out);
}

/// Rows of palette codes, as a map's tiles and its intent grid are written.
struct Grid<'a> {
    palette: &'a BTreeMap<String, Symbol>,
    rows: &'a [String],
    width: i32,
    code_width: usize,
    /// Whether a code of spaces (an empty cell) may be used.
    blank: bool,
    /// What the messages call the rows ("row 3", "autotile.intent row 3").
    rows_name: &'a str,
}

impl Grid<'_> {
    /// Adds a problem for each row that is not `width` codes of the palette.
    fn check(&self, place: impl Fn(usize) -> Place, out: &mut Problems) {
        let Some(expected) = usize::try_from(self.width).ok().and_then(|w| w.checked_mul(self.code_width)) else {
            return;
        };
        for (row, text) in self.rows.iter().enumerate() {
            let count = text.chars().count();
            if count != expected {
                out.add(
                    place(row),
                    format!(
                        "{}row {} has {} characters, expected {} ({} codes of {})",
                        self.rows_name,
                        row + 1,
                        count,
                        expected,
                        self.width,
                        self.code_width
                    ),
                );
                continue;
            }
            let chars: Vec<char> = text.chars().collect();
            if let Some(code) = chars
                .chunks(self.code_width)
                .map(|c| c.iter().collect::<String>())
                .find(|code| !(self.palette.contains_key(code) || self.blank && code.trim().is_empty()))
            {
                let name = self.rows_name;
                out.add(place(row), format!("{name}row {} uses code '{code}', which is not in the palette", row + 1));
            }
        }
    }
}

/// Checks a map's auto-tiling: its intent rows fit the map and use its palette's codes, and
/// its intent tiles are known (unknown ones are named as the map's own tiles are).
pub(super) fn check_autotile(world: &World, record: &MapRecord, map: usize, out: &mut Problems) {
    let Some(autotile) = &record.autotile else { return };
    let place = || Place::MapField { map, field: "autotile" };
    let Some(code_width) = check_codes(&autotile.palette, "autotile: ", place(), out) else { return };
    if autotile.intent.len() != usize::try_from(record.height).unwrap_or(0) {
        out.add(
            place(),
            format!("autotile.intent has {} rows, but height is {}", autotile.intent.len(), record.height),
        );
        return;
    }
    let (palette, rows, width) = (&autotile.palette, &autotile.intent, record.width);
    let grid = Grid { palette, rows, width, code_width, blank: true, rows_name: "autotile.intent " };
    grid.check(|_| place(), out);
    if let Some(tile) = autotile.palette.values().find(|&&tile| !world.tile_flags(tile).known) {
        out.add(place(), format!("autotile.palette names unknown base.map_tile id '{tile}'"));
    }
    match (&autotile.rule_set, &autotile.rules) {
        (Some(_), Some(_)) | (None, None) => out.add(
            place(),
            "autotile names a rule set (rule_set: \"mod.id\") or holds its own rules (rules: [...]), one of the two",
        ),
        (None, Some(rules)) => {
            if let Err(error) = world.own_rules(rules) {
                out.add(place(), error.to_string());
            }
        }
        (Some(_), None) => {}
    }
}

/// Checks a map's art layers: each named, no name twice, and rows that fit the map and use
/// the layer's own palette's codes (a code of spaces is an empty cell). Unknown tiles are not
/// refused: they are kept and shown as unknown, as the map's own are.
pub(super) fn check_art_layers(record: &MapRecord, map: usize, out: &mut Problems) {
    let mut names = BTreeSet::new();
    for (layer, art) in record.art_layers.iter().enumerate() {
        let place = |row| Place::ArtLayer { map, layer, row };
        if art.name.trim().is_empty() {
            out.add(place(None), format!("art layer {} has no name: give it one, such as name: \"roofs\"", layer + 1));
        } else if !names.insert(art.name.as_str()) {
            out.add(place(None), format!("two art layers are named '{}': a map's layer names differ", art.name));
        }
        let prefix = format!("art layer '{}': ", art.name);
        let Some(code_width) = check_codes(&art.palette, &prefix, place(None), out) else { continue };
        if art.tiles.len() != usize::try_from(record.height).unwrap_or(0) {
            let message =
                format!("{prefix}tiles has {} rows, but the map's height is {}", art.tiles.len(), record.height);
            out.add(place(None), message);
            continue;
        }
        let rows_name = format!("art layer '{}' ", art.name);
        let (palette, rows, width) = (&art.palette, &art.tiles, record.width);
        let grid = Grid { palette, rows, width, code_width, blank: true, rows_name: &rows_name };
        grid.check(|row| place(Some(row)), out);
    }
}
