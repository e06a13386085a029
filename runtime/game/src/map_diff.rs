//! What changed between two map files, in words (`nefia diff A.ron B.ron`): the size, tiles
//! by region ("12 cells at (3..8, 4..5): elona.floor_stone → elona.wall_stone"), objects
//! added, removed, moved and changed field by field, and art layers added, removed and
//! painted (`map_diff/art_layers.rs`).
//!
//! Objects are paired by their key (see [`crate::object_key`]) where both files give one;
//! the others (files written by hand, or before keys) are paired as a reviewer would: first
//! the same prototype at the same cell, then the same prototype at the nearest cell (a
//! move). What is left over was added or removed.

use std::collections::BTreeMap;
use std::fmt;

mod art_layers;
pub use art_layers::{ArtLayerChange, ArtLayerDiff};

use crate::object_record::ObjectRecord;
use crate::save::MapRecord;
use crate::symbol::Symbol;

/// A map record's tiles decoded into a grid of tile ids, row by row.
#[derive(Clone, Debug, PartialEq)]
pub struct TileGrid {
    /// Width in cells.
    pub width: i32,
    /// Height in cells.
    pub height: i32,
    /// Every cell's tile, row by row.
    pub tiles: Vec<Symbol>,
}

pub use crate::code_rows::TileGridError;

impl TileGrid {
    /// Decodes `record`'s rows, checking the size before allocating and every code against
    /// the palette; an error says which row is wrong.
    pub fn of(record: &MapRecord) -> Result<TileGrid, TileGridError> {
        crate::map::check_map_size(record.width.into(), record.height.into())?;
        let code_width = record.palette.keys().next().map_or(1, |c| c.chars().count()).max(1);
        if record.tiles.len() != usize::try_from(record.height).unwrap_or(0) {
            return Err(TileGridError::RowCount { rows: record.tiles.len(), height: record.height });
        }
        let width = usize::try_from(record.width).unwrap_or(0);
        let palette: std::collections::HashMap<&str, Symbol> =
            record.palette.iter().map(|(code, &tile)| (code.as_str(), tile)).collect();
        // One-byte codes (most maps) are looked up by byte.
        let mut by_byte: [Option<Symbol>; 128] = [None; 128];
        let one_byte = record.palette.keys().all(|code| code.len() == 1 && code.is_ascii());
        if one_byte {
            for (code, &tile) in &record.palette {
                by_byte[usize::from(code.as_bytes()[0])] = Some(tile);
            }
        }
        let mut tiles = Vec::with_capacity(width * record.tiles.len());
        for (y, row) in record.tiles.iter().enumerate() {
            if one_byte && row.len() == width && row.bytes().all(|b| b.is_ascii() && by_byte[usize::from(b)].is_some())
            {
                tiles.extend(row.bytes().filter_map(|b| by_byte[usize::from(b)]));
                continue;
            }
            let before = tiles.len();
            // Each code is `code_width` characters: cut the row at every code_width-th one.
            let mut starts = row.char_indices().map(|(at, _)| at).step_by(code_width).peekable();
            while let Some(start) = starts.next() {
                let code = &row[start..starts.peek().copied().unwrap_or(row.len())];
                let tile = palette.get(code).ok_or_else(|| TileGridError::UnknownCode { y, code: code.to_owned() })?;
                tiles.push(*tile);
            }
            let codes = tiles.len() - before;
            if codes != width || row.chars().count() != width * code_width {
                return Err(TileGridError::RowLength { y, codes: row.chars().count() / code_width, width });
            }
        }
        Ok(TileGrid { width: record.width, height: record.height, tiles })
    }

