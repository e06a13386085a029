//! The workbench's part of the protocol: its commands ([`WorkbenchCommand`]) and its part of
//! the snapshot ([`PreviewView`]). A leaf: the protocol and the snapshot name these, and they
//! name nothing of the host's handlers.

use crate::journal_kind::JournalKind;
use nefia_game::map::MapId;
use nefia_game::value::Value;

/// What the workbench is asked to do.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub enum WorkbenchCommand {
    /// Show seed `seed` of map generator `generator` with `params` in the viewport, in place
    /// of the current map while editing; a hotload generates it again.
    Preview {
        /// The generator, such as `elona.cave`.
        generator: String,
        /// Its params: a map of name → value (missing ones take their defaults).
        params: Value,
        /// The seed.
        seed: i64,
    },
    /// Close the preview: the map current before comes back.
    Close,
    /// Make the preview the project's map of this name, written to its file.
    Bake(String),
}

impl WorkbenchCommand {
    /// The command's name in messages ("a panic in bake preview").
    pub fn name(&self) -> &'static str {
        match self {
            WorkbenchCommand::Preview { .. } => "preview",
            WorkbenchCommand::Close => "close preview",
            WorkbenchCommand::Bake(_) => "bake preview",
        }
    }

    /// What the command is to the edit journal: the preview opened or closed is kept; a bake
    /// wrote a file, so it takes a new base.
    pub fn journal_kind(&self) -> JournalKind {
        use nefia_game::journal::Journaled;
        match self {
            WorkbenchCommand::Preview { generator, params, seed } => JournalKind::Log(Journaled::Preview {
                generator: generator.clone(),
                params: params.clone(),
                seed: *seed,
            }),
            WorkbenchCommand::Close => JournalKind::Log(Journaled::ClosePreview),
            WorkbenchCommand::Bake(_) => JournalKind::Rebase,
        }
    }
}

/// A preview as the editor shows it.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, Default, PartialEq)]
pub struct PreviewView {
    /// The generator.
    pub generator: String,
    /// The seed.
    pub seed: i64,
    /// The preview map (current while it shows); the snapshot's map problems are its.
    pub map: Option<MapId>,
    /// What changed since the previous generation of the same seed (after a hotload or a
    /// param change; another seed is another map, not a change). A hotload that changed
    /// nothing keeps the diff of the one before.
    pub diff: Option<PreviewDiff>,
    /// Why the last generation failed (the previous preview stays).
    pub error: Option<String>,
    /// How long the generation took, in milliseconds.
    pub took_ms: f64,
    /// How many times it was generated since the workbench opened it: a new number is a
    /// new result (after a hotload, the same seed's).
    pub generation: u64,
    /// The file the previous preview was baked to (the workbench then shows the same seed
    /// again), until the preview is generated anew.
    #[serde(default)]
    pub baked: Option<String>,
}

/// The cells that differ between two generated maps.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, Default, PartialEq)]
pub struct PreviewDiff {
    /// The cells whose tile or objects differ.
    pub cells: Vec<(i32, i32)>,
    /// How many cells have another tile.
    pub tiles: usize,
    /// How many cells hold other objects (by prototype).
    pub objects: usize,
}
