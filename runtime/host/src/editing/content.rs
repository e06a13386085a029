//! Content edited in forms: a prototype's field written back to the Lua file that adds it
//! ([`Edit::PrototypeField`](nefia_game::edit::Edit::PrototypeField)), and files put back when
//! History undoes or redoes such an edit.
//!
//! An edit is made in this order, so a refusal at any step changes nothing: the value is
//! checked against the field's declared type ([`nefia_lua::schema`]); the prototype's
//! `data:add { ... }` table is edited in the file's text, every other byte kept
//! ([`nefia_game::source_edit`]); the new text is compiled in a scratch Lua state; it is
//! hotloaded into the running game (a reload that fails is rolled back); and only then is the
//! file written, atomically, unless another program is writing it or changed it since it was
//! read ([`nefia_game::files::guarded`]). Instances of the prototype read their base values
//! from it, so they show the new value at once.
//!
//! The transaction keeps the edit's patch of the file ([`nefia_game::source_patch`]): the
//! lines it replaced and the lines it wrote. Undo and redo turn only those lines back or forth
//! in the file as it is now, through the same compile, hotload and write, so a hand edit made
//! elsewhere in the file since stays; if the lines were changed since, the undo or redo is
//! refused naming the file and line, nothing is written, and its step stays in History to be
//! tried again.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use mlua::Lua;

use super::edit_error::EditError;
use super::usages;
use nefia_game::history::{Transaction, label_value};
use nefia_game::source_edit::{self, Locator};
use nefia_game::source_patch::{PatchSide, SourcePatch};
use nefia_game::symbol::Symbol;
use nefia_game::value::Value;
use nefia_lua::reload::{self as hotload, Unchanged};

/// Makes the edit of field `field` of prototype `id` (of `data_type`) to `value` (none: the
/// field is removed from the table, its default shows).
pub(super) fn prototype_field(
    lua: &Lua,
    data_type: &str,
    id: &str,
    field: &str,
    value: Option<&Value>,
) -> Result<Transaction, EditError> {
    let refused = |why: String| EditError::Refused(format!("{id}.{field}: {why}"));
    if field.starts_with('_') {
        return Err(refused(format!(
            "'{field}' is the prototype's own name or type, not a field: Duplicate makes one under another id"
        )));
    }
    let (path, short_id, line) = source_of(lua, data_type, id).map_err(|e| refused(e.to_string()))?;
    if let Some(value) = value {
        nefia_lua::schema::check_value(lua, data_type, field, value).map_err(|e| refused(e.to_string()))?;
    }
    nefia_lua::content_checks::check_field_edit(lua, data_type, id, field, value)
        .map_err(|e| refused(e.to_string()))?;
    let before = read_source(&path).map_err(|e| refused(e.to_string()))?;
    let locator = Locator { data_type, short_id: &short_id, line };
    let after = source_edit::set_field(&before, &locator, field, value).map_err(|e| refused(e.to_string()))?;
    if after == before {
        return Err(refused("it already has that value: the file is unchanged".into()));
    }
    let label = match value {
        Some(value) => format!("Set {id}.{field} = {}", label_value(value)),
        None => format!("Unset {id}.{field}"),
    };
    written(lua, &path, &before, &after, label).map_err(|e| refused(e.to_string()))
}

