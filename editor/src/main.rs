//! `nefia`: the editor, the player window and the headless tools in one binary. The command
//! line and its subcommands are [`nefia_editor::cli`].

use std::process::ExitCode;

use clap::Parser;
use nefia_editor::cli::Cli;

fn main() -> ExitCode {
    Cli::parse().run()
}
