//! The map drawn with its art: sprites from the atlas in the layers' order (art layers below
//! and above the objects), anchored at their cell's bottom, animated by the clock, and the
//! ASCII view drawing glyphs only.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use egui::epaint::{ClippedShape, Shape};
use egui::{Pos2, RawInput, Rect, Vec2};
use nefia_editor::render::camera::{Camera, LayerToggles};
use nefia_editor::render::map::{DrawReport, MapRenderer};
use nefia_game::art::{Art, Frame, Sprite};
use nefia_game::save::LayerPlace;
use nefia_game::{ObjectKind, Symbol, Uid};
use nefia_protocol::view::{ArtChunk, ArtLayerView, ChunkView, MapView, NO_TILE, ObjectView, TileStyle};

/// Writes a sheet of 4-pixel-wide frames of `colors`, `height` pixels tall, into `dir`.
fn sheet(dir: &Path, name: &str, height: u32, colors: &[[u8; 4]]) {
    let image =
        image::RgbaImage::from_fn(4 * colors.len() as u32, height, |x, _| image::Rgba(colors[(x / 4) as usize]));
    image.save(dir.join(name)).expect("the sheet is written");
}

fn art(name: &str, height: u32, frames: u32) -> Arc<Art> {
    let mut sprite = Sprite::whole(Symbol::intern(name), 4, height);
    sprite.frames = (0..frames).map(|i| Frame { x: 4 * i, y: 0, duration_ms: 100 }).collect();
    Art::single(sprite)
}

fn style(id: &str, glyph: &str, art: Option<Arc<Art>>) -> TileStyle {
    TileStyle {
        id: Symbol::intern(id),
        glyph: glyph.into(),
        fg: [200, 200, 200, 255],
        bg: [0, 0, 0, 255],
        art,
        known: true,
    }
}

/// A 3×2 map of animated grass (4×4 pixel cells) with a character, a decoration on the art
/// layer below the objects and a roof twice a cell's height on the layer above them.
fn map(dir: &Path) -> MapView {
    sheet(dir, "grass.png", 4, &[[255, 0, 0, 255], [0, 0, 255, 255]]);
    sheet(dir, "deco.png", 4, &[[0, 255, 0, 255]]);
    sheet(dir, "roof.png", 8, &[[255, 255, 255, 255]]);
    let styles = vec![
        style("grass", ".", Some(art("grass.png", 4, 2))),
        style("deco", "*", Some(art("deco.png", 4, 1))),
        style("roof", "^", Some(art("roof.png", 8, 1))),
    ];
    let layer = |cell: usize, tile: u16| {
        let mut tiles = vec![NO_TILE; 6];
        tiles[cell] = tile;
        ArtChunk { tiles: Arc::new(tiles), picks: None }
    };
    let hero = ObjectView {
        uid: Uid(7),
        kind: ObjectKind::Chara,
        x: 1,
        y: 0,
        glyph: Symbol::intern("@"),
        color: [255, 255, 255, 255],
        art: None,
        pick: 0,
    };
    let chunk = ChunkView {
        cx: 0,
        cy: 0,
        tiles: Arc::new(vec![0; 6]),
        objects: Arc::new(vec![hero]),
        shadow: None,
        picks: None,
        // In the order of the art layers: the roof over cell (1, 1), the decoration on (0, 0).
        art: vec![layer(4, 2), layer(0, 1)],
        intent: None,
    };
    let art_layer = |name: &str, place| ArtLayerView { name: name.into(), place, offset_px: (0, 0) };
    MapView {
        width: 3,
        height: 2,
        tile_styles: Arc::new(styles),
        art_layers: vec![art_layer("roofs", LayerPlace::Above), art_layer("decoration", LayerPlace::Below)],
        cell_px: 4,
        intent_styles: None,
        ..MapView::one_cell(chunk)
    }
}

