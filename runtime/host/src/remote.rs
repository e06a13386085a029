//! Attaching to a running game: a JSON-RPC 2.0 server over TCP (one JSON object per line)
//! that lets any client — a script in any language, the editor, a debug adapter — drive the
//! runtime thread. It is a client of the thread like the editor ([`HostClient`]): each
//! request becomes the same [`Command`](nefia_protocol::message::Command)s and is answered from the same
//! events and snapshots, so there is one code path; only the JSON is added. `PROTOCOL.md` at
//! the repository root documents the methods.
//!
//! [`Listener::bind`] binds the socket (loopback unless an address is given) and makes a
//! random token, which the game prints; a connection must present it in `session.hello`
//! before anything else. Several clients may be connected at once: each hears every event,
//! and the requests of one connection are answered in order.
//!
//! A command whose effect shows only in the snapshot is followed by a read-only barrier
//! (`Command::Sync`, answered with `HostEvent::Synced`): it is answered once everything before
//! it was handled and published, even while Lua waits in `pause()` or `query()` (those waits
//! serve commands too), so the answer reads the snapshot after the command. An evaluation that
//! stops in `pause()` is answered with the pause; its values come with the `debug.continue`
//! of whichever client continues it. A malformed line, a missing `session.hello` or a wrong
//! token closes the connection, never the game.
//!
//! [`HostClient`]: crate::HostClient

mod convert;
mod frames;
mod mirror;
mod server;
mod session;
mod wire;

use std::hash::BuildHasher;

pub use mirror::{Mirror, MirrorError};
pub use server::{ListenError, Listener, Server};
pub use wire::MAX_LINE;

/// The protocol's version: `session.hello` must name it.
pub const PROTOCOL_VERSION: u32 = 1;

/// A random token of 128 bits as 32 hex digits, read from the operating system's random
/// source (`/dev/urandom`); where there is none, from the keys the system's randomness gives
/// each `RandomState`.
fn new_token() -> String {
    use std::io::Read;
    let mut bytes = [0_u8; 16];
    let read = std::fs::File::open("/dev/urandom").and_then(|mut source| source.read_exact(&mut bytes));
    if read.is_err() {
        let state = std::collections::hash_map::RandomState::new();
        bytes[..8].copy_from_slice(&state.hash_one(1_u8).to_le_bytes());
        bytes[8..].copy_from_slice(&state.hash_one(2_u8).to_le_bytes());
    }
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Compares a token in time that does not depend on where they differ.
fn token_matches(ours: &str, theirs: &str) -> bool {
    ours.len() == theirs.len() && ours.bytes().zip(theirs.bytes()).fold(0, |acc, (a, b)| acc | (a ^ b)) == 0
}

#[cfg(test)]
mod tests {
    #[test]
    fn tokens_are_128_random_bits_in_hex_and_compared_whole() {
        let (a, b) = (super::new_token(), super::new_token());
        assert_eq!(a.len(), 32);
        assert!(a.bytes().all(|c| c.is_ascii_hexdigit()), "{a}");
        assert_ne!(a, b, "each start has its own");
        assert!(super::token_matches(&a, &a));
        assert!(!super::token_matches(&a, &b));
        assert!(!super::token_matches(&a, &a[..31]), "a prefix is not the token");
    }
}
