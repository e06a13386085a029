//! Watchpoints through the runtime protocol: `Debug.watch` stops at the line that wrote the
//! field (a base write, a handler's `mod` during `refresh`), at the editor's edit or at a
//! hotload that changed the prototype; the condition filters; `Debug.unwatch` ends it; a
//! local assigned while stopped changes what the code writes next; headless, a watch prints
//! its line and the script goes on. "When did this change?" lists every change of a field in
//! a recorded session and goes back to one, stopping at the line that made it.

use nefia_game::edit::Edit;
use nefia_game::value::Value;
use nefia_lua::Runtime;
use nefia_protocol::debugging::{DebugCommand, ReplCommand};
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::message::Command;
use nefia_protocol::mods::ModCommand;
use nefia_protocol::output::Output;
use nefia_protocol::play::PlayCommand;
use nefia_protocol::repl::Evaluation;
use nefia_protocol::view::RuntimeState;
use nefia_tests::host::{answer, demo, eval, wait_for};

fn values(list: &[&str]) -> Evaluation {
    Evaluation::Values(list.iter().map(|s| s.to_string()).collect())
}

/// Waits for a break whose header contains `saying` and returns the header, file, line and
/// function.
fn stopped(host: &nefia_host::HostHandle, saying: &str) -> (String, String, u32, String) {
    let snapshot = wait_for(host, |s| {
        s.state == RuntimeState::Paused
            && s.debug.pause.as_ref().is_some_and(|p| p.reason.as_ref().is_some_and(|r| r.contains(saying)))
    });
    let view = snapshot.debug.pause.clone().expect("a break");
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
    host.send(Command::Repl(ReplCommand::Eval {
        id: 7,
        code: "local function hurt()\n\
                 local damage = 2\n\
                 c.hp = 10\n\
                 c.hp = c.hp - damage\n\
               end\n\
               hurt()\n\
               return c.hp"
            .into(),
    }));
    let (reason, file, line, function) = stopped(&host, "6 → 10");
    assert_eq!(reason, format!("watch: uid {uid} (elona.putit) hp 6 → 10 at repl:3"));
    assert_eq!((file.as_str(), line, function.as_str()), ("repl", 3, "hurt"));
    let stack = wait_for(&host, |s| s.debug.pause.is_some()).debug.pause.clone().expect("a break").stack;
    assert_eq!(stack, ["hurt at repl:3", "main chunk at repl:6"], "the stack, the writer first");
    assert_eq!(eval(&host, "damage"), values(&["2"]), "the writer's locals are there");
    assert_eq!(eval(&host, "damage = 7"), values(&[]));
    host.send(Command::Debug(DebugCommand::Continue));
    let (reason, _, line, _) = stopped(&host, "10 → 3");
    assert_eq!((reason.as_str(), line), (format!("watch: uid {uid} (elona.putit) hp 10 → 3 at repl:4").as_str(), 4));
    host.send(Command::Debug(DebugCommand::Continue));
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
    host.send(Command::Repl(ReplCommand::Eval { id: 3, code: "bonus = 9 c:refresh() return c:calc('dv')".into() }));
    let (reason, file, line, function) = stopped(&host, "dv");
    let base: i64 = before.parse::<i64>().expect("a number") - 5;
    assert!(reason.ends_with(&format!("dv {before} → {} at repl:4", base + 9)), "{reason}");
    assert_eq!((file.as_str(), line), ("repl", 4), "in the handler ({function})");
    assert_eq!(eval(&host, "chara.uid == c.uid"), values(&["true"]), "the handler's argument is a local");
    host.send(Command::Debug(DebugCommand::Continue));
    let mut seen = Vec::new();
    assert_eq!(answer(&host, 3, &mut seen), values(&[&(base + 9).to_string()]));
}

