//! The sprite atlas: every frame of every sprite a map view draws, cut from its sheet
//! ([`super::sheets`]) and packed with `etagere` into a few textures of [`PAGE_SIDE`]²
//! pixels, so a map draws from a few textures whatever the number of sheets.
//!
//! Frames are packed the first time something asks for them (a sprite's frames all at
//! once, so an animation never waits for its next frame to be cut); the sheets decoded stay,
//! up to [`KEPT_SHEET_BYTES`], for the sprites drawn later. A sheet that is missing
//! or broken is reported once and its sprites are absent: the caller draws the glyph
//! instead. [`Atlas::reload`] forgets a sheet that changed on disk; the next frame packs it
//! again, and [`Atlas::generation`] tells cached meshes their texture coordinates are stale.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use egui::{Color32, ColorImage, Pos2, Rect, TextureHandle, TextureId, TextureOptions};
use etagere::{AllocId, AtlasAllocator, size2};
use image::RgbaImage;
use nefia_game::Symbol;
use nefia_game::art::{Art, Sprite};

use super::sheets::{self, FrameKey};

/// The side of an atlas page, in pixels.
pub const PAGE_SIDE: u32 = 2048;
/// The most pages an atlas makes; past them, sprites are drawn as glyphs and the problem said.
pub const MAX_PAGES: usize = 16;
/// Empty pixels around each packed frame, so texture filtering never bleeds a neighbour in.
const GAP: u32 = 1;
/// The bytes of decoded sheets kept between frames: a sprite first drawn later (another pick
/// of a sprite set, a character walking into view) is cut without decoding its sheet again.
pub const KEPT_SHEET_BYTES: usize = 64 << 20;

/// Where a frame is in the atlas.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Placed {
    /// The texture of its page.
    pub texture: TextureId,
    /// Its rectangle in the texture, in texture coordinates (0 to 1).
    pub uv: Rect,
    /// Its size in pixels (after turning).
    pub size: [u32; 2],
    page: usize,
    alloc: AllocId,
}

/// One texture of the atlas and what is packed in it.
struct Page {
    allocator: AtlasAllocator,
    texture: TextureHandle,
    side: u32,
}

/// A sheet as the atlas last read it.
enum Sheet {
    /// Decoded (kept while [`Atlas::release_sheets`] has room for it) or already cut, read
    /// from `path`.
    Read { path: PathBuf, image: Option<Arc<RgbaImage>> },
    /// Missing or broken (reported once); `path` is where it was found, if it was.
    Broken { path: Option<PathBuf> },
}

/// Sprite frames packed into textures, by sheet and rectangle.
#[derive(Default)]
pub struct Atlas {
    pages: Vec<Page>,
    frames: HashMap<FrameKey, Option<Placed>>,
    sheets: HashMap<Symbol, Sheet>,
    problems: Vec<String>,
    /// Sheets whose sprites did not fit (reported once).
    overflowed: HashSet<Symbol>,
    generation: u64,
}

impl Atlas {
    /// Where frame `frame` of `sprite` is, packing the sprite's frames (from the first of
    /// `dirs` with its sheet) if this is the first time it is asked for. None if its sheet is
    /// missing or broken, or the atlas is full.
    pub fn frame(&mut self, ctx: &egui::Context, dirs: &[PathBuf], sprite: &Sprite, frame: usize) -> Option<Placed> {
        let key = FrameKey::of(sprite, frame).or_else(|| FrameKey::of(sprite, 0))?;
        if let Some(placed) = self.frames.get(&key) {
            return *placed;
        }
        self.pack_sprite(ctx, dirs, sprite);
        self.frames.get(&key).copied().flatten()
    }

    /// Packs every frame of every sprite of `art`.
    pub fn pack_art(&mut self, ctx: &egui::Context, dirs: &[PathBuf], art: &Art) {
        for sprite in &art.sprites {
            if FrameKey::of(sprite, 0).is_some_and(|key| !self.frames.contains_key(&key)) {
                self.pack_sprite(ctx, dirs, sprite);
            }
        }
    }

