//! What the editor keeps of a map's art layers between frames: the one the painting tools
//! paint, those hidden in the viewport, and the names being typed in the Layers pane
//! ([`crate::panes::layers`] shows them).

use std::sync::Arc;

use nefia_game::map::MapId;
use nefia_protocol::view::MapView;

/// What the Layers pane keeps of the art layers: the one painted, those hidden, the names
/// being typed.
#[derive(Debug, Default)]
pub struct ArtLayersState {
    /// The art layer the painting tools paint (its map and name); none: the game's tiles.
    pub paint: Option<(MapId, String)>,
    /// The art layers hidden in the viewport, by map and name.
    pub hidden: Vec<(MapId, String)>,
    /// The name typed for a new layer.
    pub new_name: String,
    /// The layer being renamed, and the name typed for it.
    pub(crate) renaming: Option<(String, String)>,
    /// The last view [`ArtLayersState::shown`] filtered, the hidden names and what it gave.
    shown: Option<(Arc<MapView>, Vec<String>, Arc<MapView>)>,
}

impl ArtLayersState {
    /// The art layer of `map` the painting tools paint, if one is picked and `map` has it.
    pub fn paint_target(&self, map: &MapView) -> Option<&str> {
        let (on, name) = self.paint.as_ref()?;
        (*on == map.id && map.art_layers.iter().any(|l| l.name == *name)).then_some(name.as_str())
    }

    /// The names of `map`'s hidden art layers.
    fn hidden_on(&self, map: MapId) -> Vec<String> {
        self.hidden.iter().filter(|(on, _)| *on == map).map(|(_, name)| name.clone()).collect()
    }

    /// `map` as the viewport draws it: without its hidden art layers. Made once per view and
    /// choice, so the renderer's caches hold.
    pub fn shown(&mut self, map: &Arc<MapView>) -> Arc<MapView> {
        let hidden = self.hidden_on(map.id);
        if let Some((source, had, shown)) = &self.shown
            && Arc::ptr_eq(source, map)
            && *had == hidden
        {
            return shown.clone();
        }
        let shown = map.without_art_layers(&hidden).map_or_else(|| map.clone(), Arc::new);
        self.shown = Some((map.clone(), hidden, shown.clone()));
        shown
    }
}
