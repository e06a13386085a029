//! The edit journal on the runtime thread (see [`nefia_game::journal`]): every command of edit
//! mode that changed the world is appended to the log as it is done — a `write` to the file
//! before the next command, so a killed process loses nothing it did — and a thread makes the
//! log durable (`fdatasync`) within 100 ms. What the log cannot replay (a save, a rename, the
//! end of a play session, REPL code, a hotload that made objects) takes a new base instead;
//! the journal asks the spine for it ([`EditingEffects::rebase`]), which gives
//! [`Editing::rebase`] the workbench's preview for the base to keep.
//!
//! On opening a project with a journal left behind, nothing is journaled until the user
//! answers the recovery question: recovering loads the base (if any) and replays the log
//! through the same code the commands ran first, checking that each comes to the same uid
//! counter; discarding deletes the journal. An edit that changed Lua files (a form's) is
//! journaled with its patches of them ([`Journaled::Content`]). The files already hold what
//! the session left in them, so a replay writes none: first the log's patches are taken back
//! from the files as they are, in memory ([`nefia_game::journal::sources_changed_under`]) —
//! a hand edit elsewhere in a file is no obstacle, but one over lines an entry wrote stops the
//! replay at that entry, naming the file and line — then each edit's step goes back into
//! History with its patches (undo and redo move History without writing), so a later undo
//! turns back exactly the edit's lines. The replay stops at the first entry that does not come
//! back, and the recovery says which it was and why; what came back is counted as History
//! counts it.

use std::cell::{Cell, RefCell};
use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use super::{Editing, EditingEffects};
use crate::cx::Cx;
use crate::workbench::Workbench;
use nefia_game::display::LogLevel;
use nefia_game::files::{FileError, to_ron, write_atomic};
use nefia_game::journal::{
    BaseFile, BasePreview, JOURNAL_FORMAT, Journal, JournalBase, JournalEntry, Journaled, MAX_LOG_BYTES,
};
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::editing::{RecoveryOffer, RecoveryReport};
use nefia_protocol::journal_kind::JournalKind;
use nefia_protocol::maps::MapCommand;
use nefia_protocol::message::{Command, HostEvent, RefusalKind, Refused};
use nefia_protocol::workbench::WorkbenchCommand;

/// How soon a journaled command is made durable.
pub const SYNC_EVERY: Duration = Duration::from_millis(100);

/// The log being appended to, and the thread that syncs it.
struct LogWriter {
    file: Arc<File>,
    /// The log's length in bytes, kept within [`MAX_LOG_BYTES`].
    length: Cell<u64>,
    dirty: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
    syncer: Option<std::thread::JoinHandle<()>>,
}

impl LogWriter {
    /// Appends to the log at `path` (made if missing).
    fn open(path: &Path) -> Result<LogWriter, FileError> {
        let file =
            std::fs::OpenOptions::new().create(true).append(true).open(path).map_err(|e| FileError::io(path, e))?;
        let length = Cell::new(file.metadata().map_err(|e| FileError::io(path, e))?.len());
        let (file, dirty, stop) = (Arc::new(file), Arc::new(AtomicBool::new(false)), Arc::new(AtomicBool::new(false)));
        let syncer = {
            let (file, dirty, stop) = (file.clone(), dirty.clone(), stop.clone());
            std::thread::Builder::new()
                .name("nefia journal".into())
                .spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        std::thread::sleep(SYNC_EVERY / 2);
                        if dirty.swap(false, Ordering::Relaxed) {
                            let _ = file.sync_data();
                        }
                    }
                    let _ = file.sync_data();
                })
                .ok()
        };
        Ok(LogWriter { file, length, dirty, stop, syncer })
    }

    /// Whether `line` fits in the log without taking it past [`MAX_LOG_BYTES`], the most a
    /// recovery reads.
    fn fits(&self, line: &str) -> bool {
        u64::try_from(line.len()).is_ok_and(|len| self.length.get().saturating_add(len) <= MAX_LOG_BYTES)
    }

    fn append(&self, line: &str) -> std::io::Result<()> {
        (&*self.file).write_all(line.as_bytes())?;
        self.length.set(self.length.get().saturating_add(u64::try_from(line.len()).unwrap_or(u64::MAX)));
        self.dirty.store(true, Ordering::Relaxed);
        Ok(())
    }
}

