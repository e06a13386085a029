//! The architecture stays as ARCHITECTURE.md draws it: every file or folder the document names
//! in backticks exists (a path is read from the repository's root, or from the folders the
//! document writes paths from: the crates' `src/`, the demo project;
//! a bare file name must be the name of some file of the repository), so does every path a doc
//! comment of the crates names (see [`doc_paths`] and [`doc_bases`] for what counts and where it
//! is read from), and no modules import each other in a circle.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use nefia_tests::repo_root;

/// The folders a path in ARCHITECTURE.md may be written from.
const BASES: [&str; 10] = [
    "",
    "runtime",
    "runtime/game/src",
    "runtime/protocol/src",
    "runtime/lua/src",
    "runtime/host/src",
    "editor/src",
    "editor",
    "projects",
    "projects/demo",
];

/// Each crate's sources, with fewer modules than it surely has (far fewer found would mean a
/// walk missed folders).
const CRATES: [(&str, usize); 6] = [
    ("runtime/game/src", 60),
    ("runtime/protocol/src", 15),
    ("runtime/lua/src", 60),
    ("runtime/host/src", 50),
    ("editor/src", 40),
    ("tests/src", 0),
];

/// The extensions of the files the document names.
const EXTENSIONS: [&str; 7] = ["rs", "lua", "ron", "md", "toml", "js", "json"];

/// The names of every file under `dir` (the build's output and git's folder left out).
fn file_names(dir: &Path, names: &mut BTreeSet<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if path.is_dir() {
            if !matches!(name.as_str(), "target" | ".git" | "node_modules") {
                file_names(&path, names);
            }
        } else {
            names.insert(name);
        }
    }
}

/// The backticked words of `text` that name a file or a folder: a path with a slash, or a
/// file name with one of [`EXTENSIONS`]; not globs, placeholders, URLs or code.
fn named_paths(text: &str) -> Vec<String> {
    text.split('`')
        .skip(1)
        .step_by(2)
        .filter(|word| {
            let plain = word.chars().all(|c| c.is_ascii_alphanumeric() || "/._-".contains(c));
            let has_extension =
                Path::new(word).extension().is_some_and(|e| EXTENSIONS.contains(&e.to_string_lossy().as_ref()));
            plain && !word.starts_with("//") && (word.contains('/') || has_extension) && !word.starts_with('.')
        })
        .map(str::to_owned)
        .collect()
}

/// Where `word` is in the repository, if it is.
fn find(root: &Path, names: &BTreeSet<String>, word: &str) -> Option<PathBuf> {
    if !word.contains('/') {
        return names.contains(word).then(|| PathBuf::from(word));
    }
    let relative = word.trim_end_matches('/');
    BASES.iter().map(|base| root.join(base).join(relative)).find(|path| path.exists())
}

#[test]
fn every_path_architecture_md_names_exists() {
    let root = repo_root();
    let text = std::fs::read_to_string(root.join("ARCHITECTURE.md")).expect("ARCHITECTURE.md");
    let mut names = BTreeSet::new();
    file_names(&root, &mut names);
    let words = named_paths(&text);
    assert!(words.len() > 100, "the document's paths are found: {}", words.len());
    let missing: Vec<&String> = words.iter().filter(|word| find(&root, &names, word).is_none()).collect();
    assert!(missing.is_empty(), "ARCHITECTURE.md names paths that do not exist: {missing:?}");
}

#[test]
fn a_path_that_does_not_exist_is_reported() {
    let root = repo_root();
    let mut names = BTreeSet::new();
    file_names(&root, &mut names);
    let words = named_paths("moved: `host/edit/resolve.rs` and `gone.rs`; kept: `runtime/host/src/serve.rs`, `lib.rs`");
    let missing: Vec<&String> = words.iter().filter(|word| find(&root, &names, word).is_none()).collect();
    assert_eq!(missing, ["host/edit/resolve.rs", "gone.rs"]);
}

