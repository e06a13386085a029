//! Which sprite of its tile's art each cell of a map view draws ([`ChunkView::picks`], and
//! an art layer's [`ArtChunk::picks`]): variants from the map's seed and the cell, a sprite
//! set's piece from the neighbours (see [`nefia_game::art::pick`]). A chunk's picks are kept
//! while neither it nor a chunk beside it changed (an edge cell's piece depends on the next
//! chunk's cells), nor the art, the themes or the seed.
//!
//! [`ChunkView::picks`]: super::ChunkView::picks
//! [`ArtChunk::picks`]: super::ArtChunk::picks

use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::Arc;

use nefia_game::art::{Art, Choice, pick};
use nefia_game::map::{CHUNK_SIZE, InstancedMap};
use nefia_game::symbol::Symbol;
use nefia_game::world::World;

/// The art of each tile of a palette (a map's, an art layer's), read once per view.
pub(super) struct PaletteArt {
    /// Per palette index: the art its tile draws.
    arts: Vec<Option<Arc<Art>>>,
    /// Per palette index: the group its neighbours must share to connect.
    groups: Vec<Symbol>,
    /// Whether any cell can pick another sprite than the first.
    any_choice: bool,
    /// The map's variant seed.
    seed: u64,
    /// What every chunk's picks depend on besides the cells: the art, themes and seed.
    key: u64,
}

impl PaletteArt {
    /// The art of `map`'s palette in `world`.
    pub(super) fn new(world: &World, map: &InstancedMap) -> PaletteArt {
        PaletteArt::of(world, map.palette(), world.map_art_seed(map))
    }

    /// The art of `palette`'s tiles in `world`, variants picked from `seed`.
    pub(super) fn of(world: &World, palette: &[Symbol], seed: u64) -> PaletteArt {
        let arts: Vec<Option<Arc<Art>>> = palette.iter().map(|&tile| Some(world.tile_art(tile)?.art.clone())).collect();
        let groups = palette.iter().map(|&tile| world.tile_group(tile)).collect();
        let any_choice = arts.iter().flatten().any(|art| art.choice != Choice::Single);
        let mut hasher = DefaultHasher::new();
        (world.data.revision(), world.active_themes(), seed, palette.len()).hash(&mut hasher);
        PaletteArt { arts, groups, any_choice, seed, key: hasher.finish() }
    }

    /// The key of chunk (cx, cy)'s picks: equal keys, equal picks.
    pub(super) fn chunk_key(&self, map: &InstancedMap, cx: i32, cy: i32) -> u64 {
        let (gx, gy) = map.chunk_grid();
        let mut hasher = DefaultHasher::new();
        self.key.hash(&mut hasher);
        for ny in (cy - 1).max(0)..=(cy + 1).min(gy - 1) {
            for nx in (cx - 1).max(0)..=(cx + 1).min(gx - 1) {
                map.chunk_revision(nx, ny).hash(&mut hasher);
            }
        }
        hasher.finish()
    }

    /// What every chunk's picks depend on besides the cells: the art, themes and seed.
    pub(super) fn key(&self) -> u64 {
        self.key
    }

    /// The picks of chunk (cx, cy) of the map's own tiles, row-major; none when every cell
    /// draws its first sprite.
    pub(super) fn chunk_picks(&self, map: &InstancedMap, cx: i32, cy: i32) -> Option<Vec<u16>> {
        self.cells_picks(map, cx, cy, |x, y| Some(usize::from(map.tile_index(x, y))))
    }

    /// The picks of chunk (cx, cy) of a grid on `map` whose cell (x, y) holds the tile of
    /// this palette `index_at` gives (none: an empty cell, which draws nothing and connects
    /// to nothing), row-major; none when every cell draws its first sprite.
    pub(super) fn cells_picks(
        &self,
        map: &InstancedMap,
        cx: i32,
        cy: i32,
        index_at: impl Fn(i32, i32) -> Option<usize>,
    ) -> Option<Vec<u16>> {
        if !self.any_choice {
            return None;
        }
        let (x0, y0) = (cx * CHUNK_SIZE, cy * CHUNK_SIZE);
        let (x1, y1) = ((x0 + CHUNK_SIZE).min(map.width()), (y0 + CHUNK_SIZE).min(map.height()));
        let group = |index: usize| self.groups.get(index).copied();
        let group_at = |x: i32, y: i32| map.in_bounds(x, y).then(|| index_at(x, y).and_then(group));
        let picks: Vec<u16> = (y0..y1)
            .flat_map(|y| (x0..x1).map(move |x| (x, y)))
            .map(|(x, y)| {
                let Some(index) = index_at(x, y) else { return 0 };
                let Some(Some(art)) = self.arts.get(index) else { return 0 };
                let mask = match art.choice {
                    Choice::Set(_) => pick::connects_mask(x, y, &group(index), group_at),
                    _ => 0,
                };
                pick::pick(art, self.seed, x, y, mask)
            })
            .collect();
        picks.iter().any(|&p| p != 0).then_some(picks)
    }

    /// The map's variant seed.
    pub(super) fn seed(&self) -> u64 {
        self.seed
    }
}

#[cfg(test)]
mod tests {
    use nefia_game::art::{Layout, Parsed, Sprite};
    use nefia_game::data::{DataRegistry, OnDuplicate};
    use nefia_game::map::MapId;
    use nefia_game::moddable::{FieldMap, Origin};

    use super::super::map_view::MapViewBuilder;
    use super::*;

    fn set(count: usize, choice: Choice) -> Parsed {
        let sprites = vec![Sprite::whole(Symbol::intern("tiles/wall.png"), 8, 8); count];
        Parsed { art: Arc::new(Art { sprites, choice }), connects: None }
    }