impl Drop for LogWriter {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        if let Some(syncer) = self.syncer.take() {
            let _ = syncer.join();
        }
    }
}

/// The journal's state on the host.
#[derive(Default)]
pub(crate) struct HostJournal {
    /// The journal folder; none when nothing is journaled (headless, the repository's own
    /// project in tests).
    dir: Option<PathBuf>,
    writer: RefCell<Option<LogWriter>>,
    /// The log's file name in the folder (the base names it; `log.ron` without one).
    log_name: RefCell<String>,
    /// A journal found on opening, until the user answers.
    offer: RefCell<Option<(Journal, Arc<RecoveryOffer>)>>,
    /// The log is being replayed: its commands are not journaled again.
    replaying: Cell<bool>,
    /// The world as the journal last accounted for it (its start, its last entry or base, or
    /// a command that changed nothing of its). A command that finds the world otherwise was
    /// preceded by a change the log never saw (play ended, code run in a nested wait): the
    /// journal takes a new base first, so no entry is ever replayed onto a world it was not
    /// made on.
    accounted: Cell<Option<Mark>>,
}

fn command_of(journaled: Journaled) -> Command {
    match journaled {
        Journaled::Edit(edit) | Journaled::Content { edit, .. } => Command::Editing(EditingCommand::Edit(edit)),
        Journaled::Undo => Command::Editing(EditingCommand::Undo),
        Journaled::Redo => Command::Editing(EditingCommand::Redo),
        Journaled::Open(name) => Command::Maps(MapCommand::Open(name)),
        Journaled::New { name, width, height, tile } => Command::Maps(MapCommand::New { name, width, height, tile }),
        Journaled::Preview { generator, params, seed } => {
            Command::Workbench(WorkbenchCommand::Preview { generator, params, seed })
        }
        Journaled::ClosePreview => Command::Workbench(WorkbenchCommand::Close),
    }
}

fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// The world's state as far as the journal can tell it changed.
#[derive(Clone, Copy, PartialEq)]
struct Mark {
    revision: u64,
    next_uid: u64,
    next_map_uid: u64,
}

/// A command being done that the journal will look at once it is.
pub(crate) struct Pending {
    before: Mark,
    /// History's count of recorded steps before it: a form's edit records one and may change
    /// nothing of the world.
    recorded: u64,
    kind: JournalKind,
}

impl HostJournal {
    /// A journal in folder `dir`, if any.
    pub(crate) fn new(dir: Option<PathBuf>) -> HostJournal {
        HostJournal { dir, log_name: RefCell::new("log.ron".into()), ..HostJournal::default() }
    }
}

impl Mark {
    /// The world's state as the journal tells it.
    fn of(cx: &Cx) -> Mark {
        let world = cx.runtime.world();
        let (next_uid, next_map_uid) = world.next_uids();
        Mark { revision: world.revision(), next_uid, next_map_uid }
    }
}

impl Editing {
    /// Looks for a journal left behind: offers to recover it, or starts a new one.
    pub(crate) fn open_journal(&self, cx: &Cx) {
        let Some(dir) = self.journal.dir.clone() else { return };
        match Journal::read(&dir) {
            Ok(Some(journal)) => {
                if let Some(base) = &journal.base {
                    *self.journal.log_name.borrow_mut() = base.log.clone();
                }
                // What the dialog shows, made once: the snapshot of every frame shares it.
                let view = RecoveryOffer { maps: journal.unsaved_maps(), problems: journal.problems.clone() };
                *self.journal.offer.borrow_mut() = Some((journal, Arc::new(view)));
            }
            Ok(None) => self.start_journal(cx, &dir),
            Err(error) => {
                let kept = dir.with_file_name(format!("journal.unreadable-{}", now_ms()));
                let _ = std::fs::rename(&dir, &kept);
                let text = format!("the edit journal could not be read ({error}); it is kept in {}", kept.display());
                cx.log(LogLevel::Error, text);
                self.start_journal(cx, &dir);
            }
        }
    }

