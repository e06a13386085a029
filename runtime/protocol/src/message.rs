//! The protocol between the editor and the runtime thread: the [`Command`]s the editor sends
//! and the [`HostEvent`]s the runtime sends back (the [`crate::view::Snapshot`]s it publishes
//! are the third part).

use std::sync::Arc;

use crate::debugging::query::DebugAnswer;
use crate::debugging::{DebugCommand, ReplCommand};
use crate::editing::{CellWhy, EditingCommand, Unexplained};
use crate::journal_kind::JournalKind;
use crate::maps::MapCommand;
use crate::mods::ModCommand;
use crate::output::Output;
use crate::play::PlayCommand;
use crate::reload::Reload;
use crate::repl::{Evaluation, SourceExcerpt};
use crate::workbench::WorkbenchCommand;
use nefia_game::display::Input;
use nefia_game::edit::Clip;
use nefia_game::object::Uid;

/// A request from a frontend to the runtime thread. Each subsystem of the host takes its own
/// commands (its sub-enum); the few left here belong to the serve loop itself.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub enum Command {
    /// The REPL: evaluate, complete, show source, set the limits (see [`ReplCommand`]).
    Repl(ReplCommand),
    /// Input for the top UI layer, or the game when no layer is open.
    Input(Input),
    /// Edits, undo and redo, the selection, the recovery question (see [`EditingCommand`]).
    Editing(EditingCommand),
    /// Work on the project's map files (the Maps pane, File → Save).
    Maps(MapCommand),
    /// Play, stop, pause, step, step back and forward (see [`PlayCommand`]).
    Play(PlayCommand),
    /// Breakpoints, watches, "When did this change?", the profiler (see [`DebugCommand`]).
    Debug(DebugCommand),
    /// Hotload and the Mods pane (see [`ModCommand`]).
    Mods(ModCommand),
    /// A command of the generator workbench (see [`crate::workbench`]).
    Workbench(WorkbenchCommand),
    /// Sent by the host's `HostClient::stop` after it raised the Stop flag, so
    /// that a runtime waiting in `pause()` or `query()` wakes up and notices; does nothing itself.
    Stop,
    /// Does nothing: answered with [`HostEvent::Synced`] once every command sent before it has
    /// been done and the frame after it published (a client's barrier).
    Sync {
        /// Matches the answer to the request.
        id: u64,
    },
    /// Stop the runtime thread.
    Shutdown,
}

impl Command {
    /// The command's name in messages ("a panic in eval").
    pub fn name(&self) -> &'static str {
        match self {
            Command::Repl(command) => command.name(),
            Command::Input(_) => "input",
            Command::Editing(command) => command.name(),
            Command::Maps(_) => "map files",
            Command::Play(command) => command.name(),
            Command::Debug(command) => command.name(),
            Command::Mods(command) => command.name(),
            Command::Workbench(command) => command.name(),
            Command::Stop => "stop",
            Command::Sync { .. } => "sync",
            Command::Shutdown => "shutdown",
        }
    }

    /// The command as the operation that changed a watched field ("inspector edit").
    pub fn operation(&self) -> String {
        match self {
            Command::Editing(EditingCommand::Edit(_)) => "an edit in the editor".into(),
            Command::Mods(command) => command.operation(),
            other => other.name().into(),
        }
    }

    /// What a runtime that cannot serve the project answers the command with (see
    /// `recovery::serve_failure`): each subsystem's sub-enum says for its commands — a
    /// refusal for work it cannot do, an empty or failed answer to a question, nothing for
    /// what only acts.
    pub fn answer_when_failed(&self, problem: &str) -> Option<HostEvent> {
        match self {
            Command::Repl(command) => command.answer_when_failed(problem),
            Command::Editing(command) => command.answer_when_failed(problem),
            Command::Maps(_) => Some(unavailable(problem)),
            Command::Play(command) => command.answer_when_failed(),
            Command::Debug(command) => command.answer_when_failed(problem),
            Command::Mods(command) => command.answer_when_failed(problem),
            Command::Workbench(command) => command.answer_when_failed(problem),
            Command::Sync { id } => Some(HostEvent::Synced { id: *id }),
            Command::Input(_) | Command::Stop | Command::Shutdown => None,
        }
    }

    /// What the command is to the edit journal: each subsystem's sub-enum says for its
    /// commands (see `runtime/host/src/editing/journal.rs`).
    pub fn journal_kind(&self) -> JournalKind {
        match self {
            Command::Editing(command) => command.journal_kind(),
            Command::Maps(command) => command.journal_kind(),
            Command::Play(command) => command.journal_kind(),
            Command::Mods(command) => command.journal_kind(),
            Command::Workbench(command) => command.journal_kind(),
            Command::Repl(_)
            | Command::Debug(_)
            | Command::Input(_)
            | Command::Stop
            | Command::Sync { .. }
            | Command::Shutdown => JournalKind::Other,
        }
    }

    /// True if the command only reads the world (no checkpoint is taken before it).
    pub fn reads_only(&self) -> bool {
        match self {
            Command::Repl(command) => command.reads_only(),
            Command::Editing(command) => command.reads_only(),
            Command::Play(command) => command.reads_only(),
            Command::Debug(command) => command.reads_only(),
            Command::Stop | Command::Sync { .. } | Command::Shutdown => true,
            Command::Input(_) | Command::Maps(_) | Command::Mods(_) | Command::Workbench(_) => false,
        }
    }
}

