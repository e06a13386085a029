//! The wire: JSON-RPC 2.0 messages, one JSON object per line, and the protocol's errors with
//! their codes.

use std::io::{BufRead, Read};

use serde_json::{Map, Value as Json, json};

/// The longest request line read, in bytes (its newline included); a longer one is refused
/// before it is held in memory and the connection closes.
pub const MAX_LINE: usize = 1 << 20;

/// The deepest arrays and objects nest in a request line; a deeper one is refused (`-32700`)
/// before it is parsed. Below serde_json's own limit (128), so the answer names this one.
pub const MAX_DEPTH: usize = 100;

/// Why a request was not answered with a result: each has a JSON-RPC error code, and some
/// close the connection.
#[derive(Debug, thiserror::Error)]
pub enum RpcError {
    /// The line was not JSON (code -32700; closes).
    #[error("parse error: {0}")]
    Parse(String),
    /// The line was longer than [`MAX_LINE`] (code -32700; closes).
    #[error("parse error: the request is longer than {MAX_LINE} bytes")]
    TooLong,
    /// The line nests arrays and objects deeper than [`MAX_DEPTH`] (code -32700; closes).
    #[error("parse error: the request nests arrays and objects deeper than {MAX_DEPTH} levels")]
    TooDeep,
    /// The JSON was not a JSON-RPC 2.0 request (code -32600; closes).
    #[error("invalid request: {0}")]
    InvalidRequest(&'static str),
    /// No method has this name (code -32601).
    #[error("no method '{0}' (rpc.discover lists them)")]
    MethodNotFound(String),
    /// The params do not fit the method (code -32602).
    #[error("invalid params: {0}")]
    InvalidParams(String),
    /// The first request was not `session.hello` (code 1001; closes).
    #[error("the first request must be session.hello with the token the game printed")]
    NotGreeted,
    /// `session.hello` carried the wrong token (code 1002; closes).
    #[error("wrong token")]
    WrongToken,
    /// `session.hello` asked for another protocol version (code 1003; closes).
    #[error("this game speaks nefia protocol {ours}, the client {theirs}")]
    WrongVersion {
        /// The version this game speaks.
        ours: u32,
        /// The version the client asked for.
        theirs: u64,
    },
    /// Lua code failed (code 1010); `data` carries the traceback and the output printed.
    #[error("{message}")]
    Lua {
        /// The Lua error message.
        message: String,
        /// The stack traceback, if one was captured.
        traceback: String,
        /// What the code printed before it failed.
        output: Vec<String>,
    },
    /// The game did not do it (code 1011): nothing to undo, a refused edit, no such object.
    #[error("{0}")]
    Refused(String),
    /// The game has ended: nothing serves the request (code 1012).
    #[error("the game has ended")]
    GameEnded,
}

impl RpcError {
    /// The JSON-RPC error code.
    pub fn code(&self) -> i64 {
        match self {
            RpcError::Parse(_) | RpcError::TooLong | RpcError::TooDeep => -32700,
            RpcError::InvalidRequest(_) => -32600,
            RpcError::MethodNotFound(_) => -32601,
            RpcError::InvalidParams(_) => -32602,
            RpcError::NotGreeted => 1001,
            RpcError::WrongToken => 1002,
            RpcError::WrongVersion { .. } => 1003,
            RpcError::Lua { .. } => 1010,
            RpcError::Refused(_) => 1011,
            RpcError::GameEnded => 1012,
        }
    }

    /// True if the connection closes after this error is sent.
    pub fn closes(&self) -> bool {
        matches!(
            self,
            RpcError::Parse(_)
                | RpcError::TooLong
                | RpcError::TooDeep
                | RpcError::InvalidRequest(_)
                | RpcError::NotGreeted
                | RpcError::WrongToken
                | RpcError::WrongVersion { .. }
        )
    }

