//! Line breakpoints and stepping through the runtime protocol (what `nefia dap` sends): a
//! breakpoint in a mod's file stops at its line with the locals there; a condition, a hit
//! count and a log message decide whether it stops; steps go over, in and out; the paused
//! stack's variables page through tables and show a map object's fields with their parts; a
//! runaway evaluation at a breakpoint is still stopped by the time limit; cleared, the hook
//! is gone.

use std::time::Duration;

use nefia_host::HostHandle;
use nefia_protocol::debugging::query::{DebugAnswer, DebugQuery, Key, Scope, VariablePath};
use nefia_protocol::debugging::{DebugCommand, ReplCommand};
use nefia_protocol::message::{Command, HostEvent};
use nefia_protocol::repl::LineBreakpoint;
use nefia_protocol::repl::{BreakCause, StepKind};
use nefia_protocol::repl::{Evaluation, PauseView};
use nefia_protocol::view::{RuntimeState, Snapshot};
use nefia_tests::host::{answer, demo, eval, event, printed, wait_for};

fn rules() -> std::path::PathBuf {
    nefia_tests::repo_root().join("mods/elona/game/rules.lua")
}

/// Asks `query` and waits for its answer.
fn ask(host: &HostHandle, query: DebugQuery) -> DebugAnswer {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let id = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    host.send(Command::Debug(DebugCommand::Query { id, query }));
    event(host, &mut Vec::new(), |e| match e {
        HostEvent::DebugAnswer { id: got, answer } if *got == id => Some(answer.clone()),
        _ => None,
    })
}

fn set(host: &HostHandle, breakpoints: Vec<LineBreakpoint>) {
    let lines: Vec<u32> = breakpoints.iter().map(|b| b.line).collect();
    let answer = ask(host, DebugQuery::SetBreakpoints { path: rules(), breakpoints });
    assert_eq!(answer, DebugAnswer::Breakpoints { loaded: true, lines }, "rules.lua is loaded");
}

fn at(line: u32) -> LineBreakpoint {
    LineBreakpoint { line, ..LineBreakpoint::default() }
}

/// Waits for a break and returns it.
fn paused(host: &HostHandle) -> PauseView {
    let snapshot: std::sync::Arc<Snapshot> =
        wait_for(host, |s| s.state == RuntimeState::Paused && s.debug.pause.is_some());
    snapshot.debug.pause.clone().expect("a break")
}

/// The locals of frame `frame`, as name = value.
fn locals(host: &HostHandle, frame: usize) -> Vec<(String, String)> {
    let path = VariablePath { frame, scope: Scope::Locals, keys: Vec::new() };
    match ask(host, DebugQuery::Variables { path, start: 0, count: 0 }) {
        DebugAnswer::Variables { variables, .. } => variables
            .into_iter()
            .map(|v| match v.key {
                Key::Name(name) => (name, v.value),
                Key::Index(i) => (i.to_string(), v.value),
            })
            .collect(),
        other => panic!("{other:?}"),
    }
}

fn local(host: &HostHandle, name: &str) -> String {
    locals(host, 0).into_iter().find(|(n, _)| n == name).map(|(_, v)| v).unwrap_or_else(|| panic!("no local {name}"))
}

const SETUP: &str = "R = require('mod.elona.game.rules') c = Chara.create('elona.putit', 3, 3) c.hp = 50 return true";

