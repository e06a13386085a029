//! Turning egui's keyboard events into the engine's [`Input`] names (`up`, `enter`,
//! `ctrl+s`, …).

use egui::{Event, Key, Modifiers};
use nefia_runtime::display::{Input, LayerKind, LayerView};

/// The engine's name for `key` with `modifiers`, such as `"up"`, `"a"` or `"ctrl+s"`.
pub fn key_name(key: Key, modifiers: Modifiers) -> String {
    let base = match key {
        Key::ArrowUp => "up".to_owned(),
        Key::ArrowDown => "down".to_owned(),
        Key::ArrowLeft => "left".to_owned(),
        Key::ArrowRight => "right".to_owned(),
        Key::Enter => "enter".to_owned(),
        Key::Escape => "escape".to_owned(),
        Key::Backspace => "backspace".to_owned(),
        Key::Tab => "tab".to_owned(),
        Key::Space => "space".to_owned(),
        Key::Delete => "delete".to_owned(),
        Key::Home => "home".to_owned(),
        Key::End => "end".to_owned(),
        Key::PageUp => "pageup".to_owned(),
        Key::PageDown => "pagedown".to_owned(),
        other => other.name().to_lowercase(),
    };
    let mut name = String::new();
    if modifiers.ctrl || modifiers.command {
        name.push_str("ctrl+");
    }
    if modifiers.alt {
        name.push_str("alt+");
    }
    if modifiers.shift {
        name.push_str("shift+");
    }
    name.push_str(&base);
    name
}

/// The key presses (and, with `text`, typed text) of this frame as engine input.
fn frame_input(ctx: &egui::Context, text: bool) -> Vec<Input> {
    ctx.input(|input| {
        input
            .events
            .iter()
            .filter_map(|event| match event {
                Event::Key { key, pressed: true, modifiers, .. } => Some(Input::Key(key_name(*key, *modifiers))),
                Event::Text(typed) if text => Some(Input::Text(typed.clone())),
                _ => None,
            })
            .collect()
    })
}

/// This frame's keys (and text, if the top UI layer takes typing) as the game's input, for
/// a game view that has the keyboard. While typing, Space is text, not a key.
pub fn game_input(ctx: &egui::Context, layers: &[LayerView]) -> Vec<Input> {
    let text = matches!(layers.last().map(|l| &l.kind), Some(LayerKind::TextInput { .. } | LayerKind::Custom { .. }));
    frame_input(ctx, text).into_iter().filter(|i| !matches!(i, Input::Key(k) if k == "space" && text)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_match_what_mods_expect() {
        assert_eq!(key_name(Key::ArrowUp, Modifiers::NONE), "up");
        assert_eq!(key_name(Key::A, Modifiers::NONE), "a");
        assert_eq!(key_name(Key::Num7, Modifiers::NONE), "7");
        assert_eq!(key_name(Key::S, Modifiers::CTRL), "ctrl+s");
        assert_eq!(key_name(Key::F5, Modifiers::SHIFT), "shift+f5");
    }
}
