//! One frame of painting with the brush on a 512×512 map: the runtime applies a 3×3 brush
//! stroke part (merged into the stroke's undo step), builds the snapshot's map view (reusing
//! unchanged chunks), and the viewport draws it — zoomed in and with the whole map in view.
//! Run with `cargo bench -p nefia_editor --bench level`.

use criterion::{Criterion, criterion_group, criterion_main};
use egui::{Pos2, RawInput, Rect, Vec2};
use nefia_editor::render::camera::{Camera, LayerToggles};
use nefia_editor::render::map::MapRenderer;
use nefia_editor::tools::brush_cells;
use nefia_game::edit::Edit;
use nefia_game::history::History;
use nefia_protocol::view::MapViewBuilder;
use nefia_tests::TestGame;

fn painted_map() -> TestGame {
    let game = TestGame::with_mods(&["base", "elona"]);
    game.exec(
        r#"
        local map = InstancedMap:new(512, 512, "elona.grass")
        Map.set_map(map)
        for y = 0, 511 do for x = 0, 511 do
            if (x * 7 + y * 13) % 11 == 0 then map:set_tile(x, y, "elona.wall_stone") end
        end end
        for i = 1, 5000 do Chara.create("elona.putit", (i * 37) % 512, (i * 101) % 512) end
        "#,
    );
    game
}

fn brush(c: &mut Criterion) {
    let game = painted_map();
    let map = game.world().current_map().expect("a map");
    let screen = Rect::from_min_size(Pos2::ZERO, Vec2::new(1280.0, 800.0));
    let ctx = egui::Context::default();
    let mut renderer = MapRenderer::default();
    let mut builder = MapViewBuilder::default();
    let mut history = History::default();
    let mut step = 0;
    let mut frame = |camera: Camera| {
        step += 1;
        // The brush walks along a row, as a drag does.
        let center = (100 + step % 300, 200 + (step / 300) % 100);
        let part = Edit::PaintTiles {
            map,
            cells: brush_cells(center, 3).collect(),
            tile: if step % 2 == 0 { "elona.water" } else { "elona.floor_stone" }.into(),
        };
        let stroke = Edit::Stroke { id: 1, edit: Box::new(part) };
        game.apply_edit(&mut history, &stroke).expect("painted");
        let view = builder.build(&game.world()).expect("a view");
        let input = RawInput { screen_rect: Some(screen), ..RawInput::default() };
        let output = ctx.run_ui(input, |ui| {
            renderer.paint(ui.painter(), screen, &camera, &view, &LayerToggles::default(), &[], &[]);
        });
        ctx.tessellate(output.shapes, output.pixels_per_point).len()
    };
    let close = Camera { center: Vec2::new(250.0, 220.0), zoom: 24.0 };
    frame(close);
    c.bench_function("brush stroke frame: 512x512 map, 24 px per cell", |b| b.iter(|| frame(close)));
    let whole = Camera::fit(screen, 512, 512);
    frame(whole);
    c.bench_function("brush stroke frame: 512x512 map, whole map in view", |b| b.iter(|| frame(whole)));
}

criterion_group!(benches, brush);
criterion_main!(benches);
