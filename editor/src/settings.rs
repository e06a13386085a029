//! The player's settings, `settings.ron`: the keys they chose, the language, the window's size
//! and fullscreen, and the text scale. The caller says where the file is (the player's own
//! folder; `<project>/.nefia/settings.ron` for `nefia play` from a checkout).
//!
//! A missing file is the defaults (the first start). A file that cannot be read or parsed is
//! the defaults too, with a message naming the file and line that the player window shows, and
//! a value out of range is its default with a message naming its line: never a crash. Such a
//! file is left as it is until the player changes a setting; every change is written at once,
//! atomically ([`nefia_game::files::write_atomic`]).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use nefia_game::files::{FileError, parse_ron, to_ron, write_atomic};
use serde::{Deserialize, Serialize};

/// The largest settings file read: a longer one is no settings file.
const MAX_SETTINGS_BYTES: u64 = 256 * 1024;

/// The text scales allowed (egui's zoom factor).
pub const TEXT_SCALES: std::ops::RangeInclusive<f32> = 0.5..=3.0;

/// The window sizes allowed, in points, either side.
pub const WINDOW_SIZES: std::ops::RangeInclusive<u32> = 320..=16384;

/// Where `nefia play` from a checkout keeps the settings: `<project>/.nefia/settings.ron`.
pub fn in_checkout(project: &Path) -> PathBuf {
    project.join(".nefia").join("settings.ron")
}

/// What `settings.ron` holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Settings {
    /// The keys the player chose, by action id (`elona.north`, `nefia.step_back`): the action's
    /// keys, its main one first. An action not listed keeps the keys the game gives it.
    pub keys: BTreeMap<String, Vec<String>>,
    /// The game's language, a `base.language` id (`base.japanese`); none: the game's own.
    pub language: Option<String>,
    /// The window's size and fullscreen.
    pub window: WindowSettings,
    /// How large text and the interface are drawn (egui's zoom factor; 1 is as designed).
    pub text_scale: f32,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings { keys: BTreeMap::new(), language: None, window: WindowSettings::default(), text_scale: 1.0 }
    }
}

/// The window's size and fullscreen.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WindowSettings {
    /// Width in points.
    pub width: u32,
    /// Height in points.
    pub height: u32,
    /// The window fills the screen.
    pub fullscreen: bool,
}

impl Default for WindowSettings {
    fn default() -> WindowSettings {
        WindowSettings { width: 1024, height: 768, fullscreen: false }
    }
}

impl WindowSettings {
    /// The size in points, as eframe takes it.
    pub fn size(&self) -> [f32; 2] {
        let points = |n: u32| f32::from(u16::try_from(n).unwrap_or(u16::MAX));
        [points(self.width), points(self.height)]
    }

    /// The player window as it opens: titled `title`, of this size, fullscreen or not.
    pub fn viewport(&self, title: String) -> egui::ViewportBuilder {
        egui::ViewportBuilder::default().with_title(title).with_inner_size(self.size()).with_fullscreen(self.fullscreen)
    }
}

/// The settings and the file they are kept in.
#[derive(Debug)]
pub struct SettingsFile {
    path: PathBuf,
    settings: Settings,
    /// Why the file was not read as it is, or the last change not written.
    problem: Option<String>,
    /// There was no file when it was read.
    missing: bool,
}

impl SettingsFile {
    /// Reads the settings at `path`: the defaults if there is no file, or (with a message) if
    /// it cannot be read or parsed.
    pub fn load(path: &Path) -> SettingsFile {
        let mut file =
            SettingsFile { path: path.to_owned(), settings: Settings::default(), problem: None, missing: false };
        match read(path) {
            Ok(None) => file.missing = true,
            Ok(Some(text)) => match parse_ron::<Settings>(path, &text) {
                Ok(settings) => {
                    let (settings, problems) = checked(path, &text, settings);
                    file.settings = settings;
                    file.problem = (!problems.is_empty()).then(|| problems.join("\n"));
                }
                Err(error) => file.problem = Some(format!("{error}: the default settings are used")),
            },
            Err(error) => file.problem = Some(format!("{error}: the default settings are used")),
        }
        file
    }

    /// Where the settings are kept.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The settings.
    pub fn settings(&self) -> &Settings {
        &self.settings
    }

    /// Why the file was not read as it is (or the last change could not be written), naming
    /// the file and line: for the player to see.
    pub fn problem(&self) -> Option<&str> {
        self.problem.as_deref()
    }

    /// True if there was no settings file when it was read (nothing was changed yet).
    pub fn missing(&self) -> bool {
        self.missing
    }

    /// Changes the settings with `change` and, if they changed, writes them at once
    /// (atomically, making the file's folder if need be). A write that fails keeps the change
    /// for this session and says why in [`SettingsFile::problem`].
    pub fn change(&mut self, change: impl FnOnce(&mut Settings)) {
        let before = self.settings.clone();
        change(&mut self.settings);
        if self.settings == before {
            return;
        }
        match self.write() {
            Ok(()) => (self.problem, self.missing) = (None, false),
            Err(error) => self.problem = Some(format!("{error}: the settings were not saved")),
        }
    }

