//! References between prototypes and the mistakes a field name can hide, on every path that
//! edits content: a `types.data_id("base.map_tile")` field must name a `base.map_tile` once
//! every mod has loaded (the form and `data.set_field`, an object's `set_base`/`set_temp`,
//! the debugger's setVariable, a hotload); a misspelled field (`max_hpp`) is refused by the
//! form; a field code sets again after `data:add` is not edited in the source blindly.

use nefia_game::Value;
use nefia_game::edit::Edit;
use nefia_game::moddable::ModMethod;
use nefia_host::HostHandle;
use nefia_protocol::debugging::query::{DebugAnswer, DebugQuery, Key, Scope, VariablePath};
use nefia_protocol::debugging::{DebugCommand, ReplCommand};
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::message::{Command, HostEvent};
use nefia_protocol::mods::ModCommand;
use nefia_protocol::repl::Evaluation;
use nefia_protocol::repl::LineBreakpoint;
use nefia_tests::DemoCopy;
use nefia_tests::host::{eval, event, spawn_editing, wait_for};
use serde_json::json;

/// Sends the form's edit of field `field` of prototype `id` of `data_type`.
fn set(host: &HostHandle, data_type: &str, id: &str, field: &str, value: Value) {
    let edit =
        Edit::PrototypeField { data_type: data_type.into(), id: id.into(), field: field.into(), value: Some(value) };
    host.send(Command::Editing(EditingCommand::Edit(edit)));
}

/// The message of the next refusal the host sends.
fn refusal(host: &HostHandle) -> String {
    event(host, &mut Vec::new(), |e| match e {
        HostEvent::Refused(refused) => Some(refused.message.clone()),
        _ => None,
    })
}

fn values(list: &[&str]) -> Evaluation {
    Evaluation::Values(list.iter().map(|v| (*v).to_owned()).collect())
}

fn set_tile(host: &HostHandle, tile: &str) {
    set(host, "base.map_generator", "elona.cave", "tile", Value::str(tile));
}

#[test]
fn a_form_edit_naming_no_prototype_of_the_fields_type_is_refused_with_what_it_is_and_writes_nothing() {
    let copy = DemoCopy::new();
    let file = copy.mod_file("elona/content/generators.lua");
    let original = std::fs::read_to_string(&file).unwrap();
    let host = spawn_editing(&copy.project());

    set_tile(&host, "elona.putit");
    let refused = refusal(&host);
    assert!(refused.contains("elona.cave.tile: elona.putit is a base.chara, not a base.map_tile"), "{refused}");
    set_tile(&host, "elona.no_such_tile");
    let refused = refusal(&host);
    assert!(refused.contains("no base.map_tile is called elona.no_such_tile"), "{refused}");
    assert!(refused.contains("elona.floor_stone"), "it names some that are: {refused}");
    set_tile(&host, "elona.floor_ston");
    let refused = refusal(&host);
    assert!(
        refused.ends_with("no base.map_tile is called elona.floor_ston: did you mean elona.floor_stone?"),
        "{refused}"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), original, "nothing was written");
    assert_eq!(eval(&host, "data['base.map_generator']['elona.cave'].tile"), values(&["\"elona.wall_stone\""]));

    set_tile(&host, "elona.floor_stone");
    assert_eq!(eval(&host, "data['base.map_generator']['elona.cave'].tile"), values(&["\"elona.floor_stone\""]));
    assert!(
        std::fs::read_to_string(&file).unwrap().contains("tile = \"elona.floor_stone\""),
        "an id of a tile is written"
    );
}

#[test]
fn data_set_field_over_the_protocol_refuses_a_reference_of_another_type_and_a_misspelled_field() {
    let copy = DemoCopy::new();
    let file = copy.mod_file("elona/content/generators.lua");
    let original = std::fs::read_to_string(&file).unwrap();
    let game = nefia_tests::remote::serving(spawn_editing(&copy.project()));
    let mut client = game.attach();
    let params = |field: &str, value: serde_json::Value| json!({ "type": "base.map_generator", "id": "elona.cave", "field": field, "value": value });
    let refused = client.call("data.set_field", params("tile", json!("elona.putit")));
    let message = refused["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("elona.putit is a base.chara, not a base.map_tile"), "{refused}");
    let refused = client.call("data.set_field", params("widht", json!(50)));
    let message = refused["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("widht is not a field of base.map_generator: did you mean width?"), "{refused}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), original, "nothing was written");
}

