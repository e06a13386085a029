//! The differential test of line breakpoints: random programs run with random breakpoints,
//! in a launched script, a played and recorded game and its replayed recording; the breaks must
//! be those of a reference run under Lua's own line hook. Failures proptest finds are kept in
//! `differential.proptest-regressions` beside this file.

use super::*;

/// A piece of a generated program's main chunk.
#[derive(Clone, Copy, Debug)]
enum Piece {
    /// `acc = acc + k`.
    Add(i64),
    /// A new local from `acc`.
    Local(i64),
    /// A call of one of the program's helpers.
    Call(Helper),
    /// A numeric `for` of `n` turns adding to `acc`.
    Loop(u8),
}

/// The helpers every generated program defines: the shapes of call the line hook must follow.
#[derive(Clone, Copy, Debug)]
enum Helper {
    Plain,
    Recursive,
    Tail,
    Varargs,
    Coroutine,
    Metamethod,
    Pcall,
    /// An engine call that runs Lua of other files (the object's creation events).
    Engine,
}

/// A generated program: its lines, and the lines a breakpoint may go on, each with the locals
/// compared there.
struct Program {
    lines: Vec<String>,
    probes: Vec<(u32, Vec<String>)>,
}

impl Program {
    /// A line a breakpoint may go on, comparing `names` there.
    fn probed(&mut self, names: &[&str], code: &str) {
        let line = u32::try_from(self.lines.len() + 1).expect("a short program");
        self.lines.push(code.to_owned());
        self.probes.push((line, names.iter().map(|name| (*name).to_owned()).collect()));
    }

    fn plain(&mut self, code: &str) {
        self.lines.push(code.to_owned());
    }

    /// The helpers, then the main chunk made of `pieces`.
    fn generate(pieces: &[Piece]) -> Program {
        let mut p = Program { lines: Vec::new(), probes: Vec::new() };
        p.plain("local function plain(x)");
        p.probed(&["x"], "local y = x * 2");
        p.probed(&["x", "y"], "return y - x + 1");
        p.plain("end");
        p.plain("local function recursive(n)");
        p.probed(&["n"], "if n <= 0 then return 1 end");
        p.probed(&["n"], "return n + recursive(n - 1)");
        p.plain("end");
        p.plain("local function tail(x)");
        p.probed(&["x"], "return plain(x + 1)");
        p.plain("end");
        p.plain("local function varargs(...)");
        p.probed(&[], "local a, b = ...");
        p.probed(&["a", "b"], "return a + (b or 0)");
        p.plain("end");
        p.plain("local function coro(x)");
        // The coroutine's function is written inside the line's expression: Lua's line events
        // come back to that line after its `end)`.
        p.probed(&["x"], "local co = coroutine.wrap(function(v)");
        p.probed(&["v"], "coroutine.yield(v + 1)");
        p.probed(&["v"], "return v + 2");
        p.plain("end)");
        p.probed(&["x"], "return co(x) + co(x)");
        p.plain("end");
        p.plain("local meta = setmetatable({}, { __index = function(_, k)");
        p.probed(&["k"], "return k * 3");
        p.plain("end })");
        p.plain("local function fails(x)");
        p.probed(&["x"], "if x % 2 == 1 then error(\"odd\") end");
        p.probed(&["x"], "return x");
        p.plain("end");
        p.probed(&[], "local acc = 1");
        let mut names = vec!["acc".to_owned()];
        for (index, piece) in pieces.iter().enumerate() {
            let shown: Vec<&str> = names.iter().map(String::as_str).collect();
            match *piece {
                Piece::Add(k) => p.probed(&shown, &format!("acc = acc + {k}")),
                Piece::Local(k) => {
                    p.probed(&shown, &format!("local v{index} = acc + {k}"));
                    names.push(format!("v{index}"));
                }
                Piece::Call(helper) => {
                    let code = match helper {
                        Helper::Plain => "acc = plain(acc) % 1000",
                        Helper::Recursive => "acc = (acc + recursive(acc % 4)) % 1000",
                        Helper::Tail => "acc = tail(acc) % 1000",
                        Helper::Varargs => "acc = varargs(acc, acc % 3) % 1000",
                        Helper::Coroutine => "acc = coro(acc) % 1000",
                        Helper::Metamethod => "acc = (acc + meta[acc % 5]) % 1000",
                        Helper::Pcall => "acc = acc + (pcall(fails, acc) and 1 or 2)",
                        Helper::Engine => "acc = (acc + Chara.create(\"elona.putit\", 2, 2).hp) % 1000",
                    };
                    p.probed(&shown, code);
                }
                Piece::Loop(turns) => {
                    p.plain(&format!("for i = 1, {turns} do"));
                    let mut inner = shown.clone();
                    inner.push("i");
                    p.probed(&inner, "acc = acc + i");
                    p.plain("end");
                }
            }
        }
        p.plain("print(acc)");
        p
    }

