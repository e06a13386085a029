//! `nefia play [DIR]`: the player window. With `--listen [ADDR:]PORT` the game is served over
//! the remote protocol (`PROTOCOL.md`) too, and with `--headless` it has no window at all; the
//! address and the token a client must present are printed first, on one line of stdout.

use std::path::PathBuf;
use std::process::ExitCode;

use super::{Exit, project_or_default, window_closed};
use nefia_runtime::host::PlayCommand;

/// Open the player window on a project: the game alone, with a title menu.
#[derive(clap::Args)]
pub struct Args {
    /// The project folder (default: the one here, or the repository's projects/demo).
    project: Option<PathBuf>,
    /// Serve the remote protocol (PROTOCOL.md) on [ADDR:]PORT (a bare port is on
    /// 127.0.0.1; 0 picks a free one); the address and token are printed at start.
    #[arg(long, value_name = "[ADDR:]PORT")]
    listen: Option<String>,
    /// With --listen: no window; a new game is played from the start map.
    #[arg(long, requires = "listen")]
    headless: bool,
}

/// Opens the player window on the project until it closes, or serves it (see the module's
/// text).
pub fn run(args: Args) -> Exit {
    let project = project_or_default(args.project)?;
    Ok(match args.listen {
        None => window_closed(crate::player::run(project)),
        Some(address) => serve(project, &address, args.headless).unwrap_or_else(|error| window_closed(Err(error))),
    })
}

use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

use nefia_runtime::host::play::PlayFrom;
use nefia_runtime::host::remote::Listener;
use nefia_runtime::host::{Command, HostConfig, HostEvent, HostHandle};
use nefia_runtime::lua::Output;

/// Serves the game on `project` at `address`: in the player window, or `headless` playing a
/// new game from the start map until the process is ended. An error of the window comes
/// back for the caller to report.
fn serve(project: PathBuf, address: &str, headless: bool) -> Result<ExitCode, eframe::Error> {
    let listener = match Listener::bind(address) {
        Ok(listener) => listener,
        Err(error) => {
            eprintln!("nefia play: {error}");
            return Ok(ExitCode::from(2));
        }
    };
    println!("{}", listener.announcement());
    // The line is what a client waits for: it must not sit in a buffer.
    let _flushed = std::io::stdout().flush();
    if headless {
        return Ok(serve_headless(project, listener));
    }
    crate::player::run_attached(project, move |app| listener.serve(app.host().connector()))?;
    Ok(ExitCode::SUCCESS)
}

/// Plays a new game with no window, serving `listener`; printed lines and messages go to
/// stdout, log lines to stderr. Ends (with failure) only if the project cannot be served.
fn serve_headless(project: PathBuf, listener: Listener) -> ExitCode {
    let mut config = HostConfig::recorded(project, Arc::new(|| {}));
    // Nothing edits maps here: there is nothing to journal.
    config.journal = None;
    let host = HostHandle::spawn(config);
    host.send(Command::Play(PlayCommand::Start(PlayFrom::Start)));
    let _server = listener.serve(host.connector());
    loop {
        match host.next_event(Duration::from_secs(1)) {
            Some(HostEvent::Output(Output::Print(text) | Output::Message(text))) => println!("{text}"),
            Some(HostEvent::Output(Output::Log(line))) => eprintln!("[{}] {}", line.level.name(), line.text),
            Some(HostEvent::Refused(refused)) => eprintln!("nefia play: {}", refused.message),
            _ => {}
        }
        if let Some(problem) = &host.snapshot().problem {
            eprintln!("nefia play: {problem}");
            return ExitCode::FAILURE;
        }
    }
}
