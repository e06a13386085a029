//! The language switch in the viewport's toolbar and the Locale pane, driven headless: choosing
//! Japanese makes the game's names Japanese; the pane lists a key's texts side by side, marks a
//! language that lacks one, shows the prototype that uses it, and a text edited in place is
//! written into its file (one line) and undone byte for byte.

mod common;

use common::{editor_on, eval_values, scroll_into_view, step_until};
use egui_kittest::kittest::{NodeT, Queryable};
use nefia_editor::context::Tab;
use nefia_editor::panes::repl::ReplState;
use nefia_tests::DemoCopy;

#[test]
fn the_toolbar_switches_the_language_and_the_game_follows() {
    let copy = DemoCopy::new();
    let mut harness = editor_on(&copy.project(), ReplState::default());
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    eval_values(&mut harness, "p = Chara.create('elona.putit', 1, 1)");
    assert_eq!(eval_values(&mut harness, "p.name"), ["\"putit\""]);
    harness.get_by_label("Language: english").click();
    step_until(&mut harness, "the languages", |h| h.query_by_label("japanese").is_some());
    harness.get_by_label("japanese").click();
    step_until(&mut harness, "the switch", |h| h.state().state().snapshot.mods.language == "base.japanese");
    assert_eq!(eval_values(&mut harness, "p.name"), ["\"プチ\""], "a putit is named in Japanese");
    assert_eq!(eval_values(&mut harness, "I18N.language()"), ["\"jp\""]);
    step_until(&mut harness, "the toolbar to say so", |h| h.query_by_label("Language: japanese").is_some());
}

#[test]
fn the_locale_pane_shows_languages_side_by_side_marks_a_missing_key_and_edits_in_place_with_undo() {
    let copy = DemoCopy::new();
    let en = copy.mod_file("elona/locale/en/damage.lua");
    let text = std::fs::read_to_string(&en).expect("the English damage file");
    nefia_tests::write(&en, text.replace("      name = \"sword\",", "      name = \"sword\",\n      short = \"sw.\","))
        .unwrap();
    let jp = copy.mod_file("elona/locale/jp/chara.lua");
    let original = std::fs::read_to_string(&jp).expect("the Japanese characters");
    let mut harness = editor_on(&copy.project(), ReplState::default());
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    harness.state_mut().open_tab(Tab::Locale);
    harness.state_mut().panes_mut().locale.filter = "long_sword.short".into();
    step_until(&mut harness, "the key", |h| {
        h.query_by_label("weapon.elona.long_sword.short").is_some()
            || h.query_by_label("damage.weapon.elona.long_sword.short").is_some()
    });
    assert!(harness.query_by_label("missing").is_some(), "jp lacks the key");
    let add = harness.get_by_label("Add jp");
    assert!(!add.accesskit_node().is_disabled(), "it can be added to the jp file beside the en one");

    harness.state_mut().panes_mut().locale.filter = "chara._.elona.putit.name".into();
    step_until(&mut harness, "putit's name", |h| h.query_by_label("プチ").is_some());
    assert!(harness.query_by_label("putit").is_some(), "English beside Japanese");
    assert!(harness.query_by_label("elona.putit").is_some(), "the prototype that uses the key");
    scroll_into_view(&mut harness, "プチ");
    harness.get_by_label("プチ").click();
    step_until(&mut harness, "the text box", |h| h.query_by_label("chara._.elona.putit.name (jp)").is_some());
    scroll_into_view(&mut harness, "chara._.elona.putit.name (jp)");
    harness.get_by_label("chara._.elona.putit.name (jp)").click();
    harness.step();
    harness.key_press(egui::Key::End);
    for _ in 0..2 {
        harness.key_press(egui::Key::Backspace);
    }
    harness.get_by_label("chara._.elona.putit.name (jp)").type_text("ぷちぷち");
    harness.step();
    harness.key_press(egui::Key::Enter);
    step_until(&mut harness, "the file written", |_| std::fs::read_to_string(&jp).unwrap() != original);
    let edited = std::fs::read_to_string(&jp).unwrap();
    let expected = original.replacen("name = \"プチ\"", "name = \"ぷちぷち\"", 1);
    assert!(edited == expected, "one text changed, every other byte kept");
    harness
        .state()
        .host()
        .send(nefia_protocol::message::Command::Editing(nefia_protocol::editing::EditingCommand::Undo));
    step_until(&mut harness, "the undo", |_| std::fs::read_to_string(&jp).unwrap() == original);
}
