//! Playing the demo through the runtime protocol: key sequences in, game state out. Walking,
//! doors, fighting, items and equipment, the potion of sight, stairs between maps, saving and
//! loading, dying, and Stop putting the edit state back.

use nefia_game::display::{Input, LayerKind};
use nefia_host::HostHandle;
use nefia_protocol::message::Command;
use nefia_protocol::play::PlayCommand;
use nefia_protocol::play::PlayFrom;
use nefia_protocol::repl::Evaluation;
use nefia_protocol::view::{RuntimeState, ShadowCell};
use nefia_tests::DemoCopy;
use nefia_tests::host::{eval, spawn, spawn_editing, wait_for};

/// The values of a Lua expression, as the REPL prints them.
fn values(host: &HostHandle, code: &str) -> Vec<String> {
    match eval(host, code) {
        Evaluation::Values(values) => values,
        other => panic!("{code}: {other:?}"),
    }
}

fn value(host: &HostHandle, code: &str) -> String {
    values(host, code).remove(0)
}

/// Presses `key` in the game and waits until it has been handled.
fn press(host: &HostHandle, key: &str) {
    host.send(Command::Input(Input::Key(key.into())));
    eval(host, "true");
}

/// Puts the player at (x, y) of the current map.
fn put_player(host: &HostHandle, x: i32, y: i32) {
    eval(host, &format!("Chara.player():set_pos({x}, {y}) World.refresh_sight()"));
}

fn player_at(host: &HostHandle) -> (String, String) {
    let v = values(host, "Chara.player().x, Chara.player().y");
    (v[0].clone(), v[1].clone())
}

fn turn(host: &HostHandle) -> u64 {
    value(host, "World.turn()").parse().unwrap()
}

/// Answers the menu the game opened by choosing entry `index` (0-based).
fn choose(host: &HostHandle, index: usize) {
    let snapshot = wait_for(host, |s| s.state == RuntimeState::InQuery);
    let layer = snapshot.layers.last().expect("a menu is open").id;
    host.send(Command::Input(Input::Choose { layer, index }));
    wait_for(host, |s| s.layers.is_empty());
    eval(host, "true");
}

fn playing() -> (DemoCopy, HostHandle) {
    let copy = DemoCopy::new();
    let host = spawn(&copy.project());
    (copy, host)
}

#[test]
fn walking_into_a_wall_takes_no_turn_and_moving_advances_the_clock() {
    let (_copy, host) = playing();
    assert_eq!(player_at(&host), ("16".into(), "10".into()), "the player starts at the town's entrance");
    put_player(&host, 1, 10);
    let before = (turn(&host), value(&host, "World.date().minute"));
    press(&host, "left");
    assert_eq!(player_at(&host), ("1".into(), "10".into()), "the wall stops it");
    assert_eq!(turn(&host), before.0, "no turn");
    press(&host, "right");
    press(&host, "n");
    assert_eq!(player_at(&host), ("3".into(), "11".into()), "arrows and vi keys move, diagonals too");
    assert_eq!(turn(&host), before.0 + 2);
    assert_ne!(value(&host, "World.date().minute"), before.1, "the clock moves with turns");
}

#[test]
fn walking_into_a_closed_door_opens_it_and_then_it_lets_sight_through() {
    let (_copy, host) = playing();
    put_player(&host, 8, 10);
    assert_eq!(value(&host, "Map.current():is_in_fov(8, 6)"), "false", "the closed door blocks sight");
    press(&host, "up");
    assert_eq!(player_at(&host), ("8".into(), "9".into()));
    let door = "(function() for _, o in Map.current():objects_at_pos(8, 8) do return o end end)()";
    assert_eq!(value(&host, &format!("{door}.is_open")), "false");
    press(&host, "up");
    assert_eq!(value(&host, &format!("{door}.is_open")), "true", "bumping opens it");
    assert_eq!(player_at(&host), ("8".into(), "9".into()), "without moving");
    assert_eq!(value(&host, "Map.current():is_in_fov(8, 6)"), "true", "now the house can be seen");
    press(&host, "up");
    assert_eq!(player_at(&host), ("8".into(), "8".into()), "and walked through");
}

