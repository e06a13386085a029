//! `nefia check --locale LANG`: the keys other languages have and `LANG` lacks, and the keys of
//! `LANG` nothing uses, each with its file and line (see [`nefia_game::locale`]).

use std::path::{Path, PathBuf};
use std::time::Duration;

use nefia_lua::limits::Limits;
use nefia_lua::runtime::Runtime;
use nefia_protocol::output::Output;

use super::{Problem, runtime_problem};

/// Loads the project in `dir` (each mod's `init.lua` may run for `time_per_mod`: the prototypes
/// tell which `_` keys are used) and lists what its locale files lack in `language`.
pub fn check_locale(dir: &Path, language: &str, time_per_mod: Duration) -> Vec<Problem> {
    let mut runtime = match Runtime::new(Box::new(|_: Output| {})) {
        Ok(runtime) => runtime,
        Err(error) => return vec![runtime_problem(dir, error)],
    };
    runtime.set_limits(Some(time_per_mod), Some(Limits::EDITOR_MEMORY));
    let mut problems = Vec::new();
    if let Err(error) = runtime.open(dir) {
        problems.push(runtime_problem(dir, error));
    }
    let mods: Vec<(String, PathBuf)> = runtime.mods().iter().map(|m| (m.id().to_owned(), m.dir.clone())).collect();
    let (files, errors) = nefia_game::locale::scan(&mods);
    let languages = nefia_game::locale::languages(&files);
    if !languages.iter().any(|known| known == language) {
        let message = format!("no mod has a locale/{language} folder; the languages are {}", languages.join(", "));
        problems.push(Problem { file: dir.to_owned(), line: None, message });
    }
    let findings = nefia_game::locale::check(&files, &mods, &runtime.world().data, language);
    for error in errors {
        problems.push(Problem { file: PathBuf::from(&error.file), line: None, message: error.error.to_string() });
    }
    problems.extend(findings.into_iter().map(|finding| Problem {
        file: PathBuf::from(finding.file),
        line: Some(usize::try_from(finding.line).unwrap_or(usize::MAX)),
        message: finding.message,
    }));
    problems
}
