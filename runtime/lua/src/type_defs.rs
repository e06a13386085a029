//! Type definitions of the Lua API for code editors' language servers (LuaLS and EmmyLua):
//! `---@meta` files made from the running engine, written by `nefia api-defs`.
//!
//! Every global table and function the API has, the methods of map objects and maps, the data
//! types with the fields they declare (typed by their defaults, with their docs), `data:add`
//! typed per `_type`, and the project's prototype, tile and event ids as string literal types —
//! so a code editor completes them and flags a misspelled method or id. The names come from the
//! live API tables and the data registry, so what is defined is what exists; what a function
//! takes and gives is its entry in [`signatures`], which a test holds to the live API (every
//! function has one, and none names a function that is gone). Events whose `base.event`
//! prototype declares its `receiver` and `params` give handlers those types: a class of the
//! params per event, and an overload of `Event.register` per event id.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use mlua::{Lua, Table};

use super::engine;
use nefia_game::field_type::FieldType;
use nefia_game::value::Value;

mod signatures;

pub use signatures::{Signature, all_signatures};

/// One file of definitions: its name (under the output folder) and text.
pub struct DefinitionFile {
    /// Its path under the output folder, such as `api.lua`, or a class's file under `api/`.
    pub name: String,
    /// Its text.
    pub text: String,
}

/// The global tables of the standard library, which language servers define themselves.
const STANDARD: [&str; 7] = ["string", "table", "math", "utf8", "os", "coroutine", "_VERSION"];

/// Every API function by qualified name (`Chara.create`, `pause`, `obj:calc`, `map:set_tile`),
/// in order: what the running engine has.
pub fn api_functions(lua: &Lua) -> mlua::Result<Vec<String>> {
    let engine = engine(lua);
    let mut names = Vec::new();
    for (name, value) in sorted(&engine.api)? {
        // The debugger's probe is the engine's, called by the code it compiles, not by mods.
        if STANDARD.contains(&name.as_str()) || name == crate::debugger::PROBE {
            continue;
        }
        match value {
            mlua::Value::Function(_) => names.push(name),
            mlua::Value::Table(table) => {
                for (member, value) in sorted(&table)? {
                    if value.is_function() {
                        names.push(format!("{name}.{member}"));
                    }
                }
            }
            _ => {}
        }
    }
    let handles = engine.handles.borrow();
    for (prefix, methods) in [("obj", &handles.object_methods), ("map", &handles.map_methods)] {
        if let Some(methods) = methods {
            for (member, value) in sorted(methods)? {
                if value.is_function() {
                    names.push(format!("{prefix}:{member}"));
                }
            }
        }
    }
    Ok(names)
}

/// A table's string keys and values, sorted by key.
fn sorted(table: &Table) -> mlua::Result<Vec<(String, mlua::Value)>> {
    let mut entries = Vec::new();
    for pair in table.clone().pairs::<mlua::Value, mlua::Value>() {
        let (key, value) = pair?;
        if let mlua::Value::String(key) = key {
            entries.push((key.to_string_lossy(), value));
        }
    }
    entries.sort_by(|a, b| a.0.cmp(&b.0));
    Ok(entries)
}

/// The definitions of the running engine's API and data.
pub fn definitions(lua: &Lua) -> mlua::Result<Vec<DefinitionFile>> {
    let functions = api_functions(lua)?;
    let signatures: BTreeMap<&str, &Signature> = all_signatures().map(|s| (s.name, s)).collect();
    let mut files = vec![
        DefinitionFile { name: "api.lua".into(), text: api_file(lua, &functions, &signatures)? },
        DefinitionFile { name: "objects.lua".into(), text: objects_file(lua, &functions, &signatures) },
        DefinitionFile { name: "data.lua".into(), text: data_file(lua) },
    ];
    files.extend(module_files(lua)?);
    Ok(files)
}

/// OpenNefia's module paths under `api.gui` (the rest are `api.<Name>`).
const GUI_MODULES: [&str; 5] = ["Prompt", "ListMenu", "TextInput", "UiLayer", "IUiLayer"];

