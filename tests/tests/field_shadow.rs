//! A handle keeps the base values a script read in a shadow table, so the next read is a plain
//! table lookup (see `runtime/lua/src/field_shadow.rs`). Each test reads a field first (which
//! makes the shadow), changes it by one path that does not go through `obj.field = v`, and
//! reads it again: the shadow must show the change, or give way to the error the handle gives.

use std::path::PathBuf;

use nefia_game::edit::Edit;
use nefia_game::field_type::WriteCheck;
use nefia_game::history::History;
use nefia_game::value::Value;
use nefia_lua::mlua;
use nefia_lua::reload::{Unchanged, reload_file_with, reload_recorded};
use nefia_tests::TestGame;

/// A game with a putit `c` whose `hp` (its own base value, 6) and `strength` (its
/// prototype's, 2) were read, so its handle has a shadow holding them.
/// True while `c`'s handle has a shadow: a metatable of its own, which holds the shared one.
fn has_shadow(game: &TestGame) -> bool {
    let handle: mlua::Table = game.eval("c");
    let own = handle.metatable().expect("a handle has a metatable");
    own.raw_get::<Option<mlua::Table>>(2).expect("a plain read").is_some()
}

fn read_putit() -> TestGame {
    let game = TestGame::new();
    game.exec("c = Chara.create('elona.putit', 3, 3) c.hp = 6");
    assert!(!has_shadow(&game), "no field was read yet");
    game.exec("assert(c.hp == 6 and c.strength == 2)");
    assert!(has_shadow(&game), "reading made the shadow");
    game
}

fn uid(game: &TestGame) -> nefia_game::Uid {
    nefia_game::Uid(game.eval("c.uid"))
}

#[test]
fn a_write_is_read_back_at_once_and_a_method_name_still_reads_the_method() {
    let game = read_putit();
    game.exec("for i = 1, 3 do c.hp = i * 10 assert(c.hp == i * 10) end");
    assert!(has_shadow(&game), "the fast write kept the shadow, writing into it");
    game.exec("c.name_of_mine = 'pyon' c.flag = true c.ratio = 0.5");
    assert_eq!(game.eval::<(String, bool, f64)>("c.name_of_mine, c.flag, c.ratio"), ("pyon".into(), true, 0.5));
    // A field named as a method is stored, but `obj.refresh` stays the method.
    game.exec("c.refresh = 5 assert(type(c.refresh) == 'function')");
    assert_eq!(game.world().base(uid(&game), nefia_game::Symbol::intern("refresh")), Some(&Value::Int(5)));
    // nil (the slow path) makes the field nil even where the prototype has a value.
    game.exec("c.strength = 9 assert(c.strength == 9) c.strength = nil");
    assert_eq!(game.eval::<Option<i64>>("c.strength"), None);
    assert_eq!(game.eval::<i64>("c.hp"), 30);
}

#[test]
fn a_wrong_value_or_a_reserved_name_is_refused_as_before_and_changes_nothing() {
    let game = read_putit();
    for (code, says) in [
        ("c.hp = function() end", "a function"),
        ("c.hp = coroutine.create(function() end)", "a thread"),
        ("c.x = 5", "use obj:set_pos(x, y)"),
        ("c.uid = 5", "is a reserved field name on map objects."),
    ] {
        let answer = format!("{:?}", game.runtime.exec(code, "test"));
        assert!(answer.contains(says), "{code}: {answer}");
    }
    assert_eq!(game.eval::<i64>("c.hp"), 6, "the refused writes changed nothing");
}

/// The message `code` (run as chunk "typed") fails with.
fn refusal(game: &TestGame, code: &str) -> String {
    game.runtime.exec(code, "typed").err().map(|failure| failure.message).unwrap_or_else(|| format!("{code} ran"))
}

