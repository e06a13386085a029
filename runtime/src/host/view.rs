//! What a frontend draws and shows: a [`Snapshot`] of the game, built on the runtime thread
//! and handed to the editor, which never touches the world itself.
//!
//! Building is incremental. The map is cut into chunks of [`CHUNK_SIZE`] cells; each chunk's
//! tiles, objects and shadow are separate `Arc`s that are reused while their content is the
//! same, so a frontend can cache whatever it builds from a chunk (meshes) by `Arc` identity.

use std::sync::Arc;

use crate::data::DataRegistry;
use crate::map::{CHUNK_SIZE, InstancedMap, MapId};
use crate::moddable::TempValue;
use crate::object::{ObjectKind, Uid};
use crate::symbol::Symbol;
use crate::ui::{Color, DrawList, LayerView, WidgetView};
use crate::value::Value;
use crate::world::{World, parse_color};

/// What the runtime is doing, for the status bar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuntimeState {
    /// Loading the project.
    Starting,
    /// Ready; nothing blocks.
    Running,
    /// The game waits for the player's move.
    WaitingForInput,
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
            RuntimeState::WaitingForInput => "waiting for input",
            RuntimeState::InQuery => "in query",
            RuntimeState::Paused => "paused",
            RuntimeState::Error => "stopped on an error",
            RuntimeState::Failed => "error",
        }
    }
}

/// How a tile looks.
#[derive(Clone, Debug, PartialEq)]
pub struct TileStyle {
    /// The tile id.
    pub id: Symbol,
    /// The glyph drawn on it.
    pub glyph: String,
    /// The glyph's colour.
    pub fg: Color,
    /// The cell's colour.
    pub bg: Color,
    /// An image under `assets/` drawn instead, if any.
    pub image: Option<Symbol>,
    /// False if no loaded mod defines the tile.
    pub known: bool,
}

/// An object as the map shows it (from `produce_memory()`; hidden objects are left out).
#[derive(Clone, Debug, PartialEq)]
pub struct ObjectView {
    /// Its uid.
    pub uid: Uid,
    /// Its kind: the draw layer it belongs to.
    pub kind: ObjectKind,
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
    /// Its glyph.
    pub glyph: Symbol,
    /// Its colour.
    pub color: Color,
    /// An image under `assets/` drawn instead, if any.
    pub image: Option<Symbol>,
}

/// What the shadow layer does to a cell.
#[derive(Clone, Debug, PartialEq)]
pub enum ShadowCell {
    /// In sight: drawn as it is.
    Visible,
    /// Out of sight but remembered: drawn dimmed as remembered.
    Remembered {
        /// The remembered tile (an index into [`MapView::tile_styles`]).
        tile: u16,
        /// The remembered objects, bottom first: kind, glyph and colour.
        objects: Vec<(ObjectKind, Symbol, Color)>,
    },
    /// Never seen: black.
    Unknown,
}

/// One chunk of a map view. Cells are row-major over the chunk's part of the map.
#[derive(Clone, Debug)]
pub struct ChunkView {
    /// Chunk column.
    pub cx: i32,
    /// Chunk row.
    pub cy: i32,
    /// Tile style index per cell.
    pub tiles: Arc<Vec<u16>>,
    /// Visible objects in the chunk, in drawing order (feats, items, characters).
    pub objects: Arc<Vec<ObjectView>>,
    /// The shadow per cell, when the player's sight applies to this map.
    pub shadow: Option<Arc<Vec<ShadowCell>>>,
}

/// The current map, ready to draw.
#[derive(Clone, Debug)]
pub struct MapView {
    /// Its id.
    pub id: MapId,
    /// Its name.
    pub name: String,
    /// Width in cells.
    pub width: i32,
    /// Height in cells.
    pub height: i32,
    /// Chunks across and down.
    pub chunk_grid: (i32, i32),
    /// Styles of the tiles used (the map's palette, then tiles only remembered).
    pub tile_styles: Arc<Vec<TileStyle>>,
    /// The chunks, row-major.
    pub chunks: Vec<ChunkView>,
    /// Number of objects on the map (hidden ones included).
    pub object_count: usize,
    /// Objects of the map file with unknown ids: where, and what is unknown.
    pub unresolved: Vec<(i32, i32, String)>,
}

