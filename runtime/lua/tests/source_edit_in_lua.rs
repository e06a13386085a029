//! The game crate reads the literals of a mod's `data:add` tables, and writes values into them,
//! as Lua itself reads them (`nefia_game::source_edit`): held here, where Lua is, against the
//! Lua the mods run in.

use nefia_game::source_edit::{Locator, literal_fields, same, set_field};
use nefia_game::value::{Key, Value};
use proptest::prelude::*;

#[path = "../../game/src/source_edit/fixtures.rs"]
mod fixtures;

use fixtures::{PUTIT, SAMPLE, mod_files};

fn lua_value(lua: &mlua::Lua, value: mlua::Value) -> Value {
    nefia_lua::convert::from_lua(lua, &value, "value").unwrap()
}

#[test]
fn every_literal_of_the_mods_reads_as_lua_reads_it() {
    let lua = mlua::Lua::new();
    let mut literals = 0;
    for (path, text) in mod_files() {
        for field in literal_fields(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display())) {
            let read = lua.load(format!("return {}", field.written)).eval().unwrap();
            let read = lua_value(&lua, read);
            assert!(same(&read, &field.value), "{}:{}: {read:?} != {:?}", path.display(), field.line, field.value);
            literals += 1;
        }
    }
    assert!(literals >= 200, "{literals} literal fields");
}

fn plain_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        any::<bool>().prop_map(Value::Bool),
        any::<i64>().prop_map(Value::Int),
        any::<f64>().prop_filter("finite", |x| x.is_finite()).prop_map(Value::Float),
        prop_oneof![any::<String>(), "[a-z'\"\\\\\n é\u{1F600}]{0,8}"].prop_map(|s| Value::str(&s)),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::list),
            // At least one string key, so Lua does not read the table as a list.
            (
                "[a-z_ \"']{0,6}",
                inner.clone(),
                prop::collection::btree_map(any::<i64>().prop_map(Key::Int), inner, 0..3)
            )
                .prop_map(|(key, value, mut map)| {
                    map.insert(Key::Str(key.as_str().into()), value);
                    Value::Map(std::sync::Arc::new(map))
                }),
        ]
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// What set_field writes, Lua reads back as the same value.
    #[test]
    fn written_values_read_back_in_lua(
        value in plain_value(),
        field in prop::sample::select(vec!["name", "color", "max_hp", "ratio", "new_field", "not ident", "end"]),
    ) {
        let edited = set_field(SAMPLE, &PUTIT, field, Some(&value)).unwrap();
        let lua = mlua::Lua::new();
        let read: mlua::Value = lua
            .load(format!(
                "local added = {{}}\nlocal data = {{ add = function(_, t) added[t._type .. t._id] = t end }}\n\
                 local function ipairs() return function() end end\n{edited}\nreturn added['base.charaputit'][...]"
            ))
            .call(field)
            .unwrap();
        let read = lua_value(&lua, read);
        prop_assert!(same(&read, &value), "{read:?} != {value:?} in\n{edited}");
        // And setting it again changes nothing.
        prop_assert_eq!(set_field(&edited, &PUTIT, field, Some(&value)).unwrap(), edited);
    }
}
