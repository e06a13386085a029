//! Helpers shared by the end-to-end tests: where the repository's mods are, and a fresh
//! headless game to test against (the editor's benches build theirs with it too, so the editor
//! names no Lua crate); and the bad-input corpus's runner ([`bad_inputs`]).

use std::cell::{Ref, RefCell};
use std::path::{Path, PathBuf};
use std::rc::Rc;

use nefia_game::edit::Edit;
use nefia_game::history::History;
use nefia_game::world::World;
use nefia_host::editing::edit::EditError;
use nefia_lua::Runtime;
use nefia_lua::mlua;
use nefia_protocol::output::Output;

pub mod bad_inputs;

/// The repository root.
pub fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ is inside the repository").to_owned()
}

/// The repository's `mods/` folder.
pub fn mods_dir() -> PathBuf {
    repo_root().join("mods")
}

/// Writes `contents` to `path` as an editor that saves atomically does (a temp file renamed
/// into place), for files a running host watches: its watchers never see the file empty or
/// half-written, however slowly a loaded machine runs the test between the two.
pub fn write(path: impl AsRef<Path>, contents: impl AsRef<[u8]>) -> std::io::Result<()> {
    nefia_game::files::write_atomic(path.as_ref(), contents.as_ref()).map_err(std::io::Error::other)
}

/// A headless game for a test or a bench: `base`, `elona_sys` and `elona` loaded (or the mods
/// [`TestGame::with_mods`] names), a current 20×20 map of floor, no player, saves in a temporary
/// folder. Output is collected in `output`.
pub struct TestGame {
    /// The runtime.
    pub runtime: Runtime,
    /// Every `print` line and message so far.
    pub output: Rc<RefCell<Vec<String>>>,
    /// Where saves go; removed when the game is dropped.
    pub save_dir: tempfile::TempDir,
}

impl TestGame {
    /// A fresh game.
    pub fn new() -> TestGame {
        TestGame::with_mods(&["base", "elona_sys", "elona"])
    }

    /// A fresh game with only the repository's mods `mods` loaded, in that order.
    pub fn with_mods(mods: &[&str]) -> TestGame {
        let output = Rc::new(RefCell::new(Vec::new()));
        let sink = output.clone();
        let mut runtime = Runtime::new(Box::new(move |line: Output| {
            sink.borrow_mut().push(match line {
                Output::Print(text) | Output::Message(text) => text,
                Output::Log(line) => format!("[{}] {}", line.level.name(), line.text),
            })
        }))
        .expect("a runtime starts");
        let mods: Vec<String> = mods.iter().map(|name| (*name).to_owned()).collect();
        runtime.load_mods(&[mods_dir()], &mods).expect("the shipped mods load");
        let save_dir = tempfile::tempdir().expect("a temporary folder");
        runtime.set_save_dir(save_dir.path().to_owned());
        {
            let mut world = runtime.world_mut();
            let map = world.create_map(20, 20, None).expect("a map");
            world.set_current_map(map).expect("it exists");
        }
        TestGame { runtime, output, save_dir }
    }

    /// Runs Lua code in a trusted environment; panics with the Lua error if it fails.
    pub fn exec(&self, code: &str) {
        if let Err(failure) = self.runtime.exec(code, "test") {
            panic!("Lua failed: {failure}");
        }
    }

    /// Evaluates a Lua expression.
    pub fn eval<T: mlua::FromLuaMulti>(&self, expression: &str) -> T {
        let values =
            self.runtime.exec(&format!("return {expression}"), "test").unwrap_or_else(|f| panic!("Lua failed: {f}"));
        self.runtime.lua().unpack_multi(values).unwrap_or_else(|e| panic!("unexpected result of {expression}: {e}"))
    }

    /// The game's world, to read.
    pub fn world(&self) -> Ref<'_, World> {
        self.runtime.world()
    }

    /// Applies `edit` as the editor does (`nefia_host::editing::edit::apply`), recording it in
    /// `history`; returns the step's label.
    pub fn apply_edit(&self, history: &mut History, edit: &Edit) -> Result<String, EditError> {
        nefia_host::editing::edit::apply(self.runtime.lua(), history, edit)
    }
}

impl Default for TestGame {
    fn default() -> Self {
        TestGame::new()
    }
}

/// Driving the runtime thread from a test: spawning it, waiting for snapshots and answers.
pub mod host {
    use std::path::Path;
    use std::sync::Arc;
    use std::time::{Duration, Instant};

