//! The player window's Options, from the title menu or in game (the Options button, F10): the
//! keys (pick an action, press its new key; a key another action has is shown as a conflict,
//! to swap or cancel), the game's language, the text scale and the window's size and
//! fullscreen. Each change is applied at once and written to `settings.ron` at once (see
//! [`crate::settings`]); at start the settings are applied too: the text scale and the language
//! here, the window's size and fullscreen by [`crate::player::run`].

use std::sync::Arc;

use egui::{Color32, Rect, RichText, Ui, Vec2};
use nefia_game::display::Input;
use nefia_protocol::message::Command;
use nefia_protocol::mods::{ModCommand, ModsView};
use nefia_protocol::play::PlayCommand;
use nefia_protocol::view::data::DataTypeView;

use crate::keybinds::{Does, Keybinds, Pressed};
use crate::settings::{SettingsFile, WindowSettings};

/// The text scales offered.
const TEXT_SCALES: [f32; 5] = [0.75, 1.0, 1.25, 1.5, 2.0];

/// The window sizes offered.
const WINDOW_SIZES: [(u32, u32); 4] = [(1024, 768), (1280, 800), (1600, 900), (1920, 1080)];

/// Where rebinding a key is.
#[derive(Clone, Debug, PartialEq)]
enum Rebinding {
    /// Waiting for the new key of an action.
    Listening(usize),
    /// The key pressed is another action's.
    Conflict {
        /// The action rebound.
        action: usize,
        /// The key pressed.
        key: String,
        /// The action that has it.
        other: usize,
    },
}

/// What the Options ask of the player window.
#[derive(Clone, Debug, PartialEq)]
pub enum Asked {
    /// Send the runtime this command.
    Send(Command),
    /// Quit to the title (the player window asks whether to save first).
    QuitToTitle,
}

/// The Options: the settings, and the menu that edits them.
pub struct Options {
    settings: SettingsFile,
    /// The menu is open.
    open: bool,
    keybinds: Keybinds,
    /// The game's data the keybinds were made from.
    keybinds_of: Option<Arc<Vec<DataTypeView>>>,
    rebinding: Option<Rebinding>,
    /// The settings' text scale was applied (at the first frame).
    scale_applied: bool,
    /// The settings' language was applied (once the game's languages were known).
    language_applied: bool,
    /// What the settings ask that this game cannot do (a language it lacks).
    notice: Option<String>,
}

impl Options {
    /// The Options on `settings` (applied by [`Options::start`]).
    pub fn new(settings: SettingsFile) -> Options {
        let keybinds = Keybinds::new(&ModsView::default(), &settings.settings().keys);
        Options {
            settings,
            open: false,
            keybinds,
            keybinds_of: None,
            rebinding: None,
            scale_applied: false,
            language_applied: false,
            notice: None,
        }
    }

    /// True while the menu is open: the keys are its, not the game's.
    pub fn is_open(&self) -> bool {
        self.open
    }

    /// Opens the menu.
    pub fn open(&mut self) {
        self.open = true;
        self.rebinding = None;
    }

    /// What is wrong with the settings file, or with what it asks: for the player to see.
    pub fn problem(&self) -> Option<String> {
        let problems: Vec<&str> = self.settings.problem().into_iter().chain(self.notice.as_deref()).collect();
        (!problems.is_empty()).then(|| problems.join("\n"))
    }

    /// The keys now, for the game in `mods` (made again when its keybinds may have changed).
    pub fn keybinds(&mut self, mods: &ModsView) -> &Keybinds {
        if !self.keybinds_of.as_ref().is_some_and(|of| Arc::ptr_eq(of, &mods.data)) {
            self.keybinds = Keybinds::new(mods, &self.settings.settings().keys);
            self.keybinds_of = Some(mods.data.clone());
        }
        &self.keybinds
    }

    /// What the game window does with `input` (with a menu of the game open or not): the
    /// command for the runtime, if any. With no menu open a key does what the player bound it
    /// to (see [`crate::keybinds`]); the Options key opens the Options here.
    pub fn game_command(&mut self, mods: &ModsView, menu_open: bool, input: Input) -> Option<Command> {
        let Input::Key(key) = &input else { return Some(Command::Input(input)) };
        if menu_open {
            return Some(Command::Input(input));
        }
        match self.keybinds(mods).pressed(key) {
            Pressed::Action(Does::Game(key)) => Some(Command::Input(Input::Key(key))),
            Pressed::Action(Does::StepBack) => Some(Command::Play(PlayCommand::StepBack)),
            Pressed::Action(Does::StepForward) => Some(Command::Play(PlayCommand::StepForward)),
            Pressed::Action(Does::Options) => {
                self.open();
                None
            }
            Pressed::Nothing => None,
            Pressed::Unbound => Some(Command::Input(input)),
        }
    }

