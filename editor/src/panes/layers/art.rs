//! The current map's art layers in the Layers pane, top first as they are drawn: the layers
//! over the objects, the objects, the layers under them, the game's tiles. Each can be hidden
//! in the viewport (the map view is drawn without it: [`ArtLayersState::shown`]), picked as
//! what the painting tools paint ([`ArtLayersState::paint_target`]), renamed, moved up and
//! down (across the objects it changes place) and deleted; new layers are added over the
//! others of their place. Every change is an edit of the map, undone like any other.

use std::sync::Arc;

use egui::Ui;
use nefia_game::edit::Edit;
use nefia_game::map::{ArtLayerEdit, MapId};
use nefia_game::save::LayerPlace;
use nefia_protocol::editing::EditingCommand;
use nefia_protocol::message::Command;
use nefia_protocol::view::{ArtLayerView, MapView};

use crate::accessibility::accessible_name;
use crate::context::EditorContext;

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
    renaming: Option<(String, String)>,
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

/// Shows the current map's art layers.
pub fn ui(ui: &mut Ui, state: &mut EditorContext) {
    let Some(map) = state.snapshot.map.clone() else { return };
    ui.strong(format!("Art layers of map '{}'", map.name));
    let mut edits = Vec::new();
    ui.indent("art-layers", |ui| {
        let top_first = |place| map.art_layers.iter().rev().filter(move |l| l.place == place);
        for layer in top_first(LayerPlace::Above) {
            row(ui, state, &map, layer, &mut edits);
        }
        ui.weak("objects");
        for layer in top_first(LayerPlace::Below) {
            row(ui, state, &map, layer, &mut edits);
        }
        let game = state.level.art.paint_target(&map).is_none();
        let picked = ui.radio(game, "game tiles");
        accessible_name(ui, &picked, "Paint the game tiles");
        if picked.clicked() {
            state.level.art.paint = None;
        }
        let field =
            egui::TextEdit::singleline(&mut state.level.art.new_name).hint_text("new layer").desired_width(160.0);
        let typed = ui.add(field);
        accessible_name(ui, &typed, "New art layer name");
        ui.horizontal(|ui| {
            for (text, place) in [("Add below objects", LayerPlace::Below), ("Add above objects", LayerPlace::Above)] {
                let name = state.level.art.new_name.trim().to_owned();
                if ui.add_enabled(!name.is_empty(), egui::Button::new(text)).clicked() {
                    edits.push(ArtLayerEdit::Add { name: name.clone(), place });
                    // The new layer is what the brush paints next.
                    state.level.art.paint = Some((map.id, name));
                    state.level.art.new_name.clear();
                }
            }
        });
    });
    for edit in edits {
        state.outbox.push(Command::Editing(EditingCommand::Edit(Edit::ArtLayer { map: map.id, edit })));
    }
}

/// One layer's row: shown, painted, its name (or the box renaming it), up, down, delete.
fn row(ui: &mut Ui, state: &mut EditorContext, map: &MapView, layer: &ArtLayerView, edits: &mut Vec<ArtLayerEdit>) {
    let art = &mut state.level.art;
    let name = &layer.name;
    ui.horizontal(|ui| {
        let key = (map.id, name.clone());
        let mut shown = !art.hidden.contains(&key);
        let toggle = ui.checkbox(&mut shown, "");
        accessible_name(ui, &toggle, format!("Show art layer '{name}'"));
        if toggle.changed() {
            art.hidden.retain(|hidden| *hidden != key);
            if !shown {
                art.hidden.push(key.clone());
            }
        }
        match &mut art.renaming {
            Some((renamed, typed)) if renamed == name => {
                let field = ui.text_edit_singleline(typed);
                accessible_name(ui, &field, format!("New name of art layer '{name}'"));
                if field.lost_focus() && ui.input(|i| i.key_pressed(egui::Key::Enter)) {
                    let to = typed.trim().to_owned();
                    if !to.is_empty() && to != *name {
                        edits.push(ArtLayerEdit::Rename { name: name.clone(), to: to.clone() });
                        if art.paint.as_ref() == Some(&key) {
                            art.paint = Some((map.id, to));
                        }
                    }
                    art.renaming = None;
                }
            }
            _ => {
                let painted = art.paint.as_ref() == Some(&key);
                let picked = ui.radio(painted, name.as_str());
                accessible_name(ui, &picked, format!("Paint art layer '{name}'"));
                if picked.clicked() {
                    art.paint = Some(key.clone());
                }
            }
        }
        let mut button = |text: &str, what: String| {
            let clicked = ui.small_button(text);
            accessible_name(ui, &clicked, what);
            clicked.clicked()
        };
        if button("up", format!("Move art layer '{name}' up")) {
            edits.extend(moved(&map.art_layers, name, true));
        }
        if button("down", format!("Move art layer '{name}' down")) {
            edits.extend(moved(&map.art_layers, name, false));
        }
        if button("rename", format!("Rename art layer '{name}'")) {
            art.renaming = Some((name.clone(), name.clone()));
        }
        if button("delete", format!("Delete art layer '{name}'")) {
            edits.push(ArtLayerEdit::Remove { name: name.clone() });
        }
    });
}

