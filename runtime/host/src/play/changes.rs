//! "When did this change?" on the play session's recording: every change of a field in the
//! session so far (its recording replayed headless with a collecting watch), and going to one
//! of them (back to its turn's start, then forward until the watch stops there).

use super::{PlayHost, PlaySession};
use crate::cx::Cx;
use nefia_game::object::Uid;
use nefia_game::symbol::Symbol;
use nefia_lua::watch;
use nefia_protocol::message::{Hint, HostEvent, RefusalKind, Refused};

impl PlaySession {
    /// Lists every change of `uid`'s `field` in the session so far, by replaying its
    /// recording headless with a collecting watch (see
    /// [`PlayCommand::FindChanges`](nefia_protocol::play::PlayCommand::FindChanges)).
    pub(crate) fn find_changes(&self, cx: &Cx, uid: Uid, field: &str) {
        let Some(recording) = self.recording_so_far(cx) else {
            cx.refuse(
                Refused::new(
                    RefusalKind::Play,
                    "When did this change? works on a recorded session: open a recording, or play",
                )
                .hinting(Hint::Play),
            );
            return;
        };
        let Some(project) = cx.runtime.project().map(|p| p.dir.clone()) else { return };
        let options =
            super::replay::ReplayOptions { changes: Some((uid, Symbol::intern(field))), ..Default::default() };
        match super::replay::replay(&project, &recording, &options) {
            Ok(report) => cx.send(HostEvent::Changes { uid, field: field.to_owned(), entries: report.changes }),
            Err(error) => {
                cx.refuse(Refused::new(RefusalKind::Play, format!("the session could not be replayed: {error}")))
            }
        }
    }

    /// Goes to change `nth` of the turn of mark `mark` (see
    /// [`PlayCommand::GoToChange`](nefia_protocol::play::PlayCommand::GoToChange)): back to that turn's
    /// start, then its inputs replay with a watch that lets `nth` changes of the field pass and
    /// stops at the next; the editor is served while it waits there.
    pub(crate) fn go_to_change(&self, cx: &Cx, host: &PlayHost, mark: usize, nth: u32, uid: Uid, field: Symbol) {
        self.go_to_mark(cx, host, mark);
        if self.stepped_back_to() != Some(mark) {
            return;
        }
        let id = {
            let mut world = cx.runtime.world_mut();
            let id =
                world.watch(uid, field, nefia_game::world::WatchWhen::Changes, nefia_game::world::WatchAction::Break);
            world.skip_watch_changes(id, nth);
            id
        };
        self.reverse.stopping_at_change.set(true);
        self.step_forward(cx, host);
        self.reverse.stopping_at_change.set(false);
        watch::unwatch(cx.runtime.lua(), id);
    }
}
