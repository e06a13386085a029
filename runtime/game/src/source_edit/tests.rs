use std::ops::Range;
use std::path::Path;

use super::fixtures::{PUTIT, SAMPLE, mod_files};
use super::syntax::{self, DataAdd, Table};
use super::*;
use crate::value::Key;

/// Whether `text` is only whitespace and comments.
fn is_trivia(text: &str) -> bool {
    let ast = full_moon::parse_fallible(text, full_moon::LuaVersion::lua54()).into_result().unwrap();
    ast.nodes().stmts().next().is_none() && ast.nodes().last_stmt().is_none()
}

/// The table printed back from its pieces: braces, fields and separators, and the trivia
/// between them (checked to be trivia).
fn print_table(text: &str, table: &Table) -> String {
    let mut out = text[table.open.clone()].to_owned();
    let mut at = table.open.end;
    let mut piece = |range: Range<usize>, out: &mut String| {
        assert!(is_trivia(&text[at..range.start]), "not trivia between pieces: {:?}", &text[at..range.start]);
        out.push_str(&text[at..range.end]);
        at = range.end;
    };
    for field in &table.fields {
        piece(field.span.clone(), &mut out);
        if let Some(separator) = &field.separator {
            piece(separator.clone(), &mut out);
        }
    }
    piece(table.close.clone(), &mut out);
    out
}

/// The prototypes of the mods' files that are written out as tables.
fn literal_prototypes(calls: &[DataAdd]) -> impl Iterator<Item = (&DataAdd, Locator<'_>)> {
    calls.iter().filter(|c| c.enclosing.is_none()).filter_map(|c| {
        let locator = Locator { data_type: c.string_field("_type")?, short_id: c.string_field("_id")?, line: c.line };
        Some((c, locator))
    })
}

#[test]
fn every_table_of_the_mods_prints_back_the_same() {
    let mut tables = 0;
    for (path, text) in mod_files() {
        let ast = full_moon::parse_fallible(&text, full_moon::LuaVersion::lua54()).into_result().unwrap();
        assert_eq!(ast.to_string(), text, "{}", path.display());
        for call in syntax::data_adds(&text).unwrap_or_else(|_| panic!("{}", path.display())) {
            let Some(table) = &call.table else { continue };
            assert_eq!(print_table(&text, table), text[table.open.start..table.close.end], "{}", path.display());
            tables += 1;
        }
    }
    assert!(tables >= 30, "{tables} tables");
}

#[test]
fn setting_every_plain_field_of_the_mods_to_its_value_changes_nothing() {
    let mut checked = 0;
    for (path, text) in mod_files() {
        let calls = syntax::data_adds(&text).unwrap();
        for (call, locator) in literal_prototypes(&calls) {
            for field in call.table.iter().flat_map(|t| &t.fields) {
                let (Some(name), Some(value)) = (&field.name, &field.literal) else { continue };
                let edited = set_field(&text, &locator, name, Some(value));
                assert_eq!(edited.as_deref(), Ok(text.as_str()), "{}: {locator}.{name}", path.display());
                checked += 1;
            }
        }
    }
    assert!(checked > 200, "only {checked} fields");
}

#[test]
fn editing_max_hp_of_putit_changes_one_line() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../mods/elona/content/charas.lua");
    let text = std::fs::read_to_string(path).unwrap();
    let edited = set_field(&text, &PUTIT, "max_hp", Some(&Value::Int(9))).unwrap();
    let (before, after): (Vec<_>, Vec<_>) = (text.split('\n').collect(), edited.split('\n').collect());
    assert_eq!(before.len(), after.len());
    let changed: Vec<_> = before.iter().zip(&after).filter(|(b, a)| b != a).collect();
    assert_eq!(changed, [(&"   max_hp = 6,", &"   max_hp = 9,")]);
}

fn at(short_id: &str) -> Locator<'_> {
    Locator { data_type: "base.chara", short_id, line: 0 }
}

