//! The mod sandbox: a hostile mod tries every escape named in the reliability issue, from its
//! `init.lua` and from an event handler; each attempt fails with a message, and another mod,
//! the REPL and command-line scripts still see the pristine API and standard library.

use std::path::Path;

use nefia_lua::Runtime;
use nefia_protocol::output::Output;
use nefia_tests::mods_dir;

/// What the hostile mod tries. Each attempt runs under `pcall`; its outcome goes into
/// `outcomes[name]`: the error message, or "ESCAPED" if it worked.
const HOSTILE: &str = r#"
outcomes = {}
local function try(name, f)
   local ok, err = pcall(f)
   outcomes[name] = ok and "ESCAPED" or tostring(err)
end
try("replace Chara.create", function() Chara.create = function() return "owned" end end)
try("replace string.upper", function() string.upper = function() return "owned" end end)
try("string metatable", function() getmetatable("").__index = { upper = function() return "owned" end } end)
try("rawset an API table", function() rawset(Chara, "create", function() return "owned" end) end)
try("setmetatable an API table", function() setmetatable(Chara, { __index = function() return "owned" end }) end)
try("replace table.insert", function() table.insert = nil end)
try("require a leading dot", function() require(".etc.passwd") end)
try("require an absolute path", function() require("/etc/passwd") end)
try("require a parent folder", function() require("..secret") end)
try("require through a link", function() require("outside") end)
try("stop the collector", function() collectgarbage("stop") end)
try("a save entry that is not a table", function() save.victim = 5 end)
try("debug library", function() return debug.getregistry() end)
try("io library", function() return io.open("/etc/passwd") end)
try("os.execute", function() return os.execute("true") end)
try("layer metatable", function()
   getmetatable(Prompt:new({ "Yes" })).__index.query = function() return "owned" end
end)

local pcall, save, string, tostring = pcall, save, string, tostring
Event.register("base.on_game_started", "hostile.late_escape", function()
   local ok, err = pcall(function() string.rep = function() return "owned" end end)
   save.hostile.handler = ok and "ESCAPED" or tostring(err)
end)

-- These change the mod's own globals only.
pairs = function() error("owned") end
print = function() error("owned") end
load("Chara = nil")()
setmetatable(_G, { __index = function() return "owned" end })
"#;

/// What the other mod records once every mod is loaded.
const VICTIM: &str = r#"
Event.register("base.on_game_started", "victim.check", function()
   local count = 0
   for _ in pairs({ 1, 2, 3 }) do count = count + 1 end
   save.victim.checks = {
      upper = ("abc"):upper(),
      upper_call = string.upper("abc"),
      pairs_count = count,
      create_is_engine = Chara.create ~= nil and Chara.create ~= "owned",
      missing_global = undefined_global == nil,
      rep = ("ab"):rep(2),
      insert = table.insert ~= nil,
   }
end)
"#;

fn write_mod(root: &Path, id: &str, code: &str) {
    let dir = root.join(id);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("mod.ron"), format!("(id: {id:?}, version: \"1.0.0\", dependencies: [\"base\"])")).unwrap();
    std::fs::write(dir.join("init.lua"), code).unwrap();
}

fn hostile_world() -> (Runtime, tempfile::TempDir) {
    let root = tempfile::tempdir().unwrap();
    write_mod(root.path(), "hostile", HOSTILE);
    write_mod(root.path(), "victim", VICTIM);
    // A link inside the mod's folder to a file outside it.
    let secret = root.path().join("outside.lua");
    std::fs::write(&secret, "return 'ESCAPED'").unwrap();
    std::os::unix::fs::symlink(&secret, root.path().join("hostile/outside.lua")).unwrap();
    let mut runtime = Runtime::new(Box::new(|_: Output| {})).unwrap();
    runtime.load_mods(&[root.path().to_owned(), mods_dir()], &["hostile".into(), "victim".into()]).unwrap();
    (runtime, root)
}

