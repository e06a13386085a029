//! Play mode in the editor: Play from the start map, or from the cell under the cursor; Stop
//! puts the edit state back; Pause, Step one turn, and step back and forward through the
//! recorded turns (the shortcuts are in [`crate::commands`]: while playing, Undo and Redo step
//! back and forward). While playing, the viewport has the keyboard and the tools are put
//! away: the timeline of the session's turns ([`timeline_ui`]) takes the tools' row of the
//! viewport's toolbar, clicks on the map only select, and a frame round the map says the game
//! has the keyboard (when it has not, the notice area says so).

use nefia_protocol::message::Command;
use nefia_protocol::play::PlayCommand;
use nefia_protocol::play::PlayFrom;

use crate::commands::{Action, with_binding};
use crate::context::EditorContext;

/// Starts playing from `from`; the viewport takes the keyboard and shows the player at a
/// zoom where glyphs are drawn.
pub fn play(state: &mut EditorContext, from: PlayFrom) {
    state.outbox.push(Command::Play(PlayCommand::Start(from)));
    state.viewport.focus_requested = true;
    state.viewport.zoom_to_player = true;
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

/// The Play, Stop, Pause, Step and Back/Forward buttons.
pub fn controls_ui(ui: &mut egui::Ui, state: &mut EditorContext) {
    let (playing, paused) = (state.snapshot.play.playing, state.snapshot.play.paused);
    if !playing {
        if ui
            .button("▶ Play")
            .on_hover_text(format!(
                "{}; {}",
                with_binding("Play from the start map", Action::Play, ui.ctx()),
                with_binding("or from the cell under the cursor", Action::PlayHere, ui.ctx())
            ))
            .clicked()
        {
            play(state, PlayFrom::Start);
        }
        return;
    }
    if ui
        .button("⏹ Stop")
        .on_hover_text(with_binding("Stop playing and put the edit state back", Action::StopPlay, ui.ctx()))
        .clicked()
    {
        state.outbox.push(Command::Play(PlayCommand::Stop));
    }
    let label = if paused { "▶ Resume" } else { "⏸ Pause" };
    if ui.button(label).on_hover_text("While paused the game takes no keys").clicked() {
        state.outbox.push(Command::Play(PlayCommand::Pause(!paused)));
        // The keyboard stays the game's.
        state.viewport.focus_requested = true;
    }
    if ui.button("⏭ Step").on_hover_text("Let one turn pass with the player waiting").clicked() {
        state.outbox.push(Command::Play(PlayCommand::StepTurn));
        state.viewport.focus_requested = true;
    }
    let position = state.snapshot.play.recording.unwrap_or_default();
    let back = format!("Back to the start of the previous turn (Ctrl+Z); {} turns can be stepped back", position.back);
    step_button(
        ui,
        state,
        ("⏮ Back", position.can_step_back()),
        (&back, "At the first turn kept"),
        Command::Play(PlayCommand::StepBack),
    );
    let forward = format!(
        "Play the next recorded turn again (Ctrl+Y); {} ahead — any other input goes another way and drops them",
        position.forward
    );
    let unavailable = "Nothing recorded is ahead: step back first";
    step_button(
        ui,
        state,
        ("⏩ Forward", position.forward > 0),
        (&forward, unavailable),
        Command::Play(PlayCommand::StepForward),
    );
}

/// A button that sends `command` when `enabled`, with a tooltip for each case; the keyboard
/// stays the game's.
fn step_button(
    ui: &mut egui::Ui,
    state: &mut EditorContext,
    (label, enabled): (&str, bool),
    (hover, disabled_hover): (&str, &str),
    command: Command,
) {
    let button = ui.add_enabled(enabled, egui::Button::new(label));
    if button.on_hover_text(hover).on_disabled_hover_text(disabled_hover).clicked() {
        state.outbox.push(command);
        state.viewport.focus_requested = true;
    }
}

/// What the status bar says about play.
pub fn status(state: &EditorContext) -> &'static str {
    match (state.snapshot.play.playing, state.snapshot.play.paused) {
        (false, _) => "editing",
        (true, false) => "playing",
        (true, true) => "playing (paused)",
    }
}

/// How often the timeline's ▶ steps forward a turn.
const TIMELINE_STEP: std::time::Duration = std::time::Duration::from_millis(120);

/// The timeline of the session's turns (while playing, in place of the tools): a scrubber
/// over the turns kept, ▶/⏸ to replay them one after another, and "Play from here" once
/// stepped back or on an opened recording.
pub fn timeline_ui(ui: &mut egui::Ui, state: &mut EditorContext) {
    let Some(position) = state.snapshot.play.recording else {
        ui.weak("this session is not recorded");
        return;
    };
    let last = position.oldest + position.back + position.forward;
    let timeline = &mut state.viewport.timeline;
    let playing_back = timeline.playing && position.forward > 0;
    let label = if playing_back { "⏸" } else { "▶" };
    let toggle = ui.add_enabled(position.forward > 0 || playing_back, egui::Button::new(label));
    if toggle.on_hover_text("Replay the recorded turns ahead one after another").clicked() {
        timeline.playing = !playing_back;
    }
    let mut mark = timeline.dragging.unwrap_or(position.at);
    let slider = egui::Slider::new(&mut mark, position.oldest..=last.max(position.oldest)).show_value(false);
    let response = ui.add_enabled(last > position.oldest, slider);
    crate::accessibility::accessible_name(ui, &response, "turn");
    if response.dragged() || response.changed() {
        timeline.dragging = Some(mark);
    }
    // Going to a turn replays up to it: sent once the scrubber is let go.
    if !response.dragged()
        && let Some(target) = timeline.dragging.take()
        && target != position.at
    {
        state.outbox.push(Command::Play(PlayCommand::GoToTurn(target)));
    }
    let (first, newest) = position.turn_range;
    let what = if position.opened { "recording" } else { "session" };
    let turn = state.snapshot.turn;
    let changed = if position.changed { " · changed this turn (⏮ goes to its start)" } else { "" };
    ui.label(format!(
        "turn {turn} · {} back, {} ahead{changed} · turns {first}–{newest} of the {what}",
        position.back, position.forward
    ))
    .on_hover_text(format!("at mark {mark} of {last}; about {} KiB kept to step back", position.kept_bytes / 1024));
    if position.forward > 0 || position.opened {
        let from_here = ui.button("▶ Play from here").on_hover_text(
            "Go on playing from this turn: the next input drops the recorded turns ahead (the recording notes it)",
        );
        if from_here.clicked() {
            state.viewport.timeline.playing = false;
            state.outbox.push(Command::Play(PlayCommand::Pause(false)));
            state.viewport.focus_requested = true;
        }
    }
    if playing_back && !state.busy {
        let timeline = &mut state.viewport.timeline;
        if timeline.last_step.is_none_or(|at| at.elapsed() >= TIMELINE_STEP) {
            timeline.last_step = Some(std::time::Instant::now());
            state.outbox.push(Command::Play(PlayCommand::StepForward));
        }
        ui.ctx().request_repaint_after(TIMELINE_STEP);
    } else if position.forward == 0 {
        state.viewport.timeline.playing = false;
    }
}
