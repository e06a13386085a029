//! `nefia check`: every mod, map and save of a project loaded, and its problems listed.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use super::{Exit, parse_seconds, project_or_default, terminal_progress};

/// Load every mod, map and save of a project and report problems with file and line.
#[derive(clap::Args)]
pub struct Args {
    /// The project to check (default: the one here, or the repository's projects/demo).
    #[arg(long)]
    project: Option<PathBuf>,
    /// How long each mod's init.lua may run before it is reported as a runaway.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, default_value = "10")]
    time_limit: Duration,
    /// Check the locale files for language LANG (a folder under the mods' `locale/`, such as
    /// `jp`) instead: the keys other languages have and LANG lacks, and the keys of LANG
    /// nothing uses, with file and line.
    #[arg(long, value_name = "LANG")]
    locale: Option<String>,
}

/// Prints each problem as `file:line: message`; exit 1 if there are any.
pub fn run(args: Args) -> Exit {
    let project = project_or_default(args.project)?;
    let problems = match &args.locale {
        Some(language) => nefia_host::check::check_locale(&project, language, args.time_limit),
        None => {
            let (bar, sink) = terminal_progress();
            let problems = nefia_host::check::check_project_telling(&project, args.time_limit, Some(sink));
            bar.finish_and_clear();
            problems
        }
    };
    for problem in &problems {
        eprintln!("{problem}");
    }
    Ok(if problems.is_empty() {
        println!("{}: no problems found", project.display());
        ExitCode::SUCCESS
    } else {
        eprintln!("{} problem(s)", problems.len());
        ExitCode::FAILURE
    })
}
