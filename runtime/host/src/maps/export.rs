//! `nefia export`: a project's map file written as a Tiled map (.tmj), the tiles drawn in its
//! tileset image as the editor draws them. Beside [`super::import`]: the host opens the
//! project's data, the game crate's exchange writes the document, and the frontend draws the
//! image (it has the image encoder).

use std::path::Path;

use nefia_game::exchange::export::{TILE_PIXELS, to_tmj};
use nefia_game::files::{FileError, read_ron};
use nefia_game::save::MapRecord;
use nefia_game::symbol::Symbol;
use nefia_game::value::Value;
use nefia_lua::Runtime;

use nefia_protocol::view::{TileStyle, tile_style};

/// The largest tile side an export draws, in pixels.
pub const MAX_TILE_PX: u32 = 512;

/// A map ready to be written as a Tiled map.
#[derive(Debug)]
pub struct ExportedMap {
    /// The `.tmj` document's text.
    pub text: String,
    /// The tiles of the tileset, in order, each with how it is drawn: tile `i` of the image
    /// is `styles[i]`.
    pub styles: Vec<TileStyle>,
    /// What could not be carried over (fields that are tables or objects).
    pub notes: Vec<String>,
    /// The side of a tile of the tileset in pixels: the map's `cell_px` if it gives one, else
    /// 32 if a tile has an image (LAYOUT's default cell), else 16.
    pub tile_px: u32,
    /// The folders the tiles' images are found in.
    pub asset_dirs: Vec<std::path::PathBuf>,
}

/// Why a map could not be exported; nothing was written.
#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    /// The map file could not be read.
    #[error(transparent)]
    Read(#[from] FileError),
    /// The map cannot be written as a Tiled map.
    #[error("{path}: {why}")]
    Unexportable {
        /// The map file.
        path: String,
        /// Why, as a sentence.
        why: String,
    },
}

/// Map file `map` (of `runtime`'s project) as a Tiled map whose tileset image is `image_name`.
pub fn export_map(runtime: &Runtime, map: &Path, image_name: &str) -> Result<ExportedMap, ExportError> {
    let record: MapRecord = read_ron(map)?;
    let unexportable = |why: String| ExportError::Unexportable { path: map.display().to_string(), why };
    // The tileset's tiles are numbered before their size is known: the size only scales it.
    let numbered = to_tmj(&record, image_name, TILE_PIXELS).map_err(|why| unexportable(why.to_string()))?;
    let styles: Vec<TileStyle> = {
        let world = runtime.world();
        numbered.tiles.iter().map(|&tile| tile_style(&world, tile)).collect()
    };
    let cell_px =
        record.fields.get(Symbol::intern("cell_px")).and_then(Value::as_i64).and_then(|px| u32::try_from(px).ok());
    let tile_px = match cell_px.filter(|&px| (1..=MAX_TILE_PX).contains(&px)) {
        Some(px) => px,
        None if styles.iter().any(|s| s.art.is_some()) => 32,
        None => TILE_PIXELS,
    };
    let exported = to_tmj(&record, image_name, tile_px).map_err(|why| unexportable(why.to_string()))?;
    let text = serde_json::to_string(&exported.map).map_err(|error| unexportable(error.to_string()))?;
    let asset_dirs = runtime.project().map(|p| p.asset_dirs()).unwrap_or_default();
    Ok(ExportedMap { text, styles, notes: exported.notes, tile_px, asset_dirs })
}
