//! The debugging loop through the runtime protocol: the REPL, `pause()` breakpoints,
//! runaway-script limits, the error screen and hotload.

use std::time::Duration;

use nefia_game::display::Input;
use nefia_protocol::debugging::{DebugCommand, ReplCommand};
use nefia_protocol::message::{Command, HostEvent};
use nefia_protocol::mods::ModCommand;
use nefia_protocol::repl::Evaluation;
use nefia_protocol::view::RuntimeState;
use nefia_tests::DemoCopy;
use nefia_tests::host::{answer, demo, eval, event, printed, spawn, wait_for};

fn values(list: &[&str]) -> Evaluation {
    Evaluation::Values(list.iter().map(|s| s.to_string()).collect())
}

fn error_message(evaluation: Evaluation) -> String {
    match evaluation {
        Evaluation::Error(failure) => failure.message,
        other => panic!("expected an error, got {other:?}"),
    }
}

#[test]
fn expressions_print_values_and_statements_run() {
    let host = demo();
    assert_eq!(eval(&host, "1 + 1"), values(&["2"]));
    assert_eq!(eval(&host, "x = 5"), values(&[]));
    assert_eq!(eval(&host, "x, x * 2"), values(&["5", "10"]));
    assert_eq!(eval(&host, "function f()"), Evaluation::Incomplete);
    assert_eq!(eval(&host, "function f()\n return 3\nend"), values(&[]));
    assert_eq!(eval(&host, "f()"), values(&["3"]));
    let message = error_message(eval(&host, "nope.field"));
    assert!(message.contains("repl:1") && message.contains("nope"), "{message}");
}

#[test]
fn pause_shows_locals_that_the_repl_reads_and_sets_for_the_paused_code() {
    let host = demo();
    host.send(Command::Repl(ReplCommand::Eval {
        id: 1,
        code: "local flag = true
               local function work()
                  local count = 10
                  local name = 'putit'
                  pause()
                  return count, name, flag
               end
               local a, b, c = work()
               return a, b, c"
            .into(),
    }));
    let paused = wait_for(&host, |s| s.state == RuntimeState::Paused);
    let view = paused.debug.pause.as_ref().expect("the snapshot shows the break");
    assert_eq!((view.function.as_str(), view.file.as_str(), view.line), ("work", "repl", 5));
    let find = |name: &str| view.variables.iter().find(|(n, _, _)| n == name).cloned();
    assert_eq!(find("count"), Some(("count".into(), "local".into(), "10".into())));
    assert_eq!(find("flag"), Some(("flag".into(), "upvalue".into(), "true".into())));

    let mut seen = Vec::new();
    assert_eq!(eval(&host, "count + 1"), values(&["11"]), "locals are visible");
    assert_eq!(eval(&host, "count = nil"), values(&[]));
    assert_eq!(eval(&host, "flag = false"), values(&[]));
    assert_eq!(eval(&host, "name = name .. '!'"), values(&[]));
    let updated = wait_for(&host, |s| s.debug.pause.as_ref().is_some_and(|p| p.variables.iter().any(|v| v.2 == "nil")));
    assert!(updated.debug.pause.as_ref().unwrap().variables.iter().any(|(n, _, v)| n == "flag" && v == "false"));
    host.send(Command::Debug(DebugCommand::Continue));
    assert_eq!(answer(&host, 1, &mut seen), values(&["nil", "\"putit!\"", "false"]));
    wait_for(&host, |s| s.state == RuntimeState::Running && s.debug.pause.is_none());
}

#[test]
fn typing_continue_resumes_and_inspector_commands_work_while_paused() {
    let host = demo();
    host.send(Command::Repl(ReplCommand::Eval { id: 1, code: "local a = 1 pause() return a".into() }));
    wait_for(&host, |s| s.state == RuntimeState::Paused);
    // The rest of the engine stays usable: the world is readable and editable.
    assert_eq!(eval(&host, "Chara.player().uid > 0"), values(&["true"]));
    assert_eq!(eval(&host, "a = 2"), values(&[]));
    let mut seen = Vec::new();
    host.send(Command::Repl(ReplCommand::Eval { id: 2, code: "continue".into() }));
    assert_eq!(answer(&host, 2, &mut seen), Evaluation::Continued);
    assert_eq!(answer(&host, 1, &mut seen), values(&["2"]));
    assert_eq!(eval(&host, "continue"), Evaluation::Values(vec!["nil".into()]), "not paused: just a name");
}

