//! `nefia play [DIR]`: the player window.

use std::path::PathBuf;

use super::{Exit, project_or_default, window_closed};

/// Open the player window on a project: the game alone, with a title menu.
#[derive(clap::Args)]
pub struct Args {
    /// The project folder (default: the one here, or the repository's projects/demo).
    project: Option<PathBuf>,
}

/// Opens the player window on the project until it closes.
pub fn run(args: Args) -> Exit {
    Ok(window_closed(crate::player::run(project_or_default(args.project)?)))
}