/// The paths a doc comment names. Doc comments backtick code as well as paths, so this is
/// stricter than [`named_paths`]: a backticked word of plain characters (letters, digits, `/._-`)
/// of two parts or more (`play/reverse.rs`, `recordings/tests/`, not the bare folder `maps/`)
/// that ends in `/` (a folder) or in one of [`EXTENSIONS`] (a file); and any word ending in `.md`,
/// backticked or not, which names a document (`PROTOCOL.md`). Not globs, placeholders
/// (`<mod>/init.lua`), URLs or code.
fn doc_paths(text: &str) -> BTreeSet<String> {
    let plain = |word: &str| {
        !word.is_empty()
            && !word.starts_with(['.', '/'])
            && word.chars().all(|c| c.is_ascii_alphanumeric() || "/._-".contains(c))
    };
    let backticked = text.split('`').skip(1).step_by(2).filter(|word| {
        let inner = word.trim_end_matches('/');
        let has_extension =
            Path::new(word).extension().is_some_and(|e| EXTENSIONS.contains(&e.to_string_lossy().as_ref()));
        plain(word) && inner.contains('/') && !inner.contains("//") && (word.ends_with('/') || has_extension)
    });
    let documents = text
        .split_whitespace()
        .map(|word| word.trim_matches(|c: char| !c.is_ascii_alphanumeric()))
        .filter(|word| plain(word) && word.ends_with(".md"));
    backticked.chain(documents).map(str::to_owned).collect()
}

/// The folders a path in a doc comment of `file` may be written from: the file's folder and each
/// folder above it up to the repository's `root` (so the crate's `src/`, as `play/reverse.rs` in
/// `runtime/host/src/play.rs`, a sibling folder, as `world/invariants.rs` in
/// `runtime/game/src/world/changes.rs`, and the root, as `mods/elona/init.lua`), the file's own
/// module folder (`runtime/host/src/play.rs` writes `reverse.rs` for
/// `runtime/host/src/play/reverse.rs`), the demo project (a project's `recordings/tests/`) and each mod's
/// folder (a mod's `game/rules.lua`).
fn doc_bases(root: &Path, file: &Path) -> Vec<PathBuf> {
    let mut bases: Vec<PathBuf> =
        file.ancestors().skip(1).take_while(|dir| dir.starts_with(root)).map(Path::to_owned).collect();
    bases.push(file.with_extension(""));
    bases.push(root.join("projects/demo"));
    if let Ok(mods) = std::fs::read_dir(root.join("mods")) {
        bases.extend(mods.flatten().map(|entry| entry.path()).filter(|path| path.is_dir()));
    }
    bases
}