/// The refusal of a runtime that cannot serve the project, for `problem`.
pub fn unavailable(problem: &str) -> HostEvent {
    HostEvent::Refused(Refused::new(RefusalKind::Unavailable, problem.to_owned()))
}

/// Why a command was not done.
#[derive(serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefusalKind {
    /// An edit was refused or failed; nothing changed.
    Edit,
    /// A map file operation failed.
    Maps,
    /// Play could not start, or the command works only while playing.
    Play,
    /// There was nothing to do (nothing to undo, redo or continue).
    NothingToDo,
    /// The command named a mod that is not loaded.
    UnknownMod,
    /// The runtime cannot serve the project (it could not be opened, or it stopped).
    Unavailable,
}

/// What the user can do so that a refused command can be done. The runtime names no key: a
/// frontend names the action with its own binding (the editor's from its command table).
#[derive(serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hint {
    /// Stop playing ([`PlayCommand::Stop`]).
    StopPlay,
    /// Let the paused game go on ([`DebugCommand::Continue`]).
    Continue,
    /// Start playing ([`PlayCommand::Start`]).
    Play,
}

/// A command that was not done: what kind of refusal, a message to show as it is, and what
/// the user can do about it.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct Refused {
    /// What kind of refusal.
    pub kind: RefusalKind,
    /// What to tell the user: a whole sentence, in words (it names no key). With a
    /// [`Refused::hint`] it ends with the action in words ("already playing: stop first"),
    /// for the frontend to follow with its binding.
    pub message: String,
    /// The action that would let the command be done, if there is one.
    pub hint: Option<Hint>,
}

impl Refused {
    /// A refusal of `kind` saying `message`.
    pub fn new(kind: RefusalKind, message: impl Into<String>) -> Refused {
        Refused { kind, message: message.into(), hint: None }
    }

    /// The refusal, with `hint` the action that lets the command be done.
    pub fn hinting(self, hint: Hint) -> Refused {
        Refused { hint: Some(hint), ..self }
    }
}

/// Something the runtime thread tells the editor.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub enum HostEvent {
    /// `print` output, a message or a log line, in the order they happened.
    Output(Output),
    /// A command was not done; nothing changed.
    Refused(Refused),
    /// The answer to [`ReplCommand::Eval`].
    Evaluated {
        /// The request's id.
        id: u64,
        /// What came of it.
        result: Evaluation,
    },
    /// The answer to [`ReplCommand::Complete`]: whole replacements of the input.
    Completions {
        /// The request's id.
        id: u64,
        /// The completed inputs, sorted.
        candidates: Vec<String>,
    },
    /// The answer to [`ReplCommand::ShowSource`].
    Source(SourceExcerpt),
    /// The answer to [`PlayCommand::FindChanges`]: each change, oldest first.
    Changes {
        /// The object.
        uid: Uid,
        /// The field.
        field: String,
        /// The changes.
        entries: Vec<crate::play::ChangeEntry>,
    },
    /// A file was reloaded, or its reload was rejected.
    Reloaded(Reload),
    /// The answer to [`EditingCommand::Copy`].
    Copied(Arc<Clip>),
    /// The answer to [`PlayCommand::ListSaves`]: the saves, newest first, with their dates,
    /// turns, maps and players.
    Saves(Vec<crate::saves::SaveListing>),
    /// A command panicked; the runtime caught it (see [`PanicReport`]).
    Panicked(PanicReport),
    /// The answer to [`Command::Sync`].
    Synced {
        /// The request's id.
        id: u64,
    },
    /// The answer to [`DebugCommand::Query`].
    DebugAnswer {
        /// The request's id.
        id: u64,
        /// The answer.
        answer: DebugAnswer,
    },
    /// The answer to [`EditingCommand::Recover`]`(true)`: what came back of the edit journal.
    Recovered(crate::editing::RecoveryReport),
    /// The answer to [`EditingCommand::ExplainCell`].
    CellExplained(Box<CellWhy>),
    /// The answer to [`EditingCommand::WhereUsed`].
    Usages {
        /// The data type asked about.
        data_type: String,
        /// The prototype asked about.
        id: String,
        /// Where it is used.
        usages: Vec<crate::editing::Usage>,
    },
}

