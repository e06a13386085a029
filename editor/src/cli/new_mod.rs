//! `nefia new-mod ID`: a mod skeleton written and enabled.

use std::path::PathBuf;
use std::process::ExitCode;

use super::{Exit, project_or_default};

/// Write a new mod (mod.ron, and an init.lua with a prototype and a handler) into the
/// project's mods/ folder and enable it.
#[derive(clap::Args)]
pub struct Args {
    /// The mod's id: lower-case letters, digits and '_'.
    id: String,
    /// The project to add it to (default: the one here, or the repository's
    /// projects/demo).
    #[arg(long)]
    project: Option<PathBuf>,
}

/// Writes a working mod skeleton into the project's `mods/` folder and enables it in
/// `project.ron`.
pub fn run(args: Args) -> Exit {
    let id = &args.id;
    let made = nefia_game::project::Project::open(&project_or_default(args.project)?)
        .and_then(|mut project| nefia_game::new_mod::create_mod(&mut project, id));
    Ok(match made {
        Ok(dir) => {
            println!("wrote {} (mod.ron, init.lua) and enabled '{id}' in project.ron", dir.display());
            println!("edit init.lua; the editor reloads it when you save");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("nefia new-mod: {error}");
            ExitCode::FAILURE
        }
    })
}
