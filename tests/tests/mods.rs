//! Mods: manifests, load order, per-mod environments and `require`.

use std::path::Path;

use nefia_lua::Runtime;
use nefia_protocol::output::Output;
use nefia_tests::mods_dir;

fn write_mod(root: &Path, id: &str, deps: &[&str], files: &[(&str, &str)]) {
    let dir = root.join(id);
    std::fs::create_dir_all(&dir).unwrap();
    let deps = deps.iter().map(|d| format!("{d:?}")).collect::<Vec<_>>().join(", ");
    nefia_tests::write(dir.join("mod.ron"), format!("(id: {id:?}, version: \"1.0.0\", dependencies: [{deps}])"))
        .unwrap();
    for (path, code) in files {
        let file = dir.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        nefia_tests::write(file, code).unwrap();
    }
}

fn runtime() -> Runtime {
    Runtime::new(Box::new(|_: Output| {})).unwrap()
}

#[test]
fn each_mod_has_its_own_environment_and_require() {
    let root = tempfile::tempdir().unwrap();
    write_mod(
        root.path(),
        "alpha",
        &["base"],
        &[
            (
                "init.lua",
                "local util = require('api.util')\nSHARED_NAME = _MOD_NAME\nalpha_result = util.double(21)\ndata:add { _type = 'base.item', _id = 'rock' }",
            ),
            ("api/util.lua", "return { double = function(x) return x * 2 end, mod = _MOD_NAME }"),
        ],
    );
    write_mod(
        root.path(),
        "beta",
        &["alpha"],
        &[(
            "init.lua",
            "beta_sees = SHARED_NAME\nlocal util = require('mod.alpha.api.util')\nbeta_util_mod = util.mod",
        )],
    );
    let mut runtime = runtime();
    runtime.load_mods(&[root.path().to_owned(), mods_dir()], &["beta".into()]).unwrap();
    let order: Vec<_> = runtime.mods().iter().map(|m| m.id().to_owned()).collect();
    assert_eq!(order, ["base", "alpha", "beta"]);
    let mods = runtime.engine().loaded_mods();
    let alpha = &mods[&"alpha".into()].env;
    let beta = &mods[&"beta".into()].env;
    assert_eq!(alpha.raw_get::<String>("SHARED_NAME").unwrap(), "alpha");
    assert_eq!(alpha.raw_get::<i64>("alpha_result").unwrap(), 42);
    assert!(beta.raw_get::<Option<String>>("beta_sees").unwrap().is_none(), "globals stay in their mod");
    assert_eq!(beta.raw_get::<String>("beta_util_mod").unwrap(), "alpha", "a module runs in its own mod's environment");
    drop(mods);
    assert!(runtime.world().data.find("base.item".into(), "alpha.rock").is_ok(), "prototypes take the mod's namespace");
}

#[test]
fn a_missing_dependency_names_both_mods() {
    let root = tempfile::tempdir().unwrap();
    write_mod(root.path(), "lonely", &["ghost"], &[]);
    let error = runtime().load_mods(&[root.path().to_owned()], &["lonely".into()]).unwrap_err().to_string();
    assert!(error.contains("'lonely' depends on 'ghost'"), "{error}");
}

#[test]
fn a_dependency_cycle_names_the_cycle() {
    let root = tempfile::tempdir().unwrap();
    write_mod(root.path(), "egg", &["hen"], &[]);
    write_mod(root.path(), "hen", &["egg"], &[]);
    let error = runtime().load_mods(&[root.path().to_owned()], &["egg".into()]).unwrap_err().to_string();
    assert!(error.contains("egg -> hen -> egg"), "{error}");
}

#[test]
fn an_error_in_a_mod_names_its_file_and_line() {
    let root = tempfile::tempdir().unwrap();
    write_mod(
        root.path(),
        "broken",
        &["base"],
        &[("init.lua", "local x = 1\ndata:add { _type = 'base.nope', _id = 'x' }\n")],
    );
    let error = runtime().load_mods(&[root.path().to_owned(), mods_dir()], &["broken".into()]).unwrap_err().to_string();
    assert!(error.contains("mods/broken/init.lua:2:"), "{error}");
    assert!(error.contains("unknown data type 'base.nope'"), "{error}");
}

