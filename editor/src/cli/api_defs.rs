//! `nefia api-defs`: type definitions of the Lua API for code editors.

use std::path::PathBuf;
use std::process::ExitCode;

use nefia_host::terminal::TerminalGame;

use super::{Exit, project_or_default};

/// Write LuaLS / EmmyLua type definitions (`---@meta` files) of the whole Lua API and of the
/// project's data — its prototype, tile and event ids as string literal types — made from the
/// running engine, and a `.luarc.json` in the project pointing the language server at them.
#[derive(clap::Args)]
pub struct Args {
    /// The project whose mods to load (default: the one here, or the repository's
    /// projects/demo).
    #[arg(long)]
    project: Option<PathBuf>,
    /// Where to write the definitions (default: the project's `.nefia/types`, which the editor
    /// keeps up to date as mods are hotloaded).
    #[arg(long)]
    out: Option<PathBuf>,
}

/// Loads the project, writes the definitions and the `.luarc.json`; prints what it wrote.
pub fn run(args: Args) -> Exit {
    let project = project_or_default(args.project)?;
    let failed = |what: &str, error: &dyn std::fmt::Display| {
        eprintln!("nefia api-defs: {what}: {error}");
        ExitCode::FAILURE
    };
    let game = TerminalGame::open(&project).map_err(|error| {
        eprintln!("nefia api-defs: {error}");
        ExitCode::FAILURE
    })?;
    let out = args.out.unwrap_or_else(|| project.join(nefia_host::type_defs::DEFAULT_FOLDER));
    let written =
        game.write_type_defs(&project, &out).map_err(|error| failed("cannot write the definitions", &error))?;
    for path in written {
        println!("{}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}
