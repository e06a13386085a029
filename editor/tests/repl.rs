//! The REPL pane and the error screen, driven headless: typing and Enter, multi-line input,
//! history, completion, links, breakpoint mode, Stop and the error overlay.

mod common;

use common::{editor_on, started, step_until};
use egui_kittest::Harness;
use egui_kittest::kittest::Queryable;
use nefia_editor::app::EditorApp;
use nefia_editor::context::Tab;
use nefia_editor::panes::repl::ReplState;
use nefia_protocol::repl::Evaluation;
use nefia_protocol::view::RuntimeState;

/// Focuses the REPL input and types `text` (without pressing Enter).
fn type_in(harness: &mut Harness<'static, EditorApp>, text: &str) {
    harness.state_mut().open_tab(Tab::Repl);
    harness.step();
    harness.get_by_label("REPL input").click();
    harness.step();
    harness.get_by_label("REPL input").type_text(text);
    harness.step();
}

/// Types `text` and presses Enter; returns the number of REPL entries before.
fn enter(harness: &mut Harness<'static, EditorApp>, text: &str) -> usize {
    let before = harness.state().panes().repl.entries.len();
    type_in(harness, text);
    harness.key_press(egui::Key::Enter);
    harness.step();
    before
}

fn last_result(harness: &Harness<'static, EditorApp>) -> Option<Evaluation> {
    harness.state().panes().repl.entries.last().and_then(|e| e.result.clone())
}

/// Waits for the answer to the last entry.
fn answered(harness: &mut Harness<'static, EditorApp>) -> Evaluation {
    step_until(harness, "the answer", |h| last_result(h).is_some());
    last_result(harness).unwrap()
}

fn input(harness: &Harness<'static, EditorApp>) -> String {
    harness.state().panes().repl.input.clone()
}

#[test]
fn enter_evaluates_and_an_incomplete_chunk_continues_on_the_next_line() {
    let mut harness = started();
    enter(&mut harness, "1 + 1");
    assert_eq!(answered(&mut harness), Evaluation::Values(vec!["2".into()]));
    step_until(&mut harness, "the value shown", |h| h.query_by_label("2").is_some());

    enter(&mut harness, "function twice(n)");
    step_until(&mut harness, "the chunk back in the input", |h| input(h) == "function twice(n)\n");
    assert!(harness.state().panes().repl.entries.last().is_some_and(|e| e.input == "1 + 1"), "no entry for it");
    type_in(&mut harness, "return n * 2 end");
    harness.key_press(egui::Key::Enter);
    harness.step();
    assert_eq!(answered(&mut harness), Evaluation::Values(vec![]));
    enter(&mut harness, "twice(21)");
    assert_eq!(answered(&mut harness), Evaluation::Values(vec!["42".into()]));

    // Shift+Enter always adds a line.
    type_in(&mut harness, "x = 1");
    harness.key_press_modifiers(egui::Modifiers::SHIFT, egui::Key::Enter);
    harness.step();
    assert_eq!(input(&harness), "x = 1\n");
}

#[test]
fn printed_output_appears_with_its_entry_and_errors_link_to_their_source() {
    let mut harness = started();
    enter(&mut harness, "print('hello') return 5");
    assert_eq!(answered(&mut harness), Evaluation::Values(vec!["5".into()]));
    step_until(&mut harness, "the print", |h| h.query_by_label("hello").is_some());

    enter(&mut harness, "Chara.create('elona.nope', 1, 1)");
    assert!(matches!(answered(&mut harness), Evaluation::Error(_)));
    step_until(&mut harness, "the error", |h| h.query_by_label_contains("unknown base.chara id").is_some());
    // An error in a mod's handler: its file:line place is a link that shows the source lines.
    enter(&mut harness, "Event.trigger('base.on_damage', { target = Chara.player(), amount = 'lots' })");
    assert!(matches!(answered(&mut harness), Evaluation::Error(_)));
    let place = "mods/damage_popups/init.lua:19";
    step_until(&mut harness, "the link", |h| h.query_by_label(place).is_some());
    harness.get_by_label(place).click();
    step_until(&mut harness, "the source window", |h| h.state().panes().repl.source.is_some());
    step_until(&mut harness, "the failing line", |h| {
        h.query_by_label_contains("color = params.amount > 0 and").is_some()
    });
}