#[test]
fn a_new_field_takes_the_tables_style() {
    let edited = set_field(SAMPLE, &PUTIT, "strength", Some(&Value::Int(2))).unwrap();
    assert_eq!(edited, SAMPLE.replace("   ratio = 0.5,\n", "   ratio = 0.5,\n   strength = 2,\n"));
    let edited = set_field(SAMPLE, &at("small"), "glyph", Some(&Value::str("s"))).unwrap();
    assert_eq!(edited, SAMPLE.replace("level = 1 })", "level = 1, glyph = \"s\" })"));
    let edited = set_field(SAMPLE, &PUTIT, "not ident", Some(&Value::list(vec![1.into(), 2.into()]))).unwrap();
    assert!(edited.contains("   ratio = 0.5,\n   [\"not ident\"] = { 1, 2 },\n}"), "{edited}");
    // A last field without a comma gets one, before its comment.
    let text = "data:add {\n  _type = \"base.chara\",\n  _id = \"putit\" -- id\n}\n";
    let edited = set_field(text, &PUTIT, "hp", Some(&Value::Int(1))).unwrap();
    assert_eq!(edited, "data:add {\n  _type = \"base.chara\",\n  _id = \"putit\", -- id\n  hp = 1\n}\n");
    // Tables in the style of the others: not padded here.
    let text = "data:add {_type=\"base.chara\",_id=\"putit\",color={1, 2}}";
    let edited = set_field(text, &PUTIT, "bg", Some(&Value::list(vec![3.into()]))).unwrap();
    assert_eq!(edited, "data:add {_type=\"base.chara\",_id=\"putit\",color={1, 2},bg={3}}");
    // `{}` tells nothing of the spacing: padded, as the mods write tables.
    let text = "data:add { _type = \"base.chara\", _id = \"putit\", slots = {} }";
    let edited = set_field(text, &PUTIT, "slots", Some(&Value::list(vec![3.into()]))).unwrap();
    assert_eq!(edited, "data:add { _type = \"base.chara\", _id = \"putit\", slots = { 3 } }");
}

#[test]
fn unsetting_removes_the_fields_line_and_keeps_the_comments_above() {
    let edited = set_field(SAMPLE, &PUTIT, "name", None).unwrap();
    assert_eq!(edited, SAMPLE.replace("   name = 'putit', -- its name\n", ""));
    let edited = set_field(SAMPLE, &PUTIT, "max_hp", Some(&Value::Nil)).unwrap();
    assert_eq!(edited, SAMPLE.replace("   max_hp = 6,\n", ""));
    assert!(edited.contains("   -- Hit points.\n"));
    let edited = set_field(SAMPLE, &at("small"), "level", None).unwrap();
    assert!(edited.contains("data:add({ _type = \"base.chara\", _id = \"small\", name = \"small\" })"));
    let edited = set_field(SAMPLE, &at("small"), "_type", None);
    assert!(matches!(edited, Err(SourceEditError::Unwritable { .. })), "{edited:?}");
    assert_eq!(set_field(SAMPLE, &PUTIT, "absent", None).unwrap(), SAMPLE);
}