    /// The palette and rows of a map file for this grid: each tile keeps the code the first
    /// of `palettes` that has it gives it (if still free), else a free one.
    pub fn encode(&self, palettes: &[&BTreeMap<String, Symbol>]) -> (BTreeMap<String, Symbol>, Vec<String>) {
        let mut used: Vec<Symbol> = Vec::new();
        let mut index_of: std::collections::HashMap<Symbol, usize> = std::collections::HashMap::new();
        let indices: Vec<usize> = self
            .tiles
            .iter()
            .map(|&tile| {
                *index_of.entry(tile).or_insert_with(|| {
                    used.push(tile);
                    used.len() - 1
                })
            })
            .collect();
        let wishes: Vec<Box<dyn Fn(Symbol) -> Option<String> + '_>> = palettes
            .iter()
            .map(|&palette| -> Box<dyn Fn(Symbol) -> Option<String> + '_> {
                Box::new(move |tile| palette.iter().find(|(_, t)| **t == tile).map(|(code, _)| code.clone()))
            })
            .collect();
        let wishes: Vec<&dyn Fn(Symbol) -> Option<String>> = wishes.iter().map(|w| w.as_ref()).collect();
        let codes = crate::save::choose_codes(&used, &wishes);
        let palette = used.iter().zip(&codes).map(|(&tile, code)| (code.clone(), tile)).collect();
        let width = usize::try_from(self.width).unwrap_or(1).max(1);
        let rows = indices.chunks(width).map(|row| row.iter().map(|&i| codes[i].as_str()).collect()).collect();
        (palette, rows)
    }

    /// The tile at (x, y), if the cell is on the map.
    pub fn get(&self, x: i32, y: i32) -> Option<Symbol> {
        if x < 0 || y < 0 || x >= self.width || y >= self.height {
            return None;
        }
        self.tiles.get(usize::try_from(y * self.width + x).ok()?).copied()
    }
}

/// A region of cells that changed from one tile to another (joined through their sides).
#[derive(Clone, Debug, PartialEq)]
pub struct TileChange {
    /// How many cells.
    pub cells: usize,
    /// The columns it spans, first and last.
    pub xs: (i32, i32),
    /// The rows it spans, first and last.
    pub ys: (i32, i32),
    /// The tile before (none: the cell is new, the map grew).
    pub from: Option<Symbol>,
    /// The tile after (none: the cell is gone, the map shrank).
    pub to: Option<Symbol>,
}

/// What happened to an object.
#[derive(Clone, Debug, PartialEq)]
pub enum ObjectChange {
    /// It is only in the second file.
    Added(ObjectRecord),
    /// It is only in the first file.
    Removed(ObjectRecord),
    /// It is in both: moved, or with other field values, or both.
    Changed {
        /// As in the first file.
        before: ObjectRecord,
        /// As in the second.
        after: ObjectRecord,
    },
}

/// A map's entrance cell, if it has one.
pub type Entrance = Option<(i32, i32)>;

/// Everything that differs between two map files.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct MapDiff {
    /// Width and height, before and after, if they differ.
    pub size: Option<((i32, i32), (i32, i32))>,
    /// The entrance, before and after, if it differs.
    pub entrance: Option<(Entrance, Entrance)>,
    /// The changed cells, by region.
    pub tiles: Vec<TileChange>,
    /// The objects added, removed and changed.
    pub objects: Vec<ObjectChange>,
    /// The art layers added, removed and changed, by name.
    pub art_layers: Vec<ArtLayerDiff>,
}

impl MapDiff {
    /// True if the files describe the same map.
    pub fn is_empty(&self) -> bool {
        self.size.is_none()
            && self.entrance.is_none()
            && self.tiles.is_empty()
            && self.objects.is_empty()
            && self.art_layers.is_empty()
    }

    /// Every changed cell (of the larger of the two sizes).
    pub fn changed_cells(&self, a: &TileGrid, b: &TileGrid) -> Vec<(i32, i32)> {
        let mut cells: Vec<(i32, i32)> = (0..a.height.max(b.height))
            .flat_map(|y| (0..a.width.max(b.width)).map(move |x| (x, y)))
            .filter(|&(x, y)| a.get(x, y) != b.get(x, y))
            .collect();
        for change in &self.objects {
            match change {
                ObjectChange::Added(o) | ObjectChange::Removed(o) => cells.push((o.x, o.y)),
                ObjectChange::Changed { before, after } => cells.extend([(before.x, before.y), (after.x, after.y)]),
            }
        }
        cells.sort_unstable();
        cells.dedup();
        cells
    }
}