    /// A 20×4 map of floor (two chunks across) with a world whose `t.wall` draws a blob set.
    fn world() -> (World, MapId) {
        let mut data = DataRegistry::default();
        let tile = Symbol::intern("base.map_tile");
        data.add_type(tile, Vec::new(), Origin::tool("t"), OnDuplicate::Error).unwrap();
        for id in ["t.floor", "t.wall", "t.grass"] {
            data.add(tile, id.into(), FieldMap::new(), Origin::tool("t"), OnDuplicate::Error).unwrap();
        }
        data.art.set(tile, "t.wall".into(), Some(set(47, Choice::Set(Layout::Blob47))));
        let mut world = World::new(data);
        let map = world.create_map(20, 4, Some("t.floor")).unwrap();
        world.set_current_map(map).unwrap();
        (world, map)
    }

    fn pick_at(view: &super::super::MapView, x: i32, y: i32) -> u16 {
        let chunk = view.chunk_at(x, y).unwrap();
        let (w, _) = view.chunk_size(chunk.cx, chunk.cy);
        chunk.picks.as_ref().map_or(0, |p| p[((y % CHUNK_SIZE) * w + x % CHUNK_SIZE) as usize])
    }

    #[test]
    fn a_wall_across_a_chunk_edge_picks_its_pieces_and_a_change_beyond_the_edge_repicks_it() {
        let (mut world, map) = world();
        let mut builder = MapViewBuilder::default();
        assert!(builder.build(&world).unwrap().chunks.iter().all(|c| c.picks.is_none()), "no art that chooses");
        for x in 14..=17 {
            world.set_tile(map, x, 1, "t.wall").unwrap();
        }
        let view = builder.build(&world).unwrap();
        // (15, 1): walls west and east; above and below floor.
        assert_eq!(pick_at(&view, 15, 1), pick::blob47_piece(0b0100_0100));
        assert_eq!(pick_at(&view, 14, 1), pick::blob47_piece(0b0000_0100), "wall only to the east");
        assert_eq!(pick_at(&view, 0, 0), 0, "floor has no art");
        let second_chunk = view.chunks[1].picks.clone();

        // A cell of the second chunk changes: the first chunk's edge cell is picked again.
        world.set_tile(map, 16, 1, "t.floor").unwrap();
        let view = builder.build(&world).unwrap();
        assert_eq!(pick_at(&view, 15, 1), pick::blob47_piece(0b0100_0000), "its east neighbour is gone");
        assert_ne!(view.chunks[1].picks, second_chunk);
        let first_chunk = view.chunks[0].picks.clone().unwrap();
        let again = builder.build(&world).unwrap();
        assert!(Arc::ptr_eq(&first_chunk, again.chunks[0].picks.as_ref().unwrap()), "unchanged picks are kept");
    }

    #[test]
    fn an_art_layers_set_picks_its_pieces_from_the_layers_cells_and_keeps_them_until_painted() {
        use nefia_game::layer_edit::{edit_art_layers, paint_art};
        use nefia_game::map::{ArtLayerEdit, LayerPlace};
        let (mut world, map) = world();
        let add = ArtLayerEdit::Add { name: "walls".into(), place: LayerPlace::Above };
        edit_art_layers(&mut world, map, &add).unwrap();
        // A wall on the layer at (1, 1) and (2, 1); the map's own tiles under them are walls
        // too at (2, 2), which the layer's pieces do not see.
        paint_art(&mut world, map, "walls", &[(1, 1), (2, 1)], Some("t.wall")).unwrap();
        world.set_tile(map, 2, 2, "t.wall").unwrap();
        let mut builder = MapViewBuilder::default();
        let view = builder.build(&world).unwrap();
        let layer_pick = |view: &super::super::MapView, x: i32, y: i32| {
            let (w, _) = view.chunk_size(0, 0);
            view.chunks[0].art[0].picks.as_ref().map_or(0, |p| p[(y * w + x) as usize])
        };
        assert_eq!(layer_pick(&view, 1, 1), pick::blob47_piece(0b0000_0100), "the layer's wall to the east only");
        assert_eq!(layer_pick(&view, 2, 1), pick::blob47_piece(0b0100_0000), "the layer's wall to the west only");
        assert_eq!(layer_pick(&view, 0, 0), 0, "an empty cell draws nothing");
        let picks = view.chunks[0].art[0].picks.clone().expect("the layer's chunk picks");
        let again = builder.build(&world).unwrap();
        assert!(Arc::ptr_eq(&picks, again.chunks[0].art[0].picks.as_ref().unwrap()), "unchanged picks are kept");
        paint_art(&mut world, map, "walls", &[(1, 2)], Some("t.wall")).unwrap();
        let view = builder.build(&world).unwrap();
        assert_eq!(layer_pick(&view, 1, 1), pick::blob47_piece(0b0001_0100), "painted below: picked again");
    }

    #[test]
    fn variants_are_picked_from_the_maps_seed_and_the_cell() {
        let (mut world, map) = world();
        let tile = Symbol::intern("base.map_tile");
        world.data.art.set(tile, "t.grass".into(), Some(set(3, Choice::Variants { weights: vec![1, 1, 1] })));
        world.clear_map(map, "t.grass").unwrap();
        let view = MapViewBuilder::default().build(&world).unwrap();
        let seed = world.map_art_seed(world.map(map).unwrap());
        for (x, y) in [(0, 0), (5, 2), (19, 3)] {
            assert_eq!(pick_at(&view, x, y), pick::variant(&[1, 1, 1], pick::cell_hash(seed, x, y)));
        }
        let picks: Vec<u16> = (0..20).map(|x| pick_at(&view, x, 0)).collect();
        assert!(picks.iter().any(|&p| p != picks[0]), "not every cell the same: {picks:?}");
    }
}
