//! The maps subsystem's part of the protocol: its commands ([`MapCommand`]) and its part of
//! the snapshot ([`MapsView`]). A leaf: the protocol and the snapshot name these, and they
//! name nothing of the host's handlers.

use std::sync::Arc;

use crate::checks::MapProblem;
use crate::journal_kind::JournalKind;
use nefia_game::map::MapId;

/// A map file operation (see [`nefia_game::map_files`]). Failures come back as
/// [`HostEvent::Refused`](crate::message::HostEvent::Refused); what was done is logged.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub enum MapCommand {
    /// Make a new map (it becomes the current map) with no file until saved.
    New {
        /// Its name (the file stem).
        name: String,
        /// Width in cells.
        width: i32,
        /// Height in cells.
        height: i32,
        /// The tile it is filled with.
        tile: String,
    },
    /// Open a map (loading its file the first time); it becomes the current map.
    Open(String),
    /// Save a map to its file; `None` saves the current map.
    Save(Option<String>),
    /// Save every map with unsaved changes.
    SaveAll,
    /// Rename a map and its file.
    Rename {
        /// The current name.
        from: String,
        /// The new name.
        to: String,
    },
    /// Write a copy of a map under a new name.
    Duplicate {
        /// The map copied.
        from: String,
        /// The copy's name.
        to: String,
    },
    /// Delete a map (its file is kept as `.ron.bak`).
    Delete(String),
    /// Make a map the project's start map.
    SetStart(String),
    /// List again what `maps/` holds (the folder's watcher sends this when files come and
    /// go); allowed while playing, as it changes no map.
    Rescan,
    /// Import a Tiled or LDtk map into `maps/` through a mapping (see `runtime/host/src/maps/import.rs`); with no
    /// mapping file yet, its template is written beside the source.
    Import {
        /// The `.tmx`, `.tmj` or `.ldtk` file.
        source: std::path::PathBuf,
        /// The mapping; none: `<stem>.mapping.ron` beside the source.
        mapping: Option<std::path::PathBuf>,
        /// The mod the tiles the mapping leaves out become new tiles of, keeping every layer
        /// (`nefia import --new-tiles`); none: each cell takes its topmost layer's tile.
        #[serde(default)]
        new_tiles: Option<String>,
    },
}

impl MapCommand {
    /// What the command is to the edit journal: a map opened or made is kept; the list of
    /// files rescanned changes no world; the rest wrote files (the saved marks changed), so
    /// they take a new base.
    pub fn journal_kind(&self) -> JournalKind {
        use nefia_game::journal::Journaled;
        match self {
            MapCommand::Open(name) => JournalKind::Log(Journaled::Open(name.clone())),
            MapCommand::New { name, width, height, tile } => JournalKind::Log(Journaled::New {
                name: name.clone(),
                width: *width,
                height: *height,
                tile: tile.clone(),
            }),
            MapCommand::Rescan => JournalKind::Other,
            _ => JournalKind::Rebase,
        }
    }
}

/// The maps subsystem's part of the snapshot.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, Default, PartialEq)]
pub struct MapsView {
    /// The project's map files: open, current, unsaved, start.
    pub files: Vec<nefia_game::map_files::MapFileView>,
    /// What the map validators found on the current map.
    pub problems: MapProblemsView,
}

/// The validators' problems on the current map, as the Problems pane and the viewport show
/// them.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, Default, PartialEq)]
pub struct MapProblemsView {
    /// The map checked (the current one).
    pub map: Option<MapId>,
    /// What was found.
    pub problems: Arc<Vec<MapProblem>>,
    /// The map changed since: a check is on its way.
    pub stale: bool,
}
