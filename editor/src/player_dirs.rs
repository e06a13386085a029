//! Where a player's games keep what is theirs: saved games, `settings.ron`, and the bug reports
//! the error screen writes. A packaged game keeps them in the player's own folders under the
//! game's name ([`PlayerDirs::installed`]: the `directories` crate's data and config folders —
//! XDG on Linux, AppData on Windows, Application Support on macOS), or beside the program with
//! `--portable` ([`PlayerDirs::portable`]); `nefia play` on a project keeps them in the project
//! ([`PlayerDirs::project`]).

use std::path::{Path, PathBuf};

/// The folders and files a player's game writes to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayerDirs {
    /// The saved games.
    pub saves: PathBuf,
    /// The settings file (`settings.ron`).
    pub settings: PathBuf,
    /// The bug reports (the session's recording with its error), beside the saves.
    pub reports: PathBuf,
    /// Where play sessions are recorded, if they are kept: a project's `recordings/`. A
    /// player's sessions are recorded in a scratch folder (stepping back and the bug reports
    /// need them) that goes when the window closes.
    pub recordings: Option<PathBuf>,
}

/// Why the player's own folders could not be found.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum PlayerDirsError {
    /// The name gives no folder name.
    #[error("'{0}' gives no folder name for the player's saves: name the project with a letter or digit")]
    Name(String),
    /// The system named no home folder.
    #[error(
        "the system names no home folder for {0}'s saves and settings: run it with --portable to keep them beside it"
    )]
    NoHome(String),
}

impl PlayerDirs {
    /// The player's own folders for the game called `name`: saves and bug reports in its data
    /// folder, the settings in its config folder.
    pub fn installed(name: &str) -> Result<PlayerDirs, PlayerDirsError> {
        let folder = folder_name(name).ok_or_else(|| PlayerDirsError::Name(name.to_owned()))?;
        let dirs = directories::ProjectDirs::from("", "", &folder).ok_or(PlayerDirsError::NoHome(folder))?;
        let data = dirs.data_dir();
        Ok(PlayerDirs {
            saves: data.join("saves"),
            settings: dirs.config_dir().join("settings.ron"),
            reports: data.join("reports"),
            recordings: None,
        })
    }

    /// Everything beside the program in `dir` (`--portable`).
    pub fn portable(dir: &Path) -> PlayerDirs {
        PlayerDirs {
            saves: dir.join("saves"),
            settings: dir.join("settings.ron"),
            reports: dir.join("reports"),
            recordings: None,
        }
    }

    /// A project played from its folder (`nefia play`): `saves/`, `.nefia/settings.ron`,
    /// `.nefia/reports/`, and the sessions recorded in `recordings/`.
    pub fn project(dir: &Path) -> PlayerDirs {
        let own = dir.join(".nefia");
        PlayerDirs {
            saves: dir.join("saves"),
            settings: crate::settings::in_checkout(dir),
            reports: own.join("reports"),
            recordings: Some(dir.join("recordings")),
        }
    }
}

/// The folder name a game's name gives: its letters, digits, spaces, `-` and `_`, anything else
/// made `_`, trimmed; None if no letter or digit is left.
pub(crate) fn folder_name(name: &str) -> Option<String> {
    let kept: String =
        name.chars().map(|c| if c.is_alphanumeric() || matches!(c, ' ' | '-' | '_') { c } else { '_' }).collect();
    let kept = kept.trim().to_owned();
    kept.chars().any(char::is_alphanumeric).then_some(kept)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_gives_one_folder_inside_the_players_own() {
        assert_eq!(folder_name("Demo").as_deref(), Some("Demo"));
        assert_eq!(folder_name("My Game: 2").as_deref(), Some("My Game_ 2"));
        assert_eq!(folder_name("../../etc").as_deref(), Some("______etc"));
        assert_eq!(folder_name(" / "), None);
        assert_eq!(PlayerDirs::installed("..").unwrap_err(), PlayerDirsError::Name("..".into()));
    }

    #[test]
    fn portable_keeps_everything_beside_the_program() {
        let dirs = PlayerDirs::portable(Path::new("/games/demo"));
        assert_eq!(dirs.saves, Path::new("/games/demo/saves"));
        assert_eq!(dirs.settings, Path::new("/games/demo/settings.ron"));
        assert_eq!(dirs.reports, Path::new("/games/demo/reports"));
        assert_eq!(dirs.recordings, None);
    }
}
