//! `nefia`: the editor, the player window and the headless tools in one binary.
//!
//! - `nefia` opens the editor on the project in the current folder, else `projects/demo`
//!   here or in the repository the executable was built in; `nefia edit DIR` on another.
//! - `nefia play [DIR]` opens the player window: the game alone, with a title menu; with
//!   `--listen [ADDR:]PORT` it serves the remote protocol too, `--headless` without a window.
//! - `nefia run FILE.lua [--project DIR] [--break] [--time-limit SECS] [--memory-limit MIB]`
//!   runs a script in a fresh game, headless.
//! - `nefia repl [--project DIR]` is a terminal REPL on the same runtime.
//! - `nefia check [--project DIR]` loads every mod and map and reports problems.
//! - `nefia new-mod ID [--project DIR]` writes a mod skeleton and enables it.
//! - `nefia replay FILE [--project DIR] [--check] [--to-turn N] [--save-to FILE]` replays a
//!   recorded play session headless.
//! - `nefia test [--project DIR]` replays the project's regression recordings.

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use nefia_editor::{default_project, headless};

#[derive(Parser)]
#[command(name = "nefia", version, about = "An editor-centric 2D roguelike engine in the spirit of OpenNefia")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Open the editor on a project.
    Edit {
        /// The project folder (default: the one here, or the repository's projects/demo).
        project: Option<PathBuf>,
    },
    /// Open the player window on a project: the game alone, with a title menu.
    Play {
        /// The project folder (default: the one here, or the repository's projects/demo).
        project: Option<PathBuf>,
        /// Serve the remote protocol (PROTOCOL.md) on [ADDR:]PORT (a bare port is on
        /// 127.0.0.1; 0 picks a free one); the address and token are printed at start.
        #[arg(long, value_name = "[ADDR:]PORT")]
        listen: Option<String>,
        /// With --listen: no window; a new game is played from the start map.
        #[arg(long, requires = "listen")]
        headless: bool,
    },
    /// Run a Lua script in a fresh game (the project's mods and start map), without a window.
    Run {
        /// The script.
        file: PathBuf,
        /// The project whose mods to load (default: the one here, or the repository's
        /// projects/demo).
        #[arg(long)]
        project: Option<PathBuf>,
        /// Make `pause()` open a REPL on the terminal (otherwise it does nothing).
        #[arg(long = "break")]
        pause: bool,
        /// Interrupt the script (and a mod's init.lua) after this many seconds (default: no
        /// limit).
        #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
        time_limit: Option<std::time::Duration>,
        /// Interrupt the script when the Lua heap grows past this many MiB (default: no limit).
        #[arg(long, value_name = "MIB", value_parser = parse_mebibytes)]
        memory_limit: Option<usize>,
    },
    /// A Lua REPL in the terminal on a fresh game.
    Repl {
        /// The project whose mods to load (default: the one here, or the repository's
        /// projects/demo).
        #[arg(long)]
        project: Option<PathBuf>,
    },
    /// Write a new mod (mod.ron, and an init.lua with a prototype and a handler) into the
    /// project's mods/ folder and enable it.
    NewMod {
        /// The mod's id: lower-case letters, digits and '_'.
        id: String,
        /// The project to add it to (default: the one here, or the repository's
        /// projects/demo).
        #[arg(long)]
        project: Option<PathBuf>,
    },
    /// Replay a recorded play session headless, as fast as the engine goes.
    Replay {
        /// The recording (`<project>/recordings/*.ron`).
        file: PathBuf,
        /// The project to replay it on (default: the one the recording is in).
        #[arg(long)]
        project: Option<PathBuf>,
        /// Compare every turn with the recording; exit 1 naming the first turn that differs.
        #[arg(long)]
        check: bool,
        /// Stop at the start of this turn.
        #[arg(long, value_name = "N")]
        to_turn: Option<u64>,
        /// Write the final state as a save to this file.
        #[arg(long, value_name = "FILE")]
        save_to: Option<PathBuf>,
        /// List every change of object UID's FIELD: turn, old → new, and the file:line (or
        /// the operation) that made it.
        #[arg(long, num_args = 2, value_names = ["UID", "FIELD"])]
        changes: Option<Vec<String>>,
        /// Profile every turn and print where the time went, summed over the recording:
        /// each event handler, UI layer, widget, map layer and the engine's work.
        #[arg(long)]
        profile: bool,
    },
    /// Run a map generator (a base.map_generator prototype): print the map file it makes (or
    /// write it with --out), or with --scan generate every seed of a range on every core and
    /// list the seeds whose map passes --where, with --metric values.
    Gen {
        /// The generator, such as elona.cave.
        id: String,
        /// The project whose mods to load (default: the one here, or the repository's projects/demo).
        #[arg(long)]
        project: Option<PathBuf>,
        /// The seed.
        #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
        seed: i64,
        /// The params, as RON: {"fill": 0.5, "monsters": 3}.
        #[arg(long, value_name = "RON")]
        params: Option<String>,
        /// Write the map file here instead of printing it.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
        /// Scan the seeds A..B (inclusive) instead.
        #[arg(long, value_name = "A..B")]
        scan: Option<String>,
        /// With --scan: keep the seeds whose map makes this Lua expression over `map` true.
        #[arg(long = "where", value_name = "LUA")]
        predicate: Option<String>,
        /// With --scan: print NAME's value (a Lua expression over `map`) for each seed kept.
        #[arg(long = "metric", value_name = "NAME=LUA")]
        metrics: Vec<String>,
        /// With --scan: worker threads (default: one per core).
        #[arg(long, value_name = "N")]
        jobs: Option<usize>,
    },
    /// Print what changed between two map files: tiles by region, objects added, removed,
    /// moved and changed field by field. Exit 0 if nothing did, 1 if something did.
    Diff {
        /// The map file before.
        a: PathBuf,
        /// The map file after.
        b: PathBuf,
        /// Also draw before, after and the changed cells side by side into this PNG.
        #[arg(long, value_name = "OUT.png")]
        png: Option<PathBuf>,
    },
    /// Merge two versions of a map file by cells and objects (git's merge driver: see
    /// `git-setup`). Exit 0 if they merged cleanly, 1 if conflicts are kept in OUT for the
    /// editor to resolve, 2 if a file cannot be read (OUT is then left as it was).
    Merge {
        /// The common ancestor.
        base: PathBuf,
        /// Our version.
        ours: PathBuf,
        /// Their version.
        theirs: PathBuf,
        /// Where the merge is written (git passes OURS).
        #[arg(short, long, value_name = "OUT")]
        out: PathBuf,
    },
    /// Make git merge the project's map files with `nefia merge`: writes the
    /// .gitattributes line and prints the git config line that enables the driver.
    GitSetup {
        /// The project (default: the one here, or the repository's projects/demo).
        #[arg(long)]
        project: Option<PathBuf>,
    },
    /// Replay the project's regression recordings (recordings/tests/*.ron) with --check and
    /// their end tests; exit 1 if any fails.
    Test {
        /// The project (default: the one here, or the repository's projects/demo).
        #[arg(long)]
        project: Option<PathBuf>,
    },
    /// Load every mod, map and save of a project and report problems with file and line.
    Check {
        /// The project to check (default: the one here, or the repository's projects/demo).
        #[arg(long)]
        project: Option<PathBuf>,
        /// How long each mod's init.lua may run before it is reported as a runaway.
        #[arg(long, value_name = "SECS", value_parser = parse_seconds, default_value = "10")]
        time_limit: std::time::Duration,
    },
}

