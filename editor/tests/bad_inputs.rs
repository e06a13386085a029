//! The bad-input corpus (`tests/bad_inputs/<class>/<case>/`): broken maps, saves, projects and
//! mods, hostile mods, runaway scripts and bad command lines, each with the message it must
//! produce. Every case runs in a fresh copy of the demo project, in the engine (as the editor
//! loads it) and through the `nefia` binary (`nefia check`, `nefia run`, the argument
//! parser), and is sorted into one outcome:
//!
//! - clean: refused with the expected message, nothing on disk or in the world changed;
//! - panic: the engine or the binary panicked;
//! - hang: no answer within [`HANG_AFTER`];
//! - silent: accepted, or refused without the expected message;
//! - lost: a file or the world changed.
//!
//! Each case is one test; the tally is printed after them as
//! `N cases, C clean, P panic, H hang, S silent, L lost`.

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use libtest_mimic::{Arguments, Failed, Trial};
use nefia_lua::Runtime;
use nefia_lua::save::save_tables;
use nefia_protocol::output::Output;

/// How long a case may take before it counts as a hang.
const HANG_AFTER: Duration = Duration::from_secs(60);

/// The time limit mods' `init.lua` get here unless the case names its own.
const MOD_TIME: &str = "1";
/// The time limit scripts get here unless the case names its own.
const SCRIPT_TIME: &str = "2";

/// The `case.ron` of a case.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseFile {
    /// A fragment the error message must contain.
    expect: String,
    /// The command line (`cli` cases); `{SCRIPT}` is a script that would run fine.
    #[serde(default)]
    args: Vec<String>,
    /// The time limit in seconds, when the class's ([`MOD_TIME`], [`SCRIPT_TIME`]) is too
    /// short for what the case must reach (filling a memory limit takes its time in a debug
    /// build, and longer on a loaded machine).
    #[serde(default)]
    time_limit: Option<String>,
}

impl CaseFile {
    /// The time limit the case's mods, maps or script run under.
    fn time_limit(&self, class: &str) -> String {
        let default = if class == "scripts" { SCRIPT_TIME } else { MOD_TIME };
        self.time_limit.clone().unwrap_or_else(|| default.to_owned())
    }
}

/// What came of a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Clean,
    Panic,
    Hang,
    Silent,
    Lost,
}

/// A failed case: its outcome and what was seen.
struct Verdict(Outcome, String);

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("editor/ is in the repository").to_owned()
}

/// Every file under `dir` with its bytes.
fn files_under(dir: &Path) -> BTreeMap<PathBuf, Vec<u8>> {
    let mut found = BTreeMap::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(folder) = stack.pop() {
        for entry in std::fs::read_dir(&folder).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if let Ok(bytes) = std::fs::read(&path) {
                found.insert(path.strip_prefix(dir).unwrap_or(&path).to_owned(), bytes);
            }
        }
    }
    found
}

fn copy_dir(from: &Path, to: &Path) {
    for (relative, bytes) in files_under(from) {
        let target = to.join(relative);
        std::fs::create_dir_all(target.parent().expect("a file has a folder")).expect("folder made");
        std::fs::write(target, bytes).expect("file copied");
    }
}

/// `text` with the corpus's placeholders filled in.
fn fill(text: &str) -> String {
    let repo = repo();
    text.replace("{MODS}", &repo.join("mods").display().to_string())
        .replace("{ASSETS}", &repo.join("assets").display().to_string())
}

/// A copy of the demo project (its mods and assets named by absolute paths) with the case's
/// input put where its class says.
fn project_for(class: &str, case: &Path) -> tempfile::TempDir {
    let project = tempfile::tempdir().expect("a temporary folder");
    let dir = project.path();
    copy_dir(&repo().join("projects/demo/maps"), &dir.join("maps"));
    let manifest = std::fs::read_to_string(repo().join("projects/demo/project.ron")).expect("the demo project");
    let manifest = manifest.replace("\"../../mods\"", "\"{MODS}\"").replace("\"../../assets\"", "\"{ASSETS}\"");
    let manifest = match class {
        "mods" | "sandbox" => {
            copy_dir(&case.join("mod"), &dir.join("mods/bad_mod"));
            manifest.replace("\"damage_popups\"]", "\"damage_popups\", \"bad_mod\"]")
        }
        "projects" => std::fs::read_to_string(case.join("project.ron")).expect("the case's project.ron"),
        _ => manifest,
    };
    std::fs::write(dir.join("project.ron"), fill(&manifest)).expect("project.ron written");
    match class {
        "maps" => std::fs::copy(case.join("map.ron"), dir.join("maps/bad.ron")).map(|_| ()),
        "saves" => std::fs::create_dir_all(dir.join("saves"))
            .and_then(|()| std::fs::copy(case.join("save.ron"), dir.join("saves/bad.ron")).map(|_| ())),
        "scripts" => std::fs::copy(case.join("script.lua"), dir.join("script.lua")).map(|_| ()),
        _ => Ok(()),
    }
    .expect("the case's input copied");
    project
}

