//! The player window (`nefia play [PROJECT_DIR]`): the game and nothing else — the map, the
//! HUD widgets and the UI layers, with a title menu (New game, Load game, Quit) while no
//! game is being played. The runtime is the editor's: a game here is play mode begun from
//! the title menu, and `Play.quit()` or "Quit to title" ends it, back to the title.
//!
//! New game is `PlayCommand::Start(PlayFrom::Start)`. Load game lists the saves
//! (`PlayCommand::ListSaves`: each with its date, turn, map and player, read from the head a
//! save writes at its top) and plays one with `PlayCommand::Start(PlayFrom::Save(name))`.
//! Options (on the title menu; in game the Options button or F10) edits the player's settings
//! ([`crate::player_options`]); quitting a game asks whether to save ([`crate::player_quit`]).
//! The window's title is the project's name.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use egui::{Align2, Color32, FontId, Key, Modifiers, Rect, RichText, Ui, Vec2};
use nefia_host::{HostConfig, HostHandle};
use nefia_protocol::debugging::DebugCommand;
use nefia_protocol::message::{Command, HostEvent};
use nefia_protocol::play::PlayCommand;
use nefia_protocol::play::PlayFrom;
use nefia_protocol::saves::SaveListing;
use nefia_protocol::view::Snapshot;

use crate::keys;
use crate::player_dirs::PlayerDirs;
use crate::player_options::{Asked, Options};
use crate::player_quit::{QuitQuestion, QuitTo};
use crate::render::camera::{Camera, LayerToggles};
use crate::render::error_screen::{ErrorChoice, error_screen_ui};
use crate::render::map::{DrawReport, MapRenderer};
use crate::render::overlay;

/// Pixels per cell of the game view.
pub const CELL_SIZE: f32 = 32.0;

/// Where the title menu is.
#[derive(Clone, Debug, PartialEq)]
pub enum TitleMenu {
    /// New game, Load game, Options, Quit.
    Main,
    /// The saved games, once the runtime has listed them.
    Load(Option<Vec<SaveListing>>),
}

/// An entry of the title menu.
#[derive(Clone, Debug, PartialEq)]
enum TitleEntry {
    NewGame,
    LoadGame,
    Options,
    Quit,
    Save(SaveListing),
    Back,
}

impl TitleEntry {
    fn label(&self) -> &str {
        match self {
            TitleEntry::NewGame => "New game",
            TitleEntry::LoadGame => "Load game",
            TitleEntry::Options => "Options",
            TitleEntry::Quit => "Quit",
            TitleEntry::Save(save) => &save.name,
            TitleEntry::Back => "Back",
        }
    }
}

/// What the player window plays, and where it keeps the player's things.
#[derive(Clone, Debug)]
pub struct PlayerConfig {
    /// The project folder (a packaged game's `game/`).
    pub project: PathBuf,
    /// Where saves, settings and bug reports go.
    pub dirs: PlayerDirs,
    /// The window's title.
    pub title: String,
}

impl PlayerConfig {
    /// `nefia play` on the project in `dir`: its things kept in the project
    /// ([`PlayerDirs::project`]), the window titled with its name when it has one.
    pub fn project(dir: PathBuf) -> PlayerConfig {
        PlayerConfig { dirs: PlayerDirs::project(&dir), title: project_name(&dir), project: dir }
    }
}

/// The player window's application.
pub struct PlayerApp {
    host: HostHandle,
    snapshot: Arc<Snapshot>,
    renderer: MapRenderer,
    /// The layers drawn; the options switch the ASCII view.
    toggles: LayerToggles,
    /// What the last frame drew of the map.
    report: DrawReport,
    /// The title menu's page and the highlighted entry.
    title: TitleMenu,
    cursor: usize,
    /// The last refusal (a save that would not load), shown on the title screen.
    notice: Option<String>,
    /// Quit was chosen: the window closes.
    quitting: bool,
    titled: Option<String>,
    /// The player's settings and the Options menu.
    options: Options,
    /// Asks whether to save before quitting a game.
    quit: QuitQuestion,
    /// The scratch folder sessions are recorded in when they are not kept (a player's).
    _scratch_recordings: Option<tempfile::TempDir>,
}

