//! Surviving a panic: every command runs under `catch_unwind` (see
//! [`Host::handle`](super::Host::handle)). Before a command that can change the world while
//! editing, [`Recovery`] copies it (when it is small enough); after a panic it checks the
//! world's invariants and puts the copy back if they are broken. While playing, a broken world
//! ends the play instead, and the edit state set aside at Play comes back (the spine hands
//! recovery how to end play). If the world is broken and nothing can be put back, the runtime
//! cannot go on: the unsaved maps are written beside their files as
//! `maps/<name>.ron.recovered`, and from then on the thread only serves the failure
//! ([`serve_failure`]), so nothing ever stays "busy".

use std::cell::RefCell;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use crossbeam_channel::{Receiver, Sender};

use super::cx::Cx;
use crate::shared::Shared;
use nefia_game::display::{LogLevel, LogLine};
use nefia_game::world::WorldState;
use nefia_protocol::message::{Command, HostEvent, PanicReport, RefusalKind, Refused};
use nefia_protocol::output::Output;
use nefia_protocol::view::{RuntimeState, Snapshot};

/// The text of a panic's payload.
pub(super) fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    match (payload.downcast_ref::<&str>(), payload.downcast_ref::<String>()) {
        (Some(text), _) => (*text).to_owned(),
        (_, Some(text)) => text.clone(),
        _ => "(a panic without a message)".to_owned(),
    }
}

/// The most objects plus map cells a world may have for the host to copy it before each
/// command that changes it (a few milliseconds); a larger world is checked after a panic
/// but cannot be put back.
pub const CHECKPOINT_BUDGET: usize = 4_000_000;

/// Why the runtime cannot go on after a panic.
#[derive(Debug, thiserror::Error)]
enum Unrecoverable {
    /// The world was still borrowed when the panic was caught: it cannot be checked.
    #[error("the world is still in use")]
    WorldInUse,
    /// The world is inconsistent (the first inconsistency found) and cannot be put back.
    #[error("the world is inconsistent ({0})")]
    Inconsistent(String),
}

/// Publishes why the runtime cannot serve the project (it could not be opened, or it
/// stopped after a panic it could not recover from) and answers commands with that until
/// shutdown. Nothing is busy from here on.
pub(super) fn serve_failure(
    repaint: &Arc<dyn Fn() + Send + Sync>,
    shared: &Shared,
    commands: &Receiver<Command>,
    events: &Sender<HostEvent>,
    project: &str,
    problem: String,
) {
    let mut snapshot = Snapshot::empty(project);
    snapshot.state = RuntimeState::Failed;
    snapshot.problem = Some(problem.clone());
    *shared.snapshot.lock().unwrap_or_else(|e| e.into_inner()) = Arc::new(snapshot);
    shared.busy_since.store(0, Ordering::Relaxed);
    // Every answer goes through `tell`; with the editor gone there is no one left to serve.
    let tell = |event: HostEvent| events.send(event).is_ok();
    if !tell(HostEvent::Output(Output::Log(LogLine { level: LogLevel::Error, text: problem.clone() }))) {
        return;
    }
    repaint();
    for command in commands.iter() {
        if matches!(command, Command::Shutdown) {
            return;
        }
        let told = command.answer_when_failed(&problem).is_none_or(tell);
        if !told {
            return;
        }
    }
}

/// What the host knows of panics: the last one caught, and whether the runtime can go on. A
/// part of the spine: [`Host::handle`](super::Host::handle) takes the checkpoint before each
/// command and recovers after a panic; the serve loops end once the host has failed.
#[derive(Default)]
pub(super) struct Recovery {
    /// The last panic caught, shown in the status bar until the next one.
    fault: RefCell<Option<String>>,
    /// Why the runtime cannot go on, once it cannot: the serve loop ends and only the
    /// failure is served.
    failed: RefCell<Option<String>>,
}

impl Recovery {
    /// The last panic caught, if there was one.
    pub(super) fn fault(&self) -> Option<String> {
        self.fault.borrow().clone()
    }

    /// True once the runtime cannot go on.
    pub(super) fn failed(&self) -> bool {
        self.failed.borrow().is_some()
    }

    /// Why the runtime cannot go on, once it cannot.
    pub(super) fn failure(&self) -> Option<String> {
        self.failed.borrow().clone()
    }

    /// Notes a panic caught: it goes to the Log, and the status bar shows it until the next.
    pub(super) fn note_fault(&self, cx: &Cx, message: String) {
        cx.log(LogLevel::Error, message.clone());
        *self.fault.borrow_mut() = Some(message);
    }

