//! The runtime thread survives a panic: `Fault` (compiled only for tests) panics inside a
//! command; the host reports it, keeps or puts back the world, and the editor can still save.
//! When the world is inconsistent and too large to have been copied, the runtime stops and
//! writes the unsaved maps beside their files.

use nefia_host::HostHandle;
use nefia_protocol::debugging::ReplCommand;
use nefia_protocol::maps::MapCommand;
use nefia_protocol::message::{Command, HostEvent, PanicReport};
use nefia_protocol::play::PlayCommand;
use nefia_protocol::repl::Evaluation;
use nefia_protocol::view::RuntimeState;
use nefia_tests::DemoCopy;
use nefia_tests::host::{eval, event, spawn_editing, wait_for};

fn value(host: &HostHandle, code: &str) -> String {
    match eval(host, code) {
        Evaluation::Values(values) => values.join(", "),
        other => panic!("{code}: {other:?}"),
    }
}

fn panic_report(host: &HostHandle, code: &str) -> PanicReport {
    host.send(Command::Repl(ReplCommand::Eval { id: 1, code: code.to_owned() }));
    event(host, &mut Vec::new(), |e| match e {
        HostEvent::Panicked(report) => Some(report.clone()),
        _ => None,
    })
}

/// The tile at (x, y) of the map file `path`.
fn tile_in_file(path: &std::path::Path, x: usize, y: usize) -> String {
    let text = std::fs::read_to_string(path).unwrap();
    let record: nefia_game::save::MapRecord = nefia_game::files::parse_ron(path, &text).unwrap();
    let width = record.palette.keys().next().unwrap().chars().count();
    let row: Vec<char> = record.tiles[y].chars().collect();
    let code: String = row[x * width..(x + 1) * width].iter().collect();
    record.palette[&code].to_string()
}

/// Paints a tile of the town (a change not yet saved) and returns the host.
fn dirty_town(copy: &DemoCopy) -> HostHandle {
    let host = spawn_editing(&copy.project());
    value(&host, "Map.current():set_tile(1, 1, 'elona.water')");
    wait_for(&host, |s| s.maps.files.iter().any(|m| m.name == "town" && m.dirty));
    host
}

#[test]
fn a_panic_is_reported_the_world_kept_and_a_dirty_map_still_saves() {
    let copy = DemoCopy::new();
    let host = dirty_town(&copy);
    let report = panic_report(&host, "Fault.panic('boom in a handler')");
    assert!(!report.fatal);
    assert!(report.message.contains("a panic in eval: boom in a handler"), "{}", report.message);
    assert!(report.message.contains("the world is consistent"), "{}", report.message);
    let snapshot = wait_for(&host, |s| s.fault.is_some());
    assert!(snapshot.fault.as_deref().is_some_and(|f| f.contains("boom in a handler")));
    assert_eq!(host.busy_for(), None, "nothing stays busy");
    assert_eq!(value(&host, "Map.current():tile(1, 1)"), "\"elona.water\"", "the world is kept");

    host.send(Command::Maps(MapCommand::SaveAll));
    wait_for(&host, |s| s.maps.files.iter().all(|m| !m.dirty));
    assert_eq!(tile_in_file(&copy.project().join("maps/town.ron"), 1, 1), "elona.water", "the edit is saved");
}

#[test]
fn an_inconsistent_world_is_put_back_as_it_was_before_the_command() {
    let copy = DemoCopy::new();
    let host = dirty_town(&copy);
    let uid = value(&host, "for _, c in Chara.iter() do return c.uid end");
    let x = value(&host, &format!("return World.object({uid}).x"));
    let report =
        panic_report(&host, &format!("World.object({uid}).hp = 1 Fault.corrupt_and_panic({uid}, 'bent index')"));
    assert!(!report.fatal);
    assert!(report.message.contains("the world was inconsistent"), "{}", report.message);
    assert!(report.message.contains("put back as it was before the command"), "{}", report.message);
    assert_eq!(value(&host, &format!("return World.object({uid}).x")), x, "the position is back");
    assert_ne!(value(&host, &format!("return World.object({uid}).hp")), "1", "what the command did is undone");
    assert_eq!(value(&host, "Map.current():tile(1, 1)"), "\"elona.water\"", "earlier edits stay");
}

#[test]
fn when_the_runtime_cannot_go_on_unsaved_maps_are_recovered_beside_their_files() {
    let copy = DemoCopy::new();
    let host = dirty_town(&copy);
    // A world too large to copy before every command: its inconsistency cannot be undone.
    value(&host, "big = InstancedMap:new(2100, 2100)");
    let uid = value(&host, "for _, c in Chara.iter() do return c.uid end");
    let report = panic_report(&host, &format!("Fault.corrupt_and_panic({uid}, 'bent index')"));
    assert!(report.fatal, "{}", report.message);
    let recovered = copy.project().join("maps/town.ron.recovered");
    assert_eq!(report.recovered, std::slice::from_ref(&recovered));
    assert!(report.message.contains("town.ron.recovered"), "the user is told where: {}", report.message);
    assert_eq!(tile_in_file(&recovered, 1, 1), "elona.water", "the unsaved edit is in it");
    let snapshot = wait_for(&host, |s| s.state == RuntimeState::Failed);
    assert!(snapshot.problem.as_deref().is_some_and(|p| p.contains("town.ron.recovered")));
    assert_eq!(host.busy_for(), None, "nothing stays busy");
    host.send(Command::Maps(MapCommand::SaveAll));
    let refusal = event(&host, &mut Vec::new(), |e| match e {
        HostEvent::Refused(refused) => {
            assert_eq!(refused.kind, nefia_protocol::message::RefusalKind::Unavailable);
            Some(refused.message.clone())
        }
        _ => None,
    });
    assert!(refusal.contains("town.ron.recovered"), "{refusal}");
    assert_eq!(tile_in_file(&copy.project().join("maps/town.ron"), 1, 1), "elona.grass", "the map file is left alone");
}

#[test]
fn a_game_broken_while_playing_ends_and_the_edit_state_comes_back() {
    let copy = DemoCopy::new();
    let host = dirty_town(&copy);
    host.send(Command::Play(PlayCommand::Start(nefia_protocol::play::PlayFrom::Start)));
    wait_for(&host, |s| s.play.playing && s.player.is_some());
    let uid = value(&host, "return Chara.player().uid");
    let report = panic_report(&host, &format!("Fault.corrupt_and_panic({uid}, 'bent index')"));
    assert!(!report.fatal, "{}", report.message);
    assert!(report.message.contains("the played game was inconsistent"), "{}", report.message);
    assert!(report.message.contains("the edit state is back"), "{}", report.message);
    let snapshot = wait_for(&host, |s| !s.play.playing);
    assert_ne!(snapshot.state, RuntimeState::Failed);
    assert_eq!(value(&host, "Map.current():tile(1, 1)"), "\"elona.water\"", "the unsaved edit is kept");
    host.send(Command::Maps(MapCommand::SaveAll));
    wait_for(&host, |s| s.maps.files.iter().all(|m| !m.dirty));
    assert_eq!(tile_in_file(&copy.project().join("maps/town.ron"), 1, 1), "elona.water", "and it saves");
}
