//! Three-way merge of map files by cells and objects (`nefia merge BASE OURS THEIRS`, the git
//! merge driver), with the conflicts kept in the merged file in a readable form.
//!
//! - **Cells** merge one by one: a cell only one side changed takes that side's tile. A cell
//!   both sides changed to different tiles is a [`Conflict::Tile`]; the merged map holds
//!   ours there until it is resolved.
//! - **Size**: a resize on one side is followed, wherever it anchored the map (the anchor is
//!   found by which of the nine a resize can use lines the old cells up best), and the other
//!   side's edits inside the kept area land on the same cells. Edits that fall outside it
//!   are a [`Conflict::Map`] of field `cut`; two different resizes are one of field `size`.
//! - **Objects** are matched by their key (see [`crate::object_key`]), never by place or
//!   prototype: an object moved on one side and edited on the other is one object, and
//!   objects both sides made stay two. Their prototype, position, each field, and what they
//!   hold (inventory, equipment — each taken as a whole) merge one by one; where both sides
//!   set one differently, or one side removed an object the other changed, it is a
//!   [`Conflict::Object`] holding both versions.
//! - **The palette** is the tiles the merged grid uses, keeping ours' codes, then theirs'.
//! - The name, entrance and generator record merge as single values, the map's own fields
//!   one by one.
//! - **Art layers** merge by name, their cells one by one as the tiles' (a cell both sides
//!   painted differently is a [`Conflict::ArtCell`]; see `map_merge/art_layers.rs`).

use std::collections::{BTreeMap, HashMap};
use std::path::Path;

use serde::Serialize;

use crate::files::{FileError, read_ron, write_atomic};
use crate::map_diff::TileGrid;
use crate::map_files::map_text;
use crate::object_record::ObjectRecord;
use crate::save::MapRecord;
use crate::symbol::Symbol;

use crate::conflict::{Conflict, Side};

mod art_layers;

/// Why a merge could not be made at all.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{side}: {message}")]
pub struct MergeError {
    /// Which file: `base`, `ours` or `theirs`.
    pub side: &'static str,
    /// What is wrong with it.
    pub message: String,
}

/// Merges map files `ours` and `theirs`, both made from `base`, and writes the result to
/// `out` atomically once it is made (on an error nothing is written). Returns the merged
/// record: its `conflicts` say whether any remain. An error names the file.
pub fn merge_files(base: &Path, ours: &Path, theirs: &Path, out: &Path) -> Result<MapRecord, MergeFilesError> {
    let read = |path: &Path| read_ron::<MapRecord>(path).map_err(MergeFilesError::File);
    // The three files are read side by side (on a machine with the cores).
    let (base_record, ours_record, theirs_record) = std::thread::scope(|scope| {
        let base = scope.spawn(|| read(base));
        let ours = scope.spawn(|| read(ours));
        let theirs = read(theirs);
        let join = |handle: std::thread::ScopedJoinHandle<'_, Result<MapRecord, MergeFilesError>>| {
            handle.join().unwrap_or(Err(MergeFilesError::ReaderPanicked))
        };
        (join(base), join(ours), theirs)
    });
    let (base_record, ours_record, theirs_record) = (base_record?, ours_record?, theirs_record?);
    let merged = merge_maps(&base_record, &ours_record, &theirs_record).map_err(|error| {
        let path = match error.side {
            "base" => base,
            "ours" => ours,
            _ => theirs,
        };
        MergeFilesError::Unmergeable { path: path.to_owned(), message: error.message }
    })?;
    let text = map_text(out, &merged)?;
    write_atomic(out, text.as_bytes())?;
    Ok(merged)
}