    use nefia_host::{HostConfig, HostHandle};
    use nefia_protocol::message::{Command, HostEvent};
    use nefia_protocol::repl::Evaluation;
    use nefia_protocol::view::Snapshot;

    /// How long a test waits for the runtime before failing.
    const PATIENCE: Duration = Duration::from_secs(15);

    /// The runtime thread on `project`, editing: its start map open, no player. Play
    /// sessions are recorded in its `recordings/` unless it is the repository's demo, which
    /// tests leave as it is.
    pub fn spawn_editing(project: &Path) -> HostHandle {
        let mut config = HostConfig::recorded(project.to_owned(), Arc::new(|| {}));
        if project.starts_with(super::repo_root()) {
            (config.recordings, config.journal) = (None, None);
        }
        let host = HostHandle::spawn(config);
        wait_for(&host, |s| s.map.is_some());
        host
    }

    /// The runtime thread on `project`, playing a new game from its start map.
    pub fn spawn(project: &Path) -> HostHandle {
        let host = spawn_editing(project);
        host.send(Command::Play(nefia_protocol::play::PlayCommand::Start(nefia_protocol::play::PlayFrom::Start)));
        wait_for(&host, |s| s.play.playing && s.player.is_some());
        host
    }

    /// The runtime thread on the repository's demo project, playing.
    pub fn demo() -> HostHandle {
        spawn(&super::repo_root().join("projects/demo"))
    }

    /// Waits for a snapshot satisfying `condition`.
    pub fn wait_for(host: &HostHandle, condition: impl Fn(&Snapshot) -> bool) -> Arc<Snapshot> {
        let deadline = Instant::now() + PATIENCE;
        loop {
            let snapshot = host.snapshot();
            if condition(&snapshot) {
                return snapshot;
            }
            assert!(Instant::now() < deadline, "timed out; last state {:?}", snapshot.state);
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    /// Waits for the first event `pick` accepts among `seen` and those arriving; the others
    /// stay in `seen` (in order), the picked one is taken out.
    pub fn event<T>(host: &HostHandle, seen: &mut Vec<HostEvent>, mut pick: impl FnMut(&HostEvent) -> Option<T>) -> T {
        if let Some(index) = seen.iter().position(|e| pick(e).is_some()) {
            return pick(&seen.remove(index)).expect("picked above");
        }
        let deadline = Instant::now() + PATIENCE;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some(arrived) = host.next_event(left) else {
                panic!("timed out waiting for an event; saw {seen:?}");
            };
            match pick(&arrived) {
                Some(found) => return found,
                None => seen.push(arrived),
            }
        }
    }

    /// Waits for the answer to Eval `id`, keeping other events in `seen`.
    pub fn answer(host: &HostHandle, id: u64, seen: &mut Vec<HostEvent>) -> Evaluation {
        event(host, seen, |event| match event {
            HostEvent::Evaluated { id: got, result } if *got == id => Some(result.clone()),
            _ => None,
        })
    }

    /// Evaluates `code` and waits for its answer (other events are dropped: this is for
    /// tests that look at snapshots, not at events).
    pub fn eval(host: &HostHandle, code: &str) -> Evaluation {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1 << 32);
        let id = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        host.send(Command::Repl(nefia_protocol::debugging::ReplCommand::Eval { id, code: code.to_owned() }));
        answer(host, id, &mut Vec::new())
    }

    /// The printed lines among `events`.
    pub fn printed(events: &[HostEvent]) -> Vec<String> {
        events
            .iter()
            .filter_map(|event| match event {
                HostEvent::Output(nefia_protocol::output::Output::Print(text)) => Some(text.clone()),
                _ => None,
            })
            .collect()
    }
}

/// A 200×200 map with walls around and scattered inside, and 500 characters: half hostile
/// putits (they come for the player when they see it), half neutral guards (they wander).
pub const CROWDED_MAP: &str = r#"
    local map = InstancedMap:new(200, 200)
    math.randomseed(7)
    for x = 0, 199 do
        for y = 0, 199 do
            if x == 0 or y == 0 or x == 199 or y == 199 or math.random(20) == 1 then
                map:set_tile(x, y, "base.wall")
            end
        end
    end
    Map.set_map(map)
    local placed = 0
    while placed < 500 do
        local x, y = math.random(1, 198), math.random(1, 198)
        if map:can_access(x, y) and (math.abs(x - 100) > 1 or math.abs(y - 100) > 1) then
            Chara.create(placed % 2 == 0 and "elona.putit" or "elona.town_guard", x, y)
            placed = placed + 1
        end
    end
    map:set_tile(100, 100, "base.floor")
