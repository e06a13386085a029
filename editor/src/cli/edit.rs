//! `nefia edit [DIR]`, and `nefia` alone: the editor window.

use std::path::PathBuf;
use std::process::ExitCode;

use super::{Exit, project_or_default, window_closed};

/// Open the editor on a project, or attached to a game running in another process.
#[derive(clap::Args, Default)]
pub struct Args {
    /// The project folder (default: the one here, or the repository's projects/demo).
    #[arg(conflicts_with = "attach")]
    project: Option<PathBuf>,
    /// Attach to the game served at ADDR:PORT (started with `nefia play --listen`) instead of
    /// opening a project: the panes work on that game, which goes on when the editor closes.
    #[arg(long, value_name = "ADDR:PORT", requires = "token")]
    attach: Option<String>,
    /// The token the game printed when it started listening.
    #[arg(long, requires = "attach")]
    token: Option<String>,
    /// Serve the editor's game on [ADDR:]PORT (a bare port listens on 127.0.0.1; 0 picks a
    /// free one), as `nefia play --listen` does: a code editor's debug adapter (`nefia dap`,
    /// attach) or a script attaches to it. The first line of stdout says where, and the token.
    #[arg(long, value_name = "[ADDR:]PORT", conflicts_with = "attach")]
    listen: Option<String>,
    /// Open this recording in the timeline once the project is open (as the Recordings
    /// pane's Open does): step or scrub through its turns, break on a field.
    #[arg(long, value_name = "FILE", conflicts_with = "attach")]
    recording: Option<PathBuf>,
}

/// Opens the editor on the project (or attached to the game) until its window closes.
pub fn run(args: Args) -> Exit {
    if let (Some(address), Some(token)) = (&args.attach, &args.token) {
        return match crate::app::run_attached(address, token) {
            Ok(closed) => Ok(window_closed(closed)),
            Err(error) => {
                eprintln!("nefia edit: {error}");
                Err(ExitCode::from(2))
            }
        };
    }
    let project = project_or_default(args.project)?;
    // The game opens the recording relative to its own folder: name it from here.
    let recording = args.recording.map(|path| std::path::absolute(&path).unwrap_or(path));
    let Some(address) = args.listen else { return Ok(window_closed(crate::app::run(project, recording))) };
    let listener = nefia_host::remote::Listener::bind(&address).map_err(|error| {
        eprintln!("nefia edit: {error}");
        ExitCode::from(2)
    })?;
    println!("{}", listener.announcement());
    // The line is what a client waits for: it must not sit in a buffer.
    let _flushed = std::io::Write::flush(&mut std::io::stdout());
    Ok(window_closed(crate::app::run_serving(project, recording, listener)))
}