/// A panic caught at the command boundary, as the editor is told of it.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct PanicReport {
    /// What it says: the command, the panic's message, and what became of the world.
    pub message: String,
    /// The runtime could not go on: it serves nothing but the failure from now on.
    pub fatal: bool,
    /// Unsaved maps written beside their files (`maps/<name>.ron.recovered`).
    pub recovered: Vec<std::path::PathBuf>,
}

impl PlayCommand {
    /// A failed runtime's answer (see [`Command::answer_when_failed`]): no saves
    /// are listed; the rest only acts.
    fn answer_when_failed(&self) -> Option<HostEvent> {
        matches!(self, PlayCommand::ListSaves).then(|| HostEvent::Saves(Vec::new()))
    }
}

impl WorkbenchCommand {
    /// A failed runtime's answer (see [`Command::answer_when_failed`]): baking
    /// is refused; the preview only acts.
    fn answer_when_failed(&self, problem: &str) -> Option<HostEvent> {
        matches!(self, WorkbenchCommand::Bake(_)).then(|| unavailable(problem))
    }
}

impl EditingCommand {
    /// A failed runtime's answer (see [`Command::answer_when_failed`]): edits
    /// are refused, where-used finds nothing.
    fn answer_when_failed(&self, problem: &str) -> Option<HostEvent> {
        match self {
            EditingCommand::Edit(_) | EditingCommand::Undo | EditingCommand::Redo | EditingCommand::Recover(_) => {
                Some(unavailable(problem))
            }
            EditingCommand::WhereUsed { data_type, id } => {
                Some(HostEvent::Usages { data_type: data_type.clone(), id: id.clone(), usages: Vec::new() })
            }
            &EditingCommand::ExplainCell { map, x, y } => Some(HostEvent::CellExplained(Box::new(CellWhy {
                map,
                x,
                y,
                explained: Err(Unexplained::NotThere(problem.to_owned())),
                sprite: None,
            }))),
            EditingCommand::Copy { .. }
            | EditingCommand::Select(_)
            | EditingCommand::Inspect(_)
            | EditingCommand::InspectCell(_) => None,
        }
    }
}

impl ReplCommand {
    /// A failed runtime's answer (see [`Command::answer_when_failed`]): code
    /// fails with the problem, completion offers nothing.
    fn answer_when_failed(&self, problem: &str) -> Option<HostEvent> {
        match self {
            ReplCommand::Eval { id, .. } | ReplCommand::RunFile { id, .. } => {
                let failure = crate::failure::LuaFailure { message: problem.to_owned(), traceback: String::new() };
                Some(HostEvent::Evaluated { id: *id, result: Evaluation::Error(failure) })
            }
            ReplCommand::Complete { id, .. } => Some(HostEvent::Completions { id: *id, candidates: Vec::new() }),
            ReplCommand::ShowSource { .. } | ReplCommand::SetLimits { .. } => None,
        }
    }
}

impl ModCommand {
    /// A failed runtime's answer (see [`Command::answer_when_failed`]): a mod's files are not
    /// written; reloads only act.
    fn answer_when_failed(&self, problem: &str) -> Option<HostEvent> {
        matches!(self, ModCommand::SetEnabled { .. } | ModCommand::New(_)).then(|| unavailable(problem))
    }
}

impl DebugCommand {
    /// A failed runtime's answer (see [`Command::answer_when_failed`]): a query
    /// fails with the problem; the rest only acts.
    fn answer_when_failed(&self, problem: &str) -> Option<HostEvent> {
        match self {
            DebugCommand::Query { id, .. } => {
                Some(HostEvent::DebugAnswer { id: *id, answer: DebugAnswer::Failed(problem.to_owned()) })
            }
            _ => None,
        }
    }
}
