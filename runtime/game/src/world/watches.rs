//! Watchpoints on object fields: "stop when this putit's hp changes".
//!
//! A watch names an object and a field and remembers the field's value (its `calc`: the
//! temp value if set, else the base). Every change of an object's fields goes through
//! [`World::change_fields`](super::World), which — only when some watch names that object —
//! compares the watched fields with what their watches remember and queues a [`WatchHit`]
//! for each that changed. Writing a field therefore costs one test of an empty list when no
//! watch is set, and no instruction hook is ever involved.
//!
//! The world only notices; the Lua side (`runtime/lua/src/watch.rs`) takes the queued hits after the
//! operation that made them, finds the line that did, tests the watch's condition and pauses
//! or reports. A refresh clears temp values before its handlers put them back: that
//! clearing is not a change by itself, so it is not compared ([`Watches::quiet`]); each
//! handler's `mod` is compared against the value before the refresh, and whatever differs
//! at its end is a change made by the refresh.

use super::World;
use crate::object::Uid;
use crate::symbol::Symbol;
use crate::value::Value;

/// A watch's number, as `Debug.watch` returns it.
pub type WatchId = u32;

/// When a watch fires, besides the condition a Lua watch may add.
#[derive(Clone, Debug, PartialEq)]
pub enum WatchWhen {
    /// On every change.
    Changes,
    /// When the new value is this one ("Break when it becomes…").
    Becomes(Value),
}

/// What a watch does when it fires.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WatchAction {
    /// Pause at the writing line, as `pause()` does (headless: print the line and go on).
    Break,
    /// Only note the change, with its turn and line: "When did this change?" replays with
    /// one of these.
    Collect,
}

/// One watchpoint.
#[derive(Clone, Debug)]
pub struct Watch {
    /// Its number.
    pub id: WatchId,
    /// The object watched.
    pub uid: Uid,
    /// The field watched.
    pub field: Symbol,
    /// When it fires.
    pub when: WatchWhen,
    /// Whether it has a Lua condition (kept by the Lua side).
    pub has_condition: bool,
    /// What firing does.
    pub action: WatchAction,
    /// Off: it neither fires nor counts, but keeps following the value.
    pub enabled: bool,
    /// How many times it fired.
    pub hits: u32,
    /// Changes to let pass before it fires.
    skip: u32,
    /// The value it last saw.
    seen: Value,
}

/// A watched field that changed, waiting for the Lua side to report it.
#[derive(Clone, Debug, PartialEq)]
pub struct WatchHit {
    /// The watch.
    pub watch: WatchId,
    /// The object.
    pub uid: Uid,
    /// The field.
    pub field: Symbol,
    /// Its value before.
    pub old: Value,
    /// Its value now.
    pub new: Value,
}

/// The world's watches and the hits not yet reported.
#[derive(Clone, Debug, Default)]
pub struct Watches {
    list: Vec<Watch>,
    next: WatchId,
    pending: Vec<WatchHit>,
    /// Above 0 while changes are not compared (a refresh clearing temp values).
    quiet: u32,
}

impl Watches {
    /// The watches, in the order they were set.
    pub fn list(&self) -> &[Watch] {
        &self.list
    }

    /// True if no watch is set.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// The watch numbered `id`.
    pub fn get(&self, id: WatchId) -> Option<&Watch> {
        self.list.iter().find(|w| w.id == id)
    }

    /// True if changes wait to be reported.
    pub fn has_pending(&self) -> bool {
        !self.pending.is_empty()
    }

    /// True if a watch on `uid`'s `field` is set and on (for the inspector's mark).
    pub fn is_watched(&self, uid: Uid, field: Symbol) -> bool {
        self.list.iter().any(|w| w.uid == uid && w.field == field && w.enabled)
    }
}

impl World {
    /// The watches.
    pub fn watches(&self) -> &Watches {
        &self.watches
    }

    /// Sets a watch on `uid`'s `field`, which fires on the next change after this. The
    /// object need not exist yet (a replay watches an object made later in the session):
    /// its value is taken when it is made.
    pub fn watch(&mut self, uid: Uid, field: Symbol, when: WatchWhen, action: WatchAction) -> WatchId {
        let seen = self.watched_value(uid, field);
        self.watches.next += 1;
        let id = self.watches.next;
        self.watches.list.push(Watch {
            id,
            uid,
            field,
            when,
            has_condition: false,
            action,
            enabled: true,
            hits: 0,
            skip: 0,
            seen,
        });
        id
    }

