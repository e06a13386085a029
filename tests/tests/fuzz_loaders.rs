//! Mutated real files through every loader: the demo's map files, a save of the demo game and
//! its `project.ron`, with bytes deleted, duplicated and changed, pieces of RON inserted and
//! numbers set to extremes.
//! No mutation may panic, abort or hang a loader or `nefia check`, and whatever a loader
//! accepts round-trips: written again and read back, it is the same. The fast reader of the
//! RON Nefia writes reads every such file as `ron` does, or declines it.

use std::fmt::Debug;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use nefia_game::files::{fast_reader, parse_ron, ron_options, to_ron};
use nefia_game::map_files::map_text;
use nefia_game::project::{Project, ProjectManifest};
use nefia_game::save::{MapRecord, RecordKind, SaveGame, SaveHead};
use nefia_game::value::{Key, Value};
use nefia_tests::{TestGame, repo_root};
use proptest::prelude::*;
use serde::de::DeserializeOwned;

/// The most a single load may take (far above what any takes): more is a hang.
const SLOW: Duration = Duration::from_secs(5);

/// Numbers a mutation may put in place of one in the file.
const EXTREMES: [&str; 12] = [
    "0",
    "-1",
    "4096",
    "4097",
    "65536",
    "2147483647",
    "-2147483648",
    "4294967296",
    "9223372036854775807",
    "18446744073709551615",
    "1e308",
    "-0.5",
];

/// Pieces of RON a mutation may insert: words and escapes with a meaning of their own, the
/// corners of the syntax the fast reader declines or must read as `ron` does.
const TOKENS: [&str; 24] = [
    "true(1)",
    "None",
    "None()",
    "Some",
    "Some(1, 2)",
    "Some (3)",
    "inf",
    "NaN",
    "// c\n",
    "/* c */",
    "r#",
    "r\"x\"",
    "\\'",
    "\\u{301}",
    "\\x41",
    "1e5",
    "-0",
    "()",
    "( )",
    ",",
    "Name(",
    "a: 1, ",
    "'c'",
    "\u{a0}",
];

/// One change to a file's bytes; positions are taken modulo the file's length.
#[derive(Clone, Debug)]
enum Mutation {
    Delete { at: usize, len: usize },
    Duplicate { at: usize, len: usize },
    Change { at: usize, byte: u8 },
    Extreme { nth_number: usize, value: usize },
    Insert { at: usize, token: usize },
}

fn mutation() -> impl Strategy<Value = Mutation> {
    prop_oneof![
        1 => (any::<usize>(), 1..40usize).prop_map(|(at, len)| Mutation::Delete { at, len }),
        1 => (any::<usize>(), 1..200usize).prop_map(|(at, len)| Mutation::Duplicate { at, len }),
        1 => (any::<usize>(), any::<u8>()).prop_map(|(at, byte)| Mutation::Change { at, byte }),
        6 => (any::<usize>(), 0..EXTREMES.len()).prop_map(|(nth_number, value)| Mutation::Extreme { nth_number, value }),
        2 => (any::<usize>(), 0..TOKENS.len()).prop_map(|(at, token)| Mutation::Insert { at, token }),
    ]
}

/// The byte ranges of the numbers in `text`.
fn numbers(text: &[u8]) -> Vec<(usize, usize)> {
    let mut found = Vec::new();
    let mut i = 0;
    while i < text.len() {
        if text[i].is_ascii_digit() && (i == 0 || !text[i - 1].is_ascii_alphanumeric() && text[i - 1] != b'_') {
            let start = if i > 0 && text[i - 1] == b'-' { i - 1 } else { i };
            let mut end = i;
            while end < text.len() && text[end].is_ascii_digit() {
                end += 1;
            }
            found.push((start, end));
            i = end;
        } else {
            i += 1;
        }
    }
    found
}