"#;

/// A copy of the demo project, the repository's mods and its assets in a temporary folder,
/// laid out as in the repository (`projects/demo`, `mods/`, `assets/`: the mods' images are
/// checked against the sheets there when they load), for tests that change files.
pub struct DemoCopy {
    /// The temporary folder; removed when dropped.
    pub root: tempfile::TempDir,
}

impl DemoCopy {
    /// Copies the demo project and the mods.
    pub fn new() -> DemoCopy {
        let root = tempfile::tempdir().expect("a temporary folder");
        for folder in ["projects/demo", "mods", "assets"] {
            copy_dir(&repo_root().join(folder), &root.path().join(folder));
        }
        DemoCopy { root }
    }

    /// The copied project.
    pub fn project(&self) -> PathBuf {
        self.root.path().join("projects/demo")
    }

    /// A path inside the copied `mods/`.
    pub fn mod_file(&self, relative: &str) -> PathBuf {
        self.root.path().join("mods").join(relative)
    }
}

impl Default for DemoCopy {
    fn default() -> Self {
        DemoCopy::new()
    }
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("a folder can be made");
    for entry in std::fs::read_dir(from).expect("the folder exists") {
        let entry = entry.expect("an entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("a type").is_dir() {
            if entry.file_name() != "saves" && entry.file_name() != ".nefia" {
                copy_dir(&entry.path(), &target);
            }
        } else {
            std::fs::copy(entry.path(), &target).expect("the file copies");
        }
    }
}

/// A client of the remote protocol (`PROTOCOL.md`) over TCP, as a script would write one.
pub mod remote {
    use std::io::{BufRead, BufReader, Write};
    use std::net::{SocketAddr, TcpStream};
    use std::time::Duration;

    use nefia_host::HostHandle;
    use nefia_host::remote::{Listener, Server};
    use serde_json::{Value as Json, json};

    /// A game on the demo project, playing, served on a free loopback port.
    pub struct Served {
        // Dropped first: the server stops accepting before the game ends.
        _server: Server,
        /// The game's own handle (the process serving it).
        pub host: HostHandle,
        /// Where it listens.
        pub address: SocketAddr,
        /// The token it printed.
        pub token: String,
    }

    /// The demo, playing, served on a free loopback port.
    pub fn served() -> Served {
        serving(super::host::demo())
    }

    /// The game `host` runs, served on a free loopback port.
    pub fn serving(host: HostHandle) -> Served {
        let listener = Listener::bind("0").expect("a free port on loopback");
        assert!(listener.address().ip().is_loopback(), "a bare port listens on loopback only");
        let (address, token) = (listener.address(), listener.token().to_owned());
        assert!(listener.announcement().contains(&format!("{address}, token {token}")));
        let server = listener.serve(host.connector());
        Served { _server: server, host, address, token }
    }

    impl Served {
        /// A JSON-RPC client, past the handshake.
        pub fn attach(&self) -> Client {
            Client::attach(self.address, &self.token)
        }
    }

    /// How long a read waits before the test fails.
    const PATIENCE: Duration = Duration::from_secs(30);

    /// One connection, with the notifications read while waiting for answers.
    pub struct Client {
        reader: BufReader<TcpStream>,
        writer: TcpStream,
        next_id: u64,
        /// Notifications read so far (frames), as they came, with their length in bytes.
        pub notifications: Vec<(Json, usize)>,
    }

    impl Client {
        /// Connects to `address`.
        pub fn connect(address: SocketAddr) -> Client {
            let writer = TcpStream::connect(address).expect("the game accepts connections");
            writer.set_read_timeout(Some(PATIENCE)).expect("a read timeout");
            writer.set_nodelay(true).expect("no delay");
            let reader = BufReader::new(writer.try_clone().expect("the stream clones"));
            Client { reader, writer, next_id: 1, notifications: Vec::new() }
        }

        /// Connects and says hello with `token`, panicking if it is refused.
        pub fn attach(address: SocketAddr, token: &str) -> Client {
            let mut client = Client::connect(address);
            let hello = client.call("session.hello", json!({ "version": 1, "token": token }));
            assert!(hello.get("result").is_some(), "hello refused: {hello}");
            client
        }

