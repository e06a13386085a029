//! What a frontend draws and shows: a [`Snapshot`] of the game, built on the runtime thread
//! and handed to the editor, which never touches the world itself.
//!
//! Building is incremental. The map is cut into chunks of [`nefia_game::map::CHUNK_SIZE`] cells
//! (`view/map_view.rs`); each chunk's tiles, objects and shadow are separate `Arc`s that are
//! reused while their content is the same, so a frontend can cache whatever it builds from a chunk
//! (meshes) by `Arc` identity.

use std::sync::Arc;

use nefia_game::display::{DrawList, LayerView, WidgetView};
use nefia_game::map::MapId;
use nefia_game::object::Uid;
use nefia_game::world::World;

pub mod data;
pub mod debug;
mod location_tree;
mod map_picks;
mod map_view;
pub mod object_details;

pub use data::{DataTypeView, FieldView, FunctionSource, PrototypeArt, PrototypeView, data_view};
pub use debug::{LimitsView, ProfileView, WatchView, watch_views};
pub use object_details::{FieldRow, ObjectDetails, object_details};

pub use location_tree::{Contents, LocationTree, LocationTreeBuilder, MapNode, ObjectRow};
pub use map_view::{
    ArtChunk, ArtLayerView, ChunkView, DEFAULT_CELL_PX, MapView, MapViewBuilder, NO_TILE, ObjectView, ShadowCell,
    TileStyle, tile_style,
};

/// What the runtime is doing, for the status bar.
#[derive(serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuntimeState {
    /// Loading the project.
    Starting,
    /// Ready; nothing blocks (while playing: the game waits for the player's move).
    Running,
    /// Lua code waits inside a UI layer's `query()`.
    InQuery,
    /// Lua code waits inside `pause()`, a breakpoint.
    Paused,
    /// The game stopped on an uncaught error (the error screen).
    Error,
    /// The project could not be opened.
    Failed,
}

impl RuntimeState {
    /// The state as the status bar words it.
    pub fn label(self) -> &'static str {
        match self {
            RuntimeState::Starting => "starting",
            RuntimeState::Running => "running",
            RuntimeState::InQuery => "in query",
            RuntimeState::Paused => "paused",
            RuntimeState::Error => "stopped on an error",
            RuntimeState::Failed => "error",
        }
    }
}

/// A map in the Locations list.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct MapSummary {
    /// Its id.
    pub id: MapId,
    /// Its name.
    pub name: String,
    /// Size in cells.
    pub size: (i32, i32),
    /// Objects on it.
    pub objects: usize,
    /// True for the current map.
    pub current: bool,
}

/// Everything a frontend shows, at one moment.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug)]
pub struct Snapshot {
    /// Grows with every snapshot.
    pub serial: u64,
    /// What the runtime is doing.
    pub state: RuntimeState,
    /// The project's name.
    pub project: String,
    /// The project's folder as the runtime sees it (empty before it is open): an attached
    /// editor on the same machine reads the project's files from there.
    pub project_dir: std::path::PathBuf,
    /// Why the runtime cannot serve the project (it could not be opened, or it stopped
    /// after a panic), if so: a whole sentence to show as it is.
    pub problem: Option<String>,
    /// The last panic the runtime caught and recovered from, if any.
    pub fault: Option<String>,
    /// Turns played.
    pub turn: u64,
    /// The in-game date.
    pub date: String,
    /// The current map.
    pub map: Option<Arc<MapView>>,
    /// Every map.
    pub map_summaries: Vec<MapSummary>,
    /// The HUD widgets.
    pub widgets: Vec<WidgetView>,
    /// What the mods' map draw layers draw, in cells, by layer id.
    pub map_layers: Vec<(String, DrawList)>,
    /// The UI layer stack, bottom first.
    pub layers: Vec<LayerView>,
    /// True while something animates (the frontend keeps repainting).
    pub animating: bool,
    /// The Locations tree.
    pub locations: Arc<LocationTree>,
    /// The player, if there is one.
    pub player: Option<Uid>,
    /// The player's cell, if the player stands on the current map (the player window's
    /// camera follows it).
    pub player_at: Option<(i32, i32)>,
    /// The editing subsystem's part: selection, inspected objects, history, recovery.
    pub editing: crate::editing::EditingView,
    /// The play subsystem's part: playing, paused, where in the recording.
    pub play: crate::play::PlayView,
    /// The debugging subsystem's part: pause, error screen, limits, watches, profiler.
    pub debug: crate::debugging::DebugView,
    /// The mods subsystem's part: loaded mods, the Mods pane's rows, assets, prototypes.
    pub mods: crate::mods::ModsView,
    /// The maps subsystem's part: the project's map files and the current map's problems.
    pub maps: crate::maps::MapsView,
    /// The generator workbench's preview, if one shows.
    pub preview: Option<crate::workbench::PreviewView>,
}

impl Snapshot {
    /// A snapshot of nothing yet.
    pub fn empty(project: &str) -> Snapshot {
        Snapshot {
            serial: 0,
            state: RuntimeState::Starting,
            project: project.to_owned(),
            project_dir: std::path::PathBuf::new(),
            problem: None,
            fault: None,
            turn: 0,
            date: String::new(),
            map: None,
            map_summaries: Vec::new(),
            widgets: Vec::new(),
            map_layers: Vec::new(),
            layers: Vec::new(),
            animating: false,
            locations: Arc::default(),
            player: None,
            player_at: None,
            editing: Default::default(),
            play: Default::default(),
            debug: Default::default(),
            mods: Default::default(),
            maps: Default::default(),
            preview: None,
        }
    }
}

/// The Locations list: every map with its object count.
pub fn map_summaries(world: &World) -> Vec<MapSummary> {
    world
        .maps()
        .map(|map| MapSummary {
            id: map.uid,
            name: map.name.clone(),
            size: (map.width(), map.height()),
            objects: map.objects().len(),
            current: world.current_map() == Some(map.uid),
        })
        .collect()
}
