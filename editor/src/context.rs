//! The editor's context: the state the panes share (the latest snapshot, the selection, the
//! viewport's camera and the level editor's tool, the commands queued for the runtime) and the
//! requests they make of the app. Panes borrow it in their `ui` functions, next to their own
//! state ([`crate::panes::PaneStates`]), and never reach the app itself (rerun's
//! `ViewerContext` is the model): the app depends on the panes and the context, the panes on
//! the context, and the context on neither (of the editor it names only `links` and `render`;
//! the gestures on its data live in [`crate::tools`] and the panes).

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use nefia_game::Uid;
use nefia_game::map::MapId;
use nefia_protocol::debugging::ReplCommand;
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::maps::MapCommand;
use nefia_protocol::message::Command;
use nefia_protocol::view::Snapshot;

use crate::links::{LinkAction, OnMap};
pub use locale_files::LocaleFiles;
pub(crate) use locale_files::{LocaleCache, loaded_mods};

mod art_layers;
mod level;
mod locale_files;
mod tab;
mod viewport;

pub use art_layers::ArtLayersState;
pub(crate) use level::Drag;
pub use level::{LevelState, Region, Tool};
pub use tab::Tab;
pub use viewport::{Timeline, ViewportState};

/// Something a pane asks the app to do after the frame.
#[derive(Clone, Debug, PartialEq)]
pub enum AppRequest {
    /// Close the open project and open the one in this folder.
    OpenProject(PathBuf),
    /// Bring a pane to the front, opening it if it was closed.
    OpenTab(Tab),
    /// Open an inspector pinned to this object.
    Pin(Uid),
    /// Interrupt the running script (the runtime thread is the app's).
    StopScript,
    /// Close the window (unsaved maps have been saved or discarded).
    Quit,
    /// Show prototype `id` of `data_type` in the Data pane.
    ShowPrototype {
        /// The data type, such as `base.autotile_rule_set`.
        data_type: String,
        /// The prototype's id.
        id: String,
    },
    /// Put a warning in the Log (a problem the pane found that is not the user's doing now,
    /// such as an image that would not load).
    Warn(String),
}

/// What the panes share: each pane's `ui` function borrows it, with its own state. What only the app can do
/// (open a project, bring a tab to the front, pin an inspector, stop a script) the panes ask
/// for with an [`AppRequest`].
pub struct EditorContext {
    /// The latest snapshot of the game.
    pub snapshot: Arc<Snapshot>,
    /// The viewport's camera, toggles and caches.
    pub viewport: ViewportState,
    /// The level editor's tool, brush, palette choices and clipboard.
    pub level: LevelState,
    /// An object to show in the Locations pane.
    pub reveal: Option<Uid>,
    /// The last refusal or error of an edit, and when it came.
    pub notice: Option<(String, Instant)>,
    /// Commands the panes queued this frame, sent after it.
    pub outbox: Vec<Command>,
    /// The selected objects. The editor's own copy, so clicks act on what the user sees
    /// even before the runtime (which keeps it for `Editor.selection()`) has caught up.
    pub selection: Vec<Uid>,
    /// The snapshot's count of selections made by scripts, as last seen: when it grows
    /// (`Editor.select` from Lua) the editor takes the runtime's selection. Otherwise the
    /// runtime's selection is only the echo of the editor's own clicks, possibly behind.
    pub(crate) selections_by_script: u64,
    /// The objects the runtime was last asked to inspect.
    pub(crate) inspecting: Vec<Uid>,
    /// The cell the Select tool last clicked, whose tile the Inspector explains.
    pub(crate) inspected_cell: Option<(MapId, i32, i32)>,
    /// True while the runtime is busy with a command (Stop is offered).
    pub busy: bool,
    /// What the panes asked the app to do this frame, done after it.
    pub requests: Vec<AppRequest>,
    /// The open project's folder.
    pub project: PathBuf,
    /// A save waiting for the user to confirm it (maps with merge conflicts, named): see
    /// [`crate::conflicts::save`].
    pub pending_save: Option<(MapCommand, Vec<String>)>,
    /// What came of recovering the last session's edits, shown until it is read.
    pub recovery_report: Option<nefia_protocol::editing::RecoveryReport>,
    /// A [`LinkAction::ShowOnMap`] waiting for its map to be shown.
    pub(crate) showing: Option<Showing>,
    /// The loaded mods' locale files as last read (the Locale pane's and the Data pane's).
    pub(crate) locale: LocaleCache,
}