/// Why [`merge_files`] wrote nothing; each names the file.
#[derive(Debug, thiserror::Error)]
pub enum MergeFilesError {
    /// A file could not be read or the merge could not be written.
    #[error("{0}")]
    File(#[from] FileError),
    /// A reader thread panicked.
    #[error("a map file could not be read (the reader panicked)")]
    ReaderPanicked,
    /// A side cannot be merged (see [`MergeError`]).
    #[error("{}: {message}", path.display())]
    Unmergeable {
        /// The side's file.
        path: std::path::PathBuf,
        /// What is wrong with it.
        message: String,
    },
}

/// A side's cells in the base's frame: side cell = base cell + `offset`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Frame {
    offset: (i32, i32),
    size: (i32, i32),
}

/// Merges `ours` and `theirs`, both made from `base`. The result holds its conflicts in
/// `conflicts` (empty when the sides merged cleanly). Files that still hold conflicts of
/// an earlier merge are refused: resolve them first.
pub fn merge_maps(base: &MapRecord, ours: &MapRecord, theirs: &MapRecord) -> Result<MapRecord, MergeError> {
    let decode = |side: &'static str, record: &MapRecord| -> Result<(TileGrid, Vec<ObjectRecord>), MergeError> {
        if !record.conflicts.is_empty() {
            let message = format!(
                "it still holds {} conflict(s) of an earlier merge: resolve them first",
                record.conflicts.len()
            );
            return Err(MergeError { side, message });
        }
        let grid = TileGrid::of(record).map_err(|error| MergeError { side, message: error.to_string() })?;
        let mut objects = record.objects.clone();
        crate::object_key::fill_missing(&mut objects);
        if let Some((key, _, _)) = crate::object_key::first_repeat(&objects) {
            return Err(MergeError { side, message: format!("object key '{key}' is given to two objects") });
        }
        Ok((grid, objects))
    };
    let (base_grid, base_objects) = decode("base", base)?;
    let (ours_grid, ours_objects) = decode("ours", ours)?;
    let (theirs_grid, theirs_objects) = decode("theirs", theirs)?;
    let base_frame = Frame { offset: (0, 0), size: (base.width, base.height) };
    let ours_frame = frame_of(&base_grid, &ours_grid);
    let theirs_frame = frame_of(&base_grid, &theirs_grid);
    let mut conflicts = Vec::new();
    let result_frame = match (ours_frame != base_frame, theirs_frame != base_frame) {
        (false, false) => base_frame,
        (true, false) => ours_frame,
        (false, true) => theirs_frame,
        (true, true) => {
            if ours_frame != theirs_frame {
                conflicts.push(Conflict::Map {
                    field: "size".into(),
                    ours: size_text(ours_frame.size),
                    theirs: size_text(theirs_frame.size),
                });
            }
            ours_frame
        }
    };
    // A side's cell in the result's frame.
    let to_result = |frame: Frame, (x, y): (i32, i32)| {
        (x - frame.offset.0 + result_frame.offset.0, y - frame.offset.1 + result_frame.offset.1)
    };
    let from_result = |frame: Frame, (x, y): (i32, i32)| {
        (x - result_frame.offset.0 + frame.offset.0, y - result_frame.offset.1 + frame.offset.1)
    };

    // Cells.
    let (width, height) = result_frame.size;
    let mut tiles = Vec::with_capacity(usize::try_from(width * height).unwrap_or(0));
    for y in 0..height {
        for x in 0..width {
            let at = |grid: &TileGrid, frame: Frame| {
                let (sx, sy) = from_result(frame, (x, y));
                grid.get(sx, sy)
            };
            let (b, o, t) = (at(&base_grid, base_frame), at(&ours_grid, ours_frame), at(&theirs_grid, theirs_frame));
            let tile = match three_way(&b, &o, &t) {
                Some(tile) => tile,
                None => {
                    if let (Some(ours), Some(theirs)) = (o, t) {
                        conflicts.push(Conflict::Tile { x, y, ours, theirs });
                    }
                    o
                }
            };
            let fallback = || o.or(t).or(b).unwrap_or(base_grid.tiles[0]);
            tiles.push(tile.unwrap_or_else(fallback));
        }
    }
    let inside = |(x, y): (i32, i32)| x >= 0 && y >= 0 && x < width && y < height;
    let cut = |grid: &TileGrid, frame: Frame| {
        let mut painted = 0;
        for sy in 0..grid.height {
            for sx in 0..grid.width {
                let base_cell = (sx - frame.offset.0, sy - frame.offset.1);
                if !inside(to_result(frame, (sx, sy))) && grid.get(sx, sy) != base_grid.get(base_cell.0, base_cell.1) {
                    painted += 1;
                }
            }
        }
        painted
    };
    let (ours_cut, theirs_cut) = (cut(&ours_grid, ours_frame), cut(&theirs_grid, theirs_frame));
    let merged_grid = TileGrid { width, height, tiles };

    // Objects, in the result's frame.
    let placed = |objects: Vec<ObjectRecord>, frame: Frame| -> Vec<ObjectRecord> {
        objects
            .into_iter()
            .map(|mut o| {
                (o.x, o.y) = to_result(frame, (o.x, o.y));
                o
            })
            .collect()
    };
    let base_objects = placed(base_objects, base_frame);
    let ours_objects = placed(ours_objects, ours_frame);
    let theirs_objects = placed(theirs_objects, theirs_frame);
    let mut objects = merge_objects(&base_objects, &ours_objects, &theirs_objects, &mut conflicts);
    let (kept, outside): (Vec<ObjectRecord>, Vec<ObjectRecord>) = objects.drain(..).partition(|o| inside((o.x, o.y)));
    objects = kept;
    let outside_from = |side: &[ObjectRecord]| outside.iter().filter(|o| side.iter().any(|s| s.key == o.key)).count();
    let (ours_out, theirs_out) = (outside_from(&ours_objects), outside_from(&theirs_objects));
    if ours_cut + theirs_cut + ours_out + theirs_out > 0 {
        let text =
            |cells: usize, objects: usize| format!("\"{cells} cell(s) and {objects} object(s) outside the kept area\"");
        conflicts.push(Conflict::Map {
            field: "cut".into(),
            ours: text(ours_cut, ours_out),
            theirs: text(theirs_cut, theirs_out),
        });
    }

    // The map's own values.
    let shifted = |entrance: Option<(i32, i32)>, frame: Frame| entrance.map(|cell| to_result(frame, cell));
    let mut value = |field: &str, b: String, o: String, t: String| -> Side {
        match (o == b, t == b, o == t) {
            (_, _, true) | (_, true, _) => Side::Ours,
            (true, false, _) => Side::Theirs,
            (false, false, false) => {
                conflicts.push(Conflict::Map { field: field.into(), ours: o, theirs: t });
                Side::Ours
            }
        }
    };
    let name = match value("name", ron(&base.name), ron(&ours.name), ron(&theirs.name)) {
        Side::Ours => ours.name.clone(),
        Side::Theirs => theirs.name.clone(),
    };
    let entrances = (
        shifted(base.entrance, base_frame),
        shifted(ours.entrance, ours_frame),
        shifted(theirs.entrance, theirs_frame),
    );
    let entrance = match value("entrance", ron(&entrances.0), ron(&entrances.1), ron(&entrances.2)) {
        Side::Ours => entrances.1,
        Side::Theirs => entrances.2,
    };
    let entrance = entrance.filter(|&cell| inside(cell));
    let generated = match value("generated", ron(&base.generated), ron(&ours.generated), ron(&theirs.generated)) {
        Side::Ours => ours.generated.clone(),
        Side::Theirs => theirs.generated.clone(),
    };

    // The auto-tiling is one value; a layer that no longer fits the merged size is dropped
    // (the tiles it painted stay, as if baked).
    let autotile = match value("autotile", ron(&base.autotile), ron(&ours.autotile), ron(&theirs.autotile)) {
        Side::Ours => ours.autotile.clone(),
        Side::Theirs => theirs.autotile.clone(),
    };

    // The map's own fields, one by one.
    let mut fields = ours.fields.clone();
    let mut names: Vec<Symbol> = Vec::new();
    for record in [base, ours, theirs] {
        names.extend(record.fields.iter().map(|(name, _)| name).filter(|n| !names.contains(n)).collect::<Vec<_>>());
    }
    for name in names {
        let of = |record: &MapRecord| ron(&record.fields.get(name));
        if value(&format!("fields.{name}"), of(base), of(ours), of(theirs)) == Side::Theirs {
            match theirs.fields.get(name) {
                Some(v) => fields.insert(name, v.clone()),
                None => fields.remove(name),
            };
        }
    }

    let frames = [base_frame, ours_frame, theirs_frame];
    let art_layers =
        art_layers::merge_art_layers([base, ours, theirs], frames, (width, height), &from_result, &mut conflicts)?;

    let (palette, rows) = merged_grid.encode(&[&ours.palette, &theirs.palette, &base.palette]);
    Ok(MapRecord {
        uid: None,
        name,
        width,
        height,
        palette,
        tiles: rows,
        entrance,
        objects,
        memory: Vec::new(),
        generated,
        fields,
        temp: Default::default(),
        conflicts,
        autotile: autotile.filter(|a| {
            a.intent.len() == usize::try_from(height).unwrap_or(0)
                && a.intent
                    .iter()
                    .all(|row| row.chars().count() == usize::try_from(width).unwrap_or(0) * a.code_width())
        }),
        art_layers,
    })
}

