//! Maps in git: `nefia merge`, the three-way merge of map files (see
//! [`nefia_runtime::map_merge`]) that git runs as a merge driver, and `nefia git-setup`, which
//! tells git to use it for a project's maps.

use std::path::Path;
use std::process::ExitCode;

use nefia_runtime::files::write_atomic;
use nefia_runtime::map_merge::merge_files;

/// The line `.gitattributes` needs for a project's map files to merge with the driver.
pub const ATTRIBUTES_LINE: &str = "maps/*.ron merge=nefia";

/// `nefia merge BASE OURS THEIRS -o OUT`: writes the merge of the two sides to `out` (git
/// passes ours as `out`). Exit 0 when it merged cleanly, 1 when conflicts are kept in the
/// file (listed on stderr), 2 when a file cannot be read or merged — then `out` is left as
/// it was.
pub fn merge(base: &Path, ours: &Path, theirs: &Path, out: &Path) -> ExitCode {
    let merged = match merge_files(base, ours, theirs, out) {
        Ok(merged) => merged,
        Err(error) => {
            eprintln!("nefia merge: {error}");
            return ExitCode::from(2);
        }
    };
    if merged.conflicts.is_empty() {
        return ExitCode::SUCCESS;
    }
    eprintln!(
        "nefia merge: {} conflict(s) kept in {} (open it in the editor to pick ours or theirs):",
        merged.conflicts.len(),
        out.display()
    );
    for conflict in &merged.conflicts {
        eprintln!("  {conflict}");
    }
    ExitCode::from(1)
}

/// `nefia git-setup [--project DIR]`: adds [`ATTRIBUTES_LINE`] to the project's
/// `.gitattributes` (once) and prints the `git config` line that enables the driver.
pub fn git_setup(project: &Path) -> ExitCode {
    let attributes = project.join(".gitattributes");
    let existing = match std::fs::read_to_string(&attributes) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(error) => {
            eprintln!("nefia git-setup: {}: {error}", attributes.display());
            return ExitCode::from(2);
        }
    };
    if !existing.lines().any(|line| line.trim() == ATTRIBUTES_LINE) {
        let mut text = existing;
        if !text.is_empty() && !text.ends_with('\n') {
            text.push('\n');
        }
        text.push_str(ATTRIBUTES_LINE);
        text.push('\n');
        if let Err(error) = write_atomic(&attributes, text.as_bytes()) {
            eprintln!("nefia git-setup: {error}");
            return ExitCode::from(2);
        }
        println!("wrote '{ATTRIBUTES_LINE}' to {}", attributes.display());
    } else {
        println!("{} already has '{ATTRIBUTES_LINE}'", attributes.display());
    }
    println!("enable the driver in this clone with:");
    println!("  {}", config_line(&nefia_command()));
    ExitCode::SUCCESS
}

/// The path of this `nefia`, quoted for a shell if it needs it.
fn nefia_command() -> String {
    let path = std::env::current_exe().map_or_else(|_| "nefia".to_owned(), |p| p.display().to_string());
    if path.contains([' ', '\'', '"']) { format!("\"{}\"", path.replace('"', "\\\"")) } else { path }
}

/// The `git config` command that makes `nefia` (the command that runs it) the `nefia` merge
/// driver.
pub fn config_line(nefia: &str) -> String {
    format!("git config merge.nefia.driver '{nefia} merge %O %A %B -o %A'")
}