impl MapView {
    /// The chunk holding cell (x, y).
    pub fn chunk_at(&self, x: i32, y: i32) -> Option<&ChunkView> {
        if x < 0 || y < 0 || x >= self.width || y >= self.height {
            return None;
        }
        self.chunks.get(((y / CHUNK_SIZE) * self.chunk_grid.0 + x / CHUNK_SIZE) as usize)
    }

    /// The size in cells of chunk (cx, cy) (edge chunks can be smaller).
    pub fn chunk_size(&self, cx: i32, cy: i32) -> (i32, i32) {
        ((self.width - cx * CHUNK_SIZE).min(CHUNK_SIZE), (self.height - cy * CHUNK_SIZE).min(CHUNK_SIZE))
    }

    /// The tile style at (x, y).
    pub fn tile_at(&self, x: i32, y: i32) -> Option<&TileStyle> {
        let chunk = self.chunk_at(x, y)?;
        let (w, _) = self.chunk_size(chunk.cx, chunk.cy);
        let index = chunk.tiles[((y % CHUNK_SIZE) * w + x % CHUNK_SIZE) as usize];
        self.tile_styles.get(index as usize)
    }

    /// The visible objects at (x, y), bottom first.
    pub fn objects_at(&self, x: i32, y: i32) -> impl Iterator<Item = &ObjectView> {
        self.chunk_at(x, y).into_iter().flat_map(move |c| c.objects.iter().filter(move |o| o.x == x && o.y == y))
    }
}

/// One row of the inspector: a field's base, temp and calculated values.
#[derive(Clone, Debug, PartialEq)]
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
#[derive(Clone, Debug, PartialEq)]
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
}

/// A map in the Locations list.
#[derive(Clone, Debug, PartialEq)]
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

/// A prototype in the Prototypes pane.
#[derive(Clone, Debug, PartialEq)]
pub struct PrototypeView {
    /// Its full id.
    pub id: Symbol,
    /// Its fields (defaults applied), by name.
    pub fields: Vec<(Symbol, Value)>,
    /// Where it was added.
    pub origin: String,
}

/// A data type in the Prototypes pane.
#[derive(Clone, Debug, PartialEq)]
pub struct DataTypeView {
    /// Its id.
    pub id: Symbol,
    /// Its entries in registration order.
    pub entries: Vec<PrototypeView>,
}

/// An object in the Locations tree.
#[derive(Clone, Debug, PartialEq)]
pub struct ObjectRow {
    /// Its uid.
    pub uid: Uid,
    /// Its kind.
    pub kind: ObjectKind,
    /// Its prototype id.
    pub id: Symbol,
    /// Its `name` field, if it has one.
    pub name: Option<Arc<str>>,
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
    /// True if it holds items (a character or a container).
    pub is_location: bool,
    /// What it holds and wears, if anything.
    pub contents: Option<Box<Contents>>,
}

/// What a character or container holds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Contents {
    /// Items in its inventory, in order.
    pub inventory: Vec<ObjectRow>,
    /// Worn items by slot.
    pub equipment: Vec<(Symbol, ObjectRow)>,
}

/// A map in the Locations tree.
#[derive(Clone, Debug, PartialEq)]
pub struct MapNode {
    /// Its id.
    pub id: MapId,
    /// Its name.
    pub name: String,
    /// Its size.
    pub size: (i32, i32),
    /// True for the current map.
    pub current: bool,
    /// Its objects: feats, then items, then characters, each in insertion order.
    pub objects: Arc<Vec<ObjectRow>>,
}

/// The Locations tree: the world's maps with everything on them, and the ownerless objects
/// scripts still hold.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LocationTree {
    /// Every map.
    pub maps: Vec<MapNode>,
    /// Ownerless objects kept alive by a script (or being the player).
    pub ownerless: Vec<ObjectRow>,
}

/// Builds the Locations tree, reusing a map's rows while its objects have not changed.
#[derive(Default)]
pub struct LocationTreeBuilder {
    maps: Vec<(MapId, u64, Arc<Vec<ObjectRow>>)>,
}

