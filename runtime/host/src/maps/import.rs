//! Importing Tiled and LDtk maps into a project (`nefia import`, File → Import map…): the
//! source read ([`nefia_game::exchange`]), its mapping read or its template written, every
//! map made and checked against the loaded mods (tile and prototype ids, each property
//! against its field's declared type), and only then each written to `maps/` — all of them
//! or none.

use std::path::{Path, PathBuf};

use nefia_game::exchange::keep_art::{self, NewTile};
use nefia_game::exchange::{self, Catalog, ImportError, Mapping};
use nefia_game::files::write_atomic;
use nefia_game::map_files::map_text;
use nefia_game::object::ObjectKind;
use nefia_game::save::RecordKind;
use nefia_game::value::Value;
use nefia_lua::Runtime;

/// What an import did.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct ImportReport {
    /// The map files written.
    pub written: Vec<PathBuf>,
    /// The other files written: a new tiles' mod's files and images, `project.ron`.
    #[serde(default)]
    pub also_written: Vec<PathBuf>,
    /// What the user should know (flipped tiles, a non-square grid, neighbours noted).
    pub notes: Vec<String>,
}

/// Why an import wrote no map.
#[derive(Debug, thiserror::Error)]
pub enum ImportFailure {
    /// The source, the mapping or the mods refused it.
    #[error(transparent)]
    Import(#[from] ImportError),
    /// There was no mapping yet: its template was written for the user to fill.
    #[error(
        "no mapping yet: {} lists every tile and object name the file uses with its count; give each a prototype id and import again",
        .0.display()
    )]
    TemplateWritten(PathBuf),
    /// The mapping file is not a mapping.
    #[error("{0}")]
    Mapping(String),
    /// A map file of that name exists already, or the project has no folder.
    #[error("{0}")]
    Refused(String),
}

/// Where the mapping of `source` is kept when none is named: beside it, as
/// `<stem>.mapping.ron`.
pub fn default_mapping(source: &Path) -> PathBuf {
    let stem = source.file_stem().and_then(|s| s.to_str()).unwrap_or("import");
    source.with_file_name(format!("{stem}.mapping.ron"))
}

/// Imports the maps of `source` into the project `runtime` has open through `mapping` (or
/// its default place), each cell taking its topmost layer's tile. With no mapping file
/// there, its template is written and nothing else. See [`import_map_with`].
pub fn import_map(runtime: &Runtime, source: &Path, mapping: Option<&Path>) -> Result<ImportReport, ImportFailure> {
    import_map_with(runtime, source, &ImportOptions { mapping: mapping.map(Path::to_owned), new_tiles: None })
}

/// How an import is made.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ImportOptions {
    /// The mapping; none: `<stem>.mapping.ron` beside the source.
    pub mapping: Option<PathBuf>,
    /// The mod that the tiles the mapping leaves out become new tiles of (made and enabled if
    /// missing); with it every layer stays a layer. None: each cell takes its topmost layer's
    /// tile, and every tile must be mapped.
    pub new_tiles: Option<String>,
}