    /// The error object of a response.
    fn to_json(&self) -> Json {
        let mut error = json!({ "code": self.code(), "message": self.to_string() });
        if let RpcError::Lua { traceback, output, .. } = self {
            error["data"] = json!({ "traceback": traceback, "output": output });
        }
        error
    }
}

/// A request read from a line: its id (absent for a notification, which gets no answer),
/// method and params.
#[derive(Debug)]
pub struct Request {
    /// The id to answer with; None for a notification.
    pub id: Option<Json>,
    /// The method's name.
    pub method: String,
    /// The params (an empty object when there were none).
    pub params: Json,
}

impl Request {
    /// Reads a request from one line. On error the id is returned too when it could be read,
    /// so the error answers the request.
    pub fn parse(line: &[u8]) -> Result<Request, (Option<Json>, RpcError)> {
        if nests_too_deep(line) {
            return Err((None, RpcError::TooDeep));
        }
        let json: Json = serde_json::from_slice(line).map_err(|e| (None, RpcError::Parse(e.to_string())))?;
        let Json::Object(mut object) = json else {
            return Err((None, RpcError::InvalidRequest("a request is a JSON object")));
        };
        let id = object.remove("id");
        let invalid = |why| Err((id.clone(), RpcError::InvalidRequest(why)));
        if !matches!(&id, None | Some(Json::Null | Json::Number(_) | Json::String(_))) {
            return invalid("the id must be a number, a string or null");
        }
        if object.get("jsonrpc").and_then(Json::as_str) != Some("2.0") {
            return invalid("\"jsonrpc\" must be \"2.0\"");
        }
        let Some(Json::String(method)) = object.remove("method") else {
            return invalid("\"method\" must be a string");
        };
        let params = match object.remove("params") {
            None => Json::Object(Map::new()),
            Some(params @ (Json::Object(_) | Json::Array(_))) => params,
            Some(_) => return invalid("\"params\" must be an object or an array"),
        };
        Ok(Request { id, method, params })
    }
}

/// True if the JSON text `line` nests arrays and objects deeper than [`MAX_DEPTH`] (brackets
/// inside strings do not count). Malformed text is left to the parser.
fn nests_too_deep(line: &[u8]) -> bool {
    let (mut depth, mut in_string, mut escaped) = (0_usize, false, false);
    for &byte in line {
        match byte {
            _ if escaped => escaped = false,
            b'\\' if in_string => escaped = true,
            b'"' => in_string = !in_string,
            _ if in_string => {}
            b'[' | b'{' => {
                depth += 1;
                if depth > MAX_DEPTH {
                    return true;
                }
            }
            b']' | b'}' => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
}

/// The answer to request `id`: its result or its error.
pub fn response(id: &Json, outcome: &Result<Json, RpcError>) -> Json {
    match outcome {
        Ok(result) => json!({ "jsonrpc": "2.0", "id": id, "result": result }),
        Err(error) => json!({ "jsonrpc": "2.0", "id": id, "error": error.to_json() }),
    }
}

/// A notification from the game (no answer expected): `method` with `params`.
pub fn notification(method: &str, params: Json) -> Json {
    json!({ "jsonrpc": "2.0", "method": method, "params": params })
}

/// What reading a line gave.
#[derive(Debug)]
pub enum Frame {
    /// A line, without its newline.
    Line(Vec<u8>),
    /// A line longer than [`MAX_LINE`] began (the rest is not read).
    TooLong,
    /// The connection closed.
    Closed,
}

/// Reads the next line, holding at most [`MAX_LINE`] bytes of it.
pub fn read_frame(reader: &mut impl BufRead) -> Frame {
    let mut line = Vec::new();
    let limit = u64::try_from(MAX_LINE).unwrap_or(u64::MAX);
    match reader.by_ref().take(limit).read_until(b'\n', &mut line) {
        Ok(0) | Err(_) => Frame::Closed,
        Ok(_) if line.last() == Some(&b'\n') => {
            line.pop();
            Frame::Line(line)
        }
        Ok(_) if line.len() >= MAX_LINE => {
            // The rest is read and dropped, so the error sent is read before the connection
            // closes (closing with unread input would reset it).
            skip_line(reader);
            Frame::TooLong
        }
        // The last line of a connection, with no newline.
        Ok(_) => Frame::Line(line),
    }
}

/// Reads up to the end of the line (or of the input), keeping nothing.
fn skip_line(reader: &mut impl BufRead) {
    loop {
        let (used, ended) = match reader.fill_buf() {
            Ok([]) | Err(_) => return,
            Ok(buffer) => match buffer.iter().position(|&b| b == b'\n') {
                Some(at) => (at + 1, true),
                None => (buffer.len(), false),
            },
        };
        reader.consume(used);
        if ended {
            return;
        }
    }
}

/// Reads params as `T`: unknown or missing fields and wrong types are invalid params.
pub fn params<T: serde::de::DeserializeOwned>(params: Json) -> Result<T, RpcError> {
    serde_json::from_value(params).map_err(|e| RpcError::InvalidParams(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::{MAX_DEPTH, Request, RpcError};

    fn refused_as(line: &str) -> Option<String> {
        Request::parse(line.as_bytes()).err().map(|(_, error)| error.to_string())
    }

    #[test]
    fn nesting_is_refused_past_the_limit_and_brackets_in_strings_do_not_count() {
        let nested = |depth: usize| format!("{}{}", "[".repeat(depth), "]".repeat(depth));
        assert!(refused_as(&nested(MAX_DEPTH)).is_some_and(|e| e.starts_with("invalid request")), "parsed");
        for depth in [MAX_DEPTH + 1, 100_000] {
            let error = refused_as(&nested(depth));
            assert_eq!(error, Some(RpcError::TooDeep.to_string()), "{depth}");
        }
        let request = |code: &str| {
            let line =
                serde_json::json!({ "jsonrpc": "2.0", "id": 1, "method": "lua.eval", "params": { "code": code } });
            Request::parse(line.to_string().as_bytes()).map(|r| r.params["code"].clone())
        };
        let brackets = format!("\\\"{}", "[{".repeat(MAX_DEPTH));
        assert_eq!(request(&brackets).ok(), Some(serde_json::json!(brackets)), "in a string, with an escaped quote");
    }
}