#[test]
fn break_pauses_at_the_next_turn_boundary_with_the_key_as_a_local() {
    let host = demo();
    host.send(Command::Debug(DebugCommand::Break));
    wait_for(&host, |s| s.debug.break_requested);
    host.send(Command::Input(Input::Key("x".into())));
    let paused = wait_for(&host, |s| s.state == RuntimeState::Paused);
    let view = paused.debug.pause.as_ref().unwrap();
    assert_eq!(view.file, "turn boundary");
    assert!(view.variables.iter().any(|(n, _, v)| n == "key" && v == "\"x\""), "{:?}", view.variables);
    assert!(view.variables.iter().any(|(n, _, v)| n == "player" && v.contains("elona.player")));
    assert!(!paused.debug.break_requested);
    host.send(Command::Debug(DebugCommand::Continue));
    wait_for(&host, |s| s.state == RuntimeState::Running);
}

#[test]
fn a_runaway_loop_is_interrupted_by_the_time_limit_and_the_next_command_works() {
    let host = demo();
    host.send(Command::Repl(ReplCommand::SetLimits { time: Some(Duration::from_millis(300)), memory: None }));
    eval(
        &host,
        "function count() local n = 0 for _ in Map.current():iter() do n = n + 1 end return n end before = count()",
    );
    let message = error_message(eval(&host, "local n = 0 while true do n = n + 1 end"));
    assert!(message.contains("time limit of 0.3 s"), "{message}");
    // Even a loop that catches errors is stopped.
    let message = error_message(eval(&host, "while true do pcall(function() while true do end end) end"));
    assert!(message.contains("time limit"), "{message}");
    assert_eq!(eval(&host, "1 + 1"), values(&["2"]));
    assert_eq!(eval(&host, "count() == before"), values(&["true"]));
}

#[test]
fn stop_interrupts_at_once_and_a_memory_limit_stops_a_hog() {
    let host = demo();
    host.send(Command::Repl(ReplCommand::Eval { id: 1, code: "while true do end".into() }));
    wait_for(&host, |_| host.busy_for().is_some());
    host.stop();
    // Without Stop the loop never ends: the answer is the interruption.
    let message = error_message(answer(&host, 1, &mut Vec::new()));
    assert!(message.contains("Stop was pressed"), "{message}");
    assert_eq!(eval(&host, "1 + 1"), values(&["2"]), "the next command is not interrupted");

    host.send(Command::Repl(ReplCommand::SetLimits { time: Some(Duration::from_secs(20)), memory: Some(64 << 20) }));
    let message = error_message(eval(&host, "local t = {} for i = 1, 1e9 do t[i] = { i } end"));
    assert!(message.contains("out of memory") && message.contains("memory limit"), "{message}");
    assert_eq!(eval(&host, "collectgarbage('count') < 64 * 1024"), values(&["true"]));
    let snapshot = wait_for(&host, |s| s.debug.limits.memory == Some(64 << 20));
    assert_eq!(snapshot.debug.limits.time, Some(Duration::from_secs(20)));
}

#[test]
fn stop_while_paused_abandons_the_paused_script() {
    let host = demo();
    host.send(Command::Repl(ReplCommand::Eval { id: 1, code: "pause() return 'went on'".into() }));
    wait_for(&host, |s| s.state == RuntimeState::Paused);
    host.stop();
    let message = error_message(answer(&host, 1, &mut Vec::new()));
    assert!(message.contains("Stop"), "{message}");
    wait_for(&host, |s| s.state == RuntimeState::Running);
}

