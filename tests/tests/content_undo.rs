//! Undo and redo of a form's edit are patches on the file as it is now: a prototype added by
//! hand to the same file after the edit stays through undo and redo, and a hand edit over the
//! lines the edit wrote makes undo refuse, naming the file and line, with nothing written.

use nefia_game::Value;
use nefia_game::edit::Edit;
use nefia_host::HostHandle;
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::message::{Command, HostEvent};
use nefia_protocol::mods::ModCommand;
use nefia_protocol::repl::Evaluation;
use nefia_tests::DemoCopy;
use nefia_tests::host::{answer, event, spawn_editing};

/// A prototype written into charas.lua by hand.
const BY_HAND: &str = "\ndata:add {\n   _type = \"base.chara\",\n   _id = \"hand_slime\",\n   name = \"hand slime\",\n   glyph = \"s\",\n   max_hp = 9,\n   hp = 9,\n}\n";

/// Evaluates `code`, keeping the events that arrive before its answer in `seen`.
fn eval(host: &HostHandle, seen: &mut Vec<HostEvent>, code: &str) -> Evaluation {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let id = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    host.send(Command::Repl(nefia_protocol::debugging::ReplCommand::Eval { id, code: code.to_owned() }));
    answer(host, id, seen)
}

fn value(host: &HostHandle, code: &str) -> String {
    match eval(host, &mut Vec::new(), code) {
        Evaluation::Values(values) => values.join(", "),
        other => panic!("{code}: {other:?}"),
    }
}

/// Writes `text` as charas.lua as a text editor saves it, and hotloads it.
fn save_by_hand(host: &HostHandle, file: &std::path::Path, text: &str) {
    nefia_tests::write(file, text).unwrap();
    host.send(Command::Mods(ModCommand::Reload(file.to_owned())));
}

fn step(host: &HostHandle, seen: &mut Vec<HostEvent>, undo: bool) {
    host.send(Command::Editing(if undo { EditingCommand::Undo } else { EditingCommand::Redo }));
    eval(host, seen, "nil");
}

fn read(file: &std::path::Path) -> String {
    std::fs::read_to_string(file).unwrap()
}

#[test]
fn undo_of_a_form_edit_keeps_a_prototype_added_by_hand_since_and_refuses_over_a_hand_edit_of_its_line() {
    let copy = DemoCopy::new();
    let file = copy.mod_file("elona/content/charas.lua");
    let original = read(&file);
    let host = spawn_editing(&copy.project());
    let max_hp = "data['base.chara']['elona.putit'].max_hp";
    let edit = Edit::PrototypeField {
        data_type: "base.chara".into(),
        id: "elona.putit".into(),
        field: "max_hp".into(),
        value: Some(Value::Int(50)),
    };
    host.send(Command::Editing(EditingCommand::Edit(edit)));
    assert_eq!(value(&host, max_hp), "50");
    let edited = read(&file);

    save_by_hand(&host, &file, &format!("{edited}{BY_HAND}"));
    let hand_slime = "data['base.chara']['elona.hand_slime'].max_hp";
    assert_eq!(value(&host, hand_slime), "9", "the hand-written prototype is loaded");

    let mut seen = Vec::new();
    step(&host, &mut seen, true);
    assert_eq!(read(&file), format!("{original}{BY_HAND}"), "undo turned back the form's line only");
    assert_eq!((value(&host, max_hp), value(&host, hand_slime)), ("6".into(), "9".into()), "both in the game");
    step(&host, &mut seen, false);
    assert_eq!(read(&file), format!("{edited}{BY_HAND}"), "redo wrote the form's line again");
    assert_eq!((value(&host, max_hp), value(&host, hand_slime)), ("50".into(), "9".into()));
    assert!(!seen.iter().any(|e| matches!(e, HostEvent::Refused(_))), "{seen:?}");

    // A hand edit over the line the form wrote: undo is refused and writes nothing.
    let over = format!("{edited}{BY_HAND}").replacen("max_hp = 50,", "max_hp = 51,", 1);
    save_by_hand(&host, &file, &over);
    assert_eq!(value(&host, max_hp), "51");
    let done = host.snapshot().editing.history.clone();
    host.send(Command::Editing(EditingCommand::Undo));
    let refused = event(&host, &mut seen, |e| match e {
        HostEvent::Refused(refused) => Some(refused.message.clone()),
        _ => None,
    });
    let line = original.lines().position(|l| l.contains("max_hp = 6")).unwrap() + 1;
    assert!(refused.contains(&format!("charas.lua:{line}: ")), "names the file and line: {refused}");
    assert!(refused.contains("nothing was written"), "{refused}");
    assert_eq!(read(&file).as_bytes(), over.as_bytes(), "the file is byte for byte as the hand left it");
    assert_eq!(value(&host, max_hp), "51", "the game keeps the hand's value");
    assert_eq!(host.snapshot().editing.history, done, "the step stays in History to try again");

    // Put back as the form left it, the same undo goes through.
    save_by_hand(&host, &file, &format!("{edited}{BY_HAND}"));
    step(&host, &mut seen, true);
    assert_eq!(read(&file), format!("{original}{BY_HAND}"));
}
