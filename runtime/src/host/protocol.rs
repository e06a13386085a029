//! The protocol between the editor and the runtime thread: the [`Command`]s the editor sends
//! and the [`HostEvent`]s the runtime sends back (the [`crate::host::view::Snapshot`]s it publishes
//! are the third part).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use crate::game::display::Input;
use crate::game::edit::{Clip, Edit};
use crate::game::map::MapId;
use crate::game::object::Uid;
use crate::host::hotload::Reload;
use crate::host::play::PlayFrom;
use crate::lua::Output;
use crate::lua::repl::{Evaluation, SourceExcerpt};

use super::PanicReport;

/// A request from the editor to the runtime thread.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// Evaluate REPL input; the answer comes back as [`HostEvent::Evaluated`] with the same id.
    Eval {
        /// Matches the answer to the request.
        id: u64,
        /// Lua code: an expression or statements.
        code: String,
    },
    /// Input for the top UI layer, or the game when no layer is open.
    Input(Input),
    /// Select these objects (what `Editor.selection()` returns).
    Select(Vec<Uid>),
    /// Send these objects' details in the snapshots (the inspector's selection and pinned
    /// tabs).
    Inspect(Vec<Uid>),
    /// Make an edit, recorded for undo; a refusal comes back as [`HostEvent::Refused`].
    Edit(Edit),
    /// Work on the project's map files (the Maps pane, File → Save).
    Maps(MapCommand),
    /// Undo the last edit.
    Undo,
    /// Copy a region of a map; answered with [`HostEvent::Copied`].
    Copy {
        /// The map.
        map: MapId,
        /// Column of the top-left corner.
        x: i32,
        /// Row of the top-left corner.
        y: i32,
        /// Width in cells.
        width: i32,
        /// Height in cells.
        height: i32,
    },
    /// Redo the last undone edit.
    Redo,
    /// Start playing: the edit state is set aside until [`Command::StopPlay`].
    Play(PlayFrom),
    /// Stop playing: the edit state comes back exactly.
    StopPlay,
    /// Pause or unpause the game while playing: paused, it takes no keys.
    PausePlay(bool),
    /// List the saved games; answered with [`HostEvent::Saves`] (the player window's Load game).
    ListSaves,
    /// Let one turn pass with the player waiting (`base.on_wait_turn`), paused or not.
    StepTurn,
    /// Let the innermost `pause()` continue.
    Continue,
    /// Pause at the next turn boundary (before the game takes the next key), as `pause()`
    /// would, with the key, the player and the turn as locals.
    Break,
    /// Leave the error screen: the failed step is abandoned and the game goes on.
    Resume,
    /// Reload a Lua file of a loaded mod (the watcher sends this when one is saved).
    Reload(PathBuf),
    /// Reload the loaded file named `file` (`mods/elona/game/rules.lua`) with `text`: a
    /// hotload as a recording replays it.
    Hotload {
        /// The file as error messages name it.
        file: String,
        /// The code to load.
        text: String,
    },
    /// While playing, go back to the start of the previous turn (see
    /// [`crate::host::recorder`]).
    StepBack,
    /// After stepping back, replay the next recorded turn.
    StepForward,
    /// Go to the start of the session's turn mark N (the timeline's scrubber): back through
    /// the kept states, forward by replaying.
    GoToTurn(usize),
    /// Open a recording in the timeline: play from its start, paused, with all its turns
    /// ahead to step or scrub through; an input after "Play from here" goes another way.
    OpenRecording(PathBuf),
    /// Reload every loaded file of a mod ("Reload mod").
    ReloadMod(String),
    /// List a mod in the project's `mods` (or take it out) and write `project.ron`; it
    /// loads (or unloads) when the project is opened again.
    SetModEnabled {
        /// The mod.
        id: String,
        /// Listed or not.
        enabled: bool,
    },
    /// Look again for mods under the project's mod folders (the Mods pane's list).
    RescanMods,
    /// Write a new mod skeleton into the project's `mods/` folder and enable it (as
    /// `nefia new-mod` does); it loads when the project is opened again.
    NewMod(String),
    /// Complete the end of REPL input; answered with [`HostEvent::Completions`].
    Complete {
        /// Matches the answer to the request.
        id: u64,
        /// The input up to the cursor.
        text: String,
    },
    /// Set the time limit of one evaluation and the Lua heap limit (`None`: unlimited).
    SetLimits {
        /// The time limit.
        time: Option<Duration>,
        /// The memory limit, in bytes.
        memory: Option<usize>,
    },
    /// Show the lines of a loaded file around `line`; answered with [`HostEvent::Source`].
    ShowSource {
        /// The file as errors name it (`mods/elona/init.lua`).
        file: String,
        /// The line to show.
        line: u32,
    },
    /// Set a watch on an object's field ("Break when it changes"; with `becomes`, "… when
    /// it becomes" that value).
    Watch {
        /// The object.
        uid: Uid,
        /// The field.
        field: String,
        /// Stop only when the field takes this value.
        becomes: Option<crate::game::value::Value>,
    },
    /// While playing a recorded session (or looking through an opened recording): list
    /// every change of an object's field so far, by replaying the session headless ("When
    /// did this change?"); answered with [`HostEvent::Changes`].
    FindChanges {
        /// The object.
        uid: Uid,
        /// The field.
        field: String,
    },
    /// Go to a change [`HostEvent::Changes`] listed: back to the start of its turn, then
    /// replay that turn up to the write and stop there in breakpoint mode, as a watch does.
    GoToChange {
        /// The turn mark of the change's turn.
        mark: usize,
        /// Which change of that turn (from 0).
        nth: u32,
        /// The object.
        uid: Uid,
        /// The field.
        field: String,
    },
    /// A command of the generator workbench (see [`crate::host::workbench`]).
    Workbench(crate::host::workbench::WorkbenchCommand),
    /// Turn the turn profiler on or off (the Profiler pane's Record).
    SetProfiling(bool),
    /// Forget the turns profiled so far.
    ClearProfile,
    /// Remove a watch.
    Unwatch(crate::game::world::WatchId),
    /// Turn a watch on or off.
    EnableWatch {
        /// The watch.
        id: crate::game::world::WatchId,
        /// On or off.
        enabled: bool,
    },
    /// Sent by [`HostHandle::stop`](super::HostHandle::stop) after it raised the Stop flag, so that a runtime waiting
    /// in `pause()` or `query()` wakes up and notices; does nothing itself.
    Stop,
    /// Answer the recovery question (see [`crate::host::journal`]): replay the edit journal
    /// left behind by the last session (true) or delete it.
    Recover(bool),
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
            Command::Eval { .. } => "eval",
            Command::Input(_) => "input",
            Command::Select(_) => "select",
            Command::Inspect(_) => "inspect",
            Command::Edit(_) => "edit",
            Command::Maps(_) => "map files",
            Command::Undo => "undo",
            Command::Copy { .. } => "copy",
            Command::Redo => "redo",
            Command::Play(_) => "play",
            Command::StopPlay => "stop play",
            Command::PausePlay(_) => "pause play",
            Command::ListSaves => "list saves",
            Command::StepTurn => "step",
            Command::Continue => "continue",
            Command::Break => "break",
            Command::Resume => "resume",
            Command::Reload(_) => "reload",
            Command::Hotload { .. } => "hotload",
            Command::StepBack => "step back",
            Command::StepForward => "step forward",
            Command::GoToTurn(_) => "go to turn",
            Command::OpenRecording(_) => "open recording",
            Command::ReloadMod(_) => "reload mod",
            Command::SetModEnabled { .. } => "enable mod",
            Command::RescanMods => "rescan mods",
            Command::NewMod(_) => "new mod",
            Command::Complete { .. } => "complete",
            Command::SetLimits { .. } => "set limits",
            Command::ShowSource { .. } => "show source",
            Command::Watch { .. } => "watch",
            Command::FindChanges { .. } => "find changes",
            Command::GoToChange { .. } => "go to change",
            Command::Unwatch(_) => "unwatch",
            Command::SetProfiling(_) => "profile",
            Command::Workbench(command) => command.name(),
            Command::ClearProfile => "clear profile",
            Command::EnableWatch { .. } => "enable watch",
            Command::Stop => "stop",
            Command::Recover(_) => "recover",
            Command::Sync { .. } => "sync",
            Command::Shutdown => "shutdown",
        }
    }

    /// The command as the operation that changed a watched field ("inspector edit").
    pub fn operation(&self) -> String {
        match self {
            Command::Edit(_) => "an edit in the editor".into(),
            Command::Reload(path) => format!("the hotload of {}", path.display()),
            Command::Hotload { file, .. } => format!("the hotload of {file}"),
            Command::ReloadMod(id) => format!("reloading mod {id}"),
            other => other.name().into(),
        }
    }

    /// True if the command only reads the world (no checkpoint is taken before it).
    pub(super) fn reads_only(&self) -> bool {
        matches!(
            self,
            Command::Select(_)
                | Command::Inspect(_)
                | Command::Copy { .. }
                | Command::ListSaves
                | Command::Break
                | Command::PausePlay(_)
                | Command::SetLimits { .. }
                | Command::ShowSource { .. }
                | Command::Watch { .. }
                | Command::FindChanges { .. }
                | Command::SetProfiling(_)
                | Command::ClearProfile
                | Command::Unwatch(_)
                | Command::EnableWatch { .. }
                | Command::Stop
                | Command::Sync { .. }
                | Command::Shutdown
        )
    }
}

