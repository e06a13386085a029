//! Auto-tiling in the editor: a map baked with its rules keeps them in its file, painting its
//! intent repaints the rules around the stroke, undo puts back both layers, and each cell
//! says why it has its tile (in the snapshot and over the remote protocol).

use nefia_game::autotile::Explanation;
use nefia_game::edit::Edit;
use nefia_game::map::MapId;
use nefia_game::save::MapRecord;
use nefia_game::symbol::Symbol;
use nefia_game::value::Value;
use nefia_host::HostHandle;
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::maps::MapCommand;
use nefia_protocol::message::Command;
use nefia_protocol::workbench::WorkbenchCommand;
use nefia_tests::DemoCopy;
use nefia_tests::host::{spawn_editing, wait_for};
use serde_json::json;

/// The map file `name` of the copy, read.
fn map_file(copy: &DemoCopy, name: &str) -> (String, MapRecord) {
    let path = copy.project().join(format!("maps/{name}.ron"));
    nefia_game::files::read_ron_text(&path).map(|(record, text)| (text, record)).expect("a map record")
}

/// The tile id of (x, y) in rows of codes of `code_width` characters.
fn cell(rows: &[String], palette: &std::collections::BTreeMap<String, Symbol>, x: usize, y: usize) -> Option<String> {
    let width = palette.keys().next().map_or(1, |c| c.chars().count());
    let code: String = rows[y].chars().skip(x * width).take(width).collect();
    palette.get(&code).map(|t| t.to_string())
}

/// The number Lua code `code` returns, run in the REPL.
fn count(host: &HostHandle, code: &str) -> usize {
    match nefia_tests::host::eval(host, code) {
        nefia_protocol::repl::Evaluation::Values(values) => values[0].parse::<usize>().expect("a number"),
        other => panic!("{code}: {other:?}"),
    }
}

/// Lua that counts the fountains on the current map.
const FOUNTAINS: &str =
    "local n = 0 for _, o in Map.current():iter() do if o._id == 'elona.fountain' then n = n + 1 end end return n";

/// Saves map `name` and waits until it is written.
fn save(host: &HostHandle, name: &str) {
    wait_for(host, |s| s.maps.files.iter().any(|m| m.name == name && m.dirty));
    host.send(Command::Maps(MapCommand::Save(Some(name.into()))));
    wait_for(host, |s| s.maps.files.iter().any(|m| m.name == name && !m.dirty));
}