impl LocationTreeBuilder {
    /// The tree of `world`; `held_by_script(uid)` tells which ownerless objects scripts hold.
    pub fn build(&mut self, world: &World, held_by_script: impl Fn(Uid) -> bool) -> LocationTree {
        let mut kept = Vec::new();
        let maps = world
            .maps()
            .map(|map| {
                let revision = map.objects_revision();
                let objects = match self.maps.iter().find(|(id, r, _)| *id == map.uid && *r == revision) {
                    Some((_, _, rows)) => rows.clone(),
                    None => {
                        let mut rows: Vec<ObjectRow> =
                            map.objects().iter().filter_map(|uid| object_row(world, uid)).collect();
                        rows.sort_by_key(|row| ObjectKind::ALL.iter().position(|&k| k == row.kind));
                        Arc::new(rows)
                    }
                };
                kept.push((map.uid, revision, objects.clone()));
                MapNode {
                    id: map.uid,
                    name: map.name.clone(),
                    size: (map.width(), map.height()),
                    current: world.current_map() == Some(map.uid),
                    objects,
                }
            })
            .collect();
        self.maps = kept;
        let ownerless = world
            .ownerless()
            .filter(|&uid| held_by_script(uid) || world.player() == Some(uid))
            .filter_map(|uid| object_row(world, uid))
            .collect();
        LocationTree { maps, ownerless }
    }
}

fn object_row(world: &World, uid: Uid) -> Option<ObjectRow> {
    let object = world.object(uid).ok()?;
    let name = match world.base(uid, Symbol::intern("name")) {
        Some(Value::Str(name)) => Some(name.clone()),
        _ => None,
    };
    let inventory: Vec<ObjectRow> =
        object.inventory().map(|items| items.filter_map(|i| object_row(world, i)).collect()).unwrap_or_default();
    let equipment: Vec<(Symbol, ObjectRow)> = object
        .equipment()
        .map(|e| {
            e.sorted_by_name().into_iter().filter_map(|(slot, &item)| Some((slot, object_row(world, item)?))).collect()
        })
        .unwrap_or_default();
    let contents =
        (!inventory.is_empty() || !equipment.is_empty()).then(|| Box::new(Contents { inventory, equipment }));
    Some(ObjectRow {
        uid,
        kind: object.kind,
        id: object.id,
        name,
        x: object.x,
        y: object.y,
        is_location: object.inventory().is_some(),
        contents,
    })
}

/// Everything a frontend shows, at one moment.
#[derive(Clone, Debug)]
pub struct Snapshot {
    /// Grows with every snapshot.
    pub serial: u64,
    /// What the runtime is doing.
    pub state: RuntimeState,
    /// The project's name.
    pub project: String,
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
    pub maps: Vec<MapSummary>,
    /// The HUD widgets.
    pub widgets: Vec<WidgetView>,
    /// What the mods' map draw layers draw, in cells, by layer id.
    pub map_layers: Vec<(String, DrawList)>,
    /// The UI layer stack, bottom first.
    pub layers: Vec<LayerView>,
    /// True while something animates (the frontend keeps repainting).
    pub animating: bool,
    /// The selected objects.
    pub selection: Vec<Uid>,
    /// Grows each time a script chooses the selection (`Editor.select`).
    pub selections_by_script: u64,
    /// The objects the inspector asked about (`Command::Inspect`).
    pub inspected: Vec<ObjectDetails>,
    /// The Locations tree.
    pub locations: Arc<LocationTree>,
    /// The editor's undo history.
    pub history: crate::history::HistoryView,
    /// The player, if there is one.
    pub player: Option<Uid>,
    /// The player's cell, if the player stands on the current map (the player window's
    /// camera follows it).
    pub player_at: Option<(i32, i32)>,
    /// The data types and prototypes.
    pub data: Arc<Vec<DataTypeView>>,
    /// Where images named by prototypes are looked up, in order.
    pub asset_dirs: Arc<Vec<std::path::PathBuf>>,
    /// The loaded mods' ids, in load order.
    pub mods: Arc<Vec<String>>,
    /// The project's map files: open, current, unsaved, start.
    pub map_files: Vec<crate::map_files::MapFileView>,
    /// The innermost `pause()` in progress: where, and its locals and upvalues.
    pub pause: Option<crate::lua::repl::PauseView>,
    /// The uncaught error the game stopped on (the error screen), if any.
    pub error: Option<crate::lua::GameError>,
    /// A break is asked for at the next turn boundary.
    pub break_requested: bool,
    /// The game is being played (the edit state is set aside).
    pub playing: bool,
    /// The game is paused (while playing).
    pub play_paused: bool,
    /// The limits Lua code runs under, and the Lua heap now.
    pub limits: LimitsView,
}

