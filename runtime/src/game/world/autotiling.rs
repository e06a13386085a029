//! The world's side of auto-tiling: rule sets read from their prototypes, laid on maps,
//! painted again where the intent changes, and explained cell by cell.

use std::sync::Arc;

use super::maps::MAP_TILE;
use super::{World, WorldError};
use crate::game::autotile::{
    AutotileLayer, Autotiler, Explanation, Intent, OWN_RULES, RULE_SET_TYPE, RuleSet, parse_rule_set,
};
use crate::game::map::MapId;
use crate::game::symbol::Symbol;
use crate::game::value::Value;

impl World {
    /// The rule set `id`, read from its `base.autotile_rule_set` prototype; an error names
    /// the rule at fault and where the set was declared.
    pub fn rule_set(&self, id: &str) -> Result<RuleSet, WorldError> {
        let proto = self.data.proto(self.data.find(Symbol::intern(RULE_SET_TYPE), id)?);
        let rules = proto.fields.get(Symbol::intern("rules")).cloned().unwrap_or(Value::Nil);
        parse_rule_set(proto.id, &rules, |tile| self.tile_id(tile).is_ok())
            .map_err(|e| WorldError::Autotile(format!("{e} (the set is declared at {})", proto.origin)))
    }

    /// The map's own rules `rules` (a rule set's `rules`, kept in the map's file), read.
    pub fn own_rules(&self, rules: &Value) -> Result<RuleSet, WorldError> {
        parse_rule_set(Symbol::intern(OWN_RULES), rules, |tile| self.tile_id(tile).is_ok())
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
        let changed = self.paint_layer(map, &rules, &layer)?;
        self.map_mut(map)?.autotile = Some(Arc::new(layer));
        Ok(changed)
    }

    /// Paints `map` again from the intent and rules laid on it (after its rule set or its
    /// tiles' tags changed). Returns the cells whose tile changed.
    pub fn repaint_autotile(&mut self, map: MapId) -> Result<Vec<(i32, i32)>, WorldError> {
        let Some(layer) = self.map(map)?.autotile.clone() else { return Ok(Vec::new()) };
        let rules = self.layer_rules(&layer)?;
        let before = self.map(map)?.tile_ids();
        self.paint_layer(map, &rules, &layer)?;
        let instance = self.map(map)?;
        let width = instance.width();
        Ok(before
            .iter()
            .zip(instance.tile_ids())
            .enumerate()
            .filter(|(_, (old, new))| *old != new)
            .filter_map(|(i, _)| i32::try_from(i).ok().map(|i| (i % width, i / width)))
            .collect())
    }

    /// Paints every cell of `map` from `layer` by `rules`; returns how many changed.
    fn paint_layer(&mut self, map: MapId, rules: &RuleSet, layer: &AutotileLayer) -> Result<usize, WorldError> {
        let tiler = Autotiler::new(rules, layer.seed, self.tile_tags());
        let painted = tiler.paint(&layer.intent);
        let instance = self.map_mut(map)?;
        let (width, mut changed) = (instance.width(), 0);
        for (cell, tile) in (0..).zip(painted) {
            let (x, y) = (cell % width, cell / width);
            if let Some(tile) = tile.or_else(|| layer.intent.get(x, y))
                && instance.tile(x, y) != Some(tile)
            {
                instance.set_tile(x, y, tile);
                changed += 1;
            }
        }
        Ok(changed)
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
            return Err(crate::game::location::Refusal::OutOfBounds { x, y, width, height }.into());
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
