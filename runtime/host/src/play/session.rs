//! Play mode on the runtime thread: the edit state set aside on Play and put back on Stop,
//! with the editor's undo history (see [`crate::play`]).

use super::{PlayEffects, PlayHost, PlaySession};
use crate::cx::Cx;
use crate::debugging::stops::Stops;
use crate::workbench::Workbench;
use nefia_game::display::Input;
use nefia_game::display::LogLevel;
use nefia_game::symbol::Symbol;
use nefia_lua::gui;
use nefia_protocol::message::{Hint, HostEvent, RefusalKind, Refused};
use nefia_protocol::play::PlayFrom;
use nefia_protocol::play::{PlayCommand, PlayView};

impl PlaySession {
    /// The play subsystem's part of the snapshot.
    pub(crate) fn view(&self, cx: &Cx) -> PlayView {
        PlayView { playing: self.playing(), paused: self.paused.get(), recording: self.recording_position(cx) }
    }

    /// Handles the play commands; a workbench preview closes at Play, unless it is what is
    /// played.
    pub(crate) fn handle(&self, cx: &Cx, host: &PlayHost, workbench: &Workbench, command: PlayCommand) -> PlayEffects {
        match command {
            PlayCommand::Start(from) => return self.begin_play(cx, workbench, from),
            PlayCommand::Stop => {
                if cx.waiting() {
                    // Lua code waits in a menu or a breakpoint: let it unwind first.
                    self.stop_pending.set(true);
                    return PlayEffects { stop: true, ..PlayEffects::default() };
                }
                return self.end_play(cx, host.stops);
            }
            PlayCommand::Pause(paused) => self.paused.set(paused && self.playing()),
            PlayCommand::ListSaves => {
                let saves = nefia_lua::save::list_saves(&cx.runtime.engine().save_dir());
                cx.send(HostEvent::Saves(saves));
            }
            PlayCommand::SaveAndStop => return self.save_and_stop(cx, host, workbench),
            PlayCommand::StepTurn => return self.step_turn(cx),
            PlayCommand::StepBack => self.step_back(cx, host),
            PlayCommand::StepForward => self.step_forward(cx, host),
            PlayCommand::GoToTurn(mark) => {
                let outer = self.going_to.replace(Some(mark));
                self.go_to_mark(cx, host, mark);
                self.going_to.set(outer);
            }
            PlayCommand::OpenRecording(path) => return self.open_recording(cx, workbench, &path),
            PlayCommand::StepBackInCode(kind) => self.request_rewind(cx, kind),
            PlayCommand::FindChanges { uid, field } => self.find_changes(cx, uid, &field),
            PlayCommand::GoToChange { mark, nth, uid, field } => {
                self.go_to_change(cx, host, mark, nth, uid, Symbol::intern(&field))
            }
        }
        PlayEffects::default()
    }

    /// Input for the top UI layer, or the game when no layer is open and the game is played.
    /// Nothing reaches the game while it is stopped on the error screen (`stops`) or at a
    /// breakpoint; a break asked for pauses at the next key.
    pub(crate) fn input(&self, cx: &Cx, stops: &Stops, input: Input) -> PlayEffects {
        if stops.on_error_screen() {
            return PlayEffects::default();
        }
        if cx.at_breakpoint() {
            // The game's code is stopped mid-line: no key reaches it until it goes on.
            let message = "the game is stopped at a breakpoint: continue to go on";
            cx.refuse(Refused::new(RefusalKind::Play, message).hinting(Hint::Continue));
            return PlayEffects::default();
        }
        let context = match &input {
            Input::Key(key) => format!("key {key}"),
            other => format!("{other:?}"),
        };
        let playing = self.playing() && !self.paused.get();
        let result = gui::handle_input(cx.runtime.lua(), &input).and_then(|handled| match (handled, &input) {
            (false, Input::Key(key)) if playing => self.game_key(cx, stops, key),
            _ => Ok(()),
        });
        PlayEffects {
            failed: result.err().map(|error| nefia_lua::error::game_error(context, &error)),
            ..PlayEffects::default()
        }
    }

    /// Saves the game as the current save (see [`nefia_lua::save::save_current`]), then stops
    /// if it was saved.
    fn save_and_stop(&self, cx: &Cx, host: &PlayHost, workbench: &Workbench) -> PlayEffects {
        if !self.playing() {
            cx.refuse(Refused::new(RefusalKind::Play, "there is no game to save: save while playing"));
            return PlayEffects::default();
        }
        match nefia_lua::save::save_current(cx.runtime.lua()) {
            Ok(_) => self.handle(cx, host, workbench, PlayCommand::Stop),
            Err(error) => {
                cx.refuse(Refused::new(RefusalKind::Play, format!("the game was not saved: {error}")));
                PlayEffects::default()
            }
        }
    }

