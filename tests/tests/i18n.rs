//! I18N's locale files: found, namespaced and merged as OpenNefia's loader does, run in their
//! mod's sandbox, hotloaded, and list values picked with the world's random numbers. (What
//! `I18N` answers with OpenNefia's own files is `tests/lua/i18n.lua`.)

use std::path::Path;

use nefia_lua::Runtime;
use nefia_lua::reload::{Unchanged, reload_file};
use nefia_protocol::output::Output;
use nefia_tests::mods_dir;

fn write_mod(root: &Path, id: &str, files: &[(&str, &str)]) {
    let dir = root.join(id);
    std::fs::create_dir_all(&dir).expect("a mod folder");
    nefia_tests::write(dir.join("mod.ron"), format!("(id: {id:?}, version: \"1.0.0\", dependencies: [\"base\"])"))
        .expect("a manifest");
    for (path, code) in files {
        let file = dir.join(path);
        std::fs::create_dir_all(file.parent().expect("inside the mod")).expect("a folder");
        nefia_tests::write(file, code).expect("a file");
    }
}

fn load(root: &Path, mods: &[&str]) -> Result<Runtime, String> {
    let mut runtime = Runtime::new(Box::new(|_: Output| {})).expect("a runtime starts");
    let mods: Vec<String> = mods.iter().map(|m| (*m).to_owned()).collect();
    runtime.load_mods(&[root.to_owned(), mods_dir()], &mods).map_err(|e| e.to_string())?;
    Ok(runtime)
}

fn eval(runtime: &Runtime, expression: &str) -> String {
    let values = runtime.exec(&format!("return {expression}"), "test").unwrap_or_else(|f| panic!("Lua failed: {f}"));
    runtime.lua().unpack_multi(values).unwrap_or_else(|e| panic!("{expression}: {e}"))
}

const WORDS: &str = "return { greeting = { hello = \"hello\", many = { \"a\", \"b\", \"c\", \"d\", \"e\", \"f\" } } }";

#[test]
fn top_files_fill_base_a_subfolder_its_namespace_and_a_later_mod_wins() {
    let root = tempfile::tempdir().expect("a temporary folder");
    write_mod(
        root.path(),
        "alpha",
        &[
            ("locale/en/words.lua", WORDS),
            ("locale/en/alpha/extra.lua", "return { thing = { name = \"namespaced\" } }"),
            ("locale/jp/words.lua", "return { greeting = { hello = \"こんにちは\" } }"),
        ],
    );
    write_mod(root.path(), "beta", &[("locale/en/words.lua", "return { greeting = { hello = \"hi from beta\" } }")]);
    let runtime = load(root.path(), &["alpha", "beta"]).expect("the mods load");
    assert_eq!(eval(&runtime, "I18N.get('greeting.hello')"), "hi from beta", "a later mod's key wins");
    assert_eq!(eval(&runtime, "I18N.get('alpha:thing.name')"), "namespaced");
    assert_eq!(eval(&runtime, "I18N.get('thing.name')"), "<error: thing.name>", "a subfolder is not base");
    assert_eq!(eval(&runtime, "(I18N.switch_language('base.japanese')) or I18N.get('greeting.hello')"), "こんにちは");
}

#[test]
fn a_list_value_is_picked_with_the_world_random_numbers() {
    let root = tempfile::tempdir().expect("a temporary folder");
    write_mod(root.path(), "alpha", &[("locale/en/words.lua", WORDS)]);
    let runtime = load(root.path(), &["alpha"]).expect("the mods load");
    let picks = |seed: u64| {
        eval(
            &runtime,
            &format!(
                "(function() math.randomseed({seed}) local t = {{}} for i = 1, 8 do t[i] = I18N.get('greeting.many') end \
                 return table.concat(t) end)()"
            ),
        )
    };
    assert_eq!(picks(7), picks(7), "the same seed picks the same");
    assert_ne!(picks(7), picks(8), "another seed picks otherwise");
}

