//! The REPL on the host: evaluating input (among a breakpoint's locals while `pause()` waits),
//! completing it, showing source around a line, and the limits evaluations run under. What
//! it needs of the other subsystems it returns as [`ReplEffects`] (an edit to keep, an answer
//! to give); a script about to run it hands to the spine's `script_runs`.

use std::path::PathBuf;

use super::Debugging;
use crate::cx::Cx;
use nefia_game::world::WorldState;
use nefia_lua::repl;
use nefia_protocol::debugging::ReplCommand;
use nefia_protocol::message::HostEvent;
use nefia_protocol::repl::Evaluation;

/// What a REPL command leaves to the spine, for the other subsystems (applied in this order).
#[derive(Default)]
pub(crate) struct ReplEffects {
    /// The edit REPL code made while editing, which the spine gives the editing subsystem's
    /// undo history.
    pub edit: Option<ReplEdit>,
    /// The answer (code or a script, by its id), which the spine gives the timeline since a
    /// step back may hold it back.
    pub evaluated: Option<(u64, Evaluation)>,
}

/// REPL code evaluated while editing: what it changes becomes one undoable edit.
pub(crate) struct ReplEdit {
    /// The code.
    pub code: String,
    /// The world's revision before it ran (the same after: it changed nothing).
    pub revision: u64,
    /// The world's state before it ran.
    pub before: WorldState,
}

impl Debugging {
    /// Handles the REPL's commands; `playing` says the game is played. A script about to run
    /// is handed to `script_runs` with its text, which the spine gives the timeline so a step
    /// back can tell whether a replay runs the same — before it runs, as a step back from a
    /// break inside it asks.
    pub(crate) fn repl(
        &self,
        cx: &Cx,
        playing: bool,
        command: ReplCommand,
        script_runs: &dyn Fn(PathBuf, Vec<u8>),
    ) -> ReplEffects {
        let lua = cx.runtime.lua();
        let mut effects = ReplEffects::default();
        match command {
            ReplCommand::Eval { id, code } => {
                // While editing, what the code changes becomes one undoable edit. Code run at
                // a breakpoint belongs to the evaluation that paused.
                let editing = !playing && !cx.waiting();
                let before = editing.then(|| {
                    let world = cx.runtime.world();
                    (world.revision(), world.copy_state())
                });
                let result = repl::evaluate(lua, &code);
                effects.edit = before.map(|(revision, before)| ReplEdit { code, revision, before });
                effects.evaluated = Some((id, result));
            }
            ReplCommand::RunFile { id, path } => {
                // What it ran, for a step back to tell whether a replay would run the same.
                script_runs(path.clone(), std::fs::read(&path).unwrap_or_default());
                let result = match cx.runtime.run_file(&path) {
                    Ok(()) => Evaluation::Values(Vec::new()),
                    Err(failure) => Evaluation::Error(failure),
                };
                effects.evaluated = Some((id, result));
            }
            ReplCommand::Complete { id, text } => {
                let candidates = repl::complete(lua, &text);
                cx.send(HostEvent::Completions { id, candidates });
            }
            ReplCommand::ShowSource { file, line } => {
                cx.send(HostEvent::Source(repl::source_excerpt(lua, &file, line)));
            }
            ReplCommand::SetLimits { time, memory } => cx.runtime.engine().limits().set(lua, time, memory),
        }
        effects
    }
}