    fn pack_sprite(&mut self, ctx: &egui::Context, dirs: &[PathBuf], sprite: &Sprite) {
        let sheet = self.sheet(dirs, sprite.sheet);
        for index in 0..sprite.frames.len() {
            let Some(key) = FrameKey::of(sprite, index) else { continue };
            if self.frames.contains_key(&key) {
                continue;
            }
            let placed =
                sheet.as_ref().and_then(|sheet| self.place(ctx, sprite.sheet, &sheets::cut(sheet, sprite, index)));
            self.frames.insert(key, placed);
        }
    }

    /// The decoded sheet `name`, reading it if it is not held; None (reported once) if it
    /// is missing or broken.
    fn sheet(&mut self, dirs: &[PathBuf], name: Symbol) -> Option<Arc<RgbaImage>> {
        match self.sheets.get(&name) {
            Some(Sheet::Read { image: Some(image), .. }) => return Some(image.clone()),
            Some(Sheet::Broken { .. }) => return None,
            _ => {}
        }
        let path = match sheets::find(dirs, name) {
            Ok(path) => path,
            Err(error) => {
                self.problems.push(error.to_string());
                self.sheets.insert(name, Sheet::Broken { path: None });
                return None;
            }
        };
        match sheets::decode(&path) {
            Ok(image) => {
                let image = Arc::new(image);
                self.sheets.insert(name, Sheet::Read { path, image: Some(image.clone()) });
                Some(image)
            }
            Err(error) => {
                self.problems.push(error.to_string());
                self.sheets.insert(name, Sheet::Broken { path: Some(path) });
                None
            }
        }
    }

    /// Packs `pixels` into a page (a new one if none has room) and uploads them.
    fn place(&mut self, ctx: &egui::Context, sheet: Symbol, pixels: &RgbaImage) -> Option<Placed> {
        let (width, height) = pixels.dimensions();
        if width == 0 || height == 0 {
            return None;
        }
        let wanted = size2((width + GAP * 2) as i32, (height + GAP * 2) as i32);
        let found = self.pages.iter_mut().enumerate().find_map(|(i, page)| Some((i, page.allocator.allocate(wanted)?)));
        let (page, allocation) = match found {
            Some(found) => found,
            None => {
                if self.pages.len() >= MAX_PAGES {
                    if self.overflowed.insert(sheet) {
                        self.problems.push(format!(
                            "image '{sheet}': the sprite atlas is full ({MAX_PAGES} textures of {PAGE_SIDE}×{PAGE_SIDE}); its sprites are drawn as glyphs"
                        ));
                    }
                    return None;
                }
                // A frame larger than a page gets a page of its own size.
                let side = PAGE_SIDE.max(width + GAP * 2).max(height + GAP * 2);
                let name = format!("nefia-atlas-{}", self.pages.len());
                let blank = ColorImage::filled([side as usize; 2], Color32::TRANSPARENT);
                let texture = ctx.load_texture(name, blank, TextureOptions::NEAREST);
                let mut allocator = AtlasAllocator::new(size2(side as i32, side as i32));
                let allocation = allocator.allocate(wanted)?;
                self.pages.push(Page { allocator, texture, side });
                (self.pages.len() - 1, allocation)
            }
        };
        let page_ref = &mut self.pages[page];
        let min = allocation.rectangle.min;
        let (x, y) = (min.x as u32 + GAP, min.y as u32 + GAP);
        let image = ColorImage::from_rgba_unmultiplied([width as usize, height as usize], pixels.as_raw());
        page_ref.texture.set_partial([x as usize, y as usize], image, TextureOptions::NEAREST);
        let side = page_ref.side as f32;
        let uv = Rect::from_min_max(
            Pos2::new(x as f32 / side, y as f32 / side),
            Pos2::new((x + width) as f32 / side, (y + height) as f32 / side),
        );
        Some(Placed { texture: page_ref.texture.id(), uv, size: [width, height], page, alloc: allocation.id })
    }

    /// Forgets sheet `name` (its frames' room is freed, a problem with it may be reported
    /// again): the next frame that draws it reads it anew. True if the atlas had read it.
    pub fn reload(&mut self, name: Symbol) -> bool {
        let had = self.sheets.remove(&name).is_some();
        self.overflowed.remove(&name);
        let pages = &mut self.pages;
        self.frames.retain(|key, placed| {
            if key.sheet != name {
                return true;
            }
            if let Some(placed) = placed {
                pages[placed.page].allocator.deallocate(placed.alloc);
            }
            false
        });
        if had {
            self.generation += 1;
        }
        had
    }