#[test]
fn a_breakpoint_in_a_mods_file_stops_there_with_its_locals_and_steps_go_over_in_and_out() {
    let host = demo();
    assert_eq!(eval(&host, SETUP), Evaluation::Values(vec!["true".into()]));
    // Rules.damage: 37 `target.hp = target.hp - amount`, 38 `local who = Rules.name(...)`.
    set(&host, vec![at(37)]);
    host.send(Command::Repl(ReplCommand::Eval { id: 1, code: "R.damage(c, 3) return c.hp".into() }));
    let view = paused(&host);
    assert_eq!((view.cause, view.line, view.function.as_str()), (BreakCause::Breakpoint, 37, "damage"));
    assert_eq!(view.frames[0].path.as_deref().map(|p| p.ends_with("mods/elona/game/rules.lua")), Some(true));
    assert_eq!(view.frames[1].file, "repl", "the caller is the next frame");
    assert_eq!(local(&host, "amount"), "3");
    assert!(local(&host, "target").contains("elona.putit"), "the target is the putit: {}", local(&host, "target"));

    // Over: the next line of damage, hp already written.
    host.send(Command::Debug(DebugCommand::Step(StepKind::Over)));
    let view = wait_for(&host, |s| s.debug.pause.as_ref().is_some_and(|p| p.line == 38)).debug.pause.clone().unwrap();
    assert_eq!(view.cause, BreakCause::Step);
    assert_eq!(eval(&host, "target.hp"), Evaluation::Values(vec!["47".into()]), "line 37 ran");

    // In: into Rules.name, called on line 38.
    host.send(Command::Debug(DebugCommand::Step(StepKind::In)));
    let view =
        wait_for(&host, |s| s.debug.pause.as_ref().is_some_and(|p| p.function == "name")).debug.pause.clone().unwrap();
    assert_eq!(view.frames[1].function, "damage", "damage called it");

    // Out: back in damage, past the call.
    host.send(Command::Debug(DebugCommand::Step(StepKind::Out)));
    let view = wait_for(&host, |s| s.debug.pause.as_ref().is_some_and(|p| p.function == "damage"))
        .debug
        .pause
        .clone()
        .unwrap();
    assert!(view.line >= 38, "out of name, back in damage at {}", view.line);

    host.send(Command::Debug(DebugCommand::Continue));
    assert_eq!(answer(&host, 1, &mut Vec::new()), Evaluation::Values(vec!["47".into()]));

    // Cleared, nothing stops and the hook is gone.
    set_none(&host);
    assert_eq!(eval(&host, "R.damage(c, 1) return c.hp"), Evaluation::Values(vec!["46".into()]));
}

#[test]
fn a_breakpoint_on_the_line_after_an_engine_call_that_ran_other_files_lua_stops() {
    let host = demo();
    assert_eq!(eval(&host, SETUP), Evaluation::Values(vec!["true".into()]));
    // Rules.end_turn: `World.pass_turn()` follows `Debug.profile_scope("AI", function ... end)`,
    // a C function whose closure (this file) runs every character's AI (another file).
    let line = std::fs::read_to_string(rules())
        .unwrap()
        .lines()
        .position(|l| l.trim() == "World.pass_turn()")
        .and_then(|i| u32::try_from(i + 1).ok())
        .expect("end_turn passes the turn");
    set(&host, vec![at(line)]);
    host.send(Command::Repl(ReplCommand::Eval { id: 1, code: "R.end_turn() return 'ended'".into() }));
    let view = paused(&host);
    assert_eq!((view.cause, view.line, view.function.as_str()), (BreakCause::Breakpoint, line, "end_turn"));
    host.send(Command::Debug(DebugCommand::Continue));
    assert_eq!(answer(&host, 1, &mut Vec::new()), Evaluation::Values(vec!["\"ended\"".into()]));
}

fn set_none(host: &HostHandle) {
    let answer = ask(host, DebugQuery::SetBreakpoints { path: rules(), breakpoints: Vec::new() });
    assert_eq!(answer, DebugAnswer::Breakpoints { loaded: true, lines: Vec::new() });
}