#[test]
fn a_locale_file_runs_in_its_mods_sandbox() {
    let root = tempfile::tempdir().expect("a temporary folder");
    write_mod(
        root.path(),
        "alpha",
        &[("locale/en/words.lua", "return { io = tostring(io), os = tostring(os and os.execute) }")],
    );
    let runtime = load(root.path(), &["alpha"]).expect("the mods load");
    assert_eq!(eval(&runtime, "I18N.get('io')"), "nil", "no io in a locale file");
    assert_eq!(eval(&runtime, "I18N.get('os')"), "nil", "no os.execute in a locale file");
}

/// A locale file that applies each of `helpers` (globals of a locale file) to players,
/// genders, amounts, unseen and non-table objects, with and without its second argument.
fn helper_probe(helpers: &str) -> String {
    PROBE.replace("NAMES", helpers)
}

const PROBE: &str = r#"-- Every helper named in `names` applied to a set of objects, seen and unseen: one line each.
local objects = {
   { "nil", nil }, { "3", 3 }, { "1", 1 },
   { "player", { is_player = true, is_visible = true, name = "Ann", gender = "female" } },
   { "male", { gender = "male", is_visible = true, name = "putit" } },
   { "female", { gender = "female", is_visible = true, name = "Lomias", has_own_name = true } },
   { "unseen", { gender = "female", name = "ghost" } },
   { "other", { gender = "other", is_visible = true, name = "slime", talk_type = 2 } },
   { "two", { amount = 2, is_visible = true, name = "potions" } },
   { "one", { amount = 1, is_visible = true, name = "potion" } },
}
local names = { NAMES }
return {
   probe = function()
      local lines = {}
      for _, name in ipairs(names) do
         local row = {}
         for _, object in ipairs(objects) do
            for _, second in ipairs({ false, true }) do
               local ok, result = pcall(_ENV[name], object[2], second and true or nil)
               row[#row + 1] = ok and tostring(result) or "error"
            end
         end
         lines[#lines + 1] = name .. ": " .. table.concat(row, " ")
      end
      return table.concat(lines, "\n")
   end,
}"#;

#[test]
fn the_language_helpers_answer_as_opennefia_s() {
    let root = tempfile::tempdir().expect("a temporary folder");
    let en = helper_probe(
        r#""he", "his", "him", "himself", "s", "is", "have", "does", "his_owned", "name", "basename", "itemname""#,
    );
    let jp = helper_probe(r#""he", "his", "him", "nii", "syujin", "kare_wa", "name", "basename""#);
    write_mod(root.path(), "alpha", &[("locale/en/probe.lua", &en), ("locale/jp/probe.lua", &jp)]);
    let runtime = load(root.path(), &["alpha"]).expect("the mods load");
    // No elona here: `chara.you` and `chara.something` are missing keys (nil). OpenNefia's
    // Japanese helpers index a non-table (its `not type(obj) == "table"` never holds): an error.
    let english = [
        "he: it it it it it it you she he he she she it she it it it it it it",
        "his: its its its its its its your hers his his her hers its hers its its its its its its",
        "him: it it it it it it you her him him her her it her it it it it it it",
        "himself: itself itself itself itself itself itself yourself yourself himself himself herself herself itself itself itself itself itself itself itself itself",
        "s: s s   s s   s es s es s es s es   s s",
        "is: is is are are is is are are is is is is is is is is   is is",
        "have: has has has has has has have have has has has has has has has has has has has has",
        "does: does does does does do do do do does does does does does does does does does does do do",
        "his_owned: 's 's 's 's 's 's r r 's 's 's 's 's 's 's 's 's 's 's 's",
        "name: nil nil nil nil nil nil nil nil the putit the putit Lomias Lomias nil the ghost the slime the slime the potions the potions the potion the potion",
        "basename: nil nil nil nil nil nil Ann Ann putit putit Lomias Lomias ghost ghost slime slime potions potions potion potion",
        "itemname: nil nil nil nil nil nil Ann Ann putit putit Lomias Lomias ghost ghost slime slime potions potions potion potion",
    ];
    assert_eq!(eval(&runtime, "I18N.get('probe')"), english.join("\n"));
    let japanese = [
        "he: error error error error error error 彼女 彼女 彼 彼 彼女 彼女 彼女 彼女 彼女 彼女 彼女 彼女 彼女 彼女",
        "his: error error error error error error あなたの あなたの 彼の 彼の 彼女の 彼女の 彼女の 彼女の 彼女の 彼女の 彼女の 彼女の 彼女の 彼女の",
        "him: error error error error error error 彼女 彼女 彼 彼 彼女 彼女 彼女 彼女 彼女 彼女 彼女 彼女 彼女 彼女",
        "nii: error error error error error error 姉 姉 兄 兄 姉 姉 姉 姉 姉 姉 姉 姉 姉 姉",
        "syujin: error error error error error error お嬢様 お嬢様 ご主人様 ご主人様 お嬢様 お嬢様 お嬢様 お嬢様 お嬢様 お嬢様 お嬢様 お嬢様 お嬢様 お嬢様",
        "kare_wa: error error error error error error   putitは putitは Lomiasは Lomiasは それは それは slimeは slimeは potionsは potionsは potionは potionは",
        "name: nil nil nil nil nil nil nil nil putit putit Lomias Lomias nil ghost slime slime potions potions potion potion",
        "basename: nil nil nil nil nil nil Ann Ann putit putit Lomias Lomias ghost ghost slime slime potions potions potion potion",
    ];
    assert_eq!(eval(&runtime, "(I18N.switch_language('base.japanese')) or I18N.get('probe')"), japanese.join("\n"));
}

#[test]
fn a_bad_locale_file_is_an_error_naming_it() {
    let root = tempfile::tempdir().expect("a temporary folder");
    write_mod(root.path(), "alpha", &[("locale/en/words.lua", "return 42")]);
    let error = load(root.path(), &["alpha"]).err().expect("the load fails");
    assert!(error.contains("mods/alpha/locale/en/words.lua"), "{error}");
    assert!(error.contains("returns a table of keys"), "{error}");
}

#[test]
fn a_saved_locale_file_is_hotloaded_and_a_broken_one_keeps_the_old() {
    let root = tempfile::tempdir().expect("a temporary folder");
    write_mod(root.path(), "alpha", &[("locale/en/words.lua", WORDS)]);
    let runtime = load(root.path(), &["alpha"]).expect("the mods load");
    let file = root.path().join("alpha/locale/en/words.lua");
    nefia_tests::write(&file, "return { greeting = { hello = \"hello again\" } }").expect("written");
    let reload = reload_file(runtime.lua(), &file, Unchanged::Skip).expect("a locale file is a loaded file");
    assert!(reload.outcome.is_ok(), "{:?}", reload.outcome);
    assert_eq!(eval(&runtime, "I18N.get('greeting.hello')"), "hello again");
    nefia_tests::write(&file, "return { greeting = ").expect("written");
    let reload = reload_file(runtime.lua(), &file, Unchanged::Skip).expect("reloaded");
    assert!(reload.outcome.is_err(), "a syntax error is refused");
    assert_eq!(eval(&runtime, "I18N.get('greeting.hello')"), "hello again", "the old translations stay");
}

#[test]
fn check_locale_names_a_key_japanese_lacks_and_keys_nothing_uses() {
    let copy = nefia_tests::DemoCopy::new();
    let en = copy.mod_file("elona/locale/en/damage.lua");
    let text = std::fs::read_to_string(&en).expect("the English damage file");
    let text = text.replace("      name = \"sword\",", "      name = \"sword\",\n      short = \"sw.\",");
    nefia_tests::write(&en, text).expect("written");
    let problems: Vec<String> =
        nefia_host::check::check_locale(&copy.project(), "jp", std::time::Duration::from_secs(30))
            .iter()
            .map(ToString::to_string)
            .collect();
    let lacking = "mods/elona/locale/en/damage.lua:6: `damage.weapon.elona.long_sword.short` is in en but not in jp";
    assert!(problems.iter().any(|p| p == lacking), "{:#?}", &problems[..problems.len().min(20)]);
    let unused = "`damage.weapon.elona.long_sword.name` is used nowhere";
    assert!(
        problems.iter().any(|p| p.starts_with("mods/elona/locale/jp/damage.lua:5: ") && p.contains(unused)),
        "{:#?}",
        &problems[..problems.len().min(20)]
    );
    let putit = "`chara._.elona.putit.name`";
    assert!(!problems.iter().any(|p| p.contains(putit)), "a prototype's key is used by the prototype");
}

/// Evaluates `code` in the host's REPL and gives its values joined; panics with a refusal
/// that came before the answer.
fn host_value(host: &nefia_host::HostHandle, code: &str) -> String {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
    let id = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let eval = nefia_protocol::debugging::ReplCommand::Eval { id, code: code.to_owned() };
    host.send(nefia_protocol::message::Command::Repl(eval));
    let mut seen = Vec::new();
    let answer = nefia_tests::host::answer(host, id, &mut seen);
    let refusals: Vec<String> = seen
        .iter()
        .filter_map(|event| match event {
            nefia_protocol::message::HostEvent::Refused(refused) => Some(refused.message.clone()),
            _ => None,
        })
        .collect();
    match answer {
        nefia_protocol::repl::Evaluation::Values(values) if refusals.is_empty() => values.join(", "),
        other => panic!("{code}: {other:?}, refused: {refusals:?}"),
    }
}

#[test]
fn a_locale_edit_is_written_byte_exactly_hotloaded_and_undone_and_a_missing_key_added() {
    use nefia_protocol::editing::EditingCommand;
    use nefia_protocol::message::Command;
    use nefia_protocol::mods::ModCommand;
    let copy = nefia_tests::DemoCopy::new();
    let jp = copy.mod_file("elona/locale/jp/chara.lua");
    let original = std::fs::read_to_string(&jp).expect("the Japanese characters");
    let host = nefia_tests::host::spawn_editing(&copy.project());
    let edit = |key: &str, text: &str| {
        let edit = nefia_game::edit::Edit::LocaleText { file: jp.clone(), key: key.into(), text: text.into() };
        host.send(Command::Editing(EditingCommand::Edit(edit)));
    };
    edit("chara._.elona.putit.name", "ぷちぷち");
    host.send(Command::Mods(ModCommand::SwitchLanguage("base.japanese".into())));
    assert_eq!(host_value(&host, "I18N.localize('base.chara', 'elona.putit', 'name')"), "\"ぷちぷち\"");
    assert_eq!(
        host_value(&host, "data['base.chara']['elona.putit'].name"),
        "\"putit\"",
        "the prototype's source is untouched"
    );
    let written = std::fs::read_to_string(&jp).expect("read");
    assert_eq!(written, original.replacen("name = \"プチ\"", "name = \"ぷちぷち\"", 1), "only the text changed");
    edit("chara._.elona.putit.title", "小さな");
    assert_eq!(host_value(&host, "I18N.get('chara._.elona.putit.title')"), "\"小さな\"", "a missing key is added");
    host.send(Command::Editing(EditingCommand::Undo));
    host.send(Command::Editing(EditingCommand::Undo));
    assert_eq!(host_value(&host, "I18N.localize('base.chara', 'elona.putit', 'name')"), "\"プチ\"");
    assert_eq!(std::fs::read_to_string(&jp).expect("read"), original, "undo puts every byte back");
    host.send(Command::Mods(ModCommand::SwitchLanguage("base.klingon".into())));
    let refused = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| host_value(&host, "I18N.language_id()")));
    assert!(refused.is_err(), "an unknown language is refused");
    assert_eq!(host_value(&host, "I18N.language_id()"), "\"base.japanese\"", "the language stays");
}