/// A place on a map a link asked for, shown and selected once the map is current.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Showing {
    map: String,
    x: i32,
    y: i32,
    select: OnMap,
}

impl EditorContext {
    /// The state of an editor on the project in `project`, showing `snapshot`.
    pub fn new(project: PathBuf, snapshot: Arc<Snapshot>) -> EditorContext {
        EditorContext {
            snapshot,
            viewport: ViewportState::default(),
            level: LevelState::default(),
            reveal: None,
            notice: None,
            outbox: Vec::new(),
            selection: Vec::new(),
            selections_by_script: 0,
            inspecting: Vec::new(),
            inspected_cell: None,
            busy: false,
            requests: Vec::new(),
            project,
            pending_save: None,
            recovery_report: None,
            showing: None,
            locale: LocaleCache::default(),
        }
    }

    /// Makes (x, y) of `map` the cell the Inspector explains, and tells the runtime.
    pub fn inspect_cell(&mut self, cell: Option<(MapId, i32, i32)>) {
        if self.inspected_cell != cell {
            self.inspected_cell = cell;
            self.outbox.push(Command::Editing(EditingCommand::InspectCell(cell)));
        }
    }

    /// Selects `uids`, and tells the runtime.
    pub fn select(&mut self, uids: Vec<Uid>) {
        self.selection = uids.clone();
        self.outbox.push(Command::Editing(EditingCommand::Select(uids)));
    }

    /// Selects `uid` and brings it into view: the viewport pans to it (or to whoever holds
    /// it) if it is on the current map and out of sight.
    pub fn select_and_show(&mut self, uid: Uid) {
        self.select(vec![uid]);
        self.viewport.pan_to = Some(uid);
    }

    /// Does what a clicked link asks: inspect an object, or show source lines.
    pub fn follow(&mut self, action: LinkAction) {
        match action {
            LinkAction::Inspect(uid) => {
                self.select_and_show(uid);
                self.requests.push(AppRequest::OpenTab(Tab::Inspector));
            }
            LinkAction::ShowSource(file, line) => {
                self.outbox.push(Command::Repl(ReplCommand::ShowSource { file, line }))
            }
            LinkAction::ShowOnMap { map, x, y, select } => {
                if self.current_map_file().is_none_or(|(name, _)| name != map) {
                    self.outbox.push(Command::Maps(MapCommand::Open(map.clone())));
                }
                self.showing = Some(Showing { map, x, y, select });
                self.show_arrived();
            }
        }
    }

    /// The current map's file name and id, if it is a project map.
    fn current_map_file(&self) -> Option<(&str, MapId)> {
        let file = self.snapshot.maps.files.iter().find(|m| m.current)?;
        Some((file.name.as_str(), file.map?))
    }

    /// Finishes a [`LinkAction::ShowOnMap`] once its map is the current one (the app calls
    /// this on each new snapshot): the cell comes into view and what the link names there is
    /// selected and inspected.
    pub fn show_arrived(&mut self) {
        let Some(showing) = &self.showing else { return };
        let Some(map) = self.current_map_file().filter(|(name, _)| *name == showing.map).map(|(_, map)| map) else {
            return;
        };
        let Some(Showing { x, y, select, .. }) = self.showing.take() else { return };
        self.viewport.reveal_cell = Some((x, y));
        let made_from = |id: &str| {
            let node = self.snapshot.locations.maps.iter().find(|node| node.id == map)?;
            let row = node.objects.iter().rev().find(|row| (row.x, row.y) == (x, y) && row.id.as_str() == id)?;
            Some(row.uid)
        };
        let uid = match &select {
            OnMap::Object(uid) => Some(*uid),
            OnMap::MadeFrom(id) => made_from(id),
            OnMap::Cell => None,
        };
        match uid {
            Some(uid) => self.follow(LinkAction::Inspect(uid)),
            None => {
                self.inspect_cell(Some((map, x, y)));
                self.requests.push(AppRequest::OpenTab(Tab::Inspector));
            }
        }
    }
}