/// A file loaded while it has breakpoints gets the debugger's probes: no hook is installed
/// while none of its functions runs (Lua's hook machinery is what a breakpoint set elsewhere
/// cost), and its breakpoints stop all the same. Loaded without probes, the hook takes calls.
#[test]
fn a_file_loaded_with_breakpoints_has_probes_and_no_hook_runs_until_its_functions_do() {
    let copy = nefia_tests::DemoCopy::new();
    let library = "-- a library\nlocal M = {}\nfunction M.double(x)\n  local y = x * 2\n  return y\nend\nreturn M\n";
    for name in ["probed", "hooked"] {
        nefia_tests::write(copy.mod_file(&format!("elona/game/{name}.lua")), library).expect("written");
    }
    let host = nefia_tests::host::spawn(&copy.project());
    let hook_mask = || eval(&host, "return (select(2, debug.gethook()))");
    // debug.gethook gives nothing where no hook is set.
    let no_hook = Evaluation::Values(vec!["nil".into()]);
    let load_with_line_4 = |name: &str| {
        let path = copy.mod_file(&format!("elona/game/{name}.lua"));
        let set = ask(&host, DebugQuery::SetBreakpoints { path, breakpoints: vec![at(4)] });
        assert_eq!(set, DebugAnswer::Breakpoints { loaded: false, lines: vec![4] });
        let required = format!("{name} = require('mod.elona.game.{name}') return true");
        assert_eq!(eval(&host, &required), Evaluation::Values(vec!["true".into()]));
    };
    let double_stops_at_line_4 = |double: &str, id: u64| {
        host.send(Command::Repl(ReplCommand::Eval { id, code: format!("local y = {double}(4) return y") }));
        let view = paused(&host);
        assert!(view.line == 4 && view.function.ends_with("double"), "{}:{}", view.function, view.line);
        assert_eq!(local(&host, "x"), "4");
        assert!(locals(&host, 0).iter().all(|(name, _)| !name.starts_with("__nefia")), "the probe is not shown");
        host.send(Command::Debug(DebugCommand::Continue));
        assert_eq!(answer(&host, id, &mut Vec::new()), Evaluation::Values(vec!["8".into()]));
    };

    load_with_line_4("probed");
    assert_eq!(hook_mask(), no_hook, "no hook while the library does not run");
    double_stops_at_line_4("probed.double", 1);
    assert_eq!(hook_mask(), no_hook, "none again once it returned");

    // Loaded without probes (as a file loaded before its breakpoints is), the hook takes
    // every call while the breakpoint is set.
    host.send(Command::Debug(DebugCommand::Probes(false)));
    load_with_line_4("hooked");
    assert_eq!(hook_mask(), Evaluation::Values(vec!["\"c\"".into()]));
    double_stops_at_line_4("hooked.double", 2);

    // Hotloaded with probes on again, its old functions may still run (a copy kept here): the
    // hook keeps taking calls, and the old function stops as the new one does.
    host.send(Command::Debug(DebugCommand::Probes(true)));
    assert_eq!(eval(&host, "old_double = hooked.double return true"), Evaluation::Values(vec!["true".into()]));
    host.send(Command::Mods(nefia_protocol::mods::ModCommand::Reload(copy.mod_file("elona/game/hooked.lua"))));
    assert_eq!(hook_mask(), Evaluation::Values(vec!["\"c\"".into()]));
    double_stops_at_line_4("hooked.double", 3);
    double_stops_at_line_4("old_double", 4);
}

/// A function of a file with breakpoints entered by a step (which follows no call) keeps its
/// lines on past a call into another file's Lua: Continue from a Step In stops at the
/// breakpoint after that call.
#[test]
fn after_stepping_into_a_function_a_breakpoint_past_its_call_into_another_file_stops() {
    let copy = nefia_tests::DemoCopy::new();
    let stepped = "-- stepped into\nlocal M = {}\nfunction M.p()\n  local a = require('mod.elona.game.other').one()\n  local b = a + 1\n  return b\nend\nreturn M\n";
    nefia_tests::write(copy.mod_file("elona/game/stepped.lua"), stepped).expect("written");
    nefia_tests::write(copy.mod_file("elona/game/other.lua"), "return { one = function() return 1 end }\n")
        .expect("written");
    let host = nefia_tests::host::spawn(&copy.project());
    let path = copy.mod_file("elona/game/stepped.lua");
    ask(&host, DebugQuery::SetBreakpoints { path, breakpoints: vec![at(5)] });
    assert_eq!(
        eval(&host, "stepped = require('mod.elona.game.stepped') return true"),
        Evaluation::Values(vec!["true".into()])
    );
    host.send(Command::Repl(ReplCommand::Eval { id: 1, code: "pause() local r = stepped.p() return r".into() }));
    let view = paused(&host);
    assert_eq!(view.cause, BreakCause::Pause);
    host.send(Command::Debug(DebugCommand::Step(StepKind::In)));
    let view = wait_for(&host, |s| s.debug.pause.as_ref().is_some_and(|p| p.line == 4)).debug.pause.clone().unwrap();
    assert_eq!(view.cause, BreakCause::Step);
    host.send(Command::Debug(DebugCommand::Continue));
    let view = wait_for(&host, |s| s.debug.pause.as_ref().is_some_and(|p| p.line == 5)).debug.pause.clone().unwrap();
    assert_eq!((view.cause, local(&host, "a")), (BreakCause::Breakpoint, "1".to_owned()));
    host.send(Command::Debug(DebugCommand::Continue));
    assert_eq!(answer(&host, 1, &mut Vec::new()), Evaluation::Values(vec!["2".into()]));
}

