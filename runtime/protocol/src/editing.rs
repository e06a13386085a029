//! The editing subsystem's part of the protocol: its commands ([`EditingCommand`]), its part
//! of the snapshot ([`EditingView`]) and its answers (why a cell has its tile, what a recovery
//! brought back). A leaf: the protocol and the snapshot name these, and they name nothing of
//! the host's handlers.

use std::path::PathBuf;
use std::sync::Arc;

use crate::journal_kind::JournalKind;
use nefia_game::autotile::Explanation;
use nefia_game::edit::Edit;
use nefia_game::journal::UnsavedMap;
use nefia_game::map::MapId;
use nefia_game::object::Uid;

/// What the editing subsystem is asked to do.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub enum EditingCommand {
    /// Make an edit, recorded for undo; a refusal comes back as
    /// [`HostEvent::Refused`](crate::message::HostEvent::Refused).
    Edit(Edit),
    /// Undo the last edit.
    Undo,
    /// Redo the last undone edit.
    Redo,
    /// Copy a region of a map; answered with [`HostEvent::Copied`](crate::message::HostEvent::Copied).
    Copy {
        /// The map.
        map: MapId,
        /// Column of the top-left corner.
        x: i32,
        /// Row of the top-left corner.
        y: i32,
        /// Width in cells.
        width: i32,
        /// Height in cells.
        height: i32,
    },
    /// Select these objects (what `Editor.selection()` returns).
    Select(Vec<Uid>),
    /// Send these objects' details in the snapshots (the inspector's selection and pinned
    /// tabs).
    Inspect(Vec<Uid>),
    /// Answer the recovery question (see `runtime/host/src/editing/journal.rs`): replay the
    /// edit journal left behind by the last session (true) or delete it.
    Recover(bool),
    /// Send why cell (x, y) of a map has its tile in the snapshots (the Inspector's "Why is
    /// this tile here?"), or stop (None).
    InspectCell(Option<(MapId, i32, i32)>),
    /// Why cell (x, y) of `map` has its tile, once; answered with
    /// [`HostEvent::CellExplained`](crate::message::HostEvent::CellExplained).
    ExplainCell {
        /// The map.
        map: MapId,
        /// Column.
        x: i32,
        /// Row.
        y: i32,
    },
    /// Where prototype `id` of `data_type` is used; answered with
    /// [`HostEvent::Usages`](crate::message::HostEvent::Usages).
    WhereUsed {
        /// The data type.
        data_type: String,
        /// The prototype.
        id: String,
    },
}

impl EditingCommand {
    /// The command's name in messages ("a panic in edit").
    pub fn name(&self) -> &'static str {
        match self {
            EditingCommand::Edit(_) => "edit",
            EditingCommand::Undo => "undo",
            EditingCommand::Redo => "redo",
            EditingCommand::Copy { .. } => "copy",
            EditingCommand::Select(_) => "select",
            EditingCommand::Inspect(_) => "inspect",
            EditingCommand::Recover(_) => "recover",
            EditingCommand::WhereUsed { .. } => "where used",
            EditingCommand::InspectCell(_) => "inspect cell",
            EditingCommand::ExplainCell { .. } => "explain cell",
        }
    }

    /// What the command is to the edit journal: an edit, undo and redo are kept.
    pub fn journal_kind(&self) -> JournalKind {
        use nefia_game::journal::Journaled;
        match self {
            EditingCommand::Edit(edit) => JournalKind::Log(Journaled::Edit(edit.clone())),
            EditingCommand::Undo => JournalKind::Log(Journaled::Undo),
            EditingCommand::Redo => JournalKind::Log(Journaled::Redo),
            _ => JournalKind::Other,
        }
    }

    /// The input a recorded session keeps of the command: an edit made while playing, undo
    /// and redo.
    pub fn recorded_input(&self) -> Option<nefia_game::recording::Input> {
        use nefia_game::recording::Input;
        match self {
            EditingCommand::Edit(edit) => Some(Input::Edit(edit.clone())),
            EditingCommand::Undo => Some(Input::Undo),
            EditingCommand::Redo => Some(Input::Redo),
            _ => None,
        }
    }

    /// True if the command only reads the world (no checkpoint is taken before it).
    pub fn reads_only(&self) -> bool {
        matches!(
            self,
            EditingCommand::Copy { .. }
                | EditingCommand::Select(_)
                | EditingCommand::Inspect(_)
                | EditingCommand::InspectCell(_)
                | EditingCommand::ExplainCell { .. }
                | EditingCommand::WhereUsed { .. }
        )
    }
}