/// The longest `--time-limit`: a day.
const MAX_SECONDS: f64 = 86_400.0;

/// The largest `--memory-limit`, in MiB: 1 TiB.
const MAX_MEBIBYTES: usize = 1 << 20;

/// Reads `--time-limit`: a finite number of seconds above 0, at most a day.
fn parse_seconds(text: &str) -> Result<std::time::Duration, String> {
    let seconds: f64 =
        text.trim().parse().map_err(|_| format!("'{text}' is not a number of seconds, such as 2 or 0.5"))?;
    if !seconds.is_finite() || seconds <= 0.0 || seconds > MAX_SECONDS {
        return Err(format!("{text} seconds is not a time limit: give a number above 0 and at most {MAX_SECONDS}"));
    }
    Ok(std::time::Duration::from_secs_f64(seconds))
}

/// Reads `--memory-limit`: a whole number of MiB from 1 to 1 TiB, returned in bytes.
fn parse_mebibytes(text: &str) -> Result<usize, String> {
    let mebibytes: usize =
        text.trim().parse().map_err(|_| format!("'{text}' is not a whole number of MiB, such as 512"))?;
    if !(1..=MAX_MEBIBYTES).contains(&mebibytes) {
        return Err(format!("{text} MiB is not a memory limit: give a whole number from 1 to {MAX_MEBIBYTES}"));
    }
    Ok(mebibytes << 20)
}