    fn write(&self) -> Result<(), FileError> {
        if let Some(folder) = self.path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(folder).map_err(|e| FileError::io(folder, e))?;
        }
        write_atomic(&self.path, to_ron(&self.path, &self.settings)?.as_bytes())
    }
}

/// The file's text, none if there is no file; a file too large to be settings is refused
/// before it is read.
fn read(path: &Path) -> Result<Option<String>, FileError> {
    let size = match std::fs::metadata(path) {
        Ok(metadata) => metadata.len(),
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(FileError::io(path, error)),
    };
    if size > MAX_SETTINGS_BYTES {
        return Err(FileError::new(
            path,
            format!("{size} bytes is too long for settings (at most {MAX_SETTINGS_BYTES})"),
        ));
    }
    std::fs::read_to_string(path).map(Some).map_err(|e| FileError::io(path, e))
}

/// `settings` with each value out of range replaced by its default, and a message for each,
/// naming the line of `text` it is on.
fn checked(path: &Path, text: &str, mut settings: Settings) -> (Settings, Vec<String>) {
    let defaults = Settings::default();
    let mut problems = Vec::new();
    let mut problem = |field: &str, message: String| {
        let line = text.lines().position(|l| l.contains(field)).map(|i| i + 1);
        problems.push(FileError { line, ..FileError::new(path, message) }.to_string());
    };
    if !TEXT_SCALES.contains(&settings.text_scale) {
        let (low, high) = (TEXT_SCALES.start(), TEXT_SCALES.end());
        let message = format!("text_scale {} is not from {low} to {high}: 1 is used", settings.text_scale);
        problem("text_scale", message);
        settings.text_scale = defaults.text_scale;
    }
    let window = &mut settings.window;
    if !WINDOW_SIZES.contains(&window.width) || !WINDOW_SIZES.contains(&window.height) {
        let (low, high) = (WINDOW_SIZES.start(), WINDOW_SIZES.end());
        let message = format!(
            "the window's size {}×{} is not from {low} to {high} either side: {}×{} is used",
            window.width, window.height, defaults.window.width, defaults.window.height
        );
        problem("width", message);
        (window.width, window.height) = (defaults.window.width, defaults.window.height);
    }
    for (action, keys) in &mut settings.keys {
        let (known, unknown): (Vec<String>, Vec<String>) =
            keys.drain(..).partition(|key| nefia_game::display::check_key(key).is_ok());
        if !unknown.is_empty() {
            let message = format!("{action}: no key is named {}: left out", unknown.join(", "));
            problem(action, message);
        }
        *keys = known;
    }
    settings.keys.retain(|_, keys| !keys.is_empty());
    (settings, problems)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_written_and_read_back() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("config/settings.ron");
        let mut file = SettingsFile::load(&path);
        assert!(file.missing() && file.problem().is_none(), "no file yet: the defaults, quietly");
        assert_eq!(file.settings(), &Settings::default());
        file.change(|s| {
            s.keys.insert("elona.north".into(), vec!["w".into(), "8".into()]);
            s.language = Some("base.japanese".into());
            s.window.fullscreen = true;
            s.text_scale = 1.5;
        });
        assert!(file.problem().is_none(), "{:?}", file.problem());
        let again = SettingsFile::load(&path);
        assert_eq!(again.settings(), file.settings());
        assert!(again.problem().is_none());
    }

    #[test]
    fn the_window_opens_as_the_settings_say() {
        let window = WindowSettings { width: 1600, height: 900, fullscreen: true };
        let viewport = window.viewport("Demo".into());
        assert_eq!(viewport.inner_size, Some(egui::vec2(1600.0, 900.0)));
        assert_eq!(viewport.fullscreen, Some(true));
        assert_eq!(viewport.title.as_deref(), Some("Demo"));
    }

    #[test]
    fn a_malformed_file_is_the_defaults_and_a_message_and_is_kept_until_a_change() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("settings.ron");
        let text = "(\n    text_scale: 1.5,\n    window: (width: oops),\n)\n";
        std::fs::write(&path, text).unwrap();
        let mut file = SettingsFile::load(&path);
        assert_eq!(file.settings(), &Settings::default());
        let problem = file.problem().expect("a message").to_owned();
        assert!(problem.contains(&format!("{}:3", path.display())), "names the file and line: {problem}");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "not written over");
        file.change(|s| s.text_scale = 1.25);
        assert!(file.problem().is_none());
        assert_eq!(SettingsFile::load(&path).settings().text_scale, 1.25, "written once changed");
    }

    #[test]
    fn values_out_of_range_are_their_defaults_with_their_line() {
        let folder = tempfile::tempdir().unwrap();
        let path = folder.path().join("settings.ron");
        let text = "(\n    keys: {\"elona.north\": [\"w\", \"nokey\"]},\n    text_scale: 9.0,\n)\n";
        std::fs::write(&path, text).unwrap();
        let file = SettingsFile::load(&path);
        assert_eq!(file.settings().text_scale, 1.0);
        assert_eq!(file.settings().keys["elona.north"], ["w"]);
        let problem = file.problem().expect("a message");
        assert!(problem.contains(":3: text_scale 9 is not from 0.5 to 3"), "{problem}");
        assert!(problem.contains(":2: elona.north: no key is named nokey"), "{problem}");
    }
}