/// The doc comments (`//!` and `///`) of the Rust files under `dir`, as (file, text): each run of
/// consecutive doc lines is one text, as Markdown reads it.
fn doc_comments(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
    for entry in std::fs::read_dir(dir).expect("the folder reads").flatten() {
        let path = entry.path();
        if path.is_dir() {
            doc_comments(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            let text = std::fs::read_to_string(&path).expect("a source file");
            let mut block: Vec<&str> = Vec::new();
            for line in text.lines().map(str::trim_start).chain([""]) {
                let doc =
                    line.strip_prefix("//!").or_else(|| line.strip_prefix("///").filter(|rest| !rest.starts_with('/')));
                match doc {
                    Some(doc) => block.push(doc),
                    None if !block.is_empty() => out.push((path.clone(), std::mem::take(&mut block).join("\n"))),
                    None => {}
                }
            }
        }
    }
}

/// The paths the doc comments of the crates' `srcs` (under `root`) name that exist nowhere they
/// may be read from, each as `file: path` (the file from `root`).
fn stale_doc_paths(root: &Path, srcs: &[&str]) -> Vec<String> {
    let mut docs = Vec::new();
    for src in srcs {
        doc_comments(&root.join(src), &mut docs);
    }
    assert!(!docs.is_empty(), "the doc comments of {srcs:?} are found");
    let mut stale = Vec::new();
    for (file, text) in &docs {
        let bases = doc_bases(root, file);
        for path in doc_paths(text) {
            if !bases.iter().any(|base| base.join(path.trim_end_matches('/')).exists()) {
                let file = file.strip_prefix(root).unwrap_or(file).display();
                stale.push(format!("{file}: {path}"));
            }
        }
    }
    stale
}

#[test]
fn every_path_a_doc_comment_names_exists() {
    let stale = stale_doc_paths(&repo_root(), &CRATES.map(|(src, _)| src));
    assert!(stale.is_empty(), "doc comments name paths that do not exist: {stale:?}");
}

/// The module graph of a crate's `src/`: each file is a module (`a/b.rs` and `a/b/mod.rs` are
/// `a::b`), and it imports the modules its code names through `crate::` (in `use` trees and
/// inline paths) or `super::`, comments and test modules left out. A name taken through a
/// module's re-export (`pub use x::Y;`) is an import of that module, which imports `x` in turn,
/// so `use nefia_protocol::message::Command` where the root re-exports `protocol::Command` is an import of the root.
/// A module naming an item its own ancestor defines is not an import: a folder's module and its
/// files are one unit; naming a name the ancestor re-exports is.
mod modules {
    use std::collections::{BTreeMap, BTreeSet};
    use std::path::Path;

    /// Each module of the crate under `src` and the modules it names, each with the first path
    /// that names it (what a reader fixing a circle looks for).
    pub type Graph = BTreeMap<String, BTreeMap<String, String>>;

    /// The files under `dir`, as (module name, text): a folder's `mod.rs` is the folder's module.
    pub fn files(src: &Path, dir: &Path, out: &mut Vec<(String, String)>) {
        for entry in std::fs::read_dir(dir).expect("the folder reads").flatten() {
            let path = entry.path();
            if path.is_dir() {
                files(src, &path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let relative = path.strip_prefix(src).expect("under src").with_extension("");
                let mut parts: Vec<String> =
                    relative.components().map(|c| c.as_os_str().to_string_lossy().into_owned()).collect();
                if matches!(parts.last().map(String::as_str), Some("mod" | "lib" | "main")) {
                    parts.pop();
                }
                let text = std::fs::read_to_string(&path).expect("a source file");
                out.push((parts.join("::"), text));
            }
        }
    }

    /// `text` without comments and without its `#[cfg(test)] mod tests { ... }` (at its end).
    fn code(text: &str) -> String {
        without_comments(text.split("#[cfg(test)]\nmod tests").next().unwrap_or(text))
    }

    /// `text` without its comments.
    pub fn without_comments(text: &str) -> String {
        text.lines().map(|line| line.split("//").next().unwrap_or_default()).collect::<Vec<_>>().join("\n")
    }

    /// The paths a `use` tree names: `a::{b, c::{d, e}}` → `a::b`, `a::c::d`, `a::c::e`.
    pub fn expand(prefix: &str, tree: &str, out: &mut Vec<String>) {
        let tree = tree.trim();
        let Some(open) = tree.find('{') else {
            let path = tree.split(" as ").next().unwrap_or(tree).trim();
            out.push(format!("{prefix}{path}").trim_end_matches("::self").to_owned());
            return;
        };
        let head = format!("{prefix}{}", &tree[..open]);
        let body = tree[open + 1..].trim_end().trim_end_matches('}');
        let (mut depth, mut start) = (0, 0);
        for (at, c) in body.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(&head, &body[start..at], out);
                    start = at + 1;
                }
                _ => {}
            }
        }
        if !body[start..].trim().is_empty() {
            expand(&head, &body[start..], out);
        }
    }

    /// The names each module re-exports (`pub use a::B;`, `pub(crate) use …`), by (module,
    /// name), with the path (from the crate's root) each names.
    type Reexports = BTreeMap<(String, String), String>;

    /// The paths (from the crate's root) that the `use` statements of module `name` name,
    /// only its `pub` (and `pub(…)`) ones if `public_only`: `crate::` from the root, each
    /// `super::` one module further up from the module's parent, and anything else (`self::`,
    /// a child) from the module itself, whether it is a folder's `mod.rs` or a file beside its
    /// folder. Paths into other crates end at the module itself, which imports nothing by them.
    fn use_paths(name: &str, code: &str, public_only: bool) -> Vec<String> {
        let here: Vec<&str> = name.split("::").filter(|p| !p.is_empty()).collect();
        let mut paths = Vec::new();
        for (at, _) in code.match_indices("use ") {
            let before = code[..at].trim_end();
            if before.chars().last().is_some_and(|c| c.is_alphanumeric() || c == '_') && !before.ends_with("pub") {
                continue; // a word ending in "use", not a statement
            }
            let line = before.rsplit('\n').next().unwrap_or_default().trim_start();
            let public = line == "pub" || (line.starts_with("pub(") && line.ends_with(')'));
            if public_only && !public {
                continue;
            }
            let mut tree = code[at + "use ".len()..].split(';').next().unwrap_or_default().trim_start();
            let mut base = here.clone();
            if let Some(rest) = tree.strip_prefix("crate::") {
                (base, tree) = (Vec::new(), rest);
            } else if tree.starts_with("super::") {
                while let Some(rest) = tree.strip_prefix("super::") {
                    base.pop();
                    tree = rest;
                }
            } else {
                tree = tree.trim_start_matches("self::");
            }
            let prefix: String = base.iter().map(|p| format!("{p}::")).collect();
            expand(&prefix, tree, &mut paths);
        }
        paths
    }

    /// The re-exports of the modules `found` (name, text).
    fn reexports(found: &[(String, String)]) -> Reexports {
        let mut out = Reexports::new();
        for (name, text) in found {
            for path in use_paths(name, &code(text), true) {
                let item = path.rsplit("::").next().unwrap_or_default().to_owned();
                out.insert((name.clone(), item), path);
            }
        }
        out
    }

    /// The module `path` (from the crate's root) is in: its longest prefix that is a module,
    /// and whether the next name is one that module re-exports (a name taken through a
    /// re-export is an import of the re-exporting module, as it is across crates, where a crate
    /// can only name another's public paths).
    fn module_of<'a>(modules: &'a BTreeSet<String>, reexported: &Reexports, path: &str) -> Option<(&'a String, bool)> {
        let parts: Vec<&str> = path.split("::").filter(|p| !p.is_empty()).collect();
        let (n, module) = (0..=parts.len()).rev().find_map(|n| Some((n, modules.get(&parts[..n].join("::"))?)))?;
        let through_reexport =
            parts.get(n).is_some_and(|item| reexported.contains_key(&(module.clone(), (*item).to_owned())));
        Some((module, through_reexport))
    }

    /// The words of `code` that start with `prefix` followed by a path (`crate::a::b`).
    pub fn paths_after<'a>(code: &'a str, prefix: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        code.match_indices(prefix).filter_map(move |(at, _)| {
            let before = code[..at].chars().last();
            if before.is_some_and(|c| c.is_alphanumeric() || c == '_' || c == ':') {
                return None;
            }
            let rest = &code[at + prefix.len()..];
            let end = rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':')).unwrap_or(rest.len());
            Some(&rest[..end])
        })
    }

    /// The module graph of the crate whose sources are in `src`.
    pub fn graph(src: &Path) -> Graph {
        let mut found = Vec::new();
        files(src, src, &mut found);
        let names: BTreeSet<String> = found.iter().map(|(name, _)| name.clone()).collect();
        let reexported = reexports(&found);
        let mut graph = Graph::new();
        for (name, text) in &found {
            let code = code(text);
            let mut named = use_paths(name, &code, false);
            // Inline paths: `crate::` from the root, `super::` from the module's parent.
            named.extend(paths_after(&code, "crate::").map(str::to_owned));
            let parent: Vec<&str> = name.split("::").collect();
            let parent = parent[..parent.len().saturating_sub(1)].join("::");
            named.extend(paths_after(&code, "super::").map(|path| [parent.as_str(), path].join("::")));
            let imports = graph.entry(name.clone()).or_default();
            for path in named {
                if let Some((target, through_reexport)) = module_of(&names, &reexported, &path)
                    && target != name
                    && (through_reexport || !(target.is_empty() || name.starts_with(&format!("{target}::"))))
                {
                    imports.entry(target.clone()).or_insert(path);
                }
            }
        }
        graph
    }

    /// The import circles of `graph`: its strongly connected parts of more than one module
    /// (Tarjan's algorithm), each sorted.
    pub fn circles(graph: &Graph) -> BTreeSet<Vec<String>> {
        struct Walk<'a> {
            graph: &'a Graph,
            index: BTreeMap<&'a str, usize>,
            low: BTreeMap<&'a str, usize>,
            stack: Vec<&'a str>,
            circles: BTreeSet<Vec<String>>,
        }
        impl<'a> Walk<'a> {
            fn visit(&mut self, module: &'a str) {
                let at = self.index.len();
                self.index.insert(module, at);
                self.low.insert(module, at);
                self.stack.push(module);
                for next in self.graph.get(module).into_iter().flat_map(BTreeMap::keys) {
                    if !self.index.contains_key(next.as_str()) {
                        self.visit(next);
                        let low = self.low[module].min(self.low[next.as_str()]);
                        self.low.insert(module, low);
                    } else if self.stack.contains(&next.as_str()) {
                        let low = self.low[module].min(self.index[next.as_str()]);
                        self.low.insert(module, low);
                    }
                }
                if self.low[module] == self.index[module] {
                    let from = self.stack.iter().rposition(|m| *m == module).unwrap_or(0);
                    let mut part: Vec<String> = self.stack.drain(from..).map(str::to_owned).collect();
                    if part.len() > 1 {
                        part.sort();
                        self.circles.insert(part);
                    }
                }
            }
        }
        let mut walk =
            Walk { graph, index: BTreeMap::new(), low: BTreeMap::new(), stack: Vec::new(), circles: BTreeSet::new() };
        for module in graph.keys() {
            if !walk.index.contains_key(module.as_str()) {
                walk.visit(module);
            }
        }
        walk.circles
    }
}

