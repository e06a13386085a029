//! Every user action of the editor in one table: its label, tooltip, shortcuts, where the
//! shortcut is listened for and which menu shows it (rerun's `UICommand` is the model). The
//! menus, the shortcut handling and the Help window are made from this table, so a shortcut
//! is decided in one place and the Help window cannot drift from what the keys do.

use egui::{Key, KeyboardShortcut, Modifiers};
use nefia_protocol::message::{Hint, Refused};
use strum::IntoEnumIterator;

/// A user action, in menu order ([`Action::all`] lists them from the enum itself, through
/// `strum`'s `EnumIter`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, strum::EnumIter)]
pub enum Action {
    /// File → New project…
    NewProject,
    /// File → Open project…
    OpenProject,
    /// File → Attach to game…
    AttachGame,
    /// File → Open recording…: the Recordings pane, whose Open puts one in the timeline.
    OpenRecording,
    /// File → Import map…: a Tiled or LDtk map into `maps/` through a mapping.
    ImportMap,
    /// Save the current map.
    SaveMap,
    /// Save every map with unsaved changes.
    SaveAll,
    /// Close the window (unsaved maps are asked about).
    Quit,
    /// Undo the last edit.
    Undo,
    /// Redo the last undone edit.
    Redo,
    /// Select nothing.
    ClearSelection,
    /// Remove the selected objects.
    DeleteSelection,
    /// Duplicate the selected objects.
    DuplicateSelection,
    /// Copy the box-selected region (or the selection's cells).
    CopyRegion,
    /// Paste the copied region at the cursor.
    Paste,
    /// Fit the map into the viewport.
    FitMap,
    /// Show or hide the grid.
    ToggleGrid,
    /// Put the panes back where they start.
    ResetLayout,
    /// Show or hide the REPL over the game.
    ToggleReplOverlay,
    /// Play from the start map.
    Play,
    /// Play from the cell under the cursor.
    PlayHere,
    /// Stop playing; the edit state comes back.
    StopPlay,
    /// Let the innermost `pause()` continue.
    Continue,
    /// Pause at the next turn boundary.
    BreakAtTurn,
    /// Interrupt the running script.
    StopScript,
    /// A level tool.
    Tool(crate::context::Tool),
    /// A brush size, 1–9.
    BrushSize(u8),
}

/// Where an action's shortcut is listened for; the owner of the scope asks for its actions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    /// Anywhere in the editor window.
    Window,
    /// Anywhere, unless a text field has the keyboard.
    NotTyping,
    /// The viewport has the keyboard (the game's keys come after these).
    Viewport,
    /// The viewport has the keyboard while editing (not playing) and no UI layer is open.
    Tools,
}

/// The menu an action is listed in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Menu {
    /// File.
    File,
    /// Edit.
    Edit,
    /// View.
    View,
    /// Play.
    Play,
}

/// What the table says of an action.
#[derive(Clone, Copy, Debug)]
pub struct Info {
    /// Its name in menus and in the Help window.
    pub label: &'static str,
    /// What it does, for tooltips.
    pub tooltip: &'static str,
    /// Its shortcuts, the first one shown in menus.
    pub shortcuts: &'static [KeyboardShortcut],
    /// Where the shortcuts are listened for.
    pub scope: Scope,
    /// The menu that lists it, if any.
    pub menu: Option<Menu>,
}

const fn key(modifiers: Modifiers, key: Key) -> KeyboardShortcut {
    KeyboardShortcut::new(modifiers, key)
}

/// A `'static` list of shortcuts made by `key` calls.
macro_rules! keys {
    ($($shortcut:expr),+ $(,)?) => {{
        const KEYS: &[KeyboardShortcut] = &[$($shortcut),+];
        KEYS
    }};
}

const CTRL: Modifiers = Modifiers::COMMAND;
const CTRL_SHIFT: Modifiers = Modifiers::COMMAND.plus(Modifiers::SHIFT);
const NONE: Modifiers = Modifiers::NONE;