impl PlayerApp {
    /// Opens `project` on the runtime thread as `nefia play` from a checkout does, keeping the
    /// player's things in the project ([`PlayerConfig::project`]); the title menu shows until a
    /// game begins.
    pub fn new(ctx: &egui::Context, project: PathBuf) -> PlayerApp {
        PlayerApp::with_config(ctx, PlayerConfig::project(project))
    }

    /// Opens `project` as [`PlayerApp::new`] does, with the player's `settings` applied.
    pub fn with_settings(ctx: &egui::Context, project: PathBuf, settings: crate::settings::SettingsFile) -> PlayerApp {
        PlayerApp::open(ctx, PlayerConfig::project(project), settings)
    }

    /// Opens `config`'s project on the runtime thread with the settings in its folders, saving
    /// and writing bug reports where they say; the title menu shows until a game begins.
    pub fn with_config(ctx: &egui::Context, config: PlayerConfig) -> PlayerApp {
        let settings = crate::settings::SettingsFile::load(&config.dirs.settings);
        PlayerApp::open(ctx, config, settings)
    }

    /// Opens `config`'s project with `settings` applied.
    fn open(ctx: &egui::Context, config: PlayerConfig, settings: crate::settings::SettingsFile) -> PlayerApp {
        crate::render::install_fonts(ctx);
        let repaint_ctx = ctx.clone();
        let mut host_config = HostConfig::recorded(config.project, Arc::new(move || repaint_ctx.request_repaint()));
        // The player edits no map: there is nothing to journal.
        host_config.journal = None;
        host_config.saves = Some(config.dirs.saves.clone());
        host_config.reports = Some(config.dirs.reports.clone());
        // Sessions not kept are still recorded: stepping back and the bug reports need them.
        let scratch_recordings = match &config.dirs.recordings {
            Some(_) => None,
            None => tempfile::tempdir().map_err(|error| tracing::warn!("no scratch folder to record in: {error}")).ok(),
        };
        host_config.recordings =
            config.dirs.recordings.clone().or_else(|| scratch_recordings.as_ref().map(|dir| dir.path().to_owned()));
        let host = HostHandle::spawn(host_config);
        PlayerApp {
            snapshot: host.snapshot(),
            host,
            renderer: MapRenderer::default(),
            toggles: LayerToggles::default(),
            report: DrawReport::default(),
            title: TitleMenu::Main,
            cursor: 0,
            notice: None,
            quitting: false,
            titled: None,
            options: Options::new(settings),
            quit: QuitQuestion::default(),
            _scratch_recordings: scratch_recordings,
        }
    }

    /// The latest snapshot of the game.
    pub fn snapshot(&self) -> &Snapshot {
        &self.snapshot
    }

    /// The runtime thread.
    pub fn host(&self) -> &HostHandle {
        &self.host
    }

    /// Where the title menu is.
    pub fn title_menu(&self) -> &TitleMenu {
        &self.title
    }

    /// True once Quit was chosen.
    pub fn quitting(&self) -> bool {
        self.quitting
    }