    /// Empties journal folder `dir` and journals from the world as it is now (the editor's
    /// own start: no base).
    fn start_journal(&self, cx: &Cx, dir: &Path) {
        let _ = std::fs::remove_dir_all(dir);
        // The session's own object keys, named in the journal for a recovery to go on with.
        let prefix = nefia_game::object_key::session_prefix();
        cx.runtime.world_mut().set_key_prefix(prefix.clone());
        let opened = std::fs::create_dir_all(dir).map_err(|e| FileError::io(dir, e)).and_then(|()| {
            let prefix_file = nefia_game::journal::key_prefix_path(dir);
            write_atomic(&prefix_file, prefix.as_bytes())?;
            *self.journal.log_name.borrow_mut() = "log.ron".into();
            LogWriter::open(&nefia_game::journal::log_path(dir))
        });
        self.journal.accounted.set(Some(Mark::of(cx)));
        self.journal_opened(cx, opened);
    }

    fn journal_opened(&self, cx: &Cx, opened: Result<LogWriter, FileError>) {
        match opened {
            Ok(writer) => *self.journal.writer.borrow_mut() = Some(writer),
            Err(error) => cx.log(LogLevel::Error, format!("edits are not journaled: {error}; save often")),
        }
    }

    /// Ends journaling as the editor quits: the user was asked about unsaved maps, so the
    /// journal goes — unless it is one left by an earlier session, not yet answered for.
    pub(crate) fn close_journal(&self) {
        if self.journal.offer.borrow().is_some() {
            return;
        }
        self.journal.writer.borrow_mut().take();
        if let Some(dir) = &self.journal.dir {
            let _ = std::fs::remove_dir_all(dir);
        }
    }

    /// The recovery question, while it waits for an answer.
    pub(super) fn recovery_offer(&self) -> Option<Arc<RecoveryOffer>> {
        self.journal.offer.borrow().as_ref().map(|(_, view)| view.clone())
    }

    /// True while edit-mode commands are journaled: editing (not `playing`), at the top level,
    /// a journal being written (not replayed).
    fn journaling(&self, cx: &Cx, playing: bool) -> bool {
        self.journal.writer.borrow().is_some() && !self.journal.replaying.get() && !cx.waiting() && !playing
    }

    /// What the journal needs to know before `command` is done, if it may be journaled
    /// (see [`Editing::journaling`]). If the world changed since the journal last accounted
    /// for it, the effects ask for a new base, to be taken before the command is done.
    pub(crate) fn journal_before(
        &self,
        cx: &Cx,
        playing: bool,
        command: &Command,
    ) -> (Option<Pending>, EditingEffects) {
        if !self.journaling(cx, playing) {
            return (None, EditingEffects::default());
        }
        let before = Mark::of(cx);
        let rebase = self.journal.accounted.get() != Some(before);
        let recorded = self.history.borrow().recorded();
        (Some(Pending { before, recorded, kind: command.journal_kind() }), EditingEffects { rebase })
    }

    /// Journals the command `pending` was taken before, now that it is done (see the
    /// module's text); `playing` if the command began play. The effects ask for a new base
    /// when the log cannot hold what the command did: a command it cannot replay, a change
    /// it never saw, an entry past the log's greatest length.
    pub(crate) fn journal_after(&self, cx: &Cx, playing: bool, pending: Option<Pending>) -> EditingEffects {
        let Some(Pending { before, recorded, kind }) = pending else { return EditingEffects::default() };
        if playing {
            // Play began: the edit state is set aside as it was.
            return EditingEffects::default();
        }
        let now = Mark::of(cx);
        let changed = now != before;
        let rebase = match kind {
            JournalKind::Log(what) if changed || self.history.borrow().recorded() != recorded => {
                !self.append_entry(cx, self.with_sources(what), now.next_uid)
            }
            JournalKind::Rebase => true,
            JournalKind::Code => (now.next_uid, now.next_map_uid) != (before.next_uid, before.next_map_uid),
            JournalKind::Other => changed,
            JournalKind::Log(_) => false,
        };
        // A rebase accounts for the world itself; a reload that made nothing changed no
        // state of the journal's.
        self.journal.accounted.set(Some(Mark::of(cx)));
        EditingEffects { rebase }
    }

    /// An edit as the journal keeps it: with the texts of the files it changed, if it changed
    /// any (History's newest step, which it recorded, holds them).
    fn with_sources(&self, what: Journaled) -> Journaled {
        let Journaled::Edit(edit) = what else { return what };
        let history = self.history.borrow();
        let Some(step) = history.next_undo() else { return Journaled::Edit(edit) };
        match step.patches() {
            sources if sources.is_empty() => Journaled::Edit(edit),
            sources => Journaled::Content { edit, label: step.label.clone(), sources },
        }
    }

