//! Edits made in the editor, with exact undo and redo.
//!
//! Every [`Edit`] is applied by recording the state it touches before and after: a field's own
//! base entry and temp value, an object's temp values, or where an object is. Undo puts the
//! "before" states back and redo the "after" states, so undoing is exact — a removed object
//! comes back with the same uid at the same place — and needs no inverse operation per kind of
//! edit. Objects a history entry refers to are pinned so they stay alive while it can be
//! undone or redone. Edits made by scripts are not recorded.

use std::collections::VecDeque;

use mlua::Lua;

use crate::location::{Holder, Location};
use crate::moddable::{FieldMap, ModMethod, Origin, TempValue};
use crate::object::{ObjectKind, Uid};
use crate::symbol::Symbol;
use crate::value::Value;
use crate::world::{World, WorldError};

/// Most entries the history keeps.
const MAX_HISTORY: usize = 200;

/// An edit the editor makes.
#[derive(Clone, Debug, PartialEq)]
pub enum Edit {
    /// Set a base value (`mod_base(field, value)`); nil makes the field nil.
    SetBase {
        /// The objects.
        uids: Vec<Uid>,
        /// The field.
        field: String,
        /// The new base value.
        value: Value,
    },
    /// Forget the objects' own base value so the prototype's shows again.
    ResetToPrototype {
        /// The objects.
        uids: Vec<Uid>,
        /// The field.
        field: String,
    },
    /// Modify a temp value (`mod(field, value, method)`); nil removes it.
    ModTemp {
        /// The objects.
        uids: Vec<Uid>,
        /// The field.
        field: String,
        /// The value.
        value: Value,
        /// How it combines with the current value.
        method: ModMethod,
    },
    /// `refresh()`: clear temp values and let the handlers re-apply theirs.
    Refresh {
        /// The objects.
        uids: Vec<Uid>,
    },
    /// `take_object` into a location.
    Move {
        /// The objects.
        uids: Vec<Uid>,
        /// Where to.
        to: Holder,
        /// Column (maps only).
        x: i32,
        /// Row (maps only).
        y: i32,
    },
    /// `remove_ownership()`.
    Remove {
        /// The objects.
        uids: Vec<Uid>,
    },
    /// `clone()`, placing each copy where its original is.
    Clone {
        /// The originals.
        uids: Vec<Uid>,
    },
    /// Make a new object from a prototype and place it.
    Create {
        /// Its kind.
        kind: ObjectKind,
        /// Its prototype id.
        id: String,
        /// Where.
        to: Holder,
        /// Column (maps only).
        x: i32,
        /// Row (maps only).
        y: i32,
    },
}

/// The state of one thing an edit touched.
#[derive(Clone, Debug)]
enum Change {
    /// A field's own base entry (None: the prototype's shows) and temp value.
    Field { uid: Uid, field: Symbol, own: Option<Value>, temp: Option<TempValue> },
    /// Every temp value of an object.
    Temps { uid: Uid, temps: FieldMap<TempValue> },
    /// Where an object is (None: ownerless).
    Place { uid: Uid, location: Option<Location>, x: i32, y: i32 },
}

impl Change {
    fn uid(&self) -> Uid {
        match self {
            Change::Field { uid, .. } | Change::Temps { uid, .. } | Change::Place { uid, .. } => *uid,
        }
    }
}

/// One undoable edit.
struct Entry {
    label: String,
    before: Vec<Change>,
    after: Vec<Change>,
}

/// The editor's undo history.
#[derive(Default)]
pub struct History {
    entries: VecDeque<Entry>,
    /// How many entries are done (the rest were undone and can be redone).
    done: usize,
}

/// The history as the History pane shows it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HistoryView {
    /// Each entry's label, oldest first.
    pub labels: Vec<String>,
    /// How many of them are done; the rest can be redone.
    pub done: usize,
}

impl History {
    /// What the History pane shows.
    pub fn view(&self) -> HistoryView {
        HistoryView { labels: self.entries.iter().map(|e| e.label.clone()).collect(), done: self.done }
    }

    fn push(&mut self, world: &mut World, entry: Entry) {
        while self.entries.len() > self.done {
            let dropped = self.entries.pop_back().expect("longer than done");
            unpin(world, &dropped);
        }
        for uid in uids_of(&entry) {
            let _ = world.pin(uid);
        }
        self.entries.push_back(entry);
        self.done += 1;
        if self.entries.len() > MAX_HISTORY {
            let dropped = self.entries.pop_front().expect("not empty");
            unpin(world, &dropped);
            self.done -= 1;
        }
    }