    /// Lets one turn pass with the player waiting (`base.on_wait_turn`).
    fn step_turn(&self, cx: &Cx) -> PlayEffects {
        if !self.playing() {
            cx.refuse(Refused::new(RefusalKind::Play, "Step works while playing"));
            return PlayEffects::default();
        }
        let lua = cx.runtime.lua();
        let trigger = lua.create_table().and_then(|params| {
            nefia_lua::event::trigger(lua, Symbol::intern("base.on_wait_turn"), mlua::Value::Nil, params)
        });
        PlayEffects {
            failed: trigger.err().map(|error| nefia_lua::error::game_error("step".into(), &error)),
            ..PlayEffects::default()
        }
    }

    /// Starts playing; a failure leaves the edit state as it was.
    pub(crate) fn begin_play(&self, cx: &Cx, workbench: &Workbench, from: PlayFrom) -> PlayEffects {
        if self.playing() {
            cx.refuse(Refused::new(RefusalKind::Play, "already playing: stop first").hinting(Hint::StopPlay));
            return PlayEffects::default();
        }
        // A workbench preview is not part of the edit state: it closes, its map with it —
        // unless it is what is played ("Play this"); then it shows again after Stop.
        let preview = workbench.preview_map();
        if !matches!(from, PlayFrom::Map(map) if Some(map) == preview) {
            workbench.close(cx);
        }
        let began = from.describe(&cx.runtime.maps());
        match super::EditState::begin(cx.runtime, from) {
            Ok(edit) => {
                *self.edit.borrow_mut() = Some(edit);
                cx.runtime.engine().clear_messages();
                self.paused.set(false);
                cx.runtime.engine().start_playing();
                self.start_recording(cx, began);
                PlayEffects { began: true, ..PlayEffects::default() }
            }
            Err(error) => {
                cx.refuse(Refused::new(RefusalKind::Play, format!("cannot play: {error}")));
                PlayEffects::default()
            }
        }
    }

    /// Stops playing and puts the edit state back, with no error screen or break request
    /// (`stops`) left of the play; the effects say where the session's recording was
    /// written, if it was.
    pub(crate) fn end_play(&self, cx: &Cx, stops: &Stops) -> PlayEffects {
        self.stop_pending.set(false);
        let Some(edit) = self.edit.borrow_mut().take() else { return PlayEffects::default() };
        let recorded = self.finish_recording(cx);
        stops.clear();
        self.paused.set(false);
        let engine = cx.runtime.engine();
        engine.stop_playing();
        engine.clear_messages();
        if let Err(error) = edit.restore(cx.runtime) {
            gui::log(cx.runtime.lua(), LogLevel::Error, format!("the edit state could not be put back: {error}"));
        }
        PlayEffects { ended: true, recorded, ..PlayEffects::default() }
    }

    /// Ends play once the code that was running has unwound, if Stop or `Play.quit()` asked.
    pub(crate) fn finish_play_if_asked(&self, cx: &Cx, stops: &Stops) -> PlayEffects {
        let quit = cx.runtime.engine().take_quit_request();
        if self.stop_pending.get() || quit { self.end_play(cx, stops) } else { PlayEffects::default() }
    }

    /// A key with no UI layer open goes to the game: `base.on_key_pressed`. A break asked
    /// for (`stops`) pauses first, at this turn boundary; the key (a local there) can be
    /// changed.
    pub(crate) fn game_key(&self, cx: &Cx, stops: &Stops, key: &str) -> mlua::Result<()> {
        let lua = cx.runtime.lua();
        let mut key = key.to_owned();
        if stops.take_break_request() {
            let env = cx.runtime.engine().repl_env();
            let turn = cx.runtime.world().turn;
            let player = cx.runtime.world().player();
            let player = player.map(|uid| nefia_lua::handle::push_object(lua, uid)).transpose()?;
            key = lua
                .load("local key, player, turn = ... pause() return key")
                .set_name("=turn boundary")
                .set_environment(env)
                .call((key, player, turn))?;
        }
        let params = lua.create_table()?;
        params.set("key", key)?;
        nefia_lua::event::trigger(lua, Symbol::intern("base.on_key_pressed"), mlua::Value::Nil, params)?;
        Ok(())
    }
}
