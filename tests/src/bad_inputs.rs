//! The bad-input corpus (`tests/bad_inputs/<class>/<case>/`): broken maps, saves, projects and
//! mods, hostile mods, runaway scripts and bad command lines, each with the message it must
//! produce. Two runners share what is here, each case one test in both: the engine's
//! (`tests/tests/bad_inputs.rs`, the case as the editor loads it) and the binary's
//! (`editor/tests/bad_inputs.rs`: `nefia check`, `nefia run`, the argument parser). Every case
//! runs in a fresh copy of the demo project and is sorted into one outcome:
//!
//! - clean: refused with the expected message, nothing on disk or in the world changed;
//! - panic: the engine or the binary panicked;
//! - hang: no answer within [`HANG_AFTER`];
//! - silent: accepted, or refused without the expected message;
//! - lost: a file or the world changed.
//!
//! The tally is printed after the cases as `N cases, C clean, P panic, H hang, S silent, L lost`.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use libtest_mimic::{Arguments, Failed, Trial};

use crate::repo_root;

/// How long a case may take before it counts as a hang.
pub const HANG_AFTER: Duration = Duration::from_secs(60);

/// The time limit mods' `init.lua` get here unless the case names its own.
const MOD_TIME: &str = "1";
/// The time limit scripts get here unless the case names its own.
const SCRIPT_TIME: &str = "2";

/// The `case.ron` of a case.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Case {
    /// A fragment the error message must contain.
    pub expect: String,
    /// The command line (`cli` cases); `{SCRIPT}` is a script that would run fine.
    #[serde(default)]
    pub args: Vec<String>,
    /// The time limit in seconds, when the class's ([`MOD_TIME`], [`SCRIPT_TIME`]) is too
    /// short for what the case must reach (filling a memory limit takes its time in a debug
    /// build, and longer on a loaded machine).
    #[serde(default)]
    time_limit: Option<String>,
}

impl Case {
    /// The time limit the case's mods, maps or script run under, in seconds.
    pub fn time_limit(&self, class: &str) -> String {
        let default = if class == "scripts" { SCRIPT_TIME } else { MOD_TIME };
        self.time_limit.clone().unwrap_or_else(|| default.to_owned())
    }
}

/// What came of a case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Outcome {
    /// Refused as expected, nothing changed.
    Clean,
    /// The engine or the binary panicked.
    Panic,
    /// No answer within [`HANG_AFTER`].
    Hang,
    /// Accepted, or refused without the expected message.
    Silent,
    /// A file or the world changed.
    Lost,
}

/// A failed case: its outcome and what was seen.
pub struct Verdict(pub Outcome, pub String);

/// How a runner tries a case: given its class, its `case.ron` and the project folder made for
/// it, `Ok` if the case was refused with the expected message.
pub type Check = fn(&str, &Case, &Path) -> Result<(), Verdict>;

/// Runs every case of the classes `classes` accepts through `check` (`runner` says which in
/// the tally), each as one test, then prints the tally and exits as the tests went. A case
/// whose check changed a file of its project (its script aside) is lost.
pub fn run(runner: &str, classes: fn(&str) -> bool, check: Check) -> ! {
    let args = Arguments::from_args();
    let corpus = repo_root().join("tests/bad_inputs");
    let tally: Arc<Mutex<Vec<Outcome>>> = Arc::default();
    let mut trials = Vec::new();
    let mut class_dirs = folders(&corpus);
    class_dirs.retain(|dir| classes(&file_name(dir)));
    for class_dir in class_dirs {
        let class = file_name(&class_dir);
        for case_dir in folders(&class_dir) {
            let name = format!("{class}::{}", file_name(&case_dir));
            let (class, tally) = (class.clone(), tally.clone());
            trials.push(Trial::test(name, move || {
                let result = run_case(&class, &case_dir, check);
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
        "bad inputs {runner}: {} cases, {} clean, {} panic, {} hang, {} silent, {} lost",
        tally.len(),
        count(Outcome::Clean),
        count(Outcome::Panic),
        count(Outcome::Hang),
        count(Outcome::Silent),
        count(Outcome::Lost)
    );
    conclusion.exit()
}

/// The folders in `dir`, sorted.
fn folders(dir: &Path) -> Vec<PathBuf> {
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let mut found: Vec<PathBuf> = entries.flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    found.sort();
    found
}

fn file_name(path: &Path) -> String {
    path.file_name().expect("a name").to_string_lossy().into_owned()
}

/// One case through `check`, in a fresh project.
fn run_case(class: &str, case_dir: &Path, check: Check) -> Result<(), Verdict> {
    let text = std::fs::read_to_string(case_dir.join("case.ron")).expect("case.ron");
    let case: Case = ron::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", case_dir.display()));
    let project = project_for(class, case_dir);
    let dir = project.path();
    let script = Path::new("script.lua");
    let mut before = files_under(dir);
    before.remove(script);
    check(class, &case, dir)?;
    let mut after = files_under(dir);
    after.remove(script);
    if after != before {
        let changed: BTreeSet<_> =
            before.keys().chain(after.keys()).filter(|k| before.get(*k) != after.get(*k)).collect();
        return Err(Verdict(Outcome::Lost, format!("files changed: {changed:?}")));
    }
    Ok(())
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

/// `text` with the corpus's placeholders filled in.
fn fill(text: &str) -> String {
    let repo = repo_root();
    text.replace("{MODS}", &repo.join("mods").display().to_string())
        .replace("{ASSETS}", &repo.join("assets").display().to_string())
}

/// A copy of the demo project (its mods and assets named by absolute paths) with the case's
/// input put where its class says.
fn project_for(class: &str, case: &Path) -> tempfile::TempDir {
    let project = tempfile::tempdir().expect("a temporary folder");
    let dir = project.path();
    let repo = repo_root();
    crate::copy_dir(&repo.join("projects/demo/maps"), &dir.join("maps"));
    let manifest = std::fs::read_to_string(repo.join("projects/demo/project.ron")).expect("the demo project");
    let manifest = manifest.replace("\"../../mods\"", "\"{MODS}\"").replace("\"../../assets\"", "\"{ASSETS}\"");
    let manifest = match class {
        "mods" | "sandbox" => {
            crate::copy_dir(&case.join("mod"), &dir.join("mods/bad_mod"));
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
