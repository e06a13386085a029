//! The world's side of auto-tiling: rule sets read from their prototypes, laid on maps,
//! painted again where the intent changes (tiles and the objects rules place), and explained
//! cell by cell.

use std::sync::Arc;

use rustc_hash::{FxHashMap, FxHashSet};

use super::maps::MAP_TILE;
use super::{World, WorldError};
use crate::autotile::{
    AutotileLayer, Autotiler, Explanation, Intent, KnownIds, OWN_RULES, ObjectPlacement, RULE_OBJECT_KEY,
    RULE_SET_TYPE, RuleSet, parse_rule_set,
};
use crate::ids::Uid;
use crate::location::{Holder, Location};
use crate::map::MapId;
use crate::symbol::Symbol;
use crate::value::Value;

/// One object the rules placed on, or took back from, a cell of a map (an undo step's worth).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RuleObject {
    /// The object.
    pub uid: Uid,
    /// Its cell.
    pub x: i32,
    /// Its cell.
    pub y: i32,
    /// True if it was made and placed there; false if it was taken off (left ownerless).
    pub placed: bool,
}

/// Rules may name the tiles and object prototypes the loaded data holds.
impl KnownIds for World {
    fn is_tile(&self, id: &str) -> bool {
        self.tile_id(id).is_ok()
    }

    fn is_object(&self, kind: crate::object::ObjectKind, id: &str) -> bool {
        self.data.find(kind.data_type_symbol(), id).is_ok()
    }
}

impl World {
    /// The rule set `id`, read from its `base.autotile_rule_set` prototype; an error names
    /// the rule at fault and where the set was declared.
    pub fn rule_set(&self, id: &str) -> Result<RuleSet, WorldError> {
        let proto = self.data.proto(self.data.find(Symbol::intern(RULE_SET_TYPE), id)?);
        let rules = proto.fields.get(Symbol::intern("rules")).cloned().unwrap_or(Value::Nil);
        parse_rule_set(proto.id, &rules, self)
            .map_err(|e| WorldError::Autotile(format!("{e} (the set is declared at {})", proto.origin)))
    }

    /// The map's own rules `rules` (a rule set's `rules`, kept in the map's file), read.
    pub fn own_rules(&self, rules: &Value) -> Result<RuleSet, WorldError> {
        parse_rule_set(Symbol::intern(OWN_RULES), rules, self)
            .map_err(|e| WorldError::Autotile(format!("{e} (the rules are in the map's file)")))
    }

    /// The rules `layer` paints by: the map's own, or its rule set's.
    pub fn layer_rules(&self, layer: &AutotileLayer) -> Result<RuleSet, WorldError> {
        match &layer.own_rules {
            Some(rules) => self.own_rules(rules),
            None => self.rule_set(layer.rule_set.as_str()),
        }
    }

    /// Every tile's `tags`, for rules that name a tag.
    pub fn tile_tags(&self) -> Vec<(Symbol, Vec<Symbol>)> {
        let tags = Symbol::intern("tags");
        self.data
            .entries(MAP_TILE)
            .filter_map(|tile| match tile.fields.get(tags) {
                Some(Value::List(list)) => {
                    Some((tile.id, list.iter().filter_map(Value::as_str).map(Symbol::intern).collect()))
                }
                _ => None,
            })
            .collect()
    }

    /// Lays rule set `rule_set` on `map` with `seed` and paints it (`map:apply_autotile`).
    /// The map's intent is the one already laid, or else its tiles as they are now; a cell no
    /// rule paints shows its intent tile. Returns how many cells' tiles changed.
    pub fn apply_autotile(&mut self, map: MapId, rule_set: &str, seed: i64) -> Result<usize, WorldError> {
        let rules = self.rule_set(rule_set)?;
        self.lay(map, rules, None, seed)
    }

    /// Lays `rules` on `map` as the map's own (kept in its file, not a prototype) with `seed`
    /// and paints it: `map:apply_autotile({ ... })`. Returns how many cells' tiles changed.
    pub fn apply_own_autotile(&mut self, map: MapId, rules: Value, seed: i64) -> Result<usize, WorldError> {
        let parsed = self.own_rules(&rules)?;
        self.lay(map, parsed, Some(Arc::new(rules)), seed)
    }

    /// Lays `rules` (the map's own if `own` holds them) on `map` and paints it.
    fn lay(&mut self, map: MapId, rules: RuleSet, own: Option<Arc<Value>>, seed: i64) -> Result<usize, WorldError> {
        let instance = self.map(map)?;
        let intent = match &instance.autotile {
            Some(layer) => layer.intent.clone(),
            None => Intent::from_fn(instance.width(), instance.height(), |x, y| instance.tile(x, y)),
        };
        let layer = AutotileLayer { rule_set: rules.id, own_rules: own, seed, intent };
        let (changed, _) = self.paint_layer(map, &rules, &layer)?;
        self.map_mut(map)?.autotile = Some(Arc::new(layer));
        Ok(changed)
    }