/// Imports the maps of `source` into the project `runtime` has open (see the module's text
/// and [`ImportOptions`]). With no mapping file, its template is written and nothing else,
/// unless the maps need none: they name their own tiles and objects (a map `nefia export`
/// wrote), or new tiles are made and every object names itself. A map that names its own
/// tiles keeps its layers.
pub fn import_map_with(
    runtime: &Runtime,
    source: &Path,
    options: &ImportOptions,
) -> Result<ImportReport, ImportFailure> {
    let project =
        runtime.project().ok_or_else(|| ImportFailure::Refused("no project is open to import into".into()))?;
    let sources = exchange::read(source)?;
    let mapping_path = options.mapping.clone().unwrap_or_else(|| default_mapping(source));
    let new_tiles = options.new_tiles.as_deref();
    let needs_none = |s: &exchange::SourceMap| {
        s.maps_itself()
            || (new_tiles.is_some()
                && s.objects.iter().all(|o| o.properties.iter().any(|(p, _)| p == exchange::KIND_PROPERTY)))
    };
    let mapping: Mapping = match mapping_path.exists() {
        true => nefia_game::files::read_ron(&mapping_path).map_err(|e| ImportFailure::Mapping(e.to_string()))?,
        false if sources.iter().all(needs_none) => Mapping::default(),
        false => {
            let template = exchange::template(&sources, &Mapping::default());
            write_atomic(&mapping_path, template.as_bytes()).map_err(|e| ImportFailure::Mapping(e.to_string()))?;
            return Err(ImportFailure::TemplateWritten(mapping_path));
        }
    };
    if let Some(id) = new_tiles {
        super::new_tiles::check_mod_id(id).map_err(ImportFailure::Refused)?;
    }
    let lua = runtime.lua();
    let world = runtime.world();
    let tile = |id: &str| world.tile_id(id).is_ok();
    let object = |kind: ObjectKind, id: &str| world.data.find(kind.data_type_symbol(), id).is_ok();
    let field = |kind: ObjectKind, field: &str, value: &Value| {
        nefia_lua::schema::check_value(lua, kind.data_type(), field, value)
    };
    let glyph = |tile| world.tile_glyph(tile);
    let catalog = Catalog { tile: &tile, object: &object, field: &field, glyph: &glyph };
    let maps_dir = project.maps_dir();
    let mut made = Vec::new();
    let mut notes = Vec::new();
    let mut to_make: Vec<NewTile> = Vec::new();
    for source in &sources {
        let mut record = if new_tiles.is_some() || source.maps_itself() {
            let kept = keep_art::convert(source, &mapping, &catalog, new_tiles)?;
            notes.extend(kept.notes.iter().map(|note| format!("{}: {note}", source.name)));
            for tile in kept.new_tiles {
                if !to_make.iter().any(|t| t.short_id == tile.short_id) {
                    to_make.push(tile);
                }
            }
            kept.record
        } else {
            exchange::convert(source, &mapping, &catalog)?
        };
        record.name = file_name(&record.name);
        let made_here: Vec<String> =
            to_make.iter().filter_map(|t| Some(format!("{}.{}", new_tiles?, t.short_id))).collect();
        nefia_game::validate::check_map_record(
            &world,
            &super::new_tiles::as_known(&record, &made_here),
            RecordKind::MapFile,
        )
        .map_err(|e| ImportFailure::Refused(format!("map '{}': {e}", record.name)))?;
        let path = maps_dir.join(format!("{}.ron", record.name));
        if path.exists() {
            return Err(ImportFailure::Refused(format!(
                "{} exists already: rename or delete that map first (nothing was imported)",
                path.display()
            )));
        }
        notes.extend(source.notes.iter().map(|note| format!("{}: {note}", source.name)));
        if !source.neighbours.is_empty() {
            let beside: Vec<String> = source.neighbours.iter().map(|(d, l)| format!("{l} ({d})")).collect();
            notes.push(format!("{}: beside {} (kept in its field `neighbours`)", source.name, beside.join(", ")));
        }
        made.push((path, record));
    }
    // Tiles a mod defines already (an import before this one made them) are not made again.
    let mut also_written = Vec::new();
    if let Some(mod_id) = new_tiles {
        to_make.retain(|t| world.tile_id(&format!("{mod_id}.{}", t.short_id)).is_err());
        let tiles = super::new_tiles::prototypes(lua, &world, &to_make, &mut notes);
        drop(world);
        also_written = super::new_tiles::write(&project, mod_id, &to_make, &tiles).map_err(ImportFailure::Refused)?;
    } else {
        drop(world);
    }
    std::fs::create_dir_all(&maps_dir).map_err(|e| ImportFailure::Refused(format!("{}: {e}", maps_dir.display())))?;
    let mut written = Vec::new();
    for (path, record) in made {
        let text = map_text(&path, &record).map_err(|e| ImportFailure::Refused(e.to_string()))?;
        write_atomic(&path, text.as_bytes()).map_err(|e| ImportFailure::Refused(e.to_string()))?;
        written.push(path);
    }
    Ok(ImportReport { written, also_written, notes })
}

/// A map name as a file stem: characters a file name cannot hold become `_` (the name an
/// imported map's file and the Maps pane give it).
pub fn file_name(name: &str) -> String {
    let cleaned: String =
        name.chars().map(|c| if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') { c } else { '_' }).collect();
    match cleaned.trim_matches('.') {
        "" => "imported".to_owned(),
        stem => stem.to_owned(),
    }
}