/// A runtime on `dir` under the limits the binary would use.
fn open(dir: &Path, time: &str, memory: Option<usize>) -> Result<Runtime, String> {
    let mut runtime = Runtime::new(Box::new(|_: Output| {})).map_err(|e| e.to_string())?;
    let seconds: f64 = time.parse().expect("a number of seconds");
    runtime.set_limits(Some(Duration::from_secs_f64(seconds)), memory);
    runtime.open(dir).map_err(|e| e.to_string())?;
    Ok(runtime)
}

/// The case in the engine: the error it gives, or a verdict if it lost something.
fn in_process(class: &str, dir: &Path, time: &str) -> Result<Option<String>, Verdict> {
    let lost = |what: &str| Verdict(Outcome::Lost, what.to_owned());
    match class {
        "maps" => {
            let runtime = open(dir, time, None).map_err(|e| Verdict(Outcome::Silent, e))?;
            let before = (runtime.world().revision(), runtime.world().maps().count());
            let result = {
                let (mut files, mut world, project) = runtime.maps_mut();
                files.open(&mut world, project.as_ref().expect("a project"), "bad").map(|_| ())
            };
            if (runtime.world().revision(), runtime.world().maps().count()) != before {
                return Err(lost("the world changed"));
            }
            Ok(result.err().map(|e| e.to_string()))
        }
        "saves" => {
            let mut runtime = open(dir, time, None).map_err(|e| Verdict(Outcome::Silent, e))?;
            runtime.start_game().map_err(|e| Verdict(Outcome::Silent, e.to_string()))?;
            let state = |runtime: &Runtime| {
                let tables = save_tables(runtime.lua()).expect("the save tables");
                runtime.world().save_game(tables)
            };
            let before = state(&runtime);
            let result = runtime.load_game("bad");
            if state(&runtime) != before {
                return Err(lost("the world changed"));
            }
            Ok(result.err().map(|e| e.to_string()))
        }
        "projects" | "mods" | "sandbox" => Ok(open(dir, time, Some(512 << 20))
            .and_then(|mut runtime| runtime.start_game().map_err(|e| e.to_string()))
            .err()),
        "scripts" => {
            let mut runtime = open(dir, time, Some(256 << 20)).map_err(|e| Verdict(Outcome::Silent, e))?;
            runtime.start_game().map_err(|e| Verdict(Outcome::Silent, e.to_string()))?;
            let error = runtime.run_file(&dir.join("script.lua")).err().map(|f| f.to_string());
            let alive = format!("{:?}", runtime.eval("return 1 + 1"));
            if !alive.contains("\"2\"") {
                return Err(Verdict(Outcome::Lost, format!("the engine does not answer after the script: {alive}")));
            }
            Ok(error)
        }
        _ => Ok(None),
    }
}

/// Runs `f` on its own thread: a panic or no answer within [`HANG_AFTER`] is a verdict.
fn guarded<T: Send + 'static>(f: impl FnOnce() -> Result<T, Verdict> + Send + 'static) -> Result<T, Verdict> {
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(catch_unwind(AssertUnwindSafe(f)));
    });
    match receive.recv_timeout(HANG_AFTER) {
        Ok(Ok(result)) => result,
        Ok(Err(payload)) => {
            let message = payload.downcast_ref::<String>().cloned().unwrap_or_else(|| format!("{payload:?}"));
            Err(Verdict(Outcome::Panic, message))
        }
        Err(_) => Err(Verdict(Outcome::Hang, format!("no answer within {HANG_AFTER:?}"))),
    }
}

