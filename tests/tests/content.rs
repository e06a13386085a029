//! Content edited in forms: a prototype's field written back to its Lua file through the host
//! (what the Data pane and `data.set_field` send), checked against its declared type, hotloaded
//! into the running game, and undone and redone through History with the file's bytes exact.

use nefia_runtime::Value;
use nefia_runtime::game::edit::Edit;
use nefia_runtime::host::{Command, EditingCommand, HostEvent, HostHandle, Refused};
use nefia_runtime::lua::repl::Evaluation;
use nefia_tests::DemoCopy;
use nefia_tests::host::{eval, event, spawn_editing};

fn set(host: &HostHandle, field: &str, value: Option<Value>) {
    let edit =
        Edit::PrototypeField { data_type: "base.chara".into(), id: "elona.putit".into(), field: field.into(), value };
    host.send(Command::Editing(EditingCommand::Edit(edit)));
}

/// The next refusal the host sends.
fn refusal(host: &HostHandle) -> Refused {
    event(host, &mut Vec::new(), |e| match e {
        HostEvent::Refused(refused) => Some(refused.clone()),
        _ => None,
    })
}

fn values(list: &[&str]) -> Evaluation {
    Evaluation::Values(list.iter().map(|v| (*v).to_owned()).collect())
}

/// The lines of `after` that differ from `before` (both of the same length).
fn changed_lines(before: &str, after: &str) -> Vec<(String, String)> {
    assert_eq!(before.lines().count(), after.lines().count(), "no line added or removed");
    before.lines().zip(after.lines()).filter(|(a, b)| a != b).map(|(a, b)| (a.to_owned(), b.to_owned())).collect()
}

#[test]
fn a_prototype_field_set_in_a_form_changes_one_line_of_its_file_and_every_instance() {
    let copy = DemoCopy::new();
    let file = copy.mod_file("elona/content/charas.lua");
    let original = std::fs::read_to_string(&file).unwrap();
    let host = spawn_editing(&copy.project());
    eval(&host, "p = Chara.create('elona.putit', 3, 3)");
    assert_eq!(eval(&host, "p.max_hp"), values(&["6"]));

    set(&host, "max_hp", Some(Value::Int(50)));
    assert_eq!(eval(&host, "p.max_hp"), values(&["50"]), "the instance reads the new base value");
    let edited = std::fs::read_to_string(&file).unwrap();
    let changed = changed_lines(&original, &edited);
    assert_eq!(changed.len(), 1, "{changed:?}");
    assert_eq!(changed[0].1.trim(), "max_hp = 50,", "{changed:?}");

    host.send(Command::Editing(EditingCommand::Undo));
    assert_eq!(eval(&host, "p.max_hp"), values(&["6"]));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), original, "undo restores the file's bytes");
    host.send(Command::Editing(EditingCommand::Redo));
    assert_eq!(eval(&host, "p.max_hp"), values(&["50"]));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), edited, "redo writes the edit again");
}

#[test]
fn a_value_of_the_wrong_type_is_refused_with_the_reason_and_the_file_is_left_alone() {
    let copy = DemoCopy::new();
    let file = copy.mod_file("elona/content/charas.lua");
    let original = std::fs::read_to_string(&file).unwrap();
    let host = spawn_editing(&copy.project());
    set(&host, "max_hp", Some(Value::str("lots")));
    let refused = refusal(&host);
    assert!(refused.message.contains("elona.putit.max_hp") && refused.message.contains("\"lots\""), "{refused:?}");
    assert!(refused.message.contains("Value is not of type \"int >= 0\""), "{refused:?}");
    set(&host, "_id", Some(Value::str("blob")));
    assert!(refusal(&host).message.contains("Duplicate"));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), original);
}

#[test]
fn a_field_added_and_unset_in_a_form_goes_in_and_out_of_the_table() {
    let copy = DemoCopy::new();
    let file = copy.mod_file("elona/content/charas.lua");
    let original = std::fs::read_to_string(&file).unwrap();
    let host = spawn_editing(&copy.project());
    eval(&host, "p = Chara.create('elona.putit', 3, 3)");
    set(&host, "fov", Some(Value::Int(4)));
    assert_eq!(eval(&host, "p.fov"), values(&["4"]));
    let added = std::fs::read_to_string(&file).unwrap();
    assert_eq!(added.lines().count(), original.lines().count() + 1, "one line added");
    set(&host, "fov", None);
    assert_eq!(eval(&host, "p.fov"), values(&["15"]), "the type's default shows again");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), original, "unset removes the line it added");
}

#[test]
fn every_edit_of_an_objects_field_is_checked_against_its_declared_type_before_anything_changes() {
    let copy = DemoCopy::new();
    let host = spawn_editing(&copy.project());
    let uid = match eval(&host, "p = Chara.create('elona.putit', 3, 3) return p.uid") {
        Evaluation::Values(values) => values[0].parse::<u64>().expect("a uid"),
        other => panic!("{other:?}"),
    };
    let set_hp = |value: Value| {
        let edit = Edit::SetBase { uids: vec![nefia_runtime::Uid(uid)], field: "hp".into(), value };
        host.send(Command::Editing(EditingCommand::Edit(edit)));
    };
    // What the Inspector, the remote protocol's object.set_base and the debug adapter send.
    set_hp(Value::list(vec![Value::Int(1)]));
    let refused = refusal(&host);
    assert!(refused.message.starts_with("hp = "), "{refused:?}");
    assert!(refused.message.contains("Value is not of type \"int\""), "{refused:?}");
    let deep = (0..70).fold(Value::Int(1), |inner, _| Value::list(vec![inner]));
    set_hp(deep);
    assert!(refusal(&host).message.contains("more than the 64 a stored value may"));
    assert_eq!(eval(&host, "p.hp"), values(&["6"]), "nothing changed");
    set_hp(Value::Int(3));
    assert_eq!(eval(&host, "p.hp"), values(&["3"]), "a value of the field's type is taken");
}

#[test]
fn apply_to_prototype_writes_an_objects_own_value_to_the_source_and_drops_it_in_one_step() {
    let copy = DemoCopy::new();
    let file = copy.mod_file("elona/content/charas.lua");
    let original = std::fs::read_to_string(&file).unwrap();
    let host = spawn_editing(&copy.project());
    let uid = match eval(&host, "p = Chara.create('elona.putit', 3, 3) p.max_hp = 20 return p.uid") {
        Evaluation::Values(values) => nefia_runtime::Uid(values[0].parse::<u64>().expect("a uid")),
        other => panic!("{other:?}"),
    };
    host.send(Command::Editing(EditingCommand::Edit(Edit::ApplyToPrototype { uid, field: "max_hp".into() })));
    // (Reading only: a REPL line that changed the world would be a History step of its own.)
    let both = "p.max_hp, data['base.chara']['elona.putit'].max_hp";
    assert_eq!(eval(&host, both), values(&["20", "20"]));
    let applied = std::fs::read_to_string(&file).unwrap();
    assert_eq!(changed_lines(&original, &applied), [("   max_hp = 6,".to_owned(), "   max_hp = 20,".to_owned())]);
    host.send(Command::Editing(EditingCommand::Undo));
    assert_eq!(eval(&host, both), values(&["20", "6"]), "the object's own value is back, the prototype's too");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), original, "one undo puts both back");
}
