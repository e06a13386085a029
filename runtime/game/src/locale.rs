//! The mods' locale files read as text (no Lua runs): every key of every language with its file
//! and line, where each key is used, and what a language lacks — what `nefia check --locale`,
//! the type definitions and the editor's Locale pane show. The running game's `I18N` (the Lua
//! runtime's `i18n` module) finds the files the same way ([`locale_files`]).
//!
//! A mod's `locale/<code>/` folder holds a language's files: those at its top fill the `base`
//! namespace (a key reads `chara._.elona.putit.name`), a subfolder's fill the namespace of its
//! name (`ns:key`). A key is used where a mod's Lua file (outside `locale/`) has it as a string
//! literal, and, for a `_` key of a data type (`chara._.elona.putit.name`), where the prototype
//! it localizes (`elona.putit` of `base.chara`) is added.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

pub mod localized;

use crate::data::DataRegistry;
use crate::source_edit::{LocaleEntry, SourceEditError, locale_entries};

/// One locale file of a mod, read.
#[derive(Debug, Clone, PartialEq)]
pub struct LocaleFile {
    /// The mod it belongs to.
    pub mod_id: String,
    /// The language's code: the folder under `locale/` (`en`, `jp`).
    pub language: String,
    /// The namespace it fills: `base`, or its subfolder's name.
    pub namespace: String,
    /// The file.
    pub path: PathBuf,
    /// The file as messages name it: `mods/elona/locale/jp/chara.lua`.
    pub display: String,
    /// Its keys.
    pub entries: Vec<LocaleEntry>,
}

impl LocaleFile {
    /// A key of this file as `I18N.get` takes it: `key` in `base`, else `namespace:key`.
    pub fn full_key(&self, key: &str) -> String {
        full_key(&self.namespace, key)
    }
}

/// `key` of `namespace` as `I18N.get` takes it.
pub fn full_key(namespace: &str, key: &str) -> String {
    match namespace {
        "base" => key.to_owned(),
        _ => format!("{namespace}:{key}"),
    }
}

/// A place a key is used: a file and line, and what is there.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct KeyUse {
    /// The file, as messages name it.
    pub file: String,
    /// Its line.
    pub line: u32,
    /// "string literal", or the prototype it localizes (`base.chara elona.putit`).
    pub what: String,
}

/// A locale file that could not be read.
#[derive(Debug, thiserror::Error)]
#[error("{file}: {error}")]
pub struct LocaleFileError {
    /// The file, as messages name it.
    pub file: String,
    /// Why.
    pub error: LocaleReadError,
}

