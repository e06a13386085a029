//! `nefia dap` driven over stdio as a code editor drives it: initialize, breakpoints (plain,
//! conditional, logpoints) in `mods/elona/game/rules.lua`, launch a script, stop with the
//! right locals, step, evaluate in a frame, set a variable, complete, list the loaded
//! sources, stop on an error in a handler, pause a script mid-loop, and the program's end; and
//! every malformed or out-of-order message answered with an error while the session goes on.

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value as Json, json};

#[path = "dap/client.rs"]
mod client;
use client::{Client, PATIENCE};

fn repo() -> PathBuf {
    nefia_tests::repo_root()
}

fn rules() -> PathBuf {
    repo().join("mods/elona/game/rules.lua")
}

/// Writes a script into `dir` and returns its path.
fn script(dir: &Path, text: &str) -> PathBuf {
    let path = dir.join("script.lua");
    nefia_tests::write(&path, text).expect("the script is written");
    path
}

/// Starts a session launching `program` on the demo, with `breakpoints` set in rules.lua
/// before configuration is done.
fn launched(program: &Path, breakpoints: Json) -> Client {
    launched_with(program, breakpoints, json!({}))
}

/// [`launched`], with `more` launch arguments.
fn launched_with(program: &Path, breakpoints: Json, more: Json) -> Client {
    let mut client = Client::start();
    let capabilities = client.ok("initialize", json!({ "adapterID": "nefia", "linesStartAt1": true }));
    assert_eq!(capabilities["supportsConditionalBreakpoints"], true);
    assert_eq!(capabilities["supportsLogPoints"], true);
    client.event("initialized");
    let mut arguments = json!({ "program": program, "project": repo().join("projects/demo") });
    if let (Some(arguments), Some(more)) = (arguments.as_object_mut(), more.as_object()) {
        arguments.extend(more.clone());
    }
    client.ok("launch", arguments);
    let set = client.ok("setBreakpoints", json!({ "source": { "path": rules() }, "breakpoints": breakpoints }));
    assert!(set["breakpoints"].as_array().expect("a list").iter().all(|b| b["verified"] == true), "{set}");
    client.ok("setExceptionBreakpoints", json!({ "filters": ["uncaught"] }));
    client.ok("configurationDone", json!({}));
    client
}

const DAMAGE: &str = "local R = require('mod.elona.game.rules')\n\
                      local c = Chara.create('elona.putit', 3, 3)\n\
                      c.hp = 50\n\
                      R.damage(c, 3)\n\
                      R.damage(c, 7)\n\
                      print('hp is ' .. c.hp)\n";

#[test]
fn a_launched_script_stops_at_breakpoints_in_a_mod_with_its_locals_and_steps() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let program = script(dir.path(), DAMAGE);
    // rules.lua 37: `target.hp = target.hp - amount` in Rules.damage.
    let mut client = launched(&program, json!([{ "line": 37 }]));
    let stopped = client.event("stopped");
    assert_eq!(stopped["body"]["reason"], "breakpoint");
    let (name, path, line) = client.top();
    assert_eq!((name.as_str(), line), ("damage", 37));
    assert!(path.ends_with("mods/elona/game/rules.lua") && Path::new(&path).is_absolute(), "{path}");
    assert_eq!(client.local("amount"), "3");

    // The caller's frame is the script, by its path.
    let trace = client.ok("stackTrace", json!({ "threadId": 1 }));
    assert!(trace["stackFrames"][1]["source"]["path"].as_str().is_some_and(|p| p.ends_with("script.lua")), "{trace}");
    let evaluated = client.ok("evaluate", json!({ "expression": "amount * 2", "frameId": 1, "context": "hover" }));
    assert_eq!(evaluated["result"], "6");
    let caller = client.ok("evaluate", json!({ "expression": "c.hp", "frameId": 2, "context": "watch" }));
    assert_eq!(caller["result"], "50", "evaluated among the script's locals");

    // Over to line 38, where hp is written.
    client.ok("next", json!({ "threadId": 1 }));
    assert_eq!(client.event("stopped")["body"]["reason"], "step");
    assert_eq!(client.top().2, 38);
    assert_eq!(client.ok("evaluate", json!({ "expression": "target.hp", "frameId": 1 }))["result"], "47");

    // In, into Rules.name; out, back to damage.
    client.ok("stepIn", json!({ "threadId": 1 }));
    client.event("stopped");
    assert_eq!(client.top().0, "name");
    client.ok("stepOut", json!({ "threadId": 1 }));
    client.event("stopped");
    assert_eq!(client.top().0, "damage");

    // The second hit; setting amount there changes what is taken off.
    client.ok("continue", json!({ "threadId": 1 }));
    client.event("stopped");
    assert_eq!(client.local("amount"), "7");
    let scopes = client.ok("scopes", json!({ "frameId": 1 }));
    let locals = scopes["scopes"][0]["variablesReference"].clone();
    let set = client.ok("setVariable", json!({ "variablesReference": locals, "name": "amount", "value": "1" }));
    assert_eq!(set["value"], "1");
    let completions = client.ok("completions", json!({ "text": "amo", "column": 4, "frameId": 1 }));
    assert!(completions["targets"].as_array().expect("targets").iter().any(|t| t["text"] == "amount"), "{completions}");
    let sources = client.ok("loadedSources", json!({}));
    assert!(
        sources["sources"]
            .as_array()
            .expect("sources")
            .iter()
            .any(|s| s["path"].as_str().is_some_and(|p| p.ends_with("mods/elona/game/rules.lua"))),
        "every mod file is listed"
    );

    client.ok("continue", json!({ "threadId": 1 }));
    assert_eq!(client.event("exited")["body"]["exitCode"], 0);
    client.event("terminated");
    assert!(client.output().contains("hp is 46"), "50 - 3 - 1: {}", client.output());
    client.ok("disconnect", json!({}));
}