fn mutate(original: &str, mutations: &[Mutation]) -> String {
    let mut bytes = original.as_bytes().to_vec();
    for mutation in mutations {
        let len = bytes.len().max(1);
        match *mutation {
            Mutation::Delete { at, len: n } => {
                let at = at % len;
                bytes.drain(at..(at + n).min(bytes.len()));
            }
            Mutation::Duplicate { at, len: n } => {
                let at = at % len;
                let piece: Vec<u8> = bytes[at.min(bytes.len())..(at + n).min(bytes.len())].to_vec();
                bytes.splice(at..at, piece);
            }
            Mutation::Change { at, byte } => {
                let at = at % len;
                if at < bytes.len() {
                    bytes[at] = byte;
                }
            }
            Mutation::Insert { at, token } => {
                let at = at % len;
                bytes.splice(at.min(bytes.len())..at.min(bytes.len()), TOKENS[token].bytes());
            }
            Mutation::Extreme { nth_number, value } => {
                let spans = numbers(&bytes);
                if !spans.is_empty() {
                    let (start, end) = spans[nth_number % spans.len()];
                    bytes.splice(start..end, EXTREMES[value].bytes());
                }
            }
        }
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn demo_file(path: &str) -> String {
    std::fs::read_to_string(repo_root().join("projects/demo").join(path)).expect("a demo file")
}

/// A save of the demo game: the town with its people, the player placed, its memory.
fn demo_save() -> &'static str {
    static SAVE: OnceLock<String> = OnceLock::new();
    SAVE.get_or_init(|| {
        let mut runtime =
            nefia_lua::Runtime::open_project(&demo_dir(), Box::new(|_| {})).expect("the demo project opens");
        runtime.start_game().expect("the demo game starts");
        let tables = nefia_lua::save::save_tables(runtime.lua()).expect("save tables");
        to_ron(Path::new("demo.ron"), &runtime.world().save_game(tables)).expect("the save is written")
    })
}

fn demo_dir() -> PathBuf {
    repo_root().join("projects/demo")
}

fn timed<T>(what: &str, f: impl FnOnce() -> T) -> Result<T, TestCaseError> {
    let started = Instant::now();
    let result = f();
    prop_assert!(started.elapsed() < SLOW, "{} took {:?}", what, started.elapsed());
    Ok(result)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 5000, ..ProptestConfig::default() })]

    #[test]
    fn mutated_map_files_are_refused_or_round_trip(
        file in prop::sample::select(vec!["maps/town.ron", "maps/dungeon.ron"]),
        mutations in prop::collection::vec(mutation(), 1..4),
    ) {
        thread_local!(static GAME: TestGame = TestGame::new());
        let text = mutate(&demo_file(file), &mutations);
        let path = Path::new(file);
        GAME.with(|game| -> Result<(), TestCaseError> {
            let Ok(record) = parse_ron::<MapRecord>(path, &text) else { return Ok(()) };
            let mut world = game.runtime.world_mut();
            let built = timed("building the map", || world.map_from_record(&record, RecordKind::MapFile))?;
            let id = match built {
                Ok(id) => id,
                Err(nefia_game::WorldError::Record(error)) => {
                    let located = error.locate(path, &text);
                    prop_assert!(!located.is_empty());
                    return Ok(());
                }
                Err(other) => return Err(TestCaseError::fail(format!("not a record refusal: {other}"))),
            };
            let written = world.map_record(id, RecordKind::MapFile).unwrap();
            let again: MapRecord = parse_ron(path, &map_text(path, &written).unwrap()).unwrap();
            let id_again = world.map_from_record(&again, RecordKind::MapFile).unwrap();
            prop_assert_eq!(world.map_record(id_again, RecordKind::MapFile).unwrap(), written);
            world.remove_map(id).unwrap();
            world.remove_map(id_again).unwrap();
            Ok(())
        })?;
    }

    #[test]
    fn mutated_saves_are_refused_whole_or_round_trip(mutations in prop::collection::vec(mutation(), 1..4)) {
        thread_local!(static GAME: TestGame = TestGame::new());
        let text = mutate(demo_save(), &mutations);
        let path = Path::new("saves/demo.ron");
        GAME.with(|game| -> Result<(), TestCaseError> {
            let Ok(save) = parse_ron::<SaveGame>(path, &text) else { return Ok(()) };
            let mut world = game.runtime.world_mut();
            let before = world.revision();
            let loaded = timed("loading the save", || world.load_game(&save))?;
            match loaded {
                Ok(_) => {
                    prop_assert_eq!(world.check_invariants(), Ok(()));
                    let written = world.save_game(save.mods.clone());
                    let reread: SaveGame = parse_ron(path, &to_ron(path, &written).unwrap()).unwrap();
                    world.load_game(&reread).unwrap();
                    prop_assert_eq!(world.save_game(save.mods.clone()), written);
                }
                Err(nefia_game::WorldError::Record(error)) => {
                    prop_assert_eq!(world.revision(), before, "a refused save changes nothing");
                    prop_assert!(!error.locate(path, &text).is_empty());
                }
                Err(other) => return Err(TestCaseError::fail(format!("not a record refusal: {other}"))),
            }
            Ok(())
        })?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, ..ProptestConfig::default() })]

    #[test]
    fn mutated_project_files_are_refused_or_round_trip(mutations in prop::collection::vec(mutation(), 1..4)) {
        let text = mutate(&demo_file("project.ron"), &mutations);
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("project.ron"), &text).unwrap();
        if let Ok(project) = timed("opening the project", || Project::open(dir.path()))? {
            project.save().unwrap();
            let again: ProjectManifest = nefia_game::files::read_ron(&dir.path().join("project.ron")).unwrap();
            prop_assert_eq!(again, project.manifest);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 120, ..ProptestConfig::default() })]

    /// `nefia check` over a project whose map file and save are mutated: it reports, never
    /// panics, and names the files.
    #[test]
    fn nefia_check_reports_mutated_files_without_panicking(
        map_mutations in prop::collection::vec(mutation(), 1..3),
        save_mutations in prop::collection::vec(mutation(), 1..3),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let manifest = demo_file("project.ron")
            .replace("\"../../mods\"", &format!("{:?}", repo_root().join("mods")))
            .replace("\"../../assets\"", &format!("{:?}", repo_root().join("assets")));
        std::fs::write(dir.path().join("project.ron"), manifest).unwrap();
        std::fs::create_dir_all(dir.path().join("maps")).unwrap();
        std::fs::create_dir_all(dir.path().join("saves")).unwrap();
        std::fs::write(dir.path().join("maps/town.ron"), mutate(&demo_file("maps/town.ron"), &map_mutations)).unwrap();
        std::fs::write(dir.path().join("saves/slot.ron"), mutate(demo_save(), &save_mutations)).unwrap();
        let problems = timed("nefia check", || nefia_host::check::check_project(dir.path(), Duration::from_secs(10)))?;
        for problem in problems {
            let file = problem.file.display().to_string();
            prop_assert!(file.ends_with("town.ron") || file.ends_with("slot.ron") || file.ends_with("project.ron"), "{}", problem);
        }
    }
}

