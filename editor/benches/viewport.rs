//! One viewport frame without a GPU: egui's pass plus tessellation, for a 256×256 map with
//! 20,000 objects — whole in view (drawn as per-layer textures), and zoomed in to 24 pixels
//! per cell (drawn from cached per-chunk glyph meshes); and the frame right after a turn in
//! which every object moved (every chunk dirty) or 1% of them did (the new map view is built
//! on another thread, as the host does, and not timed). Run with
//! `cargo bench -p nefia_editor --bench viewport`.

use criterion::{Criterion, criterion_group, criterion_main};
use egui::{Pos2, RawInput, Rect, Vec2};
use nefia_editor::render::camera::{Camera, LayerToggles};
use nefia_editor::render::map::MapRenderer;
use nefia_protocol::view::{MapView, MapViewBuilder};
use nefia_tests::TestGame;
use std::sync::{Arc, mpsc};

/// The game of the bench map (its Lua state is the caller's thread's, as on the host's thread
/// in the editor).
fn big_map_game() -> TestGame {
    let game = TestGame::with_mods(&["base", "elona"]);
    game.exec(
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
            -- Apart: like items made on one cell would join one stack.
            kind[1].create(kind[2], (i * 37) % 256, (i * 101) % 256, kind[1] == Item and { no_stack = true } or nil)
        end
        "#,
    );
    assert!(game.world().object_count() >= 20_000);
    game
}

fn big_map() -> Arc<MapView> {
    MapViewBuilder::default().build(&big_map_game().world()).expect("a current map")
}

/// A game on its own thread, as the editor's host is, that plays a turn in which every
/// `every`-th object moves and sends back the map view built after it, each time it is asked.
fn turns() -> (mpsc::Sender<usize>, mpsc::Receiver<Arc<MapView>>) {
    let (ask, asked) = mpsc::channel::<usize>();
    let (send, views) = mpsc::channel();
    std::thread::spawn(move || {
        let game = big_map_game();
        let mut builder = MapViewBuilder::default();
        let mut view = builder.build(&game.world()).expect("a current map");
        // The bench hangs up when it is done.
        while send.send(view).is_ok() {
            let Ok(every) = asked.recv() else { return };
            move_objects(&game, every);
            view = builder.build(&game.world()).expect("a current map");
        }
    });
    (ask, views)
}

/// Moves every `every`-th object of the map one cell to the right (wrapping), as a turn of
/// the game would.
fn move_objects(game: &TestGame, every: usize) {
    let code = format!(
        "local map = Map.current() local i = 0 \
         for _, o in map:iter() do i = i + 1 if i % {every} == 0 then o:set_pos((o.x + 1) % 256, o.y) end end"
    );
    game.exec(&code);
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
    let map = big_map();
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
    let (ask, views) = turns();
    let first = views.recv().expect("the first view");
    for (every, what) in [(1, "every one of 20,000 objects moved"), (100, "1% of the objects moved")] {
        for (camera, zoom) in [(whole, "whole map in view"), (close, "24 px per cell")] {
            frame(&ctx, &mut renderer, &first, camera);
            c.bench_function(&format!("viewport frame after a turn in which {what}: {zoom}"), |b| {
                b.iter_batched(
                    || {
                        ask.send(every).expect("the game's thread runs");
                        views.recv().expect("a view after the turn")
                    },
                    |moved| frame(&ctx, &mut renderer, &moved, camera),
                    criterion::BatchSize::PerIteration,
                )
            });
        }
    }
}

criterion_group!(benches, viewport);
criterion_main!(benches);