/// A launched game starts at configurationDone with the breakpoints set by then, so the mod
/// files that have them load with the debugger's probes: no hook runs while they do not (the
/// script sees none); with `"probes": false` the call hook follows them instead.
#[test]
fn a_launched_game_loads_files_with_breakpoints_with_probes_unless_asked_not_to() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let program = script(dir.path(), "print('hook: ' .. tostring((select(2, debug.gethook()))))\n");
    for (probes, seen) in [(true, "hook: nil"), (false, "hook: c")] {
        let mut client = launched_with(&program, json!([{ "line": 37 }]), json!({ "probes": probes }));
        assert_eq!(client.event("exited")["body"]["exitCode"], 0);
        assert!(client.output().contains(seen), "probes {probes}: {}", client.output());
        client.ok("disconnect", json!({}));
    }
}

/// A breakpoint set before the launched game starts is bound by the game when it does: one on
/// a comment line moves to the next line that runs, and the client is told.
#[test]
fn a_breakpoint_set_before_the_game_starts_is_moved_to_a_line_that_runs_and_the_client_told() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let program = script(dir.path(), DAMAGE);
    // rules.lua 35 is the doc comment of Rules.damage; 37 its first line that runs.
    let mut client = launched(&program, json!([{ "line": 35 }]));
    let moved = client.event("breakpoint");
    assert_eq!(
        (moved["body"]["reason"].as_str(), moved["body"]["breakpoint"]["line"].as_u64()),
        (Some("changed"), Some(37))
    );
    let stopped = client.event("stopped");
    assert_eq!(stopped["body"]["reason"], "breakpoint");
    assert_eq!(client.top().2, 37);
    client.ok("disconnect", json!({}));
}

/// A launched script steps back by running again (clocks, RNG as recorded): 38 back to 37, hp
/// not written yet; reverse continue to the first hit; refused once the file is edited; its end.
#[test]
fn a_launched_script_steps_back_and_reverse_continues_by_running_again() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let program = script(dir.path(), DAMAGE);
    let mut client = launched(&program, json!([{ "line": 37 }]));
    client.event("stopped");
    client.ok("next", json!({ "threadId": 1 }));
    client.event("stopped");
    assert_eq!(client.top().2, 38);
    assert_eq!(client.ok("evaluate", json!({ "expression": "target.hp", "frameId": 1 }))["result"], "47");

    client.ok("stepBack", json!({ "threadId": 1 }));
    assert_eq!(client.event("stopped")["body"]["reason"], "step");
    assert_eq!(client.top().2, 37);
    assert_eq!(
        client.ok("evaluate", json!({ "expression": "target.hp", "frameId": 1 }))["result"],
        "50",
        "before the write"
    );

    client.ok("continue", json!({ "threadId": 1 }));
    assert_eq!(client.event("stopped")["body"]["reason"], "breakpoint");
    assert_eq!(client.local("amount"), "7", "the second hit");
    client.ok("reverseContinue", json!({ "threadId": 1 }));
    assert_eq!(client.event("stopped")["body"]["reason"], "breakpoint");
    assert_eq!(client.local("amount"), "3", "back at the first hit");

    // The script edited since it ran: a replay would run the new text, so no step back.
    nefia_tests::write(&program, format!("{DAMAGE}print('edited')\n")).expect("written");
    let refused = client.refused("stepBack", json!({ "threadId": 1 }));
    assert!(refused.contains("script.lua changed since it ran"), "{refused}");
    assert_eq!(client.local("amount"), "3", "still at the break");

    client.ok("setBreakpoints", json!({ "source": { "path": rules() }, "breakpoints": [] }));
    client.ok("continue", json!({ "threadId": 1 }));
    assert_eq!(client.event("exited")["body"]["exitCode"], 0);
    assert!(client.output().contains("hp is 40"), "50 - 3 - 7: {}", client.output());
}

