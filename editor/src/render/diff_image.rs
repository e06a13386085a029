//! The picture `nefia diff --png` writes for code review and CI: the map before, after, and
//! after again with the changed cells lit, side by side. Tiles are coloured from their ids
//! (so the picture needs no mod's images), objects are dots by kind — characters red, items
//! yellow, feats blue.

use std::hash::{Hash, Hasher};
use std::path::Path;

use nefia_game::ObjectKind;
use nefia_game::map_diff::TileGrid;
use nefia_game::save::MapRecord;

use super::png_file;

/// The widest picture written, in pixels.
const MAX_WIDTH: u32 = 3072;

/// A colour for tile `id`: the same for the same id, muted so the marks stand out.
fn tile_colour(id: &str) -> [u8; 3] {
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    id.hash(&mut hasher);
    let h = hasher.finish().to_le_bytes();
    [60 + h[0] % 120, 60 + h[1] % 120, 60 + h[2] % 120]
}

fn kind_colour(kind: ObjectKind) -> [u8; 3] {
    match kind {
        ObjectKind::Chara => [230, 60, 60],
        ObjectKind::Item => [240, 210, 60],
        ObjectKind::Feat => [70, 140, 255],
        ObjectKind::Mef => [255, 120, 40],
    }
}

/// Draws one panel at column `left`: `grid`'s tiles, `record`'s objects, and, if given, the
/// changed cells lit over a dimmed map.
fn panel(
    image: &mut image::RgbImage,
    left: u32,
    cell: u32,
    (grid, record): (&TileGrid, &MapRecord),
    lit: Option<&[(i32, i32)]>,
) {
    let mut fill = |x: i32, y: i32, inset: u32, colour: [u8; 3]| {
        let (Ok(cx), Ok(cy)) = (u32::try_from(x), u32::try_from(y)) else { return };
        for py in cy * cell + inset..(cy + 1) * cell - inset.min(cell / 2) {
            for px in cx * cell + inset..(cx + 1) * cell - inset.min(cell / 2) {
                if let Some(pixel) = image.get_pixel_mut_checked(left + px, py) {
                    *pixel = image::Rgb(colour);
                }
            }
        }
    };
    let dim = |c: [u8; 3]| if lit.is_some() { c.map(|v| v / 3) } else { c };
    for y in 0..grid.height {
        for x in 0..grid.width {
            if let Some(tile) = grid.get(x, y) {
                fill(x, y, 0, dim(tile_colour(tile.as_str())));
            }
        }
    }
    let inset = cell / 4;
    for object in &record.objects {
        fill(object.x, object.y, inset, dim(kind_colour(object.kind)));
    }
    for &(x, y) in lit.unwrap_or_default() {
        fill(x, y, 0, [255, 60, 255]);
    }
}

/// Writes the picture of a diff to `path`: `a` before, `b` after, and `b` with `changed`
/// lit.
pub fn write(
    path: &Path,
    a: (&TileGrid, &MapRecord),
    b: (&TileGrid, &MapRecord),
    changed: &[(i32, i32)],
) -> Result<(), png_file::WriteError> {
    let width = u32::try_from(a.0.width.max(b.0.width)).unwrap_or(1);
    let height = u32::try_from(a.0.height.max(b.0.height)).unwrap_or(1);
    let gap = 4;
    let cell = (MAX_WIDTH / (3 * width + 2)).clamp(1, 8);
    let panel_width = width * cell + gap;
    let mut image = image::RgbImage::from_pixel(3 * panel_width, height * cell, image::Rgb([20, 20, 24]));
    panel(&mut image, 0, cell, a, None);
    panel(&mut image, panel_width, cell, b, None);
    panel(&mut image, 2 * panel_width, cell, b, Some(changed));
    png_file::save(&image, path)
}
