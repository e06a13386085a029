//! The runtime thread: commands in, snapshots and events out, and blocking `query()` served
//! by a nested loop so other commands are still answered.

use std::sync::Arc;

use nefia_game::display::{Input, LayerKind};
use nefia_host::{HostConfig, HostHandle};
use nefia_protocol::debugging::{DebugCommand, ReplCommand};
use nefia_protocol::message::{Command, HostEvent};
use nefia_protocol::play::PlayCommand;
use nefia_protocol::repl::Evaluation;
use nefia_protocol::view::{RuntimeState, Snapshot};
use nefia_tests::host::{answer, wait_for};

fn host() -> HostHandle {
    nefia_tests::host::demo()
}

#[test]
fn the_demo_opens_with_its_start_map() {
    let host = host();
    let snapshot = wait_for(&host, |s| s.map.is_some());
    assert_eq!(snapshot.project, "Demo");
    assert_eq!(snapshot.state, RuntimeState::Running);
    let map = snapshot.map.as_ref().unwrap();
    assert_eq!(map.name, "town");
    assert!(map.objects_at(16, 10).any(|o| o.glyph.as_str() == "@"), "the player stands at the entrance");
}

#[test]
fn a_blocked_query_still_answers_other_commands_and_returns_the_choice() {
    let host = host();
    wait_for(&host, |s| s.map.is_some());
    host.send(Command::Repl(ReplCommand::Eval { id: 1, code: "Prompt:new({'Yes', 'No'}):query()".into() }));
    let snapshot = wait_for(&host, |s| s.state == RuntimeState::InQuery);
    let layer = snapshot.layers.last().expect("the prompt is on the stack");
    assert!(matches!(&layer.kind, LayerKind::Prompt { choices, .. } if choices == &["Yes", "No"]));

    let mut seen = Vec::new();
    host.send(Command::Repl(ReplCommand::Eval { id: 2, code: "1 + 1".into() }));
    assert_eq!(answer(&host, 2, &mut seen), Evaluation::Values(vec!["2".into()]), "answered while blocked");

    host.send(Command::Input(Input::Choose { layer: layer.id, index: 1 }));
    match answer(&host, 1, &mut seen) {
        Evaluation::Values(values) => {
            assert!(values[0].contains("index = 2") && values[0].contains("\"No\""), "{values:?}")
        }
        other => panic!("{other:?}"),
    }
    wait_for(&host, |s| s.state == RuntimeState::Running && s.layers.is_empty());
}

#[test]
fn keys_drive_the_prompt_and_escape_cancels() {
    let host = host();
    wait_for(&host, |s| s.map.is_some());
    let mut seen = Vec::new();
    host.send(Command::Repl(ReplCommand::Eval {
        id: 1,
        code: "local c, canceled = Prompt:new({'a', 'b', 'c'}):query() return c and c.index, canceled".into(),
    }));
    wait_for(&host, |s| s.state == RuntimeState::InQuery);
    host.send(Command::Input(Input::Key("down".into())));
    host.send(Command::Input(Input::Key("down".into())));
    wait_for(&host, |s| matches!(s.layers.last().map(|l| &l.kind), Some(LayerKind::Prompt { cursor: 2, .. })));
    host.send(Command::Input(Input::Key("enter".into())));
    assert_eq!(answer(&host, 1, &mut seen), Evaluation::Values(vec!["3".into(), "false".into()]));

    host.send(Command::Repl(ReplCommand::Eval {
        id: 2,
        code: "local c, canceled = Prompt:new({'a', 'b'}):query() return c, canceled".into(),
    }));
    wait_for(&host, |s| s.state == RuntimeState::InQuery);
    host.send(Command::Input(Input::Key("escape".into())));
    assert_eq!(answer(&host, 2, &mut seen), Evaluation::Values(vec!["nil".into(), "true".into()]));

    host.send(Command::Repl(ReplCommand::Eval { id: 3, code: "return Prompt:new({'x', 'y'}):query().text".into() }));
    wait_for(&host, |s| s.state == RuntimeState::InQuery);
    host.send(Command::Input(Input::Key("b".into())));
    assert_eq!(answer(&host, 3, &mut seen), Evaluation::Values(vec!["\"y\"".into()]), "letter hotkeys pick");
}

