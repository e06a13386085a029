//! `nefia package --out DIR`: a folder a player runs with no Rust and no repository — this
//! program copied under the game's name, `package.ron` beside it (which makes it the player
//! program: see [`crate::package`]), the project's maps, enabled mods and images in `game/`
//! (`contents.rs`: only what the game loads), a README for players and the licences of what
//! is shipped. The folder is made beside OUT and put in its place once whole; then the
//! packaged program's `--self-test` runs from it, as a player's machine would run it: a clean
//! environment, its home folder a scratch one.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use super::{Exit, project_or_default};
use crate::package::{MANIFEST, PackageManifest};

mod contents;
mod zip_archive;

/// Write a folder a player runs: the game's program, its mods, maps and images, a README and
/// the licences; then run the packaged game's self-test.
#[derive(clap::Args)]
pub struct Args {
    /// The project to package (default: the one here).
    #[arg(long)]
    project: Option<PathBuf>,
    /// The folder to write: new, empty, or a package made before (replaced).
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Also write the folder as one archive, `<DIR>.zip`.
    #[arg(long)]
    zip: bool,
}

/// Why a package could not be made; nothing was left half-written in OUT.
#[derive(Debug, thiserror::Error)]
pub enum PackageError {
    /// The project did not open.
    #[error(transparent)]
    Project(#[from] nefia_game::files::FileError),
    /// Its mods could not be found or ordered.
    #[error("{0}")]
    Mods(#[from] nefia_game::mods::ModsError),
    /// OUT is not a folder a package may be written to.
    #[error("{0}")]
    Out(String),
    /// A file could not be read, copied or written.
    #[error("{path}: {error}")]
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What went wrong.
        error: std::io::Error,
    },
    /// The archive could not be written.
    #[error("{path}: {error}")]
    Zip {
        /// The archive.
        path: PathBuf,
        /// What went wrong.
        error: zip::result::ZipError,
    },
}

/// `error` about `path`, for `map_err`.
fn io(path: &Path) -> impl FnOnce(std::io::Error) -> PackageError + '_ {
    move |error| PackageError::Io { path: path.to_owned(), error }
}

/// Packages the project, runs the package's self-test, and writes the archive if asked.
pub fn run(args: Args) -> Exit {
    let project = project_or_default(args.project)?;
    let made = match package(&project, &args.out) {
        Ok(made) => made,
        Err(error) => {
            eprintln!("nefia package: {error}");
            return Ok(ExitCode::from(2));
        }
    };
    println!(
        "packaged {} into {}: the program {}, {} mod(s), {} map(s), {} image(s); left out {} file(s) the game \
         does not load",
        made.manifest.name,
        args.out.display(),
        made.manifest.program,
        made.manifest.mods.len(),
        made.manifest.maps.len(),
        made.images,
        made.left_out
    );
    for note in &made.notes {
        println!("note: {note}");
    }
    if !self_test(&args.out, &made.manifest.program) {
        eprintln!("nefia package: the packaged game's self-test failed (above): the package is not fit to ship");
        return Ok(ExitCode::FAILURE);
    }
    if args.zip {
        let archive = zip_path(&args.out);
        if let Err(error) = zip_archive::write(&args.out, &archive) {
            eprintln!("nefia package: {error}");
            return Ok(ExitCode::FAILURE);
        }
        println!("wrote the archive {}", archive.display());
    }
    Ok(ExitCode::SUCCESS)
}

/// `OUT.zip` beside OUT.
fn zip_path(out: &Path) -> PathBuf {
    let mut name = out.file_name().unwrap_or_default().to_os_string();
    name.push(".zip");
    out.with_file_name(name)
}

/// What [`package`] wrote.
struct Made {
    manifest: PackageManifest,
    images: usize,
    left_out: usize,
    notes: Vec<String>,
}

/// Writes the package of `project` into `out` (see the module's text).
fn package(project: &Path, out: &Path) -> Result<Made, PackageError> {
    let project = nefia_game::project::Project::open(project)?;
    check_out(&project, out)?;
    let parent = match out.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_owned(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent).map_err(io(&parent))?;
    // Made whole beside OUT, then put in its place: a failure leaves OUT as it was.
    let building = tempfile::Builder::new().prefix(".nefia-package-").tempdir_in(&parent).map_err(io(&parent))?;
    let program = program_name(&project.manifest.name);
    let current = std::env::current_exe().map_err(io(Path::new("this program")))?;
    let target = building.path().join(&program);
    std::fs::copy(&current, &target).map_err(io(&current))?;
    let shipped = contents::write_game(&project, building.path())?;
    let manifest = PackageManifest {
        name: project.manifest.name.clone(),
        program: program.clone(),
        nefia: env!("CARGO_PKG_VERSION").to_owned(),
        mods: shipped.mods.clone(),
        maps: shipped.maps.clone(),
    };
    let manifest_path = building.path().join(MANIFEST);
    nefia_game::files::write_atomic(&manifest_path, nefia_game::files::to_ron(&manifest_path, &manifest)?.as_bytes())?;
    let readme = building.path().join("README.txt");
    nefia_game::files::write_atomic(&readme, contents::player_readme(&manifest).as_bytes())?;
    let licences = building.path().join("LICENCES.md");
    nefia_game::files::write_atomic(&licences, shipped.licences.as_bytes())?;
    if out.exists() {
        std::fs::remove_dir_all(out).map_err(io(out))?;
    }
    let built = building.keep();
    std::fs::rename(&built, out).map_err(io(out))?;
    Ok(Made { manifest, images: shipped.images, left_out: shipped.left_out, notes: shipped.notes })
}

