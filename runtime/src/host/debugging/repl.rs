//! The REPL on the host: evaluating input (among a breakpoint's locals while `pause()` waits),
//! completing it, showing source around a line, and the limits evaluations run under.

use std::time::Duration;

use crate::host::{Host, HostEvent};
use crate::lua::repl::{self, Evaluation};

/// What the REPL asks of the host.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub enum ReplCommand {
    /// Evaluate REPL input; the answer comes back as [`HostEvent::Evaluated`] with the same id.
    Eval {
        /// Matches the answer to the request.
        id: u64,
        /// Lua code: an expression or statements.
        code: String,
    },
    /// Run a Lua file as `nefia run` does (in a trusted environment of its own, under the
    /// limits; its chunk is named by its path, so breakpoints in it bind); answered with
    /// [`HostEvent::Evaluated`], with no values when it ran to its end.
    RunFile {
        /// Matches the answer to the request.
        id: u64,
        /// The file.
        path: std::path::PathBuf,
    },
    /// Complete the end of REPL input; answered with [`HostEvent::Completions`].
    Complete {
        /// Matches the answer to the request.
        id: u64,
        /// The input up to the cursor.
        text: String,
    },
    /// Show the lines of a loaded file around `line`; answered with [`HostEvent::Source`].
    ShowSource {
        /// The file as errors name it (`mods/elona/init.lua`).
        file: String,
        /// The line to show.
        line: u32,
    },
    /// Set the time limit of one evaluation and the Lua heap limit (`None`: unlimited).
    SetLimits {
        /// The time limit.
        time: Option<Duration>,
        /// The memory limit, in bytes.
        memory: Option<usize>,
    },
}

impl ReplCommand {
    /// The command's name in messages ("a panic in eval").
    pub fn name(&self) -> &'static str {
        match self {
            ReplCommand::Eval { .. } => "eval",
            ReplCommand::RunFile { .. } => "run file",
            ReplCommand::Complete { .. } => "complete",
            ReplCommand::ShowSource { .. } => "show source",
            ReplCommand::SetLimits { .. } => "set limits",
        }
    }

    /// A failed runtime's answer (see [`crate::host::Command::answer_when_failed`]): code
    /// fails with the problem, completion offers nothing.
    pub(in crate::host) fn answer_when_failed(&self, problem: &str) -> Option<HostEvent> {
        match self {
            ReplCommand::Eval { id, .. } | ReplCommand::RunFile { id, .. } => {
                let failure = crate::lua::LuaFailure { message: problem.to_owned(), traceback: String::new() };
                Some(HostEvent::Evaluated { id: *id, result: Evaluation::Error(failure) })
            }
            ReplCommand::Complete { id, .. } => Some(HostEvent::Completions { id: *id, candidates: Vec::new() }),
            ReplCommand::ShowSource { .. } | ReplCommand::SetLimits { .. } => None,
        }
    }

    /// The input a recorded session keeps of the command: code, or the script run.
    pub(in crate::host) fn recorded_input(&self) -> Option<crate::game::recording::Input> {
        use crate::game::recording::Input;
        match self {
            ReplCommand::Eval { code, .. } => Some(Input::Eval(code.clone())),
            ReplCommand::RunFile { path, .. } => Some(Input::Script(path.display().to_string())),
            ReplCommand::Complete { .. } | ReplCommand::ShowSource { .. } | ReplCommand::SetLimits { .. } => None,
        }
    }

    /// True if the command only reads the world (no checkpoint is taken before it).
    pub(in crate::host) fn reads_only(&self) -> bool {
        matches!(self, ReplCommand::ShowSource { .. } | ReplCommand::SetLimits { .. })
    }
}

impl Host {
    /// Handles the REPL's commands.
    pub(in crate::host) fn repl(&self, command: ReplCommand) {
        let lua = self.runtime.lua();
        match command {
            ReplCommand::Eval { id, code } => {
                // While editing, what the code changes becomes one undoable edit. Code run at
                // a breakpoint belongs to the evaluation that paused.
                let editing = !self.play.playing() && self.waits.depth() == 0;
                let before = editing.then(|| {
                    let world = self.runtime.world();
                    (world.revision(), world.copy_state())
                });
                let result = repl::evaluate(lua, &code);
                if let Some((revision, before)) = before {
                    self.editing.record_repl_edit(&self.cx(), &code, revision, &before);
                }
                self.play.answer_evaluation(&self.cx(), id, result);
            }
            ReplCommand::RunFile { id, path } => {
                // What it ran, for a step back to tell whether a replay would run the same.
                let text = std::fs::read(&path).unwrap_or_default();
                self.play.script_runs(path.clone(), text);
                let result = match self.runtime.run_file(&path) {
                    Ok(()) => Evaluation::Values(Vec::new()),
                    Err(failure) => Evaluation::Error(failure),
                };
                self.play.answer_evaluation(&self.cx(), id, result);
            }
            ReplCommand::Complete { id, text } => {
                let candidates = repl::complete(lua, &text);
                self.send(HostEvent::Completions { id, candidates });
            }
            ReplCommand::ShowSource { file, line } => {
                self.send(HostEvent::Source(repl::source_excerpt(lua, &file, line)));
            }
            ReplCommand::SetLimits { time, memory } => self.runtime.engine().limits().set(lua, time, memory),
        }
    }
}
