//! The demo's art (`assets/`, drawn by `assets/draw_art.py`): every `elona` tile, character,
//! item, feature and map effect names an image, its floors and walls draw from sprite sets, its
//! water moves, the demo loads with every image accepted, and every sheet under `assets/` is
//! named by some prototype (no orphan art).

use std::collections::BTreeSet;
use std::path::Path;

use nefia_game::art::{Choice, Layout};
use nefia_host::HostHandle;
use nefia_protocol::repl::Evaluation;
use nefia_tests::host::{eval, spawn_editing, wait_for};
use nefia_tests::repo_root;

/// The prototype types that draw on a map.
const DRAWN: &str = r#"{ "base.map_tile", "base.chara", "base.item", "base.feat", "base.mef" }"#;

/// The demo, editing its town.
fn demo() -> HostHandle {
    spawn_editing(&repo_root().join("projects/demo"))
}

/// The strings a Lua chunk returns (`return a, b, ...`), unquoted.
fn strings(host: &HostHandle, code: &str) -> Vec<String> {
    match eval(host, code) {
        Evaluation::Values(values) => values
            .into_iter()
            .map(|v| v.strip_prefix('"').and_then(|v| v.strip_suffix('"')).map(str::to_owned).unwrap_or(v))
            .collect(),
        other => panic!("{code}: {other:?}"),
    }
}

#[test]
fn every_elona_prototype_that_is_drawn_names_an_image() {
    let host = demo();
    let found = strings(
        &host,
        &format!(
            r#"local checked, missing = 0, {{}}
            for _, kind in ipairs({DRAWN}) do
               for id, proto in data[kind]:iter() do
                  if id:match("^elona%.") then
                     checked = checked + 1
                     if proto.image == nil then missing[#missing + 1] = kind .. " " .. id end
                  end
               end
            end
            return tostring(checked), table.unpack(missing)"#
        ),
    );
    let checked: usize = found[0].parse().unwrap();
    assert!(checked >= 27, "the demo's 8 tiles, 6 characters, 7 items, 4 features and 2 effects: {checked}");
    assert!(found[1..].is_empty(), "prototypes without an image: {:?}", &found[1..]);
}

#[test]
fn the_demo_floors_and_walls_are_sprite_sets_and_its_water_moves() {
    let host = demo();
    // Every tile tagged floor or wall declares a Wang or blob set.
    let unset = strings(
        &host,
        r#"local unset = {}
        for id, tile in data["base.map_tile"]:iter() do
           local tagged = false
           for _, tag in ipairs(tile.tags or {}) do tagged = tagged or tag == "floor" or tag == "wall" end
           local set = type(tile.image) == "table" and (tile.image.autotile == "wang16" or tile.image.autotile == "blob47")
           if id:match("^elona%.") and tagged and not set then unset[#unset + 1] = id end
        end
        return table.unpack(unset)"#,
    );
    assert!(unset.is_empty(), "floors and walls without a sprite set: {unset:?}");

    // And the engine read them so: the town's view carries the sets and the water's frames.
    let snapshot = wait_for(&host, |s| s.map.is_some());
    let map = snapshot.map.as_ref().expect("the town is open");
    let art = |id: &str| {
        let style = map.tile_styles.iter().find(|s| s.id.as_str() == id).unwrap_or_else(|| panic!("{id} in the town"));
        style.art.clone().unwrap_or_else(|| panic!("{id} has art"))
    };
    assert_eq!(art("elona.wall_stone").choice, Choice::Set(Layout::Blob47));
    assert_eq!(art("elona.wall_stone").sprites.len(), 47, "one sprite a piece");
    for floor in ["elona.grass", "elona.floor_stone", "elona.floor_wood"] {
        assert_eq!(art(floor).choice, Choice::Set(Layout::Wang16), "{floor}");
        assert_eq!(art(floor).sprites.len(), 16, "{floor}");
    }
    let water = art("elona.water");
    assert!(water.sprites[0].frames.len() > 1, "the water is animated: {water:?}");
    assert!(water.sprites[0].cycle_ms() > 0);
}

/// Every `.png` under `dir`, as a path relative to `root` with `/` between its parts.
fn pngs(root: &Path, dir: &Path, found: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            pngs(root, &path, found);
        } else if path.extension().is_some_and(|e| e == "png") {
            let relative = path.strip_prefix(root).unwrap();
            found.insert(relative.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/"));
        }
    }
}

#[test]
fn every_sheet_under_assets_is_named_by_a_prototype() {
    let host = demo();
    let named: BTreeSet<String> = strings(
        &host,
        &format!(
            r#"local named = {{}}
            local function walk(image)
               if type(image) == "string" then named[image] = true return end
               if type(image) ~= "table" then return end
               for key, value in pairs(image) do
                  if type(value) == "table" then walk(value)
                  elseif (key == "image" or key == "source") and type(value) == "string" then named[value] = true end
               end
            end
            for _, kind in ipairs({DRAWN}) do
               for _, proto in data[kind]:iter() do walk(proto.image) end
            end
            local list = {{}}
            for name in pairs(named) do list[#list + 1] = name end
            return table.unpack(list)"#
        ),
    )
    .into_iter()
    .collect();
    let assets = repo_root().join("assets");
    let mut sheets = BTreeSet::new();
    pngs(&assets, &assets, &mut sheets);
    assert!(sheets.len() >= 10, "the demo's sheets: {sheets:?}");
    let orphans: Vec<&String> = sheets.difference(&named).collect();
    assert!(orphans.is_empty(), "sheets no prototype names: {orphans:?} (named: {named:?})");
}
