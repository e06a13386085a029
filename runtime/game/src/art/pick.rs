//! Which sprite of an [`Art`] a cell draws: a variant from the map's seed and the cell
//! (weighted, never the world's random numbers), or the piece of a sprite set its neighbours
//! call for.
//!
//! Piece orders:
//! - Wang16: index = N·1 + E·2 + S·4 + W·8 over the edge neighbours that connect.
//! - Blob47: the mask N=1, NE=2, E=4, SE=8, S=16, SW=32, W=64, NW=128, a corner bit dropped
//!   unless both edges beside it are set; the 47 masks that remain, sorted ascending, give
//!   the piece (0 = alone, 46 = 255 = surrounded).
//! - Multitile: CDDA's parts in [`super::parse::MULTITILE_PARTS`]' order, each four times
//!   (turned 0, 1, 2, 3 quarters clockwise): piece = part × 4 + turns. As drawn on the sheet
//!   an end piece joins north, an edge north and south, a corner north and east, a T
//!   connection north, east and west; the turn is the one facing the neighbours.

use super::{Art, Choice, Layout};

/// The eight neighbours as (dx, dy), in mask-bit order: N, NE, E, SE, S, SW, W, NW.
pub const NEIGHBOURS: [(i32, i32); 8] = [(0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1)];

/// The names of the neighbours, in mask-bit order.
pub const NEIGHBOUR_NAMES: [&str; 8] =
    ["north", "north-east", "east", "south-east", "south", "south-west", "west", "north-west"];

/// The 8-bit neighbour mask of the neighbours that connect (bit `i` for [`NEIGHBOURS`]`[i]`).
pub fn neighbour_mask(connects: impl Fn(i32, i32) -> bool) -> u8 {
    NEIGHBOURS
        .iter()
        .enumerate()
        .fold(0, |mask, (bit, &(dx, dy))| if connects(dx, dy) { mask | 1 << bit } else { mask })
}

/// The mask of the neighbours of (x, y) in the same connecting group as `own`, where
/// `group_at` gives a cell's group (`None`: off the map, which connects, so a wall at the
/// map's edge looks continuous).
pub fn connects_mask<G: PartialEq>(x: i32, y: i32, own: &G, group_at: impl Fn(i32, i32) -> Option<G>) -> u8 {
    neighbour_mask(|dx, dy| group_at(x + dx, y + dy).is_none_or(|group| group == *own))
}

/// The sprite an object picks: as a cell would, from the map's seed and its uid (a sprite
/// set's piece is its lone one: objects have no neighbours in a set).
pub fn object_pick(art: &Art, seed: u64, uid: u64) -> u16 {
    pick(art, seed, (uid >> 32) as i32, uid as i32, 0)
}

/// The mask with each corner bit dropped unless both edges beside it are set.
pub const fn blob_reduce(mask: u8) -> u8 {
    let mut reduced = mask & 0b0101_0101;
    let mut corner = 1;
    while corner < 8 {
        let (before, after) = (corner - 1, (corner + 1) % 8);
        if mask & (1 << corner) != 0 && mask & (1 << before) != 0 && mask & (1 << after) != 0 {
            reduced |= 1 << corner;
        }
        corner += 2;
    }
    reduced
}

/// The 47 reduced masks, ascending: a blob piece's index is its mask's place here.
pub fn blob_masks() -> impl Iterator<Item = u8> {
    (0..=255u8).filter(|&mask| blob_reduce(mask) == mask)
}

/// The blob piece of each neighbour mask, worked out once (a piece is picked per cell of
/// every blob set each time a chunk's picks are).
const BLOB47_PIECES: [u8; 256] = {
    let mut pieces = [0u8; 256];
    let mut mask = 0;
    while mask < 256 {
        // The piece is how many reduced masks come before this one's.
        let reduced = blob_reduce(mask as u8);
        let (mut before, mut other) = (0u8, 0);
        while other < reduced as usize {
            if blob_reduce(other as u8) == other as u8 {
                before += 1;
            }
            other += 1;
        }
        pieces[mask] = before;
        mask += 1;
    }
    pieces
};

/// The blob piece for neighbour mask `mask` (0..47).
pub fn blob47_piece(mask: u8) -> u16 {
    u16::from(BLOB47_PIECES[usize::from(mask)])
}

/// The edge bits N=1, E=2, S=4, W=8 of an 8-bit neighbour mask.
pub fn edges(mask: u8) -> u8 {
    (mask & 1) | (mask >> 1 & 2) | (mask >> 2 & 4) | (mask >> 3 & 8)
}