/// A value as one line of RON, for comparing and for [`Conflict::Map`].
fn ron<T: Serialize>(value: &T) -> String {
    ron::to_string(value).unwrap_or_default()
}

fn size_text((width, height): (i32, i32)) -> String {
    format!("\"{width}x{height}\"")
}

/// The three-way pick: the value both agree on, or the one that changed; none if both
/// changed it differently.
fn three_way<T: PartialEq + Clone>(base: &T, ours: &T, theirs: &T) -> Option<T> {
    if ours == theirs || theirs == base {
        Some(ours.clone())
    } else if ours == base {
        Some(theirs.clone())
    } else {
        None
    }
}

/// Where `side`'s cells are in `base`'s frame: the same size is the same frame; a resize is
/// taken at whichever of the nine anchors (corners, sides' middles, centre) lines up the
/// most cells with the base's, top left first on a tie.
fn frame_of(base: &TileGrid, side: &TileGrid) -> Frame {
    let size = (side.width, side.height);
    if size == (base.width, base.height) {
        return Frame { offset: (0, 0), size };
    }
    let choices = |old: i32, new: i32| [0, (new - old) / 2, new - old];
    let mut best = ((0, 0), -1_i64);
    for dy in choices(base.height, side.height) {
        for dx in choices(base.width, side.width) {
            let mut same = 0_i64;
            for y in 0..base.height {
                for x in 0..base.width {
                    if let Some(tile) = side.get(x + dx, y + dy) {
                        same += i64::from(base.get(x, y) == Some(tile));
                    }
                }
            }
            if same > best.1 {
                best = ((dx, dy), same);
            }
        }
    }
    Frame { offset: best.0, size }
}