impl Action {
    /// Every action, in menu order: each action as it is declared, an action that carries a
    /// value once for each value it takes (every tool, brush sizes 1–9).
    pub fn all() -> Vec<Action> {
        Action::iter()
            .flat_map(|action| match action {
                Action::Tool(_) => crate::context::Tool::iter().map(Action::Tool).collect(),
                Action::BrushSize(_) => (1..=9).map(Action::BrushSize).collect(),
                action => vec![action],
            })
            .collect()
    }

    /// The table's row for this action.
    pub fn info(self) -> Info {
        use Action::*;
        let row = |label, tooltip, shortcuts, scope, menu| Info { label, tooltip, shortcuts, scope, menu };
        match self {
            NewProject => row("New project…", "Make a project in a new folder", &[], Scope::Window, Some(Menu::File)),
            OpenProject => row("Open project…", "Open the project in a folder", &[], Scope::Window, Some(Menu::File)),
            AttachGame => row(
                "Attach to game…",
                "Edit and debug a game running in another process (nefia play --listen): its address and token",
                &[],
                Scope::Window,
                Some(Menu::File),
            ),
            OpenRecording => row(
                "Open recording…",
                "Choose a recorded play session to scrub through in the timeline (or drop its file on the viewport)",
                &[],
                Scope::Window,
                Some(Menu::File),
            ),
            ImportMap => row(
                "Import map…",
                "Bring a Tiled (.tmx, .tmj) or LDtk (.ldtk) map into maps/ through a mapping of its tiles and objects to prototype ids",
                &[],
                Scope::Window,
                Some(Menu::File),
            ),
            SaveMap => row(
                "Save map",
                "Write the current map to its file (the old one is kept as .ron.bak)",
                keys![key(CTRL, Key::S)],
                Scope::Window,
                Some(Menu::File),
            ),
            SaveAll => row(
                "Save all",
                "Write every map with unsaved changes",
                keys![key(CTRL_SHIFT, Key::S)],
                Scope::Window,
                Some(Menu::File),
            ),
            Quit => {
                row("Quit", "Close the window (unsaved maps are asked about)", &[], Scope::Window, Some(Menu::File))
            }
            Undo => row(
                "Undo",
                "Undo the last edit (a stroke is one step)",
                keys![key(CTRL, Key::Z)],
                Scope::NotTyping,
                Some(Menu::Edit),
            ),
            Redo => row(
                "Redo",
                "Redo the last undone edit",
                keys![key(CTRL_SHIFT, Key::Z), key(CTRL, Key::Y)],
                Scope::NotTyping,
                Some(Menu::Edit),
            ),
            ClearSelection => row("Clear selection", "Select nothing", &[], Scope::Window, Some(Menu::Edit)),
            DeleteSelection => row(
                "Delete",
                "Remove the selected objects",
                keys![key(NONE, Key::Delete)],
                Scope::Tools,
                Some(Menu::Edit),
            ),
            DuplicateSelection => row(
                "Duplicate",
                "Duplicate the selected objects",
                keys![key(CTRL, Key::D)],
                Scope::Tools,
                Some(Menu::Edit),
            ),
            CopyRegion => row(
                "Copy region",
                "Copy the box-selected region, or the selected objects' cells",
                keys![key(CTRL, Key::C)],
                Scope::Tools,
                Some(Menu::Edit),
            ),
            Paste => row(
                "Paste",
                "Paste the copied region at the cursor",
                keys![key(CTRL, Key::V)],
                Scope::Tools,
                Some(Menu::Edit),
            ),
            FitMap => row("Fit map", "Fit the whole map into the viewport", &[], Scope::Window, Some(Menu::View)),
            ToggleGrid => row("Grid", "Show or hide the cell grid", &[], Scope::Window, Some(Menu::View)),
            ResetLayout => {
                row("Reset layout", "Put the panes back where they start", &[], Scope::Window, Some(Menu::View))
            }
            ToggleReplOverlay => row(
                "REPL over the game",
                "Show or hide the REPL over the viewport",
                keys![key(NONE, Key::Backtick)],
                Scope::Viewport,
                Some(Menu::View),
            ),
            Play => row(
                "Play",
                "Play a new game from the start map",
                keys![key(NONE, Key::F5)],
                Scope::Window,
                Some(Menu::Play),
            ),
            PlayHere => row(
                "Play from here",
                "Play a new game with the player on the cell under the cursor",
                keys![key(CTRL, Key::F5)],
                Scope::Window,
                Some(Menu::Play),
            ),
            StopPlay => row(
                "Stop",
                "Stop playing and put the edit state back",
                keys![key(Modifiers::SHIFT, Key::F5)],
                Scope::Window,
                Some(Menu::Play),
            ),
            Continue => row(
                "Continue",
                "Let the paused script go on after pause()",
                keys![key(NONE, Key::F8)],
                Scope::Window,
                Some(Menu::Play),
            ),
            BreakAtTurn => row(
                "Break at the next turn",
                "Pause before the game takes the next key",
                &[],
                Scope::Window,
                Some(Menu::Play),
            ),
            StopScript => {
                row("Stop the running script", "Interrupt the script running now", &[], Scope::Window, Some(Menu::Play))
            }
            Tool(tool) => row(tool.name(), tool.tooltip(), tool.shortcut(), Scope::Tools, None),
            BrushSize(size) => row(
                BRUSH_LABELS[usize::from(size.clamp(1, 9)) - 1],
                "The brush, erase and line width",
                std::slice::from_ref(&BRUSH_KEYS[usize::from(size.clamp(1, 9)) - 1]),
                Scope::Tools,
                None,
            ),
        }
    }

