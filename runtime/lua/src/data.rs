//! `data`: declaring data types and adding prototypes from Lua.
//!
//! `data:add_type{ name = "chara", fields = { { name = "fov", default = 15 } } }` in mod
//! `base` declares `base.chara`; `data:add{ _type = "base.chara", _id = "putit", ... }` in
//! mod `elona` registers `elona.putit`; `data:add_multi("base.chara", { { _id = "putit", ... },
//! ... })` (OpenNefia's usual form) adds each entry of the list as `data:add` would, with `_type`
//! set to the type, each recorded at its entry's own line. `data["base.chara"]["elona.putit"]` reads the table
//! given to `data:add` (functions included), and `data["base.chara"]:iter()` yields
//! `id, prototype` in registration order, `:ensure(id)` the prototype or an error naming it,
//! and `:ext(id, ext_id)` a data extension (below). Plain fields also go to the Rust
//! registry, where objects read them as base values.
//!
//! A prototype's `_ext` holds OpenNefia's data extensions: tables keyed by interfaces
//! (`class.interface`) or by ids of `base.data_ext` entries (which declare their `fields`
//! with defaults); both are checked when the prototype is added.

use mlua::{Lua, MetaMethod, Table, UserData, UserDataMethods};

use super::convert::from_lua;
use super::{Engine, caller_origin, engine, rt_error};
use nefia_game::data::OnDuplicate;
use nefia_game::moddable::FieldMap;
use nefia_game::symbol::Symbol;
use nefia_game::value::Value;

/// `data["base.chara"]`: one data type as Lua sees it.
struct DataTypeRef {
    id: Symbol,
}

/// The fields with which a prototype of an object gives its own location rules (OpenNefia's
/// ILocation `take_object` and `can_take_object`, which `location.rs` calls instead of the
/// engine's): `data:add` notes which prototypes give one.
pub const LOCATION_RULES: [&str; 2] = ["take_object", "can_take_object"];

/// The Lua table registered for prototype `id` of `data_type`, or nil.
pub fn prototype_table(lua: &Lua, data_type: &str, id: &str) -> mlua::Result<mlua::Value> {
    match prototype_tables(lua, data_type)? {
        Some(entries) => entries.raw_get(id),
        None => Ok(mlua::Value::Nil),
    }
}

/// The prototype `id` of `data_type`, or OpenNefia's error naming both.
fn ensure(lua: &Lua, data_type: &str, id: &str) -> mlua::Result<Table> {
    match prototype_table(lua, data_type, id)? {
        mlua::Value::Table(entry) => Ok(entry),
        _ => Err(rt_error(lua, format!("No instance of '{data_type}' with ID '{id}' was found."))),
    }
}

impl UserData for DataTypeRef {
    fn add_methods<M: UserDataMethods<Self>>(methods: &mut M) {
        methods.add_meta_method(MetaMethod::Index, |lua, this, id: String| prototype_table(lua, this.id.as_str(), &id));
        methods.add_method("iter", |lua, this, ()| {
            let engine = engine(lua);
            let ids: Vec<Symbol> = engine.world.borrow().data.entries(this.id.as_str()).map(|p| p.id).collect();
            let entries: Table = engine.data_tables.raw_get(this.id.as_str())?;
            let keys = lua.create_sequence_from(ids.iter().map(|id| id.as_str()))?;
            let values = lua.create_table_with_capacity(ids.len(), 0)?;
            for (i, id) in ids.iter().enumerate() {
                values.raw_set(i + 1, entries.raw_get::<mlua::Value>(id.as_str())?)?;
            }
            super::pairs_of(lua, keys, values)
        });
        methods.add_method("ensure", |lua, this, id: String| ensure(lua, this.id.as_str(), &id));
        // OpenNefia's `ext`: prototype `id`'s data extension `ext_id` (a base.data_ext id or
        // an interface), or, for a base.data_ext id the prototype does not give, the
        // extension's defaults (each of its `fields`' `default`).
        methods.add_method("ext", |lua, this, (id, ext_id): (String, mlua::Value)| {
            let entry = ensure(lua, this.id.as_str(), &id)?;
            let given = match entry.raw_get::<Option<Table>>("_ext")? {
                Some(ext) => ext.raw_get::<mlua::Value>(ext_id.clone())?,
                None => mlua::Value::Nil,
            };
            if !given.is_nil() {
                return Ok(given);
            }
            let Some(ext_id) = ext_id.as_string().map(|s| s.to_string_lossy()) else { return Ok(mlua::Value::Nil) };
            let extension = ensure(lua, "base.data_ext", &ext_id)?;
            let defaults = lua.create_table()?;
            if let Some(fields) = extension.raw_get::<Option<Table>>("fields")? {
                for field in fields.sequence_values::<Table>() {
                    let field = field?;
                    defaults
                        .raw_set(field.raw_get::<mlua::Value>("name")?, field.raw_get::<mlua::Value>("default")?)?;
                }
            }
            Ok(mlua::Value::Table(defaults))
        });
        methods.add_meta_method(MetaMethod::ToString, |_, this, ()| Ok(format!("<data type {}>", this.id)));
    }
}

