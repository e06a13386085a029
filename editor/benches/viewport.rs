//! One viewport frame without a GPU: egui's pass plus tessellation, for a 256×256 map with
//! 20,000 objects — whole in view (drawn as per-layer textures), and zoomed in to 24 pixels
//! per cell (drawn from cached per-chunk glyph meshes); and the frame right after a turn in
//! which every object moved (every chunk dirty) or 1% of them did, the map view built again
//! included. Run with `cargo bench -p nefia_editor --bench viewport`.

use criterion::{Criterion, criterion_group, criterion_main};
use egui::{Pos2, RawInput, Rect, Vec2};
use nefia_editor::render::camera::{Camera, LayerToggles};
use nefia_editor::render::map::MapRenderer;
use nefia_runtime::Runtime;
use nefia_runtime::lua::Output;
use nefia_runtime::view::{MapView, MapViewBuilder};
use std::sync::Arc;

fn big_map() -> (Runtime, MapViewBuilder, Arc<MapView>) {
    let mut runtime = Runtime::new(Box::new(|_: Output| {})).expect("runtime");
    let mods = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../mods");
    runtime.load_mods(&[mods], &["base".into(), "elona".into()]).expect("mods");
    runtime
        .exec(
            r#"
            local map = InstancedMap:new(256, 256, "elona.grass")
            Map.set_map(map)
            for y = 0, 255 do for x = 0, 255 do
                if (x * 7 + y * 13) % 11 == 0 then map:set_tile(x, y, "elona.wall_stone") end
            end end
            local kinds = {
                { Chara, "elona.putit" }, { Chara, "elona.yeek" }, { Item, "elona.putitoro" },
                { Item, "elona.dagger" }, { Feat, "elona.door" },
            }
            for i = 1, 20000 do
                local kind = kinds[i % #kinds + 1]
                kind[1].create(kind[2], (i * 37) % 256, (i * 101) % 256)
            end
            "#,
            "bench",
        )
        .expect("map built");
    assert!(runtime.world().object_count() >= 20_000);
    let mut builder = MapViewBuilder::default();
    let view = builder.build(&runtime.world()).expect("a current map");
    (runtime, builder, view)
}

/// Moves every `every`-th object of the map one cell to the right (wrapping), as a turn of
/// the game would.
fn move_objects(runtime: &Runtime, every: usize) {
    let code = format!(
        "local map = Map.current() local i = 0 \
         for _, o in map:iter() do i = i + 1 if i % {every} == 0 then o:set_pos((o.x + 1) % 256, o.y) end end"
    );
    runtime.exec(&code, "bench").expect("objects moved");
}

fn frame(ctx: &egui::Context, renderer: &mut MapRenderer, map: &MapView, camera: Camera) -> usize {
    let screen = Rect::from_min_size(Pos2::ZERO, Vec2::new(1280.0, 800.0));
    let input = RawInput { screen_rect: Some(screen), ..RawInput::default() };
    let output = ctx.run_ui(input, |ui| {
        renderer.paint(ui.painter(), screen, &camera, map, &LayerToggles::default(), &[], &[]);
    });
    ctx.tessellate(output.shapes, output.pixels_per_point).len()
}

fn viewport(c: &mut Criterion) {
    let (runtime, mut builder, map) = big_map();
    let screen = Rect::from_min_size(Pos2::ZERO, Vec2::new(1280.0, 800.0));
    let ctx = egui::Context::default();
    let mut renderer = MapRenderer::default();
    let whole = Camera::fit(screen, map.width, map.height);
    frame(&ctx, &mut renderer, &map, whole);
    c.bench_function("viewport frame: 256x256 map, 20,000 objects, whole map in view", |b| {
        b.iter(|| frame(&ctx, &mut renderer, &map, whole))
    });
    let close = Camera { center: Vec2::new(128.0, 128.0), zoom: 24.0 };
    frame(&ctx, &mut renderer, &map, close);
    c.bench_function("viewport frame: 256x256 map, 20,000 objects, 24 px per cell", |b| {
        b.iter(|| frame(&ctx, &mut renderer, &map, close))
    });
    let glyphs = Camera { center: Vec2::new(128.0, 128.0), zoom: 8.0 };
    frame(&ctx, &mut renderer, &map, glyphs);
    c.bench_function("viewport frame: 256x256 map, 20,000 objects, 8 px per cell (most glyphs)", |b| {
        b.iter(|| frame(&ctx, &mut renderer, &map, glyphs))
    });
    for (every, what) in [(1, "every one of 20,000 objects moved"), (100, "1% of the objects moved")] {
        for (camera, zoom) in [(whole, "whole map in view"), (close, "24 px per cell")] {
            frame(&ctx, &mut renderer, &map, camera);
            c.bench_function(&format!("viewport frame after a turn in which {what}: {zoom}"), |b| {
                b.iter_batched(
                    || move_objects(&runtime, every),
                    |()| {
                        let moved = builder.build(&runtime.world()).expect("a current map");
                        frame(&ctx, &mut renderer, &moved, camera)
                    },
                    criterion::BatchSize::PerIteration,
                )
            });
        }
    }
}

criterion_group!(benches, viewport);
criterion_main!(benches);
