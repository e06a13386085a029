//! `nefia diff A B`: what changed between two map files.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use nefia_game::map_diff::{TileGrid, diff_maps};

use super::Exit;

/// Print what changed between two map files: tiles by region, objects added, removed,
/// moved and changed field by field. Exit 0 if nothing did, 1 if something did.
#[derive(clap::Args)]
pub struct Args {
    /// The map file before.
    a: PathBuf,
    /// The map file after.
    b: PathBuf,
    /// Also draw before, after and the changed cells side by side into this PNG.
    #[arg(long, value_name = "OUT.png")]
    png: Option<PathBuf>,
}

/// Why a map file could not be compared.
#[derive(Debug, thiserror::Error)]
enum MapUnreadable {
    /// The file could not be read or is not a map's RON.
    #[error(transparent)]
    File(#[from] nefia_game::files::FileError),
    /// Its tiles do not make a grid (a size out of bounds, a row of the wrong length).
    #[error("{}: {message}", path.display())]
    Tiles {
        /// The file.
        path: PathBuf,
        /// What is wrong with its tiles.
        message: nefia_game::map_diff::TileGridError,
    },
}

/// Prints what changed from map file `a` to map file `b` (see [`nefia_game::map_diff`]);
/// exit 0 if nothing did, 1 if something did, 2 if a file cannot be read.
pub fn run(args: Args) -> Exit {
    let read = |path: &Path| -> Result<(nefia_game::save::MapRecord, TileGrid), MapUnreadable> {
        let record: nefia_game::save::MapRecord = nefia_game::files::read_ron(path)?;
        let grid = TileGrid::of(&record).map_err(|message| MapUnreadable::Tiles { path: path.to_owned(), message })?;
        Ok((record, grid))
    };
    let (before, after) = match (read(&args.a), read(&args.b)) {
        (Ok(before), Ok(after)) => (before, after),
        (Err(error), _) | (_, Err(error)) => {
            eprintln!("nefia diff: {error}");
            return Ok(ExitCode::from(2));
        }
    };
    let found = diff_maps(&before.0, &before.1, &after.0, &after.1);
    print!("{found}");
    if let Some(png) = &args.png {
        let changed = found.changed_cells(&before.1, &after.1);
        let pictured = crate::render::diff_image::write(png, (&before.1, &before.0), (&after.1, &after.0), &changed);
        if let Err(error) = pictured {
            eprintln!("nefia diff: {error}");
            return Ok(ExitCode::from(2));
        }
    }
    Ok(if found.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) })
}
