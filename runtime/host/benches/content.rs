//! Content edited in forms (issue 45's targets). A field edit to a redrawn map (≤ 150 ms on the
//! demo): `elona.putit`'s `max_hp` set through the host, as the Data pane sets it — checked, its
//! Lua file edited, compiled, hotloaded and written, journaled — until the snapshot of a town
//! holding 1,000 putits shows the new value. And what the typed checks add to loading the
//! demo's mods (≤ 10%): the same load with `types.check` (each declared default) and the
//! schema's check of each `data:add` entry made functions that accept everything; the two loads are
//! also timed alternately and the ratio of their best times printed, since this machine's speed
//! drifts from minute to minute. Run with `cargo bench -p nefia_host --bench content`.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use criterion::{BatchSize, Criterion, criterion_group};
use nefia_game::Value;
use nefia_game::edit::Edit;
use nefia_game::project::Project;
use nefia_host::{HostConfig, HostHandle};
use nefia_lua::Runtime;
use nefia_protocol::debugging::ReplCommand;
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::message::{Command, HostEvent};
use nefia_protocol::repl::Evaluation;

/// How long the host may take to answer before the bench gives up.
const PATIENCE: Duration = Duration::from_secs(60);

/// Places 1,000 putits on the current map, row by row, and returns the first one's uid.
const PLACE_PUTITS: &str = "local map = Map.current() local first
    for i = 0, 999 do
        local putit = Chara.create('elona.putit', i % map.width, (i // map.width) % map.height)
        first = first or putit
    end
    return first.uid";

/// How many times the alternating comparison loads the mods each way; each keeps its best.
const ROUNDS: usize = 10;

fn repository() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Copies folder `from` to `to`, leaving out what a session on it wrote (`.nefia`, saves,
/// recordings).
fn copy_folder(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a folder can be made");
    for entry in std::fs::read_dir(from).expect("the folder exists").map(|e| e.expect("an entry")) {
        let name = entry.file_name();
        let target = to.join(&name);
        match entry.file_type().expect("a file type").is_dir() {
            true if [".nefia", "saves", "recordings"].iter().any(|left_out| name == *left_out) => {}
            true => copy_folder(&entry.path(), &target),
            false => drop(std::fs::copy(entry.path(), &target).expect("the file copies")),
        }
    }
}

/// Waits for the first event of `host` that `pick` accepts.
fn until<T>(host: &HostHandle, mut pick: impl FnMut(&HostEvent) -> Option<T>) -> T {
    loop {
        let event = host.next_event(PATIENCE).expect("the host answers");
        if let Some(found) = pick(&event) {
            return found;
        }
    }
}

/// The values Lua `code` returns, run in the host's REPL.
fn eval(host: &HostHandle, code: &str) -> Vec<String> {
    host.send(Command::Repl(ReplCommand::Eval { id: 1, code: code.to_owned() }));
    match until(host, |event| match event {
        HostEvent::Evaluated { id: 1, result } => Some(result.clone()),
        _ => None,
    }) {
        Evaluation::Values(values) => values,
        other => panic!("{code}: {other:?}"),
    }
}

/// `max_hp` of the object the snapshot's inspector shows.
fn inspected_max_hp(host: &HostHandle) -> Option<Value> {
    let snapshot = host.snapshot();
    let details = snapshot.editing.inspected.first()?;
    details.fields.iter().find(|row| row.name == "max_hp")?.calc.clone()
}

fn field_edit(c: &mut Criterion) {
    let copy = tempfile::tempdir().expect("a temporary folder");
    for folder in ["projects/demo", "mods"] {
        copy_folder(&repository().join(folder), &copy.path().join(folder));
    }
    let host = HostHandle::spawn(HostConfig::recorded(copy.path().join("projects/demo"), Arc::new(|| {})));
    let started = Instant::now();
    while host.snapshot().map.is_none() {
        assert!(started.elapsed() < PATIENCE, "the demo opens");
        std::thread::sleep(Duration::from_millis(5));
    }
    let first = eval(&host, PLACE_PUTITS);
    let uid = first.first().and_then(|uid| uid.parse().ok()).map(nefia_game::Uid).expect("a putit's uid");
    host.send(Command::Editing(EditingCommand::Inspect(vec![uid])));
    let mut group = c.benchmark_group("content");
    group.sample_size(20);
    let mut sync: u64 = 0;
    let name = "putit.max_hp set in a form, until 1,000 putits show it";
    group.bench_function(name, |b| {
        b.iter_custom(|iterations| {
            let started = Instant::now();
            for _ in 0..iterations {
                sync += 1;
                // Each edit changes the value: setting the one the file has is refused.
                let max_hp = if sync.is_multiple_of(2) { 50 } else { 51 };
                host.send(Command::Editing(EditingCommand::Edit(Edit::PrototypeField {
                    data_type: "base.chara".into(),
                    id: "elona.putit".into(),
                    field: "max_hp".into(),
                    value: Some(Value::Int(max_hp)),
                })));
                host.send(Command::Sync { id: sync });
                until(&host, |event| matches!(event, HostEvent::Synced { id } if *id == sync).then_some(()));
                assert_eq!(inspected_max_hp(&host), Some(Value::Int(max_hp)), "the putit shows the new value");
            }
            started.elapsed()
        })
    });
    group.finish();
}

/// A runtime whose checks accept every value: `types.check` (which `data:add_type` calls for
/// each default) and the schema's check of each `data:add` entry.
fn unchecked(runtime: &Runtime) {
    let lua = runtime.lua();
    let types: mlua::Table = nefia_lua::engine(lua).api_global("types").expect("the types library");
    let accept = lua.create_function(|_, _: mlua::MultiValue| Ok(true)).expect("a function");
    types.raw_set("check", accept).expect("check is replaced");
    let accept_entry = lua.create_function(|_, _: mlua::MultiValue| Ok(mlua::Value::Nil)).expect("a function");
    nefia_lua::schema::install(lua, accept_entry).expect("the entry check is replaced");
}

/// A runtime, typed checks on or off, before the demo's mods load.
fn before_loading(checked: bool) -> Runtime {
    let runtime = Runtime::new(Box::new(|_| {})).expect("a runtime");
    if !checked {
        unchecked(&runtime);
    }
    runtime
}

fn typed_checks(c: &mut Criterion) {
    let project = Project::open(&repository().join("projects/demo")).expect("the demo project");
    let (dirs, mods) = (project.mod_dirs(), project.manifest.mods.clone());
    let load = |mut runtime: Runtime| {
        runtime.load_mods(&dirs, &mods).expect("the demo's mods load");
        runtime
    };
    let mut best = [Duration::MAX; 2];
    for _ in 0..ROUNDS {
        for (checked, best) in [true, false].into_iter().zip(&mut best) {
            let runtime = before_loading(checked);
            let started = Instant::now();
            let loaded = load(runtime);
            *best = (*best).min(started.elapsed());
            drop(loaded);
        }
    }
    let [on, off] = best.map(|d| d.as_secs_f64() * 1e3);
    println!(
        "loading the demo's mods, best of {ROUNDS} alternating: typed checks on {on:.2} ms, off {off:.2} ms: the checks add {:.1}% (target ≤ 10%)",
        (on / off - 1.0) * 100.0
    );
    let mut group = c.benchmark_group("loading the demo's mods");
    for (name, checked) in [("typed checks on", true), ("typed checks off (types.check accepts everything)", false)] {
        group.bench_function(name, |b| b.iter_batched(|| before_loading(checked), load, BatchSize::PerIteration));
    }
    group.finish();
}

criterion_group!(benches, field_edit, typed_checks);
criterion::criterion_main!(benches);
