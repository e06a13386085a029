//! Images named by prototypes (`image = "feats/fountain.png"`), loaded once from a project's
//! asset folders into textures. A missing or broken image is reported once and the glyph is
//! drawn instead.

use std::collections::HashMap;
use std::path::PathBuf;

use egui::{ColorImage, TextureHandle, TextureOptions};
use nefia_game::Symbol;

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

/// The largest width or height of an image a prototype may name.
const MAX_IMAGE_SIDE: u32 = 4096;

/// Why an image a prototype names could not be loaded.
#[derive(Debug, thiserror::Error)]
enum LoadError {
    /// The name is not a plain path inside the asset folders.
    #[error("{0}")]
    BadName(nefia_game::project::InvalidAssetName),
    /// No asset folder has it.
    #[error("image '{name}' was not found in the asset folders ({dirs})")]
    NotFound {
        /// The image's name.
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
    /// The file is not an image this editor reads, or is larger than [`MAX_IMAGE_SIDE`].
    #[error("{}: cannot read the image: {source}", path.display())]
    Decode {
        /// The file.
        path: PathBuf,
        /// Why.
        source: image::ImageError,
    },
}

fn load(ctx: &egui::Context, dirs: &[PathBuf], name: Symbol) -> Result<TextureHandle, LoadError> {
    nefia_game::project::check_asset_name(name.as_str()).map_err(LoadError::BadName)?;
    let path = dirs
        .iter()
        .map(|dir| dir.join(name.as_str()))
        .find(|path| path.is_file())
        .ok_or_else(|| LoadError::NotFound { name, dirs: join(dirs) })?;
    let cannot_open = |source| LoadError::Open { path: path.clone(), source };
    let mut reader = image::ImageReader::open(&path).map_err(cannot_open)?;
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_IMAGE_SIDE);
    limits.max_image_height = Some(MAX_IMAGE_SIDE);
    reader.limits(limits);
    let image = reader.with_guessed_format().map_err(cannot_open)?;
    let image = image.decode().map_err(|source| LoadError::Decode { path: path.clone(), source })?.to_rgba8();
    let size = [image.width() as usize, image.height() as usize];
    let pixels = ColorImage::from_rgba_unmultiplied(size, image.as_raw());
    Ok(ctx.load_texture(format!("nefia-image-{name}"), pixels, TextureOptions::NEAREST))
}

fn join(dirs: &[PathBuf]) -> String {
    dirs.iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(", ")
}
