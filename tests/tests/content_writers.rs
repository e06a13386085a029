//! A form's edit never replaces a file another program is writing: a slow writer (first half,
//! pause, second half, as editors, sync tools and `git checkout` write) keeps every byte it
//! writes, whether the edit waits for it and is made on its whole text or is refused.

use std::io::Write;
use std::time::Duration;

use nefia_runtime::Value;
use nefia_runtime::game::edit::Edit;
use nefia_runtime::host::{Command, EditingCommand, HostEvent, ModCommand, ReplCommand};
use nefia_runtime::lua::repl::Evaluation;
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
    let (halfway_tx, halfway) = std::sync::mpsc::channel();
    let writer = {
        let (items, first, second) = (items.clone(), first.to_owned(), second.to_owned());
        std::thread::spawn(move || {
            let mut file = std::fs::File::create(&items).unwrap();
            file.write_all(first.as_bytes()).unwrap();
            file.flush().unwrap();
            halfway_tx.send(()).unwrap();
            std::thread::sleep(PAUSE);
            file.write_all(second.as_bytes()).unwrap();
        })
    };
    halfway.recv().unwrap();
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
    writer.join().unwrap();

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
