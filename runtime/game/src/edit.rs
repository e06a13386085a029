//! Edits as data: what the editor asks to change ([`Edit`]) and a copied region of a map
//! ([`Clip`]). The journal and recordings keep edits, so they belong to the game's state; how
//! an edit is applied and recorded for undo is the host's (`runtime/host/src/editing/edit.rs`).

use std::sync::Arc;

use crate::location::Holder;
use crate::map::MapId;
use crate::moddable::ModMethod;
use crate::object::{ObjectKind, Uid};
use crate::object_record::ObjectRecord;
use crate::save::RecordKind;
use crate::symbol::Symbol;
use crate::value::Value;
use crate::world::{World, WorldError};

/// An edit the editor makes (recordings keep the edits made while playing).
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Edit {
    /// Set a base value (`mod_base(field, value)`); nil makes the field nil.
    SetBase {
        /// The objects.
        uids: Vec<Uid>,
        /// The field.
        field: String,
        /// The new base value.
        value: Value,
    },
    /// Forget the objects' own base value so the prototype's shows again.
    ResetToPrototype {
        /// The objects.
        uids: Vec<Uid>,
        /// The field.
        field: String,
    },
    /// Modify a temp value (`mod(field, value, method)`); nil removes it.
    ModTemp {
        /// The objects.
        uids: Vec<Uid>,
        /// The field.
        field: String,
        /// The value.
        value: Value,
        /// How it combines with the current value.
        method: ModMethod,
    },
    /// `refresh()`: clear temp values and let the handlers re-apply theirs.
    Refresh {
        /// The objects.
        uids: Vec<Uid>,
    },
    /// `take_object` into a location.
    Move {
        /// The objects.
        uids: Vec<Uid>,
        /// Where to.
        to: Holder,
        /// Column (maps only).
        x: i32,
        /// Row (maps only).
        y: i32,
    },
    /// `remove_ownership()`.
    Remove {
        /// The objects.
        uids: Vec<Uid>,
    },
    /// `clone()`, placing each copy where its original is.
    Clone {
        /// The originals.
        uids: Vec<Uid>,
    },
    /// Make a new object from a prototype and place it.
    Create {
        /// Its kind.
        kind: ObjectKind,
        /// Its prototype id.
        id: String,
        /// Where.
        to: Holder,
        /// Column (maps only).
        x: i32,
        /// Row (maps only).
        y: i32,
    },
    /// Set the tile of these cells.
    PaintTiles {
        /// The map.
        map: MapId,
        /// The cells; those off the map are skipped.
        cells: Vec<(i32, i32)>,
        /// The `base.map_tile` id.
        tile: String,
    },
    /// Flood fill: the cells joined to (x, y) that have its tile (sides touching) get `tile`.
    Fill {
        /// The map.
        map: MapId,
        /// Column of the start.
        x: i32,
        /// Row of the start.
        y: i32,
        /// The `base.map_tile` id.
        tile: String,
    },
    /// Paint cells of art layer `layer` of a map with `tile`, or erase them (no tile).
    PaintArt {
        /// The map.
        map: MapId,
        /// The art layer's name.
        layer: String,
        /// The cells; those off the map are skipped.
        cells: Vec<(i32, i32)>,
        /// The `base.map_tile` id; none: the cells are emptied.
        tile: Option<String>,
    },
    /// Add, remove, rename or move an art layer of a map.
    ArtLayer {
        /// The map.
        map: MapId,
        /// What is done to its layers.
        edit: crate::map::ArtLayerEdit,
    },
    /// Move objects on their maps by (dx, dy) (`set_pos`).
    Offset {
        /// The objects.
        uids: Vec<Uid>,
        /// Columns to the right.
        dx: i32,
        /// Rows down.
        dy: i32,
    },
    /// Put a copied region's tiles and objects with its top-left corner at (x, y).
    Paste {
        /// The map.
        map: MapId,
        /// Column of the top-left corner.
        x: i32,
        /// Row of the top-left corner.
        y: i32,
        /// What was copied.
        clip: Arc<Clip>,
    },
    /// Change a map's size. `anchor` says which part stays put: (0, 0) the top-left corner,
    /// (1, 1) the middle, (2, 2) the bottom-right. New cells get `tile`; objects that fall off
    /// are removed.
    Resize {
        /// The map.
        map: MapId,
        /// The new width.
        width: i32,
        /// The new height.
        height: i32,
        /// Which part stays: 0, 1 or 2 across and down.
        anchor: (i32, i32),
        /// The tile of new cells.
        tile: String,
    },
    /// Take the auto-tiling rules off a map, keeping the tiles they painted as plain tiles
    /// (painting then sets tiles again, not intent).
    BakeAutotile {
        /// The map.
        map: MapId,
    },
    /// Make a generated map again with the generator, params and seed it records (after the
    /// generator's code changed): its tiles and objects are replaced by the new result.
    Regenerate {
        /// The map.
        map: MapId,
    },
    /// Pick ours or theirs for a conflict a merge left in map `map` (see
    /// [`crate::map_merge`]): conflict `conflict` of its list, or every one.
    Resolve {
        /// The map.
        map: MapId,
        /// The conflict's index in the map's list; none: all of them.
        conflict: Option<usize>,
        /// The side to keep.
        side: crate::conflict::Side,
    },
    /// Set key `key`'s text to `text` in the locale file `file` (a loaded mod's
    /// `locale/<lang>/...lua`), adding the key if the file lacks it: the file edited in place,
    /// written and hotloaded (the Locale pane).
    LocaleText {
        /// The locale file.
        file: std::path::PathBuf,
        /// The key within the file's namespace: `chara._.elona.putit.name`.
        key: String,
        /// Its new text.
        text: String,
    },
    /// Set (or, with none, unset) field `field` of prototype `id` of `data_type` in the Lua
    /// file that adds it: its `data:add { ... }` table is edited in place, the file written and
    /// hotloaded (the Data pane's form, `data.set_field`).
    PrototypeField {
        /// The data type, such as `base.chara`.
        data_type: String,
        /// The prototype's full id, such as `elona.putit`.
        id: String,
        /// The field.
        field: String,
        /// Its new value; none removes it from the table (the type's default shows).
        value: Option<Value>,
    },
    /// Make object `uid`'s own base value of `field` its prototype's (written to the
    /// prototype's source as [`Edit::PrototypeField`] does) and drop the object's own value:
    /// the Inspector's "Apply to prototype".
    ApplyToPrototype {
        /// The object.
        uid: Uid,
        /// The field.
        field: String,
    },
    /// Copy prototype `id` of `data_type` as `new_id` (`<mod>.<name>`): after the original, or
    /// at the end of `file` (a loaded Lua file of `new_id`'s mod, as messages name it).
    DuplicatePrototype {
        /// The data type.
        data_type: String,
        /// The prototype copied.
        id: String,
        /// The copy's full id.
        new_id: String,
        /// The file to write it into; none: after the original.
        file: Option<String>,
    },
    /// Add prototype `new_id` of `data_type` at the end of `file`, with the type's template
    /// fields.
    NewPrototype {
        /// The data type.
        data_type: String,
        /// Its full id (`<mod>.<name>`).
        new_id: String,
        /// A loaded Lua file of its mod, as messages name it.
        file: String,
    },
    /// Remove prototype `id` of `data_type` from its Lua file; refused while anything uses it.
    DeletePrototype {
        /// The data type.
        data_type: String,
        /// The prototype.
        id: String,
    },
    /// One part of a stroke (a brush drag): the parts of stroke `id` are one undo step.
    Stroke {
        /// The stroke; consecutive edits with the same id merge.
        id: u64,
        /// The part.
        edit: Box<Edit>,
    },
}