    /// A copy of the world to put back if `command` panics and leaves it inconsistent; none
    /// for commands that only read, for a world past [`CHECKPOINT_BUDGET`], and while
    /// `playing`: the edit state set aside at Play is the user's work, and the played game is
    /// ended instead (a turn's key press then costs no copy of the world).
    pub(super) fn checkpoint(&self, cx: &Cx, playing: bool, command: &Command) -> Option<WorldState> {
        if command.reads_only() || playing {
            return None;
        }
        let world = cx.runtime.engine().try_world().ok()?;
        (world.snapshot_size() <= CHECKPOINT_BUDGET).then(|| world.copy_state())
    }

    /// After a panic in command `name`: checks the world, puts it back to `checkpoint` if it
    /// is inconsistent, and reports what happened in the Log, the status bar and an
    /// [`HostEvent::Panicked`]. While `playing`, an inconsistent world is ended with the play
    /// (`end_play` puts back the edit state set aside at Play). If the world is inconsistent
    /// and cannot be put back, the runtime cannot go on: unsaved maps are written as
    /// `.ron.recovered` and the host fails.
    pub(super) fn recover(
        &self,
        cx: &Cx,
        playing: bool,
        end_play: &dyn Fn(),
        name: &str,
        message: String,
        checkpoint: Option<WorldState>,
    ) {
        let engine = cx.runtime.engine();
        let verdict = match engine.try_world_mut() {
            Err(_) => Err(Unrecoverable::WorldInUse),
            Ok(mut world) => match (world.check_invariants(), checkpoint) {
                (Ok(()), _) => Ok("the world is consistent and keeps what the command did before it".to_owned()),
                (Err(problem), Some(state)) => {
                    world.restore_state(state);
                    Ok(format!("the world was inconsistent ({problem}) and is put back as it was before the command"))
                }
                (Err(problem), None) => {
                    drop(world);
                    end_broken_play(cx, playing, end_play, problem.to_string())
                }
            },
        };
        let report = match verdict {
            Ok(outcome) => PanicReport {
                message: format!("the runtime caught a panic in {name}: {message}; {outcome}"),
                fatal: false,
                recovered: Vec::new(),
            },
            Err(problem) => {
                let recovered = write_recovered(cx, end_play);
                let mut text = format!("The runtime stopped after a panic in {name}: {message}; {problem}.");
                if !recovered.is_empty() {
                    let files: Vec<String> = recovered.iter().map(|p| p.display().to_string()).collect();
                    text.push_str(&format!("\nUnsaved maps were written beside their files: {}", files.join(", ")));
                }
                *self.failed.borrow_mut() = Some(text.clone());
                PanicReport { message: text, fatal: true, recovered }
            }
        };
        self.note_fault(cx, report.message.clone());
        cx.send(HostEvent::Panicked(report));
    }
}

/// After a panic left the played world inconsistent: ends the play with `end_play`, putting
/// back the edit state set aside at Play. Fails (the runtime cannot go on) when not
/// `playing`, or when the world is still inconsistent.
fn end_broken_play(cx: &Cx, playing: bool, end_play: &dyn Fn(), problem: String) -> Result<String, Unrecoverable> {
    let ended =
        format!("the played game was inconsistent ({problem}) and is ended: the edit state is back as it was at Play");
    let inconsistent = || Unrecoverable::Inconsistent(problem.clone());
    if !playing {
        return Err(inconsistent());
    }
    catch_unwind(AssertUnwindSafe(end_play)).map_err(|_| inconsistent())?;
    let world = cx.runtime.engine().try_world().map_err(|_| inconsistent())?;
    world.check_invariants().map_err(|_| inconsistent())?;
    Ok(ended)
}

/// Writes the unsaved maps of the edit state as `.ron.recovered` files (while playing,
/// `end_play` puts the edit state set aside back first: the played world is not the user's
/// work).
fn write_recovered(cx: &Cx, end_play: &dyn Fn()) -> Vec<PathBuf> {
    let restored = catch_unwind(AssertUnwindSafe(end_play));
    let engine = cx.runtime.engine();
    let (Ok(()), Some(project), Ok(world), Ok(files)) =
        (restored, engine.project().clone(), engine.try_world(), engine.try_map_files())
    else {
        return Vec::new();
    };
    let mut written = Vec::new();
    for result in files.write_recovered(&world, &project) {
        match result {
            Ok(path) => written.push(path),
            Err(error) => {
                let message = format!("an unsaved map could not be recovered: {error}");
                cx.refuse(Refused::new(RefusalKind::Maps, message));
            }
        }
    }
    written
}
