//! `nefia dap`: the debug adapter, on stdin/stdout or on a TCP port of loopback.

use std::io::BufReader;
use std::net::TcpListener;
use std::process::ExitCode;

use super::Exit;

/// Speak the Debug Adapter Protocol (for VS Code, nvim-dap, Helix…) on stdin and stdout, or
/// with --port on a TCP port of loopback (one session per connection, one at a time). Launch
/// with {"program": "FILE.lua", "project": "DIR"} or {"recording": "FILE.ron", "project":
/// "DIR"}; attach with {"address": "HOST:PORT", "token": "..."} to `nefia play --listen`.
#[derive(clap::Args)]
pub struct Args {
    /// Listen on this TCP port of 127.0.0.1 instead of using stdin/stdout (0: any free port,
    /// printed on stdout).
    #[arg(long)]
    port: Option<u16>,
}

/// Serves sessions until the input ends (stdio: exit code 1 when it ended on a message that
/// cannot be read past, such as one over 16 MiB) or forever (TCP).
pub fn run(args: Args) -> Exit {
    let Some(port) = args.port else {
        return match crate::dap::serve(BufReader::new(std::io::stdin()), std::io::stdout()) {
            Ok(()) => Ok(ExitCode::SUCCESS),
            Err(problem) => {
                eprintln!("nefia dap: {problem}");
                Err(ExitCode::FAILURE)
            }
        };
    };
    let listener = TcpListener::bind(("127.0.0.1", port)).map_err(|error| {
        eprintln!("nefia dap: cannot listen on 127.0.0.1:{port}: {error}");
        ExitCode::FAILURE
    })?;
    if let Ok(address) = listener.local_addr() {
        println!("nefia dap: listening on {address}");
    }
    for stream in listener.incoming() {
        let stream = match stream {
            Ok(stream) => stream,
            Err(error) => {
                eprintln!("nefia dap: a connection failed: {error}");
                continue;
            }
        };
        let Ok(reader) = stream.try_clone() else { continue };
        // The connection's session ended on it; the next connection gets a new one.
        if let Err(problem) = crate::dap::serve(BufReader::new(reader), stream) {
            eprintln!("nefia dap: a session ended: {problem}");
        }
    }
    Ok(ExitCode::SUCCESS)
}