/// A map file operation (see [`crate::game::map_files`]). Failures come back as
/// [`HostEvent::Refused`]; what was done is logged.
#[derive(Clone, Debug, PartialEq)]
pub enum MapCommand {
    /// Make a new map (it becomes the current map) with no file until saved.
    New {
        /// Its name (the file stem).
        name: String,
        /// Width in cells.
        width: i32,
        /// Height in cells.
        height: i32,
        /// The tile it is filled with.
        tile: String,
    },
    /// Open a map (loading its file the first time); it becomes the current map.
    Open(String),
    /// Save a map to its file; `None` saves the current map.
    Save(Option<String>),
    /// Save every map with unsaved changes.
    SaveAll,
    /// Rename a map and its file.
    Rename {
        /// The current name.
        from: String,
        /// The new name.
        to: String,
    },
    /// Write a copy of a map under a new name.
    Duplicate {
        /// The map copied.
        from: String,
        /// The copy's name.
        to: String,
    },
    /// Delete a map (its file is kept as `.ron.bak`).
    Delete(String),
    /// Make a map the project's start map.
    SetStart(String),
}

/// Why a command was not done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
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
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Hint {
    /// Stop playing ([`Command::StopPlay`]).
    StopPlay,
    /// Let the paused game go on ([`Command::Continue`]).
    Continue,
    /// Start playing ([`Command::Play`]).
    Play,
}

