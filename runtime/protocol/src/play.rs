//! The play subsystem's part of the protocol: its commands ([`PlayCommand`]), where play
//! starts ([`PlayFrom`]), its part of the snapshot ([`PlayView`]) and the changes "When did
//! this change?" finds ([`ChangeEntry`]). A leaf: the protocol and
//! the snapshot name these, and they name nothing of the host's handlers.

use std::path::PathBuf;

use crate::journal_kind::JournalKind;
use nefia_game::map::MapId;
use nefia_game::map_files::MapFiles;
use nefia_game::object::Uid;

/// What the play subsystem is asked to do.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub enum PlayCommand {
    /// Start playing: the edit state is set aside until [`PlayCommand::Stop`].
    Start(PlayFrom),
    /// Stop playing: the edit state comes back exactly.
    Stop,
    /// Pause or unpause the game while playing: paused, it takes no keys.
    Pause(bool),
    /// List the saved games; answered with [`crate::message::HostEvent::Saves`] (the player
    /// window's Load game).
    ListSaves,
    /// Save the game and stop playing (the player window's "Save and quit"): saved under the
    /// name of the save last written or loaded, else `quicksave`, then stopped as by
    /// [`PlayCommand::Stop`], only once saved (a save refused is answered with a refusal saying
    /// why, and play goes on).
    SaveAndStop,
    /// Let one turn pass with the player waiting (`base.on_wait_turn`), paused or not.
    StepTurn,
    /// While playing, go back to the start of the previous turn (see `runtime/host/src/play/recorder.rs`).
    StepBack,
    /// After stepping back, replay the next recorded turn.
    StepForward,
    /// Go to the start of the session's turn mark N (the timeline's scrubber): back through
    /// the kept states, forward by replaying.
    GoToTurn(usize),
    /// Open a recording in the timeline: play from its start, paused, with all its turns
    /// ahead to step or scrub through; an input after "Play from here" goes another way.
    OpenRecording(PathBuf),
    /// From a break while playing a recorded session, go back: to the line before, or to the
    /// previous breakpoint hit, by replaying the command from its turn's kept state.
    StepBackInCode(ReverseKind),
    /// While playing a recorded session (or looking through an opened recording): list
    /// every change of an object's field so far, by replaying the session headless ("When
    /// did this change?"); answered with [`HostEvent::Changes`](crate::message::HostEvent::Changes).
    FindChanges {
        /// The object.
        uid: Uid,
        /// The field.
        field: String,
    },
    /// Go to a change [`HostEvent::Changes`](crate::message::HostEvent::Changes) listed: back to the
    /// start of its turn, then replay that turn up to the write and stop there in breakpoint mode,
    /// as a watch does.
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
}

impl PlayCommand {
    /// The command's name in messages ("a panic in step back").
    pub fn name(&self) -> &'static str {
        match self {
            PlayCommand::Start(_) => "play",
            PlayCommand::Stop => "stop play",
            PlayCommand::Pause(_) => "pause play",
            PlayCommand::ListSaves => "list saves",
            PlayCommand::SaveAndStop => "save and stop",
            PlayCommand::StepTurn => "step",
            PlayCommand::StepBack => "step back",
            PlayCommand::StepForward => "step forward",
            PlayCommand::GoToTurn(_) => "go to turn",
            PlayCommand::OpenRecording(_) => "open recording",
            PlayCommand::StepBackInCode(_) => "step back",
            PlayCommand::FindChanges { .. } => "find changes",
            PlayCommand::GoToChange { .. } => "go to change",
        }
    }

    /// True if the command only reads the world (no checkpoint is taken before it).
    pub fn reads_only(&self) -> bool {
        matches!(self, PlayCommand::ListSaves | PlayCommand::Pause(_) | PlayCommand::FindChanges { .. })
    }

    /// What the command is to the edit journal: stopping play takes a new base (the uid
    /// counters went on past what a replay would reach).
    pub fn journal_kind(&self) -> JournalKind {
        if matches!(self, PlayCommand::Stop) { JournalKind::Rebase } else { JournalKind::Other }
    }

    /// The input a recorded session keeps of the command: a turn waited.
    pub fn recorded_input(&self) -> Option<nefia_game::recording::Input> {
        matches!(self, PlayCommand::StepTurn).then_some(nefia_game::recording::Input::Wait)
    }
}

