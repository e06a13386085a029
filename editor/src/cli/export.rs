//! `nefia export MAP.ron --tmj OUT.tmj`: a map file written as a Tiled map.

use std::path::PathBuf;
use std::process::ExitCode;

use nefia_host::terminal::TerminalGame;

use super::{Exit, project_or_default};

/// Write a map file as a Tiled map (.tmj) that Tiled opens, its art layers as tile layers,
/// with a tileset image beside it (OUT.png): each tile's image, or its glyph and colours if it
/// has none. Each tile and object names its Nefia prototype (objects their keys too), so
/// `nefia import` reads it back with no mapping, the same map.
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
    let game = TerminalGame::open(&project_or_default(args.project)?).map_err(|e| failed(&e))?;
    let image = args.tmj.with_extension("png");
    let image_name = image.file_name().and_then(|n| n.to_str()).unwrap_or("tileset.png").to_owned();
    let exported = game.export_map(&args.map, &image_name).map_err(|e| failed(&e))?;
    let drawn = crate::render::tileset_image::write(&image, &exported.styles, exported.tile_px, &exported.asset_dirs)
        .map_err(|e| failed(&e))?;
    nefia_game::files::write_atomic(&args.tmj, exported.text.as_bytes()).map_err(|e| failed(&e))?;
    for note in exported.notes.iter().chain(&drawn) {
        println!("note: {note}");
    }
    println!("wrote {} and {}", args.tmj.display(), image.display());
    Ok(ExitCode::SUCCESS)
}