#[test]
fn a_putit_is_fought_to_death_and_drops_what_it_held() {
    let (_copy, host) = playing();
    eval(&host, "victim = Chara.create('elona.putit', 17, 10) Item.create('elona.gold_piece', nil, nil, {}, victim)");
    for _ in 0..40 {
        if value(&host, "victim.location == nil") == "true" {
            break;
        }
        press(&host, "right");
    }
    assert_eq!(value(&host, "victim.location == nil"), "true", "the putit died and left the map");
    // The blows show as numbers over the map through mods/damage_popups (for 1.2 s each).
    wait_for(&host, |s| s.map_layers.iter().any(|(id, draw)| id == "damage_popups" && !draw.is_empty()));
    assert_eq!(
        value(
            &host,
            "(function() for _, o in Map.current():objects_at_pos(17, 10) do if o._id == 'elona.gold_piece' then return true end end return false end)()"
        ),
        "true",
        "its gold fell where it stood"
    );
    let messages = values(&host, "table.concat(Gui.messages(40), '|')")[0].clone();
    assert!(messages.contains("The putit is killed."), "{messages}");
}

#[test]
fn hostile_characters_come_for_the_player_they_see_and_the_others_wander() {
    let (_copy, host) = playing();
    put_player(&host, 4, 14);
    eval(
        &host,
        "math.randomseed(7) hunter = Chara.create('elona.putit', 8, 14) walker = Chara.create('elona.town_guard', 25, 3)",
    );
    let distance = |host: &HostHandle| -> i64 {
        value(host, "math.max(math.abs(hunter.x - Chara.player().x), math.abs(hunter.y - Chara.player().y))")
            .parse()
            .unwrap()
    };
    let walker_at = |host: &HostHandle| values(host, "walker.x, walker.y");
    let (start, walker_start) = (distance(&host), walker_at(&host));
    assert_eq!(start, 4);
    let mut walker_moved = false;
    for waited in 1..=3 {
        press(&host, "period");
        assert_eq!(distance(&host), start - waited, "the putit sees the player and steps closer each turn");
        walker_moved |= walker_at(&host) != walker_start;
    }
    for _ in 0..10 {
        press(&host, "period");
        walker_moved |= walker_at(&host) != walker_start;
    }
    assert!(walker_moved, "the guard, not hostile, wanders");
}

#[test]
fn attacking_someone_not_hostile_asks_first() {
    let (_copy, host) = playing();
    eval(&host, "guard = Chara.create('elona.town_guard', 17, 10)");
    host.send(Command::Input(Input::Key("right".into())));
    let asked = wait_for(&host, |s| s.state == RuntimeState::InQuery);
    assert!(
        matches!(&asked.layers.last().unwrap().kind, LayerKind::Prompt { title: Some(t), .. } if t.contains("Really attack the town guard?"))
    );
    choose(&host, 1);
    assert_eq!(value(&host, "guard.hp == guard.max_hp"), "true", "left alone");
    assert_eq!(turn(&host), 0, "no turn taken");
}

#[test]
fn stop_while_a_menu_waits_unwinds_it_and_then_ends_play() {
    let (_copy, host) = playing();
    eval(&host, "guard = Chara.create('elona.town_guard', 17, 10)");
    host.send(Command::Input(Input::Key("right".into())));
    wait_for(&host, |s| s.state == RuntimeState::InQuery);
    // The command alone, as a recording or a remote client sends it: the host raises the
    // Stop flag itself (the editor's `HostClient::stop` raises it before sending).
    host.send(Command::Play(PlayCommand::Stop));
    let stopped = wait_for(&host, |s| !s.play.playing);
    assert!(stopped.layers.is_empty(), "the menu unwound: {:?}", stopped.layers);
}