/// A copied region of a map: its tiles and the objects on it, relative to its top-left.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Clip {
    /// Width in cells.
    pub width: i32,
    /// Height in cells.
    pub height: i32,
    /// Tile ids, row by row.
    pub tiles: Vec<Symbol>,
    /// The objects (positions relative to the top-left), as a map file writes them.
    pub objects: Vec<ObjectRecord>,
}

/// Copies the region of `map` at (x, y) of `width`×`height` (clipped to the map), with the
/// objects on it (not the player).
pub fn copy_region(world: &World, map: MapId, x: i32, y: i32, width: i32, height: i32) -> Result<Clip, WorldError> {
    let instance = world.map(map)?;
    let (x0, y0) = (x.max(0), y.max(0));
    let (x1, y1) = ((x + width).min(instance.width()), (y + height).min(instance.height()));
    if x1 <= x0 || y1 <= y0 {
        return Err(WorldError::OffMap { x, y, width, height });
    }
    let tiles = (y0..y1).flat_map(|cy| (x0..x1).map(move |cx| (cx, cy))).filter_map(|(cx, cy)| instance.tile(cx, cy));
    let mut objects = Vec::new();
    for cy in y0..y1 {
        for cx in x0..x1 {
            for &uid in instance.objects_at(cx, cy) {
                if Some(uid) == world.player() {
                    continue;
                }
                let mut record = world.object_record(uid, RecordKind::MapFile);
                record.x -= x0;
                record.y -= y0;
                objects.push(record);
            }
        }
    }
    Ok(Clip { width: x1 - x0, height: y1 - y0, tiles: tiles.collect(), objects })
}
