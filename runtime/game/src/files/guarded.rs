//! Writes that never replace a file another program is writing: a mod's Lua file edited in a
//! form, a map file saved. Every such write goes through [`write_over`].
//!
//! Some programs write a file in parts — an editor saving in place, a sync tool, `git
//! checkout` — and an atomic write (temp file, rename) made between two parts would swap in a
//! text made from the first part only, while the other program's later parts go to the file
//! the rename took away: lost. So before the rename, [`write_over`] waits until no other
//! program has the file open for writing (at most [`QUIET_WAIT`]), then checks that the file
//! still holds the bytes the edit was made from; if it is still being written, or now holds
//! other bytes, nothing is written and the write is refused with a message saying so ("try
//! again"). Reading a file to edit it waits the same way ([`wait_until_quiet`]), so an edit
//! made while another program writes is usually made on its whole text.
//!
//! Telling whether a file is being written:
//! - On Linux, by the open files of every process: each `/proc/<pid>/fd/<n>` that is the file
//!   (same device and inode, so a file reached by another path counts too) and whose
//!   `/proc/<pid>/fdinfo/<n>` flags open it for writing (`O_WRONLY` or `O_RDWR`). This sees a
//!   writer that has paused between two parts, which inotify cannot: inotify reports writes
//!   and closes as they happen, and nothing of a writer that wrote before it was asked and is
//!   still to write. Processes of other users are not visible (their `/proc/<pid>/fd` cannot
//!   be read); a project's files are written by its user.
//! - Elsewhere, by the file's metadata: a file whose modification time changed within
//!   [`QUIET_AFTER`] is taken as being written.
//!
//! On every platform the bytes are compared last, just before the rename, so a program that
//! replaced the file by a rename of its own (as most editors save) is seen too. What is left is
//! a window of a few system calls between that check and the rename.

use std::path::Path;
use std::time::{Duration, Instant};

use super::{FileError, MAX_FILE_BYTES, too_large, write_atomic_with};

/// The longest a write or a read for an edit waits for another program to stop writing the file.
pub const QUIET_WAIT: Duration = Duration::from_secs(2);

/// Where open files cannot be listed: how long since its last change a file is taken as still
/// being written.
pub const QUIET_AFTER: Duration = Duration::from_millis(300);

/// How often a waiting write looks again.
const POLL: Duration = Duration::from_millis(25);

/// Writes `bytes` to `path` atomically (as [`super::write_atomic`]) if no other program is
/// writing it and it still holds `read`, the bytes the edit was made from (none: there was no
/// file). A file being written is waited for, at most [`QUIET_WAIT`]; one still being written,
/// or holding other bytes, is refused and left as it is.
pub fn write_over(path: &Path, read: Option<&[u8]>, bytes: &[u8]) -> Result<(), FileError> {
    if u64::try_from(bytes.len()).map_or(true, |len| len > MAX_FILE_BYTES) {
        return Err(too_large(path));
    }
    write_atomic_with(path, |file| std::io::Write::write_all(file, bytes), || still_as_read(path, read))
}

/// Reads `path` for an edit once no other program is writing it (waiting at most
/// [`QUIET_WAIT`]): its bytes, or none if there is no such file.
pub fn read_quiet(path: &Path) -> Result<Option<Vec<u8>>, FileError> {
    wait_until_quiet(path)?;
    match std::fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(error) => Err(FileError::io(path, error)),
    }
}

/// Waits until no other program is writing `path`, at most [`QUIET_WAIT`]; refuses if one
/// still is.
fn wait_until_quiet(path: &Path) -> Result<(), FileError> {
    let deadline = Instant::now() + QUIET_WAIT;
    while being_written(path) {
        if Instant::now() >= deadline {
            return Err(busy(path));
        }
        std::thread::sleep(POLL);
    }
    Ok(())
}

/// The refusal of a write over a file another program is writing or has changed.
fn busy(path: &Path) -> FileError {
    FileError::new(
        path,
        "it is being written by another program (or changed since it was read); nothing was written: try again",
    )
}

/// Refuses unless `path` is quiet and holds `read` (see [`write_over`]).
fn still_as_read(path: &Path, read: Option<&[u8]>) -> Result<(), FileError> {
    match read_quiet(path)? {
        now if now.as_deref() == read => Ok(()),
        _ => Err(busy(path)),
    }
}

/// Whether another program has `path` open for writing (see the module's text).
#[cfg(target_os = "linux")]
fn being_written(path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let Ok(file) = std::fs::metadata(path) else { return false };
    let Ok(processes) = std::fs::read_dir("/proc") else { return false };
    processes.flatten().filter(|p| p.file_name().to_str().is_some_and(|n| n.bytes().all(|b| b.is_ascii_digit()))).any(
        |process| {
            let Ok(fds) = std::fs::read_dir(process.path().join("fd")) else { return false };
            fds.flatten().any(|fd| {
                let same = std::fs::metadata(fd.path()).is_ok_and(|m| m.dev() == file.dev() && m.ino() == file.ino());
                same && opened_for_writing(&process.path().join("fdinfo").join(fd.file_name()))
            })
        },
    )
}

/// Whether the open file `/proc/<pid>/fdinfo/<n>` describes was opened for writing.
#[cfg(target_os = "linux")]
fn opened_for_writing(fdinfo: &Path) -> bool {
    let Ok(info) = std::fs::read_to_string(fdinfo) else { return false };
    let flags = info.lines().find_map(|line| line.strip_prefix("flags:")).map(str::trim);
    flags.and_then(|octal| i32::from_str_radix(octal, 8).ok()).is_some_and(|f| f & libc::O_ACCMODE != libc::O_RDONLY)
}

/// Whether `path` changed within [`QUIET_AFTER`] (see the module's text).
#[cfg(not(target_os = "linux"))]
fn being_written(path: &Path) -> bool {
    let modified = std::fs::metadata(path).and_then(|m| m.modified());
    modified.is_ok_and(|at| at.elapsed().is_ok_and(|since| since < QUIET_AFTER))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    #[cfg(target_os = "linux")]
    fn a_file_open_for_writing_is_waited_for_then_refused_and_left_as_it_is() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("items.lua");
        std::fs::write(&path, "first half").unwrap();
        let writer = std::fs::OpenOptions::new().append(true).open(&path).unwrap();
        let reader = std::fs::File::open(&path).unwrap();
        assert!(being_written(&path), "an open writer is seen");
        let refused = write_over(&path, Some(b"first half"), b"edited").unwrap_err();
        assert!(refused.to_string().contains("being written by another program"), "{refused}");
        assert_eq!(std::fs::read(&path).unwrap(), b"first half", "nothing was written");
        drop(writer);
        assert!(!being_written(&path), "a reader is no writer");
        drop(reader);
    }

    #[test]
    fn a_file_holding_other_bytes_than_were_read_is_not_replaced() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("town.ron");
        std::fs::write(&path, "changed by another program").unwrap();
        std::thread::sleep(QUIET_AFTER);
        let refused = write_over(&path, Some(b"as read"), b"edited").unwrap_err();
        assert!(refused.to_string().contains("changed since it was read"), "{refused}");
        assert_eq!(std::fs::read(&path).unwrap(), b"changed by another program");
        write_over(&path, Some(b"changed by another program"), b"edited").unwrap();
        assert_eq!(std::fs::read(&path).unwrap(), b"edited");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1, "no temp file left behind");
        write_over(&dir.path().join("new.ron"), None, b"new").unwrap();
    }
}
