//! # nefia_protocol — what a frontend and the host say to each other
//!
//! Plain data with no Lua in it. The frontends (the editor, its command line, the player
//! window, remote clients, the debug adapter) send a [`message::Command`] and hear
//! [`message::HostEvent`]s and [`view::Snapshot`]s; each component of the host has its command
//! sub-enum and its part of the snapshot in the module of its name ([`editing`], [`play`],
//! [`debugging`], [`maps`], [`mods`], [`workbench`]). What the Lua layer reports as it runs —
//! its output and progress ([`output`]), its failures ([`failure`]), the REPL's and debugger's
//! answers ([`repl`]), hotloads ([`reload`]), profiles ([`profile`]), saves ([`saves`]), the
//! checks of content ([`checks`]), watched changes ([`watch`]) — is defined here too, and
//! `nefia_lua` makes it. The views are built from the game state ([`view`]'s builders read a
//! `World`), so this crate depends on the game crate and plain-data crates (serde, thiserror) only: the
//! compiler holds that
//! no frontend reaches the Lua state through what it is sent.

pub mod checks;
pub mod debugging;
pub mod editing;
pub mod failure;
pub mod journal_kind;
pub mod maps;
pub mod message;
pub mod mods;
pub mod output;
pub mod play;
pub mod profile;
pub mod reload;
pub mod repl;
pub mod saves;
pub mod view;
pub mod watch;
pub mod workbench;
