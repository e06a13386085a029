//! `nefia check`: load a project's mods, maps and saves and report every problem with its
//! file and line, without a display — everything `nefia run` and the editor would trip on.
//!
//! Each mod's `init.lua` runs under a time limit, [`CHECK_TIME_PER_MOD`] by default (a mod
//! that loops forever is reported, not waited for). A problem never stops the check: every map file and save is
//! read and checked whole (see [`nefia_game::validate`]), and the project's start map and player
//! prototype are checked against what was loaded, and so are the prototypes: each id a
//! `data_id` field names must be a prototype of its type, and a field a prototype sets that
//! its type does not declare must not be a slip for one it does (`nefia_lua::content_checks`).

mod locale;

pub use locale::check_locale;

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use nefia_game::files::{FileError, read_ron_text};
use nefia_game::project::{Project, check_name};
use nefia_game::save::{MapRecord, RecordKind, SaveGame};
use nefia_game::symbol::Symbol;
use nefia_game::validate::{check_map_record, check_save};
use nefia_lua::limits::Limits;
use nefia_lua::runtime::{Runtime, RuntimeError};
use nefia_protocol::output::Output;

/// How long one mod's `init.lua` may run in `nefia check` unless told otherwise.
pub const CHECK_TIME_PER_MOD: Duration = Duration::from_secs(10);

/// One problem found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    /// The file at fault.
    pub file: PathBuf,
    /// Its line, when known.
    pub line: Option<usize>,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{line}: {}", self.file.display(), self.message),
            None => write!(f, "{}: {}", self.file.display(), self.message),
        }
    }
}

impl From<FileError> for Problem {
    fn from(error: FileError) -> Problem {
        Problem { file: error.path, line: error.line, message: error.message }
    }
}

/// Loads the project in `dir` (each mod's `init.lua` may run for `time_per_mod`), every map
/// under its `maps/` folder and every save under `saves/`; returns the problems found (empty
/// when all is well).
pub fn check_project(dir: &Path, time_per_mod: Duration) -> Vec<Problem> {
    check_project_telling(dir, time_per_mod, None)
}

/// [`check_project`], telling `progress` each mod loaded and map checked.
pub fn check_project_telling(
    dir: &Path,
    time_per_mod: Duration,
    progress: Option<nefia_protocol::output::ProgressSink>,
) -> Vec<Problem> {
    let project = match Project::open(dir) {
        Ok(project) => project,
        Err(error) => return vec![error.into()],
    };
    let mut problems = Vec::new();
    let runtime = match Runtime::new(Box::new(|_: Output| {})) {
        Ok(runtime) => runtime,
        Err(error) => return vec![runtime_problem(dir, error)],
    };
    let mut runtime = runtime;
    runtime.set_limits(Some(time_per_mod), Some(Limits::EDITOR_MEMORY));
    if let Some(progress) = progress {
        runtime.set_progress(progress);
    }
    // With a mod missing, ids it would define are not reported as unknown.
    let mods_loaded = match runtime.open(dir) {
        Ok(()) => true,
        Err(error) => {
            problems.push(runtime_problem(dir, error));
            false
        }
    };
    let manifest_path = dir.join("project.ron");
    let manifest_text = std::fs::read_to_string(&manifest_path).unwrap_or_default();
    let at_key = |key: &str| manifest_text.lines().position(|l| l.contains(key)).map(|i| i + 1);
    let map_files = nefia_game::files::ron_files(&project.maps_dir());
    if let Some(start) = &project.manifest.start_map
        && !map_files.iter().any(|f| f.file_stem().is_some_and(|s| s == start.as_str()))
    {
        let message = format!("start_map '{start}' has no file maps/{start}.ron");
        problems.push(Problem { file: manifest_path.clone(), line: at_key("start_map"), message });
    }
    match &project.manifest.player {
        Some(player) if mods_loaded => {
            if let Err(error) = runtime.world().data.find(Symbol::intern("base.chara"), player) {
                let message = format!("player: {error}");
                problems.push(Problem { file: manifest_path.clone(), line: at_key("player"), message });
            }
        }
        Some(_) => {}
        None if project.manifest.start_map.is_some() => {
            let message = "a start_map is set but no player prototype: add `player: \"<id>\"`".to_owned();
            problems.push(Problem { file: manifest_path.clone(), line: None, message });
        }
        None => {}
    }
    if mods_loaded {
        // References that name no prototype of their type, and misspelled fields.
        problems.extend(nefia_lua::content_checks::problems(runtime.lua()).into_iter().map(|problem| Problem {
            file: PathBuf::from(problem.file.as_str()),
            line: (problem.line > 0).then(|| usize::try_from(problem.line).unwrap_or(usize::MAX)),
            message: problem.message,
        }));
        // Rules across fields that a prototype breaks.
        check_prototypes(&runtime, &mut problems);
    }
    let saves = nefia_game::files::ron_files(&project.saves_dir());
    let total = map_files.len() + saves.len();
    let engine = runtime.engine();
    for (done, file) in map_files.iter().enumerate() {
        engine.progress(format!("checking {}", file.display()), done, total);
        check_map_file(&runtime, file, mods_loaded, &mut problems);
    }
    for (done, file) in saves.iter().enumerate() {
        engine.progress(format!("checking {}", file.display()), map_files.len() + done, total);
        check_save_file(&runtime, file, mods_loaded, &mut problems);
    }
    problems
}

