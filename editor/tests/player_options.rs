//! The player window's Options (from the title menu and in game): rebinding keys with their
//! conflicts, the text size and the window, kept in `settings.ron` and read at the next start
//! (a malformed file is the defaults and a message naming it); quitting a game asks whether
//! to save; the window is titled with the project's name.

mod common;

use std::path::{Path, PathBuf};

use common::step_until;
use egui::{Key, ViewportCommand, ViewportId};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use nefia_editor::player::{PlayerApp, TitleMenu};
use nefia_editor::settings::{SettingsFile, WindowSettings};
use nefia_protocol::debugging::ReplCommand;
use nefia_protocol::message::Command;
use nefia_tests::DemoCopy;

/// A player window on a copy of the demo with its settings at `settings`, at the title menu.
fn player(demo: &DemoCopy, settings: &Path) -> Harness<'static, PlayerApp> {
    let app = PlayerApp::with_settings(&egui::Context::default(), demo.project(), SettingsFile::load(settings));
    let mut harness =
        Harness::builder().with_size([1024.0, 768.0]).build_ui_state(|ui, app: &mut PlayerApp| app.ui(ui), app);
    step_until(&mut harness, "the title menu", |h| h.query_by_label("New game").is_some());
    harness
}

/// Where the tests keep the settings: outside the project, as a player's own folder.
fn settings_path(demo: &DemoCopy) -> PathBuf {
    demo.root.path().join("config/settings.ron")
}

fn playing(harness: &Harness<'static, PlayerApp>) -> bool {
    harness.state().snapshot().play.playing
}

/// New game, on the start map.
fn new_game(harness: &mut Harness<'static, PlayerApp>) {
    harness.get_by_label("New game").click();
    step_until(harness, "a new game", |h| playing(h) && h.state().snapshot().player_at.is_some());
    // The corner's Options button, new, settles where it is drawn.
    harness.run_steps(3);
}

/// The viewport commands of the frame last run.
fn viewport_commands(harness: &Harness<'static, PlayerApp>) -> Vec<ViewportCommand> {
    harness.output().viewport_output.get(&ViewportId::ROOT).map(|v| v.commands.clone()).unwrap_or_default()
}

#[test]
fn the_options_open_from_the_title_menu_and_in_game() {
    let demo = DemoCopy::new();
    let mut harness = player(&demo, &settings_path(&demo));
    harness.get_by_label("Options").click();
    step_until(&mut harness, "the Options", |h| h.query_by_label("Move north").is_some());
    assert!(harness.query_by_label("New game").is_none(), "in place of the title menu");
    harness.key_press(Key::Escape);
    step_until(&mut harness, "the title menu again", |h| h.query_by_label("New game").is_some());
    assert!(harness.query_by_label("Move north").is_none());

    new_game(&mut harness);
    harness.get_by_label("Options").click();
    step_until(&mut harness, "the Options in game", |h| h.query_by_label("Move north").is_some());
    assert!(harness.query_by_label("Quit to title").is_some(), "in game they offer Quit to title");
    harness.get_by_label("Close").click();
    step_until(&mut harness, "the Options closed", |h| h.query_by_label("Move north").is_none());
    // F10 is the window's own key for them.
    harness.key_press(Key::F10);
    step_until(&mut harness, "the Options by F10", |h| h.query_by_label("Move north").is_some());
    let turn = harness.state().snapshot().turn;
    // Their keys are theirs: Escape closes them and starts no turn or game menu.
    harness.key_press(Key::ArrowLeft);
    harness.key_press(Key::Escape);
    step_until(&mut harness, "the Options closed", |h| h.query_by_label("Move north").is_none());
    harness.run_steps(5);
    assert_eq!(harness.state().snapshot().turn, turn, "no key reached the game");
    assert!(harness.state().snapshot().layers.is_empty(), "no game menu opened");
}

