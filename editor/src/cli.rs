//! `nefia`'s command line: the editor, the player window and the headless tools in one
//! binary (`main.rs` only parses it). This file is the clap [`Cli`], its dispatch and what the
//! commands share (`project_or_default`, `parse_seconds`, the terminal progress bar); each
//! subcommand is a file of its own with its `#[derive(clap::Args)]` struct, whose doc comment
//! is the subcommand's help, and its `run`. The nineteen subcommands:
//!
//! - `nefia` opens the editor on the project in the current folder, else `projects/demo`
//!   here or in the repository the executable was built in; `nefia edit DIR` on another,
//!   `--recording FILE` opening a recording in the timeline (`edit.rs`).
//! - `nefia play [DIR]` opens the player window: the game alone, with a title menu; with
//!   `--listen [ADDR:]PORT` it serves the remote protocol too, `--headless` without a window
//!   (`play.rs`).
//! - `nefia package [--project DIR] --out DIR [--zip]` writes a folder a player runs: this
//!   program as the game's, its mods, maps and images, a README and the licences; then runs
//!   the package's self-test (`package.rs`, `crate::package`).
//! - `nefia run FILE.lua [--project DIR] [--break] [--time-limit SECS] [--memory-limit MIB]`
//!   runs a script in a fresh game, headless (`run.rs`).
//! - `nefia repl [--project DIR]` is a terminal REPL on the same runtime (`repl.rs`).
//! - `nefia check [--project DIR]` loads every mod, map and save and reports problems
//!   (`check.rs`).
//! - `nefia new-mod ID [--project DIR]` writes a mod skeleton and enables it (`new_mod.rs`).
//! - `nefia replay FILE [--project DIR] [--check] [--to-turn N] [--save-to FILE]` replays a
//!   recorded play session headless (`replay.rs`).
//! - `nefia test [--project DIR]` replays the project's regression recordings (`test.rs`).
//! - `nefia fuzz [--seeds A..B] [--turns N] [--jobs N] [--shard K/N] [--json]` plays the
//!   game with random inputs and shrinks each failure to a regression recording (`fuzz.rs`).
//! - `nefia gen ID [--seed S] [--out FILE]`, or `--scan A..B`, runs a map generator
//!   (`gen.rs`).
//! - `nefia diff A B [--png OUT.png]` prints what changed between two map files (`diff.rs`).
//! - `nefia import FILE [--mapping MAPPING.ron] [--project DIR]` brings a Tiled or LDtk map
//!   into the project's `maps/` through a mapping, writing the mapping's template the first
//!   time (`import.rs`); `nefia export MAP.ron --tmj OUT.tmj [--project DIR]` writes a map file
//!   as a Tiled map with a tileset image drawn from the tiles' glyphs (`export.rs`).
//! - `nefia render MAP.ron --png OUT.png [--project DIR] [--time-ms T]` draws a map file with
//!   its sprites, every layer in sight, the animations at time T (`render.rs`).
//! - `nefia api-defs [--project DIR] [--out DIR]` writes the Lua API's type definitions for
//!   code editors (`api_defs.rs`, `nefia_host::type_defs`).
//! - `nefia dap [--port N]` is the debug adapter for code editors (`dap.rs`, `crate::dap`).
//! - `nefia merge BASE OURS THEIRS -o OUT` merges two versions of a map file, as git's merge
//!   driver (`merge.rs`); `nefia git-setup [--project DIR]` makes git use it
//!   (`git_setup.rs`).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::default_project;

mod api_defs;
mod check;
mod dap;
mod diff;
mod edit;
mod export;
mod fuzz;
mod r#gen;
mod git_setup;
mod import;
mod merge;
mod new_mod;
mod package;
mod play;
mod render;
mod repl;
mod replay;
mod run;
mod test;

/// The `nefia` command line: parse it with [`Parser::parse`], then [`Cli::run`] it.
#[derive(Parser)]
#[command(name = "nefia", version, about = "An editor-centric 2D roguelike engine in the spirit of OpenNefia")]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