#[test]
fn an_erroring_handler_stops_the_game_on_the_error_screen_until_resumed() {
    let host = demo();
    eval(
        &host,
        "Event.register('base.on_key_pressed', 'test.boom', function(_, params)
            if params.key == 'b' then error('boom on ' .. params.key) end
            print('key ' .. params.key)
         end)",
    );
    let mut seen = Vec::new();
    host.send(Command::Input(Input::Key("b".into())));
    let stopped = wait_for(&host, |s| s.state == RuntimeState::Error);
    let error = stopped.debug.error.as_ref().unwrap();
    assert_eq!(error.context, "key b");
    assert!(error.failure.message.contains("boom on b"), "{}", error.failure.message);
    assert!(error.failure.traceback.contains("stack traceback"), "{}", error.failure.traceback);
    // It is in the Log too (this waits for it).
    event(&host, &mut seen, |e| match e {
        HostEvent::Output(nefia_protocol::output::Output::Log(line)) if line.text.contains("boom on b") => Some(()),
        _ => None,
    });
    // The game is stopped: keys do nothing until Enter resumes it.
    host.send(Command::Input(Input::Key("a".into())));
    assert_eq!(eval(&host, "1"), values(&["1"]), "the REPL still works");
    host.send(Command::Debug(DebugCommand::Resume));
    wait_for(&host, |s| s.state == RuntimeState::Running && s.debug.error.is_none());
    host.send(Command::Input(Input::Key("c".into())));
    event(&host, &mut seen, |e| {
        matches!(e, HostEvent::Output(nefia_protocol::output::Output::Print(t)) if t == "key c").then_some(())
    });
    assert!(!printed(&seen).contains(&"key a".to_owned()), "the key pressed while stopped was dropped");
}

#[test]
fn a_failing_widget_update_is_an_error_screen_and_a_failing_draw_is_logged_once() {
    let host = demo();
    let mut seen = Vec::new();
    host.send(Command::Repl(ReplCommand::Eval {
        id: 2,
        code: "Gui.add_widget('test.broken', {
            draw = function(self, d) error('cannot draw') end,
            update = function(self, dt) if fail_now then error('cannot update') end end,
         })"
        .into(),
    }));
    answer(&host, 2, &mut seen);
    // Every command publishes a snapshot, which draws: the failure is logged once, not per frame.
    for _ in 0..5 {
        host.send(Command::Repl(ReplCommand::Eval { id: 3, code: "1".into() }));
        answer(&host, 3, &mut seen);
    }
    let draw_failures = seen
        .iter()
        .filter(|e| matches!(e, HostEvent::Output(nefia_protocol::output::Output::Log(l)) if l.text.contains("cannot draw")))
        .count();
    assert_eq!(draw_failures, 1);
    assert_eq!(host.snapshot().state, RuntimeState::Running, "a failing draw does not stop the game");

    eval(&host, "fail_now = true");
    let stopped = wait_for(&host, |s| s.state == RuntimeState::Error);
    let error = stopped.debug.error.as_ref().unwrap();
    assert_eq!(error.context, "widget 'test.broken': update");
    assert!(error.failure.message.contains("cannot update"), "{}", error.failure.message);
    eval(&host, "fail_now = false");
    host.send(Command::Debug(DebugCommand::Resume));
    wait_for(&host, |s| s.state == RuntimeState::Running);
}

/// A demo copy whose tools mod also loads `exec/hot.lua` (with `code`).
fn hot_project(code: &str) -> DemoCopy {
    let copy = DemoCopy::new();
    nefia_tests::write(copy.mod_file("tools/exec/hot.lua"), code).unwrap();
    let init = copy.mod_file("tools/init.lua");
    let text = std::fs::read_to_string(&init).unwrap();
    nefia_tests::write(&init, format!("{text}\nrequire(\"exec.hot\")\n")).unwrap();
    copy
}

const HANDLER_V1: &str =
    "Event.register('base.on_key_pressed', 'tools.hot', function(_, p) print('hot v1 ' .. p.key) end)
return { version = function() return 1 end }";

/// Writes `code` to the hot file and waits for its reload; returns the outcome.
fn rewrite(host: &nefia_host::HostHandle, copy: &DemoCopy, code: &str) -> nefia_protocol::reload::Reload {
    nefia_tests::write(copy.mod_file("tools/exec/hot.lua"), code).unwrap();
    next_reload(host)
}