/// The limits of Lua code as the REPL shows them.
#[derive(Clone, Debug, Default, PartialEq)]
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
            problem: None,
            fault: None,
            turn: 0,
            date: String::new(),
            map: None,
            maps: Vec::new(),
            widgets: Vec::new(),
            map_layers: Vec::new(),
            layers: Vec::new(),
            animating: false,
            selection: Vec::new(),
            selections_by_script: 0,
            inspected: Vec::new(),
            locations: Arc::default(),
            history: Default::default(),
            player: None,
            player_at: None,
            data: Arc::default(),
            asset_dirs: Arc::default(),
            mods: Arc::default(),
            map_files: Vec::new(),
            pause: None,
            error: None,
            break_requested: false,
            playing: false,
            play_paused: false,
            limits: LimitsView::default(),
        }
    }
}

/// Builds map views, reusing what did not change since the previous one.
#[derive(Default)]
pub struct MapViewBuilder {
    previous: Option<Arc<MapView>>,
    tile_revisions: Vec<u64>,
}

impl MapViewBuilder {
    /// The view of the current map of `world` (None without one).
    pub fn build(&mut self, world: &World) -> Option<Arc<MapView>> {
        let map = world.map(world.current_map()?).ok()?;
        let previous =
            self.previous.take().filter(|p| p.id == map.uid && p.width == map.width() && p.height == map.height());
        if previous.is_none() {
            self.tile_revisions.clear();
        }
        let mut styles: Vec<TileStyle> = map.palette().iter().map(|&tile| tile_style(world, tile)).collect();
        let sight = map.sight.origin.is_some();
        let (gx, gy) = map.chunk_grid();
        let mut chunks = Vec::with_capacity((gx * gy) as usize);
        self.tile_revisions.resize((gx * gy) as usize, 0);
        for cy in 0..gy {
            for cx in 0..gx {
                let index = (cy * gx + cx) as usize;
                let old = previous.as_ref().map(|p| &p.chunks[index]);
                let revision = map.chunk_revision(cx, cy);
                let tiles = match old {
                    Some(old) if self.tile_revisions[index] == revision => old.tiles.clone(),
                    _ => Arc::new(chunk_tiles(map, cx, cy)),
                };
                self.tile_revisions[index] = revision;
                let objects = reuse(old.map(|o| &o.objects), chunk_objects(world, map, cx, cy));
                let shadow = sight.then(|| {
                    let cells = chunk_shadow(world, map, cx, cy, &mut styles);
                    reuse(old.and_then(|o| o.shadow.as_ref()), cells)
                });
                chunks.push(ChunkView { cx, cy, tiles, objects, shadow });
            }
        }
        let tile_styles = reuse(previous.as_ref().map(|p| &p.tile_styles), styles);
        let view = Arc::new(MapView {
            id: map.uid,
            name: map.name.clone(),
            width: map.width(),
            height: map.height(),
            chunk_grid: (gx, gy),
            tile_styles,
            chunks,
            object_count: map.objects().len(),
            unresolved: map.unresolved.iter().map(|u| (u.record.x, u.record.y, u.problem.clone())).collect(),
        });
        self.previous = Some(view.clone());
        Some(view)
    }
}

/// The previous `Arc` if its content equals `new`, else a new one.
fn reuse<T: PartialEq>(previous: Option<&Arc<T>>, new: T) -> Arc<T> {
    match previous {
        Some(previous) if **previous == new => previous.clone(),
        _ => Arc::new(new),
    }
}