#[test]
fn conditions_hit_counts_and_log_messages_decide_whether_a_breakpoint_stops() {
    let host = demo();
    eval(&host, SETUP);
    set(&host, vec![LineBreakpoint { condition: Some("amount > 5".into()), ..at(37) }]);
    assert_eq!(eval(&host, "R.damage(c, 1) return c.hp"), Evaluation::Values(vec!["49".into()]), "false: runs on");
    host.send(Command::Repl(ReplCommand::Eval { id: 2, code: "R.damage(c, 6) return c.hp".into() }));
    assert_eq!(local(&host, "amount"), "6", "true: stops");
    let _ = paused(&host);
    host.send(Command::Debug(DebugCommand::Continue));
    assert_eq!(answer(&host, 2, &mut Vec::new()), Evaluation::Values(vec!["43".into()]));

    set(&host, vec![LineBreakpoint { hit_condition: Some("3".into()), ..at(37) }]);
    assert_eq!(eval(&host, "R.damage(c, 1) R.damage(c, 1) return c.hp"), Evaluation::Values(vec!["41".into()]));
    host.send(Command::Repl(ReplCommand::Eval { id: 3, code: "R.damage(c, 1) return c.hp".into() }));
    assert_eq!(paused(&host).line, 37, "the third hit stops");
    host.send(Command::Debug(DebugCommand::Continue));
    assert_eq!(answer(&host, 3, &mut Vec::new()), Evaluation::Values(vec!["40".into()]));

    set(&host, vec![LineBreakpoint { log_message: Some("hit for {amount}, {{braces}}".into()), ..at(37) }]);
    host.send(Command::Repl(ReplCommand::Eval { id: 4, code: "R.damage(c, 2) return c.hp".into() }));
    let mut seen = Vec::new();
    assert_eq!(answer(&host, 4, &mut seen), Evaluation::Values(vec!["38".into()]), "a log message does not stop");
    assert!(printed(&seen).contains(&"hit for 2, {braces}".to_owned()), "printed: {:?}", printed(&seen));

    set(&host, vec![LineBreakpoint { condition: Some("amount +".into()), ..at(37) }]);
    host.send(Command::Repl(ReplCommand::Eval { id: 5, code: "R.damage(c, 1)".into() }));
    let view = paused(&host);
    assert!(
        view.reason.as_deref().is_some_and(|r| r.contains("condition `amount +` failed")),
        "a broken condition stops and says so: {:?}",
        view.reason
    );
    host.send(Command::Debug(DebugCommand::Continue));
    answer(&host, 5, &mut Vec::new());
}