#[test]
fn prints_stream_as_events_in_order() {
    let host = host();
    wait_for(&host, |s| s.map.is_some());
    let mut seen = Vec::new();
    // What starting the game said is not part of this.
    wait_for(&host, |_| host.events().is_empty());
    host.send(Command::Repl(ReplCommand::Eval { id: 7, code: "print('one') Gui.mes('two') Log.info('three')".into() }));
    answer(&host, 7, &mut seen);
    let texts: Vec<String> = seen
        .into_iter()
        .filter_map(|e| match e {
            HostEvent::Output(
                nefia_protocol::output::Output::Print(t) | nefia_protocol::output::Output::Message(t),
            ) => Some(t),
            HostEvent::Output(nefia_protocol::output::Output::Log(line)) => Some(line.text),
            _ => None,
        })
        .collect();
    assert_eq!(texts, ["one", "two", "three"]);
}

#[test]
fn a_missing_project_is_reported_in_the_snapshot() {
    let host = HostHandle::spawn(HostConfig {
        project: "/nonexistent/project".into(),
        repaint: Arc::new(|| {}),
        recordings: None,
        journal: None,
        breakpoints: Vec::new(),
        saves: None,
        reports: None,
    });
    let snapshot = wait_for(&host, |s| s.state == RuntimeState::Failed);
    let problem = snapshot.problem.clone().unwrap_or_default();
    assert!(problem.contains("/nonexistent/project"));

    // Each subsystem answers its commands: code fails with the problem, a question gets an
    // empty or failed answer, work is refused as unavailable, a barrier is passed.
    use nefia_protocol::debugging::query::{DebugAnswer, DebugQuery};
    use nefia_protocol::editing::EditingCommand;
    use nefia_protocol::message::RefusalKind;
    let ask = |command: Command, pick: &dyn Fn(&HostEvent) -> bool| {
        host.send(command);
        nefia_tests::host::event(&host, &mut Vec::new(), |e| pick(e).then(|| e.clone()))
    };
    let answered = ask(Command::Repl(ReplCommand::Eval { id: 7, code: "1".into() }), &|e| {
        matches!(e, HostEvent::Evaluated { id: 7, .. })
    });
    assert!(matches!(&answered, HostEvent::Evaluated { result: Evaluation::Error(f), .. } if f.message == problem));
    let saves = ask(Command::Play(PlayCommand::ListSaves), &|e| matches!(e, HostEvent::Saves(_)));
    assert_eq!(saves, HostEvent::Saves(Vec::new()));
    let query = DebugCommand::Query { id: 3, query: DebugQuery::Sources };
    let failed = ask(Command::Debug(query), &|e| matches!(e, HostEvent::DebugAnswer { id: 3, .. }));
    assert_eq!(failed, HostEvent::DebugAnswer { id: 3, answer: DebugAnswer::Failed(problem.clone()) });
    let refused = ask(Command::Editing(EditingCommand::Undo), &|e| matches!(e, HostEvent::Refused(_)));
    assert!(matches!(&refused, HostEvent::Refused(r) if r.kind == RefusalKind::Unavailable), "{refused:?}");
    let synced = ask(Command::Sync { id: 9 }, &|e| matches!(e, HostEvent::Synced { .. }));
    assert_eq!(synced, HostEvent::Synced { id: 9 });
}

#[test]
fn widgets_and_map_layers_reach_the_snapshot() {
    let host = host();
    wait_for(&host, |s| s.map.is_some());
    host.send(Command::Repl(ReplCommand::Eval {
        id: 1,
        code: "Gui.add_widget('test.hello', { anchor = 'top_right', width = 100, height = 20, draw = function(self, d) d:text(0, 0, 'hello') end })
               Gui.add_map_layer('test.mark', { draw = function(self, d) d:glyph(3, 4, '*', {255, 0, 0}) end })"
            .into(),
    }));
    let snapshot = wait_for(&host, |s| s.widgets.iter().any(|w| w.id == "test.hello"));
    let widget = snapshot.widgets.iter().find(|w| w.id == "test.hello").unwrap();
    assert!(matches!(&widget.draw[0], nefia_game::display::DrawCmd::Text { text, .. } if text == "hello"));
    assert!(snapshot.map_layers.iter().any(|(id, draw)| id == "test.mark" && draw.len() == 1));
}

