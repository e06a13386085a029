//! Imported maps keep their art (`nefia import --new-tiles MOD`): Tiled's desert and island
//! and LDtk's top-down sample import into a copy of the demo with every tile layer kept and
//! every tile made a prototype whose image is its region of the tileset copied into the mod;
//! and `nefia export` carries objects' keys so export → import → diff says what changed.

use std::path::Path;
use std::process::Output;

use nefia_game::Symbol;
use nefia_game::save::MapRecord;

#[path = "common/cli.rs"]
mod cli;

use cli::{fixtures, nefia, repo, said};

/// Imports `source` with `--new-tiles mod_id`: the first run writes the mapping's template and
/// the tiles' contact sheet (if the source has objects), whose objects all become putits and
/// whose tiles are left "" to be made; then the import.
fn import_new_tiles(source: &Path, mod_id: &str, project: &Path) -> Output {
    let args = |source: &Path| {
        let (source, project) = (source.display().to_string(), project.display().to_string());
        vec!["import".to_owned(), source, "--new-tiles".into(), mod_id.into(), "--project".into(), project]
    };
    let run = |source: &Path| {
        let args = args(source);
        nefia(&args.iter().map(String::as_str).collect::<Vec<_>>())
    };
    let first = run(source);
    if first.status.success() {
        return first;
    }
    let template = source.with_extension("mapping.ron");
    assert!(template.exists(), "{}", said(&first));
    let sheet = source.with_extension("tiles.png");
    let pictures = image::open(&sheet).unwrap_or_else(|e| panic!("{}: {e}", sheet.display()));
    assert!(pictures.width() > 0, "the contact sheet is drawn");
    let text = std::fs::read_to_string(&template).unwrap();
    assert!(text.contains(", picture 1"), "the template numbers the pictures: {text}");
    std::fs::write(&template, text.replace("(kind: chara, id: \"\")", "(kind: chara, id: \"elona.putit\")")).unwrap();
    run(source)
}

fn read_map(path: &Path) -> MapRecord {
    nefia_game::files::read_ron(path).unwrap_or_else(|e| panic!("{e}"))
}

/// The prototypes' data:add blocks in a mod's init.lua.
fn blocks(init: &Path) -> usize {
    std::fs::read_to_string(init).unwrap().matches("data:add {").count()
}

/// Every tile the map's layers use, each once.
fn used_tiles(map: &MapRecord) -> Vec<Symbol> {
    let mut tiles: Vec<Symbol> = map.palette.values().copied().collect();
    tiles.extend(map.art_layers.iter().flat_map(|l| l.palette.values().copied()));
    tiles.sort_by_key(|t| t.as_str().to_owned());
    tiles.dedup();
    tiles
}

/// Where Tiled cuts tile `id` of a tileset: (x, y) of its square.
fn tiled_region(id: u32, columns: u32, side: u32, margin: u32, spacing: u32) -> (u32, u32) {
    (margin + (id % columns) * (side + spacing), margin + (id / columns) * (side + spacing))
}

