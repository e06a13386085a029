//! What a frontend draws and shows: a [`Snapshot`] of the game, built on the runtime thread
//! and handed to the editor, which never touches the world itself.
//!
//! Building is incremental. The map is cut into chunks of [`crate::game::map::CHUNK_SIZE`] cells (`view/map_view.rs`); each chunk's
//! tiles, objects and shadow are separate `Arc`s that are reused while their content is the
//! same, so a frontend can cache whatever it builds from a chunk (meshes) by `Arc` identity.

use std::sync::Arc;

use crate::game::data::DataRegistry;
use crate::game::display::{DrawList, LayerView, WidgetView};
use crate::game::map::MapId;
use crate::game::moddable::TempValue;
use crate::game::object::{ObjectKind, Uid};
use crate::game::symbol::Symbol;
use crate::game::value::Value;
use crate::game::world::World;

mod location_tree;
mod map_view;

pub use location_tree::{Contents, LocationTree, LocationTreeBuilder, MapNode, ObjectRow};
pub use map_view::{ChunkView, MapView, MapViewBuilder, ObjectView, ShadowCell, TileStyle, tile_style};

// The shapes a frontend shows that the Lua API makes. They are defined in `lua/`, where the
// engine produces them, and reach a frontend only inside snapshots, events and answers; a
// frontend (the editor, its command line and its debug adapter) names them here and never
// reaches into `lua/` itself.

/// Text the engine produced for people (`print`, `Gui.mes`, log lines), streamed as
/// [`crate::host::HostEvent::Output`].
pub use crate::lua::Output;
/// A break as the REPL and a debugger show it: the paused frames and why it stopped.
pub use crate::lua::debugger::BreakCause;
/// The turn profiler's turns, their entries, and the entries of many turns summed.
pub use crate::lua::profile::{ProfileKey, ProfileKind, Spent, TurnProfile, summed};
/// What reloading a file gave ([`crate::host::HostEvent::Reloaded`]).
pub use crate::lua::reload::Reload;
/// The REPL's answers, the paused stack, and source shown around a line.
pub use crate::lua::repl::{Evaluation, PauseFrame, PauseView, SourceExcerpt};
/// A save as the load dialog lists it.
pub use crate::lua::save::SaveListing;
/// The error screen's error (an uncaught error in game logic), and a failure's message and
/// traceback.
pub use crate::lua::{GameError, LuaFailure};
/// A step of long work (opening a project, loading a save) and where a frontend hears it: the
/// status bar's and the terminal's progress bar.
pub use crate::lua::{Progress, ProgressSink};

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

/// One row of the inspector: a field's base, temp and calculated values.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct FieldRow {
    /// The field.
    pub name: String,
    /// Its base value (own or the prototype's).
    pub base: Option<Value>,
    /// True if the base value is the object's own (it differs from the prototype).
    pub own: bool,
    /// Its temp value with provenance, if any.
    pub temp: Option<TempValue>,
    /// What `calc` gives.
    pub calc: Option<Value>,
}

/// An object as the inspector shows it.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct ObjectDetails {
    /// Its uid.
    pub uid: Uid,
    /// How scripts print it.
    pub title: String,
    /// Its data type.
    pub kind: ObjectKind,
    /// Its prototype id.
    pub id: Symbol,
    /// Where it is, in words.
    pub location: String,
    /// The map it is on directly, if any.
    pub map: Option<MapId>,
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
    /// Its fields by name.
    pub fields: Vec<FieldRow>,
    /// The event handlers it has of its own (its prototype's `events` and those connected
    /// with `connect_self`), as `event · name (priority n) at file:line`.
    pub own_handlers: Vec<String>,
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

/// A prototype in the Data pane.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct PrototypeView {
    /// Its full id.
    pub id: Symbol,
    /// Its fields (defaults applied), by name.
    pub fields: Vec<(Symbol, Value)>,
    /// The fields it sets itself (the others show their type's default).
    pub given: Vec<Symbol>,
    /// Where it was added (`mods/elona/content/charas.lua:16`).
    pub origin: String,
    /// The source of each field that holds a function (a callback, a generator), by name.
    pub functions: Vec<(Symbol, FunctionSource)>,
}

/// Where a function a prototype holds is written, and its text, for the Data pane to show
/// read-only and open in a code editor.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct FunctionSource {
    /// `file:line` of its first line, the file as messages name it.
    pub at: String,
    /// The file on disk, if it is one.
    pub path: Option<std::path::PathBuf>,
    /// Its first line.
    pub line: u32,
    /// Its text, from `function` to `end`.
    pub text: String,
}

/// A field a data type declares, as the Data pane's form shows it.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct FieldView {
    /// Its name.
    pub name: Symbol,
    /// Its type's shape: the widget that edits it.
    pub ty: crate::game::field_type::FieldType,
    /// Its type as OpenNefia names it (`int >= 0`).
    pub type_name: String,
    /// What a prototype that does not set it has.
    pub default: Value,
    /// What it is for.
    pub doc: String,
}