fn chunk_cells(map: &InstancedMap, cx: i32, cy: i32) -> impl Iterator<Item = (i32, i32)> {
    let (x0, y0) = (cx * CHUNK_SIZE, cy * CHUNK_SIZE);
    let (x1, y1) = ((x0 + CHUNK_SIZE).min(map.width()), (y0 + CHUNK_SIZE).min(map.height()));
    (y0..y1).flat_map(move |y| (x0..x1).map(move |x| (x, y)))
}

fn chunk_tiles(map: &InstancedMap, cx: i32, cy: i32) -> Vec<u16> {
    chunk_cells(map, cx, cy).map(|(x, y)| map.tile_index(x, y)).collect()
}

fn chunk_objects(world: &World, map: &InstancedMap, cx: i32, cy: i32) -> Vec<ObjectView> {
    let mut objects = Vec::new();
    for (x, y) in chunk_cells(map, cx, cy) {
        let start = objects.len();
        for &uid in map.objects_at(x, y) {
            if let Ok(memory) = world.produce_memory(uid)
                && memory.show
            {
                objects.push(ObjectView {
                    uid,
                    kind: memory.kind,
                    x,
                    y,
                    glyph: memory.glyph,
                    color: memory.color,
                    image: memory.image,
                });
            }
        }
        objects[start..].sort_by_key(|o| ObjectKind::ALL.iter().position(|&k| k == o.kind));
    }
    objects
}

fn chunk_shadow(world: &World, map: &InstancedMap, cx: i32, cy: i32, styles: &mut Vec<TileStyle>) -> Vec<ShadowCell> {
    chunk_cells(map, cx, cy)
        .map(|(x, y)| {
            if map.sight.is_visible(x, y) {
                return ShadowCell::Visible;
            }
            let Some(memory) = map.memory.get(x, y) else { return ShadowCell::Unknown };
            let tile = match styles.iter().position(|s| s.id == memory.tile) {
                Some(index) => index,
                None => {
                    styles.push(tile_style(world, memory.tile));
                    styles.len() - 1
                }
            };
            let objects = memory.objects.iter().filter(|m| m.show).map(|m| (m.kind, m.glyph, m.color)).collect();
            ShadowCell::Remembered { tile: tile as u16, objects }
        })
        .collect()
}

/// How tile `id` looks, from its `base.map_tile` prototype.
pub fn tile_style(world: &World, id: Symbol) -> TileStyle {
    let Ok(proto) = world.data.find(Symbol::intern("base.map_tile"), id.as_str()) else {
        return TileStyle {
            id,
            glyph: "?".into(),
            fg: [255, 0, 255, 255],
            bg: [60, 0, 60, 255],
            image: None,
            known: false,
        };
    };
    let fields = &world.data.proto(proto).fields;
    let get = |name: &str| fields.get(Symbol::intern(name));
    TileStyle {
        id,
        glyph: get("glyph").and_then(Value::as_str).unwrap_or(" ").to_owned(),
        fg: get("color").and_then(parse_color).unwrap_or([160, 160, 160, 255]),
        bg: get("background").and_then(parse_color).unwrap_or([0, 0, 0, 255]),
        image: get("image").and_then(Value::as_str).map(Symbol::intern),
        known: true,
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
    let mut names: Vec<Symbol> = proto.iter().map(|(name, _)| name).collect();
    names.extend(object.fields.base.iter().map(|(name, _)| name));
    names.extend(object.fields.temp.iter().map(|(name, _)| name));
    names.sort_by_key(|name| name.as_str());
    names.dedup();
    let fields = names
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
    })
}

/// The Prototypes pane: every data type and its entries.
pub fn data_view(data: &DataRegistry) -> Vec<DataTypeView> {
    data.types()
        .iter()
        .map(|data_type| DataTypeView {
            id: data_type.id,
            entries: data
                .entries(data_type.id.as_str())
                .map(|proto| PrototypeView {
                    id: proto.id,
                    fields: proto.fields.sorted_by_name().into_iter().map(|(k, v)| (k, v.clone())).collect(),
                    origin: proto.origin.to_string(),
                })
                .collect(),
        })
        .collect()
}
