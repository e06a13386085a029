//! `nefia render MAP.ron --png OUT.png`: a map file drawn as a picture.

use std::path::PathBuf;
use std::process::ExitCode;

use nefia_host::terminal::TerminalGame;

use super::{Exit, project_or_default};

/// Draw a map file as a PNG, as the player window draws it with everything in sight: every
/// layer and object, one pixel per sprite pixel (a cell is the map's `cell_px`, else 32
/// pixels), the animations at --time-ms. Tiles and objects without an image are drawn in
/// their glyph's colours. For CI, code review and documentation.
#[derive(clap::Args)]
pub struct Args {
    /// The map file.
    map: PathBuf,
    /// Where to write the picture.
    #[arg(long, value_name = "OUT.png")]
    png: PathBuf,
    /// The project whose tiles and images to draw (default: the one here, or the repository's projects/demo).
    #[arg(long)]
    project: Option<PathBuf>,
    /// The time of the animations, in milliseconds since they started.
    #[arg(long, value_name = "T", default_value_t = 0)]
    time_ms: u64,
}

/// Draws the map and writes the picture; exit 1 if the map cannot be read, drawn or written.
pub fn run(args: Args) -> Exit {
    let failed = |error: &dyn std::fmt::Display| {
        eprintln!("nefia render: {error}; nothing was written");
        ExitCode::FAILURE
    };
    let game = TerminalGame::open(&project_or_default(args.project)?).map_err(|e| failed(&e))?;
    let view = game.map_view(&args.map).map_err(|e| failed(&e))?;
    let drawn = crate::render::map_image::draw(&view, &game.asset_dirs(), args.time_ms).map_err(|e| failed(&e))?;
    for problem in &drawn.problems {
        eprintln!("nefia render: warning: {problem} (drawn in its glyph's colours)");
    }
    crate::render::png_file::save(&drawn.image, &args.png).map_err(|e| failed(&e))?;
    println!("wrote {} ({}×{} pixels)", args.png.display(), drawn.image.width(), drawn.image.height());
    Ok(ExitCode::SUCCESS)
}