/// Waits (with the helpers' generous timeout) for the next reload of the hot file.
fn next_reload(host: &nefia_host::HostHandle) -> nefia_protocol::reload::Reload {
    event(host, &mut Vec::new(), |e| match e {
        HostEvent::Reloaded(reload) if reload.file.ends_with("exec/hot.lua") => Some(reload.clone()),
        _ => None,
    })
}

fn press(host: &nefia_host::HostHandle, key: &str) -> Vec<String> {
    host.send(Command::Input(Input::Key(key.into())));
    // A marker after the key: everything the key printed comes before it.
    let mut seen = Vec::new();
    host.send(Command::Repl(ReplCommand::Eval { id: 77, code: "print('--')".into() }));
    answer(host, 77, &mut seen);
    printed(&seen).into_iter().filter(|line| line != "--").collect()
}

#[test]
fn saving_a_handler_file_reloads_it_and_a_broken_save_keeps_the_old_code() {
    let copy = hot_project(HANDLER_V1);
    let host = spawn(&copy.project());
    assert_eq!(press(&host, "h"), ["hot v1 h"]);
    eval(&host, "hot = require('mod.tools.exec.hot') player_before = Chara.player().uid save.tools.kept = 'yes'");

    let reload = rewrite(
        &host,
        &copy,
        "Event.register('base.on_key_pressed', 'tools.hot', function(_, p) print('hot v2 ' .. p.key) end)
         return { version = function() return 2 end }",
    );
    assert!(reload.outcome.is_ok(), "{reload:?}");
    assert_eq!(press(&host, "h"), ["hot v2 h"], "the new handler replaced the old one");
    assert_eq!(eval(&host, "hot.version()"), values(&["2"]), "a require'd module is updated in place");
    assert_eq!(eval(&host, "Chara.player().uid == player_before, save.tools.kept"), values(&["true", "\"yes\""]));

    let reload = rewrite(&host, &copy, "Event.register('base.on_key_pressed', 'tools.hot', function(_, p) print('v3'");
    let failure = reload.outcome.expect_err("a syntax error is rejected");
    assert!(failure.message.starts_with("mods/tools/exec/hot.lua:1:"), "{}", failure.message);
    assert_eq!(press(&host, "h"), ["hot v2 h"], "the previous code keeps running");

    let reload = rewrite(
        &host,
        &copy,
        "Event.register('base.on_key_pressed', 'tools.hot', function(_, p) print('hot v4') end)\nerror('half way')",
    );
    let failure = reload.outcome.expect_err("a runtime error is rejected");
    assert!(failure.message.starts_with("mods/tools/exec/hot.lua:2: half way"), "{}", failure.message);
    assert_eq!(press(&host, "h"), ["hot v2 h"], "what the failed run registered was rolled back");

    let reload = rewrite(&host, &copy, "return { version = function() return 5 end }");
    assert!(reload.outcome.is_ok());
    assert_eq!(press(&host, "h"), Vec::<String>::new(), "a handler the file no longer registers is removed");
}

#[test]
fn a_save_that_leaves_the_text_as_it_runs_reloads_nothing_and_a_failed_one_is_tried_again() {
    let copy = hot_project(HANDLER_V1);
    let host = spawn(&copy.project());
    let path = copy.mod_file("tools/exec/hot.lua");
    let hot_reloads = |seen: &[HostEvent]| {
        seen.iter().filter(|e| matches!(e, HostEvent::Reloaded(r) if r.file.ends_with("exec/hot.lua"))).count()
    };
    // Saved with the text it runs (an editor's save with no change, or the watcher after
    // the editor wrote and reloaded a file itself): nothing reloads.
    nefia_tests::write(&path, HANDLER_V1).unwrap();
    host.send(Command::Mods(ModCommand::Saved(path.clone())));
    let mut seen = Vec::new();
    host.send(Command::Sync { id: 5 });
    event(&host, &mut seen, |e| matches!(e, HostEvent::Synced { id: 5 }).then_some(()));
    assert_eq!(hot_reloads(&seen), 0, "{seen:?}");
    // Asked for by name, it reloads all the same.
    host.send(Command::Mods(ModCommand::Reload(path.clone())));
    assert!(next_reload(&host).outcome.is_ok());

    // A save that does not compile is told; put back as it runs, it reloads again and says so.
    let broken = rewrite(&host, &copy, "Event.register('base.on_key_pressed', 'tools.hot', function(_, p) print('v3'");
    assert!(broken.outcome.is_err());
    let back = rewrite(&host, &copy, HANDLER_V1);
    assert!(back.outcome.is_ok(), "{back:?}");
    assert_eq!(press(&host, "h"), ["hot v1 h"]);
}