/// A command that was not done: what kind of refusal, a message to show as it is, and what
/// the user can do about it.
#[derive(Clone, Debug, PartialEq, Eq)]
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
#[derive(Clone, Debug, PartialEq)]
pub enum HostEvent {
    /// `print` output, a message or a log line, in the order they happened.
    Output(Output),
    /// A command was not done; nothing changed.
    Refused(Refused),
    /// The answer to [`Command::Eval`].
    Evaluated {
        /// The request's id.
        id: u64,
        /// What came of it.
        result: Evaluation,
    },
    /// The answer to [`Command::Complete`]: whole replacements of the input.
    Completions {
        /// The request's id.
        id: u64,
        /// The completed inputs, sorted.
        candidates: Vec<String>,
    },
    /// The answer to [`Command::ShowSource`].
    Source(SourceExcerpt),
    /// The answer to [`Command::FindChanges`]: each change, oldest first.
    Changes {
        /// The object.
        uid: Uid,
        /// The field.
        field: String,
        /// The changes.
        entries: Vec<super::replay::ChangeEntry>,
    },
    /// A file was reloaded, or its reload was rejected.
    Reloaded(Reload),
    /// The answer to [`Command::Copy`].
    Copied(Arc<Clip>),
    /// The answer to [`Command::ListSaves`]: the saves, newest first, with their dates,
    /// turns, maps and players.
    Saves(Vec<crate::lua::save::SaveListing>),
    /// A command panicked; the runtime caught it (see [`PanicReport`]).
    Panicked(PanicReport),
    /// The answer to [`Command::Sync`].
    Synced {
        /// The request's id.
        id: u64,
    },
    /// The answer to [`Command::Recover`]`(true)`: what came back of the edit journal.
    Recovered(super::journal::RecoveryReport),
}