/// Reports how a window ended. A missing or broken project is shown in the window itself.
fn window_closed(result: eframe::Result<()>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("nefia: the window could not open: {error}");
            ExitCode::FAILURE
        }
    }
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

fn main() -> ExitCode {
    let cli = Cli::parse();
    let run = || -> Result<ExitCode, ExitCode> {
        Ok(match cli.command {
            None => window_closed(nefia_editor::app::run(project_or_default(None)?)),
            Some(Command::Edit { project }) => window_closed(nefia_editor::app::run(project_or_default(project)?)),
            Some(Command::Play { project, listen: None, .. }) => {
                window_closed(nefia_editor::player::run(project_or_default(project)?))
            }
            Some(Command::Play { project, listen: Some(address), headless }) => {
                nefia_editor::remote_play::run(project_or_default(project)?, &address, headless)
                    .unwrap_or_else(|error| window_closed(Err(error)))
            }
            Some(Command::Run { file, project, pause, time_limit, memory_limit }) => {
                let options = headless::RunOptions { pause, time: time_limit, memory: memory_limit };
                headless::run(&file, &project_or_default(project)?, options)
            }
            Some(Command::Repl { project }) => headless::repl(&project_or_default(project)?),
            Some(Command::Check { project, time_limit }) => headless::check(&project_or_default(project)?, time_limit),
            Some(Command::NewMod { id, project }) => headless::new_mod(&project_or_default(project)?, &id),
            Some(Command::Replay { file, project, check, to_turn, save_to, changes, profile }) => {
                let changes = match changes.as_deref().map(headless::parse_changes).transpose() {
                    Ok(changes) => changes,
                    Err(message) => {
                        eprintln!("nefia replay: {message}");
                        return Ok(ExitCode::from(2));
                    }
                };
                let project = match project.or_else(|| headless::project_of_recording(&file)) {
                    Some(project) => project,
                    None => project_or_default(None)?,
                };
                headless::replay(&file, &project, headless::ReplayArgs { check, to_turn, save_to, changes, profile })
            }
            Some(Command::Test { project }) => headless::test(&project_or_default(project)?),
            Some(Command::Diff { a, b, png }) => headless::diff(&a, &b, png.as_deref()),
            Some(Command::Merge { base, ours, theirs, out }) => {
                nefia_editor::map_git::merge(&base, &ours, &theirs, &out)
            }
            Some(Command::GitSetup { project }) => nefia_editor::map_git::git_setup(&project_or_default(project)?),
            Some(Command::Gen { id, project, seed, params, out, scan, predicate, metrics, jobs }) => {
                let args = headless::GenArgs { seed, params, out, scan, predicate, metrics, jobs };
                headless::generate_maps(&project_or_default(project)?, &id, args)
            }
        })
    };
    run().unwrap_or_else(|code| code)
}