#[test]
fn pause_stops_a_script_in_the_middle_of_its_loop() {
    let dir = tempfile::tempdir().expect("a temp dir");
    // The script says it loops from inside the loop (lines 2 to 4), so a pause sent after the
    // word, however late, lands in it.
    let program = script(
        dir.path(),
        "local total = 0\nfor i = 1, 1e12 do\n  total = total + i\n  if i == 1000 then print('looping') end\nend\n",
    );
    let mut client = launched(&program, json!([]));
    let deadline = Instant::now() + PATIENCE;
    while !client.output().contains("looping") {
        assert!(Instant::now() < deadline, "the script never began");
        std::thread::sleep(Duration::from_millis(20));
    }
    client.ok("pause", json!({ "threadId": 1 }));
    assert_eq!(client.event("stopped")["body"]["reason"], "pause");
    let (_, path, line) = client.top();
    assert!(path.ends_with("script.lua") && (2..=4).contains(&line), "{path}:{line}");
    assert!(client.local("total").parse::<f64>().is_ok_and(|total| total > 0.0), "the loop had run");
    client.ok("disconnect", json!({ "terminateDebuggee": true }));
}

#[test]
fn a_breakpoint_in_a_file_not_loaded_yet_binds_when_it_loads() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let program = script(dir.path(), DAMAGE);
    let mut client = Client::start();
    client.ok("initialize", json!({ "adapterID": "nefia" }));
    client.event("initialized");
    client.ok("launch", json!({ "program": program, "project": repo().join("projects/demo") }));
    // The script loads only once configuration is done.
    let set = client.ok("setBreakpoints", json!({ "source": { "path": program }, "breakpoints": [{ "line": 6 }] }));
    assert!(
        set["breakpoints"][0]["message"].as_str().is_some_and(|m| m.contains("binds when the file loads")),
        "{set}"
    );
    client.ok("configurationDone", json!({}));
    assert_eq!(client.event("stopped")["body"]["reason"], "breakpoint");
    let (_, path, line) = client.top();
    assert!(path.ends_with("script.lua") && line == 6, "{path}:{line}");
    client.ok("continue", json!({ "threadId": 1 }));
    assert_eq!(client.event("exited")["body"]["exitCode"], 0);
}

#[test]
fn the_adapter_serves_a_session_on_a_loopback_port() {
    use std::net::TcpStream;
    let mut child = Command::new(env!("CARGO_BIN_EXE_nefia"))
        .args(["dap", "--port", "0"])
        .stdout(Stdio::piped())
        .spawn()
        .expect("nefia dap starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout")).read_line(&mut line).expect("the address");
    let address = line.trim().rsplit(' ').next().expect("an address").to_owned();
    let mut stream = TcpStream::connect(&address).expect("connects");
    stream.set_read_timeout(Some(PATIENCE)).expect("a timeout");
    let body = json!({ "seq": 1, "type": "request", "command": "initialize", "arguments": { "adapterID": "nefia" } })
        .to_string();
    stream.write_all(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes()).expect("sent");
    let mut reader = BufReader::new(stream);
    let mut length = 0;
    loop {
        let mut header = String::new();
        reader.read_line(&mut header).expect("a header");
        if header.trim().is_empty() {
            break;
        }
        length = header.trim().trim_start_matches("Content-Length: ").parse().unwrap_or(length);
    }
    let mut response = vec![0; length];
    reader.read_exact(&mut response).expect("the response");
    let response: Json = serde_json::from_slice(&response).expect("JSON");
    assert_eq!((response["command"].clone(), response["success"].clone()), (json!("initialize"), json!(true)));
    assert_eq!(response["body"]["supportsStepBack"], true);
    let _ = child.kill();
    let _ = child.wait();
}

