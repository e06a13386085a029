//! Rows of palette codes, as map files write a map's grids (its tiles, its auto-tiling's
//! intent, its art layers): the codes' width, a sparse grid read from its rows, and what is
//! wrong with rows that do not read.

use std::collections::BTreeMap;

use crate::autotile::Intent;
use crate::symbol::Symbol;

/// Why rows of codes do not make a grid ([`crate::map_diff::TileGrid`], an art layer); each says
/// which row is wrong.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum TileGridError {
    /// The size is out of bounds.
    #[error("{0}")]
    Size(#[from] crate::map::MapSizeError),
    /// There are more or fewer rows than the height.
    #[error("tiles has {rows} rows, but height is {height}")]
    RowCount {
        /// The rows given.
        rows: usize,
        /// The height.
        height: i32,
    },
    /// A row has a code the palette does not give.
    #[error("row {y} has code '{code}', not in the palette")]
    UnknownCode {
        /// The row (0-based).
        y: usize,
        /// The code.
        code: String,
    },
    /// A row has more or fewer codes than the width.
    #[error("row {y} has {codes} codes, not {width}")]
    RowLength {
        /// The row (0-based).
        y: usize,
        /// The codes it has.
        codes: usize,
        /// The width.
        width: usize,
    },
}

/// How many characters each code of `palette` has (1 for none).
pub(crate) fn code_width(palette: &BTreeMap<String, Symbol>) -> usize {
    palette.keys().next().map_or(1, |c| c.chars().count())
}

/// The sparse grid of a `width`×`height` map that `rows` of `palette`'s codes write (a code of
/// spaces: an empty cell); an error says which row is wrong. A checked record
/// ([`crate::validate`]) always reads.
pub(crate) fn read_sparse_rows(
    palette: &BTreeMap<String, Symbol>,
    rows: &[String],
    width: i32,
    height: i32,
) -> Result<Intent, TileGridError> {
    if rows.len() != usize::try_from(height).unwrap_or(0) {
        return Err(TileGridError::RowCount { rows: rows.len(), height });
    }
    let code_width = code_width(palette).max(1);
    let columns = usize::try_from(width).unwrap_or(0);
    let mut grid = Intent::new(width, height);
    for (y, row) in rows.iter().enumerate() {
        let chars: Vec<char> = row.chars().collect();
        if chars.len() != columns * code_width {
            return Err(TileGridError::RowLength { y, codes: chars.len() / code_width, width: columns });
        }
        for (x, code) in (0..).zip(chars.chunks(code_width)) {
            let code: String = code.iter().collect();
            let tile = match palette.get(&code) {
                Some(&tile) => Some(tile),
                None if code.trim().is_empty() => None,
                None => return Err(TileGridError::UnknownCode { y, code }),
            };
            grid.set(x, i32::try_from(y).unwrap_or(0), tile);
        }
    }
    Ok(grid)
}