/// The play subsystem's part of the snapshot.
#[derive(serde::Serialize, serde::Deserialize, Clone, Copy, Debug, Default, PartialEq)]
pub struct PlayView {
    /// The game is being played (the edit state is set aside).
    pub playing: bool,
    /// The game is paused (while playing).
    pub paused: bool,
    /// Where the session is in its recording (how far one can step back and forward).
    pub recording: Option<RecordingPosition>,
}

/// Where play starts.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub enum PlayFrom {
    /// A new game on the project's start map, at its entrance.
    Start,
    /// A new game on `map` with the player at (x, y) ("play from here").
    Here {
        /// The map.
        map: MapId,
        /// Column.
        x: i32,
        /// Row.
        y: i32,
    },
    /// A new game on `map` at its entrance, or on a random open cell (the workbench's "Play
    /// this" on its preview).
    Map(MapId),
    /// A saved game, by name.
    Save(String),
    /// The state a recording began from (a replay).
    Recorded(Box<nefia_game::save::SaveGame>),
}

impl PlayFrom {
    /// How play began, in words a recording keeps: "the start map", "map town at (3, 4)",
    /// "an unsaved map at its entrance" (the workbench's preview), "save quick".
    pub fn describe(&self, maps: &MapFiles) -> String {
        let map_named = |map: &MapId| match maps.name_of(*map) {
            Some(name) => format!("map {name}"),
            None => "an unsaved map".to_owned(),
        };
        match self {
            PlayFrom::Start => "the start map".to_owned(),
            PlayFrom::Here { map, x, y } => format!("{} at ({x}, {y})", map_named(map)),
            PlayFrom::Map(map) => format!("{} at its entrance", map_named(map)),
            PlayFrom::Save(name) => format!("save {name}"),
            PlayFrom::Recorded(_) => "a recording's start".to_owned(),
        }
    }
}

/// Where to step back to.
#[derive(serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReverseKind {
    /// The line of a file with breakpoints that ran before the break's (DAP's stepBack).
    Line,
    /// The previous breakpoint hit before the break (DAP's reverseContinue); the break's own
    /// position if there is none earlier in the session.
    Breakpoint,
}

/// Where a session is in its recording, for the play controls and the timeline.
#[derive(serde::Serialize, serde::Deserialize, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RecordingPosition {
    /// The turn mark the game is at (the last one while playing on).
    pub at: usize,
    /// The oldest turn mark that can be gone back to.
    pub oldest: usize,
    /// The game turn of each end: the oldest mark's and the newest's.
    pub turn_range: (u64, u64),
    /// The session is a recording opened in the timeline (not yet gone another way).
    pub opened: bool,
    /// About how many bytes stepping back keeps: the states kept and the inputs.
    pub kept_bytes: usize,
    /// How many turns back one can step from here (not counting the start of this turn).
    pub back: usize,
    /// The game changed since its turn began (an edit, code run): stepping back goes to the
    /// start of this turn first.
    #[serde(default)]
    pub changed: bool,
    /// How many recorded turns are ahead (after stepping back).
    pub forward: usize,
    /// The number of turns recorded.
    pub turns: usize,
}

impl RecordingPosition {
    /// True if stepping back goes somewhere: to an older turn, or to the start of this one.
    pub fn can_step_back(&self) -> bool {
        self.back > 0 || self.changed
    }
}

/// A change of the field a replay was asked about, with the turn mark it came after.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct ChangeEntry {
    /// The index of the turn mark at whose turn the change was made (where stepping back
    /// to it goes).
    pub mark: usize,
    /// Which change of that turn it is, from 0 (a turn may change a field several times).
    pub nth: u32,
    /// The change.
    pub change: crate::watch::FieldChange,
}

impl std::fmt::Display for ChangeEntry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let c = &self.change;
        write!(f, "turn {}: {} {} → {} at {}", c.turn, c.field, c.old, c.new, c.at)
    }
}