#[test]
fn a_value_the_fields_declared_type_refuses_is_refused_at_the_writing_line() {
    // base.chara declares hp an int, max_hp and speed uint (int >= 0), dv a number, name a
    // string and relation one of some values (which only its checker can judge).
    let game = read_putit();
    for (code, says) in [
        ("c.hp = 1.5", r#"Value is not of type "int""#),
        ("c.hp = 'lots'", r#"Value is not of type "int""#),
        ("c.max_hp = -1", r#"Value is not of type "int >= 0""#),
        ("c.dv = 0/0", r#"Value is not of type "number""#),
        ("c.name = 5", r#"Value is not of type "string""#),
        ("c.relation = 'friendly'", "relation"),
    ] {
        let answer = refusal(&game, &format!("\n{code}"));
        assert!(answer.contains("typed:2: cannot set") && answer.contains(says), "{code}: {answer}");
        assert!(answer.contains("give it a value of the type base.chara declares"), "{code}: {answer}");
    }
    assert_eq!(game.eval::<(i64, i64)>("c.hp, c.max_hp"), (6, 6), "the refused writes changed nothing");
    // What the types take is written, fast or judged by the checker: an int that is a
    // float's twin is not an int; a bound is the checker's own.
    game.exec("c.hp = -3 c.max_hp = 0 c.dv = 2.5 c.name = 'Pyon' c.relation = 'ally' c.speed = 120");
    let written: (i64, i64, f64, String, String, i64) = game.eval("c.hp, c.max_hp, c.dv, c.name, c.relation, c.speed");
    assert_eq!(written, (-3, 0, 2.5, "Pyon".into(), "ally".into(), 120));
    assert!(refusal(&game, "c.hp = 2.0").contains(r#"not of type "int""#));
    // A field the type does not declare takes anything plain, as before.
    game.exec("c.mood = 'calm' c.mood = 3");
    assert_eq!(game.eval::<i64>("c.mood"), 3);
    // The fast write's checks were made from the checkers once, when base.chara was declared.
    let world = game.world();
    let proto = world.object(uid(&game)).expect("the putit").proto;
    let check = |field: &str| world.data.write_check(proto, nefia_game::Symbol::intern(field));
    let uint = WriteCheck::Number { integers: true, floats: false, low: Some((0.0, true)), high: None };
    assert_eq!(check("max_hp"), uint);
    assert_eq!(check("dv"), WriteCheck::Number { integers: true, floats: true, low: None, high: None });
    assert_eq!(check("name"), WriteCheck::String);
    assert_eq!(check("relation"), WriteCheck::Judge);
    assert_eq!(check("mood"), WriteCheck::Any);
}

#[test]
fn each_bound_a_checker_puts_on_a_number_is_made_into_the_fast_write_check_or_left_to_it() {
    let game = TestGame::new();
    // A data type is added from a mod's file: base's init, hotloaded with one more at its end.
    let file = nefia_tests::mods_dir().join("base/init.lua");
    let text = std::fs::read_to_string(&file).expect("base's init")
        + "\ndata:add_type { name = 'bounds', fields = {\n\
             { name = 'open', type = types.gt(types.number, 0), default = 1 },\n\
             { name = 'shut', type = types.lteq(types.float, 2.5), default = 1.0 },\n\
             { name = 'both', type = types.range(types.int, -3, 9), default = 0 },\n\
             { name = 'twice', type = types.gteq(types.gt(types.int, 0), 1), default = 1 },\n\
             { name = 'sides', type = types.optional(types.lt(types.gteq(types.int, 0), 10)) },\n\
             { name = 'huge', type = types.gteq(types.int, 2^40), default = 1 << 40 },\n\
             { name = 'word', type = types.identifier, default = 'a' },\n\
           } }\n\
           data:add { _type = 'base.bounds', _id = 'it' }\n";
    let reload = reload_file_with(game.runtime.lua(), &file, text, Unchanged::Reload);
    let outcome = reload.map(|r| r.outcome);
    assert!(matches!(outcome, Some(Ok(_))), "the type is added: {outcome:?}");
    let world = game.world();
    let proto = world.data.find(nefia_game::Symbol::intern("base.bounds"), "base.it").expect("the prototype");
    let check = |field: &str| world.data.write_check(proto, nefia_game::Symbol::intern(field));
    let number = |integers, floats, low, high| WriteCheck::Number { integers, floats, low, high };
    assert_eq!(check("open"), number(true, true, Some((0.0, false)), None));
    assert_eq!(check("shut"), number(false, true, None, Some((2.5, true))));
    assert_eq!(check("both"), number(true, false, Some((-3.0, true)), Some((9.0, true))));
    assert_eq!(check("twice"), WriteCheck::Judge, "two bounds on one side: the checker judges");
    assert_eq!(check("sides"), number(true, false, Some((0.0, true)), Some((10.0, false))));
    assert_eq!(check("huge"), number(true, false, Some((2f64.powi(40), true)), None), "a float bound");
    assert_eq!(check("word"), WriteCheck::Judge);
}

#[test]
fn a_failed_hotload_that_retyped_a_field_leaves_writes_checked_by_the_type_it_had() {
    let game = read_putit();
    let file = nefia_tests::mods_dir().join("base/init.lua");
    let text = std::fs::read_to_string(&file).expect("base's init");
    let int_hp = r#"{ name = "hp", type = types.int,"#;
    assert!(text.contains(int_hp), "base.chara declares hp an int");
    let retyped = text.replacen(int_hp, r#"{ name = "hp", type = types.number,"#, 1) + "\nerror('boom')\n";
    let reload = reload_file_with(game.runtime.lua(), &file, retyped, Unchanged::Reload);
    let failure = reload.and_then(|r| r.outcome.err()).map(|failure| failure.message);
    assert!(failure.is_some_and(|message| message.contains("boom")), "the hotload fails at its end, rolled back");
    game.exec("c.hp = 5");
    assert_eq!(game.eval::<i64>("c.hp"), 5, "an int is still taken");
    assert!(refusal(&game, "c.hp = 1.5").contains(r#"not of type "int""#), "and a float still refused");
}

#[test]
fn mod_base_reset_mod_and_refresh_show_in_the_next_read() {
    let game = read_putit();
    game.exec("c:mod_base('hp', 4, 'add')");
    assert_eq!(game.eval::<i64>("c.hp"), 10, "mod_base");
    game.exec("c:reset('hp', 3)");
    assert_eq!(game.eval::<i64>("c.hp"), 3, "reset");
    // Read first, so the shadow holds the old strength the reset must make it forget.
    assert_eq!(game.eval::<i64>("c.strength"), 2);
    game.exec("c:reset('strength', 7)");
    assert_eq!(game.eval::<i64>("c.strength"), 7, "reset of a prototype's field");
    // mod and refresh change temp values, which obj.field does not show.
    game.exec("c:mod('hp', 100) c:refresh()");
    assert_eq!(game.eval::<(i64, i64)>("c.hp, c:calc('hp')"), (3, 3), "refresh dropped the temp value");
    game.exec("c:mod('hp', 100)");
    assert_eq!(game.eval::<(i64, i64)>("c.hp, c:calc('hp')"), (3, 100));
}

#[test]
fn an_editor_edit_and_its_undo_and_redo_show_in_the_next_read() {
    let game = read_putit();
    let mut history = History::default();
    let edit = Edit::SetBase { uids: vec![uid(&game)], field: "hp".into(), value: Value::Int(42) };
    game.apply_edit(&mut history, &edit).expect("the edit applies");
    assert_eq!(game.eval::<i64>("c.hp"), 42, "the edit");
    history.undo(&mut game.runtime.world_mut()).expect("an undo");
    assert_eq!(game.eval::<i64>("c.hp"), 6, "the undo");
    history.redo(&mut game.runtime.world_mut()).expect("a redo");
    assert_eq!(game.eval::<i64>("c.hp"), 42, "the redo");
    assert_eq!(game.eval::<i64>("c.strength"), 2, "read first, so the shadow holds it");
    let edit = Edit::SetBase { uids: vec![uid(&game)], field: "strength".into(), value: Value::Int(11) };
    game.apply_edit(&mut history, &edit).expect("the edit applies");
    assert_eq!(game.eval::<i64>("c.strength"), 11, "an edit of a prototype's field");
}

fn charas_file() -> PathBuf {
    nefia_tests::mods_dir().join("elona/content/charas.lua")
}

/// The putits' file with their strength `strength` instead of 2.
fn stronger_charas(strength: i64) -> String {
    let text = std::fs::read_to_string(charas_file()).expect("the demo's charas");
    let stronger = text.replacen("   strength = 2,", &format!("   strength = {strength},"), 1);
    assert_ne!(text, stronger, "the putit's strength is in the file");
    stronger
}

#[test]
fn a_hotload_that_changes_a_prototypes_default_shows_in_the_next_read() {
    let game = read_putit();
    let reload = reload_file_with(game.runtime.lua(), &charas_file(), stronger_charas(5), Unchanged::Reload);
    assert!(reload.is_some_and(|r| r.outcome.is_ok()), "the hotload runs");
    assert_eq!(game.eval::<i64>("c.strength"), 5, "the new default");
    assert_eq!(game.eval::<i64>("c.hp"), 6, "its own value stays");
    // A recording's replay hotloads what it recorded.
    let file = "mods/elona/content/charas.lua";
    let replayed = reload_recorded(game.runtime.lua(), file, &stronger_charas(8));
    assert!(replayed.is_some_and(|r| r.outcome.is_ok()), "the replayed hotload runs");
    assert_eq!(game.eval::<i64>("c.strength"), 8, "the replayed hotload's default");
}

#[test]
fn a_changed_prototype_shows_its_fields_in_the_next_read() {
    let game = read_putit();
    let before: i64 = game.eval("c.max_hp");
    game.exec("c:change_prototype('elona.red_putit')");
    assert_eq!(game.eval::<(i64, String)>("c.max_hp, c._id"), (14, "elona.red_putit".into()));
    assert_eq!(before, 6, "the two prototypes differ (else this test proves nothing)");
}

#[test]
fn stepping_back_and_a_load_put_back_what_the_world_then_held() {
    let game = read_putit();
    let kept = game.world().copy_state();
    game.exec("c.hp = 77 assert(c.hp == 77)");
    // What stepping back a turn does (and a replay branching there).
    game.runtime.world_mut().rewind_to(kept);
    assert_eq!(game.eval::<i64>("c.hp"), 6, "stepped back");
    game.exec("Save.save_game('shadow') c.hp = 55 assert(c.hp == 55) Save.load_game('shadow')");
    let stale = format!("{:?}", game.runtime.exec("return c.hp", "test"));
    assert!(stale.contains("from before the game was loaded"), "a stale handle reads nothing: {stale}");
    assert_eq!(game.eval::<i64>("World.object(c.uid).hp"), 6, "the loaded object");
}

#[test]
fn a_freed_objects_handle_says_so_instead_of_the_last_value_read() {
    let game = read_putit();
    game.exec("c:remove_ownership()");
    game.runtime.world_mut().sweep(|_| false);
    let answer = format!("{:?}", game.runtime.exec("return c.hp", "test"));
    assert!(answer.contains("no longer exists"), "{answer}");
}

#[test]
fn a_watch_still_stops_at_a_fast_write_and_sees_each_change() {
    let game = read_putit();
    game.exec(
        "changes = {} Debug.watch(c, 'hp', function(old, new) changes[#changes + 1] = old .. '>' .. new end)\n\
         c.hp = 7\n\
         c.hp = 7\n\
         c.hp = 8",
    );
    assert_eq!(game.eval::<String>("table.concat(changes, ' ')"), "6>7 7>8");
}