    /// Paints `map` again from the intent and rules laid on it (after its rule set or its
    /// tiles' tags changed). Returns the cells whose tile or rule-placed object changed.
    pub fn repaint_autotile(&mut self, map: MapId) -> Result<Vec<(i32, i32)>, WorldError> {
        let Some(layer) = self.map(map)?.autotile.clone() else { return Ok(Vec::new()) };
        let rules = self.layer_rules(&layer)?;
        let before = self.map(map)?.tile_ids();
        let (_, objects) = self.paint_layer(map, &rules, &layer)?;
        let instance = self.map(map)?;
        let width = instance.width();
        let mut changed: Vec<(i32, i32)> = before
            .iter()
            .zip(instance.tile_ids())
            .enumerate()
            .filter(|(_, (old, new))| *old != new)
            .filter_map(|(i, _)| i32::try_from(i).ok().map(|i| (i % width, i / width)))
            .chain(objects.iter().map(|object| (object.x, object.y)))
            .collect();
        changed.sort_unstable_by_key(|&(x, y)| (y, x));
        changed.dedup();
        Ok(changed)
    }

    /// Paints every cell of `map` from `layer` by `rules`, its tiles and the rules' objects;
    /// returns how many cells' tiles changed, and the objects placed or taken back.
    fn paint_layer(
        &mut self,
        map: MapId,
        rules: &RuleSet,
        layer: &AutotileLayer,
    ) -> Result<(usize, Vec<RuleObject>), WorldError> {
        let tiler = Autotiler::new(rules, layer.seed, self.tile_tags());
        let painted = tiler.paint(&layer.intent);
        let instance = self.map_mut(map)?;
        let (width, mut changed) = (instance.width(), 0);
        let mut objects = Vec::new();
        for (cell, painted) in (0..).zip(painted) {
            let (x, y) = (cell % width, cell / width);
            if let Some(tile) = painted.tile.or_else(|| layer.intent.get(x, y))
                && instance.tile(x, y) != Some(tile)
            {
                instance.set_tile(x, y, tile);
                changed += 1;
            }
            objects.push(((x, y), painted.object));
        }
        let objects = self.place_rule_objects(map, objects)?;
        Ok((changed, objects))
    }

    /// Gives each of `cells` of `map` the object the rules place there (or none): an object the
    /// rules placed there earlier (keyed [`RULE_OBJECT_KEY`] for that cell, and still on it)
    /// that is still wanted stays, one no longer wanted is taken off the map, and a wanted one
    /// missing is made and keyed for its cell. Objects anyone else placed are left alone, and so
    /// is one of the rules' that was moved off its cell (it is the user's now, or a character
    /// that walked). A made object its cell refuses (a character on a wall) is dropped at once.
    pub fn place_rule_objects(
        &mut self,
        map: MapId,
        cells: impl IntoIterator<Item = ((i32, i32), Option<ObjectPlacement>)>,
    ) -> Result<Vec<RuleObject>, WorldError> {
        let mut placed = Vec::new();
        let mut cells = cells.into_iter().peekable();
        if cells.peek().is_none() {
            return Ok(placed);
        }
        let (mut taken_keys, mut by_cell) = self.rule_objects_of(map)?;
        for ((x, y), wanted) in cells {
            let mut kept = false;
            for uid in by_cell.remove(&(x, y)).unwrap_or_default() {
                let object = self.object(uid)?;
                let still = !kept && wanted.is_some_and(|w| w.kind == object.kind && w.id == object.id);
                if still {
                    kept = true;
                    continue;
                }
                self.remove_ownership(uid)?;
                placed.push(RuleObject { uid, x, y, placed: false });
            }
            let Some(wanted) = wanted.filter(|_| !kept) else { continue };
            let uid = self.create(wanted.kind, wanted.id.as_str())?;
            if self.take_object(Holder::Map(map), uid, x, y).is_err() {
                // Nothing holds it and nothing saw it: it goes now rather than at a sweep.
                self.objects.remove(&uid);
                continue;
            }
            let mut key = format!("{RULE_OBJECT_KEY}{x},{y}");
            while taken_keys.contains(key.as_str()) {
                key.push('+');
            }
            if let Some(object) = self.objects.get_mut(&uid) {
                object.key = Some(key.as_str().into());
            }
            taken_keys.insert(key.into());
            placed.push(RuleObject { uid, x, y, placed: true });
        }
        Ok(placed)
    }

    /// The keys the rules' objects of `map` hold — on it, held by what is on it, off every map
    /// (the undo history may put those back) and kept aside by it — which a new key must not
    /// repeat; and the rules' objects still on the cell their key names, by cell.
    fn rule_objects_of(&self, map: MapId) -> Result<(FxHashSet<Box<str>>, RulesCells), WorldError> {
        let mut taken: FxHashSet<Box<str>> = FxHashSet::default();
        let mut by_cell = RulesCells::default();
        for (&uid, object) in self.objects.iter() {
            let Some(key) = object.key.as_deref().filter(|key| key.starts_with(RULE_OBJECT_KEY)) else { continue };
            // Held by nothing at the top, or by this map.
            let location = self.objects.get(&self.outermost(uid)).and_then(|o| o.location);
            if location.is_some_and(|l| l != Location::Map(map)) {
                continue;
            }
            taken.insert(key.into());
            if object.location == Some(Location::Map(map)) && rule_cell(key) == Some((object.x, object.y)) {
                by_cell.entry((object.x, object.y)).or_default().push(uid);
            }
        }
        for kept in &self.map(map)?.unresolved {
            crate::object_key::for_each_key(std::slice::from_ref(&kept.record), |_, key| {
                if key.starts_with(RULE_OBJECT_KEY) {
                    taken.insert(key.into());
                }
            });
        }
        Ok((taken, by_cell))
    }

