//! `nefia export`: a project's map file written as a Tiled map (.tmj), the tiles drawn in its
//! tileset image as the editor draws them. Beside [`super::import`]: the host opens the
//! project's data, the game crate's exchange writes the document, and the frontend draws the
//! image (it has the image encoder).

use std::path::Path;

use nefia_game::exchange::export::to_tmj;
use nefia_game::files::{FileError, read_ron};
use nefia_game::save::MapRecord;
use nefia_lua::Runtime;

use nefia_protocol::view::{TileStyle, tile_style};

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
    let exported = to_tmj(&record, image_name).map_err(|why| unexportable(why.to_string()))?;
    let styles = {
        let world = runtime.world();
        exported.tiles.iter().map(|&tile| tile_style(&world, tile)).collect()
    };
    let text = serde_json::to_string(&exported.map).map_err(|error| unexportable(error.to_string()))?;
    Ok(ExportedMap { text, styles, notes: exported.notes })
}