#[test]
fn values_keep_their_quotes_and_floats_stay_floats() {
    let edited = set_field(SAMPLE, &PUTIT, "name", Some(&Value::str("it's \"big\"\n"))).unwrap();
    assert!(edited.contains("   name = 'it\\'s \"big\"\\n', -- its name\n"), "{edited}");
    let edited = set_field(SAMPLE, &at("small"), "name", Some(&Value::str("é"))).unwrap();
    assert!(edited.contains("name = \"é\""), "{edited}");
    let edited = set_field(SAMPLE, &PUTIT, "ratio", Some(&Value::Float(2.0))).unwrap();
    assert!(edited.contains("   ratio = 2.0,\n"));
    let edited = set_field(SAMPLE, &PUTIT, "max_hp", Some(&Value::Int(i64::MIN))).unwrap();
    assert!(edited.contains("   max_hp = 0x8000000000000000,\n"));
    let map = Value::Map(std::sync::Arc::new(
        [(Key::Int(3), 1.into()), (Key::Str("end".into()), true.into()), (Key::Str("a".into()), (-1.5).into())]
            .into_iter()
            .collect(),
    ));
    let edited = set_field(SAMPLE, &PUTIT, "color", Some(&map)).unwrap();
    assert!(edited.contains("   color = { [3] = 1, a = -1.5, [\"end\"] = true },\n"), "{edited}");
    for refused in [Value::Float(f64::NAN), Value::Float(f64::INFINITY), Value::Object(crate::object::Uid(7))] {
        let error = set_field(SAMPLE, &PUTIT, "ratio", Some(&refused)).unwrap_err();
        assert!(error.to_string().contains("`ratio` of base.chara `putit` (line 3)"), "{error}");
    }
}

#[test]
fn prototypes_are_found_by_type_id_and_line() {
    let error = set_field(SAMPLE, &at("ghost"), "hp", Some(&1.into())).unwrap_err();
    assert!(error.to_string().contains("`_id = \"ghost\"`"), "{error}");
    assert!(error.to_string().contains("made by code at line 18 may"), "{error}");
    // The `_id` of the loop's prototype is computed: named by its line.
    let error = set_field(SAMPLE, &Locator { line: 18, ..at("a") }, "hp", Some(&1.into())).unwrap_err();
    assert_eq!(
        error.to_string(),
        "base.chara `a` is made by code at line 18 (its `_id` is computed, inside a for loop): edit it there"
    );
    let error = set_field(SAMPLE, &at("twice"), "hp", Some(&1.into())).unwrap_err();
    assert!(matches!(error, SourceEditError::MadeByCode { line: 22, .. }), "{error}");
    let item = Locator { data_type: "base.item", ..PUTIT };
    let edited = set_field(SAMPLE, &item, "name", Some(&Value::str("toro"))).unwrap();
    assert_eq!(edited, SAMPLE.replace("\"putitoro\"", "\"toro\""));
    // Two tables of one prototype: the one nearest the line wins.
    let text = format!("{SAMPLE}\ndata:add {{ _type = \"base.chara\", _id = \"small\", level = 1 }}\n");
    let edited = set_field(&text, &Locator { line: 26, ..at("small") }, "level", Some(&2.into())).unwrap();
    assert!(edited.ends_with("_id = \"small\", level = 2 }\n") && edited.contains("level = 1 })"));
    assert_eq!(find_prototype(SAMPLE, &PUTIT), Ok(3));
    assert!(matches!(find_prototype(SAMPLE, &at("twice")), Err(SourceEditError::MadeByCode { line: 22, .. })));
    // A rename to an id the file has is refused.
    let error = set_field(SAMPLE, &PUTIT, "_id", Some(&Value::str("small"))).unwrap_err();
    assert!(matches!(error, SourceEditError::IdTaken { line: 14, .. }), "{error}");
    let edited = set_field(SAMPLE, &PUTIT, "_id", Some(&Value::str("blob"))).unwrap();
    assert_eq!(edited, SAMPLE.replacen("\"putit\"", "\"blob\"", 1));
    let error = set_field("data:add {", &PUTIT, "hp", None).unwrap_err();
    assert!(matches!(error, SourceEditError::Parse { line: 1, .. }), "{error}");
}