/// The case through the binary: its exit code and stderr.
fn through_the_binary(class: &str, dir: &Path, case: &CaseFile) -> Result<(Option<i32>, String), Verdict> {
    let project = dir.display().to_string();
    let time = case.time_limit(class);
    let script = dir.join("script.lua").display().to_string();
    let args: Vec<String> = match class {
        "scripts" => ["run", &script, "--project", &project, "--time-limit", &time, "--memory-limit", "256"]
            .map(str::to_owned)
            .to_vec(),
        "cli" => {
            std::fs::write(&script, "print('fine')").expect("script written");
            case.args.iter().map(|a| a.replace("{SCRIPT}", &script)).collect()
        }
        _ => ["check", "--project", &project, "--time-limit", &time].map(str::to_owned).to_vec(),
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_nefia"))
        .args(&args)
        .current_dir(repo())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nefia starts");
    let started = Instant::now();
    while child.try_wait().expect("nefia can be waited for").is_none() {
        if started.elapsed() > HANG_AFTER {
            let _ = child.kill();
            return Err(Verdict(Outcome::Hang, format!("nefia {} did not end", args.join(" "))));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().expect("nefia's output");
    Ok((output.status.code(), String::from_utf8_lossy(&output.stderr).into_owned()))
}

fn run_case(class: &str, case_dir: &Path) -> Result<(), Verdict> {
    let text = std::fs::read_to_string(case_dir.join("case.ron")).expect("case.ron");
    let case: CaseFile = ron::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", case_dir.display()));
    let project = project_for(class, case_dir);
    let dir = project.path().to_owned();
    let before = files_under(&dir);
    let (owned_class, owned_dir, time) = (class.to_owned(), dir.clone(), case.time_limit(class));
    let error = guarded(move || in_process(&owned_class, &owned_dir, &time))?;
    let expect = &case.expect;
    if class != "cli" {
        match error {
            Some(error) if error.contains(expect.as_str()) => {}
            Some(error) => return Err(Verdict(Outcome::Silent, format!("the engine said {error:?}, not {expect:?}"))),
            None => return Err(Verdict(Outcome::Silent, "the engine accepted it".into())),
        }
    }
    let (code, stderr) = through_the_binary(class, &dir, &case)?;
    let expected_code = if class == "cli" { 2 } else { 1 };
    match code {
        Some(101) => return Err(Verdict(Outcome::Panic, format!("nefia panicked: {stderr}"))),
        Some(code) if code == expected_code && stderr.contains(expect.as_str()) => {}
        _ => return Err(Verdict(Outcome::Silent, format!("nefia exited {code:?} saying {stderr:?}, not {expect:?}"))),
    }
    let mut after = files_under(&dir);
    after.remove(Path::new("script.lua"));
    let mut before = before;
    before.remove(Path::new("script.lua"));
    if after != before {
        let changed: Vec<_> = after.keys().filter(|k| before.get(*k) != after.get(*k)).collect();
        return Err(Verdict(Outcome::Lost, format!("files changed: {changed:?}")));
    }
    Ok(())
}

fn main() {
    let args = Arguments::from_args();
    let corpus = repo().join("tests/bad_inputs");
    let tally: Arc<Mutex<Vec<Outcome>>> = Arc::default();
    let mut trials = Vec::new();
    let mut classes: Vec<PathBuf> =
        std::fs::read_dir(&corpus).expect("the corpus").flatten().map(|e| e.path()).collect();
    classes.retain(|p| p.is_dir());
    classes.sort();
    for class_dir in classes {
        let class = class_dir.file_name().expect("a name").to_string_lossy().into_owned();
        let mut cases: Vec<PathBuf> =
            std::fs::read_dir(&class_dir).expect("a class").flatten().map(|e| e.path()).collect();
        cases.sort();
        for case_dir in cases {
            let name = format!("{class}::{}", case_dir.file_name().expect("a name").to_string_lossy());
            let (class, tally) = (class.clone(), tally.clone());
            trials.push(Trial::test(name, move || {
                let result = run_case(&class, &case_dir);
                let outcome = result.as_ref().map_or_else(|v| v.0, |()| Outcome::Clean);
                tally.lock().unwrap_or_else(|e| e.into_inner()).push(outcome);
                result.map_err(|Verdict(outcome, seen)| Failed::from(format!("{outcome:?}: {seen}")))
            }));
        }
    }
    let conclusion = libtest_mimic::run(&args, trials);
    let tally = tally.lock().unwrap_or_else(|e| e.into_inner());
    let count = |outcome| tally.iter().filter(|&&o| o == outcome).count();
    println!(
        "bad inputs: {} cases, {} clean, {} panic, {} hang, {} silent, {} lost",
        tally.len(),
        count(Outcome::Clean),
        count(Outcome::Panic),
        count(Outcome::Hang),
        count(Outcome::Silent),
        count(Outcome::Lost)
    );
    conclusion.exit();
}
