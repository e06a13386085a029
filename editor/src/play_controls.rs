//! Play mode in the editor: Play from the start map, or from the cell under the cursor; Stop
//! puts the edit state back; Pause and Step one turn (the shortcuts are in
//! [`crate::commands`]). While playing, the viewport has the keyboard and the tools are put
//! away.

use nefia_runtime::host::Command;
use nefia_runtime::play::PlayFrom;

use crate::context::EditorContext;

/// Starts playing from `from`; the viewport takes the keyboard.
pub fn play(state: &mut EditorContext, from: PlayFrom) {
    state.outbox.push(Command::Play(from));
    state.viewport.focus_requested = true;
}

/// "Play from here": a new game on the current map with the player on the hovered cell.
pub fn play_here(state: &mut EditorContext) {
    match (state.snapshot.map.as_ref(), state.viewport.hovered) {
        (Some(map), Some((x, y))) => play(state, PlayFrom::Here { map: map.id, x, y }),
        _ => {
            let text = "Play from here: point at a cell of the map first".to_owned();
            state.notice = Some((text, std::time::Instant::now()));
        }
    }
}

/// The Play, Stop, Pause and Step buttons.
pub fn controls_ui(ui: &mut egui::Ui, state: &mut EditorContext) {
    let (playing, paused) = (state.snapshot.playing, state.snapshot.play_paused);
    if !playing {
        if ui
            .button("▶ Play")
            .on_hover_text("Play from the start map (F5); Ctrl+F5 plays from the cell under the cursor")
            .clicked()
        {
            play(state, PlayFrom::Start);
        }
        return;
    }
    if ui.button("⏹ Stop").on_hover_text("Stop playing and put the edit state back (Shift+F5)").clicked() {
        state.outbox.push(Command::StopPlay);
    }
    let label = if paused { "▶ Resume" } else { "⏸ Pause" };
    if ui.button(label).on_hover_text("While paused the game takes no keys").clicked() {
        state.outbox.push(Command::PausePlay(!paused));
        // The keyboard stays the game's.
        state.viewport.focus_requested = true;
    }
    if ui.button("⏭ Step").on_hover_text("Let one turn pass with the player waiting").clicked() {
        state.outbox.push(Command::StepTurn);
        state.viewport.focus_requested = true;
    }
}

/// What the status bar says about play.
pub fn status(state: &EditorContext) -> &'static str {
    match (state.snapshot.playing, state.snapshot.play_paused) {
        (false, _) => "editing",
        (true, false) => "playing",
        (true, true) => "playing (paused)",
    }
}