/// The editing subsystem's part of the snapshot.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, Default, PartialEq)]
pub struct EditingView {
    /// The selected objects.
    pub selection: Vec<Uid>,
    /// Grows each time a script chooses the selection (`Editor.select`).
    pub selections_by_script: u64,
    /// The objects the inspector asked about ([`EditingCommand::Inspect`]).
    pub inspected: Vec<crate::view::object_details::ObjectDetails>,
    /// The editor's undo history.
    pub history: nefia_game::history::HistoryView,
    /// The edit journal the last session left, while the user has not said whether to
    /// recover it.
    pub recovery: Option<Arc<RecoveryOffer>>,
    /// Why the inspected cell ([`EditingCommand::InspectCell`]) has its tile.
    pub cell: Option<Arc<CellWhy>>,
}

/// Why a cell of a map has its tile: the rules' [`Explanation`], or why there is none (the
/// map has no auto-tiling, the cell is outside it, its rule set no longer reads).
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct CellWhy {
    /// The map.
    pub map: MapId,
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
    /// The explanation, or why there is none.
    pub explained: Result<Explanation, Unexplained>,
    /// Which sprite of its tile's art the cell draws and why (none: the tile has no art).
    #[serde(default)]
    pub sprite: Option<nefia_game::art::explain::SpriteWhy>,
}

/// Why a cell has no explanation.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq, thiserror::Error)]
pub enum Unexplained {
    /// The map has no auto-tiling rules laid on it: its tiles were painted by hand or by a
    /// generator, and there is nothing to explain.
    #[error("{0}")]
    NoRules(String),
    /// The map or the cell is not there.
    #[error("{0}")]
    NotThere(String),
    /// The map's rules no longer read (a hotload broke them); the message names the rule.
    #[error("{0}")]
    BadRules(String),
}

/// What the recovery dialog shows.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct RecoveryOffer {
    /// The maps with unsaved edits.
    pub maps: Vec<UnsavedMap>,
    /// What could not be read of the journal.
    pub problems: Vec<String>,
}

/// What came of answering the recovery question with Recover: the editor shows it until it is
/// read, in the unit the question counted (History's steps).
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct RecoveryReport {
    /// The steps that came back: what History holds of the journal.
    pub recovered: usize,
    /// The steps the journal held (see [`nefia_game::journal::steps_of`]).
    pub total: usize,
    /// Why recovery stopped before the end, if it did: which journal entry did not come back
    /// and why, as a whole sentence.
    pub stopped: Option<String>,
    /// Where the journal left behind was kept, when not all of it came back (it can be tried
    /// again by moving it back to `.nefia/journal`).
    pub kept: Option<PathBuf>,
}

/// One place that names a prototype's id.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Usage {
    /// An object of the world made from it (on an open map, held, or nowhere).
    Object {
        /// The object.
        uid: Uid,
        /// What the object is called, as links show it.
        title: String,
        /// The map it is on (or its holder is on), if any.
        map: Option<String>,
        /// Its cell (its holder's, when held).
        x: i32,
        /// Its cell's row.
        y: i32,
    },
    /// An object in a map file that is not open.
    MapFile {
        /// The map's name (its file in `maps/`).
        map: String,
        /// The object's cell.
        x: i32,
        /// The object's row.
        y: i32,
    },
    /// Cells of a map (open or not) painted with it, a tile.
    Tiles {
        /// The map's name.
        map: String,
        /// The first such cell, row by row.
        x: i32,
        /// Its row.
        y: i32,
        /// How many cells.
        count: usize,
    },
    /// A field of another prototype naming it.
    Field {
        /// That prototype's data type.
        data_type: String,
        /// That prototype's id.
        id: String,
        /// The field.
        field: String,
        /// `file:line` of the field's value (of the prototype's `data:add` when it cannot be
        /// found in the text).
        at: String,
    },
    /// A string literal in a mod's Lua file.
    Literal {
        /// `file:line`, the file as messages name it.
        at: String,
    },
    /// A recording whose commands name it.
    Recording {
        /// Its file, relative to the project's `recordings/` folder.
        name: String,
    },
}

impl std::fmt::Display for Usage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Usage::Object { title, map: Some(map), x, y, .. } => write!(f, "{title} on map '{map}' at ({x}, {y})"),
            Usage::Object { title, map: None, .. } => write!(f, "{title}, on no map"),
            Usage::MapFile { map, x, y } => write!(f, "an object in map file '{map}' at ({x}, {y})"),
            Usage::Tiles { map, x, y, count } => write!(f, "{count} cell(s) of map '{map}', the first at ({x}, {y})"),
            Usage::Field { data_type, id, field, at } => write!(f, "{id}.{field} ({data_type}) at {at}"),
            Usage::Literal { at } => write!(f, "a string at {at}"),
            Usage::Recording { name } => write!(f, "recording {name}"),
        }
    }
}