#[test]
fn the_demo_hud_has_the_seed_widgets() {
    let host = host();
    let snapshot = wait_for(&host, |s| s.map.is_some());
    let ids: Vec<&str> = snapshot.widgets.iter().map(|w| w.id.as_str()).collect();
    for id in ["base.message_window", "base.clock", "base.hp_bar", "tools.log"] {
        assert!(ids.contains(&id), "{id} missing from {ids:?}");
    }
    let hp_bar = snapshot.widgets.iter().find(|w| w.id == "base.hp_bar").unwrap();
    let texts: Vec<&str> = hp_bar
        .draw
        .iter()
        .filter_map(|c| match c {
            nefia_game::display::DrawCmd::Text { text, .. } => Some(text.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(texts, ["HP 40 / 40"]);

    let mut seen = Vec::new();
    host.send(Command::Repl(ReplCommand::Eval {
        id: 1,
        code: "Gui.mes('The putit looks at you.') Log.warn('careful')".into(),
    }));
    answer(&host, 1, &mut seen);
    let snapshot = wait_for(&host, |s| s.serial > snapshot.serial);
    let text_of = |id: &str| -> String {
        snapshot
            .widgets
            .iter()
            .find(|w| w.id == id)
            .unwrap()
            .draw
            .iter()
            .filter_map(|c| match c {
                nefia_game::display::DrawCmd::Text { text, .. } => Some(text.clone()),
                _ => None,
            })
            .collect::<Vec<_>>()
            .join("|")
    };
    assert!(text_of("base.message_window").contains("The putit looks at you."));
    assert!(text_of("tools.log").contains("[warn] careful"));
}

#[test]
fn the_log_widget_lays_out_lines_shows_a_few_rows_and_fades_them() {
    let host = host();
    wait_for(&host, |s| s.map.is_some());
    let code = "local widget = require('mod.tools.api.gui.LogWidget').new(3, 2)
        widget:update(0)
        Log.info('one')
        Log.error('boom\\nstack traceback:\\n  in here')
        local busy = widget:update(0)
        local rows = widget:visible_rows()
        local texts = {}
        for _, row in ipairs(rows) do texts[#texts + 1] = row.text end
        widget:update(1.5)
        local fading = widget:visible_rows()[1].alpha
        local still = widget:update(1)
        return table.concat(texts, '|'), busy, fading, still, #widget:visible_rows()";
    let answer = nefia_tests::host::eval(&host, code);
    assert_eq!(
        answer,
        Evaluation::Values(vec![
            "\"[error] boom|stack traceback:|  in here\"".into(),
            "true".into(),
            "0.5".into(),
            "false".into(),
            "0".into()
        ]),
        "three rows at most, newest last, a traceback over its own rows; half faded after 1.5 of 2 s; gone after 2.5"
    );
}

#[test]
fn the_hud_hides_the_empty_message_window_and_shows_hp_no_lower_than_0() {
    let host = host();
    let snapshot = wait_for(&host, |s| s.map.is_some());
    let window = snapshot.widgets.iter().find(|w| w.id == "base.message_window").unwrap();
    assert!(window.draw.is_empty(), "no message yet: nothing drawn over the map");
    let log = snapshot.widgets.iter().find(|w| w.id == "tools.log").unwrap();
    assert!(!log.show_while_editing, "the tools' log is for play");
    nefia_tests::host::eval(&host, "Chara.player().hp = -3");
    let snapshot = wait_for(&host, |s| s.serial > snapshot.serial);
    let hp_bar = snapshot.widgets.iter().find(|w| w.id == "base.hp_bar").unwrap();
    let text = hp_bar.draw.iter().find_map(|c| match c {
        nefia_game::display::DrawCmd::Text { text, .. } => Some(text.clone()),
        _ => None,
    });
    assert_eq!(text.as_deref(), Some("HP 0 / 40"));
}

#[test]
fn damage_events_show_rising_fading_popups_that_expire() {
    let host = host();
    wait_for(&host, |s| s.map.is_some());
    host.send(Command::Repl(ReplCommand::Eval {
        id: 1,
        code: "Event.trigger('base.on_damage', { target = Chara.player(), amount = 7 })".into(),
    }));
    let popup_dy = |s: &Snapshot| -> Option<f32> {
        s.map_layers.iter().find(|(id, _)| id == "damage_popups").and_then(|(_, draw)| {
            draw.iter().find_map(|c| match c {
                nefia_game::display::DrawCmd::Text { text, at, .. } if text == "7" => Some(at.dy),
                _ => None,
            })
        })
    };
    let first = wait_for(&host, |s| popup_dy(s).is_some());
    assert!(first.animating, "the runtime keeps ticking while the popup animates");
    let start = popup_dy(&first).unwrap();
    let later = wait_for(&host, |s| popup_dy(s).is_some_and(|dy| dy < start - 5.0));
    assert!(popup_dy(&later).unwrap() < start, "it rises");
    let gone = wait_for(&host, |s| popup_dy(s).is_none());
    assert!(!gone.animating, "and stops animating once it has faded");
}

#[test]
fn a_mod_layer_draws_updates_and_takes_keys() {
    let host = host();
    wait_for(&host, |s| s.map.is_some());
    let mut seen = Vec::new();
    host.send(Command::Repl(ReplCommand::Eval {
        id: 1,
        code: r#"
            local layer = UiLayer:new {
               name = "counter", width = 120, height = 40, presses = 0, elapsed = 0,
               draw = function(self, d) d:text(4, 4, "presses: " .. self.presses) end,
               update = function(self, dt) self.elapsed = self.elapsed + dt end,
               on_key = function(self, key)
                  if key == "space" then self.presses = self.presses + 1
                  elseif key == "enter" then self:finish(self.presses) end
               end,
            }
            return layer:query()
        "#
        .into(),
    }));
    let drawn = |s: &Snapshot, text: &str| {
        s.layers.iter().any(|l| matches!(&l.kind, LayerKind::Custom { name, draw, .. }
            if name == "counter" && draw.iter().any(|c| matches!(c, nefia_game::display::DrawCmd::Text { text: t, .. } if t == text))))
    };
    wait_for(&host, |s| drawn(s, "presses: 0"));
    host.send(Command::Input(Input::Key("space".into())));
    host.send(Command::Input(Input::Key("space".into())));
    wait_for(&host, |s| drawn(s, "presses: 2"));
    host.send(Command::Input(Input::Key("enter".into())));
    assert_eq!(answer(&host, 1, &mut seen), Evaluation::Values(vec!["2".into(), "false".into()]));
}

#[test]
fn input_goes_down_the_layer_stack_until_a_layer_consumes_it() {
    let host = nefia_tests::host::demo();
    let mut seen = Vec::new();
    host.send(Command::Repl(ReplCommand::Eval {
        id: 1,
        code: "Event.register('base.on_key_pressed', 'test.keys', function(_, p) game_keys = (game_keys or '') .. p.key end)"
            .into(),
    }));
    answer(&host, 1, &mut seen);
    // A see-through layer: it looks at every key and passes on all but "c".
    let code = "local layer = UiLayer:new({ on_key = function(self, key) layer_keys = (layer_keys or '') .. key \
                if key == 'c' then self:finish(true) return true end return false end }) return layer:query()";
    host.send(Command::Repl(ReplCommand::Eval { id: 2, code: code.into() }));
    wait_for(&host, |s| s.state == RuntimeState::InQuery);
    for key in ["a", "b", "c"] {
        host.send(Command::Input(Input::Key(key.into())));
    }
    assert_eq!(
        answer(&host, 2, &mut seen),
        Evaluation::Values(vec!["true".into(), "false".into()]),
        "finished, not canceled"
    );
    host.send(Command::Repl(ReplCommand::Eval { id: 3, code: "return layer_keys, game_keys".into() }));
    assert_eq!(
        answer(&host, 3, &mut seen),
        Evaluation::Values(vec!["\"abc\"".into(), "\"ab\"".into()]),
        "the layer saw every key; the game got those it passed on"
    );
}

/// True if `text` names a key ("F5", "Shift+F5", "Ctrl+Z"): the runtime says what to do in
/// words, and each frontend names its own binding for it.
fn names_a_key(text: &str) -> bool {
    let function_key = text
        .split(|c: char| !c.is_ascii_alphanumeric())
        .any(|word| word.len() > 1 && word.starts_with('F') && word[1..].chars().all(|c| c.is_ascii_digit()));
    function_key || ["Shift+", "Ctrl+", "Alt+", "Cmd+"].iter().any(|modifier| text.contains(modifier))
}

#[test]
fn refusals_say_what_to_do_in_words_and_hint_the_action_without_naming_a_key() {
    use nefia_protocol::maps::MapCommand;
    use nefia_protocol::message::{Hint, RefusalKind, Refused};
    use nefia_protocol::play::PlayFrom;

    assert!(names_a_key("stop first (Shift+F5)") && names_a_key("Continue (F8)") && !names_a_key("Fight 2 Foes"));
    let host = host();
    let mut seen = Vec::new();
    let mut refusal = |command: Command| -> Refused {
        host.send(command);
        nefia_tests::host::event(&host, &mut seen, |e| match e {
            HostEvent::Refused(refused) => Some(refused.clone()),
            _ => None,
        })
    };
    // Playing: what only works while editing says to stop first.
    let mut refusals = vec![
        (refusal(Command::Play(PlayCommand::Start(PlayFrom::Start))), Hint::StopPlay),
        (refusal(Command::Maps(MapCommand::SaveAll)), Hint::StopPlay),
        (refusal(Command::Play(PlayCommand::OpenRecording("recordings/none.ron".into()))), Hint::StopPlay),
        // This host records nothing: "When did this change?" needs a recorded session.
        (refusal(Command::Play(PlayCommand::FindChanges { uid: nefia_game::Uid(1), field: "hp".into() })), Hint::Play),
    ];
    // Stopped at a breakpoint, the game takes no key until it goes on.
    host.send(Command::Repl(ReplCommand::Eval { id: 7, code: "pause() return true".into() }));
    wait_for(&host, |s| s.state == RuntimeState::Paused);
    refusals.push((refusal(Command::Input(Input::Key("period".into()))), Hint::Continue));
    host.send(Command::Debug(DebugCommand::Continue));
    answer(&host, 7, &mut Vec::new());

    for (refused, hint) in &refusals {
        assert_eq!(refused.hint, Some(*hint), "{refused:?}");
        assert!(!names_a_key(&refused.message), "the runtime names no key: {refused:?}");
        assert_ne!(refused.kind, RefusalKind::Unavailable, "{refused:?}");
    }
    let words = ["stop first", "stop first", "stop first", "or play", "continue to go on"];
    for ((refused, _), words) in refusals.iter().zip(words) {
        assert!(refused.message.ends_with(words), "the action in words comes last: {refused:?}");
    }
}

/// The values a REPL evaluation printed.
fn printed(host: &HostHandle, code: &str) -> Vec<String> {
    match nefia_tests::host::eval(host, code) {
        Evaluation::Values(values) => values,
        other => panic!("{code}: {other:?}"),
    }
}

#[test]
fn a_journal_replaying_edits_of_reserved_fields_refuses_them_and_x_is_a_move() {
    use nefia_game::edit::Edit;
    use nefia_game::journal::{JournalEntry, Journaled, entry_line, journal_dir, log_path};
    use nefia_game::{Holder, ObjectKind, Uid, Value};
    use nefia_protocol::editing::EditingCommand;

    let copy = nefia_tests::DemoCopy::new();
    let host = nefia_tests::host::spawn_editing(&copy.project());
    let map = wait_for(&host, |s| s.map.is_some()).map.as_ref().map(|m| m.id).expect("the start map");
    let to = Holder::Map(map);
    let create = Edit::Create { kind: ObjectKind::Chara, id: "elona.putit".into(), to, x: 6, y: 6 };
    host.send(Command::Editing(EditingCommand::Edit(create)));
    let uid = printed(&host, "return Chara.at(6, 6).uid")[0].clone();
    let uids = vec![Uid(uid.parse().expect("a uid"))];
    // A journal written by a build that let these through, replayed after a crash: the move
    // and the hp come back; the replay stops at the uid's edit, refused as the Inspector
    // refuses it, and says so.
    let log = log_path(&journal_dir(&copy.project()));
    let written = std::fs::read_to_string(&log).expect("the log");
    let last = written.lines().last().expect("the create is journaled");
    let last: JournalEntry = nefia_game::files::ron_options().from_str(last).expect("a journal line");
    let mut appended = written.clone();
    for (field, value) in
        [("x", Value::Int(8)), ("hp", Value::Int(4)), ("uid", Value::Int(5)), ("location", Value::Nil)]
    {
        let edit = Edit::SetBase { uids: uids.clone(), field: field.into(), value };
        let entry = JournalEntry { what: Journaled::Edit(edit), ..last.clone() };
        appended.push_str(&entry_line(&entry).expect("a line"));
    }
    std::mem::forget(host);
    nefia_tests::write(&log, appended).expect("the log is written");

    let host = nefia_tests::host::spawn_editing(&copy.project());
    wait_for(&host, |s| s.editing.recovery.is_some());
    host.send(Command::Editing(EditingCommand::Recover(true)));
    let recovered = wait_for(&host, |s| s.editing.recovery.is_none() && s.editing.history.labels.len() >= 3);
    let labels = &recovered.editing.history.labels;
    assert!(labels.iter().all(|l| !l.starts_with("Set uid") && !l.starts_with("Set location")), "{labels:?}");
    assert!(labels.iter().any(|l| l.starts_with("Set x = 8")) && labels.iter().any(|l| l.starts_with("Set hp = 4")));
    let at = printed(&host, "local p = Chara.at(8, 6) return p.uid, p.hp, Chara.at(6, 6) == nil");
    assert_eq!(at, vec![uid, "4".to_owned(), "true".to_owned()], "moved in the position index, its uid kept");
}

/// The Maps pane's list follows `maps/` while the project is open: a file copied in is
/// listed, one of a map not open that goes is dropped, and an open map whose file goes stays,
/// marked and unsaved, until saved again.
#[test]
fn map_files_that_come_and_go_in_maps_are_listed_and_marked() {
    use nefia_protocol::maps::MapCommand;
    let copy = nefia_tests::DemoCopy::new();
    let host = nefia_tests::host::spawn_editing(&copy.project());
    let maps = copy.project().join("maps");
    let file = |snapshot: &Snapshot, name: &str| snapshot.maps.files.iter().find(|f| f.name == name).cloned();

    std::fs::copy(maps.join("town.ron"), maps.join("cave.ron")).expect("a map file copied in");
    let snapshot = wait_for(&host, |s| file(s, "cave").is_some());
    assert!(file(&snapshot, "cave").is_some_and(|cave| cave.map.is_none()), "listed, not open");

    std::fs::remove_file(maps.join("dungeon.ron")).expect("a map file removed");
    wait_for(&host, |s| file(s, "dungeon").is_none());

    std::fs::remove_file(maps.join("town.ron")).expect("the open map's file removed");
    let snapshot = wait_for(&host, |s| file(s, "town").is_some_and(|town| town.file_removed));
    let town = file(&snapshot, "town").expect("the open map stays listed");
    assert!(town.dirty && town.map.is_some(), "kept open, with changes to save: {town:?}");

    host.send(Command::Maps(MapCommand::Save(Some("town".into()))));
    let snapshot = wait_for(&host, |s| file(s, "town").is_some_and(|town| !town.file_removed && !town.dirty));
    assert!(maps.join("town.ron").exists(), "saving wrote the file again");
    assert_eq!(snapshot.maps.files.len(), 2, "town and cave: {:?}", snapshot.maps.files);
}