    /// The object `uid` is inside of at the top (itself if it is held by nothing).
    fn outermost(&self, uid: Uid) -> Uid {
        let mut current = uid;
        while let Some(Location::Inventory(owner) | Location::Equipment(owner, _)) =
            self.objects.get(&current).and_then(|o| o.location)
        {
            current = owner;
        }
        current
    }

    /// Why the tile at (x, y) of `map` is there: the rule that painted it, those that
    /// matched and lost, and the near misses. An error if no rules are laid on the map.
    pub fn explain_tile(&self, map: MapId, x: i32, y: i32) -> Result<Explanation, WorldError> {
        let instance = self.map(map)?;
        let Some(layer) = &instance.autotile else {
            return Err(WorldError::Autotile(format!(
                "map '{}' has no auto-tiling rules laid on it; a generator lays them with map:apply_autotile(rule_set_id)",
                instance.name
            )));
        };
        if !instance.in_bounds(x, y) {
            let (width, height) = (instance.width(), instance.height());
            return Err(crate::location::Refusal::OutOfBounds { x, y, width, height }.into());
        }
        let rules = self.layer_rules(layer)?;
        let mut explanation = Autotiler::new(&rules, layer.seed, self.tile_tags()).explain(&layer.intent, x, y);
        if layer.own_rules.is_none() {
            let set = self.data.find(Symbol::intern(RULE_SET_TYPE), layer.rule_set.as_str())?;
            explanation.declared_at = Some(self.data.proto(set).origin.clone());
        }
        Ok(explanation)
    }
}

/// The rules' objects of a map still on the cell their key names, by cell.
type RulesCells = FxHashMap<(i32, i32), Vec<Uid>>;

/// The cell a rule object's key names (`rule@12,5`, or `rule@12,5+` for a later one).
fn rule_cell(key: &str) -> Option<(i32, i32)> {
    let (x, y) = key.strip_prefix(RULE_OBJECT_KEY)?.trim_end_matches('+').split_once(',')?;
    Some((x.parse().ok()?, y.parse().ok()?))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::object::ObjectKind;
    use crate::world::tests::world_with_map;

    fn putit() -> Option<ObjectPlacement> {
        Some(ObjectPlacement { kind: ObjectKind::Chara, id: Symbol::intern("t.putit") })
    }

    fn key(world: &World, uid: Uid) -> String {
        world.object(uid).ok().and_then(|o| o.key.as_deref().map(str::to_owned)).unwrap_or_default()
    }

    #[test]
    fn a_moved_rule_object_is_left_alone_and_no_key_is_given_twice() {
        let (mut world, map) = world_with_map();
        let placed = world.place_rule_objects(map, [((1, 1), putit())]).unwrap();
        let first = placed[0].uid;
        assert_eq!(key(&world, first), "rule@1,1");
        // Moved by the user (or walked): the rules no longer count it as theirs.
        world.set_pos(first, 2, 2).unwrap();
        let placed = world.place_rule_objects(map, [((1, 1), putit()), ((2, 2), None)]).unwrap();
        assert_eq!(placed.len(), 1, "one made at (1, 1), the moved one kept: {placed:?}");
        let second = placed[0].uid;
        assert_eq!(world.map_of(first), Some(map), "the moved one is still on the map");
        assert_eq!(key(&world, second), "rule@1,1+", "its key is not repeated");

        // Taken off the map, as an undo does: its key stays taken, since a redo puts it back.
        world.remove_ownership(second).unwrap();
        let placed = world.place_rule_objects(map, [((1, 1), putit())]).unwrap();
        let third = placed[0].uid;
        assert_eq!(key(&world, third), "rule@1,1++");
        world.take_object(Holder::Map(map), second, 3, 3).unwrap();
        let keys: FxHashSet<String> = [first, second, third].iter().map(|&uid| key(&world, uid)).collect();
        assert_eq!(keys.len(), 3, "every key once: {keys:?}");
    }

    #[test]
    fn an_object_its_cell_refuses_is_not_kept() {
        let (mut world, map) = world_with_map();
        let before = world.objects.len();
        // Off the 4×4 map: the cell refuses what the rules would place.
        let placed = world.place_rule_objects(map, [((9, 9), putit())]).unwrap();
        assert!(placed.is_empty(), "nothing placed: {placed:?}");
        assert_eq!(world.objects.len(), before, "the refused object is gone, not left for a sweep");
    }
}
