//! The bad-input corpus through the `nefia` binary (see `nefia_tests::bad_inputs`): `nefia
//! check` on each map, save, project and mod case, `nefia run` on each script, and the command
//! lines of the `cli` cases. The case is clean when the binary exits with 1 (2 for a usage
//! error) saying the expected message and no file changed. The same cases in the engine are
//! `tests/tests/bad_inputs.rs`.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use nefia_tests::bad_inputs::{self, Case, HANG_AFTER, Outcome, Verdict};

/// The case through the binary: its exit code and stderr.
fn run_the_binary(class: &str, dir: &Path, case: &Case) -> Result<(Option<i32>, String), Verdict> {
    let project = dir.display().to_string();
    let time = case.time_limit(class);
    let script = dir.join("script.lua").display().to_string();
    let args: Vec<String> = match class {
        "scripts" => ["run", &script, "--project", &project, "--time-limit", &time, "--memory-limit", "256"]
            .map(str::to_owned)
            .to_vec(),
        "cli" => {
            std::fs::write(&script, "print('fine')").expect("script written");
            case.args.iter().map(|a| a.replace("{SCRIPT}", &script)).collect()
        }
        _ => ["check", "--project", &project, "--time-limit", &time].map(str::to_owned).to_vec(),
    };
    let mut child = Command::new(env!("CARGO_BIN_EXE_nefia"))
        .args(&args)
        .current_dir(nefia_tests::repo_root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nefia starts");
    let started = Instant::now();
    while child.try_wait().expect("nefia can be waited for").is_none() {
        if started.elapsed() > HANG_AFTER {
            let _ = child.kill();
            return Err(Verdict(Outcome::Hang, format!("nefia {} did not end", args.join(" "))));
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().expect("nefia's output");
    Ok((output.status.code(), String::from_utf8_lossy(&output.stderr).into_owned()))
}

/// The case through the binary: refused with the expected message and exit code.
fn through_the_binary(class: &str, case: &Case, dir: &Path) -> Result<(), Verdict> {
    let (code, stderr) = run_the_binary(class, dir, case)?;
    let expected_code = if class == "cli" { 2 } else { 1 };
    let expect = &case.expect;
    match code {
        Some(101) => Err(Verdict(Outcome::Panic, format!("nefia panicked: {stderr}"))),
        Some(code) if code == expected_code && stderr.contains(expect.as_str()) => Ok(()),
        _ => Err(Verdict(Outcome::Silent, format!("nefia exited {code:?} saying {stderr:?}, not {expect:?}"))),
    }
}

fn main() {
    bad_inputs::run("through the binary", |_| true, through_the_binary)
}