/// Checks a prototype's `_ext`, OpenNefia's data extensions: a table keyed by interfaces
/// (`class.interface`) or by ids of `base.data_ext` entries, each with a table. An
/// interface listed alone (`_ext = { IGlows }`) gets an empty table, as in OpenNefia, so
/// `_ext[IGlows]` always reads.
fn check_ext(lua: &Lua, full_id: Symbol, entry: &Table) -> mlua::Result<()> {
    let ext = match entry.raw_get::<mlua::Value>("_ext")? {
        mlua::Value::Nil => return Ok(()),
        mlua::Value::Table(ext) => ext,
        other => {
            return Err(rt_error(
                lua,
                format!(
                    "{full_id}: _ext is a table keyed by interfaces or base.data_ext ids (_ext = {{ [IGlows] = {{ ... }} }}), not a {}",
                    other.type_name()
                ),
            ));
        }
    };
    let class: Table = engine(lua).api.get("class")?;
    let is_interface: mlua::Function = class.get("is_interface")?;
    let listed: Vec<(i64, mlua::Value)> = ext
        .pairs::<mlua::Value, mlua::Value>()
        .filter_map(|pair| match pair {
            Ok((mlua::Value::Integer(index), value)) => Some((index, value)),
            _ => None,
        })
        .collect();
    for (index, value) in listed {
        ext.raw_set(index, mlua::Value::Nil)?;
        ext.raw_set(value, lua.create_table()?)?;
    }
    let extensions = prototype_tables(lua, "base.data_ext")?;
    for pair in ext.pairs::<mlua::Value, mlua::Value>() {
        let (key, value) = pair?;
        match &key {
            mlua::Value::String(id) => {
                let id = id.to_string_lossy();
                if extensions.as_ref().is_none_or(|e| e.raw_get::<mlua::Value>(id.as_str()).is_ok_and(|v| v.is_nil())) {
                    return Err(rt_error(
                        lua,
                        format!(
                            "{full_id}: No data extension (base.data_ext) with ID {id} was registered yet.\n\
                             Add it first with data:add {{ _type = \"base.data_ext\", _id = ..., fields = {{ ... }} }}, or key _ext by an interface"
                        ),
                    ));
                }
            }
            key if is_interface.call::<bool>(key.clone())? => {}
            other => {
                return Err(rt_error(
                    lua,
                    format!(
                        "{full_id}: an _ext key is an interface or a base.data_ext id, not {}",
                        super::inspect::inspect(other, 0)
                    ),
                ));
            }
        }
        if !value.is_table() {
            return Err(rt_error(
                lua,
                format!(
                    "{full_id}: _ext[{}] is a table of the extension's fields, not a {}",
                    super::inspect::inspect(&key, 0),
                    value.type_name()
                ),
            ));
        }
    }
    Ok(())
}

/// The Lua tables of every prototype of `data_type` by id, if the type is declared.
pub(crate) fn prototype_tables(lua: &Lua, data_type: &str) -> mlua::Result<Option<Table>> {
    engine(lua).data_tables.raw_get::<Option<Table>>(data_type)
}

fn namespace(lua: &Lua) -> mlua::Result<Symbol> {
    let engine = engine(lua);
    let origin = caller_origin(lua, &engine);
    origin.mod_id.ok_or_else(|| {
        rt_error(lua, "data:add and data:add_type must be called from a mod's files: the mod's id becomes the namespace of the new entry")
    })
}

