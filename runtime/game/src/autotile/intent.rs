//! The intent grid rules read: what each cell is meant to be (floor, wall, water…), or empty.

use crate::symbol::Symbol;

/// The palette index an empty cell holds.
const EMPTY: u16 = u16::MAX;

/// A grid of intent tiles, stored as indices into its palette as maps store their tiles.
#[derive(Clone, Debug, PartialEq)]
pub struct Intent {
    width: i32,
    height: i32,
    palette: Vec<Symbol>,
    cells: Vec<u16>,
}

impl Intent {
    /// A `width`×`height` grid of empty cells (sizes below 1 count as 1).
    pub fn new(width: i32, height: i32) -> Intent {
        let (width, height) = (width.max(1), height.max(1));
        let cells = usize::try_from(width).unwrap_or(1) * usize::try_from(height).unwrap_or(1);
        Intent { width, height, palette: Vec::new(), cells: vec![EMPTY; cells] }
    }

    /// A grid holding `tile(x, y)` in each cell.
    pub fn from_fn(width: i32, height: i32, mut tile: impl FnMut(i32, i32) -> Option<Symbol>) -> Intent {
        let mut intent = Intent::new(width, height);
        for y in 0..intent.height {
            for x in 0..intent.width {
                intent.set(x, y, tile(x, y));
            }
        }
        intent
    }

    /// Width in cells.
    pub fn width(&self) -> i32 {
        self.width
    }

    /// Height in cells.
    pub fn height(&self) -> i32 {
        self.height
    }

    /// The distinct tiles the grid holds, indexed by [`Intent::index`].
    pub fn palette(&self) -> &[Symbol] {
        &self.palette
    }

    /// How many cells hold a tile.
    pub fn filled(&self) -> usize {
        self.cells.iter().filter(|&&index| index != EMPTY).count()
    }

    fn cell(&self, x: i32, y: i32) -> Option<usize> {
        let inside = x >= 0 && y >= 0 && x < self.width && y < self.height;
        inside.then(|| usize::try_from(y * self.width + x).ok()).flatten()
    }

    /// The palette index at (x, y): `None` outside the grid or for an empty cell.
    pub fn index(&self, x: i32, y: i32) -> Option<usize> {
        let index = self.cells[self.cell(x, y)?];
        (index != EMPTY).then_some(usize::from(index))
    }

    /// The intent tile at (x, y): `None` outside the grid or for an empty cell.
    pub fn get(&self, x: i32, y: i32) -> Option<Symbol> {
        self.index(x, y).map(|i| self.palette[i])
    }

    /// Sets (x, y) to `tile` (or empties it). Returns whether it changed; false outside.
    pub fn set(&mut self, x: i32, y: i32, tile: Option<Symbol>) -> bool {
        let Some(cell) = self.cell(x, y) else { return false };
        let index = match tile {
            None => EMPTY,
            Some(tile) => match self.palette.iter().position(|&t| t == tile) {
                Some(i) => u16::try_from(i).unwrap_or(EMPTY),
                None if self.palette.len() < usize::from(EMPTY) => {
                    self.palette.push(tile);
                    u16::try_from(self.palette.len() - 1).unwrap_or(EMPTY)
                }
                None => EMPTY,
            },
        };
        let changed = self.cells[cell] != index;
        self.cells[cell] = index;
        changed
    }
}