#[test]
fn conditional_breakpoints_and_logpoints_through_the_adapter() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let program = script(dir.path(), DAMAGE);
    let mut client = launched(
        &program,
        json!([
            { "line": 37, "condition": "amount > 5" },
            { "line": 38, "logMessage": "took {amount}" },
        ]),
    );
    client.event("stopped");
    assert_eq!(client.local("amount"), "7", "the first call (3) did not stop");
    assert!(client.output().contains("took 3"), "the logpoint printed: {}", client.output());
    client.ok("continue", json!({ "threadId": 1 }));
    client.event("terminated");
    let output = client.output();
    assert!(output.contains("took 7") && output.contains("hp is 40"), "{output}");
}

#[test]
fn an_error_in_a_handler_stops_where_it_is_raised() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let program = script(
        dir.path(),
        "Event.register('base.on_damage', 'test.fails', function(_, params)\n\
           local doubled = params.amount * 2\n\
           error('broken handler ' .. doubled)\n\
         end)\n\
         local R = require('mod.elona.game.rules')\n\
         R.damage(Chara.create('elona.putit', 3, 3), 2)\n",
    );
    let mut client = launched(&program, json!([]));
    let stopped = client.event("stopped");
    assert_eq!(stopped["body"]["reason"], "exception");
    assert!(stopped["body"]["text"].as_str().is_some_and(|t| t.contains("broken handler 4")), "{stopped}");
    let (_, path, line) = client.top();
    assert!(path.ends_with("script.lua") && line == 3, "{path}:{line}");
    assert_eq!(client.local("doubled"), "4");
    client.ok("continue", json!({ "threadId": 1 }));
    assert_eq!(client.event("exited")["body"]["exitCode"], 1, "the error ended the script");
    assert!(client.output().contains("broken handler 4"));
}

#[test]
fn malformed_and_out_of_order_messages_get_errors_and_the_session_goes_on() {
    let mut client = Client::start();
    assert!(client.refused("threads", json!({})).contains("before `initialize`"));
    client.write_raw(b"Content-Length: twelve\r\n\r\n");
    let response = client.response(0);
    assert!(response["message"].as_str().is_some_and(|m| m.contains("`twelve` is not a length")), "{response}");
    client.write_raw(b"Content-Length: 9\r\n\r\n{not json");
    let response = client.response(0);
    assert!(response["message"].as_str().is_some_and(|m| m.contains("not JSON")), "{response}");
    client.ok("initialize", json!({ "adapterID": "nefia" }));
    assert!(client.refused("initialize", json!({})).contains("already"));
    assert!(client.refused("flyToTheMoon", json!({})).contains("not a request nefia dap knows"));
    assert!(client.refused("stackTrace", json!({ "threadId": 1 })).contains("launch or attach first"));
    let wrong =
        client.refused("setBreakpoints", json!({ "source": { "path": rules() }, "breakpoints": [{ "line": "x" }] }));
    assert!(wrong.contains("setBreakpoints: bad arguments") && wrong.contains("invalid type"), "{wrong}");
    assert!(client.refused("launch", json!({ "program": "/no/such/file.lua" })).contains("does not exist"));
    assert!(client.refused("launch", json!({})).contains("\"program\""));
    assert!(client.refused("setExceptionBreakpoints", json!({ "filters": ["everything"] })).contains("`uncaught`"));
    // Still answering.
    let threads = client.ok("threads", json!({}));
    assert_eq!(threads["threads"][0]["name"], "game");
    client.ok("disconnect", json!({}));
}