#[test]
fn a_misspelled_field_is_refused_by_the_form_and_a_field_of_the_mods_own_is_written() {
    let copy = DemoCopy::new();
    let file = copy.mod_file("elona/content/charas.lua");
    let original = std::fs::read_to_string(&file).unwrap();
    let host = spawn_editing(&copy.project());
    set(&host, "base.chara", "elona.putit", "max_hpp", Value::Int(5));
    let refused = refusal(&host);
    assert_eq!(refused, "elona.putit.max_hpp: max_hpp is not a field of base.chara: did you mean max_hp?");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), original, "nothing was written");
    set(&host, "base.chara", "elona.putit", "favourite_food", Value::str("putitoro"));
    assert_eq!(eval(&host, "data['base.chara']['elona.putit'].favourite_food"), values(&["\"putitoro\""]));
}

#[test]
fn a_field_code_sets_again_after_its_data_add_is_refused_naming_the_line_that_sets_it() {
    let copy = DemoCopy::new();
    let init = copy.mod_file("elona/init.lua");
    let text = std::fs::read_to_string(&init).unwrap();
    let line = text.lines().count() + 2;
    nefia_tests::write(
        &init,
        format!("{text}\nlocal putit = data[\"base.chara\"][\"elona.putit\"]\nputit.max_hp = 50\n"),
    )
    .unwrap();
    let charas = copy.mod_file("elona/content/charas.lua");
    let original = std::fs::read_to_string(&charas).unwrap();
    let host = spawn_editing(&copy.project());
    set(&host, "base.chara", "elona.putit", "max_hp", Value::Int(8));
    let refused = refusal(&host);
    assert_eq!(
        refused,
        format!(
            "elona.putit.max_hp: it is set again at mods/elona/init.lua:{} after its data:add (the game has 50): edit \
             it there",
            line + 1
        )
    );
    assert_eq!(std::fs::read_to_string(&charas).unwrap(), original, "nothing was written");
    // A field no code sets again is edited as ever.
    set(&host, "base.chara", "elona.putit", "hp", Value::Int(4));
    assert_eq!(eval(&host, "data['base.chara']['elona.putit'].hp"), values(&["4"]));
}

#[test]
fn a_hotload_that_leaves_a_reference_dangling_is_refused_and_the_old_prototype_stays() {
    let copy = DemoCopy::new();
    let file = copy.mod_file("elona/content/generators.lua");
    let text = std::fs::read_to_string(&file).unwrap();
    let host = spawn_editing(&copy.project());
    // The cave's `doc` and `tile` lines, after its `_id`.
    let cave = text.lines().position(|l| l.contains("_id = \"cave\"")).expect("the cave");
    let (doc, tile) = (cave + 1, cave + 2);
    let lines: Vec<String> = text
        .lines()
        .enumerate()
        .map(|(n, l)| match n {
            n if n == doc => "   doc = \"new\",".to_owned(),
            n if n == tile => l.replace("elona.wall_stone", "elona.putit"),
            _ => l.to_owned(),
        })
        .collect();
    assert!(lines[tile].contains("tile = \"elona.putit\""), "{lines:?}");
    let line = tile + 1;
    nefia_tests::write(&file, lines.join("\n") + "\n").unwrap();
    host.send(Command::Mods(ModCommand::Reload(file.clone())));
    let reload = event(&host, &mut Vec::new(), |e| match e {
        HostEvent::Reloaded(reload) if reload.file.ends_with("content/generators.lua") => Some(reload.clone()),
        _ => None,
    });
    let failure = reload.outcome.expect_err("the reload is refused");
    assert!(
        failure.message.contains(&format!("mods/elona/content/generators.lua:{line}: elona.cave.tile: elona.putit is a base.chara, not a base.map_tile")),
        "{failure}"
    );
    let cave = "data['base.map_generator']['elona.cave']";
    assert_eq!(eval(&host, &format!("{cave}.tile")), values(&["\"elona.wall_stone\""]), "the old prototype stays");
    assert_eq!(eval(&host, &format!("{cave}.doc == 'new'")), values(&["false"]), "nothing of the file took");
}

