//! UI layers, widgets and draw lists (seed: Draw Layers, UI Widgets), independent of any GUI
//! toolkit. The Lua side (`runtime/lua/src/gui.rs`) keeps the layer stack and runs mod code; what it
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

/// The keys named by a word: with the letters `a`…`z`, the digits `0`…`9` and `f1`…`f35`, the
/// keys an [`Input::Key`] can name (the editor's and the player window's names of every key of
/// the keyboard, checked by the editor's tests).
#[rustfmt::skip]
pub const NAMED_KEYS: [&str; 38] = [
    "up", "down", "left", "right", "enter", "escape", "backspace", "tab", "space", "insert", "delete", "home", "end",
    "pageup", "pagedown", "copy", "cut", "paste", "colon", "comma", "minus", "period", "plus", "equals", "semicolon",
    "backslash", "slash", "pipe", "questionmark", "exclamationmark", "openbracket", "closebracket",
    "opencurlybracket", "closecurlybracket", "backtick", "quote", "browserback", "intlbackslash",
];

/// The modifiers a key name may start with, each at most once and in this order (`ctrl+s`,
/// `ctrl+shift+f5`).
pub const KEY_MODIFIERS: [&str; 3] = ["ctrl+", "alt+", "shift+"];

/// A key name no key has (see [`check_key`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "there is no key '{0}': a key is one of {keys}, a letter a to z, a digit 0 to 9 or f1 to f35, after \
     any of the modifiers {modifiers} in that order (such as ctrl+s or shift+f5)",
    keys = NAMED_KEYS.join(", "),
    modifiers = KEY_MODIFIERS.join(", ")
)]
pub struct UnknownKey(pub String);

/// Checks that `name` names a key as [`Input::Key`] takes it: modifiers from [`KEY_MODIFIERS`]
/// in order, then a key of [`NAMED_KEYS`], a letter, a digit or a function key.
pub fn check_key(name: &str) -> Result<(), UnknownKey> {
    let mut key = name;
    for modifier in KEY_MODIFIERS {
        key = key.strip_prefix(modifier).unwrap_or(key);
    }
    let function_key = key.strip_prefix('f').is_some_and(|number| {
        !number.starts_with('0')
            && number.bytes().all(|b| b.is_ascii_digit())
            && number.parse::<u8>().is_ok_and(|n| (1..=35).contains(&n))
    });
    let single = matches!(key.as_bytes(), [b'a'..=b'z' | b'0'..=b'9']);
    if NAMED_KEYS.contains(&key) || function_key || single { Ok(()) } else { Err(UnknownKey(name.to_owned())) }
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

#[cfg(test)]
mod tests {
    use super::check_key;

    #[test]
    fn key_names_are_modifiers_in_order_then_a_key() {
        for key in ["up", "a", "7", "f1", "f35", "ctrl+s", "ctrl+alt+shift+pageup", "shift+backtick"] {
            assert_eq!(check_key(key), Ok(()), "{key}");
        }
        for key in ["florp", "", "Up", "ctrl+", "shift+ctrl+s", "ctrl+ctrl+s", "f0", "f36", "f05", "f+5", "ab", "é"] {
            let error = check_key(key).expect_err(key).to_string();
            assert!(error.starts_with(&format!("there is no key '{key}': a key is one of up, down")), "{error}");
        }
    }
}