#[test]
fn a_call_that_makes_an_object_shows_the_object_and_a_statement_shows_no_value() {
    let mut harness = started();
    enter(&mut harness, "Chara.create('elona.putit', 2, 2)");
    let Evaluation::Values(values) = answered(&mut harness) else { panic!("a value") };
    assert!(matches!(&values[..], [object] if object.ends_with("elona.putit>")), "the object alone: {values:?}");
    let shown = values[0].clone();
    step_until(&mut harness, "the object shown", |h| h.query_by_label(&shown).is_some());
    assert!(harness.query_by_label_contains("nil").is_none(), "no stray nil after it");
    for statement in ["local p = Chara.create('elona.putit', 3, 2)", "print('made')"] {
        enter(&mut harness, statement);
        assert_eq!(answered(&mut harness), Evaluation::Values(vec![]), "{statement} gives nothing to show");
    }
    // A refusal still answers `nil, reason`.
    enter(&mut harness, "Chara.create('elona.putit', 99, 99)");
    let Evaluation::Values(values) = answered(&mut harness) else { panic!("values") };
    assert!(matches!(&values[..], [nil, reason] if nil == "nil" && reason.contains("99")), "{values:?}");
}

#[test]
fn a_clicked_object_is_selected_and_inspected() {
    let mut harness = started();
    enter(&mut harness, "Chara.player()");
    let Evaluation::Values(values) = answered(&mut harness) else { panic!() };
    let text = values[0].clone();
    assert!(text.starts_with("<object ('base.chara', uid ") && text.ends_with("elona.player>"), "{text}");
    step_until(&mut harness, "the link", |h| h.query_by_label(&text).is_some());
    harness.get_by_label(&text).click();
    harness.step();
    harness.step();
    let player = harness.state().state().snapshot.player.unwrap();
    assert_eq!(harness.state().state().selection, vec![player]);
    step_until(&mut harness, "the inspector", |h| h.query_by_label("base fov").is_some());
}

#[test]
fn history_walks_with_up_and_down_and_survives_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let file = ReplState::history_file_of(dir.path());
    let project = nefia_tests::repo_root().join("projects/demo");
    {
        let mut harness = editor_on(&project, ReplState::with_history_file(file.clone()));
        step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
        enter(&mut harness, "10");
        answered(&mut harness);
        enter(&mut harness, "20");
        answered(&mut harness);
        type_in(&mut harness, "");
        harness.key_press(egui::Key::ArrowUp);
        harness.step();
        assert_eq!(input(&harness), "20");
        harness.key_press(egui::Key::ArrowUp);
        harness.step();
        assert_eq!(input(&harness), "10");
        harness.key_press(egui::Key::ArrowDown);
        harness.step();
        assert_eq!(input(&harness), "20");
    }
    let mut harness = editor_on(&project, ReplState::with_history_file(file));
    assert_eq!(harness.state().panes().repl.history, ["10", "20"]);
    type_in(&mut harness, "");
    harness.key_press(egui::Key::ArrowUp);
    harness.step();
    assert_eq!(input(&harness), "20");
}

#[test]
fn tab_completes_names() {
    let mut harness = started();
    type_in(&mut harness, "Chara.cre");
    harness.key_press(egui::Key::Tab);
    step_until(&mut harness, "the completion", |h| input(h) == "Chara.create");
    type_in(&mut harness, "(");
    assert_eq!(input(&harness), "Chara.create(");
}

#[test]
fn breakpoint_mode_shows_locals_and_continues_with_f8() {
    let mut harness = started();
    enter(&mut harness, "local hits = 3 local function f() local hits2 = hits pause() return hits2 end return f()");
    step_until(&mut harness, "the break", |h| h.query_by_label("⏸ Paused").is_some());
    assert!(harness.query_by_label("hits2").is_some(), "the Locals view lists the local");
    assert!(harness.query_by_label_contains("Runtime: paused").is_some());
    enter(&mut harness, "hits2 = hits2 * 10");
    answered(&mut harness);
    step_until(&mut harness, "the new value in Locals", |h| h.query_by_label("30").is_some());
    harness.key_press(egui::Key::F8);
    harness.step();
    step_until(&mut harness, "the run to finish", |h| h.state().state().snapshot.state == RuntimeState::Running);
    step_until(&mut harness, "the paused call's answer", |h| {
        h.state().panes().repl.entries.iter().any(|e| e.result == Some(Evaluation::Values(vec!["30".into()])))
    });
}

#[test]
fn stop_interrupts_a_runaway_loop() {
    let mut harness = started();
    enter(&mut harness, "while true do end");
    step_until(&mut harness, "Stop to be offered", |h| h.state().state().busy);
    harness.get_by_label("⏹ Stop script").click();
    harness.step();
    match answered(&mut harness) {
        Evaluation::Error(failure) => assert!(failure.message.contains("Stop was pressed"), "{}", failure.message),
        other => panic!("{other:?}"),
    }
    enter(&mut harness, "1 + 2");
    assert_eq!(answered(&mut harness), Evaluation::Values(vec!["3".into()]));
}

