//! `nefia import FILE`: a Tiled or LDtk map brought into a project's `maps/`.

use std::path::PathBuf;
use std::process::ExitCode;

use nefia_host::maps::import::ImportFailure;
use nefia_host::terminal::TerminalGame;

use super::{Exit, project_or_default};

/// Import a Tiled map (.tmx, .tmj) or every level of an LDtk project (.ldtk) into the
/// project's maps/, through a mapping from the file's tiles and object types to prototype ids.
/// With no mapping yet, its template is written (every tile and object name the file uses,
/// counted) for you to fill; then import again.
#[derive(clap::Args)]
pub struct Args {
    /// The map to import.
    file: PathBuf,
    /// The mapping (default: FILE's name with .mapping.ron, beside it).
    #[arg(long, value_name = "MAPPING.ron")]
    mapping: Option<PathBuf>,
    /// The project to import into (default: the one here, or the repository's projects/demo).
    #[arg(long)]
    project: Option<PathBuf>,
}

/// Prints the files written and what to know about them; exit 1 if nothing was imported (a
/// template written, something unmapped or wrong), 2 if the project does not open.
pub fn run(args: Args) -> Exit {
    let project = project_or_default(args.project)?;
    let game = TerminalGame::open(&project).map_err(|error| {
        eprintln!("nefia import: {error}");
        ExitCode::from(2)
    })?;
    match game.import_map(&args.file, args.mapping.as_deref()) {
        Ok(report) => {
            for note in &report.notes {
                println!("note: {note}");
            }
            for path in &report.written {
                println!("wrote {}", path.display());
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(failure @ ImportFailure::TemplateWritten(_)) => {
            eprintln!("nefia import: {failure}");
            Ok(ExitCode::FAILURE)
        }
        Err(failure) => {
            eprintln!("nefia import: {failure}; nothing was written");
            Ok(ExitCode::FAILURE)
        }
    }
}