#[test]
fn painting_the_intent_repaints_the_rules_around_it_and_undo_puts_back_both() {
    let copy = DemoCopy::new();
    let host = spawn_editing(&copy.project());
    host.send(Command::Workbench(WorkbenchCommand::Preview {
        generator: "elona.cave".into(),
        params: Value::Nil,
        seed: 5,
    }));
    wait_for(&host, |s| s.preview.is_some());
    host.send(Command::Workbench(WorkbenchCommand::Bake("grotto".into())));
    let baked = wait_for(&host, |s| s.maps.files.iter().any(|m| m.name == "grotto" && m.map.is_some()));
    let map = baked.maps.files.iter().find(|m| m.name == "grotto").and_then(|m| m.map).unwrap();
    let (first, record) = map_file(&copy, "grotto");
    let layer = record.autotile.as_ref().expect("the baked map keeps its rules");
    assert_eq!(layer.rule_set.map(|s| s.as_str()), Some("elona.cave_detail"));
    assert_eq!(layer.intent.len(), record.height as usize, "{first}");

    // An open cell with open ground above and below: a wall painted there shows its face.
    let floor =
        |x: usize, y: usize| cell(&layer.intent, &layer.palette, x, y).is_some_and(|t| t.starts_with("elona.floor"));
    let (width, height) = (record.width as usize, record.height as usize);
    let (x, y) = (2..height - 2)
        .flat_map(|y| (1..width - 1).map(move |x| (x, y)))
        .find(|&(x, y)| floor(x, y - 1) && floor(x, y) && floor(x, y + 1) && floor(x, y + 2))
        .expect("open ground in the cave");
    host.send(Command::Editing(EditingCommand::Edit(Edit::PaintTiles {
        map,
        cells: vec![(x as i32, y as i32)],
        tile: "elona.wall_stone".into(),
    })));
    let painted = wait_for(&host, |s| s.editing.history.labels.iter().any(|l| l.contains("(rules elona.cave_detail)")));
    let label = painted.editing.history.labels.last().cloned().unwrap_or_default();
    assert_eq!(label, "Paint 1 cell with elona.wall_stone (rules elona.cave_detail)");
    save(&host, "grotto");
    let (_, after) = map_file(&copy, "grotto");
    let kept = after.autotile.as_ref().unwrap();
    assert_eq!(cell(&kept.intent, &kept.palette, x, y).as_deref(), Some("elona.wall_stone"), "the intent painted");
    assert_eq!(cell(&after.tiles, &after.palette, x, y).as_deref(), Some("elona.wall_face"), "the rules' tile shows");

    // The cell says why, in the snapshot and over the protocol alike.
    host.send(Command::Editing(EditingCommand::InspectCell(Some((map, x as i32, y as i32)))));
    let seen = wait_for(&host, |s| s.editing.cell.is_some());
    let why = seen.editing.cell.as_ref().unwrap().explained.clone().expect("an explanation");
    let winner = why.winner.as_ref().expect("a rule placed it");
    assert_eq!(winner.name, "wall face");
    assert!(winner.cells.iter().all(|c| c.matched), "every cell of the winner's pattern matched: {winner:?}");
    assert!(winner.cells.iter().any(|c| (c.dx, c.dy, c.wants.as_str()) == (0, 1, "tag:floor")));
    assert!(why.declared_at.as_ref().is_some_and(|o| o.file.as_str().ends_with("content/map.lua")), "{why:?}");

    let served = nefia_tests::remote::serving(host);
    let mut client = served.attach();
    let answer = client.result("map.explain_cell", json!({ "map": map.0, "x": x, "y": y }));
    let remote: Explanation = serde_json::from_value(answer).expect("an explanation");
    assert_eq!(remote, why, "the protocol gives the Inspector's answer");
    let outside = client.call("map.explain_cell", json!({ "map": map.0, "x": -1, "y": 0 }));
    assert_eq!(outside["error"]["code"], -32602, "{outside}");
    let town = client.call("map.explain_cell", json!({ "map": 1, "x": 0, "y": 0 }));
    let message = town["error"]["message"].as_str().unwrap_or_default();
    assert!(message.contains("has no auto-tiling rules laid on it"), "{town}");

    // Undo puts back the intent and the tiles: the file is as baked.
    let host = &served.host;
    host.send(Command::Editing(EditingCommand::Undo));
    save(host, "grotto");
    assert_eq!(map_file(&copy, "grotto").0, first, "undone, the map is as baked");
}

#[test]
fn a_map_files_intent_is_checked_and_named() {
    let copy = DemoCopy::new();
    let host = spawn_editing(&copy.project());
    let town = host.snapshot().map.as_ref().map(|m| m.id).unwrap_or(MapId(1));
    let eval = nefia_tests::host::eval(
        &host,
        "local map = Map.current() map:apply_autotile('elona.cave_detail', 7) return map.width",
    );
    assert!(matches!(eval, nefia_protocol::repl::Evaluation::Values(_)), "{eval:?}");
    save(&host, "town");
    let text = std::fs::read_to_string(copy.project().join("maps/town.ron")).unwrap();
    assert!(text.contains("autotile: (\n        rule_set: \"elona.cave_detail\",\n        seed: 7,"), "{text}");

    // A row cut short is refused, naming the field and the row, and nothing is loaded.
    let (_, record) = map_file(&copy, "town");
    let row = record.autotile.as_ref().unwrap().intent[0].clone();
    let (tiles, layer) = text.split_at(text.find("autotile:").expect("the layer"));
    let broken = format!("{tiles}{}", layer.replacen(&format!("\"{row}\""), &format!("\"{}\"", &row[1..]), 1));
    assert_ne!(broken, text);
    nefia_tests::write(copy.project().join("maps/broken.ron"), broken).unwrap();
    let refused = match nefia_tests::host::eval(&host, "return Map.open('broken')") {
        nefia_protocol::repl::Evaluation::Error(failure) => failure.message,
        other => panic!("the broken file was opened: {other:?}"),
    };
    assert!(refused.contains("autotile.intent row 1 has"), "{refused}");
    assert!(refused.contains("broken.ron:"), "the file and line: {refused}");
    assert_eq!(host.snapshot().map.as_ref().map(|m| m.id), Some(town), "the map in play stays");
}