#[test]
fn no_import_circle_anywhere() {
    let root = repo_root();
    // Each crate's modules are found (far fewer would mean the walk missed folders).
    let mut found = Vec::new();
    for (crate_src, at_least) in CRATES {
        let graph = modules::graph(&root.join(crate_src));
        assert!(graph.len() >= at_least, "the modules of {crate_src} are found: {}", graph.len());
        for circle in modules::circles(&graph) {
            // Each import inside the circle, with the path that makes it.
            let edges: Vec<String> = circle
                .iter()
                .flat_map(|from| {
                    graph[from]
                        .iter()
                        .filter(|(to, _)| circle.contains(to))
                        .map(move |(to, path)| format!("{from} → {to} ({path})"))
                })
                .collect();
            found.push((crate_src, edges));
        }
    }
    assert!(found.is_empty(), "modules import each other in a circle (split along the real dependency): {found:#?}");
}

/// A crate's `src/` in a temp folder: each file (its folders made) with its text.
fn fixture(files: &[(&str, &str)]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temp dir");
    for (name, text) in files {
        let path = dir.path().join(name);
        std::fs::create_dir_all(path.parent().expect("in the folder")).expect("a folder");
        std::fs::write(path, text).expect("written");
    }
    dir
}

#[test]
fn a_circle_through_a_reexport_is_found() {
    // `top` re-exports `Command` from `protocol`; `part` names it through `top`.
    let dir = fixture(&[
        ("lib.rs", "mod top;"),
        ("top/mod.rs", "mod part; mod protocol;\npub(crate) use protocol::Command;"),
        ("top/protocol.rs", "pub enum Command { Part(crate::top::part::PartCommand) }"),
        ("top/part.rs", "use super::{Command};\npub enum PartCommand {}"),
    ]);
    let graph = modules::graph(dir.path());
    let circle = vec!["top".to_owned(), "top::part".to_owned(), "top::protocol".to_owned()];
    assert_eq!(modules::circles(&graph), BTreeSet::from([circle]), "{graph:?}");
}