#[test]
fn variables_page_through_tables_show_an_objects_fields_and_can_be_set() {
    let host = demo();
    eval(&host, SETUP);
    eval(&host, "c:mod('dv', 4, 'add')");
    set(&host, vec![at(37)]);
    host.send(Command::Repl(ReplCommand::Eval {
        id: 6,
        code:
            "local list = {} for i = 1, 30 do list[i] = i * 10 end list.name = 'ten' R.damage(c, 1, list) return c.hp"
                .into(),
    }));
    let _ = paused(&host);
    let path = |keys: Vec<Key>| VariablePath { frame: 0, scope: Scope::Locals, keys };
    let DebugAnswer::Variables { variables, total } =
        ask(&host, DebugQuery::Variables { path: path(vec![Key::Name("source".into())]), start: 10, count: 5 })
    else {
        panic!("variables")
    };
    assert_eq!(total, 31, "30 items and a name");
    assert_eq!(
        variables.iter().map(|v| (v.key.clone(), v.value.clone())).collect::<Vec<_>>()[0],
        (Key::Index(11), "110".into())
    );
    assert_eq!(variables.len(), 5);

    let DebugAnswer::Variables { variables, .. } =
        ask(&host, DebugQuery::Variables { path: path(vec![Key::Name("target".into())]), start: 0, count: 0 })
    else {
        panic!("fields")
    };
    let dv = variables.iter().find(|v| v.key == Key::Name("dv".into())).expect("a dv field");
    assert!(dv.children >= 4, "dv has base, temp, calc and a contribution: {dv:?}");
    let DebugAnswer::Variables { variables, .. } = ask(
        &host,
        DebugQuery::Variables {
            path: path(vec![Key::Name("target".into()), Key::Name("dv".into())]),
            start: 0,
            count: 0,
        },
    ) else {
        panic!("parts")
    };
    let parts: Vec<String> = variables.iter().map(|v| format!("{:?} {}", v.key, v.value)).collect();
    assert!(parts.iter().any(|p| p.starts_with("Name(\"temp\") 4")), "{parts:?}");
    assert!(parts.iter().any(|p| p.contains("add 4 by") && p.contains("repl")), "who added it: {parts:?}");

    // Setting a local reaches the code when it continues.
    let answer_set = ask(
        &host,
        DebugQuery::SetVariable {
            path: path(Vec::new()),
            key: Key::Name("amount".into()),
            value: "amount * 10".into(),
        },
    );
    assert!(matches!(answer_set, DebugAnswer::Variable(ref v) if v.value == "10"), "{answer_set:?}");
    host.send(Command::Debug(DebugCommand::Continue));
    assert_eq!(answer(&host, 6, &mut Vec::new()), Evaluation::Values(vec!["40".into()]), "50 - 10");
}

#[test]
fn a_runaway_evaluation_at_a_breakpoint_is_stopped_by_the_time_limit() {
    let host = demo();
    eval(&host, SETUP);
    host.send(Command::Repl(ReplCommand::SetLimits { time: Some(Duration::from_millis(300)), memory: None }));
    set(&host, vec![at(37)]);
    host.send(Command::Repl(ReplCommand::Eval { id: 8, code: "R.damage(c, 1)".into() }));
    let _ = paused(&host);
    match eval(&host, "while true do end") {
        Evaluation::Error(failure) => assert!(failure.message.contains("time limit"), "{failure}"),
        other => panic!("the loop was not stopped: {other:?}"),
    }
    assert_eq!(eval(&host, "amount"), Evaluation::Values(vec!["1".into()]), "still paused among the locals");
    host.send(Command::Debug(DebugCommand::Continue));
    answer(&host, 8, &mut Vec::new());
}

/// The memory limit is checked from a hook between two instructions, every 10 ms. That check
/// once called into Lua (through mlua) to read the heap's size, and a call made from a hook
/// returns into the hooked function, where Lua then reports the line it is on once more: a
/// breakpoint stopped twice in one pass now and then (a launched script in `nefia dap`, under
/// the editor's memory limit). A logpoint on a long line run many times under a memory limit
/// logs exactly once per pass.
#[test]
fn under_a_memory_limit_a_line_in_the_middle_of_its_work_is_reported_once_per_pass() {
    let host = demo();
    host.send(Command::Repl(ReplCommand::SetLimits { time: None, memory: Some(1 << 30) }));
    let dir = tempfile::tempdir().expect("a temp dir");
    let path = dir.path().join("long_line.lua");
    const PASSES: usize = 2000;
    let long_line = "x = x + 1 ".repeat(400);
    nefia_tests::write(&path, format!("x = 0\nfor i = 1, {PASSES} do\n  {long_line}\nend\n")).expect("written");
    let logpoint = LineBreakpoint { log_message: Some("pass {i}".into()), ..at(3) };
    let set = ask(&host, DebugQuery::SetBreakpoints { path: path.clone(), breakpoints: vec![logpoint] });
    assert!(matches!(set, DebugAnswer::Breakpoints { .. }), "{set:?}");
    host.send(Command::Repl(ReplCommand::RunFile { id: 9, path }));
    let mut seen = Vec::new();
    let result = answer(&host, 9, &mut seen);
    assert!(!matches!(result, Evaluation::Error(_)), "{result:?}");
    let expected: Vec<String> = (1..=PASSES).map(|pass| format!("pass {pass}")).collect();
    let logged = printed(&seen);
    let twice: Vec<&String> = logged.windows(2).filter(|w| w[0] == w[1]).map(|w| &w[0]).collect();
    assert!(twice.is_empty(), "reported twice in one pass: {twice:?}");
    assert_eq!(logged, expected);
}