// The subcommands; each one's help is its `Args` struct's doc comment.
#[derive(Subcommand)]
enum Command {
    Edit(edit::Args),
    Play(play::Args),
    Package(package::Args),
    Run(run::Args),
    Repl(repl::Args),
    NewMod(new_mod::Args),
    Replay(replay::Args),
    Gen(r#gen::Args),
    Diff(diff::Args),
    Merge(merge::Args),
    Import(import::Args),
    Export(export::Args),
    Render(render::Args),
    GitSetup(git_setup::Args),
    Test(test::Args),
    Fuzz(fuzz::Args),
    Check(check::Args),
    Dap(dap::Args),
    ApiDefs(api_defs::Args),
}

/// How a command ends: `Ok` with its exit code, or `Err` with the code of a command that could
/// not begin (its reason is on stderr already), which `?` passes on.
type Exit = Result<ExitCode, ExitCode>;

impl Cli {
    /// Runs the command asked for (the editor when none is); returns the process's exit code.
    pub fn run(self) -> ExitCode {
        let exit = match self.command {
            None => edit::run(edit::Args::default()),
            Some(Command::Edit(args)) => edit::run(args),
            Some(Command::Play(args)) => play::run(args),
            Some(Command::Package(args)) => package::run(args),
            Some(Command::Run(args)) => run::run(args),
            Some(Command::Repl(args)) => repl::run(args),
            Some(Command::NewMod(args)) => new_mod::run(args),
            Some(Command::Replay(args)) => replay::run(args),
            Some(Command::Gen(args)) => r#gen::run(args),
            Some(Command::Diff(args)) => diff::run(args),
            Some(Command::Merge(args)) => merge::run(args),
            Some(Command::Import(args)) => import::run(args),
            Some(Command::Export(args)) => export::run(args),
            Some(Command::Render(args)) => render::run(args),
            Some(Command::GitSetup(args)) => git_setup::run(args),
            Some(Command::Test(args)) => test::run(args),
            Some(Command::Fuzz(args)) => fuzz::run(args),
            Some(Command::Check(args)) => check::run(args),
            Some(Command::Dap(args)) => dap::run(args),
            Some(Command::ApiDefs(args)) => api_defs::run(args),
        };
        exit.unwrap_or_else(|code| code)
    }
}

/// The longest `--time-limit`: a day.
const MAX_SECONDS: f64 = 86_400.0;

/// Reads `--time-limit`: a finite number of seconds above 0, at most a day.
// A String error: clap prints it as the option's own, and nothing else reads it.
fn parse_seconds(text: &str) -> Result<std::time::Duration, String> {
    let seconds: f64 =
        text.trim().parse().map_err(|_| format!("'{text}' is not a number of seconds, such as 2 or 0.5"))?;
    if !seconds.is_finite() || seconds <= 0.0 || seconds > MAX_SECONDS {
        return Err(format!("{text} seconds is not a time limit: give a number above 0 and at most {MAX_SECONDS}"));
    }
    Ok(std::time::Duration::from_secs_f64(seconds))
}

/// The project named, or the one [`default_project::find_here`] finds.
fn project_or_default(project: Option<PathBuf>) -> Result<PathBuf, ExitCode> {
    match project {
        Some(project) => Ok(project),
        None => default_project::find_here().map_err(|not_found| {
            eprintln!("nefia: {not_found}");
            ExitCode::from(2)
        }),
    }
}

/// Reports how a window ended. A missing or broken project is shown in the window itself.
pub(crate) fn window_closed(result: eframe::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("nefia: the window could not open: {error}");
            ExitCode::FAILURE
        }
    }
}

/// A progress bar on the terminal (drawn on stderr, and only if it is a terminal) that the
/// runtime's progress steps move; call `finish_and_clear` when the long work is done.
fn terminal_progress() -> (indicatif::ProgressBar, nefia_protocol::output::ProgressSink) {
    let bar = indicatif::ProgressBar::new(0);
    let style = indicatif::ProgressStyle::with_template("{spinner} [{bar:24}] {pos}/{len} {msg}")
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
        .progress_chars("=> ");
    bar.set_style(style);
    let told = bar.clone();
    let sink: nefia_protocol::output::ProgressSink = std::rc::Rc::new(move |step| {
        if told.is_finished() {
            return;
        }
        told.set_length(step.total as u64);
        told.set_position(step.done as u64);
        told.set_message(step.what.clone());
    });
    (bar, sink)
}