    /// Lets watch `id` pass its next `changes` changes before it fires (stopping at the
    /// n-th change of a turn being replayed).
    pub fn skip_watch_changes(&mut self, id: WatchId, changes: u32) {
        if let Some(watch) = self.watches.list.iter_mut().find(|w| w.id == id) {
            watch.skip = changes;
        }
    }

    /// Marks watch `id` as having a Lua condition (the Lua side keeps the function).
    pub fn set_watch_condition(&mut self, id: WatchId) {
        if let Some(watch) = self.watches.list.iter_mut().find(|w| w.id == id) {
            watch.has_condition = true;
        }
    }

    /// Removes watch `id`; false if there is none.
    pub fn unwatch(&mut self, id: WatchId) -> bool {
        let before = self.watches.list.len();
        self.watches.list.retain(|w| w.id != id);
        self.watches.pending.retain(|h| h.watch != id);
        self.watches.list.len() != before
    }

    /// Turns watch `id` on or off; false if there is none.
    pub fn enable_watch(&mut self, id: WatchId, enabled: bool) -> bool {
        match self.watches.list.iter_mut().find(|w| w.id == id) {
            Some(watch) => {
                watch.enabled = enabled;
                true
            }
            None => false,
        }
    }

    /// Counts a hit of watch `id` (it fired: its condition, if any, held).
    pub fn count_watch_hit(&mut self, id: WatchId) {
        if let Some(watch) = self.watches.list.iter_mut().find(|w| w.id == id) {
            watch.hits += 1;
        }
    }

    /// Takes the hits waiting to be reported.
    pub fn take_watch_hits(&mut self) -> Vec<WatchHit> {
        std::mem::take(&mut self.watches.pending)
    }

    /// Runs `change` without comparing watched fields (a refresh clearing temp values).
    pub(crate) fn quietly<T>(&mut self, change: impl FnOnce(&mut World) -> T) -> T {
        self.watches.quiet += 1;
        let result = change(self);
        self.watches.quiet -= 1;
        result
    }

    /// The value a watch on `uid`'s `field` sees: its `calc`, nil if there is none (or no
    /// such object yet).
    fn watched_value(&self, uid: Uid, field: Symbol) -> Value {
        self.calc_near(super::object_store::NO_SLOT, uid, field).ok().flatten().cloned().unwrap_or_default()
    }

    /// Compares `uid`'s watched fields with what their watches saw, queueing a hit for each
    /// that changed. Called after every change of its fields, when a watch names it.
    pub fn compare_watched(&mut self, uid: Uid) {
        if self.watches.quiet > 0 || !self.watches.list.iter().any(|w| w.uid == uid) {
            return;
        }
        let mut list = std::mem::take(&mut self.watches.list);
        for watch in list.iter_mut().filter(|w| w.uid == uid) {
            let now = self.watched_value(uid, watch.field);
            if now == watch.seen {
                continue;
            }
            let old = std::mem::replace(&mut watch.seen, now.clone());
            let fires = watch.enabled
                && match &watch.when {
                    WatchWhen::Changes => true,
                    WatchWhen::Becomes(value) => *value == now,
                };
            if fires && watch.skip > 0 {
                watch.skip -= 1;
            } else if fires {
                self.watches.pending.push(WatchHit { watch: watch.id, uid, field: watch.field, old, new: now });
            }
        }
        self.watches.list = list;
    }

    /// Takes the values of the fields the watches `which` picks as seen, with no hit.
    fn see_now(&mut self, which: impl Fn(&Watch) -> bool) {
        let mut list = std::mem::take(&mut self.watches.list);
        for watch in list.iter_mut().filter(|w| which(w)) {
            watch.seen = self.watched_value(watch.uid, watch.field);
        }
        self.watches.list = list;
    }

    /// Takes the values of a new object's watched fields as seen (its uid was watched
    /// before it was made).
    pub(super) fn see_made(&mut self, uid: Uid) {
        self.see_now(|watch| watch.uid == uid);
    }

    /// Compares every watched field (after a hotload changed prototypes, or undo).
    pub fn compare_all_watched(&mut self) {
        let mut uids: Vec<Uid> = self.watches.list.iter().map(|w| w.uid).collect();
        uids.dedup();
        for uid in uids {
            self.compare_watched(uid);
        }
    }

    /// Takes every watched field's value as seen, with no hit: the world was put back or
    /// loaded, which is not a change made by anything a watch could stop at.
    pub(crate) fn watches_see_now(&mut self) {
        self.see_now(|_| true);
        self.watches.pending.clear();
    }
}
