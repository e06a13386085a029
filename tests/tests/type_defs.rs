//! The Lua API's type definitions (`nefia api-defs`): every function the running engine has
//! has a signature and no signature names a function that is gone; the definitions name the
//! project's prototype and event ids and the fields its data types declare; and the demo's
//! mods type-check against them with `emmylua_check` (the EmmyLua analyzer's checker, which
//! `.ci/run` installs) with no errors, while a misspelled method and prototype id are reported.

use std::path::PathBuf;
use std::process::Command;

use nefia_lua::Runtime;
use nefia_lua::type_defs::{all_signatures, api_functions, definitions};
use nefia_protocol::output::Output;
use nefia_tests::repo_root;

fn demo() -> Runtime {
    Runtime::open_project(&repo_root().join("projects/demo"), Box::new(|_: Output| {})).expect("the demo opens")
}

#[test]
fn every_api_function_has_a_signature_and_every_signature_a_function() {
    let runtime = demo();
    let live = api_functions(runtime.lua()).expect("the API is listed");
    assert!(live.len() > 150, "the whole API: {}", live.len());
    // A module's function called with `:` is named so in its signature.
    let named = |name: &str| name.replacen(':', ".", 1);
    let missing: Vec<&String> =
        live.iter().filter(|n| !all_signatures().any(|s| s.name == n.as_str() || named(s.name) == **n)).collect();
    assert!(missing.is_empty(), "functions without a signature in lua/type_defs/signatures.rs: {missing:?}");
    let stale: Vec<&str> =
        all_signatures().map(|s| s.name).filter(|s| !live.iter().any(|n| n == s || *n == named(s))).collect();
    assert!(stale.is_empty(), "signatures of functions the API no longer has: {stale:?}");
}

#[test]
fn the_definitions_name_the_projects_ids_fields_and_methods() {
    let runtime = demo();
    let files = definitions(runtime.lua()).expect("definitions");
    let text = |name: &str| files.iter().find(|f| f.name == name).map(|f| f.text.clone()).expect(name);
    let data = text("data.lua");
    assert!(data.contains("---@alias nefia.id.base.chara") && data.contains("\"elona.putit\""), "prototype ids");
    assert!(data.contains("---@alias nefia.event_id") && data.contains("\"base.on_damage\""), "event ids");
    assert!(
        data.contains("---@class nefia.event_params.base.on_damage\n---@field target IChara\n---@field source IMapObject?\n---@field amount integer"),
        "each event's params, typed"
    );
    assert!(
        data.contains("---@class nefia.proto.base.chara") && data.contains("---@field max_hp? integer Most hit points")
    );
    let objects = text("objects.lua");
    assert!(
        objects.contains("---@class IChara: IMapObject") && objects.contains("function IMapObject:calc(field) end")
    );
    assert!(objects.contains("---@field to_map string? Given by some prototypes"), "fields prototypes give");
    let api = text("api.lua");
    assert!(
        api.contains("---@param id nefia.id.base.chara\n")
            && api.contains("function Chara.create(id, x, y, params, where) end")
    );
    assert!(api.contains("function Prompt:new(entries, options) end"), "modules' methods keep their colon");
    assert!(
        api.contains("---@overload fun(event: \"base.on_map_enter\", name: string, fn: fun(receiver: InstancedMap, params: nefia.event_params.base.on_map_enter, result: any): any"),
        "a handler of an event is typed by its id"
    );
    assert!(api.starts_with("---@meta"));
}

/// The `emmylua_check` to run: `NEFIA_EMMYLUA_CHECK`, else `.ci/tools/bin/emmylua_check`, else
/// one on PATH. None when there is none and CI did not ask for it (`NEFIA_REQUIRE_EMMYLUA`).
fn emmylua_check() -> Option<PathBuf> {
    let candidates = [
        std::env::var_os("NEFIA_EMMYLUA_CHECK").map(PathBuf::from),
        Some(repo_root().join(".ci/tools/bin/emmylua_check")),
        Some(PathBuf::from("emmylua_check")),
    ];
    let found = candidates.into_iter().flatten().find(|c| Command::new(c).arg("--version").output().is_ok());
    if found.is_none() {
        assert!(
            std::env::var_os("NEFIA_REQUIRE_EMMYLUA").is_none(),
            "emmylua_check is not installed: `cargo install emmylua_check` (.ci/run does)"
        );
        eprintln!("emmylua_check is not installed: the mods are not type-checked (cargo install emmylua_check)");
    }
    found
}

