//! Helpers shared by the tests that run the `nefia` binary: the repository, running it
//! there, what it said, and copies of the repository's test fixtures.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository's root.
pub fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("editor/ is in the repository").to_owned()
}

/// Runs `nefia` with `args` in the repository.
pub fn nefia(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_nefia")).args(args).current_dir(repo()).output().expect("nefia runs")
}

/// What a run printed, its standard output then its errors.
pub fn said(out: &Output) -> String {
    format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr))
}

/// The fixtures of `folder` (in `tests/fixtures`) copied into `to`, so what a run writes
/// beside a source goes there.
pub fn fixtures(folder: &str, to: &Path) {
    fn copy(from: &Path, to: &Path) {
        std::fs::create_dir_all(to).expect("a folder can be made");
        for entry in std::fs::read_dir(from).expect("the fixtures' folder exists").flatten() {
            if entry.path().is_dir() {
                copy(&entry.path(), &to.join(entry.file_name()));
            } else {
                std::fs::copy(entry.path(), to.join(entry.file_name())).expect("the fixture copies");
            }
        }
    }
    copy(&repo().join("tests/fixtures").join(folder), to);
}