#[test]
fn an_item_is_picked_up_and_equipped_and_it_adds_to_the_wearer() {
    let (_copy, host) = playing();
    put_player(&host, 15, 12);
    let strength = value(&host, "Chara.player():calc('strength')");
    press(&host, "g");
    assert_eq!(
        value(&host, "(function() for _, i in Chara.player():iter() do return i.name end end)()"),
        "\"dagger\"",
        "picked up"
    );
    host.send(Command::Input(Input::Key("e".into())));
    choose(&host, 0);
    assert_eq!(value(&host, "Chara.player().equip.main_hand.name"), "\"dagger\"");
    let now: i64 = value(&host, "Chara.player():calc('strength')").parse().unwrap();
    assert_eq!(now, strength.parse::<i64>().unwrap() + 3, "the dagger's damage bonus, as a temp value");
    assert_eq!(value(&host, "Chara.player():mod_sources('strength')[1].file"), "\"mods/elona/game/effects.lua\"");
}

#[test]
fn gold_picked_up_with_the_key_goes_to_the_purse_not_the_pack() {
    let (_copy, host) = playing();
    put_player(&host, 11, 13);
    eval(
        &host,
        "purse = Chara.player().gold or 0 Item.create('elona.gold_piece', 11, 13, { amount = 25 }, Map.current())",
    );
    press(&host, "g");
    assert_eq!(value(&host, "Chara.player().gold - purse"), "25", "the gold's own base.on_get_item handler");
    assert_eq!(value(&host, "Chara.player():find_item('elona.gold_piece') == nil"), "true", "none in the pack");
    let messages = values(&host, "table.concat(Gui.messages(3), '|')")[0].clone();
    assert!(messages.contains("You pick up 25 gold."), "{messages}");
}

#[test]
fn the_potion_of_sight_raises_fov_for_twenty_turns_then_it_comes_back_down() {
    let (_copy, host) = playing();
    put_player(&host, 14, 11);
    press(&host, "g");
    host.send(Command::Input(Input::Key("q".into())));
    choose(&host, 0);
    assert_eq!(value(&host, "Chara.player():calc('fov')"), "45", "15 + the potion's 30");
    assert_eq!(value(&host, "Chara.player().fov"), "15", "the base value is untouched");
    for _ in 0..18 {
        host.send(Command::Play(PlayCommand::StepTurn));
    }
    eval(&host, "true");
    assert_eq!(value(&host, "Chara.player():calc('fov')"), "45", "still on after 19 turns");
    host.send(Command::Play(PlayCommand::StepTurn));
    eval(&host, "true");
    assert_eq!(value(&host, "Chara.player():calc('fov')"), "15", "worn off after 20, refreshed");
    let messages = values(&host, "table.concat(Gui.messages(5), '|')")[0].clone();
    assert!(messages.contains("The sight effect wears off."), "{messages}");
}

#[test]
fn the_stairs_lead_down_and_back_to_the_town_as_it_was_left() {
    let (_copy, host) = playing();
    // Leave a mark in the town: a dagger dropped by the stairs.
    put_player(&host, 15, 12);
    press(&host, "g");
    put_player(&host, 29, 17);
    host.send(Command::Input(Input::Key("d".into())));
    choose(&host, 0);
    press(&host, "enter");
    assert_eq!(value(&host, "Map.current().name"), "\"dungeon\"");
    assert_eq!(player_at(&host), ("4".into(), "4".into()), "on the dungeon's stairs up");
    press(&host, "right");
    press(&host, "left");
    press(&host, "enter");
    assert_eq!(value(&host, "Map.current().name"), "\"town\"");
    assert_eq!(player_at(&host), ("29".into(), "17".into()), "back on the stairs down");
    let dagger = "(function() for _, o in Map.current():objects_at_pos(29, 17) do if o._id == 'elona.dagger' then return true end end return false end)()";
    assert_eq!(value(&host, dagger), "true", "the town kept its state");
}