    /// Appends `what` to the log, the world's next uid after it being `next_uid`; false if
    /// the log is too long to take it: a new base is to keep it instead.
    fn append_entry(&self, cx: &Cx, what: Journaled, next_uid: u64) -> bool {
        let map = {
            let world = cx.runtime.world();
            world.current_map().and_then(|m| world.map(m).ok().map(|m| m.name.clone()))
        };
        let entry = JournalEntry { at: now_ms(), map, next_uid, what };
        let written = match nefia_game::journal::entry_line(&entry) {
            Ok(line) => {
                let fits = self.journal.writer.borrow().as_ref().is_none_or(|w| w.fits(&line));
                if !fits {
                    // The world holds this edit: a new base keeps it, and the log starts empty,
                    // so no log grows past what a recovery reads.
                    return false;
                }
                self.journal.writer.borrow().as_ref().map(|w| w.append(&line).map_err(AppendError::Write))
            }
            Err(error) => Some(Err(AppendError::Format(error))),
        };
        if let Some(Err(error)) = written {
            let text = format!("the edit journal could not be written ({error}): edits are not journaled; save often");
            cx.log(LogLevel::Error, text);
            self.journal.writer.borrow_mut().take();
        }
        true
    }

    /// Takes the world as it is now as the journal's base, with an empty log; `preview` is the
    /// workbench's preview, which the base keeps.
    pub(crate) fn rebase(&self, cx: &Cx, preview: Option<BasePreview>) {
        let Some(dir) = self.journal.dir.clone() else { return };
        let taken = (|| -> Result<(), FileError> {
            let save = nefia_lua::save::save_tables(cx.runtime.lua())
                .map_err(|e| FileError::new(&dir, format!("the save tables could not be read: {e}")))?;
            let world = cx.runtime.world();
            let files = cx.runtime.maps();
            let open = files
                .names()
                .filter_map(|name| {
                    let map = files.map(name)?;
                    Some(BaseFile { name: name.to_owned(), map, clean: !files.dirty(&world).iter().any(|d| d == name) })
                })
                .collect();
            // A name of its own, even for two bases taken in one millisecond.
            let old = self.journal.log_name.borrow().clone();
            let mut stamp = now_ms();
            while format!("log-{stamp}.ron") == old {
                stamp += 1;
            }
            let log_name = format!("log-{stamp}.ron");
            let base = JournalBase {
                format: JOURNAL_FORMAT,
                log: log_name.clone(),
                world: world.save_game(save),
                files: open,
                preview,
            };
            drop((world, files));
            // The new log first, then the base naming it: a crash in between leaves the old
            // base with its own log.
            std::fs::create_dir_all(&dir).map_err(|e| FileError::io(&dir, e))?;
            let log = dir.join(&log_name);
            let writer = LogWriter::open(&log)?;
            let base_file = nefia_game::journal::base_path(&dir);
            write_atomic(&base_file, to_ron(&base_file, &base)?.as_bytes())?;
            *self.journal.log_name.borrow_mut() = log_name;
            *self.journal.writer.borrow_mut() = Some(writer);
            self.journal.accounted.set(Some(Mark::of(cx)));
            let _ = std::fs::remove_file(dir.join(old));
            Ok(())
        })();
        if let Err(error) = taken {
            let text =
                format!("the edit journal could not take the world ({error}): edits are not journaled; save often");
            cx.log(LogLevel::Error, text);
            self.journal.writer.borrow_mut().take();
        }
    }
}

/// Why an entry could not be appended to the log.
#[derive(Debug, thiserror::Error)]
enum AppendError {
    /// The entry could not be written as a RON line.
    #[error("{0}")]
    Format(ron::Error),
    /// The log file refused the line.
    #[error("{0}")]
    Write(std::io::Error),
}

/// Why the journal left behind could not be replayed at all.
#[derive(Debug, thiserror::Error)]
enum RecoveryError {
    /// The base's world describes no world that can be built.
    #[error("its base could not be loaded: {0}")]
    BaseWorld(nefia_game::world::WorldError),
    /// The base's `save` tables could not be put back.
    #[error("its base could not be loaded: {0}")]
    BaseSave(nefia_lua::save::SaveError),
    /// No project is open to reopen the base's map files in.
    #[error("no project is open")]
    NoProject,
}

