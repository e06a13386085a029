//! `nefia dap` driven by VS Code's own debug adapter test client
//! (`@vscode/debugadapter-testsupport`, run by node on `tests/vscode/dap_client.js`), as the
//! code editor drives an adapter.

use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    nefia_tests::repo_root()
}

/// The `node_modules` folder holding VS Code's debug adapter test client
/// (`@vscode/debugadapter-testsupport`): `NEFIA_DAP_TESTSUPPORT`, else `.ci/tools/node_modules`
/// (where `.ci/run` installs it). None when it is not there and CI did not ask for it
/// (`NEFIA_REQUIRE_DAP_TESTSUPPORT`).
fn vscode_test_client() -> Option<PathBuf> {
    let folder = std::env::var_os("NEFIA_DAP_TESTSUPPORT")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join(".ci/tools/node_modules"));
    let installed = folder.join("@vscode/debugadapter-testsupport").is_dir()
        && Command::new("node").arg("--version").output().is_ok_and(|out| out.status.success());
    if !installed {
        assert!(
            std::env::var_os("NEFIA_REQUIRE_DAP_TESTSUPPORT").is_none(),
            "VS Code's adapter test client is not installed in {}: `npm install --prefix .ci/tools \
             @vscode/debugadapter-testsupport` (.ci/run does)",
            folder.display()
        );
        eprintln!("VS Code's adapter test client is not installed: the adapter is not driven by it");
        return None;
    }
    Some(folder)
}

/// VS Code's own adapter test client drives `nefia dap` as the code editor does (launch sent
/// while the breakpoints are being set): a launched script stops at a breakpoint in a mod with
/// its locals, steps, evaluates and ends with its output; a launched recording stops at a
/// breakpoint in two moves and reverse continue goes back to the first (`tests/vscode/dap_client.js`).
#[test]
fn vscode_adapter_test_client_drives_a_launched_script_and_a_recording() {
    let Some(modules) = vscode_test_client() else { return };
    let scratch = tempfile::tempdir().expect("a temp dir");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vscode/dap_client.js");
    let output = Command::new("node")
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_nefia"))
        .arg(repo())
        .arg(scratch.path())
        .env("NODE_PATH", &modules)
        .output()
        .expect("node runs");
    let (stdout, stderr) = (String::from_utf8_lossy(&output.stdout), String::from_utf8_lossy(&output.stderr));
    assert!(output.status.success() && stdout.contains("ok"), "the client failed:\n{stdout}\n{stderr}");
}
