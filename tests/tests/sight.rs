//! Sight and map memory: what the player remembers follows what is there, although a cell
//! seen before is remembered again only when something in it changed.

use nefia_game::map::CellMemory;
use nefia_tests::TestGame;

/// A game with the player at (2, 2) of the test map and a putit at (4, 2).
fn game() -> TestGame {
    let game = TestGame::new();
    game.exec(
        "local hero = Chara.create('elona.player', 2, 2) Chara.set_player(hero) \
         putit = Chara.create('elona.putit', 4, 2)",
    );
    game
}

fn remembered(game: &TestGame, x: i32, y: i32) -> Option<CellMemory> {
    let world = game.runtime.world();
    let map = world.current_map().expect("a current map");
    world.map(map).expect("it exists").memory.get(x, y).cloned()
}

fn glyphs(memory: &Option<CellMemory>) -> Vec<String> {
    memory.iter().flat_map(|m| m.objects.iter().map(|o| o.glyph.to_string())).collect()
}

fn see(game: &TestGame) {
    game.runtime.world_mut().refresh_sight();
}

#[test]
fn a_changed_field_moved_object_or_new_tile_is_remembered_on_the_next_look() {
    let game = game();
    see(&game);
    let before = glyphs(&remembered(&game, 4, 2));
    assert_eq!(before.len(), 1, "the putit is remembered: {before:?}");

    game.exec("putit.glyph = 'Q'");
    see(&game);
    assert_eq!(glyphs(&remembered(&game, 4, 2)), ["Q"], "a field change shows");

    game.exec("putit:set_pos(5, 2)");
    see(&game);
    assert!(glyphs(&remembered(&game, 4, 2)).is_empty(), "the cell it left is remembered empty");
    assert_eq!(glyphs(&remembered(&game, 5, 2)), ["Q"], "the cell it went to shows it");

    game.exec("Map.current():set_tile(3, 3, 'elona.wall_stone')");
    see(&game);
    let tile = remembered(&game, 3, 3).map(|m| m.tile.to_string());
    assert_eq!(tile.as_deref(), Some("elona.wall_stone"), "a new tile shows");
}

#[test]
fn an_opaque_feat_blocks_sight_and_stops_when_it_opens() {
    let game = game();
    game.exec(
        "door = Feat.create('elona.door', 3, 2) door:mod_base('is_opaque', true) \
         Map.current():set_tile(3, 1, 'elona.wall_stone') Map.current():set_tile(3, 3, 'elona.wall_stone')",
    );
    see(&game);
    let visible = |game: &TestGame, x, y| {
        let world = game.runtime.world();
        let map = world.current_map().expect("a map");
        world.map(map).expect("it exists").sight.is_visible(x, y)
    };
    assert!(visible(&game, 3, 2), "the door itself is seen");
    assert!(!visible(&game, 5, 2), "nothing behind a closed door");
    game.exec("door.is_opaque = false");
    see(&game);
    assert!(visible(&game, 5, 2), "an open door lets sight through");
    game.exec("door:mod('is_opaque', true)");
    see(&game);
    assert!(!visible(&game, 5, 2), "a temp value closes it again");
    game.exec("door:remove_ownership()");
    see(&game);
    assert!(visible(&game, 5, 2), "a removed door blocks nothing");
    game.runtime.world().check_invariants().expect("the feat counts stay right");
}

#[test]
fn a_loaded_game_shows_what_the_player_sees_before_the_first_turn() {
    let game = game();
    game.exec("Map.current():set_tile(3, 1, 'elona.wall_stone')");
    see(&game);
    game.runtime.save_game("sighted").expect("saved");
    // Another look from elsewhere, then the load puts the player back at (2, 2).
    game.exec("Chara.player():set_pos(0, 0)");
    see(&game);
    game.runtime.load_game("sighted").expect("loaded");
    let world = game.runtime.world();
    let map = world.map(world.current_map().expect("a current map")).expect("it exists");
    assert_eq!(map.sight.origin, Some((2, 2)), "sight is computed at load, from where the player is");
    assert!(map.sight.is_visible(4, 2), "the putit's cell is seen");
    let seen = map.sight.visible_cells().count();
    let cells = (map.width() * map.height()) as usize;
    assert!(seen > 0 && seen < cells, "not the whole map: {seen} of {cells} cells");
}

#[test]
fn a_change_no_memory_shows_marks_the_map_changed_but_leaves_its_cell_remembered() {
    let game = game();
    see(&game);
    let revisions = |game: &TestGame| {
        let world = game.runtime.world();
        let map = world.map(world.current_map().expect("a current map")).expect("it exists");
        (map.cell_revision(4, 2), map.content_revision())
    };
    let (cell, content) = revisions(&game);
    game.exec("putit:mod('dv', 3, 'add') putit.max_hp = 99 putit:mod_base('speed', 1, 'add')");
    let (cell_after, content_after) = revisions(&game);
    assert_eq!(cell_after, cell, "no memory shows dv, max_hp or speed: the cell needs no new look");
    assert!(content_after > content, "the map has unsaved changes all the same");

    let mut last = cell;
    for change in [
        "putit:mod('glyph', 'Q')",
        "putit:mod('image', 'a.png')",
        "putit.show = false",
        "putit:mod('color', '#ff0000')",
    ] {
        game.exec(change);
        let now = revisions(&game).0;
        assert!(now > last, "{change}: what the cell's memory shows changed, so it is looked at again");
        last = now;
    }
    game.exec("putit.show = true");
    see(&game);
    let memory = remembered(&game, 4, 2).expect("remembered");
    assert_eq!(memory.objects[0].color, [255, 0, 0, 255], "the new colour is remembered");
    assert_eq!(memory.objects[0].glyph.as_str(), "Q", "and the new glyph");
}
