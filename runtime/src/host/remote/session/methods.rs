//! The protocol's methods as a registry: each is one line of [`METHODS`] — its name on the
//! wire, what it does, its params and result as `rpc.discover` lists them (OpenRPC-shaped),
//! and the [`Session`] function that answers it (`session/answers.rs`, one per method). A
//! method exists only by its line, so none can be answered and not listed, or listed and not
//! answered; adding one is its function and its line. The params each one reads are the
//! structs below.

use serde::Deserialize;
use serde_json::{Value as Json, json};

use super::Session;
use crate::host::remote::PROTOCOL_VERSION;
use crate::host::remote::wire::RpcError;

/// The function answering a method: the session and the request's params.
type Answer = fn(&mut Session, Json) -> Result<Json, RpcError>;

/// A method of the protocol.
pub struct Method {
    /// Its name on the wire (`game.state`).
    pub name: &'static str,
    /// What it does, in a sentence.
    summary: &'static str,
    /// Its params.
    params: fn() -> Vec<Param>,
    /// Its result, described.
    result: fn() -> Json,
    /// Answers it.
    pub(super) answer: Answer,
}

/// The handshake's name: the one method a session answers before it.
pub const HELLO: &str = "session.hello";
/// The methods whose first frame follows their answer.
pub const FRAMES_FOLLOW: [&str; 2] = ["frame.subscribe", "host.mirror"];

