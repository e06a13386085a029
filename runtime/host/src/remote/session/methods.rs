//! The protocol's methods as a registry: each is one line of [`METHODS`] — its name on the
//! wire, what it does, the struct its params are read into, its result as `rpc.discover` lists
//! it (OpenRPC-shaped), and the [`Session`] function that answers it (`session/answers.rs`, one
//! per method), which is handed the params already read. A method exists only by its line, so
//! none can be answered and not listed, or listed and not answered, and the params it lists are
//! made from the struct it reads (its JSON schema, derived with `schemars`): adding one is its
//! function and its line. The params structs are below.

use schemars::{JsonSchema, Schema, SchemaGenerator, json_schema};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value as Json, json};

use super::Session;
use super::name::Name;
use crate::remote::PROTOCOL_VERSION;
use crate::remote::wire::{RpcError, params};

/// The function answering a method: the session and the request's params (read into the
/// method's params struct by its line of [`METHODS`]).
type Answer = fn(&mut Session, Json) -> Result<Json, RpcError>;

/// A method of the protocol.
pub struct Method {
    /// Its name on the wire (`game.state`).
    pub name: &'static str,
    /// What it does, in a sentence.
    summary: &'static str,
    /// Its params: those of the struct its answer reads.
    params: fn() -> Params,
    /// Its result, described.
    result: fn() -> Json,
    /// Answers it.
    pub(super) answer: Answer,
}

/// The handshake's name: the one method a session answers before it.
pub const HELLO: &str = "session.hello";
/// The methods whose first frame follows their answer.
pub const FRAMES_FOLLOW: [&str; 2] = ["frame.subscribe", "host.mirror"];

/// One line of [`METHODS`]: the method's name, its summary, the struct its params are read
/// into, its result described, and the function answering it, which takes that struct.
macro_rules! method {
    ($name:expr, $summary:expr, $params:ty, $result:expr, $answer:expr $(,)?) => {
        Method {
            name: $name,
            summary: $summary,
            params: Params::of::<$params>,
            result: $result,
            answer: |session, given| $answer(session, params::<$params>(given)?),
        }
    };
}