    /// Applies the settings at start, called each frame: the text scale at once, and once the
    /// game's languages are known the command switching to the settings' language if it is not
    /// the game's now (a language the game lacks is named in [`Options::problem`]).
    pub fn start(&mut self, ctx: &egui::Context, mods: &ModsView) -> Option<Command> {
        if !self.scale_applied {
            ctx.set_zoom_factor(self.settings.settings().text_scale);
            self.scale_applied = true;
        }
        if self.language_applied {
            return None;
        }
        let languages = mods.languages();
        if languages.is_empty() {
            return None;
        }
        self.language_applied = true;
        let wanted = self.settings.settings().language.clone().filter(|l| *l != mods.language)?;
        if !languages.contains(&wanted) {
            self.notice = Some(format!(
                "{}: this game has no language {wanted} (it has {}): {} is used",
                self.settings.path().display(),
                languages.join(", "),
                mods.language
            ));
            return None;
        }
        Some(Command::Mods(ModCommand::SwitchLanguage(wanted)))
    }

    /// The menu, over `rect`, while open; `playing` offers Quit to title.
    pub fn ui(&mut self, ui: &mut Ui, rect: Rect, mods: &ModsView, playing: bool) -> Vec<Asked> {
        let mut asked = Vec::new();
        if !self.open {
            return asked;
        }
        self.keybinds(mods);
        self.take_new_key(ui.ctx());
        let close =
            self.rebinding.is_none() && ui.input_mut(|i| i.consume_key(egui::Modifiers::NONE, egui::Key::Escape));
        let area = Rect::from_center_size(rect.center(), Vec2::new(560.0, 640.0).min(rect.size()));
        ui.painter().rect_filled(rect, 0.0, Color32::from_black_alpha(170));
        ui.scope_builder(egui::UiBuilder::new().max_rect(area), |ui| {
            egui::Frame::window(ui.style()).show(ui, |ui| {
                ui.set_width(area.width() - 16.0);
                ui.vertical_centered(|ui| ui.heading(RichText::new("Options").size(24.0)));
                if let Some(problem) = self.problem() {
                    ui.colored_label(Color32::LIGHT_RED, problem);
                } else if self.settings.missing() {
                    let path = self.settings.path().display();
                    ui.weak(format!("No settings yet: the defaults, kept in {path} once you change one."));
                }
                self.keys_ui(ui);
                ui.separator();
                if let Some(command) = self.language_ui(ui, mods) {
                    asked.push(Asked::Send(command));
                }
                self.text_scale_ui(ui);
                self.window_ui(ui);
                ui.separator();
                ui.horizontal(|ui| {
                    if playing && ui.button("Quit to title").clicked() {
                        self.open = false;
                        asked.push(Asked::QuitToTitle);
                    }
                    if ui.button("Close").clicked() {
                        self.open = false;
                    }
                });
            });
        });
        if close {
            self.open = false;
        }
        asked
    }

    /// While waiting for an action's new key: the key pressed rebinds it, or is a conflict.
    fn take_new_key(&mut self, ctx: &egui::Context) {
        let Some(Rebinding::Listening(action)) = self.rebinding else { return };
        let Some(key) = crate::keys::take_key_press(ctx) else { return };
        self.rebinding = match self.keybinds.rebind(action, &key) {
            Ok(()) => {
                self.keep_keys();
                None
            }
            Err(conflict) => Some(Rebinding::Conflict { action, key, other: conflict.other }),
        };
    }

    /// Writes the keys as they are now.
    fn keep_keys(&mut self) {
        let chosen = self.keybinds.chosen();
        self.settings.change(|s| s.keys = chosen);
    }

