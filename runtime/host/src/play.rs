//! Play mode: the game runs from the edit state, which is set aside and put back exactly on
//! Stop — nothing done while playing leaks into the maps or the project.
//!
//! The edit state is a [`WorldState`] (objects, maps, clock, turn, random numbers) with every
//! mod's `save` table and the unsaved marks of the project's maps. A new game places the
//! project's player prototype on the start map (at its entrance) or wherever "play from
//! here" says; a saved game replaces the world. Prototypes and handlers hotloaded while
//! playing stay: they are code, not state.

//!
//! Play is a component of the host: it owns its state ([`PlaySession`]: the edit state set
//! aside, the recorder, stepping back through turns and through Lua) and takes its own
//! commands ([`PlayCommand`](nefia_protocol::play::PlayCommand), handled in `session.rs`; the debugging commands that replay the
//! session come to it from the spine). A replay runs recorded inputs through the spine, the
//! one callback ([`Spine`]); what else it needs of the rest of the host the spine lends it by
//! name (the debugging component's error screen and break request, with the spine in
//! [`PlayHost`]; the workbench at Play), and what the others must do it returns as
//! [`PlayEffects`] (the undo history aside at Play and back at Stop, the Stop flag, the error
//! screen).

use std::cell::{Cell, RefCell};
use std::collections::BTreeMap;
use std::path::PathBuf;

use crate::debugging::stops::Stops;
use nefia_game::map_files::MapFiles;
use nefia_game::value::Value;
use nefia_game::world::{WorldError, WorldState};
use nefia_lua::runtime::{Runtime, RuntimeError};
use nefia_lua::save::{restore_save_tables, save_tables};

mod changes;
pub(crate) mod headless;
pub mod recorder;
pub mod replay;
mod reverse;
mod session;

use nefia_protocol::play::PlayFrom;

/// The play subsystem's state on the host: the session while playing, and its recording.
#[derive(Default)]
pub(super) struct PlaySession {
    /// The edit state set aside while playing (none: editing).
    edit: RefCell<Option<EditState>>,
    /// The game is paused (while playing).
    paused: Cell<bool>,
    /// Stop play was asked for while Lua code waited; it happens once the code unwound.
    stop_pending: Cell<bool>,
    /// Where play sessions are recorded (None: they are not; a replay records nothing).
    recordings: Option<PathBuf>,
    /// Where a bug report goes when the error screen appears (see `recorder/report.rs`).
    reports: Option<PathBuf>,
    /// The session being recorded, while playing (see [`recorder`]).
    recorder: RefCell<Option<recorder::Recorder>>,
    /// Commands come from the session log's recorded inputs, not the editor.
    replaying: Cell<bool>,
    /// The turn mark a Go to turn is replaying to (a launched recording's last): where the
    /// game goes on to after a step back into one of the turns on the way.
    going_to: Cell<Option<usize>>,
    /// Stepping back through Lua (see [`reverse`]).
    reverse: reverse::Reverse,
    /// A fuzzed game's player: asked for every command, top-level or answering a wait (see
    /// [`crate::fuzz`]).
    pub(crate) player: RefCell<Option<FuzzPlayer>>,
}

/// The one callback play makes into the spine (`runtime/host/src/lib.rs` implements it for
/// `Host`). A replay runs recorded inputs through the whole spine one at a time, with play's
/// own work between them (a kept state put back, the next turn's inputs taken, a break
/// answered), so it cannot be an effect returned at the end.
pub(crate) trait Spine {
    /// Runs `command` through the spine as if it came from the editor (a replayed input): under
    /// the limits, recorded, journaled, with its watches and breakpoints as the original ran.
    fn handle(&self, command: nefia_protocol::message::Command);
}

/// What play is lent while it replays recorded inputs (the spine builds it in
/// `runtime/host/src/lib.rs`).
pub(crate) struct PlayHost<'a> {
    /// Runs each replayed input.
    pub(crate) spine: &'a dyn Spine,
    /// The debugging component's error screen and break request: a kept state put back or a
    /// step back begun clears them, between replayed inputs that may set them again.
    pub(crate) stops: &'a Stops,
}

/// What play asks of the rest of the host once it returns, which the spine applies.
#[must_use = "the spine applies what play asks"]
#[derive(Default)]
pub(crate) struct PlayEffects {
    /// Play began: the editor's undo history goes aside with the edit state (edits made while
    /// playing are undone with the play, not one by one).
    pub(crate) began: bool,
    /// Play ended: the undo history set aside at Play comes back (the play's goes with the
    /// played world: its pins were in that world).
    pub(crate) ended: bool,
    /// Where the session that ended was recorded, if it was.
    pub(crate) recorded: Option<PathBuf>,
    /// Stop came while Lua code waits in a menu or at a breakpoint: the code is asked to unwind
    /// (the Stop flag); play ends once it has.
    pub(crate) stop: bool,
    /// An error in handling input (a UI layer's, a key's handlers) or in Step: the game stops
    /// on the error screen, unless play is being stopped or unwound under the code.
    pub(crate) failed: Option<nefia_protocol::failure::GameError>,
}

impl PlaySession {
    /// A play subsystem that records its sessions into folder `recordings` (none: it does not)
    /// and writes a bug report into folder `reports` when the error screen appears.
    pub(crate) fn new(recordings: Option<PathBuf>, reports: Option<PathBuf>) -> PlaySession {
        PlaySession { recordings, reports, ..Default::default() }
    }

