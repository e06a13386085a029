//! The pictures of a source map's tiles, for whoever fills its mapping: each tile the
//! mapping's template lists ([`nefia_game::exchange::template_pictures`]) cut from its
//! tileset with [`crate::render::sheets::cut`], as the import dialog's thumbnails and as the
//! contact sheet `nefia import` writes beside the template (`<stem>.tiles.png`, each picture
//! numbered as the template's `picture N`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use image::RgbaImage;
use nefia_game::art::Sprite;
use nefia_game::exchange::{self, Mapping, TilePicture};

use crate::render::sheets;
use crate::render::tileset_image::TextPainter;

/// Pictures in a row of the contact sheet.
const COLUMNS: u32 = 12;

/// The height of the number under each picture, in pixels.
const LABEL_PX: u32 = 14;

/// The least side a picture is shown at (smaller tiles are scaled up by whole steps).
const MIN_SHOWN_PX: u32 = 32;

/// Why the pictures could not be made.
#[derive(Debug, thiserror::Error)]
pub enum PicturesError {
    /// The source map could not be read.
    #[error(transparent)]
    Source(#[from] exchange::ImportError),
    /// A tileset image could not be read.
    #[error(transparent)]
    Sheet(#[from] sheets::SheetError),
    /// The contact sheet could not be written.
    #[error(transparent)]
    Write(#[from] crate::render::png_file::WriteError),
    /// The mapping file is not a mapping.
    #[error("{0}")]
    Mapping(String),
}

/// One listed tile with its picture.
pub struct Pictured {
    /// Its number in the template (`picture N`).
    pub number: usize,
    /// Its name in the source.
    pub name: String,
    /// Its first frame, turned as it is placed.
    pub image: RgbaImage,
}

/// Cuts the first frame of each listed tile that has a picture, decoding each tileset once.
pub fn cut_all(listed: &[(String, Option<TilePicture>)]) -> Result<Vec<Pictured>, PicturesError> {
    let mut decoded: HashMap<PathBuf, RgbaImage> = HashMap::new();
    let mut out = Vec::new();
    for (index, (name, picture)) in listed.iter().enumerate() {
        let Some(picture) = picture else { continue };
        if !decoded.contains_key(&picture.image) {
            decoded.insert(picture.image.clone(), sheets::decode(&picture.image)?);
        }
        let sheet = &decoded[&picture.image];
        let sprite = Sprite {
            frames: picture.frames.clone(),
            ..Sprite::whole(nefia_game::Symbol::intern(""), picture.width, picture.height)
        };
        out.push(Pictured { number: index + 1, name: name.clone(), image: sheets::cut(sheet, &sprite, 0) });
    }
    Ok(out)
}

/// The pictures of the tiles the template for `source` lists with mapping `existing`.
pub fn for_source(source: &Path, existing: &Mapping) -> Result<Vec<Pictured>, PicturesError> {
    let sources = exchange::read(source)?;
    cut_all(&exchange::template_pictures(&sources, existing))
}

/// The contact sheet of `pictures`: each scaled up to at least [`MIN_SHOWN_PX`], its number
/// under it, [`COLUMNS`] to a row.
pub fn contact_sheet(pictures: &[Pictured]) -> RgbaImage {
    let largest = pictures.iter().map(|p| p.image.width().max(p.image.height())).max().unwrap_or(1).max(1);
    let scale = MIN_SHOWN_PX.div_ceil(largest).max(1);
    let side = largest * scale + 4;
    let count = u32::try_from(pictures.len()).unwrap_or(u32::MAX).max(1);
    let columns = count.min(COLUMNS);
    let rows = count.div_ceil(columns);
    let mut sheet = RgbaImage::from_pixel(columns * side, rows * (side + LABEL_PX), image::Rgba([40, 40, 46, 255]));
    let mut painter = TextPainter::default();
    for (index, picture) in (0_u32..).zip(pictures) {
        let (left, top) = ((index % columns) * side, (index / columns) * (side + LABEL_PX));
        let scaled = image::imageops::resize(
            &picture.image,
            picture.image.width() * scale,
            picture.image.height() * scale,
            image::imageops::FilterType::Nearest,
        );
        image::imageops::overlay(&mut sheet, &scaled, i64::from(left + 2), i64::from(top + 2));
        let label = (left, top + side, side, LABEL_PX);
        painter.draw(&mut sheet, label, &picture.number.to_string(), 11.0, [230, 230, 230, 255]);
    }
    sheet
}

/// Where the contact sheet of `source` is written: `<stem>.tiles.png` beside it.
pub fn sheet_path(source: &Path) -> PathBuf {
    let stem = source.file_stem().and_then(|s| s.to_str()).unwrap_or("import");
    source.with_file_name(format!("{stem}.tiles.png"))
}

/// Writes the contact sheet of the tiles the mapping (at `mapping`, or beside `source`) of
/// `source` lists, if any has a picture; returns where.
pub fn write_for(source: &Path, mapping: Option<&Path>) -> Result<Option<PathBuf>, PicturesError> {
    let mapping_path = mapping.map_or_else(|| nefia_host::maps::import::default_mapping(source), Path::to_owned);
    let existing: Mapping = match mapping_path.exists() {
        true => nefia_game::files::read_ron(&mapping_path).map_err(|e| PicturesError::Mapping(e.to_string()))?,
        false => Mapping::default(),
    };
    let pictures = for_source(source, &existing)?;
    if pictures.is_empty() {
        return Ok(None);
    }
    let path = sheet_path(source);
    crate::render::png_file::save(&contact_sheet(&pictures), &path)?;
    Ok(Some(path))
}
