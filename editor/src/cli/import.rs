//! `nefia import FILE`: a Tiled or LDtk map brought into a project's `maps/`.

use std::path::PathBuf;
use std::process::ExitCode;

use nefia_host::maps::import::{ImportFailure, ImportOptions};
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
    /// Keep the art: every tile the mapping leaves out (or maps to "") becomes a new tile of
    /// this mod drawn as its picture in the tileset (the mod made and enabled if missing, the
    /// tileset copied into its assets), and every tile layer stays a layer of the map.
    #[arg(long, value_name = "MOD")]
    new_tiles: Option<String>,
}

/// Prints the files written and what to know about them; exit 1 if nothing was imported (a
/// template written, something unmapped or wrong), 2 if the project does not open.
pub fn run(args: Args) -> Exit {
    let project = project_or_default(args.project)?;
    let game = TerminalGame::open(&project).map_err(|error| {
        eprintln!("nefia import: {error}");
        ExitCode::from(2)
    })?;
    let options = ImportOptions { mapping: args.mapping.clone(), new_tiles: args.new_tiles.clone() };
    match game.import_map(&args.file, &options) {
        Ok(report) => {
            for note in &report.notes {
                println!("note: {note}");
            }
            for path in report.also_written.iter().chain(&report.written) {
                println!("wrote {}", path.display());
            }
            Ok(ExitCode::SUCCESS)
        }
        Err(failure @ ImportFailure::TemplateWritten(_)) => {
            eprintln!("nefia import: {failure}");
            match crate::tile_pictures::write_for(&args.file, args.mapping.as_deref()) {
                Ok(Some(sheet)) => eprintln!("each tile's picture, numbered as in the mapping: {}", sheet.display()),
                Ok(None) => {}
                Err(error) => eprintln!("nefia import: the tiles' pictures were not drawn: {error}"),
            }
            Ok(ExitCode::FAILURE)
        }
        Err(failure) => {
            eprintln!("nefia import: {failure}; nothing was written");
            Ok(ExitCode::FAILURE)
        }
    }
}
