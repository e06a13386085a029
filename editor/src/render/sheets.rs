//! Sheets: the images sprites are cut from, read from a project's asset folders and decoded
//! (with a size cap), and the cutting of one sprite frame out of a sheet — mirrored, turned
//! and with its key colour made transparent — as the atlas, `nefia render` and the exporter
//! all need it; what a cut frame is found again by ([`FrameKey`]), and the sheets read once
//! each for the pictures drawn in software ([`Decoded`]).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use image::RgbaImage;
use nefia_game::Symbol;
use nefia_game::art::{Rotation, Sprite};

/// The largest width or height of a sheet.
pub const MAX_SHEET_SIDE: u32 = 4096;

/// Why a sheet could not be read.
#[derive(Debug, thiserror::Error)]
pub enum SheetError {
    /// The name is not a plain path inside the asset folders.
    #[error("{0}")]
    BadName(nefia_game::project::InvalidAssetName),
    /// No asset folder has it.
    #[error("image '{name}' was not found in the asset folders ({dirs})")]
    NotFound {
        /// The sheet's name.
        name: Symbol,
        /// The asset folders looked in, joined.
        dirs: String,
    },
    /// The file could not be opened or its start read.
    #[error("{}: {source}", path.display())]
    Open {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The file is not a PNG this editor reads, or is larger than [`MAX_SHEET_SIDE`].
    #[error("{}: cannot read the image: {source}", path.display())]
    Decode {
        /// The file.
        path: PathBuf,
        /// Why.
        source: image::ImageError,
    },
}

/// The file of sheet `name`: the first of `dirs` that has it.
pub fn find(dirs: &[PathBuf], name: Symbol) -> Result<PathBuf, SheetError> {
    nefia_game::project::check_asset_name(name.as_str()).map_err(SheetError::BadName)?;
    dirs.iter().map(|dir| dir.join(name.as_str())).find(|path| path.is_file()).ok_or_else(|| SheetError::NotFound {
        name,
        dirs: dirs.iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(", "),
    })
}

/// Decodes the PNG at `path`, refusing one wider or taller than [`MAX_SHEET_SIDE`] before
/// its pixels are allocated.
pub fn decode(path: &Path) -> Result<RgbaImage, SheetError> {
    let cannot_open = |source| SheetError::Open { path: path.to_owned(), source };
    let mut reader = image::ImageReader::open(path).map_err(cannot_open)?;
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_SHEET_SIDE);
    limits.max_image_height = Some(MAX_SHEET_SIDE);
    reader.limits(limits);
    reader.set_format(image::ImageFormat::Png);
    let decoded = reader.decode().map_err(|source| SheetError::Decode { path: path.to_owned(), source })?;
    Ok(decoded.to_rgba8())
}

/// What a cut frame's pixels depend on: its sheet, its rectangle and how it is turned (not
/// the sprite's offset nor how long the frame shows), so a frame cut once is found again.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FrameKey {
    /// The sheet it is cut from.
    pub sheet: Symbol,
    x: u32,
    y: u32,
    width: u32,
    height: u32,
    key_color: Option<[u8; 3]>,
    flip_x: bool,
    flip_y: bool,
    rotation: Rotation,
}

impl FrameKey {
    /// The key of frame `frame` of `sprite`; None if it has no such frame.
    pub fn of(sprite: &Sprite, frame: usize) -> Option<FrameKey> {
        let at = sprite.frames.get(frame)?;
        Some(FrameKey {
            sheet: sprite.sheet,
            x: at.x,
            y: at.y,
            width: sprite.width,
            height: sprite.height,
            key_color: sprite.key_color,
            flip_x: sprite.flip_x,
            flip_y: sprite.flip_y,
            rotation: sprite.rotation,
        })
    }
}

/// Sheets read once each, by name, for a picture drawn in software (`nefia render`, the
/// exported tileset); a sheet that is missing or broken is noted once.
#[derive(Default)]
pub struct Decoded {
    sheets: HashMap<Symbol, Result<RgbaImage, String>>,
    problems: Vec<String>,
}

