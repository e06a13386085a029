//! Running map generators headless: `nefia gen ID` writes one generated map as a map file,
//! `nefia gen ID --scan A..B` generates every seed of a range on every core — one runtime
//! (one Lua state) per worker thread, seeds handed out one at a time — and reports the seeds
//! whose map passes a predicate, with metrics. A seed's map depends only on the seed and the
//! params (`Map.generate` seeds the random numbers itself), so the matches are the same
//! whatever the number of workers.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use nefia_game::map::MapId;
use nefia_game::save::RecordKind;
use nefia_game::value::Value;
use nefia_lua::convert::to_lua;
use nefia_lua::runtime::{Runtime, RuntimeError};
use nefia_lua::session::without_clock;
use nefia_protocol::output::Output;

/// Why generating failed.
#[derive(Debug, thiserror::Error)]
pub enum GenerateError {
    /// The project could not be opened.
    #[error("the project could not be opened: {0}")]
    Open(#[from] RuntimeError),
    /// The generator, a predicate or a metric failed (the message names the file and line).
    #[error("{0}")]
    Lua(String),
}

/// A runtime on `project` for generating: the editor's limits hold over each generation.
fn runtime_on(project: &Path) -> Result<Runtime, GenerateError> {
    let mut runtime = Runtime::new(Box::new(|_: Output| {}))?;
    runtime.set_limits(Some(nefia_lua::limits::Limits::EDITOR_TIME), Some(nefia_lua::limits::Limits::EDITOR_MEMORY));
    runtime.open(project)?;
    Ok(runtime)
}

/// Generates map `seed` of generator `id` with `params` in `runtime`; returns the map.
fn generate_in(runtime: &Runtime, id: &str, params: &Value, seed: i64) -> Result<MapId, GenerateError> {
    let lua = runtime.lua();
    let generate = || -> mlua::Result<MapId> {
        let map: mlua::Table = runtime
            .engine()
            .api_global::<mlua::Table>("Map")?
            .get::<mlua::Function>("generate")?
            .call((id, to_lua(lua, params)?, seed))?;
        Ok(MapId(map.raw_get::<u64>(1)?))
    };
    runtime.engine().limits().run(generate).map_err(|e| GenerateError::Lua(nefia_lua::error::failure(e).to_string()))
}

/// The map file text of seed `seed` of generator `id` with `params` (`nefia gen --out`).
pub fn generate_file(project: &Path, id: &str, params: &Value, seed: i64) -> Result<String, GenerateError> {
    let runtime = runtime_on(project)?;
    let map = generate_in(&runtime, id, params, seed)?;
    let record = runtime.world().map_record(map, RecordKind::MapFile).map_err(|e| GenerateError::Lua(e.to_string()))?;
    nefia_game::map_files::map_text(Path::new(&format!("{id}.ron")), &record)
        .map_err(|e| GenerateError::Lua(e.to_string()))
}

/// What to scan.
#[derive(Clone, Debug, Default)]
pub struct Scan {
    /// The generator.
    pub generator: String,
    /// Its params (a map of name → value; missing ones take the schema's defaults).
    pub params: Value,
    /// The seeds, first to last inclusive, and the shard of them this scan takes.
    pub seeds: crate::seeds::Seeds,
    /// A Lua expression over `map` (or a whole `function(map) ... end`): the seeds kept.
    pub predicate: Option<String>,
    /// Metrics: a name and a Lua expression over `map` (or a function), reported per seed.
    pub metrics: Vec<(String, String)>,
    /// Worker threads (at least 1).
    pub jobs: usize,
}

/// The most worker threads a scan starts, however many are asked for: each opens the
/// project in a Lua state of its own.
pub const MAX_JOBS: usize = 64;

impl Scan {
    /// How many workers the scan starts: the jobs asked for, but no more than there are
    /// seeds, nor than [`MAX_JOBS`]; at least one.
    pub fn workers(&self) -> usize {
        let seeds = usize::try_from(self.seeds.len()).unwrap_or(usize::MAX);
        self.jobs.min(seeds).clamp(1, MAX_JOBS)
    }
}

/// A seed that passed the predicate, with its metrics in the order asked.
#[derive(Clone, Debug, PartialEq)]
pub struct ScanMatch {
    /// The seed.
    pub seed: i64,
    /// Each metric's value, as Lua prints it.
    pub metrics: Vec<String>,
}

/// What a scan found.
#[derive(Clone, Debug)]
pub struct ScanReport {
    /// Seeds generated.
    pub scanned: u64,
    /// The matches, by seed.
    pub matches: Vec<ScanMatch>,
    /// How long it took.
    pub took: Duration,
}

/// Compiles an expression over `map`, or a whole function, into a function of the map.
fn function_of(runtime: &Runtime, what: &str, text: &str) -> Result<mlua::Function, GenerateError> {
    let code = if text.trim_start().starts_with("function") {
        format!("return {text}")
    } else {
        format!("return function(map) return {text} end")
    };
    let function =
        runtime.exec(&code, what).map_err(|f| GenerateError::Lua(format!("{what}: {f}")))?.into_iter().next();
    match function {
        Some(mlua::Value::Function(f)) => Ok(f),
        _ => Err(GenerateError::Lua(format!("{what}: expected a Lua expression over map, or a function(map)"))),
    }
}

/// How a running scan is followed and stopped from another thread.
#[derive(Clone, Debug, Default)]
pub struct ScanControl {
    /// Raised to stop the scan after the seeds being generated.
    pub cancel: Arc<AtomicBool>,
    /// How many seeds were generated so far.
    pub scanned: Arc<AtomicU64>,
}

/// One worker: takes seeds (by their place in the shard) from `next` until past the last
/// (or the scan is cancelled).
fn scan_worker(
    project: &Path,
    scan: &Scan,
    next: &AtomicU64,
    control: &ScanControl,
) -> Result<Vec<ScanMatch>, GenerateError> {
    let (cancel, scanned) = (&control.cancel, &control.scanned);
    let runtime = runtime_on(project)?;
    let predicate = scan.predicate.as_deref().map(|p| function_of(&runtime, "--where", p)).transpose()?;
    let metrics = scan
        .metrics
        .iter()
        .map(|(name, text)| function_of(&runtime, &format!("--metric {name}"), text))
        .collect::<Result<Vec<_>, _>>()?;
    let mut matches = Vec::new();
    let failed = |e: mlua::Error| GenerateError::Lua(nefia_lua::error::failure(e).to_string());
    while !cancel.load(Ordering::Relaxed) {
        let Some(seed) = scan.seeds.nth(next.fetch_add(1, Ordering::Relaxed)) else { break };
        let map = generate_in(&runtime, &scan.generator, &scan.params, seed)?;
        let handle = nefia_lua::handle::push_map(runtime.lua(), map).map_err(failed)?;
        let limits = runtime.engine().limits();
        let kept = match &predicate {
            Some(predicate) => without_clock(runtime.lua(), "a --where predicate", || {
                limits.run(|| predicate.call::<mlua::Value>(&handle))
            })
            .map_err(failed)?,
            None => mlua::Value::Boolean(true),
        };
        if !matches!(kept, mlua::Value::Nil | mlua::Value::Boolean(false)) {
            let values = metrics
                .iter()
                .map(|metric| {
                    let value = without_clock(runtime.lua(), "a --metric", || {
                        limits.run(|| metric.call::<mlua::Value>(&handle))
                    })
                    .map_err(failed)?;
                    Ok(nefia_lua::inspect::inspect(&value, 0))
                })
                .collect::<Result<Vec<_>, GenerateError>>()?;
            matches.push(ScanMatch { seed, metrics: values });
        }
        // Each seed's map goes once it is judged: a scan holds one map a worker.
        let _ = runtime.world_mut().remove_map(map);
        scanned.fetch_add(1, Ordering::Relaxed);
    }
    Ok(matches)
}

/// Scans `scan.seeds` on [`Scan::workers`] threads (see the module's text), counting in and
/// stopped by `control`.
pub fn scan(project: &Path, scan: &Scan, control: &ScanControl) -> Result<ScanReport, GenerateError> {
    let started = Instant::now();
    let next = AtomicU64::new(0);
    let results: Vec<Result<Vec<ScanMatch>, GenerateError>> = std::thread::scope(|threads| {
        let workers: Vec<_> =
            (0..scan.workers()).map(|_| threads.spawn(|| scan_worker(project, scan, &next, control))).collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or_else(|_| Err(GenerateError::Lua("a scan worker panicked".into()))))
            .collect()
    });
    let mut matches = Vec::new();
    for result in results {
        match result {
            Ok(found) => matches.extend(found),
            Err(error) => {
                control.cancel.store(true, Ordering::Relaxed);
                return Err(error);
            }
        }
    }
    matches.sort_by_key(|m| m.seed);
    Ok(ScanReport { scanned: control.scanned.load(Ordering::Relaxed), matches, took: started.elapsed() })
}
