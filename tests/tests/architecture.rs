//! ARCHITECTURE.md stays true to the tree: every file or folder it names in backticks exists.
//! A path is read from the repository's root, or from the folders the document writes paths
//! from (the crates' `src/`, the runtime's three layers, the demo project); a bare file name
//! must be the name of some file of the repository.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use nefia_tests::repo_root;

/// The folders a path in ARCHITECTURE.md may be written from.
const BASES: [&str; 10] = [
    "",
    "runtime/src",
    "runtime/src/game",
    "runtime/src/lua",
    "runtime/src/host",
    "runtime",
    "editor/src",
    "editor",
    "projects",
    "projects/demo",
];

/// The extensions of the files the document names.
const EXTENSIONS: [&str; 7] = ["rs", "lua", "ron", "md", "toml", "js", "json"];

/// The names of every file under `dir` (the build's output and git's folder left out).
fn file_names(dir: &Path, names: &mut BTreeSet<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if !matches!(name.as_str(), "target" | ".git" | "node_modules") {
                file_names(&path, names);
            }
        } else {
            names.insert(name);
        }
    }
}

/// The backticked words of `text` that name a file or a folder: a path with a slash, or a
/// file name with one of [`EXTENSIONS`]; not globs, placeholders, URLs or code.
fn named_paths(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|word| {
            let plain = word.chars().all(|c| c.is_ascii_alphanumeric() || "/._-".contains(c));
            let has_extension =
                Path::new(word).extension().is_some_and(|e| EXTENSIONS.contains(&e.to_string_lossy().as_ref()));
            plain && !word.starts_with("//") && (word.contains('/') || has_extension) && !word.starts_with('.')
        })
        .map(str::to_owned)
        .collect()
}

/// Where `word` is in the repository, if it is.
fn find(root: &Path, names: &BTreeSet<String>, word: &str) -> Option<PathBuf> {
    if !word.contains('/') {
        return names.contains(word).then(|| PathBuf::from(word));
    }
    let relative = word.trim_end_matches('/');
    BASES.iter().map(|base| root.join(base).join(relative)).find(|path| path.exists())
}

#[test]
fn every_path_architecture_md_names_exists() {
    let root = repo_root();
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let mut names = BTreeSet::new();
    file_names(&root, &mut names);
    let words = named_paths(&text);
    assert!(words.len() > 100, "the document's paths are found: {}", words.len());
    let missing: Vec<&String> = words.iter().filter(|word| find(&root, &names, word).is_none()).collect();
    assert!(missing.is_empty(), "ARCHITECTURE.md names paths that do not exist: {missing:?}");
}

#[test]
fn a_path_that_does_not_exist_is_reported() {
    let root = repo_root();
    let mut names = BTreeSet::new();
    file_names(&root, &mut names);
    let words = named_paths("moved: `host/edit/resolve.rs` and `gone.rs`; kept: `host/serve.rs`, `lib.rs`");
    let missing: Vec<&String> = words.iter().filter(|word| find(&root, &names, word).is_none()).collect();
    assert_eq!(missing, ["host/edit/resolve.rs", "gone.rs"]);
}
