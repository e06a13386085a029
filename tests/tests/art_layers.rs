//! A map's art layers through the editing host as the editor drives it: added, painted and
//! erased with undo, drawn in the map view (untouched chunks shared), saved in the map file
//! and read back, and a broken layer in a file refused naming the file and line.

use nefia_game::edit::Edit;
use nefia_game::map::{ArtLayerEdit, MapId};
use nefia_game::save::{LayerPlace, MapRecord};
use nefia_host::HostHandle;
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::maps::MapCommand;
use nefia_protocol::message::Command;
use nefia_protocol::view::{MapView, NO_TILE};
use nefia_tests::DemoCopy;
use nefia_tests::host::{eval, spawn_editing, wait_for};

fn edit(host: &HostHandle, edit: Edit) {
    host.send(Command::Editing(EditingCommand::Edit(edit)));
}

/// Waits until the history's last label is `label`, returning the map view then.
fn labelled(host: &HostHandle, label: &str) -> std::sync::Arc<MapView> {
    let seen = wait_for(host, |s| s.editing.history.labels.last().is_some_and(|l| l == label));
    seen.map.clone().expect("a current map")
}

/// The art tile's id at (x, y) of layer `layer` of `view`.
fn art_at(view: &MapView, layer: usize, x: i32, y: i32) -> Option<&'static str> {
    let chunk = view.chunk_at(x, y)?;
    let (w, _) = view.chunk_size(chunk.cx, chunk.cy);
    let index = chunk.art.get(layer)?.tiles[((y % 16) * w + x % 16) as usize];
    (index != NO_TILE).then(|| view.tile_styles[usize::from(index)].id.as_str())
}

/// The sprite the cell (x, y) of layer `layer` of `view` picks of its tile's art.
fn art_pick(view: &MapView, layer: usize, x: i32, y: i32) -> u16 {
    let chunk = view.chunk_at(x, y).expect("on the map");
    let (w, _) = view.chunk_size(chunk.cx, chunk.cy);
    chunk.art[layer].picks.as_ref().map_or(0, |picks| picks[((y % 16) * w + x % 16) as usize])
}

fn save_town(host: &HostHandle, copy: &DemoCopy) -> (String, MapRecord) {
    wait_for(host, |s| s.maps.files.iter().any(|m| m.name == "town" && m.dirty));
    host.send(Command::Maps(MapCommand::Save(Some("town".into()))));
    wait_for(host, |s| s.maps.files.iter().any(|m| m.name == "town" && !m.dirty));
    let path = copy.project().join("maps/town.ron");
    nefia_game::files::read_ron_text(&path).map(|(record, text)| (text, record)).expect("the saved town")
}

#[test]
fn an_art_layer_is_painted_drawn_saved_and_undone_leaving_the_tiles() {
    let copy = DemoCopy::new();
    let host = spawn_editing(&copy.project());
    let map = host.snapshot().map.as_ref().map(|m| m.id).unwrap_or(MapId(1));
    let tiles_before = host.snapshot().map.clone().unwrap();
    let add = ArtLayerEdit::Add { name: "roofs".into(), place: LayerPlace::Above };
    edit(&host, Edit::ArtLayer { map, edit: add });
    labelled(&host, "Add art layer 'roofs' to map 'town'");
    let paint =
        |cells, tile: Option<&str>| Edit::PaintArt { map, layer: "roofs".into(), cells, tile: tile.map(str::to_owned) };
    edit(&host, paint(vec![(2, 2), (3, 2)], Some("elona.wall_stone")));
    let painted = labelled(&host, "Paint 2 cells of art layer 'roofs' with elona.wall_stone");
    assert_eq!(painted.art_layers.len(), 1);
    assert_eq!(painted.art_layers[0].place, LayerPlace::Above);
    assert_eq!(art_at(&painted, 0, 2, 2), Some("elona.wall_stone"));
    assert_eq!(art_at(&painted, 0, 4, 2), None, "a cell not painted is empty");
    // The stone wall is a blob set: each of the two picks the piece joining the other, on
    // the layer (the game's tiles around them are not walls of the layer).
    let blob = nefia_game::art::pick::blob47_piece;
    assert_eq!((art_pick(&painted, 0, 2, 2), art_pick(&painted, 0, 3, 2)), (blob(0b0000_0100), blob(0b0100_0000)));
    for (x, y) in [(2, 2), (3, 2)] {
        assert_eq!(painted.tile_at(x, y).map(|t| t.id), tiles_before.tile_at(x, y).map(|t| t.id), "the game's tile");
    }

    // A cell painted far away draws again its own chunk only.
    edit(&host, paint(vec![(20, 18)], Some("elona.water")));
    let far = labelled(&host, "Paint 1 cell of art layer 'roofs' with elona.water");
    assert!(far.chunks.len() > 1);
    let shared = |i: usize| std::sync::Arc::ptr_eq(&painted.chunks[i].art[0].tiles, &far.chunks[i].art[0].tiles);
    assert!(shared(0), "the untouched chunk's cells are shared");
    let touched = far.chunk_at(20, 18).map(|c| (c.cy * far.chunk_grid.0 + c.cx) as usize).unwrap();
    assert!(!shared(touched), "the painted chunk is drawn again");

    let (text, record) = save_town(&host, &copy);
    let layer = &record.art_layers[0];
    assert_eq!((layer.name.as_str(), layer.place), ("roofs", LayerPlace::Above), "{text}");
    let wall = layer.palette.iter().find(|(_, t)| t.as_str() == "elona.wall_stone").map(|(c, _)| c.clone()).unwrap();
    assert_eq!(&layer.tiles[2][..4], format!("  {wall}{wall}"), "{text}");
    assert_eq!(
        record.tiles,
        nefia_game::files::read_ron::<MapRecord>(&nefia_tests::repo_root().join("projects/demo/maps/town.ron"))
            .unwrap()
            .tiles,
        "the game's tiles are as they were"
    );

    // Erased and undone: the history walks back to the saved state.
    edit(&host, paint(vec![(2, 2)], None));
    labelled(&host, "Erase 1 cell of art layer 'roofs'");
    host.send(Command::Editing(EditingCommand::Undo));
    wait_for(&host, |s| s.maps.files.iter().any(|m| m.name == "town" && !m.dirty));
    for _ in 0..3 {
        host.send(Command::Editing(EditingCommand::Undo));
    }
    let undone = wait_for(&host, |s| s.map.as_ref().is_some_and(|m| m.art_layers.is_empty()));
    assert!(undone.maps.files.iter().any(|m| m.name == "town" && m.dirty), "undone past the save, it is unsaved");
}