/// Every method, in the order `rpc.discover` lists them.
pub static METHODS: [Method; 26] = [
    method!(
        HELLO,
        "The handshake: the protocol version and the token the game printed. Must come first.",
        Hello,
        || json!({ "type": "object", "description": "{protocol, engine, project}" }),
        Session::answer_hello,
    ),
    method!(
        "rpc.discover",
        "Lists the methods with their params and results (OpenRPC).",
        NoParams,
        || json!({ "type": "object", "description": "this document" }),
        Session::answer_discover,
    ),
    method!(
        "game.state",
        "The turn, the date, the player and what the game is doing.",
        NoParams,
        state_result,
        Session::answer_state,
    ),
    method!(
        "game.input",
        "A key for the top UI layer or the game; answers once the game has taken it. An unknown key name is invalid \
         params.",
        InputParams,
        state_result,
        Session::answer_input,
    ),
    method!(
        "lua.eval",
        "Evaluates REPL input: its printed output and result values, or the pause it stopped at.",
        EvalParams,
        outcome_result,
        Session::answer_eval,
    ),
    method!(
        "debug.continue",
        "Lets the innermost pause() go on; answers like lua.eval.",
        NoParams,
        outcome_result,
        Session::answer_continue,
    ),
    method!(
        "object.get",
        "An object's fields: base, temp with the contributions behind it, and calc.",
        ObjectParams,
        || {
            json!({
                "type": "object",
                "description": "{uid, title, kind, id, location, map, x, y, fields: [{name, base, own, temp: \
                                {value, sources: [{method, value, mod, file, line, times}], dropped}, calc}]}",
            })
        },
        Session::answer_object_get,
    ),
    method!(
        "object.set_base",
        "Sets a field's base value, as an Inspector edit (undoable).",
        BaseParams,
        history_result,
        Session::answer_set_base,
    ),
    method!(
        "object.set_temp",
        "Modifies a field's temp value (set, add or merge), as an Inspector edit (undoable).",
        TempParams,
        history_result,
        Session::answer_set_temp,
    ),
    method!(
        "locations.list",
        "Every map with the objects on it, and the ownerless objects scripts hold.",
        NoParams,
        || json!({ "type": "object", "description": "{maps: [{id, name, width, height, current, objects}], ownerless}" }),
        Session::answer_locations,
    ),
    method!(
        "map.tiles",
        "The current map's tiles: its palette of tile ids, and each row as indices into it.",
        NoParams,
        || json!({ "type": "object", "description": "{id, name, width, height, palette: [tile id], rows: [[index]]}" }),
        Session::answer_map_tiles,
    ),
    method!(
        "map.explain_cell",
        "Why a cell of a map has its tile: the auto-tiling rule that placed it, the rules that matched and lost, and the near misses.",
        CellParams,
        || json!({ "type": "object", "description": "{rule_set, declared_at, x, y, intent, tile, winner: {rule, name, form, cells: [{dx, dy, wants, matched}]}, lost: [{rule, name, reason}], near_misses}" }),
        Session::answer_explain_cell,
    ),
    method!("history.undo", "Undoes the last edit.", NoParams, history_result, Session::answer_undo),
    method!("history.redo", "Redoes the last undone edit.", NoParams, history_result, Session::answer_redo),
    method!(
        FRAMES_FOLLOW[0],
        "Sends frame notifications from now on: the first whole, then only what changed.",
        NoParams,
        null_result,
        Session::answer_subscribe,
    ),
    method!("frame.unsubscribe", "Stops frame notifications.", NoParams, null_result, Session::answer_unsubscribe),
    method!(
        FRAMES_FOLLOW[1],
        "For an attached editor: host.frame notifications carrying the whole snapshot as deltas, and host.event \
         notifications carrying every event, from now on.",
        NoParams,
        null_result,
        Session::answer_mirror,
    ),
    method!(
        "host.command",
        "For an attached editor: one of the runtime's own commands (the serde JSON of \
         nefia_protocol::message::Command); Shutdown is refused.",
        CommandParams,
        null_result,
        Session::answer_host_command,
    ),
    method!(
        "data.types",
        "The data types, each with its prototypes' count and its declared fields' schemas.",
        NoParams,
        || {
            json!({ "type": "array", "description": "[{id, count, fields: [{name, type, type_name, default, doc}]}]; \
                    type is the field's schema: {kind: any | boolean | number {integer, min, max} | string | data_id \
                    {data_type} | one_of {values} | color | optional {of} | list {of} | map {key, value} | fields \
                    {fields} | tuple {of} | some {of} | function | table | opaque}" })
        },
        Session::answer_data_types,
    ),
    method!(
        "data.list",
        "The ids of a data type's prototypes, in registration order.",
        DataTypeParams,
        || json!({ "type": "array", "items": { "type": "string" } }),
        Session::answer_data_list,
    ),
    method!(
        "data.get",
        "A prototype: each declared field with its type, value, default and whether the prototype sets it, and \
         where it is added (file:line).",
        PrototypeParams,
        || {
            json!({ "type": "object", "description": "{id, type, origin, fields: [{name, type, type_name, value, \
                    default, given, doc}]}" })
        },
        Session::answer_data_get,
    ),
    method!(
        "data.set_field",
        "Writes a prototype's field back into its data:add table in the mod's Lua file (checked against the field's \
         type, hotloaded, undoable); a null value removes it.",
        PrototypeFieldParams,
        history_result,
        Session::answer_data_set_field,
    ),
    method!(
        "data.duplicate",
        "Copies a prototype under new_id (<mod>.<name>): after the original, or at the end of file (a loaded Lua file \
         of new_id's mod); hotloaded, undoable.",
        DuplicateParams,
        history_result,
        Session::answer_data_duplicate,
    ),
    method!(
        "data.new",
        "Adds a prototype with its type's template fields at the end of file (a loaded Lua file of its mod); \
         hotloaded, undoable.",
        NewPrototypeParams,
        history_result,
        Session::answer_data_new,
    ),
    method!(
        "data.delete",
        "Removes a prototype's data:add from its Lua file (hotloaded, undoable); refused, listing them, while \
         anything uses it.",
        PrototypeParams,
        history_result,
        Session::answer_data_delete,
    ),
    method!(
        "data.where_used",
        "Where a prototype is used: objects, map files, map cells, other prototypes' fields, Lua string literals and \
         recordings.",
        PrototypeParams,
        || {
            json!({ "type": "array", "description": "[{kind: object | map_file | tiles | field | literal | \
                    recording, text, ...where: uid, map, x, y, count, data_type, id, field, at (file:line), name}]" })
        },
        Session::answer_data_where_used,
    ),
];

/// A method's params as its params struct gives them: the fields serde reads, in its order
/// (the order of params given by position), and the struct's JSON schema.
struct Params {
    /// The fields the struct reads, as serde names them.
    fields: &'static [&'static str],
    /// The struct's JSON schema (its `properties` and `required`).
    schema: Json,
    /// Whether the struct reads `params` (for the tests: what is described is what is read).
    #[cfg_attr(not(test), allow(dead_code))]
    reads: fn(Json) -> bool,
}