#[test]
fn duplicate_copies_the_statement_after_it_and_remove_removes_it() {
    let (copied, line) = duplicate(SAMPLE, &PUTIT, "big_putit").unwrap();
    let original = &SAMPLE[SAMPLE.find("data:add {").unwrap()..SAMPLE.find("}\n").unwrap() + 2];
    let copy = original.replace("\"putit\"", "\"big_putit\"");
    assert_eq!(copied, SAMPLE.replacen(original, &format!("{original}\n{copy}"), 1));
    assert_eq!(line, 14);
    assert_eq!(copied.lines().nth(13), Some("data:add {"));
    assert!(matches!(duplicate(SAMPLE, &PUTIT, "small"), Err(SourceEditError::IdTaken { line: 14, .. })));
    let (copied, line) = duplicate(SAMPLE, &at("small"), "tiny").unwrap();
    assert!(copied.contains("level = 1 })\n\ndata:add({ _type = \"base.chara\", _id = \"tiny\", name"));
    assert_eq!(line, 16);

    let removed = remove(SAMPLE, &PUTIT).unwrap();
    assert_eq!(removed, SAMPLE.replacen(&format!("{original}\n"), "", 1));
    let removed = remove(SAMPLE, &at("small")).unwrap();
    assert_eq!(
        removed,
        SAMPLE.replace("data:add({ _type = \"base.chara\", _id = \"small\", name = \"small\", level = 1 })\n", "")
    );
    let error = remove("local t = data:add { _type = \"base.chara\", _id = \"putit\" }", &PUTIT).unwrap_err();
    assert!(matches!(error, SourceEditError::NotAStatement { line: 1, .. }), "{error}");
}

#[test]
fn field_source_gives_the_value_as_written() {
    let text = "data:add {\n   _type = \"base.chara\",\n   _id = \"putit\",\n   \
                on_use = function(item)\n      return true\n   end,\n}\n";
    let source = field_source(text, &PUTIT, "on_use").unwrap().unwrap();
    assert_eq!(source, FieldSource { text: "function(item)\n      return true\n   end".to_owned(), line: 4 });
    assert_eq!(field_source(text, &PUTIT, "absent"), Ok(None));
    let error = field_source("data:add { _type = \"base.chara\", _id = \"putit\", a = 1, a = 2 }", &PUTIT, "a");
    assert!(matches!(error, Err(SourceEditError::FieldTwice { .. })), "{error:?}");
}

#[test]
fn a_mods_file_after_a_duplicate_and_a_remove_keeps_its_layout() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../mods/elona/content/charas.lua");
    let text = std::fs::read_to_string(path).unwrap();
    let start = text.find("data:add {\n   _type = \"base.chara\",\n   _id = \"putit\"").unwrap();
    let block = &text[start..start + text[start..].find("}\n").unwrap() + 2];
    let (copied, line) = duplicate(&text, &PUTIT, "putit2").unwrap();
    assert_eq!(copied.lines().nth(line as usize - 1), Some("data:add {"));
    let copy = block.replace("_id = \"putit\"", "_id = \"putit2\"");
    assert_eq!(copied, text.replacen(block, &format!("{block}\n{copy}"), 1));
    // The copy goes again, with the blank line before it.
    assert_eq!(remove(&copied, &Locator { line, ..at("putit2") }).unwrap(), text);
}

#[test]
fn a_value_written_otherwise_but_the_same_is_kept_as_written() {
    let text = "data:add {\n   _type = 'base.chara', _id = [[putit]],\n   hp = 0x10, ratio = 5e-1, neg = -(2),\n   \
                name = [[\nx]], esc = \"\\65\\u{E9}\\z\n   b\",\n   \
                t = { b = 1, a = { 2; 3 }, [1.0] = 4 }, c = {1,2,3},\n}\n";
    let t = Value::Map(std::sync::Arc::new(
        [
            (Key::Int(1), 4.into()),
            (Key::Str("a".into()), Value::list(vec![2.into(), 3.into()])),
            (Key::Str("b".into()), 1.into()),
        ]
        .into_iter()
        .collect(),
    ));
    let fields = [
        ("_type", Value::str("base.chara")),
        ("_id", Value::str("putit")),
        ("hp", 16.into()),
        ("ratio", 0.5.into()),
        ("neg", (-2).into()),
        ("name", Value::str("x")),
        ("esc", Value::str("Aéb")),
        ("t", t),
        ("c", Value::list(vec![1.into(), 2.into(), 3.into()])),
    ];
    for (field, value) in fields {
        assert_eq!(set_field(text, &PUTIT, field, Some(&value)).unwrap(), text, "{field}");
    }
    let edited = set_field(text, &PUTIT, "ratio", Some(&0.25.into())).unwrap();
    assert_eq!(edited, text.replace("5e-1", "0.25"));
}

