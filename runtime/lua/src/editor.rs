//! `Editor`: what scripts can ask of the editor — `Editor.select(obj)` selects an object (or a
//! list of them) for the inspector and the viewport, `Editor.selection()` lists the selected
//! objects. Headless, the selection is kept but nothing shows it.

use mlua::{Lua, Table};

use super::engine;
use super::handle::{object_arg, object_list};
use nefia_game::object::Uid;

/// Installs `Editor` into `api`.
pub fn install(lua: &Lua, api: &Table) -> mlua::Result<()> {
    let editor = lua.create_table()?;
    editor.set(
        "select",
        lua.create_function(|lua, objects: mlua::Value| {
            let engine = engine(lua);
            let uids: Vec<Uid> = match &objects {
                mlua::Value::Nil => Vec::new(),
                mlua::Value::Table(table) if super::handle::object_uid(&engine, &objects).is_none() => table
                    .sequence_values::<mlua::Value>()
                    .map(|v| object_arg(lua, &engine, &v?, "each selected object"))
                    .collect::<mlua::Result<_>>()?,
                single => vec![object_arg(lua, &engine, single, "the object to select")?],
            };
            *engine.editor.selection.borrow_mut() = uids;
            engine.editor.selections_by_script.set(engine.editor.selections_by_script.get() + 1);
            Ok(())
        })?,
    )?;
    editor.set(
        "selection",
        lua.create_function(|lua, ()| {
            let engine = engine(lua);
            let uids: Vec<Uid> = engine
                .editor
                .selection
                .borrow()
                .iter()
                .copied()
                .filter(|&uid| engine.world.borrow().exists(uid))
                .collect();
            object_list(lua, &uids)
        })?,
    )?;
    api.set("Editor", editor)?;
    Ok(())
}
