//! Art: the pictures prototypes name, as plain data — sprites cut from sheets, their
//! animation frames, weighted variants and neighbour-driven sprite sets.
//!
//! A prototype's `image` (OpenNefia's shape: a file, or a region `{ source, x, y, width,
//! height, count_x, key_color }`) is read into an [`Art`]: the [`Sprite`]s a cell can draw
//! and how one is chosen ([`Choice`]). The engine never decodes an image: it reads the
//! declarations, checks them against the sheets' headers, and says which sprite each cell
//! draws; the editor packs the sheets into atlases and draws them.
//!
//! - [`parse`]: an `image` value read into an [`Art`] and checked against its sheets.
//! - [`sheet`]: sheets found in the asset folders and measured from their PNG header.
//! - [`pick`]: which sprite a cell draws (a variant from the map's seed, a set's piece from
//!   its neighbours).
//! - [`book`]: the parsed art of every prototype and theme, kept with the data registry.
//! - [`explain`]: which sprite a cell drew and why, in words.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use crate::symbol::Symbol;

pub mod book;
pub mod explain;
pub mod parse;
pub mod pick;
pub mod sheet;

#[cfg(test)]
mod parse_tests;

pub use book::ArtBook;
pub use parse::{ArtError, Parsed, parse};
pub use sheet::{MAX_SHEET_SIDE, SheetError, Sheets};

/// One frame of a sprite: where it is on the sheet and how long it shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Frame {
    /// Left edge on the sheet, in pixels.
    pub x: u32,
    /// Top edge on the sheet, in pixels.
    pub y: u32,
    /// How long it shows before the next frame, in milliseconds (ignored for a sprite of one
    /// frame).
    pub duration_ms: u32,
}

/// A quarter turn count, clockwise: how a sprite is turned when drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Rotation {
    /// As on the sheet.
    #[default]
    None,
    /// A quarter turn clockwise.
    Quarter,
    /// Half a turn.
    Half,
    /// Three quarter turns clockwise (a quarter turn anticlockwise).
    ThreeQuarters,
}

impl Rotation {
    /// This turn followed by `quarters` more quarter turns clockwise.
    pub fn then(self, quarters: u8) -> Rotation {
        let own = match self {
            Rotation::None => 0,
            Rotation::Quarter => 1,
            Rotation::Half => 2,
            Rotation::ThreeQuarters => 3,
        };
        match (own + quarters) % 4 {
            0 => Rotation::None,
            1 => Rotation::Quarter,
            2 => Rotation::Half,
            _ => Rotation::ThreeQuarters,
        }
    }
}

/// One picture a cell can draw: a rectangle of a sheet (an image under the project's asset
/// folders), animated if it has more than one frame.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Sprite {
    /// The sheet: a path inside the asset folders, such as `tiles/wall.png`.
    pub sheet: Symbol,
    /// Width of a frame in pixels.
    pub width: u32,
    /// Height of a frame in pixels.
    pub height: u32,
    /// The frames in the order they show; never empty.
    pub frames: Vec<Frame>,
    /// A colour drawn as transparent (OpenNefia's `key_color`, for sheets without alpha).
    pub key_color: Option<[u8; 3]>,
    /// Pixels added to where the sprite is drawn. A sprite is anchored at its cell's bottom
    /// edge, centred: one taller than a cell rises above it.
    pub offset: (i32, i32),
    /// Mirrored left to right before turning.
    pub flip_x: bool,
    /// Mirrored top to bottom before turning.
    pub flip_y: bool,
    /// Turned after mirroring.
    pub rotation: Rotation,
}

impl Sprite {
    /// A whole sheet of `width` × `height` pixels as one still sprite.
    pub fn whole(sheet: Symbol, width: u32, height: u32) -> Sprite {
        Sprite {
            sheet,
            width,
            height,
            frames: vec![Frame { x: 0, y: 0, duration_ms: 0 }],
            key_color: None,
            offset: (0, 0),
            flip_x: false,
            flip_y: false,
            rotation: Rotation::None,
        }
    }

    /// The length of one pass through the frames, in milliseconds (0 for a still sprite).
    pub fn cycle_ms(&self) -> u64 {
        if self.frames.len() < 2 {
            return 0;
        }
        self.frames.iter().map(|f| u64::from(f.duration_ms)).sum()
    }

    /// The index of the frame shown `time_ms` after the animations started.
    pub fn frame_index_at(&self, time_ms: u64) -> usize {
        let cycle = self.cycle_ms();
        if cycle == 0 {
            return 0;
        }
        let mut left = time_ms % cycle;
        for (index, frame) in self.frames.iter().enumerate() {
            let duration = u64::from(frame.duration_ms);
            if left < duration {
                return index;
            }
            left -= duration;
        }
        self.frames.len() - 1
    }

    /// The frame shown `time_ms` after the animations started.
    pub fn frame_at(&self, time_ms: u64) -> &Frame {
        &self.frames[self.frame_index_at(time_ms)]
    }
}

/// How a neighbour-driven sprite set lays its pieces out, and so which piece a cell draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Layout {
    /// The 47-piece blob: the eight neighbours, a corner counting only where both edges
    /// beside it connect.
    Blob47,
    /// The 16-piece edge set (Wang tiles): the four edge neighbours.
    Wang16,
    /// CDDA's multitile parts — centre, corner, edge, T connection, end piece, unconnected —
    /// each turned to face its neighbours.
    Multitile,
}

/// How a cell chooses among an [`Art`]'s sprites.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Choice {
    /// Always the first sprite.
    Single,
    /// One sprite per cell, picked from the map's seed and the cell with these weights (one
    /// per sprite).
    Variants {
        /// The weight of each sprite, in order.
        weights: Vec<u32>,
    },
    /// The piece its neighbours call for, the sprites in the layout's piece order.
    Set(Layout),
}

/// Everything a prototype's `image` can draw, and how a cell chooses.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Art {
    /// The sprites a cell may draw; never empty.
    pub sprites: Vec<Sprite>,
    /// How a cell chooses one.
    pub choice: Choice,
}

impl Art {
    /// Art of one still sprite.
    pub fn single(sprite: Sprite) -> Arc<Art> {
        Arc::new(Art { sprites: vec![sprite], choice: Choice::Single })
    }

    /// The sprite a cell picked (`pick` from the map view), or the first if `pick` is out of
    /// range.
    pub fn sprite(&self, pick: u16) -> &Sprite {
        self.sprites.get(usize::from(pick)).unwrap_or(&self.sprites[0])
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_frame_shows_for_its_duration_then_the_next_and_the_cycle_repeats() {
        let mut sprite = Sprite::whole(Symbol::intern("water.png"), 16, 16);
        sprite.frames = (0..4).map(|i| Frame { x: 16 * i, y: 0, duration_ms: 250 }).collect();
        assert_eq!(sprite.cycle_ms(), 1000);
        assert_eq!(sprite.frame_index_at(0), 0);
        assert_eq!(sprite.frame_index_at(249), 0);
        assert_eq!(sprite.frame_index_at(250), 1);
        assert_eq!(sprite.frame_at(1750).x, 48);
        assert_eq!(sprite.frame_index_at(2000), 0, "the cycle repeats");
        assert_eq!(Sprite::whole(Symbol::intern("a.png"), 8, 8).frame_index_at(12345), 0, "still");
    }
}