    fn text(&self) -> String {
        self.lines.join("\n") + "\n"
    }
}

fn piece() -> impl proptest::strategy::Strategy<Value = Piece> {
    use proptest::prelude::*;
    let helper = prop_oneof![
        Just(Helper::Plain),
        Just(Helper::Recursive),
        Just(Helper::Tail),
        Just(Helper::Varargs),
        Just(Helper::Coroutine),
        Just(Helper::Metamethod),
        Just(Helper::Pcall),
        Just(Helper::Engine),
    ];
    prop_oneof![
        (-5i64..5).prop_map(Piece::Add),
        (0i64..5).prop_map(Piece::Local),
        helper.prop_map(Piece::Call),
        (1u8..4).prop_map(Piece::Loop),
    ]
}

/// The reference run: `program` in a plain Lua state with Lua's own line events on for every
/// line (`debug.sethook`, in every coroutine too), recording each `wanted` line as it runs
/// with the probe's locals read by `debug.getlocal`. The engine's one call is stood in for by a
/// table (what matters is the program's own lines).
fn reference(program: &str, wanted: &[(u32, Vec<String>)]) -> Vec<String> {
    use nefia_lua::mlua::{Lua, LuaOptions, StdLib};
    // SAFETY: the debug library is for this test's own code.
    let lua = unsafe { Lua::unsafe_new_with(StdLib::ALL_SAFE | StdLib::DEBUG, LuaOptions::default()) };
    let recorder = r#"
        local wanted, out = ...
        Chara = { create = function() return { hp = 6 } end }
        print = function() end
        local function hook(_, line)
            local names = wanted[line]
            if names == nil or debug.getinfo(2, "S").source ~= "@program" then return end
            local values, i = {}, 1
            while true do
                local name, value = debug.getlocal(2, i)
                if name == nil then break end
                values[name] = value
                i = i + 1
            end
            local record = { tostring(line) }
            for _, name in ipairs(names) do record[#record + 1] = name .. "=" .. tostring(values[name]) end
            out[#out + 1] = table.concat(record, ",")
        end
        debug.sethook(hook, "l")
        -- Lua's own hooks are per coroutine: each new one gets the line hook too.
        local create, resume = coroutine.create, coroutine.resume
        coroutine.create = function(f)
            local co = create(f)
            debug.sethook(co, hook, "l")
            return co
        end
        coroutine.wrap = function(f)
            local co = coroutine.create(f)
            return function(...)
                local results = table.pack(resume(co, ...))
                if not results[1] then error(results[2], 2) end
                return table.unpack(results, 2, results.n)
            end
        end
    "#;
    let wanted_table = lua.create_table().expect("a table");
    for (line, names) in wanted {
        wanted_table.raw_set(*line, names.clone()).expect("set");
    }
    let out = lua.create_table().expect("a table");
    lua.load(recorder).call::<()>((wanted_table, &out)).expect("the hook is set");
    lua.load(program).set_name("@program").exec().expect("the program runs");
    lua.load("debug.sethook()").exec().expect("the hook is cleared");
    out.sequence_values::<String>().map(|record| record.expect("a record")).collect()
}

/// Runs `path` in `host` to its end; at each break records the line and the probe's locals
/// as the break shows them, and goes on. Returns the records.
fn run_collecting(host: &HostHandle, path: &std::path::Path, probes: &[(u32, Vec<String>)]) -> Vec<String> {
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1 << 40);
    let id = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let start = Command::Repl(ReplCommand::RunFile { id, path: path.to_owned() });
    collect_breaks(host, start, |event| matches!(event, HostEvent::Evaluated { id: got, .. } if *got == id), probes)
}

/// Sends `start` and, until an event `done` takes comes, records at each break the line and
/// the probe's locals as the break shows them, and goes on. Returns the records.
fn collect_breaks(
    host: &HostHandle,
    start: Command,
    done: impl Fn(&HostEvent) -> bool,
    probes: &[(u32, Vec<String>)],
) -> Vec<String> {
    let mut last_break = host.snapshot().debug.pause.as_ref().map_or(0, |p| p.id);
    host.send(start);
    let mut hits = Vec::new();
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    loop {
        while let Some(event) = host.next_event(Duration::from_millis(2)) {
            if let HostEvent::Evaluated { result: Evaluation::Error(failure), .. } = &event {
                panic!("the program failed: {failure:?}");
            }
            if done(&event) {
                return hits;
            }
        }
        let snapshot = host.snapshot();
        if snapshot.state == RuntimeState::Paused
            && let Some(pause) = snapshot.debug.pause.as_ref().filter(|p| p.id != last_break)
        {
            last_break = pause.id;
            let names = probes.iter().find(|(line, _)| *line == pause.line).map(|(_, names)| names.clone());
            let names = names
                .unwrap_or_else(|| panic!("a break at line {} of {}, which has no breakpoint", pause.line, pause.file));
            let mut record = vec![pause.line.to_string()];
            if pause.cause != BreakCause::Breakpoint {
                record.push(format!("{:?}", pause.cause));
            }
            for name in names {
                let value = pause.variables.iter().rev().find(|(n, kind, _)| *n == name && kind == "local");
                record.push(format!("{name}={}", value.map_or("nil", |(_, _, v)| v.as_str())));
            }
            hits.push(record.join(","));
            host.send(Command::Debug(DebugCommand::Continue));
        }
        assert!(std::time::Instant::now() < deadline, "the program did not end: {hits:?}");
    }
}

/// The differential test of line breakpoints: random programs (nested and recursive functions,
/// closures, `pcall`/`error`, a coroutine yielding across calls, a metamethod, a tail call,
/// varargs, an engine call that runs other files' Lua) with random breakpoint lines. The breaks
/// (line, order, locals) must be those of a reference run with Lua's own line events on for
/// every line ([`reference`]), in the same order with the same values. Failures proptest finds
/// are kept in `differential.proptest-regressions`.
#[test]
fn breakpoints_hit_exactly_the_lines_a_reference_run_passes_with_its_locals() {
    let host = demo();
    differential(24, |path, picked| {
        set_lines(&host, path, picked);
        // Loaded with breakpoints set, the program has the debugger's probes; without them,
        // the call hook follows it, as it does files loaded before their breakpoints.
        let probed = run_collecting(&host, path, picked);
        host.send(Command::Debug(DebugCommand::Probes(false)));
        let hooked = run_collecting(&host, path, picked);
        host.send(Command::Debug(DebugCommand::Probes(true)));
        set_lines(&host, path, &[]);
        vec![("launched, with probes", probed), ("launched, followed by the call hook", hooked)]
    });
}

/// Functions whose first statement's first line has no code of Lua's (a multi-line `local
/// function` first, a `<const>` local, `return` or `=` with the value on the next line, a
/// closure as a value) break where the reference does, with probes and with the call hook: a
/// probe sits on that line, but neither it nor Lua reports it.
#[test]
fn first_statements_without_code_on_their_first_line_break_as_the_reference_does() {
    let host = demo();
    let dir = tempfile::tempdir().expect("a temp dir");
    let shapes: [(&str, &[u32]); 7] = [
        ("local function f(t)\n  return\n    t.x\nend\nprint(f({x = 1}))\n", &[2, 3]),
        ("local function f(a)\n  local K <const> = 10\n  return a + K\nend\nprint(f(1))\n", &[2, 3]),
        ("local function helper(x) -- doubles\n  return x * 2\nend\nprint(helper(2))\n", &[1, 2]),
        (
            "local function outer()\n  local g = function()\n    return 1\n  end\n  return g()\nend\nprint(outer())\n",
            &[2, 3, 4, 5],
        ),
        ("local function f()\n  local a\n    , b = 1, 2\n  return a + b\nend\nprint(f())\n", &[2, 3, 4]),
        ("local function f(x) local y =\n  x + 1\n  return y\nend\nprint(f(1))\n", &[1, 2, 3]),
        ("local x\nlocal function f()\n  x =\n    2\n  return x\nend\nprint(f())\n", &[3, 4, 5]),
    ];
    for (case, (program, lines)) in shapes.iter().enumerate() {
        let path = dir.path().join(format!("shape{case}.lua"));
        std::fs::write(&path, program).expect("written");
        let picked: Vec<(u32, Vec<String>)> = lines.iter().map(|line| (*line, Vec::new())).collect();
        let expected = reference(program, &picked);
        set_lines(&host, &path, &picked);
        let probed = run_collecting(&host, &path, &picked);
        host.send(Command::Debug(DebugCommand::Probes(false)));
        let hooked = run_collecting(&host, &path, &picked);
        host.send(Command::Debug(DebugCommand::Probes(true)));
        set_lines(&host, &path, &[]);
        assert_eq!((&probed, &hooked), (&expected, &expected), "{program}breakpoints at {lines:?}");
    }
}

/// The differential test for a recorded game and a launched recording: each random program
/// runs in a recorded session (the game played, as one attached to `nefia play --listen`
/// records it), play stops, and the session's recording is opened and played to its end as
/// `nefia dap` launches one. The breaks of both runs are those of the reference run.
#[test]
fn in_a_recorded_game_and_its_replayed_recording_breakpoints_hit_the_lines_a_reference_run_passes() {
    use nefia_protocol::play::PlayCommand;
    use nefia_protocol::play::PlayFrom;
    let copy = nefia_tests::DemoCopy::new();
    let host = nefia_tests::host::spawn(&copy.project());
    let recordings = copy.project().join("recordings");
    // The session's recording is written as play goes and when it stops: the newest file.
    let newest = || -> Option<std::path::PathBuf> {
        let entries = std::fs::read_dir(&recordings).ok()?.flatten();
        let ron = entries.filter(|e| e.path().extension().is_some_and(|x| x == "ron"));
        ron.max_by_key(|e| e.metadata().and_then(|m| m.modified()).ok()).map(|e| e.path())
    };
    differential(8, |path, picked| {
        // A turn passes at the end, so the recording has a turn to play to (an unfinished last
        // turn is the future a recording steps into, not one it plays).
        let text = std::fs::read_to_string(path).expect("the program");
        std::fs::write(path, format!("{text}\nWorld.pass_turn()\n")).expect("written");
        set_lines(&host, path, picked);
        let played = run_collecting(&host, path, picked);
        host.send(Command::Play(PlayCommand::Stop));
        wait_for(&host, |s| !s.play.playing);
        let recording = newest().expect("play wrote its recording");
        host.send(Command::Play(PlayCommand::OpenRecording(recording)));
        let opened = wait_for(&host, |s| s.play.recording.is_some_and(|r| r.opened));
        let last = opened.play.recording.map(|r| r.turns).unwrap_or_default();
        // The replayed script answers as replayed REPL input does, with id 0.
        let done = |event: &HostEvent| matches!(event, HostEvent::Evaluated { id: 0, .. });
        let replayed = collect_breaks(&host, Command::Play(PlayCommand::GoToTurn(last)), done, picked);
        set_lines(&host, path, &[]);
        host.send(Command::Play(PlayCommand::Stop));
        wait_for(&host, |s| !s.play.playing);
        host.send(Command::Play(PlayCommand::Start(PlayFrom::Start)));
        wait_for(&host, |s| s.play.playing && s.player.is_some());
        vec![("played and recorded", played), ("its recording replayed", replayed)]
    });
}

/// Sets breakpoints on the `picked` lines of file `path`.
fn set_lines(host: &HostHandle, path: &std::path::Path, picked: &[(u32, Vec<String>)]) {
    let breakpoints = picked.iter().map(|(line, _)| at(*line)).collect();
    let answer = ask(host, DebugQuery::SetBreakpoints { path: path.to_owned(), breakpoints });
    assert!(matches!(answer, DebugAnswer::Breakpoints { .. }), "{answer:?}");
}

/// The differential test's frame: `cases` random programs, each written to a file of its own
/// with random probed lines picked as breakpoints; `run` runs the file with those breakpoints
/// set and returns, for each way it ran, the breaks it recorded, which must be the reference
/// run's. Failures proptest finds are kept in `differential.proptest-regressions`.
fn differential(cases: u32, run: impl Fn(&std::path::Path, &[(u32, Vec<String>)]) -> Vec<(&'static str, Vec<String>)>) {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, FileFailurePersistence, TestRunner};
    let dir = tempfile::tempdir().expect("a temp dir");
    let config = Config {
        cases,
        source_file: Some(file!()),
        failure_persistence: Some(Box::new(FileFailurePersistence::SourceParallel("proptest-regressions"))),
        ..Config::default()
    };
    let strategy = (proptest::collection::vec(piece(), 1..10), any::<u64>());
    let case = std::cell::Cell::new(0);
    TestRunner::new(config)
        .run(&strategy, |(pieces, mask)| {
            let program = Program::generate(&pieces);
            // A file of its own for each case: the game keeps what it loaded of each path.
            case.set(case.get() + 1);
            let path = dir.path().join(format!("program{}.lua", case.get()));
            // The breakpoints: the probed lines the mask picks.
            let picked: Vec<(u32, Vec<String>)> = program
                .probes
                .iter()
                .enumerate()
                .filter(|(index, _)| mask >> (index % 64) & 1 == 1)
                .map(|(_, probe)| probe.clone())
                .collect();
            let lines: Vec<u32> = picked.iter().map(|(line, _)| *line).collect();
            let expected = reference(&program.text(), &picked);
            std::fs::write(&path, program.text()).expect("written");
            for (how, hits) in run(&path, &picked) {
                prop_assert_eq!(&hits, &expected, "{}: program:\n{}\nbreakpoints at {:?}", how, program.text(), lines);
            }
            Ok(())
        })
        .unwrap_or_else(|failure| panic!("{failure}"));
}