#[test]
fn a_hotloaded_rule_repaints_the_maps_it_lies_on_and_bake_keeps_the_tiles() {
    use nefia_protocol::mods::ModCommand;
    let copy = DemoCopy::new();
    let host = spawn_editing(&copy.project());
    let eval = nefia_tests::host::eval(&host, "Map.current():apply_autotile('elona.cave_detail', 7)");
    assert!(matches!(eval, nefia_protocol::repl::Evaluation::Values(_)), "{eval:?}");
    let moss = |host: &HostHandle| {
        count(
            host,
            "local map, n = Map.current(), 0
             for y = 0, map.height - 1 do for x = 0, map.width - 1 do
               if map:tile(x, y) == 'elona.moss' then n = n + 1 end end end
             return n",
        )
    };
    let before = moss(&host);

    // Moss everywhere there is open ground: the hotload repaints the town, tinting what changed.
    let file = copy.mod_file("elona/content/map.lua");
    let text = std::fs::read_to_string(&file).unwrap();
    nefia_tests::write(&file, text.replacen("chance = 0.12,", "chance = 1,", 1)).unwrap();
    host.send(Command::Mods(ModCommand::Reload(file.clone())));
    let repainted = wait_for(&host, |s| s.mods.repainted.is_some());
    let cells = repainted.mods.repainted.as_ref().unwrap().cells.len();
    let after = moss(&host);
    assert!(after > before, "more moss: {before} → {after}");
    assert_eq!(cells, after - before, "the cells tinted are those that changed");

    // A rule that no longer reads leaves the map as it was and says why.
    nefia_tests::write(&file, text.replacen("chance = 0.12,", "chance = 7,", 1)).unwrap();
    host.send(Command::Mods(ModCommand::Reload(file.clone())));
    let mut seen = Vec::new();
    let said = nefia_tests::host::event(&host, &mut seen, |e| match e {
        nefia_protocol::message::HostEvent::Output(nefia_protocol::output::Output::Log(line))
            if line.text.contains("the rules were not applied again") =>
        {
            Some(line.text.clone())
        }
        _ => None,
    });
    assert!(said.contains("rule 1 'moss'") && said.contains("chance"), "{said}");
    assert_eq!(moss(&host), after, "the last good tiles stay");

    // Bake: the tiles stay, the rules go, and painting sets tiles again.
    let town = host.snapshot().map.as_ref().unwrap().id;
    host.send(Command::Editing(EditingCommand::Edit(Edit::BakeAutotile { map: town })));
    wait_for(&host, |s| s.editing.history.labels.iter().any(|l| l.starts_with("Bake the rules elona.cave_detail")));
    assert_eq!(moss(&host), after);
    save(&host, "town");
    let (_, record) = map_file(&copy, "town");
    assert!(record.autotile.is_none(), "baked: no rules in the file");
    assert!(record.palette.values().any(|t| t.as_str() == "elona.moss"), "the painted tiles are kept");
}