#[test]
fn errors_pause_where_they_are_raised_uncaught_or_caught_as_asked() {
    let host = demo();
    host.send(Command::Debug(DebugCommand::BreakOnErrors { uncaught: true, caught: false }));
    eval(
        &host,
        "Event.register('base.on_damage', 'test.fails', function(_, params)\n\
           local doubled = params.amount * 2\n\
           error('the handler failed with ' .. doubled)\n\
         end)",
    );
    host.send(Command::Repl(ReplCommand::Eval {
        id: 9,
        code: "Event.trigger('base.on_damage', { amount = 4 })".into(),
    }));
    let view = paused(&host);
    assert_eq!((view.cause, view.line), (BreakCause::Exception, 3), "stopped on the error line: {view:?}");
    assert!(view.reason.as_deref().is_some_and(|r| r.contains("the handler failed with 8")), "{:?}", view.reason);
    assert_eq!(local(&host, "doubled"), "8", "the raising function's locals are there");
    host.send(Command::Debug(DebugCommand::Continue));
    match answer(&host, 9, &mut Vec::new()) {
        Evaluation::Error(failure) => assert!(failure.message.contains("the handler failed with 8"), "{failure}"),
        other => panic!("the error went on up after the break: {other:?}"),
    }

    // A caught error runs on unless caught errors are asked for.
    let caught =
        "local ok, message = pcall(function() local inner = 5 error('caught ' .. inner) end) return ok, message";
    assert!(matches!(eval(&host, caught), Evaluation::Values(v) if v[0] == "false"), "not paused");
    host.send(Command::Debug(DebugCommand::BreakOnErrors { uncaught: true, caught: true }));
    host.send(Command::Repl(ReplCommand::Eval { id: 10, code: caught.into() }));
    assert_eq!(local(&host, "inner"), "5", "paused in the function pcall ran");
    host.send(Command::Debug(DebugCommand::Continue));
    assert!(matches!(answer(&host, 10, &mut Vec::new()), Evaluation::Values(v) if v[0] == "false"), "still caught");
}