#[test]
fn a_data_breakpoint_on_a_putits_hp_stops_at_the_writing_line_with_old_and_new_values() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let program = script(
        dir.path(),
        "local R = require('mod.elona.game.rules')\n\
         local putit = Chara.create('elona.putit', 3, 3)\n\
         putit.hp = 50\n\
         pause()\n\
         R.damage(putit, 3)\n",
    );
    let mut client = launched(&program, json!([]));
    assert_eq!(client.event("stopped")["body"]["reason"], "pause");
    let scopes = client.ok("scopes", json!({ "frameId": 1 }));
    let locals = client.ok("variables", json!({ "variablesReference": scopes["scopes"][0]["variablesReference"] }));
    let putit =
        locals["variables"].as_array().expect("locals").iter().find(|v| v["name"] == "putit").expect("putit").clone();
    assert_eq!(putit["type"], "object");
    let fields = client.ok("variables", json!({ "variablesReference": putit["variablesReference"] }));
    assert!(fields["variables"].as_array().expect("fields").iter().any(|f| f["name"] == "hp" && f["value"] == "50"));
    let info =
        client.ok("dataBreakpointInfo", json!({ "variablesReference": putit["variablesReference"], "name": "hp" }));
    let data_id = info["dataId"].as_str().expect("hp can be watched").to_owned();
    let set = client.ok("setDataBreakpoints", json!({ "breakpoints": [{ "dataId": data_id }] }));
    assert_eq!(set["breakpoints"][0]["verified"], true);
    client.ok("continue", json!({ "threadId": 1 }));
    let stopped = client.event("stopped");
    assert_eq!(stopped["body"]["reason"], "data breakpoint");
    assert!(stopped["body"]["text"].as_str().is_some_and(|t| t.contains("hp 50 → 47")), "old and new: {stopped}");
    let (name, path, line) = client.top();
    assert_eq!((name.as_str(), line), ("damage", 37));
    assert!(path.ends_with("rules.lua"));
    client.ok("setDataBreakpoints", json!({ "breakpoints": [] }));
    client.ok("continue", json!({ "threadId": 1 }));
    assert_eq!(client.event("exited")["body"]["exitCode"], 0);
}

#[test]
fn attached_to_a_played_game_it_stops_steps_back_and_reverse_continues() {
    use nefia_game::display::Input;
    use nefia_protocol::message::Command as HostCommand;
    let copy = nefia_tests::DemoCopy::new();
    // A game in another process, recording its session (what stepping back replays).
    let game = nefia_tests::remote::serving(nefia_tests::host::spawn(&copy.project()));
    let rules = copy.mod_file("elona/game/rules.lua");
    let mut client = Client::start();
    let capabilities = client.ok("initialize", json!({ "adapterID": "nefia" }));
    assert_eq!(capabilities["supportsStepBack"], true);
    client.event("initialized");
    client.ok("attach", json!({ "address": game.address.to_string(), "token": game.token }));
    // Rules.step: 92 `local map = ...`, 93 `local x, y = ...`, 94 `if not map:is_in_bounds`.
    let set = client.ok("setBreakpoints", json!({ "source": { "path": rules }, "breakpoints": [{ "line": 92 }] }));
    assert_eq!(set["breakpoints"][0]["verified"], true);
    client.ok("configurationDone", json!({}));
    // The player presses a key in the game's own window.
    game.host.send(HostCommand::Input(Input::Key("right".into())));
    assert_eq!(client.event("stopped")["body"]["reason"], "breakpoint");
    assert_eq!(client.top().2, 92);
    for line in [93, 94] {
        client.ok("next", json!({ "threadId": 1 }));
        client.event("stopped");
        assert_eq!(client.top().2, line);
    }
    client.ok("stepBack", json!({ "threadId": 1 }));
    let stopped = client.event("stopped");
    assert_eq!(stopped["body"]["reason"], "step", "{stopped} after {:#?}", client.events);
    assert_eq!(client.top().2, 93, "the line before");
    assert!(!client.locals(1).iter().any(|(name, _)| name == "x"), "x is not made yet there");
    client.ok("reverseContinue", json!({ "threadId": 1 }));
    assert_eq!(client.event("stopped")["body"]["reason"], "breakpoint");
    assert_eq!(client.top().2, 92, "back at the breakpoint's hit");
    client.ok(
        "setBreakpoints",
        json!({ "source": { "path": copy.mod_file("elona/game/rules.lua") }, "breakpoints": [] }),
    );
    client.ok("continue", json!({ "threadId": 1 }));
    // Disconnecting leaves the game running.
    client.ok("disconnect", json!({}));
    assert!(!game.host.ended(), "the game goes on");
}

