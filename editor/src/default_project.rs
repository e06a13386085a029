//! Which project `nefia` opens when none is named: the one in (or under) the current
//! folder, else the demo of the repository the executable was built in — found above the
//! executable, or, when it was built into a target folder elsewhere (`CARGO_TARGET_DIR`) or
//! installed (`cargo install --path editor`), where the repository was at build time.

use std::path::{Path, PathBuf};

/// The demo project's folder, relative to a repository (or the current folder).
pub const DEMO: &str = "projects/demo";

/// No project was found; says where it was looked for.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "no project named and none found; looked for {}. Name one, such as `nefia edit path/to/project`, or run \
     nefia from the repository's folder",
    looked.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
)]
pub struct NotFound {
    /// Each `project.ron` looked for, in order.
    pub looked: Vec<PathBuf>,
}

/// The repository this executable was built from, as it was at build time.
fn built_in() -> Option<&'static Path> {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent()
}

/// The project to open when none is named, from the current folder `cwd`, the running
/// executable `exe` and the repository it was built in (`repository`): `cwd` itself if it is
/// a project, else `cwd/projects/demo`, else `projects/demo` of the nearest folder above the
/// executable that has one (`target/release/nefia` lives two levels under the repository),
/// else the repository's.
pub fn find(cwd: &Path, exe: Option<&Path>, repository: Option<&Path>) -> Result<PathBuf, NotFound> {
    let mut candidates = vec![cwd.to_owned(), cwd.join(DEMO)];
    if let Some(exe) = exe {
        candidates.extend(exe.ancestors().skip(1).map(|dir| dir.join(DEMO)));
    }
    candidates.extend(repository.map(|dir| dir.join(DEMO)));
    let mut looked = Vec::new();
    for dir in candidates {
        let manifest = dir.join("project.ron");
        if manifest.is_file() {
            return Ok(dir);
        }
        if !looked.contains(&manifest) {
            looked.push(manifest);
        }
    }
    Err(NotFound { looked })
}

/// [`find`] from this process's current folder and executable.
pub fn find_here() -> Result<PathBuf, NotFound> {
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let exe = std::env::current_exe().ok().and_then(|exe| exe.canonicalize().ok());
    find(&cwd, exe.as_deref(), built_in())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_current_folder_comes_first_then_the_executables_repository() {
        let root = tempfile::tempdir().unwrap();
        let repo = root.path().join("repo");
        let demo = repo.join(DEMO);
        std::fs::create_dir_all(&demo).unwrap();
        std::fs::write(demo.join("project.ron"), "()").unwrap();
        let exe = repo.join("target/release/nefia");
        let elsewhere = root.path().join("elsewhere");
        std::fs::create_dir_all(&elsewhere).unwrap();

        assert_eq!(find(&elsewhere, Some(&exe), None), Ok(demo.clone()), "found through the executable");
        assert_eq!(find(&repo, None, None), Ok(demo.clone()), "found under the current folder");
        // Built into a target folder outside the repository, or installed: where it was built.
        let outside = root.path().join("targets/release/nefia");
        assert_eq!(find(&elsewhere, Some(&outside), Some(&repo)), Ok(demo.clone()), "found where it was built");
        std::fs::write(elsewhere.join("project.ron"), "()").unwrap();
        assert_eq!(find(&elsewhere, Some(&exe), None), Ok(elsewhere.clone()), "a project folder is itself first");

        let empty = root.path().join("empty");
        std::fs::create_dir_all(&empty).unwrap();
        let error = find(&empty, Some(&empty.join("bin/nefia")), Some(&empty.join("gone"))).unwrap_err();
        assert_eq!(error.looked[0], empty.join("project.ron"));
        assert!(error.looked.contains(&empty.join(DEMO).join("project.ron")));
        assert!(error.looked.contains(&empty.join("gone").join(DEMO).join("project.ron")), "it says where it looked");
        assert!(built_in().is_some_and(|repo| repo.join(DEMO).join("project.ron").is_file()), "this repository's");
        let message = error.to_string();
        assert!(message.contains("looked for") && message.contains("nefia edit"), "{message}");
    }
}