/// Compares map files `a` and `b` (decoded as `grid_a` and `grid_b`).
pub fn diff_maps(a: &MapRecord, grid_a: &TileGrid, b: &MapRecord, grid_b: &TileGrid) -> MapDiff {
    MapDiff {
        size: ((a.width, a.height) != (b.width, b.height)).then_some(((a.width, a.height), (b.width, b.height))),
        entrance: (a.entrance != b.entrance).then_some((a.entrance, b.entrance)),
        tiles: tile_regions(grid_a, grid_b),
        objects: object_changes(&a.objects, &b.objects),
        art_layers: art_layers::art_layer_changes(a, b),
    }
}

/// The changed cells grouped into regions of one change, joined through their sides.
fn tile_regions(a: &TileGrid, b: &TileGrid) -> Vec<TileChange> {
    regions(a.width.max(b.width), a.height.max(b.height), |x, y| (a.get(x, y), b.get(x, y)))
}

/// The cells of a `width`×`height` grid whose `change` (before, after) differs, grouped into
/// regions of one change joined through their sides.
fn regions(width: i32, height: i32, change: impl Fn(i32, i32) -> (Option<Symbol>, Option<Symbol>)) -> Vec<TileChange> {
    if width <= 0 || height <= 0 {
        return Vec::new();
    }
    let index = |x: i32, y: i32| usize::try_from(y * width + x).unwrap_or(0);
    let mut seen = vec![false; index(width - 1, height - 1) + 1];
    let mut regions = Vec::new();
    for y in 0..height {
        for x in 0..width {
            let (from, to) = change(x, y);
            if from == to || seen[index(x, y)] {
                continue;
            }
            let mut region = TileChange { cells: 0, xs: (x, x), ys: (y, y), from, to };
            let mut stack = vec![(x, y)];
            seen[index(x, y)] = true;
            while let Some((cx, cy)) = stack.pop() {
                region.cells += 1;
                region.xs = (region.xs.0.min(cx), region.xs.1.max(cx));
                region.ys = (region.ys.0.min(cy), region.ys.1.max(cy));
                for (nx, ny) in [(cx + 1, cy), (cx - 1, cy), (cx, cy + 1), (cx, cy - 1)] {
                    let inside = nx >= 0 && ny >= 0 && nx < width && ny < height;
                    if inside && !seen[index(nx, ny)] && change(nx, ny) == (from, to) {
                        seen[index(nx, ny)] = true;
                        stack.push((nx, ny));
                    }
                }
            }
            regions.push(region);
        }
    }
    regions
}

/// Pairs the objects of `a` with those of `b` (see the module's text).
fn object_changes(a: &[ObjectRecord], b: &[ObjectRecord]) -> Vec<ObjectChange> {
    let mut unmatched_b: Vec<Option<&ObjectRecord>> = b.iter().map(Some).collect();
    let mut left = Vec::new();
    let mut unkeyed = Vec::new();
    // The same key.
    for object in a {
        let same_key = object
            .key
            .as_ref()
            .and_then(|key| unmatched_b.iter().position(|o| o.is_some_and(|o| o.key.as_ref() == Some(key))));
        match same_key {
            Some(i) => {
                let other = unmatched_b[i].take().expect("found above");
                if other != object {
                    left.push(ObjectChange::Changed { before: object.clone(), after: other.clone() });
                }
            }
            None => unkeyed.push(object),
        }
    }
    // Two keyed objects with different keys are different objects: only where one of them
    // has no key is a pair guessed.
    let may_pair = |x: &ObjectRecord, y: &ObjectRecord| x.key.is_none() || y.key.is_none();
    // The same prototype at the same cell.
    for object in unkeyed {
        let same_cell = unmatched_b.iter().position(|o| {
            o.is_some_and(|o| {
                may_pair(o, object) && (o.kind, o.id, o.x, o.y) == (object.kind, object.id, object.x, object.y)
            })
        });
        match same_cell {
            Some(i) => {
                let other = unmatched_b[i].take().expect("found above");
                if other != object {
                    left.push(ObjectChange::Changed { before: object.clone(), after: other.clone() });
                }
            }
            None => left.push(ObjectChange::Removed(object.clone())),
        }
    }
    // The same prototype at the nearest cell: a move.
    let mut changes = Vec::new();
    for change in left {
        let ObjectChange::Removed(object) = change else {
            changes.push(change);
            continue;
        };
        let distance = |o: &ObjectRecord| (o.x - object.x).abs() + (o.y - object.y).abs();
        let nearest = (0..unmatched_b.len())
            .filter(|&i| {
                unmatched_b[i].is_some_and(|o| may_pair(o, &object) && (o.kind, o.id) == (object.kind, object.id))
            })
            .min_by_key(|&i| unmatched_b[i].map_or(i32::MAX, distance));
        match nearest {
            Some(i) => {
                let after = unmatched_b[i].take().expect("found above").clone();
                changes.push(ObjectChange::Changed { before: object, after });
            }
            None => changes.push(ObjectChange::Removed(object)),
        }
    }
    changes.extend(unmatched_b.into_iter().flatten().map(|o| ObjectChange::Added(o.clone())));
    changes
}