fn add_type(lua: &Lua, spec: Table) -> mlua::Result<()> {
    let engine = engine(lua);
    let name: String = spec
        .get::<Option<String>>("name")?
        .ok_or_else(|| rt_error(lua, "data:add_type needs a 'name' (a string such as \"chara\")"))?;
    if name.contains('.') {
        return Err(rt_error(
            lua,
            format!("data:add_type name '{name}' must not contain '.': the mod's id is added in front"),
        ));
    }
    let id = Symbol::intern(&format!("{}.{name}", namespace(lua)?));
    let (fields, checkers) = super::schema::declare(lua, id, &spec)?;
    super::data_validators::declare(lua, id, &spec, &fields)?;
    let origin = caller_origin(lua, &engine);
    let on_duplicate = engine.on_duplicate.get();
    engine.world.borrow_mut().data.add_type(id, fields, origin, on_duplicate).map_err(|e| rt_error(lua, e))?;
    checkers.keep(lua, id)?;
    if engine.data_tables.raw_get::<Option<Table>>(id.as_str())?.is_none() {
        engine.data_tables.raw_set(id.as_str(), lua.create_table()?)?;
    }
    Ok(())
}

/// The methods of `data`, for the message when another is called.
const METHODS: &str = "add_type, add, add_multi and types";

fn add(lua: &Lua, entry: Table) -> mlua::Result<()> {
    add_at(lua, entry, caller_origin(lua, &engine(lua)))
}

/// OpenNefia's `data:add_multi(type, list)`: each entry of `list` (in `ipairs` order) gets
/// `_type = type` and is added as by `data:add`, at the line of its own entry when the calling
/// file writes the list out (see `source_edit::listed_entries`), else at the call's line.
fn add_multi(lua: &Lua, data_type: mlua::Value, list: mlua::Value) -> mlua::Result<()> {
    let usage = "write data:add_multi(\"base.chara\", { { _id = \"putit\", ... }, ... })";
    let mlua::Value::String(data_type) = data_type else {
        return Err(rt_error(
            lua,
            format!("data:add_multi takes the data type first, not a {}: {usage}", data_type.type_name()),
        ));
    };
    let mlua::Value::Table(list) = list else {
        return Err(rt_error(
            lua,
            format!("data:add_multi takes a list of prototypes' tables second, not a {}: {usage}", list.type_name()),
        ));
    };
    let engine = engine(lua);
    let origin = caller_origin(lua, &engine);
    let entries = listed_lines(lua, &engine, origin.line);
    for (index, entry) in list.sequence_values::<mlua::Value>().enumerate() {
        let mlua::Value::Table(entry) = entry? else {
            return Err(rt_error(
                lua,
                format!(
                    "data:add_multi(\"{}\", list): entry {} of the list is not a table",
                    data_type.to_string_lossy(),
                    index + 1
                ),
            ));
        };
        entry.raw_set("_type", data_type.clone())?;
        let id = entry.raw_get::<Option<String>>("_id").ok().flatten();
        let line = entries
            .iter()
            .find(|e| e.position == index + 1 && id.is_some() && e.short_id == id)
            .map_or(origin.line, |e| e.line);
        add_at(lua, entry, nefia_game::moddable::Origin { line, ..origin.clone() })?;
    }
    Ok(())
}

/// The entries of the `data:add_multi` call at `line` of the calling file, as the file was
/// compiled (see `Engine::listed_entries`).
fn listed_lines(lua: &Lua, engine: &Engine, line: u32) -> Vec<nefia_game::source_edit::ListedEntry> {
    let chunk = lua.inspect_stack(1, |debug| debug.source().source.map(|s| s.into_owned())).flatten();
    let Some(chunk) = chunk else { return Vec::new() };
    engine.listed_entries.borrow().get(&chunk).map_or_else(Vec::new, |entries| {
        entries.iter().filter(|e| (e.call_lines.0..=e.call_lines.1).contains(&line)).cloned().collect()
    })
}