/// Why a prototype's Lua file could not be found, read or written with an edit.
#[derive(Debug, thiserror::Error)]
pub(super) enum SourceFileError {
    /// The data type or the prototype is not loaded.
    #[error("{0}")]
    Data(#[from] nefia_game::data::DataError),
    /// The prototype was added by a file that is no mod's (the REPL, a test).
    #[error("it was added by {0}, which is not a mod's file the editor can change")]
    NotAModFile(String),
    /// The prototype's id does not start with its mod's (the file named).
    #[error("its id does not start with its mod's ({0})")]
    IdOutsideMod(String),
    /// The edited text does not compile (Lua's message).
    #[error("the edited file does not compile ({0}); it was not written")]
    DoesNotCompile(String),
    /// No mod loads the file (its name).
    #[error("{0} is not loaded by any mod: nothing was written")]
    NotLoaded(String),
    /// The edited text compiles but fails to load (Lua's message).
    #[error("the edited file fails to load, and was not written: {0}")]
    FailsToLoad(String),
    /// Another program wrote the file, or the write failed; the old text is hotloaded again.
    #[error("{0}; the running game went back to the text the edit was made on")]
    WriteRefused(nefia_game::files::FileError),
    /// The file could not be read.
    #[error("{0}")]
    Read(nefia_game::files::FileError),
    /// The file is gone.
    #[error("{} is gone: it was moved or deleted", .0.display())]
    Gone(PathBuf),
    /// The file is not UTF-8.
    #[error("{} is not UTF-8 text", .0.display())]
    NotUtf8(PathBuf),
}

/// Writes `after` in place of `before` as the file at `path` (see [`replace_source`]) and gives
/// the step that undoes and redoes it: the patch between them.
pub(super) fn written(
    lua: &Lua,
    path: &Path,
    before: &str,
    after: &str,
    label: String,
) -> Result<Transaction, SourceFileError> {
    replace_source(lua, path, before, after)?;
    Ok(Transaction::of_patches(label, SourcePatch::between(path, before, after)))
}

/// The file that adds prototype `id` of `data_type`, its `_id` there and the line of its
/// `data:add`, or why there is none to edit (its text is read with [`read_source`], which waits
/// for another program writing it).
pub(super) fn source_of(lua: &Lua, data_type: &str, id: &str) -> Result<(PathBuf, String, u32), SourceFileError> {
    let engine = nefia_lua::engine(lua);
    let origin = {
        let world = engine.world();
        let data_type_id = world.data.data_type(data_type)?.id;
        let index = world.data.find(data_type_id, id)?;
        world.data.proto(index).origin.clone()
    };
    let path = engine
        .sources()
        .values()
        .find(|source| source.name == origin.file)
        .and_then(|source| source.path.clone())
        .ok_or_else(|| SourceFileError::NotAModFile(origin.file.to_string()))?;
    let short_id = origin
        .mod_id
        .and_then(|mod_id| id.strip_prefix(&format!("{mod_id}.")).map(str::to_owned))
        .ok_or_else(|| SourceFileError::IdOutsideMod(origin.file.to_string()))?;
    Ok((path, short_id, origin.line))
}

/// Puts `after` in place of `before` as the text of the Lua file at `path`: compiled in a
/// scratch state, hotloaded (rolled back if it fails), then written atomically if the file still
/// holds `before` and no other program is writing it (and the old code hotloaded again if the
/// write fails or is refused).
pub(super) fn replace_source(lua: &Lua, path: &Path, before: &str, after: &str) -> Result<(), SourceFileError> {
    let name = path.display().to_string();
    Lua::new()
        .load(nefia_lua::without_bom(after.as_bytes()))
        .set_name(format!("@{name}"))
        .into_function()
        .map_err(|e| SourceFileError::DoesNotCompile(nefia_lua::error::root_message(&e)))?;
    let reload = hotload::reload_file_with(lua, path, after.to_owned(), Unchanged::Reload)
        .ok_or(SourceFileError::NotLoaded(name))?;
    if let Err(failure) = reload.outcome {
        return Err(SourceFileError::FailsToLoad(failure.message));
    }
    if let Err(error) = nefia_game::files::guarded::write_over(path, Some(before.as_bytes()), after.as_bytes()) {
        let _ = hotload::reload_file_with(lua, path, before.to_owned(), Unchanged::Reload);
        return Err(SourceFileError::WriteRefused(error));
    }
    retire_dropped(lua, path, before, after);
    Ok(())
}

/// Retires the prototypes that `before` added and `after` no longer does (file `path`, now
/// holding `after`, hotloaded): a reload re-adds what a file adds but never takes away. A
/// prototype an object still uses stays, so no object loses its prototype.
fn retire_dropped(lua: &Lua, path: &Path, before: &str, after: &str) {
    let (Ok(was), Ok(is)) = (source_edit::prototypes_in(before), source_edit::prototypes_in(after)) else { return };
    let engine = nefia_lua::engine(lua);
    let mod_id = engine.mod_of_file(path);
    let Some(mod_id) = mod_id else { return };
    for (data_type, short_id) in was.iter().filter(|p| !is.contains(p)) {
        let id = format!("{mod_id}.{short_id}");
        let in_use = usages::in_the_world(lua, data_type, &id)
            .iter()
            .any(|u| matches!(u, nefia_protocol::editing::Usage::Object { .. }));
        let (Some(data_type), Some(id)) = (Symbol::lookup(data_type), Symbol::lookup(&id)) else { continue };
        if !in_use && let Err(error) = nefia_lua::data::retire(lua, data_type, id) {
            tracing::warn!("{id} could not be taken out of data[{data_type}]: {error}");
        }
    }
}

/// Turns the lines of the patches `sources` (a step's [`Transaction::sources`], which undo or
/// redo is to put back) to their sides in the files as they are now, each file written and
/// hotloaded once. Every patch is checked before anything is written: if one does not find its
/// lines, nothing is; the problems say which file and line. A file whose write is then refused
/// is named too (the files written before it stay written).
pub(super) fn restore_sources(lua: &Lua, sources: &[(Arc<SourcePatch>, PatchSide)]) -> Result<(), Vec<String>> {
    let mut texts: Vec<(&Path, String, String)> = Vec::new();
    let mut problems = Vec::new();
    for (patch, side) in sources {
        let file = patch.file.as_path();
        let at = match texts.iter().position(|(known, ..)| *known == file) {
            Some(at) => at,
            None => match read_source(file) {
                Ok(text) => {
                    texts.push((file, text.clone(), text));
                    texts.len() - 1
                }
                Err(problem) => {
                    problems.push(problem.to_string());
                    continue;
                }
            },
        };
        match patch.put(&texts[at].2, *side) {
            Ok(text) => texts[at].2 = text,
            Err(refused) => problems.push(refused.to_string()),
        }
    }
    if problems.is_empty() {
        for (file, before, after) in &texts {
            if let Err(problem) = replace_source(lua, file, before, after) {
                problems.push(format!("{}: {problem}", file.display()));
                break;
            }
        }
    }
    match problems.is_empty() {
        true => Ok(()),
        false => Err(problems),
    }
}

/// The text of Lua file `path`, read once no other program is writing it.
pub(super) fn read_source(path: &Path) -> Result<String, SourceFileError> {
    let bytes = nefia_game::files::guarded::read_quiet(path).map_err(SourceFileError::Read)?;
    let bytes = bytes.ok_or_else(|| SourceFileError::Gone(path.to_owned()))?;
    String::from_utf8(bytes).map_err(|_| SourceFileError::NotUtf8(path.to_owned()))
}
