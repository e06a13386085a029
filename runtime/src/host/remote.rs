//! Attaching to a running game: a JSON-RPC 2.0 server over TCP (one JSON object per line)
//! that lets any client — a script in any language, the editor, a debug adapter — drive the
//! runtime thread. It is a client of the thread like the editor ([`HostClient`]): each
//! request becomes the same [`Command`](crate::host::Command)s and is answered from the same
//! events and snapshots, so there is one code path; only the JSON is added. `PROTOCOL.md` at
//! the repository root documents the methods.
//!
//! [`Listener::bind`] binds the socket (loopback unless an address is given) and makes a
//! random token, which the game prints; a connection must present it in `session.hello`
//! before anything else. Several clients may be connected at once: each hears every event,
//! and the requests of one connection are answered in order.
//!
//! [`HostClient`]: crate::host::HostClient

mod convert;
mod frames;
mod methods;
mod server;
mod session;
mod wire;

use std::hash::BuildHasher;

pub use server::{ListenError, Listener, Server};
pub use wire::MAX_LINE;

/// The protocol's version: `session.hello` must name it.
pub const PROTOCOL_VERSION: u32 = 1;

/// A random token of 128 bits as 32 hex digits, from the operating system's randomness
/// (which seeds each `RandomState`'s keys).
fn new_token() -> String {
    let state = std::collections::hash_map::RandomState::new();
    let (high, low) = (state.hash_one(1_u8), state.hash_one(2_u8));
    format!("{high:016x}{low:016x}")
}

/// Compares a token in time that does not depend on where they differ.
fn token_matches(ours: &str, theirs: &str) -> bool {
    ours.len() == theirs.len() && ours.bytes().zip(theirs.bytes()).fold(0, |acc, (a, b)| acc | (a ^ b)) == 0
}
