//! Art through the runtime: a theme in one mod reskins another mod's tile, switched with
//! `ModCommand::SetThemes`; a Wang-set wall picks its pieces from its neighbours; and "why is
//! this tile here?" names the sprite drawn and why. (Parsing each `image` shape and each
//! refusal is tested in `runtime/game/src/art/`, and bad images in the bad-input corpus.)

use nefia_game::art::Layout;
use nefia_host::HostHandle;
use nefia_protocol::editing::{CellWhy, EditingCommand};
use nefia_protocol::message::{Command, HostEvent};
use nefia_protocol::mods::ModCommand;
use nefia_protocol::view::Snapshot;
use nefia_tests::DemoCopy;
use nefia_tests::host::{eval, event, spawn_editing, wait_for};

/// The sheet the tile at (x, y) of the current map is drawn from, if it has art.
fn sheet_at(snapshot: &Snapshot, x: i32, y: i32) -> Option<String> {
    let style = snapshot.map.as_ref()?.tile_at(x, y)?;
    Some(style.art.as_ref()?.sprites[0].sheet.to_string())
}

/// The sprite the cell (x, y) of the current map picks.
fn pick_at(snapshot: &Snapshot, x: i32, y: i32) -> u16 {
    let map = snapshot.map.as_ref().expect("a map");
    let chunk = map.chunk_at(x, y).expect("on the map");
    let (w, _) = map.chunk_size(chunk.cx, chunk.cy);
    chunk.picks.as_ref().map_or(0, |picks| picks[((y % 16) * w + x % 16) as usize])
}

/// An editing runtime on a demo copy with the art mods, a row of three walls at (1..=3, 1)
/// with grass all around.
fn walled() -> (DemoCopy, HostHandle) {
    let copy = DemoCopy::with_art_mods();
    let host = spawn_editing(&copy.project());
    eval(
        &host,
        "local m = Map.current() for y = 0, 2 do for x = 0, 4 do m:set_tile(x, y, 'art_walls.grass') end end \
         for x = 1, 3 do m:set_tile(x, 1, 'art_walls.wall') end",
    );
    wait_for(&host, |s| sheet_at(s, 2, 1).as_deref() == Some("tiles/walls.png"));
    (copy, host)
}

#[test]
fn a_theme_in_a_second_mod_reskins_the_first_mods_tile_and_switching_back_restores_it() {
    let (_copy, host) = walled();
    let snapshot = host.snapshot();
    let wall = snapshot.map.as_ref().and_then(|m| m.tile_at(2, 1)).and_then(|s| s.art.clone()).unwrap();
    assert_eq!(wall.choice, nefia_game::art::Choice::Set(Layout::Wang16));
    assert_eq!(snapshot.mods.themes(), [("art_night.night".to_owned(), "Night".to_owned())]);

    host.send(Command::Mods(ModCommand::SetThemes(vec!["art_night.night".into()])));
    let themed = wait_for(&host, |s| sheet_at(s, 2, 1).as_deref() == Some("tiles/night.png"));
    assert_eq!(*themed.mods.active_themes, ["art_night.night"]);
    assert_eq!(sheet_at(&themed, 0, 0).as_deref(), Some("tiles/walls.png"), "the theme replaces the wall only");

    host.send(Command::Mods(ModCommand::SetThemes(Vec::new())));
    wait_for(&host, |s| sheet_at(s, 2, 1).as_deref() == Some("tiles/walls.png"));

    host.send(Command::Mods(ModCommand::SetThemes(vec!["art_night.nope".into()])));
    let refused = event(&host, &mut Vec::new(), |e| match e {
        HostEvent::Refused(refused) => Some(refused.message.clone()),
        _ => None,
    });
    assert!(refused.contains("art_night.nope") && refused.contains("base.theme"), "{refused}");
}

