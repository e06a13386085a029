//! The remote protocol (`PROTOCOL.md`): a client attached over TCP to a game running headless
//! on the demo project drives it as the editor would, through the same commands.

use nefia_tests::remote::{Client, served};
use serde_json::{Value as Json, json};

fn error_code(response: &Json) -> i64 {
    response["error"]["code"].as_i64().unwrap_or_else(|| panic!("not an error: {response}"))
}

/// The printed values of a `lua.eval`.
fn eval(client: &mut Client, code: &str) -> Json {
    client.result("lua.eval", json!({ "code": code }))
}

#[test]
fn a_wrong_token_a_missing_hello_or_another_version_is_refused_and_closes() {
    let game = served();
    let mut client = Client::connect(game.address);
    let response = client.call("session.hello", json!({ "version": 1, "token": "guess" }));
    assert_eq!(error_code(&response), 1002, "{response}");
    assert!(client.closed(), "the connection closes after a wrong token");

    let mut client = Client::connect(game.address);
    let response = client.call("lua.eval", json!({ "code": "1" }));
    assert_eq!(error_code(&response), 1001, "hello must come first: {response}");
    assert!(client.closed());

    let mut client = Client::connect(game.address);
    let response = client.call("session.hello", json!({ "version": 2, "token": game.token }));
    assert_eq!(error_code(&response), 1003);
    assert_eq!(response["error"]["message"], "this game speaks nefia protocol 1, the client 2");
    assert!(client.closed());

    let mut client = game.attach();
    assert_eq!(eval(&mut client, "1 + 1")["values"], json!(["2"]), "the right token is let in");
}

#[test]
fn an_unknown_method_or_bad_params_are_answered_with_an_error_and_the_session_goes_on() {
    let game = served();
    let mut client = game.attach();
    assert_eq!(error_code(&client.call("nope.nothing", json!({}))), -32601);
    assert_eq!(error_code(&client.call("lua.eval", json!({ "code": 3 }))), -32602);
    assert_eq!(error_code(&client.call("object.get", json!({ "uid": -1 }))), -32602);
    assert_eq!(error_code(&client.call("lua.eval", json!({ "code": "1", "extra": true }))), -32602);
    let discovered = client.result("rpc.discover", json!({}));
    let eval = discovered["methods"].as_array().unwrap().iter().find(|m| m["name"] == "lua.eval").unwrap();
    assert_eq!(eval["params"][0]["name"], "code");
    assert!(discovered["openrpc"].is_string() && discovered["info"]["version"] == "1");
    assert_eq!(eval_values(&mut client, "2 * 21"), json!(["42"]));
}

fn eval_values(client: &mut Client, code: &str) -> Json {
    eval(client, code)["values"].clone()
}