    /// Forgets the sheets read from file `path` (see [`Atlas::reload`]); true if there was one.
    pub fn reload_path(&mut self, path: &Path) -> bool {
        let names: Vec<Symbol> = self
            .sheets
            .iter()
            .filter(|(_, sheet)| match sheet {
                Sheet::Read { path: read, .. } | Sheet::Broken { path: Some(read) } => same_file(read, path),
                Sheet::Broken { path: None } => false,
            })
            .map(|(&name, _)| name)
            .collect();
        // A sheet that was missing may be the file that just came.
        let missing: Vec<Symbol> = self
            .sheets
            .iter()
            .filter(|(name, sheet)| matches!(sheet, Sheet::Broken { path: None }) && path.ends_with(name.as_str()))
            .map(|(&name, _)| name)
            .collect();
        names.into_iter().chain(missing).fold(false, |any, name| self.reload(name) | any)
    }

    /// Drops the decoded sheets past [`KEPT_SHEET_BYTES`] (their frames stay packed; one
    /// dropped is decoded again if a sprite of it not yet packed is drawn): call once a
    /// frame's drawing is done.
    pub fn release_sheets(&mut self) {
        let mut kept = 0;
        for sheet in self.sheets.values_mut() {
            let Sheet::Read { image, .. } = sheet else { continue };
            let bytes = image.as_ref().map_or(0, |decoded| decoded.as_raw().len());
            if kept + bytes <= KEPT_SHEET_BYTES {
                kept += bytes;
            } else {
                *image = None;
            }
        }
    }

    /// Counts the times packed frames moved or went: meshes holding texture coordinates built
    /// under another generation are stale.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// The bytes of the atlas's textures.
    pub fn texture_bytes(&self) -> usize {
        self.pages.iter().map(|page| page.side as usize * page.side as usize * 4).sum()
    }

    /// The number of textures.
    pub fn pages(&self) -> usize {
        self.pages.len()
    }

    /// Problems found since the last call (missing or unreadable sheets, a full atlas).
    pub fn take_problems(&mut self) -> Vec<String> {
        std::mem::take(&mut self.problems)
    }
}

/// Whether `a` and `b` name the same file (one may be relative, or go through a link).
fn same_file(a: &Path, b: &Path) -> bool {
    a == b || a.canonicalize().is_ok_and(|a| b.canonicalize().is_ok_and(|b| a == b))
}

#[cfg(test)]
mod tests {
    use super::*;
    use nefia_game::art::Frame;

    fn write_sheet(dir: &Path, name: &str, colors: &[[u8; 4]]) {
        // One 4×4 frame per colour, side by side.
        let sheet = RgbaImage::from_fn(4 * colors.len() as u32, 4, |x, _| image::Rgba(colors[(x / 4) as usize]));
        let path = dir.join(name);
        crate::render::png_file::save(&sheet, &path).expect("the sheet is written");
    }

    fn animated(sheet: &str, frames: u32) -> Sprite {
        let mut sprite = Sprite::whole(Symbol::intern(sheet), 4, 4);
        sprite.frames = (0..frames).map(|i| Frame { x: 4 * i, y: 0, duration_ms: 100 }).collect();
        sprite
    }

    /// Runs one egui pass of `paint` and returns the texture uploads it made.
    fn pass(ctx: &egui::Context, mut paint: impl FnMut(&egui::Context)) -> Vec<(TextureId, egui::epaint::ImageDelta)> {
        let mut output = ctx.run_ui(egui::RawInput::default(), |ui| paint(ui.ctx()));
        let uploads = output.textures_delta.set.iter().flat_map(|(id, d)| d.iter().map(|d| (*id, d.clone()))).collect();
        output.textures_delta.clear();
        uploads
    }

