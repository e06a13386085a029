//! UI layers, widgets and draw lists (seed: Draw Layers, UI Widgets), independent of any GUI
//! toolkit. The Lua side (`lua/gui.rs`) keeps the layer stack and runs mod code; what it
//! produces for a frontend to draw is plain data defined here, so the editor, the player
//! window and tests all read the same thing.

use serde::{Deserialize, Serialize};

/// An RGBA colour.
pub type Color = [u8; 4];

/// Where a draw command goes: `x`, `y` in the list's own units (pixels inside a widget or a
/// UI layer; cells on the map, fractions allowed) plus a pixel offset.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Position {
    /// Column (pixels or cells).
    pub x: f32,
    /// Row (pixels or cells).
    pub y: f32,
    /// Horizontal offset in pixels.
    pub dx: f32,
    /// Vertical offset in pixels.
    pub dy: f32,
}

/// One thing to draw.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum DrawCmd {
    /// A filled rectangle, `w`×`h` in the list's units.
    Rect {
        /// Top-left corner.
        at: Position,
        /// Width.
        w: f32,
        /// Height.
        h: f32,
        /// Fill colour.
        color: Color,
    },
    /// Text with its top-left corner at `at`.
    Text {
        /// Top-left corner.
        at: Position,
        /// The text.
        text: String,
        /// Colour.
        color: Color,
        /// Font size in pixels.
        size: f32,
    },
    /// A glyph filling one cell (centred in it) at `at`.
    Glyph {
        /// The cell (or pixel position) of the glyph's cell.
        at: Position,
        /// The glyph.
        glyph: String,
        /// Colour.
        color: Color,
    },
}

/// A list of draw commands, in painting order.
pub type DrawList = Vec<DrawCmd>;

/// Where a HUD widget sits over the map view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Anchor {
    /// Top-left corner.
    #[default]
    TopLeft,
    /// Top edge, centred.
    Top,
    /// Top-right corner.
    TopRight,
    /// Bottom-left corner.
    BottomLeft,
    /// Bottom edge, centred.
    Bottom,
    /// Bottom-right corner.
    BottomRight,
}

impl Anchor {
    /// Reads an anchor name as mods write it (`"bottom_left"`, …).
    pub fn parse(name: &str) -> Option<Anchor> {
        Some(match name {
            "top_left" => Anchor::TopLeft,
            "top" => Anchor::Top,
            "top_right" => Anchor::TopRight,
            "bottom_left" => Anchor::BottomLeft,
            "bottom" => Anchor::Bottom,
            "bottom_right" => Anchor::BottomRight,
            _ => return None,
        })
    }
}

/// A HUD widget as drawn this frame.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct WidgetView {
    /// Its id (`Gui.add_widget(id, …)`).
    pub id: String,
    /// The corner or edge it hangs from.
    pub anchor: Anchor,
    /// Offset from the anchor, in pixels (towards the inside of the view).
    pub offset: (f32, f32),
    /// Its size in pixels.
    pub size: (f32, f32),
    /// What it drew, in pixels relative to its top-left corner.
    pub draw: DrawList,
    /// True if the editor shows it while editing too (the widget's `show_while_editing =
    /// true`). A HUD widget is for play: while editing it is off unless the user turns it on
    /// in Layers, so it covers no map rows.
    pub show_while_editing: bool,
}

/// Identifies a UI layer while it is on the stack.
#[derive(serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LayerId(pub u64);

/// What kind of UI layer, with the state a frontend needs to draw it.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub enum LayerKind {
    /// A choice among a few options (`Prompt:new({"Yes", "No"})`).
    Prompt {
        /// A question shown above the choices, if any.
        title: Option<String>,
        /// The choices.
        choices: Vec<String>,
        /// The highlighted choice (0-based).
        cursor: usize,
    },
    /// A scrolling list to pick from (`ListMenu:new{…}`).
    List {
        /// The heading.
        title: String,
        /// The entries.
        items: Vec<String>,
        /// The highlighted entry (0-based).
        cursor: usize,
    },
    /// A line of text to type (`TextInput:new{…}`).
    TextInput {
        /// The question.
        prompt: String,
        /// What has been typed.
        text: String,
    },
    /// A layer a mod defines with `draw`, `update` and `on_key`.
    Custom {
        /// Its name.
        name: String,
        /// Its size in pixels (it is centred over the view).
        size: (f32, f32),
        /// What it drew, in pixels relative to its top-left corner.
        draw: DrawList,
    },
}

impl LayerKind {
    /// A short name for lists of layers.
    pub fn describe(&self) -> String {
        match self {
            LayerKind::Prompt { title, choices, .. } => match title {
                Some(title) => format!("Prompt \"{title}\" ({} choices)", choices.len()),
                None => format!("Prompt ({})", choices.join(" / ")),
            },
            LayerKind::List { title, items, .. } => format!("ListMenu \"{title}\" ({} items)", items.len()),
            LayerKind::TextInput { prompt, .. } => format!("TextInput \"{prompt}\""),
            LayerKind::Custom { name, .. } => format!("UiLayer \"{name}\""),
        }
    }
}

/// A UI layer on the stack, as drawn this frame.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq)]
pub struct LayerView {
    /// Its id.
    pub id: LayerId,
    /// What it is.
    pub kind: LayerKind,
}

/// Input for the top UI layer or the game.
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq, Eq)]
pub enum Input {
    /// A key press. Names are lower case: `up`, `down`, `left`, `right`, `enter`, `escape`,
    /// `backspace`, `tab`, `space`, letters, digits, `f1`…; `shift`/`ctrl`/`alt` prefixes such as
    /// `ctrl+s`.
    Key(String),
    /// Typed text (for text input).
    Text(String),
    /// A click on entry `index` (0-based) of layer `layer`.
    Choose {
        /// The layer.
        layer: LayerId,
        /// The entry.
        index: usize,
    },
    /// Close layer `layer` without choosing (like Escape).
    Cancel {
        /// The layer.
        layer: LayerId,
    },
}

/// One line of the engine's log (`Log.info`, errors, reloads…).
#[derive(serde::Serialize, serde::Deserialize, Clone, Debug, PartialEq, Eq)]
pub struct LogLine {
    /// How serious.
    pub level: LogLevel,
    /// The text.
    pub text: String,
}

/// How serious a log line is.
#[derive(serde::Serialize, serde::Deserialize, Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum LogLevel {
    /// Detail for developers.
    Debug,
    /// Normal information.
    Info,
    /// Something looks wrong.
    Warn,
    /// Something failed.
    Error,
}

impl LogLevel {
    /// The level's name.
    pub fn name(self) -> &'static str {
        match self {
            LogLevel::Debug => "debug",
            LogLevel::Info => "info",
            LogLevel::Warn => "warn",
            LogLevel::Error => "error",
        }
    }
}