#[test]
fn a_saved_game_loads_back_to_the_same_state() {
    let (copy, host) = playing();
    put_player(&host, 15, 12);
    press(&host, "g");
    press(&host, "up");
    eval(&host, "save.elona.visits = 3");
    press(&host, "ctrl+s");
    assert!(copy.project().join("saves/quicksave.ron").is_file());
    let state = "Chara.player().x, Chara.player().y, World.turn(), (function() for _, i in Chara.player():iter() do return i.name end end)(), save.elona.visits";
    let saved = values(&host, state);
    press(&host, "left");
    press(&host, "left");
    eval(&host, "save.elona.visits = 4");
    assert_ne!(values(&host, state), saved);
    press(&host, "ctrl+l");
    assert_eq!(values(&host, state), saved, "position, turn, inventory and the save table");
}

#[test]
fn death_offers_to_load_or_quit_and_quitting_stops_play() {
    let (_copy, host) = playing();
    eval(&host, "Chara.player().hp = 1 Chara.create('elona.red_putit', 17, 10).strength = 30");
    // It may miss a few times.
    for _ in 0..50 {
        if host.snapshot().state == RuntimeState::InQuery {
            break;
        }
        host.send(Command::Play(PlayCommand::StepTurn));
        eval(&host, "true");
    }
    let asked = wait_for(&host, |s| s.state == RuntimeState::InQuery);
    assert!(
        matches!(&asked.layers.last().unwrap().kind, LayerKind::Prompt { title: Some(t), .. } if t == "You have died.")
    );
    choose(&host, 1);
    let stopped = wait_for(&host, |s| !s.play.playing);
    assert!(stopped.player.is_none(), "back to editing");
}

/// The shadow layer of the current map's view, chunk by chunk.
fn shadows(host: &HostHandle) -> Vec<Option<Vec<ShadowCell>>> {
    host.snapshot().map.as_ref().expect("a map").chunks.iter().map(|c| c.shadow.as_deref().cloned()).collect()
}

#[test]
fn stopping_on_the_map_play_began_on_draws_it_as_before() {
    let copy = DemoCopy::new();
    let host = spawn_editing(&copy.project());
    let before = shadows(&host);
    host.send(Command::Play(PlayCommand::Start(PlayFrom::Start)));
    wait_for(&host, |s| s.play.playing);
    for key in ["down", "down"] {
        press(&host, key);
    }
    assert_ne!(shadows(&host), before, "playing, the player's sight shades the map");
    host.send(Command::Play(PlayCommand::Stop));
    wait_for(&host, |s| !s.play.playing);
    assert_eq!(shadows(&host), before, "no sight or memory from the play is left");
}

#[test]
fn stop_puts_the_edit_state_back_exactly() {
    let copy = DemoCopy::new();
    let host = spawn_editing(&copy.project());
    let describe = "(function() local t = {} for _, o in Map.current():iter() do t[#t + 1] = o._id .. '@' .. o.x .. ',' .. o.y end table.sort(t) return table.concat(t, ' ') end)()";
    let before = values(&host, &format!("{describe}, World.turn(), Map.current().name, Chara.player() == nil"));
    let dirty_before: Vec<bool> = host.snapshot().maps.files.iter().map(|m| m.dirty).collect();
    let shadow_before = shadows(&host);
    host.send(Command::Play(PlayCommand::Start(PlayFrom::Start)));
    wait_for(&host, |s| s.play.playing);
    eval(&host, "Chara.create('elona.putit', 3, 3)");
    for key in ["right", "right", "down", "down"] {
        press(&host, key);
    }
    put_player(&host, 29, 17);
    press(&host, "enter");
    assert_eq!(value(&host, "Map.current().name"), "\"dungeon\"");
    host.send(Command::Play(PlayCommand::Stop));
    wait_for(&host, |s| !s.play.playing);
    let after = values(&host, &format!("{describe}, World.turn(), Map.current().name, Chara.player() == nil"));
    assert_eq!(after, before, "objects, turn, current map and no player");
    assert_eq!(shadows(&host), shadow_before, "the map is drawn as before: no sight or memory from the play");
    let dirty_after: Vec<bool> = host.snapshot().maps.files.iter().map(|m| m.dirty).collect();
    assert_eq!(dirty_after, dirty_before, "no map is marked changed");
    assert!(
        host.snapshot().maps.files.iter().any(|m| m.name == "dungeon" && m.map.is_none()),
        "the dungeon closed again"
    );
}

