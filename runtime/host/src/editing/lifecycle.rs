//! A prototype's life in its Lua source, from the Data pane or `data.*` over the protocol:
//! Duplicate (a copy under a new id, after the original or at the end of a chosen file of the
//! project's mods), New (a table of the type's `template` fields) and Delete (refused while
//! anything uses the prototype, listing what).
//!
//! Each is a text edit of one file made as [`content`] makes a field's: the new
//! text compiles in a scratch state, hotloads, and only then is written; the transaction keeps
//! the edit's patch of the file (the lines it replaced and wrote), so undo and redo turn only
//! those lines back or forth and keep the rest of the file as it is then. A prototype a file no
//! longer adds after such a write (a Delete, an undone Duplicate) is retired from the registry
//! by the write ([`content::replace_source`]).

use std::path::{Path, PathBuf};

use mlua::Lua;

use super::content;
use super::edit_error::EditError;
use super::usages;
use nefia_game::history::Transaction;
use nefia_game::source_edit::{self, Locator};

/// How many usages a refused Delete lists before "and N more".
const LISTED_USAGES: usize = 8;

/// Copies prototype `id` of `data_type` as `new_id`: after the original when `file` is none or
/// the original's file, else at the end of `file` (a loaded Lua file of `new_id`'s mod, named
/// as messages name it: `mods/elona/content/charas.lua`).
pub(super) fn duplicate(
    lua: &Lua,
    data_type: &str,
    id: &str,
    new_id: &str,
    file: Option<&str>,
) -> Result<Transaction, EditError> {
    let refused = |why: String| EditError::Refused(format!("Duplicate {id} as {new_id}: {why}"));
    let (from_path, short_id, line) = content::source_of(lua, data_type, id).map_err(|e| refused(e.to_string()))?;
    let original_file = nefia_lua::engine(lua)
        .sources()
        .values()
        .find(|s| s.path.as_deref() == Some(from_path.as_path()))
        .map(|s| s.name.as_str().to_owned())
        .unwrap_or_default();
    let (into_path, new_short_id) =
        target(lua, data_type, new_id, file.unwrap_or(&original_file)).map_err(|e| refused(e.to_string()))?;
    let at = Locator { data_type, short_id: &short_id, line };
    let into_text = content::read_source(&into_path).map_err(|e| refused(e.to_string()))?;
    let (after, _) = if same_file(&from_path, &into_path) {
        source_edit::duplicate(&into_text, &at, &new_short_id)
    } else {
        let from_text = content::read_source(&from_path).map_err(|e| refused(e.to_string()))?;
        let copy = source_edit::copy_of(&from_text, &at, &new_short_id).map_err(|e| refused(e.to_string()))?;
        source_edit::append(&into_text, data_type, &new_short_id, &copy)
    }
    .map_err(|e| refused(e.to_string()))?;
    content::written(lua, &into_path, &into_text, &after, format!("Duplicate {id} as {new_id}"))
        .map_err(|e| refused(e.to_string()))
}

/// Adds prototype `new_id` of `data_type` at the end of `file`, with the type's template
/// fields (those declared `template = true`) at their defaults.
pub(super) fn create(lua: &Lua, data_type: &str, new_id: &str, file: &str) -> Result<Transaction, EditError> {
    let refused = |why: String| EditError::Refused(format!("New {data_type} {new_id}: {why}"));
    let (path, short_id) = target(lua, data_type, new_id, file).map_err(|e| refused(e.to_string()))?;
    let template: Vec<(String, nefia_game::value::Value)> = {
        let engine = nefia_lua::engine(lua);
        let world = engine.world();
        let declared = world.data.data_type(data_type).map_err(|e| refused(e.to_string()))?;
        declared
            .fields
            .iter()
            .filter(|f| f.template && f.default != nefia_game::value::Value::Nil)
            .map(|f| (f.name.as_str().to_owned(), f.default.clone()))
            .collect()
    };
    let fields: Vec<(&str, &nefia_game::value::Value)> = template.iter().map(|(n, v)| (n.as_str(), v)).collect();
    let text = content::read_source(&path).map_err(|e| refused(e.to_string()))?;
    let statement =
        source_edit::new_statement(&text, data_type, &short_id, &fields).map_err(|e| refused(e.to_string()))?;
    let (after, _) =
        source_edit::append(&text, data_type, &short_id, &statement).map_err(|e| refused(e.to_string()))?;
    content::written(lua, &path, &text, &after, format!("New {data_type} {new_id}")).map_err(|e| refused(e.to_string()))
}

