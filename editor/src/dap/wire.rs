//! The Debug Adapter Protocol's framing: each message is a `Content-Length: N` header, a blank
//! line and N bytes of JSON. Reading checks the header before holding the body, so a hostile
//! or broken client costs at most [`MAX_MESSAGE`] bytes; a bad header or body is a
//! [`Malformed`] naming the problem, after which reading goes on with the next header.

use std::io::{BufRead, Write};

/// The largest message body read: 16 MiB (a breakpoint list or an evaluation is far less).
pub const MAX_MESSAGE: usize = 16 << 20;

/// A message that could not be read, and why.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum Malformed {
    /// The header block had no usable `Content-Length`.
    #[error(
        "a message header without a valid Content-Length ({0}): each message starts with `Content-Length: N` and a blank line"
    )]
    Header(String),
    /// The body is longer than [`MAX_MESSAGE`].
    #[error("a message of {0} bytes is longer than the {MAX_MESSAGE} bytes a message may have")]
    TooLong(usize),
    /// The body is not JSON.
    #[error("a message that is not JSON: {0}")]
    Json(String),
}

/// What reading one message gave.
#[derive(Debug)]
pub enum Read {
    /// A message.
    Message(serde_json::Value),
    /// A message that could not be read; reading may go on.
    Malformed(Malformed),
    /// The input ended.
    End,
}

/// Reads the next message from `input`.
pub fn read(input: &mut impl BufRead) -> Read {
    let mut length: Option<Result<usize, String>> = None;
    let mut any_header = false;
    loop {
        let mut line = Vec::new();
        match std::io::Read::take(&mut *input, 8 * 1024).read_until(b'\n', &mut line) {
            Ok(0) if !any_header => return Read::End,
            Ok(0) => return Read::Malformed(Malformed::Header("the input ended inside a header".into())),
            Ok(_) => {}
            Err(error) => return Read::Malformed(Malformed::Header(error.to_string())),
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            if !any_header {
                // Blank lines between messages are skipped.
                continue;
            }
            break;
        }
        any_header = true;
        if let Some((name, value)) = text.split_once(':')
            && name.trim().eq_ignore_ascii_case("content-length")
        {
            let value = value.trim();
            length = Some(value.parse::<usize>().map_err(|_| format!("`{value}` is not a length in bytes")));
        }
    }
    let length = match length {
        None => return Read::Malformed(Malformed::Header("no Content-Length header".into())),
        Some(Err(problem)) => return Read::Malformed(Malformed::Header(problem)),
        Some(Ok(length)) => length,
    };
    if length > MAX_MESSAGE {
        // Skip it without holding it.
        let skipped = std::io::copy(
            &mut std::io::Read::take(&mut *input, u64::try_from(length).unwrap_or(u64::MAX)),
            &mut std::io::sink(),
        );
        return match skipped {
            Ok(_) => Read::Malformed(Malformed::TooLong(length)),
            Err(_) => Read::End,
        };
    }
    let mut body = vec![0; length];
    if input.read_exact(&mut body).is_err() {
        return Read::Malformed(Malformed::Header(format!("the input ended inside a body of {length} bytes")));
    }
    match serde_json::from_slice(&body) {
        Ok(message) => Read::Message(message),
        Err(error) => Read::Malformed(Malformed::Json(error.to_string())),
    }
}

/// Writes `message` with its header.
pub fn write(output: &mut impl Write, message: &serde_json::Value) -> std::io::Result<()> {
    let body = message.to_string();
    write!(output, "Content-Length: {}\r\n\r\n{body}", body.len())?;
    output.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(input: &str) -> Vec<String> {
        let mut input = std::io::Cursor::new(input.as_bytes().to_vec());
        let mut out = Vec::new();
        loop {
            match read(&mut input) {
                Read::Message(message) => out.push(message.to_string()),
                Read::Malformed(problem) => out.push(format!("! {problem}")),
                Read::End => return out,
            }
        }
    }

    #[test]
    fn messages_are_read_and_each_bad_one_is_named_without_losing_the_next() {
        let got = read_all(
            "Content-Length: 7\r\n\r\n{\"a\":1}\
             Content-Length: x\r\n\r\n\
             Content-Length: 3\r\n\r\n{x}\
             Content-Type: json\r\n\r\n\
             Content-Length: 99999999999\r\n\r\n\
             Content-Length: 7\r\n\r\n{\"b\":2}",
        );
        assert_eq!(got[0], r#"{"a":1}"#);
        assert!(got[1].contains("`x` is not a length"), "{}", got[1]);
        assert!(got[2].contains("not JSON"), "{}", got[2]);
        assert!(got[3].contains("no Content-Length"), "{}", got[3]);
        assert!(got[4].contains("longer than"), "{}", got[4]);
        assert_eq!(got.len(), 5, "the huge body swallowed the rest: it said it was that long");
    }

    #[test]
    fn written_messages_read_back() {
        let mut buffer = Vec::new();
        write(&mut buffer, &serde_json::json!({"seq": 1, "type": "event", "event": "ünïcode"})).unwrap();
        let mut input = std::io::Cursor::new(buffer);
        let Read::Message(message) = read(&mut input) else { panic!("a message") };
        assert_eq!(message["event"], "ünïcode", "the length counts bytes");
    }
}