#[test]
fn a_malformed_frame_is_a_parse_error_that_closes_and_the_game_takes_a_new_client() {
    let game = served();
    let mut client = game.attach();
    client.send_line("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": ");
    let (response, _) = client.read().expect("an answer");
    assert_eq!(error_code(&response), -32700, "{response}");
    assert!(client.closed());

    let mut client = game.attach();
    client.send_line("[1, 2]");
    let (response, _) = client.read().expect("an answer");
    assert_eq!(error_code(&response), -32600, "{response}");
    assert!(client.closed());

    let mut client = game.attach();
    let huge = format!("{{\"code\": \"{}\"}}", "x".repeat(nefia_host::remote::MAX_LINE));
    client.send_line(&huge);
    let (response, _) = client.read().expect("an answer");
    assert_eq!(error_code(&response), -32700, "an overlong line is refused: {response}");

    let mut client = game.attach();
    assert_eq!(eval_values(&mut client, "'still here'"), json!(["\"still here\""]));
}

#[test]
fn lua_eval_returns_values_and_printed_output_and_errors_as_errors() {
    let game = served();
    let mut client = game.attach();
    let result = eval(&mut client, "print('hello', 1) Gui.mes('a message') return 1 + 1, 'x'");
    assert_eq!(result["values"], json!(["2", "\"x\""]));
    assert_eq!(result["output"], json!(["hello\t1", "a message"]));

    let response = client.call("lua.eval", json!({ "code": "print('before') error('boom')" }));
    assert_eq!(error_code(&response), 1010);
    assert!(response["error"]["message"].as_str().unwrap().contains("boom"), "{response}");
    assert_eq!(response["error"]["data"]["output"], json!(["before"]));
}

#[test]
fn object_get_shows_base_temp_calc_and_where_the_temp_value_came_from() {
    let game = served();
    let mut client = game.attach();
    let player = client.result("game.state", json!({}))["player"].as_u64().expect("a player");
    eval(&mut client, "Chara.player():mod('max_hp', 5, 'add')");
    let object = client.result("object.get", json!({ "uid": player }));
    assert_eq!(object["uid"], player);
    let row = object["fields"].as_array().unwrap().iter().find(|f| f["name"] == "max_hp").expect("a max_hp row");
    let base = row["base"].as_i64().expect("a base value");
    assert_eq!(row["temp"]["value"], json!(base + 5), "{row}");
    assert_eq!(row["calc"], json!(base + 5));
    let source = &row["temp"]["sources"][0];
    assert_eq!((source["method"].as_str(), source["value"].as_i64()), (Some("add"), Some(5)), "{source}");
    assert!(source["file"].is_string() && source["line"].is_u64(), "the provenance names a place: {source}");

    let response = client.call("object.get", json!({ "uid": 999_999_999 }));
    assert_eq!(error_code(&response), 1011, "{response}");
}

#[test]
fn set_base_and_set_temp_are_edits_that_undo_and_redo() {
    let game = served();
    let mut client = game.attach();
    let player = client.result("game.state", json!({}))["player"].clone();
    let calc = |client: &mut Client| {
        let object = client.result("object.get", json!({ "uid": player }));
        object["fields"].as_array().unwrap().iter().find(|f| f["name"] == "max_hp").unwrap()["calc"].clone()
    };
    let before = calc(&mut client);
    let history = client.result("object.set_base", json!({ "uid": player, "field": "max_hp", "value": 77 }));
    assert!(history["done"].as_u64().unwrap() >= 1, "{history}");
    assert_eq!(calc(&mut client), json!(77));
    client.result("object.set_temp", json!({ "uid": player, "field": "max_hp", "value": 3, "method": "add" }));
    assert_eq!(calc(&mut client), json!(80));
    client.result("history.undo", json!({}));
    assert_eq!(calc(&mut client), json!(77));
    client.result("history.undo", json!({}));
    assert_eq!(calc(&mut client), before, "undo puts the value back");
    client.result("history.redo", json!({}));
    assert_eq!(calc(&mut client), json!(77));

    let response =
        client.call("object.set_temp", json!({ "uid": player, "field": "max_hp", "value": 1, "method": "times" }));
    assert_eq!(error_code(&response), -32602);
}

#[test]
fn locations_list_the_maps_and_what_stands_on_them() {
    let game = served();
    let mut client = game.attach();
    let player = client.result("game.state", json!({}))["player"].clone();
    let locations = client.result("locations.list", json!({}));
    let town = locations["maps"].as_array().unwrap().iter().find(|m| m["name"] == "town").expect("the town");
    assert_eq!(town["current"], true);
    assert!(town["objects"].as_array().unwrap().iter().any(|o| o["uid"] == player), "{town}");
}

/// `map.tiles` (added as the registry's test: one function, one line): the current map's
/// palette and rows agree with what Lua reads of the same cells.
#[test]
fn map_tiles_gives_the_current_maps_palette_and_rows() {
    let game = served();
    let mut client = game.attach();
    let tiles = client.result("map.tiles", json!({}));
    assert_eq!(
        (tiles["name"].clone(), tiles["width"].clone(), tiles["height"].clone()),
        (json!("town"), json!(32), json!(20))
    );
    let rows = tiles["rows"].as_array().expect("rows");
    assert_eq!(rows.len(), 20);
    assert!(rows.iter().all(|row| row.as_array().is_some_and(|cells| cells.len() == 32)));
    let palette = tiles["palette"].as_array().expect("a palette");
    let at = |x: usize, y: usize| {
        let index = rows[y][x].as_u64().and_then(|i| usize::try_from(i).ok()).expect("an index");
        palette[index].as_str().expect("a tile id").to_owned()
    };
    for (x, y) in [(0, 0), (16, 10), (31, 19), (5, 7)] {
        let lua = eval(&mut client, &format!("return Map.current():tile({x}, {y})"))["values"][0].clone();
        assert_eq!(json!(format!("\"{}\"", at(x, y))), lua, "cell ({x}, {y})");
    }
    let described = client.result("rpc.discover", json!({}));
    assert!(described["methods"].as_array().unwrap().iter().any(|m| m["name"] == "map.tiles"), "listed too");
}

#[test]
fn game_input_moves_the_player_and_a_turn_passes() {
    let game = served();
    let mut client = game.attach();
    let before = client.result("game.state", json!({}));
    assert_eq!(before["player_at"], json!([16, 10]));
    let after = client.result("game.input", json!({ "key": "up" }));
    assert_eq!(after["player_at"], json!([16, 9]), "{after}");
    assert!(after["turn"].as_u64() > before["turn"].as_u64(), "{after}");
}

#[test]
fn frames_come_whole_first_then_as_small_deltas() {
    let game = served();
    let mut client = game.attach();
    assert_eq!(client.result("frame.subscribe", json!({})), Json::Null);
    let frames = |client: &mut Client| {
        // Frames sent before this answer are those of what came before it.
        client.result("game.state", json!({}));
        std::mem::take(&mut client.notifications)
    };
    let first = frames(&mut client);
    let (frame, _) = first.first().expect("the first frame follows the subscription");
    assert_eq!(frame["method"], "frame");
    let frame = &frame["params"];
    assert_eq!(frame["map"]["name"], "town");
    let grid = &frame["map"]["chunk_grid"];
    let chunks = grid[0].as_u64().unwrap() * grid[1].as_u64().unwrap();
    assert_eq!(frame["chunks"].as_array().unwrap().len() as u64, chunks, "every chunk the first time");
    assert!(frame["chunks"][0]["tiles"].is_array() && frame["tile_styles"].is_array());

    // Nothing on the map changes: at most the state is sent again.
    eval(&mut client, "1");
    let quiet: usize = frames(&mut client).iter().map(|(_, bytes)| bytes).sum();
    assert!(quiet <= 1024, "{quiet} bytes for a frame where nothing changed");

    // The player walks (and the town's people with it): only the chunks that changed.
    client.result("game.input", json!({ "key": "up" }));
    let walked = frames(&mut client);
    let bytes: usize = walked.iter().map(|(_, bytes)| bytes).sum();
    assert!(!walked.is_empty() && bytes <= 20 * 1024, "{bytes} bytes for a turn");
    for (frame, _) in &walked {
        assert!(frame["params"].get("map").is_none() && frame["params"].get("tile_styles").is_none());
        for chunk in frame["params"]["chunks"].as_array().into_iter().flatten() {
            assert!(chunk.get("tiles").is_none(), "the tiles did not change: {chunk}");
        }
    }
    let status = walked.iter().rev().find_map(|(f, _)| f["params"].get("status")).expect("the state changed");
    assert_eq!(status["player_at"], json!([16, 9]));
}

#[test]
fn a_pause_outlives_the_client_that_made_it_and_the_next_one_continues() {
    let game = served();
    let mut first = game.attach();
    let paused = eval(&mut first, "local x = 41\npause()\nreturn x + 1");
    assert_eq!(paused["paused"]["line"], 2, "{paused}");
    let variables = paused["paused"]["variables"].as_array().unwrap();
    assert!(variables.iter().any(|v| v["name"] == "x" && v["value"] == "41"), "{paused}");
    drop(first);

    let mut second = game.attach();
    let state = second.result("game.state", json!({}));
    assert_eq!(state["state"], "paused", "still paused for the next client: {state}");
    assert_eq!(eval_values(&mut second, "x"), json!(["41"]), "code runs among the paused locals");
    eval(&mut second, "x = 1");
    let continued = second.result("debug.continue", json!({}));
    assert_eq!(continued["values"], json!(["2"]), "the paused evaluation's answer: {continued}");
    assert!(second.result("game.state", json!({}))["pause"].is_null());
    assert_eq!(error_code(&second.call("debug.continue", json!({}))), 1011, "nothing is paused now");
}

#[test]
fn set_base_of_a_reserved_field_is_refused_in_opennefias_words_and_x_or_y_moves_the_object() {
    let game = served();
    let mut client = game.attach();
    let player = client.result("game.state", json!({}))["player"].clone();
    for (field, advice) in [("uid", "clone()"), ("location", "take_object"), ("_id", "change_prototype")] {
        let response = client.call("object.set_base", json!({ "uid": player, "field": field, "value": 5 }));
        assert_eq!(error_code(&response), 1011, "{response}");
        let message = response["error"]["message"].as_str().unwrap_or_default();
        assert!(message.ends_with(&format!("'{field}' is a reserved field name on map objects.")), "{message}");
        assert!(message.contains(advice), "{message}");
        let response = client.call("object.set_temp", json!({ "uid": player, "field": field, "value": 5 }));
        assert_eq!(error_code(&response), 1011, "a temp value of {field} is refused too: {response}");
    }
    let labels = client.call("history.undo", json!({}));
    assert_eq!(error_code(&labels), 1011, "nothing refused reached the undo history: {labels}");
    assert_eq!(eval_values(&mut client, "Chara.player().uid"), json!([player.to_string()]));
    // Lua's assignments refuse them in the same words: `mod_base` and `reset` as `obj.uid = 5`.
    for code in ["Chara.player().uid = 5", "Chara.player():mod_base('uid', 5)", "Chara.player():reset('uid', 5)"] {
        let response = client.call("lua.eval", json!({ "code": code }));
        let message = response["error"]["message"].as_str().unwrap_or_default();
        assert!(message.ends_with("'uid' is a reserved field name on map objects."), "{code}: {response}");
    }

    // A position is a move, kept in the map's position index, and undone like any edit.
    let history = client.result("object.set_base", json!({ "uid": player, "field": "x", "value": 18 }));
    assert_eq!(history["done"], 1, "{history}");
    assert!(history["labels"][0].as_str().is_some_and(|l| l.starts_with("Set x = 18 on")), "{history}");
    assert_eq!(client.result("game.state", json!({}))["player_at"], json!([18, 10]));
    let found = "return Chara.at(18, 10) == Chara.player(), Chara.at(16, 10) == nil";
    assert_eq!(eval_values(&mut client, found), json!(["true", "true"]), "the position index moved with it");
    client.result("object.set_base", json!({ "uid": player, "field": "y", "value": 11 }));
    assert_eq!(client.result("game.state", json!({}))["player_at"], json!([18, 11]));
    client.result("history.undo", json!({}));
    client.result("history.undo", json!({}));
    assert_eq!(client.result("game.state", json!({}))["player_at"], json!([16, 10]), "undone");
    let object = client.result("object.get", json!({ "uid": player }));
    assert!(object["fields"].as_array().unwrap().iter().all(|f| f["name"] != "x" && f["name"] != "y"), "{object}");

    for (value, why) in [(json!(1000), "outside"), (json!("far"), "a whole number"), (json!(null), "whole")] {
        let response = client.call("object.set_base", json!({ "uid": player, "field": "x", "value": value }));
        assert_eq!(error_code(&response), 1011, "{response}");
        let message = response["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(why), "x = {value}: {message}");
    }
    let response = client.call("object.set_temp", json!({ "uid": player, "field": "x", "value": 3 }));
    assert!(response["error"]["message"].as_str().is_some_and(|m| m.contains("set_pos")), "{response}");
    assert_eq!(client.result("game.state", json!({}))["player_at"], json!([16, 10]), "nothing refused moved it");
}

#[test]
fn game_input_of_an_unknown_key_is_invalid_params_naming_it_and_the_keys_there_are() {
    let game = served();
    let mut client = game.attach();
    let before = client.result("game.state", json!({}));
    let response = client.call("game.input", json!({ "key": "florp" }));
    assert_eq!(error_code(&response), -32602, "{response}");
    let message = response["error"]["message"].as_str().unwrap_or_default();
    for named in ["'florp'", "up", "escape", "enter", "f35", "ctrl+"] {
        assert!(message.contains(named), "the message names {named}: {message}");
    }
    for key in ["Up", "ctrl+", "shift+ctrl+s", "f36", ""] {
        let response = client.call("game.input", json!({ "key": key }));
        assert_eq!(error_code(&response), -32602, "'{key}' is no key: {response}");
    }
    assert_eq!(client.result("game.state", json!({}))["turn"], before["turn"], "no turn passed");
    for key in ["shift+f5", "7", "escape", "up"] {
        let result = client.result("game.input", json!({ "key": key }));
        assert!(result.get("refused").is_some(), "{key} is taken: {result}");
    }
}

#[test]
fn a_deeply_nested_line_is_answered_with_a_parse_error_before_the_connection_closes() {
    let game = served();
    for depth in [129, 100_000, 400_000] {
        let mut client = game.attach();
        client.send_line(&format!("{}{}", "[".repeat(depth), "]".repeat(depth)));
        let (response, _) = client.read().unwrap_or_else(|| panic!("an answer to {depth} nested arrays"));
        assert_eq!(error_code(&response), -32700, "{response}");
        let message = response["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains("deeper than 100 levels"), "the answer names the limit: {response}");
        assert!(client.closed());
    }
    let mut client = game.attach();
    let nested = format!("{{\"code\": {}1{}}}", "[".repeat(100_000), "]".repeat(100_000));
    client.send_line(&format!("{{\"jsonrpc\": \"2.0\", \"id\": 7, \"method\": \"lua.eval\", \"params\": {nested}}}"));
    let (response, _) = client.read().expect("an answer to nested params");
    assert_eq!(error_code(&response), -32700, "{response}");
    assert_eq!(eval_values(&mut game.attach(), "'still here'"), json!(["\"still here\""]));
}

#[test]
fn content_is_read_and_edited_over_the_protocol_with_field_schemas() {
    let copy = nefia_tests::DemoCopy::new();
    let game = nefia_tests::remote::serving(nefia_tests::host::spawn_editing(&copy.project()));
    let mut client = game.attach();
    let types = client.result("data.types", json!({}));
    let chara = types.as_array().unwrap().iter().find(|t| t["id"] == "base.chara").expect("base.chara").clone();
    let max_hp = chara["fields"].as_array().unwrap().iter().find(|f| f["name"] == "max_hp").unwrap().clone();
    assert_eq!(max_hp["type"], json!({ "kind": "number", "integer": true, "min": 0.0, "max": null }), "{max_hp}");
    let ids = client.result("data.list", json!({ "type": "base.chara" }));
    assert!(ids.as_array().unwrap().contains(&json!("elona.putit")), "{ids}");
    let putit = client.result("data.get", json!({ "type": "base.chara", "id": "elona.putit" }));
    assert!(putit["origin"].as_str().unwrap().contains("charas.lua"), "{putit}");
    let field =
        |proto: &Json, name: &str| proto["fields"].as_array().unwrap().iter().find(|f| f["name"] == name).cloned();
    assert_eq!(field(&putit, "max_hp").unwrap()["value"], 6);

    let refused =
        client.call("data.set_field", json!({ "type": "base.chara", "id": "elona.putit", "field": "hp", "value": {} }));
    assert!(refused["error"]["message"].as_str().unwrap().contains("Value is not of type"), "{refused}");
    let history = client
        .result("data.set_field", json!({ "type": "base.chara", "id": "elona.putit", "field": "max_hp", "value": 8 }));
    assert!(history["labels"].to_string().contains("Set elona.putit.max_hp = 8"), "{history}");
    let text = std::fs::read_to_string(copy.mod_file("elona/content/charas.lua")).unwrap();
    assert!(text.contains("max_hp = 8,"), "written back to the source");
    let putit = client.result("data.get", json!({ "type": "base.chara", "id": "elona.putit" }));
    assert_eq!(field(&putit, "max_hp").unwrap()["value"], 8);
    let unknown = client.call("data.list", json!({ "type": "base.nope" }));
    assert_eq!(error_code(&unknown), -32602);
}

#[test]
fn prototypes_are_duplicated_made_deleted_and_looked_up_over_the_protocol() {
    let copy = nefia_tests::DemoCopy::new();
    let game = nefia_tests::remote::serving(nefia_tests::host::spawn_editing(&copy.project()));
    let mut client = game.attach();
    let putit = json!({ "type": "base.chara", "id": "elona.putit" });
    let used = client.result("data.where_used", putit.clone());
    let literal = used.as_array().unwrap().iter().find(|u| u["kind"] == "literal").expect("a Lua string").clone();
    assert_eq!(literal["at"], "mods/elona/content/generators.lua:25", "{literal}");
    assert!(literal["text"].as_str().unwrap().starts_with("a string at "), "{literal}");
    let refused = client.call("data.delete", putit);
    assert!(refused["error"]["message"].as_str().unwrap().contains("it is used by"), "{refused}");

    let history = client
        .result("data.duplicate", json!({ "type": "base.chara", "id": "elona.putit", "new_id": "elona.big_putit" }));
    assert!(history["labels"].to_string().contains("Duplicate elona.putit as elona.big_putit"), "{history}");
    let made = json!({ "type": "base.chara", "new_id": "elona.hero", "file": "mods/elona/content/charas.lua" });
    client.result("data.new", made);
    let ids = client.result("data.list", json!({ "type": "base.chara" }));
    assert!(ids.as_array().unwrap().contains(&json!("elona.hero")), "{ids}");
    assert_eq!(client.result("data.where_used", json!({ "type": "base.chara", "id": "elona.hero" })), json!([]));
    let history = client.result("data.delete", json!({ "type": "base.chara", "id": "elona.hero" }));
    assert!(history["labels"].to_string().contains("Delete elona.hero"), "{history}");
    let text = std::fs::read_to_string(copy.mod_file("elona/content/charas.lua")).unwrap();
    assert!(text.contains("_id = \"big_putit\"") && !text.contains("_id = \"hero\""), "{text}");
}

#[test]
fn an_unknown_prototype_or_data_type_is_invalid_params_naming_it() {
    let copy = nefia_tests::DemoCopy::new();
    let game = nefia_tests::remote::serving(nefia_tests::host::spawn_editing(&copy.project()));
    let mut client = game.attach();
    let file = "mods/elona/content/charas.lua";
    let asked = [
        (
            "data.set_field",
            json!({ "type": "base.chara", "id": "elona.nope", "field": "max_hp", "value": 3 }),
            "'elona.nope'",
        ),
        (
            "data.set_field",
            json!({ "type": "base.nope", "id": "elona.putit", "field": "max_hp", "value": 3 }),
            "'base.nope'",
        ),
        ("data.duplicate", json!({ "type": "base.chara", "id": "elona.nope", "new_id": "elona.copy" }), "'elona.nope'"),
        ("data.delete", json!({ "type": "base.chara", "id": "elona.nope" }), "'elona.nope'"),
        ("data.where_used", json!({ "type": "base.chara", "id": "elona.nope" }), "'elona.nope'"),
        ("data.get", json!({ "type": "base.chara", "id": "elona.nope" }), "'elona.nope'"),
        ("data.new", json!({ "type": "base.nope", "new_id": "elona.copy", "file": file }), "'base.nope'"),
    ];
    for (method, params, named) in asked {
        let response = client.call(method, params.clone());
        assert_eq!(error_code(&response), -32602, "{method} {params}: {response}");
        let message = response["error"]["message"].as_str().unwrap_or_default();
        assert!(message.contains(named), "{method}: the message names {named}: {message}");
    }
    let ids = client.result("data.list", json!({ "type": "base.chara" }));
    assert!(!ids.as_array().unwrap().contains(&json!("elona.copy")), "nothing was made: {ids}");
}

#[test]
fn names_and_strings_past_their_caps_are_refused_before_any_label_carries_them() {
    let game = served();
    let mut client = game.attach();
    let player = client.result("game.state", json!({}))["player"].clone();
    // Under the line's 1 MiB: the request is read, and its name refused.
    let huge = "x".repeat(1_000_000);
    let long_name = "n".repeat(257);
    let asked = [
        ("object.set_base", json!({ "uid": player, "field": "name", "value": huge }), "4096"),
        ("object.set_base", json!({ "uid": player, "field": long_name, "value": 1 }), "256"),
        ("object.set_temp", json!({ "uid": player, "field": "fov", "value": { long_name.clone(): 1 } }), "256"),
        ("data.set_field", json!({ "type": "base.chara", "id": huge, "field": "max_hp", "value": 3 }), "256"),
        ("data.get", json!({ "type": long_name, "id": "elona.putit" }), "256"),
    ];
    for (method, params, cap) in asked {
        let response = client.call(method, params);
        assert_eq!(error_code(&response), -32602, "{method}: {}", &response.to_string()[..200]);
        let message = response["error"]["message"].as_str().unwrap_or_default();
        assert!(message.len() < 400 && message.contains(cap), "{method}: the message names the cap: {message}");
    }
    // A name within the cap is written, and the history's labels stay short.
    let history = client.result("object.set_base", json!({ "uid": player, "field": "name", "value": "Ada" }));
    let labels = history["labels"].to_string();
    assert!(labels.contains("Ada") && labels.len() < 400, "{labels}");
    let history =
        client.result("object.set_base", json!({ "uid": player, "field": "name", "value": "y".repeat(4096) }));
    let labels = history["labels"].to_string();
    assert!(labels.contains("yyy…") && labels.len() < 600, "4096 bytes are taken, and shown cut: {labels}");
}
