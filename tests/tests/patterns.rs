//! The engine's pattern functions (kept to the time limit) answer exactly as Lua's C ones:
//! random subjects and patterns through `find`, `match`, `gmatch` and `gsub` of both, results
//! and error messages compared. And the limits reach into them, `string.rep`, `table.concat`
//! and `table.sort`.

use std::time::{Duration, Instant};

use nefia_lua::mlua::{self, Lua};
use nefia_tests::TestGame;
use proptest::prelude::*;

/// An error's message without its `place:line:` prefix and traceback.
fn message(text: &str) -> String {
    let first = text.lines().next().unwrap_or_default();
    first.rsplit_once(": ").map_or(first, |(_, m)| m).to_owned()
}

/// What a call answers in plain Lua: its results as text, or its error's message.
fn answer(lua: &Lua, code: &str) -> String {
    match lua.load(code).eval::<mlua::MultiValue>() {
        Ok(values) => values.iter().map(|v| format!("{v:?}")).collect::<Vec<_>>().join(", "),
        Err(error) => message(&nefia_lua::error::root_message(&error)),
    }
}

fn calls(subject: &str, pattern: &str) -> Vec<String> {
    let (s, p) = (format!("{subject:?}"), format!("{pattern:?}"));
    vec![
        format!("return string.find({s}, {p})"),
        format!("return string.find({s}, {p}, 2)"),
        format!("return string.find({s}, {p}, -3, true)"),
        format!("return string.match({s}, {p})"),
        format!(
            "local t = {{}} for a, b in string.gmatch({s}, {p}) do t[#t + 1] = tostring(a) .. '|' .. tostring(b) end return table.concat(t, ',')"
        ),
        format!("return string.gsub({s}, {p}, '<%0>')"),
        format!("return string.gsub({s}, {p}, '%1', 2)"),
        format!("return string.gsub({s}, {p}, function(a) return a:upper() end)"),
        format!("return string.gsub({s}, {p}, {{ a = 'A', [1] = 'one' }})"),
    ]
}

fn pattern_piece() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "a", "b", ".", "%a", "%d", "%s", "%W", "[ab]", "[^a]", "[a-c]", "*", "+", "-", "?", "(", ")", "()", "%1", "^",
        "$", "%b()", "%f[a]", "%", "[", "%%", " ",
    ])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]

    #[test]
    fn the_engines_patterns_answer_as_lua_does(
        subject in "[ab1 ()%]{0,10}",
        pieces in prop::collection::vec(pattern_piece(), 0..6),
    ) {
        let pattern: String = pieces.concat();
        let game = TestGame::new();
        let reference = Lua::new();
        for code in calls(&subject, &pattern) {
            let ours = {
                let values = game.runtime.exec(&code, "pattern");
                match values {
                    Ok(values) => values.iter().map(|v| format!("{v:?}")).collect::<Vec<_>>().join(", "),
                    Err(failure) => message(&failure.message),
                }
            };
            prop_assert_eq!(ours, answer(&reference, &code), "{}", code);
        }
    }
}

/// How long an interrupted call may take on a loaded machine: far above the limit of 0.3 s,
/// far below the hours each call here would run without it.
const INTERRUPTED_BY: Duration = Duration::from_secs(20);

fn interrupted_within(game: &TestGame, code: &str) -> Duration {
    game.runtime.set_limits(Some(Duration::from_millis(300)), None);
    let started = Instant::now();
    let error = game.runtime.eval(code);
    let elapsed = started.elapsed();
    let text = format!("{error:?}");
    assert!(text.contains("interrupted"), "{code}: {text}");
    elapsed
}

#[test]
fn a_backtracking_pattern_is_stopped_by_the_time_limit() {
    let game = TestGame::new();
    for code in [
        r#"return string.find(("a"):rep(30000), "a*a*a*a*a*b")"#,
        r#"return ("a"):rep(30000):match("(a*)(a*)(a*)(a*)b")"#,
        r#"return ("a"):rep(30000):gsub("a*a*a*a*b", "")"#,
        r#"for m in ("a"):rep(30000):gmatch("a-a-a-a-b") do end"#,
        r#"return ("ab"):rep(500000):find(("ab"):rep(15000) .. "c", 1, true)"#,
    ] {
        let elapsed = interrupted_within(&game, code);
        assert!(elapsed < INTERRUPTED_BY, "{code} took {elapsed:?}");
    }
}

#[test]
fn sort_with_a_lua_comparator_and_concat_are_stopped_by_the_time_limit() {
    let game = TestGame::new();
    let sort = "local t = {} for i = 1, 200000 do t[i] = -i end \
                table.sort(t, function(a, b) for _ = 1, 50 do end return a < b end)";
    assert!(interrupted_within(&game, sort) < INTERRUPTED_BY);
}

#[test]
fn rep_and_concat_refuse_strings_past_the_memory_limit() {
    let game = TestGame::new();
    game.runtime.set_limits(None, Some(64 << 20));
    let error = format!("{:?}", game.runtime.eval(r#"return ("x"):rep(2^40)"#));
    assert!(error.contains("string.rep would make a string of 1099511627776 bytes"), "{error}");
    let error = format!("{:?}", game.runtime.eval(r#"return string.rep("abc", 100000000, ",")"#));
    assert!(error.contains("more than the"), "{error}");
    let error = format!(
        "{:?}",
        game.runtime
            .eval("local s = ('y'):rep(1000000) local t = {} for i = 1, 100 do t[i] = s end return #table.concat(t)")
    );
    assert!(error.contains("table.concat would make a string of"), "{error}");
    assert_eq!(game.eval::<String>(r#"string.rep("ab", 3, "-")"#), "ab-ab-ab");
    assert_eq!(game.eval::<String>(r#"table.concat({ 1, "b", 2.5 }, "+")"#), "1+b+2.5");
}