/// Why one journal entry did not come back as it was made (the entries after it are not
/// replayed).
#[derive(Debug, thiserror::Error)]
enum EntryNotBack {
    /// The edit, or the source edit made again, was refused.
    #[error(transparent)]
    Edit(#[from] super::edit_error::EditError),
    /// Lines of a source file the entry wrote were changed since (or the file cannot be read):
    /// where and why; the file is left as it is.
    #[error("{0}; the file is left as it is")]
    ChangedUnder(String),
    /// Undo or redo met problems: each said.
    #[error("{}", .0.join("; "))]
    Problems(Vec<String>),
    /// An undo or redo found nothing to undo or redo.
    #[error("there was nothing to {0}")]
    NothingTo(&'static str),
    /// It was done, but the world's uid counter came out elsewhere (a mod changed since?).
    #[error(
        "it came out otherwise than when it was made (the world's next uid is {reached}, not {expected}: a mod changed since?)"
    )]
    OtherUids {
        /// The next uid the replay reached.
        reached: u64,
        /// The next uid the entry was made with.
        expected: u64,
    },
}

/// How far a replay of the journal came.
struct Replayed {
    /// The History steps it made.
    steps: usize,
    /// Why it stopped before the end, if it did.
    stopped: Option<String>,
}

impl Editing {
    /// Answers the recovery question: `recover` replays the journal left behind (see the
    /// module's text; [`Editing::replay_journal`] says what `dispatch` and `workbench` are
    /// for), else it is deleted. Either way journaling starts; a journal that did not come
    /// back whole is kept aside first, and the editor is told what came back. After a replay
    /// the effects ask for a new base: what came back is where the journal goes on from.
    pub(super) fn answer_recovery(
        &self,
        cx: &Cx,
        dispatch: &dyn Fn(Command),
        workbench: &Workbench,
        recover: bool,
    ) -> EditingEffects {
        let Some((journal, _)) = self.journal.offer.borrow_mut().take() else {
            cx.refuse(Refused::new(RefusalKind::NothingToDo, "there is no edit journal to recover"));
            return EditingEffects::default();
        };
        let Some(dir) = self.journal.dir.clone() else { return EditingEffects::default() };
        if !recover {
            self.start_journal(cx, &dir);
            cx.log(LogLevel::Info, "the unsaved edits of the last session were discarded");
            return EditingEffects::default();
        }
        let total = nefia_game::journal::steps_of(&journal.entries).len();
        let (recovered, stopped) = match self.replay_journal(cx, dispatch, workbench, &journal) {
            Ok(Replayed { steps, stopped }) => (steps, stopped),
            Err(error) => (0, Some(format!("the journal could not be recovered: {error}"))),
        };
        // What did not come back stays on disk to be tried again (after fixing a mod, say).
        let kept = stopped.as_ref().and_then(|_| keep_journal_aside(&dir));
        let text = match (&stopped, &kept) {
            (None, _) => format!("recovered {recovered} edit(s): look them over in History, then save"),
            (Some(why), kept) => format!(
                "recovered {recovered} of {total} edit(s); {why}; the journal is {}",
                kept.as_ref().map_or("lost: it could not be copied".to_owned(), |k| format!("kept in {}", k.display()))
            ),
        };
        cx.log(if stopped.is_some() { LogLevel::Warn } else { LogLevel::Info }, text);
        cx.send(HostEvent::Recovered(RecoveryReport { recovered, total, stopped, kept }));
        EditingEffects { rebase: true }
    }

