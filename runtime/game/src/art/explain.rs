//! "Why is this sprite here?": which sprite of its tile's art a cell drew, and why — the
//! variant the map's seed picked, or the piece of a sprite set its neighbours called for.

use serde::{Deserialize, Serialize};

use super::parse::MULTITILE_PARTS;
use super::pick::{self, NEIGHBOUR_NAMES};
use super::{Art, Choice, Layout};

/// The sprite a cell drew and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SpriteWhy {
    /// The tile whose art it is.
    pub tile: String,
    /// Which of the art's sprites (its place in the art's list).
    pub sprite: u16,
    /// The sheet it is cut from.
    pub sheet: String,
    /// Why, in words: "piece 23 of the blob set: connects north, east and south".
    pub why: String,
}

/// "north, east and south" (or "nothing").
fn listed(names: &[&str]) -> String {
    match names {
        [] => "nothing".into(),
        [one] => (*one).to_owned(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// The neighbours set in `mask` (bits as in [`pick::NEIGHBOURS`]), by name.
fn neighbours(mask: u8) -> String {
    let names: Vec<&str> = (0..8).filter(|bit| mask & (1 << bit) != 0).map(|bit| NEIGHBOUR_NAMES[bit]).collect();
    listed(&names)
}

/// Why cell (x, y) of a map whose variants come from `seed` (`seed_from` says whence: "the
/// map's art_seed", "a hash of the map's name") draws what it does of tile `tile`'s `art`,
/// its neighbours connecting as `mask` says.
pub fn explain(tile: &str, art: &Art, seed: u64, seed_from: &str, x: i32, y: i32, mask: u8) -> SpriteWhy {
    let sprite = pick::pick(art, seed, x, y, mask);
    let why = match &art.choice {
        Choice::Single => "its only sprite".to_owned(),
        Choice::Variants { weights } => {
            let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
            let weight = weights.get(usize::from(sprite)).copied().unwrap_or(0);
            format!(
                "variant {} of {}, weight {weight} of {total}, from the map's seed ({seed_from}) and the cell",
                sprite + 1,
                weights.len()
            )
        }
        Choice::Set(Layout::Blob47) => {
            let reduced = pick::blob_reduce(mask);
            let dropped = mask & !reduced;
            let mut why = format!("piece {sprite} of the blob set: connects {}", neighbours(reduced));
            if dropped != 0 {
                why += &format!(" ({} not counted: a corner counts only between two connecting sides)", neighbours(dropped));
            }
            why
        }
        Choice::Set(Layout::Wang16) => {
            format!("piece {sprite} of the Wang set: connects {}", neighbours(mask & 0b0101_0101))
        }
        Choice::Set(Layout::Multitile) => {
            let part = MULTITILE_PARTS.get(usize::from(sprite / 4)).copied().unwrap_or("center");
            let turn = ["as drawn", "turned a quarter clockwise", "turned half round", "turned a quarter anticlockwise"]
                [usize::from(sprite % 4)];
            format!("the {part} part, {turn}: connects {}", neighbours(mask & 0b0101_0101))
        }
    };
    SpriteWhy { tile: tile.to_owned(), sprite, sheet: art.sprite(sprite).sheet.to_string(), why }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::art::Sprite;
    use crate::symbol::Symbol;

    fn art(choice: Choice, count: usize) -> Art {
        Art { sprites: vec![Sprite::whole(Symbol::intern("tiles/wall.png"), 8, 8); count], choice }
    }

    #[test]
    fn a_set_piece_names_the_neighbours_it_connects_to() {
        // N, E and S connect (and the north-east corner between N and E).
        let mask = 0b0001_0111;
        let why = explain("t.wall", &art(Choice::Set(Layout::Blob47), 47), 0, "", 2, 2, mask);
        assert_eq!(why.sprite, pick::blob47_piece(mask));
        assert_eq!(why.why, format!("piece {} of the blob set: connects north, north-east, east and south", why.sprite));
        assert_eq!(why.sheet, "tiles/wall.png");
        let lone_corner = explain("t.wall", &art(Choice::Set(Layout::Blob47), 47), 0, "", 2, 2, 0b0000_0011);
        assert!(lone_corner.why.contains("connects north (north-east not counted"), "{}", lone_corner.why);
        let wang = explain("t.wall", &art(Choice::Set(Layout::Wang16), 16), 0, "", 0, 0, 0b0101_0000);
        assert_eq!(wang.why, "piece 12 of the Wang set: connects south and west");
        let multi = explain("t.wall", &art(Choice::Set(Layout::Multitile), 24), 0, "", 0, 0, 0b0001_0100);
        assert_eq!(multi.why, "the corner part, turned a quarter clockwise: connects east and south");
    }

    #[test]
    fn a_variant_names_its_weight_and_the_seed() {
        let variants = art(Choice::Variants { weights: vec![3, 1, 1] }, 3);
        let why = explain("t.grass", &variants, 9, "a hash of the map's name", 4, 5, 0);
        let weight = [3, 1, 1][usize::from(why.sprite)];
        assert_eq!(
            why.why,
            format!(
                "variant {} of 3, weight {weight} of 5, from the map's seed (a hash of the map's name) and the cell",
                why.sprite + 1
            )
        );
        assert_eq!(explain("t.grass", &art(Choice::Single, 1), 0, "", 0, 0, 255).why, "its only sprite");
    }
}