/// The Wang piece for neighbour mask `mask` (0..16).
pub fn wang16_piece(mask: u8) -> u16 {
    u16::from(edges(mask))
}

/// The edges of a multitile part as drawn on the sheet (N=1, E=2, S=4, W=8).
const PART_EDGES: [u8; 6] = [0, 0b0001, 0b0101, 0b0011, 0b1011, 0b1111];

/// `edges` turned `quarters` quarter turns clockwise (north becomes east).
pub fn turn_edges(edges: u8, quarters: u8) -> u8 {
    let q = quarters % 4;
    ((edges << q) | (edges >> ((4 - q) % 4))) & 0b1111
}

/// The multitile part (an index into `MULTITILE_PARTS`) and quarter turns for edge bits
/// `edges` (N=1, E=2, S=4, W=8).
pub fn multitile_part(edges: u8) -> (usize, u8) {
    for (part, &drawn) in PART_EDGES.iter().enumerate() {
        for quarters in 0..4 {
            if turn_edges(drawn, quarters) == edges & 0b1111 {
                return (part, quarters);
            }
        }
    }
    (0, 0)
}

/// The multitile piece for neighbour mask `mask`: part × 4 + turns.
pub fn multitile_piece(mask: u8) -> u16 {
    let (part, quarters) = multitile_part(edges(mask));
    (part * 4) as u16 + u16::from(quarters)
}

/// A number from the map's seed and a cell (or an object's uid), the same on every run.
pub fn cell_hash(seed: u64, x: i32, y: i32) -> u64 {
    let mut z = seed ^ (u64::from(x as u32) << 32 | u64::from(y as u32)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The variant `hash` picks among `weights` (each sprite `weight / total` of the time).
pub fn variant(weights: &[u32], hash: u64) -> u16 {
    let total: u64 = weights.iter().map(|&w| u64::from(w)).sum();
    if total == 0 {
        return 0;
    }
    let mut left = hash % total;
    for (index, &weight) in weights.iter().enumerate() {
        if left < u64::from(weight) {
            return index as u16;
        }
        left -= u64::from(weight);
    }
    0
}

/// The seed of a map's variants: its `art_seed` field if it has one, else a hash of its
/// name (FNV-1a: the same on every run and machine).
pub fn map_seed(art_seed: Option<i64>, name: &str) -> u64 {
    match art_seed {
        Some(seed) => seed as u64,
        None => name.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)),
    }
}