/// Every method, in the order `rpc.discover` lists them.
pub static METHODS: [Method; 26] = [
    Method {
        name: HELLO,
        summary: "The handshake: the protocol version and the token the game printed. Must come first.",
        params: || {
            vec![
                param("version", json!({ "type": "integer", "const": PROTOCOL_VERSION })),
                param("token", json!({ "type": "string" })),
            ]
        },
        result: || json!({ "type": "object", "description": "{protocol, engine, project}" }),
        answer: Session::answer_hello,
    },
    Method {
        name: "rpc.discover",
        summary: "Lists the methods with their params and results (OpenRPC).",
        params: Vec::new,
        result: || json!({ "type": "object", "description": "this document" }),
        answer: Session::answer_discover,
    },
    Method {
        name: "game.state",
        summary: "The turn, the date, the player and what the game is doing.",
        params: Vec::new,
        result: state_result,
        answer: Session::answer_state,
    },
    Method {
        name: "game.input",
        summary: "A key for the top UI layer or the game; answers once the game has taken it. An unknown key name \
                  is invalid params.",
        params: || vec![param("key", json!({ "type": "string", "examples": ["up", "enter", "ctrl+s"] }))],
        result: state_result,
        answer: Session::answer_input,
    },
    Method {
        name: "lua.eval",
        summary: "Evaluates REPL input: its printed output and result values, or the pause it stopped at.",
        params: || vec![param("code", json!({ "type": "string" }))],
        result: outcome_result,
        answer: Session::answer_eval,
    },
    Method {
        name: "debug.continue",
        summary: "Lets the innermost pause() go on; answers like lua.eval.",
        params: Vec::new,
        result: outcome_result,
        answer: Session::answer_continue,
    },
    Method {
        name: "object.get",
        summary: "An object's fields: base, temp with the contributions behind it, and calc.",
        params: || vec![uid()],
        result: || {
            json!({
                "type": "object",
                "description": "{uid, title, kind, id, location, map, x, y, fields: [{name, base, own, temp: \
                                {value, sources: [{method, value, mod, file, line, times}], dropped}, calc}]}",
            })
        },
        answer: Session::answer_object_get,
    },
    Method {
        name: "object.set_base",
        summary: "Sets a field's base value, as an Inspector edit (undoable).",
        params: || vec![uid(), field(), value()],
        result: history_result,
        answer: Session::answer_set_base,
    },
    Method {
        name: "object.set_temp",
        summary: "Modifies a field's temp value (set, add or merge), as an Inspector edit (undoable).",
        params: || {
            vec![
                uid(),
                field(),
                value(),
                optional("method", json!({ "enum": ["set", "add", "merge"], "default": "set" })),
            ]
        },
        result: history_result,
        answer: Session::answer_set_temp,
    },
    Method {
        name: "locations.list",
        summary: "Every map with the objects on it, and the ownerless objects scripts hold.",
        params: Vec::new,
        result: || json!({ "type": "object", "description": "{maps: [{id, name, width, height, current, objects}], ownerless}" }),
        answer: Session::answer_locations,
    },
    Method {
        name: "map.tiles",
        summary: "The current map's tiles: its palette of tile ids, and each row as indices into it.",
        params: Vec::new,
        result: || json!({ "type": "object", "description": "{id, name, width, height, palette: [tile id], rows: [[index]]}" }),
        answer: Session::answer_map_tiles,
    },
    Method {
        name: "map.explain_cell",
        summary: "Why a cell of a map has its tile: the auto-tiling rule that placed it, the rules that matched and lost, and the near misses.",
        params: || {
            vec![
                param("map", json!({ "type": "integer", "minimum": 1 })),
                param("x", json!({ "type": "integer" })),
                param("y", json!({ "type": "integer" })),
            ]
        },
        result: || json!({ "type": "object", "description": "{rule_set, declared_at, x, y, intent, tile, winner: {rule, name, form, cells: [{dx, dy, wants, matched}]}, lost: [{rule, name, reason}], near_misses}" }),
        answer: Session::answer_explain_cell,
    },
    Method {
        name: "history.undo",
        summary: "Undoes the last edit.",
        params: Vec::new,
        result: history_result,
        answer: Session::answer_undo,
    },
    Method {
        name: "history.redo",
        summary: "Redoes the last undone edit.",
        params: Vec::new,
        result: history_result,
        answer: Session::answer_redo,
    },
    Method {
        name: FRAMES_FOLLOW[0],
        summary: "Sends frame notifications from now on: the first whole, then only what changed.",
        params: Vec::new,
        result: null_result,
        answer: Session::answer_subscribe,
    },
    Method {
        name: "frame.unsubscribe",
        summary: "Stops frame notifications.",
        params: Vec::new,
        result: null_result,
        answer: Session::answer_unsubscribe,
    },
    Method {
        name: FRAMES_FOLLOW[1],
        summary: "For an attached editor: host.frame notifications carrying the whole snapshot as deltas, and \
                  host.event notifications carrying every event, from now on.",
        params: Vec::new,
        result: null_result,
        answer: Session::answer_mirror,
    },
    Method {
        name: "host.command",
        summary: "For an attached editor: one of the runtime's own commands (the serde JSON of \
                  nefia_runtime::host::Command); Shutdown is refused.",
        params: || {
            vec![param(
                "command",
                json!({ "description": "a nefia_runtime::host::Command as serde JSON, such as {\"Repl\": {\"Eval\": {\"id\": 1, \"code\": \"1+1\"}}}" }),
            )]
        },
        result: null_result,
        answer: Session::answer_host_command,
    },
    Method {
        name: "data.types",
        summary: "The data types, each with its prototypes' count and its declared fields' schemas.",
        params: Vec::new,
        result: || {
            json!({ "type": "array", "description": "[{id, count, fields: [{name, type, type_name, default, doc}]}]; \
                    type is the field's schema: {kind: any | boolean | number {integer, min, max} | string | data_id \
                    {data_type} | one_of {values} | color | optional {of} | list {of} | map {key, value} | fields \
                    {fields} | tuple {of} | some {of} | function | table | opaque}" })
        },
        answer: Session::answer_data_types,
    },
    Method {
        name: "data.list",
        summary: "The ids of a data type's prototypes, in registration order.",
        params: || vec![data_type()],
        result: || json!({ "type": "array", "items": { "type": "string" } }),
        answer: Session::answer_data_list,
    },
    Method {
        name: "data.get",
        summary: "A prototype: each declared field with its type, value, default and whether the prototype sets it, \
                  and where it is added (file:line).",
        params: || vec![data_type(), id()],
        result: || {
            json!({ "type": "object", "description": "{id, type, origin, fields: [{name, type, type_name, value, \
                    default, given, doc}]}" })
        },
        answer: Session::answer_data_get,
    },
    Method {
        name: "data.set_field",
        summary: "Writes a prototype's field back into its data:add table in the mod's Lua file (checked against the \
                  field's type, hotloaded, undoable); a null value removes it.",
        params: || vec![data_type(), id(), field(), value()],
        result: history_result,
        answer: Session::answer_data_set_field,
    },
    Method {
        name: "data.duplicate",
        summary: "Copies a prototype under new_id (<mod>.<name>): after the original, or at the end of file (a loaded \
                  Lua file of new_id's mod); hotloaded, undoable.",
        params: || vec![data_type(), id(), new_id(), optional("file", file())],
        result: history_result,
        answer: Session::answer_data_duplicate,
    },
    Method {
        name: "data.new",
        summary: "Adds a prototype with its type's template fields at the end of file (a loaded Lua file of its \
                  mod); hotloaded, undoable.",
        params: || vec![data_type(), new_id(), param("file", file())],
        result: history_result,
        answer: Session::answer_data_new,
    },
    Method {
        name: "data.delete",
        summary: "Removes a prototype's data:add from its Lua file (hotloaded, undoable); refused, listing them, \
                  while anything uses it.",
        params: || vec![data_type(), id()],
        result: history_result,
        answer: Session::answer_data_delete,
    },
    Method {
        name: "data.where_used",
        summary: "Where a prototype is used: objects, map files, map cells, other prototypes' fields, Lua string \
                  literals and recordings.",
        params: || vec![data_type(), id()],
        result: || {
            json!({ "type": "array", "description": "[{kind: object | map_file | tiles | field | literal | \
                    recording, text, ...where: uid, map, x, y, count, data_type, id, field, at (file:line), name}]" })
        },
        answer: Session::answer_data_where_used,
    },
];

