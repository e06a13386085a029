//! The three-way merge of a map's art layers, matched by name: a layer both sides kept merges
//! cell by cell as the tiles do (a cell both sides painted differently is a
//! [`Conflict::ArtCell`]; the merged layer holds ours'), and its place and offset as single
//! values. A layer one side added is kept; one side removed is removed unless the other
//! changed it, which is a [`Conflict::Map`] of field `art_layers.<name>` holding both layers.
//! Layers keep ours' order, then theirs' new ones.

use super::{Frame, MergeError, ron, three_way};
use crate::autotile::Intent;
use crate::conflict::Conflict;
use crate::map::ArtLayer;
use crate::save::{ArtLayerRecord, MapRecord};
use crate::symbol::Symbol;

/// One side's layer: its record, its cells, and the side's frame.
#[derive(Clone, Copy)]
struct Side<'a> {
    record: &'a ArtLayerRecord,
    cells: &'a Intent,
    frame: Frame,
}

/// A side's layers with their cells read.
type Decoded<'a> = Vec<(&'a ArtLayerRecord, Intent)>;

/// The merged art layers of `records` (base, ours, theirs) in the result's frame of `size`;
/// `from_result` takes a result cell to a side's frame.
pub(super) fn merge_art_layers(
    records: [&MapRecord; 3],
    frames: [Frame; 3],
    size: (i32, i32),
    from_result: &dyn Fn(Frame, (i32, i32)) -> (i32, i32),
    conflicts: &mut Vec<Conflict>,
) -> Result<Vec<ArtLayerRecord>, MergeError> {
    let decoded = [decode("base", records[0])?, decode("ours", records[1])?, decode("theirs", records[2])?];
    let find = |side: usize, name: &str| {
        decoded[side].iter().find(|(r, _)| r.name == name).map(|(record, cells)| Side {
            record,
            cells,
            frame: frames[side],
        })
    };
    let mut names: Vec<&String> = Vec::new();
    for (record, _) in decoded[1].iter().chain(&decoded[2]) {
        if !names.contains(&&record.name) {
            names.push(&record.name);
        }
    }
    let mut merged = Vec::new();
    for name in names {
        let (b, o, t) = (find(0, name), find(1, name), find(2, name));
        let cells = match (b, o, t) {
            // One side removed it: gone, unless the other changed it.
            (Some(b), None, Some(kept)) | (Some(b), Some(kept), None) => {
                if unchanged(b, kept) {
                    continue;
                }
                conflicts.push(Conflict::Map {
                    field: format!("art_layers.{name}"),
                    ours: ron(&o.map(|s| s.record)),
                    theirs: ron(&t.map(|s| s.record)),
                });
                match o {
                    // Ours kept it: the map holds it as ours has it.
                    Some(o) => merge_cells(name, [None, Some(o), None], size, from_result, conflicts),
                    None => continue,
                }
            }
            (b, o, t) => merge_cells(name, [b, o, t], size, from_result, conflicts),
        };
        let (ours_side, theirs_side) = (o.or(t), t.or(o));
        let Some(kept) = ours_side else { continue };
        // Place and offset merge as single values (a layer added on one side is its own base).
        let value = |field: &str, get: fn(&ArtLayerRecord) -> String, conflicts: &mut Vec<Conflict>| {
            let [bv, ov, tv] = [b.or(ours_side), ours_side, theirs_side].map(|s| s.map(|s| get(s.record)));
            match three_way(&bv, &ov, &tv) {
                Some(v) => v != ov,
                None => {
                    let (ours, theirs) = (ov.unwrap_or_default(), tv.unwrap_or_default());
                    conflicts.push(Conflict::Map { field: format!("art_layers.{name}.{field}"), ours, theirs });
                    false
                }
            }
        };
        let place_theirs = value("place", |r| ron(&r.place), conflicts);
        let offset_theirs = value("offset_px", |r| ron(&r.offset_px), conflicts);
        let from = |theirs: bool| if theirs { theirs_side.unwrap_or(kept) } else { kept }.record;
        let layer = ArtLayer {
            name: name.clone(),
            place: from(place_theirs).place,
            offset_px: from(offset_theirs).offset_px,
            cells,
        };
        let palettes: Vec<_> = [o, t, b].into_iter().flatten().map(|s| &s.record.palette).collect();
        let wish = |tile: Symbol| {
            palettes.iter().find_map(|palette| palette.iter().find(|(_, t)| **t == tile).map(|(code, _)| code.clone()))
        };
        merged.push(ArtLayerRecord::of(&layer, &wish));
    }
    Ok(merged)
}