/// The edit that moves layer `name` of `layers` (bottom first) one step up or down in draw
/// order: past its neighbour of the same place, or across the objects to the other place.
/// None at the top or bottom.
fn moved(layers: &[ArtLayerView], name: &str, up: bool) -> Option<ArtLayerEdit> {
    let layer = layers.iter().find(|l| l.name == name)?;
    let order: Vec<&ArtLayerView> = [LayerPlace::Below, LayerPlace::Above]
        .into_iter()
        .flat_map(|place| layers.iter().filter(move |l| l.place == place))
        .collect();
    let at = order.iter().position(|l| l.name == name)?;
    let rest: Vec<&ArtLayerView> = layers.iter().filter(|l| l.name != name).collect();
    let index_of = |other: &ArtLayerView| rest.iter().position(|l| l.name == other.name).unwrap_or(rest.len());
    let neighbour = if up { order.get(at + 1) } else { at.checked_sub(1).and_then(|i| order.get(i)) };
    let (index, place) = match (neighbour, layer.place, up) {
        // Past a neighbour of its own place.
        (Some(next), place, up) if next.place == place => (index_of(next) + usize::from(up), place),
        // Across the objects, next to the first layer of the other place.
        (Some(next), LayerPlace::Below, true) => (index_of(next), LayerPlace::Above),
        (Some(next), LayerPlace::Above, false) => (index_of(next) + 1, LayerPlace::Below),
        // Across the objects with no layer on the other side.
        (None, LayerPlace::Below, true) => (rest.len(), LayerPlace::Above),
        (None, LayerPlace::Above, false) => (0, LayerPlace::Below),
        _ => return None,
    };
    Some(ArtLayerEdit::Move { name: name.to_owned(), index, place })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layer(name: &str, place: LayerPlace) -> ArtLayerView {
        ArtLayerView { name: name.into(), place, offset_px: (0, 0) }
    }

    #[test]
    fn moving_a_layer_passes_its_neighbour_or_crosses_the_objects() {
        let (below, above) = (LayerPlace::Below, LayerPlace::Above);
        // Drawn bottom to top: rugs, shadows | objects | roofs, birds (the list interleaves places).
        let layers = [layer("roofs", above), layer("rugs", below), layer("birds", above), layer("shadows", below)];
        let step = |name: &str, up| moved(&layers, name, up);
        let to = |name: &str, index, place| Some(ArtLayerEdit::Move { name: name.into(), index, place });
        assert_eq!(step("rugs", true), to("rugs", 3, below), "past shadows");
        assert_eq!(step("shadows", true), to("shadows", 0, above), "across the objects, under roofs");
        assert_eq!(step("roofs", false), to("roofs", 3, below), "across the objects, over shadows");
        assert_eq!(step("roofs", true), to("roofs", 2, above), "past birds");
        assert_eq!(step("birds", true), None, "the top");
        assert_eq!(step("rugs", false), None, "the bottom");
        let alone = [layer("roofs", above)];
        assert_eq!(moved(&alone, "roofs", false), to("roofs", 0, below), "across the objects to an empty place");
    }
}
