//! Sheets as the engine knows them: found in the project's asset folders and measured from
//! the PNG header alone (the 24 bytes up to the IHDR chunk's width and height) — the engine
//! never decodes pixels. Measured once per sheet name while a mod loads.

use std::cell::RefCell;
use std::io::Read;
use std::path::{Path, PathBuf};

use rustc_hash::FxHashMap;

use crate::symbol::Symbol;

/// The largest width or height of a sheet, and of a sprite cut from one.
pub const MAX_SHEET_SIDE: u32 = 4096;

/// The first eight bytes of every PNG file.
const PNG_SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', b'\r', b'\n', 0x1a, b'\n'];

/// An image name [`check_asset_name`] refused: it could name a file outside the asset folders.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("'{0}' cannot be an image name: use a path inside the asset folders, such as 'feats/door.png'")]
pub struct InvalidAssetName(pub String);

/// Checks an image name (`feats/fountain.png`): a relative path inside the asset folders,
/// of plain names (no `..`, no root, no drive), at most 256 bytes.
pub fn check_asset_name(name: &str) -> Result<(), InvalidAssetName> {
    let plain = |part: &str| {
        !part.is_empty() && part != "." && part != ".." && !part.contains([':', '\\']) && !part.starts_with('.')
    };
    if name.len() <= 256 && name.split('/').all(plain) { Ok(()) } else { Err(InvalidAssetName(name.to_owned())) }
}

/// Why a sheet cannot be used.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum SheetError {
    /// The name is not a plain path inside the asset folders.
    #[error("{0}")]
    BadName(#[from] InvalidAssetName),
    /// No asset folder has the file.
    #[error("'{name}' was not found in the asset folders ({dirs}): put the PNG there, or fix the name")]
    NotFound {
        /// The sheet's name.
        name: String,
        /// The asset folders looked in, joined.
        dirs: String,
    },
    /// The file does not start as a PNG does (or could not be read).
    #[error("'{name}' ({path}) is not a PNG: {why}; save it as PNG")]
    NotPng {
        /// The sheet's name.
        name: String,
        /// Where it was found.
        path: String,
        /// What was wrong with its start.
        why: String,
    },
    /// The sheet is wider or taller than [`MAX_SHEET_SIDE`].
    #[error("'{name}' is {width}×{height} pixels, over the {MAX_SHEET_SIDE}×{MAX_SHEET_SIDE} a sheet may be: split it")]
    TooLarge {
        /// The sheet's name.
        name: String,
        /// Its width.
        width: u32,
        /// Its height.
        height: u32,
    },
}

/// Reads the width and height of the PNG at `path` from its header.
pub fn png_size(path: &Path) -> Result<(u32, u32), String> {
    let mut head = [0u8; 24];
    let mut file = std::fs::File::open(path).map_err(|e| e.to_string())?;
    file.read_exact(&mut head).map_err(|_| "it is shorter than a PNG header".to_owned())?;
    png_header_size(&head)
}

/// The width and height a PNG's first 24 bytes give: the signature, then the IHDR chunk's
/// length and type, then its width and height (big-endian).
pub fn png_header_size(head: &[u8; 24]) -> Result<(u32, u32), String> {
    if head[..8] != PNG_SIGNATURE {
        return Err("it does not start with the PNG signature".into());
    }
    if &head[12..16] != b"IHDR" {
        return Err("its first chunk is not IHDR".into());
    }
    let number = |at: usize| u32::from_be_bytes([head[at], head[at + 1], head[at + 2], head[at + 3]]);
    let (width, height) = (number(16), number(20));
    if width == 0 || height == 0 {
        return Err(format!("its header says it is {width}×{height}"));
    }
    Ok((width, height))
}

/// A sheet's size in pixels, or why it cannot be used.
type Measured = Result<(u32, u32), SheetError>;