fn tile_name(tile: Option<Symbol>) -> String {
    tile.map_or_else(|| "(no cell)".to_owned(), |t| t.as_str().to_owned())
}

/// A region's change as a line ("12 cells at (3..8, 4..5): a → b"), its tiles named by `name`.
fn region_line(change: &TileChange, name: fn(Option<Symbol>) -> String) -> String {
    let at = format!("({}, {})", span(change.xs), span(change.ys));
    let noun = if change.cells == 1 { "cell" } else { "cells" };
    format!("{} {noun} at {at}: {} → {}", change.cells, name(change.from), name(change.to))
}

fn span((first, last): (i32, i32)) -> String {
    if first == last { first.to_string() } else { format!("{first}..{last}") }
}

/// The fields of `before` and `after` that differ, as `name old → new`.
fn field_changes(before: &ObjectRecord, after: &ObjectRecord) -> Vec<String> {
    let mut names: BTreeMap<&str, ()> = BTreeMap::new();
    for (name, _) in before.fields.iter().chain(after.fields.iter()) {
        names.insert(name.as_str(), ());
    }
    let value = |record: &ObjectRecord, name: &str| {
        record.fields.get(Symbol::intern(name)).map_or_else(|| "(prototype's)".to_owned(), |v| v.to_string())
    };
    let mut changes: Vec<String> = names
        .keys()
        .filter(|name| value(before, name) != value(after, name))
        .map(|name| format!("{name} {} → {}", value(before, name), value(after, name)))
        .collect();
    if before.inventory != after.inventory || before.equipment != after.equipment {
        changes.push("what it holds".to_owned());
    }
    let key = |record: &ObjectRecord| record.key.as_deref().map_or_else(|| "none".to_owned(), |k| format!("'{k}'"));
    if before.key != after.key {
        changes.push(format!("key {} → {}", key(before), key(after)));
    }
    if (before.kind, before.id) != (after.kind, after.id) {
        changes.push(format!("prototype {} → {}", before.id, after.id));
    }
    if before.temp != after.temp {
        changes.push("temp values".to_owned());
    }
    changes
}

impl fmt::Display for MapDiff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(((w0, h0), (w1, h1))) = self.size {
            writeln!(f, "size: {w0}x{h0} → {w1}x{h1}")?;
        }
        if let Some((before, after)) = self.entrance {
            let cell = |c: Option<(i32, i32)>| c.map_or_else(|| "none".to_owned(), |(x, y)| format!("({x}, {y})"));
            writeln!(f, "entrance: {} → {}", cell(before), cell(after))?;
        }
        for change in &self.tiles {
            writeln!(f, "{}", region_line(change, tile_name))?;
        }
        for change in &self.objects {
            match change {
                ObjectChange::Added(o) => writeln!(f, "added {} at ({}, {})", o.id, o.x, o.y)?,
                ObjectChange::Removed(o) => writeln!(f, "removed {} at ({}, {})", o.id, o.x, o.y)?,
                ObjectChange::Changed { before, after } => {
                    let place = if (before.x, before.y) != (after.x, after.y) {
                        format!("moved ({}, {}) → ({}, {})", before.x, before.y, after.x, after.y)
                    } else {
                        format!("at ({}, {})", before.x, before.y)
                    };
                    let parts = field_changes(before, after);
                    match parts.is_empty() {
                        true => writeln!(f, "{} {place}", before.id)?,
                        false => writeln!(f, "{} {place}: {}", before.id, parts.join(", "))?,
                    }
                }
            }
        }
        for layer in &self.art_layers {
            write!(f, "{layer}")?;
        }
        Ok(())
    }
}
