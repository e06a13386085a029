//! The protocol's methods: their names, params and results, as `rpc.discover` lists them
//! (OpenRPC-shaped), and the params each one reads.

use serde::Deserialize;
use serde_json::{Value as Json, json};

use super::PROTOCOL_VERSION;

/// A method of the protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// `session.hello`: the handshake, first on every connection.
    Hello,
    /// `rpc.discover`: this list.
    Discover,
    /// `game.state`: the turn, the player and what the game is doing.
    State,
    /// `game.input`: a key for the top UI layer or the game.
    Input,
    /// `lua.eval`: REPL input.
    Eval,
    /// `debug.continue`: let the innermost `pause()` go on.
    Continue,
    /// `object.get`: an object's fields.
    ObjectGet,
    /// `object.set_base`: set a field's base value, undoably.
    SetBase,
    /// `object.set_temp`: modify a field's temp value, undoably.
    SetTemp,
    /// `locations.list`: the maps and what they hold.
    Locations,
    /// `history.undo`.
    Undo,
    /// `history.redo`.
    Redo,
    /// `frame.subscribe`: frame updates as notifications.
    Subscribe,
    /// `frame.unsubscribe`.
    Unsubscribe,
    /// `host.mirror`: the whole snapshot as deltas and every event, for an attached editor.
    Mirror,
    /// `host.command`: one of the runtime's own commands, as an attached editor sends it.
    HostCommand,
    /// `data.types`: the data types with their declared fields' schemas.
    DataTypes,
    /// `data.list`: the ids of a data type's prototypes.
    DataList,
    /// `data.get`: a prototype's fields with their types, values, defaults and source.
    DataGet,
    /// `data.set_field`: a prototype's field written back to its Lua source, undoably.
    DataSetField,
    /// `data.duplicate`: a prototype copied under a new id in its Lua source, undoably.
    DataDuplicate,
    /// `data.new`: a prototype made from its type's template in a mod's Lua file, undoably.
    DataNew,
    /// `data.delete`: a prototype removed from its Lua source, undoably; refused while used.
    DataDelete,
    /// `data.where_used`: where a prototype is used.
    DataWhereUsed,
}

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

impl Method {
    /// Every method, in the order `rpc.discover` lists them.
    pub const ALL: [Method; 24] = [
        Method::Hello,
        Method::Discover,
        Method::State,
        Method::Input,
        Method::Eval,
        Method::Continue,
        Method::ObjectGet,
        Method::SetBase,
        Method::SetTemp,
        Method::Locations,
        Method::Undo,
        Method::Redo,
        Method::Subscribe,
        Method::Unsubscribe,
        Method::Mirror,
        Method::HostCommand,
        Method::DataTypes,
        Method::DataList,
        Method::DataGet,
        Method::DataSetField,
        Method::DataDuplicate,
        Method::DataNew,
        Method::DataDelete,
        Method::DataWhereUsed,
    ];