/// The sheets of a project's asset folders, each measured once.
#[derive(Debug, Default)]
pub struct Sheets {
    /// The asset folders, searched in order; none: nothing is checked (no project is open).
    dirs: Vec<PathBuf>,
    sizes: RefCell<FxHashMap<Symbol, Measured>>,
}

impl Sheets {
    /// The sheets under `dirs` (the project's asset folders, in order).
    pub fn new(dirs: Vec<PathBuf>) -> Sheets {
        Sheets { dirs, sizes: RefCell::default() }
    }

    /// Whether sheets are checked at all: only when there are asset folders to look in.
    pub fn checks(&self) -> bool {
        !self.dirs.is_empty()
    }

    /// Forgets every measured size (a sheet may have changed on disk).
    pub fn forget(&self) {
        self.sizes.borrow_mut().clear();
    }

    /// The size of sheet `name` in pixels: `Ok(None)` when there are no asset folders to
    /// look in, an error when the file is missing, not a PNG or over the size cap.
    pub fn size(&self, name: &str) -> Result<Option<(u32, u32)>, SheetError> {
        check_asset_name(name)?;
        if !self.checks() {
            return Ok(None);
        }
        let key = Symbol::intern(name);
        if let Some(known) = self.sizes.borrow().get(&key) {
            return known.clone().map(Some);
        }
        let measured = self.measure(name);
        self.sizes.borrow_mut().insert(key, measured.clone());
        measured.map(Some)
    }

    fn measure(&self, name: &str) -> Measured {
        let path = self.dirs.iter().map(|dir| dir.join(name)).find(|path| path.is_file()).ok_or_else(|| {
            SheetError::NotFound {
                name: name.to_owned(),
                dirs: self.dirs.iter().map(|d| d.display().to_string()).collect::<Vec<_>>().join(", "),
            }
        })?;
        let (width, height) = png_size(&path).map_err(|why| SheetError::NotPng {
            name: name.to_owned(),
            path: path.display().to_string(),
            why,
        })?;
        if width > MAX_SHEET_SIDE || height > MAX_SHEET_SIDE {
            return Err(SheetError::TooLarge { name: name.to_owned(), width, height });
        }
        Ok((width, height))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A PNG header claiming `width` × `height`.
    pub(crate) fn header(width: u32, height: u32) -> Vec<u8> {
        let mut bytes = PNG_SIGNATURE.to_vec();
        bytes.extend_from_slice(&13u32.to_be_bytes());
        bytes.extend_from_slice(b"IHDR");
        bytes.extend_from_slice(&width.to_be_bytes());
        bytes.extend_from_slice(&height.to_be_bytes());
        bytes.extend_from_slice(&[8, 6, 0, 0, 0]);
        bytes
    }

    #[test]
    fn a_sheet_is_measured_from_its_header_and_refused_when_missing_large_or_not_a_png() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("ok.png"), header(64, 32)).unwrap();
        std::fs::write(dir.path().join("huge.png"), header(8192, 16)).unwrap();
        std::fs::write(dir.path().join("text.png"), b"hello, this is not an image at all").unwrap();
        let sheets = Sheets::new(vec![dir.path().to_owned()]);
        assert_eq!(sheets.size("ok.png"), Ok(Some((64, 32))));
        assert!(matches!(sheets.size("missing.png"), Err(SheetError::NotFound { .. })));
        let large = sheets.size("huge.png").unwrap_err().to_string();
        assert!(large.contains("8192×16") && large.contains("4096"), "{large}");
        let text = sheets.size("text.png").unwrap_err().to_string();
        assert!(text.contains("not a PNG") && text.contains("signature"), "{text}");
        assert!(matches!(sheets.size("../up.png"), Err(SheetError::BadName(_))));
        assert_eq!(Sheets::default().size("any.png"), Ok(None), "no asset folders: nothing checked");
    }

    #[test]
    fn the_real_fixture_sheets_read_their_size() {
        let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/tiled");
        assert_eq!(png_size(&fixtures.join("beach_tileset.png")).map(|(w, _)| w > 0), Ok(true));
    }
}