/// `api/<Name>.lua` (and `api/gui/<Name>.lua`) for each global module, so the language server
/// resolves `require("api.Chara")` as the engine does: to the global.
fn module_files(lua: &Lua) -> mlua::Result<Vec<DefinitionFile>> {
    let engine = engine(lua);
    let mut files = Vec::new();
    for (name, value) in sorted(&engine.api)? {
        if !value.is_table() || STANDARD.contains(&name.as_str()) || !name.starts_with(|c: char| c.is_ascii_uppercase())
        {
            continue;
        }
        let text = format!("---@meta\n-- `require(\"api.{name}\")` gives the engine's global {name}.\nreturn {name}\n");
        if GUI_MODULES.contains(&name.as_str()) {
            files.push(DefinitionFile { name: format!("api/gui/{name}.lua"), text: text.clone() });
        }
        files.push(DefinitionFile { name: format!("api/{name}.lua"), text });
    }
    // OpenNefia's name for the UI layer module.
    files.push(DefinitionFile {
        name: "api/gui/IUiLayer.lua".into(),
        text: "---@meta\n-- `require(\"api.gui.IUiLayer\")` gives the engine's global UiLayer.\nreturn UiLayer\n"
            .into(),
    });
    Ok(files)
}

/// The header every file starts with.
fn header(what: &str) -> String {
    format!("---@meta\n-- Nefia's Lua API: {what}. Made by `nefia api-defs` from the running engine; do not edit.\n\n")
}

/// The global tables and functions.
fn api_file(lua: &Lua, functions: &[String], signatures: &BTreeMap<&str, &Signature>) -> mlua::Result<String> {
    let engine = engine(lua);
    let mut text = header("the global tables and functions");
    let mut tables = Vec::new();
    for (name, value) in sorted(&engine.api)? {
        if let mlua::Value::Table(table) = value
            && !STANDARD.contains(&name.as_str())
        {
            tables.push((name, table));
        }
    }
    for (name, table) in &tables {
        let class = if name == "data" { "nefia.data".to_owned() } else { format!("nefia.module.{name}") };
        let _ = writeln!(text, "---@class {class}");
        if name == "data" {
            // `data["base.chara"]["elona.putit"]`: a type's prototypes by id.
            let _ = writeln!(text, "---@field [string] table<string, table>");
        }
        // Tables of values (enums' members, such as Enum.Burden) are fields.
        for (member, value) in sorted(table)? {
            match value {
                mlua::Value::Table(_) => {
                    let _ = writeln!(text, "---@field {member} table<string, integer>");
                }
                mlua::Value::Integer(_) => {
                    let _ = writeln!(text, "---@field {member} integer");
                }
                mlua::Value::String(_) => {
                    let _ = writeln!(text, "---@field {member} string");
                }
                _ => {}
            }
        }
        let _ = writeln!(text, "{name} = {{}}\n");
    }
    let events = event_types(&engine.world.borrow());
    for name in functions.iter().filter(|n| !n.contains(':')) {
        if name == "Event.register" {
            for event in &events {
                let _ = writeln!(
                    text,
                    "---@overload fun(event: \"{}\", name: string, fn: fun(receiver: {}, params: {}, result: any): any, options?: {{ priority?: integer }})",
                    event.id,
                    event.receiver,
                    event.params_type()
                );
            }
        }
        // A module's function called with `:` is named so in its signature.
        let method = name.replacen('.', ":", 1);
        match signatures.get(name.as_str()).or_else(|| signatures.get(method.as_str())) {
            Some(signature) => function(&mut text, signature.name, Some(signature)),
            None => function(&mut text, name, None),
        }
    }
    text.push_str(CHAIN);
    Ok(text)
}

/// What an event's `base.event` prototype says its handlers get.
struct EventTypes {
    /// The event id.
    id: String,
    /// The type of what it is triggered on (`any` if not declared).
    receiver: String,
    /// Its params' names and types, as declared.
    params: Vec<(String, String)>,
}

impl EventTypes {
    /// The type of its params: its own class, or `table` if none are declared.
    fn params_type(&self) -> String {
        match self.params.is_empty() {
            true => "table".to_owned(),
            false => format!("nefia.event_params.{}", self.id),
        }
    }
}

