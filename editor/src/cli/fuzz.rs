//! `nefia fuzz`: the game played with random inputs on every core, the invariants checked
//! every turn, each failure shrunk and written as a regression recording
//! (`nefia_host::fuzz`).

use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Duration;

use nefia_host::fuzz::{self, FuzzOptions, FuzzProgress, SeedResult, ShrinkBudget, Weights};

use super::{Exit, parse_seconds, project_or_default};

/// Play the game with random inputs, one game a seed on every core; check the invariants
/// after every turn; shrink each failure (an invariant, a Lua error, an error logged, a
/// panic, a replay that differs) to the fewest inputs that still fail, and write it as
/// recordings/tests/fuzz-<what>-<seed>.ron, a regression test. Exit 1 if anything failed.
#[derive(clap::Args)]
pub struct Args {
    /// The project (default: the one here, or the repository's projects/demo).
    #[arg(long)]
    project: Option<PathBuf>,
    /// The seeds, one game each, first to last inclusive.
    #[arg(long, value_name = "A..B", default_value = "1..100")]
    seeds: String,
    /// Turns each game plays.
    #[arg(long, value_name = "N", default_value_t = 500)]
    turns: usize,
    /// Worker threads (default: one per core).
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
    /// Begin no seed after this many seconds.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    time: Option<Duration>,
    /// The weights of what the player does, changing the defaults: move=24, wait=3,
    /// stairs=1, pickup=3, drop=2, menu=3, save=1, load=1, back=1, forward=1; key:KEY=W adds
    /// a key of the game's own. Such as: --inputs move=10,save=4,key:f1=1
    #[arg(long, value_name = "WEIGHTS")]
    inputs: Option<String>,
    /// Take only the K-th of N disjoint slices of the seeds (a CI matrix's job K of N).
    #[arg(long, value_name = "K/N")]
    shard: Option<String>,
    /// Write one line of JSON a seed (its failure, shrunk, with its recording), so shards'
    /// outputs concatenate into one report; progress and the summary go to stderr.
    #[arg(long)]
    json: bool,
    /// Report failures without writing their regression recordings.
    #[arg(long)]
    no_write: bool,
    /// Begin no seed once this many failed.
    #[arg(long, value_name = "N")]
    max_failures: Option<u64>,
    /// The most games a shrink plays for one failure.
    #[arg(long, value_name = "N", default_value_t = ShrinkBudget::default().runs)]
    shrink_runs: usize,
}