#[test]
fn a_rebound_key_moves_the_player_and_a_conflict_is_swapped_or_cancelled() {
    let demo = DemoCopy::new();
    let path = settings_path(&demo);
    let mut harness = player(&demo, &path);
    new_game(&mut harness);
    let (x, y) = harness.state().snapshot().player_at.expect("the player");

    harness.key_press(Key::F10);
    step_until(&mut harness, "the Options", |h| h.query_by_label("Move west").is_some());
    assert!(harness.query_by_label("left, 4, h").is_some(), "west's keys as the game gives them");
    harness.get_by_label("Move west").click();
    step_until(&mut harness, "the question", |h| h.query_by_label("Press the new key for Move west").is_some());
    harness.key_press(Key::X);
    step_until(&mut harness, "the new key", |h| h.query_by_label("x, 4, h").is_some());
    harness.key_press(Key::Escape);
    step_until(&mut harness, "the Options closed", |h| h.query_by_label("Move west").is_none());
    // Left no longer moves west; x does (were Left still west's, the player would be two west).
    harness.key_press(Key::ArrowLeft);
    harness.key_press(Key::X);
    step_until(&mut harness, "the step west", |h| h.state().snapshot().player_at != Some((x, y)));
    harness.run_steps(5);
    assert_eq!(harness.state().snapshot().player_at, Some((x - 1, y)), "x moved the player west, once");

    // k is north's: the conflict is shown; Cancel changes nothing, Swap gives north x.
    harness.key_press(Key::F10);
    step_until(&mut harness, "the Options", |h| h.query_by_label("Move west").is_some());
    for answer in ["Cancel", "Swap: k for Move west"] {
        harness.get_by_label("Move west").click();
        step_until(&mut harness, "the question", |h| h.query_by_label("Press the new key for Move west").is_some());
        harness.key_press(Key::K);
        step_until(&mut harness, "the conflict", |h| h.query_by_label("k is already the key of Move north").is_some());
        assert!(harness.query_by_label("x, 4, h").is_some(), "nothing changed yet");
        harness.get_by_label(answer).click();
        step_until(&mut harness, "the answer", |h| h.query_by_label("k is already the key of Move north").is_none());
    }
    assert!(harness.query_by_label("k, 4, h").is_some(), "west has k");
    assert!(harness.query_by_label("up, 8, x").is_some(), "north has x in k's place");
    harness.get_by_label("Close").click();
    step_until(&mut harness, "the Options closed", |h| h.query_by_label("Move west").is_none());
    harness.key_press(Key::K);
    step_until(&mut harness, "the step west by k", |h| h.state().snapshot().player_at == Some((x - 2, y)));

    let keys = SettingsFile::load(&path).settings().keys.clone();
    assert_eq!(keys["elona.west"], ["k", "4", "h"], "written at once");
    assert_eq!(keys["elona.north"], ["up", "8", "x"]);
}

#[test]
fn settings_are_written_at_once_and_applied_at_the_next_start() {
    let demo = DemoCopy::new();
    let path = settings_path(&demo);
    let mut harness = player(&demo, &path);
    assert_eq!(harness.ctx.zoom_factor(), 1.0);
    harness.get_by_label("Options").click();
    step_until(&mut harness, "the Options", |h| h.query_by_label("150%").is_some());
    // The game's languages, once its data has come: their row is above the others, which it
    // moves down (a click aimed before it came would miss).
    step_until(&mut harness, "the languages", |h| h.query_by_label("japanese").is_some());
    harness.get_by_label("150%").click();
    step_until(&mut harness, "the text scale", |h| h.ctx.zoom_factor() == 1.5);
    harness.get_by_label("Fullscreen").click();
    harness.step();
    assert!(viewport_commands(&harness).contains(&ViewportCommand::Fullscreen(true)), "applied at once");
    harness.get_by_label("1600×900").click();
    harness.step();
    let resized = ViewportCommand::InnerSize(egui::vec2(1600.0, 900.0));
    assert!(viewport_commands(&harness).contains(&resized), "applied at once");
    // The harness takes the new size: a frame lays the Options out in it before the next click.
    harness.step();
    harness.get_by_label("japanese").click();
    step_until(&mut harness, "the language", |h| h.state().snapshot().mods.language == "base.japanese");
    drop(harness);

    // Written atomically: the file whole, and no temp file beside it.
    let folder: Vec<_> = std::fs::read_dir(path.parent().unwrap()).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(folder, ["settings.ron"]);
    let written = SettingsFile::load(&path);
    assert!(written.problem().is_none(), "{:?}", written.problem());
    assert_eq!(written.settings().text_scale, 1.5);
    assert_eq!(written.settings().window, WindowSettings { width: 1600, height: 900, fullscreen: true });
    assert_eq!(written.settings().language.as_deref(), Some("base.japanese"));

    // The next start applies them.
    let harness = player(&demo, &path);
    assert_eq!(harness.ctx.zoom_factor(), 1.5, "the text scale");
    let mut harness = harness;
    step_until(&mut harness, "the language", |h| h.state().snapshot().mods.language == "base.japanese");
}

#[test]
fn a_malformed_settings_file_gives_the_defaults_and_a_message_naming_it() {
    let demo = DemoCopy::new();
    let path = settings_path(&demo);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    let text = "(\n    text_scale: 1.5,\n    window: (width: oops),\n)\n";
    std::fs::write(&path, text).unwrap();
    let mut harness = player(&demo, &path);
    let named = format!("{}:3", path.display());
    step_until(&mut harness, "the message", |h| h.query_by_label_contains(&named).is_some());
    assert_eq!(harness.ctx.zoom_factor(), 1.0, "the default text scale");
    new_game(&mut harness);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text, "left as it is until a setting is changed");
}