#[test]
fn stepping_back_replays_the_turn_to_the_line_before_and_reverse_continue_to_the_previous_hit() {
    use nefia_game::display::Input;
    use nefia_protocol::play::{PlayCommand, ReverseKind};
    let copy = nefia_tests::DemoCopy::new();
    // A recorded session: what stepping back replays.
    let host = nefia_tests::host::spawn(&copy.project());
    let rules = copy.mod_file("elona/game/rules.lua");
    // Rules.step: 91 its header, 92 `local map = ...`, 93 `local x, y = ...`, 94 `if not
    // map:is_in_bounds`. A breakpoint asked on the header (which runs when the function is
    // made, not when it is called) goes to the first line of its body.
    let answer = ask(&host, DebugQuery::SetBreakpoints { path: rules, breakpoints: vec![at(91)] });
    assert_eq!(answer, DebugAnswer::Breakpoints { loaded: true, lines: vec![92] });
    host.send(Command::Input(Input::Key("right".into())));
    let first = paused(&host);
    assert_eq!((first.line, first.cause), (92, BreakCause::Breakpoint));
    for line in [93, 94] {
        host.send(Command::Debug(DebugCommand::Step(StepKind::Over)));
        wait_for(&host, |s| s.debug.pause.as_ref().is_some_and(|p| p.line == line));
    }
    assert_ne!(local(&host, "x"), "nil", "line 93 set x");

    host.send(Command::Play(PlayCommand::StepBackInCode(ReverseKind::Line)));
    let back = wait_for(&host, |s| s.debug.pause.as_ref().is_some_and(|p| p.id != first.id && p.line == 93))
        .debug
        .pause
        .clone()
        .unwrap();
    assert_eq!(back.cause, BreakCause::Step);
    let names: Vec<String> = locals(&host, 0).into_iter().map(|(name, _)| name).collect();
    assert!(!names.contains(&"x".to_owned()), "back before line 93 ran: x is not made yet: {names:?}");
    assert_ne!(local(&host, "map"), "nil", "line 92 had run");

    host.send(Command::Play(PlayCommand::StepBackInCode(ReverseKind::Breakpoint)));
    let hit = wait_for(&host, |s| s.debug.pause.as_ref().is_some_and(|p| p.id != back.id && p.line == 92))
        .debug
        .pause
        .clone()
        .unwrap();
    assert_eq!(hit.cause, BreakCause::Breakpoint);
    let names: Vec<String> = locals(&host, 0).into_iter().map(|(name, _)| name).collect();
    assert!(!names.contains(&"map".to_owned()), "back at the breakpoint, before line 92 ran: {names:?}");

    // Going on from there plays the turn as it was played.
    let turn = host.snapshot().turn;
    let _ =
        ask(&host, DebugQuery::SetBreakpoints { path: copy.mod_file("elona/game/rules.lua"), breakpoints: Vec::new() });
    host.send(Command::Debug(DebugCommand::Continue));
    let after = wait_for(&host, |s| s.debug.pause.is_none() && s.state != RuntimeState::Paused);
    assert!(after.turn >= turn, "the turn went on");
    assert!(after.debug.error.is_none(), "no error screen: {:?}", after.debug.error);
}

/// A launched recording (opened, then played to its last turn, as `nefia dap` does): reverse
/// continue from a breakpoint's second hit goes back to its first, a turn earlier, with the
/// game as it was then; continuing from there plays forward to the second hit again; a step
/// back from the first line a move ran goes to the last line the move before it ran;
/// and with the breakpoints cleared the replay runs to its end.
#[test]
fn in_a_replayed_recording_stepping_back_crosses_turns_to_the_previous_hit_and_line() {
    use nefia_protocol::play::{PlayCommand, ReverseKind};
    let copy = nefia_tests::DemoCopy::new();
    let host = nefia_tests::host::spawn_editing(&copy.project());
    host.send(Command::Play(PlayCommand::OpenRecording(copy.project().join("recordings/tests/walk-and-kill.ron"))));
    let opened = wait_for(&host, |s| s.play.recording.is_some_and(|r| r.opened && r.turns > 2));
    let last = opened.play.recording.map(|r| r.turns).unwrap_or_default();
    let rules = copy.mod_file("elona/game/rules.lua");
    // Rules.step's first line: every move of the recording runs it.
    let set = ask(&host, DebugQuery::SetBreakpoints { path: rules.clone(), breakpoints: vec![at(92)] });
    assert!(matches!(set, DebugAnswer::Breakpoints { .. }), "{set:?}");
    host.send(Command::Play(PlayCommand::GoToTurn(last)));
    let first = paused(&host);
    let first_turn = host.snapshot().turn;
    let first_dx = local(&host, "dx");
    host.send(Command::Debug(DebugCommand::Continue));
    let second = wait_for(&host, |s| s.debug.pause.as_ref().is_some_and(|p| p.id != first.id));
    let second_turn = second.turn;
    let second_id = second.debug.pause.as_ref().map(|p| p.id).unwrap_or_default();
    assert!(second_turn > first_turn, "the second hit is in a later turn: {first_turn} → {second_turn}");

    host.send(Command::Play(PlayCommand::StepBackInCode(ReverseKind::Breakpoint)));
    let back = wait_for(&host, |s| s.debug.pause.as_ref().is_some_and(|p| p.id > second_id));
    let back_pause = back.debug.pause.clone().expect("a break");
    assert_eq!((back_pause.line, back_pause.cause), (92, BreakCause::Breakpoint));
    assert_eq!(back.turn, first_turn, "back in the turn of the first hit");
    assert_eq!(local(&host, "dx"), first_dx, "with the first hit's locals");

    host.send(Command::Debug(DebugCommand::Continue));
    let again = wait_for(&host, |s| s.debug.pause.as_ref().is_some_and(|p| p.id > back_pause.id));
    assert_eq!((again.turn, again.debug.pause.as_ref().map(|p| p.line)), (second_turn, Some(92)), "forward again");
    let again_id = again.debug.pause.as_ref().map(|p| p.id).unwrap_or_default();

    // Line 92 is the first line of rules.lua a move runs: the line before is in the turn before.
    host.send(Command::Play(PlayCommand::StepBackInCode(ReverseKind::Line)));
    let before = wait_for(&host, |s| s.debug.pause.as_ref().is_some_and(|p| p.id > again_id));
    let before_pause = before.debug.pause.clone().expect("a break");
    assert_eq!(before_pause.cause, BreakCause::Step);
    assert!(before_pause.file.ends_with("rules.lua"), "{before_pause:?}");
    // The move before ended with Rules.end_turn, after its World.pass_turn().
    assert_eq!(before_pause.function, "end_turn", "{before_pause:?}");
    assert_eq!(before.turn, second_turn, "the move before passed the turn the second hit is in");

    let _ = ask(&host, DebugQuery::SetBreakpoints { path: rules, breakpoints: Vec::new() });
    host.send(Command::Debug(DebugCommand::Continue));
    let end = wait_for(&host, |s| s.debug.pause.is_none() && s.play.recording.is_some_and(|r| r.at == last));
    assert!(end.debug.error.is_none(), "no error screen: {:?}", end.debug.error);
}

