//! A form's edit never replaces a file another program is writing: a slow writer (first half,
//! pause, second half, as editors, sync tools and `git checkout` write) keeps every byte it
//! writes, whether the edit waits for it and is made on its whole text or is refused.

use std::io::{BufRead, BufReader};
use std::time::Duration;

use nefia_game::Value;
use nefia_game::edit::Edit;
use nefia_protocol::debugging::ReplCommand;
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::message::{Command, HostEvent};
use nefia_protocol::mods::ModCommand;
use nefia_protocol::repl::Evaluation;
use nefia_tests::DemoCopy;
use nefia_tests::host::{answer, eval, spawn_editing};

/// How long the writer pauses between its halves: well within the edit's wait for it.
const PAUSE: Duration = Duration::from_millis(800);

#[test]
fn a_form_edit_during_a_slow_writers_pause_loses_none_of_its_prototypes() {
    let copy = DemoCopy::new();
    let items = copy.mod_file("elona/content/items.lua");
    let original = std::fs::read_to_string(&items).unwrap();
    let host = spawn_editing(&copy.project());
    // The writer writes the file again with one more prototype at its end, cut in two between
    // statements: its first half alone is a whole Lua file, three of the seven prototypes.
    let written = format!(
        "{original}\ndata:add {{\n   _type = \"base.item\",\n   _id = \"from_the_writer\",\n   name = \"written\",\n   glyph = \"?\",\n}}\n"
    );
    let cut = written.match_indices("\ndata:add {").nth(3).map(|(at, _)| at + 1).expect("a fourth statement");
    let (first, second) = written.split_at(cut);
    // Another program: a shell that opens the file for writing, writes the first half, says
    // so, pauses with the file still open, then writes the second half and closes it.
    let halves = tempfile::tempdir().unwrap();
    let (first_file, second_file) = (halves.path().join("first"), halves.path().join("second"));
    std::fs::write(&first_file, first).unwrap();
    std::fs::write(&second_file, second).unwrap();
    let script = format!(r#"exec 3>"$0"; cat "$1" >&3; echo halfway; sleep {}; cat "$2" >&3"#, PAUSE.as_secs_f64());
    let mut writer = std::process::Command::new("sh")
        .args(["-c", &script])
        .arg(&items)
        .arg(&first_file)
        .arg(&second_file)
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("sh runs");
    let mut said = String::new();
    BufReader::new(writer.stdout.take().unwrap()).read_line(&mut said).unwrap();
    assert_eq!(said.trim(), "halfway");
    let edit = Edit::PrototypeField {
        data_type: "base.item".into(),
        id: "elona.putitoro".into(),
        field: "weight".into(),
        value: Some(Value::Int(7)),
    };
    host.send(Command::Editing(EditingCommand::Edit(edit)));
    let mut seen = Vec::new();
    host.send(Command::Repl(ReplCommand::Eval { id: 1, code: "nil".into() }));
    answer(&host, 1, &mut seen);
    assert!(writer.wait().unwrap().success(), "the writer finished");

    let on_disk = std::fs::read_to_string(&items).unwrap();
    let all: Vec<&str> = written.match_indices("_id = \"").map(|(at, _)| &written[at + 7..]).collect();
    assert_eq!(all.len(), 8, "seven prototypes and the writer's own");
    for id in all.iter().map(|rest| &rest[..rest.find('"').unwrap()]) {
        assert!(on_disk.contains(&format!("_id = \"{id}\"")), "{id} is on disk:\n{on_disk}");
    }
    let refused = seen.iter().find_map(|e| match e {
        HostEvent::Refused(refused) => Some(refused.message.clone()),
        _ => None,
    });
    match refused {
        // Waited for the writer, and made on its whole text.
        None => {
            assert_eq!(on_disk, written.replacen("weight = 2,", "weight = 7,", 1), "the writer's text with the edit");
            assert_eq!(eval(&host, "data['base.item']['elona.putitoro'].weight"), values(&["7"]));
        }
        // Or refused, naming the file, and nothing written over the writer's text.
        Some(message) => {
            assert!(message.contains("items.lua") && message.contains("another program"), "{message}");
            assert_eq!(on_disk, written, "the writer's text, whole");
        }
    }
    host.send(Command::Mods(ModCommand::Reload(items.clone())));
    let in_game = "data['base.item']['elona.from_the_writer'] ~= nil";
    assert_eq!(eval(&host, in_game), values(&["true"]), "and the game has the writer's prototypes");
}

fn values(list: &[&str]) -> Evaluation {
    Evaluation::Values(list.iter().map(|v| (*v).to_owned()).collect())
}
