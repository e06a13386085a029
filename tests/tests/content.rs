//! Content edited in forms: a prototype's field written back to its Lua file through the host
//! (what the Data pane and `data.set_field` send), checked against its declared type, hotloaded
//! into the running game, and undone and redone through History with the file's bytes exact.

use nefia_game::Value;
use nefia_game::edit::Edit;
use nefia_host::HostHandle;
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::editing::Usage;
use nefia_protocol::message::{Command, HostEvent, Refused};
use nefia_protocol::repl::Evaluation;
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
        let edit = Edit::SetBase { uids: vec![nefia_game::Uid(uid)], field: "hp".into(), value };
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
        Evaluation::Values(values) => nefia_game::Uid(values[0].parse::<u64>().expect("a uid")),
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

fn edit(host: &HostHandle, edit: Edit) {
    host.send(Command::Editing(EditingCommand::Edit(edit)));
}

/// Waits until the host has done what it was sent (a REPL line that reads nothing is answered
/// after it, and is no History step).
fn settle(host: &HostHandle) {
    eval(host, "nil");
}

/// Undoes (`undo`) or redoes the last edit and waits until it is done.
fn step(host: &HostHandle, undo: bool) {
    host.send(Command::Editing(if undo { EditingCommand::Undo } else { EditingCommand::Redo }));
    settle(host);
}

fn duplicate(host: &HostHandle, new_id: &str, file: Option<&str>) {
    edit(
        host,
        Edit::DuplicatePrototype {
            data_type: "base.chara".into(),
            id: "elona.putit".into(),
            new_id: new_id.into(),
            file: file.map(str::to_owned),
        },
    );
}

/// Where prototype `id` of `base.chara` is used, as the host lists it.
fn where_used(host: &HostHandle, id: &str) -> Vec<Usage> {
    host.send(Command::Editing(EditingCommand::WhereUsed { data_type: "base.chara".into(), id: id.into() }));
    event(host, &mut Vec::new(), |e| match e {
        HostEvent::Usages { id: asked, usages, .. } if asked == id => Some(usages.clone()),
        _ => None,
    })
}

#[test]
fn a_duplicate_goes_after_its_original_under_a_new_id_and_undo_takes_it_back_out() {
    let copy = DemoCopy::new();
    let file = copy.mod_file("elona/content/charas.lua");
    let original = std::fs::read_to_string(&file).unwrap();
    let host = spawn_editing(&copy.project());
    duplicate(&host, "elona.big_putit", None);
    let ids = "data['base.chara']['elona.big_putit'].max_hp, data['base.chara']['elona.putit'].max_hp";
    assert_eq!(eval(&host, ids), values(&["6", "6"]), "the copy is loaded with the original's fields");
    let duplicated = std::fs::read_to_string(&file).unwrap();
    let copy_at = duplicated.find("_id = \"big_putit\"").expect("the copy's id is in the file");
    assert!(duplicated.find("_id = \"putit\"").unwrap() < copy_at, "the copy comes after the original");
    assert!(duplicated.starts_with(&original[..original.find("_id = \"putit\"").unwrap()]), "what is before is kept");

    step(&host, true);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), original, "undo restores the file's bytes");
    assert_eq!(eval(&host, "data['base.chara']['elona.big_putit'] == nil"), values(&["true"]), "and retires the copy");
    step(&host, false);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), duplicated);
    assert_eq!(eval(&host, "data['base.chara']['elona.big_putit'].max_hp"), values(&["6"]));

    // Into another file of the mod: at its end.
    let items = copy.mod_file("elona/content/items.lua");
    let items_before = std::fs::read_to_string(&items).unwrap();
    duplicate(&host, "elona.tiny_putit", Some("mods/elona/content/items.lua"));
    settle(&host);
    let items_after = std::fs::read_to_string(&items).unwrap();
    assert!(items_after.starts_with(items_before.trim_end()), "the file's text is kept");
    assert!(items_after.trim_end().ends_with('}') && items_after.contains("_id = \"tiny_putit\""), "{items_after}");
    assert_eq!(eval(&host, "data['base.chara']['elona.tiny_putit'].name"), values(&["\"putit\""]));
}

#[test]
fn a_duplicate_or_new_id_must_be_well_formed_free_and_of_the_files_mod() {
    let copy = DemoCopy::new();
    let file = copy.mod_file("elona/content/charas.lua");
    let original = std::fs::read_to_string(&file).unwrap();
    let host = spawn_editing(&copy.project());
    duplicate(&host, "big putit", None);
    assert!(refusal(&host).message.contains("an id is `<mod>.<name>`"));
    duplicate(&host, "elona.big putit", None);
    assert!(refusal(&host).message.contains("is not a name: use letters, digits and `_`"));
    duplicate(&host, "elona.yeek", None);
    assert!(refusal(&host).message.contains("base.chara already has elona.yeek: choose another id"));
    duplicate(&host, "tools.putit", None);
    let refused = refusal(&host).message;
    assert!(refused.contains("mods/elona/content/charas.lua is not a loaded file of mod tools"), "{refused}");
    edit(
        &host,
        Edit::NewPrototype { data_type: "base.chara".into(), new_id: "elona.hero".into(), file: "nowhere.lua".into() },
    );
    assert!(refusal(&host).message.contains("nowhere.lua is not a loaded file of mod elona; its files are"));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), original, "nothing was written");
}

