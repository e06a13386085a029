//! What changed in a map's art layers between two map files: layers added and removed (by
//! name), moved to another place or offset, and their cells painted and erased by region, as
//! the tiles' are.

use std::fmt;

use super::{TileChange, region_line, regions};
use crate::save::{ArtLayerRecord, LayerPlace, MapRecord};
use crate::symbol::Symbol;

/// What happened to one art layer, by name.
#[derive(Clone, Debug, PartialEq)]
pub struct ArtLayerDiff {
    /// The layer's name.
    pub name: String,
    /// What happened to it.
    pub change: ArtLayerChange,
}

/// What happened to an art layer.
#[derive(Clone, Debug, PartialEq)]
pub enum ArtLayerChange {
    /// Only the second file has it, with this many painted cells.
    Added(usize),
    /// Only the first file has it, with this many painted cells.
    Removed(usize),
    /// Both have it, differently.
    Changed {
        /// Where it is drawn, before and after, if that changed.
        place: Option<(LayerPlace, LayerPlace)>,
        /// Its pixel offset, before and after, if that changed.
        offset_px: Option<((i32, i32), (i32, i32))>,
        /// Its cells that changed, by region (a tile of none: an empty cell).
        cells: Vec<TileChange>,
    },
    /// Its cells cannot be read in one of the files (the text says which row).
    Unreadable(String),
}

/// The art layers of `a` and `b` compared by name: `a`'s in its order, then those only `b` has.
pub(super) fn art_layer_changes<'a>(a: &'a MapRecord, b: &'a MapRecord) -> Vec<ArtLayerDiff> {
    let find = |record: &'a MapRecord, name: &str| record.art_layers.iter().find(|l| l.name == name);
    let cells = |record: &MapRecord, layer: &ArtLayerRecord| layer.cells(record.width, record.height);
    let painted = |record: &MapRecord, layer: &ArtLayerRecord| match cells(record, layer) {
        Ok(grid) => ArtLayerChange::Added(grid.filled()),
        Err(error) => ArtLayerChange::Unreadable(error.to_string()),
    };
    let mut changes = Vec::new();
    for before in &a.art_layers {
        let name = before.name.clone();
        let change = match find(b, &name) {
            None => match painted(a, before) {
                ArtLayerChange::Added(cells) => ArtLayerChange::Removed(cells),
                unreadable => unreadable,
            },
            Some(after) => match (cells(a, before), cells(b, after)) {
                (Ok(old), Ok(new)) => {
                    let (width, height) = (a.width.max(b.width), a.height.max(b.height));
                    let cells = regions(width, height, |x, y| (old.get(x, y), new.get(x, y)));
                    let place = (before.place != after.place).then_some((before.place, after.place));
                    let offset_px =
                        (before.offset_px != after.offset_px).then_some((before.offset_px, after.offset_px));
                    if cells.is_empty() && place.is_none() && offset_px.is_none() {
                        continue;
                    }
                    ArtLayerChange::Changed { place, offset_px, cells }
                }
                (Err(error), _) | (_, Err(error)) => ArtLayerChange::Unreadable(error.to_string()),
            },
        };
        changes.push(ArtLayerDiff { name, change });
    }
    for after in b.art_layers.iter().filter(|l| find(a, &l.name).is_none()) {
        changes.push(ArtLayerDiff { name: after.name.clone(), change: painted(b, after) });
    }
    changes
}

/// An art layer's cell's tile as a diff names it.
fn art_tile_name(tile: Option<Symbol>) -> String {
    tile.map_or_else(|| "(empty)".to_owned(), |t| t.as_str().to_owned())
}

impl fmt::Display for ArtLayerDiff {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = &self.name;
        let cells = |n: usize| if n == 1 { "1 painted cell".to_owned() } else { format!("{n} painted cells") };
        match &self.change {
            ArtLayerChange::Added(n) => writeln!(f, "added art layer '{name}' ({})", cells(*n)),
            ArtLayerChange::Removed(n) => writeln!(f, "removed art layer '{name}' ({})", cells(*n)),
            ArtLayerChange::Unreadable(error) => writeln!(f, "art layer '{name}' cannot be read: {error}"),
            ArtLayerChange::Changed { place, offset_px, cells } => {
                if let Some((before, after)) = place {
                    let (before, after) = (format!("{before:?}").to_lowercase(), format!("{after:?}").to_lowercase());
                    writeln!(f, "art layer '{name}': drawn {before} → {after} the objects")?;
                }
                if let Some(((x0, y0), (x1, y1))) = offset_px {
                    writeln!(f, "art layer '{name}': offset ({x0}, {y0}) → ({x1}, {y1}) pixels")?;
                }
                for change in cells {
                    writeln!(f, "art layer '{name}': {}", region_line(change, art_tile_name))?;
                }
                Ok(())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(layers: Vec<ArtLayerRecord>) -> MapRecord {
        let mut record: MapRecord = ron::from_str(
            "(name: \"m\", width: 3, height: 2, palette: {\".\": \"t.floor\"}, tiles: [\"...\", \"...\"])",
        )
        .expect("a map record");
        record.art_layers = layers;
        record
    }

    fn layer(name: &str, rows: [&str; 2]) -> ArtLayerRecord {
        ArtLayerRecord {
            name: name.into(),
            place: LayerPlace::Above,
            offset_px: (0, 0),
            palette: [("r".to_owned(), Symbol::intern("t.roof"))].into(),
            tiles: rows.map(str::to_owned).to_vec(),
        }
    }

    #[test]
    fn layers_added_removed_and_painted_are_said_in_words() {
        let a = record(vec![layer("roofs", ["r  ", "   "]), layer("old", ["rrr", "   "])]);
        let b = record(vec![layer("roofs", [" rr", "   "]), layer("new", ["r  ", "   "])]);
        let text = super::super::diff_maps(
            &a,
            &super::super::TileGrid::of(&a).unwrap(),
            &b,
            &super::super::TileGrid::of(&b).unwrap(),
        )
        .to_string();
        assert_eq!(
            text,
            "art layer 'roofs': 1 cell at (0, 0): t.roof → (empty)\n\
             art layer 'roofs': 2 cells at (1..2, 0): (empty) → t.roof\n\
             removed art layer 'old' (3 painted cells)\n\
             added art layer 'new' (1 painted cell)\n"
        );
        let broken = record(vec![layer("roofs", ["r?", "   "])]);
        let changes = art_layer_changes(&a, &broken);
        assert!(matches!(&changes[0].change, ArtLayerChange::Unreadable(e) if e.contains("row 0")), "{changes:?}");
    }
}