/// The events that declare a receiver or params (see [`EventTypes`]). A declaration that is
/// not `{ { name, type }, ... }` of identifiers and types is left out.
fn event_types(world: &nefia_game::world::World) -> Vec<EventTypes> {
    let field = |proto: &nefia_game::data::Prototype, name: &str| {
        proto.given.iter().find(|(k, _)| k.as_str() == name).map(|(_, v)| v.clone())
    };
    // A type is written into an annotation line: one line, no comment start.
    let sane = |kind: &str| !kind.is_empty() && !kind.contains(['\n', '\r']) && !kind.contains("--");
    world
        .data
        .entries("base.event")
        .filter_map(|proto| {
            let receiver = field(proto, "receiver").and_then(|v| v.as_str().filter(|r| sane(r)).map(str::to_owned));
            let params: Vec<(String, String)> = match field(proto, "params") {
                Some(Value::List(params)) => params
                    .iter()
                    .filter_map(|pair| match pair {
                        Value::List(pair) => match (pair.first()?.as_str()?, pair.get(1)?.as_str()?) {
                            (name, kind) if nefia_game::value::is_identifier(name) && sane(kind) => {
                                Some((name.to_owned(), kind.to_owned()))
                            }
                            _ => None,
                        },
                        _ => None,
                    })
                    .collect(),
                _ => Vec::new(),
            };
            (receiver.is_some() || !params.is_empty()).then(|| EventTypes {
                id: proto.id.to_string(),
                receiver: receiver.unwrap_or_else(|| "any".to_owned()),
                params,
            })
        })
        .collect()
}

/// The declaration of one function as LuaLS meta files write it: its doc, `---@param` and
/// `---@return` lines, then `function name(params) end` (the body is never run: the file is
/// `---@meta`).
fn function(text: &mut String, qualified: &str, signature: Option<&Signature>) {
    let Some(signature) = signature else {
        let _ = writeln!(text, "---@param ... any\n---@return any\nfunction {qualified}(...) end\n");
        return;
    };
    for line in signature.doc.lines() {
        let _ = writeln!(text, "---{line}");
    }
    let mut names = Vec::new();
    for param in top_level(signature.params) {
        let (name, kind) = param.split_once(": ").unwrap_or((param, "any"));
        let _ = writeln!(text, "---@param {name} {kind}");
        names.push(name.trim_end_matches('?'));
    }
    if !signature.returns.is_empty() {
        let _ = writeln!(text, "---@return {}", signature.returns);
    }
    let _ = writeln!(text, "function {qualified}({}) end\n", names.join(", "));
}

/// The `, `-separated parts of `list` outside brackets (a `fun(a: x, b: y)` type is one part).
fn top_level(list: &str) -> Vec<&str> {
    let (mut parts, mut depth, mut start) = (Vec::new(), 0i32, 0);
    for (at, c) in list.char_indices() {
        match c {
            '(' | '{' | '[' | '<' => depth += 1,
            ')' | '}' | ']' | '>' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(list[start..at].trim());
                start = at + 1;
            }
            _ => {}
        }
    }
    parts.push(list[start..].trim());
    parts.retain(|p| !p.is_empty());
    parts
}

/// The chains iterators return (`chain.lua`): loop over one with `for`, or use its methods.
const CHAIN: &str = "---What the engine's iterators return: `for i, x in chain do`, or its methods.\n\
---@class nefia.Chain<T>\n\
local Chain = {}\n\
---@return T[]\nfunction Chain:to_list() end\n\
---@return integer\nfunction Chain:length() end\n\
---@param n integer\n---@return T?\nfunction Chain:nth(n) end\n\
---@param f fun(value: T): boolean\n---@return nefia.Chain<T>\nfunction Chain:filter(f) end\n\
---@param f fun(value: T): any\n---@return nefia.Chain<any>\nfunction Chain:map(f) end\n\
---@param field string\n---@return nefia.Chain<any>\nfunction Chain:extract(field) end\n\
---@param n integer\n---@return nefia.Chain<T>\nfunction Chain:take(n) end\n\
---@param f fun(value: T)\nfunction Chain:each(f) end\n\
---@param f fun(value: T): boolean\n---@return boolean\nfunction Chain:any(f) end\n\
---@param f fun(value: T): boolean\n---@return boolean\nfunction Chain:all(f) end\n\
---@param f fun(acc: any, value: T): any\n---@param init any\n---@return any\nfunction Chain:foldl(f, init) end\n\
---@return number\nfunction Chain:sum() end\n\n";

