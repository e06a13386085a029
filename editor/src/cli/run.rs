//! `nefia run FILE.lua`: a script in a fresh game, headless; and the fresh game on the
//! terminal that `nefia repl` shares.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use nefia_host::terminal::{TerminalGame, TerminalOptions};
use nefia_protocol::output::Output;

use super::{Exit, parse_seconds, project_or_default, terminal_progress};

/// Run a Lua script in a fresh game (the project's mods and start map), without a window.
#[derive(clap::Args)]
pub struct Args {
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
    time_limit: Option<Duration>,
    /// Interrupt the script when the Lua heap grows past this many MiB (default: no limit).
    #[arg(long, value_name = "MIB", value_parser = parse_mebibytes)]
    memory_limit: Option<usize>,
}

/// The largest `--memory-limit`, in MiB: 1 TiB.
const MAX_MEBIBYTES: usize = 1 << 20;

/// Reads `--memory-limit`: a whole number of MiB from 1 to 1 TiB, returned in bytes.
// A String error: clap prints it as the option's own, and nothing else reads it.
fn parse_mebibytes(text: &str) -> Result<usize, String> {
    let mebibytes: usize =
        text.trim().parse().map_err(|_| format!("'{text}' is not a whole number of MiB, such as 512"))?;
    if !(1..=MAX_MEBIBYTES).contains(&mebibytes) {
        return Err(format!("{text} MiB is not a memory limit: give a whole number from 1 to {MAX_MEBIBYTES}"));
    }
    Ok(mebibytes << 20)
}

/// Runs the script: exit 0 on success, 1 with the message and traceback on stderr (a script
/// past its limits included).
pub fn run(args: Args) -> Exit {
    let options = TerminalOptions { pause: args.pause, time: args.time_limit, memory: args.memory_limit };
    let runtime = open(&project_or_default(args.project)?, options)?;
    Ok(match runtime.run_file(&args.file) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("{failure}");
            ExitCode::FAILURE
        }
    })
}

/// Prints engine output: `print` lines and `Gui.mes` messages both go to stdout.
fn stdout_sink() -> Box<dyn FnMut(Output)> {
    Box::new(|output| match output {
        Output::Print(line) | Output::Message(line) => println!("{line}"),
        Output::Log(line) => eprintln!("[{}] {}", line.level.name(), line.text),
    })
}

/// Opens `project` and starts a game; the options' limits hold from the first line of mod
/// code on. A terminal shows a progress bar meanwhile.
pub(super) fn open(project: &Path, options: TerminalOptions) -> Result<TerminalGame, ExitCode> {
    let (bar, sink) = terminal_progress();
    let started = TerminalGame::start(project, options, stdout_sink(), sink);
    bar.finish_and_clear();
    started.map_err(|error| {
        eprintln!("nefia: {error}");
        ExitCode::FAILURE
    })
}