    /// True while the game is played (the edit state is set aside).
    pub(crate) fn playing(&self) -> bool {
        self.edit.borrow().is_some()
    }

    /// The edit state set aside while playing (the maps subsystem reads its maps' files).
    pub(crate) fn set_aside(&self) -> &RefCell<Option<EditState>> {
        &self.edit
    }

    /// True while a session is recorded.
    pub(crate) fn recording(&self) -> bool {
        self.recorder.borrow().is_some()
    }

    /// True while commands come from the recorded inputs being replayed.
    pub(crate) fn replaying(&self) -> bool {
        self.replaying.get()
    }

    /// The recorded inputs ran out inside a menu: the player goes on from there.
    pub(crate) fn stop_replaying(&self) {
        self.replaying.set(false);
    }

    /// True while the running code is being unwound, not failing: play was stopped under it,
    /// or a step back unwinds it to replay it.
    pub(crate) fn unwinding(&self) -> bool {
        self.stop_pending.get() || self.reverse.rewinding()
    }
}

/// A fuzzed game's player: given the host, the next command.
pub(crate) type FuzzPlayer = Box<dyn FnMut(&crate::Host) -> nefia_protocol::message::Command>;

/// The edit state set aside while playing.
pub struct EditState {
    world: WorldState,
    save: BTreeMap<String, Value>,
    /// Which project maps were open (maps opened while playing close again).
    files: MapFiles,
    /// The project maps that had no unsaved changes.
    clean: Vec<String>,
}

impl EditState {
    /// Takes in what the project's `maps/` holds now, for when play stops (see
    /// [`MapFiles::rescan`]).
    pub fn rescan_maps(&mut self, project: &nefia_game::project::Project) -> nefia_game::map_files::Rescanned {
        self.files.rescan(project)
    }

    /// True if project map `name` had unsaved changes when play began.
    pub fn was_dirty(&self, name: &str) -> bool {
        !self.clean.iter().any(|n| n == name)
    }
}

impl EditState {
    /// Sets the edit state aside and starts playing `from`. On error the edit state is put
    /// back and nothing changed.
    pub fn begin(runtime: &Runtime, from: PlayFrom) -> Result<EditState, RuntimeError> {
        let engine = runtime.engine();
        let clean = {
            let world = engine.world();
            let files = engine.map_files();
            let dirty = files.dirty(&world);
            files.names().filter(|name| !dirty.iter().any(|d| d == name)).map(str::to_owned).collect()
        };
        let edit = EditState {
            world: engine.world().copy_state(),
            save: save_tables(runtime.lua())?,
            files: engine.map_files().clone(),
            clean,
        };
        if matches!(from, PlayFrom::Start | PlayFrom::Here { .. } | PlayFrom::Map(_)) {
            // A new game gets a seed of its own (or the one asked for); the generator's state
            // is saved with it.
            engine.world_mut().rng = match engine.take_next_seed() {
                Some(seed) => fastrand::Rng::with_seed(seed),
                None => fastrand::Rng::new(),
            };
        }
        let started = match from {
            PlayFrom::Start => match runtime.open_start_map()? {
                Some(map) => runtime.place_player(map, None),
                None => Err(WorldError::NoStartMap.into()),
            },
            PlayFrom::Here { map, x, y } => runtime.place_player(map, Some((x, y))),
            PlayFrom::Map(map) => runtime.place_player(map, None),
            PlayFrom::Save(name) => runtime.load_game(&name).map(|_| ()),
            PlayFrom::Recorded(start) => {
                let loaded =
                    nefia_lua::save::load_record(runtime.lua(), &start).map(|_| ()).map_err(|refused| match refused {
                        nefia_lua::save::LoadRefused::World(error) => error.into(),
                        nefia_lua::save::LoadRefused::Lua(error) => error.into(),
                    });
                // A recording plays in the language it was made in.
                match (&start.language, loaded) {
                    (Some(language), Ok(())) => {
                        nefia_lua::i18n::switch_language(runtime.lua(), language).map_err(Into::into)
                    }
                    (_, loaded) => loaded,
                }
            }
        };
        match started {
            Ok(()) => Ok(edit),
            Err(error) => {
                edit.restore(runtime)?;
                Err(error)
            }
        }
    }

    /// Puts the edit state back exactly as it was when play began.
    pub fn restore(self, runtime: &Runtime) -> Result<(), RuntimeError> {
        let (engine, edit) = (runtime.engine(), self);
        engine.world_mut().restore_state(edit.world);
        restore_save_tables(runtime.lua(), &edit.save).map_err(nefia_lua::error::failure)?;
        let world = engine.world();
        let mut files = engine.map_files_mut();
        *files = edit.files;
        for name in &edit.clean {
            files.mark_saved(&world, name);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nefia_game::map::MapId;

    #[test]
    fn a_map_with_no_file_is_described_as_unsaved() {
        let maps = MapFiles::default();
        assert_eq!(PlayFrom::Map(MapId(7)).describe(&maps), "an unsaved map at its entrance");
        assert_eq!(PlayFrom::Here { map: MapId(7), x: 3, y: 4 }.describe(&maps), "an unsaved map at (3, 4)");
    }
}