#[test]
fn tiled_and_ldtk_samples_import_with_their_layers_and_their_tiles_cut_from_the_copied_tilesets() {
    let copy = nefia_tests::DemoCopy::new();
    let project = copy.project();
    let work = tempfile::tempdir().unwrap();
    fixtures("tiled", &work.path().join("tiled"));
    fixtures("ldtk", &work.path().join("ldtk"));
    for (source, mod_id) in [
        ("tiled/desert.tmx", "desert_art"),
        ("tiled/island.tmx", "isle"),
        ("ldtk/Typical_TopDown_example.ldtk", "topdown"),
    ] {
        let imported = import_new_tiles(&work.path().join(source), mod_id, &project);
        assert!(imported.status.success(), "{source}: {}", said(&imported));
    }
    let maps = project.join("maps");
    let (desert, island, level) = (
        read_map(&maps.join("desert.ron")),
        read_map(&maps.join("island.ron")),
        read_map(&maps.join("World_Level_0.ron")),
    );

    // Layers stay layers: the bottom one the game tiles, the others art layers.
    let names = |map: &MapRecord| map.art_layers.iter().map(|l| l.name.clone()).collect::<Vec<_>>();
    assert!(desert.art_layers.is_empty(), "desert has one layer");
    assert_eq!(names(&island), ["Fringe", "Over"]);
    let wall_tops = level.art_layers.iter().find(|l| l.name == "Wall_tops").expect("LDtk's Wall_tops layer");
    assert_eq!(wall_tops.offset_px, (0, -16), "LDtk's layer offset");
    assert!(names(&level).iter().any(|n| n == "Collisions (auto tiles) 2"), "stacked auto tiles: {:?}", names(&level));
    let cell_px = |map: &MapRecord| map.fields.get(Symbol::intern("cell_px")).and_then(|v| v.as_i64());
    assert_eq!((cell_px(&desert), cell_px(&island), cell_px(&level)), (Some(32), Some(16), Some(16)));

    // The tilesets are copied into the mods' assets.
    let copied = |mod_id: &str, file: &str| project.join("mods").join(mod_id).join("assets").join(mod_id).join(file);
    let beach = repo().join("tests/fixtures/tiled/beach_tileset.png");
    assert_eq!(std::fs::read(copied("isle", "beach_tileset.png")).unwrap(), std::fs::read(&beach).unwrap());
    assert!(copied("desert_art", "tmw_desert_spacing.png").is_file());
    assert!(copied("topdown", "TopDown_by_deepnight.png").is_file());

    // The project loads them (the mods made and enabled), each tile's image a region of its
    // copied tileset where Tiled cuts the tile it was made for.
    let game = nefia_host::terminal::TerminalGame::open(&project).unwrap_or_else(|e| panic!("{e}"));
    let world = game.world();
    let map_tile = Symbol::intern("base.map_tile");
    let art = |tile: Symbol| world.data.art.get(map_tile, tile, &[]).map(|p| p.art.clone());
    let source_name = |tile: Symbol| {
        let proto = world.data.proto(world.data.find(map_tile, tile.as_str()).unwrap());
        proto.fields.get(Symbol::intern("name")).and_then(|v| v.as_str().map(str::to_owned)).unwrap_or_default()
    };
    // Tiled's animations, read from the tileset as Tiled writes them: (tile, ms) frames.
    let tsx = std::fs::read_to_string(repo().join("tests/fixtures/tiled/beach_tileset.tsx")).unwrap();
    let mut animations = std::collections::HashMap::new();
    for tile in tsx.split("<tile id=\"").skip(1) {
        let id: u32 = tile.split('"').next().unwrap().parse().unwrap();
        let attribute = |frame: &str, name: &str| -> u32 {
            frame.split(&format!("{name}=\"")).nth(1).unwrap().split('"').next().unwrap().parse().unwrap()
        };
        let frames: Vec<(u32, u32)> =
            tile.split("<frame ").skip(1).map(|f| (attribute(f, "tileid"), attribute(f, "duration"))).collect();
        animations.insert(("isle/beach_tileset.png", id), frames);
    }
    assert!(animations.values().filter(|f| f.len() == 4).all(|f| f.iter().all(|&(_, ms)| ms == 250)));
    let mut animated = 0;
    for (map, sheet, columns, side, margin) in
        [(&desert, "desert_art/tmw_desert_spacing.png", 8, 32, 1), (&island, "isle/beach_tileset.png", 36, 16, 0)]
    {
        for tile in used_tiles(map) {
            let art = art(tile).unwrap_or_else(|| panic!("{tile} has an image"));
            let sprite = &art.sprites[0];
            assert_eq!(sprite.sheet.as_str(), sheet, "{tile}");
            assert_eq!((sprite.width, sprite.height), (side, side), "{tile}");
            let name = source_name(tile);
            let id: u32 = name.rsplit('/').next().unwrap().parse().unwrap_or_else(|_| panic!("{tile}: '{name}'"));
            let expected: Vec<(u32, u32, u32)> = match animations.get(&(sheet, id)) {
                Some(frames) => {
                    animated += 1;
                    let place = |(tile, ms): &(u32, u32)| {
                        let (x, y) = tiled_region(*tile, columns, side, margin, margin);
                        (x, y, *ms)
                    };
                    frames.iter().map(place).collect()
                }
                None => {
                    let (x, y) = tiled_region(id, columns, side, margin, margin);
                    vec![(x, y, 0)]
                }
            };
            // A still tile's one frame shows for ever, whatever its duration says.
            let still = sprite.frames.len() == 1;
            let frames: Vec<(u32, u32, u32)> =
                sprite.frames.iter().map(|f| (f.x, f.y, if still { 0 } else { f.duration_ms })).collect();
            assert_eq!(frames, expected, "{tile} ({name})");
        }
    }
    assert!(animated > 0, "island's water is animated");
    // Cells no layer covers take a tile made for them, drawn as nothing (a blank glyph).
    assert!(art(Symbol::intern("topdown.empty")).is_none());
    for tile in used_tiles(&level).into_iter().filter(|t| t.as_str() != "topdown.empty") {
        let art = art(tile).unwrap_or_else(|| panic!("{tile} has an image"));
        assert_eq!(art.sprites[0].sheet.as_str(), "topdown/TopDown_by_deepnight.png", "{tile}");
    }
    let flipped = used_tiles(&level).into_iter().filter(|t| t.as_str().ends_with("_fx")).count();
    assert!(flipped > 0, "LDtk's flipped tiles are tiles of their own");
    drop(world);
    drop(game);

    // Imported again (its map removed first), nothing is made twice: the ids are stable.
    let init = project.join("mods/isle/init.lua");
    let before = blocks(&init);
    std::fs::remove_file(maps.join("island.ron")).unwrap();
    let again = import_new_tiles(&work.path().join("tiled/island.tmx"), "isle", &project);
    assert!(again.status.success(), "{}", said(&again));
    assert_eq!(blocks(&init), before, "no prototype written twice");
    assert_eq!(read_map(&maps.join("island.ron")), island, "the same map");
}

