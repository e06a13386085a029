//! Tiled and LDtk maps into a project: the editors' own sample maps (kept in
//! `tests/fixtures/` with their licences) import with every tile either mapped or listed,
//! LDtk levels become one map each with their neighbours noted, and bad files are refused by
//! name with nothing written.

use std::path::{Path, PathBuf};

use nefia_game::exchange::{self, ImportError, Mapping, ObjectTarget};
use nefia_game::object::ObjectKind;
use nefia_game::save::MapRecord;
use nefia_host::maps::import::{ImportFailure, import_map};
use nefia_lua::Runtime;
use nefia_protocol::output::Output;
use nefia_tests::DemoCopy;

fn fixture(relative: &str) -> PathBuf {
    nefia_tests::repo_root().join("tests/fixtures").join(relative)
}

/// The sample maps, each with how many maps it holds.
const SAMPLES: [(&str, usize); 7] = [
    ("tiled/desert.tmx", 1),
    ("tiled/orthogonal-outside.tmx", 1),
    ("tiled/island.tmx", 1),
    ("tiled/isometric_staggered_grass_and_water.tmx", 1),
    ("ldtk/Typical_TopDown_example.ldtk", 0),
    ("ldtk/AutoLayers_1_basic.ldtk", 0),
    ("ldtk/SeparateLevelFiles.ldtk", 3),
];

/// A copy of a fixture in a folder of its own (so the template written beside it goes there).
fn copied(folder: &Path, relative: &str) -> PathBuf {
    let from = fixture(relative);
    let parent = from.parent().unwrap();
    for entry in std::fs::read_dir(parent).unwrap().flatten() {
        let to = folder.join(entry.file_name());
        if entry.path().is_dir() {
            std::fs::create_dir_all(&to).unwrap();
            for inner in std::fs::read_dir(entry.path()).unwrap().flatten() {
                std::fs::copy(inner.path(), to.join(inner.file_name())).unwrap();
            }
        } else {
            std::fs::copy(entry.path(), &to).unwrap();
        }
    }
    folder.join(from.file_name().unwrap())
}

#[test]
fn every_sample_imports_with_every_tile_mapped_or_listed() {
    for (relative, maps) in SAMPLES {
        let sources = exchange::read(&fixture(relative)).unwrap_or_else(|e| panic!("{relative}: {e}"));
        if maps > 0 {
            assert_eq!(sources.len(), maps, "{relative}");
        }
        for source in &sources {
            let cells = usize::try_from(source.width * source.height).unwrap();
            // The template counts every cell once, under the tile it shows.
            let template = exchange::template(std::slice::from_ref(source), &Mapping::default());
            let counted: usize = template
                .lines()
                .filter_map(|line| line.split("// ").nth(1)?.split(" cells").next()?.parse::<usize>().ok())
                .sum();
            assert_eq!(counted, cells, "{relative} '{}': every cell is listed once", source.name);
            // Unmapped, the import lists the same tiles and writes nothing.
            let catalog_tile = |_: &str| true;
            let catalog_object = |_: ObjectKind, _: &str| true;
            let catalog_field = |_: ObjectKind, _: &str, _: &nefia_game::value::Value| Ok(());
            let glyph = |_| None;
            let catalog = exchange::Catalog {
                tile: &catalog_tile,
                object: &catalog_object,
                field: &catalog_field,
                glyph: &glyph,
            };
            match exchange::convert(source, &Mapping::default(), &catalog) {
                Err(ImportError::Unmapped { tiles, .. }) => {
                    assert_eq!(tiles.iter().map(|(_, n)| n).sum::<usize>(), cells, "{relative}");
                }
                other => panic!("{relative}: {other:?}"),
            }
        }
    }
}

/// Fills a template: every tile becomes a floor, every object a putit (LDtk's "Player" too).
fn fill(template: &Path) {
    let text = std::fs::read_to_string(template).unwrap();
    let mut mapping: Mapping = nefia_game::files::read_ron(template).unwrap_or_else(|e| panic!("{e}\n{text}"));
    for tile in mapping.tiles.values_mut() {
        *tile = "elona.floor_stone".into();
    }
    for object in mapping.objects.values_mut() {
        *object = ObjectTarget { kind: ObjectKind::Chara, id: "elona.putit".into() };
    }
    std::fs::write(template, ron::to_string(&mapping).unwrap()).unwrap();
}

fn runtime(copy: &DemoCopy) -> Runtime {
    Runtime::open_project(&copy.project(), Box::new(|_: Output| {})).expect("the copy opens")
}