#[test]
fn quit_to_title_asks_and_save_and_quit_writes_a_save_the_load_list_shows() {
    let demo = DemoCopy::new();
    let mut harness = player(&demo, &settings_path(&demo));
    new_game(&mut harness);
    let start = harness.state().snapshot().player_at;
    harness.key_press(Key::ArrowLeft);
    step_until(&mut harness, "the step", |h| h.state().snapshot().player_at != start);
    let (walked_to, turn) = (harness.state().snapshot().player_at, harness.state().snapshot().turn);

    for answer in ["Cancel", "Save and quit"] {
        harness.get_by_label("Options").click();
        step_until(&mut harness, "the Options", |h| h.query_by_label("Quit to title").is_some());
        harness.get_by_label("Quit to title").click();
        step_until(&mut harness, "the question", |h| h.query_by_label("Save before quitting?").is_some());
        harness.get_by_label(answer).click();
        step_until(&mut harness, "the answer", |h| h.query_by_label("Save before quitting?").is_none());
    }
    step_until(&mut harness, "the title menu", |h| !playing(h) && h.query_by_label("New game").is_some());
    assert!(demo.project().join("saves/quicksave.ron").is_file(), "saved");

    harness.get_by_label("Load game").click();
    step_until(&mut harness, "the saves", |h| h.query_by_label("quicksave").is_some());
    let TitleMenu::Load(Some(saves)) = harness.state().title_menu() else { panic!("the Load game page") };
    let described = saves[0].describe();
    assert!(described.contains(&format!(" · turn {turn} · town")), "{described}");
    assert!(harness.query_by_label(&described).is_some(), "the list shows {described:?}");
    assert!(harness.query_by_label("saved just now").is_some(), "and when it was saved");
    harness.get_by_label("quicksave").click();
    step_until(&mut harness, "the loaded game", |h| playing(h) && h.state().snapshot().player_at.is_some());
    assert_eq!(harness.state().snapshot().player_at, walked_to);
}

#[test]
fn closing_the_window_while_playing_asks_whether_to_save() {
    let demo = DemoCopy::new();
    let mut harness = player(&demo, &settings_path(&demo));
    let close = |harness: &mut Harness<'static, PlayerApp>| {
        let root = harness.input_mut().viewports.entry(ViewportId::ROOT).or_default();
        root.events.push(egui::ViewportEvent::Close);
        harness.step();
    };
    // On the title menu the window just closes.
    close(&mut harness);
    assert!(!viewport_commands(&harness).contains(&ViewportCommand::CancelClose));

    new_game(&mut harness);
    close(&mut harness);
    assert!(viewport_commands(&harness).contains(&ViewportCommand::CancelClose), "the window stays");
    step_until(&mut harness, "the question", |h| h.query_by_label("Save before quitting?").is_some());
    harness.get_by_label("Cancel").click();
    step_until(&mut harness, "the game again", |h| h.query_by_label("Save before quitting?").is_none());
    assert!(playing(&harness) && !harness.state().quitting());

    close(&mut harness);
    step_until(&mut harness, "the question", |h| h.query_by_label("Save before quitting?").is_some());
    harness.get_by_label("Quit without saving").click();
    step_until(&mut harness, "the window closing", |h| h.state().quitting());
    assert!(!playing(&harness), "the game was stopped first");
    assert!(!demo.project().join("saves/quicksave.ron").exists(), "nothing saved");
    assert!(viewport_commands(&harness).contains(&ViewportCommand::Close));
}

#[test]
fn the_window_is_titled_with_the_projects_name() {
    let demo = DemoCopy::new();
    let app =
        PlayerApp::with_settings(&egui::Context::default(), demo.project(), SettingsFile::load(&settings_path(&demo)));
    let mut harness =
        Harness::builder().with_size([1024.0, 768.0]).build_ui_state(|ui, app: &mut PlayerApp| app.ui(ui), app);
    let mut titles = Vec::new();
    step_until(&mut harness, "the project's name", |h| {
        titles.extend(viewport_commands(h).into_iter().filter(|c| matches!(c, ViewportCommand::Title(_))));
        titles.contains(&ViewportCommand::Title("Demo".into()))
    });
    assert_eq!(titles, [ViewportCommand::Title("Demo".into())], "its name alone, from project.ron");
    assert_eq!(nefia_editor::player::project_name(&demo.project()), "Demo");
}

#[test]
fn a_save_refused_on_quitting_is_shown_and_the_game_goes_on() {
    let demo = DemoCopy::new();
    let mut harness = player(&demo, &settings_path(&demo));
    new_game(&mut harness);
    // A function in a mod's save table cannot be saved.
    let code = "save.test = { callback = function() end }";
    harness.state().host().send(Command::Repl(ReplCommand::Eval { id: 1, code: code.into() }));
    harness.get_by_label("Options").click();
    step_until(&mut harness, "the Options", |h| h.query_by_label("Quit to title").is_some());
    harness.get_by_label("Quit to title").click();
    step_until(&mut harness, "the question", |h| h.query_by_label("Save and quit").is_some());
    harness.get_by_label("Save and quit").click();
    step_until(&mut harness, "the refusal", |h| h.query_by_label_contains("the game was not saved").is_some());
    assert!(harness.query_by_label_contains("save.test.callback").is_some(), "it names what could not be saved");
    assert!(playing(&harness), "the game goes on");
    assert!(harness.query_by_label("Save before quitting?").is_some(), "asked again");
    harness.get_by_label("Quit without saving").click();
    step_until(&mut harness, "the title menu", |h| !playing(h) && h.query_by_label("New game").is_some());
}
