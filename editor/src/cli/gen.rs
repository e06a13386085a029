//! `nefia gen ID`: a map generator run once, or over a range of seeds.

use std::path::PathBuf;
use std::process::ExitCode;

use nefia_host::generate;
use nefia_host::seeds::{Seeds, Shard};

use super::{Exit, project_or_default};

/// Run a map generator (a base.map_generator prototype): print the map file it makes (or
/// write it with --out), or with --scan generate every seed of a range on every core and
/// list the seeds whose map passes --where, with --metric values.
#[derive(clap::Args)]
pub struct Args {
    /// The generator, such as elona.cave.
    id: String,
    /// The project whose mods to load (default: the one here, or the repository's projects/demo).
    #[arg(long)]
    project: Option<PathBuf>,
    /// The seed.
    #[arg(long, default_value_t = 1, allow_negative_numbers = true)]
    seed: i64,
    /// The params, as RON: {"fill": 0.5, "monsters": 3}.
    #[arg(long, value_name = "RON")]
    params: Option<String>,
    /// Write the map file here instead of printing it.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Scan the seeds A..B (inclusive) instead.
    #[arg(long, value_name = "A..B")]
    scan: Option<String>,
    /// With --scan: keep the seeds whose map makes this Lua expression over `map` true.
    #[arg(long = "where", value_name = "LUA")]
    predicate: Option<String>,
    /// With --scan: print NAME's value (a Lua expression over `map`) for each seed kept.
    #[arg(long = "metric", value_name = "NAME=LUA")]
    metrics: Vec<String>,
    /// With --scan: worker threads (default: one per core).
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
    /// With --scan: take only the K-th of N disjoint slices of the seeds (a CI matrix's job
    /// K of N); the N runs' outputs together are the whole scan's.
    #[arg(long, value_name = "K/N", requires = "scan")]
    shard: Option<String>,
    /// With --scan: write each seed kept as one line of JSON (`{"seed": 7, "metrics":
    /// {"open": "312"}}`), so shards' outputs concatenate into one report.
    #[arg(long, requires = "scan")]
    json: bool,
}

/// Which option of the seeds was not understood; each message names the option and how to
/// write it.
#[derive(Debug, thiserror::Error)]
pub(super) enum SeedsError {
    /// The range (`--scan`, `--seeds`) is not `A..B`.
    #[error("{0}")]
    Range(nefia_host::seeds::RangeError),
    /// `--shard` is not `K/N`.
    #[error("{0}")]
    Shard(nefia_host::seeds::ShardError),
}

/// The seeds of option `what` (`--scan A..B`), within `--shard K/N` if given.
pub(super) fn seeds_of(what: &str, range: &str, shard: Option<&str>) -> Result<Seeds, SeedsError> {
    let mut seeds = Seeds::parse_range(what, range).map_err(SeedsError::Range)?;
    if let Some(shard) = shard {
        seeds.shard = Shard::parse(shard).map_err(SeedsError::Shard)?;
    }
    Ok(seeds)
}

/// One generated map file, or a scan of seeds (see the command's help).
pub fn run(args: Args) -> Exit {
    let project = project_or_default(args.project)?;
    let id = &args.id;
    let fail = |message: String| {
        eprintln!("nefia gen: {message}");
        Ok(ExitCode::from(2))
    };
    let params = match &args.params {
        Some(text) => match ron::from_str::<nefia_game::Value>(text) {
            Ok(params) => params,
            Err(error) => return fail(format!("--params is not RON ({{\"fill\": 0.5}}): {error}")),
        },
        None => nefia_game::Value::Nil,
    };
    let Some(range) = &args.scan else {
        return match generate::generate_file(&project, id, &params, args.seed) {
            Ok(text) => match &args.out {
                Some(out) => match nefia_game::files::write_atomic(out, text.as_bytes()) {
                    Ok(()) => {
                        println!("wrote {id} seed {} to {}", args.seed, out.display());
                        Ok(ExitCode::SUCCESS)
                    }
                    Err(error) => fail(error.to_string()),
                },
                None => {
                    print!("{text}");
                    Ok(ExitCode::SUCCESS)
                }
            },
            Err(error) => {
                eprintln!("nefia gen: {error}");
                Ok(ExitCode::FAILURE)
            }
        };
    };
    let seeds = match seeds_of("--scan", range, args.shard.as_deref()) {
        Ok(seeds) => seeds,
        Err(error) => return fail(error.to_string()),
    };
    let mut metrics = Vec::new();
    for metric in &args.metrics {
        match metric.split_once('=') {
            Some((name, code)) if !name.trim().is_empty() => metrics.push((name.trim().to_owned(), code.to_owned())),
            _ => return fail(format!("--metric '{metric}': write it as NAME=LUA, such as open=#map:iter()")),
        }
    }
    let asked = args.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from)).max(1);
    let scan = generate::Scan {
        generator: id.to_owned(),
        params,
        seeds,
        predicate: args.predicate,
        metrics: metrics.clone(),
        jobs: asked,
    };
    let jobs = scan.workers();
    if args.jobs.is_some_and(|asked| asked > jobs) {
        let why = if jobs == generate::MAX_JOBS { "the most a scan starts" } else { "one per seed" };
        eprintln!("nefia gen: --jobs {asked}: using {jobs} ({why})");
    }
    Ok(match generate::scan(&project, &scan, &Default::default()) {
        Ok(report) => {
            for found in &report.matches {
                if args.json {
                    let values: serde_json::Map<String, serde_json::Value> = metrics
                        .iter()
                        .zip(&found.metrics)
                        .map(|((name, _), value)| (name.clone(), value.clone().into()))
                        .collect();
                    println!("{}", serde_json::json!({ "seed": found.seed, "metrics": values }));
                    continue;
                }
                let values: Vec<String> =
                    metrics.iter().zip(&found.metrics).map(|((name, _), value)| format!("  {name}={value}")).collect();
                println!("seed {}{}", found.seed, values.concat());
            }
            let rate = report.scanned as f64 / report.took.as_secs_f64().max(1e-9);
            let summary = format!(
                "scanned {} seeds of {id} in {:.2} s ({rate:.0} seeds/s, {jobs} jobs): {} matched",
                report.scanned,
                report.took.as_secs_f64(),
                report.matches.len()
            );
            // With --json, stdout is the report's lines only.
            if args.json {
                eprintln!("{summary}");
            } else {
                println!("{summary}");
            }
            ExitCode::SUCCESS
        }
        Err(error) => {
            eprintln!("nefia gen: {error}");
            ExitCode::FAILURE
        }
    })
}
