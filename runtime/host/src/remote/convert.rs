//! The engine's values and views as JSON, and JSON params as engine values.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde_json::{Map, Value as Json, json};

use super::wire::RpcError;
use nefia_game::moddable::TempValue;
use nefia_game::value::{Key, Value};
use nefia_protocol::output::Output;
use nefia_protocol::repl::PauseView;
use nefia_protocol::view::{
    DataTypeView, FieldView, LocationTree, MapView, ObjectDetails, ObjectRow, PrototypeView, Snapshot,
};

/// A value as JSON: nil is null, lists are arrays, maps are objects (integer keys written
/// as strings), an object reference is `{"$object": uid}` as in saves; a float that JSON
/// cannot hold (NaN, ±inf) is null.
pub fn value_to_json(value: &Value) -> Json {
    match value {
        Value::Nil => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Int(i) => json!(i),
        Value::Float(f) => serde_json::Number::from_f64(*f).map_or(Json::Null, Json::Number),
        Value::Str(s) => Json::String(s.to_string()),
        Value::List(items) => Json::Array(items.iter().map(value_to_json).collect()),
        Value::Map(entries) => {
            let object = entries
                .iter()
                .map(|(key, value)| {
                    let key = match key {
                        Key::Int(i) => i.to_string(),
                        Key::Str(s) => s.to_string(),
                    };
                    (key, value_to_json(value))
                })
                .collect();
            Json::Object(object)
        }
        Value::Object(uid) => json!({ nefia_game::value::OBJECT_KEY: uid.0 }),
    }
}

/// The most bytes a string in a value given in params may have (a key, at most
/// [`super::session::name::MAX_NAME_BYTES`]): what is written goes into the undo history's labels.
pub const MAX_STRING_BYTES: usize = 4096;

/// Refuses a string of a value longer than `most` bytes, before anything is made of it.
fn checked_string<'s>(text: &'s str, what: &str, most: usize) -> Result<&'s str, RpcError> {
    match text.len() {
        len if len > most => {
            let start: String = text.chars().take(32).collect();
            Err(RpcError::InvalidParams(format!("the {what} '{start}…' is {len} bytes long; at most {most} are taken")))
        }
        _ => Ok(text),
    }
}

/// A JSON param as a value: null is nil, a whole number that fits an i64 is an integer, any
/// other number a float, arrays lists and objects maps with string keys. A string longer than
/// [`MAX_STRING_BYTES`] (a key, than a name) is invalid params.
pub fn json_to_value(json: &Json) -> Result<Value, RpcError> {
    Ok(match json {
        Json::Null => Value::Nil,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => match (n.as_i64(), n.as_f64()) {
            (Some(i), _) => Value::Int(i),
            (None, Some(f)) if !n.is_u64() => Value::Float(f),
            _ => return Err(RpcError::InvalidParams(format!("{n} is beyond a Lua integer"))),
        },
        Json::String(s) => Value::Str(Arc::from(checked_string(s, "string", MAX_STRING_BYTES)?)),
        Json::Array(items) => Value::List(Arc::new(items.iter().map(json_to_value).collect::<Result<_, _>>()?)),
        Json::Object(entries) => {
            let map = entries
                .iter()
                .map(|(key, value)| {
                    let key = checked_string(key, "key", super::session::name::MAX_NAME_BYTES)?;
                    Ok((Key::Str(Arc::from(key)), json_to_value(value)?))
                })
                .collect::<Result<BTreeMap<_, _>, RpcError>>()?;
            Value::Map(Arc::new(map))
        }
    })
}

/// A line of output as text: printed lines and messages as they are, log lines with their
/// level (`[warn] …`).
pub fn output_text(output: Output) -> String {
    match output {
        Output::Print(text) | Output::Message(text) => text,
        Output::Log(line) => format!("[{}] {}", line.level.name(), line.text),
    }
}

/// A temp value with the contributions behind it: how each was combined, its value, and
/// the mod and file:line that made it.
fn temp_to_json(temp: &TempValue) -> Json {
    let sources: Vec<Json> = temp
        .sources
        .iter()
        .map(|source| {
            json!({
                "method": source.method.name(),
                "value": value_to_json(&source.value),
                "mod": source.origin.mod_id.map(|m| m.as_str().to_owned()),
                "file": source.origin.file.as_str(),
                "line": source.origin.line,
                "times": source.times,
            })
        })
        .collect();
    json!({ "value": value_to_json(&temp.value), "sources": sources, "dropped": temp.dropped })
}

/// An object as the inspector shows it: every field with its base, temp (and provenance)
/// and calc values.
pub fn details_to_json(details: &ObjectDetails) -> Json {
    let fields: Vec<Json> = details
        .fields
        .iter()
        .map(|row| {
            json!({
                "name": row.name,
                "base": row.base.as_ref().map(value_to_json),
                "own": row.own,
                "temp": row.temp.as_ref().map(temp_to_json),
                "calc": row.calc.as_ref().map(value_to_json),
            })
        })
        .collect();
    json!({
        "uid": details.uid.0,
        "title": details.title,
        "kind": details.kind,
        "id": details.id.as_str(),
        "location": details.location,
        "map": details.map.map(|m| m.0),
        "x": details.x,
        "y": details.y,
        "fields": fields,
        "handlers": details.own_handlers,
    })
}

