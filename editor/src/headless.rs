//! The commands that need no display: `run`, `repl` and `check`.

use std::path::Path;
use std::process::ExitCode;
use std::time::Duration;

use nefia_runtime::Runtime;
use nefia_runtime::lua::Output;

/// Prints engine output: `print` lines and `Gui.mes` messages both go to stdout.
fn stdout_sink() -> Box<dyn FnMut(Output)> {
    Box::new(|output| match output {
        Output::Print(line) | Output::Message(line) => println!("{line}"),
        Output::Log(line) => eprintln!("[{}] {}", line.level.name(), line.text),
    })
}

fn open(project: &Path) -> Result<Runtime, ExitCode> {
    let mut runtime = Runtime::open_project(project, stdout_sink()).map_err(|error| {
        eprintln!("nefia: cannot open project {}: {error}", project.display());
        ExitCode::FAILURE
    })?;
    runtime.start_game().map_err(|error| {
        eprintln!("nefia: cannot start the game of {}: {error}", project.display());
        ExitCode::FAILURE
    })?;
    Ok(runtime)
}

/// How `nefia run` runs its script.
#[derive(Clone, Copy, Debug, Default)]
pub struct RunOptions {
    /// `pause()` opens a REPL on the terminal (`--break`); otherwise it does nothing.
    pub pause: bool,
    /// The time limit (`--time-limit`); none by default, scripts may be long jobs.
    pub time: Option<Duration>,
    /// The Lua heap limit in bytes (`--memory-limit`); none by default.
    pub memory: Option<usize>,
}

/// `nefia run FILE`: exit 0 on success, 1 with the message and traceback on stderr (a
/// script past its limits included).
pub fn run(file: &Path, project: &Path, options: RunOptions) -> ExitCode {
    let runtime = match open(project) {
        Ok(runtime) => runtime,
        Err(code) => return code,
    };
    runtime.break_on_terminal(options.pause);
    runtime.set_limits(options.time, options.memory);
    match runtime.run_file(file) {
        Ok(()) => ExitCode::SUCCESS,
        Err(failure) => {
            eprintln!("{failure}");
            ExitCode::FAILURE
        }
    }
}

/// `nefia repl`: read, evaluate, print, until end of input.
pub fn repl(project: &Path) -> ExitCode {
    let runtime = match open(project) {
        Ok(runtime) => runtime,
        Err(code) => return code,
    };
    runtime.break_on_terminal(true);
    nefia_runtime::lua::repl::read_eval_print(runtime.lua(), "", &|| false);
    ExitCode::SUCCESS
}

/// `nefia check`: print each problem as `file:line: message`; exit 1 if there are any.
pub fn check(project: &Path) -> ExitCode {
    let problems = nefia_runtime::check::check_project(project);
    for problem in &problems {
        eprintln!("{problem}");
    }
    if problems.is_empty() {
        println!("{}: no problems found", project.display());
        ExitCode::SUCCESS
    } else {
        eprintln!("{} problem(s)", problems.len());
        ExitCode::FAILURE
    }
}