/// The program's file name: the game's name in letters, digits, `-` and `_`, with `.exe` on
/// Windows.
fn program_name(name: &str) -> String {
    let stem: String =
        name.trim().chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' || c == '_' { c } else { '_' }).collect();
    let stem = if stem.chars().any(|c| c.is_ascii_alphanumeric()) { stem } else { "game".to_owned() };
    format!("{stem}{}", std::env::consts::EXE_SUFFIX)
}

/// Refuses an OUT that is a file, a folder holding anything but a package made before, or a
/// folder the package is made from (or one holding it).
fn check_out(project: &nefia_game::project::Project, out: &Path) -> Result<(), PackageError> {
    let shown = out.display();
    if out.exists() && !out.is_dir() {
        return Err(PackageError::Out(format!("--out {shown} is a file: name a new or empty folder")));
    }
    let target = resolved(out);
    let project_dir = resolved(&project.dir);
    let copied: Vec<PathBuf> =
        std::iter::once(project.maps_dir()).chain(project.mod_dirs()).chain(project.asset_dirs()).collect();
    let clash = project_dir.starts_with(&target)
        || copied.iter().map(|dir| resolved(dir)).any(|dir| target.starts_with(&dir) || dir.starts_with(&target));
    if clash {
        return Err(PackageError::Out(format!(
            "--out {shown} is, holds or is inside a folder the package is made from (the project, its maps, mods or \
             images): name a folder elsewhere"
        )));
    }
    let Ok(mut entries) = std::fs::read_dir(out) else { return Ok(()) };
    if entries.next().is_some() && !out.join(MANIFEST).is_file() {
        return Err(PackageError::Out(format!(
            "--out {shown} is not empty and is not a package made before (it has no {MANIFEST}): nothing was \
             written; name a new or empty folder"
        )));
    }
    Ok(())
}

/// `path` with links and `..` resolved as far as it exists (the rest as given).
fn resolved(path: &Path) -> PathBuf {
    if let Ok(real) = path.canonicalize() {
        return real;
    }
    match (path.parent(), path.file_name()) {
        (Some(parent), Some(name)) if !parent.as_os_str().is_empty() => resolved(parent).join(name),
        _ => std::path::absolute(path).unwrap_or_else(|_| path.to_owned()),
    }
}

/// Runs the packaged program's `--self-test` from `out` as a player's machine would: a clean
/// environment, HOME and the XDG folders a scratch folder's. Prints its output; true if it
/// passed.
fn self_test(out: &Path, program: &str) -> bool {
    let home = match tempfile::tempdir() {
        Ok(home) => home,
        Err(error) => {
            eprintln!("nefia package: no scratch home folder for the self-test: {error}");
            return false;
        }
    };
    let h = home.path();
    let Ok(dir) = std::path::absolute(out) else {
        eprintln!("nefia package: {} cannot be made an absolute path to run the game from", out.display());
        return false;
    };
    let mut command = Command::new(dir.join(program));
    command.arg("--self-test").current_dir(out).env_clear().env("HOME", h);
    for (variable, folder) in [("XDG_DATA_HOME", "data"), ("XDG_CONFIG_HOME", "config"), ("TMPDIR", "tmp")] {
        let dir = h.join(folder);
        if std::fs::create_dir_all(&dir).is_err() {
            eprintln!("nefia package: no scratch folder {} for the self-test", dir.display());
            return false;
        }
        command.env(variable, dir);
    }
    if cfg!(windows) {
        command.env("APPDATA", h.join("data")).env("USERPROFILE", h);
    }
    println!("running the packaged game's self-test: {} --self-test", program);
    match command.output() {
        Ok(output) => {
            print!("{}", String::from_utf8_lossy(&output.stdout));
            eprint!("{}", String::from_utf8_lossy(&output.stderr));
            output.status.success()
        }
        Err(error) => {
            eprintln!("nefia package: the packaged game could not be run: {error}");
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_program_is_named_after_its_game() {
        let exe = std::env::consts::EXE_SUFFIX;
        assert_eq!(program_name("Demo"), format!("Demo{exe}"));
        assert_eq!(program_name("My Game!"), format!("My_Game_{exe}"));
        assert_eq!(program_name("../.."), format!("game{exe}"));
    }
}
