//! `nefia git-setup`: git told to merge a project's map files with `nefia merge`.

use std::path::PathBuf;
use std::process::ExitCode;

use nefia_game::files::write_atomic;

use super::{Exit, project_or_default};

/// Make git merge the project's map files with `nefia merge`: writes the
/// .gitattributes line and prints the git config line that enables the driver.
#[derive(clap::Args)]
pub struct Args {
    /// The project (default: the one here, or the repository's projects/demo).
    #[arg(long)]
    project: Option<PathBuf>,
}

/// The line `.gitattributes` needs for a project's map files to merge with the driver.
const ATTRIBUTES_LINE: &str = "maps/*.ron merge=nefia";

/// Adds [`ATTRIBUTES_LINE`] to the project's `.gitattributes` (once) and prints the
/// `git config` line that enables the driver.
pub fn run(args: Args) -> Exit {
    let attributes = project_or_default(args.project)?.join(".gitattributes");
    let existing = match std::fs::read_to_string(&attributes) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(error) => {
            eprintln!("nefia git-setup: {}: {error}", attributes.display());
            return Ok(ExitCode::from(2));
        }
    };
    if !existing.lines().any(|line| line.trim() == ATTRIBUTES_LINE) {
        let mut text = existing;
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(ATTRIBUTES_LINE);
        text.push('\n');
        if let Err(error) = write_atomic(&attributes, text.as_bytes()) {
            eprintln!("nefia git-setup: {error}");
            return Ok(ExitCode::from(2));
        }
        println!("wrote '{ATTRIBUTES_LINE}' to {}", attributes.display());
    } else {
        println!("{} already has '{ATTRIBUTES_LINE}'", attributes.display());
    }
    println!("enable the driver in this clone with:");
    println!("  {}", config_line(&nefia_command()));
    Ok(ExitCode::SUCCESS)
}

/// The path of this `nefia`, quoted for a shell if it needs it.
fn nefia_command() -> String {
    let path = std::env::current_exe().map_or_else(|_| "nefia".to_owned(), |p| p.display().to_string());
    if path.contains([' ', '\'', '"']) { format!("\"{}\"", path.replace('"', "\\\"")) } else { path }
}

/// The `git config` command that makes `nefia` (the command that runs it) the `nefia` merge
/// driver.
fn config_line(nefia: &str) -> String {
    format!("git config merge.nefia.driver '{nefia} merge %O %A %B -o %A'")
}
