//! `nefia play [DIR]`: the player window. With `--listen [ADDR:]PORT` the game is served over
//! the remote protocol (`PROTOCOL.md`) too, and with `--headless` it has no window at all; the
//! address and the token a client must present are printed first, on one line of stdout.
//! Headless, SIGTERM and SIGINT end it cleanly: the play session is recorded, exit code 0.

use std::path::PathBuf;
use std::process::ExitCode;

use super::{Exit, project_or_default, window_closed};
use nefia_protocol::play::PlayCommand;

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
        None => window_closed(crate::player::run(crate::player::PlayerConfig::project(project))),
        Some(address) => serve(project, &address, args.headless).unwrap_or_else(|error| window_closed(Err(error))),
    })
}

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use nefia_host::remote::Listener;
use nefia_host::{HostConfig, HostHandle};
use nefia_protocol::message::{Command, HostEvent};
use nefia_protocol::output::Output;
use nefia_protocol::play::PlayFrom;

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
    let config = crate::player::PlayerConfig::project(project);
    crate::player::run_attached(config, move |app| listener.serve(app.host().connector()))?;
    Ok(ExitCode::SUCCESS)
}

/// Plays a new game with no window, serving `listener`; printed lines and messages go to
/// stdout, log lines to stderr. Ends with failure if the project cannot be served, and with
/// success when the process is asked to end (SIGTERM, SIGINT: how services and Ctrl+C stop
/// it): play stops, so its recording is written, then the connections close. A second such
/// signal while it ends kills it at once (exit code 1).
fn serve_headless(project: PathBuf, listener: Listener) -> ExitCode {
    let ending = match end_on_termination() {
        Ok(ending) => ending,
        Err(error) => {
            eprintln!("nefia play: cannot listen for termination signals: {error}");
            return ExitCode::FAILURE;
        }
    };
    let mut config = HostConfig::recorded(project, Arc::new(|| {}));
    // Nothing edits maps here: there is nothing to journal.
    config.journal = None;
    let host = HostHandle::spawn(config);
    host.send(Command::Play(PlayCommand::Start(PlayFrom::Start)));
    let server = listener.serve(host.connector());
    while !ending.load(Ordering::Relaxed) {
        if let Some(event) = host.next_event(SIGNAL_POLL) {
            report(event);
        }
        if let Some(problem) = &host.snapshot().problem {
            eprintln!("nefia play: {problem}");
            return ExitCode::FAILURE;
        }
    }
    host.send(Command::Play(PlayCommand::Stop));
    // The recording is written as play ends; its line in the log says where.
    while host.snapshot().play.playing && !host.ended() {
        if let Some(event) = host.next_event(SIGNAL_POLL) {
            report(event);
        }
    }
    for event in host.events() {
        report(event);
    }
    drop(server);
    // The runtime thread ends, and with it the connections' clients.
    drop(host);
    ExitCode::SUCCESS
}

/// How long the headless loop waits for an event before it looks at the termination flag.
const SIGNAL_POLL: Duration = Duration::from_millis(200);

/// A flag that SIGTERM, SIGINT (and on Unix SIGQUIT) raise; once it is raised, another of them
/// ends the process with exit code 1.
fn end_on_termination() -> std::io::Result<Arc<AtomicBool>> {
    let ending = Arc::new(AtomicBool::new(false));
    for &signal in signal_hook::consts::TERM_SIGNALS {
        // Registered first, so the first signal finds the flag down and only raises it.
        signal_hook::flag::register_conditional_shutdown(signal, 1, ending.clone())?;
        signal_hook::flag::register(signal, ending.clone())?;
    }
    Ok(ending)
}

/// Prints what the headless game says: printed lines and messages on stdout, log lines and
/// refusals on stderr.
fn report(event: HostEvent) {
    match event {
        HostEvent::Output(Output::Print(text) | Output::Message(text)) => println!("{text}"),
        HostEvent::Output(Output::Log(line)) => eprintln!("[{}] {}", line.level.name(), line.text),
        HostEvent::Refused(refused) => eprintln!("nefia play: {}", refused.message),
        _ => {}
    }
}
