//! `nefia merge BASE OURS THEIRS -o OUT`: the three-way merge of map files (see
//! [`nefia_game::map_merge`]) that git runs as a merge driver (`nefia git-setup` tells it
//! to).

use std::path::PathBuf;
use std::process::ExitCode;

use nefia_game::map_merge::merge_files;

use super::Exit;

/// Merge two versions of a map file by cells and objects (git's merge driver: see
/// `git-setup`). Exit 0 if they merged cleanly, 1 if conflicts are kept in OUT for the
/// editor to resolve, 2 if a file cannot be read (OUT is then left as it was).
#[derive(clap::Args)]
pub struct Args {
    /// The common ancestor.
    base: PathBuf,
    /// Our version.
    ours: PathBuf,
    /// Their version.
    theirs: PathBuf,
    /// Where the merge is written (git passes OURS).
    #[arg(short, long, value_name = "OUT")]
    out: PathBuf,
}

/// Writes the merge of the two sides to `out` (git passes ours as `out`). Exit 0 when it
/// merged cleanly, 1 when conflicts are kept in the file (listed on stderr), 2 when a file
/// cannot be read or merged — then `out` is left as it was.
pub fn run(args: Args) -> Exit {
    let merged = match merge_files(&args.base, &args.ours, &args.theirs, &args.out) {
        Ok(merged) => merged,
        Err(error) => {
            eprintln!("nefia merge: {error}");
            return Ok(ExitCode::from(2));
        }
    };
    if merged.conflicts.is_empty() {
        return Ok(ExitCode::SUCCESS);
    }
    eprintln!(
        "nefia merge: {} conflict(s) kept in {} (open it in the editor to pick ours or theirs):",
        merged.conflicts.len(),
        args.out.display()
    );
    for conflict in &merged.conflicts {
        eprintln!("  {conflict}");
    }
    Ok(ExitCode::from(1))
}
