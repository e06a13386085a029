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

/// Serves sessions until the input ends (stdio) or forever (TCP).
pub fn run(args: Args) -> Exit {
    let Some(port) = args.port else {
        crate::dap::serve(BufReader::new(std::io::stdin()), std::io::stdout());
        return Ok(ExitCode::SUCCESS);
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
        crate::dap::serve(BufReader::new(reader), stream);
    }
    Ok(ExitCode::SUCCESS)
}