/// Whether `text` is read by the fast reader as `ron` reads it: if the fast reader accepts it,
/// `ron` must accept it too, with the same value. Returns whether the fast reader accepted it.
fn read_as_ron_reads<T: DeserializeOwned + PartialEq + Debug>(text: &str) -> Result<bool, TestCaseError> {
    let Ok(fast) = fast_reader::read::<T>(text) else { return Ok(false) };
    match ron_options().from_str::<T>(text) {
        Ok(slow) => prop_assert_eq!(fast, slow, "read differently:\n{}", text),
        Err(error) => {
            return Err(TestCaseError::fail(format!("ron refuses what the fast reader read ({error}):\n{text}")));
        }
    }
    Ok(true)
}

/// The demo's files, as the engine wrote them, by name.
fn written_files() -> [(&'static str, String); 4] {
    [
        ("maps/town.ron", demo_file("maps/town.ron")),
        ("maps/dungeon.ron", demo_file("maps/dungeon.ron")),
        ("project.ron", demo_file("project.ron")),
        ("saves/demo.ron", demo_save().to_owned()),
    ]
}

/// Reads `text` as the file `name` is read, through [`read_as_ron_reads`].
fn read_file_as_ron_reads(name: &str, text: &str) -> Result<bool, TestCaseError> {
    match name {
        "project.ron" => read_as_ron_reads::<ProjectManifest>(text),
        // A list of saves reads only a save's head, skipping the rest.
        "saves/demo.ron" => Ok(read_as_ron_reads::<SaveGame>(text)? & read_as_ron_reads::<SaveHead>(text)?),
        _ => read_as_ron_reads::<MapRecord>(text),
    }
}

#[test]
fn every_file_nefia_writes_is_read_by_the_fast_reader_as_ron_reads_it() {
    for (name, text) in written_files() {
        match read_file_as_ron_reads(name, &text) {
            Ok(accepted) => assert!(accepted, "{name} was declined"),
            Err(error) => panic!("{name}: {error}"),
        }
    }
}

/// A value as a mod's `save` table or a field may hold it: every kind, strings with quotes,
/// escapes, control characters and letters beyond ASCII, floats of every size.
fn value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Nil),
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::Int),
        any::<f64>().prop_map(Value::Float),
        (-1e6..1e6f64).prop_map(Value::Float),
        any::<String>().prop_map(|s| Value::Str(s.into())),
        "[a-z\"\\\n\t é]{0,8}".prop_map(|s| Value::Str(s.into())),
        any::<u64>().prop_map(|uid| Value::Object(nefia_game::object::Uid(uid))),
    ];
    leaf.prop_recursive(4, 32, 6, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..6).prop_map(|items| Value::List(items.into())),
            prop::collection::btree_map(
                prop_oneof![any::<i64>().prop_map(Key::Int), "[a-z_ ]{0,6}".prop_map(|s| Key::Str(s.into()))],
                inner,
                0..6,
            )
            .prop_map(|map| Value::Map(map.into())),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 3000, ..ProptestConfig::default() })]

    /// Mutated files, the fast reader against `ron`: never read differently.
    #[test]
    fn the_fast_reader_reads_mutated_files_as_ron_does(
        file in 0..4usize,
        mutations in prop::collection::vec(mutation(), 1..4),
    ) {
        let (name, text) = &written_files()[file];
        read_file_as_ron_reads(name, &mutate(text, &mutations))?;
    }

    /// Values as written: the fast reader reads them as `ron` does, and (but for the floats
    /// `ron` writes as words) reads them back unchanged.
    #[test]
    fn the_fast_reader_reads_written_values_as_ron_does(value in value()) {
        let text = to_ron(Path::new("value.ron"), &value).unwrap();
        if read_as_ron_reads::<Value>(&text)? {
            prop_assert_eq!(fast_reader::read::<Value>(&text).unwrap(), value);
        }
    }
}
