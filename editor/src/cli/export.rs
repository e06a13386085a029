//! `nefia export MAP.ron --tmj OUT.tmj`: a map file written as a Tiled map.

use std::path::PathBuf;
use std::process::ExitCode;

use nefia_game::exchange::export::to_tmj;
use nefia_game::save::MapRecord;
use nefia_host::view::Output;
use nefia_lua::Runtime;

use super::{Exit, project_or_default};

/// Write a map file as a Tiled map (.tmj) that Tiled opens, with a tileset image drawn from
/// the tiles' glyphs and colours beside it (OUT.png). Each tile and object names its Nefia
/// prototype, so `nefia import` reads it back with no mapping.
#[derive(clap::Args)]
pub struct Args {
    /// The map file.
    map: PathBuf,
    /// Where to write the Tiled map.
    #[arg(long, value_name = "OUT.tmj")]
    tmj: PathBuf,
    /// The project whose tiles to draw (default: the one here, or the repository's projects/demo).
    #[arg(long)]
    project: Option<PathBuf>,
}

/// Writes the map and its tileset image; exit 1 if the map cannot be read or written.
pub fn run(args: Args) -> Exit {
    let failed = |error: &dyn std::fmt::Display| {
        eprintln!("nefia export: {error}; nothing was written");
        ExitCode::FAILURE
    };
    let record: MapRecord = nefia_game::files::read_ron(&args.map).map_err(|e| failed(&e))?;
    let project = project_or_default(args.project)?;
    let runtime = Runtime::open_project(&project, Box::new(|_: Output| {}))
        .map_err(|error| failed(&format!("cannot open project {}: {error}", project.display())))?;
    let image = args.tmj.with_extension("png");
    let image_name = image.file_name().and_then(|n| n.to_str()).unwrap_or("tileset.png").to_owned();
    let exported = to_tmj(&record, &image_name).map_err(|e| failed(&format!("{}: {e}", args.map.display())))?;
    let styles: Vec<_> = {
        let world = runtime.world();
        exported.tiles.iter().map(|&tile| nefia_host::view::tile_style(&world, tile)).collect()
    };
    let text = serde_json::to_string(&exported.map).map_err(|e| failed(&e))?;
    crate::render::tileset_image::write(&image, &styles).map_err(|e| failed(&e))?;
    nefia_game::files::write_atomic(&args.tmj, text.as_bytes()).map_err(|e| failed(&e))?;
    for note in &exported.notes {
        println!("note: {note}");
    }
    println!("wrote {} and {}", args.tmj.display(), image.display());
    Ok(ExitCode::SUCCESS)
}