/// A script that loops (lines 2 to 4) for hours, printing `looping` once it is well inside.
const LOOPING: &str =
    "local total = 0\nfor i = 1, 1e12 do\n  total = total + i\n  if i == 1000 then print('looping') end\nend\n";

#[test]
fn pause_stops_a_long_running_script_at_its_line_and_with_nothing_running_stops_at_the_next_line() {
    let host = demo();
    let dir = tempfile::tempdir().expect("a folder");
    let script = dir.path().join("long.lua");
    // Lines 2 to 4 are the loop: where a pause lands. It says so from inside, so a pause sent
    // after the word, however late the test thread runs, lands in it.
    nefia_tests::write(&script, LOOPING).expect("written");
    host.send(Command::Repl(ReplCommand::RunFile { id: 7, path: script.clone() }));
    let mut seen = Vec::new();
    event(&host, &mut seen, |e| printed(std::slice::from_ref(e)).contains(&"looping".to_owned()).then_some(()));

    // No breakpoint is set, and the runtime is inside the script: only the Pause flag reaches it.
    host.pause();
    let view = paused(&host);
    assert_eq!(view.cause, BreakCause::Pause);
    assert!((2..=4).contains(&view.line), "in the loop, not at line {}", view.line);
    assert_eq!(view.frames[0].path.as_deref(), Some(script.as_path()));
    let total: f64 = local(&host, "total").parse().expect("a number");
    assert!(total > 0.0, "the loop had run: total = {total}");

    // Stop ends the script; nothing is left paused.
    host.stop();
    match answer(&host, 7, &mut seen) {
        Evaluation::Error(failure) => assert!(failure.to_string().contains("interrupted"), "{failure}"),
        other => panic!("the script ended with {other:?}"),
    }
    wait_for(&host, |s| s.debug.pause.is_none());

    // With nothing running, a pause stops at the next line any code of a file runs.
    assert_eq!(eval(&host, SETUP), Evaluation::Values(vec!["true".into()]));
    host.pause();
    host.send(Command::Repl(ReplCommand::Eval { id: 8, code: "R.damage(c, 3) return c.hp".into() }));
    let view = paused(&host);
    assert_eq!((view.cause, view.function.as_str()), (BreakCause::Pause, "damage"));
    host.send(Command::Debug(DebugCommand::Continue));
    assert_eq!(answer(&host, 8, &mut seen), Evaluation::Values(vec!["47".into()]), "and it goes on");
}

#[path = "breakpoints/differential.rs"]
mod differential;
