//! The mods subsystem's part of the protocol: its commands ([`ModCommand`]) and its part of
//! the snapshot ([`ModsView`]). A leaf: the protocol and the snapshot name these, and they
//! name nothing of the host's handlers.

use std::path::PathBuf;
use std::sync::Arc;

use crate::journal_kind::JournalKind;
use crate::view::data::{DataTypeView, PrototypeArt};
use nefia_game::mods::ModRow;

/// What the mods subsystem is asked to do.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub enum ModCommand {
    /// Reload a Lua file of a loaded mod.
    Reload(PathBuf),
    /// A Lua file of a loaded mod was saved (the watcher sends this): it is reloaded unless
    /// its text is the one it last ran, so a save that changed nothing, or the watcher
    /// seeing a file the editor wrote and reloaded itself, reloads nothing.
    Saved(PathBuf),
    /// Reload the loaded file named `file` (`mods/elona/game/rules.lua`) with `text`: a
    /// hotload as a recording replays it.
    Hotload {
        /// The file as error messages name it.
        file: String,
        /// The code to load.
        text: String,
    },
    /// Reload every loaded file of a mod ("Reload mod").
    ReloadMod(String),
    /// List a mod in the project's `mods` (or take it out) and write `project.ron`; it
    /// loads (or unloads) when the project is opened again.
    SetEnabled {
        /// The mod.
        id: String,
        /// Listed or not.
        enabled: bool,
    },
    /// Look again for mods under the project's mod folders (the Mods pane's list).
    Rescan,
    /// Write a new mod skeleton into the project's `mods/` folder and enable it (as
    /// `nefia new-mod` does); it loads when the project is opened again.
    New(String),
    /// Make these `base.theme`s the active themes, first first (an empty list: none); the
    /// map is drawn with their images at once.
    SetThemes(Vec<String>),
    /// Switch the game's language to this `base.language` (`I18N.switch_language`); a recorded
    /// session keeps it.
    SwitchLanguage(String),
}

impl ModCommand {
    /// The command's name in messages ("a panic in reload").
    pub fn name(&self) -> &'static str {
        match self {
            ModCommand::Reload(_) | ModCommand::Saved(_) => "reload",
            ModCommand::Hotload { .. } => "hotload",
            ModCommand::ReloadMod(_) => "reload mod",
            ModCommand::SetEnabled { .. } => "enable mod",
            ModCommand::Rescan => "rescan mods",
            ModCommand::New(_) => "new mod",
            ModCommand::SetThemes(_) => "set themes",
            ModCommand::SwitchLanguage(_) => "switch language",
        }
    }

    /// What the command is to the edit journal: code reloaded.
    pub fn journal_kind(&self) -> JournalKind {
        match self {
            ModCommand::Reload(_) | ModCommand::Saved(_) | ModCommand::Hotload { .. } | ModCommand::ReloadMod(_) => {
                JournalKind::Code
            }
            ModCommand::SetEnabled { .. }
            | ModCommand::Rescan
            | ModCommand::New(_)
            | ModCommand::SetThemes(_)
            | ModCommand::SwitchLanguage(_) => JournalKind::Other,
        }
    }

    /// The input a recorded session keeps of the command: a hotload with its text.
    pub fn recorded_input(&self) -> Option<nefia_game::recording::Input> {
        match self {
            ModCommand::Hotload { file, text } => {
                Some(nefia_game::recording::Input::Hotload { file: file.clone(), text: text.clone() })
            }
            ModCommand::SwitchLanguage(id) => Some(nefia_game::recording::Input::Language(id.clone())),
            _ => None,
        }
    }

    /// The command as the operation that changed a watched field ("the hotload of …").
    pub fn operation(&self) -> String {
        match self {
            ModCommand::Reload(path) | ModCommand::Saved(path) => format!("the hotload of {}", path.display()),
            ModCommand::Hotload { file, .. } => format!("the hotload of {file}"),
            ModCommand::ReloadMod(id) => format!("reloading mod {id}"),
            other => other.name().into(),
        }
    }
}

/// The mods subsystem's part of the snapshot.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, Default, PartialEq)]
pub struct ModsView {
    /// The loaded mods' ids, in load order.
    pub loaded: Arc<Vec<String>>,
    /// Every mod under the project's mod folders, loaded or not, for the Mods pane.
    pub rows: Arc<Vec<ModRow>>,
    /// Where images named by prototypes are looked up, in order.
    pub asset_dirs: Arc<Vec<PathBuf>>,
    /// The data types and prototypes the mods added.
    pub data: Arc<Vec<DataTypeView>>,
    /// The cells of the current map the last hotload that changed it painted anew with its
    /// rules (tinted in the viewport, as the workbench tints a regenerated preview).
    pub repainted: Option<Arc<Repainted>>,
    /// The active themes (see [`ModCommand::SetThemes`]), first first.
    #[serde(default)]
    pub active_themes: Arc<Vec<String>>,
    /// What the prototypes' images draw under the active themes.
    #[serde(default)]
    pub art: Arc<PrototypeArt>,
    /// The current language's id (`base.english`; the ones there are: [`ModsView::languages`]).
    pub language: String,
}

impl ModsView {
    /// The `base.language` ids there are (the viewport's language switch).
    pub fn languages(&self) -> Vec<String> {
        self.data
            .iter()
            .filter(|t| t.id.as_str() == "base.language")
            .flat_map(|t| &t.entries)
            .map(|l| l.id.to_string())
            .collect()
    }

    /// The loaded `base.theme`s: each id with its name (the id when it gives none).
    pub fn themes(&self) -> Vec<(String, String)> {
        let name = nefia_game::Symbol::intern("name");
        self.data
            .iter()
            .filter(|t| t.id.as_str() == nefia_game::art::book::THEME_TYPE)
            .flat_map(|t| &t.entries)
            .map(|theme| {
                let named = theme.fields.iter().find(|(field, _)| *field == name).and_then(|(_, v)| v.as_str());
                let id = theme.id.to_string();
                (id.clone(), named.filter(|n| !n.is_empty()).map_or(id, str::to_owned))
            })
            .collect()
    }
}

/// What a hotload's auto-tiling rules changed on one map.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct Repainted {
    /// The map.
    pub map: nefia_game::map::MapId,
    /// Its cells whose tile changed.
    pub cells: Vec<(i32, i32)>,
}
