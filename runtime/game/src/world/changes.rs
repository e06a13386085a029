//! What changed since the invariants were last checked: the objects made, moved to another
//! location, moved on their map or whose fields were written, so an invariant declared for
//! each object of a type (`each = "base.chara"`, see `runtime/lua/src/invariants.rs`) runs only on the
//! objects that changed — and, with `fields`, only where one of its fields did — instead of
//! on the whole world after every turn. The map cells objects arrived at or left and the
//! holders whose lists changed are logged too, for the engine's own bookkeeping check
//! (`world/invariants.rs`).
//!
//! The log is debugging state, not game state: kept across loads and stepping back as the
//! watches are, and off until something that checks invariants every turn turns it on. Off,
//! a change costs one test of a flag; on, one hash-map entry an object a check. Anything
//! that replaces the world wholesale (a load, a restored state) or its prototypes (a
//! hotload: what an object does not set itself comes from them) makes the next check look
//! at every object again.

use rustc_hash::{FxHashMap, FxHashSet};

use super::World;
use crate::location::Location;
use crate::map::MapId;
use crate::object::Uid;
use crate::symbol::Symbol;

/// How an object changed since the last check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Changed {
    /// Made, moved to another location, given another prototype or changed in ways the
    /// log does not follow field by field: every field counts as changed.
    Whole,
    /// These fields were written (base or temp values; `x` and `y` for a move on its map),
    /// one bit a field by [`Symbol::bit`]: two fields may share a bit, so a field may count
    /// as written when another was (a check more), never the other way round.
    Fields(u64),
}

impl Changed {
    /// True if an invariant that reads `fields` (every field when empty) must look again.
    pub fn touches(&self, fields: &[Symbol]) -> bool {
        match *self {
            Changed::Whole => true,
            Changed::Fields(written) => fields.is_empty() || fields.iter().any(|f| written & f.bit() != 0),
        }
    }
}

/// An object arriving at or leaving a map cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CellVisit {
    /// The map.
    pub map: MapId,
    /// The cell.
    pub x: i32,
    /// The cell.
    pub y: i32,
    /// The object.
    pub uid: Uid,
}

/// What changed, when the log knows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Changes {
    /// The objects, as they changed (objects since freed included).
    pub objects: FxHashMap<Uid, Changed>,
    /// The map cells objects arrived at or left, in order.
    pub cells: Vec<CellVisit>,
    /// The objects whose inventory or equipment an object arrived in or left.
    pub holders: FxHashSet<Uid>,
}

impl Changes {
    /// Forgets everything, keeping the room (a log is refilled every turn).
    fn clear(&mut self) {
        self.objects.clear();
        self.cells.clear();
        self.holders.clear();
    }
}

/// The log of changes since the last check (see the module's text).
#[derive(Clone, Debug)]
pub struct ChangeLog {
    on: bool,
    /// The log does not know: the next check looks at everything.
    everything: bool,
    logged: Changes,
    /// What the check under way looks at, if [`ChangeLog::in_check`] (see
    /// [`World::begin_check`]); its room is reused by the next turn's log.
    checked: Changes,
    in_check: bool,
    /// The data registry's revision when the log was last taken.
    data_revision: u64,
    /// The bits of `x` and `y`, which every move on a map writes.
    pub(super) position: u64,
}

impl Default for ChangeLog {
    fn default() -> ChangeLog {
        ChangeLog {
            on: false,
            everything: true,
            logged: Changes::default(),
            checked: Changes::default(),
            in_check: false,
            data_revision: 0,
            position: Symbol::intern("x").bit() | Symbol::intern("y").bit(),
        }
    }
}

impl ChangeLog {
    /// Notes that `uid`'s fields of `bits` were written (`None`: it changed as a whole).
    fn note(&mut self, uid: Uid, bits: Option<u64>) {
        if !self.on || self.everything {
            return;
        }
        let entry = self.logged.objects.entry(uid).or_insert(Changed::Fields(0));
        *entry = match (*entry, bits) {
            (Changed::Fields(written), Some(bits)) => Changed::Fields(written | bits),
            _ => Changed::Whole,
        };
    }

    /// Notes that `uid` arrived at or left `location` at (x, y).
    fn note_place(&mut self, uid: Uid, location: Location, (x, y): (i32, i32)) {
        if !self.on || self.everything {
            return;
        }
        match location {
            Location::Map(map) => self.logged.cells.push(CellVisit { map, x, y, uid }),
            Location::Inventory(owner) | Location::Equipment(owner, _) => {
                self.logged.holders.insert(owner);
            }
        }
    }
}

