//! `nefia render`: a map file drawn as a PNG with its sprites, one pixel per sprite pixel,
//! tiles without art in their glyph's colours. (Beside `cli.rs`, which is near the length a
//! file may have.)

#[path = "common/cli.rs"]
mod cli;

use cli::{nefia, repo};

/// A project with the repository's mods and one more, `arttest`: a tile drawn from
/// `red.png` (8×8, red above blue) and a plain one; and a 2×1 map of both, 8 pixels a cell.
fn project() -> tempfile::TempDir {
    let project = tempfile::tempdir().expect("a temporary folder");
    let root = project.path();
    let mod_dir = root.join("mods/arttest");
    std::fs::create_dir_all(&mod_dir).expect("the mod's folder");
    std::fs::write(mod_dir.join("mod.ron"), r#"(id: "arttest", version: "1.0.0", dependencies: ["base"])"#)
        .expect("mod.ron");
    std::fs::write(
        mod_dir.join("init.lua"),
        r##"data:add { _type = "base.map_tile", _id = "red", glyph = "#", color = { 255, 255, 255 }, background = { 0, 0, 0 }, image = "red.png" }
data:add { _type = "base.map_tile", _id = "plain", glyph = "x", color = { 0, 255, 0 }, background = { 40, 40, 40 } }
"##,
    )
    .expect("init.lua");
    std::fs::create_dir_all(root.join("assets")).expect("assets/");
    let sheet = image::RgbaImage::from_fn(8, 8, |_, y| match y < 4 {
        true => image::Rgba([255, 0, 0, 255]),
        false => image::Rgba([0, 0, 255, 255]),
    });
    sheet.save(root.join("assets/red.png")).expect("the sheet");
    std::fs::write(
        root.join("project.ron"),
        format!(
            "(name: \"Art\", mods: [\"arttest\"], mod_dirs: [{:?}], asset_dirs: [\"assets\"])",
            repo().join("mods")
        ),
    )
    .expect("project.ron");
    std::fs::create_dir_all(root.join("maps")).expect("maps/");
    std::fs::write(
        root.join("maps/two.ron"),
        r#"(name: "two", width: 2, height: 1, palette: {"r": "arttest.red", "p": "arttest.plain"}, tiles: ["rp"], fields: {"cell_px": 8})"#,
    )
    .expect("the map");
    project
}

#[test]
fn render_draws_a_maps_sprites_at_their_pixel_size_and_cells_without_art_in_their_glyphs_colours() {
    let project = project();
    let out = project.path().join("two.png");
    let map = project.path().join("maps/two.ron");
    let args = ["render", map.to_str().unwrap(), "--png", out.to_str().unwrap(), "--project"];
    let rendered = nefia(&[&args[..], &[project.path().to_str().unwrap(), "--time-ms", "1250"]].concat());
    let stderr = String::from_utf8_lossy(&rendered.stderr);
    assert!(rendered.status.success(), "{stderr}");
    assert!(String::from_utf8_lossy(&rendered.stdout).contains("16×8 pixels"));
    let image = image::open(&out).expect("a PNG").to_rgba8();
    assert_eq!(image.dimensions(), (16, 8), "two cells of 8 pixels");
    assert_eq!(image.get_pixel(0, 0).0, [255, 0, 0, 255], "the sprite's top half");
    assert_eq!(image.get_pixel(7, 7).0, [0, 0, 255, 255], "its bottom half");
    assert_eq!(image.get_pixel(8, 0).0, [40, 40, 40, 255], "the plain tile's background");
    assert_eq!(image.get_pixel(12, 4).0, [0, 255, 0, 255], "its glyph's colour in the middle");

    // A map that is not there: an error naming it, exit 1, nothing written.
    let missing = project.path().join("maps/none.ron");
    let refused = nefia(&[
        "render",
        missing.to_str().unwrap(),
        "--png",
        "never.png",
        "--project",
        project.path().to_str().unwrap(),
    ]);
    assert_eq!(refused.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&refused.stderr).contains("none.ron"),
        "{}",
        String::from_utf8_lossy(&refused.stderr)
    );
    assert!(!repo().join("never.png").exists());
}