    /// Loads the journal's base, if it has one, and replays its log up to the first entry that
    /// does not come out as it first did; says how many History steps it made, and which entry
    /// stopped it and why, if one did. The `workbench`'s preview is closed before the base is
    /// loaded and the base's shown after; the log's commands of other subsystems go through
    /// `dispatch`.
    fn replay_journal(
        &self,
        cx: &Cx,
        dispatch: &dyn Fn(Command),
        workbench: &Workbench,
        journal: &Journal,
    ) -> Result<Replayed, RecoveryError> {
        let lua = cx.runtime.lua();
        if let Some(base) = &journal.base {
            workbench.close(cx);
            nefia_lua::save::load_record(lua, &base.world).map_err(|refused| match refused {
                nefia_lua::save::LoadRefused::World(error) => RecoveryError::BaseWorld(error),
                nefia_lua::save::LoadRefused::Lua(error) => RecoveryError::BaseSave(error),
            })?;
            *self.history.borrow_mut() = nefia_game::history::History::default();
            {
                let (mut files, world, project) = cx.runtime.maps_mut();
                let project = project.as_ref().ok_or(RecoveryError::NoProject)?;
                *files = nefia_game::map_files::MapFiles::scan(project);
                for file in &base.files {
                    files.reopen(&world, &file.name, file.map, file.clean);
                }
            }
            workbench.restore(base.preview.clone());
        }
        if let Some(prefix) = &journal.key_prefix {
            cx.runtime.world_mut().set_key_prefix(prefix.clone());
        }
        self.journal.replaying.set(true);
        let steps_before = self.history.borrow().view().labels.len();
        let mut stopped = None;
        let mut changed_under =
            nefia_game::journal::sources_changed_under(&journal.entries, |file| std::fs::read_to_string(file));
        for (index, entry) in journal.entries.iter().enumerate() {
            let expected = entry.next_uid;
            let done = match changed_under.take_if(|(at, _)| *at == index) {
                Some((_, why)) => Err(EntryNotBack::ChangedUnder(why)),
                None => cx.runtime.engine().limits().run(|| self.replay_entry(cx, dispatch, &entry.what)),
            };
            let reached = cx.runtime.world().next_uids().0;
            // An entry that did not come back, or came out with other uids: the entries after it
            // would undo, redo or name what is not theirs.
            let why = match done {
                Err(why) => why,
                Ok(()) if reached != expected => EntryNotBack::OtherUids { reached, expected },
                Ok(()) => continue,
            };
            let map = entry.map.as_ref().map(|name| format!(" on map '{name}'")).unwrap_or_default();
            let rest = match journal.entries.len() - index - 1 {
                0 => String::new(),
                1 => "; the entry after it was not replayed".to_owned(),
                after => format!("; the {after} entries after it were not replayed"),
            };
            let what = entry.what.describe();
            stopped =
                Some(format!("journal entry {} ({what}{map}) did not come back as it was: {why}{rest}", index + 1));
            break;
        }
        self.journal.replaying.set(false);
        let steps = self.history.borrow().view().labels.len().saturating_sub(steps_before);
        Ok(Replayed { steps, stopped })
    }

    /// Replays one journaled command — one of another subsystem's through `dispatch`: an
    /// edit, undo or redo that is refused says why.
    fn replay_entry(&self, cx: &Cx, dispatch: &dyn Fn(Command), what: &Journaled) -> Result<(), EntryNotBack> {
        let lua = cx.runtime.lua();
        let history = &self.history;
        match what {
            Journaled::Edit(edit) => Ok(super::edit::apply(lua, &mut history.borrow_mut(), edit).map(drop)?),
            Journaled::Content { edit, label, sources } => {
                let step = super::edit::remade(lua, edit, label, sources)?;
                history.borrow_mut().record(&mut cx.runtime.world_mut(), step);
                Ok(())
            }
            Journaled::Undo | Journaled::Redo => {
                let undo = *what == Journaled::Undo;
                match self.step_history(cx, undo, true) {
                    None => Err(EntryNotBack::NothingTo(if undo { "undo" } else { "redo" })),
                    Some(problems) if problems.is_empty() => Ok(()),
                    Some(problems) => Err(EntryNotBack::Problems(problems)),
                }
            }
            other => {
                dispatch(command_of(other.clone()));
                Ok(())
            }
        }
    }
}

/// Copies the journal folder `dir`'s files to a folder beside it (`journal.unrecovered-<ms>`)
/// and returns it; None if it could not be copied.
fn keep_journal_aside(dir: &Path) -> Option<PathBuf> {
    let kept = dir.with_file_name(format!("journal.unrecovered-{}", now_ms()));
    let copied = (|| -> std::io::Result<()> {
        std::fs::create_dir_all(&kept)?;
        for entry in std::fs::read_dir(dir)? {
            let entry = entry?;
            if entry.file_type()?.is_file() {
                std::fs::copy(entry.path(), kept.join(entry.file_name()))?;
            }
        }
        Ok(())
    })();
    match copied {
        Ok(()) => Some(kept),
        Err(error) => {
            tracing::warn!("the journal could not be kept aside in {}: {error}", kept.display());
            None
        }
    }
}
