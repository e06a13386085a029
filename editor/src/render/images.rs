//! Images named by prototypes (`image = "feats/fountain.png"`), loaded once from a project's
//! asset folders into textures. A missing or broken image is reported once and the glyph is
//! drawn instead.

use std::collections::HashMap;
use std::path::PathBuf;

use egui::{ColorImage, TextureHandle, TextureOptions};
use nefia_game::Symbol;

use super::sheets::{self, SheetError};

/// Loaded images by name.
#[derive(Default)]
pub struct ImageCache {
    textures: HashMap<Symbol, Option<TextureHandle>>,
    problems: Vec<String>,
}

impl ImageCache {
    /// The texture of image `name`, loading it from the first of `dirs` that has it.
    pub fn get(&mut self, ctx: &egui::Context, dirs: &[PathBuf], name: Symbol) -> Option<&TextureHandle> {
        if !self.textures.contains_key(&name) {
            let loaded = load(ctx, dirs, name);
            if let Err(problem) = &loaded {
                self.problems.push(problem.to_string());
            }
            self.textures.insert(name, loaded.ok());
        }
        self.textures.get(&name).and_then(Option::as_ref)
    }

    /// Whether image `name` could be loaded (loading it if needed).
    pub fn has(&mut self, ctx: &egui::Context, dirs: &[PathBuf], name: Symbol) -> bool {
        self.get(ctx, dirs, name).is_some()
    }

    /// Problems found since the last call (missing or unreadable images).
    pub fn take_problems(&mut self) -> Vec<String> {
        std::mem::take(&mut self.problems)
    }
}

fn load(ctx: &egui::Context, dirs: &[PathBuf], name: Symbol) -> Result<TextureHandle, SheetError> {
    let image = sheets::decode(&sheets::find(dirs, name)?)?;
    let size = [image.width() as usize, image.height() as usize];
    let pixels = ColorImage::from_rgba_unmultiplied(size, image.as_raw());
    Ok(ctx.load_texture(format!("nefia-image-{name}"), pixels, TextureOptions::NEAREST))
}
