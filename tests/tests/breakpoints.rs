//! Line breakpoints and stepping through the runtime protocol (what `nefia dap` sends): a
//! breakpoint in a mod's file stops at its line with the locals there; a condition, a hit
//! count and a log message decide whether it stops; steps go over, in and out; the paused
//! stack's variables page through tables and show a map object's fields with their parts; a
//! runaway evaluation at a breakpoint is still stopped by the time limit; cleared, the hook
//! is gone.

use std::time::Duration;

use nefia_runtime::host::view::{RuntimeState, Snapshot};
use nefia_runtime::host::{
    Command, DebugAnswer, DebugCommand, DebugQuery, HostEvent, HostHandle, Key, ReplCommand, Scope, VariablePath,
};
use nefia_runtime::lua::debugger::{BreakCause, LineBreakpoint, StepKind};
use nefia_runtime::lua::repl::{Evaluation, PauseView};
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
    std::fs::write(&path, format!("x = 0\nfor i = 1, {PASSES} do\n  {long_line}\nend\n")).expect("written");
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
    use nefia_runtime::game::display::Input;
    use nefia_runtime::host::ReverseKind;
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

    host.send(Command::Debug(DebugCommand::StepBack(ReverseKind::Line)));
    let back = wait_for(&host, |s| s.debug.pause.as_ref().is_some_and(|p| p.id != first.id && p.line == 93))
        .debug
        .pause
        .clone()
        .unwrap();
    assert_eq!(back.cause, BreakCause::Step);
    let names: Vec<String> = locals(&host, 0).into_iter().map(|(name, _)| name).collect();
    assert!(!names.contains(&"x".to_owned()), "back before line 93 ran: x is not made yet: {names:?}");
    assert_ne!(local(&host, "map"), "nil", "line 92 had run");

    host.send(Command::Debug(DebugCommand::StepBack(ReverseKind::Breakpoint)));
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
    use nefia_runtime::host::{PlayCommand, ReverseKind};
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

    host.send(Command::Debug(DebugCommand::StepBack(ReverseKind::Breakpoint)));
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
    host.send(Command::Debug(DebugCommand::StepBack(ReverseKind::Line)));
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