#[test]
fn an_ldtk_world_becomes_one_map_per_level_with_its_neighbours_noted() {
    let copy = DemoCopy::new();
    let runtime = runtime(&copy);
    let work = tempfile::tempdir().unwrap();
    let source = copied(work.path(), "ldtk/Typical_TopDown_example.ldtk");
    // First: the template, and nothing else.
    let first = import_map(&runtime, &source, None).expect_err("no mapping yet");
    let ImportFailure::TemplateWritten(template) = first else { panic!("{first}") };
    assert_eq!(template, work.path().join("Typical_TopDown_example.mapping.ron"));
    // The IntGrid values show where the layers above are left out, named as LDtk names them.
    let sources = exchange::read(&source).unwrap();
    let beneath =
        Mapping { skip_layers: vec!["Collisions (auto tiles)".into(), "Wall_tops".into()], ..Mapping::default() };
    let text = exchange::template(&sources, &beneath);
    assert!(text.contains("\"Collisions#1\": \"\", //") && text.contains("cells (walls)"), "{text}");
    let before = std::fs::read_dir(copy.project().join("maps")).unwrap().count();

    // Entity fields become the putits' fields, checked against their types: the sample's
    // fields are no putit fields the type declares, so they are kept as the object's own.
    fill(&template);
    let report = import_map(&runtime, &source, None).unwrap_or_else(|e| panic!("{e}"));
    let levels = exchange::read(&source).unwrap().len();
    assert!(levels > 1, "a world of levels");
    assert_eq!(report.written.len(), levels, "one map per level");
    assert_eq!(std::fs::read_dir(copy.project().join("maps")).unwrap().count(), before + levels);
    let noted = report.notes.iter().filter(|n| n.contains("beside ")).count();
    assert!(noted > 0, "neighbours noted: {:?}", report.notes);
    let first: MapRecord = nefia_game::files::read_ron(&report.written[0]).unwrap();
    let neighbours = first.fields.get(nefia_game::symbol::Symbol::intern("neighbours"));
    assert!(neighbours.is_some(), "kept in the map's field: {first:?}");

    // Again: the maps exist, so nothing is written and the file is named.
    let again = import_map(&runtime, &source, None).expect_err("they exist");
    assert!(again.to_string().contains("exists already"), "{again}");
}

#[test]
fn a_mapping_naming_an_unknown_tile_or_a_property_of_the_wrong_type_writes_nothing() {
    let copy = DemoCopy::new();
    let runtime = runtime(&copy);
    let work = tempfile::tempdir().unwrap();
    let source = copied(work.path(), "tiled/island.tmx");
    let ImportFailure::TemplateWritten(template) = import_map(&runtime, &source, None).unwrap_err() else {
        panic!("a template first")
    };
    fill(&template);
    let text = std::fs::read_to_string(&template).unwrap();
    std::fs::write(&template, text.replacen("elona.floor_stone", "elona.floor_stonee", 1)).unwrap();
    let refused = import_map(&runtime, &source, None).unwrap_err().to_string();
    assert!(refused.contains("'elona.floor_stonee', which no loaded mod defines as a base.map_tile"), "{refused}");
    assert!(!copy.project().join("maps/island.ron").exists(), "nothing written");

    // A Tiled object whose property does not fit the field's declared type (hp is an int).
    std::fs::write(&template, text).unwrap();
    let map = std::fs::read_to_string(&source).unwrap();
    let hp = "   <properties><property name=\"hp\" value=\"lots\"/></properties>\n   <point/>";
    let typed = map.replacen("   <point/>", hp, 1);
    assert_ne!(typed, map);
    std::fs::write(&source, typed).unwrap();
    let refused = import_map(&runtime, &source, None).unwrap_err().to_string();
    assert!(refused.contains("hp") && refused.contains("lots"), "{refused}");
    assert!(!copy.project().join("maps/island.ron").exists(), "nothing written");
}