    /// Undoes the last done edit. Returns its label, or None if there is nothing to undo.
    pub fn undo(&mut self, world: &mut World) -> Option<String> {
        let entry = self.entries.get(self.done.checked_sub(1)?)?;
        restore(world, &entry.before);
        self.done -= 1;
        Some(entry.label.clone())
    }

    /// Redoes the next undone edit. Returns its label, or None if there is nothing to redo.
    pub fn redo(&mut self, world: &mut World) -> Option<String> {
        let entry = self.entries.get(self.done)?;
        restore(world, &entry.after);
        self.done += 1;
        Some(entry.label.clone())
    }
}

fn uids_of(entry: &Entry) -> Vec<Uid> {
    let mut uids: Vec<Uid> = entry.before.iter().chain(&entry.after).map(Change::uid).collect();
    uids.sort();
    uids.dedup();
    uids
}

fn unpin(world: &mut World, entry: &Entry) {
    for uid in uids_of(entry) {
        world.unpin(uid);
    }
}

/// Applies `edit` and records it in `history`. `lua` runs what the edit triggers (refresh
/// handlers). Returns the entry's label. On error nothing is recorded, and for refusals
/// nothing changed.
pub fn apply(lua: &Lua, history: &mut History, edit: &Edit) -> Result<String, EditError> {
    let engine = crate::lua::engine(lua);
    let entry = match edit {
        Edit::SetBase { uids, field, value } => {
            field_edit(lua, uids, field, format!("Set {field} = {value}"), |world, uid, field| {
                world.set_base(uid, field, value.clone())
            })?
        }
        Edit::ResetToPrototype { uids, field } => {
            field_edit(lua, uids, field, format!("Reset {field} to the prototype"), |world, uid, field| {
                world.reset_to_prototype(uid, field)
            })?
        }
        Edit::ModTemp { uids, field, value, method } => {
            let label = match value {
                Value::Nil => format!("Remove temp {field}"),
                value => format!("Temp {field} {} {value}", method.name()),
            };
            field_edit(lua, uids, field, label, |world, uid, field| {
                world.mod_temp(uid, field, value.clone(), *method, Origin::tool("editor"))
            })?
        }
        Edit::Refresh { uids } => {
            let temps = |world: &World| -> Vec<Change> {
                uids.iter()
                    .filter_map(|&uid| Some(Change::Temps { uid, temps: world.object(uid).ok()?.fields.temp.clone() }))
                    .collect()
            };
            let before = temps(&engine.world.borrow());
            for &uid in uids {
                crate::lua::object::refresh(lua, uid)?;
            }
            let after = temps(&engine.world.borrow());
            Entry { label: format!("Refresh {}", describe(&engine.world.borrow(), uids)), before, after }
        }
        Edit::Move { uids, to, x, y } => {
            let mut world = engine.world.borrow_mut();
            for &uid in uids {
                world.can_take_object(*to, uid, *x, *y)?;
            }
            let before = places(&world, uids);
            for &uid in uids {
                world.take_object(*to, uid, *x, *y)?;
            }
            let after = places(&world, uids);
            let label = format!("Move {} to {}", describe(&world, uids), holder_name(&world, *to, *x, *y));
            Entry { label, before, after }
        }
        Edit::Remove { uids } => {
            let mut world = engine.world.borrow_mut();
            let before = places(&world, uids);
            for &uid in uids {
                world.remove_ownership(uid)?;
            }
            Entry { label: format!("Remove {}", describe(&world, uids)), before, after: places(&world, uids) }
        }
        Edit::Clone { uids } => {
            let mut world = engine.world.borrow_mut();
            let mut copies = Vec::new();
            for &uid in uids {
                let original = world.object(uid)?;
                let (location, x, y) = (original.location(), original.x, original.y);
                let copy = world.clone_object(uid)?;
                // The copy goes where the original is (an equipped original's copy goes to
                // the wearer's inventory: the slot is taken).
                match location {
                    Some(Location::Map(map)) => world.take_object(Holder::Map(map), copy, x, y)?,
                    Some(Location::Inventory(owner) | Location::Equipment(owner, _)) => {
                        world.take_object(Holder::Object(owner), copy, 0, 0)?
                    }
                    None => {}
                }
                copies.push(copy);
            }
            let before = copies.iter().map(|&uid| Change::Place { uid, location: None, x: 0, y: 0 }).collect();
            let label = format!("Clone {} as {}", describe(&world, uids), describe(&world, &copies));
            Entry { label, before, after: places(&world, &copies) }
        }
        Edit::Create { kind, id, to, x, y } => {
            let mut world = engine.world.borrow_mut();
            let uid = world.create(*kind, id)?;
            // A refused object is left ownerless; the next sweep frees it.
            world.take_object(*to, uid, *x, *y)?;
            let label = format!("Create {}", world.describe(uid));
            Entry {
                label,
                before: vec![Change::Place { uid, location: None, x: 0, y: 0 }],
                after: places(&world, &[uid]),
            }
        }
    };
    let label = entry.label.clone();
    history.push(&mut engine.world.borrow_mut(), entry);
    Ok(label)
}