#[test]
fn a_launched_recording_replays_its_inputs_and_stops_at_breakpoints_on_the_way() {
    let mut client = Client::start();
    client.ok("initialize", json!({ "adapterID": "nefia" }));
    client.event("initialized");
    let recording = repo().join("projects/demo/recordings/tests/walk-and-kill.ron");
    client.ok("launch", json!({ "recording": recording, "project": repo().join("projects/demo") }));
    // Rules.step's first line: every move of the recording runs it.
    client.ok("setBreakpoints", json!({ "source": { "path": rules() }, "breakpoints": [{ "line": 92 }] }));
    client.ok("configurationDone", json!({}));
    assert_eq!(client.event("stopped")["body"]["reason"], "breakpoint");
    assert_eq!(client.top().2, 92);
    assert!(client.locals(1).iter().any(|(name, _)| name == "dx"), "Rules.step's locals");
    let turn = |client: &mut Client| {
        client.ok("evaluate", json!({ "expression": "World.turn()", "frameId": 1 }))["result"].clone()
    };
    let first_turn = turn(&mut client);
    // On to the next move's hit, then back to this one across the turn between.
    client.ok("continue", json!({ "threadId": 1 }));
    assert_eq!(client.event("stopped")["body"]["reason"], "breakpoint");
    assert_ne!(turn(&mut client), first_turn, "the next hit is in a later turn");
    client.ok("reverseContinue", json!({ "threadId": 1 }));
    assert_eq!(client.event("stopped")["body"]["reason"], "breakpoint");
    assert_eq!(client.top().2, 92);
    assert_eq!(turn(&mut client), first_turn, "back in the first hit's turn");
    client.ok("setBreakpoints", json!({ "source": { "path": rules() }, "breakpoints": [] }));
    client.ok("continue", json!({ "threadId": 1 }));
    assert_eq!(client.event("exited")["body"]["exitCode"], 0, "the replay ran to its end");
    client.event("terminated");
}

#[test]
fn a_breakpoint_moves_with_its_line_when_its_file_is_hotloaded() {
    let copy = nefia_tests::DemoCopy::new();
    let rules = copy.mod_file("elona/game/rules.lua");
    let dir = tempfile::tempdir().expect("a temp dir");
    let program = script(
        dir.path(),
        "local R = require('mod.elona.game.rules')\npause()\nR.damage(Chara.create('elona.putit', 3, 3), 1)\n",
    );
    let mut client = Client::start();
    client.ok("initialize", json!({ "adapterID": "nefia" }));
    client.event("initialized");
    client.ok("launch", json!({ "program": program, "project": copy.project() }));
    let set = client.ok("setBreakpoints", json!({ "source": { "path": rules }, "breakpoints": [{ "line": 37 }] }));
    let id = set["breakpoints"][0]["id"].clone();
    client.ok("configurationDone", json!({}));
    assert_eq!(client.event("stopped")["body"]["reason"], "pause");
    // Two lines added at the top of rules.lua, saved: the game reloads it.
    let text = std::fs::read_to_string(&rules).expect("rules.lua");
    nefia_tests::write(&rules, format!("-- one\n-- two\n{text}")).expect("written");
    let moved = client.event("breakpoint");
    assert_eq!(moved["body"]["reason"], "changed");
    assert_eq!(
        (moved["body"]["breakpoint"]["id"].clone(), moved["body"]["breakpoint"]["line"].clone()),
        (id, json!(39))
    );
    client.ok("continue", json!({ "threadId": 1 }));
    assert_eq!(client.event("stopped")["body"]["reason"], "breakpoint");
    assert_eq!(client.top().2, 39, "the moved breakpoint stops on the line it moved with");
    client.ok("continue", json!({ "threadId": 1 }));
    assert_eq!(client.event("exited")["body"]["exitCode"], 0);
}

#[test]
fn a_message_over_16_mib_is_refused_naming_the_limit_and_the_adapter_ends() {
    let mut client = Client::start();
    client.ok("initialize", json!({ "adapterID": "nefia" }));
    // The header alone, stdin left open: the adapter must not wait for the body.
    client.write_raw(b"Content-Length: 99999999999\r\n\r\n");
    let response = client.response(0);
    assert_eq!(response["success"], false);
    let message = response["message"].as_str().unwrap_or_default();
    assert!(message.contains("99999999999 bytes") && message.contains("16 MiB"), "{response}");
    client.event("terminated");
    let deadline = Instant::now() + PATIENCE;
    let status = loop {
        if let Some(status) = client.child.try_wait().expect("the adapter's status") {
            break status;
        }
        assert!(Instant::now() < deadline, "the adapter still runs after a message it cannot read past");
        std::thread::sleep(Duration::from_millis(20));
    };
    assert_eq!(status.code(), Some(1), "it ends with an error");
}