/// Removes prototype `id` of `data_type` from its file, unless anything uses it.
pub(super) fn delete(lua: &Lua, data_type: &str, id: &str) -> Result<Transaction, EditError> {
    let refused = |why: String| EditError::Refused(format!("Delete {id}: {why}"));
    let used = usages::find(lua, data_type, id);
    if !used.is_empty() {
        let mut listed: Vec<String> = used.iter().take(LISTED_USAGES).map(ToString::to_string).collect();
        if used.len() > LISTED_USAGES {
            listed.push(format!("and {} more", used.len() - LISTED_USAGES));
        }
        return Err(refused(format!(
            "it is used by {} (Where used lists them): change those first",
            listed.join("; ")
        )));
    }
    let (path, short_id, line) = content::source_of(lua, data_type, id).map_err(|e| refused(e.to_string()))?;
    let text = content::read_source(&path).map_err(|e| refused(e.to_string()))?;
    let at = Locator { data_type, short_id: &short_id, line };
    let after = source_edit::remove(&text, &at).map_err(|e| refused(e.to_string()))?;
    content::written(lua, &path, &text, &after, format!("Delete {id}")).map_err(|e| refused(e.to_string()))
}

/// The path of `file`, where a new prototype `new_id` goes, and the id within its mod; refuses
/// an id that is not `<mod>.<name>`, that the type already has, or whose mod `file` is not of.
fn target(lua: &Lua, data_type: &str, new_id: &str, file: &str) -> Result<(PathBuf, String), NewIdError> {
    let Some((mod_id, short_id)) = new_id.split_once('.') else {
        return Err(NewIdError::NoModPart(new_id.to_owned()));
    };
    if short_id.is_empty() || !short_id.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return Err(NewIdError::NotAName(short_id.to_owned()));
    }
    let engine = nefia_lua::engine(lua);
    {
        let world = engine.world();
        let declared = world.data.data_type(data_type)?;
        if world.data.find(declared.id, new_id).is_ok() {
            return Err(NewIdError::Taken { data_type: data_type.to_owned(), new_id: new_id.to_owned() });
        }
    }
    let sources = engine.sources();
    let of_mod: Vec<_> =
        sources.values().filter(|s| s.mod_id.is_some_and(|m| m.as_str() == mod_id) && s.path.is_some()).collect();
    if of_mod.is_empty() {
        return Err(NewIdError::NoSuchMod(mod_id.to_owned()));
    }
    let path = of_mod.iter().find(|s| s.name.as_str() == file).and_then(|s| s.path.clone()).ok_or_else(|| {
        let mut files: Vec<&str> = of_mod.iter().map(|s| s.name.as_str()).collect();
        files.sort_unstable();
        NewIdError::NotAFileOfMod { file: file.to_owned(), mod_id: mod_id.to_owned(), files: files.join(", ") }
    })?;
    Ok((path, short_id.to_owned()))
}

/// Why a new prototype's id or file was refused.
#[derive(Debug, thiserror::Error)]
enum NewIdError {
    /// The id has no `<mod>.` part.
    #[error("an id is `<mod>.<name>`, such as `elona.{0}`")]
    NoModPart(String),
    /// The part after the mod is not a name.
    #[error("`{0}` is not a name: use letters, digits and `_`")]
    NotAName(String),
    /// The data type is not declared.
    #[error("{0}")]
    Data(#[from] nefia_game::data::DataError),
    /// The type already has a prototype with the id.
    #[error("{data_type} already has {new_id}: choose another id")]
    Taken {
        /// The data type.
        data_type: String,
        /// The id.
        new_id: String,
    },
    /// No loaded mod has the id's mod part.
    #[error("no loaded mod of the project is called `{0}`: the id's first part names its mod")]
    NoSuchMod(String),
    /// The file chosen is not one of the mod's loaded files.
    #[error("{file} is not a loaded file of mod {mod_id}; its files are {files}")]
    NotAFileOfMod {
        /// The file chosen.
        file: String,
        /// The mod.
        mod_id: String,
        /// The mod's loaded files, comma-separated.
        files: String,
    },
}

/// Whether `a` and `b` are the same file.
fn same_file(a: &Path, b: &Path) -> bool {
    a == b || a.canonicalize().ok().zip(b.canonicalize().ok()).is_some_and(|(a, b)| a == b)
}