/// `data:add` of `entry`, recorded as added at `origin`.
fn add_at(lua: &Lua, entry: Table, origin: nefia_game::moddable::Origin) -> mlua::Result<()> {
    let engine = engine(lua);
    let data_type: String = entry
        .get::<Option<String>>("_type")?
        .ok_or_else(|| rt_error(lua, "data:add needs a '_type' (such as \"base.chara\")"))?;
    let bare_id: String = entry
        .get::<Option<String>>("_id")?
        .ok_or_else(|| rt_error(lua, format!("data:add of type '{data_type}' needs an '_id'")))?;
    if bare_id.contains('.') {
        return Err(rt_error(
            lua,
            format!(
                "_id '{bare_id}' must not contain '.': the mod's id is added in front (write _id = \"{}\")",
                bare_id.rsplit('.').next().unwrap_or(&bare_id)
            ),
        ));
    }
    let data_type_id = {
        let world = engine.world.borrow();
        world.data.data_type(&data_type).map_err(|e| rt_error(lua, e))?.id
    };
    let full_id = Symbol::intern(&format!("{}.{bare_id}", namespace(lua)?));
    super::schema::check_entry(lua, data_type_id, full_id, &entry)?;
    check_ext(lua, full_id, &entry)?;
    let images = super::images::read(lua, &engine, data_type_id, full_id, &entry, &origin)?;
    let mut given = FieldMap::new();
    for pair in entry.pairs::<mlua::Value, mlua::Value>() {
        let (key, value) = pair?;
        let mlua::Value::String(key) = key else {
            continue;
        };
        let key = key.to_str()?;
        if key.starts_with('_') {
            continue;
        }
        // Functions and other non-data stay in the Lua table only.
        if let Ok(value) = from_lua(lua, &value, &key)
            && value != Value::Nil
        {
            given.insert(Symbol::intern(&key), value);
        }
    }
    let on_duplicate = engine.on_duplicate.get();
    engine
        .world
        .borrow_mut()
        .data
        .add(data_type_id, full_id, given, origin, on_duplicate)
        .map_err(|e| rt_error(lua, e))?;
    super::images::keep(&engine, data_type_id, full_id, images);
    if nefia_game::object::ObjectKind::from_data_type(data_type_id.as_str()).is_some() {
        super::object_events::prototype_added(lua, &engine, data_type_id, full_id, &entry)?;
        if on_duplicate == OnDuplicate::Replace {
            engine.hotloaded_prototypes.borrow_mut().push((data_type_id, full_id));
        }
        let mut overrides = engine.location_overrides.borrow_mut();
        let mut overriding = false;
        for name in LOCATION_RULES {
            overriding |= matches!(entry.raw_get::<mlua::Value>(name)?, mlua::Value::Function(_));
        }
        match overriding {
            true => overrides.insert(full_id),
            false => overrides.remove(&full_id),
        };
    }
    entry.raw_set("_id", full_id.as_str())?;
    entry.raw_set("_type", data_type_id.as_str())?;
    let entries: Table = engine.data_tables.raw_get(data_type_id.as_str())?;
    entries.raw_set(full_id.as_str(), entry)?;
    Ok(())
}

/// Takes prototype `id` of `data_type` out of the registry and out of `data[data_type]`
/// (a prototype deleted from its source; see [`DataRegistry::retire`](nefia_game::data::DataRegistry::retire)).
/// False if there was none.
pub fn retire(lua: &Lua, data_type: Symbol, id: Symbol) -> mlua::Result<bool> {
    let engine = engine(lua);
    if !engine.world.borrow_mut().data.retire(data_type, id) {
        return Ok(false);
    }
    if let Some(entries) = engine.data_tables.raw_get::<Option<Table>>(data_type.as_str())? {
        entries.raw_set(id.as_str(), mlua::Value::Nil)?;
    }
    Ok(true)
}

/// Installs `data` into `api`.
pub fn install(lua: &Lua, api: &Table) -> mlua::Result<()> {
    let data = lua.create_table()?;
    data.set("add_type", lua.create_function(|lua, (_self, spec): (mlua::Value, Table)| add_type(lua, spec))?)?;
    data.set("add", lua.create_function(|lua, (_self, entry): (mlua::Value, Table)| add(lua, entry))?)?;
    data.set(
        "add_multi",
        lua.create_function(|lua, (_self, data_type, list): (mlua::Value, mlua::Value, mlua::Value)| {
            add_multi(lua, data_type, list)
        })?,
    )?;
    data.set(
        "types",
        lua.create_function(|lua, _self: mlua::Value| {
            let ids: Vec<&str> = engine(lua).world.borrow().data.types().iter().map(|t| t.id.as_str()).collect();
            lua.create_sequence_from(ids)
        })?,
    )?;
    let meta = lua.create_table()?;
    meta.set(
        "__index",
        lua.create_function(|lua, (_data, name): (mlua::Value, String)| {
            let engine = engine(lua);
            let id = engine.world.borrow().data.data_type(&name).map(|t| t.id);
            match id {
                Ok(id) => lua.create_userdata(DataTypeRef { id }),
                // `data:nope(...)` or `data.nope`: a method name, not a type (types have a `.`).
                Err(_) if !name.contains('.') => Err(rt_error(
                    lua,
                    format!(
                        "data has no method '{name}': its methods are {METHODS}; data[\"<mod>.<type>\"] reads a data type"
                    ),
                )),
                Err(error) => Err(rt_error(lua, error)),
            }
        })?,
    )?;
    data.set_metatable(Some(meta))?;
    api.set("data", data)?;
    Ok(())
}