#[test]
fn a_copy_goes_into_another_file_at_its_end_after_a_blank_line() {
    let from = "-- putits\ndata:add {\n  _type = 'base.chara',\n  _id = 'putit', -- the first\n  max_hp = 5,\n}\n";
    let copy = copy_of(from, &PUTIT, "big_putit").unwrap();
    assert_eq!(copy, "data:add {\n  _type = 'base.chara',\n  _id = 'big_putit', -- the first\n  max_hp = 5,\n}");
    let (into, line) = append("local x = 1\n\n\n", "base.chara", "big_putit", &copy).unwrap();
    assert_eq!(into, format!("local x = 1\n\n{copy}\n"));
    assert_eq!(line, 3);
    let (empty, line) = append("", "base.chara", "big_putit", &copy).unwrap();
    assert_eq!((empty, line), (format!("{copy}\n"), 1));
    let taken = append(from, "base.chara", "putit", &copy).unwrap_err();
    assert_eq!(taken.to_string(), "base.chara `putit` already exists at line 2");
    // Another type may use the id.
    assert!(append(from, "base.item", "putit", &copy).is_ok());
}

#[test]
fn a_new_prototype_is_written_a_field_a_line_in_the_files_indentation() {
    let file = "data:add {\n    _type = 'base.item',\n    _id = 'rock',\n}\n";
    let (name, hp) = (Value::str("someone"), Value::Int(10));
    let statement = new_statement(file, "base.chara", "hero", &[("name", &name), ("max_hp", &hp)]).unwrap();
    assert_eq!(
        statement,
        "data:add {\n    _type = \"base.chara\",\n    _id = \"hero\",\n    name = \"someone\",\n    max_hp = 10,\n}"
    );
    let fresh = new_statement("", "base.chara", "hero", &[]).unwrap();
    assert_eq!(fresh, "data:add {\n   _type = \"base.chara\",\n   _id = \"hero\",\n}");
    let (written, _) = append(file, "base.chara", "hero", &statement).unwrap();
    assert_eq!(
        prototypes_in(&written).unwrap(),
        [("base.item".into(), "rock".into()), ("base.chara".into(), "hero".into())]
    );
}

#[test]
fn the_lines_naming_an_id_are_its_string_literals_only() {
    let text = "local a = \"elona.putit\"\n-- elona.putit in a comment\nlocal b = elona_putit\nChara.create('elona.putit', 1, 1)\nlocal c = 'elona.putit2'\n";
    assert_eq!(lines_naming(text, "elona.putit"), [1, 4]);
    assert_eq!(lines_naming("local broken = 'elona.putit' ((", "elona.putit"), [1]);
}

/// OpenNefia's forms of `data:add_multi`: the list in the call, and the list in a local.
const MULTI: &str = r#"data:add_multi("base.chara", {
   {
      _id = "putit",
      level = 1,
      relation = Enum.Relation.Enemy, -- OpenNefia's enum
      tags = { "slime" },
   },
   {
      _id = "snail",
      level = 2,
   },
})

local items = {
   {
      _id = "rock",
      value = 5,
   },
   { _id = "stick", value = 1 }
}

data:add_multi("base.item", items)
"#;