/// Paints `map` once, 16 pixels a cell, and returns what was drawn and the shapes.
fn paint(
    ctx: &egui::Context,
    renderer: &mut MapRenderer,
    map: &MapView,
    toggles: &LayerToggles,
    dirs: &[PathBuf],
) -> (DrawReport, Vec<ClippedShape>) {
    let screen = Rect::from_min_size(Pos2::ZERO, Vec2::new(200.0, 100.0));
    let camera = Camera { center: Vec2::new(1.5, 1.0), zoom: 16.0 };
    let mut report = DrawReport::default();
    let mut output = ctx.run_ui(RawInput { screen_rect: Some(screen), ..RawInput::default() }, |ui| {
        report = renderer.paint(ui.painter(), screen, &camera, map, toggles, &[], dirs);
    });
    output.textures_delta.clear();
    (report, output.shapes)
}

/// The sprite meshes drawn (those from a texture other than the font's), in order.
fn sprite_meshes(shapes: &[ClippedShape]) -> Vec<Arc<egui::Mesh>> {
    shapes
        .iter()
        .filter_map(|s| match &s.shape {
            Shape::Mesh(mesh) if mesh.texture_id != egui::TextureId::default() => Some(mesh.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn art_layers_are_drawn_below_and_above_the_objects_in_their_order() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let map = map(dir.path());
    let dirs = vec![dir.path().to_owned()];
    let mut renderer = MapRenderer::default();
    let ctx = egui::Context::default();
    let (report, _) = paint(&ctx, &mut renderer, &map, &LayerToggles::default(), &dirs);
    let order: Vec<(&str, usize, usize)> =
        report.layers.iter().map(|l| (l.name.as_str(), l.sprites, l.glyphs)).collect();
    assert_eq!(
        order,
        [
            ("tiles", 6, 0),
            ("art:decoration", 1, 0),
            ("feats", 0, 0),
            ("mefs", 0, 0),
            ("items", 0, 0),
            ("charas", 0, 1),
            ("art:roofs", 1, 0),
            ("shadow", 0, 0),
        ],
        "the grass, the decoration under the character, the roof over it"
    );
    assert_eq!(report.sprites, 8);
    assert!(renderer.take_image_problems().is_empty());
    assert_eq!(renderer.atlas().pages(), 1, "every sprite from one texture");
}

#[test]
fn the_ascii_view_draws_glyphs_only_and_no_art_layer() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let map = map(dir.path());
    let ascii = LayerToggles { ascii: true, ..LayerToggles::default() };
    let mut renderer = MapRenderer::default();
    let ctx = egui::Context::default();
    let (report, shapes) = paint(&ctx, &mut renderer, &map, &ascii, &[dir.path().to_owned()]);
    assert_eq!(report.sprites, 0);
    assert_eq!(report.glyphs, 7, "six grass dots and the character");
    assert!(!report.layers.iter().any(|l| l.name.starts_with("art:")), "{:?}", report.layers);
    assert!(sprite_meshes(&shapes).is_empty());
    assert_eq!(renderer.atlas().pages(), 0, "no image read");
}

#[test]
fn a_tall_sprite_stands_on_its_cells_bottom_and_animations_follow_the_clock() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let map = map(dir.path());
    let dirs = vec![dir.path().to_owned()];
    let mut renderer = MapRenderer::default();
    let ctx = egui::Context::default();
    renderer.set_clock(Some(0));
    let (_, first) = paint(&ctx, &mut renderer, &map, &LayerToggles::default(), &dirs);
    let meshes = sprite_meshes(&first);
    // The grass, the decoration and the roof: one mesh each (one texture), in that order.
    assert_eq!(meshes.len(), 3, "{:?}", meshes.iter().map(|m| m.calc_bounds()).collect::<Vec<_>>());
    let bounds = |mesh: &egui::Mesh| mesh.calc_bounds();
    let grass = bounds(&meshes[0]);
    assert_eq!(grass.size(), Vec2::new(48.0, 32.0), "3×2 cells of 16 pixels");
    let roof = bounds(&meshes[2]);
    assert_eq!(roof.size(), Vec2::new(16.0, 32.0), "8 sprite pixels tall at 4 screen pixels each");
    assert_eq!(roof.max.y, grass.max.y, "its cell (1, 1) is on the bottom row: it rises a cell above");
    let uv_at = |shapes: &[ClippedShape]| sprite_meshes(shapes)[0].vertices[0].uv;
    renderer.set_clock(Some(150));
    let (_, later) = paint(&ctx, &mut renderer, &map, &LayerToggles::default(), &dirs);
    assert_ne!(uv_at(&first), uv_at(&later), "the grass's second frame 150 ms in");
    renderer.set_clock(Some(200));
    let (_, again) = paint(&ctx, &mut renderer, &map, &LayerToggles::default(), &dirs);
    assert_eq!(uv_at(&first), uv_at(&again), "the cycle starts over at 200 ms");
}

#[test]
fn a_sheet_rewritten_on_disk_is_drawn_anew() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let map = map(dir.path());
    let dirs = vec![dir.path().to_owned()];
    let mut renderer = MapRenderer::default();
    let ctx = egui::Context::default();
    let screen = Rect::from_min_size(Pos2::ZERO, Vec2::new(200.0, 100.0));
    let camera = Camera { center: Vec2::new(1.5, 1.0), zoom: 16.0 };
    // One frame: the decoration's texel (the second sprite mesh) as uploaded, if it was.
    let mut frame = || {
        let mut output = ctx.run_ui(RawInput { screen_rect: Some(screen), ..RawInput::default() }, |ui| {
            renderer.paint(ui.painter(), screen, &camera, &map, &LayerToggles::default(), &[], &dirs);
        });
        let deco = sprite_meshes(&output.shapes)[1].clone();
        let uv = deco.vertices[0].uv;
        let texel = output.textures_delta.set.get(&deco.texture_id).and_then(|deltas| {
            deltas.iter().rev().find_map(|delta| {
                let egui::ImageData::Color(image) = &delta.image;
                let [x0, y0] = delta.pos?;
                let [w, h] = image.size;
                let side = 2048.0;
                let (x, y) = ((uv.x * side) as usize, (uv.y * side) as usize);
                (x >= x0 && y >= y0 && x < x0 + w && y < y0 + h).then(|| image.pixels[(y - y0) * w + x - x0].to_array())
            })
        });
        output.textures_delta.clear();
        texel
    };
    assert_eq!(frame(), Some([0, 255, 0, 255]), "green, packed in the first frame");
    sheet(dir.path(), "deco.png", 4, &[[255, 0, 255, 255]]);
    let started = std::time::Instant::now();
    loop {
        std::thread::sleep(std::time::Duration::from_millis(20));
        if frame() == Some([255, 0, 255, 255]) {
            break;
        }
        assert!(started.elapsed() < std::time::Duration::from_secs(30), "the rewritten sheet was never drawn");
    }
}

