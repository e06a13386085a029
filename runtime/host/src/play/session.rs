//! Play mode on the runtime thread: the edit state set aside on Play and put back on Stop,
//! with the editor's undo history (see [`crate::play`]).

use super::{PlayHost, PlaySession};
use crate::cx::Cx;
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

    /// Handles the play commands.
    pub(crate) fn handle(&self, cx: &Cx, host: &dyn PlayHost, command: PlayCommand) {
        match command {
            PlayCommand::Start(from) => self.begin_play(cx, host, from),
            PlayCommand::Stop => {
                if cx.waiting() {
                    // Lua code waits in a menu or a breakpoint: let it unwind first.
                    self.stop_pending.set(true);
                    host.ask_stop();
                } else {
                    self.end_play(cx, host);
                }
            }
            PlayCommand::Pause(paused) => self.paused.set(paused && self.playing()),
            PlayCommand::ListSaves => {
                let saves = nefia_lua::save::list_saves(&cx.runtime.engine().save_dir());
                cx.send(HostEvent::Saves(saves));
            }
            PlayCommand::StepTurn => self.step_turn(cx, host),
            PlayCommand::StepBack => self.step_back(cx, host),
            PlayCommand::StepForward => self.step_forward(cx, host),
            PlayCommand::GoToTurn(mark) => {
                let outer = self.going_to.replace(Some(mark));
                self.go_to_mark(cx, host, mark);
                self.going_to.set(outer);
            }
            PlayCommand::OpenRecording(path) => self.open_recording(cx, host, &path),
            PlayCommand::StepBackInCode(kind) => self.request_rewind(cx, kind),
            PlayCommand::FindChanges { uid, field } => self.find_changes(cx, uid, &field),
            PlayCommand::GoToChange { mark, nth, uid, field } => {
                self.go_to_change(cx, host, mark, nth, uid, Symbol::intern(&field))
            }
        }
    }

    /// Input for the top UI layer, or the game when no layer is open and the game is played.
    /// Nothing reaches the game while it is stopped on the error screen or at a breakpoint.
    pub(crate) fn input(&self, cx: &Cx, host: &dyn PlayHost, input: Input) {
        if host.on_error_screen() {
            return;
        }
        if host.at_breakpoint() {
            // The game's code is stopped mid-line: no key reaches it until it goes on.
            let message = "the game is stopped at a breakpoint: continue to go on";
            cx.refuse(Refused::new(RefusalKind::Play, message).hinting(Hint::Continue));
            return;
        }
        let context = match &input {
            Input::Key(key) => format!("key {key}"),
            other => format!("{other:?}"),
        };
        let playing = self.playing() && !self.paused.get();
        let result = gui::handle_input(cx.runtime.lua(), &input).and_then(|handled| match (handled, &input) {
            (false, Input::Key(key)) if playing => self.game_key(cx, host, key),
            _ => Ok(()),
        });
        if let Err(error) = result {
            host.fail(nefia_lua::error::game_error(context, &error));
        }
    }

    /// Lets one turn pass with the player waiting (`base.on_wait_turn`).
    fn step_turn(&self, cx: &Cx, host: &dyn PlayHost) {
        if !self.playing() {
            cx.refuse(Refused::new(RefusalKind::Play, "Step works while playing"));
            return;
        }
        let lua = cx.runtime.lua();
        let trigger = lua.create_table().and_then(|params| {
            nefia_lua::event::trigger(lua, Symbol::intern("base.on_wait_turn"), mlua::Value::Nil, params)
        });
        if let Err(error) = trigger {
            host.fail(nefia_lua::error::game_error("step".into(), &error));
        }
    }

    /// Starts playing; a failure leaves the edit state as it was.
    pub(crate) fn begin_play(&self, cx: &Cx, host: &dyn PlayHost, from: PlayFrom) {
        if self.playing() {
            cx.refuse(Refused::new(RefusalKind::Play, "already playing: stop first").hinting(Hint::StopPlay));
            return;
        }
        // A workbench preview is not part of the edit state: it closes, its map with it —
        // unless it is what is played ("Play this"); then it shows again after Stop.
        host.play_begins(&from);
        let began = from.describe(&cx.runtime.maps());
        match super::EditState::begin(cx.runtime, from) {
            Ok(edit) => {
                *self.edit.borrow_mut() = Some(edit);
                cx.runtime.engine().clear_messages();
                self.paused.set(false);
                cx.runtime.engine().start_playing();
                // Edits made while playing are undone with the play, not one by one.
                *self.history.borrow_mut() = Some(host.set_history_aside());
                self.start_recording(cx, began);
            }
            Err(error) => {
                cx.refuse(Refused::new(RefusalKind::Play, format!("cannot play: {error}")));
            }
        }
    }

    /// Stops playing and puts the edit state back; returns where the session's recording
    /// was written, if it was.
    pub(crate) fn end_play(&self, cx: &Cx, host: &dyn PlayHost) -> Option<std::path::PathBuf> {
        self.stop_pending.set(false);
        let edit = self.edit.borrow_mut().take()?;
        let recorded = self.finish_recording(cx);
        host.clear_error_screen();
        self.paused.set(false);
        host.take_break_request();
        let engine = cx.runtime.engine();
        engine.stop_playing();
        engine.clear_messages();
        if let Err(error) = edit.restore(cx.runtime) {
            gui::log(cx.runtime.lua(), LogLevel::Error, format!("the edit state could not be put back: {error}"));
        }
        // The play's history goes with the played world (its pins were in that world).
        host.put_history_back(self.history.borrow_mut().take().unwrap_or_default());
        recorded
    }

    /// Ends play once the code that was running has unwound, if Stop or `Play.quit()` asked;
    /// returns where the session's recording was written, if it was.
    pub(crate) fn finish_play_if_asked(&self, cx: &Cx, host: &dyn PlayHost) -> Option<std::path::PathBuf> {
        let quit = cx.runtime.engine().take_quit_request();
        if self.stop_pending.get() || quit { self.end_play(cx, host) } else { None }
    }

    /// A key with no UI layer open goes to the game: `base.on_key_pressed`. A break asked
    /// for pauses first, at this turn boundary; the key (a local there) can be changed.
    pub(crate) fn game_key(&self, cx: &Cx, host: &dyn PlayHost, key: &str) -> mlua::Result<()> {
        let lua = cx.runtime.lua();
        let mut key = key.to_owned();
        if host.take_break_request() {
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