    /// The pixel at the top-left corner of `placed` in `uploads`, if it was uploaded.
    fn uploaded(uploads: &[(TextureId, egui::epaint::ImageDelta)], placed: &Placed) -> Option<[u8; 4]> {
        uploads.iter().rev().filter(|(id, _)| *id == placed.texture).find_map(|(_, delta)| {
            let egui::ImageData::Color(image) = &delta.image;
            let [x, y] = delta.pos?;
            let side = image.size;
            let at = [(placed.uv.min.x * PAGE_SIDE as f32) as usize, (placed.uv.min.y * PAGE_SIDE as f32) as usize];
            let inside = at[0] >= x && at[1] >= y && at[0] < x + side[0] && at[1] < y + side[1];
            inside.then(|| image.pixels[(at[1] - y) * side[0] + at[0] - x].to_array())
        })
    }

    #[test]
    fn a_sprites_frames_are_packed_into_one_page_and_a_missing_sheet_is_reported_once() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        write_sheet(dir.path(), "water.png", &[[255, 0, 0, 255], [0, 0, 255, 255]]);
        let dirs = vec![dir.path().to_owned()];
        let ctx = egui::Context::default();
        let mut atlas = Atlas::default();
        let sprite = animated("water.png", 2);
        pass(&ctx, |ctx| {
            let first = atlas.frame(ctx, &dirs, &sprite, 0).expect("packed");
            let second = atlas.frame(ctx, &dirs, &sprite, 1).expect("packed with the first");
            assert_eq!(first.texture, second.texture, "one texture");
            assert_ne!(first.uv, second.uv);
            assert_eq!(first.size, [4, 4]);
            let missing = Sprite::whole(Symbol::intern("gone.png"), 0, 0);
            assert!(atlas.frame(ctx, &dirs, &missing, 0).is_none());
            assert!(atlas.frame(ctx, &dirs, &missing, 0).is_none());
        });
        let problems = atlas.take_problems();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("gone.png"), "{problems:?}");
        assert_eq!(atlas.pages(), 1);
        assert_eq!(atlas.texture_bytes(), (PAGE_SIDE * PAGE_SIDE * 4) as usize);
    }

    #[test]
    fn a_sheet_rewritten_on_disk_is_uploaded_anew_after_reload() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        write_sheet(dir.path(), "wall.png", &[[255, 0, 0, 255]]);
        let dirs = vec![dir.path().to_owned()];
        let ctx = egui::Context::default();
        let mut atlas = Atlas::default();
        let sprite = animated("wall.png", 1);
        let mut placed = None;
        let uploads = pass(&ctx, |ctx| placed = atlas.frame(ctx, &dirs, &sprite, 0));
        let placed = placed.expect("packed");
        assert_eq!(uploaded(&uploads, &placed), Some([255, 0, 0, 255]), "red at first");
        atlas.release_sheets();
        write_sheet(dir.path(), "wall.png", &[[0, 255, 0, 255]]);
        let generation = atlas.generation();
        assert!(atlas.reload_path(&dir.path().join("wall.png")), "the atlas had read it");
        assert!(atlas.generation() > generation, "cached meshes are stale");
        let mut again = None;
        let uploads = pass(&ctx, |ctx| again = atlas.frame(ctx, &dirs, &sprite, 0));
        let again = again.expect("packed again");
        assert_eq!(uploaded(&uploads, &again), Some([0, 255, 0, 255]), "green once reloaded");
    }

    #[test]
    fn a_sprite_first_drawn_in_a_later_frame_is_cut_from_the_sheet_already_decoded() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        write_sheet(dir.path(), "set.png", &[[255, 0, 0, 255], [0, 0, 255, 255]]);
        let dirs = vec![dir.path().to_owned()];
        let ctx = egui::Context::default();
        let mut atlas = Atlas::default();
        let first = animated("set.png", 1);
        pass(&ctx, |ctx| assert!(atlas.frame(ctx, &dirs, &first, 0).is_some(), "packed"));
        atlas.release_sheets();
        // Gone from disk: only the sheet decoded in the first frame can give the second sprite.
        std::fs::remove_file(dir.path().join("set.png")).expect("the sheet is removed");
        let mut second = animated("set.png", 1);
        second.frames[0].x = 4;
        let mut placed = None;
        let uploads = pass(&ctx, |ctx| placed = atlas.frame(ctx, &dirs, &second, 0));
        let placed = placed.expect("cut from the sheet kept");
        assert_eq!(uploaded(&uploads, &placed), Some([0, 0, 255, 255]), "the sheet's second frame");
        assert_eq!(atlas.take_problems(), Vec::<String>::new());
    }
}