#[test]
fn the_demos_sprites_fit_in_64_mib_of_textures() {
    let demo = nefia_tests::repo_root().join("projects/demo");
    let game = nefia_host::terminal::TerminalGame::open(&demo).expect("the demo opens");
    let dirs = game.asset_dirs();
    let mut atlas = nefia_editor::render::atlas::Atlas::default();
    let ctx = egui::Context::default();
    let mut maps = 0;
    for entry in std::fs::read_dir(demo.join("maps")).expect("the demo's maps") {
        let path = entry.expect("an entry").path();
        if path.extension().is_none_or(|e| e != "ron") {
            continue;
        }
        let view = game.map_view(&path).expect("the demo's map loads");
        maps += 1;
        let mut output = ctx.run_ui(RawInput::default(), |ui| {
            let objects = view.chunks.iter().flat_map(|c| c.objects.iter().filter_map(|o| o.art.as_ref()));
            for art in view.tile_styles.iter().filter_map(|s| s.art.as_ref()).chain(objects) {
                atlas.pack_art(ui.ctx(), &dirs, art);
            }
        });
        output.textures_delta.clear();
    }
    assert!(maps > 0, "the demo has maps");
    assert_eq!(atlas.take_problems(), Vec::<String>::new(), "every image of the demo reads");
    let mib = atlas.texture_bytes() as f64 / (1024.0 * 1024.0);
    eprintln!("the demo's sprites: {} textures, {mib:.0} MiB", atlas.pages());
    assert!(mib <= 64.0, "{mib} MiB of textures");
}