#[test]
fn bad_files_are_refused_by_name_and_nothing_is_written() {
    let copy = DemoCopy::new();
    let runtime = runtime(&copy);
    let work = tempfile::tempdir().unwrap();
    let maps_before = std::fs::read_dir(copy.project().join("maps")).unwrap().count();
    let desert = std::fs::read_to_string(fixture("tiled/desert.tmx")).unwrap();
    let write = |name: &str, text: &str| {
        let path = work.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let refused = |path: &Path| import_map(&runtime, path, None).unwrap_err().to_string();

    // Truncated.
    let cut = write("cut.tmx", &desert[..desert.len() / 2]);
    let said = refused(&cut);
    assert!(said.contains("cut.tmx"), "{said}");
    // Its external tileset is missing.
    let alone = write("alone.tmx", &desert);
    let said = refused(&alone);
    assert!(said.contains("desert.tsx"), "names the missing tileset: {said}");
    // Huge: refused before anything is allocated for it.
    let huge = write("huge.tmx", &desert.replace("width=\"40\" height=\"40\"", "width=\"100000\" height=\"100000\""));
    let said = refused(&huge);
    assert!(said.contains("huge.tmx") && said.contains("100000x100000"), "{said}");
    // An LDtk file of another version.
    let old = write("old.ldtk", "{\"jsonVersion\": \"0.9.3\", \"levels\": []}");
    let said = refused(&old);
    assert!(said.contains("old.ldtk") && said.contains("not an LDtk 1.5 project"), "{said}");
    // A level file outside the project's folder.
    let project = std::fs::read_to_string(fixture("ldtk/SeparateLevelFiles.ldtk")).unwrap();
    let escaping =
        write("escaping.ldtk", &project.replacen("SeparateLevelFiles/World_Level_0.ldtkl", "../../etc/passwd", 1));
    let said = refused(&escaping);
    assert!(said.contains("outside the project's folder"), "{said}");
    // A Tiled JSON map written base64.
    let base64 = write(
        "packed.tmj",
        r#"{"width":2,"height":1,"tilewidth":16,"tileheight":16,"layers":[{"type":"tilelayer","name":"ground","data":"AQAAAAEAAAA=","encoding":"base64"}],"tilesets":[]}"#,
    );
    let said = refused(&base64);
    assert!(said.contains("packed.tmj") && said.contains("CSV"), "{said}");
    // Tiled's perspective_walls sample: an image-collection tileset written before Tiled gave
    // such tilesets a tile count, which the `tiled` crate refuses; named, with the file.
    let said = refused(&copied(work.path(), "tiled/perspective_walls.tmx"));
    assert!(said.contains("perspective_walls") && said.contains("tilecount"), "{said}");
    // Not a map at all.
    let said = refused(&write("notes.txt", "hello"));
    assert!(said.contains("give a Tiled map (.tmx, .tmj) or an LDtk project (.ldtk)"), "{said}");

    assert_eq!(std::fs::read_dir(copy.project().join("maps")).unwrap().count(), maps_before, "no map written");
    let templates: Vec<_> = std::fs::read_dir(work.path())
        .unwrap()
        .flatten()
        .filter(|e| e.path().to_string_lossy().ends_with(".mapping.ron"))
        .collect();
    assert!(templates.is_empty(), "no template for a file that could not be read");
}

/// `--new-tiles`: a Tiled tile's properties become the fields base.map_tile declares (checked
/// against their types), its class its `tags`; other properties are left out with a note.
#[test]
fn new_tiles_take_the_tiles_properties_and_classes_as_the_fields_the_tile_type_declares() {
    use nefia_host::maps::import::{ImportOptions, import_map_with};
    let copy = DemoCopy::new();
    let runtime = runtime(&copy);
    let work = tempfile::tempdir().unwrap();
    let source = copied(work.path(), "tiled/desert.tmx");
    let tileset = work.path().join("desert.tsx");
    let text = std::fs::read_to_string(&tileset).unwrap();
    let typed = text.replacen(
        "<tile id=\"30\" probability=\"0.01\"/>",
        "<tile id=\"30\" type=\"Rock\" probability=\"0.01\"><properties>\
         <property name=\"is_solid\" type=\"bool\" value=\"true\"/>\
         <property name=\"blocked\" type=\"bool\" value=\"true\"/></properties></tile>",
        1,
    );
    assert_ne!(typed, text);
    std::fs::write(&tileset, typed).unwrap();
    let options = ImportOptions { mapping: None, new_tiles: Some("desert_art".into()) };
    let report = import_map_with(&runtime, &source, &options).unwrap_or_else(|e| panic!("{e}"));
    let init = std::fs::read_to_string(copy.project().join("mods/desert_art/init.lua")).unwrap();
    let rock = init.split("data:add {").find(|block| block.contains("_id = \"desert_30\"")).expect("tile 30 made");
    assert!(rock.contains("is_solid = true") && rock.contains("tags = { \"rock\" }"), "{rock}");
    assert!(!rock.contains("blocked"), "{rock}");
    let noted = report.notes.iter().any(|n| n.contains("property blocked left out"));
    assert!(noted, "{:?}", report.notes);
}
