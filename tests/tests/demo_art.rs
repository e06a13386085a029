//! The demo's art (`assets/`, drawn by `assets/draw_art.py`): the demo opens with every image
//! accepted, every `elona` tile, character, item, feature and map effect has art, its floors
//! and walls draw from sprite sets, its water moves, and every sheet under `assets/` is drawn by
//! some prototype (no orphan art), and every frame a prototype draws shows something (no
//! region on an empty or blank part of its sheet).

use std::collections::{BTreeSet, HashMap};
use std::path::Path;

use nefia_game::Symbol;
use nefia_game::Value;
use nefia_game::art::{Choice, Layout, Parsed};
use nefia_lua::Runtime;
use nefia_protocol::output::Output;
use nefia_tests::repo_root;

/// The prototype types that draw on a map.
const DRAWN: [&str; 5] = ["base.map_tile", "base.chara", "base.item", "base.feat", "base.mef"];

/// The demo project opened (its mods loaded, its images read against its asset folders): an
/// image the engine refuses fails here, naming the prototype.
fn demo() -> Runtime {
    Runtime::open_project(&repo_root().join("projects/demo"), Box::new(|_: Output| {}))
        .unwrap_or_else(|failure| panic!("the demo opens with every image accepted: {failure}"))
}

/// Every prototype of the drawn types whose id starts with `prefix`, with its art if it has.
fn drawn(runtime: &Runtime, prefix: &str) -> Vec<(Symbol, Symbol, Option<Parsed>)> {
    let world = runtime.world();
    let mut found = Vec::new();
    for kind in DRAWN {
        for proto in world.data.entries(kind) {
            if proto.id.as_str().starts_with(prefix) {
                let art = world.data.art.get(proto.data_type, proto.id, &[]).cloned();
                found.push((proto.data_type, proto.id, art));
            }
        }
    }
    found
}

#[test]
fn every_elona_prototype_that_is_drawn_has_art() {
    let runtime = demo();
    let elona = drawn(&runtime, "elona.");
    assert!(elona.len() >= 27, "the demo's 8 tiles, 6 characters, 7 items, 4 features and 2 effects: {}", elona.len());
    let missing: Vec<String> =
        elona.iter().filter(|(_, _, art)| art.is_none()).map(|(kind, id, _)| format!("{kind} {id}")).collect();
    assert!(missing.is_empty(), "prototypes without an image: {missing:?}");
}

#[test]
fn the_demo_floors_and_walls_are_sprite_sets_and_its_water_moves() {
    let runtime = demo();
    let world = runtime.world();
    let art = |id: &str| {
        world
            .data
            .art
            .get(Symbol::intern("base.map_tile"), Symbol::intern(id), &[])
            .cloned()
            .unwrap_or_else(|| panic!("{id} has art"))
    };
    let mut sets = 0;
    for tile in world.data.entries("base.map_tile").filter(|t| t.id.as_str().starts_with("elona.")) {
        let tags = match tile.fields.get(Symbol::intern("tags")) {
            Some(Value::List(tags)) => {
                tags.iter().filter_map(|t| if let Value::Str(t) = t { Some(t.to_string()) } else { None }).collect()
            }
            _ => Vec::new(),
        };
        if tags.iter().any(|t| t == "floor" || t == "wall") {
            let choice = art(tile.id.as_str()).art.choice.clone();
            assert!(
                matches!(choice, Choice::Set(Layout::Wang16 | Layout::Blob47)),
                "{} is a sprite set: {choice:?}",
                tile.id
            );
            sets += 1;
        }
    }
    assert!(sets >= 7, "the five floors and two walls: {sets}");
    let wall = art("elona.wall_stone");
    assert_eq!(wall.art.choice, Choice::Set(Layout::Blob47));
    assert_eq!(wall.art.sprites.len(), 47, "one sprite a piece");
    assert_eq!(wall.connects, art("elona.wall_face").connects, "a wall's face joins the wall above it");
    let water = art("elona.water");
    assert!(
        water.art.sprites.iter().all(|s| s.frames.len() > 1 && s.cycle_ms() > 0),
        "the water is animated: {water:?}"
    );
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
fn every_sheet_under_assets_is_drawn_by_a_prototype() {
    let runtime = demo();
    let drawn: BTreeSet<String> = drawn(&runtime, "")
        .into_iter()
        .flat_map(|(_, _, art)| art.map(|a| a.art.sprites.iter().map(|s| s.sheet.to_string()).collect::<Vec<_>>()))
        .flatten()
        .collect();
    let assets = repo_root().join("assets");
    let mut sheets = BTreeSet::new();
    pngs(&assets, &assets, &mut sheets);
    assert!(sheets.len() >= 10, "the demo's sheets: {sheets:?}");
    let orphans: Vec<&String> = sheets.difference(&drawn).collect();
    assert!(orphans.is_empty(), "sheets no prototype draws: {orphans:?} (drawn: {drawn:?})");
}

#[test]
fn every_frame_a_prototype_draws_shows_something() {
    let runtime = demo();
    let assets = repo_root().join("assets");
    let mut sheets: HashMap<String, image::RgbaImage> = HashMap::new();
    let mut frames = 0;
    let mut blank = Vec::new();
    for (kind, id, art) in drawn(&runtime, "") {
        for sprite in art.iter().flat_map(|a| a.art.sprites.iter()) {
            let sheet = sheets.entry(sprite.sheet.to_string()).or_insert_with(|| {
                image::open(assets.join(sprite.sheet.as_str()))
                    .unwrap_or_else(|e| panic!("{} reads: {e}", sprite.sheet))
                    .to_rgba8()
            });
            for frame in &sprite.frames {
                frames += 1;
                let shows = (frame.y..frame.y + sprite.height).any(|y| {
                    (frame.x..frame.x + sprite.width).any(|x| {
                        let [r, g, b, a] = sheet.get_pixel(x, y).0;
                        a > 0 && sprite.key_color != Some([r, g, b])
                    })
                });
                if !shows {
                    blank.push(format!("{kind} {id}: {} at {},{}", sprite.sheet, frame.x, frame.y));
                }
            }
        }
    }
    assert!(frames >= 27 + 7 * 16 + 47, "the demo's sprites, sets counted piece by piece: {frames}");
    assert!(blank.is_empty(), "frames that show nothing: {blank:?}");
}
