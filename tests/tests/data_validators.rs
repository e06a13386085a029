//! A data type's validators: rules across a prototype's fields (`base.chara`'s hp at most its
//! max_hp), declared in `data:add_type`. A prototype that breaks one loads and a form edit that
//! breaks one is written; the rule is reported — in the snapshot's data view (the Data and
//! Problems panes) and by `nefia check` with the prototype's file and line.

use std::time::Duration;

use nefia_game::Value;
use nefia_game::edit::Edit;
use nefia_host::check::check_project;
use nefia_protocol::checks::PrototypeProblem;
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::message::Command;
use nefia_protocol::view::Snapshot;
use nefia_tests::DemoCopy;
use nefia_tests::host::{spawn_editing, wait_for};

/// The problems the snapshot's data view gives `elona.putit`.
fn putit_problems(snapshot: &Snapshot) -> Vec<PrototypeProblem> {
    let charas = snapshot.mods.data.iter().find(|t| t.id.as_str() == "base.chara").expect("base.chara");
    charas.entries.iter().find(|e| e.id.as_str() == "elona.putit").expect("the putit").problems.clone()
}

/// The line of the `data:add` that adds `_id = "<short_id>"` in `text`.
fn line_of_add(text: &str, short_id: &str) -> usize {
    let at = text.lines().position(|l| l.trim() == format!("_id = \"{short_id}\",")).expect("the prototype");
    text.lines().take(at).collect::<Vec<_>>().iter().rposition(|l| l.contains("data:add")).expect("its data:add") + 1
}

#[test]
fn a_form_edit_that_breaks_a_rule_is_written_and_the_view_names_the_rule_and_its_fields() {
    let copy = DemoCopy::new();
    let file = copy.mod_file("elona/content/charas.lua");
    let host = spawn_editing(&copy.project());
    assert_eq!(putit_problems(&host.snapshot()), [], "the demo's putit keeps the rule");

    let edit = Edit::PrototypeField {
        data_type: "base.chara".into(),
        id: "elona.putit".into(),
        field: "max_hp".into(),
        value: Some(Value::Int(3)),
    };
    host.send(Command::Editing(EditingCommand::Edit(edit)));
    let snapshot = wait_for(&host, |s| !putit_problems(s).is_empty());
    assert!(std::fs::read_to_string(&file).unwrap().contains("max_hp = 3,"), "written, not refused");
    let problems = putit_problems(&snapshot);
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert_eq!(problems[0].message, "hp (6) is more than max_hp (3)");
    let fields: Vec<&str> = problems[0].fields.iter().map(|f| f.as_str()).collect();
    assert_eq!(fields, ["hp", "max_hp"]);

    host.send(Command::Editing(EditingCommand::Undo));
    wait_for(&host, |s| putit_problems(s).is_empty());
}

#[test]
fn nefia_check_reports_a_broken_rule_at_the_prototypes_file_and_line() {
    let copy = DemoCopy::new();
    let file = copy.mod_file("elona/content/charas.lua");
    let text = std::fs::read_to_string(&file).unwrap();
    let broken = text.replacen("max_hp = 6,\n   hp = 6,", "max_hp = 6,\n   hp = 50,", 1);
    assert_ne!(broken, text, "the putit's hp is set");
    std::fs::write(&file, &broken).unwrap();

    let problems = check_project(&copy.project(), Duration::from_secs(10));
    let found: Vec<_> = problems.iter().filter(|p| p.message.contains("more than max_hp")).collect();
    assert_eq!(found.len(), 1, "{problems:?}");
    assert_eq!(found[0].message, "elona.putit (base.chara): hp (50) is more than max_hp (6)");
    assert!(found[0].file.ends_with("mods/elona/content/charas.lua"), "{}", found[0]);
    assert_eq!(found[0].line, Some(line_of_add(&broken, "putit")), "{}", found[0]);
}

#[test]
fn a_validator_declared_wrong_is_refused_naming_the_type_and_what_to_give() {
    let cases = [
        ("validators = 3", "validators is a list of { validate = function(proto) ... end }, not the integer given"),
        ("validators = { { doc = \"x\" } }", "validator 1 has no validate function"),
        (
            "validators = { { fields = { \"hpp\" }, validate = function() return true end } }",
            "validator 1 names field 'hpp', which elona.monster does not declare",
        ),
    ];
    for (validators, expected) in cases {
        let copy = DemoCopy::new();
        let init = copy.mod_file("elona/init.lua");
        let mut text = std::fs::read_to_string(&init).unwrap();
        text.push_str(&format!(
            "\ndata:add_type {{ name = \"monster\", fields = {{ {{ name = \"hp\", type = types.int, default = 1 }} }}, {validators} }}\n"
        ));
        std::fs::write(&init, text).unwrap();
        let problems = check_project(&copy.project(), Duration::from_secs(10));
        assert!(
            problems.iter().any(|p| p.message.contains(expected) && p.message.contains("Data type elona.monster")),
            "{validators}: {problems:?}"
        );
    }
}

#[test]
fn a_validator_that_fails_is_a_problem_of_the_prototype_it_was_checking() {
    let copy = DemoCopy::new();
    let init = copy.mod_file("elona/init.lua");
    let mut text = std::fs::read_to_string(&init).unwrap();
    text.push_str(concat!(
        "\ndata:add_type { name = \"monster\", fields = { { name = \"hp\", type = types.int, default = 1 } },\n",
        "   validators = { { doc = \"hp is checked\", validate = function(m) return m.no_such.field end } } }\n",
        "data:add { _type = \"elona.monster\", _id = \"slime\" }\n",
    ));
    std::fs::write(&init, text).unwrap();
    let problems = check_project(&copy.project(), Duration::from_secs(10));
    let found: Vec<_> = problems.iter().filter(|p| p.message.starts_with("elona.slime (elona.monster)")).collect();
    assert_eq!(found.len(), 1, "{problems:?}");
    assert!(found[0].message.contains("the validator \"hp is checked\" failed:"), "{}", found[0]);
    assert!(found[0].file.ends_with("mods/elona/init.lua") && found[0].line.is_some(), "{}", found[0]);
}