/// The Lua type of a field by its default value.
fn lua_type(value: &Value) -> &'static str {
    match value {
        Value::Int(_) => "integer",
        Value::Float(_) => "number",
        Value::Str(_) => "string",
        Value::Bool(_) => "boolean",
        Value::List(_) | Value::Map(_) => "table",
        _ => "any",
    }
}

/// A `---@field` line for each field `data_type` declares, typed by its declared type (by its
/// default where it declares none), with its doc; `optional` is `?` where a prototype may
/// leave them out.
fn declared_fields(text: &mut String, data_type: &nefia_game::data::DataType, optional: &str) {
    for field in &data_type.fields {
        let doc = field.doc.replace('\n', " ");
        let kind = match field.ty {
            FieldType::Any => lua_type(&field.default).to_owned(),
            ref declared => declared.lua_annotation(),
        };
        let _ = writeln!(text, "---@field {}{optional} {kind} {doc}", field.name);
    }
}

/// The class of a data type's objects and prototypes (`base.chara` → `IChara`).
fn object_class(data_type: &str) -> String {
    let short = data_type.rsplit('.').next().unwrap_or(data_type);
    let mut class = String::from("I");
    let mut upper = true;
    for c in short.chars() {
        if c == '_' {
            upper = true;
        } else if upper {
            class.extend(c.to_uppercase());
            upper = false;
        } else {
            class.push(c);
        }
    }
    class
}

/// The data types whose prototypes are map objects (characters, items, feats, mefs).
const OBJECT_TYPES: [&str; 4] = ["base.chara", "base.item", "base.feat", "base.mef"];

/// The classes of map objects (one per object data type, over `IMapObject`) and maps.
fn objects_file(lua: &Lua, functions: &[String], signatures: &BTreeMap<&str, &Signature>) -> String {
    let engine = engine(lua);
    let world = engine.world.borrow();
    let mut text = header("map objects, maps and locations");
    text.push_str(
        "---A place objects are in: a map, an inventory, an equipment slot.\n---@class ILocation\n\n\
         ---A character, item, feat or mef: a table handle on an object of the world.\n---@class IMapObject: ILocation\n\
         ---@field uid integer The object's unique id.\n---@field _id string Its prototype's id.\n\
         ---@field _type string Its data type (\"base.chara\", \"base.item\", …).\n\
         ---@field x integer Its column on its map.\n---@field y integer Its row on its map.\n\
         ---@field location ILocation? Where it is.\n---@field temp table<string, any> Its temp values by field.\n\
         ---@field proto table Its prototype's fields.\n---@field equip table The equipment it wears (characters).\n\
         local IMapObject = {}\n\n",
    );
    for name in functions.iter().filter_map(|n| n.strip_prefix("obj:")) {
        function(&mut text, &format!("IMapObject:{name}"), signatures.get(format!("obj:{name}").as_str()).copied());
    }
    for data_type in world.data.types().iter().filter(|t| OBJECT_TYPES.contains(&t.id.as_str())) {
        let _ = writeln!(
            text,
            "---A map object of data type {}.\n---@class {}: IMapObject",
            data_type.id,
            object_class(data_type.id.as_str())
        );
        declared_fields(&mut text, data_type, "");
        // Fields some prototypes give beyond the declared ones (a staircase's `to_map`).
        let declared: Vec<_> = data_type.fields.iter().map(|f| f.name).collect();
        let mut given = BTreeMap::new();
        for proto in world.data.entries(data_type.id.as_str()) {
            for (name, value) in proto.given.iter() {
                if !declared.contains(&name) && nefia_game::value::is_identifier(name.as_str()) {
                    given.entry(name.as_str()).or_insert_with(|| (lua_type(value), proto.id));
                }
            }
        }
        for (name, (kind, example)) in given {
            let _ = writeln!(text, "---@field {name} {kind}? Given by some prototypes (such as {example}).");
        }
        text.push('\n');
    }
    text.push_str("---A map: its tiles, its objects and its memory.\n---@class InstancedMap: ILocation\n---@field uid integer\n---@field name string\n---@field width integer\n---@field height integer\nlocal InstancedMapHandle = {}\n\n");
    for name in functions.iter().filter_map(|n| n.strip_prefix("map:")) {
        function(
            &mut text,
            &format!("InstancedMapHandle:{name}"),
            signatures.get(format!("map:{name}").as_str()).copied(),
        );
    }
    text
}