impl World {
    /// Turns the change log on or off (keeping its room). Turned on, the next check looks
    /// at everything.
    pub fn log_changes(&mut self, on: bool) {
        self.changes.on = on;
        self.changed_everything();
    }

    /// True while changes are logged.
    pub fn logs_changes(&self) -> bool {
        self.changes.on
    }

    /// True if the log knows what changed since it was last taken (it is on, and neither the
    /// world nor its prototypes were replaced since); it knows from here on.
    fn log_knows(&mut self) -> bool {
        let data_revision = self.data.revision();
        let log = &mut self.changes;
        let prototypes_changed = std::mem::replace(&mut log.data_revision, data_revision) != data_revision;
        let knows = log.on && !log.everything && !prototypes_changed;
        log.everything = false;
        knows
    }

    /// What changed since the log was last taken (`None`: everything is to be looked at),
    /// and starts it again from nothing.
    pub fn take_changes(&mut self) -> Option<Changes> {
        let taken = self.log_knows().then(|| std::mem::take(&mut self.changes.logged));
        self.changes.logged.clear();
        taken
    }

    /// Begins a check of the invariants: what changed since the last one is taken from the
    /// log and is what [`World::checking`] answers until [`World::end_check`].
    pub fn begin_check(&mut self) {
        let knows = self.log_knows();
        let log = &mut self.changes;
        if knows {
            std::mem::swap(&mut log.logged, &mut log.checked);
        }
        log.logged.clear();
        log.in_check = knows;
    }

    /// What the check under way looks at; `None`: everything (the log did not know, or no
    /// check is under way).
    pub fn checking(&self) -> Option<&Changes> {
        self.changes.in_check.then_some(&self.changes.checked)
    }

    /// Ends the check [`World::begin_check`] began.
    pub fn end_check(&mut self) {
        self.changes.in_check = false;
    }

    /// Notes that the world was replaced: the next check looks at everything.
    pub(crate) fn changed_everything(&mut self) {
        self.changes.everything = true;
        self.changes.logged.clear();
    }

    /// Notes that `uid`'s `field` changed (every field when `None`).
    pub(crate) fn changed_field(&mut self, uid: Uid, field: Option<Symbol>) {
        self.changes.note(uid, field.map(Symbol::bit));
    }

    /// Notes that `uid` moved on its map (if it is on one) from `from` to `to`.
    pub(crate) fn changed_position(&mut self, uid: Uid, map: Option<MapId>, from: (i32, i32), to: (i32, i32)) {
        let position = self.changes.position;
        self.changes.note(uid, Some(position));
        if let Some(map) = map {
            self.changes.note_place(uid, Location::Map(map), from);
            self.changes.note_place(uid, Location::Map(map), to);
        }
    }

    /// Notes that `uid` arrived at or left `location` at `position`: the whole object
    /// changed, and the cell or the holder's list did.
    pub(crate) fn changed_place(&mut self, uid: Uid, location: Location, position: (i32, i32)) {
        self.changes.note(uid, None);
        self.changes.note_place(uid, location, position);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log() -> ChangeLog {
        ChangeLog { on: true, everything: false, ..ChangeLog::default() }
    }

    #[test]
    fn fields_gather_and_a_whole_change_covers_them() {
        let hp = Symbol::intern("hp");
        // A field whose bit is not hp's.
        let other = (0..).map(|n| Symbol::intern(&format!("field_{n}"))).find(|f| f.bit() != hp.bit()).unwrap();
        let mut log = log();
        log.note(Uid(1), Some(hp.bit()));
        log.note(Uid(1), Some(hp.bit()));
        log.note(Uid(2), Some(other.bit()));
        let objects = &log.logged.objects;
        assert_eq!(objects[&Uid(1)], Changed::Fields(hp.bit()));
        assert!(objects[&Uid(1)].touches(&[hp]) && !objects[&Uid(1)].touches(&[other]));
        assert!(objects[&Uid(2)].touches(&[]), "no fields named: any change");
        log.note(Uid(2), None);
        assert_eq!(log.logged.objects[&Uid(2)], Changed::Whole);
        log.note(Uid(2), Some(hp.bit()));
        assert!(log.logged.objects[&Uid(2)].touches(&[hp]));
    }

    #[test]
    fn off_or_after_a_replacement_nothing_is_kept() {
        let mut log = ChangeLog::default();
        log.note(Uid(1), None);
        assert!(log.logged.objects.is_empty(), "off");
        log.on = true;
        log.note(Uid(1), None);
        assert!(log.logged.objects.is_empty(), "everything is to be looked at anyway");
    }
}
