//! A prototype's localized fields (its `_` keys: `chara._.elona.putit.name`) in each language,
//! and the file each language's text is written to: what the Data pane's "Localized" section
//! shows and edits.
//!
//! The file a language's text goes in is the one the game reads it from (of several, the last
//! loaded: later files win, as OpenNefia's loader merges them). A language that lacks the key
//! gets it in the file of that language beside one that has it (`locale/en/chara.lua` →
//! `locale/jp/chara.lua`), else in the prototype's own mod's file of that language and
//! namespace named after the data type (`chara.lua`), else its first of that namespace. Only
//! files already read are chosen: a language with none of them has nowhere to write.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use super::{LocaleFile, languages};

/// One localized field of a prototype (`name`, `description`) in every language.
#[derive(Debug, Clone, PartialEq)]
pub struct LocalizedField {
    /// The field: the key's part after the prototype's id (`name`).
    pub field: String,
    /// The key within its namespace: `chara._.elona.putit.name`.
    pub key: String,
    /// By language code, its text there or where it would be added.
    pub languages: BTreeMap<String, LocalizedText>,
}

/// A localized field in one language.
#[derive(Debug, Clone, PartialEq)]
pub enum LocalizedText {
    /// The language has the key, in `file`: its text, or none when the value is a function or
    /// a list (edited in the file itself).
    Present {
        /// The file the game reads it from.
        file: PathBuf,
        /// The text of a string value.
        text: Option<String>,
    },
    /// The language lacks the key: the file it would be added to, if the language has one.
    Missing {
        /// Where it goes.
        file: Option<PathBuf>,
    },
}

/// The localized fields of prototype `id` (`elona.putit`) of `data_type` (`base.chara`) in
/// `files` (every loaded mod's locale files, in load order): each field some language has, and
/// `name` always, with each language of `files`.
pub fn localized_fields(files: &[LocaleFile], data_type: &str, id: &str) -> Vec<LocalizedField> {
    let Some((namespace, type_name)) = data_type.split_once('.') else { return Vec::new() };
    let prefix = format!("{type_name}._.{id}.");
    let in_namespace = || files.iter().filter(|file| file.namespace == namespace);
    let mut fields: BTreeMap<String, BTreeMap<String, &LocaleFile>> = BTreeMap::new();
    fields.entry("name".to_owned()).or_default();
    for file in in_namespace() {
        for entry in &file.entries {
            if let Some(field) = entry.key.strip_prefix(&prefix) {
                // A later file's over an earlier's: the one the game reads.
                fields.entry(field.to_owned()).or_default().insert(file.language.clone(), file);
            }
        }
    }
    let own_mod = id.split_once('.').map_or("", |(mod_id, _)| mod_id);
    let languages = languages(files);
    fields
        .into_iter()
        .map(|(field, having)| {
            let key = format!("{prefix}{field}");
            let texts = languages
                .iter()
                .map(|language| {
                    let text = match having.get(language) {
                        Some(file) => LocalizedText::Present {
                            file: file.path.clone(),
                            text: file.entries.iter().rev().find(|e| e.key == key).and_then(|e| e.text.clone()),
                        },
                        None => {
                            let beside = having.values().find_map(|other| sibling(files, &other.path, language));
                            let own = || {
                                let candidates =
                                    in_namespace().filter(|f| f.mod_id == own_mod && f.language == *language);
                                let named = |f: &&LocaleFile| f.path.file_stem().is_some_and(|s| s == type_name);
                                candidates.clone().find(named).or_else(|| candidates.clone().next())
                            };
                            LocalizedText::Missing { file: beside.or_else(own).map(|f| f.path.clone()) }
                        }
                    };
                    (language.clone(), text)
                })
                .collect();
            LocalizedField { field, key, languages: texts }
        })
        .collect()
}

/// The file of `files` in `language` beside `file` (`locale/en/chara.lua` →
/// `locale/jp/chara.lua`), if it was read.
pub fn sibling<'a>(files: &'a [LocaleFile], file: &Path, language: &str) -> Option<&'a LocaleFile> {
    let mut parts: Vec<_> = file.components().map(|c| c.as_os_str().to_owned()).collect();
    let at = parts.iter().rposition(|part| part == "locale")?;
    *parts.get_mut(at + 1)? = language.into();
    let path: PathBuf = parts.iter().collect();
    files.iter().find(|f| f.path == path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::source_edit::LocaleEntry;

    fn file(mod_id: &str, language: &str, name: &str, keys: &[(&str, &str)]) -> LocaleFile {
        let path = PathBuf::from(format!("mods/{mod_id}/locale/{language}/{name}"));
        LocaleFile {
            mod_id: mod_id.into(),
            language: language.into(),
            namespace: "base".into(),
            display: path.display().to_string(),
            path,
            entries: keys
                .iter()
                .map(|(key, text)| LocaleEntry { key: (*key).into(), line: 1, text: Some((*text).into()) })
                .collect(),
        }
    }

    #[test]
    fn each_language_has_its_text_or_the_file_it_would_be_added_to() {
        let files = [
            file(
                "elona",
                "en",
                "chara.lua",
                &[("chara._.elona.putit.name", "putit"), ("chara._.elona.putit.desc", "A")],
            ),
            file("elona", "jp", "chara.lua", &[("chara._.elona.putit.name", "プチ")]),
            file("elona", "jp", "misc.lua", &[]),
            file("extra", "jp", "chara.lua", &[("chara._.elona.putit.name", "ぷち")]),
        ];
        let fields = localized_fields(&files, "base.chara", "elona.putit");
        let names: Vec<_> = fields.iter().map(|f| f.field.as_str()).collect();
        assert_eq!(names, ["desc", "name"]);
        let name = &fields[1];
        assert_eq!(name.key, "chara._.elona.putit.name");
        let text = |file: &str, text: &str| LocalizedText::Present { file: file.into(), text: Some(text.into()) };
        assert_eq!(name.languages["en"], text("mods/elona/locale/en/chara.lua", "putit"));
        assert_eq!(name.languages["jp"], text("mods/extra/locale/jp/chara.lua", "ぷち"), "the last loaded wins");
        let beside = LocalizedText::Missing { file: Some("mods/elona/locale/jp/chara.lua".into()) };
        assert_eq!(fields[0].languages["jp"], beside, "added beside the en file that has it");
    }

    #[test]
    fn a_name_no_language_has_goes_in_the_prototypes_own_mod_named_after_the_type() {
        let files = [file("elona", "en", "misc.lua", &[]), file("elona", "en", "item.lua", &[])];
        let fields = localized_fields(&files, "base.item", "elona.gem");
        assert_eq!(fields.len(), 1);
        let missing = LocalizedText::Missing { file: Some("mods/elona/locale/en/item.lua".into()) };
        assert_eq!(fields[0].languages["en"], missing);
        let other_mod = localized_fields(&files, "base.item", "other.gem");
        assert_eq!(other_mod[0].languages["en"], LocalizedText::Missing { file: None }, "no file of its mod");
    }
}