/// A side's layers with their cells read, or which side, layer and row is wrong.
fn decode<'a>(side: &'static str, record: &'a MapRecord) -> Result<Decoded<'a>, MergeError> {
    let mut layers: Decoded<'a> = Vec::new();
    for layer in &record.art_layers {
        if layers.iter().any(|(l, _)| l.name == layer.name) {
            return Err(MergeError { side, message: format!("two art layers are named '{}'", layer.name) });
        }
        let cells = layer
            .cells(record.width, record.height)
            .map_err(|error| MergeError { side, message: format!("art layer '{}': {error}", layer.name) })?;
        layers.push((layer, cells));
    }
    Ok(layers)
}

/// True if `side`'s layer is `base`'s: the same place, offset and cells.
fn unchanged(base: Side, side: Side) -> bool {
    let (b, s) = (base.cells, side.cells);
    (base.record.place, base.record.offset_px) == (side.record.place, side.record.offset_px)
        && (b.width(), b.height()) == (s.width(), s.height())
        && (0..b.height()).all(|y| (0..b.width()).all(|x| b.get(x, y) == s.get(x, y)))
}

/// The cells of layer `name` merged one by one in the result's frame of `size` from the sides
/// (base, ours, theirs) that have it; a cell both painted differently is a conflict, holding
/// ours'.
fn merge_cells(
    name: &str,
    sides: [Option<Side>; 3],
    (width, height): (i32, i32),
    from_result: &dyn Fn(Frame, (i32, i32)) -> (i32, i32),
    conflicts: &mut Vec<Conflict>,
) -> Intent {
    Intent::from_fn(width, height, |x, y| {
        let [b, o, t] = sides.map(|side| {
            side.and_then(|s| {
                let (sx, sy) = from_result(s.frame, (x, y));
                s.cells.get(sx, sy)
            })
        });
        three_way(&b, &o, &t).unwrap_or_else(|| {
            conflicts.push(Conflict::ArtCell { layer: name.to_owned(), x, y, ours: o, theirs: t });
            o
        })
    })
}

#[cfg(test)]
mod tests {
    use crate::conflict::Conflict;
    use crate::map_merge::merge_maps;
    use crate::save::{ArtLayerRecord, LayerPlace, MapRecord};
    use crate::symbol::Symbol;

    /// A 3×2 map of floor with art layers `layers`: (name, rows), codes `r` roof, `t` tree.
    fn map(layers: &[(&str, [&str; 2])]) -> MapRecord {
        let mut record: MapRecord = ron::from_str(
            "(name: \"m\", width: 3, height: 2, palette: {\".\": \"t.floor\"}, tiles: [\"...\", \"...\"])",
        )
        .expect("a map record");
        let palette = [("r", "t.roof"), ("t", "t.tree")].map(|(c, t)| (c.to_owned(), Symbol::intern(t)));
        record.art_layers = layers
            .iter()
            .map(|(name, rows)| ArtLayerRecord {
                name: (*name).into(),
                place: LayerPlace::Above,
                offset_px: (0, 0),
                palette: palette.clone().into(),
                tiles: rows.map(str::to_owned).to_vec(),
            })
            .collect();
        record
    }

    fn rows(record: &MapRecord, name: &str) -> Vec<String> {
        let layer = record.art_layers.iter().find(|l| l.name == name).expect("the layer");
        let letter = |code: &str| match layer.palette.get(code).map(|t| t.as_str()) {
            Some("t.roof") => "r",
            Some("t.tree") => "t",
            _ => " ",
        };
        let width = layer.code_width();
        let cells = |row: &String| {
            row.chars().collect::<Vec<_>>().chunks(width).map(|c| letter(&c.iter().collect::<String>())).collect()
        };
        layer.tiles.iter().map(cells).collect()
    }

