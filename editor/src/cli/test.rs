//! `nefia test`: the project's regression recordings replayed.

use std::path::PathBuf;
use std::process::ExitCode;

use super::{Exit, project_or_default};

/// Replay the project's regression recordings (recordings/tests/*.ron) with --check and
/// their end tests; exit 1 if any fails.
#[derive(clap::Args)]
pub struct Args {
    /// The project (default: the one here, or the repository's projects/demo).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Run the invariants (`base.invariant` prototypes) after every turn too; a failure
    /// fails the recording, naming the invariant and the turn.
    #[arg(long)]
    invariants: bool,
}

/// Replays every regression recording of the project (`recordings/tests/`) with `--check`
/// and its end test; exit 1 if any fails.
pub fn run(args: Args) -> Exit {
    let project = project_or_default(args.project)?;
    let tests = nefia_host::play::replay::run_regression_tests(&project, args.invariants);
    if tests.is_empty() {
        println!("{}: no regression recordings in recordings/tests/", project.display());
        return Ok(ExitCode::SUCCESS);
    }
    for test in &tests {
        println!("{}", test.describe());
    }
    let failed = tests.iter().filter(|t| !t.passed()).count();
    println!("{} passed, {failed} failed", tests.len() - failed);
    Ok(if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