/// Why a locale file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum LocaleReadError {
    /// It could not be read from disk.
    #[error("cannot read: {0}")]
    Io(#[from] std::io::Error),
    /// It is not Lua full_moon reads.
    #[error(transparent)]
    Syntax(#[from] SourceEditError),
}

/// The locale files of a language's folder `dir` with their namespaces, as OpenNefia's loader
/// finds them: the files at its top (`base`), then each subfolder's files (the subfolder's
/// name), each in name order.
pub fn locale_files(dir: &Path) -> std::io::Result<Vec<(PathBuf, String)>> {
    let mut found: Vec<(PathBuf, String)> = lua_files(dir)?.into_iter().map(|f| (f, "base".to_owned())).collect();
    for folder in sorted_entries(dir)?.into_iter().filter(|p| p.is_dir()) {
        let namespace = folder.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        found.extend(lua_files(&folder)?.into_iter().map(|file| (file, namespace.clone())));
    }
    Ok(found)
}

fn sorted_entries(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?.filter_map(Result::ok).map(|e| e.path()).collect();
    entries.sort();
    Ok(entries)
}

fn lua_files(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    Ok(sorted_entries(dir)?.into_iter().filter(|p| p.is_file() && p.extension().is_some_and(|e| e == "lua")).collect())
}

/// Every language's locale files of `mods` (id and folder, in load order), read; and the
/// files that could not be.
pub fn scan(mods: &[(String, PathBuf)]) -> (Vec<LocaleFile>, Vec<LocaleFileError>) {
    let (mut files, mut errors) = (Vec::new(), Vec::new());
    for (mod_id, dir) in mods {
        let locale = dir.join("locale");
        let Ok(languages) = sorted_entries(&locale) else { continue };
        for language in languages.into_iter().filter(|p| p.is_dir()) {
            let code = language.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let display_of =
                |path: &Path| format!("mods/{mod_id}/{}", path.strip_prefix(dir).unwrap_or(path).display());
            let found = match locale_files(&language) {
                Ok(found) => found,
                Err(error) => {
                    errors.push(LocaleFileError { file: display_of(&language), error: error.into() });
                    continue;
                }
            };
            for (path, namespace) in found {
                let display = display_of(&path);
                let read = std::fs::read_to_string(&path)
                    .map_err(LocaleReadError::from)
                    .and_then(|text| Ok(locale_entries(&text)?));
                match read {
                    Ok(entries) => files.push(LocaleFile {
                        mod_id: mod_id.clone(),
                        language: code.clone(),
                        namespace,
                        path,
                        display,
                        entries,
                    }),
                    Err(error) => errors.push(LocaleFileError { file: display, error }),
                }
            }
        }
    }
    (files, errors)
}

/// Where each of `files`' keys is: by full key, by language, the file and line.
pub type KeyTable = BTreeMap<String, BTreeMap<String, (String, u32)>>;

/// Every key of `files` by full key, with each language's file and line (a later file's over
/// an earlier's, as the loader merges them).
pub fn key_table(files: &[LocaleFile]) -> KeyTable {
    let mut table = KeyTable::new();
    for file in files {
        for entry in &file.entries {
            table
                .entry(file.full_key(&entry.key))
                .or_default()
                .insert(file.language.clone(), (file.display.clone(), entry.line));
        }
    }
    table
}

/// The languages of `files`, sorted.
pub fn languages(files: &[LocaleFile]) -> Vec<String> {
    files.iter().map(|f| f.language.clone()).collect::<BTreeSet<_>>().into_iter().collect()
}

/// The prototype a `_` key would localize, by its parts: `chara._.elona.putit.name` →
/// (`base.chara`, `elona.putit`); a key of another namespace localizes `<namespace>.<type>`.
pub fn prototype_of_key(full_key: &str) -> Option<(String, String)> {
    let (namespace, key) = full_key.split_once(':').unwrap_or(("base", full_key));
    let mut parts = key.split('.');
    let (type_name, underscore, mod_id, name) = (parts.next()?, parts.next()?, parts.next()?, parts.next()?);
    (underscore == "_").then(|| (format!("{namespace}.{type_name}"), format!("{mod_id}.{name}")))
}

/// Where each key of `keys` is a string literal of `mods`' Lua files (outside `locale/`).
pub fn literal_uses(mods: &[(String, PathBuf)], keys: &BTreeSet<String>) -> BTreeMap<String, Vec<KeyUse>> {
    let mut found: BTreeMap<String, Vec<KeyUse>> = BTreeMap::new();
    for (mod_id, dir) in mods {
        let mut files = Vec::new();
        code_files(dir, &dir.join("locale"), &mut files);
        for path in files {
            let Ok(text) = std::fs::read_to_string(&path) else { continue };
            let file = format!("mods/{mod_id}/{}", path.strip_prefix(dir).unwrap_or(&path).display());
            for (literal, line) in string_literals(&text) {
                if keys.contains(&literal) {
                    let use_ = KeyUse { file: file.clone(), line, what: "string literal".into() };
                    found.entry(literal).or_default().push(use_);
                }
            }
        }
    }
    found
}

/// Where each key of `keys` is used: [`literal_uses`], and the prototypes of `data` their `_`
/// keys localize, where they are added.
pub fn uses(mods: &[(String, PathBuf)], keys: &BTreeSet<String>, data: &DataRegistry) -> BTreeMap<String, Vec<KeyUse>> {
    let mut found = literal_uses(mods, keys);
    for key in keys {
        let Some((data_type, id)) = prototype_of_key(key) else { continue };
        let Ok(data_type) = data.data_type(&data_type).map(|t| t.id) else { continue };
        if let Ok(index) = data.find(data_type, &id) {
            let origin = &data.proto(index).origin;
            let use_ = KeyUse { file: origin.file.to_string(), line: origin.line, what: format!("{data_type} {id}") };
            found.entry(key.clone()).or_default().push(use_);
        }
    }
    found
}

/// The `.lua` files under `dir`, but not under `skip`, in name order.
fn code_files(dir: &Path, skip: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = sorted_entries(dir) else { return };
    for path in entries {
        if path == skip {
            continue;
        }
        if path.is_dir() {
            code_files(&path, skip, out);
        } else if path.extension().is_some_and(|e| e == "lua") {
            out.push(path);
        }
    }
}

/// The string literals of Lua `text` with their lines (none if it does not parse).
fn string_literals(text: &str) -> Vec<(String, u32)> {
    let Ok(ast) = full_moon::parse_fallible(text, full_moon::LuaVersion::lua54()).into_result() else {
        return Vec::new();
    };
    use full_moon::node::Node;
    use full_moon::tokenizer::TokenType;
    ast.nodes()
        .tokens()
        .filter_map(|token| match token.token_type() {
            TokenType::StringLiteral { literal, multi_line_depth: 0, .. } => {
                Some((literal.to_string(), u32::try_from(token.token().start_position().line()).unwrap_or(u32::MAX)))
            }
            _ => None,
        })
        .collect()
}

/// A key a language lacks or nothing uses, for `nefia check --locale`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocaleFinding {
    /// The file and line of the key (in a language that has it).
    pub file: String,
    /// Its line.
    pub line: u32,
    /// What is wrong.
    pub message: String,
}

