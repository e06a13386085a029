//! The Debug Adapter Protocol's framing: each message is a `Content-Length: N` header, a blank
//! line and N bytes of JSON. Reading checks the header before holding the body, so a hostile
//! or broken client costs at most [`MAX_MESSAGE`] bytes; a bad header or body is a
//! [`Malformed`] naming the problem, after which reading goes on with the next header — except
//! a stated length over the limit, which ends the session ([`Malformed::ends_session`]): the
//! next message starts only after that many bytes, and waiting for them could be forever.

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
    /// The header states a body longer than [`MAX_MESSAGE`] (the length as written).
    #[error(
        "a message of {0} bytes is longer than the {mib} MiB ({MAX_MESSAGE} bytes) a message may have; the \
         session ends, since the next message would begin only after that many bytes",
        mib = MAX_MESSAGE >> 20
    )]
    TooLong(String),
    /// The body is not JSON.
    #[error("a message that is not JSON: {0}")]
    Json(String),
}

impl Malformed {
    /// True when nothing more can be read after it: the session ends.
    pub fn ends_session(&self) -> bool {
        matches!(self, Malformed::TooLong(_))
    }
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
    let mut length: Option<Result<usize, Malformed>> = None;
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
            length = Some(match value.parse::<usize>() {
                Ok(length) if length <= MAX_MESSAGE => Ok(length),
                // Neither held nor skipped: skipping would wait for all those bytes.
                Ok(_) => Err(Malformed::TooLong(value.to_owned())),
                Err(_) if !value.is_empty() && value.bytes().all(|b| b.is_ascii_digit()) => {
                    Err(Malformed::TooLong(value.to_owned()))
                }
                Err(_) => Err(Malformed::Header(format!("`{value}` is not a length in bytes"))),
            });
        }
    }
    let length = match length {
        None => return Read::Malformed(Malformed::Header("no Content-Length header".into())),
        Some(Err(problem)) => return Read::Malformed(problem),
        Some(Ok(length)) => length,
    };
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

    /// Every message of `input` and every problem, up to the end or a problem that ends it.
    fn read_all(input: &str) -> Vec<String> {
        let mut input = std::io::Cursor::new(input.as_bytes().to_vec());
        let mut out = Vec::new();
        loop {
            match read(&mut input) {
                Read::Message(message) => out.push(message.to_string()),
                Read::Malformed(problem) if problem.ends_session() => {
                    out.push(format!("! {problem}"));
                    return out;
                }
                Read::Malformed(problem) => out.push(format!("! {problem}")),
                Read::End => return out,
            }
        }
    }

    #[test]
    fn a_length_over_the_limit_ends_the_session_at_once_naming_the_limit() {
        for stated in ["99999999999", "16777217", "99999999999999999999999999"] {
            // No body follows: reading it, or skipping it, would wait.
            let got = read_all(&format!("Content-Length: {stated}\r\n\r\nContent-Length: 7\r\n\r\n{{\"b\":2}}"));
            assert_eq!(got.len(), 1, "{got:?}");
            assert!(got[0].contains(&format!("{stated} bytes")) && got[0].contains("16 MiB"), "{}", got[0]);
        }
        let at_limit = format!("Content-Length: {MAX_MESSAGE}\r\n\r\n{}", " ".repeat(MAX_MESSAGE));
        assert!(read_all(&at_limit)[0].contains("not JSON"), "16 MiB itself is read");
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
        assert_eq!(got.len(), 5, "reading ends at a length over the limit");
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