#[test]
fn a_file_caught_half_written_is_tried_again_once_quiet_before_its_error_is_told() {
    let copy = hot_project(HANDLER_V1);
    let host = spawn(&copy.project());
    assert_eq!(press(&host, "h"), ["hot v1 h"]);
    let path = copy.mod_file("tools/exec/hot.lua");
    // An editor writes the file in two goes, 30 ms apart (well inside the quiet time, even on
    // a loaded machine): the first half does not parse. The first reload told is the whole
    // file's (an error told for the half would come first).
    let whole = "Event.register('base.on_key_pressed', 'tools.hot', function(_, p) print('hot v2 ' .. p.key) end)";
    nefia_tests::write(&path, &whole[..40]).unwrap();
    std::thread::sleep(Duration::from_millis(30));
    nefia_tests::write(&path, whole).unwrap();
    let reload = next_reload(&host);
    assert!(reload.outcome.is_ok(), "no error told for the half: {reload:?}");
    assert_eq!(press(&host, "h"), ["hot v2 h"]);

    // Left broken, the file's error is told once it has been quiet a moment.
    nefia_tests::write(&path, &whole[..40]).unwrap();
    let reload = next_reload(&host);
    assert!(reload.outcome.as_ref().is_err_and(|f| f.message.starts_with("mods/tools/exec/hot.lua:1:")));
    // Quiet as the host reads it: from the file's mtime, which the kernel stamps from its own
    // (coarse) clock, so it is measured from there too.
    let modified = std::fs::metadata(&path).and_then(|m| m.modified()).expect("the file's mtime");
    let quiet = std::time::SystemTime::now().duration_since(modified).unwrap_or_default();
    assert!(quiet >= nefia_host::QUIET, "told after the file was quiet ({quiet:?})");
    assert_eq!(press(&host, "h"), ["hot v2 h"], "the previous code keeps running");
}

#[test]
fn a_reloaded_prototype_is_replaced_in_place_and_a_fix_clears_the_error_screen() {
    let copy = hot_project(
        "data:add { _type = 'base.chara', _id = 'hot_putit', name = 'hot putit', glyph = 'h', max_hp = 5 }
         Event.register('base.on_key_pressed', 'tools.hot', function(_, p) error('broken handler') end)",
    );
    let host = spawn(&copy.project());
    eval(&host, "c = Chara.create('tools.hot_putit', 2, 2) c.max_hp = 50");
    host.send(Command::Input(Input::Key("z".into())));
    wait_for(&host, |s| s.state == RuntimeState::Error);

    let reload = rewrite(
        &host,
        &copy,
        "data:add { _type = 'base.chara', _id = 'hot_putit', name = 'cold putit', glyph = 'c', max_hp = 7 }
         Event.register('base.on_key_pressed', 'tools.hot', function(_, p) print('fixed') end)",
    );
    assert!(reload.outcome.is_ok(), "{reload:?}");
    wait_for(&host, |s| s.state == RuntimeState::Running && s.debug.error.is_none());
    assert_eq!(eval(&host, "c.name, c.glyph, c.max_hp"), values(&["\"cold putit\"", "\"c\"", "50"]));
    assert_eq!(press(&host, "z"), ["fixed"]);
}