    /// The first shortcut as the platform writes it, such as `Ctrl+S`.
    pub fn shortcut_text(self, ctx: &egui::Context) -> Option<String> {
        self.info().shortcuts.first().map(|s| ctx.format_shortcut(s))
    }

    /// The action that does what a refusal's hint asks for.
    pub fn of_hint(hint: Hint) -> Action {
        match hint {
            Hint::StopPlay => Action::StopPlay,
            Hint::Continue => Action::Continue,
            Hint::Play => Action::Play,
        }
    }
}

/// A refusal as the editor shows it: the runtime's message, which ends with what to do in
/// words, followed by the editor's binding for that action, such as "already playing: stop
/// first (Shift+F5)" (its menu label when it has no shortcut).
pub fn refusal_text(refused: &Refused, ctx: &egui::Context) -> String {
    match refused.hint {
        Some(hint) => with_binding(&refused.message, Action::of_hint(hint), ctx),
        None => refused.message.clone(),
    }
}

/// `text` followed by the binding of `action` from the command table ("stop playing
/// (Shift+F5)"), or its label if it has no shortcut: hints never spell a key of their own.
pub fn with_binding(text: &str, action: Action, ctx: &egui::Context) -> String {
    let binding = action.shortcut_text(ctx).unwrap_or_else(|| action.info().label.to_owned());
    format!("{text} ({binding})")
}

const BRUSH_LABELS: [&str; 9] = [
    "Brush size 1",
    "Brush size 2",
    "Brush size 3",
    "Brush size 4",
    "Brush size 5",
    "Brush size 6",
    "Brush size 7",
    "Brush size 8",
    "Brush size 9",
];
const BRUSH_KEYS: [KeyboardShortcut; 9] = [
    key(NONE, Key::Num1),
    key(NONE, Key::Num2),
    key(NONE, Key::Num3),
    key(NONE, Key::Num4),
    key(NONE, Key::Num5),
    key(NONE, Key::Num6),
    key(NONE, Key::Num7),
    key(NONE, Key::Num8),
    key(NONE, Key::Num9),
];

