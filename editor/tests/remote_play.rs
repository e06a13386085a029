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