#[test]
fn the_demo_mods_type_check_and_a_misspelled_method_and_id_are_reported() {
    let Some(checker) = emmylua_check() else { return };
    let project = nefia_tests::DemoCopy::new();
    let runtime = Runtime::open_project(&project.project(), Box::new(|_: Output| {})).expect("the demo opens");
    let types = tempfile::tempdir().expect("a temp dir");
    nefia_host::type_defs::write(&runtime, &project.project(), types.path()).expect("written");
    let config = project.project().join(".luarc.json");
    let check = |folder: &std::path::Path| {
        let out = Command::new(&checker).arg(folder).arg("-c").arg(&config).output().expect("emmylua_check runs");
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr),
        )
    };
    let (clean, report) = check(&repo_root().join("mods"));
    assert!(clean && !report.contains("error:"), "the demo's mods have no errors:\n{report}");

    let planted = tempfile::tempdir().expect("a temp dir");
    nefia_tests::write(
        planted.path().join("init.lua"),
        "local c = Chara.create(\"elona.putt\", 3, 3)\nif c then\n   c:damag_hp(3)\n   c:mod(\"dv\", 1, \"add\")\nend\n\
         local Item = require(\"api.Item\")\nItem.creat(\"elona.potion\")\n\
         Event.register(\"base.on_damage\", \"x.show\", function(_, params) return params.amout end)\n",
    )
    .expect("planted");
    let (_, report) = check(planted.path());
    assert!(report.contains("\"elona.putt\"") && report.contains("param-type-mismatch"), "the id:\n{report}");
    assert!(report.contains("damag_hp") && report.contains("undefined-field"), "the method:\n{report}");
    assert!(!report.contains("`mod`"), "the real method is known:\n{report}");
    assert!(report.contains("creat"), "require(\"api.Item\") is the global Item, whose `creat` is a typo:\n{report}");
    assert!(
        report.contains("amout"),
        "a handler's params are typed by its event, so a typo'd param is reported:\n{report}"
    );
}

#[test]
fn a_hotload_writes_the_projects_definitions_again() {
    use nefia_protocol::message::{Command, HostEvent};
    use nefia_protocol::mods::ModCommand;
    let copy = nefia_tests::DemoCopy::new();
    let types = copy.project().join(nefia_host::type_defs::DEFAULT_FOLDER);
    {
        let runtime = Runtime::open_project(&copy.project(), Box::new(|_: Output| {})).expect("the demo opens");
        nefia_host::type_defs::write(&runtime, &copy.project(), &types).expect("written");
    }
    assert!(!std::fs::read_to_string(types.join("data.lua")).unwrap().contains("elona.glowing_slime"));
    let host = nefia_tests::host::spawn_editing(&copy.project());
    let file = copy.mod_file("elona/content/charas.lua");
    let text = std::fs::read_to_string(&file).unwrap();
    nefia_tests::write(
        &file,
        format!("{text}\ndata:add {{ _type = \"base.chara\", _id = \"glowing_slime\", name = \"glowing slime\" }}\n"),
    )
    .unwrap();
    host.send(Command::Mods(ModCommand::Reload(file)));
    let reloaded = nefia_tests::host::event(&host, &mut Vec::new(), |e| match e {
        HostEvent::Reloaded(reload) => Some(reload.outcome.clone()),
        _ => None,
    });
    assert!(reloaded.is_ok(), "{reloaded:?}");
    let data = std::fs::read_to_string(types.join("data.lua")).unwrap();
    assert!(data.contains("\"elona.glowing_slime\""), "the new id is known to the code editor");
}

#[test]
fn a_misspelled_locale_key_is_reported_and_the_right_one_is_not() {
    let runtime = demo();
    let files = definitions(runtime.lua()).expect("definitions");
    let data = files.iter().find(|f| f.name == "data.lua").map(|f| f.text.clone()).expect("data.lua");
    assert!(data.contains("---@alias nefia.locale_key nefia.locale_key.0|"), "the locale keys' alias");
    assert!(data.contains("|\"damage.weapon.elona.long_sword.name\"|"), "the keys of OpenNefia's files");
    let api = files.iter().find(|f| f.name == "api.lua").map(|f| f.text.clone()).expect("api.lua");
    assert!(api.contains("---@param key nefia.locale_key\n"), "I18N.get takes a locale key");
    let Some(checker) = emmylua_check() else { return };
    let project = nefia_tests::DemoCopy::new();
    let runtime = Runtime::open_project(&project.project(), Box::new(|_: Output| {})).expect("the demo opens");
    let types = tempfile::tempdir().expect("a temp dir");
    nefia_host::type_defs::write(&runtime, &project.project(), types.path()).expect("written");
    let planted = tempfile::tempdir().expect("a temp dir");
    nefia_tests::write(
        planted.path().join("init.lua"),
        "local I18N = require(\"api.I18N\")\nlocal a = I18N.get(\"damage.weapon.elona.long_swrod.name\")\n\
         local b = I18N.get(\"damage.weapon.elona.long_sword.name\")\nprint(a, b)\n",
    )
    .expect("planted");
    let config = project.project().join(".luarc.json");
    let out = Command::new(&checker).arg(planted.path()).arg("-c").arg(&config).output().expect("emmylua_check runs");
    let report = String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(report.contains("long_swrod") && report.contains("param-type-mismatch"), "the misspelled key:\n{report}");
    assert!(!report.contains("\"damage.weapon.elona.long_sword.name\"` "), "the right key:\n{report}");
}