impl Params {
    /// The params of the struct `T`.
    fn of<T: JsonSchema + DeserializeOwned>() -> Params {
        let settings = schemars::generate::SchemaSettings::draft2020_12().with(|s| s.inline_subschemas = true);
        let schema = settings.into_generator().into_root_schema_for::<T>().to_value();
        Params { fields: field_names::<T>(), schema, reads: |given| params::<T>(given).is_ok() }
    }

    /// The params as `rpc.discover` lists them: each field with its schema and whether it is
    /// required, in the struct's order.
    fn described(&self) -> Vec<Json> {
        let required = |name: &str| self.schema["required"].as_array().is_some_and(|r| r.iter().any(|n| n == name));
        self.fields
            .iter()
            .map(|&name| json!({ "name": name, "required": required(name), "schema": self.schema["properties"][name] }))
            .collect()
    }
}

/// The names of the fields `T` reads, in order, as serde declares them for a struct (renames
/// applied): asked of `T`'s `Deserialize` by a deserializer that only notes them.
fn field_names<T: DeserializeOwned>() -> &'static [&'static str] {
    use serde::de::{Error, Visitor};

    /// Notes the fields a struct asks for, and reads nothing.
    struct FieldNames<'a>(&'a mut &'static [&'static str]);

    impl<'de> serde::Deserializer<'de> for FieldNames<'_> {
        type Error = serde::de::value::Error;

        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> Result<V::Value, Self::Error> {
            Err(Error::custom("params are a struct"))
        }

        fn deserialize_struct<V: Visitor<'de>>(
            self,
            _: &'static str,
            fields: &'static [&'static str],
            _: V,
        ) -> Result<V::Value, Self::Error> {
            *self.0 = fields;
            Err(Error::custom("only the fields are asked for"))
        }

        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
            unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
        }
    }

    let mut fields: &'static [&'static str] = &[];
    let _ = T::deserialize(FieldNames(&mut fields));
    fields
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
        json!({
            "name": self.name,
            "summary": self.summary,
            "params": (self.params)().described(),
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

    /// A value `schema` allows: its `const`, first example or first choice, else one of its type.
    fn sample(schema: &Json) -> Json {
        if let Some(value) = schema.get("const") {
            return value.clone();
        }
        if let Some(value) = ["examples", "enum"].iter().find_map(|key| schema[key].get(0)) {
            return value.clone();
        }
        match schema["type"].as_str() {
            Some("integer") => schema.get("minimum").cloned().unwrap_or(json!(1)),
            Some("string") => json!("x"),
            Some("boolean") => json!(true),
            _ => json!({ "any": "value" }),
        }
    }

    #[test]
    fn every_method_lists_exactly_the_params_its_struct_reads() {
        for method in &METHODS {
            let params = (method.params)();
            let mut listed: Vec<&str> = params.schema["properties"]
                .as_object()
                .map(|p| p.keys().map(String::as_str).collect())
                .unwrap_or_default();
            listed.sort_unstable();
            let mut read = params.fields.to_vec();
            read.sort_unstable();
            assert_eq!(listed, read, "{}: the schema's properties are the fields serde reads", method.name);
            let described = method.describe()["params"].as_array().cloned().unwrap_or_default();
            assert_eq!(described.len(), params.fields.len(), "{}", method.name);
            // A value of every listed param is read; leaving one out is refused exactly when it
            // is listed as required; a param not listed is refused.
            let given: serde_json::Map<String, Json> = described
                .iter()
                .map(|p| (p["name"].as_str().unwrap_or_default().to_owned(), sample(&p["schema"])))
                .collect();
            assert!((params.reads)(Json::Object(given.clone())), "{}: its params {given:?} are read", method.name);
            for param in &described {
                assert!(param["schema"].is_object(), "{}: {param}", method.name);
                let mut without = given.clone();
                without.remove(param["name"].as_str().unwrap_or_default());
                let required = param["required"].as_bool().unwrap_or_default();
                assert_eq!((params.reads)(Json::Object(without)), !required, "{}: {param}", method.name);
            }
            let mut more = given.clone();
            more.insert("not_listed".into(), json!(1));
            assert!(!(params.reads)(Json::Object(more)), "{}: an unlisted param is refused", method.name);
        }
    }

    #[test]
    fn params_are_listed_in_the_order_they_are_given_by_position() {
        let described = Method::named("data.duplicate").map(Method::describe).unwrap_or_default();
        let names: Vec<&Json> =
            described["params"].as_array().map(|p| p.iter().map(|p| &p["name"]).collect()).unwrap_or_default();
        assert_eq!(names, [&json!("type"), &json!("id"), &json!("new_id"), &json!("file")]);
        assert_eq!(described["params"][3]["required"], json!(false));
        assert_eq!(described["params"][3]["schema"]["type"], json!("string"));
        let hello = Method::named(HELLO).map(Method::describe).unwrap_or_default();
        assert_eq!(hello["params"][0]["schema"]["const"], json!(PROTOCOL_VERSION));
    }
}

/// `session.hello`'s params.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Hello {
    /// The protocol version the client speaks (a number, so a mismatch can be named).
    #[schemars(extend("const" = PROTOCOL_VERSION))]
    pub version: u64,
    /// The token the game printed.
    pub token: String,
}