    /// Draws one frame into `ui` (the whole window).
    pub fn ui(&mut self, ui: &mut Ui) {
        let ctx = ui.ctx().clone();
        for event in self.host.events() {
            match event {
                HostEvent::Saves(saves) => {
                    if matches!(self.title, TitleMenu::Load(_)) {
                        self.title = TitleMenu::Load(Some(saves));
                    }
                }
                // The player window binds no key to a hint's action (stopping is the game's
                // own Quit): the message says what to do in words.
                HostEvent::Refused(refused) if !self.quit.refused(&refused.message) => {
                    self.notice = Some(refused.message)
                }
                _ => {}
            }
        }
        let was_playing = self.snapshot.play.playing;
        self.snapshot = self.host.snapshot();
        if was_playing && !self.snapshot.play.playing {
            // Back from a game: the title menu starts over.
            self.title = TitleMenu::Main;
            self.cursor = 0;
            self.quitting |= self.quit.stopped() == Some(QuitTo::Closed);
        } else if !was_playing && self.snapshot.play.playing {
            self.notice = None;
        }
        if let Some(command) = self.options.start(&ctx, &self.snapshot.mods) {
            self.host.send(command);
        }
        if ctx.input(|i| i.viewport().close_requested()) && self.snapshot.play.playing && !self.quitting {
            ctx.send_viewport_cmd(egui::ViewportCommand::CancelClose);
            self.quit.ask(QuitTo::Closed);
        }
        // The project's name once it is open (its folder's until then).
        if !self.snapshot.project_dir.as_os_str().is_empty() {
            crate::app::show_title(&ctx, &mut self.titled, self.snapshot.project.clone());
        }
        egui::CentralPanel::default().frame(egui::Frame::NONE.fill(Color32::BLACK)).show(ui, |ui| {
            let rect = ui.max_rect();
            ui.allocate_rect(rect, egui::Sense::hover());
            if let Some(problem) = &self.snapshot.problem {
                centred_text(ui, rect, problem, Color32::LIGHT_RED);
                return;
            }
            let snapshot = self.snapshot.clone();
            self.paint_map(ui, rect, &snapshot);
            if snapshot.play.playing {
                self.game_ui(ui, rect, &snapshot);
            } else if !self.options.is_open() {
                ui.painter().rect_filled(rect, 0.0, Color32::from_black_alpha(170));
                self.title_ui(ui, rect);
            }
            self.options_ui(ui, rect);
            for asked in self.options.ui(ui, rect, &snapshot.mods, snapshot.play.playing) {
                match asked {
                    Asked::Send(command) => self.host.send(command),
                    Asked::QuitToTitle => self.quit.ask(QuitTo::Title),
                }
            }
            if let Some(command) = self.quit.ui(ui, rect) {
                self.host.send(command);
            }
        });
        if self.quitting {
            ctx.send_viewport_cmd(egui::ViewportCommand::Close);
        }
    }

    /// The current map, the camera on the player (the start map, whole, behind the title).
    fn paint_map(&mut self, ui: &mut Ui, rect: Rect, snapshot: &Snapshot) {
        let Some(map) = &snapshot.map else { return };
        let camera = match snapshot.player_at {
            Some((x, y)) => Camera { center: Vec2::new(x as f32 + 0.5, y as f32 + 0.5), zoom: CELL_SIZE },
            None => Camera::fit(rect, map.width, map.height),
        };
        self.report = self.renderer.paint(
            ui.painter(),
            rect,
            &camera,
            map,
            &self.toggles,
            &snapshot.map_layers,
            &snapshot.mods.asset_dirs,
        );
        for problem in self.renderer.take_image_problems() {
            tracing::warn!("{problem}");
        }
    }

    /// The window's options, in its top-right corner: the ASCII view.
    fn options_ui(&mut self, ui: &mut Ui, rect: Rect) {
        egui::Area::new(egui::Id::new("nefia-player-options"))
            .fixed_pos(rect.right_top() + Vec2::new(-8.0, 8.0))
            .pivot(Align2::RIGHT_TOP)
            .show(ui.ctx(), |ui| {
                egui::Frame::popup(ui.style()).show(ui, |ui| {
                    ui.horizontal(|ui| {
                        ui.checkbox(&mut self.toggles.ascii, "ASCII")
                            .on_hover_text("Draw every tile and object as its glyph, with no images");
                        let in_game = self.snapshot.play.playing && !self.options.is_open();
                        if in_game && ui.button("Options").on_hover_text("Keys, language, text size, window").clicked()
                        {
                            self.options.open();
                        }
                    });
                });
            });
    }

    /// What the last frame drew of the map.
    pub fn report(&self) -> &DrawReport {
        &self.report
    }

