//! `nefia repl`: a Lua REPL in the terminal.

use std::path::PathBuf;
use std::process::ExitCode;

use nefia_host::terminal::TerminalOptions;

use super::run::open;
use super::{Exit, project_or_default};

/// A Lua REPL in the terminal on a fresh game.
#[derive(clap::Args)]
pub struct Args {
    /// The project whose mods to load (default: the one here, or the repository's
    /// projects/demo).
    #[arg(long)]
    project: Option<PathBuf>,
}

/// Reads, evaluates and prints until the end of input.
pub fn run(args: Args) -> Exit {
    let runtime =
        open(&project_or_default(args.project)?, TerminalOptions { pause: true, ..TerminalOptions::default() })?;
    runtime.read_eval_print();
    Ok(ExitCode::SUCCESS)
}
