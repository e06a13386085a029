//! Turning egui's keyboard events into the engine's [`Input`] names (`up`, `enter`,
//! `ctrl+s`, …).

use egui::{Event, Key, Modifiers};
use nefia_game::display::{Input, LayerKind, LayerView};

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

/// True for Shift, Ctrl, Alt and Super pressed alone: egui reports them as keys of their
/// own, but to the game they are only the `ctrl+` of the next key (and each one sent would be
/// an input a recording keeps, dropping the turns ahead after stepping back).
fn is_modifier(key: Key) -> bool {
    matches!(
        key,
        Key::ShiftLeft
            | Key::ShiftRight
            | Key::ControlLeft
            | Key::ControlRight
            | Key::AltLeft
            | Key::AltRight
            | Key::SuperLeft
            | Key::SuperRight
    )
}

/// The key presses (and, with `text`, typed text) of this frame as engine input.
fn frame_input(ctx: &egui::Context, text: bool) -> Vec<Input> {
    ctx.input(|input| {
        input
            .events
            .iter()
            .filter_map(|event| match event {
                Event::Key { key, pressed: true, modifiers, .. } if !is_modifier(*key) => {
                    Some(Input::Key(key_name(*key, *modifiers)))
                }
                Event::Text(typed) if text => Some(Input::Text(typed.clone())),
                _ => None,
            })
            .collect()
    })
}

/// Takes this frame's first key press (not a modifier alone) out of the input, named as the
/// engine names it: the key a player binds to an action in the Options.
pub fn take_key_press(ctx: &egui::Context) -> Option<String> {
    ctx.input_mut(|input| {
        let at = input
            .events
            .iter()
            .position(|event| matches!(event, Event::Key { key, pressed: true, .. } if !is_modifier(*key)))?;
        match input.events.remove(at) {
            Event::Key { key, modifiers, .. } => Some(key_name(key, modifiers)),
            _ => None,
        }
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

    #[test]
    fn every_key_named_is_one_the_engine_knows() {
        let modifiers = [Modifiers::NONE, Modifiers::CTRL, Modifiers::SHIFT, Modifiers::ALT | Modifiers::SHIFT];
        for &key in Key::ALL.iter().filter(|&&key| !is_modifier(key)) {
            for modifiers in modifiers {
                let name = key_name(key, modifiers);
                assert_eq!(nefia_game::display::check_key(&name), Ok(()), "{key:?}: {name}");
            }
        }
    }

    #[test]
    fn modifiers_alone_are_no_input() {
        let ctx = egui::Context::default();
        let mut input = egui::RawInput::default();
        for key in [Key::ControlLeft, Key::ShiftRight, Key::Z] {
            let modifiers = if key == Key::Z { Modifiers::CTRL } else { Modifiers::NONE };
            input.events.push(Event::Key { key, physical_key: None, pressed: true, repeat: false, modifiers });
        }
        let mut seen = Vec::new();
        let mut output = ctx.run_ui(input, |ui| seen = frame_input(ui.ctx(), false));
        output.textures_delta.clear();
        assert_eq!(seen, vec![Input::Key("ctrl+z".into())]);
    }
}
