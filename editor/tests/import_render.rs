//! Imported maps drawn as their editors draw them: Tiled's desert and island and LDtk's
//! top-down sample imported with `--new-tiles`, then `nefia render`, compared pixel for pixel
//! with the composition this test makes itself from the source file and the tileset PNG —
//! Tiled's gids decoded by the `tiled` crate (flips, animation frames at the time), LDtk's
//! tiles read from the project's JSON (layer offsets, stacked tiles, flips) — island's water
//! at a later time showing its next frame.

use std::path::Path;

use image::{RgbaImage, imageops};

#[path = "common/cli.rs"]
mod cli;

use cli::{fixtures, nefia, said};

/// Imports `source` with new tiles in `mod_id`, its objects left out (so the picture is the
/// tiles alone, as the source's tile layers are).
fn import(source: &Path, mod_id: &str, project: &Path) {
    let args =
        ["import", &source.display().to_string(), "--new-tiles", mod_id, "--project", &project.display().to_string()]
            .map(|a| a.to_owned());
    let run = || nefia(&args.iter().map(String::as_str).collect::<Vec<_>>());
    let first = run();
    if first.status.success() {
        return;
    }
    let template = source.with_extension("mapping.ron");
    let text = std::fs::read_to_string(&template).unwrap_or_else(|_| panic!("{}", said(&first)));
    std::fs::write(&template, text.replace("(kind: chara, id: \"\")", "(kind: chara, id: \"-\")")).unwrap();
    let second = run();
    assert!(second.status.success(), "{}", said(&second));
}

/// `nefia render` of map `name` at `time_ms`.
fn render(project: &Path, name: &str, time_ms: u64, out: &Path) -> RgbaImage {
    let png = out.join(format!("{name}-{time_ms}.png"));
    let map = project.join("maps").join(format!("{name}.ron"));
    let rendered = nefia(&[
        "render",
        &map.display().to_string(),
        "--png",
        &png.display().to_string(),
        "--project",
        &project.display().to_string(),
        "--time-ms",
        &time_ms.to_string(),
    ]);
    assert!(rendered.status.success(), "{}", said(&rendered));
    image::open(&png).unwrap().to_rgba8()
}

/// Asserts two pictures equal, naming the first cell (of `cell` pixels) that differs.
fn assert_same(what: &str, got: &RgbaImage, want: &RgbaImage, cell: u32) {
    assert_eq!(got.dimensions(), want.dimensions(), "{what}: the size");
    let differing: Vec<(u32, u32)> =
        got.enumerate_pixels().filter(|(x, y, p)| want.get_pixel(*x, *y) != *p).map(|(x, y, _)| (x, y)).collect();
    if let Some(&(x, y)) = differing.first() {
        if let Ok(dir) = std::env::var("NEFIA_RENDER_DIFF_DIR") {
            got.save(Path::new(&dir).join("got.png")).unwrap();
            want.save(Path::new(&dir).join("want.png")).unwrap();
        }
        let mut cells: Vec<(u32, u32)> = differing.iter().map(|(x, y)| (x / cell, y / cell)).collect();
        cells.dedup();
        cells.sort();
        cells.dedup();
        panic!(
            "{what}: {} pixels of cells {cells:?} differ, the first at ({x}, {y}) in cell ({}, {}): {:?} drawn, {:?} expected",
            differing.len(),
            x / cell,
            y / cell,
            got.get_pixel(x, y),
            want.get_pixel(x, y)
        );
    }
}

/// A square of `sheet` at (x, y), `side` pixels, mirrored as a placed tile is.
fn cut(sheet: &RgbaImage, (x, y): (u32, u32), side: u32, (flip_x, flip_y, diagonal): (bool, bool, bool)) -> RgbaImage {
    let mut tile = imageops::crop_imm(sheet, x, y, side, side).to_image();
    if diagonal {
        // Tiled swaps the axes first.
        tile = RgbaImage::from_fn(side, side, |px, py| *tile.get_pixel(py, px));
    }
    if flip_x {
        imageops::flip_horizontal_in_place(&mut tile);
    }
    if flip_y {
        imageops::flip_vertical_in_place(&mut tile);
    }
    tile
}