/// Checks one map file: its name, its RON, its ids and its records.
fn check_map_file(runtime: &Runtime, file: &Path, mods_loaded: bool, problems: &mut Vec<Problem>) {
    let stem = file.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    if let Err(refused) = check_name("map", &stem) {
        problems.push(Problem { file: file.to_owned(), line: None, message: refused.to_string() });
    }
    let (record, text): (MapRecord, String) = match read_ron_text(file) {
        Ok(read) => read,
        Err(error) => return problems.push(error.into()),
    };
    let world = runtime.world();
    if mods_loaded {
        for (id, message) in world.unknown_ids(&record) {
            problems.push(Problem { file: file.to_owned(), line: line_of(&text, &format!("\"{id}\"")), message });
        }
    }
    if let Err(error) = check_map_record(&world, &record, RecordKind::MapFile) {
        problems.extend(error.locate(file, &text).into_iter().map(Problem::from));
        return;
    }
    drop(world);
    if mods_loaded {
        validate_map(runtime, file, &record, problems);
    }
}

/// Runs the map validators (`base.map_validator`) on a well-formed map file, built aside in
/// the world and removed after.
fn validate_map(runtime: &Runtime, file: &Path, record: &MapRecord, problems: &mut Vec<Problem>) {
    let Ok(map) = runtime.world_mut().map_from_record(record, RecordKind::MapFile) else { return };
    let found = runtime.engine().limits().run(|| nefia_lua::mapgen::validate(runtime.lua(), map));
    let _ = runtime.world_mut().remove_map(map);
    match found {
        Ok(found) => problems.extend(found.into_iter().map(|problem| Problem {
            file: file.to_owned(),
            line: None,
            message: problem.to_string(),
        })),
        Err(error) => problems.push(Problem {
            file: file.to_owned(),
            line: None,
            message: format!("the map validators could not run: {}", nefia_lua::error::failure(error).message),
        }),
    }
}

/// Runs the data types' validators (their rules across fields) on every prototype of a type
/// that declares some: each rule broken is a problem at the prototype's `data:add`.
fn check_prototypes(runtime: &Runtime, problems: &mut Vec<Problem>) {
    let lua = runtime.lua();
    let found = runtime.engine().limits().run(|| -> mlua::Result<Vec<Problem>> {
        let mut found = Vec::new();
        let mut types = nefia_lua::data_validators::validated_types(lua)?;
        types.sort_by(|a, b| a.as_str().cmp(b.as_str()));
        for data_type in types {
            let prototypes: Vec<_> =
                runtime.world().data.entries(data_type.as_str()).map(|p| (p.id, p.origin.clone())).collect();
            for (id, origin) in prototypes {
                for problem in nefia_lua::data_validators::check(lua, data_type, id)? {
                    found.push(Problem {
                        file: PathBuf::from(origin.file.as_str()),
                        line: usize::try_from(origin.line).ok().filter(|&line| line > 0),
                        message: format!("{id} ({data_type}): {}", problem.message),
                    });
                }
            }
        }
        Ok(found)
    });
    match found {
        Ok(found) => problems.extend(found),
        Err(error) => problems.push(Problem {
            file: PathBuf::from("project.ron"),
            line: None,
            message: format!("the data validators could not run: {}", nefia_lua::error::failure(error).message),
        }),
    }
}

/// Checks one save file: its RON and the whole save (objects of unknown prototypes are kept
/// aside when it loads, so they are not problems).
fn check_save_file(runtime: &Runtime, file: &Path, mods_loaded: bool, problems: &mut Vec<Problem>) {
    let (save, text): (SaveGame, String) = match read_ron_text(file) {
        Ok(read) => read,
        Err(error) => return problems.push(error.into()),
    };
    if let Err(error) = check_save(&runtime.world(), &save) {
        let located = error.locate(file, &text).into_iter().map(Problem::from);
        // Without every mod, a player of a mod that did not load is not this save's fault.
        problems.extend(located.filter(|p| mods_loaded || !p.message.contains("none of the loaded mods")));
    }
}

fn runtime_problem(dir: &Path, error: RuntimeError) -> Problem {
    match error {
        RuntimeError::File(error) => error.into(),
        RuntimeError::Lua(failure) => {
            // Lua messages start with "file:line: ".
            let mut parts = failure.message.splitn(3, ':');
            match (parts.next(), parts.next().and_then(|l| l.trim().parse().ok()), parts.next()) {
                (Some(file), Some(line), Some(rest)) => {
                    Problem { file: PathBuf::from(file), line: Some(line), message: rest.trim().to_owned() }
                }
                _ => Problem { file: dir.to_owned(), line: None, message: failure.message },
            }
        }
        other => Problem { file: dir.join("project.ron"), line: None, message: other.to_string() },
    }
}

fn line_of(text: &str, needle: &str) -> Option<usize> {
    text.lines().position(|l| l.contains(needle)).map(|i| i + 1)
}