/// `game.input`'s params.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct InputParams {
    /// The key, as the engine names keys.
    #[schemars(extend("examples" = ["up", "enter", "ctrl+s"]))]
    pub key: String,
}

/// `lua.eval`'s params.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct EvalParams {
    /// Lua code: an expression or statements.
    pub code: String,
}

/// `object.get`'s params.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ObjectParams {
    /// The object's uid.
    pub uid: u64,
}

/// `map.explain_cell`'s params.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CellParams {
    /// The map's id.
    #[schemars(range(min = 1))]
    pub map: u64,
    /// Column.
    pub x: i32,
    /// Row.
    pub y: i32,
}

/// `object.set_base`'s params.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct BaseParams {
    /// The object's uid.
    pub uid: u64,
    /// The field.
    pub field: Name,
    /// The value: null (nil), a boolean, number, string, array or object.
    pub value: Json,
}

/// `object.set_temp`'s params.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TempParams {
    /// The object's uid.
    pub uid: u64,
    /// The field.
    pub field: Name,
    /// The value: null (nil), a boolean, number, string, array or object.
    pub value: Json,
    /// How it combines with the current value.
    #[serde(default)]
    #[schemars(with = "String", extend("enum" = ["set", "add", "merge"], "default" = "set"))]
    pub method: Option<String>,
}

/// `host.command`'s params.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CommandParams {
    /// The command: a `nefia_protocol::message::Command` as serde JSON.
    #[schemars(schema_with = "command_schema")]
    pub command: nefia_protocol::message::Command,
}

/// The schema of a [`nefia_protocol::message::Command`]: any JSON, with an example (the enum's own schema
/// would be the whole protocol between the editor and the runtime thread); the field's doc
/// describes it.
fn command_schema(_: &mut SchemaGenerator) -> Schema {
    json_schema!({ "examples": [{ "Repl": { "Eval": { "id": 1, "code": "1+1" } } }] })
}

/// `data.list`'s params.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DataTypeParams {
    /// The data type.
    #[serde(rename = "type")]
    #[schemars(extend("examples" = ["base.chara"]))]
    pub data_type: Name,
}

/// `data.get`'s, `data.delete`'s and `data.where_used`'s params.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PrototypeParams {
    /// The data type.
    #[serde(rename = "type")]
    #[schemars(extend("examples" = ["base.chara"]))]
    pub data_type: Name,
    /// The prototype's full id.
    #[schemars(extend("examples" = ["elona.putit"]))]
    pub id: Name,
}

/// `data.set_field`'s params.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PrototypeFieldParams {
    /// The data type.
    #[serde(rename = "type")]
    #[schemars(extend("examples" = ["base.chara"]))]
    pub data_type: Name,
    /// The prototype's full id.
    #[schemars(extend("examples" = ["elona.putit"]))]
    pub id: Name,
    /// The field.
    pub field: Name,
    /// Its new value (a boolean, number, string, array or object); null removes it from the table.
    pub value: Json,
}

/// `data.duplicate`'s params.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DuplicateParams {
    /// The data type.
    #[serde(rename = "type")]
    #[schemars(extend("examples" = ["base.chara"]))]
    pub data_type: Name,
    /// The prototype copied.
    #[schemars(extend("examples" = ["elona.putit"]))]
    pub id: Name,
    /// The copy's full id.
    #[schemars(extend("examples" = ["elona.big_putit"]))]
    pub new_id: Name,
    /// The Lua file to write it into, as messages name it; none: after the original.
    #[serde(default)]
    #[schemars(with = "Name", extend("examples" = ["mods/elona/content/charas.lua"]))]
    pub file: Option<Name>,
}

/// `data.new`'s params.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NewPrototypeParams {
    /// The data type.
    #[serde(rename = "type")]
    #[schemars(extend("examples" = ["base.chara"]))]
    pub data_type: Name,
    /// Its full id.
    #[schemars(extend("examples" = ["elona.big_putit"]))]
    pub new_id: Name,
    /// The Lua file to write it into, as messages name it.
    #[schemars(extend("examples" = ["mods/elona/content/charas.lua"]))]
    pub file: Name,
}

/// The params of the methods that take none.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct NoParams {}