/// The Tiled map at `path` composed as Tiled draws it at `time_ms`: its tile layers in order,
/// each tile's animation frame at that time, over black.
fn tiled_picture(path: &Path, time_ms: u32) -> RgbaImage {
    let map = tiled::Loader::new().load_tmx_map(path).unwrap();
    let (tw, th) = (map.tile_width, map.tile_height);
    let mut picture = RgbaImage::from_pixel(map.width * tw, map.height * th, image::Rgba([0, 0, 0, 255]));
    let mut sheets = std::collections::HashMap::new();
    for layer in map.layers() {
        let Some(tiles) = layer.as_tile_layer() else { continue };
        for y in 0..map.height {
            for x in 0..map.width {
                let Some(placed) = tiles.get_tile(x as i32, y as i32) else { continue };
                let tileset = placed.get_tileset();
                let mut id = placed.id();
                if let Some(frames) = placed.get_tile().and_then(|t| t.animation.clone()) {
                    let cycle: u32 = frames.iter().map(|f| f.duration).sum();
                    let mut left = time_ms % cycle;
                    for frame in frames {
                        if left < frame.duration {
                            id = frame.tile_id;
                            break;
                        }
                        left -= frame.duration;
                    }
                }
                let source = tileset.image.as_ref().unwrap().source.clone();
                let sheet = sheets.entry(source.clone()).or_insert_with(|| image::open(&source).unwrap().to_rgba8());
                let step = |at: u32, size: u32| tileset.margin + at * (size + tileset.spacing);
                let at = (step(id % tileset.columns, tw), step(id / tileset.columns, th));
                let tile = cut(sheet, at, tw, (placed.flip_h, placed.flip_v, placed.flip_d));
                imageops::overlay(&mut picture, &tile, i64::from(x * tw), i64::from(y * th));
            }
        }
    }
    picture
}

/// LDtk's level `level` of the project at `path` composed from its JSON: each layer bottom
/// first, its opaque tiles in their order at their pixel place plus the layer's offset, over
/// black.
fn ldtk_picture(path: &Path, level: &str) -> RgbaImage {
    let project: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let levels = project["levels"]
        .as_array()
        .filter(|l| !l.is_empty())
        .unwrap_or_else(|| project["worlds"][0]["levels"].as_array().unwrap());
    let level = levels.iter().find(|l| l["identifier"] == level).unwrap();
    let number = |v: &serde_json::Value| v.as_i64().unwrap();
    let (width, height) = (number(&level["pxWid"]) as u32, number(&level["pxHei"]) as u32);
    let mut picture = RgbaImage::from_pixel(width, height, image::Rgba([0, 0, 0, 255]));
    for layer in level["layerInstances"].as_array().unwrap().iter().rev() {
        let Some(relative) = layer["__tilesetRelPath"].as_str() else { continue };
        let sheet = image::open(path.parent().unwrap().join(relative)).unwrap().to_rgba8();
        let side = number(&layer["__gridSize"]) as u32;
        let offset = (number(&layer["__pxTotalOffsetX"]), number(&layer["__pxTotalOffsetY"]));
        let placed = layer["gridTiles"].as_array().unwrap().iter().chain(layer["autoLayerTiles"].as_array().unwrap());
        // Tiles LDtk draws see-through are left out by the import (art layers have no
        // opacity; the import notes them): left out here too.
        for tile in placed.filter(|t| t["a"].as_f64().unwrap_or(1.0) >= 1.0) {
            let (src, px, flips) = (&tile["src"], &tile["px"], number(&tile["f"]));
            let at = (number(&src[0]) as u32, number(&src[1]) as u32);
            let piece = cut(&sheet, at, side, (flips & 1 != 0, flips & 2 != 0, false));
            imageops::overlay(&mut picture, &piece, number(&px[0]) + offset.0, number(&px[1]) + offset.1);
        }
    }
    picture
}

#[test]
fn imported_maps_render_cell_for_cell_as_tiled_and_ldtk_draw_them() {
    let copy = nefia_tests::DemoCopy::new();
    let project = copy.project();
    let work = tempfile::tempdir().unwrap();
    let (tiled, ldtk) = (work.path().join("tiled"), work.path().join("ldtk"));
    fixtures("tiled", &tiled);
    fixtures("ldtk", &ldtk);
    import(&tiled.join("desert.tmx"), "desert_art", &project);
    import(&tiled.join("island.tmx"), "isle", &project);
    let ldtk_source = ldtk.join("Typical_TopDown_example.ldtk");
    import(&ldtk_source, "topdown", &project);
    let out = work.path();

    let desert = render(&project, "desert", 0, out);
    assert_same("desert", &desert, &tiled_picture(&tiled.join("desert.tmx"), 0), 32);

    let island = render(&project, "island", 0, out);
    assert_same("island at 0 ms", &island, &tiled_picture(&tiled.join("island.tmx"), 0), 16);
    let later = render(&project, "island", 250, out);
    assert_same("island at 250 ms", &later, &tiled_picture(&tiled.join("island.tmx"), 250), 16);
    assert_ne!(later, island, "the water shows its next frame");

    let level = render(&project, "World_Level_0", 0, out);
    assert_same("LDtk's World_Level_0", &level, &ldtk_picture(&ldtk_source, "World_Level_0"), 16);
}
