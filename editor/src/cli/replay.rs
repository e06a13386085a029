//! `nefia replay FILE`: a recorded play session replayed headless.

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use nefia_game::recording::ReportedError;
use nefia_game::{Symbol, Uid};

use super::{Exit, project_or_default};

/// Replay a recorded play session headless, as fast as the engine goes.
#[derive(clap::Args)]
pub struct Args {
    /// The recording (`<project>/recordings/*.ron`).
    file: PathBuf,
    /// The project to replay it on (default: the one the recording is in).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Compare every turn with the recording; exit 1 naming the first turn that differs.
    #[arg(long)]
    check: bool,
    /// Stop at the start of this turn.
    #[arg(long, value_name = "N")]
    to_turn: Option<u64>,
    /// Write the final state as a save to this file.
    #[arg(long, value_name = "FILE")]
    save_to: Option<PathBuf>,
    /// List every change of object UID's FIELD: turn, old → new, and the file:line (or
    /// the operation) that made it.
    #[arg(long, num_args = 2, value_names = ["UID", "FIELD"])]
    changes: Option<Vec<String>>,
    /// Profile every turn and print where the time went, summed over the recording:
    /// each event handler, UI layer, widget, map layer and the engine's work.
    #[arg(long)]
    profile: bool,
    /// Run the invariants (`base.invariant` prototypes) after every turn; exit 1 naming the
    /// first that fails, the turn and its message.
    #[arg(long)]
    invariants: bool,
}

/// What is wrong with `--changes UID FIELD`.
#[derive(Debug, PartialEq, thiserror::Error)]
enum ChangesError {
    /// Not two words.
    #[error("--changes takes a uid and a field name")]
    NotTwo,
    /// The uid is not a whole number.
    #[error("--changes: '{0}' is not a uid (a whole number above 0)")]
    NotAUid(String),
    /// The uid is 0 or the field is empty.
    #[error("--changes takes a uid above 0 and a field name")]
    Empty,
}

/// Reads `--changes UID FIELD`.
fn parse_changes(args: &[String]) -> Result<(Uid, Symbol), ChangesError> {
    let [uid, field] = args else { return Err(ChangesError::NotTwo) };
    let uid = uid.parse::<u64>().map_err(|_| ChangesError::NotAUid(uid.clone()))?;
    if uid == 0 || field.is_empty() {
        return Err(ChangesError::Empty);
    }
    Ok((Uid(uid), Symbol::intern(field)))
}

/// The project a recording belongs to: the folder above it holding `project.ron`.
fn project_of_recording(file: &Path) -> Option<PathBuf> {
    let file = file.canonicalize().ok()?;
    file.ancestors().skip(1).find(|dir| dir.join("project.ron").is_file()).map(Path::to_owned)
}

/// Replays the recording headless as fast as the engine goes; with `--check`, exit 1 naming
/// the first turn that differs and its first differences.
pub fn run(args: Args) -> Exit {
    let changes = match args.changes.as_deref().map(parse_changes).transpose() {
        Ok(changes) => changes,
        Err(error) => {
            eprintln!("nefia replay: {error}");
            return Ok(ExitCode::from(2));
        }
    };
    let project = match args.project.or_else(|| project_of_recording(&args.file)) {
        Some(project) => project,
        None => project_or_default(None)?,
    };
    let file = &args.file;
    let recording = match nefia_game::recording::Recording::read(file) {
        Ok(recording) => recording,
        Err(error) => {
            eprintln!("nefia replay: {error}");
            return Ok(ExitCode::from(2));
        }
    };
    let options = nefia_host::play::replay::ReplayOptions {
        check: args.check,
        to_turn: args.to_turn,
        save_to: args.save_to.clone(),
        end_test: None,
        changes,
        profile: args.profile,
        invariants: args.invariants,
        errors_fail: false,
    };
    let report = match nefia_host::play::replay::replay(&project, &recording, &options) {
        Ok(report) => report,
        Err(error) => {
            eprintln!("nefia replay: {}: {error}", file.display());
            return Ok(ExitCode::from(2));
        }
    };
    if !report.files.is_empty() {
        eprintln!("note: files changed since the recording was made: {}", report.files.describe());
    }
    for error in report.errors.iter().take(5) {
        eprintln!("[error] {error}");
    }
    let rate = report.turns as f64 / report.took.as_secs_f64().max(1e-9);
    println!(
        "replayed {} turns ({} inputs) in {:.1} ms, {rate:.0} turns/s: {}; state {:016x}",
        report.turns,
        report.inputs,
        report.took.as_secs_f64() * 1e3,
        report.ended,
        report.final_hash
    );
    if let Some(path) = &args.save_to {
        println!("wrote the final state to {}", path.display());
    }
    if args.profile {
        print_profile(&report.profile);
    }
    if let Some((uid, field)) = changes {
        if uid >= report.next_uid {
            eprintln!(
                "nefia replay: --changes: uid {uid} never exists in this recording (its objects have uids below {})",
                report.next_uid
            );
            return Err(ExitCode::from(2));
        }
        println!("{} change(s) of uid {uid}'s {field}:", report.changes.len());
        for entry in &report.changes {
            println!("{entry}");
        }
    }
    if let Some(reported) = &recording.error {
        return Ok(compare_reported_error(reported, report.error_screen.as_ref()));
    }
    if let Some((turn, failure)) = &report.invariant {
        eprintln!("after turn {turn}: {failure}");
        return Ok(ExitCode::FAILURE);
    }
    Ok(match report.divergence {
        Some(divergence) => {
            eprintln!("{divergence}");
            ExitCode::FAILURE
        }
        None => ExitCode::SUCCESS,
    })
}

/// A bug report's replay: says whether the error it reports came back, the same at the same
/// turn (success), or not.
fn compare_reported_error(reported: &ReportedError, replayed: Option<&ReportedError>) -> ExitCode {
    match replayed {
        Some(replayed) if replayed == reported => {
            println!("the reported error came back at turn {}: {}", replayed.turn, replayed.message);
            ExitCode::SUCCESS
        }
        Some(replayed) => {
            eprintln!("the reported error was, at turn {}: {}", reported.turn, reported.message);
            eprintln!("the replay stopped on another, at turn {}: {}", replayed.turn, replayed.message);
            ExitCode::FAILURE
        }
        None => {
            eprintln!(
                "the reported error did not come back (fixed, or the project differs from the one it was played on): \
                 turn {}: {}",
                reported.turn, reported.message
            );
            ExitCode::FAILURE
        }
    }
}

/// Prints the profiled turns summed: one line an entry, slowest first.
fn print_profile(turns: &[std::sync::Arc<nefia_protocol::profile::TurnProfile>]) {
    let entries = nefia_protocol::profile::summed(turns);
    let total: Duration = entries.iter().map(|(_, spent)| spent.time).sum();
    println!("where {} turns' {:.2} ms went:", turns.len(), total.as_secs_f64() * 1e3);
    println!("{:>10} {:>6} {:>7}  {:<10} what", "ms", "%", "calls", "kind");
    for (key, spent) in &entries {
        let share = spent.time.as_secs_f64() / total.as_secs_f64().max(1e-12) * 100.0;
        let at = if key.at.is_empty() { String::new() } else { format!(" ({})", key.at) };
        println!(
            "{:>10.3} {share:>5.1}% {:>7}  {:<10} {}{at}",
            spent.time.as_secs_f64() * 1e3,
            spent.calls,
            key.kind.name(),
            key.name
        );
    }
}