/// A copy of the demo whose characters have a `corpse`: the id of an item.
fn with_corpses() -> DemoCopy {
    let copy = DemoCopy::new();
    let base = copy.mod_file("base/init.lua");
    let text = std::fs::read_to_string(&base).unwrap();
    let declared = text.replacen(
        "      { name = \"strength\",",
        "      { name = \"corpse\", type = types.optional(types.data_id(\"base.item\")), doc = \"What it leaves.\" },\n      { name = \"strength\",",
        1,
    );
    assert_ne!(declared, text);
    nefia_tests::write(&base, declared).unwrap();
    copy
}

#[test]
fn an_objects_field_naming_no_prototype_of_its_type_is_refused_by_set_base_and_set_temp() {
    let copy = with_corpses();
    let host = spawn_editing(&copy.project());
    let uid = match eval(&host, "p = Chara.create('elona.putit', 3, 3) return p.uid") {
        Evaluation::Values(values) => values[0].parse::<u64>().expect("a uid"),
        other => panic!("{other:?}"),
    };
    let uids = vec![nefia_game::Uid(uid)];
    let base = |value: &str| Edit::SetBase { uids: uids.clone(), field: "corpse".into(), value: Value::str(value) };
    host.send(Command::Editing(EditingCommand::Edit(base("elona.putit"))));
    let refused = refusal(&host);
    assert!(refused.contains("elona.putit is a base.chara, not a base.item"), "{refused}");
    host.send(Command::Editing(EditingCommand::Edit(base("elona.putitor"))));
    let refused = refusal(&host);
    assert!(refused.contains("no base.item is called elona.putitor: did you mean elona.putitoro?"), "{refused}");
    let temp = Edit::ModTemp {
        uids: uids.clone(),
        field: "corpse".into(),
        value: Value::str("base.wall"),
        method: ModMethod::Set,
    };
    host.send(Command::Editing(EditingCommand::Edit(temp)));
    let refused = refusal(&host);
    assert!(refused.contains("base.wall is a base.map_tile, not a base.item"), "{refused}");
    assert_eq!(eval(&host, "p.corpse"), values(&["nil"]), "nothing changed");
    host.send(Command::Editing(EditingCommand::Edit(base("elona.putitoro"))));
    assert_eq!(eval(&host, "p.corpse"), values(&["\"elona.putitoro\""]), "an item's id is taken");
}

#[test]
fn the_debuggers_set_variable_on_an_objects_field_is_checked_as_every_edit_is() {
    let copy = with_corpses();
    let host = spawn_editing(&copy.project());
    eval(&host, "R = require('mod.elona.game.rules') c = Chara.create('elona.putit', 3, 3) c.hp = 50");
    let ask = |id: u64, query: DebugQuery| {
        host.send(Command::Debug(DebugCommand::Query { id, query }));
        event(&host, &mut Vec::new(), |e| match e {
            HostEvent::DebugAnswer { id: got, answer } if *got == id => Some(answer.clone()),
            _ => None,
        })
    };
    // Rules.damage, line 37: `target.hp = target.hp - amount`.
    let breakpoints = vec![LineBreakpoint { line: 37, ..LineBreakpoint::default() }];
    ask(1, DebugQuery::SetBreakpoints { path: copy.mod_file("elona/game/rules.lua"), breakpoints });
    host.send(Command::Repl(ReplCommand::Eval { id: 2, code: "R.damage(c, 1) return c.corpse".into() }));
    wait_for(&host, |s| s.debug.pause.is_some());
    let target = VariablePath { frame: 0, scope: Scope::Locals, keys: vec![Key::Name("target".into())] };
    let set_variable = |id: u64, field: &str, code: &str| {
        ask(id, DebugQuery::SetVariable { path: target.clone(), key: Key::Name(field.into()), value: code.into() })
    };
    match set_variable(3, "corpse", "'elona.putit'") {
        DebugAnswer::Failed(message) => {
            assert!(message.contains("elona.putit is a base.chara, not a base.item"), "{message}")
        }
        other => panic!("taken: {other:?}"),
    }
    match set_variable(4, "hp", "'lots'") {
        DebugAnswer::Failed(message) => assert!(message.contains("Value is not of type \"int\""), "{message}"),
        other => panic!("taken: {other:?}"),
    }
    assert!(matches!(set_variable(5, "corpse", "'elona.dagger'"), DebugAnswer::Variable(_)), "an item's id is taken");
    host.send(Command::Debug(DebugCommand::Continue));
    let answer = nefia_tests::host::answer(&host, 2, &mut Vec::new());
    assert_eq!(answer, values(&["\"elona.dagger\""]));
}
