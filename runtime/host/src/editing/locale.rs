//! The Locale pane's edit ([`Edit::LocaleText`](nefia_game::edit::Edit::LocaleText)): a key's
//! text set in a locale file, byte-exactly ([`nefia_game::source_edit::set_locale_text`]), and
//! written and hotloaded as the Data pane's edits are (`content::written`), so undo puts back
//! the lines it changed.

use std::path::Path;

use mlua::Lua;
use nefia_game::history::Transaction;
use nefia_game::source_edit;

use super::content::{read_source, written};
use super::edit_error::EditError;

/// Sets `key` to `text` in the locale file `file`, or refuses naming the file and key.
pub(super) fn locale_text(lua: &Lua, file: &Path, key: &str, text: &str) -> Result<Transaction, EditError> {
    let refused = |why: String| EditError::Refused(format!("{}: `{key}`: {why}", file.display()));
    let engine = nefia_lua::engine(lua);
    let wanted = file.canonicalize().map_err(|e| refused(format!("cannot find the file: {e}")))?;
    let language = engine
        .loaded_mods()
        .values()
        .find_map(|loaded| {
            let relative = wanted.strip_prefix(loaded.dir.canonicalize().ok()?).ok()?;
            let mut parts = relative.components();
            (parts.next()?.as_os_str() == "locale")
                .then(|| parts.next().map(|p| p.as_os_str().to_string_lossy().into_owned()))?
        })
        .ok_or_else(|| refused("it is not a locale file of a loaded mod (mods/<mod>/locale/<lang>/...)".into()))?;
    let before = read_source(file).map_err(|e| refused(e.to_string()))?;
    let after = source_edit::set_locale_text(&before, key, text).map_err(|e| refused(e.to_string()))?;
    if after == before {
        return Err(refused("it already has that text: the file is unchanged".into()));
    }
    let label = format!("Set {key} = {text:?} ({language})");
    written(lua, file, &before, &after, label).map_err(|e| refused(e.to_string()))
}