#[test]
fn a_circle_through_the_crate_roots_reexport_is_found_and_what_the_root_defines_is_not() {
    // The root re-exports `Shared` from `shared`, which names `client`, which names `Shared`
    // through the root: a circle. `Host`, which the root defines, is no import.
    let dir = fixture(&[
        (
            "lib.rs",
            "mod client; mod shared;
pub use shared::Shared;
pub struct Host;",
        ),
        ("shared.rs", "pub struct Shared(crate::client::Client);"),
        (
            "client.rs",
            "use crate::{Host, Shared};
pub struct Client;",
        ),
    ]);
    let graph = modules::graph(dir.path());
    let circle = vec![String::new(), "client".to_owned(), "shared".to_owned()];
    assert_eq!(modules::circles(&graph), BTreeSet::from([circle]), "{graph:?}");
    assert_eq!(graph["client"].keys().collect::<Vec<_>>(), [""], "Host is no import, Shared is: {graph:?}");
}

#[test]
fn a_circle_through_use_trees_inline_paths_and_super_is_found() {
    let dir = fixture(&[
        ("lib.rs", "mod a; mod c; mod d;"),
        ("a/mod.rs", "mod b; mod sibling;"),
        ("a/b.rs", "// use crate::d;\nfn f() { super::sibling::g() }"),
        ("a/sibling.rs", "use crate::{c::{self, D}};\npub fn g() {}"),
        ("c.rs", "fn h() { crate::a::b::f() }"),
        ("d.rs", "use crate::c::h;"),
    ]);
    let graph = modules::graph(dir.path());
    let circle = vec!["a::b".to_owned(), "a::sibling".to_owned(), "c".to_owned()];
    assert_eq!(modules::circles(&graph), BTreeSet::from([circle]), "{graph:?}");
}