/// The keys other languages have and `language` lacks, and the keys of `language` nothing
/// uses, each with a file and line: of `files`, the locale files of `mods` ([`scan`]).
pub fn check(
    files: &[LocaleFile],
    mods: &[(String, PathBuf)],
    data: &DataRegistry,
    language: &str,
) -> Vec<LocaleFinding> {
    let table = key_table(files);
    let keys: BTreeSet<String> = table.keys().cloned().collect();
    let used = uses(mods, &keys, data);
    let mut findings = Vec::new();
    for (key, by_language) in &table {
        match by_language.get(language) {
            None => {
                let Some((other, (file, line))) = by_language.iter().next() else { continue };
                let message = format!("`{key}` is in {other} but not in {language}");
                findings.push(LocaleFinding { file: file.clone(), line: *line, message });
            }
            Some((file, line)) if !used.contains_key(key) => {
                let message = format!("`{key}` is used nowhere (no string literal, no prototype it localizes)");
                findings.push(LocaleFinding { file: file.clone(), line: *line, message });
            }
            Some(_) => {}
        }
    }
    findings
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_files_fill_base_and_a_subfolder_its_namespace() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        std::fs::create_dir(dir.path().join("mymod")).expect("a subfolder");
        for file in ["b.lua", "a.lua", "mymod/c.lua", "notes.txt"] {
            std::fs::write(dir.path().join(file), "return {}").expect("a file");
        }
        let found: Vec<(String, String)> = locale_files(dir.path())
            .expect("read")
            .into_iter()
            .map(|(path, ns)| (path.strip_prefix(dir.path()).expect("inside").display().to_string(), ns))
            .collect();
        let expected = [("a.lua", "base"), ("b.lua", "base"), ("mymod/c.lua", "mymod")];
        assert_eq!(found, expected.map(|(p, n)| (p.to_owned(), n.to_owned())));
    }
}