/// A data type in the Data pane.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct DataTypeView {
    /// Its id.
    pub id: Symbol,
    /// The fields it declares, in declaration order.
    pub fields: Vec<FieldView>,
    /// Its entries in registration order.
    pub entries: Vec<PrototypeView>,
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
    pub editing: crate::host::editing::EditingView,
    /// The play subsystem's part: playing, paused, where in the recording.
    pub play: crate::host::play::PlayView,
    /// The debugging subsystem's part: pause, error screen, limits, watches, profiler.
    pub debug: crate::host::debugging::DebugView,
    /// The mods subsystem's part: loaded mods, the Mods pane's rows, assets, prototypes.
    pub mods: crate::host::mods::ModsView,
    /// The maps subsystem's part: the project's map files and the current map's problems.
    pub maps: crate::host::maps::MapsView,
    /// The generator workbench's preview, if one shows.
    pub preview: Option<crate::host::workbench::PreviewView>,
}

/// The turn profiler as the Profiler pane shows it.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, Default, PartialEq)]
pub struct ProfileView {
    /// True while profiling.
    pub on: bool,
    /// The turns kept, oldest first.
    pub turns: Arc<Vec<Arc<TurnProfile>>>,
}

/// A watchpoint as the Watches pane and the inspector show it.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct WatchView {
    /// Its number.
    pub id: crate::game::world::WatchId,
    /// The object watched.
    pub uid: Uid,
    /// The object's prototype id, or "(gone)" once it no longer exists.
    pub object: String,
    /// The field.
    pub field: String,
    /// When it stops, in words: "changes", "becomes 3", "changes and its condition holds".
    pub when: String,
    /// On or off.
    pub enabled: bool,
    /// How many times it fired.
    pub hits: u32,
}

/// The world's watches as the editor shows them.
pub fn watch_views(world: &World) -> Vec<WatchView> {
    use crate::game::world::WatchWhen;
    world
        .watches()
        .list()
        .iter()
        .map(|watch| WatchView {
            id: watch.id,
            uid: watch.uid,
            object: world.object(watch.uid).map_or_else(|_| "(gone)".into(), |o| o.id.to_string()),
            field: watch.field.to_string(),
            when: match (&watch.when, watch.has_condition) {
                (WatchWhen::Changes, false) => "changes".into(),
                (WatchWhen::Changes, true) => "changes and its condition holds".into(),
                (WatchWhen::Becomes(value), _) => format!("becomes {value}"),
            },
            enabled: watch.enabled,
            hits: watch.hits,
        })
        .collect()
}

/// The limits of Lua code as the REPL shows them.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, Default, PartialEq)]
pub struct LimitsView {
    /// The time limit of one evaluation.
    pub time: Option<std::time::Duration>,
    /// The Lua heap limit, in bytes.
    pub memory: Option<usize>,
    /// The Lua heap in use, in bytes.
    pub used: usize,
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

/// The inspector's view of object `uid`: every field of its prototype, its own base values
/// and its temp values, sorted by name.
pub fn object_details(world: &World, uid: Uid) -> Option<ObjectDetails> {
    let object = world.object(uid).ok()?;
    let proto = &world.data.proto(object.proto).fields;
    let fields = world
        .field_names(uid)
        .ok()?
        .into_iter()
        .map(|name| FieldRow {
            name: name.as_str().to_owned(),
            base: object.fields.base(name, proto).cloned(),
            own: object.fields.base.get(name).is_some(),
            temp: object.fields.temp.get(name).cloned(),
            calc: object.fields.calc(name, proto).cloned(),
        })
        .collect();
    let location = match object.location() {
        Some(crate::Location::Map(map)) => {
            let name = world.map(map).map(|m| m.name.clone()).unwrap_or_default();
            format!("map {map} '{name}'")
        }
        Some(crate::Location::Inventory(owner)) => format!("inventory of {}", world.describe(owner)),
        Some(crate::Location::Equipment(owner, slot)) => format!("slot '{slot}' of {}", world.describe(owner)),
        None => "nowhere (ownerless)".to_owned(),
    };
    Some(ObjectDetails {
        uid,
        title: world.describe(uid),
        kind: object.kind,
        id: object.id,
        location,
        map: world.map_of(uid),
        x: object.x,
        y: object.y,
        fields,
        own_handlers: Vec::new(),
    })
}

/// The Data pane: every data type, its declared fields and its entries.
pub fn data_view(data: &DataRegistry) -> Vec<DataTypeView> {
    data.types()
        .iter()
        .map(|data_type| DataTypeView {
            id: data_type.id,
            fields: data_type
                .fields
                .iter()
                .map(|field| FieldView {
                    name: field.name,
                    ty: field.ty.clone(),
                    type_name: field.type_name.clone(),
                    default: field.default.clone(),
                    doc: field.doc.clone(),
                })
                .collect(),
            entries: data
                .entries(data_type.id.as_str())
                .map(|proto| PrototypeView {
                    id: proto.id,
                    fields: proto.fields.sorted_by_name().into_iter().map(|(k, v)| (k, v.clone())).collect(),
                    given: proto.given.sorted_by_name().into_iter().map(|(k, _)| k).collect(),
                    origin: proto.origin.to_string(),
                    functions: Vec::new(),
                })
                .collect(),
        })
        .collect()
}
