//! The level editor's state the panes share: the tool, the brush, what is painted and placed,
//! and the clipboard (the gestures that use it are in [`crate::tools`]).

use egui::{Key, KeyboardShortcut, Modifiers};
use nefia_game::{ObjectKind, Symbol};

/// A tool of the level editor, in toolbar order (`Tool::iter()`, from `strum`, lists them).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, strum::EnumIter)]
pub enum Tool {
    /// Select objects, drag them to move them (the tool a level opens with).
    #[default]
    Select,
    /// Paint tiles under a square brush.
    Brush,
    /// Paint a filled rectangle.
    Rect,
    /// Flood fill the area of one tile.
    Fill,
    /// Paint a line.
    Line,
    /// Pick the tile under the cursor.
    Eyedropper,
    /// Place the palette's object.
    Place,
    /// Remove the objects under the brush.
    Erase,
}

impl Tool {
    /// Its shortcut (see [`crate::commands`]).
    pub fn shortcut(self) -> &'static [KeyboardShortcut] {
        /// The shortcut that is the letter `$key` alone.
        macro_rules! letter {
            ($key:ident) => {{
                const KEYS: &[KeyboardShortcut] = &[KeyboardShortcut::new(Modifiers::NONE, Key::$key)];
                KEYS
            }};
        }
        match self {
            Tool::Select => letter!(S),
            Tool::Brush => letter!(B),
            Tool::Rect => letter!(R),
            Tool::Fill => letter!(F),
            Tool::Line => letter!(L),
            Tool::Eyedropper => letter!(I),
            Tool::Place => letter!(O),
            Tool::Erase => letter!(E),
        }
    }

    /// What it does, for its tooltip.
    pub fn tooltip(self) -> &'static str {
        match self {
            Tool::Select => "Select objects; drag them to move them",
            Tool::Brush => "Paint tiles under a square brush (sizes 1–9)",
            Tool::Rect => "Paint a filled rectangle",
            Tool::Fill => "Flood fill the area of one tile",
            Tool::Line => "Paint a line",
            Tool::Eyedropper => "Pick the tile under the cursor",
            Tool::Place => "Place the palette's object",
            Tool::Erase => "Remove the objects under the brush",
        }
    }

    /// Its name on the toolbar.
    pub fn name(self) -> &'static str {
        match self {
            Tool::Select => "Select",
            Tool::Brush => "Brush",
            Tool::Rect => "Rectangle",
            Tool::Fill => "Fill",
            Tool::Line => "Line",
            Tool::Eyedropper => "Eyedropper",
            Tool::Place => "Place",
            Tool::Erase => "Erase",
        }
    }

    /// True for the tools whose brush has a size (1–9).
    pub fn has_size(self) -> bool {
        matches!(self, Tool::Brush | Tool::Erase | Tool::Line)
    }

    /// True for the tools that paint tiles (they pick a tile on right-click).
    pub(crate) fn paints(self) -> bool {
        matches!(self, Tool::Brush | Tool::Rect | Tool::Fill | Tool::Line)
    }
}

/// A rectangle of a map: the map, its top-left and bottom-right cells.
pub type Region = (nefia_game::map::MapId, (i32, i32), (i32, i32));

/// A drag in progress: where it started, where it was last frame, and its stroke.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Drag {
    pub(crate) start: (i32, i32),
    pub(crate) last: (i32, i32),
    pub(crate) stroke: u64,
}

/// The level editor's state: the tool, the brush, what is painted and placed, the clipboard.
#[derive(Debug)]
pub struct LevelState {
    /// The active tool.
    pub tool: Tool,
    /// The brush's side in cells, 1 to 9.
    pub brush: i32,
    /// The tile painted.
    pub tile: Option<Symbol>,
    /// The object placed: its kind and prototype.
    pub object: Option<(ObjectKind, Symbol)>,
    /// The region last box-selected in the Select tool: what Ctrl+C copies.
    pub region: Option<Region>,
    /// What Ctrl+C copied, for Ctrl+V.
    pub clip: Option<std::sync::Arc<nefia_game::edit::Clip>>,
    /// The Palette pane's search texts: tiles, objects.
    pub search: (String, String),
    /// The art layers: the one painted, those hidden (the Layers pane).
    pub art: crate::panes::layers::ArtLayersState,
    pub(crate) drag: Option<Drag>,
    pub(crate) next_stroke: u64,
}

impl Default for LevelState {
    fn default() -> LevelState {
        LevelState {
            tool: Tool::Select,
            brush: 1,
            tile: None,
            object: None,
            region: None,
            clip: None,
            search: Default::default(),
            art: Default::default(),
            drag: None,
            next_stroke: 1,
        }
    }
}