#[test]
fn an_exported_map_imported_back_keeps_its_objects_keys_and_diff_says_what_changed() {
    let copy = nefia_tests::DemoCopy::new();
    let project = copy.project();
    let out = tempfile::tempdir().unwrap();
    let town = project.join("maps/town.ron");
    let tmj = out.path().join("town_again.tmj");
    let (tmj_arg, project_arg) = (tmj.display().to_string(), project.display().to_string());
    let exported = nefia(&["export", &town.display().to_string(), "--tmj", &tmj_arg, "--project", &project_arg]);
    assert!(exported.status.success(), "{}", said(&exported));
    let imported = nefia(&["import", &tmj_arg, "--project", &project_arg]);
    assert!(imported.status.success(), "{}", said(&imported));
    let again = project.join("maps/town_again.ron");
    let (before, after) = (read_map(&town), read_map(&again));
    let keys = |map: &MapRecord| map.objects.iter().map(|o| o.key.clone()).collect::<Vec<_>>();
    assert_eq!(keys(&after), keys(&before), "the objects keep their keys");

    // The same map but its name: diff finds no object changed.
    let diff = nefia(&["diff", &town.display().to_string(), &again.display().to_string()]);
    assert!(!said(&diff).contains("elona.door"), "{}", said(&diff));

    // A door opened: diff says which, where and what.
    let door = before.objects.iter().position(|o| o.id.as_str() == "elona.door").expect("the town has a door");
    let (x, y) = (before.objects[door].x, before.objects[door].y);
    let mut opened = after.clone();
    opened.objects[door].fields.insert(Symbol::intern("opened"), nefia_game::value::Value::Bool(true));
    let opened_path = out.path().join("opened.ron");
    std::fs::write(&opened_path, nefia_game::map_files::map_text(&opened_path, &opened).unwrap()).unwrap();
    let diff = nefia(&["diff", &again.display().to_string(), &opened_path.display().to_string()]);
    let text = said(&diff);
    assert!(text.contains(&format!("elona.door at ({x}, {y}): opened (prototype's) → true")), "{text}");
}
