//! The viewport's state the panes share: the camera, the layer toggles, the timeline's
//! scrubber, focus and what to reveal next frame (the pane that draws it is
//! [`crate::panes::viewport`]).

use std::collections::BTreeMap;
use std::sync::Arc;

use egui::{Rect, Vec2};
use nefia_game::Uid;
use nefia_game::display::WidgetView;
use nefia_protocol::failure::GameError;
use nefia_protocol::view::MapView;

use crate::render::camera::{Camera, LayerToggles};
use crate::render::map::{DrawReport, MapRenderer};

/// The viewport's own state.
#[derive(Default)]
pub struct ViewportState {
    /// Where the view looks (fitted to the map on first sight).
    pub camera: Option<Camera>,
    /// The timeline's scrubber and playback while playing.
    pub timeline: Timeline,
    /// Which layers are shown.
    pub toggles: LayerToggles,
    /// The cell under the mouse.
    pub hovered: Option<(i32, i32)>,
    /// What the last frame drew.
    pub report: DrawReport,
    /// True if the viewport has the keyboard (the game's keys, the editor's shortcuts).
    pub has_focus: bool,
    /// Where the map was drawn last frame.
    pub rect: Option<Rect>,
    /// Where a box selection started, in cells.
    pub(crate) box_start: Option<Vec2>,
    /// The cell a drag of the selected objects started from.
    pub(crate) move_from: Option<(i32, i32)>,
    /// Fit the map on the next frame.
    pub fit_requested: bool,
    /// Give the viewport the keyboard on the next frame (play started).
    pub focus_requested: bool,
    /// Once play has a player on the map: centre on it, zoomed in at least to
    /// [`crate::render::camera::Camera::PLAY_ZOOM`] (a fitted generated map is too small to read).
    pub zoom_to_player: bool,
    /// The REPL drawn over the game (toggled with the backquote key in the viewport), the
    /// top of the seed's layer stack.
    pub repl_overlay: bool,
    /// The error screen left for the REPL (Escape): shown as a banner until resumed.
    pub dismissed_error: Option<GameError>,
    /// Pan to this object on the next frame if it is out of view (picked in Locations, or
    /// a link clicked in the REPL).
    pub pan_to: Option<Uid>,
    /// Pan to this cell on the next frame if it is out of view (a problem clicked).
    pub reveal_cell: Option<(i32, i32)>,
    /// HUD widgets the user showed or hid (Layers menu), by id; the others show while
    /// playing, and while editing if they say so (`show_while_editing`).
    pub widget_choices: BTreeMap<String, bool>,
    pub(crate) renderer: MapRenderer,
    /// The last map view and its intent layer as drawn (see [`ViewportState::intent_of`]).
    pub(crate) intent_view: Option<(Arc<MapView>, Arc<MapView>)>,
    pub(crate) fitted: Option<nefia_game::MapId>,
    /// Whether the game was played at the last frame (to tell when play starts and stops).
    pub(crate) was_playing: bool,
    /// The camera when play started and the map it was fitted to: Stop puts it back when that
    /// map is current again (the workbench's preview after Play this).
    pub(crate) before_play: Option<(Camera, nefia_game::MapId)>,
}

impl ViewportState {
    /// Fixes the animation clock the map and the previews drawn from its atlas run on at
    /// `time_ms` (None: egui's clock), as [`MapRenderer::set_clock`] does: for tests.
    pub fn set_animation_clock(&mut self, time_ms: Option<u64>) {
        self.renderer.set_clock(time_ms);
    }

    /// `map` as its intent layer draws it (see [`MapView::as_intent`]), made once per map view
    /// so the renderer's caches hold; `map` itself on a map without rules.
    pub fn intent_of(&mut self, map: &Arc<MapView>) -> Arc<MapView> {
        if let Some((source, shown)) = &self.intent_view
            && Arc::ptr_eq(source, map)
        {
            return shown.clone();
        }
        let shown = map.as_intent().map_or_else(|| map.clone(), Arc::new);
        self.intent_view = Some((map.clone(), shown.clone()));
        shown
    }

    /// The intent layer the viewport drew last, if it drew one.
    pub fn drawn_intent(&self) -> Option<&MapView> {
        self.intent_view.as_ref().map(|(_, shown)| &**shown)
    }

    /// True if `widget` is drawn: as the user chose, else while playing, else if it shows
    /// while editing.
    pub fn shows_widget(&self, widget: &WidgetView, playing: bool) -> bool {
        self.widget_choices.get(&widget.id).copied().unwrap_or(playing || widget.show_while_editing)
    }
}

/// The timeline strip's state (see [`crate::play_controls::timeline_ui`]).
#[derive(Default)]
pub struct Timeline {
    /// ▶ is on: the recorded turns ahead are replayed one after another.
    pub playing: bool,
    /// When ▶ last stepped.
    pub last_step: Option<std::time::Instant>,
    /// The turn mark the scrubber is being dragged to (sent when it is let go).
    pub dragging: Option<usize>,
}