#[test]
fn the_entries_of_add_multi_lists_are_prototypes_edited_a_line_at_a_time() {
    assert_eq!(
        prototypes_in(MULTI).unwrap(),
        [
            ("base.chara".into(), "putit".into()),
            ("base.chara".into(), "snail".into()),
            ("base.item".into(), "rock".into()),
            ("base.item".into(), "stick".into())
        ]
    );
    let item = |short_id| Locator { data_type: "base.item", short_id, line: 0 };
    assert_eq!(find_prototype(MULTI, &PUTIT), Ok(2));
    assert_eq!(find_prototype(MULTI, &at("snail")), Ok(8));
    assert_eq!(find_prototype(MULTI, &item("rock")), Ok(15));
    assert_eq!(find_prototype(MULTI, &item("stick")), Ok(19));
    // The call's type is the entries' type: no `base.item` `putit`.
    assert!(matches!(find_prototype(MULTI, &item("putit")), Err(SourceEditError::NotFound { .. })));

    let edited = set_field(MULTI, &at("snail"), "level", Some(&Value::Int(3))).unwrap();
    assert_eq!(edited, MULTI.replacen("level = 2,", "level = 3,", 1));
    let edited = set_field(MULTI, &item("rock"), "weight", Some(&Value::Int(80))).unwrap();
    assert_eq!(edited, MULTI.replacen("value = 5,\n", "value = 5,\n      weight = 80,\n", 1));
    let edited = set_field(MULTI, &item("stick"), "value", None).unwrap();
    assert_eq!(edited, MULTI.replacen("{ _id = \"stick\", value = 1 }", "{ _id = \"stick\" }", 1));
    let relation = field_source(MULTI, &PUTIT, "relation").unwrap().unwrap();
    assert_eq!(relation, FieldSource { text: "Enum.Relation.Enemy".into(), line: 5 });
    assert_eq!(item_lines(MULTI, &PUTIT, "tags"), Ok(Some(vec![6])));
    assert_eq!(lines_naming(MULTI, "snail"), [9]);
    assert_eq!(
        listed_entries(MULTI).unwrap().iter().map(|e| (e.call_lines, e.position, e.line)).collect::<Vec<_>>(),
        [((1, 12), 1, 2), ((1, 12), 2, 8), ((22, 22), 1, 15), ((22, 22), 2, 19)]
    );
}

#[test]
fn an_entry_is_removed_from_its_list_and_copied_into_it() {
    let removed = remove(MULTI, &PUTIT).unwrap();
    let putit =
        &MULTI[MULTI.find("   {\n      _id = \"putit\"").unwrap()..MULTI.find("   {\n      _id = \"snail\"").unwrap()];
    assert_eq!(removed, MULTI.replacen(putit, "", 1));
    let stick = Locator { data_type: "base.item", short_id: "stick", line: 0 };
    assert_eq!(remove(MULTI, &stick).unwrap(), MULTI.replacen("   { _id = \"stick\", value = 1 }\n", "", 1));

    let (copied, line) = duplicate(MULTI, &PUTIT, "big_putit").unwrap();
    assert_eq!(copied, MULTI.replacen(putit, &format!("{putit}{}", putit.replace("\"putit\"", "\"big_putit\"")), 1));
    assert_eq!((line, copied.lines().nth(8)), (8, Some("      _id = \"big_putit\",")));
    // The last entry, without a separator, gets one before its copy.
    let (copied, line) = duplicate(MULTI, &stick, "branch").unwrap();
    assert!(copied.contains("   { _id = \"stick\", value = 1 },\n   { _id = \"branch\", value = 1 }\n}"), "{copied}");
    assert_eq!(line, 20);
    let one_line = "data:add_multi('base.chara', { { _id = 'a' }, { _id = 'b' } })";
    let (copied, _) = duplicate(one_line, &at("a"), "c").unwrap();
    assert_eq!(copied, "data:add_multi('base.chara', { { _id = 'a' }, { _id = 'c' }, { _id = 'b' } })");
    let (copied, _) = duplicate(one_line, &at("b"), "c").unwrap();
    assert_eq!(copied, "data:add_multi('base.chara', { { _id = 'a' }, { _id = 'b' }, { _id = 'c' } })");
    assert_eq!(remove(one_line, &at("a")).unwrap(), "data:add_multi('base.chara', { { _id = 'b' } })");
    assert!(matches!(duplicate(MULTI, &PUTIT, "snail"), Err(SourceEditError::IdTaken { line: 8, .. })));

    // Into another file, an entry becomes a `data:add` with the list's type.
    let copy = copy_of(MULTI, &PUTIT, "big_putit").unwrap();
    assert_eq!(
        copy,
        "data:add {\n   _type = \"base.chara\",\n   _id = \"big_putit\",\n   level = 1,\n   relation = Enum.Relation.Enemy, -- OpenNefia's enum\n   tags = { \"slime\" },\n}"
    );
    assert_eq!(copy_of(one_line, &at("b"), "c").unwrap(), "data:add { _type = 'base.chara', _id = 'c' }");
}

