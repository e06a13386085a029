//! The host's editing subsystem: edits made in the editor ([`edit`]) and by REPL code while
//! editing, each one undoable entry of the [`History`]; the selection and the objects the
//! inspector follows; and the edit journal ([`journal`]) that keeps every change of edit mode
//! on disk so a killed editor loses nothing.
//!
//! It is a component: it owns its state ([`Editing`]), takes its own commands
//! ([`EditingCommand`]) with [`Editing::handle`] and builds its part of the snapshot with
//! [`Editing::view`], given the runtime and a way to answer ([`Cx`]). What it needs of other
//! subsystems the spine passes by name (whether the game is played, the workbench whose
//! preview a recovery puts back, a way to route the journal's other commands); a new base for
//! the journal, which keeps the workbench's preview, it asks of the spine ([`EditingEffects`]).

use std::cell::RefCell;
use std::sync::Arc;

use crate::cx::Cx;
use crate::workbench::Workbench;
use nefia_game::autotile::RULE_SET_TYPE;
use nefia_game::history::{History, Transaction, changes_since};
use nefia_game::map::MapId;
use nefia_game::object::Uid;
use nefia_game::source_edit::Locator;
use nefia_game::world::WorldState;
use nefia_protocol::message::{Command, HostEvent, RefusalKind, Refused};

mod content;
pub mod edit;
mod edit_error;
pub mod journal;
mod lifecycle;
mod locale;
pub mod usages;

use nefia_protocol::editing::{CellWhy, EditingCommand, EditingView, Unexplained};

/// The editing subsystem's state on the host.
pub(crate) struct Editing {
    /// The editor's undo history.
    history: RefCell<History>,
    /// The undo history set aside while playing.
    aside: RefCell<Option<History>>,
    /// The objects whose details the snapshots carry (the inspector's).
    inspect: RefCell<Vec<Uid>>,
    /// The cell whose explanation the snapshots carry (the inspector's).
    inspect_cell: std::cell::Cell<Option<(MapId, i32, i32)>>,
    /// The edit journal.
    journal: journal::HostJournal,
}

/// What the editing subsystem asks of the spine, which `Host::handle` applies.
#[must_use = "the spine applies what the editing subsystem asks"]
#[derive(Default)]
pub(crate) struct EditingEffects {
    /// Take the world as it is now as the edit journal's base ([`Editing::rebase`]), with the
    /// workbench's preview, which is the workbench's to give.
    pub rebase: bool,
}

impl Editing {
    /// Editing with an empty history, journaling into folder `journal` if any.
    pub(crate) fn new(journal: Option<std::path::PathBuf>) -> Editing {
        Editing {
            history: RefCell::default(),
            aside: RefCell::default(),
            inspect: RefCell::default(),
            inspect_cell: std::cell::Cell::default(),
            journal: journal::HostJournal::new(journal),
        }
    }

    /// The editing subsystem's part of the snapshot.
    pub(crate) fn view(&self, cx: &Cx) -> EditingView {
        let world = cx.runtime.world();
        let engine = cx.runtime.engine();
        let inspected = self
            .inspect
            .borrow()
            .iter()
            .filter_map(|&uid| nefia_protocol::view::object_details(&world, uid))
            .map(|mut details| {
                details.own_handlers = engine.own_handlers(details.uid, details.id);
                details
            })
            .collect();
        EditingView {
            selection: engine.selection(),
            selections_by_script: engine.selections_by_script(),
            inspected,
            history: self.history.borrow().view(),
            recovery: self.recovery_offer(),
            cell: self.inspect_cell.get().map(|(map, x, y)| Arc::new(cell_why(cx.runtime.lua(), &world, map, x, y))),
        }
    }

    /// Carries out an editing command. Answering the recovery question replays the journal:
    /// its commands of other subsystems go through `dispatch` (the spine's routing), and the
    /// `workbench` is closed and shown the preview the journal's base kept. A new base for the
    /// journal comes back as an effect.
    pub(crate) fn handle(
        &self,
        cx: &Cx,
        dispatch: &dyn Fn(Command),
        workbench: &Workbench,
        command: EditingCommand,
    ) -> EditingEffects {
        match command {
            EditingCommand::Edit(edit) => {
                if let Err(error) = edit::apply(cx.runtime.lua(), &mut self.history.borrow_mut(), &edit) {
                    cx.refuse(Refused::new(RefusalKind::Edit, error.to_string()));
                }
            }
            EditingCommand::Undo | EditingCommand::Redo => {
                let undo = command == EditingCommand::Undo;
                match self.step_history(cx, undo, false) {
                    None => cx.refuse(Refused::new(
                        RefusalKind::NothingToDo,
                        if undo { "nothing to undo" } else { "nothing to redo" },
                    )),
                    Some(problems) => {
                        problems.into_iter().for_each(|problem| cx.refuse(Refused::new(RefusalKind::Edit, problem)))
                    }
                }
            }
            EditingCommand::Copy { map, x, y, width, height } => {
                match nefia_game::edit::copy_region(&cx.runtime.world(), map, x, y, width, height) {
                    Ok(clip) => cx.send(HostEvent::Copied(Arc::new(clip))),
                    Err(error) => cx.refuse(Refused::new(RefusalKind::Edit, error.to_string())),
                }
            }
            EditingCommand::Select(uids) => cx.runtime.engine().set_selection(uids),
            EditingCommand::Inspect(uids) => *self.inspect.borrow_mut() = uids,
            EditingCommand::Recover(recover) => return self.answer_recovery(cx, dispatch, workbench, recover),
            EditingCommand::InspectCell(cell) => self.inspect_cell.set(cell),
            EditingCommand::ExplainCell { map, x, y } => {
                let why = cell_why(cx.runtime.lua(), &cx.runtime.world(), map, x, y);
                cx.send(HostEvent::CellExplained(Box::new(why)));
            }
            EditingCommand::WhereUsed { data_type, id } => {
                let usages = usages::find(cx.runtime.lua(), &data_type, &id);
                cx.send(HostEvent::Usages { data_type, id, usages });
            }
        }
        EditingEffects::default()
    }