/// How many keys one alias of [`locale_keys`] lists: EmmyLua's checker overflows its stack on
/// a union of thousands of literals, and reads a union of smaller aliases well.
const KEYS_PER_ALIAS: usize = 200;

/// The keys of the loaded mods' locale files, every language's, as the alias
/// `nefia.locale_key`: a union of string literal types (in aliases of [`KEYS_PER_ALIAS`]
/// keys), or `string` if there are none.
fn locale_keys(engine: &crate::Engine) -> String {
    let mods: Vec<(String, std::path::PathBuf)> =
        engine.loaded_mods().iter().map(|(id, loaded)| (id.to_string(), loaded.dir.clone())).collect();
    let (files, _) = nefia_game::locale::scan(&mods);
    let keys: Vec<String> = nefia_game::locale::key_table(&files).into_keys().map(|key| format!("{key:?}")).collect();
    let doc = "---The keys of the project's locale files (`I18N.get`).\n";
    if keys.is_empty() {
        return format!("{doc}---@alias nefia.locale_key string\n");
    }
    let mut text = String::new();
    let mut parts = Vec::new();
    for (n, chunk) in keys.chunks(KEYS_PER_ALIAS).enumerate() {
        let _ = writeln!(text, "---@alias nefia.locale_key.{n} {}", chunk.join("|"));
        parts.push(format!("nefia.locale_key.{n}"));
    }
    let _ = writeln!(text, "{doc}---@alias nefia.locale_key {}", parts.join("|"));
    text
}

/// Ids as string literal types, each data type's prototype class, the locale keys, and the
/// events.
fn data_file(lua: &Lua) -> String {
    let engine = engine(lua);
    let world = engine.world.borrow();
    let data = &world.data;
    let mut text = header("the project's data types, ids and events");
    for data_type in data.types() {
        let ids: Vec<String> = data.entries(data_type.id.as_str()).map(|p| format!("\"{}\"", p.id)).collect();
        let literal = if ids.is_empty() { "string".to_owned() } else { ids.join("|") };
        let _ = writeln!(
            text,
            "---The ids of {} prototypes.\n---@alias nefia.id.{} {literal}\n",
            data_type.id, data_type.id
        );
    }
    let _ = writeln!(text, "{}", locale_keys(&engine));
    let events: Vec<String> = data.entries("base.event").map(|p| format!("\"{}\"", p.id)).collect();
    let _ =
        writeln!(text, "---The event ids (`base.event` prototypes).\n---@alias nefia.event_id {}\n", events.join("|"));
    for event in event_types(&world).iter().filter(|e| !e.params.is_empty()) {
        let _ = writeln!(text, "---What a {} handler's params hold.\n---@class {}", event.id, event.params_type());
        for (name, kind) in &event.params {
            let _ = writeln!(text, "---@field {name} {kind}");
        }
        text.push('\n');
    }
    for data_type in data.types() {
        let _ = writeln!(
            text,
            "---A prototype of {} given to data:add.\n---@class nefia.proto.{}",
            data_type.id, data_type.id
        );
        let _ = writeln!(text, "---@field _type \"{}\"\n---@field _id string", data_type.id);
        declared_fields(&mut text, data_type, "?");
        let _ = writeln!(text, "---@field [string] any\n");
    }
    let union: Vec<String> = data.types().iter().map(|t| format!("nefia.proto.{}", t.id)).collect();
    let _ = writeln!(text, "---Any prototype data:add takes.\n---@alias nefia.proto {}\n", union.join("|"));
    text
}
