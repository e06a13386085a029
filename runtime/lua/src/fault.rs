//! `Fault`: Lua functions that make the engine fail on purpose, compiled only with the
//! `fault-injection` feature (the test crates turn it on; `cargo run` never has it). They
//! let tests prove that a panic in a command is caught at the host's command boundary and
//! that an inconsistent world is put back.

use mlua::{Lua, Table};

use super::engine;
use nefia_game::object::Uid;

/// Installs `Fault.panic(message)` and `Fault.corrupt_and_panic(uid, message)`.
pub fn install(lua: &Lua, api: &Table) -> mlua::Result<()> {
    let fault = lua.create_table()?;
    fault.set("panic", lua.create_function(|_, message: String| -> mlua::Result<()> { panic!("{message}") })?)?;
    fault.set(
        "corrupt_and_panic",
        lua.create_function(|lua, (uid, message): (u64, String)| -> mlua::Result<()> {
            engine(lua).world.borrow_mut().displace_unindexed(Uid(uid));
            panic!("{message}")
        })?,
    )?;
    api.set("Fault", fault)?;
    Ok(())
}