    /// The HUD, the UI layers and the keyboard, or the error screen.
    fn game_ui(&mut self, ui: &mut Ui, rect: Rect, snapshot: &Snapshot) {
        overlay::paint_widgets(ui.painter(), rect, &snapshot.widgets);
        let mut input = overlay::show_layers(ui, rect, &snapshot.layers);
        if let Some(error) = &snapshot.debug.error {
            self.error_ui(ui, rect, error);
            return;
        }
        if self.options.is_open() || self.quit.is_open() {
            // The keys are the Options' or the quit question's.
            return;
        }
        input.extend(keys::game_input(ui.ctx(), &snapshot.layers));
        for input in input {
            // With no menu open, a key does what the player bound it to (see crate::keybinds).
            if let Some(command) = self.options.game_command(&snapshot.mods, !snapshot.layers.is_empty(), input) {
                self.host.send(command);
            }
        }
    }

    /// The game stopped on an error: Resume abandons the failed step, Quit goes to the title.
    fn error_ui(&mut self, ui: &mut Ui, rect: Rect, error: &nefia_protocol::failure::GameError) {
        // Links lead to the editor's panes: the player window has none to show them in.
        let mut links = Vec::new();
        match error_screen_ui(ui, rect, error, ("Quit to title", None), true, &mut links) {
            Some(ErrorChoice::Resume) => self.host.send(Command::Debug(DebugCommand::Resume)),
            Some(ErrorChoice::Leave) => self.host.send(Command::Play(PlayCommand::Stop)),
            None => {}
        }
        if let Some(report) = &self.snapshot.debug.report {
            bug_report_ui(ui, rect, report);
        }
    }

    /// The title menu: arrows and Enter, or the mouse.
    fn title_ui(&mut self, ui: &mut Ui, rect: Rect) {
        let entries: Vec<TitleEntry> = match &self.title {
            TitleMenu::Main => vec![TitleEntry::NewGame, TitleEntry::LoadGame, TitleEntry::Options, TitleEntry::Quit],
            TitleMenu::Load(saves) => {
                saves.iter().flatten().map(|save| TitleEntry::Save(save.clone())).chain([TitleEntry::Back]).collect()
            }
        };
        let (up, down, enter, escape) = ui.input_mut(|i| {
            (
                i.consume_key(Modifiers::NONE, Key::ArrowUp),
                i.consume_key(Modifiers::NONE, Key::ArrowDown),
                i.consume_key(Modifiers::NONE, Key::Enter),
                i.consume_key(Modifiers::NONE, Key::Escape),
            )
        });
        let count = entries.len();
        if up {
            self.cursor = (self.cursor + count - 1) % count;
        }
        if down {
            self.cursor = (self.cursor + 1) % count;
        }
        self.cursor = self.cursor.min(count - 1);
        let mut chosen = enter.then_some(self.cursor);
        let area = Rect::from_center_size(rect.center(), Vec2::new(420.0, 420.0));
        ui.scope_builder(egui::UiBuilder::new().max_rect(area), |ui| {
            egui::Frame::window(ui.style()).show(ui, |ui| {
                ui.set_width(area.width() - 16.0);
                ui.vertical_centered(|ui| {
                    ui.heading(RichText::new(&self.snapshot.project).size(28.0));
                    let page = match &self.title {
                        TitleMenu::Main => "",
                        TitleMenu::Load(None) => "Looking for saved games…",
                        TitleMenu::Load(Some(saves)) if saves.is_empty() => "No saved games yet",
                        TitleMenu::Load(Some(_)) => "Load which game?",
                    };
                    ui.weak(page);
                    ui.add_space(12.0);
                    for (index, entry) in entries.iter().enumerate() {
                        let text = RichText::new(entry.label()).size(18.0);
                        let response = ui.selectable_label(index == self.cursor, text);
                        if let TitleEntry::Save(save) = entry {
                            ui.weak(save.describe());
                            ui.weak(save.saved_ago(std::time::SystemTime::now()));
                        }
                        if response.clicked() {
                            chosen = Some(index);
                        }
                    }
                    for notice in self.notice.iter().cloned().chain(self.options.problem()) {
                        ui.add_space(12.0);
                        ui.colored_label(Color32::LIGHT_RED, notice);
                    }
                    // The options: the theme the map is drawn with.
                    ui.add_space(12.0);
                    if let Some(command) = crate::themes::theme_picker(ui, &self.snapshot.mods) {
                        self.host.send(command);
                    }
                });
            });
        });
        if escape && matches!(self.title, TitleMenu::Load(_)) {
            chosen = Some(count - 1);
        }
        if let Some(index) = chosen {
            self.choose(entries[index].clone());
        }
    }

