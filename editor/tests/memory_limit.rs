//! `nefia run --memory-limit` stops a script that holds the Lua heap's pages with one small
//! string kept in each (`runtime/lua/src/heap/page_holder.lua`), and says what the heap held
//! against the limit.

use std::process::Command;

/// The mod of `runtime/lua/src/heap/page_holder.lua`.
const PAGE_HOLDER: &str = include_str!("../../runtime/lua/src/heap/page_holder.lua");

#[test]
fn run_stops_a_script_holding_pages_at_the_memory_limit_and_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("holder.lua");
    // 60 size classes of 70 pages: 66 MiB of pages for 1.1 MiB of strings, then 8 MiB more.
    let code = format!("local holder = assert(load([==[{PAGE_HOLDER}]==]))\nholder(70, 8 << 20)\nprint('held on')\n");
    std::fs::write(&file, code).expect("script written");
    let out = Command::new(env!("CARGO_BIN_EXE_nefia"))
        .args(["run", &file.display().to_string(), "--memory-limit", "32"])
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .output()
        .expect("nefia runs");
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{stdout}{stderr}");
    assert!(!stdout.contains("held on"), "{stdout}");
    assert!(stderr.contains("out of memory") && stderr.contains("memory limit of 32"), "{stderr}");
}