#[test]
fn a_map_keeps_its_own_rules_in_its_file_and_a_bad_one_is_named() {
    let copy = DemoCopy::new();
    let host = spawn_editing(&copy.project());
    let own = "Map.current():apply_autotile({ { name = 'shore', pattern = { '* * *', '* ~ *', '* . *' },
        legend = { ['~'] = 'elona.water', ['.'] = 'tag:floor' }, place = 'elona.rubble' } }, 3)";
    let eval = nefia_tests::host::eval(&host, own);
    assert!(matches!(eval, nefia_protocol::repl::Evaluation::Values(_)), "{eval:?}");
    save(&host, "town");
    let (text, record) = map_file(&copy, "town");
    let layer = record.autotile.as_ref().expect("the rules are kept");
    assert!(layer.rule_set.is_none() && layer.rules.is_some(), "{text}");
    assert!(text.contains("\"shore\""), "the rules are in the file: {text}");
    // Water above open ground became rubble, and says it was the map's own rule.
    let why = host.snapshot();
    let town = why.map.as_ref().unwrap().id;
    let rubble = (0..record.height as usize)
        .flat_map(|y| (0..record.width as usize).map(move |x| (x, y)))
        .find(|&(x, y)| cell(&record.tiles, &record.palette, x, y).as_deref() == Some("elona.rubble"))
        .expect("a shore");
    host.send(Command::Editing(EditingCommand::InspectCell(Some((town, rubble.0 as i32, rubble.1 as i32)))));
    let seen = wait_for(&host, |s| s.editing.cell.as_ref().is_some_and(|c| c.explained.is_ok()));
    let explained = seen.editing.cell.as_ref().unwrap().explained.clone().unwrap();
    assert_eq!(explained.rule_set, "the map's own rules");
    assert_eq!(explained.winner.map(|w| w.name).as_deref(), Some("shore"));
    assert!(explained.declared_at.is_none());

    // A misspelled tile in the file's own rules is refused on opening, naming the rule.
    let (before, rules) = text.split_at(text.find("rules:").expect("the rules"));
    let broken = format!("{before}{}", rules.replacen("\"elona.rubble\"", "\"elona.rubbel\"", 1));
    nefia_tests::write(copy.project().join("maps/shore.ron"), broken).unwrap();
    let refused = match nefia_tests::host::eval(&host, "return Map.open('shore')") {
        nefia_protocol::repl::Evaluation::Error(failure) => failure.message,
        other => panic!("the broken rules were opened: {other:?}"),
    };
    assert!(refused.contains("rule 1 'shore'") && refused.contains("elona.rubbel"), "{refused}");
    assert!(refused.contains("shore.ron:"), "{refused}");
}

/// The keys and prototype ids of the objects the rules placed on a map file's record.
fn rule_objects(record: &MapRecord) -> Vec<(String, String)> {
    let mut placed: Vec<(String, String)> = record
        .objects
        .iter()
        .filter_map(|o| o.key.clone().filter(|k| k.starts_with("rule@")).map(|k| (k, o.id.to_string())))
        .collect();
    placed.sort();
    placed
}