impl Decoded {
    /// Sheet `name` from the first of `dirs` that has it, read the first time it is asked
    /// for; why not, if it is missing or broken.
    pub fn get(&mut self, dirs: &[PathBuf], name: Symbol) -> Result<&RgbaImage, &str> {
        let problems = &mut self.problems;
        let read = self.sheets.entry(name).or_insert_with(|| {
            let read = find(dirs, name).and_then(|path| decode(&path)).map_err(|error| error.to_string());
            read.inspect_err(|problem| problems.push(problem.clone()))
        });
        read.as_ref().map_err(String::as_str)
    }

    /// Why the sheets that could not be read could not, each once, in the order they were
    /// first asked for.
    pub fn into_problems(self) -> Vec<String> {
        self.problems
    }
}

/// Frame `frame` of `sprite` cut from its `sheet`: mirrored, then turned, with the key colour
/// transparent. A sprite of size 0 is the whole sheet; parts outside the sheet are
/// transparent.
pub fn cut(sheet: &RgbaImage, sprite: &Sprite, frame: usize) -> RgbaImage {
    let Some(at) = sprite.frames.get(frame).or(sprite.frames.first()) else { return RgbaImage::new(0, 0) };
    let (width, height) = if sprite.width == 0 || sprite.height == 0 {
        sheet.dimensions()
    } else {
        (sprite.width.min(MAX_SHEET_SIDE), sprite.height.min(MAX_SHEET_SIDE))
    };
    let mut piece = RgbaImage::from_fn(width, height, |x, y| {
        let (sx, sy) = (at.x.saturating_add(x), at.y.saturating_add(y));
        let pixel = sheet.get_pixel_checked(sx, sy).copied().unwrap_or(image::Rgba([0, 0, 0, 0]));
        match sprite.key_color {
            Some(key) if pixel.0[..3] == key => image::Rgba([0, 0, 0, 0]),
            _ => pixel,
        }
    });
    if sprite.flip_x {
        image::imageops::flip_horizontal_in_place(&mut piece);
    }
    if sprite.flip_y {
        image::imageops::flip_vertical_in_place(&mut piece);
    }
    match sprite.rotation {
        Rotation::None => piece,
        Rotation::Quarter => image::imageops::rotate90(&piece),
        Rotation::Half => image::imageops::rotate180(&piece),
        Rotation::ThreeQuarters => image::imageops::rotate270(&piece),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use nefia_game::art::Frame;

    fn sheet() -> RgbaImage {
        // Two 2×2 frames side by side: red with a black key pixel, then green.
        let mut sheet = RgbaImage::from_pixel(4, 2, image::Rgba([255, 0, 0, 255]));
        sheet.put_pixel(0, 0, image::Rgba([0, 0, 0, 255]));
        for y in 0..2 {
            for x in 2..4 {
                sheet.put_pixel(x, y, image::Rgba([0, 255, 0, 255]));
            }
        }
        sheet
    }

    #[test]
    fn a_frame_is_cut_at_its_place_with_the_key_colour_transparent_and_turned() {
        let mut sprite = Sprite::whole(Symbol::intern("s.png"), 2, 2);
        sprite.frames.push(Frame { x: 2, y: 0, duration_ms: 100 });
        sprite.key_color = Some([0, 0, 0]);
        let first = cut(&sheet(), &sprite, 0);
        assert_eq!(first.get_pixel(0, 0).0[3], 0, "the key colour is transparent");
        assert_eq!(first.get_pixel(1, 1).0, [255, 0, 0, 255]);
        assert_eq!(cut(&sheet(), &sprite, 1).get_pixel(0, 0).0, [0, 255, 0, 255], "the second frame");
        sprite.rotation = Rotation::Half;
        assert_eq!(cut(&sheet(), &sprite, 0).get_pixel(1, 1).0[3], 0, "turned: the corner moved");
        sprite.rotation = Rotation::None;
        sprite.flip_x = true;
        assert_eq!(cut(&sheet(), &sprite, 0).get_pixel(1, 0).0[3], 0, "mirrored");
    }

    #[test]
    fn a_sprite_of_no_size_is_the_whole_sheet() {
        let whole = cut(&sheet(), &Sprite::whole(Symbol::intern("s.png"), 0, 0), 0);
        assert_eq!(whole.dimensions(), (4, 2));
    }
}