/// Each workspace crate and the crates it depends on, from `cargo metadata`: the normal and
/// build ones, and the dev ones (of its tests and benches) too if `with_dev`.
fn crate_dependencies(with_dev: bool) -> std::collections::BTreeMap<String, BTreeSet<String>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let output = std::process::Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--no-deps", "--offline"])
        .current_dir(repo_root())
        .output()
        .expect("cargo metadata runs");
    assert!(output.status.success(), "cargo metadata: {}", String::from_utf8_lossy(&output.stderr));
    let metadata: serde_json::Value = serde_json::from_slice(&output.stdout).expect("cargo metadata's JSON");
    let packages = metadata["packages"].as_array().expect("the workspace's packages");
    packages
        .iter()
        .map(|package| {
            let name = package["name"].as_str().unwrap_or_default().to_owned();
            let dependencies = package["dependencies"].as_array().into_iter().flatten();
            let kept = dependencies.filter(|d| with_dev || d["kind"].as_str() != Some("dev"));
            (name, kept.filter_map(|d| d["name"].as_str().map(str::to_owned)).collect())
        })
        .collect()
}

/// The layers are crates, and each names only the crates below it (ARCHITECTURE.md, "Crates"),
/// in its tests and benches too: the game state has no Lua and no host in it, the Lua API no
/// host, and the editor no Lua crate (what it shows of Lua's making comes to it through the
/// host; its tests and benches build a game through the host or `nefia_tests`), the protocol no
/// Lua either. No crate below the editor has a GUI dependency.
#[test]
fn the_crates_depend_only_on_the_layers_below() {
    let crates = crate_dependencies(false);
    let with_dev = crate_dependencies(true);
    let never: [(&str, &[&str]); 5] = [
        ("nefia_game", &["mlua", "nefia_protocol", "nefia_lua", "nefia_host", "nefia_editor", "egui", "eframe"]),
        ("nefia_protocol", &["mlua", "nefia_lua", "nefia_host", "nefia_editor", "egui", "eframe"]),
        ("nefia_lua", &["nefia_host", "nefia_editor", "egui", "eframe"]),
        ("nefia_host", &["nefia_editor", "egui", "eframe"]),
        ("nefia_editor", &["mlua", "nefia_lua"]),
    ];
    for (name, forbidden) in never {
        let dependencies =
            with_dev.get(name).unwrap_or_else(|| panic!("crate {name} is in the workspace: {with_dev:?}"));
        let named: Vec<&&str> = forbidden.iter().filter(|f| dependencies.contains(**f)).collect();
        assert!(
            named.is_empty(),
            "{name} (or its tests) depends on {named:?}, above or beside its layer: {dependencies:?}"
        );
    }
    assert!(crates["nefia_host"].contains("nefia_lua") && crates["nefia_lua"].contains("nefia_protocol"), "{crates:?}");
    assert!(
        crates["nefia_editor"].contains("nefia_protocol") && crates["nefia_protocol"].contains("nefia_game"),
        "{crates:?}"
    );
}

#[test]
fn a_doc_comment_naming_a_path_that_does_not_exist_is_reported() {
    let dir = fixture(&[
        ("README.md", ""),
        ("mods/base/game/rules.lua", ""),
        ("projects/demo/recordings/tests/a.ron", ""),
        ("runtime/game/src/world/invariants.rs", ""),
        ("runtime/host/src/play/reverse.rs", ""),
        (
            "runtime/host/src/lib.rs",
            // One line of the fixture per string (a line starting with `//` here would be a
            // comment of this file, its stale paths this file's).
            [
                "//! The spine (DESIGN.md, README.md): `play/reverse.rs`, `runtime/host/src/play/reverse.rs`,",
                "//! `host/edit.rs` and `host/fuzz/`; kept tests in `recordings/tests/`.",
                "// A comment: `host/gone.rs`.",
                "//// Not a doc comment: `host/gone.rs`.",
                "/// Not paths: `maps/`, `<mod>/init.lua`, `a::b`, `x/y`, `https://a/b.md`; `mods/base/init.lua`.",
                "fn f() {}",
            ]
            .join("\n")
            .as_str(),
        ),
        (
            "runtime/game/src/world/changes.rs",
            "/// Checked after (`world/invariants.rs`, `game/rules.lua`).\nfn g() {}",
        ),
    ]);
    let stale = stale_doc_paths(dir.path(), &["runtime/game/src", "runtime/host/src"]);
    let expected = [
        "runtime/host/src/lib.rs: DESIGN.md",
        "runtime/host/src/lib.rs: host/edit.rs",
        "runtime/host/src/lib.rs: host/fuzz/",
        "runtime/host/src/lib.rs: mods/base/init.lua",
    ];
    assert_eq!(BTreeSet::from_iter(stale), BTreeSet::from(expected.map(String::from)));
}
