//! Writing a picture the editor drew (a tileset for `nefia export`, a diff for `nefia diff
//! --png`) to a PNG file.

use std::path::{Path, PathBuf};

/// A picture that could not be written to its file.
#[derive(Debug, thiserror::Error)]
#[error("{}: {source}", path.display())]
pub struct WriteError {
    /// The file.
    pub path: PathBuf,
    /// Why it could not be written.
    pub source: image::ImageError,
}

/// Writes `picture` to `path` as a PNG.
pub fn save<P>(picture: &image::ImageBuffer<P, Vec<P::Subpixel>>, path: &Path) -> Result<(), WriteError>
where
    P: image::PixelWithColorType,
    [P::Subpixel]: image::EncodableLayout,
{
    picture
        .save_with_format(path, image::ImageFormat::Png)
        .map_err(|source| WriteError { path: path.to_owned(), source })
}