#[test]
fn rules_place_objects_that_a_stroke_takes_back_and_undo_returns() {
    let copy = DemoCopy::new();
    let host = spawn_editing(&copy.project());
    let own = "return Map.current():apply_autotile({ { name = 'well', pattern = { '* ~ *', '* . *', '* * *' },
        legend = { ['~'] = 'elona.water', ['.'] = 'tag:floor' }, object = { feat = 'elona.fountain' } } }, 3)";
    let eval = nefia_tests::host::eval(&host, own);
    assert!(matches!(eval, nefia_protocol::repl::Evaluation::Values(_)), "{eval:?}");
    save(&host, "town");
    let (text, record) = map_file(&copy, "town");
    let placed = rule_objects(&record);
    assert!(!placed.is_empty(), "a fountain under each shore: {text}");
    assert!(placed.iter().all(|(_, id)| id == "elona.fountain"), "{placed:?}");
    // Each is keyed by its cell, below water.
    let (key, _) = &placed[0];
    let (x, y) = key["rule@".len()..]
        .split_once(',')
        .map(|(x, y)| (x.parse::<i32>().unwrap(), y.parse::<i32>().unwrap()))
        .unwrap();
    assert_eq!(
        cell(
            &record.autotile.as_ref().unwrap().intent,
            &record.autotile.as_ref().unwrap().palette,
            x as usize,
            y as usize - 1
        )
        .as_deref(),
        Some("elona.water")
    );

    // Laid again, the rules keep the objects they placed rather than placing them twice.
    let before = count(&host, FOUNTAINS);
    let again = count(&host, &format!("{} {FOUNTAINS}", own.replace("return ", "")));
    assert_eq!(again, before, "as many fountains after laying the rules again");

    // The cell says which rule placed its object.
    let town = host.snapshot().map.as_ref().unwrap().id;
    host.send(Command::Editing(EditingCommand::InspectCell(Some((town, x, y)))));
    let seen = wait_for(&host, |s| s.editing.cell.as_ref().is_some_and(|c| c.explained.is_ok()));
    let explained = seen.editing.cell.as_ref().unwrap().explained.clone().unwrap();
    assert_eq!(explained.object.as_deref(), Some("feat elona.fountain"));
    assert_eq!(explained.object_winner.map(|w| w.name).as_deref(), Some("well"));

    // Painting the water above dry takes the fountain back; undo returns it.
    host.send(Command::Editing(EditingCommand::Edit(Edit::PaintTiles {
        map: town,
        cells: vec![(x, y - 1)],
        tile: "elona.floor_stone".into(),
    })));
    wait_for(&host, |s| s.editing.history.labels.iter().any(|l| l.starts_with("Paint 1 cell")));
    save(&host, "town");
    let dried = rule_objects(&map_file(&copy, "town").1);
    assert_eq!(dried.len(), placed.len() - 1, "{dried:?}");
    assert!(!dried.iter().any(|(k, _)| k == key), "the fountain under the dried cell is gone: {dried:?}");
    host.send(Command::Editing(EditingCommand::Undo));
    save(&host, "town");
    assert_eq!(rule_objects(&map_file(&copy, "town").1), placed, "undone, every fountain is back");
}

#[test]
fn the_map_view_carries_the_intent_and_draws_again_only_the_chunk_a_stroke_touched() {
    let copy = DemoCopy::new();
    let host = spawn_editing(&copy.project());
    let eval = nefia_tests::host::eval(&host, "return Map.current():apply_autotile('elona.cave_detail', 7)");
    assert!(matches!(eval, nefia_protocol::repl::Evaluation::Values(_)), "{eval:?}");
    let laid = wait_for(&host, |s| s.map.as_ref().is_some_and(|m| m.intent_styles.is_some()));
    let before = laid.map.clone().unwrap();
    assert!(before.chunks.len() > 1, "a map of several chunks");
    host.send(Command::Editing(EditingCommand::Edit(Edit::PaintTiles {
        map: before.id,
        cells: vec![(1, 1)],
        tile: "elona.water".into(),
    })));
    let after = wait_for(&host, |s| s.editing.history.labels.iter().any(|l| l.starts_with("Paint 1 cell")));
    let after = after.map.clone().unwrap();
    let intent = after.as_intent().expect("the intent as a map");
    assert_eq!(intent.tile_at(1, 1).map(|t| t.id.as_str()), Some("elona.water"), "drawn as meant");
    let same = |i: usize| match (&before.chunks[i].intent, &after.chunks[i].intent) {
        (Some(a), Some(b)) => std::sync::Arc::ptr_eq(a, b),
        _ => false,
    };
    assert!(!same(0), "the touched chunk's intent is drawn again");
    assert!((1..after.chunks.len()).all(same), "the others are shared as they were");
}