    /// The actions and their keys; choosing one waits for its new key.
    fn keys_ui(&mut self, ui: &mut Ui) {
        ui.horizontal(|ui| {
            ui.strong("Keys");
            ui.weak("choose an action, then press its new key");
            if ui.button("Reset keys").clicked() {
                self.keybinds.reset();
                self.rebinding = None;
                self.keep_keys();
            }
        });
        match self.rebinding.clone() {
            Some(Rebinding::Listening(action)) => {
                let name = self.keybinds.action(action).map_or("", |a| a.name.as_str()).to_owned();
                ui.horizontal(|ui| {
                    ui.colored_label(Color32::YELLOW, format!("Press the new key for {name}"));
                    if ui.button("Cancel").clicked() {
                        self.rebinding = None;
                    }
                });
            }
            Some(Rebinding::Conflict { action, key, other }) => {
                let name = |index| self.keybinds.action(index).map_or(String::new(), |a| a.name.clone());
                let (name, other_name) = (name(action), name(other));
                ui.colored_label(Color32::LIGHT_RED, format!("{key} is already the key of {other_name}"));
                ui.horizontal(|ui| {
                    if ui.button(format!("Swap: {key} for {name}")).clicked() {
                        self.keybinds.swap(action, &key);
                        self.rebinding = None;
                        self.keep_keys();
                    }
                    if ui.button("Cancel").clicked() {
                        self.rebinding = None;
                    }
                });
            }
            None => {}
        }
        let mut chosen = None;
        egui::ScrollArea::vertical().max_height(220.0).show(ui, |ui| {
            egui::Grid::new("player-options-keys").num_columns(2).striped(true).show(ui, |ui| {
                for (index, (action, keys)) in self.keybinds.actions().enumerate() {
                    let listening = self.rebinding == Some(Rebinding::Listening(index));
                    if ui.selectable_label(listening, &action.name).clicked() {
                        chosen = Some(index);
                    }
                    ui.label(if keys.is_empty() { "(no key)".to_owned() } else { keys.join(", ") });
                    ui.end_row();
                }
            });
        });
        if let Some(index) = chosen {
            self.rebinding = Some(Rebinding::Listening(index));
        }
    }

    /// The game's languages; choosing one switches to it at once.
    fn language_ui(&mut self, ui: &mut Ui, mods: &ModsView) -> Option<Command> {
        let languages = mods.languages();
        if languages.is_empty() {
            return None;
        }
        let mut switch = None;
        ui.horizontal_wrapped(|ui| {
            ui.strong("Language");
            for language in languages {
                let name = language.strip_prefix("base.").unwrap_or(&language);
                if ui.selectable_label(language == mods.language, name).clicked() && language != mods.language {
                    switch = Some(language);
                }
            }
        });
        let language = switch?;
        self.settings.change(|s| s.language = Some(language.clone()));
        Some(Command::Mods(ModCommand::SwitchLanguage(language)))
    }

    /// How large text is drawn, applied at once.
    fn text_scale_ui(&mut self, ui: &mut Ui) {
        let now = self.settings.settings().text_scale;
        let mut chosen = None;
        ui.horizontal(|ui| {
            ui.strong("Text size");
            for scale in TEXT_SCALES {
                let label = format!("{:.0}%", scale * 100.0);
                if ui.selectable_label((scale - now).abs() < 0.001, label).clicked() {
                    chosen = Some(scale);
                }
            }
        });
        if let Some(scale) = chosen {
            ui.ctx().set_zoom_factor(scale);
            self.settings.change(|s| s.text_scale = scale);
        }
    }

    /// The window's size and fullscreen, applied at once.
    fn window_ui(&mut self, ui: &mut Ui) {
        let now = self.settings.settings().window;
        let mut chosen = now;
        ui.horizontal_wrapped(|ui| {
            ui.strong("Window");
            for (width, height) in WINDOW_SIZES {
                let current = (now.width, now.height) == (width, height);
                if ui.selectable_label(current, format!("{width}×{height}")).clicked() {
                    (chosen.width, chosen.height) = (width, height);
                }
            }
            ui.checkbox(&mut chosen.fullscreen, "Fullscreen");
        });
        if chosen == now {
            return;
        }
        apply_window(ui.ctx(), now, chosen);
        self.settings.change(|s| s.window = chosen);
    }
}

/// Sends the viewport commands that take the window from `from` to `to`.
fn apply_window(ctx: &egui::Context, from: WindowSettings, to: WindowSettings) {
    if to.fullscreen != from.fullscreen {
        ctx.send_viewport_cmd(egui::ViewportCommand::Fullscreen(to.fullscreen));
    }
    if (to.width, to.height) != (from.width, from.height) {
        ctx.send_viewport_cmd(egui::ViewportCommand::InnerSize(to.size().into()));
    }
}