#[test]
fn a_condition_filters_and_an_editor_edit_stops_named_as_the_operation() {
    let host = demo();
    eval(&host, "c = Chara.create('elona.putit', 5, 5) c.hp = 9");
    assert_eq!(eval(&host, "Debug.watch(c, 'hp', function(old, new) return new < 5 end)"), values(&["1"]));
    assert_eq!(eval(&host, "c.hp = 8 c.hp = 7 return c.hp"), values(&["7"]), "not below 5: no stop");
    host.send(Command::Repl(ReplCommand::Eval { id: 4, code: "c.hp = 4 return 'went on'".into() }));
    let (reason, ..) = stopped(&host, "7 → 4");
    assert!(reason.contains("hp 7 → 4 at repl:1"), "{reason}");
    host.send(Command::Debug(DebugCommand::Continue));
    let mut seen = Vec::new();
    assert_eq!(answer(&host, 4, &mut seen), values(&["\"went on\""]));

    // An edit in the editor stops too, named: no Lua line made it.
    let uid = match eval(&host, "c.uid") {
        Evaluation::Values(v) => v[0].parse::<u64>().expect("a uid"),
        other => panic!("{other:?}"),
    };
    host.send(Command::Editing(EditingCommand::Edit(Edit::SetBase {
        uids: vec![nefia_game::object::Uid(uid)],
        field: "hp".into(),
        value: Value::Int(2),
    })));
    let (reason, file, ..) = stopped(&host, "4 → 2");
    assert!(reason.ends_with("hp 4 → 2 at an edit in the editor"), "{reason}");
    assert_eq!(file, "an edit in the editor");
    host.send(Command::Debug(DebugCommand::Continue));
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

/// Presses `key` and waits until it has been handled.
fn press(host: &nefia_host::HostHandle, key: &str) {
    host.send(Command::Input(nefia_game::display::Input::Key(key.into())));
    eval(host, "true");
}

fn number(host: &nefia_host::HostHandle, code: &str) -> i64 {
    match eval(host, code) {
        Evaluation::Values(v) => v[0].parse().unwrap_or_else(|_| panic!("{code}: {v:?}")),
        other => panic!("{code}: {other:?}"),
    }
}

#[test]
fn when_did_this_change_lists_every_change_with_its_turn_and_line_and_stops_at_one() {
    let copy = nefia_tests::DemoCopy::new();
    let host = nefia_tests::host::spawn(&copy.project());
    eval(
        &host,
        "local p = Chara.player() p:mod_base('max_hp', 1000) p.hp = 1000\n\
         local foe = Chara.create('elona.putit', p.x + 1, p.y) foe.hp = 1000 foe:mod_base('max_hp', 1000)",
    );
    // The putit attacks the waiting player: (turn after the wait, hp) when the hp changed.
    let mut seen = vec![(number(&host, "World.turn()"), 1000)];
    for _ in 0..12 {
        press(&host, "period");
        let (turn, hp) = (number(&host, "World.turn()"), number(&host, "Chara.player().hp"));
        if hp != seen.last().expect("a first").1 {
            seen.push((turn, hp));
        }
    }
    assert!(seen.len() >= 3, "the putit hit a few times: {seen:?}");
    let player = host.snapshot().player.expect("a player");
    host.send(Command::Play(PlayCommand::FindChanges { uid: player, field: "hp".into() }));
    let mut events = Vec::new();
    let entries = nefia_tests::host::event(&host, &mut events, |e| match e {
        nefia_protocol::message::HostEvent::Changes { entries, .. } => Some(entries.clone()),
        _ => None,
    });
    // The REPL's `p.hp = 1000`, then each hit, at the rule's line, on the turn it fell on.
    let first = &entries[0].change;
    assert_eq!((first.new.clone(), first.at.as_str()), (Value::Int(1000), "repl:1"), "{entries:#?}");
    let hits: Vec<_> = entries[1..].iter().map(|e| &e.change).collect();
    assert!(hits.iter().all(|c| c.at == "mods/elona/game/rules.lua:37"), "{hits:#?}");
    // A turn may hit twice (the putit acts twice): the test saw the last value of each turn.
    let mut replayed: Vec<(i64, i64)> = Vec::new();
    for change in &hits {
        let at = (change.turn as i64 + 1, change.new.as_i64().expect("hp"));
        match replayed.last_mut() {
            Some(last) if last.0 == at.0 => *last = at,
            _ => replayed.push(at),
        }
    }
    assert_eq!(replayed, seen[1..], "every change, with its turn");
    assert!(entries.windows(2).all(|w| w[0].change.new == w[1].change.old), "old → new chains");

    // Going to a hit (the second of its turn, if a turn had two): the game stops at the
    // line that made it, with its locals.
    let target = entries.iter().find(|e| e.nth == 1).unwrap_or(&entries[2]);
    host.send(Command::Play(PlayCommand::GoToChange {
        mark: target.mark,
        nth: target.nth,
        uid: player,
        field: "hp".into(),
    }));
    let (reason, file, line, function) = stopped(&host, "rules.lua:37");
    assert!(reason.contains(&format!("hp {} → {}", target.change.old, target.change.new)), "{reason}");
    assert_eq!((file.as_str(), line, function.as_str()), ("mods/elona/game/rules.lua", 37, "damage"));
    let old = target.change.old.as_i64().expect("hp");
    let new = target.change.new.as_i64().expect("hp");
    assert_eq!(number(&host, "amount"), old - new, "the writer's locals");
    assert_eq!(number(&host, "target.hp"), new, "the write has just been made");
    host.send(Command::Debug(DebugCommand::Continue));
    let after = wait_for(&host, |s| s.state == RuntimeState::Running && s.debug.pause.is_none());
    let position = after.play.recording.expect("still the recorded session");
    assert_eq!(position.at, target.mark + 1, "the rest of that turn replayed");
    assert!(after.debug.watches.is_empty(), "the watch that stopped there is gone");
}

#[test]
fn a_hotload_that_changes_a_prototypes_default_fires_named_as_the_hotload() {
    let copy = nefia_tests::DemoCopy::new();
    let charas = copy.mod_file("elona/content/charas.lua");
    let host = nefia_tests::host::spawn(&copy.project());
    eval(&host, "c = Chara.create('elona.putit', 3, 3)");
    assert_eq!(eval(&host, "Debug.watch(c, 'strength') return c.strength"), values(&["2"]));
    let text = std::fs::read_to_string(&charas).unwrap();
    let stronger = text.replacen("   strength = 2,", "   strength = 5,", 1);
    assert_ne!(text, stronger, "the putit's strength is in the file");
    nefia_tests::write(&charas, stronger).unwrap();
    host.send(Command::Mods(ModCommand::Reload(charas.clone())));
    let (reason, file, ..) = stopped(&host, "strength 2 → 5");
    assert!(reason.ends_with(&format!("strength 2 → 5 at the hotload of {}", charas.display())), "{reason}");
    assert!(file.contains("hotload"), "{file}");
    host.send(Command::Debug(DebugCommand::Continue));
    wait_for(&host, |s| s.state == RuntimeState::Running);
    assert_eq!(eval(&host, "c.strength"), values(&["5"]));
}

#[test]
fn keys_do_not_reach_the_game_while_it_is_stopped_at_a_breakpoint() {
    let host = demo();
    let turn = number(&host, "World.turn()");
    host.send(Command::Repl(ReplCommand::Eval { id: 9, code: "pause() return World.turn()".into() }));
    wait_for(&host, |s| s.state == RuntimeState::Paused);
    host.send(Command::Input(nefia_game::display::Input::Key("period".into())));
    let mut seen = Vec::new();
    let refused = nefia_tests::host::event(&host, &mut seen, |e| match e {
        nefia_protocol::message::HostEvent::Refused(refused) => Some(refused.message.clone()),
        _ => None,
    });
    assert!(refused.contains("stopped at a breakpoint"), "{refused}");
    host.send(Command::Debug(DebugCommand::Continue));
    assert_eq!(answer(&host, 9, &mut seen), values(&[&turn.to_string()]), "no turn passed while it was stopped");
}