#[test]
fn the_undo_history_goes_aside_at_play_and_comes_back_at_stop() {
    use nefia_game::edit::Edit;
    use nefia_game::{Holder, ObjectKind};
    use nefia_protocol::editing::EditingCommand;
    let copy = DemoCopy::new();
    let host = spawn_editing(&copy.project());
    let map = wait_for(&host, |s| s.map.is_some()).map.as_ref().map(|m| m.id).expect("the start map");
    let create = |x| Edit::Create { kind: ObjectKind::Chara, id: "elona.putit".into(), to: Holder::Map(map), x, y: 6 };
    host.send(Command::Editing(EditingCommand::Edit(create(6))));
    let before = wait_for(&host, |s| !s.editing.history.labels.is_empty()).editing.history.labels.clone();
    host.send(Command::Play(PlayCommand::Start(PlayFrom::Start)));
    let played = wait_for(&host, |s| s.play.playing);
    assert!(played.editing.history.labels.is_empty(), "the edits are aside: {:?}", played.editing.history.labels);
    host.send(Command::Editing(EditingCommand::Edit(create(7))));
    wait_for(&host, |s| !s.editing.history.labels.is_empty());
    host.send(Command::Play(PlayCommand::Stop));
    let stopped = wait_for(&host, |s| !s.play.playing);
    assert_eq!(stopped.editing.history.labels, before, "the edit state's history, not the play's");
}

#[test]
fn play_from_here_puts_the_player_on_the_chosen_cell_and_keys_do_nothing_while_editing() {
    let copy = DemoCopy::new();
    let host = spawn_editing(&copy.project());
    let map = host.snapshot().map.as_ref().unwrap().id;
    press(&host, "right");
    assert_eq!(value(&host, "Chara.player() == nil"), "true");
    host.send(Command::Play(PlayCommand::Start(PlayFrom::Here { map, x: 3, y: 4 })));
    wait_for(&host, |s| s.play.playing);
    assert_eq!(player_at(&host), ("3".into(), "4".into()));
    host.send(Command::Play(PlayCommand::Pause(true)));
    press(&host, "down");
    assert_eq!(player_at(&host), ("3".into(), "4".into()), "paused: keys do nothing");
    host.send(Command::Play(PlayCommand::Pause(false)));
    press(&host, "down");
    assert_eq!(player_at(&host), ("3".into(), "5".into()));
}

#[test]
fn the_fountain_leaves_a_puddle_that_dries_up_and_potions_stay_a_stack() {
    let (_copy, host) = playing();
    // The fountain stands at (10, 13): bumping it from the east splashes a puddle.
    put_player(&host, 11, 13);
    press(&host, "left");
    assert_eq!(value(&host, "Mef.at(11, 13).name"), "\"puddle\"");
    assert_eq!(player_at(&host), ("11".into(), "13".into()), "the fountain is in the way");
    for _ in 0..6 {
        host.send(Command::Play(PlayCommand::StepTurn));
    }
    eval(&host, "true");
    assert_eq!(value(&host, "Mef.at(11, 13) == nil"), "true", "dried up after its turns");
    // Three potions of sight lie at (14, 11): picked up as one stack, drunk one at a time.
    put_player(&host, 14, 11);
    press(&host, "g");
    let potions = "Chara.player():find_item('elona.potion_of_sight').amount";
    assert_eq!(value(&host, potions), "3");
    host.send(Command::Input(Input::Key("q".into())));
    choose(&host, 0);
    assert_eq!(value(&host, potions), "2", "one of the stack was drunk");
    let messages = values(&host, "table.concat(Gui.messages(6), '|')")[0].clone();
    assert!(messages.contains("You pick up 3 x potion of sight."), "{messages}");
}
