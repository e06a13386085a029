//! Attaching to a game in another process (`HostHandle::attach`, what `nefia edit --attach`
//! and File → Attach to game… use): the attached handle mirrors the game's whole snapshot and
//! sends it the editor's own commands, so every pane works as on the embedded game.

use std::sync::Arc;
use std::time::{Duration, Instant};

use nefia_game::edit::Edit;
use nefia_game::value::Value;
use nefia_host::{AttachError, HostHandle};
use nefia_protocol::debugging::{DebugCommand, ReplCommand};
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::message::Command;
use nefia_protocol::play::PlayCommand;
use nefia_protocol::repl::Evaluation;
use nefia_tests::DemoCopy;
use nefia_tests::host::{answer, eval, wait_for};
use nefia_tests::remote::{Served, served, serving};

fn attach(game: &Served) -> HostHandle {
    HostHandle::attach(&game.address.to_string(), &game.token, Arc::new(|| {})).expect("the editor attaches")
}

fn values(evaluation: Evaluation) -> Vec<String> {
    match evaluation {
        Evaluation::Values(values) => values,
        other => panic!("not values: {other:?}"),
    }
}

#[test]
fn an_attached_handle_mirrors_the_game_and_drives_it_as_the_embedded_one_does() {
    // A copy of the demo: its play sessions are recorded, so they can be stepped back.
    let copy = DemoCopy::new();
    let game = serving(nefia_tests::host::spawn(&copy.project()));
    let editor = attach(&game);
    assert_eq!(editor.attached_to(), Some(game.address.to_string().as_str()));
    let mirrored = wait_for(&editor, |s| s.map.is_some() && s.play.playing && s.player.is_some());
    let own = game.host.snapshot();
    assert_eq!((&mirrored.project, mirrored.turn, mirrored.player), (&own.project, own.turn, own.player));
    assert_eq!(mirrored.project_dir, copy.project(), "the editor can read the project's files");
    let (map, own_map) = (mirrored.map.as_ref().expect("a map"), own.map.as_ref().expect("a map"));
    assert_eq!((map.id, map.width, map.chunks.len()), (own_map.id, own_map.width, own_map.chunks.len()));
    assert!(map.chunks.iter().zip(&own_map.chunks).all(|(a, b)| a.tiles == b.tiles && a.objects == b.objects));
    assert!(!mirrored.mods.data.is_empty() && !mirrored.locations.maps.is_empty(), "every pane's data comes");

    // The REPL.
    assert_eq!(values(eval(&editor, "return 6 * 7")), ["42"]);

    // The Inspector: base, temp and calc of the player, and an edit that undoes.
    let player = mirrored.player.expect("a player");
    editor.send(Command::Editing(EditingCommand::Inspect(vec![player])));
    let inspected = wait_for(&editor, |s| s.editing.inspected.iter().any(|d| d.uid == player));
    let details = inspected.editing.inspected.iter().find(|d| d.uid == player).expect("inspected");
    assert!(details.fields.iter().any(|f| f.name == "max_hp"), "the fields come with the details");
    let edit = Edit::SetBase { uids: vec![player], field: "max_hp".into(), value: Value::Int(999) };
    editor.send(Command::Editing(EditingCommand::Edit(edit)));
    wait_for(&editor, |s| s.editing.history.labels.iter().any(|l| l.contains("max_hp")));
    assert_eq!(values(eval(&game.host, "return Chara.player().max_hp")), ["999"], "the game's own world changed");
    editor.send(Command::Editing(EditingCommand::Undo));
    wait_for(&editor, |s| s.editing.history.done == 0);
    assert_ne!(values(eval(&game.host, "return Chara.player().max_hp")), ["999"], "and undid");

    // Keys play turns (a wall may be in the way of one); step back goes back one.
    let turn = mirrored.turn;
    let moved = ["right", "down", "left", "up"].into_iter().find_map(|key| {
        editor.send(Command::Input(nefia_game::display::Input::Key(key.into())));
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            let snapshot = editor.snapshot();
            if snapshot.turn > turn {
                return Some(snapshot);
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        None
    });
    let moved = moved.expect("a key played a turn");
    editor.send(Command::Play(PlayCommand::StepBack));
    wait_for(&editor, |s| s.turn < moved.turn);

    // pause(): the mirror shows where it stopped; Continue answers the evaluation.
    editor.send(Command::Repl(ReplCommand::Eval { id: 90, code: "local x = 41\npause()\nreturn x + 1".into() }));
    let paused = wait_for(&editor, |s| s.debug.pause.is_some());
    assert_eq!(paused.debug.pause.as_ref().expect("paused").line, 2);
    editor.send(Command::Debug(DebugCommand::Continue));
    assert_eq!(values(answer(&editor, 90, &mut Vec::new())), ["42"]);
}

#[test]
fn leaving_lets_the_game_go_on_paused_for_the_next_editor() {
    let game = served();
    let first = attach(&game);
    first.send(Command::Repl(ReplCommand::Eval { id: 5, code: "local x = 41\npause()\nreturn x".into() }));
    wait_for(&first, |s| s.debug.pause.is_some());
    drop(first);
    let second = attach(&game);
    let mirrored = wait_for(&second, |s| s.serial > 0);
    assert!(mirrored.debug.pause.is_some(), "still paused for the next editor");
    assert!(mirrored.play.playing, "leaving did not shut the game down");
    second.send(Command::Debug(DebugCommand::Continue));
    wait_for(&second, |s| s.debug.pause.is_none());
    assert_eq!(values(eval(&second, "return 1")), ["1"], "the game goes on");
}

#[test]
fn a_wrong_token_or_no_game_there_is_an_error_naming_the_address() {
    let game = served();
    let address = game.address.to_string();
    let refused = HostHandle::attach(&address, "guess", Arc::new(|| {})).err().expect("refused");
    assert!(matches!(refused, AttachError::Refused { .. }), "{refused}");
    assert!(refused.to_string().contains(&address) && refused.to_string().contains("token"), "{refused}");
    drop(game);
    let gone = HostHandle::attach(&address, "guess", Arc::new(|| {})).err().expect("nothing listens");
    assert!(matches!(gone, AttachError::Connect { .. }), "{gone}");
    assert!(gone.to_string().contains(&address), "{gone}");
}

#[test]
fn the_attached_editor_learns_when_the_game_goes() {
    let game = served();
    let editor = attach(&game);
    wait_for(&editor, |s| s.map.is_some());
    drop(game);
    let gone = wait_for(&editor, |s| s.problem.is_some());
    assert!(gone.problem.as_deref().is_some_and(|p| p.contains("closed the connection")), "{:?}", gone.problem);
}

#[test]
fn mirror_frames_come_whole_first_then_only_what_changed() {
    use serde_json::{Value as Json, json};
    let game = served();
    let mut client = game.attach();
    assert_eq!(client.result("host.mirror", json!({})), Json::Null);
    let frames = |client: &mut nefia_tests::remote::Client| {
        // Frames sent before this answer are those of what came before it.
        client.result("game.state", json!({}));
        let all = std::mem::take(&mut client.notifications);
        all.into_iter().filter(|(n, _)| n["method"] == "host.frame").collect::<Vec<_>>()
    };
    let first = frames(&mut client);
    let whole: usize = first.iter().map(|(_, bytes)| bytes).sum();
    let (frame, _) = first.first().expect("the first frame follows the subscription");
    let parts = frame["params"]["parts"].as_object().expect("parts");
    assert!(parts.contains_key("mods.data") && parts.contains_key("locations"), "everything the first time");
    assert!(frame["params"]["map"]["chunks"].as_array().is_some_and(|c| c.iter().all(|c| c.get("tiles").is_some())));

    client.result("lua.eval", json!({ "code": "1" }));
    let quiet = frames(&mut client);
    let quiet_bytes: usize = quiet.iter().map(|(_, bytes)| bytes).sum();
    for (frame, _) in &quiet {
        let parts = frame["params"]["parts"].as_object().expect("parts");
        assert!(!parts.contains_key("mods.data") && frame["params"].get("map").is_none(), "{parts:?}");
    }

    client.result("game.input", json!({ "key": "up" }));
    let walked = frames(&mut client);
    let walked_bytes: usize = walked.iter().map(|(_, bytes)| bytes).sum();
    for (frame, _) in &walked {
        for chunk in frame["params"]["map"]["chunks"].as_array().into_iter().flatten() {
            assert!(chunk.get("tiles").is_none(), "the tiles did not change: {chunk}");
        }
    }
    println!("mirror frames: first {whole} B, quiet {quiet_bytes} B, a walking turn {walked_bytes} B");
    assert!(quiet_bytes <= 2048, "{quiet_bytes} bytes where nothing changed");
    assert!(walked_bytes < whole / 2, "a turn sends much less than the whole: {walked_bytes} of {whole}");
}