    /// Undoes (`undo`) or redoes History's next step: None if there is none, else what stopped
    /// it (empty if nothing did). Its patches of files (prototypes edited in a form) are put on
    /// the files as they are now and hotloaded first, unless `replaying` the journal (the files
    /// already hold what the session left in them); if one cannot be, nothing is undone or
    /// redone and the step stays where it is in History, to be tried again.
    fn step_history(&self, cx: &Cx, undo: bool, replaying: bool) -> Option<Vec<String>> {
        let history = &self.history;
        let (label, sources) = {
            let history = history.borrow();
            let step = if undo { history.next_undo()? } else { history.next_redo()? };
            (step.label.clone(), Transaction::sources(if undo { &step.before } else { &step.after }))
        };
        if !replaying && let Err(problems) = content::restore_sources(cx.runtime.lua(), &sources) {
            let what = if undo { "Undo" } else { "Redo" };
            let stays = format!("{what} of '{label}' was refused; it stays in History to try again");
            return Some(problems.into_iter().map(|problem| format!("{stays}: {problem}")).collect());
        }
        let mut world = cx.runtime.world_mut();
        match undo {
            true => history.borrow_mut().undo(&mut world),
            false => history.borrow_mut().redo(&mut world),
        }?;
        Some(Vec::new())
    }

    /// Records what REPL `code` changed since `before` (the world at `revision`) as one
    /// History entry, "REPL: \<its first line\>".
    pub(crate) fn record_repl_edit(&self, cx: &Cx, code: &str, revision: u64, before: &WorldState) {
        let mut world = cx.runtime.world_mut();
        if world.revision() == revision {
            return;
        }
        let (undo, redo) = changes_since(before, &world);
        if redo.is_empty() {
            return;
        }
        let first = code.lines().map(str::trim).find(|line| !line.is_empty()).unwrap_or_default();
        let first: String = match first.chars().count() > 60 {
            true => format!("{}…", first.chars().take(60).collect::<String>()),
            false => first.to_owned(),
        };
        let entry = Transaction::new(format!("REPL: {first}"), undo, redo);
        self.history.borrow_mut().record(&mut world, entry);
    }

    /// Sets the editor's undo history aside as play begins (edits made while playing are
    /// undone with the play, not one by one), leaving an empty one.
    pub(crate) fn set_history_aside(&self) {
        *self.aside.borrow_mut() = Some(std::mem::take(&mut *self.history.borrow_mut()));
    }

    /// Puts the undo history set aside at Play back as the editor's (play ended); the play's
    /// goes with the played world (its pins were in that world).
    pub(crate) fn put_history_back(&self) {
        *self.history.borrow_mut() = self.aside.borrow_mut().take().unwrap_or_default();
    }
}

/// Why cell (x, y) of `map` in `world` has its tile, each rule named with its line when
/// its set's file is a loaded one.
fn cell_why(lua: &mlua::Lua, world: &nefia_game::world::World, map: MapId, x: i32, y: i32) -> CellWhy {
    let laid = world.map(map).map(|m| m.autotile.is_some());
    let unexplained = |error: nefia_game::world::WorldError| match (laid.as_ref(), &error) {
        (Ok(false), _) => Unexplained::NoRules(error.to_string()),
        (Ok(true), nefia_game::world::WorldError::Autotile(_)) => Unexplained::BadRules(error.to_string()),
        _ => Unexplained::NotThere(error.to_string()),
    };
    let explained = world.explain_tile(map, x, y).map_err(unexplained).map(|explained| {
        // Each rule's line: the items of the set's `rules`, read from its file.
        let lines = explained.declared_at.as_ref().and_then(|origin| {
            let text = nefia_lua::repl::source_text(lua, origin.file.as_str())?;
            let short_id = explained.rule_set.split_once('.').map_or(explained.rule_set.as_str(), |(_, id)| id);
            let at = Locator { data_type: RULE_SET_TYPE, short_id, line: origin.line };
            nefia_game::source_edit::item_lines(&text, &at, "rules").ok().flatten()
        });
        match lines {
            Some(lines) => explained.with_rule_lines(&lines),
            None => explained,
        }
    });
    let sprite = world.explain_sprite(map, x, y).ok().flatten();
    CellWhy { map, x, y, explained, sprite }
}