#[test]
fn a_wang_wall_picks_the_piece_of_its_neighbours_and_the_cell_says_why() {
    let (_copy, host) = walled();
    let snapshot = host.snapshot();
    // Wang pieces: N=1, E=2, S=4, W=8 over the neighbours that are walls.
    assert_eq!((pick_at(&snapshot, 1, 1), pick_at(&snapshot, 2, 1), pick_at(&snapshot, 3, 1)), (2, 10, 8));
    let map = snapshot.map.as_ref().unwrap().id;
    host.send(Command::Editing(EditingCommand::ExplainCell { map, x: 2, y: 1 }));
    let why: CellWhy = event(&host, &mut Vec::new(), |e| match e {
        HostEvent::CellExplained(why) => Some((**why).clone()),
        _ => None,
    });
    let sprite = why.sprite.expect("the wall has art");
    assert_eq!(sprite.tile, "art_walls.wall");
    assert_eq!(sprite.why, "piece 10 of the Wang set: connects east and west");

    host.send(Command::Editing(EditingCommand::ExplainCell { map, x: 0, y: 0 }));
    let grass = event(&host, &mut Vec::new(), |e| match e {
        HostEvent::CellExplained(why) => why.sprite.clone(),
        _ => None,
    });
    assert!(grass.why.starts_with("variant ") && grass.why.contains("of 2, weight "), "{}", grass.why);
    assert!(grass.why.contains("from the map's seed (a hash of its name)"), "{}", grass.why);
}

#[test]
fn a_hotloaded_image_is_read_again_and_a_bad_one_refused_leaving_the_old() {
    let (copy, host) = walled();
    let file = copy.project().join("mods/art_walls/init.lua");
    let text = std::fs::read_to_string(&file).unwrap();
    let frame_x = |s: &Snapshot| {
        let style = s.map.as_ref()?.tile_at(2, 1)?;
        Some(style.art.as_ref()?.sprites[0].frames[0].x)
    };
    assert_eq!(frame_x(&host.snapshot()), Some(0));

    std::fs::write(&file, text.replace("x = 0, y = 0, width = 16", "x = 64, y = 0, width = 16")).unwrap();
    host.send(Command::Mods(ModCommand::Reload(file.clone())));
    wait_for(&host, |s| frame_x(s) == Some(64));

    std::fs::write(&file, text.replace("x = 0, y = 0, width = 16", "x = 570, y = 0, width = 16")).unwrap();
    host.send(Command::Mods(ModCommand::Reload(file.clone())));
    let refused = event(&host, &mut Vec::new(), |e| match e {
        HostEvent::Reloaded(reload) => reload.outcome.as_ref().err().map(|e| e.message.clone()),
        _ => None,
    });
    assert!(refused.contains("art_walls.wall") && refused.contains("lies outside the sheet (576×416)"), "{refused}");
    assert_eq!(frame_x(&host.snapshot()), Some(64), "the art before the bad hotload stays");
}

#[test]
fn an_object_with_a_table_image_remembers_it_and_draws_a_variant_from_its_uid() {
    let (_copy, host) = walled();
    let kind =
        eval(&host, "local f = Feat.create('art_walls.torch', 4, 2) return type(f:produce_memory().image), f.uid");
    let nefia_protocol::repl::Evaluation::Values(values) = kind else { panic!("{kind:?}") };
    assert_eq!(values[0], "\"table\"", "produce_memory gives the image table as it is");
    let snapshot = wait_for(&host, |s| s.map.as_ref().is_some_and(|m| m.objects_at(4, 2).next().is_some()));
    let map = snapshot.map.as_ref().unwrap();
    let torch = map.objects_at(4, 2).next().unwrap();
    let art = torch.art.as_ref().expect("the torch has art");
    assert_eq!(art.choice, nefia_game::art::Choice::Variants { weights: vec![1, 1] });
    let seed = nefia_game::art::pick::map_seed(None, &map.name);
    assert_eq!(torch.pick, nefia_game::art::pick::object_pick(art, seed, torch.uid.0));
    assert_eq!(art.sprite(torch.pick).height, 32, "a sprite taller than its cell");
}
