//! Writing the Lua API's type definitions (`nefia api-defs`, and the editor when mods change):
//! the `---@meta` files of [`nefia_lua::type_defs`] in a folder, and a `.luarc.json` in the
//! project that points LuaLS and EmmyLua at them and at the project's mods.

use std::path::{Path, PathBuf};

use nefia_game::files::{FileError, write_atomic};
use nefia_lua::Runtime;

/// Where a project's definitions go unless told otherwise, under its folder; the editor
/// writes them again there after a hotload.
pub const DEFAULT_FOLDER: &str = ".nefia/types";

/// Why the definitions could not be written.
#[derive(Debug, thiserror::Error)]
pub enum TypeDefsError {
    /// The engine could not list its API.
    #[error("the API could not be read: {0}")]
    Lua(#[from] mlua::Error),
    /// A file could not be written.
    #[error(transparent)]
    File(#[from] FileError),
    /// The folder could not be made.
    #[error("cannot make {path}: {source}")]
    Folder {
        /// The folder.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
}

/// Writes the definitions of `runtime`'s API and data into `out`, and the `.luarc.json` of `project`
/// (library: `out` and the mods' folders); returns the files written.
pub fn write(runtime: &Runtime, project: &Path, out: &Path) -> Result<Vec<PathBuf>, TypeDefsError> {
    std::fs::create_dir_all(out).map_err(|source| TypeDefsError::Folder { path: out.to_owned(), source })?;
    let mut written = Vec::new();
    for file in nefia_lua::type_defs::definitions(runtime.lua())? {
        let path = out.join(&file.name);
        if let Some(folder) = path.parent() {
            std::fs::create_dir_all(folder)
                .map_err(|source| TypeDefsError::Folder { path: folder.to_owned(), source })?;
        }
        write_atomic(&path, file.text.as_bytes())?;
        written.push(path);
    }
    let out = std::path::absolute(out).unwrap_or_else(|_| out.to_owned());
    let luarc = project.join(".luarc.json");
    write_atomic(&luarc, luarc_json(&out).as_bytes())?;
    written.push(luarc);
    Ok(written)
}

/// The `.luarc.json` that points a language server at the definitions in `types`.
pub fn luarc_json(types: &Path) -> String {
    let config = serde_json::json!({
        "$schema": "https://raw.githubusercontent.com/LuaLS/vscode-lua/master/setting/schema.json",
        "runtime": { "version": "Lua 5.4" },
        "workspace": { "library": [types], "checkThirdParty": false },
        "diagnostics": { "globals": ["data", "save", "_MOD_NAME"] },
    });
    serde_json::to_string_pretty(&config).unwrap_or_default() + "\n"
}