#[test]
fn reload_mod_reloads_its_files_and_logs_each_with_its_duration() {
    let copy = hot_project(HANDLER_V1);
    let host = spawn(&copy.project());
    let mut seen = Vec::new();
    host.send(Command::Mods(ModCommand::ReloadMod("tools".into())));
    let mut reloaded = Vec::new();
    while reloaded.len() < 4 {
        reloaded.push(event(&host, &mut seen, |e| match e {
            HostEvent::Reloaded(reload) => Some(reload.clone()),
            _ => None,
        }));
    }
    let files: Vec<&str> = reloaded.iter().map(|r| r.file.as_str()).collect();
    assert_eq!(files.last(), Some(&"mods/tools/init.lua"), "init.lua last: {files:?}");
    assert!(files.contains(&"mods/tools/exec/hot.lua"), "{files:?}");
    assert!(reloaded.iter().all(|r| r.outcome.is_ok()), "{reloaded:?}");
    let logged: Vec<String> = seen
        .iter()
        .filter_map(|e| match e {
            HostEvent::Output(nefia_protocol::output::Output::Log(line)) if line.text.starts_with("reloaded") => {
                Some(line.text.clone())
            }
            _ => None,
        })
        .collect();
    assert!(
        logged.iter().any(|l| l.starts_with("reloaded mods/tools/init.lua in ") && l.ends_with(" ms")),
        "{logged:?}"
    );
    assert_eq!(press(&host, "h"), ["hot v1 h"], "one handler, not a duplicate");
    let widgets = wait_for(&host, |s| !s.widgets.is_empty());
    assert_eq!(widgets.widgets.iter().filter(|w| w.id == "tools.log").count(), 1, "widgets rebuilt once");
}

#[test]
fn completion_offers_globals_fields_and_methods() {
    let host = demo();
    let mut seen = Vec::new();
    let complete = |text: &str, seen: &mut Vec<HostEvent>| {
        host.send(Command::Repl(ReplCommand::Complete { id: 5, text: text.into() }));
        event(&host, seen, |e| match e {
            HostEvent::Completions { id: 5, candidates } => Some(candidates.clone()),
            _ => None,
        })
    };
    assert!(complete("Cha", &mut seen).contains(&"Chara".to_owned()));
    assert!(complete("Chara.cr", &mut seen).contains(&"Chara.create".to_owned()));
    eval(&host, "p = Chara.player()");
    let fields = complete("x = p.ma", &mut seen);
    assert!(fields.contains(&"x = p.max_hp".to_owned()), "{fields:?}");
    let methods = complete("p:mo", &mut seen);
    assert!(methods.contains(&"p:mod".to_owned()) && methods.contains(&"p:mod_base".to_owned()), "{methods:?}");
}

#[test]
fn a_source_link_shows_the_lines_around_it() {
    let host = demo();
    host.send(Command::Repl(ReplCommand::ShowSource { file: "mods/elona/init.lua".into(), line: 2 }));
    let excerpt = event(&host, &mut Vec::new(), |e| match e {
        HostEvent::Source(excerpt) => Some(excerpt.clone()),
        _ => None,
    });
    assert_eq!(excerpt.first, 1);
    assert_eq!(excerpt.lines[1], "require(\"content.charas\")");
    host.send(Command::Repl(ReplCommand::ShowSource { file: "/etc/passwd".into(), line: 1 }));
    let refused = event(&host, &mut Vec::new(), |e| match e {
        HostEvent::Source(excerpt) => Some(excerpt.clone()),
        _ => None,
    });
    assert!(refused.lines.is_empty(), "only loaded files are shown");
}

#[test]
fn a_mod_that_loops_forever_at_load_is_stopped_and_reported() {
    let copy = hot_project("while true do end");
    let host = nefia_host::HostHandle::spawn(nefia_host::HostConfig {
        project: copy.project(),
        repaint: std::sync::Arc::new(|| {}),
        recordings: None,
        journal: None,
        breakpoints: Vec::new(),
        saves: None,
        reports: None,
    });
    // The mod is stopped and left out; the rest of the project opens, and the Mods pane says why.
    let opened = wait_for(&host, |s| s.map.is_some());
    assert_ne!(opened.state, RuntimeState::Failed);
    let tools = opened.mods.rows.iter().find(|row| row.id == "tools").expect("the mod is listed");
    assert_eq!(tools.load_position, None, "not loaded");
    let problem = tools.problem.as_deref().unwrap_or_default();
    assert!(problem.contains("mods/tools/exec/hot.lua:1") && problem.contains("time limit of 5 s"), "{problem}");
    assert!(opened.mods.loaded.iter().any(|m| m == "elona"), "the other mods loaded");
}