#[test]
fn a_list_in_a_local_is_read_only_while_nothing_else_sets_the_local() {
    for text in [
        "local items = { { _id = 'rock' } }\nitems = other\ndata:add_multi('base.item', items)\n",
        "local items = { { _id = 'rock' } }\nlocal function f()\n   data:add_multi('base.item', items)\nend\n",
        "for _ = 1, 2 do\n   data:add_multi('base.item', { { _id = 'rock' } })\nend\n",
    ] {
        let rock = Locator { data_type: "base.item", short_id: "rock", line: 3 };
        let error = set_field(text, &rock, "value", Some(&Value::Int(1))).unwrap_err();
        assert!(matches!(error, SourceEditError::NotFound { .. } | SourceEditError::MadeByCode { .. }), "{error}");
    }
    let computed = "data:add_multi('base.item', make_items())\n";
    let error = find_prototype(computed, &Locator { data_type: "base.item", short_id: "rock", line: 1 }).unwrap_err();
    assert!(matches!(error, SourceEditError::MadeByCode { line: 1, .. }), "{error}");
}

#[test]
fn a_byte_order_mark_is_skipped_as_opennefias_loader_skips_it_and_kept() {
    let bom = "\u{feff}";
    let text = format!("{bom}data:add {{\n   _type = \"base.chara\",\n   _id = \"putit\",\n   max_hp = 6,\n}}\n");
    assert_eq!(find_prototype(&text, &PUTIT), Ok(1));
    let edited = set_field(&text, &PUTIT, "max_hp", Some(&Value::Int(9))).unwrap();
    assert_eq!(edited, text.replace("max_hp = 6", "max_hp = 9"));
    let (copied, line) = duplicate(&text, &PUTIT, "big_putit").unwrap();
    assert!(
        copied.starts_with(&text[..text.len() - 1]) && copied.ends_with("_id = \"big_putit\",\n   max_hp = 6,\n}\n")
    );
    assert_eq!(line, 7);
    assert_eq!(remove(&copied, &PUTIT).unwrap(), format!("{bom}{}", &copied[text.len() + 1..]));
    assert_eq!(prototypes_in(&text).unwrap(), [("base.chara".into(), "putit".into())]);
    assert_eq!(lines_naming(&format!("{bom}local a = 'elona.putit'"), "elona.putit"), [1]);
    assert!(copy_of(&text, &PUTIT, "x").unwrap().starts_with("data:add {"));
    let listed = format!("{bom}data:add_multi(\"base.chara\", {{ {{ _id = \"putit\" }} }})");
    assert_eq!(
        set_field(&listed, &PUTIT, "max_hp", Some(&Value::Int(1))).unwrap(),
        listed.replace("\" }", "\", max_hp = 1 }")
    );
}
