//! Watchpoints through the runtime protocol: `Debug.watch` stops at the line that wrote the
//! field (a base write, a handler's `mod` during `refresh`), or at the editor's edit; the
//! condition filters; `Debug.unwatch` ends it; a local assigned while stopped changes what
//! the code writes next; headless, a watch prints its line and the script goes on.

use nefia_runtime::Runtime;
use nefia_runtime::edit::Edit;
use nefia_runtime::host::Command;
use nefia_runtime::lua::Output;
use nefia_runtime::lua::repl::Evaluation;
use nefia_runtime::value::Value;
use nefia_runtime::view::RuntimeState;
use nefia_tests::host::{answer, demo, eval, wait_for};

fn values(list: &[&str]) -> Evaluation {
    Evaluation::Values(list.iter().map(|s| s.to_string()).collect())
}

/// Waits for a break whose header contains `saying` and returns the header, file, line and
/// function.
fn stopped(host: &nefia_runtime::host::HostHandle, saying: &str) -> (String, String, u32, String) {
    let snapshot = wait_for(host, |s| {
        s.state == RuntimeState::Paused
            && s.pause.as_ref().is_some_and(|p| p.reason.as_ref().is_some_and(|r| r.contains(saying)))
    });
    let view = snapshot.pause.clone().expect("a break");
    (view.reason.unwrap_or_default(), view.file, view.line, view.function)
}

