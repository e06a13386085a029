//! The player window (`nefia play`): the title menu, a new game taking the keyboard, saving
//! and quitting to the title, loading, and Quit.

mod common;

use common::step_until;
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use nefia_editor::player::{PlayerApp, TitleMenu};
use nefia_protocol::debugging::ReplCommand;
use nefia_protocol::message::Command;
use nefia_tests::DemoCopy;

/// A player window on a copy of the demo, showing the title menu.
fn player(demo: &DemoCopy) -> Harness<'static, PlayerApp> {
    let app = PlayerApp::new(&egui::Context::default(), demo.project());
    let mut harness =
        Harness::builder().with_size([1024.0, 768.0]).build_ui_state(|ui, app: &mut PlayerApp| app.ui(ui), app);
    step_until(&mut harness, "the title menu", |h| h.query_by_label("New game").is_some());
    harness
}

fn playing(harness: &Harness<'static, PlayerApp>) -> bool {
    harness.state().snapshot().play.playing
}

#[test]
fn the_title_menu_starts_a_game_that_takes_the_keyboard_and_quits_back_to_it() {
    let demo = DemoCopy::new();
    let mut harness = player(&demo);
    assert!(!playing(&harness), "the title menu first");
    assert!(harness.query_by_label("Load game").is_some() && harness.query_by_label("Quit").is_some());
    harness.get_by_label("New game").click();
    step_until(&mut harness, "a new game", |h| playing(h) && h.state().snapshot().player_at.is_some());
    assert_eq!(harness.state().snapshot().player_at, Some((16, 10)), "at the start map's entrance");
    assert!(harness.query_by_label("New game").is_none(), "the title menu is gone");

    // The arrow keys move the player: some direction from the entrance is open.
    let start = harness.state().snapshot().player_at;
    let turn = harness.state().snapshot().turn;
    for key in [egui::Key::ArrowUp, egui::Key::ArrowDown, egui::Key::ArrowLeft, egui::Key::ArrowRight] {
        harness.key_press(key);
        step_until(&mut harness, "the turn", |h| {
            h.state().snapshot().turn > turn || h.state().snapshot().player_at != start
        });
        if harness.state().snapshot().player_at != start {
            break;
        }
    }
    assert_ne!(harness.state().snapshot().player_at, start, "the player walked");

    // Escape is the game's menu: save, then quit to the title.
    harness.key_press(egui::Key::Escape);
    step_until(&mut harness, "the game menu", |h| h.query_by_label("Save the game").is_some());
    harness.get_by_label("Save the game").click();
    let save = demo.project().join("saves/quicksave.ron");
    step_until(&mut harness, "the save", |_| save.exists());
    // The menu closes once saved: an Escape before that would close it rather than open the
    // next, and the Quit found would be the closing menu's.
    step_until(&mut harness, "the menu closed", |h| h.query_by_label("Save the game").is_none());
    let walked_to = harness.state().snapshot().player_at;
    let saved_turn = harness.state().snapshot().turn;
    harness.key_press(egui::Key::Escape);
    step_until(&mut harness, "the game menu", |h| h.query_by_label("Quit").is_some());
    harness.get_by_label("Quit").click();
    // It asks whether to save: saved already.
    step_until(&mut harness, "the question", |h| h.query_by_label("Quit without saving").is_some());
    harness.get_by_label("Quit without saving").click();
    step_until(&mut harness, "the title menu again", |h| !playing(h) && h.query_by_label("New game").is_some());
    assert_eq!(harness.state().snapshot().player, None, "the game was set aside");

    // Load game lists the save; choosing it plays on from where it was saved.
    harness.get_by_label("Load game").click();
    step_until(&mut harness, "the saves", |h| h.query_by_label("quicksave").is_some());
    let TitleMenu::Load(Some(saves)) = harness.state().title_menu() else { panic!("the Load game page") };
    assert_eq!(saves.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["quicksave"]);
    // Each save says when in the game it was made, where and who.
    let described = saves[0].describe();
    assert!(described.contains(&format!(" · turn {saved_turn} · town · you")), "{described}");
    assert!(harness.query_by_label(&described).is_some(), "the list shows {described:?}");
    harness.get_by_label("quicksave").click();
    step_until(&mut harness, "the loaded game", |h| playing(h) && h.state().snapshot().player_at.is_some());
    assert_eq!(harness.state().snapshot().player_at, walked_to, "where the save left the player");
}

