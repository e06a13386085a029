//! The commands that need no display: `run`, `repl`, `check`, `new-mod`, `replay`, `test`,
//! `gen` and `diff`.

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

/// A progress bar on the terminal (drawn on stderr, and only if it is a terminal) that the
/// runtime's progress steps move; call `finish_and_clear` when the long work is done.
fn terminal_progress() -> (indicatif::ProgressBar, nefia_runtime::lua::ProgressSink) {
    let bar = indicatif::ProgressBar::new(0);
    let style = indicatif::ProgressStyle::with_template("{spinner} [{bar:24}] {pos}/{len} {msg}")
        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar())
        .progress_chars("=> ");
    bar.set_style(style);
    let told = bar.clone();
    let sink: nefia_runtime::lua::ProgressSink = std::rc::Rc::new(move |step| {
        if told.is_finished() {
            return;
        }
        told.set_length(step.total as u64);
        told.set_position(step.done as u64);
        told.set_message(step.what.clone());
    });
    (bar, sink)
}

/// Opens `project` and starts a game; the options' limits hold from the first line of mod
/// code on. A terminal shows a progress bar meanwhile.
fn open(project: &Path, options: RunOptions) -> Result<Runtime, ExitCode> {
    let cannot_open = |error: nefia_runtime::runtime::RuntimeError| {
        eprintln!("nefia: cannot open project {}: {error}", project.display());
        ExitCode::FAILURE
    };
    let mut runtime = Runtime::new(stdout_sink()).map_err(cannot_open)?;
    runtime.break_on_terminal(options.pause);
    runtime.set_limits(options.time, options.memory);
    let (bar, sink) = terminal_progress();
    runtime.set_progress(sink);
    let opened = runtime.open(project).map_err(cannot_open).and_then(|()| {
        runtime.start_game().map_err(|error| {
            eprintln!("nefia: cannot start the game of {}: {error}", project.display());
            ExitCode::FAILURE
        })
    });
    bar.finish_and_clear();
    opened.map(|()| runtime)
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
    let runtime = match open(project, options) {
        Ok(runtime) => runtime,
        Err(code) => return code,
    };
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
    let runtime = match open(project, RunOptions { pause: true, ..RunOptions::default() }) {
        Ok(runtime) => runtime,
        Err(code) => return code,
    };
    nefia_runtime::lua::repl::read_eval_print(runtime.lua(), "", &|| false);
    ExitCode::SUCCESS
}