#[test]
fn pause_stops_a_long_running_script_at_its_line_and_with_nothing_running_stops_at_the_next_line() {
    let host = demo();
    let dir = tempfile::tempdir().expect("a folder");
    let script = dir.path().join("long.lua");
    // Line 3 is the loop's body: where a pause lands.
    std::fs::write(&script, "print('looping')\nlocal total = 0\nfor i = 1, 1e12 do\n  total = total + i\nend\n")
        .expect("written");
    host.send(Command::Repl(ReplCommand::RunFile { id: 7, path: script.clone() }));
    let mut seen = Vec::new();
    event(&host, &mut seen, |e| printed(std::slice::from_ref(e)).contains(&"looping".to_owned()).then_some(()));

    // No breakpoint is set, and the runtime is inside the script: only the Pause flag reaches it.
    host.pause();
    let view = paused(&host);
    assert_eq!(view.cause, BreakCause::Pause);
    assert!((3..=4).contains(&view.line), "in the loop, not at line {}", view.line);
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

/// A piece of a generated program's main chunk.
#[derive(Clone, Copy, Debug)]
enum Piece {
    /// `acc = acc + k`.
    Add(i64),
    /// A new local from `acc`.
    Local(i64),
    /// A call of one of the program's helpers.
    Call(Helper),
    /// A numeric `for` of `n` turns adding to `acc`.
    Loop(u8),
}

/// The helpers every generated program defines: the shapes of call the line hook must follow.
#[derive(Clone, Copy, Debug)]
enum Helper {
    Plain,
    Recursive,
    Tail,
    Varargs,
    Coroutine,
    Metamethod,
    Pcall,
    /// An engine call that runs Lua of other files (the object's creation events).
    Engine,
}

/// A generated program: its lines, and the lines a breakpoint may go on, each with the locals
/// compared there.
struct Program {
    lines: Vec<String>,
    probes: Vec<(u32, Vec<String>)>,
}

impl Program {
    /// A line a breakpoint may go on, comparing `names` there.
    fn probed(&mut self, names: &[&str], code: &str) {
        let line = u32::try_from(self.lines.len() + 1).expect("a short program");
        self.lines.push(code.to_owned());
        self.probes.push((line, names.iter().map(|name| (*name).to_owned()).collect()));
    }

    fn plain(&mut self, code: &str) {
        self.lines.push(code.to_owned());
    }

    /// The helpers, then the main chunk made of `pieces`.
    fn generate(pieces: &[Piece]) -> Program {
        let mut p = Program { lines: Vec::new(), probes: Vec::new() };
        p.plain("local function plain(x)");
        p.probed(&["x"], "local y = x * 2");
        p.probed(&["x", "y"], "return y - x + 1");
        p.plain("end");
        p.plain("local function recursive(n)");
        p.probed(&["n"], "if n <= 0 then return 1 end");
        p.probed(&["n"], "return n + recursive(n - 1)");
        p.plain("end");
        p.plain("local function tail(x)");
        p.probed(&["x"], "return plain(x + 1)");
        p.plain("end");
        p.plain("local function varargs(...)");
        p.probed(&[], "local a, b = ...");
        p.probed(&["a", "b"], "return a + (b or 0)");
        p.plain("end");
        p.plain("local function coro(x)");
        // The coroutine's function is written inside the line's expression: Lua's line events
        // come back to that line after its `end)`.
        p.probed(&["x"], "local co = coroutine.wrap(function(v)");
        p.probed(&["v"], "coroutine.yield(v + 1)");
        p.probed(&["v"], "return v + 2");
        p.plain("end)");
        p.probed(&["x"], "return co(x) + co(x)");
        p.plain("end");
        p.plain("local meta = setmetatable({}, { __index = function(_, k)");
        p.probed(&["k"], "return k * 3");
        p.plain("end })");
        p.plain("local function fails(x)");
        p.probed(&["x"], "if x % 2 == 1 then error(\"odd\") end");
        p.probed(&["x"], "return x");
        p.plain("end");
        p.probed(&[], "local acc = 1");
        let mut names = vec!["acc".to_owned()];
        for (index, piece) in pieces.iter().enumerate() {
            let shown: Vec<&str> = names.iter().map(String::as_str).collect();
            match *piece {
                Piece::Add(k) => p.probed(&shown, &format!("acc = acc + {k}")),
                Piece::Local(k) => {
                    p.probed(&shown, &format!("local v{index} = acc + {k}"));
                    names.push(format!("v{index}"));
                }
                Piece::Call(helper) => {
                    let code = match helper {
                        Helper::Plain => "acc = plain(acc) % 1000",
                        Helper::Recursive => "acc = (acc + recursive(acc % 4)) % 1000",
                        Helper::Tail => "acc = tail(acc) % 1000",
                        Helper::Varargs => "acc = varargs(acc, acc % 3) % 1000",
                        Helper::Coroutine => "acc = coro(acc) % 1000",
                        Helper::Metamethod => "acc = (acc + meta[acc % 5]) % 1000",
                        Helper::Pcall => "acc = acc + (pcall(fails, acc) and 1 or 2)",
                        Helper::Engine => "acc = (acc + Chara.create(\"elona.putit\", 2, 2).hp) % 1000",
                    };
                    p.probed(&shown, code);
                }
                Piece::Loop(turns) => {
                    p.plain(&format!("for i = 1, {turns} do"));
                    let mut inner = shown.clone();
                    inner.push("i");
                    p.probed(&inner, "acc = acc + i");
                    p.plain("end");
                }
            }
        }
        p.plain("print(acc)");
        p
    }

    fn text(&self) -> String {
        self.lines.join("\n") + "\n"
    }
}

fn piece() -> impl proptest::strategy::Strategy<Value = Piece> {
    use proptest::prelude::*;
    let helper = prop_oneof![
        Just(Helper::Plain),
        Just(Helper::Recursive),
        Just(Helper::Tail),
        Just(Helper::Varargs),
        Just(Helper::Coroutine),
        Just(Helper::Metamethod),
        Just(Helper::Pcall),
        Just(Helper::Engine),
    ];
    prop_oneof![
        (-5i64..5).prop_map(Piece::Add),
        (0i64..5).prop_map(Piece::Local),
        helper.prop_map(Piece::Call),
        (1u8..4).prop_map(Piece::Loop),
    ]
}

/// The reference run: `program` in a plain Lua state with Lua's own line events on for every
/// line (`debug.sethook`, in every coroutine too), recording each `wanted` line as it runs
/// with the probe's locals read by `debug.getlocal`. The engine's one call is stood in for by a
/// table (what matters is the program's own lines).
fn reference(program: &str, wanted: &[(u32, Vec<String>)]) -> Vec<String> {
    use nefia_runtime::mlua::{Lua, LuaOptions, StdLib};
    // SAFETY: the debug library is for this test's own code.
    let lua = unsafe { Lua::unsafe_new_with(StdLib::ALL_SAFE | StdLib::DEBUG, LuaOptions::default()) };
    let recorder = r#"
        local wanted, out = ...
        Chara = { create = function() return { hp = 6 } end }
        print = function() end
        local function hook(_, line)
            local names = wanted[line]
            if names == nil or debug.getinfo(2, "S").source ~= "@program" then return end
            local values, i = {}, 1
            while true do
                local name, value = debug.getlocal(2, i)
                if name == nil then break end
                values[name] = value
                i = i + 1
            end
            local record = { tostring(line) }
            for _, name in ipairs(names) do record[#record + 1] = name .. "=" .. tostring(values[name]) end
            out[#out + 1] = table.concat(record, ",")
        end
        debug.sethook(hook, "l")
        -- Lua's own hooks are per coroutine: each new one gets the line hook too.
        local create, resume = coroutine.create, coroutine.resume
        coroutine.create = function(f)
            local co = create(f)
            debug.sethook(co, hook, "l")
            return co
        end
        coroutine.wrap = function(f)
            local co = coroutine.create(f)
            return function(...)
                local results = table.pack(resume(co, ...))
                if not results[1] then error(results[2], 2) end
                return table.unpack(results, 2, results.n)
            end
        end
    "#;
    let wanted_table = lua.create_table().expect("a table");
    for (line, names) in wanted {
        wanted_table.raw_set(*line, names.clone()).expect("set");
    }
    let out = lua.create_table().expect("a table");
    lua.load(recorder).call::<()>((wanted_table, &out)).expect("the hook is set");
    lua.load(program).set_name("@program").exec().expect("the program runs");
    lua.load("debug.sethook()").exec().expect("the hook is cleared");
    out.sequence_values::<String>().map(|record| record.expect("a record")).collect()
}

/// Runs `path` in `host` to its end; at each break records the line and the probe's locals
/// as the break shows them, and goes on. Returns the records.
fn run_collecting(host: &HostHandle, path: &std::path::Path, probes: &[(u32, Vec<String>)]) -> Vec<String> {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1 << 40);
    let id = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let start = Command::Repl(ReplCommand::RunFile { id, path: path.to_owned() });
    collect_breaks(host, start, |event| matches!(event, HostEvent::Evaluated { id: got, .. } if *got == id), probes)
}

/// Sends `start` and, until an event `done` takes comes, records at each break the line and
/// the probe's locals as the break shows them, and goes on. Returns the records.
fn collect_breaks(
    host: &HostHandle,
    start: Command,
    done: impl Fn(&HostEvent) -> bool,
    probes: &[(u32, Vec<String>)],
) -> Vec<String> {
    let mut last_break = host.snapshot().debug.pause.as_ref().map_or(0, |p| p.id);
    host.send(start);
    let mut hits = Vec::new();
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        while let Some(event) = host.next_event(Duration::from_millis(2)) {
            if let HostEvent::Evaluated { result: Evaluation::Error(failure), .. } = &event {
                panic!("the program failed: {failure:?}");
            }
            if done(&event) {
                return hits;
            }
        }
        let snapshot = host.snapshot();
        if snapshot.state == RuntimeState::Paused
            && let Some(pause) = snapshot.debug.pause.as_ref().filter(|p| p.id != last_break)
        {
            last_break = pause.id;
            let names = probes.iter().find(|(line, _)| *line == pause.line).map(|(_, names)| names.clone());
            let names = names
                .unwrap_or_else(|| panic!("a break at line {} of {}, which has no breakpoint", pause.line, pause.file));
            let mut record = vec![pause.line.to_string()];
            if pause.cause != BreakCause::Breakpoint {
                record.push(format!("{:?}", pause.cause));
            }
            for name in names {
                let value = pause.variables.iter().rev().find(|(n, kind, _)| *n == name && kind == "local");
                record.push(format!("{name}={}", value.map_or("nil", |(_, _, v)| v.as_str())));
            }
            hits.push(record.join(","));
            host.send(Command::Debug(DebugCommand::Continue));
        }
        assert!(std::time::Instant::now() < deadline, "the program did not end: {hits:?}");
    }
}

/// The differential test of line breakpoints: random programs (nested and recursive functions,
/// closures, `pcall`/`error`, a coroutine yielding across calls, a metamethod, a tail call,
/// varargs, an engine call that runs other files' Lua) with random breakpoint lines. The breaks
/// (line, order, locals) must be those of a reference run with Lua's own line events on for
/// every line ([`reference`]), in the same order with the same values. Failures proptest finds
/// are kept in `breakpoints.proptest-regressions`.
#[test]
fn breakpoints_hit_exactly_the_lines_a_reference_run_passes_with_its_locals() {
    let host = demo();
    differential(24, |path, picked| {
        set_lines(&host, path, picked);
        let hits = run_collecting(&host, path, picked);
        set_lines(&host, path, &[]);
        vec![("launched", hits)]
    });
}

/// The differential test for a recorded game and a launched recording: each random program
/// runs in a recorded session (the game played, as one attached to `nefia play --listen`
/// records it), play stops, and the session's recording is opened and played to its end as
/// `nefia dap` launches one. The breaks of both runs are those of the reference run.
#[test]
fn in_a_recorded_game_and_its_replayed_recording_breakpoints_hit_the_lines_a_reference_run_passes() {
    use nefia_runtime::host::PlayCommand;
    use nefia_runtime::host::play::PlayFrom;
    let copy = nefia_tests::DemoCopy::new();
    let host = nefia_tests::host::spawn(&copy.project());
    let recordings = copy.project().join("recordings");
    // The session's recording is written as play goes and when it stops: the newest file.
    let newest = || -> Option<std::path::PathBuf> {
        let entries = std::fs::read_dir(&recordings).ok()?.flatten();
        let ron = entries.filter(|e| e.path().extension().is_some_and(|x| x == "ron"));
        ron.max_by_key(|e| e.metadata().and_then(|m| m.modified()).ok()).map(|e| e.path())
    };
    differential(8, |path, picked| {
        // A turn passes at the end, so the recording has a turn to play to (an unfinished last
        // turn is the future a recording steps into, not one it plays).
        let text = std::fs::read_to_string(path).expect("the program");
        std::fs::write(path, format!("{text}\nWorld.pass_turn()\n")).expect("written");
        set_lines(&host, path, picked);
        let played = run_collecting(&host, path, picked);
        host.send(Command::Play(PlayCommand::Stop));
        wait_for(&host, |s| !s.play.playing);
        let recording = newest().expect("play wrote its recording");
        host.send(Command::Play(PlayCommand::OpenRecording(recording)));
        let opened = wait_for(&host, |s| s.play.recording.is_some_and(|r| r.opened));
        let last = opened.play.recording.map(|r| r.turns).unwrap_or_default();
        // The replayed script answers as replayed REPL input does, with id 0.
        let done = |event: &HostEvent| matches!(event, HostEvent::Evaluated { id: 0, .. });
        let replayed = collect_breaks(&host, Command::Play(PlayCommand::GoToTurn(last)), done, picked);
        set_lines(&host, path, &[]);
        host.send(Command::Play(PlayCommand::Stop));
        wait_for(&host, |s| !s.play.playing);
        host.send(Command::Play(PlayCommand::Start(PlayFrom::Start)));
        wait_for(&host, |s| s.play.playing && s.player.is_some());
        vec![("played and recorded", played), ("its recording replayed", replayed)]
    });
}

/// Sets breakpoints on the `picked` lines of file `path`.
fn set_lines(host: &HostHandle, path: &std::path::Path, picked: &[(u32, Vec<String>)]) {
    let breakpoints = picked.iter().map(|(line, _)| at(*line)).collect();
    let answer = ask(host, DebugQuery::SetBreakpoints { path: path.to_owned(), breakpoints });
    assert!(matches!(answer, DebugAnswer::Breakpoints { .. }), "{answer:?}");
}

/// The differential test's frame: `cases` random programs, each written to a file of its own
/// with random probed lines picked as breakpoints; `run` runs the file with those breakpoints
/// set and returns, for each way it ran, the breaks it recorded, which must be the reference
/// run's. Failures proptest finds are kept in `breakpoints.proptest-regressions`.
fn differential(cases: u32, run: impl Fn(&std::path::Path, &[(u32, Vec<String>)]) -> Vec<(&'static str, Vec<String>)>) {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, FileFailurePersistence, TestRunner};
    let dir = tempfile::tempdir().expect("a temp dir");
    let config = Config {
        cases,
        source_file: Some(file!()),
        failure_persistence: Some(Box::new(FileFailurePersistence::SourceParallel("proptest-regressions"))),
        ..Config::default()
    };
    let strategy = (proptest::collection::vec(piece(), 1..10), any::<u64>());
    let case = std::cell::Cell::new(0);
    TestRunner::new(config)
        .run(&strategy, |(pieces, mask)| {
            let program = Program::generate(&pieces);
            // A file of its own for each case: the game keeps what it loaded of each path.
            case.set(case.get() + 1);
            let path = dir.path().join(format!("program{}.lua", case.get()));
            // The breakpoints: the probed lines the mask picks.
            let picked: Vec<(u32, Vec<String>)> = program
                .probes
                .iter()
                .enumerate()
                .filter(|(index, _)| mask >> (index % 64) & 1 == 1)
                .map(|(_, probe)| probe.clone())
                .collect();
            let lines: Vec<u32> = picked.iter().map(|(line, _)| *line).collect();
            let expected = reference(&program.text(), &picked);
            std::fs::write(&path, program.text()).expect("written");
            for (how, hits) in run(&path, &picked) {
                prop_assert_eq!(&hits, &expected, "{}: program:\n{}\nbreakpoints at {:?}", how, program.text(), lines);
            }
            Ok(())
        })
        .unwrap_or_else(|failure| panic!("{failure}"));
}