#[test]
fn a_syntax_error_in_a_mod_names_its_file_and_line() {
    let root = tempfile::tempdir().unwrap();
    write_mod(root.path(), "typo", &[], &[("init.lua", "local x = 1\n\nlocal = 2\n")]);
    let error = runtime().load_mods(&[root.path().to_owned()], &["typo".into()]).unwrap_err().to_string();
    assert!(error.contains("mods/typo/init.lua:3:"), "{error}");
}

#[test]
fn mods_cannot_reach_io_or_debug() {
    let root = tempfile::tempdir().unwrap();
    write_mod(
        root.path(),
        "curious",
        &[],
        &[("init.lua", "has_io = io ~= nil\nhas_debug = debug ~= nil\nhas_os_execute = os.execute ~= nil")],
    );
    let mut runtime = runtime();
    runtime.load_mods(&[root.path().to_owned()], &["curious".into()]).unwrap();
    let mods = runtime.engine().loaded_mods();
    let env = &mods[&"curious".into()].env;
    for name in ["has_io", "has_debug", "has_os_execute"] {
        assert!(!env.raw_get::<bool>(name).unwrap(), "{name}");
    }
}

#[test]
fn require_api_gives_the_engine_global_unless_the_mod_has_that_module() {
    let root = tempfile::tempdir().unwrap();
    write_mod(
        root.path(),
        "onmod",
        &["base"],
        &[
            (
                "init.lua",
                "local Chara = require('api.Chara')\n\
                 local IUiLayer = require('api.gui.IUiLayer')\n\
                 local Event = require('api.Event')\n\
                 local Own = require('api.Own')\n\
                 same_chara = Chara == _G.Chara\n\
                 same_layer = IUiLayer == UiLayer\n\
                 same_event = Event == _G.Event\n\
                 own_is_own = Own.mine\n\
                 local ok, err = pcall(require, 'api.Nothing')\n\
                 missing = err",
            ),
            ("api/Own.lua", "return { mine = true }"),
        ],
    );
    let mut runtime = runtime();
    runtime.load_mods(&[root.path().to_owned(), mods_dir()], &["onmod".into()]).unwrap();
    let mods = runtime.engine().loaded_mods();
    let env = &mods[&"onmod".into()].env;
    for name in ["same_chara", "same_layer", "same_event", "own_is_own"] {
        assert!(env.raw_get::<bool>(name).unwrap(), "{name}");
    }
    let missing = env.raw_get::<String>("missing").unwrap();
    assert!(missing.contains("mod 'onmod' has no module 'api.Nothing'"), "{missing}");
    assert!(missing.contains("nor has the engine a global table of that name (it has Action, Chara,"), "{missing}");
    drop(mods);
    // Scripts (no home mod) reach the engine's globals the same way.
    let answer = runtime.eval("return require('api.Map') == Map, require('api.InstancedMap') == InstancedMap");
    assert_eq!(answer, nefia_protocol::repl::Evaluation::Values(vec!["true".into(), "true".into()]));
}

#[test]
fn opening_a_project_and_loading_a_save_tell_their_steps() {
    use std::cell::RefCell;
    use std::rc::Rc;
    let steps: Rc<RefCell<Vec<nefia_protocol::output::Progress>>> = Rc::default();
    let mut runtime = runtime();
    let told = steps.clone();
    runtime.set_progress(Rc::new(move |step| told.borrow_mut().push(step.clone())));
    let saves = tempfile::tempdir().unwrap();
    runtime.open(&nefia_tests::repo_root().join("projects/demo")).unwrap();
    runtime.set_save_dir(saves.path().to_owned());
    runtime.start_game().unwrap();
    runtime.save_game("progress").unwrap();
    runtime.load_game("progress").unwrap();
    let what: Vec<String> = steps.borrow().iter().map(|s| s.what.clone()).collect();
    for expected in ["loading mod base", "loading mod elona", "opening map town", "reading save progress"] {
        assert!(what.iter().any(|w| w == expected), "{expected} missing from {what:?}");
    }
    let elona = steps.borrow().iter().find(|s| s.what == "loading mod elona").cloned().unwrap();
    assert!(elona.done < elona.total, "counted among the mods: {elona:?}");
}