        /// Sends a raw line (a newline is added).
        pub fn send_line(&mut self, line: &str) {
            self.writer.write_all(format!("{line}\n").as_bytes()).expect("the line is sent");
        }

        /// The next message (an answer or a notification) and its length, or None when the
        /// connection closed.
        pub fn read(&mut self) -> Option<(Json, usize)> {
            let mut line = String::new();
            match self.reader.read_line(&mut line) {
                Ok(0) => None,
                Ok(length) => Some((serde_json::from_str(&line).expect("the game sends JSON"), length)),
                // A reset connection is a closed one too.
                Err(error) if error.kind() != std::io::ErrorKind::WouldBlock => None,
                Err(error) => panic!("no message within {PATIENCE:?}: {error}"),
            }
        }

        /// Sends a request and returns the whole response (`result` or `error`); the
        /// notifications read meanwhile are kept in `notifications`.
        pub fn call(&mut self, method: &str, params: Json) -> Json {
            let id = self.next_id;
            self.next_id += 1;
            let request = json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params });
            self.send_line(&request.to_string());
            self.answer(id)
        }

        /// Reads until the answer to request `id`.
        pub fn answer(&mut self, id: u64) -> Json {
            loop {
                let (message, length) = self.read().expect("the connection stays open for the answer");
                if message.get("id") == Some(&json!(id)) {
                    return message;
                }
                self.notifications.push((message, length));
            }
        }

        /// Sends a request and returns its result, panicking on an error.
        pub fn result(&mut self, method: &str, params: Json) -> Json {
            let response = self.call(method, params);
            match response.get("result") {
                Some(result) => result.clone(),
                None => panic!("{method} failed: {response}"),
            }
        }

        /// True if the game closed the connection (after any messages still buffered).
        pub fn closed(&mut self) -> bool {
            while let Some((message, _)) = self.read() {
                if message.get("method").is_none() {
                    return false;
                }
            }
            true
        }
    }
}

/// A test of this binary run again as a child process that does scripted steps and tells each
/// one done on stdout (`ready` first, then `done N`), to be killed at a moment of the parent's
/// choosing: the kill tests of the edit journal.
pub struct ScriptedChild {
    child: std::process::Child,
    lines: std::sync::mpsc::Receiver<String>,
    /// The last step told done among the lines already read.
    done: std::cell::Cell<u64>,
}

impl ScriptedChild {
    /// Runs the ignored test `test` of the current test binary with `variable` set to
    /// `project`, and waits (up to `patience`) until it says it is ready.
    pub fn start(test: &str, variable: &str, project: &Path, patience: std::time::Duration) -> ScriptedChild {
        use std::io::BufRead;
        let mut child = std::process::Command::new(std::env::current_exe().expect("the test binary"))
            .args([test, "--exact", "--ignored", "--nocapture", "--test-threads=1"])
            .env(variable, project)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("the child starts");
        let (lines_tx, lines) = std::sync::mpsc::channel();
        let stdout = child.stdout.take().expect("piped");
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines().map_while(Result::ok) {
                if lines_tx.send(line).is_err() {
                    break;
                }
            }
        });
        // The harness's "test NAME ... " has no line end of its own.
        while !lines.recv_timeout(patience).expect("the child starts its steps").ends_with("ready") {}
        ScriptedChild { child, lines, done: std::cell::Cell::new(0) }
    }

    /// Waits (up to `patience`) for the line `line`.
    pub fn wait_for_line(&self, line: &str, patience: std::time::Duration) {
        loop {
            let read = self.lines.recv_timeout(patience).expect("the child goes on");
            self.done.set(self.done.get().max(step_done(&read)));
            if read == line {
                return;
            }
        }
    }

    /// Kills the child with SIGKILL (nothing of it runs after) and returns the last step it
    /// told done (0: none).
    pub fn kill(mut self) -> u64 {
        self.child.kill().expect("the child is killed");
        self.child.wait().expect("the child ends");
        self.lines.try_iter().map(|line| step_done(&line)).fold(self.done.get(), u64::max)
    }
}

/// The step a child's line tells done (`done N`), or 0.
fn step_done(line: &str) -> u64 {
    line.strip_prefix("done ").and_then(|n| n.parse().ok()).unwrap_or(0)
}