/// `nefia check`: print each problem as `file:line: message`; exit 1 if there are any.
pub fn check(project: &Path, time_per_mod: Duration) -> ExitCode {
    let (bar, sink) = terminal_progress();
    let problems = nefia_runtime::check::check_project_telling(project, time_per_mod, Some(sink));
    bar.finish_and_clear();
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

/// `nefia new-mod ID`: write a working mod skeleton into the project's `mods/` folder and
/// enable it in `project.ron`.
pub fn new_mod(project: &Path, id: &str) -> ExitCode {
    let made = nefia_runtime::project::Project::open(project)
        .and_then(|mut project| nefia_runtime::mods::create_mod(&mut project, id));
    match made {
        Ok(dir) => {
            println!("wrote {} (mod.ron, init.lua) and enabled '{id}' in project.ron", dir.display());
            println!("edit init.lua; the editor reloads it when you save");
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("nefia new-mod: {error}");
            ExitCode::FAILURE
        }
    }
}

/// What `nefia replay` does besides replaying.
pub struct ReplayArgs {
    /// Compare every turn's state with the recorded one; exit 1 at the first that differs.
    pub check: bool,
    /// Stop at the start of this turn.
    pub to_turn: Option<u64>,
    /// Write the final state as a save here.
    pub save_to: Option<std::path::PathBuf>,
    /// List every change of this object's field.
    pub changes: Option<(nefia_runtime::Uid, nefia_runtime::Symbol)>,
    /// Print where the time went, summed over the turns.
    pub profile: bool,
}

/// Reads `--changes UID FIELD`.
pub fn parse_changes(args: &[String]) -> Result<(nefia_runtime::Uid, nefia_runtime::Symbol), String> {
    let [uid, field] = args else { return Err("--changes takes a uid and a field name".into()) };
    let uid = uid.parse::<u64>().map_err(|_| format!("--changes: '{uid}' is not a uid (a whole number above 0)"))?;
    if uid == 0 || field.is_empty() {
        return Err("--changes takes a uid above 0 and a field name".into());
    }
    Ok((nefia_runtime::Uid(uid), nefia_runtime::Symbol::intern(field)))
}

/// The project a recording belongs to: the folder above it holding `project.ron`.
pub fn project_of_recording(file: &Path) -> Option<std::path::PathBuf> {
    let file = file.canonicalize().ok()?;
    file.ancestors().skip(1).find(|dir| dir.join("project.ron").is_file()).map(Path::to_owned)
}

/// `nefia replay FILE`: replay a recording headless as fast as the engine goes; with
/// `--check`, exit 1 naming the first turn that differs and its first differences.
pub fn replay(file: &Path, project: &Path, args: ReplayArgs) -> ExitCode {
    let recording = match nefia_runtime::recording::Recording::read(file) {
        Ok(recording) => recording,
        Err(error) => {
            eprintln!("nefia replay: {error}");
            return ExitCode::from(2);
        }
    };
    let options = nefia_runtime::host::replay::ReplayOptions {
        check: args.check,
        to_turn: args.to_turn,
        save_to: args.save_to.clone(),
        end_test: None,
        changes: args.changes,
        profile: args.profile,
    };
    let report = match nefia_runtime::host::replay::replay(project, &recording, &options) {
        Ok(report) => report,
        Err(error) => {
            eprintln!("nefia replay: {}: {error}", file.display());
            return ExitCode::from(2);
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
    if let Some((uid, field)) = args.changes {
        println!("{} change(s) of uid {uid}'s {field}:", report.changes.len());
        for entry in &report.changes {
            println!("{entry}");
        }
    }
    match report.divergence {
        Some(divergence) => {
            eprintln!("{divergence}");
            ExitCode::FAILURE
        }
        None => ExitCode::SUCCESS,
    }
}

/// Prints the profiled turns summed: one line an entry, slowest first.
fn print_profile(turns: &[std::sync::Arc<nefia_runtime::lua::profile::TurnProfile>]) {
    let entries = nefia_runtime::lua::profile::summed(turns);
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

/// `nefia test`: replay every regression recording of the project (`recordings/tests/`)
/// with `--check` and its end test; exit 1 if any fails.
pub fn test(project: &Path) -> ExitCode {
    let tests = nefia_runtime::host::replay::run_regression_tests(project);
    if tests.is_empty() {
        println!("{}: no regression recordings in recordings/tests/", project.display());
        return ExitCode::SUCCESS;
    }
    for test in &tests {
        println!("{}", test.describe());
    }
    let failed = tests.iter().filter(|t| !t.passed()).count();
    println!("{} passed, {failed} failed", tests.len() - failed);
    if failed == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE }
}

/// What `nefia gen` was asked.
pub struct GenArgs {
    /// The seed of a single map.
    pub seed: i64,
    /// The params as RON.
    pub params: Option<String>,
    /// Where to write the single map's file.
    pub out: Option<std::path::PathBuf>,
    /// `A..B`: scan these seeds instead.
    pub scan: Option<String>,
    /// The scan's predicate over `map`.
    pub predicate: Option<String>,
    /// The scan's metrics, `NAME=LUA`.
    pub metrics: Vec<String>,
    /// The scan's worker threads.
    pub jobs: Option<usize>,
}

/// Reads `A..B` (inclusive, A ≤ B).
fn seed_range(text: &str) -> Result<(i64, i64), String> {
    let (a, b) =
        text.split_once("..").ok_or_else(|| format!("--scan '{text}': write the seeds as A..B, such as 1..1000"))?;
    let parse = |s: &str| s.trim().parse::<i64>().map_err(|_| format!("--scan '{text}': '{s}' is not a whole number"));
    let (a, b) = (parse(a)?, parse(b)?);
    if a > b {
        return Err(format!("--scan '{text}': the first seed is past the last"));
    }
    Ok((a, b))
}

/// `nefia gen`: one generated map file, or a scan of seeds (see the command's help).
pub fn generate_maps(project: &Path, id: &str, args: GenArgs) -> ExitCode {
    use nefia_runtime::host::generate;
    let fail = |message: String| {
        eprintln!("nefia gen: {message}");
        ExitCode::from(2)
    };
    let params = match &args.params {
        Some(text) => match ron::from_str::<nefia_runtime::Value>(text) {
            Ok(params) => params,
            Err(error) => return fail(format!("--params is not RON ({{\"fill\": 0.5}}): {error}")),
        },
        None => nefia_runtime::Value::Nil,
    };
    let Some(range) = &args.scan else {
        return match generate::generate_file(project, id, &params, args.seed) {
            Ok(text) => match &args.out {
                Some(out) => match nefia_runtime::files::write_atomic(out, text.as_bytes()) {
                    Ok(()) => {
                        println!("wrote {id} seed {} to {}", args.seed, out.display());
                        ExitCode::SUCCESS
                    }
                    Err(error) => fail(error.to_string()),
                },
                None => {
                    print!("{text}");
                    ExitCode::SUCCESS
                }
            },
            Err(error) => {
                eprintln!("nefia gen: {error}");
                ExitCode::FAILURE
            }
        };
    };
    let seeds = match seed_range(range) {
        Ok(seeds) => seeds,
        Err(message) => return fail(message),
    };
    let mut metrics = Vec::new();
    for metric in &args.metrics {
        match metric.split_once('=') {
            Some((name, code)) if !name.trim().is_empty() => metrics.push((name.trim().to_owned(), code.to_owned())),
            _ => return fail(format!("--metric '{metric}': write it as NAME=LUA, such as open=#map:iter()")),
        }
    }
    let jobs = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from)).max(1);
    let scan = generate::Scan {
        generator: id.to_owned(),
        params,
        seeds,
        predicate: args.predicate,
        metrics: metrics.clone(),
        jobs,
    };
    match generate::scan(project, &scan, &Default::default()) {
        Ok(report) => {
            for found in &report.matches {
                let values: Vec<String> =
                    metrics.iter().zip(&found.metrics).map(|((name, _), value)| format!("  {name}={value}")).collect();
                println!("seed {}{}", found.seed, values.concat());
            }
            let rate = report.scanned as f64 / report.took.as_secs_f64().max(1e-9);
            println!(
                "scanned {} seeds of {id} in {:.2} s ({rate:.0} seeds/s, {jobs} jobs): {} matched",
                report.scanned,
                report.took.as_secs_f64(),
                report.matches.len()
            );
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("nefia gen: {error}");
            ExitCode::FAILURE
        }
    }
}

/// `nefia diff A B [--png OUT]`: prints what changed from map file `a` to map file `b` (see
/// [`nefia_runtime::map_diff`]); exit 0 if nothing did, 1 if something did, 2 if a file
/// cannot be read.
pub fn diff(a: &Path, b: &Path, png: Option<&Path>) -> ExitCode {
    use nefia_runtime::map_diff::{TileGrid, diff_maps};
    let read = |path: &Path| -> Result<(nefia_runtime::save::MapRecord, TileGrid), String> {
        let record: nefia_runtime::save::MapRecord = nefia_runtime::files::read_ron(path).map_err(|e| e.to_string())?;
        let grid = TileGrid::of(&record).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok((record, grid))
    };
    let (before, after) = match (read(a), read(b)) {
        (Ok(before), Ok(after)) => (before, after),
        (Err(error), _) | (_, Err(error)) => {
            eprintln!("nefia diff: {error}");
            return ExitCode::from(2);
        }
    };
    let found = diff_maps(&before.0, &before.1, &after.0, &after.1);
    print!("{found}");
    if let Some(png) = png {
        let changed = found.changed_cells(&before.1, &after.1);
        let pictured = crate::render::diff_image::write(png, (&before.1, &before.0), (&after.1, &after.0), &changed);
        if let Err(error) = pictured {
            eprintln!("nefia diff: {error}");
            return ExitCode::from(2);
        }
    }
    if found.is_empty() { ExitCode::SUCCESS } else { ExitCode::from(1) }
}
