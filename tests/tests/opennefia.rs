//! OpenNefia's own content loads as OpenNefia writes it: twenty characters and twenty items of
//! its `elona` mod (`tests/fixtures/opennefia_elona`: `data:add_multi` of a list in a local,
//! `Enum.Relation` values), each entry recorded at its own line and edited a line at a time
//! through the form's edit path; and a Lua file starting with a UTF-8 byte order mark loads,
//! hotloads, edits and checks as OpenNefia's loader reads it (the mark skipped).

use std::path::{Path, PathBuf};

use nefia_game::Value;
use nefia_game::edit::Edit;
use nefia_host::HostHandle;
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::message::{Command, HostEvent};
use nefia_protocol::mods::ModCommand;
use nefia_protocol::repl::Evaluation;
use nefia_protocol::view::DataTypeView;
use nefia_tests::DemoCopy;
use nefia_tests::host::{eval, event, spawn_editing, wait_for};

const MOD: &str = "opennefia_elona";
const BOM: &str = "\u{feff}";

/// The demo project with the fixture mod added to its mods.
fn with_fixture() -> DemoCopy {
    let copy = DemoCopy::new();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures").join(MOD);
    copy_dir(&fixture, &copy.mod_file(MOD));
    let manifest = copy.project().join("project.ron");
    let text = std::fs::read_to_string(&manifest).unwrap();
    let added = text.replacen("\"damage_popups\"]", &format!("\"damage_popups\", \"{MOD}\"]"), 1);
    assert_ne!(added, text, "the project lists its mods");
    std::fs::write(&manifest, added).unwrap();
    copy
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        match entry.file_type().unwrap().is_dir() {
            true => copy_dir(&entry.path(), &to.join(entry.file_name())),
            false => {
                std::fs::copy(entry.path(), to.join(entry.file_name())).unwrap();
            }
        }
    }
}

fn values(list: &[&str]) -> Evaluation {
    Evaluation::Values(list.iter().map(|v| (*v).to_owned()).collect())
}

fn edit(host: &HostHandle, edit: Edit) {
    host.send(Command::Editing(EditingCommand::Edit(edit)));
}

fn set(host: &HostHandle, data_type: &str, id: &str, field: &str, value: Value) {
    let (data_type, id, field) = (data_type.into(), id.into(), field.into());
    edit(host, Edit::PrototypeField { data_type, id, field, value: Some(value) });
}

/// [`set`], waiting until it is done.
fn set_done(host: &HostHandle, data_type: &str, id: &str, field: &str, value: Value) {
    set(host, data_type, id, field, value);
    settle(host);
}

/// Waits until the host has done what it was sent.
fn settle(host: &HostHandle) {
    eval(host, "nil");
}

/// The next refusal's message.
fn refusal(host: &HostHandle) -> String {
    event(host, &mut Vec::new(), |e| match e {
        HostEvent::Refused(refused) => Some(refused.message.clone()),
        _ => None,
    })
}

/// The lines of `after` that differ from `before`, which has as many.
fn changed_lines(before: &str, after: &str) -> Vec<(String, String)> {
    assert_eq!(before.lines().count(), after.lines().count(), "no line added or removed");
    before.lines().zip(after.lines()).filter(|(a, b)| a != b).map(|(a, b)| (a.to_owned(), b.to_owned())).collect()
}

/// The Data pane's prototypes of `data_type` from the fixture mod: id and origin.
fn origins(data: &[DataTypeView], data_type: &str) -> Vec<(String, String)> {
    let of_type = data.iter().find(|t| t.id.as_str() == data_type).expect("the type is declared");
    of_type
        .entries
        .iter()
        .filter(|p| p.id.as_str().starts_with(&format!("{MOD}.")))
        .map(|p| (p.id.as_str().to_owned(), p.origin.clone()))
        .collect()
}

/// The 1-based line of each `_id = "<id>"` of `text`'s entries, with the line of the `{`
/// that opens the entry (the line before it, in OpenNefia's layout).
fn entry_lines(text: &str) -> Vec<(String, u32)> {
    let lines: Vec<&str> = text.lines().collect();
    lines
        .iter()
        .enumerate()
        .filter_map(|(i, line)| {
            let id = line.trim().strip_prefix("_id = \"")?.split('"').next()?;
            let open = (0..i).rev().find(|&j| lines[j].trim_end().ends_with('{'))?;
            Some((format!("{MOD}.{id}"), u32::try_from(open + 1).ok()?))
        })
        .collect()
}