#[test]
fn a_watch_stops_at_the_writing_line_and_a_local_assigned_there_changes_the_next_write() {
    let host = demo();
    assert_eq!(eval(&host, "c = Chara.create('elona.putit', 3, 3) c.hp = 6 return c.uid > 0"), values(&["true"]));
    let uid = match eval(&host, "c.uid") {
        Evaluation::Values(v) => v[0].clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(eval(&host, "w = Debug.watch(c, 'hp') return w"), values(&["1"]));
    host.send(Command::Eval {
        id: 7,
        code: "local function hurt()\n\
                 local damage = 2\n\
                 c.hp = 10\n\
                 c.hp = c.hp - damage\n\
               end\n\
               hurt()\n\
               return c.hp"
            .into(),
    });
    let (reason, file, line, function) = stopped(&host, "6 → 10");
    assert_eq!(reason, format!("watch: uid {uid} (elona.putit) hp 6 → 10 at repl:3"));
    assert_eq!((file.as_str(), line, function.as_str()), ("repl", 3, "hurt"));
    assert_eq!(eval(&host, "damage"), values(&["2"]), "the writer's locals are there");
    assert_eq!(eval(&host, "damage = 7"), values(&[]));
    host.send(Command::Continue);
    let (reason, _, line, _) = stopped(&host, "10 → 3");
    assert_eq!((reason.as_str(), line), (format!("watch: uid {uid} (elona.putit) hp 10 → 3 at repl:4").as_str(), 4));
    host.send(Command::Continue);
    let mut seen = Vec::new();
    assert_eq!(answer(&host, 7, &mut seen), values(&["3"]), "the assigned damage was written");
    assert_eq!(eval(&host, "Debug.watches()[1].hits"), values(&["2"]));

    // Unwatched, the same writes run through.
    assert_eq!(eval(&host, "Debug.unwatch(w)"), values(&["true"]));
    assert_eq!(eval(&host, "c.hp = 1 return c.hp, #Debug.watches()"), values(&["1", "0"]));
}

#[test]
fn a_handlers_mod_during_refresh_stops_in_the_handler_and_only_real_changes_fire() {
    let host = demo();
    eval(
        &host,
        "c = Chara.create('elona.putit', 4, 4)\n\
         bonus = 5\n\
         Event.register('base.on_chara_refreshed', 'test.watch_dv', function(chara)\n\
            chara:mod('dv', bonus, 'add')\n\
         end)\n\
         c:refresh()",
    );
    let before = match eval(&host, "c:calc('dv')") {
        Evaluation::Values(v) => v[0].clone(),
        other => panic!("{other:?}"),
    };
    assert_eq!(eval(&host, "Debug.watch(c, 'dv')"), values(&["1"]));
    // Refreshing again puts the same value back: not a change.
    assert_eq!(eval(&host, "c:refresh() return 'ran'"), values(&["\"ran\""]));
    host.send(Command::Eval { id: 3, code: "bonus = 9 c:refresh() return c:calc('dv')".into() });
    let (reason, file, line, function) = stopped(&host, "dv");
    let base: i64 = before.parse::<i64>().expect("a number") - 5;
    assert!(reason.ends_with(&format!("dv {before} → {} at repl:4", base + 9)), "{reason}");
    assert_eq!((file.as_str(), line), ("repl", 4), "in the handler ({function})");
    assert_eq!(eval(&host, "chara.uid == c.uid"), values(&["true"]), "the handler's argument is a local");
    host.send(Command::Continue);
    let mut seen = Vec::new();
    assert_eq!(answer(&host, 3, &mut seen), values(&[&(base + 9).to_string()]));
}

#[test]
fn a_condition_filters_and_an_editor_edit_stops_named_as_the_operation() {
    let host = demo();
    eval(&host, "c = Chara.create('elona.putit', 5, 5) c.hp = 9");
    assert_eq!(eval(&host, "Debug.watch(c, 'hp', function(old, new) return new < 5 end)"), values(&["1"]));
    assert_eq!(eval(&host, "c.hp = 8 c.hp = 7 return c.hp"), values(&["7"]), "not below 5: no stop");
    host.send(Command::Eval { id: 4, code: "c.hp = 4 return 'went on'".into() });
    let (reason, ..) = stopped(&host, "7 → 4");
    assert!(reason.contains("hp 7 → 4 at repl:1"), "{reason}");
    host.send(Command::Continue);
    let mut seen = Vec::new();
    assert_eq!(answer(&host, 4, &mut seen), values(&["\"went on\""]));

    // An edit in the editor stops too, named: no Lua line made it.
    let uid = match eval(&host, "c.uid") {
        Evaluation::Values(v) => v[0].parse::<u64>().expect("a uid"),
        other => panic!("{other:?}"),
    };
    host.send(Command::Edit(Edit::SetBase {
        uids: vec![nefia_runtime::object::Uid(uid)],
        field: "hp".into(),
        value: Value::Int(2),
    }));
    let (reason, file, ..) = stopped(&host, "4 → 2");
    assert!(reason.ends_with("hp 4 → 2 at an edit in the editor"), "{reason}");
    assert_eq!(file, "an edit in the editor");
    host.send(Command::Continue);
    wait_for(&host, |s| s.state == RuntimeState::Running);
    assert_eq!(eval(&host, "c.hp"), values(&["2"]));
}

#[test]
fn headless_a_watch_prints_its_line_and_the_script_goes_on() {
    let printed = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let sink = printed.clone();
    let runtime = Runtime::open_project(
        &nefia_tests::repo_root().join("projects/demo"),
        Box::new(move |output| {
            if let Output::Print(line) = output {
                sink.borrow_mut().push(line);
            }
        }),
    )
    .expect("the demo opens");
    runtime.open_start_map().expect("the start map");
    let result = runtime
        .exec(
            "local c = Chara.create('elona.putit', 2, 2)\n\
             c.hp = 6\n\
             Debug.watch(c, 'hp')\n\
             c:mod('hp', 1, 'set')\n\
             return c:calc('hp')",
            "script",
        )
        .expect("it runs");
    assert_eq!(runtime.lua().unpack_multi::<i64>(result).expect("a number"), 1, "it went on");
    let printed = printed.borrow();
    assert_eq!(printed.len(), 1, "{printed:?}");
    assert!(
        printed[0].starts_with("watch: uid ") && printed[0].ends_with("(elona.putit) hp 6 → 1 at script:4"),
        "{}",
        printed[0]
    );
}