#[test]
fn the_title_menu_works_from_the_keyboard() {
    let demo = DemoCopy::new();
    let mut harness = player(&demo);
    // Load game (no saves yet), Escape back, then down past Options to Quit.
    harness.key_press(egui::Key::ArrowDown);
    harness.key_press(egui::Key::Enter);
    step_until(&mut harness, "the empty save list", |h| h.query_by_label("No saved games yet").is_some());
    harness.key_press(egui::Key::Escape);
    step_until(&mut harness, "the main page", |h| h.state().title_menu() == &TitleMenu::Main);
    assert!(!harness.state().quitting());
    // Down past Options to Quit.
    harness.key_press(egui::Key::ArrowDown);
    harness.key_press(egui::Key::ArrowDown);
    harness.key_press(egui::Key::Enter);
    harness.step();
    assert!(harness.state().quitting(), "Quit closes the window");
    assert!(!playing(&harness), "no game was started on the way");
}

#[test]
fn an_error_in_the_game_stops_it_until_resumed_or_quit_to_the_title() {
    let demo = DemoCopy::new();
    let mut harness = player(&demo);
    harness.get_by_label("New game").click();
    step_until(&mut harness, "a new game", |h| playing(h) && h.state().snapshot().player_at.is_some());
    let code = "Event.register('base.on_key_pressed', 'test.broken', function(_, p) if p.key == 'x' then error('the x key is broken') end end)";
    harness.state().host().send(Command::Repl(ReplCommand::Eval { id: 1, code: code.into() }));
    harness.key_press(egui::Key::X);
    step_until(&mut harness, "the error screen", |h| h.query_by_label_contains("the x key is broken").is_some());
    assert!(harness.query_by_label_contains("The game stopped").is_some());
    harness.key_press(egui::Key::Enter);
    step_until(&mut harness, "the game going on", |h| h.state().snapshot().debug.error.is_none());
    assert!(playing(&harness), "Resume goes on playing");
    harness.key_press(egui::Key::X);
    step_until(&mut harness, "the error screen again", |h| h.state().snapshot().debug.error.is_some());
    harness.get_by_label("Quit to title (Escape)").click();
    step_until(&mut harness, "the title menu", |h| !playing(h) && h.query_by_label("New game").is_some());
}

#[test]
fn a_broken_save_is_named_on_the_title_screen_and_nothing_starts() {
    let demo = DemoCopy::new();
    std::fs::create_dir_all(demo.project().join("saves")).unwrap();
    std::fs::write(demo.project().join("saves/broken.ron"), "(version: 1, world: oops").unwrap();
    let mut harness = player(&demo);
    harness.get_by_label("Load game").click();
    step_until(&mut harness, "the saves", |h| h.query_by_label("broken").is_some());
    assert!(harness.query_by_label_contains("unreadable").is_some(), "the list says it cannot be read");
    harness.get_by_label("broken").click();
    step_until(&mut harness, "the refusal", |h| h.query_by_label_contains("broken.ron").is_some());
    assert!(!playing(&harness), "no game began");
    assert_eq!(harness.state().snapshot().player, None);
}

/// Copies folder `from` into `to`, subfolders too.
fn copy_folder(from: &std::path::Path, to: &std::path::Path) {
    std::fs::create_dir_all(to).expect("a folder can be made");
    for entry in std::fs::read_dir(from).expect("the folder exists").map(|e| e.expect("an entry")) {
        match entry.file_type().expect("a type").is_dir() {
            true => copy_folder(&entry.path(), &to.join(entry.file_name())),
            false => drop(std::fs::copy(entry.path(), to.join(entry.file_name())).expect("copied")),
        }
    }
}

#[test]
fn the_ascii_option_draws_the_map_as_glyphs() {
    let demo = DemoCopy::new();
    // The demo's images, where its project looks for them.
    copy_folder(&nefia_tests::repo_root().join("assets"), &demo.root.path().join("assets"));
    let mut harness = player(&demo);
    step_until(&mut harness, "the fountain's sprite behind the title", |h| h.state().report().sprites > 0);
    harness.get_by_label("ASCII").click();
    step_until(&mut harness, "the ASCII view", |h| h.state().report().sprites == 0);
    assert!(harness.state().report().glyphs > 0, "glyphs in their place");
}