#[test]
fn the_error_screen_shows_over_the_viewport_enter_resumes_and_escape_goes_to_the_repl() {
    let mut harness = started();
    enter(
        &mut harness,
        "Event.register('base.on_key_pressed', 'test.boom', function(_, p) error('kaboom ' .. p.key) end)",
    );
    answered(&mut harness);
    let trigger = |harness: &mut Harness<'static, EditorApp>| {
        harness
            .state()
            .host()
            .send(nefia_protocol::message::Command::Input(nefia_game::display::Input::Key("k".into())));
        step_until(harness, "the error screen", |h| h.query_by_label("The game stopped: error in key k").is_some());
    };
    trigger(&mut harness);
    assert!(harness.query_by_label_contains("kaboom k").is_some());
    harness.get_by_label("Resume (Enter)").click();
    harness.step();
    step_until(&mut harness, "the game to go on", |h| h.state().state().snapshot.state == RuntimeState::Running);
    step_until(&mut harness, "the overlay to go", |h| h.query_by_label("The game stopped: error in key k").is_none());

    trigger(&mut harness);
    harness.key_press(egui::Key::Escape);
    harness.step();
    step_until(&mut harness, "the banner", |h| h.query_by_label("The game stopped on an error in key k").is_some());
    harness.step();
    let repl_shown = harness.state_mut().dock_mut().find_active_focused().is_some_and(|(_, tab)| *tab == Tab::Repl)
        || harness.query_by_label("REPL input").is_some();
    assert!(repl_shown, "the REPL is brought forward");
    harness.get_by_label("Resume").click();
    harness.step();
    step_until(&mut harness, "the game to go on", |h| h.state().state().snapshot.state == RuntimeState::Running);
}

/// The texts of the transcript's lines, in order, as the pane shows them.
fn transcript(harness: &Harness<'static, EditorApp>) -> Vec<String> {
    use nefia_editor::panes::repl::TranscriptLine;
    let repl = &harness.state().panes().repl;
    let entry = |id: u64| repl.entries.iter().find(|e| e.id() == id).expect("the entry");
    repl.transcript
        .iter()
        .map(|line| match line {
            TranscriptLine::Input(id) => format!("> {}", entry(*id).input),
            TranscriptLine::Output(output) => nefia_editor::panes::log::line(output).0,
            TranscriptLine::Result(id) => format!("= {:?}", entry(*id).result),
        })
        .collect()
}

#[test]
fn in_breakpoint_mode_the_transcript_has_room_and_resumed_output_comes_in_order() {
    let mut harness = started();
    enter(&mut harness, "local a = 5 print('before') pause() print('after', a)");
    step_until(&mut harness, "the break", |h| h.query_by_label("⏸ Paused").is_some());
    enter(&mut harness, "a = a * 2");
    answered(&mut harness);
    enter(&mut harness, "a + 1");
    step_until(&mut harness, "the answer shown", |h| h.query_by_label("11").is_some());
    // The answer is on screen, left of the Locals panel, with most of the pane's width.
    let repl_tab = harness.get_by_role_and_label(egui::accesskit::Role::Tab, "REPL").rect();
    let answer = harness.get_by_label("11").rect();
    let locals = harness.get_by_label("Locals and upvalues").rect();
    assert!(repl_tab.min.x <= answer.min.x && answer.max.x < locals.min.x, "{answer:?} beside {locals:?}");
    let pane = harness.state().state().viewport.rect.expect("drawn").width();
    assert!(locals.min.x - repl_tab.min.x > pane * 0.5, "the transcript keeps over half the width");

    enter(&mut harness, "continue");
    step_until(&mut harness, "the paused chunk's end", |h| {
        h.state().panes().repl.entries.first().is_some_and(|e| e.result.is_some())
    });
    let lines = transcript(&harness);
    let after = lines.iter().position(|l| l == "after\t10").expect("the resumed print is in the REPL");
    let continued = lines.iter().position(|l| l == "> continue").expect("continue");
    assert!(after > continued, "printed after `continue`, shown after it: {lines:?}");
    assert_eq!(lines.last().map(String::as_str), Some("= Some(Values([]))"), "then the paused chunk's own end");
    step_until(&mut harness, "the answer's label", |h| h.query_by_label_contains("↳ local a = 5").is_some());
}

