//! Runs the Lua tests: every global `test_*` function of every `tests/lua/**/*.lua` file, each
//! against a fresh game (see `nefia_tests::lua_tests`), listed by cargo as `file::test_name`.

use libtest_mimic::{Arguments, Trial};
use nefia_tests::lua_tests::{lua_dir, run_test, test_files, test_names};

fn main() {
    let args = Arguments::from_args();
    let mut trials = Vec::new();
    for file in test_files(&lua_dir()) {
        let stem = file.strip_prefix(lua_dir()).unwrap_or(&file).with_extension("").display().to_string();
        match test_names(&file) {
            Ok(names) => {
                for name in names {
                    let file = file.clone();
                    trials.push(Trial::test(format!("{stem}::{name}"), move || Ok(run_test(&file, &name)?)));
                }
            }
            Err(error) => trials.push(Trial::test(format!("{stem}::load"), move || Err(error.clone().into()))),
        }
    }
    libtest_mimic::run(&args, trials).exit();
}