#[test]
fn twenty_characters_and_twenty_items_of_opennefia_load_as_written_each_at_its_own_line() {
    let copy = with_fixture();
    let charas = copy.mod_file(&format!("{MOD}/data/chara.lua"));
    let items = copy.mod_file(&format!("{MOD}/data/item/junk.lua"));
    let (chara_text, item_text) = (std::fs::read_to_string(&charas).unwrap(), std::fs::read_to_string(&items).unwrap());
    let host = spawn_editing(&copy.project());

    let count = format!(
        "local n, m = 0, 0 \
         for id in data['base.chara']:iter() do if id:find('^{MOD}%.') then n = n + 1 end end \
         for id in data['base.item']:iter() do if id:find('^{MOD}%.') then m = m + 1 end end \
         return n, m"
    );
    assert_eq!(eval(&host, &count), values(&["20", "20"]));
    // As written: OpenNefia's enum values, nested tables, fields Nefia does not declare.
    let read = format!(
        "local c, i = data['base.chara'], data['base.item'] \
         return c['{MOD}.bug'].relation, c['{MOD}.user'].relation, c['{MOD}.user'].quality, \
         c['{MOD}.zeome'].ai_actions.main[3].skill_id, c['{MOD}.zeome'].initial_equipment['elona.primary_weapon']._id, \
         c['{MOD}.bug']._type, i['{MOD}.basket'].random_color, i['{MOD}.ore_piece'].categories[2]"
    );
    assert_eq!(
        eval(&host, &read),
        values(&[
            "-3",
            "0",
            "6",
            "\"elona.spell_chaos_ball\"",
            "\"elona.scythe_of_void\"",
            "\"base.chara\"",
            "\"Furniture\"",
            "\"elona.junk_in_field\"",
        ])
    );
    // An instance reads the enum value as its base value.
    assert_eq!(eval(&host, &format!("return Chara.create('{MOD}.bug', 4, 4).relation")), values(&["-3"]));

    let snapshot = wait_for(&host, |s| {
        s.mods.data.iter().any(|t| t.entries.iter().any(|p| p.id.as_str() == "opennefia_elona.isca"))
    });
    let at = |file: &str, lines: Vec<(String, u32)>| -> Vec<(String, String)> {
        lines.into_iter().map(|(id, line)| (id, format!("[{MOD}] mods/{MOD}/{file}:{line}"))).collect()
    };
    let expected = at("data/chara.lua", entry_lines(&chara_text));
    assert_eq!(expected.len(), 20);
    assert_eq!(origins(&snapshot.mods.data, "base.chara"), expected, "each character is at its entry's line");
    let expected = at("data/item/junk.lua", entry_lines(&item_text));
    assert_eq!(origins(&snapshot.mods.data, "base.item"), expected);
}