    /// Acts on a title menu entry.
    fn choose(&mut self, entry: TitleEntry) {
        self.notice = None;
        match entry {
            TitleEntry::NewGame => self.host.send(Command::Play(PlayCommand::Start(PlayFrom::Start))),
            TitleEntry::LoadGame => {
                self.title = TitleMenu::Load(None);
                self.cursor = 0;
                self.host.send(Command::Play(PlayCommand::ListSaves));
            }
            TitleEntry::Options => self.options.open(),
            TitleEntry::Quit => self.quitting = true,
            TitleEntry::Save(save) => self.host.send(Command::Play(PlayCommand::Start(PlayFrom::Save(save.name)))),
            TitleEntry::Back => {
                self.title = TitleMenu::Main;
                self.cursor = 1;
            }
        }
    }
}

/// Below the error screen: where its bug report went ("send this file"), or why it could not
/// be written.
fn bug_report_ui(ui: &Ui, rect: Rect, report: &Result<PathBuf, String>) {
    egui::Area::new(egui::Id::new("nefia-player-bug-report"))
        .fixed_pos(rect.center_bottom() - Vec2::new(0.0, 32.0))
        .pivot(Align2::CENTER_BOTTOM)
        .show(ui.ctx(), |ui| {
            egui::Frame::popup(ui.style()).show(ui, |ui| match report {
                Ok(path) => {
                    ui.label("A bug report was written. Send this file to the game's makers:");
                    ui.add(egui::Label::new(RichText::new(path.display().to_string()).monospace()).selectable(true));
                }
                Err(why) => {
                    ui.colored_label(Color32::LIGHT_RED, format!("The bug report could not be written: {why}"));
                }
            });
        });
}

fn centred_text(ui: &Ui, rect: Rect, text: &str, color: Color32) {
    ui.painter().text(rect.center(), Align2::CENTER_CENTER, text, FontId::proportional(16.0), color);
}

impl eframe::App for PlayerApp {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        PlayerApp::ui(self, ui);
    }
}

/// Runs the player window on `config`.
pub fn run(config: PlayerConfig) -> eframe::Result<()> {
    run_attached(config, |_| ())
}

/// Runs the player window on `config` with what `attach` makes from it kept beside it
/// while the window is open (the remote protocol's server).
pub fn run_attached<T: 'static>(
    config: PlayerConfig,
    attach: impl FnOnce(&PlayerApp) -> T + 'static,
) -> eframe::Result<()> {
    let settings = crate::settings::SettingsFile::load(&config.dirs.settings);
    let options = eframe::NativeOptions {
        viewport: settings.settings().window.viewport(config.title.clone()),
        // The window's size is the settings'; what egui keeps of itself goes in a file beside
        // them, in the game's own folder (not one shared by every Nefia game).
        persist_window: false,
        persistence_path: Some(config.dirs.settings.with_file_name("egui.ron")),
        ..Default::default()
    };
    eframe::run_native(
        "nefia-play",
        options,
        Box::new(move |cc| {
            let app = PlayerApp::open(&cc.egui_ctx, config, settings);
            let attached = attach(&app);
            Ok(Box::new(Attached { app, _attached: attached }))
        }),
    )
}

/// The project's name (its `project.ron`'s), or its folder's if it cannot be read: the
/// window's title.
pub fn project_name(project: &Path) -> String {
    match nefia_game::project::Project::open(project) {
        Ok(opened) => opened.manifest.name,
        Err(_) => project.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default(),
    }
}

/// The player window with something kept alive beside it.
struct Attached<T> {
    app: PlayerApp,
    _attached: T,
}

impl<T> eframe::App for Attached<T> {
    fn ui(&mut self, ui: &mut Ui, _frame: &mut eframe::Frame) {
        self.app.ui(ui);
    }
}