/// An object of the Locations tree, with what it holds and wears.
fn row_to_json(row: &ObjectRow) -> Json {
    let mut object = json!({
        "uid": row.uid.0,
        "kind": row.kind,
        "id": row.id.as_str(),
        "name": row.name.as_deref(),
        "x": row.x,
        "y": row.y,
    });
    if let Some(contents) = &row.contents {
        object["inventory"] = Json::Array(contents.inventory.iter().map(row_to_json).collect());
        let equipment: Map<String, Json> =
            contents.equipment.iter().map(|(slot, row)| (slot.as_str().to_owned(), row_to_json(row))).collect();
        object["equipment"] = Json::Object(equipment);
    }
    object
}

/// `map.tiles`' answer: the map's palette of tile ids and each row as indices into it.
pub fn tiles_to_json(map: &MapView) -> Json {
    let palette: Vec<&str> = map.tile_styles.iter().map(|style| style.id.as_str()).collect();
    let rows: Vec<Vec<u16>> = (0..map.height)
        .map(|y| (0..map.width).map(|x| map.tile_index_at(x, y).unwrap_or_default()).collect())
        .collect();
    json!({ "id": map.id.0, "name": map.name, "width": map.width, "height": map.height, "palette": palette, "rows": rows })
}

/// Every map with what stands on it, and the ownerless objects scripts hold.
pub fn locations_to_json(tree: &LocationTree) -> Json {
    let maps: Vec<Json> = tree
        .maps
        .iter()
        .map(|map| {
            json!({
                "id": map.id.0,
                "name": map.name,
                "width": map.size.0,
                "height": map.size.1,
                "current": map.current,
                "objects": map.objects.iter().map(row_to_json).collect::<Vec<_>>(),
            })
        })
        .collect();
    json!({ "maps": maps, "ownerless": tree.ownerless.iter().map(row_to_json).collect::<Vec<_>>() })
}

/// A `pause()` in progress: where, why, the stack and the paused function's variables.
pub fn pause_to_json(pause: &PauseView) -> Json {
    let variables: Vec<Json> = pause
        .variables
        .iter()
        .map(|(name, scope, value)| json!({ "name": name, "scope": scope, "value": value }))
        .collect();
    json!({
        "function": pause.function,
        "file": pause.file,
        "line": pause.line,
        "reason": pause.reason,
        "stack": pause.stack,
        "variables": variables,
    })
}

/// What the game is doing: its state, turn and date, the player and where, the current map,
/// the UI layers open (by id), the pause in progress and the error it stopped on.
pub fn state_to_json(snapshot: &Snapshot) -> Json {
    json!({
        "state": snapshot.state.label(),
        "turn": snapshot.turn,
        "date": snapshot.date,
        "playing": snapshot.play.playing,
        "play_paused": snapshot.play.paused,
        "player": snapshot.player.map(|p| p.0),
        "player_at": snapshot.player_at.map(|(x, y)| [x, y]),
        "map": snapshot.map.as_ref().map(|m| json!({ "id": m.id.0, "name": m.name })),
        "layers": snapshot.layers.iter().map(|layer| layer.id.0).collect::<Vec<_>>(),
        "pause": snapshot.debug.pause.as_ref().map(pause_to_json),
        "error": snapshot.debug.error.as_ref().map(|e| e.to_string()),
    })
}

/// A declared field's schema: `{name, type, type_name, default, doc}`.
fn field_to_json(field: &FieldView) -> Json {
    json!({
        "name": field.name.as_str(),
        "type": serde_json::to_value(&field.ty).unwrap_or(Json::Null),
        "type_name": field.type_name,
        "default": value_to_json(&field.default),
        "doc": field.doc,
    })
}

/// `data.types`' answer: each data type with its prototypes' count and its fields' schemas.
pub fn data_types_to_json(types: &[DataTypeView]) -> Json {
    types
        .iter()
        .map(|t| {
            let fields: Vec<Json> = t.fields.iter().map(field_to_json).collect();
            json!({ "id": t.id.as_str(), "count": t.entries.len(), "fields": fields })
        })
        .collect()
}

/// One of `data.where_used`'s answers: the usage's fields with its `kind`, and its `text` as
/// the editor shows it.
pub fn usage_to_json(usage: &nefia_protocol::editing::Usage) -> Json {
    let mut row = serde_json::to_value(usage).unwrap_or_else(|_| json!({}));
    row["text"] = Json::String(usage.to_string());
    row
}

/// `data.get`'s answer: prototype `proto` of `data_type`, each declared field with its value
/// and whether the prototype sets it, then any field it sets that its type does not declare.
pub fn prototype_to_json(data_type: &DataTypeView, proto: &PrototypeView) -> Json {
    let value_of = |name| proto.fields.iter().find(|(n, _)| *n == name).map_or(Json::Null, |(_, v)| value_to_json(v));
    let mut fields: Vec<Json> = data_type
        .fields
        .iter()
        .map(|field| {
            let mut row = field_to_json(field);
            row["value"] = value_of(field.name);
            row["given"] = Json::Bool(proto.given.contains(&field.name));
            row
        })
        .collect();
    for name in proto.given.iter().filter(|n| !data_type.fields.iter().any(|f| f.name == **n)) {
        fields
            .push(json!({ "name": name.as_str(), "type": { "kind": "any" }, "value": value_of(*name), "given": true }));
    }
    json!({ "id": proto.id.as_str(), "type": data_type.id.as_str(), "origin": proto.origin, "fields": fields })
}