/// Merges the objects by key (see the module's text): ours' order, then the objects only
/// theirs has, in theirs' order.
fn merge_objects(
    base: &[ObjectRecord],
    ours: &[ObjectRecord],
    theirs: &[ObjectRecord],
    conflicts: &mut Vec<Conflict>,
) -> Vec<ObjectRecord> {
    fn by_key(list: &[ObjectRecord]) -> HashMap<&str, &ObjectRecord> {
        let mut map = HashMap::with_capacity(list.len());
        map.extend(list.iter().filter_map(|o| Some((o.key.as_deref()?, o))));
        map
    }
    let (base_by, ours_by, theirs_by) = (by_key(base), by_key(ours), by_key(theirs));
    let keys = ours.iter().chain(theirs.iter().filter(|t| !ours_by.contains_key(t.key.as_deref().unwrap_or(""))));
    // Keys are unique on each side (checked when decoded), and theirs' are taken only where
    // ours have none: each key comes once.
    let mut merged = Vec::with_capacity(ours.len().max(theirs.len()));
    for key in keys.filter_map(|o| o.key.as_deref()) {
        let (b, o, t) = (base_by.get(key).copied(), ours_by.get(key).copied(), theirs_by.get(key).copied());
        let conflict = |fields: Vec<String>| Conflict::Object {
            key: key.to_owned(),
            fields,
            ours: o.cloned().map(Box::new),
            theirs: t.cloned().map(Box::new),
        };
        match (b, o, t) {
            (_, Some(o), Some(t)) => {
                let (object, clashes) = merge_object(b, o, t);
                if !clashes.is_empty() {
                    conflicts.push(conflict(clashes));
                }
                merged.push(object);
            }
            // Made on one side only.
            (None, Some(one), None) | (None, None, Some(one)) => merged.push(one.clone()),
            // Removed on one side: fine if the other left it as it was.
            (Some(b), Some(o), None) => {
                if o != b {
                    conflicts.push(conflict(vec!["removed".into()]));
                    merged.push(o.clone());
                }
            }
            (Some(b), None, Some(t)) => {
                if t != b {
                    conflicts.push(conflict(vec!["removed".into()]));
                }
            }
            (_, None, None) => {}
        }
    }
    merged
}