    /// The method's name on the wire.
    pub fn name(self) -> &'static str {
        match self {
            Method::Hello => "session.hello",
            Method::Discover => "rpc.discover",
            Method::State => "game.state",
            Method::Input => "game.input",
            Method::Eval => "lua.eval",
            Method::Continue => "debug.continue",
            Method::ObjectGet => "object.get",
            Method::SetBase => "object.set_base",
            Method::SetTemp => "object.set_temp",
            Method::Locations => "locations.list",
            Method::Undo => "history.undo",
            Method::Redo => "history.redo",
            Method::Subscribe => "frame.subscribe",
            Method::Unsubscribe => "frame.unsubscribe",
            Method::Mirror => "host.mirror",
            Method::HostCommand => "host.command",
            Method::DataTypes => "data.types",
            Method::DataList => "data.list",
            Method::DataGet => "data.get",
            Method::DataSetField => "data.set_field",
            Method::DataDuplicate => "data.duplicate",
            Method::DataNew => "data.new",
            Method::DataDelete => "data.delete",
            Method::DataWhereUsed => "data.where_used",
        }
    }

    /// The method named `name`, if there is one.
    pub fn named(name: &str) -> Option<Method> {
        Method::ALL.into_iter().find(|method| method.name() == name)
    }

    /// What it does, in a sentence.
    fn summary(self) -> &'static str {
        match self {
            Method::Hello => "The handshake: the protocol version and the token the game printed. Must come first.",
            Method::Discover => "Lists the methods with their params and results (OpenRPC).",
            Method::State => "The turn, the date, the player and what the game is doing.",
            Method::Input => {
                "A key for the top UI layer or the game; answers once the game has taken it. An unknown key name is invalid params."
            }
            Method::Eval => "Evaluates REPL input: its printed output and result values, or the pause it stopped at.",
            Method::Continue => "Lets the innermost pause() go on; answers like lua.eval.",
            Method::ObjectGet => "An object's fields: base, temp with the contributions behind it, and calc.",
            Method::SetBase => "Sets a field's base value, as an Inspector edit (undoable).",
            Method::SetTemp => "Modifies a field's temp value (set, add or merge), as an Inspector edit (undoable).",
            Method::Locations => "Every map with the objects on it, and the ownerless objects scripts hold.",
            Method::Undo => "Undoes the last edit.",
            Method::Redo => "Redoes the last undone edit.",
            Method::Subscribe => "Sends frame notifications from now on: the first whole, then only what changed.",
            Method::Unsubscribe => "Stops frame notifications.",
            Method::Mirror => {
                "For an attached editor: host.frame notifications carrying the whole snapshot \
                               as deltas, and host.event notifications carrying every event, from now on."
            }
            Method::HostCommand => {
                "For an attached editor: one of the runtime's own commands (the serde JSON \
                                    of nefia_runtime::host::Command); Shutdown is refused."
            }
            Method::DataTypes => "The data types, each with its prototypes' count and its declared fields' schemas.",
            Method::DataList => "The ids of a data type's prototypes, in registration order.",
            Method::DataGet => {
                "A prototype: each declared field with its type, value, default and whether the prototype \
                 sets it, and where it is added (file:line)."
            }
            Method::DataSetField => {
                "Writes a prototype's field back into its data:add table in the mod's Lua file (checked \
                 against the field's type, hotloaded, undoable); a null value removes it."
            }
            Method::DataDuplicate => {
                "Copies a prototype under new_id (<mod>.<name>): after the original, or at the end of file (a \
                 loaded Lua file of new_id's mod); hotloaded, undoable."
            }
            Method::DataNew => {
                "Adds a prototype with its type's template fields at the end of file (a loaded Lua file of its \
                 mod); hotloaded, undoable."
            }
            Method::DataDelete => {
                "Removes a prototype's data:add from its Lua file (hotloaded, undoable); refused, listing them, \
                 while anything uses it."
            }
            Method::DataWhereUsed => {
                "Where a prototype is used: objects, map files, map cells, other prototypes' fields, Lua string \
                 literals and recordings."
            }
        }
    }

    /// Its params.
    fn params(self) -> Vec<Param> {
        let uid = || param("uid", json!({ "type": "integer", "minimum": 0 }));
        let field = || param("field", json!({ "type": "string" }));
        let value = || param("value", json!({ "description": "null, boolean, number, string, array or object" }));
        let data_type = || param("type", json!({ "type": "string", "examples": ["base.chara"] }));
        let id = || param("id", json!({ "type": "string", "examples": ["elona.putit"] }));
        let new_id = || param("new_id", json!({ "type": "string", "examples": ["elona.big_putit"] }));
        let file = || json!({ "type": "string", "examples": ["mods/elona/content/charas.lua"] });
        match self {
            Method::Hello => vec![
                param("version", json!({ "type": "integer", "const": PROTOCOL_VERSION })),
                param("token", json!({ "type": "string" })),
            ],
            Method::Input => vec![param("key", json!({ "type": "string", "examples": ["up", "enter", "ctrl+s"] }))],
            Method::Eval => vec![param("code", json!({ "type": "string" }))],
            Method::ObjectGet => vec![uid()],
            Method::SetBase => vec![uid(), field(), value()],
            Method::HostCommand => vec![param(
                "command",
                json!({ "description": "a nefia_runtime::host::Command as serde JSON, such as {\"Repl\": {\"Eval\": {\"id\": 1, \"code\": \"1+1\"}}}" }),
            )],
            Method::SetTemp => vec![
                uid(),
                field(),
                value(),
                optional("method", json!({ "enum": ["set", "add", "merge"], "default": "set" })),
            ],
            Method::DataList => vec![data_type()],
            Method::DataGet => vec![data_type(), id()],
            Method::DataSetField => vec![data_type(), id(), field(), value()],
            Method::DataDuplicate => vec![data_type(), id(), new_id(), optional("file", file())],
            Method::DataNew => vec![data_type(), new_id(), param("file", file())],
            Method::DataDelete | Method::DataWhereUsed => vec![data_type(), id()],
            _ => Vec::new(),
        }
    }

    /// Its result, described.
    fn result(self) -> Json {
        let outcome = json!({
            "type": "object",
            "description": "{output: [string], values: [string]} when it finished (values pretty-printed), \
                            or {output, paused: {function, file, line, reason, stack, variables}} when it \
                            stopped in pause(), or {output, waiting: \"in query\"} inside a UI layer's query()",
        });
        match self {
            Method::Hello => json!({ "type": "object", "description": "{protocol, engine, project}" }),
            Method::Discover => json!({ "type": "object", "description": "this document" }),
            Method::State | Method::Input => json!({
                "type": "object",
                "description": "{state, turn, date, playing, play_paused, player, player_at, map, layers, pause, error} (game.input adds output and refused)",
            }),
            Method::Eval | Method::Continue => outcome,
            Method::ObjectGet => json!({
                "type": "object",
                "description": "{uid, title, kind, id, location, map, x, y, fields: [{name, base, own, temp: \
                                {value, sources: [{method, value, mod, file, line, times}], dropped}, calc}]}",
            }),
            Method::SetBase | Method::SetTemp | Method::Undo | Method::Redo => {
                json!({ "type": "object", "description": "the undo history after it: {labels: [label], done: count}" })
            }
            Method::Locations => json!({ "type": "object", "description": "{maps: [{id, name, width, height, \
                                        current, objects}], ownerless}" }),
            Method::Subscribe | Method::Unsubscribe | Method::Mirror | Method::HostCommand => json!({ "type": "null" }),
            Method::DataTypes => json!({ "type": "array", "description": "[{id, count, fields: [{name, type, \
                                        type_name, default, doc}]}]; type is the field's schema: {kind: any | boolean | \
                                        number {integer, min, max} | string | data_id {data_type} | one_of {values} | \
                                        color | optional {of} | list {of} | map {key, value} | fields {fields} | tuple \
                                        {of} | some {of} | function | table | opaque}" }),
            Method::DataList => json!({ "type": "array", "items": { "type": "string" } }),
            Method::DataGet => json!({ "type": "object", "description": "{id, type, origin, fields: [{name, type, \
                                       type_name, value, default, given, doc}]}" }),
            Method::DataSetField | Method::DataDuplicate | Method::DataNew | Method::DataDelete => {
                json!({ "type": "object", "description": "the undo history after it: {labels: [label], done: count}" })
            }
            Method::DataWhereUsed => json!({ "type": "array", "description": "[{kind: object | map_file | tiles | \
                                            field | literal | recording, text, ...where: uid, map, x, y, count, \
                                            data_type, id, field, at (file:line), name}]" }),
        }
    }

    /// The method as `rpc.discover` lists it.
    fn describe(self) -> Json {
        let params: Vec<Json> = self
            .params()
            .into_iter()
            .map(|p| json!({ "name": p.name, "required": p.required, "schema": p.schema }))
            .collect();
        json!({
            "name": self.name(),
            "summary": self.summary(),
            "params": params,
            "result": { "name": "result", "schema": self.result() },
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
        "methods": Method::ALL.into_iter().map(Method::describe).collect::<Vec<_>>(),
    })
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
