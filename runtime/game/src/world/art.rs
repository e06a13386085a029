//! The world's art: what each tile and object draws under the active themes, the seed a
//! map's variants are picked from, and the sprite each cell of a map picks and why.
//!
//! The active themes are a viewing choice, like the ASCII view: kept in the world (so every
//! view built from it sees them, and they survive loading a game) but not saved with a game
//! or a map.

use std::sync::Arc;

use crate::art::explain::SpriteWhy;
use crate::art::{Art, Parsed, Sheets, pick};
use crate::map::{InstancedMap, MapId, ObjectMemory};
use crate::object::ObjectKind;
use crate::symbol::Symbol;
use crate::value::Value;

use super::{World, WorldError};
use crate::art::book::THEME_TYPE;

/// The data type of tiles.
const MAP_TILE: &str = "base.map_tile";

impl World {
    /// The themes whose images replace the prototypes' own, first first.
    pub fn active_themes(&self) -> &[Symbol] {
        &self.themes
    }

    /// Makes `themes` the active themes (earlier ones replace images before later ones); each
    /// must be a loaded `base.theme`.
    pub fn set_active_themes(&mut self, themes: Vec<Symbol>) -> Result<(), WorldError> {
        for &theme in &themes {
            self.data.find_symbol(Symbol::intern(THEME_TYPE), theme)?;
        }
        self.themes = themes;
        self.revision += 1;
        Ok(())
    }

    /// The art tile `tile` draws under the active themes, with its set's `connects` group.
    pub fn tile_art(&self, tile: Symbol) -> Option<&Parsed> {
        self.data.art.get(Symbol::intern(MAP_TILE), tile, &self.themes)
    }

    /// The art an object of `kind` and prototype `id` draws, given the `image` its memory
    /// holds: its own image if it set one (read without measuring its sheet; none for an
    /// OpenNefia image id, which draws the glyph as a prototype's does), else its
    /// prototype's as the active themes have it.
    pub fn object_art(&self, kind: ObjectKind, id: Symbol, image: Option<&Value>) -> Option<Arc<Art>> {
        let data_type = kind.data_type_symbol();
        let prototype_image = self
            .data
            .find_symbol(data_type, id)
            .ok()
            .and_then(|proto| self.data.proto(proto).fields.get(Symbol::intern("image")));
        match image {
            Some(own) if Some(own) != prototype_image => match crate::art::parse::is_image_id(own) {
                true => None,
                false => crate::art::parse(own, &Sheets::default()).ok().map(|parsed| parsed.art),
            },
            _ => self.data.art.get(data_type, id, &self.themes).map(|parsed| parsed.art.clone()),
        }
    }

    /// The art a remembered object draws.
    pub fn memory_art(&self, memory: &ObjectMemory) -> Option<Arc<Art>> {
        self.object_art(memory.kind, memory.id, memory.image.as_ref())
    }

    /// Why cell (x, y) of `map` draws the sprite of its tile's art it does (none: its tile
    /// has no art).
    pub fn explain_sprite(&self, map: MapId, x: i32, y: i32) -> Result<Option<SpriteWhy>, WorldError> {
        let instance = self.map(map)?;
        let Some(tile) = instance.tile(x, y) else {
            let (width, height) = (instance.width(), instance.height());
            return Err(crate::location::Refusal::OutOfBounds { x, y, width, height }.into());
        };
        let Some(parsed) = self.tile_art(tile) else { return Ok(None) };
        let (seed, seed_from) = match art_seed(instance) {
            Some(seed) => (pick::map_seed(Some(seed), &instance.name), format!("its art_seed {seed}")),
            None => (pick::map_seed(None, &instance.name), "a hash of its name".to_owned()),
        };
        let mask = self.neighbour_mask(instance, tile, x, y);
        Ok(Some(crate::art::explain::explain(tile.as_str(), &parsed.art, seed, &seed_from, x, y, mask)))
    }

    /// The seed map `map`'s variants are picked from.
    pub fn map_art_seed(&self, map: &InstancedMap) -> u64 {
        pick::map_seed(art_seed(map), &map.name)
    }

    /// The group tile `tile` connects to its neighbours by: its art's `connects` group, else
    /// the tile itself.
    pub fn tile_group(&self, tile: Symbol) -> Symbol {
        self.tile_art(tile).and_then(|p| p.connects).unwrap_or(tile)
    }

    /// The neighbours of (x, y) on `map` that connect to its tile `tile`: a neighbour of the
    /// same [`World::tile_group`]; the map's edges connect.
    pub fn neighbour_mask(&self, map: &InstancedMap, tile: Symbol, x: i32, y: i32) -> u8 {
        pick::connects_mask(x, y, &self.tile_group(tile), |x, y| Some(self.tile_group(map.tile(x, y)?)))
    }
}

/// A map's `art_seed` field, if it has one.
fn art_seed(map: &InstancedMap) -> Option<i64> {
    map.fields.base.get(Symbol::intern("art_seed")).and_then(Value::as_i64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::data::{DataRegistry, OnDuplicate};
    use crate::moddable::{FieldMap, Origin};

    #[test]
    fn an_object_draws_its_own_image_its_prototypes_or_for_an_image_id_none() {
        let mut data = DataRegistry::default();
        let feat = ObjectKind::Feat.data_type_symbol();
        data.add_type(feat, Vec::new(), Origin::tool("t"), OnDuplicate::Error).unwrap();
        let image = Value::Str("feats/door.png".into());
        let fields: FieldMap = [(Symbol::intern("image"), image.clone())].into_iter().collect();
        data.add(feat, "t.door".into(), fields, Origin::tool("t"), OnDuplicate::Error).unwrap();
        let own = crate::art::parse(&image, &Sheets::default()).unwrap();
        data.art.set(feat, "t.door".into(), Some(own.clone()));
        let world = World::new(data);
        let door = Symbol::intern("t.door");
        let sheet = |image: Option<&Value>| world.object_art(ObjectKind::Feat, door, image).map(|a| a.sprites[0].sheet);
        assert!(
            Arc::ptr_eq(&world.object_art(ObjectKind::Feat, door, Some(&image)).unwrap(), &own.art),
            "its prototype's"
        );
        assert_eq!(sheet(None), Some(Symbol::intern("feats/door.png")), "no image of its own: its prototype's");
        assert_eq!(sheet(Some(&Value::Str("feats/open.png".into()))), Some(Symbol::intern("feats/open.png")));
        assert_eq!(sheet(Some(&Value::Str("elona.door_open".into()))), None, "an image id draws the glyph");
    }
}
