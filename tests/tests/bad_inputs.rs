//! The bad-input corpus in the engine (see `nefia_tests::bad_inputs`): each case but the
//! command lines (`cli`, the binary's: `editor/tests/bad_inputs.rs`) as the editor loads it —
//! a map opened in the Maps pane, a save loaded into a started game, a project opened and its
//! game started, a script run — under the limits the binary would use. The case is clean when
//! the engine refuses it with the expected message and nothing in the world or on disk changed.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::time::Duration;

use nefia_lua::Runtime;
use nefia_lua::save::save_tables;
use nefia_protocol::output::Output;
use nefia_tests::bad_inputs::{self, Case, HANG_AFTER, Outcome, Verdict};

/// A runtime on `dir` under the limits the binary would use.
// A String error: it only becomes the text of a case's verdict.
fn open(dir: &Path, time: &str, memory: Option<usize>) -> Result<Runtime, String> {
    let mut runtime = Runtime::new(Box::new(|_: Output| {})).map_err(|e| e.to_string())?;
    let seconds: f64 = time.parse().expect("a number of seconds");
    runtime.set_limits(Some(Duration::from_secs_f64(seconds)), memory);
    runtime.open(dir).map_err(|e| e.to_string())?;
    Ok(runtime)
}

/// The case in the engine: the error it gives, or a verdict if it lost something.
fn in_process(class: &str, dir: &Path, time: &str) -> Result<Option<String>, Verdict> {
    let lost = |what: &str| Verdict(Outcome::Lost, what.to_owned());
    match class {
        "maps" => {
            let runtime = open(dir, time, None).map_err(|e| Verdict(Outcome::Silent, e))?;
            let before = (runtime.world().revision(), runtime.world().maps().count());
            let result = {
                let (mut files, mut world, project) = runtime.maps_mut();
                files.open(&mut world, project.as_ref().expect("a project"), "bad").map(|_| ())
            };
            if (runtime.world().revision(), runtime.world().maps().count()) != before {
                return Err(lost("the world changed"));
            }
            Ok(result.err().map(|e| e.to_string()))
        }
        "saves" => {
            let mut runtime = open(dir, time, None).map_err(|e| Verdict(Outcome::Silent, e))?;
            runtime.start_game().map_err(|e| Verdict(Outcome::Silent, e.to_string()))?;
            let state = |runtime: &Runtime| {
                let tables = save_tables(runtime.lua()).expect("the save tables");
                runtime.world().save_game(tables)
            };
            let before = state(&runtime);
            let result = runtime.load_game("bad");
            if state(&runtime) != before {
                return Err(lost("the world changed"));
            }
            Ok(result.err().map(|e| e.to_string()))
        }
        "projects" | "mods" | "sandbox" => Ok(open(dir, time, Some(512 << 20))
            .and_then(|mut runtime| runtime.start_game().map_err(|e| e.to_string()))
            .err()),
        "scripts" => {
            let mut runtime = open(dir, time, Some(256 << 20)).map_err(|e| Verdict(Outcome::Silent, e))?;
            runtime.start_game().map_err(|e| Verdict(Outcome::Silent, e.to_string()))?;
            let error = runtime.run_file(&dir.join("script.lua")).err().map(|f| f.to_string());
            let alive = format!("{:?}", runtime.eval("return 1 + 1"));
            if !alive.contains("\"2\"") {
                return Err(Verdict(Outcome::Lost, format!("the engine does not answer after the script: {alive}")));
            }
            Ok(error)
        }
        _ => Ok(None),
    }
}

/// Runs `f` on its own thread: a panic or no answer within [`HANG_AFTER`] is a verdict.
fn guarded<T: Send + 'static>(f: impl FnOnce() -> Result<T, Verdict> + Send + 'static) -> Result<T, Verdict> {
    let (send, receive) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = send.send(catch_unwind(AssertUnwindSafe(f)));
    });
    match receive.recv_timeout(HANG_AFTER) {
        Ok(Ok(result)) => result,
        Ok(Err(payload)) => {
            let message = payload.downcast_ref::<String>().cloned().unwrap_or_else(|| format!("{payload:?}"));
            Err(Verdict(Outcome::Panic, message))
        }
        Err(_) => Err(Verdict(Outcome::Hang, format!("no answer within {HANG_AFTER:?}"))),
    }
}

/// The case in the engine, on its own thread: refused with the expected message.
fn in_the_engine(class: &str, case: &Case, dir: &Path) -> Result<(), Verdict> {
    let (class, dir, time) = (class.to_owned(), dir.to_owned(), case.time_limit(class));
    let expect = &case.expect;
    match guarded(move || in_process(&class, &dir, &time))? {
        Some(error) if error.contains(expect.as_str()) => Ok(()),
        Some(error) => Err(Verdict(Outcome::Silent, format!("the engine said {error:?}, not {expect:?}"))),
        None => Err(Verdict(Outcome::Silent, "the engine accepted it".into())),
    }
}

fn main() {
    bad_inputs::run("in the engine", |class| class != "cli", in_the_engine)
}
