//! The test's DAP client: `nefia dap` as a child process, spoken to as a code editor does
//! (requests with sequence numbers, responses and events read by a thread).

use std::process::{Child, ChildStdin};
use std::sync::mpsc::{Receiver, RecvTimeoutError};

use super::*;

/// How long the test waits for one message.
pub(crate) const PATIENCE: Duration = Duration::from_secs(30);

/// A DAP client on a `nefia dap` child process.
pub(crate) struct Client {
    pub(crate) child: Child,
    stdin: ChildStdin,
    messages: Receiver<Json>,
    /// Events received so far and not yet looked at.
    pub(crate) events: Vec<Json>,
    seq: i64,
}

impl Client {
    /// Starts `nefia dap` and the thread reading its messages.
    pub(crate) fn start() -> Client {
        let mut child = Command::new(env!("CARGO_BIN_EXE_nefia"))
            .arg("dap")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("nefia dap starts");
        let stdin = child.stdin.take().expect("stdin");
        let mut stdout = BufReader::new(child.stdout.take().expect("stdout"));
        let (send, messages) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            loop {
                let mut length = None;
                loop {
                    let mut line = String::new();
                    if stdout.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let line = line.trim_end();
                    if line.is_empty() {
                        break;
                    }
                    if let Some(value) = line.strip_prefix("Content-Length: ") {
                        length = value.parse::<usize>().ok();
                    }
                }
                let mut body = vec![0; length.expect("every message has a length")];
                stdout.read_exact(&mut body).expect("the body");
                if send.send(serde_json::from_slice(&body).expect("JSON")).is_err() {
                    return;
                }
            }
        });
        Client { child, stdin, messages, events: Vec::new(), seq: 0 }
    }

    /// Writes `bytes` to the adapter as they are (malformed input included).
    pub(crate) fn write_raw(&mut self, bytes: &[u8]) {
        self.stdin.write_all(bytes).expect("the adapter reads");
        self.stdin.flush().expect("flushed");
    }

    /// Sends request `command` with `arguments`; returns its sequence number.
    pub(crate) fn send(&mut self, command: &str, arguments: Json) -> i64 {
        self.seq += 1;
        let body =
            json!({ "seq": self.seq, "type": "request", "command": command, "arguments": arguments }).to_string();
        self.write_raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes());
        self.seq
    }

    /// The next message, waiting up to [`PATIENCE`].
    pub(crate) fn next(&mut self) -> Json {
        match self.messages.recv_timeout(PATIENCE) {
            Ok(message) => message,
            Err(RecvTimeoutError::Timeout) => panic!("no message in time; events so far {:#?}", self.events),
            Err(RecvTimeoutError::Disconnected) => panic!("the adapter ended; events so far {:#?}", self.events),
        }
    }

    /// The response to request `seq` (events on the way are kept).
    pub(crate) fn response(&mut self, seq: i64) -> Json {
        loop {
            let message = self.next();
            if message["type"] == "response" && message["request_seq"] == seq {
                return message;
            }
            self.events.push(message);
        }
    }

    /// Sends a request and returns its body, asserting it succeeded.
    pub(crate) fn ok(&mut self, command: &str, arguments: Json) -> Json {
        let seq = self.send(command, arguments);
        let response = self.response(seq);
        assert_eq!(response["success"], true, "{command} failed: {response}");
        response["body"].clone()
    }

    /// Sends a request and returns its error message, asserting it failed.
    pub(crate) fn refused(&mut self, command: &str, arguments: Json) -> String {
        let seq = self.send(command, arguments);
        let response = self.response(seq);
        assert_eq!(response["success"], false, "{command} should fail: {response}");
        response["message"].as_str().unwrap_or_default().to_owned()
    }

    /// The first event named `name` (from those kept, else arriving), taken out.
    pub(crate) fn event(&mut self, name: &str) -> Json {
        if let Some(index) = self.events.iter().position(|e| e["type"] == "event" && e["event"] == name) {
            return self.events.remove(index);
        }
        let deadline = Instant::now() + PATIENCE;
        loop {
            assert!(Instant::now() < deadline, "no {name} event; saw {:#?}", self.events);
            let message = self.next();
            if message["type"] == "event" && message["event"] == name {
                return message;
            }
            self.events.push(message);
        }
    }

    /// Every output text received so far (kept events included), in order.
    pub(crate) fn output(&mut self) -> String {
        while let Ok(message) = self.messages.try_recv() {
            self.events.push(message);
        }
        self.events.iter().filter(|e| e["event"] == "output").filter_map(|e| e["body"]["output"].as_str()).collect()
    }

    /// The top frame of the stack: (name, path, line).
    pub(crate) fn top(&mut self) -> (String, String, u64) {
        let trace = self.ok("stackTrace", json!({ "threadId": 1 }));
        let frame = &trace["stackFrames"][0];
        (
            frame["name"].as_str().unwrap_or_default().to_owned(),
            frame["source"]["path"].as_str().unwrap_or_default().to_owned(),
            frame["line"].as_u64().unwrap_or(0),
        )
    }

    /// The locals of frame `frame_id`, as name → value.
    pub(crate) fn locals(&mut self, frame_id: u64) -> Vec<(String, String)> {
        let scopes = self.ok("scopes", json!({ "frameId": frame_id }));
        let reference = scopes["scopes"][0]["variablesReference"].clone();
        assert_eq!(scopes["scopes"][0]["name"], "Locals");
        let variables = self.ok("variables", json!({ "variablesReference": reference }));
        variables["variables"]
            .as_array()
            .expect("variables")
            .iter()
            .map(|v| {
                (v["name"].as_str().unwrap_or_default().to_owned(), v["value"].as_str().unwrap_or_default().to_owned())
            })
            .collect()
    }

    /// The value of local `name` in the top frame of the stop.
    pub(crate) fn local(&mut self, name: &str) -> String {
        self.locals(1).into_iter().find(|(n, _)| n == name).map(|(_, v)| v).unwrap_or_else(|| panic!("no local {name}"))
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
