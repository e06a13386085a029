//! `nefia play --listen 0 --headless` as a user runs it: the printed address and token let a
//! client attach and evaluate Lua in the running game.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use nefia_tests::remote::Client;
use serde_json::json;

/// Ends the game when the test ends, passed or not.
struct Running(std::process::Child);

impl Drop for Running {
    fn drop(&mut self) {
        let _killed = self.0.kill();
        let _reaped = self.0.wait();
    }
}

#[test]
fn play_listen_headless_prints_where_to_attach_and_serves_the_game() {
    let demo = nefia_tests::DemoCopy::new();
    let project = demo.project();
    let mut game = Running(
        Command::new(env!("CARGO_BIN_EXE_nefia"))
            .args(["play", "--listen", "0", "--headless"])
            .arg(&project)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("nefia starts"),
    );
    let mut stdout = BufReader::new(game.0.stdout.take().expect("stdout"));
    let mut line = String::new();
    stdout.read_line(&mut line).expect("the first line");
    // Whatever the game prints later must not fill the pipe.
    std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
    let rest = line.trim().strip_prefix("nefia: listening on ").unwrap_or_else(|| panic!("{line}"));
    let (address, token) = rest.split_once(", token ").unwrap_or_else(|| panic!("{line}"));
    let address = address.parse().expect("an address with the real port");
    assert_eq!(token.len(), 32, "a 128-bit token: {token}");

    let mut client = Client::attach(address, token);
    let result = client.result("lua.eval", json!({ "code": "1 + 1" }));
    assert_eq!(result["values"], json!(["2"]));
    let state = client.result("game.state", json!({}));
    assert_eq!(state["playing"], true, "headless, a new game is played: {state}");
}

#[test]
fn headless_needs_listen() {
    let out = Command::new(env!("CARGO_BIN_EXE_nefia")).args(["play", "--headless"]).output().expect("nefia runs");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--listen"));
}

/// Starts `nefia play --listen 0 --headless` on `project`; returns the game and the address
/// and token it printed.
fn serve_headless(project: &std::path::Path) -> (Running, std::net::SocketAddr, String) {
    let mut game = Running(
        Command::new(env!("CARGO_BIN_EXE_nefia"))
            .args(["play", "--listen", "0", "--headless"])
            .arg(project)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("nefia starts"),
    );
    let mut stdout = BufReader::new(game.0.stdout.take().expect("stdout"));
    let mut line = String::new();
    stdout.read_line(&mut line).expect("the first line");
    std::thread::spawn(move || std::io::copy(&mut stdout, &mut std::io::sink()));
    let rest = line.trim().strip_prefix("nefia: listening on ").unwrap_or_else(|| panic!("{line}"));
    let (address, token) = rest.split_once(", token ").unwrap_or_else(|| panic!("{line}"));
    (game, address.parse().expect("an address"), token.to_owned())
}

/// Waits (generously) for the game to exit; its exit code.
fn exit_code(game: &mut Running) -> Option<i32> {
    let patience = std::time::Instant::now() + std::time::Duration::from_secs(120);
    loop {
        if let Some(status) = game.0.try_wait().expect("the game's status") {
            return status.code();
        }
        assert!(std::time::Instant::now() < patience, "the game did not end after the signal");
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// Sends `signal` (`TERM`, `INT`) to the game, as a service manager or Ctrl+C does.
fn signal(game: &Running, signal: &str) {
    let sent = Command::new("kill").arg(format!("-{signal}")).arg(game.0.id().to_string()).status();
    assert!(sent.expect("kill runs").success());
}

#[test]
fn sigterm_and_sigint_end_a_headless_game_cleanly_with_its_recording() {
    for name in ["TERM", "INT"] {
        let demo = nefia_tests::DemoCopy::new();
        let project = demo.project();
        let (mut game, address, token) = serve_headless(&project);
        let mut client = Client::attach(address, &token);
        // A turn played, so the session has something to keep.
        client.result("game.input", json!({ "key": "period" }));
        let state = client.result("game.state", json!({}));
        assert_eq!(state["playing"], true, "{state}");

        signal(&game, name);
        assert_eq!(exit_code(&mut game), Some(0), "SIG{name} ends the game with success");
        assert!(client.closed(), "SIG{name}: the connection is closed");
        let recordings: Vec<_> = std::fs::read_dir(project.join("recordings"))
            .unwrap_or_else(|error| panic!("SIG{name}: no recordings folder: {error}"))
            .filter_map(Result::ok)
            .filter(|entry| entry.path().extension().is_some_and(|ext| ext == "ron"))
            .collect();
        assert_eq!(recordings.len(), 1, "SIG{name}: the session is recorded");
        let text = std::fs::read_to_string(recordings[0].path()).expect("the recording reads");
        assert!(text.contains("\"period\""), "SIG{name}: the recording holds the key played: {text}");
    }
}