#[test]
fn an_edit_made_from_the_repl_is_one_history_entry_undone_by_ctrl_z() {
    let mut harness = common::editor();
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    let putits = |h: &Harness<'static, EditorApp>| {
        h.state()
            .state()
            .snapshot
            .map
            .as_ref()
            .map_or(0, |m| m.objects_at(3, 3).filter(|o| o.glyph.as_str() == "p").count())
    };
    enter(&mut harness, "local p = Chara.create('elona.putit', 3, 3)\np.hp = 2");
    answered(&mut harness);
    step_until(&mut harness, "the putit", |h| putits(h) == 1);
    let history = harness.state().state().snapshot.editing.history.clone();
    assert_eq!(
        history.labels,
        ["REPL: local p = Chara.create('elona.putit', 3, 3)"],
        "one entry, named by its first line"
    );
    assert!(
        harness.state().state().snapshot.maps.files.iter().any(|f| f.name == "town" && f.dirty),
        "the map is unsaved"
    );
    // Ctrl+Z in the (empty, focused) REPL input undoes the edit, not the typing.
    harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::Z);
    step_until(&mut harness, "the undo", |h| putits(h) == 0);
    assert!(input(&harness).is_empty(), "the text box did not bring back the code");
    harness.key_press_modifiers(egui::Modifiers::COMMAND | egui::Modifiers::SHIFT, egui::Key::Z);
    step_until(&mut harness, "the redo", |h| putits(h) == 1);
    // Evaluating something that changes nothing adds no entry.
    enter(&mut harness, "return 1 + 1");
    answered(&mut harness);
    assert_eq!(harness.state().state().snapshot.editing.history.labels.len(), 1);
}

#[test]
fn the_limits_popup_takes_typed_limits_with_units_and_stays_open_while_typing() {
    let mut harness = common::editor();
    step_until(&mut harness, "the map", |h| h.state().state().snapshot.map.is_some());
    harness.state_mut().open_tab(Tab::Repl);
    harness.step();
    harness.get_by_label_contains("Limits: 5 s").click();
    harness.step();
    // A click with the pointer inside the panel (on its first row, under the button) leaves
    // it open, as a menu would not.
    let button = harness.get_by_label_contains("Limits: 5 s").rect();
    let press = |harness: &mut Harness<'static, EditorApp>, pos: egui::Pos2| {
        harness.hover_at(pos);
        harness.step();
        for pressed in [true, false] {
            let button = egui::PointerButton::Primary;
            harness.event(egui::Event::PointerButton { pos, button, pressed, modifiers: egui::Modifiers::NONE });
            harness.step();
        }
        harness.step();
    };
    press(&mut harness, button.left_bottom() + egui::vec2(24.0, 20.0));
    assert!(harness.query_by_label("memory limit").is_some(), "a click inside keeps the panel open");
    let retype = |harness: &mut Harness<'static, EditorApp>, field: &str, text: &str| {
        harness.get_by_label(field).focus();
        harness.step();
        harness.key_press_modifiers(egui::Modifiers::COMMAND, egui::Key::A);
        harness.event(egui::Event::Text(text.to_owned()));
        harness.step();
        harness.step();
    };
    retype(&mut harness, "time limit", "2 ms");
    assert!(harness.query_by_label_contains("between 100 ms and 1 h").is_some(), "a too-short limit is explained");
    retype(&mut harness, "time limit", "1500 ms");
    retype(&mut harness, "memory limit", "2 GiB");
    harness.get_by_label("Apply").click();
    step_until(&mut harness, "the new limits", |h| {
        let limits = &h.state().state().snapshot.debug.limits;
        limits.time == Some(std::time::Duration::from_millis(1500)) && limits.memory == Some(2 << 30)
    });
    assert!(harness.query_by_label("memory limit").is_none(), "Apply closes it");
    harness.get_by_label_contains("Limits: 1.5 s").click();
    harness.step();
    assert!(harness.query_by_label("memory limit").is_some());
    press(&mut harness, egui::pos2(600.0, 200.0));
    assert!(harness.query_by_label("memory limit").is_none(), "a click outside closes it");
}

#[test]
fn a_break_brings_the_repl_forward_with_its_input_focused() {
    let mut harness = started();
    harness.state_mut().open_tab(Tab::Watches);
    harness.run_steps(2);
    assert!(harness.query_by_label("REPL input").is_none(), "the Watches tab is in front");
    let entry = common::eval(&mut harness, "local seen = 7 pause() return seen");
    step_until(&mut harness, "the break", |h| h.query_by_label("⏸ Paused").is_some());
    harness.run_steps(2);
    let input = harness.get_by_label("REPL input");
    assert!(input.is_focused(), "the input has the keyboard");
    // What is typed goes into the input at once.
    harness.get_by_label("REPL input").type_text("seen");
    harness.run_steps(2);
    assert_eq!(harness.state().panes().repl.input, "seen");
    harness.key_press(egui::Key::F8);
    step_until(&mut harness, "the paused call's answer", |h| common::result(h, entry).is_some());
}