/// A param of a method: its name, JSON schema and whether it may be left out.
struct Param {
    name: &'static str,
    schema: Json,
    required: bool,
}

fn param(name: &'static str, schema: Json) -> Param {
    Param { name, schema, required: true }
}

fn optional(name: &'static str, schema: Json) -> Param {
    Param { name, schema, required: false }
}

fn uid() -> Param {
    param("uid", json!({ "type": "integer", "minimum": 0 }))
}

fn field() -> Param {
    param("field", json!({ "type": "string" }))
}

fn value() -> Param {
    param("value", json!({ "description": "null, boolean, number, string, array or object" }))
}

fn data_type() -> Param {
    param("type", json!({ "type": "string", "examples": ["base.chara"] }))
}

fn id() -> Param {
    param("id", json!({ "type": "string", "examples": ["elona.putit"] }))
}

fn new_id() -> Param {
    param("new_id", json!({ "type": "string", "examples": ["elona.big_putit"] }))
}

fn file() -> Json {
    json!({ "type": "string", "examples": ["mods/elona/content/charas.lua"] })
}

/// The result of `game.state` and `game.input`.
fn state_result() -> Json {
    json!({
        "type": "object",
        "description": "{state, turn, date, playing, play_paused, player, player_at, map, layers, pause, error} \
                        (game.input adds output and refused)",
    })
}

/// The result of `lua.eval` and `debug.continue`.
fn outcome_result() -> Json {
    json!({
        "type": "object",
        "description": "{output: [string], values: [string]} when it finished (values pretty-printed), or {output, \
                        paused: {function, file, line, reason, stack, variables}} when it stopped in pause(), or \
                        {output, waiting: \"in query\"} inside a UI layer's query()",
    })
}

/// The result of the methods that edit.
fn history_result() -> Json {
    json!({ "type": "object", "description": "the undo history after it: {labels: [label], done: count}" })
}

/// The result of the methods that answer nothing.
fn null_result() -> Json {
    json!({ "type": "null" })
}