#[test]
fn a_new_prototype_is_its_types_template_at_the_end_of_the_chosen_file() {
    let copy = DemoCopy::new();
    let file = copy.mod_file("elona/content/charas.lua");
    let original = std::fs::read_to_string(&file).unwrap();
    let host = spawn_editing(&copy.project());
    let new = Edit::NewPrototype {
        data_type: "base.chara".into(),
        new_id: "elona.hero".into(),
        file: "mods/elona/content/charas.lua".into(),
    };
    edit(&host, new);
    settle(&host);
    assert_eq!(eval(&host, "data['base.chara']['elona.hero'].name"), values(&["\"someone\""]));
    let written = std::fs::read_to_string(&file).unwrap();
    let added = written.strip_prefix(original.trim_end()).expect("the file's text is kept before it");
    assert!(added.starts_with("\n\ndata:add {\n   _type = \"base.chara\",\n   _id = \"hero\",\n"), "{added}");
    assert!(added.contains("   name = \"someone\",\n"), "a template field at its default: {added}");
    step(&host, true);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), original);
    assert_eq!(eval(&host, "data['base.chara']['elona.hero'] == nil"), values(&["true"]));
}

#[test]
fn where_used_lists_map_files_objects_lua_strings_and_recordings_each_with_its_place() {
    let copy = DemoCopy::new();
    let host = spawn_editing(&copy.project());
    let usages = where_used(&host, "elona.putit");
    let text: Vec<String> = usages.iter().map(ToString::to_string).collect();
    assert!(
        usages.iter().any(|u| matches!(u, Usage::MapFile { map, .. } if map == "dungeon")),
        "a map file's putit: {text:#?}"
    );
    assert!(
        usages.contains(&Usage::Literal { at: "mods/elona/content/generators.lua:25".into() }),
        "the generator's string: {text:#?}"
    );
    assert!(usages.contains(&Usage::Recording { name: "tests/walk-and-kill.ron".into() }), "a recording: {text:#?}");
    assert!(!text.iter().any(|t| t.contains("charas.lua")), "its own `_id` is not a use: {text:#?}");
    let on_map = "p = Chara.create('elona.putit', 4, 5)";
    eval(&host, on_map);
    let usages = where_used(&host, "elona.putit");
    assert!(
        usages.iter().any(|u| matches!(u, Usage::Object { x: 4, y: 5, map: Some(_), .. })),
        "the object on the open map: {usages:#?}"
    );
}

#[test]
fn delete_is_refused_while_anything_uses_the_prototype_and_listed_what() {
    let copy = DemoCopy::new();
    let file = copy.mod_file("elona/content/charas.lua");
    let host = spawn_editing(&copy.project());
    let delete = |id: &str| edit(&host, Edit::DeletePrototype { data_type: "base.chara".into(), id: id.into() });
    delete("elona.putit");
    let refused = refusal(&host).message;
    assert!(refused.starts_with("Delete elona.putit: it is used by "), "{refused}");
    assert!(refused.contains("generators.lua:25"), "{refused}");

    duplicate(&host, "elona.big_putit", None);
    settle(&host);
    let duplicated = std::fs::read_to_string(&file).unwrap();
    eval(&host, "do Chara.create('elona.big_putit', 4, 5) end");
    delete("elona.big_putit");
    let refused = refusal(&host).message;
    assert!(refused.contains("at (4, 5)"), "the placed copy is named: {refused}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), duplicated, "the file is left alone");

    step(&host, true);
    eval(&host, "collectgarbage()");
    assert_eq!(where_used(&host, "elona.big_putit"), [], "an object an undo took away, no script holds, is no use");
    delete("elona.big_putit");
    settle(&host);
    assert_eq!(eval(&host, "data['base.chara']['elona.big_putit'] == nil"), values(&["true"]), "deleted");
    assert!(!std::fs::read_to_string(&file).unwrap().contains("big_putit"));
    step(&host, true);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), duplicated, "undo puts its table back");
    assert_eq!(eval(&host, "data['base.chara']['elona.big_putit'].max_hp"), values(&["6"]));
}

/// The game's keys are `base.keybind` prototypes: one rebound in the form (written to
/// commands.lua and hotloaded) moves the player with its new key, the old key does nothing, and
/// a key no keybind names is no error.
#[test]
fn a_keybind_rebound_in_the_form_moves_the_player_with_its_new_key() {
    use nefia_game::display::Input;
    use nefia_protocol::play::PlayCommand;
    use nefia_protocol::play::PlayFrom;
    let copy = DemoCopy::new();
    let host = spawn_editing(&copy.project());
    let edit = Edit::PrototypeField {
        data_type: "base.keybind".into(),
        id: "elona.west".into(),
        field: "default".into(),
        value: Some(Value::str("x")),
    };
    host.send(Command::Editing(EditingCommand::Edit(edit)));
    eval(&host, "nil");
    let written = std::fs::read_to_string(copy.mod_file("elona/game/commands.lua")).unwrap();
    assert!(written.contains("_id = \"west\", name = \"Move west\", default = \"x\""), "written back");
    host.send(Command::Play(PlayCommand::Start(PlayFrom::Start)));
    let start = nefia_tests::host::wait_for(&host, |s| s.play.playing && s.player_at.is_some()).player_at;
    let (x, y) = start.expect("the player");
    for key in ["left", "z"] {
        host.send(Command::Input(Input::Key(key.into())));
    }
    assert_eq!(eval(&host, "World.turn()"), values(&["0"]), "the old key and an unbound one pass no turn");
    host.send(Command::Input(Input::Key("x".into())));
    let moved = nefia_tests::host::wait_for(&host, |s| s.player_at != start).player_at;
    assert_eq!(moved, Some((x - 1, y)), "x moves west now");
    assert!(host.snapshot().debug.error.is_none(), "no key raised an error");
}