#[test]
fn each_rule_links_to_its_own_line_named_twice_or_not_at_all() {
    let copy = DemoCopy::new();
    let init = copy.mod_file("elona/init.lua");
    let mut text = std::fs::read_to_string(&init).expect("the mod's init");
    let first = u32::try_from(text.lines().count()).unwrap() + 1;
    text.push_str(
        "data:add {\n   _type = \"base.autotile_rule_set\",\n   _id = \"lines_test\",\n   rules = {\n      \
         { name = \"same\", pattern = { \"tag:floor\" }, place = \"elona.moss\" },\n      \
         { name = \"same\", pattern = { \"tag:floor\" }, place = \"elona.rubble\" },\n      \
         { pattern = { \"tag:floor\" }, place = \"elona.moss\" },\n   },\n}\n",
    );
    nefia_tests::write(&init, text).expect("written");
    let host = spawn_editing(&copy.project());
    let eval = nefia_tests::host::eval(&host, "return Map.current():apply_autotile('elona.lines_test', 1)");
    assert!(matches!(eval, nefia_protocol::repl::Evaluation::Values(_)), "{eval:?}");
    save(&host, "town");
    let (_, record) = map_file(&copy, "town");
    let layer = record.autotile.as_ref().unwrap();
    let floor = (0..record.height as usize)
        .flat_map(|y| (0..record.width as usize).map(move |x| (x, y)))
        .find(|&(x, y)| cell(&layer.intent, &layer.palette, x, y).is_some_and(|t| t.starts_with("elona.floor")))
        .expect("a floor");
    let town = host.snapshot().map.as_ref().unwrap().id;
    host.send(Command::Editing(EditingCommand::InspectCell(Some((town, floor.0 as i32, floor.1 as i32)))));
    let seen = wait_for(&host, |s| s.editing.cell.as_ref().is_some_and(|c| c.explained.is_ok()));
    let why = seen.editing.cell.as_ref().unwrap().explained.clone().unwrap();
    // The rules begin four lines after the `data:add`, one a line.
    assert_eq!(why.winner.as_ref().map(|w| (w.name.as_str(), w.line)), Some(("rule 3", Some(first + 6))));
    let lost: Vec<(usize, Option<u32>)> = why.lost.iter().map(|l| (l.rule, l.line)).collect();
    assert_eq!(lost, [(0, Some(first + 4)), (1, Some(first + 5))], "each 'same' at its own line");
}

#[test]
fn a_hotloaded_object_rule_places_and_tints_the_cells_it_changed() {
    use nefia_protocol::mods::ModCommand;
    let copy = DemoCopy::new();
    let init = copy.mod_file("elona/init.lua");
    let mut text = std::fs::read_to_string(&init).expect("the mod's init");
    text.push_str(
        "data:add { _type = \"base.autotile_rule_set\", _id = \"wells\", rules = {\n   \
         { name = \"well\", pattern = { \"tag:floor\" }, object = { feat = \"elona.fountain\" }, chance = 0.05 },\n} }\n",
    );
    nefia_tests::write(&init, &text).expect("written");
    let host = spawn_editing(&copy.project());
    let fountains = |host: &HostHandle| count(host, FOUNTAINS);
    let before = fountains(&host);
    let eval = nefia_tests::host::eval(&host, "return Map.current():apply_autotile('elona.wells', 4)");
    assert!(matches!(eval, nefia_protocol::repl::Evaluation::Values(_)), "{eval:?}");
    let laid = fountains(&host);
    assert!(laid > before, "the rule placed some: {before} → {laid}");

    // More wells: the hotload places them, tinting exactly the cells that got one.
    nefia_tests::write(&init, text.replacen("chance = 0.05", "chance = 0.5", 1)).expect("written");
    host.send(Command::Mods(ModCommand::Reload(init.clone())));
    let repainted = wait_for(&host, |s| s.mods.repainted.is_some());
    let tinted = repainted.mods.repainted.as_ref().unwrap().cells.len();
    let after = fountains(&host);
    assert!(after > laid, "more wells: {laid} → {after}");
    assert_eq!(tinted, after - laid, "the cells tinted are those that got a well");

    // Reloading the file again by name (as Reload mod does) changes nothing, so the tint of
    // the reload that did stays.
    host.send(Command::Mods(ModCommand::Reload(init.clone())));
    assert_eq!(fountains(&host), after, "the same rules place no more");
    let kept = host.snapshot().mods.repainted.as_ref().map(|r| r.cells.len());
    assert_eq!(kept, Some(tinted), "the tint of the reload that changed the map stays");
}