    #[test]
    fn art_layers_merge_cell_by_cell_with_a_conflict_per_cell_both_painted() {
        let base = map(&[("roofs", ["   ", "   "]), ("old", ["r  ", "   "]), ("rugs", ["t  ", "   "])]);
        // Ours paints (0, 0) and (1, 0), removes "old", and paints "rugs".
        let ours = map(&[("roofs", ["rr ", "   "]), ("rugs", ["tt ", "   "])]);
        // Theirs paints (1, 0) otherwise and (2, 1), keeps "old", removes "rugs", adds "trees".
        let theirs = map(&[("roofs", [" t ", "  r"]), ("old", ["r  ", "   "]), ("trees", ["  t", "   "])]);
        let merged = merge_maps(&base, &ours, &theirs).expect("a merge");
        let names: Vec<&str> = merged.art_layers.iter().map(|l| l.name.as_str()).collect();
        assert_eq!(names, ["roofs", "rugs", "trees"], "ours' order, then theirs' new one; 'old' removed");
        assert_eq!(rows(&merged, "roofs"), ["rr ", "  r"], "each side's cells, ours' where both painted");
        assert_eq!(rows(&merged, "trees"), ["  t", "   "]);
        let roof = |t: &str| Some(Symbol::intern(t));
        let cell =
            Conflict::ArtCell { layer: "roofs".into(), x: 1, y: 0, ours: roof("t.roof"), theirs: roof("t.tree") };
        assert_eq!(merged.conflicts[0], cell, "{:?}", merged.conflicts);
        assert_eq!(cell.to_string(), "art layer 'roofs' cell (1, 0): ours t.roof, theirs t.tree");
        assert!(
            matches!(&merged.conflicts[1], Conflict::Map { field, theirs, .. } if field == "art_layers.rugs" && theirs == "None"),
            "theirs removed a layer ours painted: {:?}",
            merged.conflicts
        );
        assert_eq!(merged.conflicts.len(), 2);
        let clean = merge_maps(&base, &ours, &base).expect("a merge");
        assert!(clean.conflicts.is_empty());
        let all = |record: &MapRecord| -> Vec<(String, Vec<String>)> {
            record.art_layers.iter().map(|l| (l.name.clone(), rows(record, &l.name))).collect()
        };
        assert_eq!(all(&clean), all(&ours), "one side's edits taken whole");
    }

    #[test]
    fn a_side_whose_art_layer_does_not_read_is_named() {
        let base = map(&[("roofs", ["   ", "   "])]);
        let broken = map(&[("roofs", ["?  ", "   "])]);
        let error = merge_maps(&base, &base, &broken).expect_err("refused");
        assert_eq!(error.side, "theirs");
        assert!(error.message.contains("art layer 'roofs': row 0 has code '?'"), "{error}");
    }
}

#[cfg(test)]
mod resolve_tests {
    use std::sync::Arc;

    use crate::conflict::resolve::resolve;
    use crate::conflict::{Conflict, Side};
    use crate::history::apply_changes;
    use crate::map::ArtLayer;
    use crate::save::{ArtLayerRecord, LayerPlace};
    use crate::symbol::Symbol;
    use crate::world::tests::world_with_map;

    #[test]
    fn picking_theirs_paints_their_cell_and_brings_back_their_layer_and_undo_puts_ours_back() {
        let (mut world, map) = world_with_map();
        let (roof, tree) = (Symbol::intern("t.roof"), Symbol::intern("t.tree"));
        let mut roofs = ArtLayer::new("roofs", LayerPlace::Above, 4, 4);
        roofs.cells.set(1, 0, Some(roof));
        let rugs = ArtLayerRecord {
            name: "rugs".into(),
            place: LayerPlace::Below,
            offset_px: (0, 0),
            palette: [("t".to_owned(), tree)].into(),
            tiles: ["t   ", "    ", "    ", "    "].map(str::to_owned).to_vec(),
        };
        let instance = world.map_mut(map).unwrap();
        instance.set_art_layers(vec![Arc::new(roofs)]);
        instance.conflicts = Arc::new(vec![
            Conflict::ArtCell { layer: "roofs".into(), x: 1, y: 0, ours: Some(roof), theirs: Some(tree) },
            Conflict::Map {
                field: "art_layers.rugs".into(),
                ours: "None".into(),
                theirs: ron::to_string(&Some(&rugs)).unwrap(),
            },
        ]);
        let step = resolve(&mut world, map, None, Side::Theirs).expect("resolved");
        let layers = world.map(map).unwrap().art_layers().clone();
        assert_eq!(layers[0].cells.get(1, 0), Some(tree), "theirs' cell");
        assert_eq!((layers[1].name.as_str(), layers[1].cells.get(0, 0)), ("rugs", Some(tree)), "theirs' layer");
        assert!(world.map(map).unwrap().conflicts.is_empty());
        apply_changes(&mut world, &step.before);
        let layers = world.map(map).unwrap().art_layers().clone();
        assert_eq!((layers.len(), layers[0].cells.get(1, 0)), (1, Some(roof)), "undone: ours again");
        assert_eq!(world.map(map).unwrap().conflicts.len(), 2);
    }
}