#[test]
fn a_broken_art_layer_in_a_map_file_is_refused_naming_the_file_and_line() {
    let copy = DemoCopy::new();
    let host = spawn_editing(&copy.project());
    let town = std::fs::read_to_string(copy.project().join("maps/town.ron")).unwrap();
    let rows = |cut: bool| {
        let mut rows: Vec<String> = vec![format!("\"{}x\"", " ".repeat(31)); 20];
        if cut {
            rows[1] = format!("\"{}x\"", " ".repeat(30));
        }
        rows.join(", ")
    };
    let layer = |name: &str, cut: bool| {
        format!(
            "(\n        name: \"{name}\",\n        palette: {{\"x\": \"elona.water\"}},\n        tiles: [{}],\n    )",
            rows(cut)
        )
    };
    let with = |layers: &[String]| {
        let end = town.rfind(')').unwrap();
        format!("{}    art_layers: [\n    {}\n    ],\n)", &town[..end], layers.join(",\n    "))
    };
    let cases = [
        ("cut", with(&[layer("roofs", true)]), "art layer 'roofs' row 2 has 31 characters, expected 32"),
        ("twice", with(&[layer("roofs", false), layer("roofs", false)]), "two art layers are named 'roofs'"),
    ];
    for (name, text, message) in cases {
        nefia_tests::write(copy.project().join(format!("maps/{name}.ron")), &text).unwrap();
        let refused = match eval(&host, &format!("return Map.open('{name}')")) {
            nefia_protocol::repl::Evaluation::Error(failure) => failure.message,
            other => panic!("{name}: the broken file was opened: {other:?}"),
        };
        assert!(refused.contains(message), "{name}: {refused}");
        let line = text.lines().position(|l| l.contains("roofs")).map(|l| l + 1).unwrap();
        let named = format!("{name}.ron:{}", if name == "cut" { line + 2 } else { line + 5 });
        assert!(refused.contains(&named), "{name}: the file and line {named}: {refused}");
    }
    let good = with(&[layer("roofs", false)]);
    nefia_tests::write(copy.project().join("maps/good.ron"), &good).unwrap();
    let opened = eval(&host, "Map.set_map(Map.open('good')) return true");
    assert!(matches!(opened, nefia_protocol::repl::Evaluation::Values(_)), "{opened:?}");
    let shown = wait_for(&host, |s| s.map.as_ref().is_some_and(|m| m.name == "good"));
    let view = shown.map.clone().unwrap();
    assert_eq!(view.art_layers.len(), 1, "read from its file");
    assert_eq!(art_at(&view, 0, 31, 19), Some("elona.water"));
    assert_eq!(art_at(&view, 0, 30, 19), None);
}

#[test]
fn a_resize_moves_the_art_layers_with_the_tiles_and_undo_puts_them_back() {
    let copy = DemoCopy::new();
    let host = spawn_editing(&copy.project());
    let map = host.snapshot().map.as_ref().map(|m| m.id).unwrap_or(MapId(1));
    edit(&host, Edit::ArtLayer { map, edit: ArtLayerEdit::Add { name: "rugs".into(), place: LayerPlace::Below } });
    let tile = Some("elona.water".to_owned());
    edit(&host, Edit::PaintArt { map, layer: "rugs".into(), cells: vec![(2, 2)], tile });
    labelled(&host, "Paint 1 cell of art layer 'rugs' with elona.water");
    let resize = Edit::Resize { map, width: 34, height: 22, anchor: (1, 1), tile: "elona.grass".into() };
    edit(&host, resize);
    let grown = labelled(&host, "Resize map 'town' from 32x20 to 34x22");
    assert_eq!(art_at(&grown, 0, 3, 3), Some("elona.water"), "the painted cell moved with the tiles");
    assert_eq!(art_at(&grown, 0, 2, 2), None);
    host.send(Command::Editing(EditingCommand::Undo));
    let back = wait_for(&host, |s| s.map.as_ref().is_some_and(|m| m.width == 32));
    assert_eq!(art_at(back.map.as_ref().unwrap(), 0, 2, 2), Some("elona.water"), "undone, where it was");
}