#[test]
fn an_add_multi_entry_edits_a_line_at_a_time_through_the_form() {
    let copy = with_fixture();
    let file = copy.mod_file(&format!("{MOD}/data/chara.lua"));
    let original = std::fs::read_to_string(&file).unwrap();
    let host = spawn_editing(&copy.project());
    let shopkeeper = format!("{MOD}.shopkeeper");

    set_done(&host, "base.chara", &shopkeeper, "level", Value::Int(36));
    let edited = std::fs::read_to_string(&file).unwrap();
    assert_eq!(changed_lines(&original, &edited), [("      level = 35,".to_owned(), "      level = 36,".to_owned())]);
    assert_eq!(eval(&host, &format!("data['base.chara']['{shopkeeper}'].level")), values(&["36"]));
    // The file as hotloaded (not yet on disk then) still places each entry: a second edit, of
    // another entry, finds its own line.
    set_done(&host, "base.chara", &format!("{MOD}.isca"), "relation", Value::Int(10));
    let again = std::fs::read_to_string(&file).unwrap();
    let isca = again.find("_id = \"isca\"").unwrap();
    assert_eq!(
        changed_lines(&edited, &again),
        [("      relation = Enum.Relation.Enemy,".to_owned(), "      relation = 10,".to_owned())]
    );
    assert!(again[isca..].contains("relation = 10,"), "isca's own line");
    // Neither a relation OpenNefia's Enum.Relation lacks nor a word the base type lacks.
    set(&host, "base.chara", &format!("{MOD}.bug"), "relation", Value::Int(5));
    assert!(refusal(&host).contains("relation"));
    set(&host, "base.chara", &format!("{MOD}.bug"), "relation", Value::str("friendly"));
    assert!(refusal(&host).contains("relation"));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), again, "refused edits write nothing");

    // Duplicate puts the copy in the list after the original; Delete takes an entry out alone.
    edit(
        &host,
        Edit::DuplicatePrototype {
            data_type: "base.chara".into(),
            id: shopkeeper.clone(),
            new_id: format!("{MOD}.shopkeeper2"),
            file: None,
        },
    );
    settle(&host);
    let duplicated = std::fs::read_to_string(&file).unwrap();
    let (first, second) =
        (duplicated.find("_id = \"shopkeeper\"").unwrap(), duplicated.find("_id = \"shopkeeper2\"").unwrap());
    let caravan = duplicated.find("_id = \"caravan_master\"").unwrap();
    assert!(first < second && second < caravan, "the copy follows its original in the list");
    assert_eq!(eval(&host, &format!("data['base.chara']['{MOD}.shopkeeper2'].level")), values(&["36"]));
    edit(&host, Edit::DeletePrototype { data_type: "base.chara".into(), id: format!("{MOD}.bartender") });
    settle(&host);
    let deleted = std::fs::read_to_string(&file).unwrap();
    assert!(!deleted.contains("\"bartender\"") && deleted.contains("_id = \"informer\""), "only bartender went");
    assert_eq!(eval(&host, &format!("data['base.chara']['{MOD}.bartender'] == nil")), values(&["true"]));
    let count = format!(
        "local n = 0 for id in data['base.chara']:iter() do if id:find('^{MOD}%.') then n = n + 1 end end return n"
    );
    assert_eq!(eval(&host, &count), values(&["20"]));

    for _ in 0..4 {
        host.send(Command::Editing(EditingCommand::Undo));
        settle(&host);
    }
    assert_eq!(std::fs::read_to_string(&file).unwrap(), original, "undo puts the file's bytes back");
}

/// The demo with `mods/elona/content/charas.lua` starting with a byte order mark.
fn with_bom() -> (DemoCopy, PathBuf, String) {
    let copy = DemoCopy::new();
    let file = copy.mod_file("elona/content/charas.lua");
    let text = format!("{BOM}{}", std::fs::read_to_string(&file).unwrap());
    std::fs::write(&file, &text).unwrap();
    (copy, file, text)
}

#[test]
fn a_file_with_a_byte_order_mark_loads_edits_and_hotloads_keeping_it() {
    let (copy, file, original) = with_bom();
    let host = spawn_editing(&copy.project());
    assert_eq!(eval(&host, "data['base.chara']['elona.putit'].max_hp"), values(&["6"]));

    set_done(&host, "base.chara", "elona.putit", "max_hp", Value::Int(9));
    let edited = std::fs::read_to_string(&file).unwrap();
    assert!(edited.starts_with(BOM), "the mark is kept");
    assert_eq!(changed_lines(&original, &edited), [("   max_hp = 6,".to_owned(), "   max_hp = 9,".to_owned())]);
    assert_eq!(eval(&host, "data['base.chara']['elona.putit'].max_hp"), values(&["9"]));

    // A hand edit saved with the mark hotloads.
    std::fs::write(&file, edited.replace("max_hp = 9,", "max_hp = 12,")).unwrap();
    host.send(Command::Mods(ModCommand::Reload(file.clone())));
    settle(&host);
    assert_eq!(eval(&host, "data['base.chara']['elona.putit'].max_hp"), values(&["12"]));
}

#[test]
fn nefia_check_reads_a_file_with_a_byte_order_mark() {
    let (copy, _, _) = with_bom();
    let problems = nefia_host::check::check_project(&copy.project(), std::time::Duration::from_secs(10));
    assert!(problems.is_empty(), "{problems:?}");
}