/// The sprite of `art` cell (x, y) draws, with `seed` the map's and `mask` its neighbours'
/// (see [`neighbour_mask`]; only sprite sets read it).
pub fn pick(art: &Art, seed: u64, x: i32, y: i32, mask: u8) -> u16 {
    let piece = match &art.choice {
        Choice::Single => 0,
        Choice::Variants { weights } => variant(weights, cell_hash(seed, x, y)),
        Choice::Set(Layout::Blob47) => blob47_piece(mask),
        Choice::Set(Layout::Wang16) => wang16_piece(mask),
        Choice::Set(Layout::Multitile) => multitile_piece(mask),
    };
    if usize::from(piece) < art.sprites.len() { piece } else { 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    const N: u8 = 1;
    const NE: u8 = 2;
    const E: u8 = 4;
    const SE: u8 = 8;
    const S: u8 = 16;
    const SW: u8 = 32;
    const W: u8 = 64;
    const NW: u8 = 128;

    #[test]
    fn there_are_47_blob_pieces_from_alone_to_surrounded() {
        let masks: Vec<u8> = blob_masks().collect();
        assert_eq!(masks.len(), 47);
        assert_eq!(blob47_piece(0), 0, "alone");
        assert_eq!(blob47_piece(255), 46, "surrounded");
        // Every one of the 256 masks gives the piece of its reduced mask, and each piece is
        // reached.
        let mut reached = [false; 47];
        for mask in 0..=255u8 {
            let piece = blob47_piece(mask);
            assert_eq!(masks[usize::from(piece)], blob_reduce(mask), "mask {mask:#010b}");
            reached[usize::from(piece)] = true;
        }
        assert!(reached.iter().all(|&r| r));
    }

    #[test]
    fn a_blob_corner_counts_only_between_two_connected_edges() {
        assert_eq!(blob_reduce(NE), 0, "a lone corner is dropped");
        assert_eq!(blob_reduce(N | NE), N, "one edge is not enough");
        assert_eq!(blob_reduce(N | NE | E), N | NE | E);
        assert_eq!(blob_reduce(S | SW | W), S | SW | W);
        assert_eq!(blob_reduce(W | NW | N | SE), W | NW | N, "SE without S and E is dropped");
        // The pieces in ascending mask order: 0 alone, 1 = N, 2 = E, 3 = N|E, 4 = N|NE|E.
        assert_eq!(blob47_piece(N), 1);
        assert_eq!(blob47_piece(E), 2);
        assert_eq!(blob47_piece(N | E), 3);
        assert_eq!(blob47_piece(N | NE | E), 4);
        assert_eq!(blob47_piece(N | NE | E | SE), 4, "SE without S is dropped");
        assert_eq!(blob47_piece(N | E | S | W), blob_masks().position(|m| m == 0b0101_0101).unwrap() as u16);
    }

    #[test]
    fn each_wang_piece_is_its_four_edges() {
        for edges in 0..16u8 {
            let mask = (edges & 1) | (edges & 2) << 1 | (edges & 4) << 2 | (edges & 8) << 3;
            assert_eq!(wang16_piece(mask | NE | SE | SW | NW), u16::from(edges), "corners do not count");
        }
        assert_eq!(wang16_piece(N | S), 5);
        assert_eq!(wang16_piece(E | W), 10);
    }

    #[test]
    fn each_multitile_part_is_turned_to_face_its_neighbours() {
        let piece = |mask| {
            let p = multitile_piece(mask);
            (super::super::parse::MULTITILE_PARTS[usize::from(p / 4)], p % 4)
        };
        assert_eq!(piece(0), ("unconnected", 0));
        assert_eq!(piece(N), ("end_piece", 0));
        assert_eq!(piece(E), ("end_piece", 1));
        assert_eq!(piece(S), ("end_piece", 2));
        assert_eq!(piece(W), ("end_piece", 3));
        assert_eq!(piece(N | S), ("edge", 0));
        assert_eq!(piece(E | W), ("edge", 1));
        assert_eq!(piece(N | E), ("corner", 0));
        assert_eq!(piece(E | S), ("corner", 1));
        assert_eq!(piece(S | W), ("corner", 2));
        assert_eq!(piece(W | N), ("corner", 3));
        assert_eq!(piece(N | E | W), ("t_connection", 0));
        assert_eq!(piece(N | E | S), ("t_connection", 1));
        assert_eq!(piece(E | S | W), ("t_connection", 2));
        assert_eq!(piece(S | W | N), ("t_connection", 3));
        assert_eq!(piece(N | E | S | W | NE | SW), ("center", 0));
        // Every edge combination has a part.
        for edges in 0..16u8 {
            let (part, quarters) = multitile_part(edges);
            assert_eq!(turn_edges(PART_EDGES[part], quarters), edges);
        }
    }

    #[test]
    fn variants_follow_their_weights_and_the_seed_not_the_run() {
        let weights = [3, 1];
        let picks: Vec<u16> = (0..4000).map(|i| variant(&weights, cell_hash(7, i % 64, i / 64))).collect();
        let second = picks.iter().filter(|&&p| p == 1).count();
        assert!((700..1300).contains(&second), "about a quarter: {second}");
        assert_eq!(variant(&weights, cell_hash(7, 3, 4)), variant(&weights, cell_hash(7, 3, 4)));
        let other: Vec<u16> = (0..64).map(|i| variant(&weights, cell_hash(8, i, 0))).collect();
        assert_ne!(other, picks[..64].to_vec(), "another seed, other picks");
        assert_eq!(map_seed(None, "town"), map_seed(None, "town"));
        assert_ne!(map_seed(None, "town"), map_seed(None, "cave"));
        assert_eq!(map_seed(Some(5), "town"), 5);
    }

    #[test]
    fn the_maps_edges_connect_and_other_groups_do_not() {
        // A 3×1 map "a b a": (0, 0) has b to the east and the map's edge everywhere else.
        let row = ["a", "b", "a"];
        let group_at = |x: i32, y: i32| (y == 0 && (0..3).contains(&x)).then(|| row[x as usize]);
        let mask = connects_mask(0, 0, &"a", group_at);
        assert_eq!(mask, !E, "all but the east, where b is");
        assert_eq!(connects_mask(1, 0, &"b", group_at), N | NE | SE | S | SW | NW);
    }

    #[test]
    fn the_mask_reads_the_eight_neighbours_in_order() {
        assert_eq!(neighbour_mask(|_, dy| dy == -1), N | NE | NW);
        assert_eq!(neighbour_mask(|dx, _| dx == 1), NE | E | SE);
        assert_eq!(neighbour_mask(|_, _| true), 255);
    }
}