#[test]
fn set_variable_on_an_objects_field_keeps_the_object_rules() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let program = script(
        dir.path(),
        "local putit = Chara.create('elona.putit', 3, 3)\n\
         local uid = putit.uid\n\
         pause()\n\
         print('at ' .. putit.x .. ',' .. putit.y .. ' hp ' .. putit.hp .. ' same uid ' .. tostring(putit.uid == uid) \
         .. ' indexed ' .. tostring(Chara.at(5, 3) == putit and Chara.at(3, 3) == nil))\n",
    );
    let mut client = launched(&program, json!([]));
    assert_eq!(client.event("stopped")["body"]["reason"], "pause");
    let scopes = client.ok("scopes", json!({ "frameId": 1 }));
    let locals = client.ok("variables", json!({ "variablesReference": scopes["scopes"][0]["variablesReference"] }));
    let putit = locals["variables"].as_array().expect("locals").iter().find(|v| v["name"] == "putit").cloned();
    let reference = putit.expect("putit")["variablesReference"].clone();
    let set = |name: &str, value: &str| json!({ "variablesReference": reference, "name": name, "value": value });
    for (field, advice) in [("uid", "clone()"), ("location", "take_object"), ("_id", "change_prototype")] {
        let refused = client.refused("setVariable", set(field, "5"));
        assert!(refused.ends_with(&format!("'{field}' is a reserved field name on map objects.")), "{refused}");
        assert!(refused.contains(advice), "{refused}");
    }
    let refused = client.refused("setVariable", set("x", "'far'"));
    assert!(refused.contains("whole number"), "{refused}");
    assert_eq!(client.ok("setVariable", set("x", "5"))["value"], "5", "x is a move");
    assert_eq!(client.ok("setVariable", set("hp", "7"))["value"], "7");
    client.ok("continue", json!({ "threadId": 1 }));
    assert_eq!(client.event("exited")["body"]["exitCode"], 0);
    let output = client.output();
    assert!(output.contains("at 5,3 hp 7 same uid true indexed true"), "{output}");
}

/// Every path the adapter sends is absolute and normalised (no `..`, no symlink), so clients
/// that compare paths match it to the open file; a client's path with `..` or through a
/// symlink binds to the same file.
#[test]
fn paths_sent_are_normalised_and_a_path_with_dots_or_through_a_symlink_binds() {
    let dir = tempfile::tempdir().expect("a temp dir");
    let program = script(dir.path(), DAMAGE);
    let link = dir.path().join("rules-link.lua");
    std::os::unix::fs::symlink(rules(), &link).expect("a symlink");
    let dotted = repo().join("projects/demo/../../mods/elona/game/rules.lua");
    let canonical = rules().canonicalize().expect("rules.lua");
    for client_path in [dotted, link] {
        let mut client = Client::start();
        client.ok("initialize", json!({ "adapterID": "nefia", "linesStartAt1": true }));
        client.event("initialized");
        // The project through `..` too: the game's own paths start there.
        let project = repo().join("editor/../projects/demo");
        client.ok("launch", json!({ "program": program, "project": project }));
        let set =
            client.ok("setBreakpoints", json!({ "source": { "path": client_path }, "breakpoints": [{ "line": 37 }] }));
        assert_eq!(set["breakpoints"][0]["verified"], true, "{set}");
        client.ok("configurationDone", json!({}));
        assert_eq!(client.event("stopped")["body"]["reason"], "breakpoint", "{client_path:?} binds");
        let trace = client.ok("stackTrace", json!({ "threadId": 1 }));
        for frame in trace["stackFrames"].as_array().expect("frames") {
            let Some(path) = frame["source"]["path"].as_str() else { continue };
            assert!(Path::new(path).is_absolute() && !path.contains(".."), "{path}");
            assert_eq!(Path::new(path).canonicalize().ok().as_deref(), Some(Path::new(path)), "normalised: {path}");
        }
        assert_eq!(trace["stackFrames"][0]["source"]["path"].as_str(), canonical.to_str());
        let sources = client.ok("loadedSources", json!({}));
        let listed: Vec<&str> =
            sources["sources"].as_array().expect("sources").iter().filter_map(|s| s["path"].as_str()).collect();
        assert!(listed.contains(&canonical.to_str().expect("utf-8")), "{listed:?}");
        assert!(listed.iter().all(|p| !p.contains("..")), "{listed:?}");
    }
}
