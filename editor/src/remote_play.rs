//! `nefia play --listen [ADDR:]PORT [--headless]`: the game served over the remote protocol
//! (`PROTOCOL.md`) while the player window runs, or with no window at all. The address and
//! the token a client must present are printed first, on one line of stdout.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use nefia_runtime::host::remote::Listener;
use nefia_runtime::host::{Command, HostConfig, HostEvent, HostHandle};
use nefia_runtime::lua::Output;
use nefia_runtime::play::PlayFrom;

/// Serves the game on `project` at `address`: in the player window, or `headless` playing a
/// new game from the start map until the process is ended. An error of the window comes
/// back for the caller to report.
pub fn run(project: PathBuf, address: &str, headless: bool) -> Result<ExitCode, eframe::Error> {
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
    host.send(Command::Play(PlayFrom::Start));
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
