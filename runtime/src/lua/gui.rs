//! `Gui`: messages to the player (`Gui.mes`).

use mlua::{Lua, Table};

use super::{Output, engine};

/// Installs `Gui` into `api`.
pub fn install(lua: &Lua, api: &Table) -> mlua::Result<()> {
    let gui = lua.create_table()?;
    gui.set(
        "mes",
        lua.create_function(|lua, text: mlua::Value| {
            let text = match text {
                mlua::Value::String(s) => s.to_str()?.to_owned(),
                other => other.to_string()?,
            };
            engine(lua).emit(Output::Message(text));
            Ok(())
        })?,
    )?;
    api.set("Gui", gui)?;
    Ok(())
}
