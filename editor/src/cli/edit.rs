//! `nefia edit [DIR]`, and `nefia` alone: the editor window.

use std::path::PathBuf;

use super::{Exit, project_or_default, window_closed};

/// Open the editor on a project.
#[derive(clap::Args, Default)]
pub struct Args {
    /// The project folder (default: the one here, or the repository's projects/demo).
    project: Option<PathBuf>,
}

/// Opens the editor on the project until its window closes.
pub fn run(args: Args) -> Exit {
    Ok(window_closed(crate::app::run(project_or_default(args.project)?)))
}