/// Why an edit could not be made.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum EditError {
    /// The world refused (a location refused the object, an object is gone, …).
    #[error(transparent)]
    World(#[from] WorldError),
    /// Lua code the edit ran failed (a refresh handler).
    #[error("{0}")]
    Lua(String),
}

impl From<mlua::Error> for EditError {
    fn from(error: mlua::Error) -> EditError {
        EditError::Lua(crate::lua::LuaFailure::from(error).to_string())
    }
}

/// Records and applies a change of one field of several objects.
fn field_edit(
    lua: &Lua,
    uids: &[Uid],
    field: &str,
    label: String,
    mut change: impl FnMut(&mut World, Uid, Symbol) -> Result<(), WorldError>,
) -> Result<Entry, EditError> {
    let engine = crate::lua::engine(lua);
    let mut world = engine.world.borrow_mut();
    let field = Symbol::intern(field);
    let state = |world: &World| -> Vec<Change> {
        uids.iter()
            .filter_map(|&uid| {
                let object = world.object(uid).ok()?;
                Some(Change::Field {
                    uid,
                    field,
                    own: object.fields.base.get(field).cloned(),
                    temp: object.fields.temp.get(field).cloned(),
                })
            })
            .collect()
    };
    let before = state(&world);
    for &uid in uids {
        if let Err(error) = change(&mut world, uid, field) {
            restore(&mut world, &before);
            return Err(error.into());
        }
    }
    let after = state(&world);
    Ok(Entry { label: format!("{label} on {}", describe(&world, uids)), before, after })
}

fn places(world: &World, uids: &[Uid]) -> Vec<Change> {
    uids.iter()
        .filter_map(|&uid| {
            let object = world.object(uid).ok()?;
            Some(Change::Place { uid, location: object.location(), x: object.x, y: object.y })
        })
        .collect()
}

/// Puts recorded states back.
fn restore(world: &mut World, changes: &[Change]) {
    for change in changes {
        match change {
            Change::Field { uid, field, own, temp } => {
                if let Ok(object) = world.object_mut(*uid) {
                    match own {
                        Some(value) => object.fields.base.insert(*field, value.clone()),
                        None => object.fields.base.remove(*field),
                    };
                    match temp {
                        Some(temp) => object.fields.temp.insert(*field, temp.clone()),
                        None => object.fields.temp.remove(*field),
                    };
                    world.touch_object(*uid);
                }
            }
            Change::Temps { uid, temps } => {
                if let Ok(object) = world.object_mut(*uid) {
                    object.fields.temp = temps.clone();
                    world.touch_object(*uid);
                }
            }
            Change::Place { uid, location, x, y } => {
                if !world.exists(*uid) {
                    continue;
                }
                world.detach(*uid);
                match location {
                    Some(location) => world.attach(*uid, *location, *x, *y),
                    None => {
                        if let Ok(object) = world.object_mut(*uid) {
                            object.x = *x;
                            object.y = *y;
                        }
                    }
                }
            }
        }
    }
}

fn describe(world: &World, uids: &[Uid]) -> String {
    match uids {
        [uid] => world.describe(*uid),
        uids => format!("{} objects", uids.len()),
    }
}

fn holder_name(world: &World, holder: Holder, x: i32, y: i32) -> String {
    match holder {
        Holder::Map(map) => {
            format!("{} ({x}, {y})", world.map(map).map(|m| format!("map '{}'", m.name)).unwrap_or_default())
        }
        Holder::Object(uid) => world.describe(uid),
    }
}
