//! Importing Tiled and LDtk maps into a project (`nefia import`, File → Import map…): the
//! source read ([`nefia_game::exchange`]), its mapping read or its template written, every
//! map made and checked against the loaded mods (tile and prototype ids, each property
//! against its field's declared type), and only then each written to `maps/` — all of them
//! or none.

use std::path::{Path, PathBuf};

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
/// its default place). With no mapping file there, its template is written and nothing else.
pub fn import_map(runtime: &Runtime, source: &Path, mapping: Option<&Path>) -> Result<ImportReport, ImportFailure> {
    let project =
        runtime.project().ok_or_else(|| ImportFailure::Refused("no project is open to import into".into()))?;
    let sources = exchange::read(source)?;
    let mapping_path = mapping.map_or_else(|| default_mapping(source), Path::to_owned);
    let mapping: Mapping = match mapping_path.exists() {
        true => nefia_game::files::read_ron(&mapping_path).map_err(|e| ImportFailure::Mapping(e.to_string()))?,
        // A map whose tiles and objects name themselves (one `nefia export` wrote) needs none.
        false if sources.iter().all(|s| s.maps_itself()) => Mapping::default(),
        false => {
            let template = exchange::template(&sources, &Mapping::default());
            write_atomic(&mapping_path, template.as_bytes()).map_err(|e| ImportFailure::Mapping(e.to_string()))?;
            return Err(ImportFailure::TemplateWritten(mapping_path));
        }
    };
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
    for source in &sources {
        let mut record = exchange::convert(source, &mapping, &catalog)?;
        record.name = file_name(&record.name);
        nefia_game::validate::check_map_record(&world, &record, RecordKind::MapFile)
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
    drop(world);
    std::fs::create_dir_all(&maps_dir).map_err(|e| ImportFailure::Refused(format!("{}: {e}", maps_dir.display())))?;
    let mut written = Vec::new();
    for (path, record) in made {
        let text = map_text(&path, &record).map_err(|e| ImportFailure::Refused(e.to_string()))?;
        write_atomic(&path, text.as_bytes()).map_err(|e| ImportFailure::Refused(e.to_string()))?;
        written.push(path);
    }
    Ok(ImportReport { written, notes })
}

/// A map name as a file stem: characters a file name cannot hold become `_`.
fn file_name(name: &str) -> String {
    let cleaned: String =
        name.chars().map(|c| if c.is_alphanumeric() || matches!(c, '-' | '_' | '.') { c } else { '_' }).collect();
    match cleaned.trim_matches('.') {
        "" => "imported".to_owned(),
        stem => stem.to_owned(),
    }
}