impl Method {
    /// The method named `name`, if there is one.
    pub fn named(name: &str) -> Option<&'static Method> {
        METHODS.iter().find(|method| method.name == name)
    }

    /// The method as `rpc.discover` lists it.
    fn describe(&self) -> Json {
        let params: Vec<Json> = (self.params)()
            .into_iter()
            .map(|p| json!({ "name": p.name, "required": p.required, "schema": p.schema }))
            .collect();
        json!({
            "name": self.name,
            "summary": self.summary,
            "params": params,
            "result": { "name": "result", "schema": (self.result)() },
        })
    }
}

/// The answer to `rpc.discover`: an OpenRPC document of every method.
pub fn discover() -> Json {
    json!({
        "openrpc": "1.2.6",
        "info": {
            "title": "Nefia remote protocol",
            "version": PROTOCOL_VERSION.to_string(),
            "description": "JSON-RPC 2.0, one object per line over TCP; see PROTOCOL.md",
        },
        "methods": METHODS.iter().map(Method::describe).collect::<Vec<_>>(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_method_has_one_name_and_describes_itself() {
        let mut names: Vec<&str> = METHODS.iter().map(|m| m.name).collect();
        names.sort_unstable();
        names.dedup();
        assert_eq!(names.len(), METHODS.len(), "a name is registered twice");
        for method in &METHODS {
            assert!(method.name.contains('.') && !method.summary.is_empty(), "{}", method.name);
            assert_eq!(Method::named(method.name).map(|m| m.name), Some(method.name));
            assert!(method.describe()["result"]["schema"].is_object());
        }
    }
}

/// `session.hello`'s params.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hello {
    /// The protocol version the client speaks (a number, so a mismatch can be named).
    pub version: u64,
    /// The token the game printed.
    pub token: String,
}

/// `game.input`'s params.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InputParams {
    /// The key, as the engine names keys (`up`, `enter`, `ctrl+s`).
    pub key: String,
}

/// `lua.eval`'s params.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EvalParams {
    /// Lua code: an expression or statements.
    pub code: String,
}

/// `object.get`'s params.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ObjectParams {
    /// The object.
    pub uid: u64,
}

/// `map.explain_cell`'s params.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CellParams {
    /// The map's id.
    pub map: u64,
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
}

/// `object.set_base`'s and `object.set_temp`'s params.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldParams {
    /// The object.
    pub uid: u64,
    /// The field.
    pub field: String,
    /// The value (null: nil).
    pub value: Json,
    /// For `set_temp`: how it combines with the current value (`set`, `add`, `merge`).
    #[serde(default)]
    pub method: Option<String>,
}

/// `host.command`'s params.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CommandParams {
    /// The command.
    pub command: crate::host::Command,
}

/// `data.list`'s params.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DataTypeParams {
    /// The data type (`base.chara`).
    #[serde(rename = "type")]
    pub data_type: String,
}

/// `data.get`'s params.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrototypeParams {
    /// The data type (`base.chara`).
    #[serde(rename = "type")]
    pub data_type: String,
    /// The prototype's full id (`elona.putit`).
    pub id: String,
}

/// `data.set_field`'s params.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PrototypeFieldParams {
    /// The data type (`base.chara`).
    #[serde(rename = "type")]
    pub data_type: String,
    /// The prototype's full id (`elona.putit`).
    pub id: String,
    /// The field.
    pub field: String,
    /// Its new value; null removes it from the table.
    pub value: Json,
}

/// `data.duplicate`'s params.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DuplicateParams {
    /// The data type (`base.chara`).
    #[serde(rename = "type")]
    pub data_type: String,
    /// The prototype copied.
    pub id: String,
    /// The copy's full id.
    pub new_id: String,
    /// The Lua file to write it into, as messages name it; none: after the original.
    #[serde(default)]
    pub file: Option<String>,
}

/// `data.new`'s params.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewPrototypeParams {
    /// The data type (`base.chara`).
    #[serde(rename = "type")]
    pub data_type: String,
    /// Its full id.
    pub new_id: String,
    /// The Lua file to write it into, as messages name it.
    pub file: String,
}

/// The params of the methods that take none.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NoParams {}
