//! What a command is to the edit journal: each subsystem's command sub-enum says it
//! (`journal_kind`, beside `reads_only`), and the journal (`runtime/host/src/editing/journal.rs`) acts on it. A leaf:
//! the command sub-enums below the protocol name it.

use nefia_game::journal::Journaled;

/// What a command is to the edit journal (`runtime/host/src/editing/journal.rs`), as its subsystem says
/// ([`crate::message::Command::journal_kind`]).
pub enum JournalKind {
    /// Kept in the log, if it changed the world.
    Log(Journaled),
    /// The log cannot replay it: a new base, if it was done.
    Rebase,
    /// Code was reloaded: prototypes are not the journal's (a recovery runs the code on
    /// disk), so only a reload that made objects or maps takes a new base.
    Code,
    /// Anything else: a new base only if it changed the world anyway.
    Other,
}
