//! `nefia`: the editor, the player window and the headless tools in one binary. The command
//! line and its subcommands are [`nefia_editor::cli`].

use std::process::ExitCode;

use clap::Parser;
use nefia_editor::cli::Cli;

fn main() -> ExitCode {
    // A packaged game: `package.ron` beside the program makes it the game's player program.
    if let Some(package) = nefia_editor::package::Package::beside_program() {
        return nefia_editor::package::run_player(package);
    }
    Cli::parse().run()
}
