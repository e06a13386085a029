//! The viewport's toolbar: the tools with the brush size and what they paint (the timeline
//! while playing), then Play, Fit map, Grid, the theme and the Layers menu — rows that keep their height
//! whatever the tool, so the map below never moves under the mouse.

use egui::{RichText, Ui};
use nefia_game::display::WidgetView;
use strum::IntoEnumIterator;

use crate::commands::Action;
use crate::context::{EditorContext, LevelState, Tool, ViewportState};

/// The toolbar above the map.
pub(super) fn toolbar_ui(ui: &mut Ui, state: &mut EditorContext) {
    // The rows keep their height while painting (the brush size is always there), so the
    // map below does not move under the mouse.
    let editing = !state.snapshot.play.playing;
    ui.horizontal_wrapped(|ui| {
        // While playing the tools are put away (Stop brings them back) and the timeline of
        // the session's turns takes their place.
        match editing {
            true => tool_row_ui(ui, &mut state.level),
            false => crate::play_controls::timeline_ui(ui, state),
        }
    });
    // One line whatever the width (the map must not move when play starts): the layers are
    // a menu, and a line wider than the viewport scrolls instead of widening the pane.
    egui::ScrollArea::horizontal()
        .id_salt("viewport-toolbar")
        .scroll_bar_visibility(egui::scroll_area::ScrollBarVisibility::AlwaysHidden)
        .show(ui, |ui| view_row_ui(ui, state));
}

/// Play, Fit map, Grid, ASCII, Intent, the theme, the Layers menu, the language and the zoom.
fn view_row_ui(ui: &mut Ui, state: &mut EditorContext) {
    ui.horizontal(|ui| {
        crate::play_controls::controls_ui(ui, state);
        ui.separator();
        if ui.button("Fit map").on_hover_text("Show the whole map").clicked() {
            state.viewport.fit_requested = true;
        }
        ui.toggle_value(&mut state.viewport.toggles.grid, "Grid");
        ui.checkbox(&mut state.viewport.toggles.ascii, "ASCII")
            .on_hover_text("Draw every tile and object as its glyph, with no images (the art layers hidden)");
        if state.snapshot.map.as_ref().is_some_and(|m| m.intent_styles.is_some()) {
            ui.toggle_value(&mut state.viewport.toggles.intent, "Intent").on_hover_text(
                "Show what each cell is meant to be (the layer the rules read and the palette paints) instead of the tiles the rules painted",
            );
        }
        if let Some(command) = crate::themes::theme_picker(ui, &state.snapshot.mods) {
            state.outbox.push(command);
        }
        let widgets = &state.snapshot.widgets;
        let playing = state.snapshot.play.playing;
        ui.menu_button("Layers ⏷", |ui| layers_menu_ui(ui, &mut state.viewport, widgets, playing))
            .response
            .on_hover_text("What the map shows: its layers and the HUD widgets");
        crate::panes::locale::language_ui(ui, state);
        if let Some(camera) = &state.viewport.camera {
            ui.separator();
            ui.add(egui::Label::new(RichText::new(format!("{:.0} px/cell", camera.zoom)).weak()).truncate());
        }
    });
}

/// The Layers menu: the map's layers, then each HUD widget.
fn layers_menu_ui(ui: &mut Ui, view: &mut ViewportState, widgets: &[WidgetView], playing: bool) {
    let toggles = &mut view.toggles;
    ui.checkbox(&mut toggles.tiles, "Tiles");
    ui.checkbox(&mut toggles.feats, "Feats");
    ui.checkbox(&mut toggles.mefs, "Mefs");
    ui.checkbox(&mut toggles.items, "Items");
    ui.checkbox(&mut toggles.charas, "Characters");
    ui.checkbox(&mut toggles.shadow, "Shadow");
    ui.checkbox(&mut toggles.mods, "Mod layers");
    if widgets.is_empty() {
        return;
    }
    ui.separator();
    ui.weak("HUD widgets");
    for widget in widgets {
        let mut shown = view.shows_widget(widget, playing);
        let hint = if widget.show_while_editing { "" } else { " (play only by default)" };
        if ui.checkbox(&mut shown, format!("{}{hint}", widget.id)).changed() {
            view.widget_choices.insert(widget.id.clone(), shown);
        }
    }
}

/// The tools, the brush size and what the tool will paint or place.
fn tool_row_ui(ui: &mut Ui, level: &mut LevelState) {
    for tool in Tool::iter() {
        let hint = match Action::Tool(tool).shortcut_text(ui.ctx()) {
            Some(keys) => format!("{} ({keys})", tool.tooltip()),
            None => tool.tooltip().to_owned(),
        };
        ui.selectable_value(&mut level.tool, tool, tool.name()).on_hover_text(hint);
    }
    ui.separator();
    let sized = level.tool.has_size();
    ui.add_enabled(sized, egui::DragValue::new(&mut level.brush).range(1..=9).prefix("size "));
    let what = match level.tool {
        Tool::Place => match &level.object {
            Some((_, id)) => format!("placing {id}"),
            None => "pick an object in the Palette".into(),
        },
        Tool::Select => String::new(),
        _ => match &level.tile {
            Some(tile) => format!("tile {tile}"),
            None => "pick a tile in the Palette (or right-click a cell)".into(),
        },
    };
    // Cut to the room left on the tools' line: a label wider than that would go to a line of
    // its own, and the toolbar would change height with the tool (the map moving under the
    // mouse between two clicks).
    let room = egui::vec2(ui.available_size_before_wrap().x.max(0.0), ui.spacing().interact_size.y);
    ui.allocate_ui_with_layout(room, egui::Layout::left_to_right(egui::Align::Center), |ui| {
        ui.add(egui::Label::new(RichText::new(what).weak()).truncate());
    });
}
