//! `nefia package --zip`: the package folder as one archive, `<OUT>.zip`, its files under a
//! folder of the package's name, deflated; the player program keeps its permission to run.
//! Written beside its place and put there once whole.

use std::io::Write;
#[cfg(unix)]
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use super::{PackageError, io};

/// Writes the folder `dir` as the archive `archive`.
pub(super) fn write(dir: &Path, archive: &Path) -> Result<(), PackageError> {
    let zip_error = |error| PackageError::Zip { path: archive.to_owned(), error };
    let folder = dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "game".into());
    let parent = archive.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let mut builder = tempfile::Builder::new();
    // A file anyone may read, as any other written: not a temp file's owner-only mode.
    #[cfg(unix)]
    builder.permissions(std::fs::Permissions::from_mode(0o644));
    let file = builder.tempfile_in(parent).map_err(io(parent))?;
    let mut zip = zip::ZipWriter::new(file);
    let mut files = Vec::new();
    list_files(dir, &mut files)?;
    files.sort();
    for path in files {
        let inner = path.strip_prefix(dir).unwrap_or(&path).to_string_lossy().replace('\\', "/");
        let mode = file_mode(&path);
        let options = zip::write::SimpleFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .unix_permissions(mode);
        zip.start_file(format!("{folder}/{inner}"), options).map_err(zip_error)?;
        let bytes = std::fs::read(&path).map_err(io(&path))?;
        zip.write_all(&bytes).map_err(io(archive))?;
    }
    let file = zip.finish().map_err(zip_error)?;
    file.persist(archive).map_err(|error| PackageError::Io { path: archive.to_owned(), error: error.error })?;
    Ok(())
}

/// Every file under `dir`.
fn list_files(dir: &Path, files: &mut Vec<PathBuf>) -> Result<(), PackageError> {
    for entry in std::fs::read_dir(dir).map_err(io(dir))?.flatten() {
        let path = entry.path();
        match entry.file_type() {
            Ok(kind) if kind.is_dir() => list_files(&path, files)?,
            Ok(kind) if kind.is_file() => files.push(path),
            _ => {}
        }
    }
    Ok(())
}

/// The file's Unix permissions (the program's execute bits); 0o644 elsewhere.
fn file_mode(path: &Path) -> u32 {
    #[cfg(unix)]
    {
        std::fs::metadata(path).map_or(0o644, |m| m.permissions().mode() & 0o777)
    }
    #[cfg(not(unix))]
    {
        let _ = path;
        0o644
    }
}