/// The actions of `scope` whose shortcut was pressed this frame and that `wanted` accepts
/// (enabled now); their key presses are taken, so nothing else sees them. Shortcuts with more
/// modifiers are tried first, so Ctrl+Shift+S is not read as Ctrl+S.
pub fn pressed(ctx: &egui::Context, scope: Scope, wanted: impl Fn(Action) -> bool) -> Vec<Action> {
    let mut candidates: Vec<(Action, KeyboardShortcut)> = Action::all()
        .into_iter()
        .filter(|a| a.info().scope == scope && wanted(*a))
        .flat_map(|a| a.info().shortcuts.iter().map(move |s| (a, *s)))
        .collect();
    candidates.sort_by_key(|(_, s)| std::cmp::Reverse(modifier_count(s.modifiers)));
    let mut pressed = Vec::new();
    ctx.input_mut(|input| {
        for (action, shortcut) in candidates {
            if input.consume_shortcut(&shortcut) && !pressed.contains(&action) {
                pressed.push(action);
            }
        }
    });
    pressed
}

fn modifier_count(modifiers: Modifiers) -> usize {
    [modifiers.alt, modifiers.ctrl || modifiers.command, modifiers.shift, modifiers.mac_cmd]
        .into_iter()
        .filter(|m| *m)
        .count()
}

/// A menu entry for `action`: its label (or `label`), shortcut and tooltip; true when
/// clicked.
pub fn menu_button(ui: &mut egui::Ui, action: Action, label: Option<String>, enabled: bool) -> bool {
    let info = action.info();
    let mut button = egui::Button::new(label.unwrap_or_else(|| info.label.to_owned()));
    if let Some(text) = action.shortcut_text(ui.ctx()) {
        button = button.shortcut_text(text);
    }
    ui.add_enabled(enabled, button).on_hover_text(info.tooltip).clicked()
}

/// The Help window's rows: every action with a shortcut, its keys and label (the brush sizes
/// as one row).
pub fn help_rows(ctx: &egui::Context) -> Vec<(String, &'static str)> {
    let mut rows: Vec<(String, &'static str)> = Action::all()
        .into_iter()
        .filter(|a| !matches!(a, Action::BrushSize(_)) && !a.info().shortcuts.is_empty())
        .map(|a| {
            let keys: Vec<String> = a.info().shortcuts.iter().map(|s| ctx.format_shortcut(s)).collect();
            (keys.join(", "), a.info().label)
        })
        .collect();
    rows.push(("1 … 9".into(), "Brush size (brush, erase, line)"));
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn no_two_actions_share_a_shortcut() {
        // Every scope can be listened for at once (the viewport has the keyboard while
        // editing), so a shortcut may belong to one action only.
        let mut seen: Vec<(KeyboardShortcut, Action)> = Vec::new();
        for action in Action::all() {
            for shortcut in action.info().shortcuts {
                if let Some((_, other)) = seen.iter().find(|(s, _)| s == shortcut) {
                    panic!("{action:?} and {other:?} share {shortcut:?}");
                }
                seen.push((*shortcut, action));
            }
        }
        assert!(seen.len() > 20, "the table lists the shortcuts");
    }

    #[test]
    fn every_action_has_a_label_and_a_tooltip() {
        for action in Action::all() {
            let info = action.info();
            assert!(!info.label.is_empty() && !info.tooltip.is_empty(), "{action:?}");
        }
    }

    #[test]
    fn the_more_specific_shortcut_wins() {
        let ctx = egui::Context::default();
        let mut input = egui::RawInput::default();
        input.events.push(egui::Event::Key {
            key: Key::S,
            physical_key: None,
            pressed: true,
            repeat: false,
            modifiers: CTRL_SHIFT,
        });
        let mut got = Vec::new();
        let mut output = ctx.run_ui(input, |ui| got = pressed(ui.ctx(), Scope::Window, |_| true));
        output.textures_delta.clear();
        assert_eq!(got, [Action::SaveAll]);
    }
}
