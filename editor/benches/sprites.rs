//! One viewport frame of a 256×256 map whose every cell is an animated sprite (4 frames of
//! 32×32 from one sheet), at 1280×800 — without a GPU: egui's pass plus tessellation — against
//! the same map in the ASCII view (today's glyph path). Sprites are timed on a frame where no
//! animation moved (every chunk's mesh reused) and on one where every animation showed its
//! next frame (every visible chunk's sprites rebuilt), at 32 pixels a cell and zoomed out to
//! 8 (the most chunks in view before the map is drawn as pixels). Run with
//! `cargo bench -p nefia_editor --bench sprites`.

use std::path::PathBuf;
use std::sync::Arc;

use criterion::{Criterion, criterion_group, criterion_main};
use egui::{Pos2, RawInput, Rect, Vec2};
use nefia_editor::render::camera::{Camera, LayerToggles};
use nefia_editor::render::map::MapRenderer;
use nefia_game::Symbol;
use nefia_game::art::{Art, Frame, Sprite};
use nefia_protocol::view::{MapView, MapViewBuilder, TileStyle};
use nefia_tests::TestGame;

/// How long each frame of the animation shows.
const FRAME_MS: u64 = 250;

/// The bench map with every tile drawn from an animated sprite of `sheet` in `dir`.
fn animated_map(dir: &std::path::Path) -> MapView {
    let game = TestGame::with_mods(&["base", "elona"]);
    game.exec(
        r#"
        local map = InstancedMap:new(256, 256, "elona.grass")
        Map.set_map(map)
        for y = 0, 255 do for x = 0, 255 do
            if (x * 7 + y * 13) % 11 == 0 then map:set_tile(x, y, "elona.wall_stone") end
        end end
        "#,
    );
    let view = MapViewBuilder::default().build(&game.world()).expect("a current map");
    let sheet = image::RgbaImage::from_fn(128, 32, |x, y| image::Rgba([(x * 2) as u8, (y * 8) as u8, 128, 255]));
    sheet.save(dir.join("water.png")).expect("the sheet is written");
    let mut sprite = Sprite::whole(Symbol::intern("water.png"), 32, 32);
    sprite.frames = (0..4).map(|i| Frame { x: 32 * i, y: 0, duration_ms: FRAME_MS as u32 }).collect();
    let art = Art::single(sprite);
    let styles: Vec<TileStyle> =
        view.tile_styles.iter().map(|style| TileStyle { art: Some(art.clone()), ..style.clone() }).collect();
    MapView { tile_styles: Arc::new(styles), ..(*view).clone() }
}

fn frame(
    ctx: &egui::Context,
    renderer: &mut MapRenderer,
    map: &MapView,
    camera: Camera,
    toggles: &LayerToggles,
    assets: &[PathBuf],
) -> usize {
    let screen = Rect::from_min_size(Pos2::ZERO, Vec2::new(1280.0, 800.0));
    let input = RawInput { screen_rect: Some(screen), ..RawInput::default() };
    let mut output = ctx.run_ui(input, |ui| {
        renderer.paint(ui.painter(), screen, &camera, map, toggles, &[], assets);
    });
    output.textures_delta.clear();
    ctx.tessellate(output.shapes, output.pixels_per_point).len()
}

fn sprites(c: &mut Criterion) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let assets = vec![dir.path().to_owned()];
    let map = animated_map(dir.path());
    let ctx = egui::Context::default();
    let sprites = LayerToggles::default();
    let ascii = LayerToggles { ascii: true, ..LayerToggles::default() };
    for zoom in [32.0, 8.0] {
        let camera = Camera { center: Vec2::new(128.0, 128.0), zoom };
        let mut renderer = MapRenderer::default();
        renderer.set_clock(Some(0));
        frame(&ctx, &mut renderer, &map, camera, &sprites, &assets);
        c.bench_function(
            &format!("sprite frame: 256x256 map all animated, {zoom} px per cell, no frame change"),
            |b| b.iter(|| frame(&ctx, &mut renderer, &map, camera, &sprites, &assets)),
        );
        let mut time = 0;
        c.bench_function(
            &format!("sprite frame: 256x256 map all animated, {zoom} px per cell, every frame changed"),
            |b| {
                b.iter(|| {
                    time += FRAME_MS;
                    renderer.set_clock(Some(time));
                    frame(&ctx, &mut renderer, &map, camera, &sprites, &assets)
                })
            },
        );
        let mut glyphs = MapRenderer::default();
        frame(&ctx, &mut glyphs, &map, camera, &ascii, &assets);
        c.bench_function(&format!("glyph frame (ASCII view): 256x256 map, {zoom} px per cell"), |b| {
            b.iter(|| frame(&ctx, &mut glyphs, &map, camera, &ascii, &assets))
        });
    }
}

criterion_group!(benches, sprites);
criterion_main!(benches);
