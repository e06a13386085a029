//! The host's side of debugging: watches set from the editor, the changes a command made to
//! watched fields by routes no Lua line took, "When did this change?" (a replay of the
//! session, then going back to one change) and the turn profiler's switch.

use super::{Command, Hint, Host, HostEvent, RefusalKind};
use crate::game::display::LogLevel;
use crate::game::object::Uid;
use crate::game::symbol::Symbol;
use crate::lua::{gui, watch};

impl Host {
    /// Handles the debugging commands: watches, changes, the profiler.
    pub(super) fn debugging(&self, command: Command) {
        let lua = self.runtime.lua();
        match command {
            Command::Watch { uid, field, becomes } => {
                if let Err(error) = watch::watch_from_editor(lua, uid, Symbol::intern(&field), becomes) {
                    self.refuse(RefusalKind::Edit, format!("cannot watch {field}: {error}"));
                }
            }
            Command::Unwatch(id) => {
                if !watch::unwatch(lua, id) {
                    self.refuse(RefusalKind::NothingToDo, format!("there is no watch {id}"));
                }
            }
            Command::EnableWatch { id, enabled } => {
                if !self.runtime.world_mut().enable_watch(id, enabled) {
                    self.refuse(RefusalKind::NothingToDo, format!("there is no watch {id}"));
                }
            }
            Command::FindChanges { uid, field } => self.find_changes(uid, &field),
            Command::GoToChange { mark, nth, uid, field } => self.go_to_change(mark, nth, uid, Symbol::intern(&field)),
            Command::SetProfiling(on) => {
                let turn = self.runtime.world().turn;
                self.runtime.engine().profiler.set_on(on, turn);
            }
            Command::ClearProfile => self.runtime.engine().profiler.clear(),
            other => self.refuse(RefusalKind::NothingToDo, format!("'{}' is not a debugging command", other.name())),
        }
    }

    /// Reports what the command changed in watched fields by routes no Lua line took (an
    /// edit, undo, a prototype reloaded): each watch compares its field again, and what
    /// changed is delivered as made by `operation`.
    pub(super) fn deliver_watches(&self, operation: &str) {
        if self.runtime.world().watches().is_empty() {
            return;
        }
        self.runtime.world_mut().compare_all_watched();
        let lua = self.runtime.lua();
        if let Err(error) = watch::deliver(lua, watch::Writer::Rust(operation)) {
            gui::log(lua, LogLevel::Error, format!("a watch could not pause: {error}"));
        }
    }

    /// Lists every change of `uid`'s `field` in the session so far, by replaying its
    /// recording headless with a collecting watch (see [`Command::FindChanges`]).
    pub(super) fn find_changes(&self, uid: Uid, field: &str) {
        let Some(recording) = self.recording_so_far() else {
            self.refuse_hinting(
                RefusalKind::Play,
                "When did this change? works on a recorded session: open a recording, or play",
                Hint::Play,
            );
            return;
        };
        let Some(project) = self.runtime.project().map(|p| p.dir.clone()) else { return };
        let options =
            super::replay::ReplayOptions { changes: Some((uid, Symbol::intern(field))), ..Default::default() };
        match super::replay::replay(&project, &recording, &options) {
            Ok(report) => self.send(HostEvent::Changes { uid, field: field.to_owned(), entries: report.changes }),
            Err(error) => self.refuse(RefusalKind::Play, format!("the session could not be replayed: {error}")),
        }
    }

    /// Goes to change `nth` of the turn of mark `mark` (see [`Command::GoToChange`]): back to
    /// that turn's start, then its inputs replay with a watch that lets `nth` changes of the
    /// field pass and stops at the next; the editor is served while it waits there.
    pub(super) fn go_to_change(&self, mark: usize, nth: u32, uid: Uid, field: Symbol) {
        self.go_to_mark(mark);
        if self.stepped_back_to() != Some(mark) {
            return;
        }
        let id = {
            let mut world = self.runtime.world_mut();
            let id =
                world.watch(uid, field, crate::game::world::WatchWhen::Changes, crate::game::world::WatchAction::Break);
            world.skip_watch_changes(id, nth);
            id
        };
        self.stopping_at_change.set(true);
        self.step_forward();
        self.stopping_at_change.set(false);
        watch::unwatch(self.runtime.lua(), id);
    }
}