/// Fuzzes the project (see the command's help).
pub fn run(args: Args) -> Exit {
    let project = project_or_default(args.project)?;
    let fail = |message: String| {
        eprintln!("nefia fuzz: {message}");
        Err(ExitCode::from(2))
    };
    let seeds = match super::r#gen::seeds_of("--seeds", &args.seeds, args.shard.as_deref()) {
        Ok(seeds) => seeds,
        Err(error) => return fail(error.to_string()),
    };
    let weights = match args.inputs.as_deref().map(Weights::parse).transpose() {
        Ok(weights) => weights.unwrap_or_default(),
        Err(refused) => return fail(refused.to_string()),
    };
    if args.turns == 0 {
        return fail("--turns 0: a game plays at least one turn".into());
    }
    let options = FuzzOptions {
        seeds,
        turns: args.turns,
        jobs: args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from)).max(1),
        time: args.time,
        weights,
        shrink: ShrinkBudget { runs: args.shrink_runs, ..ShrinkBudget::default() },
        write_tests: !args.no_write,
        max_failures: args.max_failures,
    };
    let workers = options.workers();
    let progress = FuzzProgress::default();
    let total = seeds.len();
    let json = args.json;
    let mut on_result = |result: &SeedResult| {
        if json {
            println!("{}", result_json(&project, result));
        } else if let Some(text) = describe_failure(&project, result) {
            // Above the progress line, which is drawn again.
            if std::io::stderr().is_terminal() {
                eprint!("\r\x1b[2K");
            }
            println!("{text}");
        }
    };
    let done = std::sync::atomic::AtomicBool::new(false);
    let run = std::thread::scope(|threads| {
        let shown = threads.spawn(|| show_progress(&progress, total, workers, &done));
        let run = fuzz::fuzz(&project, &options, &progress, &mut on_result);
        done.store(true, Ordering::Relaxed);
        let _ = shown.join();
        run
    });
    let report = match run {
        Ok(report) => report,
        Err(error) => return fail(error.to_string()),
    };
    let turns: usize = report.results.iter().map(|r| r.turns).sum();
    let rate = turns as f64 / report.took.as_secs_f64().max(1e-9);
    let failures = report.failures().count();
    let summary = format!(
        "fuzzed {} seeds ({turns} turns) in {:.1} s, {rate:.0} turns/s, {workers} jobs: {}{}",
        report.results.len(),
        report.took.as_secs_f64(),
        match failures {
            0 => "no failures".to_owned(),
            n => format!("{n} failed"),
        },
        if report.cut_short { " (stopped by --time or --max-failures before every seed was played)" } else { "" }
    );
    if json {
        eprintln!("{summary}");
    } else {
        println!("{summary}");
    }
    Ok(if failures == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// Draws the counts on stderr every half second until `done`, if stderr is a terminal.
fn show_progress(progress: &FuzzProgress, total: u64, workers: usize, done: &std::sync::atomic::AtomicBool) {
    let terminal = std::io::stderr().is_terminal();
    let started = std::time::Instant::now();
    while !done.load(Ordering::Relaxed) {
        std::thread::sleep(Duration::from_millis(500));
        if !terminal {
            continue;
        }
        let turns = progress.turns.load(Ordering::Relaxed);
        let rate = turns as f64 / started.elapsed().as_secs_f64().max(1e-9);
        eprint!(
            "\r\x1b[2K{}/{total} seeds, {rate:.0} turns/s, {workers} jobs, {} failed",
            progress.seeds.load(Ordering::Relaxed),
            progress.failures.load(Ordering::Relaxed)
        );
    }
    if terminal {
        eprint!("\r\x1b[2K");
    }
}

/// A shrunk failure's inputs are listed up to this many.
const SHOWN_INPUTS: usize = 30;

/// A failed seed's report: what failed, after which turn, the objects, the inputs before and
/// after shrinking, and where its recording went with the command that opens it.
fn describe_failure(project: &Path, result: &SeedResult) -> Option<String> {
    let found = result.found.as_ref()?;
    let failure = &found.shrunk.failure;
    let mut lines =
        vec![format!("FAILED seed {}: {} after turn {}", result.seed, failure.kind.describe(), failure.turn)];
    lines.extend(failure.message.lines().take(6).map(|line| format!("  {line}")));
    let objects = failure.objects();
    if !objects.is_empty() {
        let uids: Vec<String> = objects.iter().map(|uid| format!("uid {uid}")).collect();
        lines.push(format!("  objects: {}", uids.join(", ")));
    }
    let budget = if found.shrunk.out_of_budget { ", stopped by --shrink-runs or the time" } else { "" };
    lines.push(format!(
        "  inputs: {} played, shrunk to {} ({} games{budget})",
        found.played,
        found.shrunk.actions.len(),
        found.shrunk.runs
    ));
    if found.shrunk.actions.len() <= SHOWN_INPUTS {
        let inputs: Vec<String> = found.shrunk.actions.iter().map(ToString::to_string).collect();
        lines.push(format!("  shrunk inputs: {}", inputs.join(", ")));
    }
    match &found.test {
        Some(Ok(path)) => {
            lines.push(format!("  regression recording: {}", path.display()));
            lines.push(format!("  step through it in the editor: {}", fuzz::replay_command(project, path)));
        }
        Some(Err(error)) => lines.push(format!("  the regression recording could not be written: {error}")),
        None => {}
    }
    Some(lines.join("\n"))
}

/// One seed's result as a line of JSON.
fn result_json(project: &Path, result: &SeedResult) -> serde_json::Value {
    let failure = result.found.as_ref().map(|found| {
        let failure = &found.shrunk.failure;
        let (recording, replay, write_error) = match &found.test {
            Some(Ok(path)) => (Some(path.display().to_string()), Some(fuzz::replay_command(project, path)), None),
            Some(Err(error)) => (None, None, Some(error.to_string())),
            None => (None, None, None),
        };
        serde_json::json!({
            "what": failure.kind.describe(),
            "turn": failure.turn,
            "message": failure.message,
            "objects": failure.objects(),
            "first_seen": { "turn": found.failure.turn, "message": found.failure.message },
            "inputs": found.played,
            "shrunk_inputs": found.shrunk.actions.len(),
            "shrunk": found.shrunk.actions.iter().map(ToString::to_string).collect::<Vec<_>>(),
            "shrink_games": found.shrunk.runs,
            "recording": recording,
            "replay": replay,
            "write_error": write_error,
        })
    });
    serde_json::json!({ "seed": result.seed, "turns": result.turns, "inputs": result.inputs, "failure": failure })
}