fn outcome(runtime: &Runtime, name: &str) -> String {
    let mods = runtime.engine().loaded_mods();
    let outcomes: nefia_lua::mlua::Table = mods[&"hostile".into()].env.raw_get("outcomes").unwrap();
    outcomes.raw_get(name).unwrap()
}

#[test]
fn every_escape_from_init_lua_fails_with_a_message() {
    let (runtime, _root) = hostile_world();
    for (attempt, expected) in [
        ("replace Chara.create", "_G.Chara.create cannot be assigned"),
        ("replace string.upper", "_G.string.upper cannot be assigned"),
        ("string metatable", "attempt to index a string value"),
        ("rawset an API table", "_G.Chara.create cannot be assigned"),
        ("setmetatable an API table", "cannot change a protected metatable"),
        ("replace table.insert", "_G.table.insert cannot be assigned"),
        ("require a leading dot", "is not a module name"),
        ("require an absolute path", "is not a module name"),
        ("require a parent folder", "is not a module name"),
        ("require through a link", "has no module 'outside'"),
        ("stop the collector", "collectgarbage(\"stop\") is not available"),
        ("a save entry that is not a table", "each mod's save entry is a table"),
        ("debug library", "attempt to index a nil value (global 'debug')"),
        ("io library", "attempt to index a nil value (global 'io')"),
        ("os.execute", "attempt to call a nil value (field 'execute')"),
        ("layer metatable", "_G.Prompt.query cannot be assigned"),
    ] {
        let got = outcome(&runtime, attempt);
        assert!(got.contains(expected), "{attempt}: expected an error with {expected:?}, got {got:?}");
    }
}

#[test]
fn another_mod_a_handler_the_repl_and_scripts_see_the_pristine_api() {
    let (runtime, root) = hostile_world();
    // base.on_game_started runs both mods' handlers.
    runtime.exec("Event.trigger('base.on_game_started', nil, {})", "t").unwrap();
    let checks = |expression: &str| -> String {
        let values = runtime.exec(&format!("return tostring({expression})"), "repl").unwrap();
        runtime.lua().unpack_multi::<String>(values).unwrap()
    };
    assert!(checks("save.hostile.handler").contains("_G.string.rep cannot be assigned"), "the handler's escape fails");
    for (check, expected) in [
        ("save.victim.checks.upper", "ABC"),
        ("save.victim.checks.upper_call", "ABC"),
        ("save.victim.checks.pairs_count", "3"),
        ("save.victim.checks.create_is_engine", "true"),
        ("save.victim.checks.missing_global", "true"),
        ("save.victim.checks.rep", "abab"),
        ("save.victim.checks.insert", "true"),
        // The REPL's environment.
        ("('abc'):upper()", "ABC"),
        ("type(Chara.create)", "function"),
        ("type(pairs) .. type(print)", "functionfunction"),
        ("undefined_global", "nil"),
    ] {
        assert_eq!(checks(check), expected, "{check}");
    }
    // A command-line script.
    let script = root.path().join("script.lua");
    std::fs::write(&script, "assert(('x'):upper() == 'X'); assert(type(Chara.create) == 'function'); print('ok')")
        .unwrap();
    runtime.run_file(&script).unwrap();
}

#[test]
fn a_mods_globals_and_metatable_are_its_own() {
    let (runtime, _root) = hostile_world();
    let mods = runtime.engine().loaded_mods();
    let hostile = &mods[&"hostile".into()].env;
    let victim = &mods[&"victim".into()].env;
    // `load` ran in the hostile mod's own environment.
    assert!(hostile.raw_get::<nefia_lua::mlua::Value>("Chara").unwrap().is_nil());
    assert!(hostile.raw_get::<nefia_lua::mlua::Value>("pairs").unwrap().is_function(), "its own pairs");
    assert!(victim.raw_get::<nefia_lua::mlua::Value>("pairs").unwrap().is_nil(), "not the victim's");
    assert!(victim.metatable().is_some_and(|m| m.raw_get::<nefia_lua::mlua::Value>("__index").unwrap().is_table()));
}