/// Merges one object both sides have, aspect by aspect; returns it (ours where they clash)
/// and what clashed. With no base (both made it: only a shared key can do that) every
/// difference clashes.
fn merge_object(
    base: Option<&ObjectRecord>,
    ours: &ObjectRecord,
    theirs: &ObjectRecord,
) -> (ObjectRecord, Vec<String>) {
    // Most objects: one side or neither changed it.
    if ours == theirs || base == Some(theirs) {
        return (ours.clone(), Vec::new());
    }
    if base == Some(ours) {
        return (theirs.clone(), Vec::new());
    }
    let mut merged = ours.clone();
    let mut clashes = Vec::new();
    let mut aspect = |name: &str, b: Option<String>, o: String, t: String| -> Side {
        let b = b.unwrap_or_else(|| o.clone());
        let base_is_neither = base.is_none() && o != t;
        match three_way(&b, &o, &t) {
            Some(_) if base_is_neither => {
                clashes.push(name.to_owned());
                Side::Ours
            }
            Some(v) if v == o => Side::Ours,
            Some(_) => Side::Theirs,
            None => {
                clashes.push(name.to_owned());
                Side::Ours
            }
        }
    };
    let prototype = |r: &ObjectRecord| ron(&(r.kind, r.id));
    if aspect("prototype", base.map(prototype), prototype(ours), prototype(theirs)) == Side::Theirs {
        (merged.kind, merged.id) = (theirs.kind, theirs.id);
    }
    let position = |r: &ObjectRecord| ron(&(r.x, r.y));
    if aspect("position", base.map(position), position(ours), position(theirs)) == Side::Theirs {
        (merged.x, merged.y) = (theirs.x, theirs.y);
    }
    let mut names: BTreeMap<Symbol, ()> = BTreeMap::new();
    for record in base.into_iter().chain([ours, theirs]) {
        names.extend(record.fields.iter().map(|(name, _)| (name, ())));
    }
    for name in names.into_keys() {
        let field = |r: &ObjectRecord| ron(&r.fields.get(name));
        if aspect(name.as_str(), base.map(field), field(ours), field(theirs)) == Side::Theirs {
            match theirs.fields.get(name) {
                Some(value) => merged.fields.insert(name, value.clone()),
                None => merged.fields.remove(name),
            };
        }
    }
    let inventory = |r: &ObjectRecord| ron(&r.inventory);
    if aspect("inventory", base.map(inventory), inventory(ours), inventory(theirs)) == Side::Theirs {
        merged.inventory = theirs.inventory.clone();
    }
    let equipment = |r: &ObjectRecord| ron(&r.equipment);
    if aspect("equipment", base.map(equipment), equipment(ours), equipment(theirs)) == Side::Theirs {
        merged.equipment = theirs.equipment.clone();
    }
    (merged, clashes)
}