#[test]
fn the_paused_panels_locals_all_show_and_scroll_with_the_wheel() {
    let mut harness = started();
    let locals: Vec<String> = (1..=40).map(|i| format!("local v{i:02} = {i}")).collect();
    common::eval(&mut harness, &format!("{} pause()", locals.join(" ")));
    step_until(&mut harness, "the break", |h| h.query_by_label("⏸ Paused").is_some());
    harness.run_steps(2);
    let panel = harness.get_by_label("Locals and upvalues").rect();
    assert!(harness.query_by_label("v01").is_some() && harness.query_by_label("v02").is_some(), "more than one local");
    let last = |h: &Harness<'static, EditorApp>| h.get_by_label("v40").rect();
    let bottom =
        harness.state_mut().dock_mut().iter_leaves().find(|(_, l)| l.tabs.contains(&Tab::Repl)).unwrap().1.rect.max.y;
    assert!(last(&harness).min.y > bottom, "the last local starts out of view");
    harness.event(egui::Event::PointerMoved(egui::pos2(panel.center().x, panel.max.y + 40.0)));
    for _ in 0..10 {
        harness.event(egui::Event::MouseWheel {
            unit: egui::MouseWheelUnit::Point,
            delta: egui::vec2(0.0, -200.0),
            modifiers: egui::Modifiers::NONE,
            phase: egui::TouchPhase::Move,
        });
        harness.step();
    }
    harness.run_steps(3);
    assert!(last(&harness).max.y <= bottom + 1.0, "scrolled into view: {:?} (pane ends at {bottom})", last(&harness));
    harness.key_press(egui::Key::F8);
}

#[test]
fn at_a_watch_hit_the_locals_get_most_of_the_paused_panel() {
    let mut harness = started();
    common::eval(&mut harness, "w = Debug.watch(Chara.player(), 'strength')");
    common::eval(
        &mut harness,
        "local function deep(n) local depth = n if n == 0 then Chara.player().strength = 9 else deep(n - 1) end end \
         deep(4)",
    );
    step_until(&mut harness, "the watch hit", |h| h.query_by_label("⏸ Paused").is_some());
    harness.run_steps(3);
    // The panel lies between the toolbar (Continue) and the pane's bottom.
    let toolbar = harness.get_by_label("▶ Continue").rect();
    let locals = harness.get_by_label("Locals and upvalues").rect();
    let bottom =
        harness.state_mut().dock_mut().iter_leaves().find(|(_, l)| l.tabs.contains(&Tab::Repl)).unwrap().1.rect.max.y;
    let panel = bottom - toolbar.max.y;
    assert!(bottom - locals.max.y > panel * 0.5, "the locals get most of the panel: {locals:?} in {panel}");
    assert!(harness.query_by_label("depth").is_some(), "a local shows");
    assert!(harness.query_by_label_contains("Stack (").is_some(), "the stack is there, folded");
    harness.key_press(egui::Key::F8);
}

#[test]
fn keys_held_for_the_game_when_a_break_comes_do_not_type_into_the_repl() {
    let mut harness = started();
    let centre = harness.state().state().viewport.rect.expect("drawn").center();
    common::click_at(&mut harness, centre, egui::Modifiers::NONE);
    step_until(&mut harness, "the game's keyboard", |h| h.state().state().viewport.has_focus);
    harness
        .state()
        .host()
        .send(nefia_protocol::message::Command::Debug(nefia_protocol::debugging::DebugCommand::Break));
    step_until(&mut harness, "the break asked", |h| h.state().state().snapshot.debug.break_requested);
    // `l` walks: the break comes at that turn, while the key is still held and repeats.
    harness.key_down(egui::Key::L);
    step_until(&mut harness, "the break", |h| h.query_by_label("⏸ Paused").is_some());
    for _ in 0..3 {
        harness.key_down(egui::Key::L);
        harness.event(egui::Event::Text("l".into()));
        harness.step();
    }
    assert_eq!(harness.state().panes().repl.input, "", "the game's key is not typed");
    harness.key_up(egui::Key::L);
    harness.step();
    harness.get_by_label("REPL input").type_text("key");
    harness.run_steps(2);
    assert_eq!(harness.state().panes().repl.input, "key", "let go, typing goes into the input");
    harness.key_press(egui::Key::F8);
}
